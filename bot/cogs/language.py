"""Languages (an extension: :func:`setup`): ``/language [language]`` — the language the bot
answers a user in —, and the Discord locale of every interaction remembered per user (for
what is sent outside an interaction: reminders, direct messages). ``/game language`` belongs
to ``/game`` (:mod:`bot.cogs.game`); both flows are in :mod:`bot.language`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import language as languages
from bot.translator import named, options

if TYPE_CHECKING:
    from bot.app import TurnpostBot


class LanguageCog(commands.Cog):
    """Each user's language."""

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        """Every interaction: remember the user's Discord locale (written when it changed)."""
        await languages.seen(interaction)

    @app_commands.command(**named("language"))
    @options("language", "language")
    @app_commands.choices(language=languages.language_choices(follow_discord=True))
    async def language(
        self, interaction: discord.Interaction[TurnpostBot], language: str | None = None
    ) -> None:
        await languages.language_command(interaction, language)


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(LanguageCog(bot))


__all__ = ["LanguageCog", "setup"]
