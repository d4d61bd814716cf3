"""Brazil: Imperial's rules engine — pure: no I/O, no clock, randomness from the state's RNG.
Its face in the game registry is :data:`GAME` (:mod:`rules.games`).

Typical use::

    from rules.brazil import new_game, legal_actions, apply
    state = new_game(players=2, seed=42)
    while not is_over(state):
        action = legal_actions(state)[0]
        state, events = apply(state, action)

``apply`` returns a new state and the events (what happened); an illegal action raises a
:class:`RulesError` naming the rule and leaves the state unchanged. ``view(state, seat)``
redacts what a seat (or a spectator, ``None``) may not see.
"""

from __future__ import annotations

from rules.brazil.actions import Action, ActionAdapter, PayItem, parse_action
from rules.brazil.catalog import Catalog, get_catalog, load_catalog
from rules.brazil.decisions import DECISIONS, DecisionKind
from rules.brazil.determinize import determinize
from rules.brazil.engine import apply, deciders, is_over, legal_actions, pending_for
from rules.brazil.events import Event
from rules.brazil.face import GAME
from rules.brazil.messages import render_message
from rules.brazil.notation import (
    AmbiguousAction,
    complete,
    describe_action,
    format_action,
    legal_texts,
    parse_text,
)
from rules.brazil.paying import (
    Cost,
    PaymentStep,
    PayOption,
    cost_of,
    default_payment,
    payment_note,
    payment_note_msg,
    payment_step,
)
from rules.brazil.scoring import final_scores, score
from rules.brazil.setup import new_game
from rules.brazil.state import GameState, Pending, PendingKind
from rules.brazil.undo import undo_depth, undoable
from rules.brazil.view import view
from rules.errors import DataError, IllegalAction, InvalidAction, NotYourDecision, RulesError


def replay_step(state_json: str, action_json: str) -> str:
    """Apply one JSON action to a JSON state and return the new state's JSON (storage replay)."""
    state = GameState.model_validate_json(state_json)
    new, _ = apply(state, parse_action(action_json))
    return new.model_dump_json()


__all__ = [
    "DECISIONS",
    "GAME",
    "Action",
    "ActionAdapter",
    "AmbiguousAction",
    "Catalog",
    "Cost",
    "DataError",
    "DecisionKind",
    "Event",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "NotYourDecision",
    "PayItem",
    "PayOption",
    "PaymentStep",
    "Pending",
    "PendingKind",
    "RulesError",
    "apply",
    "complete",
    "cost_of",
    "deciders",
    "default_payment",
    "describe_action",
    "determinize",
    "final_scores",
    "format_action",
    "get_catalog",
    "is_over",
    "legal_actions",
    "legal_texts",
    "load_catalog",
    "new_game",
    "parse_action",
    "parse_text",
    "payment_note",
    "payment_note_msg",
    "payment_step",
    "pending_for",
    "render_message",
    "replay_step",
    "score",
    "undo_depth",
    "undoable",
    "view",
]
