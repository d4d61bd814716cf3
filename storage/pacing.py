"""Storage of the bot's pacing (schema version 4): the SQL behind the store's pacing methods.

:class:`storage.backend.SqlGameStore` holds the pacing methods of both stores; they are
part of the :class:`storage.base.GameStore` interface (documented there), this module keeps
their helpers, and their value types live in :mod:`storage.models` (re-exported here for
older imports). Storage does not
understand pacing: it keeps a game's pacing settings as JSON text, a player's time zone and
quiet hours, away periods and pauses (``breaks``), when each seat's decision began
(``decisions``), the timers that fired (``timers``) and AI stand-ins. Times are given by the
caller (the bot's pacing clock), aware datetimes stored in UTC.

**Firing once.** :meth:`~storage.base.GameStore.claim_timer` inserts the row keyed ``(game, version, seat,
kind)`` in its own committed transaction and says whether this caller got it: only the
first claim ever succeeds, so a reminder is sent at most once even if two schedulers run or
the bot restarts. The caller claims *before* sending (see :mod:`service.pace` for which
side of at-most/at-least once each kind chose) and marks it done with
:meth:`~storage.base.GameStore.finish_timer`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from storage.errors import InvalidData
from storage.models import (
    NOTICE_MODES,
    Break,
    DecisionClock,
    GamePacing,
    PlayerPrefs,
    StandIn,
    Timer,
    utc_iso,
)

if TYPE_CHECKING:
    pass

__all__ = [
    "Break",
    "DecisionClock",
    "GamePacing",
    "PlayerPrefs",
    "StandIn",
    "Timer",
    "merge_prefs",
    "pacing_iso",
    "prefs_of",
]


PREFS_COLUMNS = (
    "tz, quiet_start, quiet_end, language, discord_locale, manual_end, notices, heads_up"
)
"""The columns of ``pacing_players`` after its user id, in :class:`PlayerPrefs` order."""


def prefs_of(user_id: int, row: list[Any]) -> PlayerPrefs:
    """A player's preferences from a ``pacing_players`` row (:data:`PREFS_COLUMNS`; SQLite
    keeps the flag as 0/1)."""
    tz, qs, qe, language, locale, manual, notices, heads_up = row
    return PlayerPrefs(
        user_id, tz, qs, qe, language, locale, bool(manual), str(notices), bool(heads_up)
    )


def merge_prefs(
    old: PlayerPrefs,
    *,
    tz: str | None,
    quiet: tuple[str, str] | None,
    clear_quiet: bool,
    language: str | None,
    clear_language: bool,
    discord_locale: str | None,
    manual_end: bool | None = None,
    notices: str | None = None,
    heads_up: bool | None = None,
) -> PlayerPrefs:
    """``old`` with the changes of :meth:`~storage.base.GameStore.set_player_prefs` applied
    (what is not given is kept). ``InvalidData`` for a notice mode not in
    :data:`~storage.models.NOTICE_MODES`."""
    if notices is not None and notices not in NOTICE_MODES:
        raise InvalidData(f"notices is one of {', '.join(NOTICE_MODES)}, not {notices!r}")
    qs, qe = (None, None) if clear_quiet else (quiet or (old.quiet_start, old.quiet_end))
    return PlayerPrefs(
        old.user_id,
        tz if tz is not None else old.tz,
        qs,
        qe,
        None if clear_language else (language if language is not None else old.language),
        discord_locale if discord_locale is not None else old.discord_locale,
        bool(manual_end) if manual_end is not None else old.manual_end,
        notices if notices is not None else old.notices,
        bool(heads_up) if heads_up is not None else old.heads_up,
    )


def pacing_iso(t: datetime | None) -> str | None:
    """The stored form of a pacing time (``InvalidData`` for a naive one)."""
    if t is None:
        return None
    if t.tzinfo is None or t.utcoffset() is None:
        raise InvalidData("pacing times must be aware datetimes")
    return utc_iso(t.astimezone(UTC))
