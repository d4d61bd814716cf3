"""Typed values that the storage layer returns and accepts (pydantic v2, immutable).

Callers never see rows or SQL: they get these models. States, actions and events stay JSON
*text* (``*_json`` fields), exactly as the rules engine produced them; storage does not
interpret them beyond checking that they are valid JSON.
"""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue, model_validator

__all__ = [
    "ACTIVE_STATUSES",
    "GameRecord",
    "GameResult",
    "GameSettings",
    "GameStatus",
    "GameSummary",
    "IntegrityProblem",
    "LogEntry",
    "PlayerStats",
    "ReplayReport",
    "Seat",
]


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


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GameSettings(_Frozen):
    """The options a game was created with. Stored as JSON; ``extra`` holds future keys."""

    scenario: str = Field(min_length=1, description="scenario id, e.g. 'standard'")
    player_count: int = Field(ge=1, le=8)
    turn_timer_seconds: int | None = Field(default=None, ge=1)
    data_pack: str | None = Field(default=None, description="component data pack id")
    extra: dict[str, JsonValue] = Field(default_factory=dict)


class Seat(_Frozen):
    """A player colour held by a Discord user; ``score``/``winner`` are set when it finishes."""

    colour: str = Field(min_length=1)
    user_id: int = Field(ge=0, lt=2**63)
    score: int | None = None
    winner: bool = False


class GameResult(_Frozen):
    """Final scores per seat colour and the winning colour(s) (several when tied)."""

    scores: dict[str, int]
    winners: frozenset[str]

    @model_validator(mode="after")
    def _winners_are_scored(self) -> GameResult:
        if not self.winners:
            raise ValueError("a finished game needs at least one winner")
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
    version: int = Field(ge=0, description="number of actions applied; bumped by every save")
    settings: GameSettings
    seats: tuple[Seat, ...]
    created_at: AwareDatetime
    updated_at: AwareDatetime
    finished_at: AwareDatetime | None = None

    @property
    def is_active(self) -> bool:
        return self.status.is_active

    def user_of(self, colour: str) -> int | None:
        """The Discord user id seated at ``colour`` (None if the seat is empty)."""
        return next((s.user_id for s in self.seats if s.colour == colour), None)

    def colours_of(self, user_id: int) -> list[str]:
        """The colours ``user_id`` plays (usually one; empty if not seated)."""
        return [s.colour for s in self.seats if s.user_id == user_id]

    @property
    def winners(self) -> list[str]:
        return [s.colour for s in self.seats if s.winner]


class GameRecord(GameSummary):
    """A game with its current state (JSON text from the rules engine)."""

    state_json: str

    def state(self) -> Any:
        """The current state, parsed."""
        return json.loads(self.state_json)


class LogEntry(_Frozen):
    """One entry of a game's append-only action log.

    Version 0 is the game's creation: no action, ``snapshot_json`` holds the initial state.
    Version N>0 holds the action that turned state N-1 into state N, the events it produced,
    the seat that played it, and the SHA-256 of the canonical JSON of state N (``None`` only
    for entries written before schema version 2, whose intermediate states were never hashed).
    """

    game_id: int
    version: int = Field(ge=0)
    seat: str | None
    action_json: str | None
    events_json: str
    state_hash: str | None
    snapshot_json: str | None
    created_at: AwareDatetime


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

    def describe(self) -> str:
        """One line for humans (``check`` prints it)."""
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


def utc_iso(moment: datetime) -> str:
    """The stored form of a timestamp (ISO 8601, UTC, microseconds)."""
    return moment.isoformat(timespec="microseconds")
