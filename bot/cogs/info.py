"""Looking things up, privately (an extension: :func:`setup`): ``/board``, ``/boards``,
``/score``, ``/log``, ``/rules``, ``/stats``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import game_of, in_game, session_of
from bot.images import draw, upload_limit
from service import ImageRequest

if TYPE_CHECKING:
    from bot.app import BrazilBot


class InfoCog(commands.Cog):
    """Ephemeral answers: nothing here changes a game."""

    def __init__(self, bot: BrazilBot) -> None:
        self.bot = bot

    async def _images(
        self, interaction: discord.Interaction[BrazilBot], kinds: tuple[str, ...]
    ) -> None:
        t = self.bot.tables
        await interaction.response.defer(ephemeral=True, thinking=True)
        s = session_of(interaction)
        frame = s.frame()
        reqs = [
            (f"{k}.png", ImageRequest(k, None, s.version), frame)  # type: ignore[arg-type]
            for k in kinds
        ]
        files = await draw(reqs, upload_limit(interaction), t.svc.render)
        text, _, _ = t.next_text(s.status())
        await interaction.followup.send(text[:1990] or "\u200b", files=files, ephemeral=True)

    @app_commands.command(name="board", description="The map now (only you see this answer)")
    @in_game()
    async def board(self, interaction: discord.Interaction[BrazilBot]) -> None:
        await self._images(interaction, ("map",))

    @app_commands.command(name="boards", description="Every player's board (public view)")
    @in_game()
    async def boards(self, interaction: discord.Interaction[BrazilBot]) -> None:
        await self._images(interaction, ("boards",))

    @app_commands.command(name="score", description="Public scores (hidden cards not counted)")
    @in_game()
    async def score(self, interaction: discord.Interaction[BrazilBot]) -> None:
        t = self.bot.tables
        rows = await t.svc.scores(game_of(interaction))
        lines = [f"{r.who}: {r.total} VP{'  (winner)' if r.winner else ''}" for r in rows]
        await t.reply(
            interaction, "Scores (hidden missions and gold cards not counted):\n" + "\n".join(lines)
        )

    @app_commands.command(name="log", description="The last steps of the game")
    @in_game()
    async def log(self, interaction: discord.Interaction[BrazilBot]) -> None:
        t = self.bot.tables
        lines = await t.svc.log(game_of(interaction), last=15)
        await t.reply(interaction, "\n".join(lines)[-1990:] or "Nothing has happened yet.")

    @app_commands.command(name="rules", description="The rules reference: an ID or a word")
    @app_commands.describe(query="R-BUILD-4, build 4, bombard …")
    async def rules(self, interaction: discord.Interaction[BrazilBot], query: str) -> None:
        t = self.bot.tables
        found = t.svc.rules(query, limit=2)
        text = "\n\n".join(found) or "No rule found: try an ID (R-BUILD-4) or a word."
        await t.reply(interaction, text[:1990])

    @app_commands.command(name="stats", description="A player's results on this server")
    async def stats(
        self, interaction: discord.Interaction[BrazilBot], player: discord.User | None = None
    ) -> None:
        t = self.bot.tables
        who = player or interaction.user
        s = await t.svc.player_stats(who.id, guild_id=interaction.guild_id)
        avg = f"{s.average_score:.1f}" if s.average_score is not None else "-"
        await t.reply(
            interaction,
            f"{who.mention}: {s.games} finished games, {s.wins} wins, average {avg} VP, "
            f"best {s.best_score if s.best_score is not None else '-'}.",
        )


async def setup(bot: BrazilBot) -> None:
    await bot.add_cog(InfoCog(bot))
