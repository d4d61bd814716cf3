"""Who and what a log line is about: the game, guild, channel, seat and interaction of the
work in progress, kept in context variables (each asyncio task has its own copy) and added to
every log record by :class:`ContextFilter`.

A surface binds what it knows when work starts (the Discord side binds the interaction's
guild, channel and id before a command or a press runs); the service binds the game when it
loads one and the seat when a seat acts. Values are ids and seat numbers only: never a
message's text, a token or anything hidden.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

FIELDS = ("game", "guild", "channel", "seat", "interaction")

_vars: dict[str, ContextVar[int | None]] = {
    name: ContextVar(f"log_{name}", default=None) for name in FIELDS
}


def bind(**ids: int | None) -> None:
    """Set some of the fields (``game=3, seat=0``) for the rest of the current task (and
    the tasks it starts). ``None`` clears a field."""
    for name, value in ids.items():
        _vars[name].set(None if value is None else int(value))


def current() -> dict[str, int]:
    """The fields set now."""
    out = {}
    for name, var in _vars.items():
        value = var.get()
        if value is not None:
            out[name] = value
    return out


class ContextFilter(logging.Filter):
    """Adds the fields to every record (``record.game`` … ``record.interaction``; None when
    unset) and ``record.context``: ``" [game=3 seat=0]"`` or ``""``, for text formats."""

    def filter(self, record: logging.LogRecord) -> bool:
        ctx = current()
        for name in FIELDS:
            setattr(record, name, ctx.get(name))
        record.context = (" [" + " ".join(f"{k}={v}" for k, v in ctx.items()) + "]") if ctx else ""
        return True
