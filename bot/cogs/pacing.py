"""Pacing (an extension: :func:`setup`): ``/away``, ``/seat back``, ``/pause``, ``/resume``,
``/timezone``, ``/quiet-hours``; the "Mute reminders" button; the reminder loop
(:class:`bot.scheduler.Scheduler`, started and stopped with the cog). ``/game deadline`` and
``/game policy`` belong to ``/game`` (:mod:`bot.cogs.game`); what they share with this cog is
in :mod:`bot.paceflow`. Every refusal is private and says why; what changes the game's pace is
said in the channel and in the status message."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import game_of, in_game, is_moderator, my_seat, seat_of, seated
from bot.discord_views import NO_SEAT
from bot.paceflow import update_status
from bot.scheduler import MuteReminders, Pacer, Scheduler
from service import Post, Result
from service.pacing import (
    format_duration,
    in_interval,
    parse_duration,
    parse_quiet_hours,
    timezones,
    ts,
    valid_timezone,
)

if TYPE_CHECKING:
    from bot.app import BrazilBot
    from bot.tables import Tables


class PacingCog(commands.Cog):
    """Deadlines, away time, pauses, time zones and quiet hours."""

    seat = app_commands.Group(name="seat", description="Your seat in this channel's game")

    def __init__(self, bot: BrazilBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """The pacer (``bot.pacer``, also known to the tables), its button, its loop."""
        self.bot.pacer = Pacer(self.bot.tables)
        self.bot.tables.pacer = self.bot.pacer
        self.bot.add_dynamic_items(MuteReminders)
        self.scheduler = Scheduler(self.bot.pacer, self.bot.settings.pacing_tick_seconds)
        self.scheduler.start()

    async def cog_unload(self) -> None:
        """Stop the loop (a tick in progress is finished first) and the button."""
        await self.scheduler.stop()
        self.bot.remove_dynamic_items(MuteReminders)

    @property
    def t(self) -> Tables:
        return self.bot.tables

    @property
    def pacer(self) -> Pacer:
        p: Pacer = self.bot.tables.pacer
        return p

    # ------------------------------------------------------------------ away

    @app_commands.command(name="away", description="Stop your clock for a while (e.g. 3d)")
    @app_commands.describe(duration="how long you are away: 3d, 12h, 1d12h; `end` when back")
    @seated()
    async def away(self, interaction: discord.Interaction[BrazilBot], duration: str) -> None:
        t = self.t
        gid, seat = game_of(interaction), my_seat(interaction)
        now = self.pacer.now()
        mine = [b for b in await t.store.breaks(gid) if b.seat == seat]
        current = next((b for b in mine if in_interval(now, (b.start, b.end))), None)
        name = interaction.user.display_name
        if duration.strip().lower() in ("end", "back", "stop"):
            if current is None:
                await t.reply(interaction, "You are not away in this game.")
                return
            await t.store.end_break(current.id, now)
            await interaction.response.send_message(
                f"👋 {name} is back: their clock runs again.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await update_status(t, gid)
            return
        if current is not None:
            await t.reply(
                interaction,
                f"You are already away until {ts(current.end or now, 'f')}: "
                "`/away end` first, then set the new time.",
            )
            return
        try:
            d = parse_duration(duration)
        except ValueError as e:
            await t.reply(interaction, str(e))
            return
        s = await self.pacer.settings(gid)
        most = timedelta(hours=s.away_max_hours)
        used = sum(((min(b.end or now, now) - b.start) for b in mine), timedelta())
        left = timedelta(hours=s.away_total_hours) - used
        if d > most:
            await t.reply(
                interaction,
                f"This game allows at most {format_duration(most)} away at a time "
                f"(asked: {format_duration(d)}).",
            )
            return
        if d > left:
            await t.reply(
                interaction,
                f"You have {format_duration(max(left, timedelta()))} of away time left in "
                f"this game (of {format_duration(timedelta(hours=s.away_total_hours))}).",
            )
            return
        end = now + d
        await t.store.add_break(gid, seat, now, end, by_user=interaction.user.id, reason="away")
        await interaction.response.send_message(
            f"🏖️ {name} is away until {ts(end, 'f')} ({ts(end, 'R')}): their clock is stopped "
            "and nobody pings them until then.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await update_status(t, gid)

    # ------------------------------------------------------------------ seat back

    @seat.command(name="back", description="Take your seat back from the AI standing in")
    @in_game()
    async def seat_back(self, interaction: discord.Interaction[BrazilBot]) -> None:
        t = self.t
        gid = game_of(interaction)
        mine = [s for s in await t.store.stand_ins(gid) if s.user_id == interaction.user.id]
        if not mine:
            await t.reply(interaction, "No AI is playing a seat of yours in this game.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        for s in mine:
            await self.pacer.seat_back(gid, s.seat)
        rec = await t.store.get_game(gid)
        res = Result(game_id=gid, version=rec.version)
        res.posts.append(
            Post("public", f"👋 {interaction.user.display_name} is back and plays their seat.")
        )
        async with t.lock(gid):
            await t.publish(rec.channel_id, res, force=True)
        await interaction.followup.send("Your seat is yours again.", ephemeral=True)

    # ------------------------------------------------------------------ pause / resume

    async def _vote(
        self, interaction: discord.Interaction[BrazilBot], pause: bool, now_: bool
    ) -> None:
        t = self.t
        gid, seat = game_of(interaction), seat_of(interaction)
        at = self.pacer.now()
        open_pause = next(
            (
                b
                for b in await t.store.breaks(gid)
                if b.seat is None and in_interval(at, (b.start, b.end))
            ),
            None,
        )
        if pause and open_pause is not None:
            await t.reply(interaction, "The game is already paused: `/resume` to go on.")
            return
        if not pause and open_pause is None:
            await t.reply(interaction, "The game is not paused.")
            return
        mod = is_moderator(interaction)
        if seat is None and not mod:
            await t.reply(interaction, NO_SEAT)
            return
        if now_ and not mod:
            await t.reply(interaction, "Only a moderator (Manage Channel) may do that at once.")
            return
        info = await t.svc.info(gid)
        humans = {s.user_id for s in info.seats if s.user_id is not None}
        word = "pause" if pause else "resume"
        if not (now_ or (mod and seat is None)):
            votes = set((await t.store.get_pacing(gid)).pause_votes) | {interaction.user.id}
            votes &= humans
            if len(votes) * 2 <= len(humans):
                await t.store.set_pause_votes(gid, sorted(votes))
                need = len(humans) // 2 + 1
                await interaction.response.send_message(
                    f"🗳️ {interaction.user.display_name} votes to {word} the game "
                    f"({len(votes)}/{need} votes needed): `/{word}` to agree.",
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return
        await t.store.set_pause_votes(gid, [])
        if pause:
            await t.store.add_break(gid, None, at, None, by_user=interaction.user.id, reason=word)
            text = "⏸️ The game is paused: no clock runs, nobody is pinged. `/resume` to go on."
        else:
            assert open_pause is not None
            await t.store.end_break(open_pause.id, at)
            text = "▶️ The game goes on: the clocks run again."
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
        await update_status(t, gid)

    @app_commands.command(name="pause", description="Vote to pause the game (moderators: at once)")
    @app_commands.describe(now="moderators: pause at once, without a vote")
    @in_game()
    async def pause(self, interaction: discord.Interaction[BrazilBot], now: bool = False) -> None:
        await self._vote(interaction, True, now)

    @app_commands.command(name="resume", description="Vote to resume the paused game")
    @app_commands.describe(now="moderators: resume at once, without a vote")
    @in_game()
    async def resume(self, interaction: discord.Interaction[BrazilBot], now: bool = False) -> None:
        await self._vote(interaction, False, now)

    # ------------------------------------------------------------------ time zone, quiet hours

    @app_commands.command(name="timezone", description="Your time zone (for quiet hours)")
    @app_commands.describe(zone="an IANA zone, e.g. Europe/Lisbon, America/Sao_Paulo")
    async def timezone(self, interaction: discord.Interaction[BrazilBot], zone: str) -> None:
        if not valid_timezone(zone):
            near = ", ".join(timezones(zone.split("/")[-1], 5)) or "e.g. Europe/Lisbon"
            await self.t.reply(interaction, f"`{zone}` is not a time zone I know. Try: {near}.")
            return
        p = await self.t.store.set_player_prefs(interaction.user.id, tz=zone)
        quiet = f" Your quiet hours: {p.quiet_start}-{p.quiet_end}." if p.quiet_start else ""
        await self.t.reply(interaction, f"Your time zone is now {zone}.{quiet}")

    @timezone.autocomplete("zone")
    async def zone_autocomplete(
        self, interaction: discord.Interaction[BrazilBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in timezones(current)]

    @app_commands.command(name="quiet-hours", description="When nobody pings you: 22:00-08:00")
    @app_commands.describe(hours="local hours, e.g. 22:00-08:00; `off` to be pinged any time")
    async def quiet_hours(self, interaction: discord.Interaction[BrazilBot], hours: str) -> None:
        t = self.t
        if hours.strip().lower() in ("off", "none"):
            await t.store.set_player_prefs(interaction.user.id, clear_quiet=True)
            await t.reply(interaction, "No quiet hours: reminders may come at any time.")
            return
        try:
            qs, qe = parse_quiet_hours(hours)
        except ValueError as e:
            await t.reply(interaction, str(e))
            return
        if qs == qe:
            await t.reply(interaction, "The start and the end are the same: give a range.")
            return
        p = await t.store.set_player_prefs(
            interaction.user.id, quiet=(f"{qs:%H:%M}", f"{qe:%H:%M}")
        )
        tz = p.tz or "UTC"
        hint = "" if p.tz else " Set your time zone with `/timezone` (UTC until then)."
        await t.reply(
            interaction,
            f"Quiet hours {qs:%H:%M}-{qe:%H:%M} ({tz}): no reminder then.{hint}",
        )


async def setup(bot: BrazilBot) -> None:
    await bot.add_cog(PacingCog(bot))


__all__ = ["PacingCog", "setup"]
