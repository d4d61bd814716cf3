"""SQLite implementation of :class:`~storage.base.GameStore` (aiosqlite, one embedded file).

One connection per store, in WAL mode with ``synchronous=NORMAL`` (or ``FULL``), foreign keys
on and a busy timeout. Every write is one ``BEGIN IMMEDIATE`` transaction; a save's version
guard is ``UPDATE games ... WHERE id = ? AND version = ?``. An ``asyncio.Lock`` keeps the
coroutines sharing the connection from interleaving statements inside each other's
transactions. With WAL and ``synchronous=NORMAL`` a committed save survives a crash or kill of
the process; ``synchronous="FULL"`` also makes it survive a power cut, at the cost of an fsync
per save.

A file is first opened *read-only* to check that it is ours (or empty and new): another
application's database, or a newer schema, is refused without a single byte changed.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager, suppress
from datetime import datetime
from os import PathLike
from pathlib import Path
from typing import Any, Literal, Unpack

import aiosqlite
from pydantic import ValidationError

from storage.base import SNAPSHOT_EVERY, Clock, GameStore, apply_settings_changes, utc_now
from storage.common import (
    MAX_ID,
    UndoRollback,
    check_game_name,
    check_id,
    check_result,
    check_seat_no,
    check_text,
    check_version,
    game_problems,
    guard,
    parse_seats,
    scored,
    seat_list,
)
from storage.dump import GameDump, NewsRow, WebPage, check_dump
from storage.engine_info import current_engine_version
from storage.errors import (
    BackendError,
    ChannelBusy,
    DatabaseCorrupt,
    DatabaseMissing,
    GameExists,
    GameNotFound,
    InvalidData,
    InvalidTransition,
    NotAGameDatabase,
    RestoreFailed,
    SchemaTooNew,
    VersionConflict,
)
from storage.export import ImportPlan
from storage.jsonutil import parse_json, state_hash
from storage.migrations import LATEST, check_ours, migrate, schema_version
from storage.models import (
    DEFAULT_GAME,
    Break,
    EntryKind,
    GamePacing,
    GameRecord,
    GameResult,
    GameSettings,
    GameStatus,
    GameSummary,
    HistoryItem,
    IntegrityProblem,
    LogEntry,
    NewsItem,
    PlayerPrefs,
    PlayerStats,
    Seat,
    SettingsChanges,
    StandIn,
    Timer,
    is_pack_name,
    transition_allowed,
    utc_iso,
)
from storage.pacing import PREFS_COLUMNS, PacingStore, pacing_iso
from storage.replay import Replayer, check_pack, default_replayer, line_of

__all__ = ["SNAPSHOT_EVERY", "SqliteGameStore"]

_MAX_ID = MAX_ID
_check_id = check_id
_check_version = check_version

_ACTIVE_SQL = "('lobby', 'setup', 'running')"

_GAME_COLUMNS = """
    g.id, g.channel_id, g.guild_id, g.status, g.version, g.settings_json,
    g.created_at, g.updated_at, g.finished_at,
    (SELECT json_group_array(json_array(s.seat, s.kind, s.user_id, s.name, s.ai_level,
                                         s.colour, s.score, s.winner))
       FROM seats s WHERE s.game_id = g.id) AS seats_json,
    g.engine_version, g.data_pack, g.game
"""
_STATE_COLUMN = 13
_GAME_WITH_STATE = f"""
    SELECT {_GAME_COLUMNS}, st.state_json
      FROM games g JOIN game_states st ON st.game_id = g.id
"""

_LOG_COLUMNS = (
    "game_id, version, kind, seat_no, action_json, events_json, state_hash, snapshot_json, "
    "created_at, target_version, description, reason, actor_id, engine_version"
)
_LOG_PLACEHOLDERS = ", ".join("?" for _ in _LOG_COLUMNS.split(","))
_HISTORY_COLUMNS = (
    "version, kind, seat_no, description, created_at, target_version, reason, actor_id"
)


def _ts(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _summary_fields(row: Sequence[Any]) -> dict[str, Any]:
    return {
        "id": row[0],
        "channel_id": row[1],
        "guild_id": row[2],
        "status": GameStatus(row[3]),
        "version": row[4],
        "settings": GameSettings.model_validate_json(row[5]),
        "created_at": _ts(row[6]),
        "updated_at": _ts(row[7]),
        "finished_at": _ts(row[8]),
        "seats": parse_seats(row[9]),
        "engine_version": row[10],
        "data_pack": row[11],
        "game": row[12],
    }


def _log_entry(row: Sequence[Any]) -> LogEntry:
    return LogEntry(
        game_id=row[0],
        version=row[1],
        kind=EntryKind(row[2]),
        seat=row[3],
        action_json=row[4],
        events_json=row[5],
        state_hash=row[6],
        snapshot_json=row[7],
        created_at=datetime.fromisoformat(row[8]),
        target_version=row[9],
        description=row[10],
        reason=row[11],
        actor_id=row[12],
        engine_version=row[13],
    )


def _log_row(game_id: int, entry: LogEntry) -> tuple[Any, ...]:
    return (
        game_id,
        entry.version,
        entry.kind.value,
        entry.seat,
        entry.action_json,
        entry.events_json,
        entry.state_hash,
        entry.snapshot_json,
        utc_iso(entry.created_at),
        entry.target_version,
        entry.description,
        entry.reason,
        entry.actor_id,
        entry.engine_version,
    )


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def _backend_error(message: str, exc: sqlite3.Error) -> BackendError:
    if _is_corruption(exc):
        return DatabaseCorrupt(f"{message}: the database is corrupt ({exc})")
    return BackendError(f"{message}: {exc}")


def _probe(path: Path) -> tuple[int, int] | None:
    """Read-only look at an existing file: ``(user_version, application_id)``, or None when
    the file is empty. Raises :class:`NotAGameDatabase` if it is not an SQLite file (or not
    ours) and :class:`SchemaTooNew`; never writes to the file."""
    with path.open("rb") as handle:
        header = handle.read(16)
    if not header:
        wal = Path(f"{path}-wal")
        if not wal.exists() or wal.stat().st_size == 0:
            return None
    elif header != b"SQLite format 3\x00":
        raise NotAGameDatabase.of("storage.error.not_sqlite_file", path=str(path))
    try:
        probe = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise _backend_error(f"cannot open {path}", exc) from exc
    try:
        version = int(probe.execute("PRAGMA user_version").fetchone()[0])
        app_id = int(probe.execute("PRAGMA application_id").fetchone()[0])
        tables = probe.execute(
            "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1"
        ).fetchall()
    except sqlite3.DatabaseError as exc:
        if _is_corruption(exc) and "not a database" not in str(exc).lower():
            raise DatabaseCorrupt.of("storage.error.corrupt", path=str(path), why=str(exc)) from exc
        raise NotAGameDatabase.of("storage.error.not_sqlite", path=str(path), why=str(exc)) from exc
    finally:
        probe.close()
    from storage.migrations import APPLICATION_ID

    if app_id != APPLICATION_ID and (app_id != 0 or version != 0):
        raise NotAGameDatabase.of(
            "storage.error.other_application",
            path=str(path),
            app_id=f"{app_id:#x}",
            version=version,
        )
    if version == 0 and tables:
        raise NotAGameDatabase.of("storage.error.foreign_tables", path=str(path))
    if version > LATEST:
        raise SchemaTooNew(found=version, supported=LATEST, where=str(path))
    return (version, app_id) if version > 0 else None


class SqliteGameStore(UndoRollback, PacingStore, GameStore):
    """Games in one SQLite file.

    ``path``: the database file (created on first open unless ``create=False``, which raises
    :class:`~storage.errors.DatabaseMissing` if it does not exist or is empty). ``clock``:
    returns aware datetimes (tests pass a fake one). ``synchronous``: ``"NORMAL"`` (default;
    durable across process crashes) or ``"FULL"`` (also across power loss).
    ``busy_timeout_ms``: how long a write waits for another process's write lock.
    ``replayer``: applies one logged action (default ``rules.brazil.replay_step``, imported when first
    needed), used to restore old versions (undo, rollback, :meth:`state_at`).
    ``snapshot_every``: a full snapshot is logged every this many versions.
    ``engine_version``: returns the running rules engine's version (recorded with each entry).
    """

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        clock: Clock = utc_now,
        create: bool = True,
        synchronous: Literal["NORMAL", "FULL", "EXTRA"] = "NORMAL",
        busy_timeout_ms: int = 5000,
        replayer: Replayer | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        engine_version: Callable[[], str] = current_engine_version,
        cache_reads: bool = False,
    ) -> None:
        super().__init__(clock=clock, engine_version=engine_version)
        self.cache_reads = cache_reads
        """Keep the last :meth:`get_game` of each game until the next write (any game's):
        only for the one process that writes the file (another's writes are not seen)."""
        self._cache: dict[int, tuple[int, GameRecord]] = {}
        self._generation = 0  # bumped by every write transaction
        if synchronous not in ("NORMAL", "FULL", "EXTRA"):
            raise InvalidData("synchronous must be NORMAL, FULL or EXTRA")
        if isinstance(snapshot_every, bool) or not isinstance(snapshot_every, int):
            raise InvalidData("snapshot_every must be an int")
        if snapshot_every < 1:
            raise InvalidData("snapshot_every must be at least 1")
        self.path = Path(path)
        self._create = create
        self._synchronous = synchronous
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._replayer = replayer
        self._replayers: dict[str, Replayer] = {}  # the default ones, by game
        self.snapshot_every = snapshot_every
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.migrated_from: int | None = None
        """Schema version the file had when opened (0: it was created)."""

    def __repr__(self) -> str:
        return f"SqliteGameStore({str(self.path)!r})"

    @property
    def replayer(self) -> Replayer:
        """The replayer given, else ``rules.brazil.replay_step`` (``ReplayerUnavailable`` if absent)."""
        return self.replayer_for(DEFAULT_GAME)

    def replayer_for(self, game: str) -> Replayer:
        """The replayer of a record's ``game``: the one given to this store, else the
        engine the game's name picks (:func:`storage.replay.default_replayer`), loaded once
        per game (never another game's: one process serves every game)."""
        if self._replayer is not None:
            return self._replayer
        found = self._replayers.get(game)
        if found is None:
            found = self._replayers[game] = default_replayer(game)
        return found

    # -- lifecycle ------------------------------------------------------------------------

    async def open(self) -> None:
        if self._db is not None:
            return
        exists = self.path.exists()
        if not self._create and not exists:
            raise DatabaseMissing.of("storage.error.no_database", path=str(self.path))
        if exists:
            try:
                found = await asyncio.to_thread(_probe, self.path)
            except OSError as exc:
                raise BackendError(f"cannot read {self.path}: {exc}") from exc
            if found is None and not self._create:
                raise DatabaseMissing.of("storage.error.empty_file", path=str(self.path))
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise _backend_error(f"cannot open {self.path}", exc) from exc
        try:
            await db.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
            try:
                found_version = await schema_version(db)
            except sqlite3.DatabaseError as exc:
                raise NotAGameDatabase.of(
                    "storage.error.not_sqlite", path=str(self.path), why=str(exc)
                ) from exc
            if found_version > 0:
                await check_ours(db, found_version)
            if found_version > LATEST:  # refuse before changing anything
                raise SchemaTooNew(found=found_version, supported=LATEST, where=str(self.path))
            await self._enable_wal(db)
            await db.execute(f"PRAGMA synchronous = {self._synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            self.migrated_from, _ = await migrate(db)
        except sqlite3.Error as exc:
            await db.close()
            raise _backend_error(f"cannot open {self.path}", exc) from exc
        except BaseException:
            await db.close()
            raise
        self._db = db

    async def _enable_wal(self, db: aiosqlite.Connection) -> None:
        """Switch the file to WAL (persistent). Switching needs a moment of exclusive access
        and SQLite does not wait for it with the busy handler, so retry until the timeout."""
        deadline = time.monotonic() + self._busy_timeout_ms / 1000
        while True:
            try:
                rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.02)
                continue
            mode = str(rows[0][0]).lower()
            if mode == "wal":
                return
            if time.monotonic() > deadline:
                raise NotAGameDatabase(f"{self.path}: cannot switch to WAL mode ({mode})")
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            async with self._lock:
                await db.close()

    @property
    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("the store is not open: use 'async with' or await open()")
        return self._db

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[aiosqlite.Connection]:
        """Exclusive use of the connection; driver errors become :class:`BackendError`."""
        async with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as exc:
                raise _backend_error(f"database error ({self.path})", exc) from exc

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        async with self._locked() as db:
            return list(await db.execute_fetchall(sql, params))

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on any error."""
        async with self._locked() as db:
            try:  # BEGIN inside: if cancelled while it runs, the ROLLBACK is queued after it
                await db.execute("BEGIN IMMEDIATE")
                yield db
                await db.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.Error):
                    await db.execute("ROLLBACK")
                raise
            finally:
                self._generation += 1  # cached reads are stale from now on

    # -- reading --------------------------------------------------------------------------

    @staticmethod
    async def _row(db: aiosqlite.Connection, game_id: int, *, with_state: bool) -> Sequence[Any]:
        if with_state:
            sql = f"{_GAME_WITH_STATE} WHERE g.id = ?"
        else:
            sql = f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?"
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 <= game_id < _MAX_ID:
            raise GameNotFound(game_id)
        rows = list(await db.execute_fetchall(sql, (game_id,)))
        if not rows:
            raise GameNotFound(game_id)
        return rows[0]

    @staticmethod
    def _record(row: Sequence[Any]) -> GameRecord:
        return GameRecord(**_summary_fields(row), state_json=row[_STATE_COLUMN])

    async def get_game(self, game_id: int) -> GameRecord:
        if self.cache_reads:
            hit = self._cache.get(game_id)
            if hit is not None and hit[0] == self._generation:
                return hit[1]
        async with self._locked() as db:
            generation = self._generation
            row = await self._row(db, game_id, with_state=True)
        rec = self._record(row)
        if self.cache_reads:
            if len(self._cache) >= 1024:  # a bound: the games being played come back at once
                self._cache.clear()
            self._cache[game_id] = (generation, rec)
        return rec

    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        rows = await self._fetch(
            f"{_GAME_WITH_STATE} WHERE g.channel_id = ? AND g.status IN {_ACTIVE_SQL}",
            (_check_id(channel_id, "channel_id"),),
        )
        if not rows:
            return None
        return self._record(rows[0])

    async def list_games(
        self,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        user_id: int | None = None,
        statuses: Collection[GameStatus] | None = None,
        limit: int | None = 50,
        before_id: int | None = None,
    ) -> list[GameSummary]:
        where: list[str] = []
        params: list[Any] = []
        if channel_id is not None:
            where.append("g.channel_id = ?")
            params.append(_check_id(channel_id, "channel_id"))
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(_check_id(guild_id, "guild_id"))
        if user_id is not None:
            where.append("g.id IN (SELECT game_id FROM seats WHERE user_id = ?)")
            params.append(_check_id(user_id, "user_id"))
        if statuses is not None:
            wanted = [GameStatus(status).value for status in statuses]
            if not wanted:
                return []
            where.append(f"g.status IN ({', '.join('?' for _ in wanted)})")
            params.extend(wanted)
        if before_id is not None:
            where.append("g.id < ?")
            params.append(_check_id(before_id, "before_id"))
        sql = f"SELECT {_GAME_COLUMNS} FROM games g"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(limit)))
        rows = await self._fetch(sql, params)
        return [GameSummary(**_summary_fields(row)) for row in rows]

    async def ping(self) -> None:
        await self._fetch("SELECT 1")

    async def web_token(self, game_id: int) -> str | None:
        rows = await self._fetch("SELECT token FROM web_pages WHERE game_id = ?", (game_id,))
        return str(rows[0][0]) if rows else None

    async def set_web_token(self, game_id: int, token: str) -> None:
        if len(token) < 16:
            raise InvalidData("a web page token has at least 16 characters")
        async with self._write() as db:
            if not await db.execute_fetchall("SELECT 1 FROM games WHERE id = ?", (game_id,)):
                raise GameNotFound(game_id)
            try:
                await db.execute(
                    "INSERT INTO web_pages (game_id, token, created_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET token = excluded.token, "
                    "created_at = excluded.created_at",
                    (game_id, token, utc_iso(self.now())),
                )
            except sqlite3.IntegrityError as exc:
                raise InvalidData("that web page token is taken") from exc

    async def game_of_web_token(self, token: str) -> int | None:
        rows = await self._fetch("SELECT game_id FROM web_pages WHERE token = ?", (token,))
        return int(rows[0][0]) if rows else None

    async def game_ids(self) -> list[int]:
        return [int(row[0]) for row in await self._fetch("SELECT id FROM games ORDER BY id")]

    async def get_log(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[LogEntry]:
        upper = _MAX_ID - 1 if to_version is None else min(int(to_version), _MAX_ID - 1)
        lower = max(0, min(int(from_version), _MAX_ID - 1))
        async with self._locked() as db:
            await self._row(db, game_id, with_state=False)  # raises GameNotFound
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {_LOG_COLUMNS} FROM actions "
                    "WHERE game_id = ? AND version BETWEEN ? AND ? ORDER BY version",
                    (game_id, lower, upper),
                )
            )
        return [_log_entry(row) for row in rows]

    async def history(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[HistoryItem]:
        async with self._locked() as db:
            current = int((await self._row(db, game_id, with_state=False))[4])
            jumps = await self._jumps(db, game_id)
            upper = current if to_version is None else min(int(to_version), current)
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {_HISTORY_COLUMNS} FROM actions "
                    "WHERE game_id = ? AND version BETWEEN ? AND ? ORDER BY version",
                    (game_id, max(0, int(from_version)), upper),
                )
            )
        on_line = line_of(current, jumps)
        return [
            HistoryItem(
                version=row[0],
                kind=EntryKind(row[1]),
                seat=row[2],
                description=row[3],
                created_at=datetime.fromisoformat(row[4]),
                undone=not on_line(row[0]),
                target_version=row[5],
                reason=row[6],
                actor_id=row[7],
            )
            for row in rows
        ]

    @staticmethod
    async def _jumps(db: aiosqlite.Connection, game_id: int) -> dict[int, int]:
        rows = await db.execute_fetchall(
            "SELECT version, target_version FROM actions "
            "WHERE game_id = ? AND kind IN ('undo', 'rollback') ORDER BY version",
            (game_id,),
        )
        return {int(version): int(target) for version, target in rows}

    async def state_at(self, game_id: int, version: int) -> str:
        """The game's state JSON at ``version`` (any version 0..current, undone ones too):
        the nearest logged snapshot at or below it, plus at most a few replayed actions,
        checked against the hash logged for ``version``. ``RestoreFailed`` if the replay does
        not give the logged state (e.g. the game was recorded under another engine)."""
        _check_version(version, "version")
        async with self._locked() as db:
            row = await self._row(db, game_id, with_state=True)
            current = int(row[4])
            game = str(row[12] or DEFAULT_GAME)
            if version > current:
                raise InvalidData(
                    f"game {game_id} has no version {version} (it is at version {current})"
                )
            if version == current:
                return str(row[_STATE_COLUMN])
            base = list(
                await db.execute_fetchall(
                    "SELECT version, snapshot_json FROM actions WHERE game_id = ? "
                    "AND version <= ? AND snapshot_json IS NOT NULL "
                    "ORDER BY version DESC LIMIT 1",
                    (game_id, version),
                )
            )
            steps = list(
                await db.execute_fetchall(
                    "SELECT version, kind, action_json, state_hash FROM actions "
                    "WHERE game_id = ? AND version > ? AND version <= ? ORDER BY version",
                    (game_id, base[0][0] if base else -1, version),
                )
            )
            target_hash = list(
                await db.execute_fetchall(
                    "SELECT state_hash, engine_version FROM actions "
                    "WHERE game_id = ? AND version = ?",
                    (game_id, version),
                )
            )
        if not base:
            raise RestoreFailed(f"game {game_id}: the log has no initial state")
        state_json = str(base[0][1])
        if not steps:
            return state_json
        check_pack(parse_json(state_json, what="a logged snapshot"))
        replayer = self.replayer_for(game)

        def run() -> str:
            text = state_json
            for step_version, kind, action_json, _ in steps:
                if kind != EntryKind.ACTION.value or action_json is None:
                    raise RestoreFailed(
                        f"game {game_id}: version {step_version} ({kind}) has no snapshot"
                    )
                try:
                    text = replayer(text, action_json)
                except Exception as exc:
                    raise RestoreFailed(
                        f"game {game_id}: replaying version {step_version} failed "
                        f"({type(exc).__name__}: {exc}){self._engine_note(target_hash)}"
                    ) from exc
            return text

        result = await asyncio.to_thread(run)
        expected = target_hash[0][0] if target_hash else None
        if expected is not None and state_hash(json.loads(result)) != expected:
            raise RestoreFailed(
                f"game {game_id}: the replayed state at version {version} differs from the "
                f"logged one{self._engine_note(target_hash)}"
            )
        return result

    def _engine_note(self, rows: Sequence[Sequence[Any]]) -> str:
        recorded = rows[0][1] if rows else None
        running = self.engine_version()
        if recorded is None:
            return f" (recorded before engine versions were stored; this is engine {running})"
        if recorded != running:
            return f" (recorded under engine {recorded}; this is engine {running})"
        return ""

    # -- creating and saving --------------------------------------------------------------

    async def create_game(
        self,
        channel_id: int,
        *,
        initial_state_json: str,
        settings: GameSettings,
        guild_id: int | None = None,
        seats: Collection[Seat] | None = None,
        status: GameStatus = GameStatus.LOBBY,
        data_pack: str | None = None,
        game: str = DEFAULT_GAME,
    ) -> GameRecord:
        _check_id(channel_id, "channel_id")
        check_game_name(game)
        if guild_id is not None:
            _check_id(guild_id, "guild_id")
        status = GameStatus(status)
        if not status.is_active:
            raise InvalidData(f"a new game must be active, not {status}")
        pack = settings.data_pack if data_pack is None else data_pack
        if pack is not None and not is_pack_name(pack):
            raise InvalidData(f"data pack {pack!r} is not a plain pack name")
        digest = state_hash(parse_json(initial_state_json, what="the initial state"))
        seat_list = self._seat_list(seats or ())
        engine = self.engine_version()
        now = utc_iso(self.now())
        settings_json = settings.model_dump_json()
        async with self._write() as db:
            await self._ensure_channel_free(db, channel_id)
            cursor = await db.execute(
                "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at, engine_version, data_pack, game) "
                "VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
                (channel_id, guild_id, status.value, settings_json, now, now, engine, pack, game),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            await db.execute(
                "INSERT INTO game_states (game_id, state_json) VALUES (?, ?)",
                (game_id, initial_state_json),
            )
            await self._insert_seats(db, game_id, seat_list)
            await db.execute(
                f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES ({_LOG_PLACEHOLDERS})",
                (
                    game_id, 0, EntryKind.CREATED.value, None, None, "[]", digest,
                    initial_state_json, now, None, None, None, None, engine,
                ),
            )  # fmt: skip
        return GameRecord(
            id=game_id,
            channel_id=channel_id,
            guild_id=guild_id,
            status=status,
            version=0,
            settings=settings,
            seats=tuple(sorted(seat_list, key=lambda seat: seat.seat)),
            created_at=datetime.fromisoformat(now),
            updated_at=datetime.fromisoformat(now),
            engine_version=engine,
            data_pack=pack,
            game=game,
            state_json=initial_state_json,
        )

    async def start_lobby(
        self,
        game_id: int,
        *,
        initial_state_json: str,
        settings: GameSettings,
        seats: Collection[Seat],
        status: GameStatus = GameStatus.RUNNING,
        data_pack: str | None = None,
    ) -> GameRecord:
        status = GameStatus(status)
        if status not in (GameStatus.SETUP, GameStatus.RUNNING):
            raise InvalidData(f"a started lobby is set up or running, not {status}")
        if not isinstance(settings, GameSettings):
            raise InvalidData("start_lobby takes GameSettings")
        pack = settings.data_pack if data_pack is None else data_pack
        if pack is not None and not is_pack_name(pack):
            raise InvalidData(f"data pack {pack!r} is not a plain pack name")
        digest = state_hash(parse_json(initial_state_json, what="the initial state"))
        seat_list = self._seat_list(seats)
        engine = self.engine_version()
        now = utc_iso(self.now())
        async with self._write() as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False))
            self._guard(fields, None)
            if fields["status"] is not GameStatus.LOBBY:
                raise InvalidTransition(
                    game_id, from_status=fields["status"].value, to_status=status.value
                )
            if fields["version"] != 0:  # a lobby logs nothing: cannot happen, never hide it
                raise VersionConflict(game_id, expected=0, actual=fields["version"])
            # entry 0 first, while the game is still a lobby (the trigger allows only that)
            await db.execute(
                "UPDATE actions SET kind = ?, seat_no = NULL, action_json = NULL, "
                "events_json = '[]', state_hash = ?, snapshot_json = ?, created_at = ?, "
                "target_version = NULL, description = NULL, reason = NULL, actor_id = NULL, "
                "engine_version = ? WHERE game_id = ? AND version = 0",
                (EntryKind.CREATED.value, digest, initial_state_json, now, engine, game_id),
            )
            await db.execute(
                "UPDATE game_states SET state_json = ? WHERE game_id = ?",
                (initial_state_json, game_id),
            )
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._insert_seats(db, game_id, seat_list)
            await db.execute(
                "UPDATE games SET status = ?, settings_json = ?, updated_at = ?, "
                "engine_version = ?, data_pack = ? WHERE id = ?",
                (status.value, settings.model_dump_json(), now, engine, pack, game_id),
            )
            row = await self._row(db, game_id, with_state=True)
        return self._record(row)

    _seat_list = staticmethod(seat_list)

    @staticmethod
    async def _insert_seats(
        db: aiosqlite.Connection, game_id: int, seats: Collection[Seat]
    ) -> None:
        await db.executemany(
            "INSERT INTO seats (game_id, seat, kind, user_id, name, ai_level, colour, score, "
            "winner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id, s.seat, s.kind.value, s.user_id, s.name, s.ai_level, s.colour,
                    s.score, int(s.winner),
                )
                for s in seats
            ],
        )  # fmt: skip

    @staticmethod
    async def _ensure_channel_free(db: aiosqlite.Connection, channel_id: int) -> None:
        rows = list(
            await db.execute_fetchall(
                f"SELECT id FROM games WHERE channel_id = ? AND status IN {_ACTIVE_SQL}",
                (channel_id,),
            )
        )
        if rows:
            raise ChannelBusy(channel_id, game_id=int(rows[0][0]))

    _guard = staticmethod(guard)

    _check_result = staticmethod(check_result)

    @staticmethod
    async def _write_result(db: aiosqlite.Connection, game_id: int, result: GameResult) -> None:
        await db.execute("UPDATE seats SET score = NULL, winner = 0 WHERE game_id = ?", (game_id,))
        await db.executemany(
            "UPDATE seats SET score = ?, winner = ? WHERE game_id = ? AND seat = ?",
            [
                (score, int(number in result.winners), game_id, number)
                for number, score in result.scores.items()
            ],
        )

    _check_seat_no = staticmethod(check_seat_no)

    _check_text = staticmethod(check_text)

    async def save(
        self,
        game_id: int,
        *,
        expected_version: int,
        state_json: str,
        action_json: str,
        seat: int | None = None,
        events_json: str = "[]",
        description: str | None = None,
        status: GameStatus | None = None,
        result: GameResult | None = None,
    ) -> GameRecord:
        _check_version(expected_version, "expected_version")
        self._check_seat_no(seat)
        self._check_text(description, "the description")
        digest = state_hash(parse_json(state_json, what="the state"))
        parse_json(action_json, what="the action")
        parse_json(events_json, what="the events")
        if result is not None and status not in (None, GameStatus.FINISHED):
            raise InvalidData("a save with a result finishes the game: status must be finished")
        if result is None and status is GameStatus.FINISHED:
            raise InvalidData("finishing a game needs its result (scores and winners)")
        new_version = expected_version + 1
        snapshot = state_json if new_version % self.snapshot_every == 0 else None
        entry = (
            game_id, new_version, EntryKind.ACTION.value, seat, action_json, events_json,
            digest, snapshot, None, None, description, None, None, self.engine_version(),
        )  # fmt: skip
        return await self._append(
            game_id, expected_version, entry, state_json, status=status, result=result
        )

    async def _append(
        self,
        game_id: int,
        expected_version: int,
        entry: tuple[Any, ...],
        state_json: str,
        *,
        status: GameStatus | None = None,
        result: GameResult | None = None,
        check: Callable[[dict[int, int], int], None] | None = None,
    ) -> GameRecord:
        """Write one log entry (``created_at`` filled in here), the new state and the version
        bump in one guarded transaction. ``check(jumps, current)`` runs inside it."""
        moment = self.now()
        now = utc_iso(moment)
        new_version = expected_version + 1
        async with self._write() as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False))
            self._guard(fields, expected_version)
            if check is not None:
                check(await self._jumps(db, game_id), expected_version)
            old_status: GameStatus = fields["status"]
            new_status = (
                GameStatus.FINISHED if result is not None else GameStatus(status or old_status)
            )
            if not transition_allowed(old_status, new_status):
                raise InvalidTransition(
                    game_id, from_status=old_status.value, to_status=new_status.value
                )
            finished_at = None if new_status.is_active else now
            if result is not None:
                self._check_result(game_id, result, fields["seats"])
            cursor = await db.execute(
                "UPDATE games SET version = ?, status = ?, updated_at = ?, finished_at = ? "
                "WHERE id = ? AND version = ?",
                (new_version, new_status.value, now, finished_at, game_id, expected_version),
            )
            if cursor.rowcount != 1:  # cannot happen under BEGIN IMMEDIATE; never lose it
                actual = await self._row(db, game_id, with_state=False)
                raise VersionConflict(game_id, expected=expected_version, actual=actual[4])
            await db.execute(
                "UPDATE game_states SET state_json = ? WHERE game_id = ?", (state_json, game_id)
            )
            row = list(entry)
            row[8] = now
            await db.execute(
                f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES ({_LOG_PLACEHOLDERS})", row
            )
            if result is not None:
                await self._write_result(db, game_id, result)
                fields["seats"] = self._scored(fields["seats"], result)
        fields.update(
            version=new_version,
            status=new_status,
            updated_at=moment,
            finished_at=_ts(finished_at),
        )
        saved = GameRecord(**fields, state_json=state_json)
        if self.cache_reads:
            self._cache[game_id] = (self._generation, saved)
        return saved

    async def _jump(
        self,
        game_id: int,
        kind: EntryKind,
        to_version: int,
        *,
        expected_version: int,
        seat: int | None,
        actor_id: int | None,
        reason: str | None,
        description: str | None,
    ) -> GameRecord:
        _check_version(to_version, "to_version")
        _check_version(expected_version, "expected_version")
        self._check_text(reason, "the reason", limit=500)
        self._check_text(description, "the description")
        current = await self.get_game(game_id)
        self._guard(
            {"id": current.id, "status": current.status, "version": current.version},
            expected_version,
        )
        if to_version >= expected_version:
            raise InvalidData(
                f"cannot {kind} to version {to_version}: it must be before the current "
                f"version {expected_version}"
            )
        state_json = await self.state_at(game_id, to_version)
        new_version = expected_version + 1
        if description is None:
            description = (
                f"Undo to version {to_version}"
                if kind is EntryKind.UNDO
                else f"Rollback to version {to_version}: {reason}"
            )
        payload: dict[str, Any] = {"to_version": to_version}
        if reason is not None:
            payload["reason"] = reason
        entry = (
            game_id, new_version, kind.value, seat, json.dumps({kind.value: payload}), "[]",
            state_hash(json.loads(state_json)), state_json, None, to_version, description,
            reason, actor_id, self.engine_version(),
        )  # fmt: skip

        def on_line_only(jumps: dict[int, int], at: int) -> None:
            if kind is EntryKind.UNDO and not line_of(at, jumps)(to_version):
                raise InvalidData(
                    f"version {to_version} was itself undone: an undo can only go back along "
                    "the game as it stands (a moderator can roll back to it)"
                )

        return await self._append(game_id, expected_version, entry, state_json, check=on_line_only)

    _scored = staticmethod(scored)

    async def _change(
        self,
        game_id: int,
        expected_version: int | None,
        *,
        status: GameStatus | None = None,
        result: GameResult | None = None,
        seat_upsert: Seat | None = None,
        seat_remove: int | None = None,
        colour: tuple[int, str | None] | None = None,
    ) -> GameRecord:
        """A metadata change (status, result, seats): guarded, no version bump."""
        now = utc_iso(self.now())
        async with self._write() as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False))
            self._guard(fields, expected_version)
            old_status: GameStatus = fields["status"]
            new_status = status or old_status
            if not transition_allowed(old_status, new_status):
                raise InvalidTransition(
                    game_id, from_status=old_status.value, to_status=new_status.value
                )
            if result is not None:
                self._check_result(game_id, result, fields["seats"])
                await self._write_result(db, game_id, result)
            seats: list[Seat] = list(fields["seats"])
            if seat_upsert is not None:
                others = [s for s in seats if s.seat != seat_upsert.seat]
                self._seat_list([*others, seat_upsert])
                await db.execute(
                    "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat_upsert.seat)
                )
                await self._insert_seats(db, game_id, [seat_upsert])
            if seat_remove is not None:
                await db.execute(
                    "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat_remove)
                )
            if colour is not None:
                number, new_colour = colour
                held = next((s for s in seats if s.seat == number), None)
                if held is None:
                    raise InvalidData(f"game {game_id}: seat {number} is empty")
                others = [s for s in seats if s.seat != number]
                try:
                    changed = held.model_copy(update={"colour": new_colour})
                    Seat.model_validate(changed.model_dump())
                except ValidationError as exc:
                    raise InvalidData(f"invalid colour {new_colour!r}") from exc
                self._seat_list([*others, changed])
                await db.execute(
                    "UPDATE seats SET colour = ? WHERE game_id = ? AND seat = ?",
                    (new_colour, game_id, number),
                )
            await db.execute(
                "UPDATE games SET status = ?, updated_at = ?, finished_at = ? WHERE id = ?",
                (new_status.value, now, None if new_status.is_active else now, game_id),
            )
            row = await self._row(db, game_id, with_state=True)
        return self._record(row)

    async def set_status(
        self, game_id: int, status: GameStatus, *, expected_version: int | None = None
    ) -> GameRecord:
        status = GameStatus(status)
        if status is GameStatus.FINISHED:
            raise InvalidData("use finish_game() to finish a game: it records the scores")
        return await self._change(game_id, expected_version, status=status)

    async def finish_game(
        self, game_id: int, result: GameResult, *, expected_version: int | None = None
    ) -> GameRecord:
        return await self._change(
            game_id, expected_version, status=GameStatus.FINISHED, result=result
        )

    async def assign_seat(
        self, game_id: int, seat: Seat, *, expected_version: int | None = None
    ) -> GameRecord:
        if not isinstance(seat, Seat):
            raise InvalidData("assign_seat takes a Seat (Seat.discord/local/ai)")
        return await self._change(
            game_id, expected_version, seat_upsert=seat.model_copy(update={"score": None})
        )

    async def remove_seat(
        self, game_id: int, seat: int, *, expected_version: int | None = None
    ) -> GameRecord:
        number = self._check_seat_no(seat)
        assert number is not None
        return await self._change(game_id, expected_version, seat_remove=number)

    async def set_colour(
        self, game_id: int, seat: int, colour: str | None, *, expected_version: int | None = None
    ) -> GameRecord:
        number = self._check_seat_no(seat)
        assert number is not None
        return await self._change(game_id, expected_version, colour=(number, colour))

    async def replace_seat(self, game_id: int, seat: Seat) -> GameRecord:
        if not isinstance(seat, Seat):
            raise InvalidData("replace_seat takes a Seat (Seat.discord/local/ai)")
        new_seat = seat.model_copy(update={"score": None, "winner": False})
        now = utc_iso(self.now())
        async with self._write() as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False))
            self._guard(fields, None)
            seats: list[Seat] = list(fields["seats"])
            old = next((s for s in seats if s.seat == new_seat.seat), None)
            after = self._seat_list([*(s for s in seats if s.seat != new_seat.seat), new_seat])
            await db.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, new_seat.seat)
            )
            await self._insert_seats(db, game_id, [new_seat])
            gone = None if old is None else old.user_id
            if gone is not None and gone not in {s.user_id for s in after}:
                settings: GameSettings = fields["settings"]
                if gone in settings.private_places or gone in settings.abandon_votes:
                    places = {k: v for k, v in settings.private_places.items() if k != gone}
                    votes = tuple(v for v in settings.abandon_votes if v != gone)
                    changed = apply_settings_changes(
                        settings, {"private_places": places, "abandon_votes": votes}
                    )
                    await db.execute(
                        "UPDATE games SET settings_json = ? WHERE id = ?",
                        (changed.model_dump_json(), game_id),
                    )
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            row = await self._row(db, game_id, with_state=True)
        return self._record(row)

    async def update_settings(self, game_id: int, **changes: Unpack[SettingsChanges]) -> GameRecord:
        async with self._write() as db:
            found = list(
                await db.execute_fetchall(
                    "SELECT settings_json FROM games WHERE id = ?", (game_id,)
                )
            )
            if not found:
                raise GameNotFound(game_id)
            changed = apply_settings_changes(GameSettings.model_validate_json(found[0][0]), changes)
            await db.execute(
                "UPDATE games SET settings_json = ? WHERE id = ?",
                (changed.model_dump_json(), game_id),
            )
            row = await self._row(db, game_id, with_state=True)
        return self._record(row)

    # -- private news ---------------------------------------------------------------------

    async def _game_exists(self, db: aiosqlite.Connection, game_id: int) -> None:
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 <= game_id < _MAX_ID:
            raise GameNotFound(game_id)
        if not list(await db.execute_fetchall("SELECT 1 FROM games WHERE id = ?", (game_id,))):
            raise GameNotFound(game_id)

    async def add_news(self, game_id: int, seat: int, texts: Sequence[str]) -> None:
        number = self._check_seat_no(seat)
        if isinstance(texts, str):
            raise InvalidData("add_news takes a sequence of texts, not one string")
        items = list(texts)
        for text in items:
            if not isinstance(text, str):
                raise InvalidData(f"news must be text, not {type(text).__name__}")
        now = utc_iso(self.now())
        async with self._write() as db:
            await self._game_exists(db, game_id)
            await db.executemany(
                "INSERT INTO news (game_id, seat, text, created_at) VALUES (?, ?, ?, ?)",
                [(game_id, number, text, now) for text in items],
            )

    async def unread_news(self, game_id: int, seat: int) -> list[NewsItem]:
        number = self._check_seat_no(seat)
        async with self._locked() as db:
            await self._game_exists(db, game_id)
            rows = list(
                await db.execute_fetchall(
                    "SELECT n.id, n.text, n.created_at FROM news n WHERE n.game_id = ? "
                    "AND n.seat = ? AND n.id > COALESCE((SELECT r.up_to FROM news_read r "
                    "WHERE r.game_id = n.game_id AND r.seat = n.seat), 0) ORDER BY n.id",
                    (game_id, number),
                )
            )
        return [
            NewsItem(id=row[0], text=row[1], created_at=datetime.fromisoformat(row[2]))
            for row in rows
        ]

    async def mark_news_read(self, game_id: int, seat: int, up_to: int) -> None:
        number = self._check_seat_no(seat)
        _check_id(up_to, "up_to (a news id)")
        async with self._write() as db:
            await self._game_exists(db, game_id)
            await db.execute(
                "INSERT INTO news_read (game_id, seat, up_to) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET up_to = MAX(up_to, excluded.up_to)",
                (game_id, number, up_to),
            )

    # -- statistics -----------------------------------------------------------------------

    _STATS_SELECT = """
        SELECT s.user_id,
               COUNT(DISTINCT s.game_id),
               COUNT(DISTINCT CASE WHEN s.winner = 1 THEN s.game_id END),
               AVG(s.score),
               MAX(s.score)
          FROM seats s JOIN games g ON g.id = s.game_id
         WHERE g.status = 'finished' AND s.user_id IS NOT NULL
    """

    @staticmethod
    def _stats(row: Sequence[Any]) -> PlayerStats:
        return PlayerStats(
            user_id=row[0],
            games=row[1],
            wins=row[2],
            average_score=None if row[3] is None else float(row[3]),
            best_score=row[4],
        )

    async def player_stats(self, user_id: int, *, guild_id: int | None = None) -> PlayerStats:
        sql = self._STATS_SELECT + " AND s.user_id = ?"
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetch(sql + " GROUP BY s.user_id", params)
        if not rows:
            return PlayerStats(
                user_id=user_id, games=0, wins=0, average_score=None, best_score=None
            )
        return self._stats(rows[0])

    async def leaderboard(
        self, *, guild_id: int | None = None, limit: int = 10
    ) -> list[PlayerStats]:
        sql = self._STATS_SELECT
        params: list[Any] = []
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        sql += " GROUP BY s.user_id ORDER BY 3 DESC, 4 DESC NULLS LAST, 2 DESC, s.user_id LIMIT ?"
        params.append(max(0, int(limit)))
        return [self._stats(row) for row in await self._fetch(sql, params)]

    # -- maintenance ----------------------------------------------------------------------

    async def check_integrity(self) -> list[IntegrityProblem]:
        problems: list[IntegrityProblem] = []

        def db_problem(message: str) -> None:
            problems.append(IntegrityProblem(game_id=None, message=message))

        for (line,) in await self._fetch("PRAGMA integrity_check"):
            if line != "ok":
                db_problem(f"integrity_check: {line}")
        if problems:  # reading games from a damaged file would only raise
            return problems
        for table, rowid, parent, _ in await self._fetch("PRAGMA foreign_key_check"):
            db_problem(f"{table} row {rowid} points to a missing {parent} row")
        async with self._locked() as db:
            version = await schema_version(db)
        if version != LATEST:
            db_problem(f"schema version {version}, expected {LATEST}")
        for game_id in await self.game_ids():
            problems.extend(
                IntegrityProblem(game_id=game_id, message=message)
                for message in await self._check_game(game_id)
            )
        return problems

    async def _check_game(self, game_id: int) -> list[str]:
        rows = await self._fetch(
            """
            SELECT g.version, g.status, g.settings_json, st.state_json,
                   (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id),
                   (SELECT MIN(version) FROM actions a WHERE a.game_id = g.id),
                   (SELECT MAX(version) FROM actions a WHERE a.game_id = g.id),
                   (SELECT state_hash FROM actions a
                     WHERE a.game_id = g.id AND a.version = g.version),
                   (SELECT snapshot_json FROM actions a WHERE a.game_id = g.id AND a.version = 0),
                   g.data_pack
              FROM games g LEFT JOIN game_states st ON st.game_id = g.id
             WHERE g.id = ?
            """,
            (game_id,),
        )
        if not rows:
            return []  # vanished between listing and checking: impossible (never deleted)
        (version, _status, settings_json, state, count, low, high, last_hash, initial, pack) = rows[
            0
        ]
        snapshots = await self._fetch(
            "SELECT version, snapshot_json, state_hash FROM actions "
            "WHERE game_id = ? AND snapshot_json IS NOT NULL ORDER BY version",
            (game_id,),
        )
        jumps = await self._fetch(
            "SELECT a.version, a.target_version, a.state_hash, "
            "(SELECT t.state_hash FROM actions t WHERE t.game_id = a.game_id "
            "AND t.version = a.target_version) FROM actions a "
            "WHERE a.game_id = ? AND a.kind IN ('undo', 'rollback')",
            (game_id,),
        )
        return game_problems(
            version=version,
            settings_json=settings_json,
            state=state,
            count=count,
            low=low,
            high=high,
            last_hash=last_hash,
            initial=initial,
            pack=pack,
            snapshots=[(int(r[0]), str(r[1]), r[2]) for r in snapshots],
            jumps=[(int(r[0]), int(r[1]), r[2], r[3]) for r in jumps],
        )

    async def backup(self, path: str | PathLike[str]) -> None:
        """Online backup (SQLite backup API) to ``path``, written atomically: a new temporary
        file next to it (a unique name, never someone else's file) is filled, switched to a
        self-contained rollback journal and verified with ``PRAGMA integrity_check``; only
        then is it renamed to ``path``. If the database is corrupt, :class:`DatabaseCorrupt`
        is raised and ``path`` is left as it was."""
        target = Path(path)
        partial = target.with_name(f".{target.name}.{secrets.token_hex(6)}.partial")
        try:
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            raise BackendError(f"cannot write a backup next to {target}: {exc}") from exc
        os.close(fd)
        try:
            dest = sqlite3.connect(partial, check_same_thread=False)
        except sqlite3.Error as exc:
            partial.unlink(missing_ok=True)
            raise BackendError(f"cannot write a backup to {target}: {exc}") from exc
        try:
            async with self._locked() as db:
                await db.backup(dest)

            def finish() -> list[str]:
                dest.execute("PRAGMA journal_mode = DELETE")
                lines = [str(row[0]) for row in dest.execute("PRAGMA integrity_check")]
                dest.close()
                if lines != ["ok"]:
                    return lines
                os.replace(partial, target)
                return []

            problems = await asyncio.to_thread(finish)
        except sqlite3.Error as exc:
            raise _backend_error(f"backup of {self.path} failed", exc) from exc
        finally:
            dest.close()
            partial.unlink(missing_ok=True)
        if problems:
            raise DatabaseCorrupt(
                f"{self.path} is corrupt, so no backup was written ({target} is unchanged): "
                + "; ".join(problems[:3])
            )

    async def _insert_import(self, plan: ImportPlan) -> GameRecord:
        game = plan.game
        _check_id(game.channel_id, "channel_id")
        if game.guild_id is not None:
            _check_id(game.guild_id, "guild_id")
        self._seat_list(plan.seats)
        async with self._write() as db:
            if game.status.is_active:
                await self._ensure_channel_free(db, game.channel_id)
            cursor = await db.execute(
                "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at, finished_at, engine_version, data_pack, game) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.channel_id,
                    game.guild_id,
                    game.status.value,
                    game.version,
                    game.settings.model_dump_json(),
                    utc_iso(game.created_at),
                    utc_iso(game.updated_at),
                    None if game.finished_at is None else utc_iso(game.finished_at),
                    game.engine_version,
                    game.data_pack,
                    game.game,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            await db.execute(
                "INSERT INTO game_states (game_id, state_json) VALUES (?, ?)",
                (game_id, plan.state_json),
            )
            await self._insert_seats(db, game_id, plan.seats)
            await db.executemany(
                f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES ({_LOG_PLACEHOLDERS})",
                [_log_row(game_id, entry) for entry in plan.entries],
            )
            row = await self._row(db, game_id, with_state=True)
        return self._record(row)

    # -- moving games between stores ------------------------------------------------------

    async def dump_game(self, game_id: int) -> GameDump:
        async with self._locked() as db:
            await db.execute("BEGIN")  # one read snapshot (WAL): other writers do not show
            try:
                return await self._dump(db, game_id)
            finally:
                await db.execute("COMMIT")

    async def _dump(self, db: aiosqlite.Connection, game_id: int) -> GameDump:
        async def rows(sql: str) -> list[Sequence[Any]]:
            return list(await db.execute_fetchall(sql, (game_id,)))

        record = self._record(await self._row(db, game_id, with_state=True))
        log = await rows(f"SELECT {_LOG_COLUMNS} FROM actions WHERE game_id = ? ORDER BY version")
        news = await rows(
            "SELECT id, seat, text, created_at FROM news WHERE game_id = ? ORDER BY id"
        )
        read = await rows("SELECT seat, up_to FROM news_read WHERE game_id = ? ORDER BY seat")
        pacing = await rows(
            "SELECT settings_json, pause_votes_json FROM pacing_games WHERE game_id = ?"
        )
        breaks = await rows(
            "SELECT id, game_id, seat, start_at, end_at, by_user, reason FROM pacing_breaks "
            "WHERE game_id = ? ORDER BY id"
        )
        clocks = await rows(
            f"SELECT {self._CLOCK_COLUMNS} FROM pacing_decisions WHERE game_id = ? "
            "ORDER BY seat, since_version"
        )
        timers = await rows(
            "SELECT game_id, version, seat, kind, claimed_at, done_at, outcome FROM "
            "pacing_timers WHERE game_id = ? ORDER BY claimed_at, version, seat, kind"
        )
        stand_ins = await rows(
            "SELECT game_id, seat, user_id, ai_level, since, ended_at FROM pacing_standins "
            "WHERE game_id = ? ORDER BY seat, since"
        )
        page = await rows("SELECT token, created_at FROM web_pages WHERE game_id = ?")
        return GameDump(
            game=record,
            log=tuple(_log_entry(row) for row in log),
            news=tuple(
                NewsRow(id=r[0], seat=r[1], text=r[2], created_at=datetime.fromisoformat(r[3]))
                for r in news
            ),
            news_read=tuple((int(r[0]), int(r[1])) for r in read),
            pacing=None
            if not pacing
            else GamePacing(
                game_id, str(pacing[0][0]), tuple(int(v) for v in json.loads(pacing[0][1]))
            ),
            breaks=tuple(
                Break(
                    int(r[0]), int(r[1]), r[2], datetime.fromisoformat(r[3]), _ts(r[4]), r[5], r[6]
                )
                for r in breaks
            ),
            decisions=tuple(self._clock_row(r) for r in clocks),
            timers=tuple(
                Timer(
                    int(r[0]),
                    int(r[1]),
                    int(r[2]),
                    str(r[3]),
                    datetime.fromisoformat(r[4]),
                    _ts(r[5]),
                    r[6],
                )
                for r in timers
            ),
            stand_ins=tuple(
                StandIn(
                    int(r[0]), int(r[1]), r[2], str(r[3]), datetime.fromisoformat(r[4]), _ts(r[5])
                )
                for r in stand_ins
            ),
            web_page=None
            if not page
            else WebPage(token=page[0][0], created_at=datetime.fromisoformat(page[0][1])),
        )

    async def load_game(self, dump: GameDump) -> None:
        game = dump.game
        check_dump(dump)
        self._seat_list(game.seats)
        async with self._write() as db:
            if list(await db.execute_fetchall("SELECT 1 FROM games WHERE id = ?", (game.id,))):
                raise GameExists(game.id)
            if game.status.is_active:
                await self._ensure_channel_free(db, game.channel_id)
            await db.execute(
                "INSERT INTO games (id, channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at, finished_at, engine_version, data_pack, game) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id, game.channel_id, game.guild_id, game.status.value, game.version,
                    game.settings.model_dump_json(), utc_iso(game.created_at),
                    utc_iso(game.updated_at),
                    None if game.finished_at is None else utc_iso(game.finished_at),
                    game.engine_version, game.data_pack, game.game,
                ),
            )  # fmt: skip
            await db.execute(
                "INSERT INTO game_states (game_id, state_json) VALUES (?, ?)",
                (game.id, game.state_json),
            )
            await self._insert_seats(db, game.id, game.seats)
            await db.executemany(
                f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES ({_LOG_PLACEHOLDERS})",
                [_log_row(game.id, entry) for entry in dump.log],
            )
            await db.executemany(
                "INSERT INTO news (id, game_id, seat, text, created_at) VALUES (?, ?, ?, ?, ?)",
                [(n.id, game.id, n.seat, n.text, utc_iso(n.created_at)) for n in dump.news],
            )
            await db.executemany(
                "INSERT INTO news_read (game_id, seat, up_to) VALUES (?, ?, ?)",
                [(game.id, seat, up_to) for seat, up_to in dump.news_read],
            )
            if dump.pacing is not None:
                await db.execute(
                    "INSERT INTO pacing_games (game_id, settings_json, pause_votes_json) "
                    "VALUES (?, ?, ?)",
                    (game.id, dump.pacing.settings_json, json.dumps(list(dump.pacing.pause_votes))),
                )
            await db.executemany(
                "INSERT INTO pacing_breaks (id, game_id, seat, start_at, end_at, by_user, "
                "reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (b.id, game.id, b.seat, pacing_iso(b.start), pacing_iso(b.end), b.by_user,
                     b.reason)
                    for b in dump.breaks
                ],
            )  # fmt: skip
            await db.executemany(
                f"INSERT INTO pacing_decisions ({self._CLOCK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game.id, c.seat, c.since_version, pacing_iso(c.started),
                     pacing_iso(c.closed), int(c.muted))
                    for c in dump.decisions
                ],
            )  # fmt: skip
            await db.executemany(
                "INSERT INTO pacing_timers (game_id, version, seat, kind, claimed_at, done_at, "
                "outcome) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game.id, t.version, t.seat, t.kind, pacing_iso(t.claimed),
                     pacing_iso(t.done), t.outcome)
                    for t in dump.timers
                ],
            )  # fmt: skip
            await db.executemany(
                "INSERT INTO pacing_standins (game_id, seat, user_id, ai_level, since, ended_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game.id, s.seat, s.user_id, s.ai_level, pacing_iso(s.since),
                     pacing_iso(s.ended))
                    for s in dump.stand_ins
                ],
            )  # fmt: skip
            if dump.web_page is not None:
                await db.execute(
                    "INSERT INTO web_pages (game_id, token, created_at) VALUES (?, ?, ?)",
                    (game.id, dump.web_page.token, utc_iso(dump.web_page.created_at)),
                )

    async def all_player_prefs(self) -> list[PlayerPrefs]:
        rows = await self._fetch(
            f"SELECT user_id, {PREFS_COLUMNS} FROM pacing_players ORDER BY user_id"
        )
        return [PlayerPrefs(int(r[0]), *r[1:]) for r in rows]
