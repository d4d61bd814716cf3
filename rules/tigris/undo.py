"""Undo points: which steps a player may take back.

A step ``(before, action, after, events)`` may be taken back by the seat that took it when:
it was the active player's own action in play and the turn goes on (same active player, same
turn, the game not over); it used no randomness (the RNG counter is unchanged: no tile drawn);
none of its events reveals anything (no draw); and no other seat's pending decision appeared
or changed (a conflict that asks another player to commit is final). Placing a tile or a
leader, a catastrophe, a withdrawal, a monument choice, a treasure choice by the active player
are typically undoable; a swap (draws), the end of a turn (refill), a revolt or war once the
other side is asked, are not.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.tigris.actions import Action
from rules.tigris.events import Event
from rules.tigris.state import TigrisState

Step = tuple[TigrisState, Action, TigrisState, list[Event]]


def _others(state: TigrisState, seat: int) -> list[tuple[str, int, int]]:
    return [(p.kind, p.seat, p.square) for p in state.pending if p.seat != seat]


def undoable(before: TigrisState, action: Action, after: TigrisState, events: list[Event]) -> bool:
    seat = action.seat
    return (
        before.phase == "play"
        and after.phase == "play"
        and seat == before.active
        and after.active == seat
        and after.turn == before.turn
        and after.rng.counter == before.rng.counter
        and not any(e.reveals for e in events)
        and _others(before, seat) == _others(after, seat)
    )


def undo_depth(history: Sequence[Step], seat: int) -> int:
    """How many of the newest steps ``seat`` may take back, newest first."""
    n = 0
    for before, action, after, events in reversed(history):
        if action.seat != seat or not undoable(before, action, after, events):
            break
        n += 1
    return n
