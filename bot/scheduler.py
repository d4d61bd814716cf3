"""Deadlines and reminders of the bot's games, fired from storage (never from memory timers).

:class:`Pacer` knows each running game's pacing: it keeps the *decision clocks* in storage
(when each human seat's current decision began: recorded by :meth:`Pacer.refresh` right
after every published change, and at every tick), computes deadlines and reminders with
:mod:`service.pacing`, and does what is due at each :meth:`Pacer.tick`:

- **Reminders** (50 % and 90 % of the running time by default, escalating texts, then under
  the ``wait`` policy one "overdue" reminder per deadline length): a channel message that
  mentions only the decider (``allowed_mentions`` limited to that one user) with a "Mute
  reminders this turn" button. Never in the player's quiet hours (held back until they end),
  never while they are away or the game is paused, never after they acted in this decision
  (checked against the log since the version the decision began at), never when muted.
- **The deadline**: the game's policy — ``wait`` (flag it in the channel once), ``default``
  (play the engine's own "no cards" / "pass" answer: :func:`service.pacing.default_answer`;
  where the engine offers none, flag as ``wait``), or ``ai`` (an AI stand-in plays the seat
  through the game service, like any AI seat, until the owner's ``/seat back``; recorded in
  storage and shown in the status message).
- **Stalled**: ``stall_reminders`` reminders unanswered in the game's open decisions: flagged
  once to the channel and to the moderators (``mod_log_channel``, pinging ``moderator_role_id``).
- **Stale**: no action for ``stale_days``: the game is archived automatically (status
  abandoned, which frees the channel; the game stays in history and can be exported), with
  a post saying so. Chosen over a manual ``/game archive`` so that dead games do not hold
  channels forever; ``stale_days = 0`` turns it off for a game.

**Once, across restarts.** Each firing is a row of storage's ``pacing_timers`` keyed
``(game, version the decision began at, seat, kind)``, claimed in its own committed
transaction *before* acting (:meth:`storage.pacing.PacingStore.claim_timer`):

- reminders and flags are **at most once**: if the bot dies between the claim and the send,
  that reminder is lost, never sent twice — a missing nudge costs little (the next reminder,
  the deadline and the status message still come), a duplicate ping breaks the promise
  that a ping means "you are needed now";
- the deadline's *game action* (default answers, AI stand-in) is **at least once**: a claim
  left unfinished by a crash is run again after the restart, which is safe because the
  action is idempotent — the answer is applied only while that seat still decides (the game
  version guards the save) and a stand-in is recorded once per seat.

:class:`Scheduler` is the loop (:func:`discord.ext.tasks.loop`) the pacing extension
(:mod:`bot.cogs.pacing`) starts when it loads: a tick every ``pacing_tick_seconds``, stopped
cleanly when it unloads (``close()``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import ui
from discord.ext import tasks
from pydantic import ValidationError

from rules import deciders, pending_for
from service import Result, SeatSpec
from service.pacing import (
    POLICY_TEXT,
    Clock,
    Interval,
    PacingSettings,
    QuietHours,
    SystemClock,
    deadline,
    default_answer,
    in_interval,
    in_quiet,
    overdue_times,
    reminder_text,
    reminder_times,
    ts,
)
from storage import GameStatus

if TYPE_CHECKING:
    from bot.tables import Tables
    from service.game import GameSession
    from storage import GameRecord
    from storage.pacing import Break, DecisionClock

log = logging.getLogger("bot.scheduler")

GAME = -1  # the seat number of whole-game timers (stalled, stale)


@dataclass
class SeatSchedule:
    """One deciding seat's pacing now."""

    seat: int
    clock: DecisionClock
    deadline: datetime | None  # None: the game is paused
    away_until: datetime | None = None
    reminders: list[Any] = field(default_factory=list)


def _what(kind: str) -> str:
    return "turn" if kind == "turn" else f"decision ({kind.replace('_', ' ')})"


class Pacer:
    """The pacing of every game of one bot (see module doc)."""

    def __init__(self, tables: Tables, clock: Clock | None = None) -> None:
        self.tables = tables
        self.clock: Clock = clock or SystemClock()
        self._recovered = False
        self.fired: list[tuple[int, int, int, str]] = []  # (game, version, seat, kind): tests

    @property
    def store(self) -> Any:
        return self.tables.store

    def now(self) -> datetime:
        return self.clock.now()

    # ------------------------------------------------------------------ reading

    async def settings(self, game_id: int, rec: GameRecord | None = None) -> PacingSettings:
        """The game's pacing: its stored settings over the defaults (the lobby's deadline);
        ``rec``: the game already loaded."""
        gp = await self.store.get_pacing(game_id)
        if rec is None:
            rec = await self.store.get_game(game_id)
        hours = float(self.tables.settings.turn_deadline_hours)
        if rec.settings.turn_timer_seconds:
            hours = rec.settings.turn_timer_seconds / 3600
        base: dict[str, Any] = {"deadline_hours": hours}
        try:
            import json

            base.update(json.loads(gp.settings_json))
            return PacingSettings.model_validate(base)
        except (ValueError, ValidationError):
            log.warning("game %s: unreadable pacing settings, defaults used", game_id)
            return PacingSettings(deadline_hours=hours)

    async def save_settings(self, game_id: int, settings: PacingSettings) -> None:
        await self.store.set_pacing_settings(game_id, settings.model_dump_json())

    async def quiet_of(self, user_id: int | None) -> QuietHours | None:
        if user_id is None:
            return None
        p = await self.store.get_player_prefs(user_id)
        if not p.quiet_start or not p.quiet_end:
            return None
        hs, ms = (int(x) for x in p.quiet_start.split(":"))
        he, me = (int(x) for x in p.quiet_end.split(":"))
        return QuietHours(p.tz or "UTC", time(hs, ms), time(he, me))

    @staticmethod
    def intervals(breaks: list[Break], seat: int | None) -> list[Interval]:
        return [(b.start, b.end) for b in breaks if b.seat == seat]

    async def seats(self, game_id: int) -> list[SeatSpec]:
        return list((await self.tables.svc.info(game_id)).seats)

    async def refresh(
        self, game_id: int, session: GameSession | None = None
    ) -> dict[int, SeatSchedule]:
        """Bring the decision clocks up to date (the seats deciding now) and compute each
        one's deadline; also fills ``tables.due`` and ``tables.status_notes``. ``session``:
        the game as the caller has it loaded (else it is loaded here)."""
        if session is None:
            session = await self.tables.svc.peek(game_id)
        rec = session.rec
        now = self.now()
        if rec.status is not GameStatus.RUNNING:
            await self.store.sync_decisions(game_id, rec.version, [], now)
            return {}
        st = session.state
        seats = session.seats
        humans = (
            [s for s in deciders(st) if s < len(seats) and seats[s].ai is None]
            if st.phase != "ended"
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
        out: dict[int, SeatSchedule] = {}
        for c in clocks:
            away = self.intervals(breaks, c.seat)
            uid = seats[c.seat].user_id if c.seat < len(seats) else None
            quiet = await self.quiet_of(uid)
            due = deadline(c.started, settings, away=away, pauses=pauses)
            sched = SeatSchedule(c.seat, c, due)
            sched.reminders = reminder_times(
                c.started, settings, quiet=quiet, away=away, pauses=pauses
            )
            out[c.seat] = sched
            self.tables.due[(game_id, c.seat)] = None if due is None else int(due.timestamp())
        for key in [k for k in self.tables.due if k[0] == game_id and k[1] not in out]:
            del self.tables.due[key]
        self.tables.status_notes[game_id] = await self.notes(game_id, seats, settings, breaks)
        return out

    async def notes(
        self,
        game_id: int,
        seats: list[SeatSpec],
        settings: PacingSettings,
        breaks: list[Break],
    ) -> list[str]:
        """The status message's pacing lines: pause, who is away until when, stand-ins."""
        now = self.now()
        lines = []
        for b in breaks:
            if b.seat is None and in_interval(now, (b.start, b.end)):
                lines.append(f"⏸️ The game is paused (since {ts(b.start, 'R')}): `/resume`.")
        for b in breaks:
            if b.seat is not None and b.end is not None and in_interval(now, (b.start, b.end)):
                who = seats[b.seat].name if b.seat < len(seats) else f"Seat {b.seat + 1}"
                lines.append(f"🏖️ {who} is away until {ts(b.end, 'f')} ({ts(b.end, 'R')}).")
        for s in await self.store.stand_ins(game_id):
            who = seats[s.seat].name if s.seat < len(seats) else f"Seat {s.seat + 1}"
            lines.append(f"🤖 An AI ({s.ai_level}) plays for {who} until `/seat back`.")
        lines.append(
            f"Pace: {settings.deadline_hours:g} h per decision; on timeout: "
            f"{POLICY_TEXT[settings.policy]}."
        )
        return lines

    # ------------------------------------------------------------------ the tick

    async def tick(self) -> list[str]:
        """Fire everything due now; returns what was done (for logs and tests)."""
        done: list[str] = []
        retry: set[tuple[int, int, int, str]] = set()
        if not self._recovered:  # deadline actions claimed but not finished before a crash
            self._recovered = True
            for t in await self.store.timers(unfinished=True):
                if t.kind == "deadline":
                    retry.add((t.game_id, t.version, t.seat, t.kind))
        games = await self.store.list_games(statuses=[GameStatus.RUNNING], limit=None)
        for g in games:
            try:
                done += await self.tick_game(g.id, retry)
            except Exception:  # one broken game must not stop the others' reminders
                log.exception("pacing of game %s failed", g.id)
        return done

    async def _claim(self, gid: int, version: int, seat: int, kind: str) -> bool:
        got: bool = await self.store.claim_timer(gid, version, seat, kind, self.now())
        if got:
            self.fired.append((gid, version, seat, kind))
        return got

    async def _finish(self, gid: int, version: int, seat: int, kind: str, outcome: str) -> None:
        await self.store.finish_timer(gid, version, seat, kind, self.now(), outcome)

    async def tick_game(self, gid: int, retry: set[tuple[int, int, int, str]]) -> list[str]:
        done: list[str] = []
        rec = await self.store.get_game(gid)
        now = self.now()
        settings = await self.settings(gid)
        stale = settings.stale_days and now - rec.updated_at >= timedelta(days=settings.stale_days)
        if stale and await self._claim(gid, rec.version, GAME, "stale"):
            await self.archive(gid, rec.channel_id, settings)
            await self._finish(gid, rec.version, GAME, "stale", "archived")
            return [f"game {gid} archived"]
        schedule = await self.refresh(gid)
        breaks = await self.store.breaks(gid)
        if any(b.seat is None and in_interval(now, (b.start, b.end)) for b in breaks):
            return done  # paused: no reminder, no deadline
        seats = await self.seats(gid)
        for seat, sc in schedule.items():
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
                if await self._claim(*key) or key in retry:
                    outcome = await self.on_deadline(gid, seat, c, settings, rec.channel_id)
                    await self._finish(*key, outcome)
                    done.append(f"game {gid} seat {seat}: deadline, {outcome}")
                    continue
                if settings.policy != "ai":
                    due_now += overdue_times(sc.deadline, settings, now)[-1:]
            if not due_now or not may_ping or uid is None:
                continue
            # only the newest due reminder is sent (after downtime the older ones are moot)
            for r in due_now[:-1]:
                if await self._claim(gid, c.since_version, seat, r.kind):
                    await self._finish(gid, c.since_version, seat, r.kind, "skipped")
            r = due_now[-1]
            if await self._claim(gid, c.since_version, seat, r.kind):
                st = await self.tables.svc.state(gid)
                pend = pending_for(st, seat)
                what = _what(pend.kind if pend is not None else "turn")
                await self.send_reminder(
                    rec.channel_id, gid, seat, c.since_version, uid, r.kind, sc.deadline, what
                )
                await self._finish(gid, c.since_version, seat, r.kind, "sent")
                done.append(f"game {gid} seat {seat}: {r.kind}")
        done += await self.check_stalled(gid, rec.version, rec.channel_id, settings, schedule)
        return done

    async def acted_since(self, gid: int, seat: int, since_version: int) -> bool:
        """Whether ``seat`` saved a step after version ``since_version`` (it answered)."""
        entries = await self.store.get_log(gid, from_version=since_version + 1)
        return any(e.seat == seat and e.action_json is not None for e in entries)

    # ------------------------------------------------------------------ sending

    async def send(
        self,
        channel_id: int,
        text: str,
        *,
        users: Sequence[int] = (),
        roles: Sequence[int] = (),
        view: ui.View | None = None,
    ) -> None:
        """A channel message that may mention exactly ``users`` and ``roles``."""
        mentions = discord.AllowedMentions(
            everyone=False,
            users=[discord.Object(u) for u in users] if users else False,
            roles=[discord.Object(r) for r in roles] if roles else False,
            replied_user=False,
        )
        channel = self.tables.client.get_partial_messageable(channel_id)
        kw: dict[str, Any] = {"allowed_mentions": mentions}
        if view is not None:
            kw["view"] = view
        await channel.send(text[:1990], **kw)

    async def send_reminder(
        self,
        channel_id: int,
        gid: int,
        seat: int,
        since: int,
        uid: int,
        kind: str,
        due: datetime | None,
        what: str,
    ) -> None:
        view = ui.View(timeout=None)
        view.add_item(MuteReminders(gid, seat, since))
        await self.send(
            channel_id, reminder_text(kind, f"<@{uid}>", due, what), users=[uid], view=view
        )

    async def flag_mods(self, channel_id: int, text: str) -> None:
        """To the channel, and to the moderators' log channel (pinging their role)."""
        await self.send(channel_id, text)
        s = self.tables.settings
        log_channel = getattr(s, "mod_log_channel", None)
        role = s.moderator_role_id
        if log_channel:
            ping = f"<@&{role}> " if role else ""
            try:
                await self.send(
                    int(log_channel),
                    f"{ping}{text} (in <#{channel_id}>)",
                    roles=[int(role)] if role else [],
                )
            except discord.HTTPException as e:
                log.warning("moderators' log channel not reachable: %s", e)

    # ------------------------------------------------------------------ deadline policies

    async def on_deadline(
        self, gid: int, seat: int, c: DecisionClock, settings: PacingSettings, channel_id: int
    ) -> str:
        seats = await self.seats(gid)
        who = seats[seat].name if seat < len(seats) else f"Seat {seat + 1}"
        if settings.policy == "default":
            n = await self.play_defaults(gid, seat, c)
            if n:
                return f"default answer x{n}"
            st = await self.tables.svc.state(gid)
            if seat not in deciders(st):
                return "already answered"
            pend = pending_for(st, seat)
            kind = pend.kind.replace("_", " ") if pend is not None else "the turn's action"
            await self.send(
                channel_id,
                f"⌛ {who}'s time is up, and {kind} has no default "
                "answer: the game waits for them (moderators may replace the seat).",
            )
            return "flagged (no default)"
        if settings.policy == "ai":
            return await self.stand_in(gid, seat, settings, channel_id)
        await self.send(
            channel_id,
            f"⌛ {who}'s time is up: the game waits for them (moderators may replace the seat).",
        )
        return "flagged"

    async def play_defaults(self, gid: int, seat: int, c: DecisionClock) -> int:
        """Apply the engine's default answers for ``seat`` while it still decides in this
        decision (at most a few steps: "pass", then "end turn"). Returns how many."""
        t = self.tables
        n = 0
        for _ in range(5):
            async with t.lock(gid):
                open_ = {d.seat: d for d in await self.store.open_decisions(gid)}
                st = await t.svc.state(gid)
                if seat not in deciders(st) or (
                    seat in open_ and open_[seat].since_version != c.since_version
                ):
                    break
                action = default_answer(st, seat)
                if action is None:
                    break
                res = await t.svc.choose(gid, seat, action)
                if res.errors:
                    break
                n += 1
                rec = await self.store.get_game(gid)
                who = t.svc.who(st, await self.seats(gid), seat)
                res.posts.insert(0, res_post(f"⌛ Time is up: the default answer for {who}."))
                await t.publish(rec.channel_id, res)
        return n

    async def stand_in(self, gid: int, seat: int, settings: PacingSettings, channel_id: int) -> str:
        """Hand the seat to an AI until its owner's ``/seat back``."""
        seats = await self.seats(gid)
        if seat >= len(seats):
            return "no such seat"
        spec = seats[seat]
        level = settings.stand_in_level
        await self.store.start_stand_in(gid, seat, spec.user_id, level, self.now())
        t = self.tables
        async with t.lock(gid):
            await self.set_seat_ai(gid, seat, level)
            rec = await self.store.get_game(gid)
            res = Result(game_id=gid, version=rec.version)
            res.posts.append(
                res_post(
                    f"⌛ {spec.name}'s time is up: an AI ({level}) plays for them until they "
                    "return with `/seat back`."
                )
            )
            await t.publish(channel_id, res, force=True)
        return f"stand-in {level}"

    async def set_seat_ai(self, gid: int, seat: int, level: str | None) -> None:
        """Set (or clear, None) the AI level of ``seat`` in the game's seats, keeping who
        owns it (the service plays seats whose spec names an AI level)."""
        await self.tables.svc.set_stand_in(gid, seat, level)

    async def seat_back(self, gid: int, seat: int) -> bool:
        """The owner takes back a seat an AI played (False: no stand-in there)."""
        ended = await self.store.end_stand_in(gid, seat, self.now())
        if ended is None:
            return False
        async with self.tables.lock(gid):
            await self.set_seat_ai(gid, seat, None)
        return True

    # ------------------------------------------------------------------ stalled, stale

    async def check_stalled(
        self,
        gid: int,
        version: int,
        channel_id: int,
        settings: PacingSettings,
        schedule: dict[int, SeatSchedule],
    ) -> list[str]:
        open_ = {(sc.clock.since_version, seat) for seat, sc in schedule.items()}
        sent = [
            t
            for t in await self.store.timers(gid)
            if t.outcome == "sent"
            and re.match(r"remind|overdue", t.kind)
            and (t.version, t.seat) in open_
        ]
        if len(sent) < settings.stall_reminders:
            return []
        if not await self._claim(gid, version, GAME, "stalled"):
            return []
        seats = await self.seats(gid)
        names = ", ".join(seats[s].name for s in sorted(schedule) if s < len(seats))
        await self.flag_mods(
            channel_id,
            f"🚩 Game #{gid} looks stalled: {len(sent)} reminders unanswered (waiting for "
            f"{names or 'nobody'}). Moderators can replace a seat or pause the game.",
        )
        await self._finish(gid, version, GAME, "stalled", "flagged")
        return [f"game {gid}: stalled"]

    async def archive(self, gid: int, channel_id: int, settings: PacingSettings) -> None:
        await self.store.set_status(gid, GameStatus.ABANDONED)
        await self.store.sync_decisions(gid, 0, [], self.now())
        await self.flag_mods(
            channel_id,
            f"🗄️ Game #{gid} was archived: no move for {settings.stale_days:g} days. It stays "
            "in the history (moderators can export it); the channel is free for a new game.",
        )


def res_post(text: str) -> Any:
    from service import Post

    return Post("public", text)


# ============================================================================ the loop


class Scheduler:
    """Ticks the pacer every ``interval`` seconds (a :func:`discord.ext.tasks.loop`) until
    stopped; ``interval <= 0``: never (the tests tick by hand). A failed tick is logged and
    the loop goes on."""

    def __init__(self, pacer: Pacer, interval: float) -> None:
        self.pacer = pacer
        self.interval = interval
        self._ticking = False
        self.loop: tasks.Loop[Callable[[], Coroutine[Any, Any, None]]] = tasks.loop(
            seconds=max(interval, 0.0), name="pacing"
        )(self._tick)

    def start(self) -> None:
        if self.interval > 0 and not self.loop.is_running():
            self.loop.start()

    async def _tick(self) -> None:
        self._ticking = True
        try:
            await self.pacer.tick()
        except Exception:  # the next tick tries again (all firings are claimed in storage)
            log.exception("pacing tick failed")
        finally:
            self._ticking = False

    async def stop(self) -> None:
        """Stop the loop; a tick in progress is finished first, never cut in the middle."""
        task = self.loop.get_task()
        if task is None or task.done():
            return
        if self._ticking:
            self.loop.stop()  # after this tick
        else:
            self.loop.cancel()  # waiting for the next tick: stop waiting
        with contextlib.suppress(asyncio.CancelledError):
            await task


# ============================================================================ the button


class MuteReminders(
    ui.DynamicItem[ui.Button[Any]], template=r"brz:r:(?P<g>\d+):(?P<s>\d+):(?P<v>\d+)"
):
    """ "Mute reminders this turn": game, seat and the version the decision began at (all
    public); only that seat's owner may press it."""

    def __init__(self, game_id: int, seat: int, since: int) -> None:
        super().__init__(
            ui.Button(
                label="Mute reminders this turn",
                style=discord.ButtonStyle.secondary,
                custom_id=f"brz:r:{game_id}:{seat}:{since}",
            )
        )
        self.game_id, self.seat, self.since = game_id, seat, since

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> MuteReminders:
        return cls(int(match["g"]), int(match["s"]), int(match["v"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        tables: Tables = interaction.client.tables
        info = await tables.svc.info(self.game_id)
        spec = info.seats[self.seat] if self.seat < len(info.seats) else None
        if spec is None or spec.user_id != interaction.user.id:
            await tables.reply(interaction, "These reminders are for another player.")
            return
        if await tables.store.mute_decision(self.game_id, self.seat, self.since):
            await tables.reply(interaction, "Reminders muted until your next decision.")
        else:
            await tables.reply(interaction, "That decision is over: nothing to mute.")
