"""The matchmaking queue's stored entries (issue #31, schema 14): who waits for a table of
which game on which server. Storage keeps them and never matches: the matching is
:mod:`service.queue`'s, the stored queue's use cases :mod:`service.queueing`'s."""

from __future__ import annotations

from datetime import UTC

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator

from storage.models import GameName, UserId

__all__ = ["QueueEntry"]


class QueueEntry(BaseModel):
    """One player waiting on a server (``guild_id``) for a table of ``players`` seats of
    ``game``: where they joined (``channel_id``: the table's game opens there, or in a thread
    of it), since when (``joined_at``, UTC), whether computer players may fill the table
    after ``max_wait_seconds`` (``ai_fill``; None: the service's default wait). One entry per
    (server, game, player): joining again replaces it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    guild_id: int = Field(ge=0, lt=2**63)
    game: GameName
    user_id: UserId
    players: int = Field(ge=1, le=8)
    channel_id: int = Field(ge=0, lt=2**63)
    joined_at: AwareDatetime
    ai_fill: bool = False
    max_wait_seconds: int | None = Field(default=None, ge=60, le=90 * 86400)

    @field_validator("joined_at")
    @classmethod
    def _utc(cls, v: AwareDatetime) -> AwareDatetime:
        return v.astimezone(UTC)

    @property
    def key(self) -> tuple[int, str, int]:
        """(server, game, player): an entry's identity."""
        return (self.guild_id, self.game, self.user_id)
