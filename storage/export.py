"""Export and import of one game as a single JSON file (bug reports, moving servers).

The file holds the game's settings, seats (with final scores), status, current state and the
full action log including the initial state, all as readable JSON (not JSON-in-strings)::

    {
      "format": "brazil-imperial-game",
      "format_version": 3,
      "exported_at": "2025-01-01T12:00:00.000000+00:00",
      "game": {"id": 7, "channel_id": ..., "status": "running", "version": 42, "settings": {...},
               "created_at": ..., "updated_at": ..., "finished_at": null, "guild_id": ...,
               "engine_version": "0.1.0", "data_pack": null, "game": "brazil"},
      "seats": [{"seat": 0, "kind": "discord", "user_id": ..., "colour": "red",
                 "score": null, "winner": false, ...}, ...],
      "state": {...},
      "log": [{"version": 0, "kind": "created", "state": {...initial}, "state_hash": ..., ...},
              {"version": 1, "kind": "action", "seat": 0, "action": {...}, "events": [...],
               "description": "...", "state": null, "state_hash": "...", ...},
              {"version": 5, "kind": "undo", "seat": 0, "target_version": 3,
               "state": {...the state of version 3}, ...}, ...]
    }

``state`` is set on version 0, on undo/rollback entries and on the periodic snapshots. Format
version 1 files (seats by colour, no undo) are still read: their seats are numbered in colour
order. Format version 2 files (settings with a free ``extra`` object) are still read: the
settings become the typed fields (:mod:`storage.legacy`) and the player names of the bot's
seat list ``extra["seats"]`` go to the seats (Discord seats and unnamed AI seats). ``game``
(the game played, a game name; schema 10) is optional: an export written before it is a
*Brazil: Imperial* game (``"brazil"``); a release that does not know the key refuses the
file (unknown keys are refused), so no game is ever imported as another. A game's
private news inbox and its pacing records are not exported. Importing checks the format version and the log's integrity (versions contiguous from 0
to the game's version, initial state present, every recorded state matching its hash, undo and
rollback entries naming an earlier version, data packs named by plain names).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Final, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue, ValidationError

from storage.errors import InvalidExport
from storage.jsonutil import state_hash
from storage.legacy import legacy_seat_names
from storage.models import (
    DEFAULT_GAME,
    EntryKind,
    GameName,
    GameRecord,
    GameSettings,
    GameStatus,
    LogEntry,
    Seat,
    is_pack_name,
)

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
EXPORT_FORMAT_VERSION = 3
"""3: typed settings, named Discord seats; 2: seats by number, undo/rollback; 1: seats by
colour."""


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
    engine_version: str | None = None
    data_pack: str | None = None
    game: GameName = Field(
        default=DEFAULT_GAME, description="the game played (absent before schema 10: brazil)"
    )


class ExportedLogEntry(_Frozen):
    version: int = Field(ge=0)
    kind: EntryKind = EntryKind.ACTION
    seat: int | None = None
    action: JsonValue = Field(default=None, description="ignored for version 0")
    events: JsonValue = Field(default_factory=list)
    state: JsonValue = Field(
        default=None, description="the state after this entry when a snapshot was kept"
    )
    state_hash: str | None = None
    created_at: AwareDatetime
    target_version: int | None = None
    description: str | None = None
    reason: str | None = None
    actor_id: int | None = None
    engine_version: str | None = None


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
            engine_version=record.engine_version,
            data_pack=record.data_pack,
            game=record.game,
        ),
        seats=list(record.seats),
        state=json.loads(record.state_json),
        log=[
            ExportedLogEntry(
                version=entry.version,
                kind=entry.kind,
                seat=entry.seat,
                action=None if entry.action_json is None else json.loads(entry.action_json),
                events=json.loads(entry.events_json),
                state=None if entry.snapshot_json is None else json.loads(entry.snapshot_json),
                state_hash=entry.state_hash,
                created_at=entry.created_at,
                target_version=entry.target_version,
                description=entry.description,
                reason=entry.reason,
                actor_id=entry.actor_id,
                engine_version=entry.engine_version,
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
        if version < 2:
            raw = _upgrade_v1(raw)
        if version < 3:
            raw = _upgrade_v2(raw)
        return GameExport.model_validate(raw)
    except (ValidationError, TypeError, KeyError, AttributeError) as exc:
        raise InvalidExport(f"the export is malformed: {exc}") from exc


def _upgrade_v1(raw: dict[str, Any]) -> dict[str, Any]:
    """A format 1 export (seats keyed by colour, no undo) in format 2: seats are numbered in
    colour order (as they were listed), log seats become those numbers."""
    seats = sorted(raw.get("seats") or [], key=lambda seat: str(seat["colour"]))
    numbers = {str(seat["colour"]): number for number, seat in enumerate(seats)}
    log = []
    for entry in raw.get("log") or []:
        colour = entry.get("seat")
        log.append(
            {
                **entry,
                "kind": "created" if entry.get("version") == 0 else "action",
                "seat": None if colour is None else numbers.get(str(colour)),
            }
        )
    return {
        **raw,
        "format_version": EXPORT_FORMAT_VERSION,
        "seats": [
            {
                "seat": number,
                "kind": "discord",
                "user_id": seat["user_id"],
                "colour": seat["colour"],
                "score": seat.get("score"),
                "winner": seat.get("winner", False),
            }
            for number, seat in enumerate(seats)
        ],
        "log": log,
    }


def _upgrade_v2(raw: dict[str, Any]) -> dict[str, Any]:
    """A format 2 export in format 3: the names of the legacy seat list in the settings'
    ``extra["seats"]`` go to the Discord seats and unnamed AI seats (the settings themselves
    are converted by :class:`GameSettings` when read)."""
    game = raw.get("game")
    settings = game.get("settings") if isinstance(game, dict) else None
    names = legacy_seat_names(settings) if isinstance(settings, dict) else {}
    seats = raw.get("seats")
    if names and isinstance(seats, list):
        seats = [
            {**seat, "name": names[seat["seat"]]}
            if isinstance(seat, dict)
            and seat.get("kind") in ("discord", "ai")
            and seat.get("name") is None
            and seat.get("seat") in names
            else seat
            for seat in seats
        ]
    return {**raw, "format_version": EXPORT_FORMAT_VERSION, "seats": seats}


def _state_packs(export: GameExport) -> list[object]:
    """The ``data_pack`` values named by the states in an export (states are opaque to
    storage, except for this one key, which the engine would read files from)."""
    states = [export.state, *(entry.state for entry in export.log)]
    return [state.get("data_pack") for state in states if isinstance(state, dict)]


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
    if first.kind is not EntryKind.CREATED:
        raise InvalidExport("log entry 0 must be the game's creation")
    for entry in log:
        what = (
            "the initial state" if entry.version == 0 else f"the state of version {entry.version}"
        )
        recorded = entry.state_hash
        if entry.state is not None and recorded is not None and state_hash(entry.state) != recorded:
            raise InvalidExport(f"{what} does not match its recorded hash")
        if entry.version > 0 and entry.kind is EntryKind.CREATED:
            raise InvalidExport(f"version {entry.version} cannot be a creation entry")
        if entry.kind in (EntryKind.UNDO, EntryKind.ROLLBACK):
            target = entry.target_version
            if target is None or not 0 <= target < entry.version or entry.state is None:
                raise InvalidExport(
                    f"version {entry.version} ({entry.kind}) must name an earlier version and "
                    "carry its state"
                )
            back = log[target].state_hash
            if back is not None and entry.state_hash is not None and back != entry.state_hash:
                raise InvalidExport(
                    f"version {entry.version} returns to version {target} with another state"
                )
        elif entry.target_version is not None:
            raise InvalidExport(f"version {entry.version} names a target but is no undo")
    last = log[-1]
    if last.state_hash is not None and state_hash(export.state) != last.state_hash:
        raise InvalidExport(
            f"the state does not match the hash recorded for version {game.version}"
        )
    numbers = [seat.seat for seat in export.seats]
    if len(set(numbers)) != len(numbers):
        raise InvalidExport("a seat number appears twice")
    colours = [seat.colour for seat in export.seats if seat.colour is not None]
    if len(set(colours)) != len(colours):
        raise InvalidExport("a seat colour appears twice")
    for pack in (game.data_pack, game.settings.data_pack, *_state_packs(export)):
        if pack is not None and not is_pack_name(pack):
            raise InvalidExport(
                f"data pack {str(pack)[:80]!r} is not a plain pack name (no paths): refused"
            )

    entries = [
        LogEntry(
            game_id=game.id,
            version=entry.version,
            kind=entry.kind,
            seat=entry.seat,
            action_json=None if entry.version == 0 else _dumps(entry.action),
            events_json=_dumps(entry.events),
            state_hash=entry.state_hash,
            snapshot_json=None if entry.state is None else _dumps(entry.state),
            created_at=entry.created_at,
            target_version=entry.target_version,
            description=entry.description,
            reason=entry.reason,
            actor_id=entry.actor_id,
            engine_version=entry.engine_version,
        )
        for entry in log
    ]
    return ImportPlan(
        game=game, seats=list(export.seats), state_json=_dumps(export.state), entries=entries
    )
