"""Brazil: Imperial's face in the game registry (:mod:`rules.games`): the engine's functions
(``rules.brazil.engine``, ``rules.brazil.notation``, ``rules.brazil.view`` …) behind the
arguments every game's face takes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.brazil.actions import Action, parse_action
from rules.brazil.determinize import determinize
from rules.brazil.engine import apply, deciders, is_over, legal_actions
from rules.brazil.notation import complete, describe_action, format_action, parse_text
from rules.brazil.scoring import final_scores
from rules.brazil.setup import new_game
from rules.brazil.state import GameState
from rules.brazil.undo import undo_depth
from rules.brazil.view import view
from rules.games import Game


def _apply(state: GameState, action: Any) -> tuple[GameState, list[Any]]:
    after, events = apply(state, action)
    return after, list(events)


def _scores(state: GameState) -> list[tuple[int, int]]:
    rows = final_scores(state)["scores"]
    return sorted(((int(r["seat"]), int(r["total"])) for r in rows), key=lambda r: -r[1])


def next_deciders(state: GameState) -> list[int] | None:
    """Who takes the next turn once the current player has ended theirs (the next seat in
    order, R-TURN-1), if the game goes on; a defender's cards or a mission choice asked
    within the turn do not count. None during the setup (its choices are simultaneous or
    depend on the capitals taken); nobody once the game is over."""
    if state.phase == "ended":
        return []
    if state.phase != "play":
        return None
    return [(state.current + 1) % state.n]


def _determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    return determinize(state, seat, rng)


def _undo_depth(history: Sequence[tuple[Any, Any, Any, list[Any]]], seat: int) -> int:
    return undo_depth(list(history), seat)


GAME: Game[GameState, Action] = Game(
    name="brazil",
    title="Brazil: Imperial",
    min_players=1,
    max_players=4,
    state_type=GameState,
    new_game=new_game,
    legal_actions=legal_actions,
    apply=_apply,
    deciders=deciders,
    is_over=is_over,
    view=view,
    determinize=_determinize,
    format_action=format_action,
    parse_text=parse_text,
    complete=complete,
    describe_action=lambda state, action: describe_action(state, action, None),
    action_to_json=lambda action: str(action.to_json()),
    action_from_json=parse_action,
    final_scores=_scores,
    winners=lambda state: list(final_scores(state)["winners"]),
    undo_depth=_undo_depth,
    next_deciders=next_deciders,
)
