"""Kuhn poker's face in the game registry (:mod:`rules.games`): ``GAME``.

Undo: every betting decision passes the decision to the other player, who has seen it (a
bet, a check), or ends the hand: no step of Kuhn poker may be taken back
(:func:`undo_depth` is always 0).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from examples.kuhn.actions import Action, Event
from examples.kuhn.engine import (
    apply,
    deciders,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    next_deciders,
    winners,
)
from examples.kuhn.notation import complete, describe_action, format_action, parse_text
from examples.kuhn.state import CARDS, NO_CARD, PLAYERS, KuhnState
from examples.kuhn.view import determinize, view
from rules.games import Game

Step = tuple[KuhnState, Action, KuhnState, list[Event]]


def undo_depth(history: Sequence[Step], seat: int) -> int:
    """How many of the newest steps ``seat`` may take back: none (see the module)."""
    return 0


def check_invariants(state: KuhnState, rng: random.Random) -> None:
    """Chips conserved, distinct cards, views that leak no card (self-play's checks)."""
    total = sum(p.chips for p in state.players) + state.pot
    assert total == PLAYERS * state.options.chips, f"chips not conserved: {total}"
    assert all(p.chips >= 0 for p in state.players), "a stack below zero"
    cards = [p.card for p in state.players]
    if state.phase == "play":
        assert len(set(cards)) == PLAYERS and all(0 <= c < len(CARDS) for c in cards), cards
    else:
        assert cards == [NO_CARD] * PLAYERS, cards
    for seat in [*range(PLAYERS), None]:
        v = view(state, seat)
        for i, p in enumerate(v.players):
            assert i == seat or p.card == NO_CARD, f"the view of {seat} shows seat {i}'s card"
        assert v.rng.seed == 0, "a view shows the seed"


def _legal(state: KuhnState, seat: int | None = None) -> list[Action]:
    if seat is not None and seat not in deciders(state):
        return []
    return legal_actions(state)


def _new_game(players: int = PLAYERS, seed: int | None = None, **options: Any) -> KuhnState:
    return new_game(players, 0 if seed is None else seed, options or None)


def _from_json(data: str | dict[str, Any]) -> Action:
    return Action.from_dict(json.loads(data) if isinstance(data, str) else data)


GAME = Game(
    name="kuhn",
    title="Kuhn poker",
    min_players=PLAYERS,
    max_players=PLAYERS,
    state_type=KuhnState,
    new_game=_new_game,
    legal_actions=_legal,
    apply=apply,
    deciders=deciders,
    is_over=is_over,
    view=view,
    determinize=determinize,
    format_action=lambda state, action: format_action(action),
    parse_text=lambda state, seat, text: parse_text(text, state),
    complete=lambda state, seat, prefix: complete(prefix, state),
    describe_action=lambda state, action: describe_action(action),
    action_to_json=lambda action: json.dumps(action.to_dict(), separators=(",", ":")),
    action_from_json=_from_json,
    final_scores=final_scores,
    winners=winners,
    undo_depth=undo_depth,
    check=check_invariants,
    next_deciders=next_deciders,
)
