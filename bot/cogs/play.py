"""Playing (an extension: :func:`setup`): ``/play <command>`` (autocomplete from the engine's
notation), ``/hand``, ``/undo``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import game_of, in_game, my_seat, seat_of, seated, session_of
from bot.discord_views import NO_SEAT_KEY
from bot.translator import choices, named, options
from i18n import tr

if TYPE_CHECKING:
    from bot.app import TurnpostBot

MAX_CHOICES = 25


class PlayCog(commands.Cog):
    """Typed commands and private looks."""

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    async def command_autocomplete(
        self, interaction: discord.Interaction[TurnpostBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The decider's legal commands starting with what was typed (at most 25), in the
        words of the user's language."""
        t = self.bot.tables
        s = None
        if interaction.channel_id is not None:
            s = await t.svc.peek_channel(interaction.channel_id)
        seat = s.seat_of(interaction.user.id) if s is not None else None
        if s is None or seat is None:
            return []
        texts = s.complete(seat, current, lang=await t.lang_of(interaction, s))
        if len(texts) > MAX_CHOICES:  # too many: offer the next words to narrow it down
            heads = sorted({" ".join(x.split()[: len(current.split()) + 1]) for x in texts})
            texts = heads if len(heads) <= MAX_CHOICES else texts
        return [app_commands.Choice(name=x[:100], value=x[:100]) for x in texts[:MAX_CHOICES]]

    @app_commands.command(**named("play"))
    @options("play", "command")
    @seated()
    async def play(self, interaction: discord.Interaction[TurnpostBot], command: str) -> None:
        t = self.bot.tables
        s, seat = session_of(interaction), my_seat(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        played = await t.turns.act(interaction, s.game_id, seat, text=command, loaded=s)
        if played is not None and not played.refused:
            lang = await t.lang_of(interaction, s)
            text = tr(lang, "bot.play.done", command=command[:200])
            await interaction.followup.send(text, ephemeral=True)

    play.autocomplete("command")(command_autocomplete)

    @app_commands.command(**named("hand"))
    @options("hand", "where")
    @app_commands.choices(where=choices("where", "thread", "dm", "here"))
    @in_game()
    async def hand(
        self,
        interaction: discord.Interaction[TurnpostBot],
        where: Literal["thread", "dm", "here"] | None = None,
    ) -> None:
        t = self.bot.tables
        gid, seat = game_of(interaction), seat_of(interaction)
        if where is None:
            await t.private.show_hand(interaction, gid)
        elif seat is None:
            await t.say(interaction, NO_SEAT_KEY, game=session_of(interaction))
        else:
            await t.private.set_hand_place(interaction, gid, seat, where)

    @app_commands.command(**named("undo"))
    @seated()
    async def undo(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        await self.bot.tables.turns.undo(interaction, game_of(interaction))


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(PlayCog(bot))
