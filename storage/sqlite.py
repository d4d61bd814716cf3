"""SQLite implementation of :class:`~storage.base.GameStore` (aiosqlite, one embedded file).

One connection per store, in WAL mode with ``synchronous=NORMAL`` (or ``FULL``), foreign keys
on and a busy timeout. Every write is one ``BEGIN IMMEDIATE`` transaction; a save's version
guard is ``UPDATE games ... WHERE id = ? AND version = ?``. An ``asyncio.Lock`` keeps the
coroutines sharing the connection from interleaving statements inside each other's
transactions. With WAL and ``synchronous=NORMAL`` a committed save survives a crash or kill of
the process; ``synchronous="FULL"`` also makes it survive a power cut, at the cost of an fsync
per save.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Collection, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from datetime import datetime
from os import PathLike
from pathlib import Path
from typing import Any, Literal

import aiosqlite
from pydantic import ValidationError

from storage.base import Clock, GameStore, utc_now
from storage.errors import (
    BackendError,
    ChannelBusy,
    DatabaseMissing,
    GameNotActive,
    GameNotFound,
    InvalidData,
    InvalidTransition,
    NotAGameDatabase,
    SchemaTooNew,
    VersionConflict,
)
from storage.export import ImportPlan
from storage.jsonutil import parse_json, state_hash
from storage.migrations import LATEST, check_ours, migrate, schema_version
from storage.models import (
    ACTIVE_STATUSES,
    GameRecord,
    GameResult,
    GameSettings,
    GameStatus,
    GameSummary,
    IntegrityProblem,
    LogEntry,
    PlayerStats,
    Seat,
    transition_allowed,
    utc_iso,
)

__all__ = ["SqliteGameStore"]

_MAX_ID = 2**63

_ACTIVE_SQL = "('lobby', 'setup', 'running')"

_GAME_COLUMNS = """
    g.id, g.channel_id, g.guild_id, g.status, g.version, g.settings_json,
    g.created_at, g.updated_at, g.finished_at,
    (SELECT json_group_array(json_array(s.colour, s.user_id, s.score, s.winner))
       FROM seats s WHERE s.game_id = g.id) AS seats_json
"""
_GAME_WITH_STATE = f"""
    SELECT {_GAME_COLUMNS}, st.state_json
      FROM games g JOIN game_states st ON st.game_id = g.id
"""

_LOG_COLUMNS = (
    "game_id, version, seat, action_json, events_json, state_hash, snapshot_json, created_at"
)


def _check_id(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _MAX_ID:
        raise InvalidData(f"{what} must be an integer in [0, 2**63), got {value!r}")
    return value


def _ts(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _seats(seats_json: str | None) -> tuple[Seat, ...]:
    rows = json.loads(seats_json) if seats_json else []
    seats = [
        Seat(colour=colour, user_id=user_id, score=score, winner=bool(winner))
        for colour, user_id, score, winner in rows
    ]
    return tuple(sorted(seats, key=lambda seat: seat.colour))


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
        "seats": _seats(row[9]),
    }


def _log_entry(row: Sequence[Any]) -> LogEntry:
    return LogEntry(
        game_id=row[0],
        version=row[1],
        seat=row[2],
        action_json=row[3],
        events_json=row[4],
        state_hash=row[5],
        snapshot_json=row[6],
        created_at=datetime.fromisoformat(row[7]),
    )


class SqliteGameStore(GameStore):
    """Games in one SQLite file.

    ``path``: the database file (created on first open unless ``create=False``, which raises
    :class:`~storage.errors.DatabaseMissing` instead). ``clock``: returns aware datetimes
    (tests pass a fake one). ``synchronous``: ``"NORMAL"`` (default; durable across process
    crashes) or ``"FULL"`` (also across power loss). ``busy_timeout_ms``: how long a write
    waits for another process's write lock.
    """

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        clock: Clock = utc_now,
        create: bool = True,
        synchronous: Literal["NORMAL", "FULL", "EXTRA"] = "NORMAL",
        busy_timeout_ms: int = 5000,
    ) -> None:
        super().__init__(clock=clock)
        if synchronous not in ("NORMAL", "FULL", "EXTRA"):
            raise InvalidData("synchronous must be NORMAL, FULL or EXTRA")
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
        if not self._create and not self.path.exists():
            raise DatabaseMissing(f"no database at {self.path}")
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise BackendError(f"cannot open {self.path}: {exc}") from exc
        try:
            await db.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
            try:
                found = await schema_version(db)
            except sqlite3.DatabaseError as exc:
                raise NotAGameDatabase(f"{self.path} is not an SQLite database: {exc}") from exc
            if found > 0:
                await check_ours(db, found)
            if found > LATEST:  # refuse before changing anything (even the journal mode)
                raise SchemaTooNew(found=found, supported=LATEST, where=str(self.path))
            await self._enable_wal(db)
            await db.execute(f"PRAGMA synchronous = {self._synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            self.migrated_from, _ = await migrate(db)
        except sqlite3.Error as exc:
            await db.close()
            raise BackendError(f"cannot open {self.path}: {exc}") from exc
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
                raise BackendError(f"database error ({self.path}): {exc}") from exc

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

    # -- reading --------------------------------------------------------------------------

    @staticmethod
    async def _row(db: aiosqlite.Connection, game_id: int, *, with_state: bool) -> Sequence[Any]:
        if with_state:
            sql = f"{_GAME_WITH_STATE} WHERE g.id = ?"
        else:
            sql = f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?"
        rows = list(await db.execute_fetchall(sql, (game_id,)))
        if not rows:
            raise GameNotFound(game_id)
        return rows[0]

    async def get_game(self, game_id: int) -> GameRecord:
        async with self._locked() as db:
            row = await self._row(db, game_id, with_state=True)
        return GameRecord(**_summary_fields(row), state_json=row[10])

    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        rows = await self._fetch(
            f"{_GAME_WITH_STATE} WHERE g.channel_id = ? AND g.status IN {_ACTIVE_SQL}",
            (channel_id,),
        )
        if not rows:
            return None
        return GameRecord(**_summary_fields(rows[0]), state_json=rows[0][10])

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
            params.append(channel_id)
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        if user_id is not None:
            where.append("g.id IN (SELECT game_id FROM seats WHERE user_id = ?)")
            params.append(user_id)
        if statuses is not None:
            wanted = [GameStatus(status).value for status in statuses]
            if not wanted:
                return []
            where.append(f"g.status IN ({', '.join('?' for _ in wanted)})")
            params.extend(wanted)
        if before_id is not None:
            where.append("g.id < ?")
            params.append(before_id)
        sql = f"SELECT {_GAME_COLUMNS} FROM games g"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(limit)))
        rows = await self._fetch(sql, params)
        return [GameSummary(**_summary_fields(row)) for row in rows]

    async def game_ids(self) -> list[int]:
        return [int(row[0]) for row in await self._fetch("SELECT id FROM games ORDER BY id")]

    async def get_log(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[LogEntry]:
        upper = _MAX_ID - 1 if to_version is None else to_version
        async with self._locked() as db:
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {_LOG_COLUMNS} FROM actions "
                    "WHERE game_id = ? AND version BETWEEN ? AND ? ORDER BY version",
                    (game_id, from_version, upper),
                )
            )
            if not rows:
                await self._row(db, game_id, with_state=False)  # raises GameNotFound
        return [_log_entry(row) for row in rows]

    # -- creating and saving --------------------------------------------------------------

    async def create_game(
        self,
        channel_id: int,
        *,
        initial_state_json: str,
        settings: GameSettings,
        guild_id: int | None = None,
        seats: Mapping[str, int] | None = None,
        status: GameStatus = GameStatus.LOBBY,
    ) -> GameRecord:
        _check_id(channel_id, "channel_id")
        if guild_id is not None:
            _check_id(guild_id, "guild_id")
        status = GameStatus(status)
        if not status.is_active:
            raise InvalidData(f"a new game must be active, not {status}")
        digest = state_hash(parse_json(initial_state_json, what="the initial state"))
        seat_list = self._seat_list(seats or {})
        now = utc_iso(self.now())
        settings_json = settings.model_dump_json()
        async with self._write() as db:
            await self._ensure_channel_free(db, channel_id)
            cursor = await db.execute(
                "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?)",
                (channel_id, guild_id, status.value, settings_json, now, now),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            await db.execute(
                "INSERT INTO game_states (game_id, state_json) VALUES (?, ?)",
                (game_id, initial_state_json),
            )
            await self._insert_seats(db, game_id, seat_list)
            await db.execute(
                f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES (?, 0, NULL, NULL, '[]', ?, ?, ?)",
                (game_id, digest, initial_state_json, now),
            )
        return GameRecord(
            id=game_id,
            channel_id=channel_id,
            guild_id=guild_id,
            status=status,
            version=0,
            settings=settings,
            seats=tuple(sorted(seat_list, key=lambda seat: seat.colour)),
            created_at=datetime.fromisoformat(now),
            updated_at=datetime.fromisoformat(now),
            state_json=initial_state_json,
        )

    @staticmethod
    def _seat_list(seats: Mapping[str, int]) -> list[Seat]:
        try:
            return [Seat(colour=colour, user_id=user) for colour, user in seats.items()]
        except ValidationError as exc:
            raise InvalidData(f"invalid seats: {exc}") from exc

    @staticmethod
    async def _insert_seats(db: aiosqlite.Connection, game_id: int, seats: list[Seat]) -> None:
        await db.executemany(
            "INSERT INTO seats (game_id, colour, user_id, score, winner) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.colour, s.user_id, s.score, int(s.winner)) for s in seats],
        )

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

    @staticmethod
    def _guard(fields: Mapping[str, Any], expected_version: int | None) -> None:
        status: GameStatus = fields["status"]
        if status not in ACTIVE_STATUSES:
            raise GameNotActive(fields["id"], status=status.value)
        if expected_version is not None and fields["version"] != expected_version:
            raise VersionConflict(fields["id"], expected=expected_version, actual=fields["version"])

    @staticmethod
    def _check_result(game_id: int, result: GameResult, seats: Sequence[Seat]) -> None:
        colours = {seat.colour for seat in seats}
        unknown = set(result.scores) - colours
        if unknown:
            raise InvalidData(
                f"game {game_id}: scores for colours without a seat: {sorted(unknown)}"
            )

    @staticmethod
    async def _write_result(db: aiosqlite.Connection, game_id: int, result: GameResult) -> None:
        await db.execute("UPDATE seats SET score = NULL, winner = 0 WHERE game_id = ?", (game_id,))
        await db.executemany(
            "UPDATE seats SET score = ?, winner = ? WHERE game_id = ? AND colour = ?",
            [
                (score, int(colour in result.winners), game_id, colour)
                for colour, score in result.scores.items()
            ],
        )

    async def save(
        self,
        game_id: int,
        *,
        expected_version: int,
        state_json: str,
        action_json: str,
        seat: str | None = None,
        events_json: str = "[]",
        status: GameStatus | None = None,
        result: GameResult | None = None,
    ) -> GameRecord:
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise InvalidData("expected_version must be an int")
        digest = state_hash(parse_json(state_json, what="the state"))
        parse_json(action_json, what="the action")
        parse_json(events_json, what="the events")
        if result is not None and status not in (None, GameStatus.FINISHED):
            raise InvalidData("a save with a result finishes the game: status must be finished")
        if result is None and status is GameStatus.FINISHED:
            raise InvalidData("finishing a game needs its result (scores and winners)")
        moment = self.now()
        now = utc_iso(moment)
        async with self._write() as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False))
            self._guard(fields, expected_version)
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
            new_version = expected_version + 1
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
            await db.execute(
                f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)",
                (game_id, new_version, seat, action_json, events_json, digest, now),
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
        return GameRecord(**fields, state_json=state_json)

    @staticmethod
    def _scored(seats: Sequence[Seat], result: GameResult) -> tuple[Seat, ...]:
        return tuple(
            seat.model_copy(
                update={
                    "score": result.scores.get(seat.colour),
                    "winner": seat.colour in result.winners,
                }
            )
            for seat in seats
        )

    async def _change(
        self,
        game_id: int,
        expected_version: int | None,
        *,
        status: GameStatus | None = None,
        result: GameResult | None = None,
        seat_upsert: tuple[str, int] | None = None,
        seat_remove: str | None = None,
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
            if seat_upsert is not None:
                await db.execute(
                    "INSERT INTO seats (game_id, colour, user_id) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_id, colour) DO UPDATE SET user_id = excluded.user_id",
                    (game_id, *seat_upsert),
                )
            if seat_remove is not None:
                await db.execute(
                    "DELETE FROM seats WHERE game_id = ? AND colour = ?", (game_id, seat_remove)
                )
            await db.execute(
                "UPDATE games SET status = ?, updated_at = ?, finished_at = ? WHERE id = ?",
                (new_status.value, now, None if new_status.is_active else now, game_id),
            )
            row = await self._row(db, game_id, with_state=True)
        return GameRecord(**_summary_fields(row), state_json=row[10])

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
        self, game_id: int, colour: str, user_id: int, *, expected_version: int | None = None
    ) -> GameRecord:
        seat = self._seat_list({colour: user_id})[0]
        return await self._change(
            game_id, expected_version, seat_upsert=(seat.colour, seat.user_id)
        )

    async def remove_seat(
        self, game_id: int, colour: str, *, expected_version: int | None = None
    ) -> GameRecord:
        return await self._change(game_id, expected_version, seat_remove=colour)

    # -- statistics -----------------------------------------------------------------------

    _STATS_SELECT = """
        SELECT s.user_id,
               COUNT(DISTINCT s.game_id),
               COUNT(DISTINCT CASE WHEN s.winner = 1 THEN s.game_id END),
               AVG(s.score),
               MAX(s.score)
          FROM seats s JOIN games g ON g.id = s.game_id
         WHERE g.status = 'finished'
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
                   (SELECT state_hash FROM actions a WHERE a.game_id = g.id AND a.version = 0),
                   (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id AND s.winner = 1)
              FROM games g LEFT JOIN game_states st ON st.game_id = g.id
             WHERE g.id = ?
            """,
            (game_id,),
        )
        if not rows:
            return []  # vanished between listing and checking: impossible (never deleted)
        (
            version,
            status,
            settings_json,
            state,
            count,
            low,
            high,
            last_hash,
            initial,
            initial_hash,
            winners,
        ) = rows[0]
        found: list[str] = []
        try:
            GameSettings.model_validate_json(settings_json)
        except ValidationError as exc:
            found.append(f"invalid settings: {exc.errors()[0]['msg']}")
        if (count, low, high) != (version + 1, 0, version):
            found.append(
                f"the log has {count} entries (versions {low}..{high}) "
                f"but the game is at version {version}"
            )
        if state is None:
            found.append("no stored state")
        else:
            try:
                current_hash = state_hash(json.loads(state))
            except ValueError as exc:
                found.append(f"the stored state is not valid JSON: {exc}")
            else:
                if last_hash is not None and last_hash != current_hash:
                    found.append(
                        f"the stored state does not match the hash logged for version {version}"
                    )
        if initial is None:
            found.append("no initial state (log entry 0)")
        else:
            try:
                if initial_hash is not None and state_hash(json.loads(initial)) != initial_hash:
                    found.append("the initial state does not match its logged hash")
            except ValueError as exc:
                found.append(f"the initial state is not valid JSON: {exc}")
        if status == GameStatus.FINISHED and winners == 0:
            found.append("finished without a winner")
        return found

    async def backup(self, path: str | PathLike[str]) -> None:
        """Online backup (SQLite backup API) to ``path``, written atomically: a temporary file
        next to it is filled, switched to a self-contained rollback journal, then renamed."""
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        try:
            dest = sqlite3.connect(partial, check_same_thread=False)
        except sqlite3.Error as exc:
            raise BackendError(f"cannot write a backup to {target}: {exc}") from exc
        try:
            async with self._locked() as db:
                await db.backup(dest)

            def finish() -> None:
                dest.execute("PRAGMA journal_mode = DELETE")
                dest.close()
                os.replace(partial, target)

            await asyncio.to_thread(finish)
        except sqlite3.Error as exc:
            raise BackendError(f"backup to {target} failed: {exc}") from exc
        finally:
            dest.close()
            partial.unlink(missing_ok=True)

    async def _insert_import(self, plan: ImportPlan) -> GameRecord:
        game = plan.game
        _check_id(game.channel_id, "channel_id")
        if game.guild_id is not None:
            _check_id(game.guild_id, "guild_id")
        async with self._write() as db:
            if game.status.is_active:
                await self._ensure_channel_free(db, game.channel_id)
            cursor = await db.execute(
                "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.channel_id,
                    game.guild_id,
                    game.status.value,
                    game.version,
                    game.settings.model_dump_json(),
                    utc_iso(game.created_at),
                    utc_iso(game.updated_at),
                    None if game.finished_at is None else utc_iso(game.finished_at),
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
                f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        entry.version,
                        entry.seat,
                        entry.action_json,
                        entry.events_json,
                        entry.state_hash,
                        entry.snapshot_json,
                        utc_iso(entry.created_at),
                    )
                    for entry in plan.entries
                ],
            )
            row = await self._row(db, game_id, with_state=True)
        return GameRecord(**_summary_fields(row), state_json=row[10])
