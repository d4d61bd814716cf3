"""Events: what an action did, as a message key and parameters (``rules.tigris.messages``
renders them in English). ``visible_to`` is ``None`` for a public event, else the seats that
may see it (a player's drawn tiles); ``reveals`` marks events that show something new to
somebody (a draw), which ends the undo point (``rules.tigris.undo``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.tigris.messages import Param, render


@dataclass(frozen=True, slots=True)
class Event:
    key: str
    params: dict[str, Param] = field(default_factory=dict)
    visible_to: tuple[int, ...] | None = None
    reveals: bool = False

    @property
    def text(self) -> str:
        """The English sentence."""
        return render(self.key, self.params)

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "params": self.params,
            "visible_to": list(self.visible_to) if self.visible_to is not None else None,
            "reveals": self.reveals,
        }


def for_seat(events: list[Event], seat: int | None) -> list[Event]:
    return [e for e in events if e.visible(seat)]
