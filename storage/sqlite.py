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
import functools
import os
import re
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from datetime import datetime
from os import PathLike
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from storage.backend import STANDIN_COLUMNS, Db, SqlGameStore
from storage.base import SNAPSHOT_EVERY, Clock, utc_now
from storage.common import seat_list
from storage.dump import GameDump, check_dump
from storage.engine_info import current_engine_version
from storage.errors import (
    BackendError,
    DatabaseCorrupt,
    DatabaseMissing,
    GameExists,
    GameNotFound,
    InvalidData,
    NotAGameDatabase,
    SchemaTooNew,
)
from storage.migrations import LATEST, check_ours, migrate, schema_version
from storage.models import StandIn, utc_iso
from storage.pacing import pacing_iso
from storage.replay import Replayer

__all__ = ["SNAPSHOT_EVERY", "SqliteGameStore"]

_GAME_COLUMNS = """
    g.id, g.channel_id, g.guild_id, g.status, g.version, g.settings_json,
    g.created_at, g.updated_at, g.finished_at,
    (SELECT json_group_array(json_array(s.seat, s.kind, s.user_id, s.name, s.ai_level,
                                         s.colour, s.score, s.winner))
       FROM seats s WHERE s.game_id = g.id) AS seats_json,
    g.engine_version, g.data_pack, g.game
"""

_NUMBERED = re.compile(r"\$(\d+)")


@functools.lru_cache(maxsize=1024)
def _dialect(sql: str) -> str:
    """The shared SQL's ``$1`` placeholders as SQLite's numbered ``?1`` ones."""
    return _NUMBERED.sub(r"?\1", sql)


class _Db:
    """An aiosqlite connection as :class:`storage.backend.Db` (the shared SQL)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return list(await self.conn.execute_fetchall(_dialect(sql), args))

    async def fetchrow(self, sql: str, *args: Any) -> Sequence[Any] | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]

    async def execute(self, sql: str, *args: Any) -> int:
        cursor = await self.conn.execute(_dialect(sql), args)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(_dialect(sql), rows)


def _ts(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


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


class SqliteGameStore(SqlGameStore):
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
        if synchronous not in ("NORMAL", "FULL", "EXTRA"):
            raise InvalidData("synchronous must be NORMAL, FULL or EXTRA")
        self._init_common(replayer, snapshot_every, cache_reads)
        self.path = Path(path)
        self._create = create
        self._synchronous = synchronous
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.migrated_from: int | None = None
        """Schema version the file had when opened (0: it was created)."""

    def __repr__(self) -> str:
        return f"SqliteGameStore({str(self.path)!r})"

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

    # -- the shared code's hooks (storage.backend) ----------------------------------------

    @asynccontextmanager
    async def _connected(self) -> AsyncIterator[Db]:
        async with self._locked() as db:
            yield _Db(db)

    _reading = _connected  # the one connection, held: nothing else runs meanwhile

    @asynccontextmanager
    async def _writing(self, game_id: int | None = None) -> AsyncIterator[Db]:
        async with self._write() as db:
            yield _Db(db)

    def _time(self, moment: datetime) -> str:
        return utc_iso(moment)

    def _from_time(self, value: Any) -> datetime | None:
        return _ts(value)

    def _pacing_time(self, moment: datetime | None) -> str | None:
        return pacing_iso(moment)

    async def _insert_game(self, db: Db, values: tuple[Any, ...]) -> int:
        assert isinstance(db, _Db)
        cursor = await db.conn.execute(
            "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
            "created_at, updated_at, finished_at, engine_version, data_pack, game) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            values,
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def _in_list(self, param: Callable[[Any], str], column: str, values: list[str]) -> str:
        return f"{column} IN ({', '.join(param(value) for value in values)})"

    _GAME_COLUMNS = _GAME_COLUMNS
    _GREATEST = "MAX"

    # -- pacing ---------------------------------------------------------------------------

    _IS_DISTINCT = "IS NOT"

    def _ignoring(self, insert: str) -> str:
        return insert.replace("INSERT INTO", "INSERT OR IGNORE INTO", 1)

    async def _insert_id(self, db: Db, insert: str, *args: Any) -> int:
        assert isinstance(db, _Db)
        cursor = await db.conn.execute(_dialect(insert), args)
        return int(cursor.lastrowid or 0)

    async def end_stand_in(self, game_id: int, seat: int, at: datetime) -> StandIn | None:
        """End the open stand-in of ``seat`` (None if there is none)."""
        async with self._writing(game_id) as db:
            row = await db.fetchrow(
                f"SELECT {STANDIN_COLUMNS} FROM pacing_standins "
                "WHERE game_id = $1 AND seat = $2 AND ended_at IS NULL",
                game_id,
                seat,
            )
            if row is None:
                return None
            await db.execute(
                "UPDATE pacing_standins SET ended_at = $1 WHERE game_id = $2 AND seat = $3 "
                "AND ended_at IS NULL",
                pacing_iso(at),
                game_id,
                seat,
            )
        return StandIn(
            int(row[0]), int(row[1]), row[2], str(row[3]), datetime.fromisoformat(row[4]), at
        )

    # -- web pages ------------------------------------------------------------------------

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

    # -- statistics -----------------------------------------------------------------------

    _WON = "s.winner = 1"

    # -- maintenance ----------------------------------------------------------------------

    async def _database_problems(self) -> tuple[list[str], bool]:
        found = [
            f"integrity_check: {line}"
            for (line,) in await self._fetch("PRAGMA integrity_check")
            if line != "ok"
        ]
        if found:  # reading games from a damaged file would only raise
            return found, False
        for table, rowid, parent, _ in await self._fetch("PRAGMA foreign_key_check"):
            found.append(f"{table} row {rowid} points to a missing {parent} row")
        async with self._locked() as db:
            version = await schema_version(db)
        if version != LATEST:
            found.append(f"schema version {version}, expected {LATEST}")
        return found, True

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

    # -- moving games between stores ------------------------------------------------------

    async def dump_game(self, game_id: int) -> GameDump:
        async with self._locked() as db:
            await db.execute("BEGIN")  # one read snapshot (WAL): other writers do not show
            try:
                return await self._dump(_Db(db), game_id)
            finally:
                await db.execute("COMMIT")

    async def load_game(self, dump: GameDump) -> None:
        game = dump.game
        check_dump(dump)
        seat_list(game.seats)
        async with self._write() as conn:
            db = _Db(conn)
            if await db.fetchval("SELECT 1 FROM games WHERE id = $1", game.id) is not None:
                raise GameExists(game.id)
            if game.status.is_active:
                await self._ensure_channel_free(db, game.channel_id)
            await db.execute(
                "INSERT INTO games (id, channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at, finished_at, engine_version, data_pack, game) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                game.id, game.channel_id, game.guild_id, game.status.value, game.version,
                game.settings.model_dump_json(), utc_iso(game.created_at),
                utc_iso(game.updated_at),
                None if game.finished_at is None else utc_iso(game.finished_at),
                game.engine_version, game.data_pack, game.game,
            )  # fmt: skip
            await db.execute(
                "INSERT INTO game_states (game_id, state_json) VALUES ($1, $2)",
                game.id,
                game.state_json,
            )
            await self._insert_seats(db, game.id, game.seats)
            await self._load_rows(db, dump)
