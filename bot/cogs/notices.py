"""Turn notices (an extension: :func:`setup`): ``/notices [mode] [heads_up]``, a player's
choice for all their games of how they are told that they decide (:mod:`service.notices`:
a ping in the game's channel, a direct message with a link to the turn, both, or none) and
whether they get a heads-up when they are next. Without options it tells the current
choice. The answer is private."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.translator import choices, named, options
from i18n import tr
from service.notices import mode_of

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from bot.tables import Tables


class NoticesCog(commands.Cog):
    """``/notices``."""

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    @property
    def t(self) -> Tables:
        return self.bot.tables

    @app_commands.command(**named("notices"))
    @options("notices", "mode", "heads_up")
    @app_commands.choices(mode=choices("notices", "ping", "dm", "both", "none"))
    async def notices(
        self,
        interaction: discord.Interaction[TurnpostBot],
        mode: str | None = None,
        heads_up: bool | None = None,
    ) -> None:
        """Set (or, without options, tell) how you are told it is your turn."""
        lang = await self.t.lang_of(interaction)
        prefs = await self.t.publisher.notices.ledger.set_mode(interaction.user.id, mode, heads_up)
        now = tr(
            lang,
            "bot.notice.now",
            mode=tr(lang, f"bot.notice.mode.{mode_of(prefs)}"),
            heads_up=tr(
                lang, "bot.notice.heads_up_on" if prefs.heads_up else "bot.notice.heads_up_off"
            ),
        )
        await self.t.reply(interaction, now)


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(NoticesCog(bot))


__all__ = ["NoticesCog", "setup"]
