"""Lobby and game management (an extension: :func:`setup`): ``/game new``, ``/game status``,
``/game deadline``, ``/game policy``, ``/game language``, ``/game abandon``, ``/game web
link|reset``, ``/games mine``; the game's buttons and menus
(:data:`bot.discord_views.DYNAMIC_ITEMS`). The commands' names and descriptions are keys of
the catalogues (:mod:`bot.translator`); a game's language is :mod:`bot.language`'s.

The game's web page (``/game web``): its address is told privately to anyone who asks in the
channel (the page shows only what the channel shows); a player of the game or a moderator may
give it a new address, the old one stops working at once (a link shared too widely).

This cog owns the ``/game`` group; the subcommands whose logic belongs elsewhere call the
shared modules: the pace in :mod:`bot.paceflow`, the abandon flow in :mod:`bot.modflow`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import language as languages
from bot import modflow, paceflow
from bot.checks import game_of, in_game, is_moderator, session_of
from bot.discord_views import DYNAMIC_ITEMS, GameItem
from bot.errors import Refusal
from bot.threads import FollowButton, ThreadDesk
from bot.translator import choices, named, options
from i18n import msg, tr
from service import ai_scale, catalog
from service.lobby import lobby_text
from service.places import PlayerGame
from storage import GameStatus, GameSummary

if TYPE_CHECKING:
    from bot.app import TurnpostBot

T = TypeVar("T")

log = logging.getLogger("bot.cogs.game")

PAGES_OFF = tr("en", "bot.web.off")
NOT_PAGE_RESETTER = tr("en", "bot.web.not_resetter")
"""The English texts (``bot.web.*``: in the reader's language)."""


def pages_on() -> Callable[[T], T]:
    """The bot serves game pages (:data:`PAGES_OFF` otherwise, privately)."""

    def predicate(interaction: discord.Interaction[TurnpostBot]) -> bool:
        if interaction.client.web is None:
            raise Refusal(msg("bot.web.off"))
        return True

    return app_commands.check(predicate)


def chosen_game(titles: list[tuple[str, str]], typed: str | None, lang: str) -> str | None:
    """The game ``typed`` in ``/game new``'s ``game`` option (its name, or its title in
    ``lang`` or in English; ``titles``: the service's ``game_titles``): its name; None when
    nothing was typed (the default game), "" when it names no game."""
    name = (typed or "").strip().lower()
    if not name:
        return None
    for known, key in titles:
        if name in (known, tr(lang, key).lower(), tr("en", key).lower()):
            return known
    return ""


async def scenario_autocomplete(
    interaction: discord.Interaction[TurnpostBot], current: str
) -> list[app_commands.Choice[str]]:
    """The maps or boards of the game chosen in the ``game`` option (none chosen: the
    default game's; an unknown game has none)."""
    t = interaction.client.tables
    typed = getattr(interaction.namespace, "game", None)
    game = chosen_game(catalog.game_titles(), typed, await t.lang_of(interaction))
    if game == "":
        return []
    cur = current.lower()
    out = []
    for mid, name in catalog.scenarios(game):
        if cur in mid.lower() or cur in name.lower():
            out.append(app_commands.Choice(name=name[:100], value=mid))
    return out[:25]


async def game_autocomplete(
    interaction: discord.Interaction[TurnpostBot], current: str
) -> list[app_commands.Choice[str]]:
    """The games the bot plays (the service's list, the default first), by their titles in
    the user's language; what was typed matches a title or a name."""
    t = interaction.client.tables
    lang = await t.lang_of(interaction)
    cur = current.strip().lower()
    out = []
    for name, key in catalog.game_titles():
        title = tr(lang, key)
        if cur in name or cur in title.lower():
            out.append(app_commands.Choice(name=title[:100], value=name))
    return out[:25]


async def ai_level_autocomplete(
    interaction: discord.Interaction[TurnpostBot], current: str
) -> list[app_commands.Choice[str]]:
    """The computer levels of the game chosen in the ``game`` option (none chosen: the
    default game's), each with its rating on the scale where calibrated ("search — rating ≈
    1,650"), in the user's language; an unknown game has none."""
    t = interaction.client.tables
    lang = await t.lang_of(interaction)
    typed = getattr(interaction.namespace, "game", None)
    game = chosen_game(catalog.game_titles(), typed, lang)
    if game == "":
        return []
    cur = current.strip().lower()
    return [
        app_commands.Choice(name=label[:100], value=level)
        for level, label in ai_scale.level_choices(lang, game)
        if cur in level or cur in label.lower()
    ][:25]


class GameCog(commands.Cog):
    """Creating and finding games."""

    game = app_commands.Group(**named("game"))
    games = app_commands.Group(  # /games mine works in a DM with the bot too
        **named("games"),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=False
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )
    web = app_commands.Group(**named("game.web"), parent=game)

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        GameItem.router = self.bot.tables.press  # where the game's buttons' presses go
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS, FollowButton)
        ThreadDesk.of(self.bot.tables).install()  # archived game threads reopened

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS, FollowButton)
        ThreadDesk.of(self.bot.tables).uninstall()
        GameItem.router = None

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A game's thread archived (reopened at once) or unlocked (its steps posted)."""
        try:
            await ThreadDesk.of(self.bot.tables).thread_updated(dict(payload.data))
        except Exception:  # a gateway event must not stop the others
            log.exception("thread update %s not handled", payload.thread_id)

    @game.command(**named("game.new"))
    @options(
        "game.new",
        "game",
        "scenario",
        "players",
        "ai",
        "ai_level",
        "deadline_hours",
        "language",
        "forum",
    )
    @app_commands.choices(language=languages.language_choices(follow_discord=False))
    @app_commands.autocomplete(
        scenario=scenario_autocomplete, game=game_autocomplete, ai_level=ai_level_autocomplete
    )
    async def game_new(
        self,
        interaction: discord.Interaction[TurnpostBot],
        game: str | None = None,
        scenario: str | None = None,
        players: app_commands.Range[int, 1, 4] | None = None,
        ai: app_commands.Range[int, 0, 3] = 0,
        ai_level: str | None = None,
        deadline_hours: app_commands.Range[int, 1, 336] | None = None,
        language: str | None = None,
        forum: discord.ForumChannel | None = None,
    ) -> None:
        s = self.bot.settings
        lang = languages.guild_language(interaction)
        if language is not None:
            picked = languages.pick(language)
            if picked is None:
                mine = await languages.interaction_language(interaction)
                await self.bot.tables.reply(interaction, languages.unknown(mine, language))
                return
            lang = picked
        name = (game or "").strip().lower()
        for known, key in catalog.game_titles():  # a title typed: its game
            if name and name in (known, tr(lang, key).lower(), tr("en", key).lower()):
                name = known
        if players is None and name:  # the default count, within the game's range
            try:
                lo, hi = catalog.player_range(name)
                players = min(max(s.default_players, lo), hi)
            except Exception:  # an unknown game: the lobby refuses it, naming the games
                pass
        await self.bot.tables.lobby.new_lobby(
            interaction,
            game=name or None,
            scenario=scenario or s.default_scenario,
            players=players or s.default_players,
            ai_seats=ai,
            ai_level=(ai_level or s.default_ai).lower(),
            deadline_hours=deadline_hours or s.turn_deadline_hours,
            language=lang,
            forum=None if forum is None else forum.id,
        )

    @game.command(**named("game.status"))
    async def game_status(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        t = self.bot.tables
        rec = await t.channel_game(interaction.channel_id)
        lang = await t.lang_of(interaction, rec)
        if rec is None:
            await t.reply(interaction, tr(lang, "bot.game.none"))
            return
        if rec.status is GameStatus.LOBBY:
            await t.reply(interaction, lobby_text(rec, lang))
            return
        s = await t.svc.peek(rec.id)
        status = s.status(lang)
        text, _, _ = t.next_text(status, lang)
        seats = ", ".join(s.who(i, lang) for i in range(len(s.seats)))
        if status.where_key:  # another game's own words (Tigris: turn, who, actions left)
            where = status.where(lang)
        elif status.phase == "setup":
            where = tr(lang, "bot.game.where_setup")
        else:
            where = tr(lang, "bot.game.where", era=status.era, round=status.round)
        head = tr(lang, "bot.game.status", game=rec.id, where=where, seats=seats)
        await t.reply(interaction, f"{head}\n{text}")

    @game.command(**named("game.abandon"))
    async def game_abandon(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        await modflow.abandon(interaction)

    @game.command(**named("game.deadline"))
    @options("game.deadline", "duration")
    @in_game()
    async def game_deadline(
        self, interaction: discord.Interaction[TurnpostBot], duration: str
    ) -> None:
        await paceflow.set_deadline(interaction, game_of(interaction), duration)

    @game.command(**named("game.policy"))
    @options("game.policy", "policy", "level")
    @app_commands.choices(
        policy=choices("policy", "wait", "default", "ai"),
        level=choices("level", "random", "heuristic", "search"),
    )
    @in_game()
    async def game_policy(
        self,
        interaction: discord.Interaction[TurnpostBot],
        policy: paceflow.Policy,
        level: paceflow.Level | None = None,
    ) -> None:
        await paceflow.set_policy(interaction, game_of(interaction), policy, level)

    @game.command(**named("game.language"))
    @options("game.language", "language")
    @app_commands.choices(language=languages.language_choices(follow_discord=False))
    async def game_language(
        self, interaction: discord.Interaction[TurnpostBot], language: str
    ) -> None:
        await languages.game_language_command(interaction, language)

    @web.command(**named("game.web.link"))
    @pages_on()
    async def web_link(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        assert self.bot.web is not None  # pages_on() made sure
        t = self.bot.tables
        # the running game, else the channel's last one: a finished game's page is its archive
        g = await t.svc.places.latest_game(interaction.channel_id)
        lang = await t.lang_of(interaction)
        if g is None or g.status is GameStatus.LOBBY:
            key = "bot.web.only_lobby" if g is not None else "bot.web.no_game"
            await t.reply(interaction, tr(lang, key))
            return
        url = await self.bot.web.page_url(g.id)
        key = "bot.web.page_live" if g.is_active else "bot.web.page_over"
        await t.reply(interaction, tr(lang, key, game=g.id, url=url))

    @web.command(**named("game.web.reset"))
    @in_game()
    @pages_on()
    async def web_reset(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        assert self.bot.web is not None  # pages_on() made sure
        t = self.bot.tables
        s = session_of(interaction)
        lang = await t.lang_of(interaction, s)
        if s.seat_of(interaction.user.id) is None and not is_moderator(interaction):
            await t.reply(interaction, tr(lang, "bot.web.not_resetter"))
            return
        await t.svc.archive.reset_token(s.game_id)
        url = await self.bot.web.page_url(s.game_id)
        await interaction.response.send_message(
            tr(
                await t.game_lang(s),
                "bot.web.reset_public",
                who=interaction.user.mention,
                game=s.game_id,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send(tr(lang, "bot.web.new_page", url=url), ephemeral=True)
        await paceflow.update_status(t, s.game_id)

    @games.command(**named("games.mine"))
    async def games_mine(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        """The user's games on every server the bot shares with them (and in a DM): their
        turn first, then waiting, then lobbies; each with its server, its game's title and a
        link to the turn post (else the channel). Privately; the first ones that fit one
        message, then how many more."""
        t = self.bot.tables
        lang = await t.lang_of(interaction)
        games = await t.svc.places.player_games(interaction.user.id)
        lines = [mine_line(interaction.client, p, lang) for p in games]
        await t.reply(interaction, fit_lines(lines, lang) or tr(lang, "bot.mygames.none"))


MINE_KEYS = ("bot.mygames.your_turn", "bot.mygames.waiting", "bot.mygames.lobby")
"""``/games mine``'s line of a game by :attr:`service.places.PlayerGame.rank`."""

MESSAGE_ROOM = 1900
"""What ``/games mine``'s lines may fill of a message's 2000 characters (a private answer is
plain content: :meth:`bot.hub.Hub.reply`), the "and N more" line left aside."""


def jump_url(g: GameSummary) -> str:
    """A link to the game's turn post when one is kept (its ``open_post``), else to its
    channel (``@me`` for a game outside a server)."""
    where = "@me" if g.guild_id is None else str(g.guild_id)
    post = g.settings.open_post
    if post is not None:
        return f"https://discord.com/channels/{where}/{g.channel_id}/{post.message_id}"
    return f"https://discord.com/channels/{where}/{g.channel_id}"


def server_name(client: discord.Client, guild_id: int | None, lang: str) -> str:
    """The server's name from the client's cache; a server the bot is no longer on says so."""
    if guild_id is None:
        return tr(lang, "bot.mygames.no_server")
    guild = client.get_guild(guild_id)
    if guild is None:
        return tr(lang, "bot.mygames.server_gone")
    return discord.utils.escape_markdown(guild.name)


def mine_line(client: discord.Client, p: PlayerGame, lang: str) -> str:
    """One game of ``/games mine``."""
    g = p.game
    link_key = "bot.mygames.post" if g.settings.open_post is not None else "bot.mygames.channel"
    return tr(
        lang,
        MINE_KEYS[p.rank],
        title=tr(lang, p.title_key),
        game=g.id,
        server=server_name(client, g.guild_id, lang),
        link=tr(lang, link_key, url=jump_url(g)),
    )


def fit_lines(lines: list[str], lang: str, room: int = MESSAGE_ROOM) -> str:
    """The first ``lines`` that fit ``room`` characters, one a line, then "…and N more"."""
    out: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > room:
            break
        out.append(line)
        used += len(line) + 1
    rest = len(lines) - len(out)
    if rest:
        out.append(tr(lang, "bot.mygames.more", count=rest))
    return "\n".join(out)


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(GameCog(bot))
