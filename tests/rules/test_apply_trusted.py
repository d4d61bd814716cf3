"""The trusted apply (``apply(state, action, checked=False)``, speed pass 4): for every
action listed by ``legal_actions`` of a state, it gives exactly the state (JSON) and the
events of the checked apply, over seeded random games of 1 to 4 players (R-SETUP-7 seats,
R-TURN-1 turns, every handler the games reach)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.brazil import apply, legal_actions, new_game
from rules.brazil.events import Event
from rules.errors import RulesError


def _events_json(events: list[Event]) -> list[str]:
    return [e.model_dump_json() for e in events]


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_trusted_apply_equals_checked_apply_on_listed_actions(players: int) -> None:
    kinds: Counter[str] = Counter()
    paid = 0
    for seed in range(3):
        game_seed = 7000 + 10 * players + seed
        rng = random.Random(game_seed)
        st = new_game(players, game_seed)
        while st.phase != "ended" and st.round <= 40:
            before = st.model_dump_json()
            acts = legal_actions(st)
            # every listed action of a few states; one random action of the others
            pool = acts if rng.random() < 0.05 else [rng.choice(acts)]
            for a in pool:
                checked, ev_c = apply(st, a)
                trusted, ev_t = apply(st, a, checked=False)
                assert trusted.model_dump_json() == checked.model_dump_json(), a
                assert _events_json(ev_t) == _events_json(ev_c), a
                kinds[a.type] += 1
                paid += getattr(a, "payment", None) is not None
            assert st.model_dump_json() == before  # neither apply changed the given state
            st, _ = apply(st, rng.choice(acts), checked=False)
    # the games reach the handlers whose checks the trusted apply skips
    for kind in ("move", "build", "recruit", "end_turn"):
        assert kinds[kind] > 0, kinds
    if players > 1:
        assert paid > 0  # listed with a payment (no safe default): check_payment skipped


def test_checked_apply_still_refuses_an_illegal_action_R_TURN_1() -> None:
    """The default stays checked: an action of a seat whose turn it is not is refused."""
    rng = random.Random(3)
    st = new_game(2, 3)
    while st.phase != "play" or st.pending:
        st, _ = apply(st, rng.choice(legal_actions(st)))
    from rules.brazil import actions as A

    other = 1 - st.current
    with pytest.raises(RulesError):
        apply(st, A.EndTurn(seat=other))
