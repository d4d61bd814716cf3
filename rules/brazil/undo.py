"""Undo points: which steps of a turn a player may take back.

A step is one ``apply``: ``(before, action, after, events)``. It may be taken back when it
changed nothing anybody could not have seen coming from the action itself, and nobody else
has acted on it:

- it was taken in play by the player whose turn it is, and the turn goes on (the step did
  not hand the turn over, start a round or end the game);
- none of its events ``reveals`` (no card drawn, deck reshuffled, tile flipped or peeked,
  battle cards revealed, espionage, mission revealed, painting or city turned up, card shown
  from a hand — the one table :data:`rules.brazil.messages.REVEALS` decides per message key);
- it used no randomness (the state's RNG counter is unchanged);
- no other seat had to decide: the pending decisions of every other seat are the same before
  and after (a battle that asks the defender for cards is final).

The engine keeps no history: the caller (the game service) holds the log. To undo, it
restores ``before`` of the newest step (storage restores that version); re-applying the same
action gives the same ``after`` again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.brazil.actions import Action
from rules.brazil.events import Event
from rules.brazil.state import GameState

Step = tuple[GameState, Action, GameState, list[Event]]
"""One applied action: the state before, the action, the state after, its events."""


def _others_pending(state: GameState, seat: int) -> list[tuple[int, str, dict[str, Any]]]:
    return [(d.seat, d.kind, d.data) for d in state.pending if d.seat != seat]


def undoable(before: GameState, action: Action, after: GameState, events: list[Event]) -> bool:
    """May this single step be taken back by the seat that took it (see the module doc)?"""
    seat = action.seat
    return (
        before.phase == "play"
        and after.phase == "play"
        and seat == before.current
        and after.current == seat
        and after.round == before.round
        and after.rng.counter == before.rng.counter
        and not any(e.reveals for e in events)
        and _others_pending(before, seat) == _others_pending(after, seat)
    )


def undo_depth(history: Sequence[Step], seat: int) -> int:
    """How many of the newest steps ``seat`` may take back, newest first.

    ``history`` is the game's steps, oldest first, ending with the newest. Counting stops at
    the first step that was not ``seat``'s or not :func:`undoable` — which is at the latest
    the step that began ``seat``'s turn (the previous turn's end is never undoable).
    """
    n = 0
    for before, action, after, events in reversed(history):
        if action.seat != seat or not undoable(before, action, after, events):
            break
        n += 1
    return n
