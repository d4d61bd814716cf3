"""What only one player may see, on Discord: their hand (ephemeral), their private news —
delivered to their private place (a private thread or DMs) if they chose one, else to them
ephemerally when they acted, else kept for their next ``/hand`` — and ``/hand where:``."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.alt import describe, private_alts
from bot.discord_views import NO_SEAT_KEY
from bot.hub import Hub
from bot.images import draw, upload_limit
from i18n import tr
from service import Frame, Post

if TYPE_CHECKING:
    from service.game import GameSession

log = logging.getLogger("bot.private")


class PrivateDesk:
    """Hands and private news (see module doc)."""

    def __init__(self, hub: Hub) -> None:
        self.t = hub

    async def deliver(
        self,
        s: GameSession,
        posts: Sequence[Post],
        interaction: discord.Interaction[Any] | None,
        actor: int | None,
        *,
        frames: Mapping[int, Frame] | None = None,
    ) -> None:
        """Private news: to the player's lasting private place (thread or DMs) if they chose
        one, else ephemerally to the player who acted, else kept for their next ``/hand``;
        in the player's language. A post's pictures (Tigris: the hand after a draw, drawn
        from ``frames``) go with it to the place or the ephemeral answer."""
        for p in posts:
            seat = int(p.audience)
            uid = s.seats[seat].user_id if seat < len(s.seats) else None
            place = self.t.svc.places.private_place(s.rec, uid)
            acting = interaction is not None and seat == actor
            lang = await self.t.lang_of(interaction if acting else None, s, user_id=uid)
            shown = place is not None or (interaction is not None and seat == actor)
            files = await self._pictures(s, p, frames or {}, interaction, lang) if shown else []
            if place is not None:
                channel = self.t.client.get_partial_messageable(place)
                try:
                    await channel.send(
                        tr(lang, "bot.private.news", game=s.game_id, text=p.text)[:1990],
                        files=files,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                    continue
                except discord.HTTPException as e:
                    log.warning("private place of game %s seat %s failed: %s", s.game_id, seat, e)
                files = await self._pictures(s, p, frames or {}, interaction, lang)  # sent: anew
            if interaction is not None and seat == actor:
                text = tr(lang, "bot.private.only_you", text=p.text)
                await self.t.reply(interaction, text, files=files)
            else:
                await self.t.svc.reading.hold_news(s.game_id, seat, [p.text])

    async def _pictures(
        self,
        s: GameSession,
        post: Post,
        frames: Mapping[int, Frame],
        interaction: discord.Interaction[Any] | None,
        lang: str,
    ) -> list[discord.File]:
        """A private post's pictures, drawn from their frames (those at hand), with their
        alt texts in the reader's language ``lang``."""
        reqs = [(f"{r.kind}.png", r, frames[r.version]) for r in post.images if r.version in frames]
        if not reqs:
            return []
        files = list(await draw(reqs, upload_limit(interaction), self.t.svc.render))
        describe(files, private_alts(s.game_id, reqs, lang))
        return files

    async def hand_content(
        self, interaction: discord.Interaction[Any], game_id: int, seat: int
    ) -> tuple[str, list[discord.File]]:
        """The hand's text (with the private news waiting) and its image."""
        lang = await self.t.lang_of(interaction, await self.t.svc.languages.game_language(game_id))
        res = await self.t.svc.reading.hand(game_id, seat, news=True, lang=lang)
        files: list[discord.File] = []
        texts: list[str] = []
        for post in res.posts:
            texts.append(post.text)
            reqs = [("hand.png", r, res.frames[r.version]) for r in post.images]
            drawn = await draw(reqs, upload_limit(interaction), self.t.svc.render)
            describe(drawn, private_alts(game_id, reqs, lang))
            files += drawn
        return "\n".join(texts), files

    async def show_hand(
        self, interaction: discord.Interaction[Any], game_id: int, *, deferred: bool = False
    ) -> None:
        seat = await self.t.seat_of(game_id, interaction.user.id)
        if seat is None:
            await self.t.say(interaction, NO_SEAT_KEY)
            return
        if not deferred:
            await interaction.response.defer(ephemeral=True, thinking=True)
        text, files = await self.hand_content(interaction, game_id, seat)
        await interaction.followup.send(text[:1990], files=files, ephemeral=True)

    async def set_hand_place(
        self, interaction: discord.Interaction[Any], game_id: int, seat: int, where: str
    ) -> None:
        """``/hand where:thread|dm|here``: open (or forget) the player's lasting private
        place, and show the hand there."""
        uid = interaction.user.id
        lang = await self.t.lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if where == "here":
            await self.t.svc.places.set_private_place(game_id, uid, None)
            await self.show_hand(interaction, game_id, deferred=True)
            return
        channel_id = interaction.channel_id
        http = self.t.client.http
        try:
            if where == "thread":
                assert channel_id is not None
                data = await http.start_thread_without_message(
                    channel_id,
                    name=tr(
                        lang,
                        "bot.private.thread_name",
                        game=game_id,
                        name=interaction.user.display_name,
                    )[:100],
                    auto_archive_duration=10080,
                    type=12,  # a private thread
                    invitable=False,
                    reason="a player's private hand",
                )
                place = int(data["id"])
                await http.add_user_to_thread(place, uid)
            else:
                dm = await http.start_private_message(uid)
                place = int(dm["id"])
        except discord.HTTPException as e:
            log.info("private place (%s) for game %s not opened: %s", where, game_id, e)
            await interaction.followup.send(tr(lang, "bot.private.not_opened"), ephemeral=True)
            return
        await self.t.svc.places.set_private_place(game_id, uid, where, place)
        text, files = await self.hand_content(interaction, game_id, seat)
        channel = self.t.client.get_partial_messageable(place)
        note = tr(lang, "bot.private.thread_note" if where == "thread" else "bot.private.dm_note")
        await channel.send(
            (note + "\n" + text)[:1990],
            files=files,
            allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
        )
        key = "bot.private.goes_thread" if where == "thread" else "bot.private.goes_dm"
        await interaction.followup.send(tr(lang, key, place=f"<#{place}>"), ephemeral=True)
