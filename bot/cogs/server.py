"""A server's settings for games (an extension: :func:`setup`): ``/server settings``, for the
members with Manage Server (Discord's ``default_permissions`` hides the command from the
others, and the command checks the permission itself: an administrator may have shown it to
more people). Without options it shows the settings; ``max_games:<n>`` caps how many games
(lobbies included) one player may be in on the server (0: no cap; enforced when a player
joins or opens a lobby, :meth:`service.lobby.Lobbies.check_cap`); ``place:`` says where
``/game new`` puts a game (a thread of its own, or the channel itself); ``forum:`` makes new
lobbies posts of that forum channel (``place:`` ends it). The settings are the
store's :class:`storage.models.GuildSettings`, through ``svc.places``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import manager
from bot.translator import choices, named, options
from i18n import tr
from storage.models import GuildSettings

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from bot.tables import Tables

Place = Literal["thread", "channel"]
PLACES: dict[str, Place] = {"thread": "thread", "channel": "channel"}


def settings_text(settings: GuildSettings, lang: str) -> str:
    """The server's settings, in ``lang``."""
    cap = settings.max_running_games
    if settings.forum_id is not None:
        place = tr(lang, "bot.server.place.forum", forum=f"<#{settings.forum_id}>")
    else:
        place = tr(lang, f"bot.server.place.{settings.game_place}")
    return tr(
        lang,
        "bot.server.settings",
        place=place,
        cap=tr(lang, "bot.server.no_cap") if cap is None else str(cap),
    )


class ServerCog(commands.Cog):
    """``/server settings``: the server's settings for games (Manage Server)."""

    server = app_commands.Group(
        **named("server"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    @property
    def t(self) -> Tables:
        return self.bot.tables

    @server.command(**named("server.settings"))
    @manager("bot.server.only_server", "bot.server.not_manager")
    @options("server.settings", "max_games", "place", "forum")
    @app_commands.choices(place=choices("place", "thread", "channel"))
    async def settings(
        self,
        interaction: discord.Interaction[TurnpostBot],
        max_games: app_commands.Range[int, 0, 1000] | None = None,
        place: str | None = None,
        forum: discord.ForumChannel | None = None,
    ) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the check: in a server
        places = t.svc.places
        if max_games is None and place is None and forum is None:
            await t.reply(interaction, settings_text(await places.server_settings(guild_id), lang))
            return
        where = PLACES.get(place or "")
        new = await places.set_server_settings(
            guild_id, max_games=max_games, place=where, forum_id=forum.id if forum else None
        )
        await t.reply(interaction, tr(lang, "bot.server.saved") + "\n" + settings_text(new, lang))


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(ServerCog(bot))


__all__ = ["ServerCog", "settings_text", "setup"]
