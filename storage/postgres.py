"""PostgreSQL implementation of :class:`~storage.base.GameStore` (asyncpg, raw SQL).

The same contract and guarantees as :mod:`storage.sqlite`, on a server that several bot
processes can share: a pool of connections per store; every write is one transaction, and a
save's version guard (``UPDATE games ... WHERE id = $1 AND version = $2``) turns the loser of
two writers into :class:`~storage.errors.VersionConflict`. Reads
that need several statements run in one ``REPEATABLE READ`` read-only transaction (one
snapshot). The integrity rules (append-only, contiguous log; consistent entry kinds; games
never deleted; versions never decreasing; finished games final) are triggers in the database
(:mod:`storage.pg_migrations`), so no client, not even ``psql``, can break them.

Opening first reads the schema version on a single connection: a database holding another
application's tables, or a newer schema, is refused (:class:`~storage.errors.NotAGameDatabase`,
:class:`~storage.errors.SchemaTooNew`) before anything is written; an unreachable server, a
wrong password or a missing database is one clear :class:`~storage.errors.BackendError` /
:class:`~storage.errors.DatabaseMissing` naming the URL without its password.

**Several processes on one database.** What one process keeps with asyncio locks and memory,
several processes get from the server:

- *A per-game lock across processes.* Every write transaction of a game (a step, an undo, a
  rollback, its seats, status and settings, its news, its pacing rows and timer claims: every
  ``_write(game_id)``) first takes ``pg_advisory_xact_lock(GAME_LOCK_CLASS, game)``, held
  until COMMIT or ROLLBACK, so the writers of one game queue across processes, whatever rows
  they touch. The game row's lock (``SELECT ... FOR NO KEY UPDATE``) that the steps and seat
  changes also take stays: it orders them against any client and keeps the guard exact; the
  advisory lock adds the writes that touch no game row (pacing clocks, timers, news), which
  the row lock alone let interleave. Both are always taken in the same order (advisory,
  then row) and no transaction locks two games, so they cannot deadlock.
- *Each change made known.* The transactions that change a game as players see it (a step,
  an undo, a rollback, the start of a lobby, its seats or status) also run
  ``pg_notify('brazil_games', 'GAME:VERSION:ORIGIN')``, delivered at COMMIT (never for a
  rolled-back one); ``ORIGIN`` is this store object's random :attr:`origin`. :meth:`subscribe`
  listens on one dedicated connection (``LISTEN brazil_games``) and calls back with a
  :class:`~storage.base.GameChange` for each other origin's change. The connection is
  checked every few seconds and reconnected with backoff (0.5 s doubling to 30 s; the loss
  and the return are logged once each); once back it reports ``GameChange(None)`` (changes
  may have been missed: forget everything).
- *One ticker per game.* :meth:`tick_claim` holds the game's ``pacing_ticks`` row with
  ``SELECT ... FOR UPDATE SKIP LOCKED`` in a transaction on a connection of its own for as
  long as the caller ticks the game: another process ticking at the same moment skips the
  game instead of waiting for it, and a process that dies drops the lock with its
  connection. Each firing is also its own ``pacing_timers`` row (first claim wins), so a
  reminder is never sent twice even by ticks that missed each other.

``backup`` writes a JSON Lines file of every game (:mod:`storage.dump`), read in one
``REPEATABLE READ`` transaction: a consistent copy; ``python -m storage copy FILE URL`` loads
it into an empty database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import weakref
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import Any, Unpack

import asyncpg

from storage.base import (
    SNAPSHOT_EVERY,
    ChangeCallback,
    Clock,
    GameChange,
    GameStore,
    apply_settings_changes,
    utc_now,
)
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
from storage.dump import GameDump, NewsRow, WebPage, check_dump, write_backup
from storage.engine_info import current_engine_version
from storage.errors import (
    BackendError,
    ChannelBusy,
    DatabaseMissing,
    GameExists,
    GameNotFound,
    InvalidData,
    InvalidTransition,
    RestoreFailed,
    SchemaTooNew,
    VersionConflict,
)
from storage.export import ImportPlan
from storage.jsonutil import parse_json, state_hash
from storage.models import (
    DEFAULT_GAME,
    Break,
    DecisionClock,
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
)
from storage.pacing import PREFS_COLUMNS, merge_prefs
from storage.pg_migrations import LATEST, TRIGGERS, PgConnection, migrate, schema_version
from storage.replay import Replayer, check_pack, default_replayer, line_of

__all__ = ["GAME_LOCK_CLASS", "NOTIFY_CHANNEL", "PostgresGameStore", "redact_url"]

log = logging.getLogger("storage.postgres")

GAME_LOCK_CLASS = 0x42524147
"""The first key of a game's advisory lock (``"BRAG"``); the second is the game id (folded
into 31 bits: two games sharing a key only queue, they never mix). The two-key space is
apart from the one-key space of the migrations' lock."""

NOTIFY_CHANNEL = "brazil_games"
"""The ``LISTEN``/``NOTIFY`` channel of game changes (payload ``GAME:VERSION:ORIGIN``)."""

LISTEN_CHECK_SECONDS = 5.0
"""How often the listening connection is checked (a trivial query) while idle."""

RECONNECT_DELAYS = (0.5, 30.0)
"""The first and the longest wait before reconnecting the listening connection."""

_QUERY_PASSWORD = re.compile(r"(?i)([?&]password=)[^&#]*")

_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)

_ACTIVE_SQL = "('lobby', 'setup', 'running')"

_GAME_COLUMNS = """
    g.id, g.channel_id, g.guild_id, g.status, g.version, g.settings_json,
    g.created_at, g.updated_at, g.finished_at,
    (SELECT json_agg(json_build_array(s.seat, s.kind, s.user_id, s.name, s.ai_level,
                                      s.colour, s.score, s.winner) ORDER BY s.seat)
       FROM seats s WHERE s.game_id = g.id)::text AS seats_json,
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
_LOG_PLACEHOLDERS = ", ".join(f"${n}" for n in range(1, 15))
_HISTORY_COLUMNS = (
    "version, kind, seat_no, description, created_at, target_version, reason, actor_id"
)
_CLOCK_COLUMNS = "game_id, seat, since_version, started_at, closed_at, muted"
_TIMER_COLUMNS = "game_id, version, seat, kind, claimed_at, done_at, outcome"
_STANDIN_COLUMNS = "game_id, seat, user_id, ai_level, since, ended_at"
_BREAK_COLUMNS = "id, game_id, seat, start_at, end_at, by_user, reason"


def redact_url(url: str) -> str:
    """``url`` without its password (``postgresql://bot:***@host/db``, and a ``password=``
    option too): what messages show."""
    scheme, sep, rest = url.partition("://")
    if sep:
        end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
        netloc, tail = rest[:end], rest[end:]
        if "@" in netloc:
            credentials, _, host = netloc.rpartition("@")
            user, colon, _ = credentials.partition(":")
            netloc = f"{user}:***@{host}" if colon else f"{user}@{host}"
        url = f"{scheme}://{netloc}{tail}"
    return _QUERY_PASSWORD.sub(r"\1***", url)


def _summary_fields(row: asyncpg.Record) -> dict[str, Any]:
    return {
        "id": row[0],
        "channel_id": row[1],
        "guild_id": row[2],
        "status": GameStatus(row[3]),
        "version": row[4],
        "settings": GameSettings.model_validate_json(row[5]),
        "created_at": row[6],
        "updated_at": row[7],
        "finished_at": row[8],
        "seats": parse_seats(row[9]),
        "engine_version": row[10],
        "data_pack": row[11],
        "game": row[12],
    }


def _record(row: asyncpg.Record) -> GameRecord:
    return GameRecord(**_summary_fields(row), state_json=row[_STATE_COLUMN])


def _log_entry(row: asyncpg.Record) -> LogEntry:
    return LogEntry(
        game_id=row[0],
        version=row[1],
        kind=EntryKind(row[2]),
        seat=row[3],
        action_json=row[4],
        events_json=row[5],
        state_hash=row[6],
        snapshot_json=row[7],
        created_at=row[8],
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
        entry.created_at,
        entry.target_version,
        entry.description,
        entry.reason,
        entry.actor_id,
        entry.engine_version,
    )


def _aware(moment: datetime | None) -> datetime | None:
    """A pacing time as stored (UTC); ``InvalidData`` for a naive one."""
    if moment is None:
        return None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidData("pacing times must be aware datetimes")
    return moment.astimezone(UTC)


def _break(r: asyncpg.Record) -> Break:
    return Break(int(r[0]), int(r[1]), r[2], r[3], r[4], r[5], r[6])


def _clock(r: asyncpg.Record) -> DecisionClock:
    return DecisionClock(int(r[0]), int(r[1]), int(r[2]), r[3], r[4], bool(r[5]))


def _timer(r: asyncpg.Record) -> Timer:
    return Timer(int(r[0]), int(r[1]), int(r[2]), str(r[3]), r[4], r[5], r[6])


def _stand_in(r: asyncpg.Record) -> StandIn:
    return StandIn(int(r[0]), int(r[1]), r[2], str(r[3]), r[4], r[5])


def _lock_key(game_id: int) -> int:
    """The second key of the game's advisory lock (an ``int4``)."""
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        return 0
    return game_id % 0x7FFFFFFF


def _count(status: str) -> int:
    """Rows an ``execute`` touched, from its status (``UPDATE 1``, ``INSERT 0 1``)."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


class _ChannelTaken(Exception):
    """Another transaction put an active game in the channel first (unique index)."""


Conn = PgConnection
Row = asyncpg.Record


class PostgresGameStore(UndoRollback, GameStore):
    """Games in a PostgreSQL database (in the URL's database, in its default schema).

    ``url``: ``postgresql://user:password@host:port/database`` (or ``postgres://``; a Unix
    socket: ``postgresql:///database?host=/run/postgresql``). ``create``: make the game schema
    in an empty database on first open (False: :class:`~storage.errors.DatabaseMissing`
    instead). ``pool_size``: the most connections the store opens. ``connect_timeout``: seconds
    to wait for the server. ``clock``, ``replayer``, ``snapshot_every``, ``engine_version``
    and ``cache_reads`` are as for :class:`~storage.sqlite.SqliteGameStore` (``cache_reads``
    only for a single process: another process's writes are not seen).
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Clock = utc_now,
        create: bool = True,
        replayer: Replayer | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        engine_version: Callable[[], str] = current_engine_version,
        cache_reads: bool = False,
        pool_size: int = 10,
        connect_timeout: float = 10.0,
    ) -> None:
        super().__init__(clock=clock, engine_version=engine_version)
        if isinstance(snapshot_every, bool) or not isinstance(snapshot_every, int):
            raise InvalidData("snapshot_every must be an int")
        if snapshot_every < 1:
            raise InvalidData("snapshot_every must be at least 1")
        if isinstance(pool_size, bool) or not isinstance(pool_size, int) or pool_size < 1:
            raise InvalidData("pool_size must be an int >= 1")
        self.url = url
        self.where = redact_url(url)
        """The URL without its password: what messages name."""
        self._create = create
        self._replayer = replayer
        self._replayers: dict[str, Replayer] = {}  # the default ones, by game
        self.snapshot_every = snapshot_every
        self.cache_reads = cache_reads
        self._cache: dict[int, tuple[int, GameRecord]] = {}
        self._generation = 0  # bumped by every write transaction
        self._pool_size = pool_size
        self._connect_timeout = connect_timeout
        self._pool: asyncpg.Pool | None = None
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.migrated_from: int | None = None
        """Schema version the database had when opened (0: it was created)."""
        self.origin = secrets.token_hex(8)
        """This store object's random id: the origin its notifications carry."""
        self._subscribers: list[ChangeCallback] = []
        self._listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()
        """Set while the listening connection is up (tests wait for it)."""

    def __repr__(self) -> str:
        return f"PostgresGameStore({self.where!r})"

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

    async def _connect(self) -> Conn:
        """One connection, or one clear error naming the URL (never its password)."""
        try:
            return await asyncpg.connect(self.url, timeout=self._connect_timeout)
        except asyncpg.InvalidCatalogNameError as exc:
            raise DatabaseMissing.of(
                "storage.error.pg_no_database", where=self.where, why=str(exc)
            ) from exc
        except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError) as e:
            raise BackendError(f"cannot log in to {self.where}: {e}") from e
        except TimeoutError as exc:
            raise BackendError(
                f"cannot connect to {self.where}: no answer within {self._connect_timeout:g} s"
            ) from exc
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            reason = str(exc) or type(exc).__name__
            raise BackendError(f"cannot connect to {self.where}: {reason}") from exc

    async def open(self) -> None:
        if self._pool is not None:
            return
        conn = await self._connect()
        try:
            found = await schema_version(conn)  # NotAGameDatabase: nothing written
            if found > LATEST:
                raise SchemaTooNew(found=found, supported=LATEST, where=self.where)
            if found == 0 and not self._create:
                raise DatabaseMissing.of("storage.error.pg_no_schema", where=self.where)
            self.migrated_from, _ = await migrate(conn)
        except _DRIVER_ERRORS as exc:
            raise BackendError(f"cannot open {self.where}: {exc}") from exc
        finally:
            await conn.close()
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self._pool_size,
                timeout=self._connect_timeout,
            )
        except _DRIVER_ERRORS as exc:
            raise BackendError(f"cannot connect to {self.where}: {exc}") from exc
        if self._subscribers:
            self._start_listening()

    async def close(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # -- changes made by other processes (LISTEN/NOTIFY) ----------------------------------

    def subscribe(self, callback: ChangeCallback) -> None:
        """Call ``callback`` with every change another store object makes (see module doc);
        listening starts now if the store is open, else when it opens."""
        self._subscribers.append(callback)
        if self._pool is not None:
            self._start_listening()

    def _start_listening(self) -> None:
        if self._listener is None or self._listener.done():
            self._listener = asyncio.get_running_loop().create_task(
                self._listen(), name="brazil-store-listener"
            )

    def _emit(self, change: GameChange) -> None:
        for callback in list(self._subscribers):
            try:
                callback(change)
            except Exception:  # one subscriber's bug must not stop the others
                log.exception("a change subscriber failed")

    def _on_notify(self, _conn: Conn, _pid: int, _channel: str, payload: object) -> None:
        game, _, rest = str(payload).partition(":")
        version, _, origin = rest.partition(":")
        if origin == self.origin:
            return  # our own write
        self._generation += 1  # cached reads (cache_reads=True) are stale
        try:
            change = GameChange(int(game), int(version))
        except ValueError:
            log.warning("ignored a malformed %s notification", NOTIFY_CHANNEL)
            return
        self._emit(change)

    async def _listen(self) -> None:
        """The listening connection: connect, ``LISTEN``, check it every few seconds, and
        reconnect with backoff when it is lost (logged once when lost, once when back)."""
        delay, down, first = RECONNECT_DELAYS[0], False, True
        while True:
            conn: Conn | None = None
            try:
                conn = await self._connect()
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c, ev=lost: ev.set())
                await conn.add_listener(NOTIFY_CHANNEL, self._on_notify)
                self.listening.set()
                if down:
                    log.warning("listening to %s again (changes may have been missed)", self.where)
                if not first:
                    self._generation += 1
                    self._emit(GameChange(None))
                first, down, delay = False, False, RECONNECT_DELAYS[0]
                # one waiting task per connection, not one per check (asyncio.wait_for would
                # start a new task every few seconds: work that seems to begin at any moment)
                watch = asyncio.ensure_future(lost.wait())
                try:
                    while not lost.is_set():
                        await asyncio.wait({watch}, timeout=LISTEN_CHECK_SECONDS)
                        if not lost.is_set():
                            await conn.execute("SELECT 1")
                finally:
                    watch.cancel()
                raise BackendError("the listening connection was closed")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.listening.clear()
                if not down:
                    log.warning(
                        "lost the listening connection to %s (%s); reconnecting",
                        self.where,
                        str(exc) or type(exc).__name__,
                    )
                    down = True
            finally:
                self.listening.clear()
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.close(), 2.0)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_DELAYS[1])

    async def _notify(self, db: Conn, game_id: int, version: int) -> None:
        """Tell the other processes, at COMMIT, that the game changed (see module doc)."""
        await db.execute(
            "SELECT pg_notify($1, $2)", NOTIFY_CHANNEL, f"{game_id}:{version}:{self.origin}"
        )

    # -- one ticker per game (FOR UPDATE SKIP LOCKED) -------------------------------------

    @contextlib.asynccontextmanager
    async def tick_claim(self, game_id: int) -> AsyncIterator[bool]:
        """Hold the game's ``pacing_ticks`` row locked while the block runs (see module
        doc): ``True``, or ``False`` at once when another process holds it."""
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 <= game_id < MAX_ID:
            raise GameNotFound(game_id)
        async with self._conn() as db:
            await db.execute(
                "INSERT INTO pacing_ticks (game_id) SELECT id FROM games WHERE id = $1 "
                "ON CONFLICT DO NOTHING",
                game_id,
            )
            async with db.transaction():
                got = await db.fetchval(
                    "SELECT game_id FROM pacing_ticks WHERE game_id = $1 FOR UPDATE SKIP LOCKED",
                    game_id,
                )
                yield got is not None

    @property
    def _live_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the store is not open: use 'async with' or await open()")
        return self._pool

    @asynccontextmanager
    async def _conn(self) -> AsyncIterator[Conn]:
        """A connection of the pool; driver errors become :class:`BackendError`."""
        pool = self._live_pool
        try:
            async with pool.acquire() as conn:
                yield conn
        except _DRIVER_ERRORS as exc:
            raise BackendError(f"database error ({self.where}): {exc}") from exc

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Conn]:
        """A connection in a read-only ``REPEATABLE READ`` transaction: one snapshot."""
        async with (
            self._conn() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield conn

    @asynccontextmanager
    async def _write(self, game_id: int | None = None) -> AsyncIterator[Conn]:
        """One write transaction, rolled back on any error. The writes of one game through
        this store object take turns in call order (an asyncio lock per game, taken before
        a connection), as they do on SQLite's one connection; other processes' writes of the
        game queue on its advisory lock, taken first in the transaction (module doc)."""
        lock: asyncio.Lock | contextlib.AbstractAsyncContextManager[None] = (
            contextlib.nullcontext() if game_id is None else self._game_lock(game_id)
        )
        async with lock, self._conn() as conn:
            try:
                async with conn.transaction():
                    if game_id is not None:  # the game's lock across processes (module doc)
                        await conn.execute(
                            "SELECT pg_advisory_xact_lock($1, $2)",
                            GAME_LOCK_CLASS,
                            _lock_key(game_id),
                        )
                    yield conn
            finally:
                self._generation += 1  # cached reads are stale from now on

    def _game_lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _fetch(self, sql: str, *args: Any) -> list[Row]:
        async with self._conn() as conn:
            return list(await conn.fetch(sql, *args))

    async def ping(self) -> None:
        await self._fetch("SELECT 1")

    # -- reading --------------------------------------------------------------------------

    @staticmethod
    async def _row(db: Conn, game_id: int, *, with_state: bool, lock: bool = False) -> Row:
        """The game's row (``lock``: and lock it for this transaction's writes)."""
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 <= game_id < MAX_ID:
            raise GameNotFound(game_id)
        if (
            lock
            and await db.fetchval("SELECT id FROM games WHERE id = $1 FOR NO KEY UPDATE", game_id)
            is None
        ):
            raise GameNotFound(game_id)
        if with_state:
            sql = f"{_GAME_WITH_STATE} WHERE g.id = $1"
        else:
            sql = f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = $1"
        row = await db.fetchrow(sql, game_id)
        if row is None:
            raise GameNotFound(game_id)
        return row

    async def get_game(self, game_id: int) -> GameRecord:
        if self.cache_reads:
            hit = self._cache.get(game_id)
            if hit is not None and hit[0] == self._generation:
                return hit[1]
        generation = self._generation
        async with self._conn() as db:
            row = await self._row(db, game_id, with_state=True)
        record = _record(row)
        if self.cache_reads:
            if len(self._cache) >= 1024:
                self._cache.clear()
            self._cache[game_id] = (generation, record)
        return record

    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        rows = await self._fetch(
            f"{_GAME_WITH_STATE} WHERE g.channel_id = $1 AND g.status IN {_ACTIVE_SQL}",
            check_id(channel_id, "channel_id"),
        )
        return _record(rows[0]) if rows else None

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

        def param(value: Any) -> str:
            params.append(value)
            return f"${len(params)}"

        if channel_id is not None:
            where.append(f"g.channel_id = {param(check_id(channel_id, 'channel_id'))}")
        if guild_id is not None:
            where.append(f"g.guild_id = {param(check_id(guild_id, 'guild_id'))}")
        if user_id is not None:
            where.append(
                "g.id IN (SELECT game_id FROM seats WHERE user_id = "
                f"{param(check_id(user_id, 'user_id'))})"
            )
        if statuses is not None:
            wanted = [GameStatus(status).value for status in statuses]
            if not wanted:
                return []
            where.append(f"g.status = ANY({param(wanted)}::text[])")
        if before_id is not None:
            where.append(f"g.id < {param(check_id(before_id, 'before_id'))}")
        sql = f"SELECT {_GAME_COLUMNS} FROM games g"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.id DESC"
        if limit is not None:
            sql += f" LIMIT {param(max(0, int(limit)))}"
        return [GameSummary(**_summary_fields(row)) for row in await self._fetch(sql, *params)]

    async def web_token(self, game_id: int) -> str | None:
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 <= game_id < MAX_ID:
            return None
        rows = await self._fetch("SELECT token FROM web_pages WHERE game_id = $1", game_id)
        return str(rows[0][0]) if rows else None

    async def set_web_token(self, game_id: int, token: str) -> None:
        if not isinstance(token, str) or len(token) < 16:
            raise InvalidData("a web page token has at least 16 characters")
        async with self._write(game_id) as db:
            await self._row(db, game_id, with_state=False, lock=True)
            try:
                async with db.transaction():  # a savepoint: the refusal is a clean error
                    await db.execute(
                        "INSERT INTO web_pages (game_id, token, created_at) VALUES ($1, $2, $3) "
                        "ON CONFLICT (game_id) DO UPDATE SET token = EXCLUDED.token, "
                        "created_at = EXCLUDED.created_at",
                        game_id,
                        token,
                        self.now(),
                    )
            except asyncpg.UniqueViolationError as exc:
                raise InvalidData("that web page token is taken") from exc

    async def game_of_web_token(self, token: str) -> int | None:
        if not isinstance(token, str):
            return None
        rows = await self._fetch("SELECT game_id FROM web_pages WHERE token = $1", token)
        return int(rows[0][0]) if rows else None

    async def game_ids(self) -> list[int]:
        return [int(row[0]) for row in await self._fetch("SELECT id FROM games ORDER BY id")]

    async def get_log(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[LogEntry]:
        upper = MAX_ID - 1 if to_version is None else min(int(to_version), MAX_ID - 1)
        lower = max(0, min(int(from_version), MAX_ID - 1))
        async with self._read() as db:
            await self._row(db, game_id, with_state=False)  # raises GameNotFound
            rows = await db.fetch(
                f"SELECT {_LOG_COLUMNS} FROM actions "
                "WHERE game_id = $1 AND version BETWEEN $2 AND $3 ORDER BY version",
                game_id,
                lower,
                upper,
            )
        return [_log_entry(row) for row in rows]

    async def history(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[HistoryItem]:
        async with self._read() as db:
            current = int((await self._row(db, game_id, with_state=False))[4])
            jumps = await self._jumps(db, game_id)
            upper = current if to_version is None else min(int(to_version), current)
            rows = await db.fetch(
                f"SELECT {_HISTORY_COLUMNS} FROM actions "
                "WHERE game_id = $1 AND version BETWEEN $2 AND $3 ORDER BY version",
                game_id,
                max(0, min(int(from_version), MAX_ID - 1)),
                max(-1, upper),
            )
        on_line = line_of(current, jumps)
        return [
            HistoryItem(
                version=row[0],
                kind=EntryKind(row[1]),
                seat=row[2],
                description=row[3],
                created_at=row[4],
                undone=not on_line(row[0]),
                target_version=row[5],
                reason=row[6],
                actor_id=row[7],
            )
            for row in rows
        ]

    @staticmethod
    async def _jumps(db: Conn, game_id: int) -> dict[int, int]:
        rows = await db.fetch(
            "SELECT version, target_version FROM actions "
            "WHERE game_id = $1 AND kind IN ('undo', 'rollback') ORDER BY version",
            game_id,
        )
        return {int(version): int(target) for version, target in rows}

    async def state_at(self, game_id: int, version: int) -> str:
        """The game's state JSON at ``version`` (see :meth:`SqliteGameStore.state_at`)."""
        check_version(version, "version")
        async with self._read() as db:
            row = await self._row(db, game_id, with_state=True)
            current = int(row[4])
            game = str(row[12] or DEFAULT_GAME)
            if version > current:
                raise InvalidData(
                    f"game {game_id} has no version {version} (it is at version {current})"
                )
            if version == current:
                return str(row[_STATE_COLUMN])
            base = await db.fetchrow(
                "SELECT version, snapshot_json FROM actions WHERE game_id = $1 "
                "AND version <= $2 AND snapshot_json IS NOT NULL "
                "ORDER BY version DESC LIMIT 1",
                game_id,
                version,
            )
            steps = await db.fetch(
                "SELECT version, kind, action_json FROM actions "
                "WHERE game_id = $1 AND version > $2 AND version <= $3 ORDER BY version",
                game_id,
                -1 if base is None else base[0],
                version,
            )
            target = await db.fetchrow(
                "SELECT state_hash, engine_version FROM actions "
                "WHERE game_id = $1 AND version = $2",
                game_id,
                version,
            )
        if base is None:
            raise RestoreFailed(f"game {game_id}: the log has no initial state")
        state_json = str(base[1])
        if not steps:
            return state_json
        check_pack(parse_json(state_json, what="a logged snapshot"))
        replayer = self.replayer_for(game)
        note = self._engine_note(None if target is None else target[1], target is not None)

        def run() -> str:
            text = state_json
            for step_version, kind, action_json in steps:
                if kind != EntryKind.ACTION.value or action_json is None:
                    raise RestoreFailed(
                        f"game {game_id}: version {step_version} ({kind}) has no snapshot"
                    )
                try:
                    text = replayer(text, action_json)
                except Exception as exc:
                    raise RestoreFailed(
                        f"game {game_id}: replaying version {step_version} failed "
                        f"({type(exc).__name__}: {exc}){note}"
                    ) from exc
            return text

        result = await asyncio.to_thread(run)
        expected = None if target is None else target[0]
        if expected is not None and state_hash(json.loads(result)) != expected:
            raise RestoreFailed(
                f"game {game_id}: the replayed state at version {version} differs from the "
                f"logged one{note}"
            )
        return result

    def _engine_note(self, recorded: str | None, logged: bool) -> str:
        running = self.engine_version()
        if not logged:
            return ""
        if recorded is None:
            return f" (recorded before engine versions were stored; this is engine {running})"
        if recorded != running:
            return f" (recorded under engine {recorded}; this is engine {running})"
        return ""

    # -- creating and saving --------------------------------------------------------------

    @staticmethod
    async def _insert_seats(db: Conn, game_id: int, seats: Collection[Seat]) -> None:
        if not seats:
            return
        await db.executemany(
            "INSERT INTO seats (game_id, seat, kind, user_id, name, ai_level, colour, score, "
            "winner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            [
                (
                    game_id, s.seat, s.kind.value, s.user_id, s.name, s.ai_level, s.colour,
                    s.score, s.winner,
                )
                for s in seats
            ],
        )  # fmt: skip

    @staticmethod
    async def _ensure_channel_free(db: Conn, channel_id: int) -> None:
        found = await db.fetchval(
            f"SELECT id FROM games WHERE channel_id = $1 AND status IN {_ACTIVE_SQL}",
            channel_id,
        )
        if found is not None:
            raise ChannelBusy(channel_id, game_id=int(found))

    async def _insert_game(self, db: Conn, values: tuple[Any, ...]) -> int:
        """INSERT the games row (``values`` in ``_NEW_GAME`` order); a channel taken by a
        concurrent transaction meanwhile becomes :class:`_ChannelTaken`."""
        try:
            async with db.transaction():
                game_id = await db.fetchval(
                    "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
                    "created_at, updated_at, finished_at, engine_version, data_pack, game) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                    *values,
                )
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "games_one_active_per_channel":
                raise _ChannelTaken from exc
            raise
        return int(game_id)

    async def _channel_taken(self, channel_id: int) -> ChannelBusy:
        active = await self.get_active_game(channel_id)
        return ChannelBusy(channel_id, game_id=0 if active is None else active.id)

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
        check_id(channel_id, "channel_id")
        check_game_name(game)
        if guild_id is not None:
            check_id(guild_id, "guild_id")
        status = GameStatus(status)
        if not status.is_active:
            raise InvalidData(f"a new game must be active, not {status}")
        pack = settings.data_pack if data_pack is None else data_pack
        if pack is not None and not is_pack_name(pack):
            raise InvalidData(f"data pack {pack!r} is not a plain pack name")
        digest = state_hash(parse_json(initial_state_json, what="the initial state"))
        seats_given = seat_list(seats or ())
        engine = self.engine_version()
        now = self.now()
        settings_json = settings.model_dump_json()
        try:
            async with self._write() as db:
                await self._ensure_channel_free(db, channel_id)
                game_id = await self._insert_game(
                    db,
                    (
                        channel_id, guild_id, status.value, 0, settings_json, now, now, None,
                        engine, pack, game,
                    ),
                )  # fmt: skip
                await db.execute(
                    "INSERT INTO game_states (game_id, state_json) VALUES ($1, $2)",
                    game_id,
                    initial_state_json,
                )
                await self._insert_seats(db, game_id, seats_given)
                await db.execute(
                    f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES ({_LOG_PLACEHOLDERS})",
                    game_id, 0, EntryKind.CREATED.value, None, None, "[]", digest,
                    initial_state_json, now, None, None, None, None, engine,
                )  # fmt: skip
        except _ChannelTaken:
            raise await self._channel_taken(channel_id) from None
        return GameRecord(
            id=game_id,
            channel_id=channel_id,
            guild_id=guild_id,
            status=status,
            version=0,
            settings=settings,
            seats=tuple(sorted(seats_given, key=lambda seat: seat.seat)),
            created_at=now,
            updated_at=now,
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
        seats_given = seat_list(seats)
        engine = self.engine_version()
        now = self.now()
        async with self._write(game_id) as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False, lock=True))
            guard(fields, None)
            if fields["status"] is not GameStatus.LOBBY:
                raise InvalidTransition(
                    game_id, from_status=fields["status"].value, to_status=status.value
                )
            if fields["version"] != 0:  # a lobby logs nothing: cannot happen, never hide it
                raise VersionConflict(game_id, expected=0, actual=fields["version"])
            # entry 0 first, while the game is still a lobby (the trigger allows only that)
            await db.execute(
                "UPDATE actions SET kind = $1, seat_no = NULL, action_json = NULL, "
                "events_json = '[]', state_hash = $2, snapshot_json = $3, created_at = $4, "
                "target_version = NULL, description = NULL, reason = NULL, actor_id = NULL, "
                "engine_version = $5 WHERE game_id = $6 AND version = 0",
                EntryKind.CREATED.value,
                digest,
                initial_state_json,
                now,
                engine,
                game_id,
            )
            await db.execute(
                "UPDATE game_states SET state_json = $1 WHERE game_id = $2",
                initial_state_json,
                game_id,
            )
            await db.execute("DELETE FROM seats WHERE game_id = $1", game_id)
            await self._insert_seats(db, game_id, seats_given)
            await db.execute(
                "UPDATE games SET status = $1, settings_json = $2, updated_at = $3, "
                "engine_version = $4, data_pack = $5 WHERE id = $6",
                status.value,
                settings.model_dump_json(),
                now,
                engine,
                pack,
                game_id,
            )
            row = await self._row(db, game_id, with_state=True)
            await self._notify(db, game_id, int(row[4]))
        return _record(row)

    @staticmethod
    async def _write_result(db: Conn, game_id: int, result: GameResult) -> None:
        await db.execute(
            "UPDATE seats SET score = NULL, winner = FALSE WHERE game_id = $1", game_id
        )
        await db.executemany(
            "UPDATE seats SET score = $1, winner = $2 WHERE game_id = $3 AND seat = $4",
            [
                (score, number in result.winners, game_id, number)
                for number, score in result.scores.items()
            ],
        )

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
        check_version(expected_version, "expected_version")
        check_seat_no(seat)
        check_text(description, "the description")
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
        now = self.now()
        new_version = expected_version + 1
        async with self._write(game_id) as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False, lock=True))
            guard(fields, expected_version)
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
                check_result(game_id, result, fields["seats"])
            updated = await db.execute(
                "UPDATE games SET version = $1, status = $2, updated_at = $3, finished_at = $4 "
                "WHERE id = $5 AND version = $6",
                new_version,
                new_status.value,
                now,
                finished_at,
                game_id,
                expected_version,
            )
            if _count(updated) != 1:  # cannot happen under the row lock; never lose it
                actual = await self._row(db, game_id, with_state=False)
                raise VersionConflict(game_id, expected=expected_version, actual=actual[4])
            await db.execute(
                "UPDATE game_states SET state_json = $1 WHERE game_id = $2", state_json, game_id
            )
            row = list(entry)
            row[8] = now
            await db.execute(
                f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES ({_LOG_PLACEHOLDERS})", *row
            )
            if result is not None:
                await self._write_result(db, game_id, result)
                fields["seats"] = scored(fields["seats"], result)
            await self._notify(db, game_id, new_version)
        fields.update(
            version=new_version, status=new_status, updated_at=now, finished_at=finished_at
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
        check_version(to_version, "to_version")
        check_version(expected_version, "expected_version")
        check_text(reason, "the reason", limit=500)
        check_text(description, "the description")
        current = await self.get_game(game_id)
        guard(
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
        now = self.now()
        async with self._write(game_id) as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False, lock=True))
            guard(fields, expected_version)
            old_status: GameStatus = fields["status"]
            new_status = status or old_status
            if not transition_allowed(old_status, new_status):
                raise InvalidTransition(
                    game_id, from_status=old_status.value, to_status=new_status.value
                )
            if result is not None:
                check_result(game_id, result, fields["seats"])
                await self._write_result(db, game_id, result)
            seats: list[Seat] = list(fields["seats"])
            if seat_upsert is not None:
                others = [s for s in seats if s.seat != seat_upsert.seat]
                seat_list([*others, seat_upsert])
                await db.execute(
                    "DELETE FROM seats WHERE game_id = $1 AND seat = $2", game_id, seat_upsert.seat
                )
                await self._insert_seats(db, game_id, [seat_upsert])
            if seat_remove is not None:
                await db.execute(
                    "DELETE FROM seats WHERE game_id = $1 AND seat = $2", game_id, seat_remove
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
                except ValueError as exc:
                    raise InvalidData(f"invalid colour {new_colour!r}") from exc
                seat_list([*others, changed])
                await db.execute(
                    "UPDATE seats SET colour = $1 WHERE game_id = $2 AND seat = $3",
                    new_colour,
                    game_id,
                    number,
                )
            await db.execute(
                "UPDATE games SET status = $1, updated_at = $2, finished_at = $3 WHERE id = $4",
                new_status.value,
                now,
                None if new_status.is_active else now,
                game_id,
            )
            row = await self._row(db, game_id, with_state=True)
            await self._notify(db, game_id, int(row[4]))
        return _record(row)

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
        number = check_seat_no(seat)
        assert number is not None
        return await self._change(game_id, expected_version, seat_remove=number)

    async def set_colour(
        self, game_id: int, seat: int, colour: str | None, *, expected_version: int | None = None
    ) -> GameRecord:
        number = check_seat_no(seat)
        assert number is not None
        return await self._change(game_id, expected_version, colour=(number, colour))

    async def replace_seat(self, game_id: int, seat: Seat) -> GameRecord:
        if not isinstance(seat, Seat):
            raise InvalidData("replace_seat takes a Seat (Seat.discord/local/ai)")
        new_seat = seat.model_copy(update={"score": None, "winner": False})
        now = self.now()
        async with self._write(game_id) as db:
            fields = _summary_fields(await self._row(db, game_id, with_state=False, lock=True))
            guard(fields, None)
            seats: list[Seat] = list(fields["seats"])
            old = next((s for s in seats if s.seat == new_seat.seat), None)
            after = seat_list([*(s for s in seats if s.seat != new_seat.seat), new_seat])
            await db.execute(
                "DELETE FROM seats WHERE game_id = $1 AND seat = $2", game_id, new_seat.seat
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
                        "UPDATE games SET settings_json = $1 WHERE id = $2",
                        changed.model_dump_json(),
                        game_id,
                    )
            await db.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now, game_id)
            row = await self._row(db, game_id, with_state=True)
            await self._notify(db, game_id, int(row[4]))
        return _record(row)

    async def update_settings(self, game_id: int, **changes: Unpack[SettingsChanges]) -> GameRecord:
        async with self._write(game_id) as db:
            await self._row(db, game_id, with_state=False, lock=True)
            text = await db.fetchval("SELECT settings_json FROM games WHERE id = $1", game_id)
            changed = apply_settings_changes(GameSettings.model_validate_json(text), changes)
            await db.execute(
                "UPDATE games SET settings_json = $1 WHERE id = $2",
                changed.model_dump_json(),
                game_id,
            )
            row = await self._row(db, game_id, with_state=True)
        return _record(row)

    # -- private news ---------------------------------------------------------------------

    @staticmethod
    async def _game_exists(db: Conn, game_id: int) -> None:
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 <= game_id < MAX_ID:
            raise GameNotFound(game_id)
        if await db.fetchval("SELECT 1 FROM games WHERE id = $1", game_id) is None:
            raise GameNotFound(game_id)

    async def add_news(self, game_id: int, seat: int, texts: Sequence[str]) -> None:
        number = check_seat_no(seat)
        if isinstance(texts, str):
            raise InvalidData("add_news takes a sequence of texts, not one string")
        items = list(texts)
        for text in items:
            if not isinstance(text, str):
                raise InvalidData(f"news must be text, not {type(text).__name__}")
        now = self.now()
        async with self._write(game_id) as db:
            await self._game_exists(db, game_id)
            if items:
                await db.executemany(
                    "INSERT INTO news (game_id, seat, text, created_at) VALUES ($1, $2, $3, $4)",
                    [(game_id, number, text, now) for text in items],
                )

    async def unread_news(self, game_id: int, seat: int) -> list[NewsItem]:
        number = check_seat_no(seat)
        async with self._read() as db:
            await self._game_exists(db, game_id)
            rows = await db.fetch(
                "SELECT n.id, n.text, n.created_at FROM news n WHERE n.game_id = $1 "
                "AND n.seat = $2 AND n.id > COALESCE((SELECT r.up_to FROM news_read r "
                "WHERE r.game_id = n.game_id AND r.seat = n.seat), 0) ORDER BY n.id",
                game_id,
                number,
            )
        return [NewsItem(id=row[0], text=row[1], created_at=row[2]) for row in rows]

    async def mark_news_read(self, game_id: int, seat: int, up_to: int) -> None:
        number = check_seat_no(seat)
        check_id(up_to, "up_to (a news id)")
        async with self._write(game_id) as db:
            await self._game_exists(db, game_id)
            await db.execute(
                "INSERT INTO news_read (game_id, seat, up_to) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, seat) DO UPDATE "
                "SET up_to = GREATEST(news_read.up_to, EXCLUDED.up_to)",
                game_id,
                number,
                up_to,
            )

    # -- pacing ---------------------------------------------------------------------------

    async def get_pacing(self, game_id: int) -> GamePacing:
        rows = await self._fetch(
            "SELECT settings_json, pause_votes_json FROM pacing_games WHERE game_id = $1",
            game_id,
        )
        if not rows:
            return GamePacing(game_id, "{}", ())
        return GamePacing(game_id, str(rows[0][0]), tuple(int(v) for v in json.loads(rows[0][1])))

    async def set_pacing_settings(self, game_id: int, settings_json: str) -> None:
        try:
            json.loads(settings_json)
        except (TypeError, ValueError) as exc:
            raise InvalidData("pacing settings must be JSON") from exc
        async with self._write(game_id) as db:
            await db.execute(
                "INSERT INTO pacing_games (game_id, settings_json) VALUES ($1, $2) "
                "ON CONFLICT (game_id) DO UPDATE SET settings_json = EXCLUDED.settings_json",
                game_id,
                settings_json,
            )

    async def set_pause_votes(self, game_id: int, votes: Sequence[int]) -> None:
        text = json.dumps(sorted({int(v) for v in votes}))
        async with self._write(game_id) as db:
            await db.execute(
                "INSERT INTO pacing_games (game_id, pause_votes_json) VALUES ($1, $2) "
                "ON CONFLICT (game_id) DO UPDATE SET pause_votes_json = EXCLUDED.pause_votes_json",
                game_id,
                text,
            )

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        rows = await self._fetch(
            f"SELECT {PREFS_COLUMNS} FROM pacing_players WHERE user_id = $1", user_id
        )
        if not rows:
            return PlayerPrefs(user_id, None, None, None)
        return PlayerPrefs(user_id, *rows[0])

    async def set_player_prefs(
        self,
        user_id: int,
        *,
        tz: str | None = None,
        quiet: tuple[str, str] | None = None,
        clear_quiet: bool = False,
        language: str | None = None,
        clear_language: bool = False,
        discord_locale: str | None = None,
    ) -> PlayerPrefs:
        new = merge_prefs(
            await self.get_player_prefs(user_id),
            tz=tz,
            quiet=quiet,
            clear_quiet=clear_quiet,
            language=language,
            clear_language=clear_language,
            discord_locale=discord_locale,
        )
        async with self._write() as db:
            await db.execute(
                "INSERT INTO pacing_players (user_id, tz, quiet_start, quiet_end, language, "
                "discord_locale) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO UPDATE "
                "SET tz = EXCLUDED.tz, quiet_start = EXCLUDED.quiet_start, "
                "quiet_end = EXCLUDED.quiet_end, language = EXCLUDED.language, "
                "discord_locale = EXCLUDED.discord_locale",
                user_id,
                new.tz,
                new.quiet_start,
                new.quiet_end,
                new.language,
                new.discord_locale,
            )
        return new

    async def remember_locale(self, user_id: int, locale: str) -> bool:
        if not locale:
            raise InvalidData("a Discord locale is a non-empty text")
        rows = await self._fetch(
            "SELECT discord_locale FROM pacing_players WHERE user_id = $1", user_id
        )
        if rows and rows[0][0] == locale:
            return False
        async with self._write() as db:
            status = await db.execute(
                "INSERT INTO pacing_players (user_id, discord_locale) VALUES ($1, $2) "
                "ON CONFLICT (user_id) DO UPDATE SET discord_locale = EXCLUDED.discord_locale "
                "WHERE pacing_players.discord_locale IS DISTINCT FROM EXCLUDED.discord_locale",
                user_id,
                locale,
            )
        return not status.endswith(" 0")

    async def add_break(
        self,
        game_id: int,
        seat: int | None,
        start: datetime,
        end: datetime | None,
        *,
        by_user: int | None = None,
        reason: str | None = None,
    ) -> Break:
        if seat is not None and end is None:
            raise InvalidData("an away period needs an end")
        start_at, end_at = _aware(start), _aware(end)
        async with self._write(game_id) as db:
            break_id = await db.fetchval(
                "INSERT INTO pacing_breaks (game_id, seat, start_at, end_at, by_user, reason) "
                "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                game_id,
                seat,
                start_at,
                end_at,
                by_user,
                reason,
            )
        return Break(int(break_id), game_id, seat, start, end, by_user, reason)

    async def end_break(self, break_id: int, at: datetime) -> None:
        moment = _aware(at)
        async with self._write() as db:
            await db.execute(
                "UPDATE pacing_breaks SET end_at = $1 WHERE id = $2 AND "
                "(end_at IS NULL OR end_at > $1)",
                moment,
                break_id,
            )

    async def breaks(self, game_id: int) -> list[Break]:
        rows = await self._fetch(
            f"SELECT {_BREAK_COLUMNS} FROM pacing_breaks WHERE game_id = $1 ORDER BY start_at, id",
            game_id,
        )
        return [_break(r) for r in rows]

    async def sync_decisions(
        self, game_id: int, version: int, deciding: Sequence[int], at: datetime
    ) -> list[DecisionClock]:
        moment = _aware(at)
        async with self._write(game_id) as db:
            rows = await db.fetch(
                f"SELECT {_CLOCK_COLUMNS} FROM pacing_decisions "
                "WHERE game_id = $1 AND closed_at IS NULL",
                game_id,
            )
            open_ = {int(r[1]) for r in rows}
            for seat in sorted(open_ - set(deciding)):
                await db.execute(
                    "UPDATE pacing_decisions SET closed_at = $1 WHERE game_id = $2 AND seat = $3 "
                    "AND closed_at IS NULL",
                    moment,
                    game_id,
                    seat,
                )
            for seat in sorted(set(deciding) - open_):
                await db.execute(
                    "INSERT INTO pacing_decisions (game_id, seat, since_version, started_at) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                    game_id,
                    seat,
                    version,
                    moment,
                )
            rows = await db.fetch(
                f"SELECT {_CLOCK_COLUMNS} FROM pacing_decisions "
                "WHERE game_id = $1 AND closed_at IS NULL ORDER BY seat",
                game_id,
            )
        return [_clock(r) for r in rows]

    async def open_decisions(self, game_id: int) -> list[DecisionClock]:
        rows = await self._fetch(
            f"SELECT {_CLOCK_COLUMNS} FROM pacing_decisions "
            "WHERE game_id = $1 AND closed_at IS NULL ORDER BY seat",
            game_id,
        )
        return [_clock(r) for r in rows]

    async def mute_decision(self, game_id: int, seat: int, since_version: int) -> bool:
        async with self._write(game_id) as db:
            status = await db.execute(
                "UPDATE pacing_decisions SET muted = TRUE WHERE game_id = $1 AND seat = $2 "
                "AND since_version = $3 AND closed_at IS NULL",
                game_id,
                seat,
                since_version,
            )
        return _count(status) > 0

    async def claim_timer(
        self, game_id: int, version: int, seat: int, kind: str, at: datetime
    ) -> bool:
        moment = _aware(at)
        async with self._write(game_id) as db:
            got = await db.fetchval(
                "INSERT INTO pacing_timers (game_id, version, seat, kind, claimed_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1",
                game_id,
                version,
                seat,
                kind,
                moment,
            )
        return got is not None

    async def finish_timer(
        self, game_id: int, version: int, seat: int, kind: str, at: datetime, outcome: str
    ) -> None:
        moment = _aware(at)
        async with self._write(game_id) as db:
            await db.execute(
                "UPDATE pacing_timers SET done_at = $1, outcome = $2 WHERE game_id = $3 "
                "AND version = $4 AND seat = $5 AND kind = $6",
                moment,
                outcome,
                game_id,
                version,
                seat,
                kind,
            )

    async def timers(self, game_id: int | None = None, *, unfinished: bool = False) -> list[Timer]:
        where: list[str] = []
        params: list[Any] = []
        if game_id is not None:
            params.append(game_id)
            where.append("game_id = $1")
        if unfinished:
            where.append("done_at IS NULL")
        sql = (
            f"SELECT {_TIMER_COLUMNS} FROM pacing_timers"
            + (" WHERE " + " AND ".join(where) if where else "")
            + ' ORDER BY claimed_at, game_id, version, seat, kind COLLATE "C"'
        )
        return [_timer(r) for r in await self._fetch(sql, *params)]

    async def start_stand_in(
        self, game_id: int, seat: int, user_id: int | None, ai_level: str, at: datetime
    ) -> bool:
        moment = _aware(at)
        async with self._write(game_id) as db:
            got = await db.fetchval(
                "INSERT INTO pacing_standins (game_id, seat, user_id, ai_level, since) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1",
                game_id,
                seat,
                user_id,
                ai_level,
                moment,
            )
        return got is not None

    async def end_stand_in(self, game_id: int, seat: int, at: datetime) -> StandIn | None:
        moment = _aware(at)
        async with self._write(game_id) as db:
            row = await db.fetchrow(
                "UPDATE pacing_standins SET ended_at = $1 WHERE game_id = $2 AND seat = $3 "
                f"AND ended_at IS NULL RETURNING {_STANDIN_COLUMNS}",
                moment,
                game_id,
                seat,
            )
        if row is None:
            return None
        return StandIn(int(row[0]), int(row[1]), row[2], str(row[3]), row[4], at)

    async def stand_ins(self, game_id: int, *, open_only: bool = True) -> list[StandIn]:
        rows = await self._fetch(
            f"SELECT {_STANDIN_COLUMNS} FROM pacing_standins WHERE game_id = $1"
            + (" AND ended_at IS NULL" if open_only else "")
            + " ORDER BY seat",
            game_id,
        )
        return [_stand_in(r) for r in rows]

    # -- statistics -----------------------------------------------------------------------

    _STATS_SELECT = """
        SELECT s.user_id,
               COUNT(DISTINCT s.game_id),
               COUNT(DISTINCT CASE WHEN s.winner THEN s.game_id END),
               AVG(s.score)::double precision,
               MAX(s.score)
          FROM seats s JOIN games g ON g.id = s.game_id
         WHERE g.status = 'finished' AND s.user_id IS NOT NULL
    """

    @staticmethod
    def _stats(row: Row) -> PlayerStats:
        return PlayerStats(
            user_id=row[0],
            games=row[1],
            wins=row[2],
            average_score=None if row[3] is None else float(row[3]),
            best_score=row[4],
        )

    async def player_stats(self, user_id: int, *, guild_id: int | None = None) -> PlayerStats:
        sql = self._STATS_SELECT + " AND s.user_id = $1"
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND g.guild_id = $2"
            params.append(guild_id)
        rows = await self._fetch(sql + " GROUP BY s.user_id", *params)
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
            params.append(guild_id)
            sql += " AND g.guild_id = $1"
        params.append(max(0, int(limit)))
        sql += (
            " GROUP BY s.user_id ORDER BY 3 DESC, 4 DESC NULLS LAST, 2 DESC, s.user_id "
            f"LIMIT ${len(params)}"
        )
        return [self._stats(row) for row in await self._fetch(sql, *params)]

    # -- maintenance ----------------------------------------------------------------------

    async def check_integrity(self) -> list[IntegrityProblem]:
        problems: list[IntegrityProblem] = []

        def db_problem(message: str) -> None:
            problems.append(IntegrityProblem(game_id=None, message=message))

        async with self._read() as db:
            version = await schema_version(db)
            rows = await db.fetch(
                "SELECT c.relname, t.tgname FROM pg_trigger t "
                "JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' "
                "AND c.relnamespace = current_schema()::regnamespace"
            )
        if version != LATEST:
            db_problem(f"schema version {version}, expected {LATEST}")
        enabled = {(str(r[0]), str(r[1])) for r in rows}
        for table, trigger in sorted(TRIGGERS - enabled):
            db_problem(f"the integrity trigger {trigger} on {table} is missing or disabled")
        for game_id in await self.game_ids():
            problems.extend(
                IntegrityProblem(game_id=game_id, message=message)
                for message in await self._check_game(game_id)
            )
        return problems

    async def _check_game(self, game_id: int) -> list[str]:
        async with self._read() as db:
            row = await db.fetchrow(
                """
                SELECT g.version, g.settings_json, st.state_json,
                       (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id),
                       (SELECT MIN(version) FROM actions a WHERE a.game_id = g.id),
                       (SELECT MAX(version) FROM actions a WHERE a.game_id = g.id),
                       (SELECT state_hash FROM actions a
                         WHERE a.game_id = g.id AND a.version = g.version),
                       (SELECT snapshot_json FROM actions a
                         WHERE a.game_id = g.id AND a.version = 0),
                       g.data_pack
                  FROM games g LEFT JOIN game_states st ON st.game_id = g.id
                 WHERE g.id = $1
                """,
                game_id,
            )
            if row is None:
                return []  # vanished between listing and checking: impossible (never deleted)
            snapshots = await db.fetch(
                "SELECT version, snapshot_json, state_hash FROM actions "
                "WHERE game_id = $1 AND snapshot_json IS NOT NULL ORDER BY version",
                game_id,
            )
            jumps = await db.fetch(
                "SELECT a.version, a.target_version, a.state_hash, "
                "(SELECT t.state_hash FROM actions t WHERE t.game_id = a.game_id "
                "AND t.version = a.target_version) FROM actions a "
                "WHERE a.game_id = $1 AND a.kind IN ('undo', 'rollback')",
                game_id,
            )
        return game_problems(
            version=int(row[0]),
            settings_json=row[1],
            state=row[2],
            count=int(row[3]),
            low=row[4],
            high=row[5],
            last_hash=row[6],
            initial=row[7],
            pack=row[8],
            snapshots=[(int(r[0]), str(r[1]), r[2]) for r in snapshots],
            jumps=[(int(r[0]), int(r[1]), r[2], r[3]) for r in jumps],
        )

    async def backup(self, path: str | PathLike[str]) -> None:
        """A backup file of every game and every player's preferences (JSON Lines, see
        :mod:`storage.dump`), read in one ``REPEATABLE READ`` transaction (a consistent copy
        while the bot runs) and written through a temporary file renamed over ``path`` once
        it is whole and reads back. Load it with ``python -m storage copy PATH URL``."""
        target = Path(path)
        async with self._read() as db:
            ids = [int(r[0]) for r in await db.fetch("SELECT id FROM games ORDER BY id")]
            prefs = tuple(await self._prefs(db))

            async def games() -> AsyncIterator[GameDump]:
                for game_id in ids:
                    yield await self._dump(db, game_id)

            try:
                await write_backup(
                    target,
                    made_at=self.now(),
                    schema_version=LATEST,
                    source=self.where,
                    games=games(),
                    prefs=prefs,
                )
            except OSError as exc:
                raise BackendError(f"cannot write a backup to {target}: {exc}") from exc

    async def _insert_import(self, plan: ImportPlan) -> GameRecord:
        game = plan.game
        check_id(game.channel_id, "channel_id")
        if game.guild_id is not None:
            check_id(game.guild_id, "guild_id")
        seat_list(plan.seats)
        try:
            async with self._write() as db:
                if game.status.is_active:
                    await self._ensure_channel_free(db, game.channel_id)
                game_id = await self._insert_game(
                    db,
                    (
                        game.channel_id, game.guild_id, game.status.value, game.version,
                        game.settings.model_dump_json(), game.created_at, game.updated_at,
                        game.finished_at, game.engine_version, game.data_pack, game.game,
                    ),
                )  # fmt: skip
                await db.execute(
                    "INSERT INTO game_states (game_id, state_json) VALUES ($1, $2)",
                    game_id,
                    plan.state_json,
                )
                await self._insert_seats(db, game_id, plan.seats)
                await db.executemany(
                    f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES ({_LOG_PLACEHOLDERS})",
                    [_log_row(game_id, entry) for entry in plan.entries],
                )
                row = await self._row(db, game_id, with_state=True)
        except _ChannelTaken:
            raise await self._channel_taken(game.channel_id) from None
        return _record(row)

    # -- moving games between stores ------------------------------------------------------

    async def dump_game(self, game_id: int) -> GameDump:
        async with self._read() as db:
            return await self._dump(db, game_id)

    async def _dump(self, db: Conn, game_id: int) -> GameDump:
        record = _record(await self._row(db, game_id, with_state=True))

        async def rows(sql: str) -> list[Row]:
            return list(await db.fetch(sql, game_id))

        log = await rows(f"SELECT {_LOG_COLUMNS} FROM actions WHERE game_id = $1 ORDER BY version")
        news = await rows(
            "SELECT id, seat, text, created_at FROM news WHERE game_id = $1 ORDER BY id"
        )
        read = await rows("SELECT seat, up_to FROM news_read WHERE game_id = $1 ORDER BY seat")
        pacing = await rows(
            "SELECT settings_json, pause_votes_json FROM pacing_games WHERE game_id = $1"
        )
        breaks = await rows(
            f"SELECT {_BREAK_COLUMNS} FROM pacing_breaks WHERE game_id = $1 ORDER BY id"
        )
        clocks = await rows(
            f"SELECT {_CLOCK_COLUMNS} FROM pacing_decisions WHERE game_id = $1 "
            "ORDER BY seat, since_version"
        )
        timers = await rows(
            f"SELECT {_TIMER_COLUMNS} FROM pacing_timers WHERE game_id = $1 "
            'ORDER BY claimed_at, version, seat, kind COLLATE "C"'
        )
        stand_ins = await rows(
            f"SELECT {_STANDIN_COLUMNS} FROM pacing_standins WHERE game_id = $1 "
            "ORDER BY seat, since"
        )
        page = await rows("SELECT token, created_at FROM web_pages WHERE game_id = $1")
        return GameDump(
            game=record,
            log=tuple(_log_entry(row) for row in log),
            news=tuple(NewsRow(id=r[0], seat=r[1], text=r[2], created_at=r[3]) for r in news),
            news_read=tuple((int(r[0]), int(r[1])) for r in read),
            pacing=None
            if not pacing
            else GamePacing(
                game_id, str(pacing[0][0]), tuple(int(v) for v in json.loads(pacing[0][1]))
            ),
            breaks=tuple(_break(r) for r in breaks),
            decisions=tuple(_clock(r) for r in clocks),
            timers=tuple(_timer(r) for r in timers),
            stand_ins=tuple(_stand_in(r) for r in stand_ins),
            web_page=None if not page else WebPage(token=page[0][0], created_at=page[0][1]),
        )

    async def load_game(self, dump: GameDump) -> None:
        game = dump.game
        check_dump(dump)
        seat_list(game.seats)
        check_id(game.id, "the game id")
        gid = game.id
        try:
            async with self._write() as db:
                if await db.fetchval("SELECT 1 FROM games WHERE id = $1", gid) is not None:
                    raise GameExists(gid)
                if game.status.is_active:
                    await self._ensure_channel_free(db, game.channel_id)
                try:
                    async with db.transaction():
                        await db.execute(
                            "INSERT INTO games (id, channel_id, guild_id, status, version, "
                            "settings_json, created_at, updated_at, finished_at, "
                            "engine_version, data_pack, game) "
                            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                            gid, game.channel_id, game.guild_id, game.status.value,
                            game.version, game.settings.model_dump_json(), game.created_at,
                            game.updated_at, game.finished_at, game.engine_version,
                            game.data_pack, game.game,
                        )  # fmt: skip
                except asyncpg.UniqueViolationError as exc:
                    if exc.constraint_name == "games_one_active_per_channel":
                        raise _ChannelTaken from exc
                    raise GameExists(gid) from exc
                await db.execute(
                    "INSERT INTO game_states (game_id, state_json) VALUES ($1, $2)",
                    gid,
                    game.state_json,
                )
                await self._insert_seats(db, gid, game.seats)
                await db.executemany(
                    f"INSERT INTO actions ({_LOG_COLUMNS}) VALUES ({_LOG_PLACEHOLDERS})",
                    [_log_row(gid, entry) for entry in dump.log],
                )
                await self._load_rows(db, dump)
                for table in ("games", "news", "pacing_breaks"):
                    await self._raise_identity(db, table)
        except _ChannelTaken:
            raise await self._channel_taken(game.channel_id) from None

    @staticmethod
    async def _load_rows(db: Conn, dump: GameDump) -> None:
        """A dump's news, pacing rows and web page (the game's rows are in)."""
        gid = dump.game_id

        async def many(sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
            if rows:
                await db.executemany(sql, rows)

        await many(
            "INSERT INTO news (id, game_id, seat, text, created_at) VALUES ($1, $2, $3, $4, $5)",
            [(n.id, gid, n.seat, n.text, n.created_at) for n in dump.news],
        )
        await many(
            "INSERT INTO news_read (game_id, seat, up_to) VALUES ($1, $2, $3)",
            [(gid, seat, up_to) for seat, up_to in dump.news_read],
        )
        if dump.pacing is not None:
            await db.execute(
                "INSERT INTO pacing_games (game_id, settings_json, pause_votes_json) "
                "VALUES ($1, $2, $3)",
                gid,
                dump.pacing.settings_json,
                json.dumps(list(dump.pacing.pause_votes)),
            )
        await many(
            f"INSERT INTO pacing_breaks ({_BREAK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (b.id, gid, b.seat, _aware(b.start), _aware(b.end), b.by_user, b.reason)
                for b in dump.breaks
            ],
        )
        await many(
            f"INSERT INTO pacing_decisions ({_CLOCK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)",
            [
                (gid, c.seat, c.since_version, _aware(c.started), _aware(c.closed), c.muted)
                for c in dump.decisions
            ],
        )
        await many(
            f"INSERT INTO pacing_timers ({_TIMER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (gid, t.version, t.seat, t.kind, _aware(t.claimed), _aware(t.done), t.outcome)
                for t in dump.timers
            ],
        )
        await many(
            f"INSERT INTO pacing_standins ({_STANDIN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)",
            [
                (gid, s.seat, s.user_id, s.ai_level, _aware(s.since), _aware(s.ended))
                for s in dump.stand_ins
            ],
        )
        if dump.web_page is not None:
            await db.execute(
                "INSERT INTO web_pages (game_id, token, created_at) VALUES ($1, $2, $3)",
                gid,
                dump.web_page.token,
                dump.web_page.created_at,
            )

    @staticmethod
    async def _raise_identity(db: Conn, table: str) -> None:
        """Move ``table``'s id sequence past the ids loaded under their own number (never
        back: a concurrent insert may already hold a higher one)."""
        await db.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), GREATEST("
            f"(SELECT COALESCE(MAX(id), 0) FROM {table}), "
            f"nextval(pg_get_serial_sequence('{table}', 'id'))))"
        )

    async def all_player_prefs(self) -> list[PlayerPrefs]:
        async with self._conn() as db:
            return await self._prefs(db)

    @staticmethod
    async def _prefs(db: Conn) -> list[PlayerPrefs]:
        rows = await db.fetch(
            f"SELECT user_id, {PREFS_COLUMNS} FROM pacing_players ORDER BY user_id"
        )
        return [PlayerPrefs(int(r[0]), *list(r)[1:]) for r in rows]
