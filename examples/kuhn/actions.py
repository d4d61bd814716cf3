"""Actions and events of Kuhn poker: small immutable records.

An :class:`Action` is a betting decision of ``seat``: ``check`` (bet nothing, K-BET-1,
K-BET-2), ``bet`` (put one chip in, K-BET-1, K-BET-2), ``call`` (match a bet, K-BET-3) or
``fold`` (give up the pot, K-BET-3).

An :class:`Event` is what an action did, as a message key and parameters (English in
:mod:`examples.kuhn.messages`). ``visible_to`` is ``None`` for a public event, else the seats
that may see it (a dealt card); ``reveals`` marks events that show somebody something new.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from examples.kuhn.messages import render
from rules.errors import InvalidAction
from rules.events import Event as GameEvent
from rules.events import for_seat as for_seat

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
class Event(GameEvent):
    """What an action did (:class:`rules.events.Event`), its sentence from this game's
    messages."""

    @property
    def text(self) -> str:
        """The English sentence."""
        return render(self.key, self.params)
