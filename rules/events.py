"""Events: what happened, as data plus one plain English sentence for chat logs.

``visible_to`` is ``None`` for public events; otherwise the seats allowed to see it (a drawn
card, a peeked tile, espionage). Secret events are always paired with a public one that
says only what everybody may know ("Green drew a combat card").
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: str
    text: str
    seat: int | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    visible_to: tuple[int, ...] | None = None

    def visible(self, seat: int | None) -> bool:
        """May ``seat`` (None = spectator) see this event?"""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


def for_seat(events: list[Event], seat: int | None) -> list[Event]:
    """The events a seat (None: a spectator) may see."""
    return [e for e in events if e.visible(seat)]
