"""What the SQLite and PostgreSQL stores do alike: one base class, the dialects as hooks.

:class:`SqlGameStore` holds every part of :class:`~storage.base.GameStore` that the two
backends do the same way (the checks, the guarded writes, the log, restoring old versions,
seats, news, pacing, statistics, the integrity check of each game, dumps and imports),
written once in SQL that both databases run.
A backend supplies:

- a connection as a :class:`Db` (``fetch``/``fetchrow``/``fetchval``/``execute``/
  ``executemany``, SQL with ``$1``-style placeholders: SQLite's adapter turns them into its
  numbered ``?1`` ones) through :meth:`~SqlGameStore._connected` (one statement),
  :meth:`~SqlGameStore._reading` (several statements, one snapshot) and
  :meth:`~SqlGameStore._writing` (one write transaction: the backend's own locking and
  transaction boundaries, unchanged);
- how a timestamp is stored and read back (:meth:`~SqlGameStore._time`,
  :meth:`~SqlGameStore._from_time`: ISO text on SQLite, ``timestamptz`` on PostgreSQL);
- the few statements that differ: the game row's seats (``json_group_array`` /
  ``json_agg``), inserting a game and getting its id, locking a game row, telling other
  processes of a change, a list parameter, ``MAX``/``GREATEST``, ``INSERT OR IGNORE`` /
  ``ON CONFLICT DO NOTHING``, the statistics' winner test and average, what is wrong with
  the database itself (:meth:`~SqlGameStore._database_problems`).
"""

from __future__ import annotations

import asyncio
import json
from abc import abstractmethod
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, ClassVar, Protocol, Unpack, cast

from storage.base import GameStore, apply_settings_changes
from storage.common import (
    MAX_ID,
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
from storage.dump import GameDump, NewsRow, WebPage
from storage.errors import (
    ChannelBusy,
    GameNotFound,
    InvalidData,
    InvalidTransition,
    RestoreFailed,
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
    GuildSettings,
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
from storage.pacing import PREFS_COLUMNS, merge_prefs, prefs_of
from storage.ratings import (
    FinishedGame,
    Folded,
    RatingChange,
    RatingRow,
    RatingRules,
    RatingTables,
    Season,
    Skill,
    check_plan,
    fold,
    rate_game,
    seasons_at,
)
from storage.replay import Replayer, check_pack, default_replayer, line_of

__all__ = ["ChannelTaken", "Db", "SqlGameStore"]

ACTIVE_SQL = "('lobby', 'setup', 'running')"

LOG_COLUMNS = (
    "game_id, version, kind, seat_no, action_json, events_json, state_hash, snapshot_json, "
    "created_at, target_version, description, reason, actor_id, engine_version"
)
LOG_PLACEHOLDERS = ", ".join(f"${n}" for n in range(1, 15))
HISTORY_COLUMNS = (
    "version, kind, seat_no, description, created_at, target_version, reason, actor_id"
)
CLOCK_COLUMNS = "game_id, seat, since_version, started_at, closed_at, muted"
TIMER_COLUMNS = "game_id, version, seat, kind, claimed_at, done_at, outcome"
STANDIN_COLUMNS = "game_id, seat, user_id, ai_level, since, ended_at"
BREAK_COLUMNS = "id, game_id, seat, start_at, end_at, by_user, reason"
RATING_COLUMNS = "guild_id, game, season, player, mu, sigma, games, updated_at"
CHANGE_COLUMNS = (
    "game_id, season, seat, player, place, fixed, mu_before, sigma_before, mu_after, sigma_after"
)
SEASON_COLUMNS = "guild_id, game, number, name, started_at, started_by, ended_at, ended_by"
MICROSECOND = timedelta(microseconds=1)
STATE_COLUMN = 13
"""The state's column in a game row read with its state (after the summary's 13)."""


class Db(Protocol):
    """One connection, as the shared code uses it (SQL with ``$1``-style placeholders)."""

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Sequence[Any] | None: ...

    async def fetchval(self, sql: str, *args: Any) -> Any: ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class ChannelTaken(Exception):
    """Another transaction put an active game in the channel first (unique index)."""


class SqlGameStore(GameStore):
    """The shared part of the SQL stores (see module doc); a backend adds its hooks."""

    _GAME_COLUMNS: ClassVar[str]
    """The summary columns of a game row ``g`` (``seats_json`` the backend's JSON array)."""
    _GREATEST: ClassVar[str]
    """The larger of two values: ``MAX`` (SQLite) or ``GREATEST`` (PostgreSQL)."""
    _WON: ClassVar[str]
    """A seat won: ``s.winner = 1`` (SQLite's integer) or ``s.winner`` (a boolean)."""
    _AS_FLOAT: ClassVar[str] = ""
    """What makes an average a float (PostgreSQL's is a numeric: ``::double precision``)."""
    _TEXT_ORDER: ClassVar[str] = ""
    """What makes a text column sort by its bytes (PostgreSQL: ``COLLATE "C"``)."""
    _IS_DISTINCT: ClassVar[str]
    """Null-safe "differs": ``IS NOT`` (SQLite) or ``IS DISTINCT FROM`` (PostgreSQL)."""

    def _init_common(
        self, replayer: Replayer | None, snapshot_every: int, cache_reads: bool
    ) -> None:
        """The constructor's shared part (``snapshot_every`` checked here)."""
        if isinstance(snapshot_every, bool) or not isinstance(snapshot_every, int):
            raise InvalidData("snapshot_every must be an int")
        if snapshot_every < 1:
            raise InvalidData("snapshot_every must be at least 1")
        self._replayer = replayer
        self._replayers: dict[str, Replayer] = {}  # the default ones, by game
        self.snapshot_every = snapshot_every
        self.cache_reads = cache_reads
        """Keep the last :meth:`get_game` of each game until the next write (any game's):
        only for a single process (another's writes are not seen)."""
        self._cache: dict[int, tuple[int, GameRecord]] = {}
        self._generation = 0  # bumped by every write transaction

    # -- the backend's hooks --------------------------------------------------------------

    @abstractmethod
    def _connected(self) -> AbstractAsyncContextManager[Db]:
        """A connection for one statement."""

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Db]:
        """A connection for several statements read from one snapshot."""

    @abstractmethod
    def _writing(self, game_id: int | None = None) -> AbstractAsyncContextManager[Db]:
        """One write transaction (of game ``game_id``: the backend's lock of that game)."""

    @abstractmethod
    def _time(self, moment: datetime) -> Any:
        """A timestamp as stored."""

    @abstractmethod
    def _from_time(self, value: Any) -> datetime | None:
        """A stored timestamp (or NULL) read back."""

    @abstractmethod
    def _pacing_time(self, moment: datetime | None) -> Any:
        """A pacing time as stored (``InvalidData`` for a naive one)."""

    async def _lock_row(self, db: Db, game_id: int) -> None:
        """Lock the game's row for this transaction's writes (``GameNotFound``)."""

    async def _notify(self, db: Db, game_id: int, version: int) -> None:
        """Tell other processes, at COMMIT, that the game changed."""

    @abstractmethod
    async def _insert_game(self, db: Db, values: tuple[Any, ...]) -> int:
        """INSERT a games row (``values``: channel_id, guild_id, status, version,
        settings_json, created_at, updated_at, finished_at, engine_version, data_pack,
        game); its id. A channel taken meanwhile may be :class:`ChannelTaken`."""

    @abstractmethod
    def _in_list(self, param: Callable[[Any], str], column: str, values: list[str]) -> str:
        """``column`` is one of ``values`` (texts), with ``param`` making placeholders."""

    # -- replayers ------------------------------------------------------------------------

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

    # -- rows -----------------------------------------------------------------------------

    @property
    def _game_with_state(self) -> str:
        return f"""
    SELECT {self._GAME_COLUMNS}, st.state_json
      FROM games g JOIN game_states st ON st.game_id = g.id
"""

    def _summary_fields(self, row: Sequence[Any]) -> dict[str, Any]:
        return {
            "id": row[0],
            "channel_id": row[1],
            "guild_id": row[2],
            "status": GameStatus(row[3]),
            "version": row[4],
            "settings": GameSettings.model_validate_json(row[5]),
            "created_at": self._from_time(row[6]),
            "updated_at": self._from_time(row[7]),
            "finished_at": self._from_time(row[8]),
            "seats": parse_seats(row[9]),
            "engine_version": row[10],
            "data_pack": row[11],
            "game": row[12],
        }

    def _record(self, row: Sequence[Any]) -> GameRecord:
        return GameRecord(**self._summary_fields(row), state_json=row[STATE_COLUMN])

    def _log_entry(self, row: Sequence[Any]) -> LogEntry:
        return LogEntry(
            game_id=row[0],
            version=row[1],
            kind=EntryKind(row[2]),
            seat=row[3],
            action_json=row[4],
            events_json=row[5],
            state_hash=row[6],
            snapshot_json=row[7],
            created_at=self._from_time(row[8]),
            target_version=row[9],
            description=row[10],
            reason=row[11],
            actor_id=row[12],
            engine_version=row[13],
        )

    def _log_row(self, game_id: int, entry: LogEntry) -> tuple[Any, ...]:
        return (
            game_id,
            entry.version,
            entry.kind.value,
            entry.seat,
            entry.action_json,
            entry.events_json,
            entry.state_hash,
            entry.snapshot_json,
            self._time(entry.created_at),
            entry.target_version,
            entry.description,
            entry.reason,
            entry.actor_id,
            entry.engine_version,
        )

    async def _row(
        self, db: Db, game_id: int, *, with_state: bool, lock: bool = False
    ) -> Sequence[Any]:
        """The game's row (``lock``: and lock it for this transaction's writes)."""
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 <= game_id < MAX_ID:
            raise GameNotFound(game_id)
        if lock:
            await self._lock_row(db, game_id)
        if with_state:
            sql = f"{self._game_with_state} WHERE g.id = $1"
        else:
            sql = f"SELECT {self._GAME_COLUMNS} FROM games g WHERE g.id = $1"
        row = await db.fetchrow(sql, game_id)
        if row is None:
            raise GameNotFound(game_id)
        return row

    async def _query(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        async with self._connected() as db:
            return await db.fetch(sql, *args)

    # -- reading --------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord:
        if self.cache_reads:
            hit = self._cache.get(game_id)
            if hit is not None and hit[0] == self._generation:
                return hit[1]
        async with self._connected() as db:
            generation = self._generation
            row = await self._row(db, game_id, with_state=True)
        rec = self._record(row)
        if self.cache_reads:
            if len(self._cache) >= 1024:  # a bound: the games being played come back at once
                self._cache.clear()
            self._cache[game_id] = (generation, rec)
        return rec

    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        rows = await self._query(
            f"{self._game_with_state} WHERE g.channel_id = $1 AND g.status IN {ACTIVE_SQL}",
            check_id(channel_id, "channel_id"),
        )
        return self._record(rows[0]) if rows else None

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
            where.append(self._in_list(param, "g.status", wanted))
        if before_id is not None:
            where.append(f"g.id < {param(check_id(before_id, 'before_id'))}")
        sql = f"SELECT {self._GAME_COLUMNS} FROM games g"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.id DESC"
        if limit is not None:
            sql += f" LIMIT {param(max(0, int(limit)))}"
        rows = await self._query(sql, *params)
        return [GameSummary(**self._summary_fields(row)) for row in rows]

    async def ping(self) -> None:
        await self._query("SELECT 1")

    async def game_ids(self) -> list[int]:
        return [int(row[0]) for row in await self._query("SELECT id FROM games ORDER BY id")]

    async def get_log(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[LogEntry]:
        upper = MAX_ID - 1 if to_version is None else min(int(to_version), MAX_ID - 1)
        lower = max(0, min(int(from_version), MAX_ID - 1))
        async with self._reading() as db:
            await self._row(db, game_id, with_state=False)  # raises GameNotFound
            rows = await db.fetch(
                f"SELECT {LOG_COLUMNS} FROM actions "
                "WHERE game_id = $1 AND version BETWEEN $2 AND $3 ORDER BY version",
                game_id,
                lower,
                upper,
            )
        return [self._log_entry(row) for row in rows]

    async def history(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[HistoryItem]:
        async with self._reading() as db:
            current = int((await self._row(db, game_id, with_state=False))[4])
            jumps = await self._jumps(db, game_id)
            upper = current if to_version is None else min(int(to_version), current)
            rows = await db.fetch(
                f"SELECT {HISTORY_COLUMNS} FROM actions "
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
                created_at=self._from_time(row[4]),
                undone=not on_line(row[0]),
                target_version=row[5],
                reason=row[6],
                actor_id=row[7],
            )
            for row in rows
        ]

    @staticmethod
    async def _jumps(db: Db, game_id: int) -> dict[int, int]:
        rows = await db.fetch(
            "SELECT version, target_version FROM actions "
            "WHERE game_id = $1 AND kind IN ('undo', 'rollback') ORDER BY version",
            game_id,
        )
        return {int(version): int(target) for version, target in rows}

    async def state_at(self, game_id: int, version: int) -> str:
        """The game's state JSON at ``version`` (any version 0..current, undone ones too):
        the nearest logged snapshot at or below it, plus at most a few replayed actions,
        checked against the hash logged for ``version``. ``RestoreFailed`` if the replay does
        not give the logged state (e.g. the game was recorded under another engine)."""
        check_version(version, "version")
        async with self._reading() as db:
            row = await self._row(db, game_id, with_state=True)
            current = int(row[4])
            game = str(row[12] or DEFAULT_GAME)
            if version > current:
                raise InvalidData(
                    f"game {game_id} has no version {version} (it is at version {current})"
                )
            if version == current:
                return str(row[STATE_COLUMN])
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
    async def _insert_seats(db: Db, game_id: int, seats: Collection[Seat]) -> None:
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
    async def _ensure_channel_free(db: Db, channel_id: int) -> None:
        found = await db.fetchval(
            f"SELECT id FROM games WHERE channel_id = $1 AND status IN {ACTIVE_SQL}",
            channel_id,
        )
        if found is not None:
            raise ChannelBusy(channel_id, game_id=int(found))

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
        now = self._time(self.now())
        settings_json = settings.model_dump_json()
        try:
            async with self._writing() as db:
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
                    f"INSERT INTO actions ({LOG_COLUMNS}) VALUES ({LOG_PLACEHOLDERS})",
                    game_id, 0, EntryKind.CREATED.value, None, None, "[]", digest,
                    initial_state_json, now, None, None, None, None, engine,
                )  # fmt: skip
        except ChannelTaken:
            raise await self._channel_taken(channel_id) from None
        return GameRecord(
            id=game_id,
            channel_id=channel_id,
            guild_id=guild_id,
            status=status,
            version=0,
            settings=settings,
            seats=tuple(sorted(seats_given, key=lambda seat: seat.seat)),
            created_at=self._from_time(now),
            updated_at=self._from_time(now),
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
        now = self._time(self.now())
        async with self._writing(game_id) as db:
            fields = self._summary_fields(await self._row(db, game_id, with_state=False, lock=True))
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
        return self._record(row)

    @staticmethod
    async def _write_result(db: Db, game_id: int, result: GameResult) -> None:
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
        rating: RatingRules | None = None,
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
            game_id, expected_version, entry, state_json, status=status, result=result,
            rating=rating,
        )  # fmt: skip

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
        rating: RatingRules | None = None,
    ) -> GameRecord:
        """Write one log entry (``created_at`` filled in here), the new state and the version
        bump in one guarded transaction. ``check(jumps, current)`` runs inside it; with a
        ``result`` and ``rating``, the game is rated in it too (:meth:`_rate`)."""
        moment = self.now()
        now = self._time(moment)
        new_version = expected_version + 1
        async with self._writing(game_id) as db:
            fields = self._summary_fields(await self._row(db, game_id, with_state=False, lock=True))
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
            if updated != 1:  # cannot happen under the write lock; never lose it
                actual = await self._row(db, game_id, with_state=False)
                raise VersionConflict(game_id, expected=expected_version, actual=actual[4])
            await db.execute(
                "UPDATE game_states SET state_json = $1 WHERE game_id = $2", state_json, game_id
            )
            row = list(entry)
            row[8] = now
            await db.execute(
                f"INSERT INTO actions ({LOG_COLUMNS}) VALUES ({LOG_PLACEHOLDERS})", *row
            )
            if result is not None:
                await self._write_result(db, game_id, result)
                fields["seats"] = scored(fields["seats"], result)
                if rating is not None:
                    rated_at = await self._rate(db, fields, moment, rating)
                    if rated_at != moment:
                        moment, finished_at = rated_at, self._time(rated_at)
            await self._notify(db, game_id, new_version)
        fields.update(
            version=new_version,
            status=new_status,
            updated_at=moment,
            finished_at=self._from_time(finished_at),
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

    async def undo(
        self,
        game_id: int,
        to_version: int,
        *,
        by: int,
        expected_version: int,
        description: str | None = None,
    ) -> GameRecord:
        check_seat_no(by, "by")
        return await self._jump(
            game_id,
            EntryKind.UNDO,
            to_version,
            expected_version=expected_version,
            seat=by,
            actor_id=None,
            reason=None,
            description=description,
        )

    async def rollback(
        self,
        game_id: int,
        to_version: int,
        *,
        by: int,
        reason: str,
        expected_version: int,
    ) -> GameRecord:
        check_id(by, "by (the moderator's user id)")
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidData("a rollback needs a reason")
        return await self._jump(
            game_id,
            EntryKind.ROLLBACK,
            to_version,
            expected_version=expected_version,
            seat=None,
            actor_id=by,
            reason=reason.strip(),
            description=None,
        )

    # -- seats, status and settings -------------------------------------------------------

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
        now = self._time(self.now())
        async with self._writing(game_id) as db:
            fields = self._summary_fields(await self._row(db, game_id, with_state=False, lock=True))
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
                except ValueError as exc:  # pydantic's ValidationError
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
        now = self._time(self.now())
        async with self._writing(game_id) as db:
            fields = self._summary_fields(await self._row(db, game_id, with_state=False, lock=True))
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
        return self._record(row)

    async def update_settings(self, game_id: int, **changes: Unpack[SettingsChanges]) -> GameRecord:
        async with self._writing(game_id) as db:
            await self._row(db, game_id, with_state=False, lock=True)  # raises GameNotFound
            text = await db.fetchval("SELECT settings_json FROM games WHERE id = $1", game_id)
            changed = apply_settings_changes(GameSettings.model_validate_json(text), changes)
            await db.execute(
                "UPDATE games SET settings_json = $1 WHERE id = $2",
                changed.model_dump_json(),
                game_id,
            )
            row = await self._row(db, game_id, with_state=True)
        return self._record(row)

    # -- private news ---------------------------------------------------------------------

    @staticmethod
    async def _game_exists(db: Db, game_id: int) -> None:
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
        now = self._time(self.now())
        async with self._writing(game_id) as db:
            await self._game_exists(db, game_id)
            await db.executemany(
                "INSERT INTO news (game_id, seat, text, created_at) VALUES ($1, $2, $3, $4)",
                [(game_id, number, text, now) for text in items],
            )

    async def unread_news(self, game_id: int, seat: int) -> list[NewsItem]:
        number = check_seat_no(seat)
        async with self._reading() as db:
            await self._game_exists(db, game_id)
            rows = await db.fetch(
                "SELECT n.id, n.text, n.created_at FROM news n WHERE n.game_id = $1 "
                "AND n.seat = $2 AND n.id > COALESCE((SELECT r.up_to FROM news_read r "
                "WHERE r.game_id = n.game_id AND r.seat = n.seat), 0) ORDER BY n.id",
                game_id,
                number,
            )
        return [
            NewsItem(id=row[0], text=row[1], created_at=self._from_time(row[2])) for row in rows
        ]

    async def mark_news_read(self, game_id: int, seat: int, up_to: int) -> None:
        number = check_seat_no(seat)
        check_id(up_to, "up_to (a news id)")
        async with self._writing(game_id) as db:
            await self._game_exists(db, game_id)
            await db.execute(
                "INSERT INTO news_read (game_id, seat, up_to) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, seat) DO UPDATE "
                f"SET up_to = {self._GREATEST}(news_read.up_to, EXCLUDED.up_to)",
                game_id,
                number,
                up_to,
            )

    # -- pacing ---------------------------------------------------------------------------

    @abstractmethod
    def _ignoring(self, insert: str) -> str:
        """``insert`` (``INSERT INTO ... VALUES (...)``) doing nothing on a conflict."""

    @abstractmethod
    async def _insert_id(self, db: Db, insert: str, *args: Any) -> int:
        """Run ``insert`` (one row of a table with an ``id`` column); the new row's id."""

    def _break_row(self, r: Sequence[Any]) -> Break:
        return Break(
            int(r[0]), int(r[1]), r[2], cast(datetime, self._from_time(r[3])),
            self._from_time(r[4]), r[5], r[6],
        )  # fmt: skip

    def _clock_row(self, r: Sequence[Any]) -> DecisionClock:
        started = cast(datetime, self._from_time(r[3]))
        return DecisionClock(
            int(r[0]), int(r[1]), int(r[2]), started, self._from_time(r[4]), bool(r[5])
        )

    def _timer_row(self, r: Sequence[Any]) -> Timer:
        return Timer(
            int(r[0]), int(r[1]), int(r[2]), str(r[3]), cast(datetime, self._from_time(r[4])),
            self._from_time(r[5]), r[6],
        )  # fmt: skip

    def _stand_in_row(self, r: Sequence[Any]) -> StandIn:
        since = cast(datetime, self._from_time(r[4]))
        return StandIn(int(r[0]), int(r[1]), r[2], str(r[3]), since, self._from_time(r[5]))

    async def get_pacing(self, game_id: int) -> GamePacing:
        """The game's pacing settings JSON (``{}``: defaults) and pause votes (user ids)."""
        rows = await self._query(
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
        async with self._writing(game_id) as db:
            await db.execute(
                "INSERT INTO pacing_games (game_id, settings_json) VALUES ($1, $2) "
                "ON CONFLICT (game_id) DO UPDATE SET settings_json = EXCLUDED.settings_json",
                game_id,
                settings_json,
            )

    async def set_pause_votes(self, game_id: int, votes: Sequence[int]) -> None:
        text = json.dumps(sorted({int(v) for v in votes}))
        async with self._writing(game_id) as db:
            await db.execute(
                "INSERT INTO pacing_games (game_id, pause_votes_json) VALUES ($1, $2) "
                "ON CONFLICT (game_id) DO UPDATE SET pause_votes_json = EXCLUDED.pause_votes_json",
                game_id,
                text,
            )

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        rows = await self._query(
            f"SELECT {PREFS_COLUMNS} FROM pacing_players WHERE user_id = $1", user_id
        )
        if not rows:
            return PlayerPrefs(user_id, None, None, None)
        return prefs_of(user_id, list(rows[0]))

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
        manual_end: bool | None = None,
        notices: str | None = None,
        heads_up: bool | None = None,
    ) -> PlayerPrefs:
        """Set the player's time zone, quiet hours (``"22:00", "08:00"``), language, last
        seen Discord locale, whether they end their turns themselves, their turn notices
        and heads-up."""
        new = merge_prefs(
            await self.get_player_prefs(user_id),
            tz=tz,
            quiet=quiet,
            clear_quiet=clear_quiet,
            language=language,
            clear_language=clear_language,
            discord_locale=discord_locale,
            manual_end=manual_end,
            notices=notices,
            heads_up=heads_up,
        )
        async with self._writing() as db:
            await db.execute(
                "INSERT INTO pacing_players (user_id, tz, quiet_start, quiet_end, language, "
                "discord_locale, manual_end, notices, heads_up) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                "ON CONFLICT (user_id) DO UPDATE "
                "SET tz = EXCLUDED.tz, quiet_start = EXCLUDED.quiet_start, "
                "quiet_end = EXCLUDED.quiet_end, language = EXCLUDED.language, "
                "discord_locale = EXCLUDED.discord_locale, manual_end = EXCLUDED.manual_end, "
                "notices = EXCLUDED.notices, heads_up = EXCLUDED.heads_up",
                user_id,
                new.tz,
                new.quiet_start,
                new.quiet_end,
                new.language,
                new.discord_locale,
                new.manual_end,
                new.notices,
                new.heads_up,
            )
        return new

    async def remember_locale(self, user_id: int, locale: str) -> bool:
        """Keep the Discord locale the user was seen with; written only when it changed."""
        if not locale:
            raise InvalidData("a Discord locale is a non-empty text")
        rows = await self._query(
            "SELECT discord_locale FROM pacing_players WHERE user_id = $1", user_id
        )
        if rows and rows[0][0] == locale:
            return False
        async with self._writing() as db:
            changed = await db.execute(
                "INSERT INTO pacing_players (user_id, discord_locale) VALUES ($1, $2) "
                "ON CONFLICT (user_id) DO UPDATE SET discord_locale = EXCLUDED.discord_locale "
                f"WHERE pacing_players.discord_locale {self._IS_DISTINCT} "
                "EXCLUDED.discord_locale",
                user_id,
                locale,
            )
        return changed > 0

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self._query(
            "SELECT settings_json FROM guild_settings WHERE guild_id = $1", guild_id
        )
        if not rows:
            return GuildSettings()
        return GuildSettings.model_validate_json(str(rows[0][0]))

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        if not 0 <= guild_id < 2**63:
            raise InvalidData(f"a guild id is a non-negative 64-bit integer, not {guild_id}")
        async with self._writing() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings_json) VALUES ($1, $2) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings_json = EXCLUDED.settings_json",
                guild_id,
                settings.model_dump_json(),
            )
        return settings

    async def all_guild_settings(self) -> dict[int, GuildSettings]:
        async with self._connected() as db:
            return await self._guilds(db)

    @staticmethod
    async def _guilds(db: Db) -> dict[int, GuildSettings]:
        rows = await db.fetch(
            "SELECT guild_id, settings_json FROM guild_settings ORDER BY guild_id"
        )
        return {int(r[0]): GuildSettings.model_validate_json(str(r[1])) for r in rows}

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
        """An away period of ``seat`` (``end`` required) or a pause of the game (seat None)."""
        if seat is not None and end is None:
            raise InvalidData("an away period needs an end")
        start_at, end_at = self._pacing_time(start), self._pacing_time(end)
        async with self._writing(game_id) as db:
            break_id = await self._insert_id(
                db,
                "INSERT INTO pacing_breaks (game_id, seat, start_at, end_at, by_user, reason) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                game_id,
                seat,
                start_at,
                end_at,
                by_user,
                reason,
            )
        return Break(break_id, game_id, seat, start, end, by_user, reason)

    async def end_break(self, break_id: int, at: datetime) -> None:
        """End a break at ``at`` (an away period ended early, a pause resumed)."""
        moment = self._pacing_time(at)
        async with self._writing() as db:
            await db.execute(
                "UPDATE pacing_breaks SET end_at = $1 WHERE id = $2 AND "
                "(end_at IS NULL OR end_at > $1)",
                moment,
                break_id,
            )

    async def breaks(self, game_id: int) -> list[Break]:
        rows = await self._query(
            f"SELECT {BREAK_COLUMNS} FROM pacing_breaks WHERE game_id = $1 ORDER BY start_at, id",
            game_id,
        )
        return [self._break_row(r) for r in rows]

    async def sync_decisions(
        self, game_id: int, version: int, deciding: Sequence[int], at: datetime
    ) -> list[DecisionClock]:
        """The seats ``deciding`` now (game ``version``, time ``at``): each one's open clock
        is kept, or started now; the clocks of seats no longer deciding are closed. Returns
        the open clocks."""
        moment = self._pacing_time(at)
        async with self._writing(game_id) as db:
            rows = await db.fetch(
                f"SELECT {CLOCK_COLUMNS} FROM pacing_decisions "
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
                    self._ignoring(
                        "INSERT INTO pacing_decisions (game_id, seat, since_version, started_at) "
                        "VALUES ($1, $2, $3, $4)"
                    ),
                    game_id,
                    seat,
                    version,
                    moment,
                )
            rows = await db.fetch(
                f"SELECT {CLOCK_COLUMNS} FROM pacing_decisions "
                "WHERE game_id = $1 AND closed_at IS NULL ORDER BY seat",
                game_id,
            )
        return [self._clock_row(r) for r in rows]

    async def open_decisions(self, game_id: int) -> list[DecisionClock]:
        rows = await self._query(
            f"SELECT {CLOCK_COLUMNS} FROM pacing_decisions "
            "WHERE game_id = $1 AND closed_at IS NULL ORDER BY seat",
            game_id,
        )
        return [self._clock_row(r) for r in rows]

    async def mute_decision(self, game_id: int, seat: int, since_version: int) -> bool:
        """Mute the reminders of that decision (False: it is no longer open)."""
        async with self._writing(game_id) as db:
            changed = await db.execute(
                "UPDATE pacing_decisions SET muted = TRUE WHERE game_id = $1 AND seat = $2 "
                "AND since_version = $3 AND closed_at IS NULL",
                game_id,
                seat,
                since_version,
            )
        return changed > 0

    async def claim_timer(
        self, game_id: int, version: int, seat: int, kind: str, at: datetime
    ) -> bool:
        """Claim the timer ``(game, version, seat, kind)``, committed at once: True only for
        the first claim ever (the caller then does the work), False if it was claimed."""
        moment = self._pacing_time(at)
        async with self._writing(game_id) as db:
            claimed = await db.execute(
                self._ignoring(
                    "INSERT INTO pacing_timers (game_id, version, seat, kind, claimed_at) "
                    "VALUES ($1, $2, $3, $4, $5)"
                ),
                game_id,
                version,
                seat,
                kind,
                moment,
            )
        return claimed == 1

    async def finish_timer(
        self, game_id: int, version: int, seat: int, kind: str, at: datetime, outcome: str
    ) -> None:
        moment = self._pacing_time(at)
        async with self._writing(game_id) as db:
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
        """Claimed timers (of one game), oldest first; ``unfinished``: claimed, not done."""
        where: list[str] = []
        params: list[Any] = []
        if game_id is not None:
            params.append(game_id)
            where.append("game_id = $1")
        if unfinished:
            where.append("done_at IS NULL")
        sql = (
            f"SELECT {TIMER_COLUMNS} FROM pacing_timers"
            + (" WHERE " + " AND ".join(where) if where else "")
            + f" ORDER BY claimed_at, game_id, version, seat, kind{self._TEXT_ORDER}"
        )
        return [self._timer_row(r) for r in await self._query(sql, *params)]

    async def start_stand_in(
        self, game_id: int, seat: int, user_id: int | None, ai_level: str, at: datetime
    ) -> bool:
        """Record that an AI plays ``seat`` for ``user_id`` from ``at`` (False: one already
        does)."""
        moment = self._pacing_time(at)
        async with self._writing(game_id) as db:
            started = await db.execute(
                self._ignoring(
                    "INSERT INTO pacing_standins (game_id, seat, user_id, ai_level, since) "
                    "VALUES ($1, $2, $3, $4, $5)"
                ),
                game_id,
                seat,
                user_id,
                ai_level,
                moment,
            )
        return started == 1

    async def stand_ins(self, game_id: int, *, open_only: bool = True) -> list[StandIn]:
        rows = await self._query(
            f"SELECT {STANDIN_COLUMNS} FROM pacing_standins WHERE game_id = $1"
            + (" AND ended_at IS NULL" if open_only else "")
            + " ORDER BY seat",
            game_id,
        )
        return [self._stand_in_row(r) for r in rows]

    async def all_player_prefs(self) -> list[PlayerPrefs]:
        async with self._connected() as db:
            return await self._prefs(db)

    @staticmethod
    async def _prefs(db: Db) -> list[PlayerPrefs]:
        rows = await db.fetch(
            f"SELECT user_id, {PREFS_COLUMNS} FROM pacing_players ORDER BY user_id"
        )
        return [prefs_of(int(r[0]), list(r)[1:]) for r in rows]

    # -- statistics -----------------------------------------------------------------------

    @property
    def _stats_select(self) -> str:
        return f"""
        SELECT s.user_id,
               COUNT(DISTINCT s.game_id),
               COUNT(DISTINCT CASE WHEN {self._WON} THEN s.game_id END),
               AVG(s.score){self._AS_FLOAT},
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
        sql = self._stats_select + " AND s.user_id = $1"
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND g.guild_id = $2"
            params.append(guild_id)
        rows = await self._query(sql + " GROUP BY s.user_id", *params)
        if not rows:
            return PlayerStats(
                user_id=user_id, games=0, wins=0, average_score=None, best_score=None
            )
        return self._stats(rows[0])

    async def leaderboard(
        self, *, guild_id: int | None = None, limit: int = 10
    ) -> list[PlayerStats]:
        sql = self._stats_select
        params: list[Any] = []
        if guild_id is not None:
            params.append(guild_id)
            sql += " AND g.guild_id = $1"
        params.append(max(0, int(limit)))
        sql += (
            " GROUP BY s.user_id ORDER BY 3 DESC, 4 DESC NULLS LAST, 2 DESC, s.user_id "
            f"LIMIT ${len(params)}"
        )
        return [self._stats(row) for row in await self._query(sql, *params)]

    # -- maintenance ----------------------------------------------------------------------

    @abstractmethod
    async def _database_problems(self) -> tuple[list[str], bool]:
        """The database's own problems (not a game's), and whether its games can be read."""

    async def check_integrity(self) -> list[IntegrityProblem]:
        found, readable = await self._database_problems()
        problems = [IntegrityProblem(game_id=None, message=message) for message in found]
        if not readable:  # reading games from a damaged database would only raise
            return problems
        for game_id in await self.game_ids():
            problems.extend(
                IntegrityProblem(game_id=game_id, message=message)
                for message in await self._check_game(game_id)
            )
        return problems

    async def _check_game(self, game_id: int) -> list[str]:
        async with self._reading() as db:
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

    async def _insert_import(self, plan: ImportPlan) -> GameRecord:
        game = plan.game
        check_id(game.channel_id, "channel_id")
        if game.guild_id is not None:
            check_id(game.guild_id, "guild_id")
        seat_list(plan.seats)
        try:
            async with self._writing() as db:
                if game.status.is_active:
                    await self._ensure_channel_free(db, game.channel_id)
                finished = None if game.finished_at is None else self._time(game.finished_at)
                game_id = await self._insert_game(
                    db,
                    (
                        game.channel_id, game.guild_id, game.status.value, game.version,
                        game.settings.model_dump_json(), self._time(game.created_at),
                        self._time(game.updated_at), finished, game.engine_version,
                        game.data_pack, game.game,
                    ),
                )  # fmt: skip
                await db.execute(
                    "INSERT INTO game_states (game_id, state_json) VALUES ($1, $2)",
                    game_id,
                    plan.state_json,
                )
                await self._insert_seats(db, game_id, plan.seats)
                await db.executemany(
                    f"INSERT INTO actions ({LOG_COLUMNS}) VALUES ({LOG_PLACEHOLDERS})",
                    [self._log_row(game_id, entry) for entry in plan.entries],
                )
                row = await self._row(db, game_id, with_state=True)
        except ChannelTaken:
            raise await self._channel_taken(game.channel_id) from None
        return self._record(row)

    # -- moving games between stores ------------------------------------------------------

    async def _dump(self, db: Db, game_id: int) -> GameDump:
        """Every row of the game, read through ``db`` (the caller's one snapshot)."""
        record = self._record(await self._row(db, game_id, with_state=True))
        at = self._from_time

        async def rows(sql: str) -> list[Sequence[Any]]:
            return await db.fetch(sql, game_id)

        log = await rows(f"SELECT {LOG_COLUMNS} FROM actions WHERE game_id = $1 ORDER BY version")
        news = await rows(
            "SELECT id, seat, text, created_at FROM news WHERE game_id = $1 ORDER BY id"
        )
        read = await rows("SELECT seat, up_to FROM news_read WHERE game_id = $1 ORDER BY seat")
        pacing = await rows(
            "SELECT settings_json, pause_votes_json FROM pacing_games WHERE game_id = $1"
        )
        breaks = await rows(
            f"SELECT {BREAK_COLUMNS} FROM pacing_breaks WHERE game_id = $1 ORDER BY id"
        )
        clocks = await rows(
            f"SELECT {CLOCK_COLUMNS} FROM pacing_decisions WHERE game_id = $1 "
            "ORDER BY seat, since_version"
        )
        timers = await rows(
            f"SELECT {TIMER_COLUMNS} FROM pacing_timers WHERE game_id = $1 "
            f"ORDER BY claimed_at, version, seat, kind{self._TEXT_ORDER}"
        )
        stand_ins = await rows(
            f"SELECT {STANDIN_COLUMNS} FROM pacing_standins WHERE game_id = $1 ORDER BY seat, since"
        )
        page = await rows("SELECT token, created_at FROM web_pages WHERE game_id = $1")
        rated = await rows(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = $1 ORDER BY season, seat"
        )
        return GameDump(
            game=record,
            log=tuple(self._log_entry(row) for row in log),
            news=tuple(NewsRow(id=r[0], seat=r[1], text=r[2], created_at=at(r[3])) for r in news),
            news_read=tuple((int(r[0]), int(r[1])) for r in read),
            pacing=None
            if not pacing
            else GamePacing(
                game_id, str(pacing[0][0]), tuple(int(v) for v in json.loads(pacing[0][1]))
            ),
            breaks=tuple(self._break_row(r) for r in breaks),
            decisions=tuple(self._clock_row(r) for r in clocks),
            timers=tuple(self._timer_row(r) for r in timers),
            stand_ins=tuple(self._stand_in_row(r) for r in stand_ins),
            web_page=None if not page else WebPage(token=page[0][0], created_at=at(page[0][1])),
            ratings=tuple(self._change_row(r) for r in rated),
        )

    async def _load_rows(self, db: Db, dump: GameDump) -> None:
        """A dump's log, news, pacing rows and web page (the game's row, state and seats
        are in)."""
        gid = dump.game_id
        t = self._pacing_time
        await db.executemany(
            f"INSERT INTO actions ({LOG_COLUMNS}) VALUES ({LOG_PLACEHOLDERS})",
            [self._log_row(gid, entry) for entry in dump.log],
        )
        await db.executemany(
            "INSERT INTO news (id, game_id, seat, text, created_at) VALUES ($1, $2, $3, $4, $5)",
            [(n.id, gid, n.seat, n.text, self._time(n.created_at)) for n in dump.news],
        )
        await db.executemany(
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
        await db.executemany(
            f"INSERT INTO pacing_breaks ({BREAK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [(b.id, gid, b.seat, t(b.start), t(b.end), b.by_user, b.reason) for b in dump.breaks],
        )
        await db.executemany(
            f"INSERT INTO pacing_decisions ({CLOCK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)",
            [
                (gid, c.seat, c.since_version, t(c.started), t(c.closed), c.muted)
                for c in dump.decisions
            ],
        )
        await db.executemany(
            f"INSERT INTO pacing_timers ({TIMER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (gid, r.version, r.seat, r.kind, t(r.claimed), t(r.done), r.outcome)
                for r in dump.timers
            ],
        )
        await db.executemany(
            f"INSERT INTO pacing_standins ({STANDIN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)",
            [(gid, s.seat, s.user_id, s.ai_level, t(s.since), t(s.ended)) for s in dump.stand_ins],
        )
        if dump.web_page is not None:
            await db.execute(
                "INSERT INTO web_pages (game_id, token, created_at) VALUES ($1, $2, $3)",
                gid,
                dump.web_page.token,
                self._time(dump.web_page.created_at),
            )
        await self._insert_changes(
            db, [c.model_copy(update={"game_id": gid}) for c in dump.ratings]
        )

    # -- ratings (schema 13) ---------------------------------------------------------------

    async def _lock_ratings(self, db: Db, guild_id: int, game: str) -> None:
        """Queue the writers of one server's game's ratings (the backend's lock; SQLite's
        one writer needs none)."""

    def _change_row(self, r: Sequence[Any]) -> RatingChange:
        return RatingChange(
            game_id=int(r[0]),
            season=int(r[1]),
            seat=int(r[2]),
            player=str(r[3]),
            place=int(r[4]),
            fixed=bool(r[5]),
            mu_before=float(r[6]),
            sigma_before=float(r[7]),
            mu_after=float(r[8]),
            sigma_after=float(r[9]),
            finished_at=self._from_time(r[10]) if len(r) > 10 else None,
        )

    def _rating_row(self, r: Sequence[Any]) -> RatingRow:
        return RatingRow(
            guild_id=int(r[0]),
            game=str(r[1]),
            season=int(r[2]),
            player=str(r[3]),
            mu=float(r[4]),
            sigma=float(r[5]),
            games=int(r[6]),
            updated_at=self._from_time(r[7]),
        )

    def _season_row(self, r: Sequence[Any]) -> Season:
        return Season(
            guild_id=int(r[0]),
            game=str(r[1]),
            number=int(r[2]),
            name=str(r[3]),
            started_at=self._from_time(r[4]),
            started_by=int(r[5]),
            ended_at=self._from_time(r[6]),
            ended_by=None if r[7] is None else int(r[7]),
        )

    async def _seasons(self, db: Db, guild_id: int, game: str) -> list[Season]:
        rows = await db.fetch(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = $1 AND game = $2 "
            "ORDER BY number",
            guild_id,
            game,
        )
        return [self._season_row(r) for r in rows]

    async def _insert_changes(self, db: Db, changes: Sequence[RatingChange]) -> None:
        await db.executemany(
            f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            [
                (c.game_id, c.season, c.seat, c.player, c.place, c.fixed, c.mu_before,
                 c.sigma_before, c.mu_after, c.sigma_after)
                for c in changes
            ],
        )  # fmt: skip

    async def _upsert_ratings(self, db: Db, rows: Sequence[RatingRow]) -> None:
        await db.executemany(
            f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
            "ON CONFLICT (guild_id, game, season, player) DO UPDATE SET mu = EXCLUDED.mu, "
            "sigma = EXCLUDED.sigma, games = EXCLUDED.games, updated_at = EXCLUDED.updated_at",
            [
                (r.guild_id, r.game, r.season, r.player, r.mu, r.sigma, r.games,
                 self._time(r.updated_at))
                for r in rows
            ],
        )  # fmt: skip

    async def _rate(
        self, db: Db, fields: dict[str, Any], moment: datetime, rules: RatingRules
    ) -> datetime:
        """Rate the game just finished in this transaction (module :mod:`storage.ratings`):
        under the ratings lock of its server's game, read its seats' current ratings, write
        the new ones and its changes. Returns the finish time, moved a microsecond past the
        last rated game's when the clocks tie or step back, so that the order of the finish
        times (then the ids) is always the order the games were rated in."""
        guild_id: int | None = fields["guild_id"]
        game: str = fields["game"]
        game_id: int = fields["id"]
        if guild_id is None:
            return moment
        plan = check_plan(rules.plan(game, fields["seats"]))
        if plan is None:
            return moment
        await self._lock_ratings(db, guild_id, game)
        last = await db.fetchrow(
            "SELECT g.finished_at, g.id FROM games g WHERE g.guild_id = $1 AND g.game = $2 "
            "AND g.status = 'finished' AND g.id <> $3 AND EXISTS (SELECT 1 FROM rating_changes "
            "c WHERE c.game_id = g.id AND c.season = 0) ORDER BY g.finished_at DESC, g.id DESC "
            "LIMIT 1",
            guild_id,
            game,
            game_id,
        )
        if last is not None:
            last_at = self._from_time(last[0])
            assert last_at is not None
            if (moment, game_id) <= (last_at, int(last[1])):
                moment = last_at + (timedelta(0) if game_id > int(last[1]) else MICROSECOND)
                await db.execute(
                    "UPDATE games SET finished_at = $1, updated_at = $1 WHERE id = $2",
                    self._time(moment),
                    game_id,
                )
        for season in seasons_at(await self._seasons(db, guild_id, game), moment):
            current: dict[str, tuple[Skill, int]] = {}
            for p in plan:
                if p.fixed is not None:
                    continue
                row = await db.fetchrow(
                    "SELECT mu, sigma, games FROM ratings WHERE guild_id = $1 AND game = $2 "
                    "AND season = $3 AND player = $4",
                    guild_id,
                    game,
                    season,
                    p.player,
                )
                if row is not None:
                    current[p.player] = (Skill(float(row[0]), float(row[1])), int(row[2]))
            changes = rate_game(
                rules,
                plan,
                {k: v[0] for k, v in current.items()},
                game_id=game_id,
                season=season,
            )
            await self._insert_changes(db, changes)
            await self._upsert_ratings(
                db,
                [
                    RatingRow(
                        guild_id=guild_id,
                        game=game,
                        season=season,
                        player=c.player,
                        mu=c.mu_after,
                        sigma=c.sigma_after,
                        games=current.get(c.player, (rules.new, 0))[1] + 1,
                        updated_at=moment,
                    )
                    for c in changes
                    if not c.fixed
                ],
            )
        return moment

    async def ratings(self, guild_id: int, game: str, *, season: int = 0) -> list[RatingRow]:
        rows = await self._query(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND game = $2 "
            f"AND season = $3 ORDER BY player{self._TEXT_ORDER}",
            guild_id,
            game,
            season,
        )
        return [self._rating_row(r) for r in rows]

    async def rating_changes(
        self, guild_id: int, game: str, *, player: str | None = None, season: int = 0
    ) -> list[RatingChange]:
        cols = ", ".join(f"c.{c.strip()}" for c in CHANGE_COLUMNS.split(","))
        sql = (
            f"SELECT {cols}, g.finished_at FROM rating_changes c JOIN games g ON g.id = c.game_id "
            "WHERE g.guild_id = $1 AND g.game = $2 AND c.season = $3"
        )
        args: list[Any] = [guild_id, game, season]
        if player is not None:
            sql += " AND c.player = $4"
            args.append(player)
        rows = await self._query(sql + " ORDER BY g.finished_at, g.id, c.seat", *args)
        return [self._change_row(r) for r in rows]

    async def seasons(self, guild_id: int, game: str) -> list[Season]:
        async with self._connected() as db:
            return await self._seasons(db, guild_id, game)

    async def start_season(self, guild_id: int, game: str, name: str, *, by: int) -> Season:
        check_id(guild_id, "guild_id")
        check_game_name(game)
        check_id(by, "by")
        clean = " ".join(str(name).split())
        if not 1 <= len(clean) <= 100:
            raise InvalidData("a season's name has 1 to 100 characters")
        async with self._writing() as db:
            await self._lock_ratings(db, guild_id, game)
            now = self.now()
            had = await self._seasons(db, guild_id, game)
            if any(s.running for s in had):
                raise InvalidData(f"a season of {game} is already running on server {guild_id}")
            season = Season(
                guild_id=guild_id,
                game=game,
                number=max((s.number for s in had), default=0) + 1,
                name=clean,
                started_at=now,
                started_by=by,
            )
            await self._insert_seasons(db, [season])
        return season

    async def _insert_seasons(self, db: Db, seasons: Sequence[Season]) -> None:
        await db.executemany(
            f"INSERT INTO seasons ({SEASON_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [
                (s.guild_id, s.game, s.number, s.name, self._time(s.started_at), s.started_by,
                 None if s.ended_at is None else self._time(s.ended_at), s.ended_by)
                for s in seasons
            ],
        )  # fmt: skip

    async def end_season(self, guild_id: int, game: str, *, by: int) -> Season:
        check_id(by, "by")
        async with self._writing() as db:
            await self._lock_ratings(db, guild_id, game)
            now = self.now()
            running = [s for s in await self._seasons(db, guild_id, game) if s.running]
            if not running:
                raise InvalidData(f"no season of {game} is running on server {guild_id}")
            ended = running[-1].model_copy(update={"ended_at": now, "ended_by": by})
            await db.execute(
                "UPDATE seasons SET ended_at = $1, ended_by = $2 WHERE guild_id = $3 "
                "AND game = $4 AND number = $5",
                self._time(now),
                by,
                guild_id,
                game,
                ended.number,
            )
        return ended

    async def _finished_rated(self, db: Db, guild_id: int, game: str) -> list[FinishedGame]:
        """The finished games of the server's game that were rated, with their seats and
        the fixed ratings recorded for their fixed seats."""
        rows = await db.fetch(
            f"SELECT {self._GAME_COLUMNS} FROM games g WHERE g.guild_id = $1 AND g.game = $2 "
            "AND g.status = 'finished' AND EXISTS (SELECT 1 FROM rating_changes c "
            "WHERE c.game_id = g.id AND c.season = 0) ORDER BY g.finished_at, g.id",
            guild_id,
            game,
        )
        out: list[FinishedGame] = []
        for row in rows:
            fields = self._summary_fields(row)
            fixed = await db.fetch(
                "SELECT seat, mu_before, sigma_before FROM rating_changes "
                "WHERE game_id = $1 AND season = 0 AND fixed = $2",
                fields["id"],
                True,
            )
            out.append(
                FinishedGame(
                    game_id=fields["id"],
                    finished_at=fields["finished_at"],
                    seats=tuple(fields["seats"]),
                    fixed={int(r[0]): Skill(float(r[1]), float(r[2])) for r in fixed},
                )
            )
        return out

    async def fold_ratings(self, guild_id: int, game: str, rules: RatingRules) -> Folded:
        async with self._reading() as db:
            games = await self._finished_rated(db, guild_id, game)
            seasons = await self._seasons(db, guild_id, game)
        return fold(rules, guild_id, game, games, seasons)

    async def rebuild_ratings(self, guild_id: int, game: str, rules: RatingRules) -> Folded:
        async with self._writing() as db:
            await self._lock_ratings(db, guild_id, game)
            games = await self._finished_rated(db, guild_id, game)
            folded = fold(rules, guild_id, game, games, await self._seasons(db, guild_id, game))
            await db.execute(
                "DELETE FROM rating_changes WHERE game_id IN (SELECT id FROM games "
                "WHERE guild_id = $1 AND game = $2)",
                guild_id,
                game,
            )
            await db.execute(
                "DELETE FROM ratings WHERE guild_id = $1 AND game = $2", guild_id, game
            )
            await self._insert_changes(db, folded.changes)
            await self._upsert_ratings(db, list(folded.rows.values()))
        return folded

    async def seat_names(
        self, guild_id: int, game: str, user_ids: Collection[int]
    ) -> dict[int, str]:
        out: dict[int, str] = {}
        async with self._reading() as db:
            for user in user_ids:
                row = await db.fetchrow(
                    "SELECT s.name FROM seats s JOIN games g ON g.id = s.game_id "
                    "WHERE g.guild_id = $1 AND g.game = $2 AND s.user_id = $3 "
                    "AND s.name IS NOT NULL ORDER BY g.id DESC LIMIT 1",
                    guild_id,
                    game,
                    user,
                )
                if row is not None:
                    out[user] = str(row[0])
        return out

    async def rating_tables(self) -> RatingTables:
        async with self._reading() as db:
            return await self._tables(db)

    async def _tables(self, db: Db) -> RatingTables:
        ratings = await db.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings "
            f"ORDER BY guild_id, game{self._TEXT_ORDER}, season, player{self._TEXT_ORDER}"
        )
        seasons = await db.fetch(
            f"SELECT {SEASON_COLUMNS} FROM seasons "
            f"ORDER BY guild_id, game{self._TEXT_ORDER}, number"
        )
        return RatingTables(
            ratings=tuple(self._rating_row(r) for r in ratings),
            seasons=tuple(self._season_row(r) for r in seasons),
        )

    async def load_rating_tables(self, tables: RatingTables) -> None:
        async with self._writing() as db:
            await self._upsert_ratings(db, tables.ratings)
            for s in tables.seasons:
                await db.execute(
                    "DELETE FROM seasons WHERE guild_id = $1 AND game = $2 AND number = $3",
                    s.guild_id,
                    s.game,
                    s.number,
                )
            await self._insert_seasons(db, tables.seasons)
