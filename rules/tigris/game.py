"""Tigris & Euphrates' face in the game registry (:mod:`rules.games`)."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.games import Game
from rules.tigris.actions import Action
from rules.tigris.data import MAX_PLAYERS, MIN_PLAYERS
from rules.tigris.engine import (
    apply,
    deciders,
    is_over,
    legal_actions,
    new_game,
    next_deciders,
    stalled,
)
from rules.tigris.notation import complete, describe_action, format_action, parse_text
from rules.tigris.scoring import final_scores, winners
from rules.tigris.state import TigrisState
from rules.tigris.undo import undo_depth
from rules.tigris.view import determinize, view


def _check(state: TigrisState, rng: random.Random) -> None:
    """Tiles conserved, one leader of a colour per kingdom, views that leak nothing."""
    from rules.tigris.selfplay import check_conservation, check_leaders, check_view

    check_conservation(state)
    check_leaders(state)
    for seat in [*range(len(state.players)), None]:
        check_view(state, seat, rng)


def _legal(state: TigrisState, seat: int | None = None) -> list[Action]:
    """The legal actions of ``seat`` (None: of whoever decides now)."""
    if seat is not None and seat not in deciders(state):
        return []
    return legal_actions(state)


def _new_game(players: int = 2, seed: int | None = None, **options: Any) -> TigrisState:
    return new_game(players, 0 if seed is None else seed, options or None)


def _from_json(data: str | dict[str, Any]) -> Action:
    return Action.from_dict(json.loads(data) if isinstance(data, str) else data)


def _parse(state: TigrisState, seat: int, text: str) -> Action:
    return parse_text(text, state)


GAME: Game[TigrisState, Action] = Game(
    name="tigris",
    title="Tigris & Euphrates",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    state_type=TigrisState,
    new_game=_new_game,
    legal_actions=_legal,
    apply=apply,
    deciders=deciders,
    is_over=is_over,
    view=view,
    determinize=determinize,
    format_action=lambda state, action: format_action(action),
    parse_text=_parse,
    complete=lambda state, seat, prefix: complete(prefix, state),
    describe_action=lambda state, action: describe_action(action),
    action_to_json=lambda action: json.dumps(action.to_dict(), separators=(",", ":")),
    action_from_json=_from_json,
    final_scores=lambda state: [
        (f.seat, f.score) for f in sorted(final_scores(state), key=lambda f: f.rank)
    ],
    winners=winners,
    undo_depth=undo_depth,
    check=_check,
    stalled=stalled,
    next_deciders=next_deciders,
)
