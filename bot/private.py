"""What only one player may see, on Discord: their hand (ephemeral), their private news —
delivered to their private place (a private thread or DMs) if they chose one, else to them
ephemerally when they acted, else kept for their next ``/hand`` — and ``/hand where:``.

Private news is never lost: a delivery Discord refuses (DMs closed: 50007, a thread the bot
may no longer post in: 403, the interaction's token expired: 50027, a late answer: 10062)
falls back to the next way — the private place, then the actor's ephemeral answer, then the
seat's inbox read by ``/hand`` — and a private place that fails says so, once. ``/hand`` puts
the news it read back in the inbox when its answer does not reach the player. ``/hand where:``
first sends to the place it opens and saves the choice only when that worked; when Discord
refuses, it says why (DMs closed, the permission missing) and changes nothing."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.alt import describe, private_alts
from bot.discord_views import NO_SEAT_KEY
from bot.errors import CANNOT_DM, MISSING_PERMISSIONS
from bot.hub import Hub
from bot.images import draw, upload_limit
from i18n import tr
from service import Frame, Post

if TYPE_CHECKING:
    from service.game import GameSession

log = logging.getLogger("bot.private")

NEWS_LINE = "- "
"""How :meth:`service.reading.Reading.hand` lists each kept news item under its heading."""


@dataclass
class Hand:
    """A player's hand as ``/hand`` shows it: the text (with the news waiting), its
    pictures, and the news items it read (marked read: put back if the answer fails)."""

    text: str
    files: list[discord.File] = field(default_factory=list)
    news: list[str] = field(default_factory=list)


class PlaceRefused(Exception):
    """Discord refused a private place (``/hand where:``): :attr:`key` says why (a catalogue
    key), ``detail`` what Discord said (for the log)."""

    def __init__(self, key: str, detail: object) -> None:
        super().__init__(f"{key}: {detail}")
        self.key = key


class PrivateDesk:
    """Hands and private news (see module doc)."""

    def __init__(self, hub: Hub) -> None:
        self.t = hub
        self.told: set[tuple[int, int, int]] = set()  # (game, user, place) told it failed

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
        from ``frames``) go with it to the place or the ephemeral answer. A delivery Discord
        refuses falls back to the next way, down to the inbox (see module doc): nothing is
        lost; a private place that fails is said once (in the answer or the inbox)."""
        held: dict[int, list[str]] = {}
        for p in posts:
            seat = int(p.audience)
            uid = s.seats[seat].user_id if seat < len(s.seats) else None
            place = self.t.svc.places.private_place(s.rec, uid)
            acting = interaction is not None and seat == actor
            lang = await self.t.lang_of(interaction if acting else None, s, user_id=uid)
            note = ""
            if place is not None:
                if await self._to_place(s, p, place, frames or {}, lang):
                    continue
                key = (s.game_id, uid or 0, place)
                if key not in self.told:
                    self.told.add(key)
                    note = tr(lang, self._failed_key(s, uid))
            if acting and interaction is not None:
                text = tr(lang, "bot.private.only_you", text=p.text)
                files = await self._pictures(s, p, frames or {}, interaction, lang)
                try:
                    await self.t.reply(
                        interaction, (note + "\n" if note else "") + text, files=files
                    )
                    continue
                except discord.HTTPException as e:
                    log.info(
                        "private news of game %s seat %s kept for /hand: %s", s.game_id, seat, e
                    )
            held.setdefault(seat, []).extend([note, p.text] if note else [p.text])
        for seat, texts in held.items():
            await self.t.svc.reading.hold_news(s.game_id, seat, texts)

    async def _to_place(
        self, s: GameSession, p: Post, place: int, frames: Mapping[int, Frame], lang: str
    ) -> bool:
        """Send a private post to the player's private place; whether Discord took it."""
        files = await self._pictures(s, p, frames, None, lang)
        channel = self.t.client.get_partial_messageable(place)
        try:
            await channel.send(
                tr(lang, "bot.private.news", game=s.game_id, text=p.text)[:1990],
                files=files,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as e:
            log.warning("private place of game %s seat %s failed: %s", s.game_id, p.audience, e)
            return False
        return True

    def _failed_key(self, s: GameSession, uid: int | None) -> str:
        """The note of a private place that failed: DMs or a thread."""
        chosen = s.rec.settings.private_places.get(uid or 0)
        where = chosen.where if chosen is not None else "dm"
        return "bot.private.dm_failed" if where == "dm" else "bot.private.thread_failed"

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
    ) -> Hand:
        """The hand's text (with the private news waiting, then marked read) and its image."""
        lang = await self.t.lang_of(interaction, await self.t.svc.languages.game_language(game_id))
        res = await self.t.svc.reading.hand(game_id, seat, news=True, lang=lang)
        hand = Hand("")
        texts: list[str] = []
        for i, post in enumerate(res.posts):
            texts.append(post.text)
            if i > 0:  # the news kept, under its heading
                lines = post.text.split("\n")[1:]
                hand.news += [x.removeprefix(NEWS_LINE) for x in lines]
            reqs = [("hand.png", r, res.frames[r.version]) for r in post.images]
            drawn = await draw(reqs, upload_limit(interaction), self.t.svc.render)
            describe(drawn, private_alts(game_id, reqs, lang))
            hand.files += drawn
        hand.text = "\n".join(texts)
        return hand

    async def keep_news(self, game_id: int, seat: int, hand: Hand) -> None:
        """The news a hand read, kept again (its answer did not reach the player)."""
        if hand.news:
            await self.t.svc.reading.hold_news(game_id, seat, hand.news)

    async def show_hand(
        self, interaction: discord.Interaction[Any], game_id: int, *, deferred: bool = False
    ) -> None:
        seat = await self.t.seat_of(game_id, interaction.user.id)
        if seat is None:
            await self.t.say(interaction, NO_SEAT_KEY)
            return
        if not deferred:
            await interaction.response.defer(ephemeral=True, thinking=True)
        hand = await self.hand_content(interaction, game_id, seat)
        try:
            await interaction.followup.send(hand.text[:1990], files=hand.files, ephemeral=True)
        except BaseException:
            await self.keep_news(game_id, seat, hand)
            raise

    async def set_hand_place(
        self, interaction: discord.Interaction[Any], game_id: int, seat: int, where: str
    ) -> None:
        """``/hand where:thread|dm|here``: open (or forget) the player's lasting private
        place, and show the hand there. The hand goes there first; only when Discord took
        it is the choice saved; a refusal says why (DMs closed, a permission missing) and
        changes nothing."""
        uid = interaction.user.id
        lang = await self.t.lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if where == "here":
            await self.t.svc.places.set_private_place(game_id, uid, None)
            await self.show_hand(interaction, game_id, deferred=True)
            return
        try:
            if where == "thread":  # the bot's permissions here, as the interaction tells
                perms = interaction.app_permissions
                if not perms.create_private_threads:
                    raise PlaceRefused("bot.private.no_create_threads", "app permissions")
                if not perms.send_messages_in_threads:
                    raise PlaceRefused("bot.private.no_thread_send", "app permissions")
            place = await self._open_place(interaction, game_id, where, lang)
            hand = await self.hand_content(interaction, game_id, seat)
            channel = self.t.client.get_partial_messageable(place)
            note = tr(
                lang, "bot.private.thread_note" if where == "thread" else "bot.private.dm_note"
            )
            try:
                await channel.send(
                    (note + "\n" + hand.text)[:1990],
                    files=hand.files,
                    allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
                )
            except discord.HTTPException as e:
                await self.keep_news(game_id, seat, hand)
                if where == "thread":
                    await self._drop_thread(place)
                raise PlaceRefused(self._send_refused(where, e), e) from e
        except PlaceRefused as e:
            log.info("private place (%s) for game %s not opened: %s", where, game_id, e)
            await interaction.followup.send(tr(lang, e.key), ephemeral=True)
            return
        await self.t.svc.places.set_private_place(game_id, uid, where, place)
        key = "bot.private.goes_thread" if where == "thread" else "bot.private.goes_dm"
        await interaction.followup.send(tr(lang, key, place=f"<#{place}>"), ephemeral=True)

    async def _open_place(
        self, interaction: discord.Interaction[Any], game_id: int, where: str, lang: str
    ) -> int:
        """Open the player's private thread (with them in it) or their DM channel; its id.
        Raises :class:`PlaceRefused` when Discord refuses."""
        channel_id = interaction.channel_id
        uid = interaction.user.id
        http = self.t.client.http
        if where != "thread":
            try:
                dm = await http.start_private_message(uid)
            except discord.HTTPException as e:
                raise PlaceRefused(self._send_refused(where, e), e) from e
            return int(dm["id"])
        assert channel_id is not None
        try:
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
        except discord.HTTPException as e:
            key = "bot.private.no_create_threads" if _forbidden(e) else "bot.private.not_opened"
            raise PlaceRefused(key, e) from e
        place = int(data["id"])
        try:
            await http.add_user_to_thread(place, uid)
        except discord.HTTPException as e:
            await self._drop_thread(place)
            raise PlaceRefused("bot.private.not_opened", e) from e
        return place

    @staticmethod
    def _send_refused(where: str, e: discord.HTTPException) -> str:
        """Why a first message to a private place was refused (a catalogue key)."""
        if where == "dm":
            return "bot.private.dm_closed" if _forbidden(e) else "bot.private.not_opened"
        return "bot.private.no_thread_send" if _forbidden(e) else "bot.private.not_opened"

    async def _drop_thread(self, thread_id: int) -> None:
        """Delete a private thread opened for nothing (its first message was refused)."""
        try:
            await self.t.client.http.delete_channel(thread_id, reason="a private hand not opened")
        except discord.HTTPException as e:
            log.info("empty private thread %s left: %s", thread_id, e)


def _forbidden(e: discord.HTTPException) -> bool:
    """Discord refused for a permission or a user's privacy (403, 50007, 50013)."""
    return e.status == 403 or e.code in (CANNOT_DM, MISSING_PERMISSIONS)
