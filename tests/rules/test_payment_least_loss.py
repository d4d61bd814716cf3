"""Issue 22, defect 1: the payment ``legal_actions`` lists for an action with no safe default
loses the fewest VP there are to lose (R-VOC-2, R-END-2; docs/RULINGS.md "Default payment"):
a gold card worth VP at the end is spent only when no payment without it exists.

The check does not use the engine's least-loss search: for every smaller set of the seat's
scoring gold cards, the seat keeps only those (and its other cards) and the action must then
be unpayable (``can_pay``, the plain "can this be paid" search)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from typing import Any

import pytest

from rules.brazil import apply, cost_of, legal_actions, new_game, payment_note
from rules.brazil.catalog import get_catalog
from rules.brazil.payment import can_pay
from rules.brazil.state import GameState

HANDS = ["agriculture", "faith", "frontier", "in_hoc_signo_vinces", "jesuits", "immigration"]


def _vp_of(state: GameState) -> dict[str, int]:
    cat = get_catalog(state.data_pack)
    return {
        c.id: int(c.params.get("vp", 0)) if c.kind == "end" else 0 for c in cat.gold_cards.values()
    }


def _lost(vp: dict[str, int], payment: Any) -> int:
    return sum(vp[it.what] for it in payment or () if it.source == "gold_card")


def _payable_keeping(state: GameState, a: Any, keep: Counter[str], vp: dict[str, int]) -> bool:
    """Can ``a`` be paid when the seat's scoring gold cards are only ``keep``?"""
    st = state.clone()
    p = st.players[a.seat]
    p.gold_cards = [c for c in p.gold_cards if not vp[c]] + list(keep.elements())
    c = cost_of(st, a.replace(payment=None))
    assert c is not None
    return c.free or can_pay(st, a.seat, list(c.tokens), c.context)


def _fewer_vp_payable(state: GameState, a: Any, lost: int, vp: dict[str, int]) -> bool:
    held = Counter(c for c in state.players[a.seat].gold_cards if vp[c])
    kinds = sorted(held)
    for counts in product(*(range(held[k] + 1) for k in kinds)):
        keep = Counter(dict(zip(kinds, counts, strict=True)))
        if sum(vp[k] * n for k, n in keep.items()) < lost and _payable_keeping(state, a, keep, vp):
            return True
    return False


def _states(n_games: int, seed0: int) -> Any:
    """States along seeded random games of 1–4 players; at some of them the active seat's
    gold cards are swapped for a random hand mixing scoring and free-action cards, with
    science in its reserve now and then (so that the choice between them comes up)."""
    for k in range(n_games):
        players = 1 + k % 4
        rng = random.Random(seed0 + k)
        state = new_game(players, seed=seed0 + k)
        while state.phase != "ended" and state.round <= 25:
            yield state
            if state.phase == "play" and not state.pending and rng.random() < 0.3:
                st = state.clone()
                p = st.players[st.current]
                p.gold_cards = rng.sample(HANDS, rng.randint(1, 3))
                if rng.random() < 0.5:
                    p.reserve["science"] = min(2, p.reserve.get("science", 0) + 1)
                yield st
            state, _ = apply(state, rng.choice(legal_actions(state)))


@pytest.mark.slow
def test_listed_payment_loses_the_fewest_vp__R_VOC_2_R_END_2() -> None:
    vp: dict[str, int] = {}
    checked = with_card = 0
    for state in _states(28, 22000):
        if not vp:
            vp = _vp_of(state)
        for a in legal_actions(state):
            if getattr(a, "payment", None) is None or not hasattr(a, "payment"):
                continue
            lost = _lost(vp, a.payment)
            checked += 1
            if lost:
                with_card += 1
                note = payment_note(state, a)
                assert note is not None and f"{lost} VP at the end" in note, (a, note)
            else:
                assert payment_note(state, a) is None, a
            assert not _fewer_vp_payable(state, a, lost, vp), (a, state.players[a.seat])
    print(f"least loss: {checked} listed payments checked, {with_card} spending a scoring card")
    assert checked > 300 and with_card > 20, (checked, with_card)
