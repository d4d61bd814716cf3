"""Tigris & Euphrates rules engine (Reiner Knizia, 2-4 players) — pure: no I/O but reading
its own data files at import, no clock, randomness only from the state's seeded RNG.

The same face as Brazil: Imperial's engine (``rules``)::

    from rules import tigris as T
    state = T.new_game(players=3, seed=7, options={"open_scoring": False})
    while not T.is_over(state):
        seat = T.deciders(state)[0]          # who decides now (T-TURN-5)
        action = T.legal_actions(state)[0]   # that seat's legal actions
        state, events = T.apply(state, action)

- ``apply`` returns a new state and the events (message key + parameters; English in
  ``rules.tigris.messages.EN``); an illegal action raises a ``RulesError`` subclass
  (``rules.errors``) naming the rule ID, and the state is unchanged.
- Decisions by players other than the active one — support in a revolt or war (attacker then
  defender), the war order, the monument choice, the treasure choice — are ``state.pending``.
- ``view(state, seat)`` redacts (T-INFO); ``determinize(view, seat, rng)`` deals the unseen.
- ``final_scores(state)``: weakest colour, treasures wild, tie-breaks (T-FINAL).
- ``undoable``/``undo_depth``: which steps may be taken back.
- ``stalled(state)``: a whole round of turns in which nothing moved the game towards its end
  (``idle_turns``: no tile drawn, no treasure taken); the computer players then progress.
- Notation (``rules.tigris.notation``, grammar in its docstring): ``tile red F4``,
  ``leader king J7``, ``withdraw trader``, ``catastrophe C3``, ``swap red red blue``,
  ``pass``, ``support 2``, ``war-order green``, ``monument red-blue H4``, ``treasure P2``.
- ``python -m rules.tigris selfplay --games N --players P`` and ``python -m rules.tigris bench``.
"""

from __future__ import annotations

from rules.errors import IllegalAction, InvalidAction, NotYourDecision, RulesError
from rules.tigris.actions import Action
from rules.tigris.engine import (
    apply,
    check,
    deciders,
    idle_turns,
    is_over,
    legal_actions,
    new_game,
    stalled,
)
from rules.tigris.events import Event
from rules.tigris.messages import EN, render
from rules.tigris.notation import complete, describe_action, format_action, legal_texts, parse_text
from rules.tigris.scoring import FinalScore, final_scores, winners
from rules.tigris.state import Options, Pending, TigrisState
from rules.tigris.undo import undo_depth, undoable
from rules.tigris.view import determinize, view


def pending_for(state: TigrisState, seat: int) -> list[Pending]:
    """The decisions ``seat`` must take now."""
    return [p for p in state.pending if p.seat == seat]


__all__ = [
    "EN",
    "Action",
    "Event",
    "FinalScore",
    "IllegalAction",
    "InvalidAction",
    "NotYourDecision",
    "Options",
    "Pending",
    "RulesError",
    "TigrisState",
    "apply",
    "check",
    "complete",
    "deciders",
    "describe_action",
    "determinize",
    "final_scores",
    "format_action",
    "idle_turns",
    "is_over",
    "legal_actions",
    "legal_texts",
    "new_game",
    "parse_text",
    "pending_for",
    "render",
    "stalled",
    "undo_depth",
    "undoable",
    "view",
    "winners",
]
