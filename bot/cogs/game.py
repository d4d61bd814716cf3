"""Lobby and game management (an extension: :func:`setup`): ``/game new``, ``/game status``,
``/game deadline``, ``/game policy``, ``/game abandon``, ``/game web link|reset``, ``/games
mine``; the game's buttons and menus (:data:`bot.discord_views.DYNAMIC_ITEMS`).

The game's web page (``/game web``): its address is told privately to anyone who asks in the
channel (the page shows only what the channel shows); a player of the game or a moderator may
give it a new address, the old one stops working at once (a link shared too widely).

This cog owns the ``/game`` group; the subcommands whose logic belongs elsewhere call the
shared modules: the pace in :mod:`bot.paceflow`, the abandon flow in :mod:`bot.modflow`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import modflow, paceflow
from bot.checks import game_of, in_game, is_moderator, session_of
from bot.discord_views import DYNAMIC_ITEMS, GameItem
from bot.errors import Refusal
from service.lobby import lobby_text
from storage import GameStatus

if TYPE_CHECKING:
    from bot.app import BrazilBot

T = TypeVar("T")

PAGES_OFF = (
    "Game pages are not enabled on this bot. Whoever runs it can turn them on with the "
    "setting BRAZIL_WEB_PORT (and BRAZIL_WEB_PUBLIC_URL for the address players reach)."
)
NOT_PAGE_RESETTER = "Only a player of this game or a moderator may give its page a new address."


def pages_on() -> Callable[[T], T]:
    """The bot serves game pages (:data:`PAGES_OFF` otherwise, privately)."""

    def predicate(interaction: discord.Interaction[BrazilBot]) -> bool:
        if interaction.client.web is None:
            raise Refusal(PAGES_OFF)
        return True

    return app_commands.check(predicate)


async def scenario_autocomplete(
    interaction: discord.Interaction[BrazilBot], current: str
) -> list[app_commands.Choice[str]]:
    cur = current.lower()
    out = []
    for mid, name in interaction.client.tables.svc.scenarios():
        if cur in mid.lower() or cur in name.lower():
            out.append(app_commands.Choice(name=name[:100], value=mid))
    return out[:25]


class GameCog(commands.Cog):
    """Creating and finding games."""

    game = app_commands.Group(name="game", description="Start or inspect the game in this channel")
    games = app_commands.Group(name="games", description="Games across the server")
    web = app_commands.Group(name="web", description="The game's web page", parent=game)

    def __init__(self, bot: BrazilBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        GameItem.router = self.bot.tables.press  # where the game's buttons' presses go
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        GameItem.router = None

    @game.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        scenario="the map (default: the standard one for the player count)",
        players="number of players, 1-4",
        ai="how many seats computer players take now (more can be added in the lobby)",
        ai_level="random, heuristic or search",
        deadline_hours="turn deadline in hours",
    )
    @app_commands.autocomplete(scenario=scenario_autocomplete)
    async def game_new(
        self,
        interaction: discord.Interaction[BrazilBot],
        scenario: str | None = None,
        players: app_commands.Range[int, 1, 4] | None = None,
        ai: app_commands.Range[int, 0, 3] = 0,
        ai_level: str | None = None,
        deadline_hours: app_commands.Range[int, 1, 336] | None = None,
    ) -> None:
        s = self.bot.settings
        await self.bot.tables.lobby.new_lobby(
            interaction,
            scenario=scenario or s.default_scenario,
            players=players or s.default_players,
            ai_seats=ai,
            ai_level=(ai_level or s.default_ai).lower(),
            deadline_hours=deadline_hours or s.turn_deadline_hours,
        )

    @game.command(name="status", description="Who plays, whose turn it is")
    async def game_status(self, interaction: discord.Interaction[BrazilBot]) -> None:
        t = self.bot.tables
        rec = await t.channel_game(interaction.channel_id)
        if rec is None:
            await t.reply(interaction, "No game in this channel. `/game new` opens one.")
            return
        if rec.status is GameStatus.LOBBY:
            await t.reply(interaction, lobby_text(rec))
            return
        s = await t.svc.peek(rec.id)
        status = s.status()
        text, _, _ = t.next_text(status)
        seats = ", ".join(s.who(i) for i in range(len(s.seats)))
        await t.reply(interaction, f"Game #{rec.id} ({status.where()}) — {seats}\n{text}")

    @game.command(
        name="abandon",
        description="Abandon this channel's game (a moderator, or all seated players agreeing)",
    )
    async def game_abandon(self, interaction: discord.Interaction[BrazilBot]) -> None:
        await modflow.abandon(interaction)

    @game.command(name="deadline", description="Set the time per decision (creator or moderator)")
    @app_commands.describe(duration="time per decision, e.g. 24h, 3d, 1d12h (1 hour to 28 days)")
    @in_game()
    async def game_deadline(
        self, interaction: discord.Interaction[BrazilBot], duration: str
    ) -> None:
        await paceflow.set_deadline(interaction, game_of(interaction), duration)

    @game.command(
        name="policy", description="What happens on timeout: wait, default answers or an AI"
    )
    @app_commands.describe(
        policy="what happens when a player's time is up",
        level="the AI standing in (policy ai): random, heuristic or search",
    )
    @in_game()
    async def game_policy(
        self,
        interaction: discord.Interaction[BrazilBot],
        policy: paceflow.Policy,
        level: paceflow.Level | None = None,
    ) -> None:
        await paceflow.set_policy(interaction, game_of(interaction), policy, level)

    @web.command(name="link", description="The address of this game's web page (privately)")
    @pages_on()
    async def web_link(self, interaction: discord.Interaction[BrazilBot]) -> None:
        assert self.bot.web is not None  # pages_on() made sure
        t = self.bot.tables
        # the running game, else the channel's last one: a finished game's page is its archive
        g = await t.svc.latest_game(interaction.channel_id)
        if g is None or g.status is GameStatus.LOBBY:
            what = "only a lobby" if g is not None else "no game"
            await t.reply(interaction, f"This channel has {what} yet. `/game new` starts one.")
            return
        url = await self.bot.web.page_url(g.id)
        live = "live" if g.is_active else "to the end (the game is over)"
        await t.reply(
            interaction,
            f"Game #{g.id}'s page: {url}\nIt shows what this channel shows (the board, every "
            f"step), {live}.",
        )

    @web.command(
        name="reset",
        description="Give this game's page a new address; the old link stops working",
    )
    @in_game()
    @pages_on()
    async def web_reset(self, interaction: discord.Interaction[BrazilBot]) -> None:
        assert self.bot.web is not None  # pages_on() made sure
        t = self.bot.tables
        s = session_of(interaction)
        if s.seat_of(interaction.user.id) is None and not is_moderator(interaction):
            await t.reply(interaction, NOT_PAGE_RESETTER)
            return
        await t.svc.archive.reset_token(s.game_id)
        url = await self.bot.web.page_url(s.game_id)
        await interaction.response.send_message(
            f"🔗 {interaction.user.mention} gave game #{s.game_id}'s page a new address: the "
            "old link no longer works (the status message links the new one).",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send(f"The game's new page: {url}", ephemeral=True)
        await paceflow.update_status(t, s.game_id)

    @games.command(name="mine", description="Your games on this server and whose turn it is")
    async def games_mine(self, interaction: discord.Interaction[BrazilBot]) -> None:
        t = self.bot.tables
        lines = []
        for g, my_turn in await t.svc.games_of(interaction.user.id, interaction.guild_id):
            if g.status is GameStatus.LOBBY:
                lines.append(f"#{g.id} in <#{g.channel_id}>: lobby")
                continue
            who = "**your turn**" if my_turn else "waiting for others"
            lines.append(f"#{g.id} in <#{g.channel_id}>: {who}")
        await t.reply(interaction, "\n".join(lines) or "You have no running game here.")


async def setup(bot: BrazilBot) -> None:
    await bot.add_cog(GameCog(bot))
