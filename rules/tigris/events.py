"""Events: what an action did, as a message key and parameters (``rules.tigris.messages``
renders them in English). ``visible_to`` is ``None`` for a public event, else the seats that
may see it (a player's drawn tiles); ``reveals`` marks events that show something new to
somebody (a draw), which ends the undo point (``rules.tigris.undo``)."""

from __future__ import annotations

from dataclasses import dataclass

from rules import events
from rules.events import for_seat
from rules.tigris.messages import render

__all__ = ["Event", "for_seat"]


@dataclass(frozen=True, slots=True)
class Event(events.Event):
    """A Tigris & Euphrates event (:class:`rules.events.Event`), its sentence from
    ``rules.tigris.messages``."""

    @property
    def text(self) -> str:
        """The English sentence."""
        return render(self.key, self.params)
