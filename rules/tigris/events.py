"""Events: what an action did, as a message key and parameters (``rules.tigris.messages``
renders them in English). ``visible_to`` is ``None`` for a public event, else the seats that
may see it (a player's drawn tiles); ``reveals`` marks events that show something new to
somebody (a draw), which ends the undo point (``rules.tigris.undo``)."""

from __future__ import annotations

from dataclasses import dataclass

from rules import events
from rules.events import for_seat
from rules.tigris.messages import Param, render

__all__ = ["Event", "event", "for_seat"]


@dataclass(frozen=True, slots=True)
class Event(events.Event):
    """A Tigris & Euphrates event (:class:`rules.events.Event`), its sentence from
    ``rules.tigris.messages``."""

    @property
    def text(self) -> str:
        """The English sentence."""
        return render(self.key, self.params)


_new = object.__new__
_set_key, _set_params, _set_visible_to, _set_reveals = (
    events.Event.__dict__[f].__set__ for f in ("key", "params", "visible_to", "reveals")
)


def event(
    key: str,
    params: dict[str, Param],
    visible_to: tuple[int, ...] | None = None,
    reveals: bool = False,
) -> Event:
    """``Event(key, params, visible_to, reveals)``, the same event, made by setting its four
    slots directly rather than through the frozen dataclass's ``__init__`` (the engine's
    hot path makes several a step)."""
    e: Event = _new(Event)
    _set_key(e, key)
    _set_params(e, params)
    _set_visible_to(e, visible_to)
    _set_reveals(e, reveals)
    return e
