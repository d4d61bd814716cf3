"""Finding a fair table (issue #31): the matchmaking of one queue, pure (no store, no clock:
the caller gives the time). The stored queue and its use cases are
:mod:`service.queueing`'s; the numbers are documented in ``docs/queue.md``.

A queue is one server's, one game's and one table size's (``players`` seats). Its entrants
are matched the longest-waiting first (:func:`match`): each in turn is the *anchor* of a
table, and takes the waiting players

- whose shown rating lies within the anchor's **window**: ±:data:`WINDOW_START` at once,
  widening by :data:`WINDOW_PER_HOUR` per hour the anchor has waited, at most
  ±:data:`WINDOW_MOST` (:func:`window`) — so a player who waited long gets a table, and one
  who just came waits a little for a closer one;
- whose **active hours** (:func:`active_hours`: the hours of the day outside their quiet
  hours in their time zone; no quiet hours: always active) leave the whole table at least
  :data:`MIN_SHARED_HOURS` hours a day in common (slow games are played in those hours);

the closest ratings first. A full table is formed. An anchor who asked for computer players
(``ai_fill``) and has waited their ``max_wait`` gets a table at once: the players found who
asked for fillers too, and computer seats for the rest, at the level whose rating is the
closest to the table's mean (:func:`level_for`; levels without a rating yet: the lowest).
Nobody sits at two tables of one round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from service.pacing import QuietHours, in_quiet

__all__ = [
    "ALL_HOURS",
    "DEFAULT_MAX_WAIT",
    "MIN_SHARED_HOURS",
    "WINDOW_MOST",
    "WINDOW_PER_HOUR",
    "WINDOW_START",
    "Entrant",
    "Table",
    "active_hours",
    "level_for",
    "match",
    "window",
]

WINDOW_START = 100
"""The rating window at once: ±100 around the anchor's shown rating."""
WINDOW_PER_HOUR = 50
"""The window widens by 50 per hour the anchor has waited ..."""
WINDOW_MOST = 600
"""... up to ±600 (after 10 hours)."""
MIN_SHARED_HOURS = 4
"""The hours a day a table's players must all be active (outside their quiet hours)."""
DEFAULT_MAX_WAIT = timedelta(hours=24)
"""How long a player who accepts computer fillers waits at most, unless they say."""
ALL_HOURS: frozenset[int] = frozenset(range(24))
"""A player without quiet hours: active every hour (UTC) of the day."""


def window(waited: timedelta) -> int:
    """The rating window (±) of an anchor who has waited ``waited``."""
    hours = max(waited.total_seconds(), 0.0) / 3600
    return min(WINDOW_MOST, WINDOW_START + int(WINDOW_PER_HOUR * hours))


def active_hours(
    tz: str | None, quiet_start: str | None, quiet_end: str | None, day: date
) -> frozenset[int]:
    """The hours ``h`` (UTC, 0-23) of ``day`` in which a player is active: ``h:30`` UTC is
    outside their quiet hours (``"22:00"``, ``"08:00"``) in their time zone (None: UTC). No
    quiet hours: every hour."""
    if quiet_start is None or quiet_end is None:
        return ALL_HOURS
    q = QuietHours(tz or "UTC", time.fromisoformat(quiet_start), time.fromisoformat(quiet_end))
    noon = datetime.combine(day, time(0, 30), tzinfo=UTC)
    return frozenset(h for h in range(24) if not in_quiet(noon + timedelta(hours=h), q))


@dataclass(frozen=True)
class Entrant:
    """A player waiting in one queue: their shown rating, since when, their active hours
    (UTC), and whether computer players may fill their table after ``max_wait``."""

    user_id: int
    rating: int
    joined: datetime
    active: frozenset[int] = ALL_HOURS
    ai_fill: bool = False
    max_wait: timedelta = DEFAULT_MAX_WAIT


@dataclass(frozen=True)
class Table:
    """A table formed: its human players (the anchor first), its computer seats and their
    level, the window it was formed within, and the hours its players share."""

    humans: tuple[Entrant, ...]
    window: int
    shared: frozenset[int]
    ai_seats: int = 0
    ai_level: str | None = None
    anchor_waited: timedelta = field(default=timedelta(0))

    @property
    def anchor(self) -> Entrant:
        return self.humans[0]

    @property
    def spread(self) -> int:
        """The difference between the highest and lowest human rating."""
        ratings = [e.rating for e in self.humans]
        return max(ratings) - min(ratings)

    @property
    def mean(self) -> float:
        return sum(e.rating for e in self.humans) / len(self.humans)


def level_for(mean: float, levels: Sequence[tuple[str, int | None]]) -> str:
    """The computer level to fill a table whose players' mean rating is ``mean``: among
    ``levels`` (name and calibrated shown rating, the lowest level first), the one whose
    rating is the closest; when no level has a rating yet, the lowest."""
    if not levels:
        raise ValueError("no computer level to fill a table with")
    rated = [(abs(r - mean), n, name) for n, (name, r) in enumerate(levels) if r is not None]
    if not rated:
        return levels[0][0]
    return min(rated)[2]


def _shared(people: Iterable[Entrant]) -> frozenset[int]:
    hours = ALL_HOURS
    for e in people:
        hours &= e.active
    return hours


def match(
    entrants: Sequence[Entrant],
    players: int,
    now: datetime,
    levels: Sequence[tuple[str, int | None]] = (),
    *,
    min_shared: int = MIN_SHARED_HOURS,
) -> list[Table]:
    """The tables of ``players`` seats the queue ``entrants`` forms at ``now`` (see module
    doc); nobody twice. ``levels``: the computer levels (lowest first) with their ratings,
    for the fillers (none: no table is filled)."""
    if players < 1:
        raise ValueError("a table has at least one seat")
    waiting = sorted(entrants, key=lambda e: (e.joined, e.user_id))
    used: set[int] = set()
    tables: list[Table] = []
    for anchor in waiting:
        if anchor.user_id in used:
            continue
        waited = now - anchor.joined
        w = window(waited)
        pool = sorted(
            (
                c
                for c in waiting
                if c.user_id not in used
                and c.user_id != anchor.user_id
                and abs(c.rating - anchor.rating) <= w
            ),
            key=lambda c: (abs(c.rating - anchor.rating), c.joined, c.user_id),
        )
        seats = [anchor]
        hours = anchor.active
        if len(hours) >= min_shared:
            for c in pool:
                if len(seats) == players:
                    break
                both = hours & c.active
                if len(both) >= min_shared:
                    seats.append(c)
                    hours = both
        if len(seats) == players and len(hours) >= min_shared:
            tables.append(Table(tuple(seats), w, hours, anchor_waited=waited))
            used.update(e.user_id for e in seats)
            continue
        if anchor.ai_fill and waited >= anchor.max_wait and levels:
            humans = [anchor, *(e for e in seats[1:] if e.ai_fill)][:players]
            table = Table(tuple(humans), w, _shared(humans), anchor_waited=waited)
            level = level_for(table.mean, levels)
            tables.append(
                Table(
                    table.humans,
                    w,
                    table.shared,
                    ai_seats=players - len(humans),
                    ai_level=level,
                    anchor_waited=waited,
                )
            )
            used.update(e.user_id for e in humans)
    return tables
