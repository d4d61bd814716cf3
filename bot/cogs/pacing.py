"""Pacing (an extension: :func:`setup`): ``/away`` (``all: True``: in every running game of
the player, on every server, from a DM too), ``/seat back``, ``/pause``, ``/resume``,
``/timezone``, ``/quiet-hours``; the "Mute reminders" button; the reminder loop
(:class:`bot.scheduler.Scheduler`, started and stopped with the cog). ``/game deadline`` and
``/game policy`` belong to ``/game`` (:mod:`bot.cogs.game`); what they share with this cog is
in :mod:`bot.paceflow`. Every refusal is private and says why; what changes the game's pace is
said in the channel and in the status message."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import in_game, is_moderator, seat_of, session_of
from bot.cogs.game import fit_lines, server_name
from bot.discord_views import NO_SEAT_KEY
from bot.paceflow import update_status
from bot.scheduler import MuteReminders, Pacer, Scheduler
from bot.translator import choices, named, options
from i18n import tr
from service.games import title_key
from service.pace import AWAY_END_WORDS
from service.pacing import timezones, ts
from service.results import Refused

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from bot.tables import Tables

log = logging.getLogger("bot.pacing")


class PacingCog(commands.Cog):
    """Deadlines, away time, pauses, time zones and quiet hours."""

    seat = app_commands.Group(**named("seat"))

    def __init__(self, bot: TurnpostBot) -> None:
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

    @app_commands.command(**named("away"))
    @options("away", "duration", "all")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def away(
        self, interaction: discord.Interaction[TurnpostBot], duration: str, all: bool = False
    ) -> None:
        """``/away 3d`` in a game's channel (a duration or a date; ``end`` when back);
        ``all: True`` anywhere, a DM too: in every running game of the player (:meth:`away_all`)."""
        if all:
            await self.away_all(interaction, duration)
            return
        t = self.t
        s = await t.seated_session(interaction) if interaction.guild_id is not None else None
        if s is None:
            if interaction.guild_id is None:  # a DM: no game here
                await t.say(interaction, "bot.mygames.away.not_here")
            return  # seated_session said why
        gid, seat = s.game_id, s.seat_of(interaction.user.id)
        assert seat is not None  # seated_session made sure
        try:
            end = await t.svc.pacing.away(gid, seat, duration, by_user=interaction.user.id)
        except Refused as e:
            await t.reply(interaction, e.text(await t.lang_of(interaction, s)))
            return
        name = interaction.user.display_name
        lang = await t.game_lang(s)
        if end is None:
            text = tr(lang, "bot.pace.back", name=name)
        else:
            text = tr(lang, "bot.pace.away", name=name, at=ts(end, "f"), rel=ts(end, "R"))
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
        await update_status(t, gid)

    async def away_all(self, interaction: discord.Interaction[TurnpostBot], duration: str) -> None:
        """``/away all``: away (or back, ``end``) in every running game of the player on every
        server, each game with its own limits (:meth:`service.pace.Pacing.away_all`: one call
        per game); each game's channel is told as for ``/away`` and its status message
        edited; the player gets one private answer listing what was done per game."""
        t = self.t
        lang = await t.lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # several games
        try:
            done = await t.svc.pacing.away_all(interaction.user.id, duration)
        except Refused as e:
            await t.reply(interaction, e.text(lang))
            return
        if not done:
            await t.reply(interaction, tr(lang, "bot.mygames.away.none"))
            return
        back = duration.strip().lower() in AWAY_END_WORDS
        lines = [tr(lang, "bot.mygames.back.head" if back else "bot.mygames.away.head")]
        name = interaction.user.display_name
        for o in done:
            g = o.game
            what = {
                "title": tr(lang, title_key(g.game)),
                "game": g.id,
                "server": server_name(interaction.client, g.guild_id, lang),
            }
            if o.refused is not None:
                why = Refused(o.refused).text(lang)
                lines.append(tr(lang, "bot.mygames.away.refused", **what, why=why))
                continue
            if o.end is None:
                lines.append(tr(lang, "bot.mygames.away.back", **what))
            else:
                lines.append(tr(lang, "bot.mygames.away.set", **what, at=ts(o.end, "f")))
            await self.tell_channel(g.id, g.channel_id, name, o.end)
        await t.reply(interaction, fit_lines(lines, lang))

    async def tell_channel(
        self, game_id: int, channel_id: int, name: str, end: datetime | None
    ) -> None:
        """Say in the game's channel that ``name`` is away until ``end`` (None: back), as
        ``/away`` does there, and edit the game's status message."""
        t = self.t
        lang = await t.game_lang(game_id)
        if end is None:
            text = tr(lang, "bot.pace.back", name=name)
        else:
            text = tr(lang, "bot.pace.away", name=name, at=ts(end, "f"), rel=ts(end, "R"))
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as e:  # the channel is gone: the rest goes on
            log.warning("game %s: the away notice was not posted: %s", game_id, e)
        await update_status(t, game_id)

    # ------------------------------------------------------------------ seat back

    @seat.command(**named("seat.back"))
    @in_game()
    async def seat_back(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        t = self.t
        s = session_of(interaction)
        gid = s.game_id
        lang = await t.lang_of(interaction, s)
        if not await t.svc.pacing.stand_in_seats(gid, interaction.user.id):
            await t.reply(interaction, tr(lang, "bot.pace.no_stand_in"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        notice = await t.svc.pacing.seats_back(
            gid, interaction.user.id, interaction.user.display_name
        )
        if notice is not None:
            await self.pacer.deliver([notice])
        await interaction.followup.send(tr(lang, "bot.pace.seat_back"), ephemeral=True)

    # ------------------------------------------------------------------ pause / resume

    async def _vote(
        self, interaction: discord.Interaction[TurnpostBot], pause: bool, now_: bool
    ) -> None:
        t = self.t
        s = session_of(interaction)
        gid, seat = s.game_id, seat_of(interaction)
        lang = await t.lang_of(interaction, s)
        paused = await t.svc.pacing.paused(gid)
        if pause and paused:
            await t.reply(interaction, tr(lang, "bot.pace.already_paused"))
            return
        if not pause and not paused:
            await t.reply(interaction, tr(lang, "bot.pace.not_paused"))
            return
        mod = is_moderator(interaction)
        if seat is None and not mod:
            await t.reply(interaction, tr(lang, NO_SEAT_KEY))
            return
        if now_ and not mod:
            await t.reply(interaction, tr(lang, "bot.pace.mod_at_once"))
            return
        try:
            vote = await t.svc.pacing.vote_pause(
                gid, interaction.user.id, pause, at_once=now_ or (mod and seat is None)
            )
        except Refused as e:
            await t.reply(interaction, e.text(lang))
            return
        public = await t.game_lang(s)
        if not vote.done:
            await interaction.response.send_message(
                tr(
                    public,
                    "bot.pace.vote_pause" if pause else "bot.pace.vote_resume",
                    name=interaction.user.display_name,
                    votes=vote.votes,
                    need=vote.need,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        text = tr(public, "bot.pace.paused" if pause else "bot.pace.resumed")
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
        await update_status(t, gid)

    @app_commands.command(**named("pause"))
    @options("pause", "now")
    @in_game()
    async def pause(self, interaction: discord.Interaction[TurnpostBot], now: bool = False) -> None:
        await self._vote(interaction, True, now)

    @app_commands.command(**named("resume"))
    @options("resume", "now")
    @in_game()
    async def resume(
        self, interaction: discord.Interaction[TurnpostBot], now: bool = False
    ) -> None:
        await self._vote(interaction, False, now)

    # ------------------------------------------------------------------ time zone, quiet hours

    @app_commands.command(**named("timezone"))
    @options("timezone", "zone")
    async def timezone(self, interaction: discord.Interaction[TurnpostBot], zone: str) -> None:
        lang = await self.t.lang_of(interaction)
        try:
            p = await self.t.svc.pacing.set_timezone(interaction.user.id, zone)
        except Refused as e:
            await self.t.reply(interaction, e.text(lang))
            return
        text = tr(lang, "bot.pace.timezone", zone=zone)
        if p.quiet_start:
            hours = f"{p.quiet_start}-{p.quiet_end}"
            text += " " + tr(lang, "bot.pace.your_quiet_hours", hours=hours)
        await self.t.reply(interaction, text)

    @timezone.autocomplete("zone")
    async def zone_autocomplete(
        self, interaction: discord.Interaction[TurnpostBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in timezones(current)]

    @app_commands.command(**named("quiet_hours"))
    @options("quiet_hours", "hours")
    async def quiet_hours(self, interaction: discord.Interaction[TurnpostBot], hours: str) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        try:
            p = await t.svc.pacing.set_quiet_hours(interaction.user.id, hours)
        except Refused as e:
            await t.reply(interaction, e.text(lang))
            return
        if p is None:
            await t.reply(interaction, tr(lang, "bot.pace.no_quiet_hours"))
            return
        tz = p.tz or "UTC"
        text = tr(lang, "bot.pace.quiet_hours", hours=f"{p.quiet_start}-{p.quiet_end}", zone=tz)
        if not p.tz:
            text += " " + tr(lang, "bot.pace.set_timezone")
        await t.reply(interaction, text)

    # ------------------------------------------------------------------ ending turns

    @app_commands.command(**named("end_turn"))
    @options("end_turn", "mode")
    @app_commands.choices(mode=choices("end", "auto", "manual"))
    async def end_turn(self, interaction: discord.Interaction[TurnpostBot], mode: str) -> None:
        """A player's choice for all their games: a turn with only its end left ends by itself
        (the default), or waits for them to end it."""
        lang = await self.t.lang_of(interaction)
        manual = mode == "manual"
        await self.t.svc.pacing.set_manual_end(interaction.user.id, manual)
        await self.t.reply(
            interaction, tr(lang, "bot.pace.end_manual" if manual else "bot.pace.end_auto")
        )


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(PacingCog(bot))


__all__ = ["PacingCog", "setup"]
