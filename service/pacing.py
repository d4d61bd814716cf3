"""Pacing of slow games, pure logic (no Discord, no storage, no real clock).

- :class:`Clock` (``now() -> aware UTC datetime``), :class:`SystemClock`, :class:`FakeClock`.
- :class:`PacingSettings`: a game's deadline length, reminder fractions, timeout policy, away
  limits, stall threshold and stale limit (stored as JSON by storage's pacing table).
- :class:`QuietHours` and :func:`in_quiet` / :func:`out_of_quiet`: a player's quiet hours in
  their IANA time zone (``zoneinfo``), spanning midnight or not, correct across DST changes.
- :func:`deadline`: when a decision times out: it started at ``start``, and its clock runs
  for ``length`` of *running* time; the clock is stopped during the seat's away periods
  (each clipped to the game's per-period limit) and while the whole game is paused (an open
  pause: no deadline).
- :func:`reminder_times`: reminders at fractions of the running time (50 % and 90 % by
  default), moved out of the player's quiet hours — forward to the end of the quiet period,
  or, if that would pass the deadline, back to just before it began — and dropped if
  neither is possible. A reminder is never inside quiet hours, never before the decision
  started and never after the deadline. The deadline itself is not moved by quiet hours (a
  game's pace is the same for everybody; the reminders are what respects sleep).
- Each game's adapter's ``default_answer``: the engine's own "no cards" / "pass" answer to a pending decision
  (picked from ``rules.legal_actions``; never made up), or None when the decision has none
  (a turn's first step, a setup choice): the ``default`` policy then falls through to an AI
  stand-in when the game allows them (:attr:`PacingSettings.stand_ins`), else it waits.
- :func:`parse_duration` (``3d``, ``12h``, ``1d12h``, ``90m``) and :func:`parse_quiet_hours`
  (``22:00-08:00``): nonsense raises :class:`BadInput` (a ``ValueError`` carrying the
  sentence as an :class:`i18n.Msg`, ``svc.pacing.*``).

Texts for people are the catalogue's (``svc.pacing.*`` the policies and input errors,
``svc.notice.*`` the reminders): functions that write one take ``lang`` (English by default).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import BaseModel, ConfigDict, Field

from i18n import Msg, exact_duration, msg, tr, translator
from service.results import ai_level_word

Policy = Literal["wait", "default", "ai"]
POLICIES: tuple[Policy, ...] = ("wait", "default", "ai")
POLICY_KEY: dict[str, str] = {
    "wait": "svc.pacing.policy.wait",
    "default": "svc.pacing.policy.default",
    "ai": "svc.pacing.policy.ai",
}
"""Each timeout policy's text (the catalogue key)."""
DEFAULT_WITHOUT_STAND_INS = "svc.pacing.policy.default_no_stand_ins"
"""The ``default`` policy's text in a game that allows no AI stand-in (the catalogue key)."""


class BadInput(ValueError):
    """A duration or a range of hours that does not read: ``msg`` says why (``str()`` is
    English); a caller refuses with it (``Refused(e.msg)``)."""

    def __init__(self, m: Msg) -> None:
        self.msg = m
        super().__init__(str(m))


# ============================================================================ clocks


class Clock(Protocol):
    """The time source of pacing: an aware datetime in UTC."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that moves only when told (tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        t = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
        if t.tzinfo is None:
            raise ValueError("FakeClock needs an aware datetime")
        self._t = t.astimezone(UTC)

    def now(self) -> datetime:
        return self._t

    def advance(
        self, delta: timedelta | None = None, *, hours: float = 0, minutes: float = 0
    ) -> datetime:
        self._t += (delta or timedelta()) + timedelta(hours=hours, minutes=minutes)
        return self._t

    def set(self, t: datetime) -> None:
        self._t = t.astimezone(UTC)


# ============================================================================ settings


class PacingSettings(BaseModel):
    """A game's pacing (moderators or the game's creator change it).

    ``policy``: what happens when a player's time is up (:data:`POLICY_KEY`).
    ``stand_ins``: whether the game allows an AI (of ``stand_in_level``) to stand in for a
    player whose time is up: the ``ai`` policy's whole point (choosing it allows them), and
    under ``default`` what a decision without a default answer falls through to (a turn's
    first step has no "pass"); not allowed, such a decision waits and is flagged."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    deadline_hours: float = Field(default=24.0, gt=0, le=24 * 28)
    reminders: tuple[float, ...] = (0.5, 0.9)
    policy: Policy = "wait"
    stand_ins: bool = True  # an AI may stand in for a player whose time is up (see below)
    stand_in_level: str = "heuristic"
    away_max_hours: float = Field(default=24 * 7, ge=0)  # one /away at most
    away_total_hours: float = Field(default=24 * 14, ge=0)  # per seat per game
    stall_reminders: int = Field(default=3, ge=1)  # unanswered reminders: stalled
    stale_days: float = Field(default=30, ge=0)  # no action for so long: archived (0: never)

    @property
    def length(self) -> timedelta:
        return timedelta(hours=self.deadline_hours)

    @property
    def ai_stands_in(self) -> bool:
        """Whether an AI stands in when the policy cannot act otherwise (``ai``: always;
        ``default``: where the engine has no default answer, if the game allows it)."""
        return self.policy == "ai" or (self.policy == "default" and self.stand_ins)

    def policy_text(self, lang: str = "en") -> str:
        """What happens on timeout, in words in ``lang`` (the AI's level when one may stand
        in)."""
        if self.policy == "default" and not self.stand_ins:
            return tr(lang, DEFAULT_WITHOUT_STAND_INS)
        text = tr(lang, POLICY_KEY[self.policy])
        if not self.ai_stands_in:
            return text
        level = ai_level_word(lang, self.stand_in_level)
        return tr(lang, "svc.pacing.policy.with_level", policy=text, level=level)


# ============================================================================ durations


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(w|d|h|m)", re.IGNORECASE)
_UNIT = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60}


def parse_duration(text: str) -> timedelta:
    """``3d``, ``12h``, ``1d12h``, ``90m``, ``2w`` (a bare number is hours). :class:`BadInput`
    saying why otherwise."""
    t = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+(\.\d+)?", t):
        t += "h"
    pos, seconds = 0, 0.0
    for m in _DURATION.finditer(t):
        if m.start() != pos:
            break
        seconds += float(m.group(1)) * _UNIT[m.group(2)]
        pos = m.end()
    if not t or pos != len(t):
        raise BadInput(msg("svc.pacing.not_a_duration", text=text))
    if seconds <= 0:
        raise BadInput(msg("svc.pacing.duration_zero"))
    return timedelta(seconds=seconds)


def format_duration(d: timedelta, lang: str = "en") -> str:
    """``3d``, ``1d 12h``, ``45m`` (to the minute; in ``lang``'s short unit words:
    ``1 Tg. 12 Std.``)."""
    return exact_duration(lang, d.total_seconds())


def ts(t: datetime, style: str = "R") -> str:
    """A Discord timestamp: ``<t:UNIX:R>`` (relative) or ``:f`` (date and time)."""
    return f"<t:{int(t.timestamp())}:{style}>"


# ============================================================================ quiet hours


@dataclass(frozen=True)
class QuietHours:
    """Local wall-clock hours ``[start, end)`` in ``tz`` when nobody pings the player;
    ``start > end`` spans midnight (``22:00-08:00``); ``start == end`` is no quiet time."""

    tz: str
    start: time
    end: time

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)

    def text(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M} ({self.tz})"


def valid_timezone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


_ZONES: list[str] = []


def timezones(prefix: str = "", limit: int = 25) -> list[str]:
    """IANA zone names containing ``prefix`` (case-insensitive), for autocomplete."""
    if not _ZONES:
        _ZONES.extend(sorted(available_timezones()))
    p = prefix.strip().lower().replace(" ", "_")
    starts = [z for z in _ZONES if z.lower().startswith(p)]
    inside = [z for z in _ZONES if p in z.lower() and z not in starts]
    return (starts + inside)[:limit]


def parse_quiet_hours(text: str) -> tuple[time, time]:
    """``22:00-08:00`` (also ``22-8``, ``22h-8h``); :class:`BadInput` saying why otherwise."""
    m = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?h?\s*[-–to ]+\s*(\d{1,2})(?::(\d{2}))?h?\s*", text)
    if not m:
        raise BadInput(msg("svc.pacing.not_hours", text=text))
    h1, m1, h2, m2 = int(m.group(1)), int(m.group(2) or 0), int(m.group(3)), int(m.group(4) or 0)
    if not (0 <= h1 <= 23 and 0 <= h2 <= 23 and 0 <= m1 <= 59 and 0 <= m2 <= 59):
        raise BadInput(msg("svc.pacing.hours_range"))
    return time(h1, m1), time(h2, m2)


def _local_in(t: time, start: time, end: time) -> bool:
    if start == end:
        return False
    if start < end:
        return start <= t < end
    return t >= start or t < end


def in_quiet(t: datetime, q: QuietHours | None) -> bool:
    """Whether ``t`` falls in the quiet hours (by the local wall clock)."""
    if q is None:
        return False
    local = t.astimezone(q.zone)
    return _local_in(local.time().replace(tzinfo=None), q.start, q.end)


def _at(d: date, hm: time, tz: ZoneInfo) -> datetime:
    """Local ``d`` at ``hm`` in UTC (a time in a DST gap means the time after the jump)."""
    return datetime.combine(d, hm, tzinfo=tz).astimezone(UTC)


def quiet_window(t: datetime, q: QuietHours) -> tuple[datetime, datetime]:
    """The quiet period ``[begin, end)`` that ``t`` (inside it) belongs to, in UTC."""
    tz = q.zone
    local = t.astimezone(tz)
    d = local.date()
    spans_midnight = q.start > q.end
    if spans_midnight and local.time().replace(tzinfo=None) < q.end:
        begin_d, end_d = d - timedelta(days=1), d
    elif spans_midnight:
        begin_d, end_d = d, d + timedelta(days=1)
    else:
        begin_d = end_d = d
    step = timedelta(minutes=1)
    end = _at(end_d, q.end, tz)
    if not (end > t and not in_quiet(end, q)):  # a DST change moved it: walk to it
        end = t
        for _ in range(2 * 1440):
            if not in_quiet(end, q):
                break
            end += step
    for _ in range(180):  # the end fell in a DST gap: the first minute awake is earlier
        if end - step <= t or in_quiet(end - step, q):
            break
        end -= step
    begin = _at(begin_d, q.start, tz)
    if not (begin <= t and in_quiet(begin, q)):
        begin = t
    for _ in range(2 * 1440):
        if not in_quiet(begin - step, q):
            break
        begin -= step
    return begin, end


def out_of_quiet(
    t: datetime, q: QuietHours | None, *, earliest: datetime, latest: datetime
) -> datetime | None:
    """``t`` moved out of the quiet hours within ``[earliest, latest]``: forward to the end
    of its quiet period, else back to the minute before it began; None if neither fits."""
    if q is None or not in_quiet(t, q):
        return t if earliest <= t <= latest else None
    begin, end = quiet_window(t, q)
    if earliest <= end <= latest and not in_quiet(end, q):
        return end
    before = begin - timedelta(minutes=1)
    if earliest <= before <= latest and not in_quiet(before, q):
        return before
    return None


# ============================================================================ deadlines

Interval = tuple[datetime, datetime | None]  # [start, end); end None: still running


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Sorted, overlapping intervals merged (an open one swallows everything after it)."""
    out: list[Interval] = []
    for s, e in sorted(intervals, key=lambda i: i[0]):
        if e is not None and e <= s:
            continue
        if out:
            ps, pe = out[-1]
            if pe is None or s <= pe:
                out[-1] = (ps, None if pe is None or e is None else max(pe, e))
                continue
        out.append((s, e))
    return out


def advance(start: datetime, running: timedelta, stops: Iterable[Interval]) -> datetime | None:
    """The moment the clock started at ``start`` has run for ``running``, not counting the
    ``stops`` (away periods, pauses). None if an open stop holds it forever."""
    t, left = start, running
    for s, e in merge(stops):
        if e is not None and e <= t:
            continue
        if s > t:
            if t + left <= s:
                return t + left
            left -= s - t
        if e is None:
            return None
        t = max(t, e)
    return t + left


def clip_away(periods: Iterable[Interval], max_length: timedelta) -> list[Interval]:
    """Away periods, each cut to the game's per-period limit."""
    out: list[Interval] = []
    for s, e in periods:
        cap = s + max_length
        out.append((s, cap if e is None else min(e, cap)))
    return out


def deadline(
    start: datetime,
    settings: PacingSettings,
    *,
    away: Sequence[Interval] = (),
    pauses: Sequence[Interval] = (),
) -> datetime | None:
    """When the decision started at ``start`` times out (None: the game is paused)."""
    stops = clip_away(away, timedelta(hours=settings.away_max_hours)) + list(pauses)
    return advance(start, settings.length, stops)


@dataclass(frozen=True)
class Reminder:
    kind: str  # "remind1", "remind2", ...
    at: datetime
    fraction: float


def reminder_times(
    start: datetime,
    settings: PacingSettings,
    *,
    quiet: QuietHours | None = None,
    away: Sequence[Interval] = (),
    pauses: Sequence[Interval] = (),
) -> list[Reminder]:
    """The decision's reminders (see module doc); none while the game is paused."""
    due = deadline(start, settings, away=away, pauses=pauses)
    if due is None:
        return []
    stops = clip_away(away, timedelta(hours=settings.away_max_hours)) + list(pauses)
    quiet_stops = merge([*away, *pauses])  # nobody is pinged while away, even past the limit
    out: list[Reminder] = []
    for i, f in enumerate(sorted(settings.reminders), 1):
        if not 0 < f < 1:
            continue
        t = advance(start, settings.length * f, stops)
        if t is None:
            continue
        moved = out_of_quiet(t, quiet, earliest=start, latest=due)
        if moved is not None and not any(in_interval(moved, s) for s in quiet_stops):
            out.append(Reminder(f"remind{i}", moved, f))
    return out


def in_interval(t: datetime, i: Interval) -> bool:
    return i[0] <= t and (i[1] is None or t < i[1])


def overdue_times(due: datetime, settings: PacingSettings, now: datetime) -> list[Reminder]:
    """Under the ``wait`` policy: one more reminder each deadline length after the
    deadline, up to ``now`` (the newest one is what a tick fires)."""
    out: list[Reminder] = []
    k, t = 1, due + settings.length
    while t <= now and k <= 1000:
        out.append(Reminder(f"overdue{k}", t, 1 + k))
        k, t = k + 1, t + settings.length
    return out


def reminder_text(
    kind: str, mention: str, due: datetime | None, what: str, lang: str = "en"
) -> str:
    """Escalating reminder texts (the first gentle, the last urgent) in ``lang``; ``what``:
    the decision in words in that language (:func:`what_text`)."""
    if due is not None:
        when = tr(lang, "svc.notice.when", relative=ts(due, "R"), date=ts(due, "f"))
    else:
        when = tr(lang, "svc.notice.soon")
    if kind == "remind1":
        return tr(lang, "svc.notice.remind1", mention=mention, what=what, when=when)
    if kind.startswith("overdue"):
        return tr(lang, "svc.notice.overdue", mention=mention, what=what)
    return tr(lang, "svc.notice.remind2", mention=mention, what=what, when=when)


def what_text(kind: str, lang: str = "en", term: str = "") -> str:
    """What a seat must decide, in words in ``lang``: ``turn`` (``kind`` "turn") or
    ``decision (combat cards)`` (the decision's name: ``term``, a message key, else
    ``svc.decision.<kind>``)."""
    if kind == "turn":
        return tr(lang, "svc.notice.what.turn")
    if term:
        return tr(lang, "svc.notice.what.decision", kind=tr(lang, term))
    name = translator(lang).name(f"svc.decision.{kind}", kind.replace("_", " "))
    return tr(lang, "svc.notice.what.decision", kind=name)
