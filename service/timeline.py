"""A game's timeline: the public map after every turn, replayed from its log."""

from __future__ import annotations

from collections.abc import Sequence

from rules.brazil import GameState, apply, parse_action, view
from rules.brazil.events import Event
from storage.models import LogEntry


def timeline_frames(entries: Sequence[LogEntry]) -> list[tuple[GameState, list[Event]]]:
    """The spectator's view of the state after every turn, and that turn's events, replayed
    from a game's log (undo and rollback entries restore their snapshot)."""
    frames: list[tuple[GameState, list[Event]]] = []
    st: GameState | None = None
    turn: list[Event] = []
    for e in entries:
        if e.action_json is None:
            if e.snapshot_json:
                st, turn = GameState.model_validate_json(e.snapshot_json), []
            continue
        if st is None:
            continue
        after, events = apply(st, parse_action(e.action_json))
        turn += events
        if (st.current, st.round, st.phase) != (after.current, after.round, after.phase):
            frames.append((view(after, None), turn))
            turn = []
        st = after
    if st is not None and turn:
        frames.append((view(st, None), turn))
    return frames
