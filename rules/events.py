"""The record of what an action did, shared by the games that need no more: a message key and
its parameters (the game's catalogue renders it), who may see it (``visible_to``: ``None`` for
a public event, else the seats that may) and whether it shows something new to somebody
(``reveals``: a draw, a card turned up; it ends the undo point).

A game subclasses :class:`Event` to give it its English sentence (``text``, from the game's own
message table); :func:`for_seat` and the JSON form are the same for every game::

    @dataclass(frozen=True, slots=True)
    class Event(rules.events.Event):
        @property
        def text(self) -> str:
            return render(self.key, self.params)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

from rules.text import Param

__all__ = ["Event", "for_seat"]


@dataclass(frozen=True, slots=True)
class Event:
    key: str
    params: dict[str, Param] = field(default_factory=dict)
    visible_to: tuple[int, ...] | None = None
    reveals: bool = False

    def visible(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see the event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "params": self.params,
            "visible_to": list(self.visible_to) if self.visible_to is not None else None,
            "reveals": self.reveals,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """The event :meth:`to_dict` wrote (read back exactly)."""
        vis = d.get("visible_to")
        return cls(
            str(d["key"]),
            dict(d.get("params") or {}),
            tuple(int(s) for s in vis) if vis is not None else None,
            bool(d.get("reveals", False)),
        )


E = TypeVar("E", bound=Event)


def for_seat(events: Iterable[E], seat: int | None) -> list[E]:
    """The events ``seat`` may see (None: a spectator, the public ones)."""
    return [e for e in events if e.visible(seat)]
