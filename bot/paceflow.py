"""A game's pace, shared by ``/game deadline`` and ``/game policy`` (:mod:`bot.cogs.game`, which
owns ``/game``) and the pacing commands (:mod:`bot.cogs.pacing`): who may change it, the
changes themselves, and the status message's refresh afterwards. The pace is the service's
(:class:`service.pace.Pacing`, ``svc.pacing``); the deadlines shown in Discord are kept by
:class:`bot.scheduler.Pacer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord

from bot.checks import is_moderator
from i18n import exact_duration, tr
from service.results import Refused

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from bot.tables import Tables

Policy = Literal["wait", "default", "ai"]
Level = Literal["random", "heuristic", "search"]

NOT_PACE_SETTER = tr("en", "bot.pace.not_setter")
"""The English refusal (``bot.pace.not_setter``)."""


async def creator(t: Tables, game_id: int) -> int | None:
    """The game's creator: the player who opened the lobby (seat 1)."""
    seats = (await t.svc.peek(game_id)).seats
    return seats[0].user_id if seats else None


async def update_status(t: Tables, game_id: int) -> None:
    """Recompute deadlines and edit the status message (the game read once for both), under
    the game's lock: a status message Discord no longer lets the bot edit is posted anew, and
    a turn's publishing at the same moment must not post a second one."""
    async with t.lock(game_id):
        s = await t.svc.peek(game_id)
        if t.pacer is not None:
            await t.pacer.refresh(game_id, s)
        await t.publisher.update_status(s)


async def may_set(interaction: discord.Interaction[TurnpostBot], gid: int) -> bool:
    """The game's creator or a moderator; says why not otherwise."""
    t = interaction.client.tables
    if is_moderator(interaction) or await creator(t, gid) == interaction.user.id:
        return True
    await t.say(interaction, "bot.pace.not_setter")
    return False


async def set_deadline(
    interaction: discord.Interaction[TurnpostBot], gid: int, duration: str
) -> None:
    """``/game deadline``: the time per decision of game ``gid``."""
    t = interaction.client.tables
    if not await may_set(interaction, gid):
        return
    rec = await t.svc.places.record(gid)
    try:
        d = await t.svc.pacing.set_deadline(gid, duration)
    except Refused as e:
        await t.reply(interaction, e.text(await t.lang_of(interaction, rec)))
        return
    lang = await t.game_lang(rec)
    await interaction.response.send_message(
        tr(
            lang,
            "bot.pace.deadline_set",
            who=interaction.user.mention,
            time=exact_duration(lang, int(d.total_seconds())),
        ),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await update_status(t, gid)


async def set_policy(
    interaction: discord.Interaction[TurnpostBot], gid: int, policy: Policy, level: Level | None
) -> None:
    """``/game policy``: what happens in game ``gid`` when a player's time is up, said with
    the AI's level whenever one may stand in (``ai``; ``default`` where a decision has no
    default answer, e.g. a turn's first step, in a game that allows AI stand-ins)."""
    t = interaction.client.tables
    if not await may_set(interaction, gid):
        return
    s = await t.svc.pacing.set_policy(gid, policy, level)
    lang = await t.game_lang(gid)
    await interaction.response.send_message(
        tr(lang, "bot.pace.policy_set", policy=s.policy_text(lang)),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await update_status(t, gid)
