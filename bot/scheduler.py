"""The Discord side of the games' pace: it shows what :mod:`service.pace` decides.

Deadlines, reminders, decision clocks, the deadline policies, stalled and stale games and
firing once across restarts are the service's (:class:`service.pace.Pacing`, its module doc
says how). Here:

- :class:`Pacer` runs a tick through the service, one game at a time under the game's lock
  and its tick claim (:meth:`storage.base.GameStore.tick_claim`: with several processes on
  one PostgreSQL database, a game another process is ticking is skipped, never waited for),
  and sends what it returns (:class:`service.pace.Notice`): a reminder is a channel message
  that mentions only the decider (``allowed_mentions`` limited to that one user) with the
  "Mute reminders this turn" button (:class:`MuteReminders`), or goes as the player chose for
  their turn notices (:meth:`bot.notices.Notices.remind`: by direct message with the turn's
  link, both, or in the channel without a ping); after a game's notices the turn notices
  held back by quiet hours whose end came are sent (:meth:`bot.notices.Notices.tick`); a
  flag is a channel message that pings nobody, and a stalled or archived game is also said in the moderators' log
  channel (``mod_log_channel``, pinging ``moderator_role_id``); a game-visible result (a
  default answer, an AI stand-in, a seat back) is published like any other
  (:meth:`bot.tables.Tables.publish`). Each notice is reported delivered to the service
  after it is sent. :meth:`Pacer.refresh` (called by the publisher after every change) keeps
  ``tables.due`` (each deciding seat's deadline) and ``tables.status_notes`` (the status
  message's pacing lines) from the service's schedule.
- :class:`Scheduler` is the loop (:func:`discord.ext.tasks.loop`) the pacing extension
  (:mod:`bot.cogs.pacing`) starts when it loads: a tick every ``pacing_tick_seconds``,
  stopped cleanly when it unloads (``close()``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable, Coroutine, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import ui
from discord.ext import tasks

from bot.threads import ThreadDesk
from i18n import tr
from service.pace import Notice, Pacing, Schedule, SeatSchedule
from service.pacing import Clock
from service.results import Refused

if TYPE_CHECKING:
    from bot.tables import Tables
    from service.game import GameSession

log = logging.getLogger("bot.scheduler")


UNPOSTED_GRACE = 30.0
"""Seconds a saved step may stay unposted before the tick posts it (a post Discord refused;
with several processes, a step another process saved: it may still be posting it)."""


class Pacer:
    """The pacing of every game of one bot, on Discord (see module doc)."""

    def __init__(self, tables: Tables, clock: Clock | None = None) -> None:
        self.tables = tables
        self.last_tick: float | None = None  # time.monotonic() of the last tick's start
        self.pacing: Pacing = tables.svc.pacing
        self.pacing.default_hours = float(tables.settings.turn_deadline_hours)
        if clock is not None:
            self.pacing.clock = clock

    @property
    def clock(self) -> Clock:
        """The service's pacing clock (tests set a fake one)."""
        return self.pacing.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.pacing.clock = clock

    def now(self) -> datetime:
        return self.pacing.now()

    # ------------------------------------------------------------------ the schedule

    async def refresh(
        self, game_id: int, session: GameSession | None = None
    ) -> dict[int, SeatSchedule]:
        """Bring the decision clocks up to date (the seats deciding now) and compute each
        one's deadline; also fills ``tables.due`` and ``tables.status_notes``. ``session``:
        the game as the caller has it loaded (else it is loaded here)."""
        sched = await self.pacing.refresh(game_id, session)
        self.show(sched)
        return sched.seats

    def show(self, sched: Schedule) -> None:
        """Keep a running game's deadlines and status lines for the publisher."""
        if not sched.running:
            return
        gid = sched.game_id
        due = sched.deadlines()
        for seat, at in due.items():
            self.tables.due[(gid, seat)] = at
        for key in [k for k in self.tables.due if k[0] == gid and k[1] not in due]:
            del self.tables.due[key]
        self.tables.status_notes[gid] = sched.notes

    # ------------------------------------------------------------------ the tick

    async def tick(self) -> list[str]:
        """Fire everything due now; returns what was done (for logs and tests)."""
        self.last_tick = time.monotonic()  # the health check's "the scheduler runs"
        done: list[str] = []
        for gid in await self.pacing.tick_games():
            try:
                async with self.pacing.store.tick_claim(gid) as mine:
                    if not mine:
                        continue  # another process is ticking this game right now: skip it
                    async with self.tables.lock(gid):
                        t = await self.pacing.tick_game(gid)
                        if t.schedule is not None:
                            self.show(t.schedule)
                        await self.deliver(t.notices)
                        # turn notices held back by quiet hours whose end came (bot.notices)
                        t.done += await self.tables.publisher.notices.tick(gid)
                done += t.done
            except Exception:  # one broken game must not stop the others' reminders
                log.exception("pacing of game %s failed", gid)
        # a step saved but not shown (Discord refused its post, or another process saved it
        # and was stopped before posting) is caught up here by the game's own shard, without
        # waiting for a restart
        try:
            caught = await self.tables.recover(older_than=UNPOSTED_GRACE)
        except Exception:
            log.exception("catching up unposted steps failed")
        else:
            if caught:
                done.append(f"caught up {caught} unposted game(s)")
        return done

    async def deliver(self, notices: Sequence[Notice]) -> None:
        """Show each notice in order (see module doc), then tell the service it was."""
        for n in notices:
            if n.result is not None:
                async with self.tables.lock(n.game_id):
                    await self.tables.publish(n.result, force=n.force)
            elif n.mods:
                # the notice's text is the service's, in the game's language (a public flag)
                lang = await self.tables.game_lang(n.game_id)
                await self.flag_mods(n.channel_id, n.text, lang)
                if n.kind == "archived":  # a stale game: its own thread is archived too
                    rec = await self.tables.svc.places.record(n.game_id)
                    await ThreadDesk.of(self.tables).closed(rec)
            else:
                view: ui.View | None = None
                if n.mute and n.seat is not None and n.since is not None:
                    # the reminder's button in the language of the one it reminds
                    lang = await self.tables.lang_of(None, user_id=n.user_id)
                    view = ui.View(timeout=None)
                    view.add_item(MuteReminders(n.game_id, n.seat, n.since, lang=lang))
                # the reminder's text is the service's (Notice.text), in the language of the
                # one it pings (their choice, else the locale they were last seen with); it
                # goes the way they chose for their turn notices (bot.notices: a ping in the
                # channel, a direct message with the turn's link, both, or the channel
                # without a ping)
                await self.tables.publisher.notices.remind(n, view)
            await self.pacing.delivered(n)

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

    async def flag_mods(self, channel_id: int, text: str, lang: str = "en") -> None:
        """To the channel, and to the moderators' log channel (pinging their role)."""
        await self.send(channel_id, text)
        s = self.tables.settings
        log_channel = s.mod_log_channel
        role = s.moderator_role_id
        if log_channel:
            ping = f"<@&{role}> " if role else ""
            try:
                await self.send(
                    int(log_channel),
                    ping + tr(lang, "bot.pace.flag_in", text=text, channel=f"<#{channel_id}>"),
                    roles=[int(role)] if role else [],
                )
            except discord.HTTPException as e:
                log.warning("moderators' log channel not reachable: %s", e)


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

    def __init__(self, game_id: int, seat: int, since: int, *, lang: str = "en") -> None:
        super().__init__(
            ui.Button(
                label=tr(lang, "bot.button.mute"),
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
        lang = await tables.lang_of(interaction)
        try:
            muted = await tables.svc.pacing.mute(
                self.game_id, self.seat, self.since, interaction.user.id
            )
        except Refused as e:
            await tables.reply(interaction, e.text(lang))
            return
        key = "bot.pace.muted" if muted else "bot.pace.nothing_to_mute"
        await tables.reply(interaction, tr(lang, key))
