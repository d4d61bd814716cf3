"""The pace of slow games, surface-neutral: deadlines, reminders, decision clocks, what happens
at a deadline, stalled and stale games, pauses, away time and the players' quiet hours.

:class:`Pacing` (``svc.pacing`` of a :class:`~service.game.GameService`) works on the store
and the game service; the maths is :mod:`service.pacing`. It never sends anything: a tick
returns :class:`Notice` objects — plain data saying what the surface must show (a reminder
that pings one user, with a "mute" button; a flag, also to the moderators; a game-visible
:class:`~service.results.Result` to publish) — and the surface marks each one
:meth:`Pacing.delivered` once shown. The Discord side is :mod:`bot.scheduler`.

- **Decision clocks** (:meth:`Pacing.refresh`): in storage, when each human seat's current
  decision began; brought up to date after every published change and at every tick. A
  seat that answered and is asked again (the next step of its turn) has a new decision: its
  clock, deadline and reminders start again. The :class:`Schedule` says each seat's
  deadline and reminders (:mod:`service.pacing`) and the status message's pacing lines.
- **Reminders** (50 % and 90 % of the running time by default, escalating texts, then under
  the ``wait`` policy one "overdue" reminder per deadline length): a notice pinging only the
  decider, with a "Mute reminders this turn" button. Never in the player's quiet hours (held
  back until they end), never while they are away or the game is paused, never after they
  acted in this decision (checked against the log since the version the decision began at),
  never when muted. After downtime only the newest due reminder is sent.
- **The deadline**: the game's policy — ``wait`` (flag it in the channel once), ``default``
  (play the engine's own "no cards" / "pass" answer: the game adapter's ``default_answer``;
  where the engine offers none — a turn's first step, a setup choice — an AI stands in as
  under ``ai`` when the game allows AI stand-ins, :attr:`PacingSettings.stand_ins`, the
  default; else flag as ``wait``), or ``ai`` (an AI stand-in plays the seat through the game
  service, like any AI seat, until the owner's ``/seat back``; recorded in storage and shown
  in the status message). One default answer per deadline: publishing it refreshes the
  clocks, so a seat asked again has a new decision with its own deadline.
- **Stalled**: ``stall_reminders`` reminders unanswered in the game's open decisions: flagged
  once to the channel and to the moderators.
- **Stale**: no action for ``stale_days``: the game is archived automatically (status
  abandoned, which frees the channel; the game stays in history and can be exported), with
  a notice saying so. Chosen over a manual archive so that dead games do not hold channels
  forever; ``stale_days = 0`` turns it off for a game.

**Once, across restarts.** Each firing is a row of storage's ``pacing_timers`` keyed
``(game, version the decision began at, seat, kind)``, claimed in its own committed
transaction *before* acting (:meth:`storage.base.GameStore.claim_timer`); the notice carries
the claim, finished when the surface reports it delivered (:meth:`Pacing.delivered`):

- reminders and flags are **at most once**: if the process dies between the claim and the
  send, that reminder is lost, never sent twice — a missing nudge costs little (the next
  reminder, the deadline and the status message still come), a duplicate ping breaks the
  promise that a ping means "you are needed now";
- the deadline's *game action* (default answers, AI stand-in) is **at least once**: a claim
  left unfinished by a crash is run again after the restart (:meth:`Pacing.tick_games`),
  which is safe because the action is idempotent — the answer is applied only while that
  seat still decides in that decision (the game version guards the save) and a stand-in is
  recorded once per seat.

**Several processes on one database.** A surface ticks a game only while it holds the game's
tick claim (:meth:`storage.base.GameStore.tick_claim`; PostgreSQL: ``FOR UPDATE SKIP
LOCKED``), from the tick to the last notice delivered: two processes ticking at once never
work on one game together, and a process never waits for another's tick. Each firing is still
its own timer row (the first claim wins). So an unfinished deadline claim seen under the tick
claim was left by a tick that died (a live one would hold the claim): a process's first tick
re-runs it only if it is still unfinished then.

A surface runs a tick as: ``for gid in await pacing.tick_games():`` take the game's tick
claim (skip the game if another process holds it) and its lock,
``tick = await pacing.tick_game(gid)``, show ``tick.schedule``, deliver ``tick.notices`` in
order (publishing their results in the game's session), each then
``await pacing.delivered(notice)``.

**Languages.** What a notice or a post says is written in its readers' language: a reminder
(it pings one player) in that player's language (:meth:`Languages.user_language
<service.language.Languages.user_language>`: their choice, their client's, else the game's);
the flags, the stalled and archived notices, the posts (a default answer, an AI stand-in, a
seat back) and the status message's pacing lines in the game's language
(:func:`~service.language.game_language_of`). The texts are the catalogue's ``svc.notice.*``.

The players' commands: :meth:`Pacing.away`, :meth:`Pacing.seats_back`, pause votes
(:meth:`Pacing.paused`, :meth:`Pacing.vote_pause`), :meth:`Pacing.set_timezone`,
:meth:`Pacing.set_quiet_hours`, :meth:`Pacing.mute`; the game's pace
(:meth:`Pacing.set_deadline`, :meth:`Pacing.set_policy`). Every refusal is a
:class:`~service.results.Refused` with the sentence to show privately.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from i18n import Msg, msg, tr
from service import metrics
from service.games import adapter_of, seat_label
from service.language import Languages, game_language_of
from service.pacing import (
    BadInput,
    Clock,
    Interval,
    PacingSettings,
    Policy,
    QuietHours,
    Reminder,
    SystemClock,
    deadline,
    in_interval,
    in_quiet,
    overdue_times,
    parse_duration,
    parse_quiet_hours,
    reminder_text,
    reminder_times,
    timezones,
    ts,
    valid_timezone,
    what_text,
)
from service.results import Post, Refused, Result, SeatSpec, ai_level_word, seat_name
from storage import GameRecord, GameStatus, GameSummary
from storage.base import GameStore
from storage.models import Break, DecisionClock, PlayerPrefs

if TYPE_CHECKING:
    from service.core import GameCore
    from service.session import GameSession

log = logging.getLogger("service.pace")


def _deciders(st: Any) -> list[int]:
    """The seats that decide now in ``st`` (its game's face)."""
    return list(adapter_of(st).face.deciders(st))


def _kind(st: Any, seat: int) -> tuple[str, str]:
    """What ``seat`` decides in ``st`` (``turn`` or a pending decision's kind) and the
    message key naming it in its game (empty: ``svc.decision.<kind>``)."""
    A = adapter_of(st)
    kind = A.pending_kind(st, seat)
    return kind, A.decision_term(kind)


GAME = -1
"""The seat number of whole-game timers (stalled, stale)."""

TimerKey = tuple[int, int, int, str]
"""A firing: (game, version the decision began at, seat or :data:`GAME`, kind)."""

NoticeKind = Literal["reminder", "flag", "stalled", "archived", "post"]

AWAY_END_WORDS = ("end", "back", "stop")


# ============================================================================ plain data


@dataclass
class SeatSchedule:
    """One deciding seat's pacing now."""

    seat: int
    clock: DecisionClock
    deadline: datetime | None  # None: the game is paused
    reminders: list[Reminder] = field(default_factory=list)


@dataclass
class Schedule:
    """A game's pacing now: each deciding human seat's clock, deadline and reminders, and the
    status message's pacing lines. ``running`` False: the game is not running (no clocks;
    nothing to show)."""

    game_id: int
    running: bool = True
    seats: dict[int, SeatSchedule] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def deadlines(self) -> dict[int, int | None]:
        """Each deciding seat's deadline as a UNIX time (None: the game is paused)."""
        return {
            seat: None if sc.deadline is None else int(sc.deadline.timestamp())
            for seat, sc in self.seats.items()
        }


@dataclass(frozen=True)
class Notice:
    """Something a tick (or a pacing command) asks the surface to show.

    - ``reminder``: ``text`` in the game's channel, pinging only ``user_id``, with a "Mute
      reminders this turn" button for (``game_id``, ``seat``, ``since``) when ``mute``;
    - ``flag``: ``text`` in the channel (nobody pinged); ``stalled`` and ``archived`` are
      flags that also go to the moderators (``mods``);
    - ``post``: ``result`` to publish in the game's session (``force``: even without public
      lines), e.g. a default answer played at the deadline, an AI stand-in, a seat back.

    ``timer``: the claimed firing, finished with ``outcome`` by :meth:`Pacing.delivered`."""

    kind: NoticeKind
    game_id: int
    channel_id: int
    text: str = ""
    user_id: int | None = None
    seat: int | None = None
    since: int | None = None
    mute: bool = False
    mods: bool = False
    result: Result | None = None
    force: bool = False
    timer: TimerKey | None = None
    outcome: str = ""


@dataclass
class Tick:
    """What one game's tick did (``done``: for logs and tests), the notices to deliver in
    order, and the game's schedule (None: the game was archived)."""

    game_id: int
    done: list[str] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    schedule: Schedule | None = None


@dataclass(frozen=True)
class PauseVote:
    """A pause or resume vote: ``done`` when it took effect (a majority, or at once), else
    ``votes`` of the ``need``-ed so far."""

    done: bool
    votes: int = 0
    need: int = 0


@dataclass(frozen=True)
class AwayOutcome:
    """What ``/away all`` did in one of the player's games: ``seat`` away until ``end``, or
    (``end`` None) back now; or ``refused`` saying why not (the game unchanged)."""

    game: GameSummary
    seat: int
    end: datetime | None = None
    refused: Msg | str | None = None


_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ t](\d{1,2}):(\d{2}))?")


def _name(seats: list[SeatSpec], seat: int, lang: str = "en") -> str:
    return seat_name(seats, seat, lang)


# ============================================================================ the pacing


class Pacing:
    """The pacing of every game of one :class:`~service.game.GameService` (see module doc).

    ``clock``: the time source (a fake one in tests); ``default_hours``: the time per
    decision of a game that set none (the surface's configuration)."""

    def __init__(self, svc: GameCore, clock: Clock | None = None) -> None:
        self.svc = svc
        self.clock: Clock = clock or SystemClock()
        self.default_hours: float = 24.0
        self.fired: list[TimerKey] = []  # every claim this process got: tests
        self._recovered = False
        self._retry: set[TimerKey] = set()
        self._languages: Languages | None = None

    @property
    def store(self) -> GameStore:
        return self.svc.store

    def now(self) -> datetime:
        return self.clock.now()

    @property
    def languages(self) -> Languages:
        """Who reads in which language: the game service's (one cache of the users'
        preferences), or one of its own for a bare :class:`~service.core.GameCore`."""
        found = getattr(self.svc, "languages", None)
        if isinstance(found, Languages):
            return found
        if self._languages is None:
            self._languages = Languages(self.svc)
        return self._languages

    # ------------------------------------------------------------------ settings

    async def settings(self, game_id: int, rec: GameRecord | None = None) -> PacingSettings:
        """The game's pacing: its stored settings over the defaults (the lobby's deadline);
        ``rec``: the game already loaded."""
        gp = await self.store.get_pacing(game_id)
        if rec is None:
            rec = await self.store.get_game(game_id)
        hours = float(self.default_hours)
        if rec.settings.turn_timer_seconds:
            hours = rec.settings.turn_timer_seconds / 3600
        base: dict[str, Any] = {"deadline_hours": hours}
        try:
            base.update(json.loads(gp.settings_json))
            return PacingSettings.model_validate(base)
        except (ValueError, ValidationError):
            log.warning("game %s: unreadable pacing settings, defaults used", game_id)
            return PacingSettings(deadline_hours=hours)

    async def save_settings(self, game_id: int, settings: PacingSettings) -> None:
        await self.store.set_pacing_settings(game_id, settings.model_dump_json())

    async def set_deadline(self, game_id: int, duration: str) -> timedelta:
        """The time per decision of the game (``3d``, ``12h``: 1 hour to 28 days)."""
        try:
            d = parse_duration(duration)
        except BadInput as e:
            raise Refused(e.msg) from e
        if not timedelta(hours=1) <= d <= timedelta(days=28):
            raise Refused(msg("svc.pace.deadline_range"))
        s = await self.settings(game_id)
        await self.save_settings(
            game_id, s.model_copy(update={"deadline_hours": d.total_seconds() / 3600})
        )
        return d

    async def set_policy(
        self,
        game_id: int,
        policy: Policy,
        level: str | None = None,
        *,
        stand_ins: bool | None = None,
    ) -> PacingSettings:
        """What happens when a player's time is up (``level``: the AI stand-in's;
        ``stand_ins``: whether the game allows AI stand-ins, None: unchanged, and the ``ai``
        policy allows them); the new settings."""
        if policy == "ai" and stand_ins is False:
            raise Refused(msg("svc.pace.ai_needs_stand_ins"))
        s = await self.settings(game_id)
        update: dict[str, Any] = {"policy": policy}
        if level is not None:
            update["stand_in_level"] = level
        if stand_ins is not None or policy == "ai":
            update["stand_ins"] = stand_ins is not False
        s = s.model_copy(update=update)
        await self.save_settings(game_id, s)
        return s

    # ------------------------------------------------------------------ players

    async def quiet_of(self, user_id: int | None) -> QuietHours | None:
        if user_id is None:
            return None
        p = await self.store.get_player_prefs(user_id)
        if not p.quiet_start or not p.quiet_end:
            return None
        hs, ms = (int(x) for x in p.quiet_start.split(":"))
        he, me = (int(x) for x in p.quiet_end.split(":"))
        return QuietHours(p.tz or "UTC", time(hs, ms), time(he, me))

    async def set_timezone(self, user_id: int, zone: str) -> PlayerPrefs:
        """The player's time zone (an IANA name; ``Refused`` with near names otherwise)."""
        if not valid_timezone(zone):
            near = timezones(zone.split("/")[-1], 5)
            if near:
                raise Refused(msg("svc.pace.unknown_zone", zone=zone, near=near))
            raise Refused(msg("svc.pace.unknown_zone.example", zone=zone))
        return await self.store.set_player_prefs(user_id, tz=zone)

    async def set_manual_end(self, user_id: int, manual: bool) -> PlayerPrefs:
        """Whether the player ends their turns themselves (``manual``), or lets a turn whose
        only step left is its end end by itself (the default)."""
        return await self.store.set_player_prefs(user_id, manual_end=manual)

    async def set_quiet_hours(self, user_id: int, hours: str) -> PlayerPrefs | None:
        """The player's quiet hours (``22:00-08:00``); ``off`` / ``none`` removes them
        (None returned)."""
        if hours.strip().lower() in ("off", "none"):
            await self.store.set_player_prefs(user_id, clear_quiet=True)
            return None
        try:
            qs, qe = parse_quiet_hours(hours)
        except BadInput as e:
            raise Refused(e.msg) from e
        if qs == qe:
            raise Refused(msg("svc.pace.quiet_same"))
        return await self.store.set_player_prefs(user_id, quiet=(f"{qs:%H:%M}", f"{qe:%H:%M}"))

    async def mute(self, game_id: int, seat: int, since: int, user_id: int) -> bool:
        """Mute the reminders of ``seat``'s decision begun at ``since`` (only its owner may:
        ``Refused`` otherwise); False when that decision is over."""
        seats = (await self.svc.peek(game_id)).seats
        spec = seats[seat] if seat < len(seats) else None
        if spec is None or spec.user_id != user_id:
            raise Refused(msg("svc.pace.not_your_reminders"))
        return await self.store.mute_decision(game_id, seat, since)

    # ------------------------------------------------------------------ away, pause

    @staticmethod
    def intervals(breaks: list[Break], seat: int | None) -> list[Interval]:
        return [(b.start, b.end) for b in breaks if b.seat == seat]

    async def away_length(self, text: str, user_id: int | None) -> timedelta:
        """How long ``/away`` asks for: a duration (``3d``, ``1d12h``) or a date
        (``2026-12-24``: until that day begins, ``2026-12-24 18:00``: until then, in the
        player's time zone, :meth:`set_timezone`, else UTC). ``Refused`` saying why not."""
        m = _DATE.fullmatch(text.strip().lower())
        if m is None:
            try:
                return parse_duration(text)
            except BadInput as e:
                raise Refused(e.msg) from e
        zone = "UTC"
        if user_id is not None:
            zone = (await self.store.get_player_prefs(user_id)).tz or "UTC"
        y, mo, d, h, mi = (int(g) if g else 0 for g in m.groups())
        try:
            until = datetime(y, mo, d, h, mi, tzinfo=ZoneInfo(zone))
        except ValueError as e:
            raise Refused(msg("svc.pace.not_a_date", text=text)) from e
        now = self.now()
        if until <= now:
            raise Refused(msg("svc.pace.date_past", text=text))
        return until - now

    async def away(
        self, game_id: int, seat: int, duration: str | timedelta, *, by_user: int
    ) -> datetime | None:
        """``seat`` goes away for ``duration`` (``3d``, a date — :meth:`away_length` —, or
        the length itself; within the game's limits per away and in total): its clock stops
        and nobody pings it until the returned end. ``end``, ``back`` or ``stop``: it is back
        now (None returned). ``Refused`` saying why not."""
        now = self.now()
        mine = [b for b in await self.store.breaks(game_id) if b.seat == seat]
        current = next((b for b in mine if in_interval(now, (b.start, b.end))), None)
        if isinstance(duration, str) and duration.strip().lower() in AWAY_END_WORDS:
            if current is None:
                raise Refused(msg("svc.pace.not_away"))
            await self.store.end_break(current.id, now)
            return None
        if current is not None:
            raise Refused(msg("svc.pace.already_away", until=ts(current.end or now, "f")))
        d = duration
        if isinstance(d, str):
            d = await self.away_length(d, by_user)
        s = await self.settings(game_id)
        most = timedelta(hours=s.away_max_hours)
        used = sum(((min(b.end or now, now) - b.start) for b in mine), timedelta())
        left = timedelta(hours=s.away_total_hours) - used
        if d > most:
            raise Refused(
                msg(
                    "svc.pace.away_too_long",
                    most=most.total_seconds(),
                    asked=d.total_seconds(),
                )
            )
        if d > left:
            raise Refused(
                msg(
                    "svc.pace.away_left",
                    left=max(left, timedelta()).total_seconds(),
                    total=s.away_total_hours * 3600,
                )
            )
        end = now + d
        await self.store.add_break(game_id, seat, now, end, by_user=by_user, reason="away")
        return end

    async def away_all(self, user_id: int, duration: str) -> list[AwayOutcome]:
        """``/away all``: :meth:`away` in every running game (setup or running, on every
        server) where ``user_id`` holds a seat, each with that game's own limits: one call
        per game, under the game's lock, its write its own transaction, so a game that
        refuses (its limits, already away…) changes nothing there and the others are still
        set. ``duration``: as :meth:`away` (``end``: back in every game where away). The
        text is read once (a date: one end for all). ``Refused`` only when it does not
        read; the outcomes otherwise, one per seat, in the order of the games (newest
        first)."""
        back = duration.strip().lower() in AWAY_END_WORDS
        length = None if back else await self.away_length(duration, user_id)
        games = await self.store.list_games(
            user_id=user_id, statuses=[GameStatus.SETUP, GameStatus.RUNNING], limit=None
        )
        out = []
        for g in games:
            for seat in g.seats_of(user_id):
                try:
                    async with self.svc.lock(g.id):
                        end = await self.away(
                            g.id, seat, duration if length is None else length, by_user=user_id
                        )
                except Refused as e:
                    out.append(AwayOutcome(g, seat, refused=e.reason))
                    continue
                except Exception:  # one game's failure leaves the others set
                    log.exception("game %s: /away all failed for seat %s", g.id, seat)
                    out.append(AwayOutcome(g, seat, refused=msg("svc.pace.away_failed")))
                    continue
                out.append(AwayOutcome(g, seat, end=end))
        return out

    async def _open_pause(self, game_id: int, at: datetime) -> Break | None:
        return next(
            (
                b
                for b in await self.store.breaks(game_id)
                if b.seat is None and in_interval(at, (b.start, b.end))
            ),
            None,
        )

    async def paused(self, game_id: int) -> bool:
        """Whether the whole game is paused now."""
        return await self._open_pause(game_id, self.now()) is not None

    async def vote_pause(
        self, game_id: int, user_id: int, pause: bool, *, at_once: bool = False
    ) -> PauseVote:
        """``user_id`` votes to pause (or resume) the game: it takes effect with a majority
        of the seated humans, or ``at_once`` (a moderator's call, the surface's notion)."""
        at = self.now()
        seats = (await self.svc.peek(game_id)).seats
        humans = {s.user_id for s in seats if s.user_id is not None}
        if not at_once:
            votes = set((await self.store.get_pacing(game_id)).pause_votes) | {user_id}
            votes &= humans
            if len(votes) * 2 <= len(humans):
                await self.store.set_pause_votes(game_id, sorted(votes))
                return PauseVote(False, len(votes), len(humans) // 2 + 1)
        open_pause = await self._open_pause(game_id, at)
        if pause and open_pause is not None:
            raise Refused(msg("svc.pace.already_paused"))
        if not pause and open_pause is None:
            raise Refused(msg("svc.pace.not_paused"))
        await self.store.set_pause_votes(game_id, [])
        if open_pause is None:
            await self.store.add_break(game_id, None, at, None, by_user=user_id, reason="pause")
        else:
            await self.store.end_break(open_pause.id, at)
        return PauseVote(True)

    # ------------------------------------------------------------------ stand-ins

    async def stand_in_seats(self, game_id: int, user_id: int) -> list[int]:
        """The seats of ``user_id`` an AI plays for them now."""
        return [s.seat for s in await self.store.stand_ins(game_id) if s.user_id == user_id]

    async def seat_back(self, game_id: int, seat: int) -> bool:
        """The owner takes back a seat an AI played (False: no stand-in there)."""
        ended = await self.store.end_stand_in(game_id, seat, self.now())
        if ended is None:
            return False
        async with self.svc.lock(game_id):
            await self.svc.set_stand_in(game_id, seat, None)
        return True

    async def seats_back(self, game_id: int, user_id: int, name: str) -> Notice | None:
        """``user_id`` (called ``name``) takes back every seat an AI played for them: the
        public post to publish (None: no stand-in of theirs)."""
        seats = await self.stand_in_seats(game_id, user_id)
        if not seats:
            return None
        for seat in seats:
            await self.seat_back(game_id, seat)
        rec = await self.store.get_game(game_id)
        res = Result(game_id=game_id, version=rec.version)
        res.posts.append(Post("public", tr(game_language_of(rec), "svc.notice.back", who=name)))
        return Notice("post", game_id, rec.channel_id, result=res, force=True)

    # ------------------------------------------------------------------ the clocks

    async def acted_since(self, game_id: int, seat: int, since_version: int) -> bool:
        """Whether ``seat`` saved a step after version ``since_version`` (it answered)."""
        entries = await self.store.get_log(game_id, from_version=since_version + 1)
        return any(e.seat == seat and e.action_json is not None for e in entries)

    async def deadlines(
        self, game_id: int, session: GameSession | None = None
    ) -> dict[int, datetime | None]:
        """Each deciding human seat's deadline as the clocks stand (None: the game is
        paused), read only: for spectators' pages. :meth:`refresh` brings the clocks up to
        date after a step."""
        if session is None:
            session = await self.svc.peek(game_id)
        if session.rec.status is not GameStatus.RUNNING or session.over:
            return {}
        seats = session.seats
        humans = {s for s in _deciders(session.state) if s < len(seats) and seats[s].ai is None}
        settings = await self.settings(game_id, session.rec)
        breaks = await self.store.breaks(game_id)
        pauses = self.intervals(breaks, None)
        return {
            c.seat: deadline(
                c.started, settings, away=self.intervals(breaks, c.seat), pauses=pauses
            )
            for c in await self.store.open_decisions(game_id)
            if c.seat in humans
        }

    async def refresh(self, game_id: int, session: GameSession | None = None) -> Schedule:
        """Bring the decision clocks up to date (the seats deciding now) and compute each
        one's deadline and reminders, and the status lines. ``session``: the game as the
        caller has it loaded (else it is loaded here)."""
        if session is None:
            session = await self.svc.peek(game_id)
        rec = session.rec
        now = self.now()
        if rec.status is not GameStatus.RUNNING:
            await self.store.sync_decisions(game_id, rec.version, [], now)
            return Schedule(game_id, running=False)
        st = session.state
        seats = session.seats
        humans = (
            [s for s in _deciders(st) if s < len(seats) and seats[s].ai is None]
            if not adapter_of(st).over(st)
            else []
        )
        # a seat that answered and is asked again (the next step of its turn, the next setup
        # choice) has a new decision: its clock, deadline and reminders start again
        again = [
            c.seat
            for c in await self.store.open_decisions(game_id)
            if c.seat in humans and await self.acted_since(game_id, c.seat, c.since_version)
        ]
        if again:
            kept = [s for s in humans if s not in again]
            await self.store.sync_decisions(game_id, rec.version, kept, now)
        clocks = await self.store.sync_decisions(game_id, rec.version, humans, now)
        settings = await self.settings(game_id, rec)
        breaks = await self.store.breaks(game_id)
        pauses = self.intervals(breaks, None)
        out = Schedule(game_id)
        for c in clocks:
            away = self.intervals(breaks, c.seat)
            uid = seats[c.seat].user_id if c.seat < len(seats) else None
            quiet = await self.quiet_of(uid)
            due = deadline(c.started, settings, away=away, pauses=pauses)
            sched = SeatSchedule(c.seat, c, due)
            sched.reminders = reminder_times(
                c.started, settings, quiet=quiet, away=away, pauses=pauses
            )
            out.seats[c.seat] = sched
        out.notes = await self.notes(game_id, seats, settings, breaks, game_language_of(rec))
        return out

    async def notes(
        self,
        game_id: int,
        seats: list[SeatSpec],
        settings: PacingSettings,
        breaks: list[Break],
        lang: str = "en",
    ) -> list[str]:
        """The status message's pacing lines (in ``lang``, the game's language): pause, who
        is away until when, stand-ins, the pace."""
        now = self.now()
        lines = []
        for b in breaks:
            if b.seat is None and in_interval(now, (b.start, b.end)):
                lines.append(tr(lang, "svc.notice.paused", since=ts(b.start, "R")))
        for b in breaks:
            if b.seat is not None and b.end is not None and in_interval(now, (b.start, b.end)):
                lines.append(
                    tr(
                        lang,
                        "svc.notice.away",
                        who=_name(seats, b.seat, lang),
                        until=ts(b.end, "f"),
                        relative=ts(b.end, "R"),
                    )
                )
        for s in await self.store.stand_ins(game_id):
            lines.append(
                tr(
                    lang,
                    "svc.notice.stand_in",
                    level=ai_level_word(lang, str(s.ai_level)),
                    who=_name(seats, s.seat, lang),
                )
            )
        hours = settings.deadline_hours
        lines.append(
            tr(
                lang,
                "svc.notice.pace",
                hours=int(hours) if hours.is_integer() else hours,
                policy=settings.policy_text(lang),
            )
        )
        return lines

    # ------------------------------------------------------------------ the tick

    async def tick_games(self) -> list[int]:
        """The games a tick goes through (the running ones). The first call of the process
        also takes up the deadline actions a crash left claimed and unfinished: the next
        :meth:`tick_game` of their game runs them again."""
        self._retry = set()
        if not self._recovered:
            self._recovered = True
            for t in await self.store.timers(unfinished=True):
                if t.kind == "deadline":
                    self._retry.add((t.game_id, t.version, t.seat, t.kind))
        games = await self.store.list_games(statuses=[GameStatus.RUNNING], limit=None)
        metrics.ACTIVE_GAMES.set(len(games))
        return [g.id for g in games]

    async def _claim(self, key: TimerKey) -> bool:
        got = await self.store.claim_timer(*key, self.now())
        if got:
            self.fired.append(key)
        return got

    async def _finish(self, key: TimerKey, outcome: str) -> None:
        await self.store.finish_timer(*key, self.now(), outcome)

    async def delivered(self, notice: Notice) -> None:
        """The surface showed ``notice``: its firing is done (see module doc)."""
        if notice.timer is not None:
            await self._finish(notice.timer, notice.outcome)

    async def tick_game(self, gid: int) -> Tick:
        """What is due now in game ``gid``, claimed in storage (see module doc). The
        caller holds the game's lock while it delivers the notices."""
        tick = Tick(gid)
        if any(k[0] == gid for k in self._retry):  # still unfinished: its tick died
            unfinished = await self.store.timers(gid, unfinished=True)
            left = {(t.game_id, t.version, t.seat, t.kind) for t in unfinished}
            self._retry = {k for k in self._retry if k[0] != gid or k in left}
        rec = await self.store.get_game(gid)
        now = self.now()
        settings = await self.settings(gid, rec)
        stale = settings.stale_days and now - rec.updated_at >= timedelta(days=settings.stale_days)
        key: TimerKey = (gid, rec.version, GAME, "stale")
        if stale and await self._claim(key):
            await self.archive(gid)
            days = settings.stale_days
            text = tr(
                game_language_of(rec),
                "svc.notice.archived",
                game=gid,
                days=int(days) if float(days).is_integer() else days,
            )
            tick.notices.append(
                Notice(
                    "archived", gid, rec.channel_id, text, mods=True, timer=key, outcome="archived"
                )
            )
            tick.done.append(f"game {gid} archived")
            return tick
        session = await self.svc.peek(gid)
        tick.schedule = schedule = await self.refresh(gid, session)
        breaks = await self.store.breaks(gid)
        if any(b.seat is None and in_interval(now, (b.start, b.end)) for b in breaks):
            return tick  # paused: no reminder, no deadline
        seats = session.seats
        for seat, sc in schedule.seats.items():
            spec = seats[seat] if seat < len(seats) else None
            uid = spec.user_id if spec is not None else None
            c = sc.clock
            acted = await self.acted_since(gid, seat, c.since_version)
            away = any(in_interval(now, iv) for iv in self.intervals(breaks, seat))
            quiet = await self.quiet_of(uid)
            may_ping = uid is not None and not c.muted and not acted and not away
            may_ping = may_ping and not in_quiet(now, quiet)
            due_now = [r for r in sc.reminders if r.at <= now]
            if sc.deadline is not None and sc.deadline <= now:
                key = (gid, c.since_version, seat, "deadline")
                if await self._claim(key) or key in self._retry:
                    self._retry.discard(key)
                    metrics.REMINDER_LATENESS.observe((now - sc.deadline).total_seconds())
                    outcome, notice = await self.on_deadline(gid, seat, c, settings, rec.channel_id)
                    if notice is None:
                        await self._finish(key, outcome)
                    else:
                        tick.notices.append(replace(notice, timer=key, outcome=outcome))
                    tick.done.append(f"game {gid} seat {seat}: deadline, {outcome}")
                    continue
                if settings.policy != "ai":
                    due_now += overdue_times(sc.deadline, settings, now)[-1:]
            if not due_now or not may_ping or uid is None:
                continue
            # only the newest due reminder is sent (after downtime the older ones are moot)
            for r in due_now[:-1]:
                key = (gid, c.since_version, seat, r.kind)
                if await self._claim(key):
                    await self._finish(key, "skipped")
            r = due_now[-1]
            key = (gid, c.since_version, seat, r.kind)
            if await self._claim(key):
                metrics.REMINDER_LATENESS.observe((now - r.at).total_seconds())
                kind, term = _kind(await self.svc.state(gid), seat)
                lang = await self.languages.user_language(uid, None, game=rec)
                what = what_text(kind, lang, term)
                text = reminder_text(r.kind, f"<@{uid}>", sc.deadline, what, lang)
                tick.notices.append(
                    Notice(
                        "reminder",
                        gid,
                        rec.channel_id,
                        text,
                        user_id=uid,
                        seat=seat,
                        since=c.since_version,
                        mute=True,
                        timer=key,
                        outcome="sent",
                    )
                )
                tick.done.append(f"game {gid} seat {seat}: {r.kind}")
        await self.check_stalled(tick, rec, settings, schedule, seats)
        return tick

    # ------------------------------------------------------------------ deadline policies

    async def on_deadline(
        self, gid: int, seat: int, c: DecisionClock, settings: PacingSettings, channel_id: int
    ) -> tuple[str, Notice | None]:
        """The game's policy at ``seat``'s deadline: the outcome, and what to show (in the
        game's language)."""
        session = await self.svc.peek(gid)
        seats = session.seats
        lang = game_language_of(session.rec)
        who = _name(seats, seat, lang)
        if settings.policy == "default":
            res = await self.play_default(gid, seat, c)
            if res is not None:
                return "default answer x1", Notice("post", gid, channel_id, result=res)
            st = await self.svc.state(gid)
            began = {d.seat: d.since_version for d in await self.store.open_decisions(gid)}
            if seat not in _deciders(st) or began.get(seat, c.since_version) != c.since_version:
                return "already answered", None  # (a retry after a crash: a new decision)
            kind, term = _kind(st, seat)
            if settings.ai_stands_in:  # no default answer: the AI stand-in, if allowed
                return await self.stand_in(gid, seat, settings, channel_id, no_default=kind)
            what = what_text(kind, lang, term)
            text = tr(lang, "svc.notice.time_up.no_default", who=who, what=what)
            return "flagged (no default)", Notice("flag", gid, channel_id, text)
        if settings.policy == "ai":
            return await self.stand_in(gid, seat, settings, channel_id)
        text = tr(lang, "svc.notice.time_up", who=who)
        return "flagged", Notice("flag", gid, channel_id, text)

    async def play_default(self, gid: int, seat: int, c: DecisionClock) -> Result | None:
        """Apply the engine's default answer for ``seat`` while it still decides in this
        decision (None: it does not, the engine offers none, or it failed); the result,
        announced ("Time is up", in the game's language), to publish."""
        async with self.svc.session(gid) as s:
            open_ = {d.seat: d for d in await self.store.open_decisions(gid)}
            if not s.decides(seat) or (
                seat in open_ and open_[seat].since_version != c.since_version
            ):
                return None
            action = s.A.default_answer(s.state, seat)
            if action is None:
                return None
            lang = game_language_of(s.rec)
            who = seat_label(s.state, s.seats, seat, lang)
            res = await s.choose(seat, action)
            if res.errors:
                return None
        res.posts.insert(0, Post("public", tr(lang, "svc.notice.default_answer", who=who)))
        return res

    async def stand_in(
        self,
        gid: int,
        seat: int,
        settings: PacingSettings,
        channel_id: int,
        *,
        no_default: str = "",
    ) -> tuple[str, Notice | None]:
        """Hand the seat to an AI until its owner's ``/seat back``; ``no_default``: the kind
        of decision (``turn``, a pending decision's kind) that had no default answer, said in
        the post (in the game's language)."""
        seats = (await self.svc.peek(gid)).seats
        if seat >= len(seats):
            return "no such seat", None
        spec = seats[seat]
        level = settings.stand_in_level
        await self.store.start_stand_in(gid, seat, spec.user_id, level, self.now())
        async with self.svc.lock(gid):
            await self.svc.set_stand_in(gid, seat, level)
            rec = await self.store.get_game(gid)
        res = Result(game_id=gid, version=rec.version)
        lang = game_language_of(rec)
        level_word = ai_level_word(lang, level)
        if no_default:
            what = what_text(no_default, lang)
            text = tr(
                lang,
                "svc.notice.stand_in_post.no_default",
                who=_name(seats, seat, lang),
                what=what,
                level=level_word,
            )
        else:
            text = tr(
                lang, "svc.notice.stand_in_post", who=_name(seats, seat, lang), level=level_word
            )
        res.posts.append(Post("public", text))
        return f"stand-in {level}", Notice("post", gid, channel_id, result=res, force=True)

    # ------------------------------------------------------------------ stalled, stale

    async def check_stalled(
        self,
        tick: Tick,
        rec: GameRecord,
        settings: PacingSettings,
        schedule: Schedule,
        seats: list[SeatSpec],
    ) -> None:
        """Flag the game once when ``stall_reminders`` reminders of its open decisions went
        unanswered (this tick's included)."""
        gid = rec.id
        open_ = {(sc.clock.since_version, seat) for seat, sc in schedule.seats.items()}
        sending = {n.timer for n in tick.notices if n.kind == "reminder"}
        sent = [
            t
            for t in await self.store.timers(gid)
            if (t.outcome == "sent" or (t.game_id, t.version, t.seat, t.kind) in sending)
            and re.match(r"remind|overdue", t.kind)
            and (t.version, t.seat) in open_
        ]
        if len(sent) < settings.stall_reminders:
            return
        key: TimerKey = (gid, rec.version, GAME, "stalled")
        if not await self._claim(key):
            return
        lang = game_language_of(rec)
        names = [seat_name(seats, s, lang) for s in sorted(schedule.seats) if s < len(seats)]
        text = tr(lang, "svc.notice.stalled", game=gid, n=len(sent), names=names)
        tick.notices.append(
            Notice("stalled", gid, rec.channel_id, text, mods=True, timer=key, outcome="flagged")
        )
        tick.done.append(f"game {gid}: stalled")

    async def archive(self, gid: int) -> None:
        """Archive a stale game: abandoned (the channel is free), its clocks closed."""
        await self.store.set_status(gid, GameStatus.ABANDONED)
        await self.store.sync_decisions(gid, 0, [], self.now())


__all__ = [
    "GAME",
    "AwayOutcome",
    "Notice",
    "Pacing",
    "PauseVote",
    "Schedule",
    "SeatSchedule",
    "Tick",
    "TimerKey",
]
