"""The backend-independent interface of game persistence: :class:`GameStore`.

A game lives in one Discord channel (or thread); a channel has at most one *active* game
(lobby, setup or running). A finished or abandoned game frees its channel and stays in history.
Every change to a game's state is a *save*: the new state, one append-only log entry (the action
that produced it) and a version bump, in one transaction, guarded by the version the caller
computed from (optimistic concurrency: :class:`~storage.errors.VersionConflict` otherwise).

Callers never see SQL: they call these methods and get the models of :mod:`storage.models`.
:class:`storage.sqlite.SqliteGameStore` (one embedded file) and
:class:`storage.postgres.PostgresGameStore` (a PostgreSQL server) implement it, both on the
shared :class:`storage.backend.SqlGameStore`, and pass the same tests;
:func:`storage.open_store` picks one from a URL or a path. :class:`GameStore` is made of
smaller contracts (:class:`GameRecords`, :class:`NewsStore`, :class:`PlayerPrefsStore`,
:class:`PacingStore`, :class:`OperatorStore`) for code that needs only one part.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from os import PathLike
from types import TracebackType
from typing import Self, Unpack

from pydantic import ValidationError

from storage.dump import GameDump
from storage.engine_info import current_engine_version
from storage.errors import InvalidData, InvalidExport
from storage.export import GameExport, ImportPlan, build_export, plan_import
from storage.models import (
    DEFAULT_GAME,
    Break,
    DecisionClock,
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
    ReplayReport,
    Seat,
    SettingsChanges,
    StandIn,
    Timer,
)
from storage.ratings import (
    Folded,
    RatingChange,
    RatingRow,
    RatingRules,
    RatingTables,
    Season,
)
from storage.replay import Replayer, replay_log

__all__ = [
    "SNAPSHOT_EVERY",
    "Clock",
    "GameChange",
    "GameRecords",
    "GameStore",
    "GuildSettingsStore",
    "NewsStore",
    "OperatorStore",
    "PacingStore",
    "PlayerPrefsStore",
    "RatingStore",
    "apply_settings_changes",
    "utc_now",
]

SNAPSHOT_EVERY = 16
"""A full state snapshot is logged every this many versions (and with every undo/rollback), so
restoring any version replays at most ``SNAPSHOT_EVERY - 1`` actions."""

Clock = Callable[[], datetime]
"""Returns the current time as an *aware* datetime (converted to UTC when stored)."""


@dataclass(frozen=True)
class GameChange:
    """A game changed in the database through another store object (another process):
    ``game_id`` saved a step or changed its seats or status, now at ``version``. ``game_id``
    None: changes may have been missed (the listening connection was lost and is back), so
    anything remembered of any game may be stale."""

    game_id: int | None
    version: int | None = None


ChangeCallback = Callable[[GameChange], None]
"""Called (in the event loop, never awaited) with each change another process made."""


def utc_now() -> datetime:
    """The default clock: real UTC time."""
    return datetime.now(UTC)


def apply_settings_changes(settings: GameSettings, changes: Mapping[str, object]) -> GameSettings:
    """``settings`` with ``changes`` (:class:`SettingsChanges`) applied, validated as a whole
    (``InvalidData`` naming the first problem otherwise). For backends' ``update_settings``."""
    unknown = sorted(set(changes) - set(GameSettings.model_fields))
    if unknown:
        raise InvalidData(f"not a settings field: {', '.join(unknown)}")
    try:
        return GameSettings.model_validate({**settings.model_dump(), **changes})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "settings"
        raise InvalidData(f"invalid settings ({where}): {first['msg']}") from exc


class GameRecords(ABC):
    """What a press needs (a button, a command): the games and their log. Load a game
    (:meth:`get_game`), save a step (:meth:`save`), change its seats and status, go back
    (:meth:`undo`, :meth:`rollback`, :meth:`state_at`) and read its history. Part of
    :class:`GameStore`."""

    engine_version: Callable[[], str]
    """Returns the running rules engine's version (recorded with games and log entries)."""

    # -- games ----------------------------------------------------------------------------

    @abstractmethod
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
        """Create a game at version 0 in ``channel_id`` (log entry 0 holds the initial state).

        ``seats``: who plays which seat number (:meth:`Seat.discord`, :meth:`Seat.local`,
        :meth:`Seat.ai`). ``data_pack``: the data pack *name* (default: ``settings.data_pack``;
        None = the default pack). ``game``: the game played, by name (``"brazil"``,
        ``"tigris"``...): recorded as it is (storage never interprets the state by it) and
        never changed afterwards, a lobby's too (:meth:`start_lobby` keeps it). The running
        engine version is recorded. Raises ``ChannelBusy`` if the channel already has an
        active game, ``InvalidData`` if the state is not JSON, ``status`` is not active, the
        pack is not a plain name or ``game`` is not a game name (:func:`is_game_name`).
        """

    @abstractmethod
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
        """Turn the lobby ``game_id`` into its game, which keeps the lobby's id and channel:
        in one transaction, version 0 gets the initial state (log entry 0 as
        :meth:`create_game` writes it), the seats become ``seats`` and the settings
        ``settings`` (replaced as a whole), and the status ``status`` (setup or running).
        The channel holds the game at every moment (it is never free in between).

        ``data_pack`` and the running engine version are recorded as by :meth:`create_game`;
        the game played stays the lobby's (set by :meth:`create_game`, never changed).
        Raises ``GameNotFound``, ``GameNotActive`` (finished or abandoned: e.g. everyone left),
        ``InvalidTransition`` if it is no longer a lobby (e.g. started by another press),
        ``InvalidData`` for a state that is not JSON, a ``status`` other than setup or running,
        a pack that is not a plain name or seats that clash; nothing is changed then.
        """

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRecord:
        """The game with this id, any status (``GameNotFound`` if none)."""

    @abstractmethod
    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        """The channel's active game (lobby, setup or running), or None."""

    @abstractmethod
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
        """Games matching every given filter, newest first (history). ``user_id`` selects games
        where that user holds a seat; ``before_id`` pages (ids below it); ``limit=None``: all."""

    # -- writes ---------------------------------------------------------------------------

    @abstractmethod
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
        """Record one action: new state + log entry ``expected_version + 1`` + version bump.

        ``seat``: the seat number that played it; ``description``: the step's public text
        (what the history shows, e.g. the engine's ``describe_action`` sentence). Every
        ``snapshot_every`` versions the entry also keeps a full snapshot of the state.
        All or nothing, in one transaction. Raises ``VersionConflict`` if the game is no longer
        at ``expected_version``, ``GameNotActive`` if it is finished or abandoned,
        ``InvalidTransition`` for a backwards ``status``. With ``result`` the game is finished
        in the same transaction (scores and winners recorded on the seats), and with
        ``rating`` too it is rated in that transaction (:mod:`storage.ratings`: a game of a
        server whose ``rating.plan`` rates it updates the server's game's all-time table and
        its running season's, and records its changes): no result without its rating.
        """

    @abstractmethod
    async def set_status(
        self, game_id: int, status: GameStatus, *, expected_version: int | None = None
    ) -> GameRecord:
        """Move an active game forward (lobby -> setup -> running) or to abandoned. Does not
        bump the version (no action is logged). To finish a game use :meth:`finish_game`."""

    @abstractmethod
    async def finish_game(
        self, game_id: int, result: GameResult, *, expected_version: int | None = None
    ) -> GameRecord:
        """Mark the game finished and record each seat's score and the winner(s) (none for
        a game nobody won, e.g. a lost solo game). Every scored seat number must be held.
        Frees the channel. Does not bump the version."""

    @abstractmethod
    async def assign_seat(
        self, game_id: int, seat: Seat, *, expected_version: int | None = None
    ) -> GameRecord:
        """Put ``seat`` (its number, who plays it, its colour if chosen) in an active game,
        replacing whoever held that seat number. A colour may be held by one seat only."""

    @abstractmethod
    async def remove_seat(
        self, game_id: int, seat: int, *, expected_version: int | None = None
    ) -> GameRecord:
        """Empty seat number ``seat`` of an active game (no error if it was empty)."""

    @abstractmethod
    async def set_colour(
        self, game_id: int, seat: int, colour: str | None, *, expected_version: int | None = None
    ) -> GameRecord:
        """Record the colour seat ``seat`` chose in the game (None: not chosen yet).
        ``InvalidData`` if the seat is empty or another seat holds the colour."""

    @abstractmethod
    async def replace_seat(self, game_id: int, seat: Seat) -> GameRecord:
        """Put ``seat`` in place of whoever held that seat number of an active game (a player
        replaced mid-game; its score is cleared). If the previous occupant was a Discord user
        who no longer holds any seat of the game, their ``settings.private_places`` entry and
        their ``settings.abandon_votes`` vote go too. All in one transaction; no version bump.
        ``InvalidData`` if the seat's colour is held by another seat, ``GameNotActive`` for a
        finished or abandoned game."""

    @abstractmethod
    async def update_settings(self, game_id: int, **changes: Unpack[SettingsChanges]) -> GameRecord:
        """Change some fields of the game's settings (a surface's bookkeeping, e.g.
        ``status_message_id=...``, ``pending_request=None``) and return the game.

        An atomic read-modify-write in one transaction: the fields not named keep their
        stored values, even if another process changed them meanwhile. The result is
        validated as :class:`GameSettings` (``InvalidData`` otherwise, nothing written). Any
        status; no version bump; ``GameNotFound`` if there is no such game."""

    # -- undo, rollback, history ----------------------------------------------------------

    @abstractmethod
    async def undo(
        self,
        game_id: int,
        to_version: int,
        *,
        by: int,
        expected_version: int,
        description: str | None = None,
    ) -> GameRecord:
        """Seat ``by`` takes back its steps after ``to_version``: an ``undo`` log entry
        ``expected_version + 1`` naming ``to_version``, whose state becomes current again.

        Storage does not judge whether the undo is allowed (the game service asks the
        engine); it only requires ``to_version`` to be before the current version and still
        on the game's line (not itself undone). Guarded like :meth:`save`
        (``VersionConflict``); the undone entries stay in the log, marked undone in
        :meth:`history`. ``RestoreFailed`` if the old state cannot be restored,
        ``ReplayerUnavailable`` if the store has no replayer (the rules engine is missing)."""

    @abstractmethod
    async def rollback(
        self,
        game_id: int,
        to_version: int,
        *,
        by: int,
        reason: str,
        expected_version: int,
    ) -> GameRecord:
        """A moderator (Discord user ``by``) returns the game to any earlier version (undone
        ones included), with a ``reason``: a ``rollback`` log entry ``expected_version + 1``;
        play continues from there and replays exactly. Guarded like :meth:`save`."""

    @abstractmethod
    async def state_at(self, game_id: int, version: int) -> str:
        """The state JSON at any ``version`` (0..current): nearest snapshot + a few replayed
        actions, checked against the logged hash (``RestoreFailed`` otherwise)."""

    @abstractmethod
    async def history(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[HistoryItem]:
        """The game's versions ``from_version..to_version`` (oldest first) with their public
        descriptions, each marked ``undone`` if a later undo or rollback took it back: what a
        moderator picks a rollback version from. Reads no states."""

    # -- log, replay ----------------------------------------------------------------------

    @abstractmethod
    async def get_log(
        self, game_id: int, *, from_version: int = 0, to_version: int | None = None
    ) -> list[LogEntry]:
        """Log entries ``from_version..to_version`` (inclusive; default: to the end)."""

    async def replay(
        self, game_id: int, replayer: Replayer, *, to_version: int | None = None
    ) -> ReplayReport:
        """Recompute the game's state from its initial state up to ``to_version`` (default:
        the current version) with ``replayer`` and compare each step with the recorded state
        hashes and, at the current version, with the stored state. The report carries the
        recomputed state, ``ok``, the first differing version and the differing JSON paths."""
        record = await self.get_game(game_id)
        entries = await self.get_log(game_id, to_version=to_version)
        report = replay_log(
            game_id=game_id,
            entries=entries,
            stored_version=record.version,
            stored_state_json=record.state_json,
            replayer=replayer,
            to_version=to_version,
        )
        if report.ok:
            return report
        note = self.engine_mismatch([record.engine_version, *(e.engine_version for e in entries)])
        return report if note is None else report.model_copy(update={"engine_note": note})

    def engine_mismatch(self, recorded: Collection[str | None]) -> str | None:
        """Why a replay may differ: the log was written by other engine versions than the
        running one (None: recorded before engine versions were stored). None if all match."""
        running = self.engine_version()
        others = sorted({version for version in recorded if version is not None} - {running})
        if others:
            return f"recorded under engine {', '.join(others)}, this is engine {running}"
        if any(version is None for version in recorded):
            return f"recorded before engine versions were stored, this is engine {running}"
        return None


class NewsStore(ABC):
    """A seat's private news inbox. Part of :class:`GameStore`."""

    # -- private news ---------------------------------------------------------------------

    @abstractmethod
    async def add_news(self, game_id: int, seat: int, texts: Sequence[str]) -> None:
        """Keep private ``texts`` for seat number ``seat`` until it reads them (its inbox
        survives restarts). One transaction; nothing is added for an empty ``texts``.
        ``GameNotFound`` if there is no such game, ``InvalidData`` for a bad seat number or a
        text that is not a string."""

    @abstractmethod
    async def unread_news(self, game_id: int, seat: int) -> list[NewsItem]:
        """The seat's news after its read-up-to marker, oldest first (does not mark them
        read: call :meth:`mark_news_read` once they were shown)."""

    @abstractmethod
    async def mark_news_read(self, game_id: int, seat: int, up_to: int) -> None:
        """The seat has read its news up to id ``up_to`` (inclusive): its marker moves
        forward to it, never back (an older ``up_to`` changes nothing)."""


class PlayerPrefsStore(ABC):
    """Each player's preferences: time zone, quiet hours, language, Discord locale. Part of
    :class:`GameStore`."""

    # -- players' preferences -------------------------------------------------------------

    @abstractmethod
    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        """A Discord user's time zone, quiet hours, language and last seen Discord locale
        (all None if never set)."""

    @abstractmethod
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
        """Set the user's time zone, quiet hours (``("22:00", "08:00")``), language (a
        catalogue code; storage does not check it), last seen Discord locale and/or whether
        they end their turns themselves (``manual_end``), how they are told that they decide
        (``notices``: one of :data:`~storage.models.NOTICE_MODES`) and whether they want a
        heads-up when they are next (``heads_up``); what is not given is kept; ``clear_quiet`` removes the quiet hours, ``clear_language`` the
        language (the user's Discord client's is followed again). Returns the new
        preferences."""

    @abstractmethod
    async def remember_locale(self, user_id: int, locale: str) -> bool:
        """Keep the Discord client locale the user was last seen with (``"pt-BR"``), for what
        is sent to them outside an interaction. Written only when it changed: True when it
        was written, False when the stored one was already ``locale``. ``InvalidData`` for
        an empty locale."""


class GuildSettingsStore(ABC):
    """Each server's settings (:class:`~storage.models.GuildSettings`). Part of
    :class:`GameStore`."""

    @abstractmethod
    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults if never set)."""

    @abstractmethod
    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        """Keep a server's settings (all of them: read, change, write). Returns them."""


class PacingStore(ABC):
    """The bot's pacing records of a game: settings, pause votes, breaks, decision clocks,
    timers and AI stand-ins. Part of :class:`GameStore`."""

    # -- pacing (the bot's deadlines) -----------------------------------------------------
    # Storage does not understand pacing: it keeps what the bot's scheduler decides. Times are
    # given by the caller (the pacing clock) as aware datetimes (``InvalidData`` if naive).

    @abstractmethod
    async def get_pacing(self, game_id: int) -> GamePacing:
        """The game's pacing settings JSON (``"{}"`` when never set: the defaults) and its
        pause votes (user ids, ascending)."""

    @abstractmethod
    async def set_pacing_settings(self, game_id: int, settings_json: str) -> None:
        """Replace the game's pacing settings JSON (``InvalidData`` if it is not JSON)."""

    @abstractmethod
    async def set_pause_votes(self, game_id: int, votes: Sequence[int]) -> None:
        """Replace the game's pause votes (user ids; duplicates are dropped)."""

    @abstractmethod
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
        """An away period of ``seat`` from ``start`` to ``end`` (required: ``InvalidData``
        otherwise), or with ``seat`` None a pause of the whole game (``end`` None: until
        :meth:`end_break`)."""

    @abstractmethod
    async def end_break(self, break_id: int, at: datetime) -> None:
        """End a break at ``at`` (an away period ended early, a pause resumed); a break that
        already ended before ``at`` is left as it is."""

    @abstractmethod
    async def breaks(self, game_id: int) -> list[Break]:
        """The game's away periods and pauses, by start time."""

    @abstractmethod
    async def sync_decisions(
        self, game_id: int, version: int, deciding: Sequence[int], at: datetime
    ) -> list[DecisionClock]:
        """The seats ``deciding`` now (game ``version``, time ``at``): each one's open clock
        is kept, or started now; the clocks of seats no longer deciding are closed at ``at``.
        One transaction. Returns the open clocks, by seat."""

    @abstractmethod
    async def open_decisions(self, game_id: int) -> list[DecisionClock]:
        """The game's open decision clocks, by seat."""

    @abstractmethod
    async def mute_decision(self, game_id: int, seat: int, since_version: int) -> bool:
        """Mute the reminders of that open decision (False: it is no longer open)."""

    @abstractmethod
    async def claim_timer(
        self, game_id: int, version: int, seat: int, kind: str, at: datetime
    ) -> bool:
        """Claim the timer ``(game, version, seat, kind)``, committed at once: True only for
        the first claim ever (the caller then does the work), False if it was claimed before,
        by this or any other process, before or after a restart."""

    @abstractmethod
    async def finish_timer(
        self, game_id: int, version: int, seat: int, kind: str, at: datetime, outcome: str
    ) -> None:
        """Mark a claimed timer done at ``at`` with its ``outcome`` (e.g. ``"sent"``)."""

    @abstractmethod
    async def timers(self, game_id: int | None = None, *, unfinished: bool = False) -> list[Timer]:
        """Claimed timers (of one game, or all), oldest claim first; ``unfinished``: only
        those claimed and not done (work a crash interrupted)."""

    @abstractmethod
    async def start_stand_in(
        self, game_id: int, seat: int, user_id: int | None, ai_level: str, at: datetime
    ) -> bool:
        """Record that an AI at ``ai_level`` plays ``seat`` for ``user_id`` from ``at``
        (False: one already does)."""

    @abstractmethod
    async def end_stand_in(self, game_id: int, seat: int, at: datetime) -> StandIn | None:
        """End the open stand-in of ``seat`` at ``at`` and return it (None if there is none)."""

    @abstractmethod
    async def stand_ins(self, game_id: int, *, open_only: bool = True) -> list[StandIn]:
        """The game's AI stand-ins by seat (``open_only=False``: the ended ones too)."""


class RatingStore(ABC):
    """Skill ratings per server and game, their changes and seasons (:mod:`storage.ratings`;
    a game is rated by :meth:`GameRecords.save` with its result). Part of :class:`GameStore`."""

    @abstractmethod
    async def ratings(self, guild_id: int, game: str, *, season: int = 0) -> list[RatingRow]:
        """Every player's rating in one table of the server's game (season 0: all-time),
        by player key."""

    @abstractmethod
    async def rating_changes(
        self, guild_id: int, game: str, *, player: str | None = None, season: int = 0
    ) -> list[RatingChange]:
        """What the server's rated games did in one table (of one ``player`` key, or every
        seat), in the order they were rated, each with its game's finish time."""

    @abstractmethod
    async def seasons(self, guild_id: int, game: str) -> list[Season]:
        """The server's game's seasons, by number (the last one may be running)."""

    @abstractmethod
    async def start_season(self, guild_id: int, game: str, name: str, *, by: int) -> Season:
        """Start the next season (number: the last one's + 1) now, by Discord user ``by``.
        ``InvalidData`` if one is running or the name is empty or longer than 100."""

    @abstractmethod
    async def end_season(self, guild_id: int, game: str, *, by: int) -> Season:
        """End the running season now (its rows stay: the final table). ``InvalidData`` if
        none is running."""

    @abstractmethod
    async def fold_ratings(self, guild_id: int, game: str, rules: RatingRules) -> Folded:
        """The server's game's tables recomputed from the stored results of its rated games
        (:func:`storage.ratings.fold`); writes nothing. Equal to the stored tables."""

    @abstractmethod
    async def rebuild_ratings(self, guild_id: int, game: str, rules: RatingRules) -> Folded:
        """Replace the server's game's tables and changes by the fold, in one transaction:
        a rated game no longer finished (taken back) drops out of them."""

    @abstractmethod
    async def seat_names(
        self, guild_id: int, game: str, user_ids: Collection[int]
    ) -> dict[int, str]:
        """Each user's seat name (display name when seated) in their latest game of the
        server's game that recorded one."""

    @abstractmethod
    async def rating_tables(self) -> RatingTables:
        """Every rating row and season of the store (copies and backups carry them)."""

    @abstractmethod
    async def load_rating_tables(self, tables: RatingTables) -> None:
        """Write ``tables`` (rows and seasons replaced by key), in one transaction."""


class OperatorStore(ABC):
    """What the operator tools (``python -m storage``: check, backup, export, import, copy)
    use and a player's press never needs: every game id, whole games moved between stores,
    every player's preferences, the integrity check, the backup, and one game's export and
    import (which a moderator's game file also uses). Part of :class:`GameStore`, which
    implements :meth:`export_game` and :meth:`import_game` from its :class:`GameRecords`;
    a backend implements the rest."""

    # -- every game -----------------------------------------------------------------------

    @abstractmethod
    async def game_ids(self) -> list[int]:
        """Every game id, ascending (all statuses)."""

    # -- moving games between stores (python -m storage copy) ----------------------------

    @abstractmethod
    async def dump_game(self, game_id: int) -> GameDump:
        """Everything kept about the game, under its own id, read in one transaction: the
        game, its whole log, its news and read markers, its pacing rows and its web page
        token (:class:`~storage.dump.GameDump`; ``GameNotFound`` if there is none)."""

    @abstractmethod
    async def load_game(self, dump: GameDump) -> None:
        """Store ``dump`` under its own game id (and its news and away periods under their
        own ids), in one transaction: afterwards :meth:`dump_game` returns an equal dump.
        ``GameExists`` if the id is taken, ``ChannelBusy`` if the game is active and its
        channel has another active game, ``InvalidData`` for a dump that is not consistent
        (log versions, state hashes, seats, data pack); nothing is written then."""

    @abstractmethod
    async def all_player_prefs(self) -> list[PlayerPrefs]:
        """Every player's stored preferences (time zone, quiet hours, language, last seen
        Discord locale), by user id."""

    @abstractmethod
    async def all_guild_settings(self) -> dict[int, GuildSettings]:
        """Every server's stored settings, by guild id."""

    # -- maintenance ----------------------------------------------------------------------

    @abstractmethod
    async def check_integrity(self) -> list[IntegrityProblem]:
        """Low-level check of the database and of every game's log (contiguous versions, hash
        of the stored state matching the last entry). Empty list: all fine. Does not replay."""

    @abstractmethod
    async def backup(self, path: str | PathLike[str]) -> None:
        """Write a consistent copy of the whole database to ``path`` while the store runs."""

    # -- one game out and in (python -m storage export, import) ---------------------------

    @abstractmethod
    async def export_game(self, game_id: int) -> GameExport:
        """The whole game (settings, seats, status, state, full log) as one export value;
        write it with :func:`storage.export.dump_export`. The game's private news inbox
        (:meth:`add_news`) and its pacing records are not exported: an imported game starts
        with empty inboxes and default pacing."""

    @abstractmethod
    async def import_game(
        self,
        export: GameExport,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        replayer: Replayer | None = None,
    ) -> GameRecord:
        """Store an exported game under a new game id, in ``channel_id`` (default: the
        exported channel) and ``guild_id`` (default: the exported guild).

        Checks the log's integrity first (``InvalidExport``), and with ``replayer`` also
        replays it. Raises ``ChannelBusy`` if the game is active and the channel already has
        an active game: import into another channel instead.
        """

    @abstractmethod
    async def _insert_import(self, plan: ImportPlan) -> GameRecord:
        """Insert a validated import (new game id) in one transaction."""


class GameStore(
    GameRecords,
    NewsStore,
    PlayerPrefsStore,
    GuildSettingsStore,
    PacingStore,
    RatingStore,
    OperatorStore,
):
    """Persistence of games keyed by an internal game id and a Discord channel id.

    The whole contract, in parts a caller may ask for alone: :class:`GameRecords` (what a
    press needs: load, save, seats, undo, history), :class:`NewsStore`,
    :class:`PlayerPrefsStore`, :class:`GuildSettingsStore`, :class:`PacingStore` and :class:`OperatorStore` (what the
    operator tools use: check, backup, export, import, copy; its export and import are
    implemented here, from the records); and here the store's own side: its lifecycle,
    clock, statistics, web page tokens and other processes' changes.

    Use as an async context manager (``async with SqliteGameStore(path) as store:``) or call
    :meth:`open` / :meth:`close`. All methods are coroutines; writes are atomic.
    """

    def __init__(
        self, *, clock: Clock = utc_now, engine_version: Callable[[], str] = current_engine_version
    ) -> None:
        self._clock = clock
        self.engine_version = engine_version
        """Returns the running rules engine's version (recorded with games and log entries)."""

    def now(self) -> datetime:
        """The store clock's current time, checked to be aware and converted to UTC."""
        moment = self._clock()
        if moment.tzinfo is None or moment.utcoffset() is None:
            raise InvalidData("the clock must return an aware datetime (with a timezone)")
        return moment.astimezone(UTC)

    # -- lifecycle ------------------------------------------------------------------------

    @abstractmethod
    async def open(self) -> None:
        """Connect, and bring the schema up to date (raises ``SchemaTooNew`` if it is newer)."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection. Idempotent."""

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- statistics -----------------------------------------------------------------------

    @abstractmethod
    async def player_stats(self, user_id: int, *, guild_id: int | None = None) -> PlayerStats:
        """Finished games, wins and average/best score of a Discord user (optionally in one
        guild). A user with no finished game gets zeros and ``None`` scores."""

    @abstractmethod
    async def leaderboard(
        self, *, guild_id: int | None = None, limit: int = 10
    ) -> list[PlayerStats]:
        """Players ranked by wins, then average score (finished games only)."""

    # -- web pages ------------------------------------------------------------------------
    # A game's web page lives at an unguessable address: one random token per game, made by
    # the caller (``secrets.token_urlsafe``), replaced to revoke the old address.

    @abstractmethod
    async def web_token(self, game_id: int) -> str | None:
        """The game's web page token (None: the game has none yet)."""

    @abstractmethod
    async def set_web_token(self, game_id: int, token: str) -> None:
        """Give the game the web page token ``token`` (at least 16 characters), replacing
        (revoking) its old one (``GameNotFound`` for an unknown game, ``InvalidData`` for a
        short token or one another game holds)."""

    @abstractmethod
    async def game_of_web_token(self, token: str) -> int | None:
        """The game whose web page token is ``token`` (None: no such page, or revoked)."""

    # -- several processes on one database -----------------------------------------------
    # One process owns an SQLite file: these defaults are right for it. A store that several
    # processes share (PostgreSQL) overrides them.

    def subscribe(self, callback: ChangeCallback) -> None:
        """Call ``callback`` with each :class:`GameChange` another process makes (its own
        writes are never reported). The default: nothing to report (one process)."""
        del callback

    @contextlib.asynccontextmanager
    async def tick_claim(self, game_id: int) -> AsyncIterator[bool]:
        """Claim the game's pacing tick for as long as the block runs: ``True`` when this
        process ticks the game now, ``False`` when another process is ticking it (skip the
        game: never wait for it). The default: always ``True`` (one process)."""
        yield True

    async def ping(self) -> None:
        """A trivial round trip to the database (a health check): raises if it is not
        reachable. Backends override it with their cheapest query."""
        await self.get_active_game(0)

    # -- the operator tools' export and import, from the records --------------------------

    async def export_game(self, game_id: int) -> GameExport:
        """The game's record and whole log as one export (:meth:`OperatorStore.export_game`)."""
        record = await self.get_game(game_id)
        log = await self.get_log(game_id, to_version=record.version)
        return build_export(record, log, exported_at=self.now())

    async def import_game(
        self,
        export: GameExport,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        replayer: Replayer | None = None,
    ) -> GameRecord:
        """The export checked (and replayed), then stored under a new id
        (:meth:`OperatorStore.import_game`)."""
        plan = plan_import(export)
        if replayer is not None:
            report: ReplayReport = replay_log(
                game_id=plan.game.id,
                entries=plan.entries,
                stored_version=plan.game.version,
                stored_state_json=plan.state_json,
                replayer=replayer,
            )
            if not report.ok:
                note = self.engine_mismatch(
                    [plan.game.engine_version, *(e.engine_version for e in plan.entries)]
                )
                if note is not None:
                    report = report.model_copy(update={"engine_note": note})
                raise InvalidExport(f"the exported log does not replay: {report.describe()}")
        game = plan.game.model_copy(
            update={
                "channel_id": plan.game.channel_id if channel_id is None else channel_id,
                "guild_id": plan.game.guild_id if guild_id is None else guild_id,
            }
        )
        return await self._insert_import(plan.model_copy(update={"game": game}))
