"""Finding a fair table (issue #31; an extension: :func:`setup`): ``/queue join game: players:
[ai_fill:] [max_wait:]``, ``/queue leave [game:]``, ``/queue status``. The queue is the
service's (:class:`service.queueing.QueueService`: entries kept in the store, the matching
:mod:`service.queue`'s); this is what Discord adds: the answers, and opening a table's game
where its longest-waiting player joined — in a thread of that channel when the server puts
games in threads (a post in the channel starts it, as ``/game new``'s lobby post does), else
in the channel —, the players added to the thread and pinged there.

The queues are matched after every ``/queue join`` and every :data:`TICK_SECONDS` (the
windows widen and the fillers' waits end with time); a restart matches at once. One matching
at a time in a process; across processes a table's entries are taken in one transaction
(:meth:`storage.base.QueueStore.queue_take`), so nobody sits at two tables."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.cogs.game import chosen_game, game_autocomplete
from bot.threads import LONGEST, ThreadDesk, game_title, thread_name
from bot.translator import named, options
from i18n import tr
from service import catalog
from service.pacing import BadInput, format_duration, parse_duration, ts
from service.queueing import Formed, QueueService
from service.results import Refused

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from bot.tables import Tables

log = logging.getLogger("bot.cogs.queue")

TICK_SECONDS = 300.0
"""How often the queues are matched besides each join (the tests match by hand)."""


class QueueCog(commands.Cog):
    """The matchmaking queue's commands and its loop (see module doc)."""

    queue = app_commands.Group(**named("queue"), guild_only=True)

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot
        self.matching = asyncio.Lock()
        self.loop: tasks.Loop[Callable[[], Coroutine[Any, Any, None]]] = tasks.loop(
            seconds=TICK_SECONDS, name="queue"
        )(self._tick)

    @property
    def t(self) -> Tables:
        return self.bot.tables

    @property
    def qs(self) -> QueueService:
        return QueueService(self.t.svc)

    async def cog_load(self) -> None:
        if self.bot.settings.pacing_tick_seconds > 0:  # the tests tick by hand
            self.loop.start()

    async def cog_unload(self) -> None:
        async with self.matching:  # never between a table taken and its game opened
            self.loop.cancel()

    async def _tick(self) -> None:
        try:
            await self.match()
        except Exception:  # the next tick tries again
            log.exception("queue matching failed")

    # ------------------------------------------------------------------ the commands

    @queue.command(**named("queue.join"))
    @options("queue.join", "game", "players", "ai_fill", "max_wait")
    @app_commands.autocomplete(game=game_autocomplete)
    async def join(
        self,
        interaction: discord.Interaction[TurnpostBot],
        game: str,
        players: app_commands.Range[int, 2, 8],
        ai_fill: bool = False,
        max_wait: str | None = None,
    ) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            await t.reply(interaction, tr(lang, "bot.queue.server_only"))
            return
        name = chosen_game(catalog.game_titles(), game, lang) or game
        t.names[interaction.user.id] = interaction.user.display_name
        try:
            wait = parse_duration(max_wait) if max_wait else None
            entry = await self.qs.join(
                guild_id,
                channel_id,
                interaction.user.id,
                name,
                players,
                ai_fill=ai_fill,
                max_wait=wait,
            )
        except BadInput as e:
            await t.reply(interaction, Refused(e.msg).text(lang))
            return
        except Refused as e:
            await t.reply(interaction, e.text(lang))
            return
        standing = await self.qs.standing(guild_id, entry.user_id)
        mine = next((s for s in standing if s.entry.game == entry.game), None)
        text = tr(
            lang,
            "bot.queue.joined",
            title=game_title(entry.game, lang),
            players=players,
            waiting=1 if mine is None else mine.waiting,
        )
        if mine is not None and mine.fill_at is not None:
            text += "\n" + tr(lang, "bot.queue.fill_at", at=ts(mine.fill_at))
        await t.reply(interaction, text)
        await self.match(guild_id)

    @queue.command(**named("queue.leave"))
    @options("queue.leave", "game")
    @app_commands.autocomplete(game=game_autocomplete)
    async def leave(
        self, interaction: discord.Interaction[TurnpostBot], game: str | None = None
    ) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        if interaction.guild_id is None:
            await t.reply(interaction, tr(lang, "bot.queue.server_only"))
            return
        name = None if game is None else (chosen_game(catalog.game_titles(), game, lang) or game)
        count = await self.qs.leave(interaction.guild_id, interaction.user.id, name)
        key = "bot.queue.left" if count else "bot.queue.not_in"
        await t.reply(interaction, tr(lang, key, count=count))

    @queue.command(**named("queue.status"))
    async def status(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        t = self.t
        lang = await t.lang_of(interaction)
        if interaction.guild_id is None:
            await t.reply(interaction, tr(lang, "bot.queue.server_only"))
            return
        lines = []
        for s in await self.qs.standing(interaction.guild_id, interaction.user.id):
            line = tr(
                lang,
                "bot.queue.standing",
                title=game_title(s.entry.game, lang),
                players=s.entry.players,
                place=s.place,
                waiting=s.waiting,
                waited=format_duration(s.waited, lang),
                rating=s.rating,
                window=s.window,
            )
            if s.fill_at is not None:
                line += " " + tr(lang, "bot.queue.fill_at", at=ts(s.fill_at))
            lines.append(line)
        await t.reply(interaction, "\n".join(lines) or tr(lang, "bot.queue.none"))

    # ------------------------------------------------------------------ the tables

    async def match(self, guild_id: int | None = None) -> list[int]:
        """Form the tables the queues allow now (one server's, or every server's) and open
        their games; the games' ids."""
        opened: list[int] = []
        async with self.matching:
            for formed in await self.qs.tables(guild_id):
                if not await self.qs.take(formed):  # someone left or was seated meanwhile
                    continue
                game_id = await self.open(formed)
                if game_id is not None:
                    opened.append(game_id)
        return opened

    async def _name(self, uid: int) -> str:
        if uid in self.t.names:
            return self.t.names[uid]
        with contextlib.suppress(discord.HTTPException):
            user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
            self.t.names[uid] = user.display_name
            return user.display_name
        return str(uid)

    async def _in_thread(self, formed: Formed) -> bool:
        """The server puts games in threads and the channel is a text channel."""
        server = await self.t.svc.store.get_guild_settings(formed.guild_id)
        if server.game_place != "thread" or not self.bot.settings.game_threads:
            return False
        try:
            channel = await self.bot.http.get_channel(formed.channel_id)
        except discord.HTTPException:
            return False
        return int(channel.get("type", -1)) == discord.ChannelType.text.value

    async def open(self, formed: Formed) -> int | None:
        """Open the table's game (see module doc); its players wait again when it cannot
        open (logged)."""
        t, qs = self.t, self.qs
        anchor = formed.entries[0]
        prefs = await t.svc.store.get_player_prefs(anchor.user_id)
        lang = prefs.language or "en"
        title = game_title(formed.game, lang)
        desk = ThreadDesk.of(t)
        none = discord.AllowedMentions.none()
        where, thread = formed.channel_id, False
        if await self._in_thread(formed):
            try:
                post = await self.bot.get_partial_messageable(formed.channel_id).send(
                    tr(lang, "bot.queue.table_post", title=title, players=formed.players),
                    allowed_mentions=none,
                )
                await self.bot.http.start_thread_with_message(
                    formed.channel_id, post.id, name=title[:100], auto_archive_duration=LONGEST
                )
                desk.made.add(post.id)
                where, thread = post.id, True
            except discord.HTTPException as e:
                log.warning(
                    "no thread for a queue's table in channel %s (%s): it takes the channel",
                    formed.channel_id,
                    e,
                )
        names = {e.user_id: await self._name(e.user_id) for e in formed.entries}
        s = self.bot.settings
        try:
            res = await qs.open_table(
                formed,
                where,
                names,
                default_level=s.default_ai,
                default_scenario=s.default_scenario,
                deadline_hours=s.turn_deadline_hours,
                language=lang,
                seed=t.next_seed,
            )
        except Refused as e:
            log.warning("a queue's table in channel %s did not open: %s", where, e)
            await qs.put_back(formed)
            if thread:  # its empty thread goes
                with contextlib.suppress(discord.HTTPException):
                    await self.bot.http.delete_channel(where)
            return None
        rec = await t.svc.store.get_game(res.game_id)
        if thread:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.http.edit_channel(where, name=thread_name(rec))
            for entry in formed.entries:
                await desk.add_member(where, entry.user_id)
        log.info("queue table of %s opened as game %s in %s", formed.game, res.game_id, where)
        pings = " ".join(f"<@{entry.user_id}>" for entry in formed.entries)
        table = formed.table
        key = "bot.queue.ready.ai" if table.ai_seats else "bot.queue.ready"
        text = tr(
            lang,
            key,
            pings=pings,
            title=title,
            game=res.game_id,
            low=min(e.rating for e in table.humans),
            high=max(e.rating for e in table.humans),
            ai=table.ai_seats,
        )
        await self.bot.get_partial_messageable(where).send(
            text, allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False)
        )
        await t.svc.turns.announce(
            res, show=t.publisher.show(force=True), pause=t.auto_answer_pause
        )
        return res.game_id


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(QueueCog(bot))
