"""A game's timeline: the public board after every turn, replayed from its log through the
game's adapter (:mod:`service.games`): Brazil: Imperial's map, Tigris & Euphrates' board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.games import adapter
from storage.models import EntryKind, LogEntry


def timeline_frames(
    entries: Sequence[LogEntry], game: str | None = None
) -> list[tuple[Any, list[Any]]]:
    """The spectator's view of the state after every turn, and that turn's events, replayed
    from a game's log (undo and rollback entries restore their snapshot)."""
    A = adapter(game)
    frames: list[tuple[Any, list[Any]]] = []
    st: Any = None
    turn: list[Any] = []
    for e in entries:
        if e.action_json is None or e.kind in (EntryKind.UNDO, EntryKind.ROLLBACK):
            if e.snapshot_json:
                st, turn = A.load(e.snapshot_json), []
            continue
        if st is None:
            continue
        after, events = A.apply(st, A.parse_action(e.action_json))
        turn += events
        if A.turn_key(st) != A.turn_key(after):
            frames.append((A.timeline_frame(after), turn))
            turn = []
        st = after
    if st is not None and turn:
        frames.append((A.timeline_frame(st), turn))
    return frames
