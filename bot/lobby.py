"""The lobby on Discord: ``/game new`` posts it, Join / Leave / Add AI / Start buttons and the
colour menu edit it in place. The lobby's rules are the service's
(:class:`service.lobby.Lobbies`); this is what Discord adds: who the user is, their display
name, whether they manage the lobby (its creator or a moderator), and the messages."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import threads
from bot.discord_views import lobby_layout
from bot.hub import Hub
from bot.moderators import interaction_is_moderator
from bot.publisher import Publisher
from bot.threads import ThreadDesk, with_follow
from i18n import tr
from service import catalog
from service.games import DEFAULT
from service.language import game_language_of
from service.lobby import LOBBY_MANAGER, colour_choices, is_host, lobby_text
from service.results import Refused
from storage import GameRecord

log = logging.getLogger("bot.lobby")


class LobbyDesk:
    """The lobby's messages and buttons (see module doc)."""

    def __init__(self, hub: Hub, publisher: Publisher) -> None:
        self.t = hub
        self.publisher = publisher
        self.threads = ThreadDesk.of(hub)

    @property
    def lobbies(self) -> Any:
        return self.t.svc.lobbies

    def layout(self, rec: GameRecord, *, note: str = "", open_: bool = True) -> Any:
        """The lobby's post, in the game's language (``note``: a message key)."""
        lang = game_language_of(rec)
        text = lobby_text(rec, lang) + (f"\n{tr(lang, note)}" if note else "")
        if not open_:
            return lobby_layout(text, rec.id, open_=False, lang=lang)
        if not catalog.has_colours(rec.game):  # a game without colour wishes
            return lobby_layout(text, rec.id, lang=lang)
        colours = [
            (cid, tr(lang, f"term.colour.{cid}")) for cid, _ in colour_choices(lang, rec.game)
        ]
        return lobby_layout(text, rec.id, colours=colours, lang=lang)

    async def new_lobby(
        self,
        interaction: discord.Interaction[Any],
        *,
        scenario: str | None,
        players: int,
        ai_seats: int,
        ai_level: str,
        deadline_hours: int,
        language: str = "en",
        game: str | None = None,
        forum: int | None = None,
    ) -> None:
        """Open a lobby where :func:`bot.threads.place_for` says: this channel, a thread of
        it (the lobby post in the channel), or a post of a forum (``forum``, else the
        server's games forum)."""
        if interaction.channel_id is None:
            await self.t.say(interaction, "bot.lobby.server_only")
            return
        self.t.names[interaction.user.id] = interaction.user.display_name

        async def open_record(channel_id: int) -> GameRecord:
            rec: GameRecord = await self.t.svc.lobbies.open(
                channel_id,
                interaction.guild_id,
                interaction.user.id,
                scenario=scenario,
                players=players,
                ai_seats=ai_seats,
                ai_level=ai_level,
                deadline_hours=deadline_hours,
                language=language,
                game=game,
            )
            return rec

        place = await threads.place_for(self.t, interaction, forum)
        if place.kind == "thread":
            await self.threads.open_in_thread(interaction, open_record, self.layout, language)
            return
        if place.kind == "forum" and place.forum_id is not None:
            name = (game or DEFAULT).strip().lower()
            await self.threads.open_in_forum(
                interaction, place.forum_id, name, open_record, self.layout, language
            )
            return
        try:
            rec = await open_record(interaction.channel_id)
        except Refused as e:
            await self.t.reply(interaction, e.text(await self.t.lang_of(interaction, language)))
            return
        log.info("lobby %s opened in channel %s", rec.id, rec.channel_id)
        await interaction.response.send_message(
            view=self.layout(rec), allowed_mentions=discord.AllowedMentions.none()
        )

    @staticmethod
    def in_thread(interaction: discord.Interaction[Any], rec: GameRecord) -> bool:
        """Whether the game ``rec`` plays in a thread (its lobby post is elsewhere, or the
        post is in a thread: a forum post)."""
        return rec.channel_id != interaction.channel_id or isinstance(
            interaction.channel, discord.Thread
        )

    def post_layout(self, interaction: discord.Interaction[Any], rec: GameRecord) -> Any:
        """The lobby post now: :meth:`layout`, with *Follow* for a game in a thread."""
        view = self.layout(rec)
        if self.in_thread(interaction, rec):
            return with_follow(view, rec.id, game_language_of(rec))
        return view

    async def lobby_colour(
        self, interaction: discord.Interaction[Any], game_id: int, colour: str
    ) -> None:
        """A seated player's colour wish in the lobby (one colour per seat)."""
        try:
            rec = await self.t.svc.lobbies.colour(game_id, interaction.user.id, colour)
        except Refused as e:
            await self.t.reply(interaction, e.text(await self.t.lang_of(interaction)))
            return
        await interaction.response.edit_message(
            view=self.post_layout(interaction, rec),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    def manager(self, interaction: discord.Interaction[Any], rec: GameRecord) -> bool:
        """A lobby is managed (computer players added, started) by its creator or a moderator."""
        return is_host(rec, interaction.user.id) or interaction_is_moderator(
            interaction, self.t.settings.moderator_role_id
        )

    async def lobby_press(
        self, interaction: discord.Interaction[Any], game_id: int, op: str
    ) -> None:
        lobbies = self.t.svc.lobbies
        uid = interaction.user.id
        self.t.names[uid] = interaction.user.display_name
        rec = None
        try:
            rec = await lobbies.get_open(game_id)
            if op == "join":
                rec = await lobbies.join(rec, uid)
                if self.in_thread(interaction, rec):  # the player joins the game's thread
                    await self.threads.add_member(rec.channel_id, uid)
            elif op == "leave":
                rec, closed = await lobbies.leave(rec, uid)
                if closed:
                    await interaction.response.edit_message(
                        view=self.layout(rec, note="bot.lobby.everyone_left", open_=False)
                    )
                    if self.in_thread(interaction, rec):  # its thread closes with it
                        await self.threads.closed(rec)
                    return
            elif op == "ai":
                manager = self.manager(interaction, rec)
                rec = await lobbies.add_ai(rec, self.t.settings.default_ai, manager=manager)
            elif op == "start":
                if not self.manager(interaction, rec):
                    raise Refused(LOBBY_MANAGER)
                await self.start(interaction, rec)
                return
        except Refused as e:
            await self.t.reply(interaction, e.text(await self.t.lang_of(interaction, rec)))
            return
        await interaction.response.edit_message(
            view=self.post_layout(interaction, rec),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _name(self, uid: int, n: int) -> str:
        if uid in self.t.names:
            return self.t.names[uid]
        try:
            user = self.t.client.get_user(uid) or await self.t.client.fetch_user(uid)
            self.t.names[uid] = user.display_name
            return user.display_name
        except discord.HTTPException:
            return f"Player {n + 1}"  # a seat's name in the game (never translated)

    async def start(self, interaction: discord.Interaction[Any], lobby: GameRecord) -> None:
        await interaction.response.defer()
        names = {}
        for seat in lobby.seats:
            if seat.user_id is not None:
                names[seat.user_id] = await self._name(seat.user_id, seat.seat)
        try:
            res = await self.t.svc.lobbies.start(
                lobby,
                names,
                default_level=self.t.settings.default_ai,
                default_scenario=self.t.settings.default_scenario,
                seed=self.t.next_seed,
            )
        except Refused as e:
            await self.t.reply(interaction, e.text(await self.t.lang_of(interaction, lobby)))
            return
        log.info(
            "lobby %s started as game %s in channel %s", lobby.id, res.game_id, lobby.channel_id
        )
        # the game keeps the lobby's number (the lobby became the game)
        lang = game_language_of(lobby)
        started = tr(lang, "bot.lobby.started", game=res.game_id)
        text = lobby_text(lobby, lang).rsplit("\n", 1)[0] + "\n" + started
        view = lobby_layout(text, lobby.id, open_=False, lang=lang)
        if self.in_thread(interaction, lobby):  # the game's thread: followed from the post
            if lobby.channel_id != interaction.channel_id:  # the post is not in the thread
                where = tr(lang, "bot.thread.started", thread=f"<#{lobby.channel_id}>")
                view = lobby_layout(f"{text}\n{where}", lobby.id, open_=False, lang=lang)
            view = with_follow(view, lobby.id, lang)
        await interaction.edit_original_response(view=view)
        if self.in_thread(interaction, lobby):  # before its first post (it may end at once)
            await self.threads.started(lobby)  # a forum post's tag: running
        await self.t.svc.turns.announce(
            res,
            show=self.publisher.show(interaction=interaction, force=True),
            pause=self.t.auto_answer_pause,
        )
