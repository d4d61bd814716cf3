"""Typed values that the storage layer returns and accepts (pydantic v2, immutable).

Callers never see rows or SQL: they get these models. States, actions and events stay JSON
*text* (``*_json`` fields), exactly as the rules engine produced them; storage does not
interpret them beyond checking that they are valid JSON (and, before a replay, that the
state's ``data_pack`` is a plain pack name).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal, TypedDict

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue, model_validator

from storage.legacy import upgrade_legacy_settings

__all__ = [
    "ACTIVE_STATUSES",
    "DEFAULT_GAME",
    "GAME_NAME_PATTERN",
    "MAX_SEATS",
    "NOTICE_MODES",
    "PACK_NAME_PATTERN",
    "Break",
    "DecisionClock",
    "EntryKind",
    "GameName",
    "GamePacing",
    "GameRecord",
    "GameResult",
    "GameSettings",
    "GameStatus",
    "GameSummary",
    "GuildSettings",
    "HistoryItem",
    "IntegrityProblem",
    "LogEntry",
    "NewsItem",
    "OpenPost",
    "PendingRequest",
    "PlayerPrefs",
    "PlayerStats",
    "PrivatePlace",
    "ReplayReport",
    "Seat",
    "SeatKind",
    "SeatNumber",
    "SettingsChanges",
    "StandIn",
    "Timer",
    "UserId",
    "is_game_name",
    "is_pack_name",
]

PACK_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
"""A data pack is referred to by a plain name (no slash, no '..'), never by a path."""


def is_pack_name(value: object) -> bool:
    """True for a plain data pack name such as ``"base"`` or ``"fan-pack_2.1"``."""
    return (
        isinstance(value, str)
        and len(value) <= 100
        and PACK_NAME_PATTERN.fullmatch(value) is not None
        and ".." not in value
    )


GAME_NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""A game's name (``"brazil"``, ``"tigris"``): a lower-case identifier of at most 40
characters. Storage keeps it and never interprets it (nor the state by it)."""

DEFAULT_GAME = "brazil"
"""The game of a record that names none: *Brazil: Imperial* (every game stored before schema
10, every export written before the field)."""

GameName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")]
"""A game name (see :data:`GAME_NAME_PATTERN`), validated."""


def is_game_name(value: object) -> bool:
    """True for a game name such as ``"brazil"`` or ``"tigris"``."""
    return isinstance(value, str) and GAME_NAME_PATTERN.fullmatch(value) is not None


class GameStatus(StrEnum):
    """Lifecycle of a game. Lobby, setup and running are *active*: at most one per channel."""

    LOBBY = "lobby"
    SETUP = "setup"
    RUNNING = "running"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def is_active(self) -> bool:
        return self in ACTIVE_STATUSES


ACTIVE_STATUSES: frozenset[GameStatus] = frozenset(
    {GameStatus.LOBBY, GameStatus.SETUP, GameStatus.RUNNING}
)

_ORDER = {GameStatus.LOBBY: 0, GameStatus.SETUP: 1, GameStatus.RUNNING: 2, GameStatus.FINISHED: 3}


def transition_allowed(old: GameStatus, new: GameStatus) -> bool:
    """Statuses only move forward (lobby -> setup -> running -> finished); any active game can
    be abandoned; a finished or abandoned game never changes again. Staying put is allowed for
    active games."""
    if not old.is_active:
        return False
    if new is GameStatus.ABANDONED:
        return True
    return _ORDER[new] >= _ORDER[old]


MAX_SEATS = 8


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


UserId = Annotated[int, Field(ge=0, lt=2**63)]
"""A Discord id (user, channel, message): a non-negative 64-bit integer."""

SeatNumber = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
"""A seat number, 0-based as the rules engine numbers seats."""


class PrivatePlace(_Frozen):
    """Where a player gets a game's private news lastingly: a private thread or their DMs."""

    where: Literal["thread", "dm"]
    channel_id: UserId


class PendingRequest(_Frozen):
    """A moderator's request waiting for their confirmation: the operation ``op`` asked by
    user ``by`` at game ``version``, its ``token`` (in the Confirm button) and its ``data``."""

    token: str = Field(min_length=1, max_length=100)
    op: str = Field(min_length=1, max_length=100)
    by: int
    version: int = Field(ge=0)
    data: dict[str, JsonValue] = Field(default_factory=dict)


class OpenPost(_Frozen):
    """A surface's post of the turn in progress (the channel's message edited in place while the
    same players decide): its message, its summary lines so far, the seats it asked (pinged),
    the game's version it shows and its pictures. Kept with the game so a restart or another process goes on
    with the same post."""

    message_id: UserId
    lines: tuple[str, ...] = ()
    deciders: tuple[SeatNumber, ...] = ()
    version: int = Field(ge=0)
    images: tuple[tuple[str, str], ...] = Field(
        default=(), description="its pictures: (file name, alt text)"
    )


class GameSettings(_Frozen):
    """The options a game was created with, and a surface's typed bookkeeping about it.

    Stored as JSON. Settings written by older releases (a free ``extra`` object) are read
    into the typed fields (see :mod:`storage.legacy`); unknown keys are refused.
    """

    scenario: str = Field(min_length=1, description="scenario id, e.g. 'standard'")
    player_count: int = Field(ge=1, le=MAX_SEATS)
    turn_timer_seconds: int | None = Field(default=None, ge=1)
    data_pack: str | None = Field(default=None, description="component data pack name")
    seed: int | None = Field(default=None, description="the rules engine's seed")
    host_user_id: UserId | None = Field(
        default=None, description="the Discord user who opened the lobby"
    )
    ai_level: str | None = Field(
        default=None, min_length=1, max_length=40, description="level of AI seats added"
    )
    colour_wishes: dict[SeatNumber, str] = Field(
        default_factory=dict, description="seat -> colour wished in the lobby"
    )
    status_message_id: UserId | None = Field(
        default=None, description="the Discord message showing the game's status"
    )
    posted_version: int | None = Field(
        default=None, ge=0, description="newest version whose turn post reached the channel"
    )
    open_post: OpenPost | None = Field(
        default=None, description="the channel's post of the turn in progress (edited in place)"
    )
    private_places: dict[UserId, PrivatePlace] = Field(
        default_factory=dict, description="user id -> where their private news goes"
    )
    pending_request: PendingRequest | None = Field(
        default=None, description="a moderator's request awaiting confirmation"
    )
    abandon_votes: tuple[UserId, ...] = Field(
        default=(), description="users who voted to abandon the game"
    )
    language: str = Field(
        default="en",
        min_length=1,
        max_length=35,
        description="the language of the game's public posts (a catalogue code: en, pt-BR, ...)",
    )
    told_missing: tuple[str, ...] = Field(
        default=(),
        description="the channel permissions the host was told the bot lacks (once per game)",
    )

    @model_validator(mode="before")
    @classmethod
    def _legacy_extra(cls, data: object) -> object:
        """Settings of an older release (``extra`` bag) -> the typed fields."""
        if isinstance(data, dict) and "extra" in data:
            return upgrade_legacy_settings(data)
        return data


class SettingsChanges(TypedDict, total=False):
    """The fields of :class:`GameSettings` that :meth:`storage.base.GameStore.update_settings`
    may change (None clears an optional field; ``{}`` / ``()`` empty a collection)."""

    scenario: str
    player_count: int
    turn_timer_seconds: int | None
    data_pack: str | None
    seed: int | None
    host_user_id: int | None
    ai_level: str | None
    colour_wishes: Mapping[int, str]
    status_message_id: int | None
    posted_version: int | None
    open_post: OpenPost | None
    private_places: Mapping[int, PrivatePlace]
    pending_request: PendingRequest | None
    abandon_votes: Sequence[int]
    language: str
    told_missing: Sequence[str]


class SeatKind(StrEnum):
    """Who plays a seat: a Discord user, a named local player (same table), or an AI."""

    DISCORD = "discord"
    LOCAL = "local"
    AI = "ai"


class Seat(_Frozen):
    """Seat ``seat`` (0-based, as the rules engine numbers them) and who plays it.

    ``kind`` says which of ``user_id`` (Discord user), ``name`` (local player) or
    ``ai_level`` (AI seat) is set; a Discord or AI seat may also carry a display ``name``
    (a Discord seat: the player's display name when seated). A Discord seat with an
    ``ai_level`` is played by that AI for its owner for now (a timeout's stand-in, until the
    owner comes back). ``colour`` is
    None until the seat has chosen one in the game. ``score``/``winner`` are set when the game
    finishes. Build seats with :meth:`discord`, :meth:`local` or :meth:`ai`.
    """

    seat: int = Field(ge=0, lt=MAX_SEATS)
    kind: SeatKind
    user_id: int | None = Field(default=None, ge=0, lt=2**63)
    name: str | None = Field(default=None, min_length=1, max_length=100)
    ai_level: str | None = Field(default=None, min_length=1, max_length=40)
    colour: str | None = Field(default=None, min_length=1, max_length=40)
    score: int | None = None
    winner: bool = False

    @model_validator(mode="after")
    def _who_matches_kind(self) -> Seat:
        if self.kind is SeatKind.DISCORD:
            if self.user_id is None:
                raise ValueError("a Discord seat has a user_id")
        elif self.kind is SeatKind.LOCAL:
            if self.name is None or self.user_id is not None or self.ai_level is not None:
                raise ValueError("a local seat has a name (and no user_id or AI level)")
        elif self.ai_level is None or self.user_id is not None:
            raise ValueError("an AI seat has an ai_level (and no user_id)")
        return self

    @classmethod
    def discord(
        cls, seat: int, user_id: int, *, name: str | None = None, colour: str | None = None
    ) -> Seat:
        """Seat ``seat`` played by the Discord user ``user_id`` (``name``: their display
        name, for texts that cannot mention them)."""
        return cls(seat=seat, kind=SeatKind.DISCORD, user_id=user_id, name=name, colour=colour)

    @classmethod
    def local(cls, seat: int, name: str, *, colour: str | None = None) -> Seat:
        """Seat ``seat`` played by a local (hot-seat) player called ``name``."""
        return cls(seat=seat, kind=SeatKind.LOCAL, name=name, colour=colour)

    @classmethod
    def ai(
        cls, seat: int, level: str, *, name: str | None = None, colour: str | None = None
    ) -> Seat:
        """Seat ``seat`` played by the AI at ``level``."""
        return cls(seat=seat, kind=SeatKind.AI, ai_level=level, name=name, colour=colour)

    def label(self) -> str:
        """Who plays the seat, for humans: ``<@id>``, the local name, or ``AI (level)``."""
        if self.kind is SeatKind.DISCORD:
            return f"<@{self.user_id}>"
        if self.kind is SeatKind.LOCAL:
            return str(self.name)
        return f"{self.name or 'AI'} ({self.ai_level})"


class GameResult(_Frozen):
    """Final scores per seat number and the winning seat(s): several when tied, none when
    nobody won (a lost solo game)."""

    scores: dict[int, int]
    winners: frozenset[int] = frozenset()

    @model_validator(mode="after")
    def _winners_are_scored(self) -> GameResult:
        unknown = self.winners - set(self.scores)
        if unknown:
            raise ValueError(f"winner(s) without a score: {sorted(unknown)}")
        return self


class GameSummary(_Frozen):
    """A game without its (large) state: what history listings return."""

    id: int
    channel_id: int
    guild_id: int | None
    status: GameStatus
    version: int = Field(ge=0, description="log entries after the initial state; +1 per save")
    settings: GameSettings
    seats: tuple[Seat, ...]
    created_at: AwareDatetime
    updated_at: AwareDatetime
    finished_at: AwareDatetime | None = None
    engine_version: str | None = Field(
        default=None, description="rules engine version the game was created with"
    )
    data_pack: str | None = Field(
        default=None, description="data pack name the game was created with (None: default)"
    )
    game: GameName = Field(
        default=DEFAULT_GAME,
        description="the game played (a game name: 'brazil', 'tigris'...), recorded when the "
        "record is created and never changed",
    )

    @property
    def is_active(self) -> bool:
        return self.status.is_active

    def seat(self, number: int) -> Seat | None:
        """Seat ``number`` (None if nobody holds it)."""
        return next((s for s in self.seats if s.seat == number), None)

    def user_of(self, number: int) -> int | None:
        """The Discord user id playing seat ``number`` (None if empty, local or AI)."""
        seat = self.seat(number)
        return None if seat is None else seat.user_id

    def seats_of(self, user_id: int) -> list[int]:
        """The seat numbers ``user_id`` plays (usually one; empty if not seated)."""
        return [s.seat for s in self.seats if s.user_id == user_id]

    @property
    def winners(self) -> list[int]:
        """The winning seat numbers (empty while running, and for a game nobody won)."""
        return [s.seat for s in self.seats if s.winner]


class GameRecord(GameSummary):
    """A game with its current state (JSON text from the rules engine)."""

    state_json: str

    def state(self) -> Any:
        """The current state, parsed."""
        return json.loads(self.state_json)


class EntryKind(StrEnum):
    """What a log entry records."""

    CREATED = "created"
    """Version 0: the initial state."""
    ACTION = "action"
    """An action played; the state is the replayer's result on the previous state."""
    UNDO = "undo"
    """A player took back their own last steps: the state is the one of ``target_version``."""
    ROLLBACK = "rollback"
    """A moderator returned the game to ``target_version`` (with a reason)."""


class LogEntry(_Frozen):
    """One entry of a game's append-only log.

    Version 0 (``created``) holds the initial state in ``snapshot_json``. An ``action`` entry
    holds the action that turned state N-1 into state N, the events, the seat that played it
    and the action's public ``description``. An ``undo`` / ``rollback`` entry names the
    ``target_version`` whose state becomes current again (``seat``: the seat that undid;
    ``actor_id``: the moderator who rolled back, with a ``reason``); its ``snapshot_json`` holds
    that state. Other entries carry a full ``snapshot_json`` every few versions, so restoring
    any version replays only a few actions. ``state_hash``: SHA-256 of the canonical JSON of
    state N (``None`` only for entries written before schema version 2). ``engine_version``:
    the rules engine that wrote the entry (``None`` before schema version 3).
    """

    game_id: int
    version: int = Field(ge=0)
    kind: EntryKind = EntryKind.ACTION
    seat: int | None
    action_json: str | None
    events_json: str
    state_hash: str | None
    snapshot_json: str | None
    created_at: AwareDatetime
    target_version: int | None = None
    description: str | None = None
    reason: str | None = None
    actor_id: int | None = None
    engine_version: str | None = None


class HistoryItem(_Frozen):
    """One version of a game as a moderator picks it: what happened, and whether it still
    counts (``undone``: taken back by a later undo or rollback)."""

    version: int
    kind: EntryKind
    seat: int | None
    description: str | None
    created_at: AwareDatetime
    undone: bool
    target_version: int | None = None
    reason: str | None = None
    actor_id: int | None = None

    def label(self) -> str:
        """One line, e.g. ``v12 seat 1: Builds a Farm`` or ``v14 undo to v11`` (+ undone)."""
        if self.kind is EntryKind.CREATED:
            text = f"v{self.version} game created"
        elif self.kind is EntryKind.ACTION:
            who = "" if self.seat is None else f" seat {self.seat}"
            text = f"v{self.version}{who}: {self.description or 'action'}"
        elif self.kind is EntryKind.UNDO:
            who = "" if self.seat is None else f" by seat {self.seat}"
            text = f"v{self.version} undo to v{self.target_version}{who}"
        else:
            by = "" if self.actor_id is None else f" by <@{self.actor_id}>"
            text = f"v{self.version} rollback to v{self.target_version}{by}: {self.reason}"
        return text + (" (undone)" if self.undone else "")


class PlayerStats(_Frozen):
    """Results of a Discord user over finished games (abandoned games do not count)."""

    user_id: int
    games: int
    wins: int
    average_score: float | None
    best_score: int | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


class ReplayReport(_Frozen):
    """Outcome of replaying a game's log from its initial state.

    ``ok`` is true when every recorded step hash matched and, when the replay reached the
    current version, the recomputed state equals the stored one (compared semantically).
    ``first_mismatch_version`` is the first version whose recomputed state differs from what
    was recorded; ``differences`` lists JSON paths where the final states differ.
    """

    game_id: int
    to_version: int
    stored_version: int
    ok: bool
    state_json: str | None = Field(description="the recomputed state at to_version")
    steps: int = Field(description="actions replayed")
    verified_steps: int = Field(description="replayed states checked against a recorded hash")
    first_mismatch_version: int | None = None
    error: str | None = None
    differences: tuple[str, ...] = ()
    engine_note: str | None = Field(
        default=None,
        description="set when the log was recorded under another engine version than the "
        "one replaying it: a difference is then expected, not a sign of corruption",
    )

    @property
    def is_problem(self) -> bool:
        """A failed replay that the engine version does not explain."""
        return not self.ok and self.engine_note is None

    def describe(self) -> str:
        """One line for humans (``check`` prints it)."""
        if not self.ok and self.engine_note is not None:
            what = self.error or (
                f"it differs from version {self.first_mismatch_version}"
                if self.first_mismatch_version is not None
                else "it differs"
            )
            return (
                f"NOT REPLAYABLE WITH THIS ENGINE: {self.engine_note}; {what}. This is expected "
                "after an engine change and is not a sign of corruption"
            )
        if self.ok:
            unverified = self.steps - self.verified_steps
            extra = f", {unverified} without a recorded hash" if unverified > 0 else ""
            return f"OK ({self.steps} actions replayed{extra})"
        parts: list[str] = []
        if self.error:
            parts.append(self.error)
        if self.first_mismatch_version is not None:
            parts.append(f"first differs at version {self.first_mismatch_version}")
        if self.differences:
            parts.append("final state: " + "; ".join(self.differences))
        return "DIFFERS: " + "; ".join(parts)


class IntegrityProblem(_Frozen):
    """Something wrong found by an integrity check (``game_id`` None: the database itself)."""

    game_id: int | None
    message: str

    def __str__(self) -> str:
        where = "database" if self.game_id is None else f"game {self.game_id}"
        return f"{where}: {self.message}"


# -- pacing (the bot's deadlines; schema version 4) -------------------------------------------


@dataclass(frozen=True)
class GamePacing:
    """A game's pacing settings (JSON text, ``"{}"``: the defaults) and the user ids that
    voted to pause it."""

    game_id: int
    settings_json: str
    pause_votes: tuple[int, ...]


@dataclass(frozen=True)
class PlayerPrefs:
    """A Discord user's time zone (an IANA name) and quiet hours (``"22:00"``, ``"08:00"``;
    both None: none); the language they chose (``/language``; None: their Discord client's)
    and the Discord client locale they were last seen with (``"pt-BR"``: for what is sent to
    them outside an interaction, e.g. reminders; None: never seen). Backup files written
    before the languages have no language fields: they read as None."""

    user_id: int
    tz: str | None
    quiet_start: str | None
    quiet_end: str | None
    language: str | None = None
    discord_locale: str | None = None
    manual_end: bool = False
    notices: str = "ping"
    heads_up: bool = False


NOTICE_MODES = ("ping", "dm", "both", "none")
"""How a player is told that they decide (:attr:`PlayerPrefs.notices`, schema 12): a ping in
the game's channel or thread (the default), a direct message with a link to the turn post,
both, or none."""


class GuildSettings(_Frozen):
    """A server's (Discord guild's) settings, kept as JSON (schema 12): where ``/game new``
    puts a game in a text channel (``thread``: the lobby is a post and the game plays in its
    own thread; ``channel``: the game takes the channel, one at a time), the server's games
    forum (``forum_id``: every lobby a post there; None: none) and how many running games one
    player may join on the server (None: no cap)."""

    game_place: Literal["thread", "channel"] = "thread"
    max_running_games: int | None = Field(default=None, ge=1, le=1000)
    forum_id: int | None = Field(
        default=None,
        ge=1,
        description="the server's games' forum channel: ``/game new`` posts every lobby there "
        "(a forum post per game), wherever it is typed outside a thread",
    )


@dataclass(frozen=True)
class Break:
    """An away period of ``seat``, or (``seat`` None) a pause of the whole game."""

    id: int
    game_id: int
    seat: int | None
    start: datetime
    end: datetime | None
    by_user: int | None
    reason: str | None


@dataclass(frozen=True)
class DecisionClock:
    """``seat`` has had to decide since game version ``since_version`` (``started``);
    ``closed`` once it no longer does; ``muted``: no more reminders for this decision."""

    game_id: int
    seat: int
    since_version: int
    started: datetime
    closed: datetime | None
    muted: bool


@dataclass(frozen=True)
class Timer:
    """A timer (reminder, deadline, flag...) of ``kind`` that fired for ``seat`` at game
    ``version``: claimed once, then done with an ``outcome``."""

    game_id: int
    version: int
    seat: int
    kind: str
    claimed: datetime
    done: datetime | None
    outcome: str | None


@dataclass(frozen=True)
class StandIn:
    """An AI at ``ai_level`` playing ``seat`` for ``user_id`` since ``since`` (until
    ``ended``)."""

    game_id: int
    seat: int
    user_id: int | None
    ai_level: str
    since: datetime
    ended: datetime | None


class NewsItem(_Frozen):
    """One private message kept for a seat until it reads it (the seat's inbox)."""

    id: int = Field(description="increasing: the order news was added in")
    text: str
    created_at: AwareDatetime


def utc_iso(moment: datetime) -> str:
    """The stored form of a timestamp (ISO 8601, UTC, microseconds)."""
    return moment.isoformat(timespec="microseconds")
