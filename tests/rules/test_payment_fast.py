"""The listing's payability shortcut (rules.brazil.payment.quick_payable: Hall's count over the
goods and gold cards, then the search only where combat cards could still decide) gives
exactly the verdict of the full payment search (R-VOC-2, R-VOC-3, R-VOC-6)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.brazil import apply, legal_actions, new_game
from rules.brazil.catalog import CROPS
from rules.brazil.game import Context
from rules.brazil.payment import (
    Lot,
    PayabilityCache,
    PayContext,
    Sources,
    quick_payable,
    solve,
    sources,
)
from rules.brazil.state import GameState

TOKENS = [*CROPS, "gold", "science", "any", "coffee|cotton", "sugar_cane|brazilwood"]
PROVIDES = [frozenset({c}) for c in CROPS] + [
    frozenset(CROPS),
    frozenset({"gold", *CROPS}),
    frozenset({"science", "gold", *CROPS}),
    frozenset({"science"}),
    frozenset({"gold"}),
]


@settings(max_examples=400, deadline=None)
@given(
    lots=st.lists(
        st.tuples(st.sampled_from(PROVIDES), st.integers(min_value=1, max_value=3)), max_size=6
    ),
    cost=st.lists(st.sampled_from(TOKENS), min_size=1, max_size=7),
)
def test_hall_count_agrees_with_the_search_R_VOC_2(
    lots: list[tuple[frozenset[str], int]], cost: list[str]
) -> None:
    """Without combat cards the count decides, and decides as the search does."""
    src = Sources(
        [Lot("reserve", str(i), p, n, 1.0) for i, (p, n) in enumerate(lots)], Counter(), [], False
    )
    fast = quick_payable(src, cost)
    assert fast is not None
    assert fast == (solve(src, cost) is not None)


def _costs(g: Context, rng: random.Random) -> list[list[str]]:
    cat = g.cat
    out = [list(pa.cost) for pa in cat.paintings.values()]
    out += [list(pr.cost) for pr in cat.products.values()]
    out += [list(a.cost) for a in cat.arches.values()]
    out += [list(b.cost) for b in cat.sides.values()]
    out += [[rng.choice(TOKENS) for _ in range(rng.randint(1, 6))] for _ in range(12)]
    return [list(c) for c in sorted({tuple(sorted(c)) for c in out if c})]


CONTEXTS = [
    PayContext(),
    PayContext(any_crop_for_crop=True),
    PayContext(exact=True),
    PayContext(no_cards=True),
]


def _states(players: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    s = new_game(players, seed)
    out = []
    while s.phase != "ended" and s.round <= 45:
        if s.phase == "play" and rng.random() < 0.07:
            out.append(s)
        s, _ = apply(s, rng.choice(legal_actions(s)))
    return out


@pytest.mark.slow
def test_listing_payability_matches_the_search_over_self_play_R_VOC_2() -> None:
    """PayabilityCache.payable (the listing's) == the plain search, every seat, several
    contexts and costs, default and safe sources, over states of seeded games."""
    rng = random.Random(5)
    seen = Counter[tuple[bool | None, bool]]()
    for players, seed in ((2, 31), (3, 32), (4, 33), (4, 34)):
        for s in _states(players, seed):
            g = Context(s)
            cache = PayabilityCache(s)
            costs = _costs(g, rng)
            for seat in range(players):
                for ctx in CONTEXTS:
                    for safe in (False, True):
                        src = sources(s, seat, ctx, safe=safe)
                        for cost in costs:
                            want = solve(src, cost) is not None
                            fast = quick_payable(src, cost)
                            seen[(fast, want)] += 1
                            assert fast in (None, want), (seat, ctx, safe, cost)
                            assert cache.payable(seat, cost, ctx, safe) == want
    # the test sees both verdicts, by the count and by the search
    assert seen[(True, True)] and seen[(False, False)]
    assert seen[(None, True)] + seen[(None, False)] > 0
