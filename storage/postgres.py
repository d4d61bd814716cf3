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
import logging
import re
import secrets
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import Any, cast

import asyncpg

from storage.backend import (
    BREAK_COLUMNS,
    CLOCK_COLUMNS,
    STANDIN_COLUMNS,
    TIMER_COLUMNS,
    ChannelTaken,
    Db,
    SqlGameStore,
)
from storage.base import SNAPSHOT_EVERY, ChangeCallback, Clock, GameChange, utc_now
from storage.common import MAX_ID, check_id, seat_list
from storage.dump import GameDump, check_dump, write_backup
from storage.engine_info import current_engine_version
from storage.errors import (
    BackendError,
    DatabaseMissing,
    GameExists,
    GameNotFound,
    InvalidData,
    SchemaTooNew,
)
from storage.models import (
    StandIn,
)
from storage.pg_migrations import LATEST, TRIGGERS, PgConnection, migrate, schema_version
from storage.replay import Replayer

__all__ = ["GAME_LOCK_CLASS", "NOTIFY_CHANNEL", "PostgresGameStore", "redact_url"]

log = logging.getLogger("storage.postgres")

GAME_LOCK_CLASS = 0x42524147
"""The first key of a game's advisory lock (``"BRAG"``); the second is the game id (folded
into 31 bits: two games sharing a key only queue, they never mix). The two-key space is
apart from the one-key space of the migrations' lock."""

RATINGS_LOCK_CLASS = 0x42524152
"""The first key of a server's game's ratings lock (``"BRAR"``); the second hashes the server
and the game."""

NOTIFY_CHANNEL = "brazil_games"
"""The ``LISTEN``/``NOTIFY`` channel of game changes (payload ``GAME:VERSION:ORIGIN``)."""

LISTEN_CHECK_SECONDS = 5.0
"""How often the listening connection is checked (a trivial query) while idle."""

RECONNECT_DELAYS = (0.5, 30.0)
"""The first and the longest wait before reconnecting the listening connection."""

_QUERY_PASSWORD = re.compile(r"(?i)([?&]password=)[^&#]*")

_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


_GAME_COLUMNS = """
    g.id, g.channel_id, g.guild_id, g.status, g.version, g.settings_json,
    g.created_at, g.updated_at, g.finished_at,
    (SELECT json_agg(json_build_array(s.seat, s.kind, s.user_id, s.name, s.ai_level,
                                      s.colour, s.score, s.winner) ORDER BY s.seat)
       FROM seats s WHERE s.game_id = g.id)::text AS seats_json,
    g.engine_version, g.data_pack, g.game
"""
_CLOCK_COLUMNS = CLOCK_COLUMNS
_TIMER_COLUMNS = TIMER_COLUMNS
_STANDIN_COLUMNS = STANDIN_COLUMNS
_BREAK_COLUMNS = BREAK_COLUMNS


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


def _aware(moment: datetime | None) -> datetime | None:
    """A pacing time as stored (UTC); ``InvalidData`` for a naive one."""
    if moment is None:
        return None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidData("pacing times must be aware datetimes")
    return moment.astimezone(UTC)


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


Conn = PgConnection
Row = asyncpg.Record


class _Db:
    """An asyncpg connection as :class:`storage.backend.Db` (the shared SQL)."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return cast("list[Sequence[Any]]", await self.conn.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: Any) -> Sequence[Any] | None:
        return cast("Sequence[Any] | None", await self.conn.fetchrow(sql, *args))

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self.conn.fetchval(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        return _count(await self.conn.execute(sql, *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.conn.executemany(sql, rows)


class PostgresGameStore(SqlGameStore):
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
        self._init_common(replayer, snapshot_every, cache_reads)
        if isinstance(pool_size, bool) or not isinstance(pool_size, int) or pool_size < 1:
            raise InvalidData("pool_size must be an int >= 1")
        self.url = url
        self.where = redact_url(url)
        """The URL without its password: what messages name."""
        self._create = create
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
                self._listen(), name="store-listener"
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

    async def _notify(self, db: Db, game_id: int, version: int) -> None:
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

    # -- the shared code's hooks (storage.backend) ----------------------------------------

    @asynccontextmanager
    async def _connected(self) -> AsyncIterator[Db]:
        async with self._conn() as conn:
            yield _Db(conn)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Db]:
        async with self._read() as conn:
            yield _Db(conn)

    @asynccontextmanager
    async def _writing(self, game_id: int | None = None) -> AsyncIterator[Db]:
        async with self._write(game_id) as conn:
            yield _Db(conn)

    def _time(self, moment: datetime) -> datetime:
        return moment

    def _from_time(self, value: Any) -> datetime | None:
        return cast("datetime | None", value)

    def _pacing_time(self, moment: datetime | None) -> datetime | None:
        return _aware(moment)

    async def _lock_ratings(self, db: Db, guild_id: int, game: str) -> None:
        """The server's game's ratings lock: ``pg_advisory_xact_lock(RATINGS_LOCK_CLASS,
        key)`` (taken after the game's own lock, never before: no deadlock)."""
        await db.fetchval(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))",
            RATINGS_LOCK_CLASS,
            f"{guild_id}:{game}",
        )

    async def _lock_row(self, db: Db, game_id: int) -> None:
        found = await db.fetchval("SELECT id FROM games WHERE id = $1 FOR NO KEY UPDATE", game_id)
        if found is None:
            raise GameNotFound(game_id)

    async def _insert_game(self, db: Db, values: tuple[Any, ...]) -> int:
        """INSERT the games row; a channel taken by a concurrent transaction meanwhile
        becomes :class:`~storage.backend.ChannelTaken`."""
        assert isinstance(db, _Db)
        try:
            async with db.conn.transaction():
                game_id = await db.conn.fetchval(
                    "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
                    "created_at, updated_at, finished_at, engine_version, data_pack, game) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                    *values,
                )
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "games_one_active_per_channel":
                raise ChannelTaken from exc
            raise
        return int(game_id)

    def _in_list(self, param: Callable[[Any], str], column: str, values: list[str]) -> str:
        return f"{column} = ANY({param(values)}::text[])"

    _GAME_COLUMNS = _GAME_COLUMNS
    _GREATEST = "GREATEST"
    _TEXT_ORDER = ' COLLATE "C"'

    # -- web pages ------------------------------------------------------------------------

    async def web_token(self, game_id: int) -> str | None:
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 <= game_id < MAX_ID:
            return None
        rows = await self._fetch("SELECT token FROM web_pages WHERE game_id = $1", game_id)
        return str(rows[0][0]) if rows else None

    async def set_web_token(self, game_id: int, token: str) -> None:
        if not isinstance(token, str) or len(token) < 16:
            raise InvalidData("a web page token has at least 16 characters")
        async with self._write(game_id) as db:
            await self._row(_Db(db), game_id, with_state=False, lock=True)
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

    # -- pacing ---------------------------------------------------------------------------

    def _ignoring(self, insert: str) -> str:
        return f"{insert} ON CONFLICT DO NOTHING"

    async def _insert_id(self, db: Db, insert: str, *args: Any) -> int:
        return int(await db.fetchval(f"{insert} RETURNING id", *args))

    _IS_DISTINCT = "IS DISTINCT FROM"

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

    # -- statistics -----------------------------------------------------------------------

    _WON = "s.winner"
    _AS_FLOAT = "::double precision"

    # -- maintenance ----------------------------------------------------------------------

    async def _database_problems(self) -> tuple[list[str], bool]:
        async with self._read() as db:
            version = await schema_version(db)
            rows = await db.fetch(
                "SELECT c.relname, t.tgname FROM pg_trigger t "
                "JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' "
                "AND c.relnamespace = current_schema()::regnamespace"
            )
        found: list[str] = []
        if version != LATEST:
            found.append(f"schema version {version}, expected {LATEST}")
        enabled = {(str(r[0]), str(r[1])) for r in rows}
        for table, trigger in sorted(TRIGGERS - enabled):
            found.append(f"the integrity trigger {trigger} on {table} is missing or disabled")
        return found, True

    async def backup(self, path: str | PathLike[str]) -> None:
        """A backup file of every game and every player's preferences (JSON Lines, see
        :mod:`storage.dump`), read in one ``REPEATABLE READ`` transaction (a consistent copy
        while the bot runs) and written through a temporary file renamed over ``path`` once
        it is whole and reads back. Load it with ``python -m storage copy PATH URL``."""
        target = Path(path)
        async with self._read() as db:
            ids = [int(r[0]) for r in await db.fetch("SELECT id FROM games ORDER BY id")]
            prefs = tuple(await self._prefs(_Db(db)))
            guilds = await self._guilds(_Db(db))
            tables = await self._tables(_Db(db))

            async def games() -> AsyncIterator[GameDump]:
                for game_id in ids:
                    yield await self._dump(_Db(db), game_id)

            try:
                await write_backup(
                    target,
                    made_at=self.now(),
                    schema_version=LATEST,
                    source=self.where,
                    games=games(),
                    prefs=prefs,
                    guilds=guilds,
                    ratings=tables,
                )
            except OSError as exc:
                raise BackendError(f"cannot write a backup to {target}: {exc}") from exc

    # -- moving games between stores ------------------------------------------------------

    async def dump_game(self, game_id: int) -> GameDump:
        async with self._read() as db:
            return await self._dump(_Db(db), game_id)

    async def load_game(self, dump: GameDump) -> None:
        game = dump.game
        check_dump(dump)
        seat_list(game.seats)
        check_id(game.id, "the game id")
        gid = game.id
        try:
            async with self._write() as conn:
                db = _Db(conn)
                if await db.fetchval("SELECT 1 FROM games WHERE id = $1", gid) is not None:
                    raise GameExists(gid)
                if game.status.is_active:
                    await self._ensure_channel_free(db, game.channel_id)
                try:
                    async with conn.transaction():
                        await conn.execute(
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
                        raise ChannelTaken from exc
                    raise GameExists(gid) from exc
                await db.execute(
                    "INSERT INTO game_states (game_id, state_json) VALUES ($1, $2)",
                    gid,
                    game.state_json,
                )
                await self._insert_seats(db, gid, game.seats)
                await self._load_rows(db, dump)
                for table in ("games", "news", "pacing_breaks"):
                    await self._raise_identity(conn, table)
        except ChannelTaken:
            raise await self._channel_taken(game.channel_id) from None

    @staticmethod
    async def _raise_identity(db: Conn, table: str) -> None:
        """Move ``table``'s id sequence past the ids loaded under their own number (never
        back: a concurrent insert may already hold a higher one)."""
        await db.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), GREATEST("
            f"(SELECT COALESCE(MAX(id), 0) FROM {table}), "
            f"nextval(pg_get_serial_sequence('{table}', 'id'))))"
        )
