"""The payment search's memo (rules.payment.solve) answers exactly what the plain search
answers (R-VOC-2, R-VOC-6), over self-play states: every call during listing and applying
is checked against the unmemoised search, and listings with a warm memo equal listings
with an empty one."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rules import apply, legal_actions, new_game
from rules import payment as P


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_memoised_solve_equals_plain_search_R_VOC_2(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    memoised = P.solve
    calls = 0

    def checked(src: P.Sources, cost: Sequence[str]) -> P.Solution | None:
        nonlocal calls
        calls += 1
        got = memoised(src, cost)
        want = P.solve_uncached(src, cost)
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert (got.tokens, got.lots, got.assign) == (want.tokens, want.lots, want.assign)
            assert P.to_items(got) == P.to_items(want)
        return got

    monkeypatch.setattr(P, "solve", checked)
    rng = random.Random(players)
    st = new_game(players, 80 + players)
    while st.phase != "ended" and st.round <= 40:
        st, _ = apply(st, rng.choice(legal_actions(st)))
    assert calls > 100  # the check ran


def test_listing_with_warm_memo_equals_cold_R_VOC_2() -> None:
    rng = random.Random(5)
    st = new_game(4, 85)
    while st.phase != "ended" and st.round <= 40:
        warm = legal_actions(st)
        P._SOLVED.clear()
        assert legal_actions(st) == warm
        st, _ = apply(st, rng.choice(warm))
