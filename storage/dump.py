"""Everything a store keeps about one game, as one value: what ``python -m storage copy``
moves from one store to another and what a PostgreSQL backup file holds.

An export (:mod:`storage.export`) is for people and other databases: the game gets a new id
and starts with empty inboxes and default pacing. A :class:`GameDump` is the whole game as
stored, under its own id: the game (status, settings, seats, state, times), its full log,
its private news and read markers, its pacing rows (settings and pause votes, away periods
and pauses, decision clocks, timers, AI stand-ins), its web page token and what it changed
of the ratings (a rated game, schema 13). Two stores hold the
same game exactly when their dumps are equal (:meth:`GameDump.digest`).

A backup file (:func:`write_backup`, :class:`BackupFile`) is JSON Lines: a header line, one
line per game dump (ascending ids), one line with every player's preferences, one with every
server's settings (files written before schema 12 have none: no settings), one with every
rating row and season (:class:`~storage.ratings.RatingTables`; none before schema 13) and a
trailer that counts the games (a cut file is refused).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Final, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, ValidationError

from storage.errors import InvalidData, InvalidExport
from storage.jsonutil import state_hash
from storage.models import (
    Break,
    DecisionClock,
    GamePacing,
    GameRecord,
    GuildSettings,
    LogEntry,
    PlayerPrefs,
    StandIn,
    Timer,
    is_pack_name,
)
from storage.ratings import RatingChange, RatingTables

__all__ = [
    "BACKUP_FORMAT",
    "BACKUP_FORMAT_VERSION",
    "BackupFile",
    "GameDump",
    "NewsRow",
    "WebPage",
    "check_dump",
    "write_backup",
]

BACKUP_FORMAT: Final = "brazil-imperial-backup"
BACKUP_FORMAT_VERSION: Final = 1


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class NewsRow(_Frozen):
    """One private text kept for a seat (its id orders the inbox; the read markers name ids)."""

    id: int
    seat: int
    text: str
    created_at: AwareDatetime


class WebPage(_Frozen):
    """A game's web page token and when it was given."""

    token: str
    created_at: AwareDatetime


class GameDump(_Frozen):
    """One game as a store keeps it, under its own id (see the module doc)."""

    game: GameRecord
    log: tuple[LogEntry, ...]
    news: tuple[NewsRow, ...] = ()
    news_read: tuple[tuple[int, int], ...] = ()
    """(seat, read up to news id), by seat."""
    pacing: GamePacing | None = None
    """The game's pacing row (None: never set, the defaults)."""
    breaks: tuple[Break, ...] = ()
    """Away periods and pauses, by id."""
    decisions: tuple[DecisionClock, ...] = ()
    """Every decision clock, open and closed, by seat and version."""
    timers: tuple[Timer, ...] = ()
    """Claimed timers, by claim time."""
    stand_ins: tuple[StandIn, ...] = ()
    """AI stand-ins, open and ended, by seat and start."""
    web_page: WebPage | None = None
    ratings: tuple[RatingChange, ...] = ()
    """What the game did to ratings (a rated game: schema 13), by season and seat."""

    @property
    def game_id(self) -> int:
        return self.game.id

    def digest(self) -> str:
        """SHA-256 of the dump's canonical JSON: equal on two stores exactly when they hold
        the same game (every row, every time, every text)."""
        return hashlib.sha256(self.model_dump_json().encode("utf-8")).hexdigest()

    def problems(self) -> list[str]:
        """What is inconsistent inside the dump itself: the log's versions, the state hashes
        logged for the current and the initial state."""
        found: list[str] = []
        versions = [entry.version for entry in self.log]
        if versions != list(range(self.game.version + 1)):
            found.append(
                f"the log has versions {versions[:1]}..{versions[-1:]} "
                f"but the game is at version {self.game.version}"
            )
            return found
        last = self.log[-1].state_hash
        if last is not None and last != state_hash(json.loads(self.game.state_json)):
            found.append(f"the state does not match the hash logged for v{self.game.version}")
        first = self.log[0]
        if (
            first.snapshot_json is not None
            and first.state_hash is not None
            and first.state_hash != state_hash(json.loads(first.snapshot_json))
        ):
            found.append("the initial state does not match its logged hash")
        return found


def check_dump(dump: GameDump) -> None:
    """Refuse (``InvalidData``) a dump that is not consistent in itself: log versions, the
    logged state hashes, entries of another game, a data pack that is not a plain name."""
    found = dump.problems()
    if any(entry.game_id != dump.game_id for entry in dump.log):
        found.append("log entries of another game")
    if dump.game.data_pack is not None and not is_pack_name(dump.game.data_pack):
        found.append(f"data pack {dump.game.data_pack!r} is not a plain pack name")
    if found:
        raise InvalidData(f"game {dump.game_id} cannot be loaded: " + "; ".join(found))


class _Header(_Frozen):
    format: Literal["brazil-imperial-backup"]
    format_version: int
    made_at: AwareDatetime
    schema_version: int
    source: str


class _Prefs(_Frozen):
    player_prefs: tuple[PlayerPrefs, ...]


class _Guilds(_Frozen):
    guild_settings: dict[int, GuildSettings]


class _Ratings(_Frozen):
    rating_tables: RatingTables


class _Trailer(_Frozen):
    end: int
    """How many games the file holds."""


async def write_backup(
    path: Path,
    *,
    made_at: datetime,
    schema_version: int,
    source: str,
    games: AsyncIterator[GameDump],
    prefs: tuple[PlayerPrefs, ...],
    guilds: dict[int, GuildSettings] | None = None,
    ratings: RatingTables | None = None,
) -> int:
    """Write a backup file to ``path``: a new, uniquely named temporary file next to it is
    filled, flushed to disk and read back (:class:`BackupFile`), and only then renamed to
    ``path``. Returns the number of games written."""
    partial = path.with_name(f".{path.name}.{secrets.token_hex(6)}.partial")
    count = 0
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            header = _Header(
                format=BACKUP_FORMAT,
                format_version=BACKUP_FORMAT_VERSION,
                made_at=made_at,
                schema_version=schema_version,
                source=source,
            )
            handle.write(header.model_dump_json() + "\n")
            async for dump in games:
                handle.write(dump.model_dump_json() + "\n")
                count += 1
            handle.write(_Prefs(player_prefs=prefs).model_dump_json() + "\n")
            handle.write(_Guilds(guild_settings=guilds or {}).model_dump_json() + "\n")
            tables = ratings or RatingTables()
            handle.write(_Ratings(rating_tables=tables).model_dump_json() + "\n")
            handle.write(_Trailer(end=count).model_dump_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        BackupFile(partial)  # reads it back: refuses a file that does not parse
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return count


class BackupFile:
    """A backup file, read: its games by id (parsed when asked for) and the players'
    preferences. ``InvalidExport`` if it is not a whole backup file of a known format."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._offsets: dict[int, int] = {}
        self.prefs: tuple[PlayerPrefs, ...] = ()
        self.guilds: dict[int, GuildSettings] = {}
        self.ratings = RatingTables()
        try:
            with path.open("rb") as handle:
                first = handle.readline()
                try:
                    self.header = _Header.model_validate_json(first)
                except ValidationError as exc:
                    raise InvalidExport(f"{path} is not a backup file of this bot") from exc
                if self.header.format_version > BACKUP_FORMAT_VERSION:
                    raise InvalidExport(
                        f"{path} is backup format {self.header.format_version}; this program "
                        f"reads up to {BACKUP_FORMAT_VERSION}: upgrade the bot"
                    )
                trailer: _Trailer | None = None
                offset = handle.tell()
                for line in handle:
                    if trailer is not None:
                        raise InvalidExport(f"{path}: lines after the end of the backup")
                    if line.startswith(b'{"game":'):
                        dump = GameDump.model_validate_json(line)
                        self._offsets[dump.game_id] = offset
                    elif line.startswith(b'{"player_prefs":'):
                        self.prefs = _Prefs.model_validate_json(line).player_prefs
                    elif line.startswith(b'{"guild_settings":'):
                        self.guilds = _Guilds.model_validate_json(line).guild_settings
                    elif line.startswith(b'{"rating_tables":'):
                        self.ratings = _Ratings.model_validate_json(line).rating_tables
                    else:
                        trailer = _Trailer.model_validate_json(line)
                    offset += len(line)
        except ValidationError as exc:
            raise InvalidExport(
                f"{path} is a damaged backup file: {exc.errors()[0]['msg']}"
            ) from exc
        except UnicodeDecodeError as exc:
            raise InvalidExport(f"{path} is not a backup file (not UTF-8 text)") from exc
        if trailer is None or trailer.end != len(self._offsets):
            raise InvalidExport(f"{path} is cut short: not a whole backup (write a new one)")

    def game_ids(self) -> list[int]:
        return sorted(self._offsets)

    def dump_game(self, game_id: int) -> GameDump:
        with self.path.open("rb") as handle:
            handle.seek(self._offsets[game_id])
            return GameDump.model_validate_json(handle.readline())
