"""Export and import of one game as a single JSON file (bug reports, moving servers).

The file holds the game's settings, seats (with final scores), status, current state and the
full action log including the initial state, all as readable JSON (not JSON-in-strings)::

    {
      "format": "brazil-imperial-game",
      "format_version": 1,
      "exported_at": "2025-01-01T12:00:00.000000+00:00",
      "game": {"id": 7, "channel_id": ..., "status": "running", "version": 42, "settings": {...},
               "created_at": ..., "updated_at": ..., "finished_at": null, "guild_id": ...},
      "seats": [{"colour": "red", "user_id": ..., "score": null, "winner": false}, ...],
      "state": {...},
      "log": [{"version": 0, "seat": null, "action": null, "events": [], "state": {...initial},
               "state_hash": "...", "created_at": ...},
              {"version": 1, "seat": "red", "action": {...}, "events": [...], "state": null,
               "state_hash": "...", "created_at": ...}, ...]
    }

Importing checks the format version and the log's integrity (versions contiguous from 0 to the
game's version, initial state present, recorded hashes consistent with the states).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Final, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue, ValidationError

from storage.errors import InvalidExport
from storage.jsonutil import state_hash
from storage.models import GameRecord, GameSettings, GameStatus, LogEntry, Seat

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_FORMAT_VERSION",
    "ExportedGame",
    "ExportedLogEntry",
    "GameExport",
    "ImportPlan",
    "build_export",
    "dump_export",
    "load_export",
    "plan_import",
]

EXPORT_FORMAT: Final = "brazil-imperial-game"
EXPORT_FORMAT_VERSION = 1


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ExportedGame(_Frozen):
    id: int
    channel_id: int
    guild_id: int | None = None
    status: GameStatus
    version: int = Field(ge=0)
    settings: GameSettings
    created_at: AwareDatetime
    updated_at: AwareDatetime
    finished_at: AwareDatetime | None = None


class ExportedLogEntry(_Frozen):
    version: int = Field(ge=0)
    seat: str | None = None
    action: JsonValue = Field(default=None, description="ignored for version 0")
    events: JsonValue = Field(default_factory=list)
    state: JsonValue = Field(default=None, description="initial state for version 0, else null")
    state_hash: str | None = None
    created_at: AwareDatetime


class GameExport(_Frozen):
    format: Literal["brazil-imperial-game"] = "brazil-imperial-game"
    format_version: int = EXPORT_FORMAT_VERSION
    exported_at: AwareDatetime
    game: ExportedGame
    seats: list[Seat]
    state: JsonValue
    log: list[ExportedLogEntry]


class ImportPlan(BaseModel):
    """A validated export turned into the text values a backend stores."""

    model_config = ConfigDict(frozen=True)

    game: ExportedGame
    seats: list[Seat]
    state_json: str
    entries: list[LogEntry]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def build_export(record: GameRecord, log: list[LogEntry], *, exported_at: datetime) -> GameExport:
    """Assemble the export of a game from its record and its full log."""
    return GameExport(
        exported_at=exported_at,
        game=ExportedGame(
            id=record.id,
            channel_id=record.channel_id,
            guild_id=record.guild_id,
            status=record.status,
            version=record.version,
            settings=record.settings,
            created_at=record.created_at,
            updated_at=record.updated_at,
            finished_at=record.finished_at,
        ),
        seats=list(record.seats),
        state=json.loads(record.state_json),
        log=[
            ExportedLogEntry(
                version=entry.version,
                seat=entry.seat,
                action=None if entry.action_json is None else json.loads(entry.action_json),
                events=json.loads(entry.events_json),
                state=None if entry.snapshot_json is None else json.loads(entry.snapshot_json),
                state_hash=entry.state_hash,
                created_at=entry.created_at,
            )
            for entry in log
        ],
    )


def dump_export(export: GameExport) -> str:
    """The export as JSON text (indented, for humans and bug reports)."""
    return export.model_dump_json(indent=2) + "\n"


def load_export(text: str) -> GameExport:
    """Parse an export file; :class:`InvalidExport` with a clear reason if it is not one."""
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise InvalidExport(f"not a JSON file: {exc}") from exc
    if not isinstance(raw, dict) or raw.get("format") != EXPORT_FORMAT:
        raise InvalidExport(f'not a game export (expected "format": "{EXPORT_FORMAT}")')
    version = raw.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InvalidExport("the export has no valid format_version")
    if version > EXPORT_FORMAT_VERSION:
        raise InvalidExport(
            f"the export has format version {version}, but this program reads versions up to "
            f"{EXPORT_FORMAT_VERSION}: it was written by a newer release"
        )
    try:
        return GameExport.model_validate(raw)
    except ValidationError as exc:
        raise InvalidExport(f"the export is malformed: {exc}") from exc


def plan_import(export: GameExport) -> ImportPlan:
    """Check an export's integrity and convert it to stored values.

    Raises :class:`InvalidExport` if the log is not contiguous from version 0 to the game's
    version, the initial state is missing, a recorded hash disagrees with its state, or the
    seats are inconsistent.
    """
    game = export.game
    log = export.log
    if not log:
        raise InvalidExport("the log is empty: it must at least hold version 0 (initial state)")
    for position, entry in enumerate(log):
        if entry.version != position:
            raise InvalidExport(
                f"the log is not contiguous: entry {position} has version {entry.version}"
            )
    if log[-1].version != game.version:
        raise InvalidExport(
            f"the log ends at version {log[-1].version} but the game is at version {game.version}"
        )
    first = log[0]
    if first.state is None:
        raise InvalidExport("log entry 0 has no initial state")
    if first.state_hash is not None and state_hash(first.state) != first.state_hash:
        raise InvalidExport("the initial state does not match its recorded hash")
    last = log[-1]
    if last.state_hash is not None and state_hash(export.state) != last.state_hash:
        raise InvalidExport(
            f"the state does not match the hash recorded for version {game.version}"
        )
    colours = [seat.colour for seat in export.seats]
    if len(set(colours)) != len(colours):
        raise InvalidExport("a seat colour appears twice")

    entries = [
        LogEntry(
            game_id=game.id,
            version=entry.version,
            seat=entry.seat,
            action_json=None if entry.version == 0 else _dumps(entry.action),
            events_json=_dumps(entry.events),
            state_hash=entry.state_hash,
            snapshot_json=None if entry.state is None else _dumps(entry.state),
            created_at=entry.created_at,
        )
        for entry in log
    ]
    return ImportPlan(
        game=game, seats=list(export.seats), state_json=_dumps(export.state), entries=entries
    )
