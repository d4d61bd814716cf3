"""Actions and events of Kuhn poker: small immutable records.

An :class:`Action` is a betting decision of ``seat``: ``check`` (bet nothing, K-BET-1,
K-BET-2), ``bet`` (put one chip in, K-BET-1, K-BET-2), ``call`` (match a bet, K-BET-3) or
``fold`` (give up the pot, K-BET-3).

An :class:`Event` is what an action did, as a message key and parameters (English in
:mod:`examples.kuhn.messages`). ``visible_to`` is ``None`` for a public event, else the seats
that may see it (a dealt card); ``reveals`` marks events that show somebody something new.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from examples.kuhn.messages import Param, render
from rules.errors import InvalidAction

KINDS: tuple[str, ...] = ("check", "bet", "call", "fold")


class Action(NamedTuple):
    kind: str
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Action:
        try:
            kind = str(d["kind"])
            if kind not in KINDS:
                raise KeyError(kind)
            return cls(kind, int(d["seat"]))
        except (KeyError, ValueError, TypeError) as e:
            raise InvalidAction("", f"not an action: {d!r} ({e})") from e


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "params": self.params,
            "visible_to": list(self.visible_to) if self.visible_to is not None else None,
            "reveals": self.reveals,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        vis = d.get("visible_to")
        return cls(
            str(d["key"]),
            dict(d.get("params") or {}),
            tuple(int(s) for s in vis) if vis is not None else None,
            bool(d.get("reveals", False)),
        )


def for_seat(events: list[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (None: a spectator, the public ones)."""
    return [e for e in events if e.visible(seat)]
