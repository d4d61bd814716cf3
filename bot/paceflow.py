"""A game's pace, shared by ``/game deadline`` and ``/game policy`` (:mod:`bot.cogs.game`, which
owns ``/game``) and the pacing commands (:mod:`bot.cogs.pacing`): who may change it, the
changes themselves, and the status message's refresh afterwards. The rules are in
:mod:`service.pacing`; the deadlines and reminders in :class:`bot.scheduler.Pacer`.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.checks import is_moderator
from service.pacing import POLICY_TEXT, format_duration, parse_duration

if TYPE_CHECKING:
    from bot.app import BrazilBot
    from bot.scheduler import Pacer
    from bot.tables import Tables

Policy = Literal["wait", "default", "ai"]
Level = Literal["random", "heuristic", "search"]

NOT_PACE_SETTER = "Only the game's creator or a moderator (Manage Channel) may change its pace."


async def creator(t: Tables, game_id: int) -> int | None:
    """The game's creator: the player who opened the lobby (seat 1)."""
    info = await t.svc.info(game_id)
    return info.seats[0].user_id if info.seats else None


async def update_status(t: Tables, game_id: int) -> None:
    """Recompute deadlines and edit the status message."""
    rec = await t.store.get_game(game_id)
    if t.pacer is not None:
        await t.pacer.refresh(game_id)
    st = await t.svc.state(game_id)
    info = await t.svc.info(game_id)
    await t.update_status(game_id, rec.channel_id, st, info.seats)


async def may_set(interaction: discord.Interaction[BrazilBot], gid: int) -> bool:
    """The game's creator or a moderator; says why not otherwise."""
    t = interaction.client.tables
    if is_moderator(interaction) or await creator(t, gid) == interaction.user.id:
        return True
    await t.reply(interaction, NOT_PACE_SETTER)
    return False


async def set_deadline(
    interaction: discord.Interaction[BrazilBot], gid: int, duration: str
) -> None:
    """``/game deadline``: the time per decision of game ``gid``."""
    t = interaction.client.tables
    if not await may_set(interaction, gid):
        return
    try:
        d = parse_duration(duration)
    except ValueError as e:
        await t.reply(interaction, str(e))
        return
    if not timedelta(hours=1) <= d <= timedelta(days=28):
        await t.reply(interaction, "A deadline is between 1 hour and 28 days.")
        return
    pacer: Pacer = t.pacer
    s = await pacer.settings(gid)
    await pacer.save_settings(
        gid, s.model_copy(update={"deadline_hours": d.total_seconds() / 3600})
    )
    await interaction.response.send_message(
        f"⏱️ {interaction.user.mention} set the time per decision to **{format_duration(d)}** "
        "(from each decision's start).",
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await update_status(t, gid)


async def set_policy(
    interaction: discord.Interaction[BrazilBot], gid: int, policy: Policy, level: Level | None
) -> None:
    """``/game policy``: what happens in game ``gid`` when a player's time is up."""
    t = interaction.client.tables
    if not await may_set(interaction, gid):
        return
    pacer: Pacer = t.pacer
    s = await pacer.settings(gid)
    update: dict[str, Any] = {"policy": policy}
    if level is not None:
        update["stand_in_level"] = level
    s = s.model_copy(update=update)
    await pacer.save_settings(gid, s)
    await interaction.response.send_message(
        f"On timeout this game will now: **{POLICY_TEXT[s.policy]}**"
        + (f" (AI level {s.stand_in_level})" if s.policy == "ai" else "")
        + ".",
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await update_status(t, gid)
