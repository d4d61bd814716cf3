"""Looking things up, privately (an extension: :func:`setup`): ``/board``, ``/boards``,
``/score``, ``/log``, ``/rules``, ``/stats``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.alt import describe, public_alts
from bot.checks import in_game, session_of
from bot.images import draw, upload_limit
from bot.translator import named, options
from i18n import tr
from service import ImageRequest
from service.games import DEFAULT as DEFAULT_GAME

if TYPE_CHECKING:
    from bot.app import TurnpostBot


class InfoCog(commands.Cog):
    """Ephemeral answers: nothing here changes a game."""

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    async def _images(
        self, interaction: discord.Interaction[TurnpostBot], kinds: tuple[str, ...]
    ) -> None:
        t = self.bot.tables
        await interaction.response.defer(ephemeral=True, thinking=True)
        s = session_of(interaction)
        frame = s.frame()
        lang = await t.lang_of(interaction, s)
        reqs = [
            (f"{k}.png", ImageRequest(k, None, s.version, lang=lang, game=s.game), frame)  # type: ignore[arg-type]
            for k in kinds
        ]
        files = await draw(reqs, upload_limit(interaction), t.svc.render)
        describe(files, public_alts(t.svc, s.game_id, s.seats, reqs, lang))
        text, _, _ = t.next_text(s.status(lang), lang)
        await interaction.followup.send(text[:1990] or "\u200b", files=files, ephemeral=True)

    @app_commands.command(**named("board"))
    @options("board", "text")
    @in_game()
    async def board(
        self, interaction: discord.Interaction[TurnpostBot], text: bool = False
    ) -> None:
        if not text:
            await self._images(interaction, ("map",))
            return
        # the board in words, for a screen reader: where the game stands, the public scores
        # and every public thing on the board, in the reader's language
        t = self.bot.tables
        s = session_of(interaction)
        lang = await t.lang_of(interaction, s)
        res = await t.svc.reading.board(s.game_id, lang=lang)
        await t.reply(interaction, res.public()[0].text[:1990])

    @app_commands.command(**named("boards"))
    @in_game()
    async def boards(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        await self._images(interaction, ("boards",))

    @app_commands.command(**named("score"))
    @in_game()
    async def score(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        t = self.bot.tables
        s = session_of(interaction)
        lang = await t.lang_of(interaction, s)
        rows = await t.svc.reading.scores(s.game_id, lang)
        lines = [
            tr(
                lang,
                "bot.score.winner" if r.winner else "bot.score.row",
                who=r.who,
                score=s.A.score_text(r.total, lang),
            )
            for r in rows
        ]
        head = s.A.help_keys.get("score_head", "bot.score.head_plain")  # the game's own
        await t.reply(interaction, tr(lang, head) + "\n" + "\n".join(lines))

    @app_commands.command(**named("log"))
    @in_game()
    async def log(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        t = self.bot.tables
        s = session_of(interaction)
        lang = await t.lang_of(interaction, s)
        lines = await t.svc.reading.log(s.game_id, last=15, lang=lang)
        await t.reply(interaction, "\n".join(lines)[-1990:] or tr(lang, "bot.log.empty"))

    @app_commands.command(**named("rules"))
    @options("rules", "query")
    async def rules(self, interaction: discord.Interaction[TurnpostBot], query: str) -> None:
        t = self.bot.tables
        lang = await t.lang_of(interaction)
        g = await t.svc.places.latest_game(interaction.channel_id)  # the channel's game's rules
        game = DEFAULT_GAME if g is None else g.game
        found = t.svc.reading.rules(query, limit=2, lang=lang, game=game)
        example = t.svc.reading.rule_example(game)
        text = "\n\n".join(found) or tr(lang, "bot.rules.none", example=example)
        await t.reply(interaction, text[:1990])

    @app_commands.command(**named("stats"))
    @options("stats", "player")
    async def stats(
        self, interaction: discord.Interaction[TurnpostBot], player: discord.User | None = None
    ) -> None:
        t = self.bot.tables
        lang = await t.lang_of(interaction)
        who = player or interaction.user
        s = await t.svc.places.player_stats(who.id, guild_id=interaction.guild_id)
        avg = i18n.number(lang, round(s.average_score, 1)) if s.average_score is not None else "-"
        if lang == i18n.DEFAULT and s.average_score is not None:
            avg = f"{s.average_score:.1f}"
        await t.reply(
            interaction,
            tr(
                lang,
                "bot.stats.line",
                who=who.mention,
                games=s.games,
                wins=s.wins,
                avg=avg,
                best=s.best_score if s.best_score is not None else "-",
            ),
        )


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(InfoCog(bot))
