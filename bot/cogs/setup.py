"""Setting the bot up (an extension: :func:`setup`): ``/setup check`` — what the bot may and
may not do in this channel, each missing permission by the name Discord's client gives it in
the user's language, what the bot does without it and where to grant it — and the
interactions' figures for operators (every interaction is measured by :func:`bot.ops.watch`;
every slash command's refusals are noted by :func:`bot.ops.observe_commands`).

The permissions are :mod:`bot.permissions`'s (the same as the invite URL's); what the bot has
is what Discord resolved for the interaction (:attr:`discord.Interaction.app_permissions`: the
channel's overwrites and the bot's roles applied; in a thread, the thread's). Anyone may run
it; the answer is private.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import ops
from bot.permissions import missing, needed_in, where_of
from bot.translator import named
from i18n import tr

if TYPE_CHECKING:
    from bot.app import TurnpostBot


def check_text(
    lang: str, have: discord.Permissions, channel_id: int | None, channel_type: object
) -> str:
    """The answer of ``/setup check`` in ``lang`` for a channel where the bot has ``have``."""
    if channel_id is None:
        return tr(lang, "setup.check.no_channel")
    where = where_of(channel_type if isinstance(channel_type, discord.ChannelType | int) else None)
    channel = f"<#{channel_id}>"
    lacking = missing(have, where)
    if not lacking:
        return tr(lang, "setup.check.ok", channel=channel)
    granted = [n for n in needed_in(where) if n not in lacking]
    lines = [tr(lang, "setup.check.missing", channel=channel, n=len(lacking))]
    lines += [
        tr(
            lang,
            "setup.check.line",
            perm=tr(lang, f"setup.perm.{n.flag}"),
            without=tr(lang, f"setup.without.{n.flag}"),
        )
        for n in lacking
    ]
    lines.append(tr(lang, "setup.check.grant", n=len(lacking)))
    if granted:
        lines.append(
            tr(lang, "setup.check.have", perms=[tr(lang, f"setup.perm.{n.flag}") for n in granted])
        )
    return "\n".join(lines)


class SetupCog(commands.Cog):
    """``/setup check`` and the interactions' figures."""

    setup_group = app_commands.Group(**named("setup"))

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        ops.observe_commands(self.bot.tree)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        """Every interaction: its first answer and its handler's end are measured."""
        ops.watch(interaction)

    @setup_group.command(**named("setup.check"))
    async def check(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        lang = await self.bot.tables.lang_of(interaction)
        channel = interaction.channel
        kind = channel.type if channel is not None else None
        channel_id = interaction.channel_id if interaction.guild_id is not None else None
        text = check_text(lang, interaction.app_permissions, channel_id, kind)
        await interaction.response.send_message(text[:1990], ephemeral=True)


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(SetupCog(bot))


__all__ = ["SetupCog", "check_text", "setup"]
