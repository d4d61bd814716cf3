"""Ratings on Discord (issue #31; an extension: :func:`setup`): ``/leaderboard game:
[season:]`` (the server's best-rated players of a game, the asker's own place, provisional
ratings marked), ``/rating [player] [game]`` (a player's rating and their last rated games),
``/season start game: name:`` and ``/season end game:`` (members with Manage Server: Discord
hides the group from the others by ``default_permissions``, and the commands check the
permission themselves). Ratings are per server, so every command works on a server only.

The numbers are the service's (``svc.ratings``: the store's tables through
:mod:`service.rating`'s model); players are shown by the display names their games
recorded. ``/leaderboard`` and ``/rating`` answer privately, with the web page's address when
the bot serves the pages (:meth:`web.server.WebServer.leaderboard_url`); a season's start and
end are told in the channel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.checks import manager
from bot.cogs.game import chosen_game, game_autocomplete
from bot.translator import named, options
from i18n import tr
from service import catalog
from service.games import title_key
from service.rating import SETTLED_GAMES, user_key
from service.ratings import MAX_SEASON_NAME, Row
from service.results import Refused

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from bot.tables import Tables

TOP = 10
"""Rows of ``/leaderboard``."""

HISTORY = 8
"""Rated games ``/rating`` lists per game (the newest)."""


def title_of(game: str, lang: str) -> str:
    """A game's title in ``lang``."""
    return tr(lang, title_key(game))


def signed(lang: str, n: int) -> str:
    """A rating change with its sign ("+12", "−5", "±0"), digits as ``lang`` writes them."""
    if n == 0:
        return "±0"
    return ("+" if n > 0 else "−") + i18n.number(lang, abs(n))


def clean(name: str) -> str:
    """A display name safe in a message (no markdown, no mention)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def name_of(lang: str, row: Row) -> str:
    """A row's display name (its player's seat name as their games kept it; never an id)."""
    return clean(row.name) if row.name else tr(lang, "bot.ratings.unnamed")


def row_line(lang: str, row: Row) -> str:
    """One row of a table: place, name, rating (provisional marked), games."""
    key = "bot.ratings.row_provisional" if row.provisional else "bot.ratings.row"
    who = name_of(lang, row)
    return tr(lang, key, place=row.place, who=who, rating=row.rating, games=row.games)


async def season_autocomplete(
    interaction: discord.Interaction[TurnpostBot], current: str
) -> list[app_commands.Choice[str]]:
    """The seasons of the game chosen in the ``game`` option on this server, newest first."""
    t = interaction.client.tables
    guild_id = interaction.guild_id
    typed = getattr(interaction.namespace, "game", None)
    game = chosen_game(catalog.game_titles(), typed, await t.lang_of(interaction))
    if guild_id is None or not game:
        return []
    cur = current.strip().casefold()
    out = []
    for s in sorted(await t.svc.ratings.seasons(guild_id, game), key=lambda s: -s.number):
        if cur in s.name.casefold():
            out.append(app_commands.Choice(name=s.name[:100], value=s.name[:100]))
    return out[:25]


class RatingsCog(commands.Cog):
    """``/leaderboard``, ``/rating``, ``/season start|end``."""

    season = app_commands.Group(
        **named("season"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    @property
    def t(self) -> Tables:
        return self.bot.tables

    async def _game(
        self, interaction: discord.Interaction[TurnpostBot], typed: str | None, lang: str
    ) -> str | None:
        """The game named by ``typed`` (None: the game of the channel's latest game, else the
        default game); an unknown one is answered (the games listed) and gives None."""
        game = chosen_game(catalog.game_titles(), typed, lang)
        if game is None:
            latest = await self.t.svc.places.latest_game(interaction.channel_id)
            return catalog.games()[0] if latest is None else latest.game
        if game == "":
            games = [title_of(g, lang) for g in catalog.games()]
            await self.t.reply(
                interaction, tr(lang, "bot.ratings.unknown_game", game=typed, games=games)
            )
            return None
        return game

    def _page(self, guild_id: int, game: str, season: int | None, lang: str) -> str:
        """The web page's address, on a line of its own ("" when the bot serves no pages)."""
        web = self.bot.web
        if web is None:
            return ""
        url = web.leaderboard_url(guild_id, game, season)
        return "\n" + tr(lang, "bot.ratings.page", url=f"<{url}>")

    # ------------------------------------------------------------------ /leaderboard

    @app_commands.command(**named("leaderboard"))
    @options("leaderboard", "game", "season")
    @app_commands.autocomplete(game=game_autocomplete, season=season_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[TurnpostBot],
        game: str | None = None,
        season: str | None = None,
    ) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            await t.reply(interaction, tr(lang, "bot.ratings.only_server"))
            return
        name = await self._game(interaction, game, lang)
        if name is None:
            return
        title = title_of(name, lang)
        ratings = t.svc.ratings
        number: int | None = None
        head = tr(lang, "bot.ratings.head", title=title)
        if season:
            seasons = await ratings.seasons(guild_id, name)
            found = [s for s in seasons if s.name.casefold() == season.strip().casefold()]
            if not found:
                text = tr(lang, "bot.ratings.no_season", title=title, season=season)
                if seasons:
                    text += "\n" + tr(lang, "bot.ratings.seasons", names=[s.name for s in seasons])
                await t.reply(interaction, text)
                return
            s = found[-1]
            number = s.number
            key = "bot.ratings.head_season" if s.running else "bot.ratings.head_season_over"
            head = tr(lang, key, title=title, season=clean(s.name))
        rows = await ratings.leaderboard(guild_id, name, season=number, limit=TOP)
        if not rows:
            await t.reply(
                interaction,
                head
                + "\n"
                + tr(lang, "bot.ratings.empty", title=title)
                # a season's page shows its empty table; without a season there may be none
                + ("" if number is None else self._page(guild_id, name, number, lang)),
            )
            return
        lines = [head, *(row_line(lang, r) for r in rows)]
        me = interaction.user.id
        if not any(r.player == user_key(me) for r in rows):
            table = await ratings.table(guild_id, name, season=number)
            mine = next((r for r in table if r.player == user_key(me)), None)
            if mine is None:
                lines.append(tr(lang, "bot.ratings.you_none", title=title))
            else:
                key = "bot.ratings.you_provisional" if mine.provisional else "bot.ratings.you"
                lines.append(
                    tr(
                        lang,
                        key,
                        place=mine.place,
                        players=len(table),
                        rating=mine.rating,
                        games=mine.games,
                    )
                )
        if any(r.provisional for r in rows):
            lines.append("-# " + tr(lang, "bot.ratings.legend", settled=SETTLED_GAMES))
        await t.reply(interaction, "\n".join(lines) + self._page(guild_id, name, number, lang))

    # ------------------------------------------------------------------ /rating

    @app_commands.command(**named("rating"))
    @options("rating", "player", "game")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def rating(
        self,
        interaction: discord.Interaction[TurnpostBot],
        player: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            await t.reply(interaction, tr(lang, "bot.ratings.only_server"))
            return
        who = player or interaction.user
        games: Sequence[str]
        if game:
            name = await self._game(interaction, game, lang)
            if name is None:
                return
            games = [name]
        else:
            games = catalog.games()
        parts: list[str] = []
        for g in games:
            row, history = await t.svc.ratings.of(guild_id, g, who.id)
            if row is None:
                continue
            players = len(await t.svc.ratings.table(guild_id, g))
            key = "bot.rating.line_provisional" if row.provisional else "bot.rating.line"
            part = [
                tr(
                    lang,
                    key,
                    title=title_of(g, lang),
                    rating=row.rating,
                    place=row.place,
                    players=players,
                    games=row.games,
                )
            ]
            for h in reversed(history[-HISTORY:]):  # the newest first
                part.append(
                    "- "
                    + tr(
                        lang,
                        "bot.rating.history",
                        game=h.game_id,
                        when=discord.utils.format_dt(h.when, "d") if h.when else "-",
                        place=h.place,
                        before=h.before,
                        after=h.after,
                        delta=signed(lang, h.after - h.before),
                    )
                )
            parts.append("\n".join(part))
        if not parts:
            key = "bot.rating.none_game" if game else "bot.rating.none"
            title = title_of(games[0], lang) if game else ""
            await t.reply(interaction, tr(lang, key, who=who.mention, title=title))
            return
        head = tr(lang, "bot.rating.head", who=who.mention)
        await t.reply(interaction, fit([head, *parts]))

    # ------------------------------------------------------------------ /season

    async def _announce(self, interaction: discord.Interaction[TurnpostBot], text: str) -> None:
        """Told in the channel (the interaction's public answer), pinging nobody."""
        none = discord.AllowedMentions.none()
        if interaction.response.is_done():
            await interaction.followup.send(text, allowed_mentions=none)
        else:
            await interaction.response.send_message(text, allowed_mentions=none)

    @season.command(**named("season.start"))
    @manager("bot.ratings.only_server", "bot.season.not_manager")
    @options("season.start", "game", "name")
    @app_commands.autocomplete(game=game_autocomplete)
    async def season_start(
        self,
        interaction: discord.Interaction[TurnpostBot],
        game: str,
        name: app_commands.Range[str, 1, MAX_SEASON_NAME],
    ) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the check: in a server
        which = await self._game(interaction, game, lang)
        if which is None:
            return
        title = title_of(which, lang)
        name = " ".join(name.split())
        try:  # the service refuses a bad name, a running season, a name taken before
            await t.svc.ratings.start_season(guild_id, which, name, by=interaction.user.id)
        except Refused as e:
            await t.reply(interaction, e.text(lang))
            return
        await self._announce(
            interaction, tr(lang, "bot.season.started", title=title, name=clean(name))
        )

    @season.command(**named("season.end"))
    @manager("bot.ratings.only_server", "bot.season.not_manager")
    @options("season.end", "game")
    @app_commands.autocomplete(game=game_autocomplete)
    async def season_end(self, interaction: discord.Interaction[TurnpostBot], game: str) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the check: in a server
        which = await self._game(interaction, game, lang)
        if which is None:
            return
        title = title_of(which, lang)
        try:  # the service refuses when no season runs
            ended = await t.svc.ratings.end_season(guild_id, which, by=interaction.user.id)
        except Refused as e:
            await t.reply(interaction, e.text(lang))
            return
        await self._announce(
            interaction, tr(lang, "bot.season.ended", title=title, name=clean(ended.name))
        )


def fit(parts: list[str], most: int = 1990) -> str:
    """``parts`` joined by blank lines, as many whole ones as fit in ``most`` characters
    (a part longer than that alone is cut)."""
    out = parts[0][:most]
    for p in parts[1:]:
        if len(out) + 2 + len(p) > most:
            break
        out += "\n\n" + p
    return out


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(RatingsCog(bot))


__all__ = ["RatingsCog", "fit", "row_line", "setup", "signed"]
