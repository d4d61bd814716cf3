"""Turn notices on Discord (issue #30): what :mod:`service.notices` decides, sent.

- :meth:`Notices.pinged`: who a new turn post may ping (``allowed_mentions``): the players
  whose mode is ``ping`` or ``both``; the others are named in the post without a ping (the
  publisher calls it where the post's mentions are built).
- :meth:`Notices.after_post`: after a new turn post, the direct messages of who it asks
  (``dm``, ``both``) with a jump link to it (``https://discord.com/channels/GUILD/CHANNEL/
  MESSAGE``), once per decision (a storage timer claim), held back in quiet hours; the
  "last to act" message; the heads-ups of a new turn.
- :meth:`Notices.tick`: the held messages whose quiet hours ended (the pacer's tick).
- :meth:`Notices.remind`: a reminder routed by the player's mode (the pacer's delivery).
- A direct message that cannot be delivered (the user's DMs are closed: 403, code 50007, or
  any refusal) falls back to a short channel message mentioning only that player with the
  link, which says once per game that their DMs are closed and how to open them.

Nothing here may break publishing: a failure is logged and the turn goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.hub import Hub
from i18n import tr
from service import notices as N
from service.results import seat_name
from storage.models import OpenPost

if TYPE_CHECKING:
    from service.game import GameSession
    from service.pace import Notice

log = logging.getLogger("bot.notices")

DM_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user" (DMs closed)."""


def jump_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A message's link (``@me`` for a channel outside a server)."""
    guild = str(guild_id) if guild_id else "@me"
    return f"https://discord.com/channels/{guild}/{channel_id}/{message_id}"


class Notices:
    """The turn notices of one bot (see module doc)."""

    def __init__(self, hub: Hub) -> None:
        self.t = hub
        self.ledger = N.Ledger(hub.svc)

    @property
    def client(self) -> discord.Client:
        return self.t.client

    # ------------------------------------------------------------------ the turn post

    async def pinged(self, users: Sequence[int]) -> list[int]:
        """The users of ``users`` a turn post pings (their mode is ``ping`` or ``both``)."""
        if not users:
            return []
        try:
            return N.channel_pings(users, await self.ledger.prefs(users))
        except Exception:  # the preferences unread: today's behaviour, everyone pinged
            log.exception("notice modes of %s not read", list(users))
            return list(users)

    async def after_post(
        self,
        s: GameSession,
        post: OpenPost,
        before: OpenPost | None,
        quiet: Collection[int | None] = (),
        *,
        new_turn: bool = True,
    ) -> None:
        """A new turn post ``post`` asks its deciders (but ``quiet``: who just acted and goes
        on): their direct messages, the last one's "everyone else has moved", and (a new
        turn, not a post that moved down within one) the heads-ups of who is next."""
        try:
            await self._after_post(s, post, before, quiet, new_turn=new_turn)
        except Exception:
            log.exception("turn notices of game %s not sent", s.game_id)

    async def _after_post(
        self,
        s: GameSession,
        post: OpenPost,
        before: OpenPost | None,
        quiet: Collection[int | None],
        *,
        new_turn: bool,
    ) -> None:
        gid = s.game_id
        seats = s.seats
        humans = {
            i: sp.user_id for i, sp in enumerate(seats) if sp.user_id is not None and sp.ai is None
        }
        since = await self.ledger.decisions(gid)
        asked = [
            N.Asked(seat, humans[seat], since.get(seat, s.version))
            for seat in post.deciders
            if seat in humans and humans[seat] not in quiet
        ]
        users = [*humans.values()]
        prefs = await self.ledger.prefs(users)
        quiets = await self.ledger.quiet(users)
        now = self.ledger.now()
        link = jump_link(s.rec.guild_id, s.channel_id, post.message_id)
        for plan in N.turn_notices(asked, prefs, quiets, now):
            if plan.held:
                await self.ledger.claim(gid, plan.version, plan.seat, N.HELD)
            elif await self.ledger.claim(gid, plan.version, plan.seat, N.TURN):
                await self._send(s, plan, link)
        last = N.last_to_act(before.deciders if before is not None else (), post.deciders)
        if last is not None and last in humans:
            uid = humans[last]
            plan_or_none = N.last_notice(
                last, uid, since.get(last, s.version), prefs.get(uid), quiets.get(uid), now
            )
            if plan_or_none is not None and await self.ledger.claim(
                gid, plan_or_none.version, last, N.LAST
            ):
                await self._send(s, plan_or_none, link)
        if new_turn:
            for plan in N.heads_up(
                post.deciders, N.next_seats(s.state), humans, prefs, quiets, now, s.version
            ):
                if await self.ledger.claim(gid, plan.version, plan.seat, N.HEADS_UP):
                    await self._send(s, plan, link)

    async def _send(self, s: GameSession, plan: N.Plan, link: str) -> None:
        """One planned notice, by direct message (the channel when that fails), its timer
        finished with the outcome."""
        lang = await self.t.lang_of(None, s, user_id=plan.user_id)
        gid = s.game_id
        if plan.kind == N.HEADS_UP:
            names = [seat_name(s.seats, d, lang) for d in plan.after if d < len(s.seats)]
            text = tr(lang, "bot.notice.heads_up", game=gid, who=names, link=link)
        elif plan.kind == N.LAST:
            text = tr(lang, "bot.notice.last", game=gid, link=link)
        else:
            text = tr(lang, "bot.notice.turn", game=gid, link=link)
        if await self.direct(plan.user_id, text):
            outcome = "sent"
        elif plan.kind == N.HEADS_UP:
            outcome = "dms closed"  # a heads-up only ever goes by DM: none for them
        else:
            ping = tr(lang, "bot.notice.ping", user=f"<@{plan.user_id}>", game=gid, link=link)
            # ``both``: the turn post pinged them already; the channel message only tells
            # them (once per game) that their DMs are closed
            prefs = await self.ledger.prefs([plan.user_id])
            again = not N.pings(N.mode_of(prefs.get(plan.user_id)))
            sent = await self.fallback(
                s.rec.channel_id, gid, plan.seat, plan.user_id, ping, lang, always=again
            )
            outcome = "channel (dms closed)" if sent else "dms closed"
        await self.ledger.finish(gid, plan.version, plan.seat, plan.kind, outcome)

    # ------------------------------------------------------------------ sending

    async def direct(self, user_id: int, text: str, view: ui.View | None = None) -> bool:
        """A direct message to ``user_id``; False when Discord refuses it (DMs closed:
        403 code 50007, or another refusal)."""
        try:
            dm = await self.client.http.start_private_message(user_id)
            channel = self.client.get_partial_messageable(int(dm["id"]))
            kw: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
            if view is not None:
                kw["view"] = view
            await channel.send(text[:1990], **kw)
        except discord.Forbidden as e:
            if e.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", user_id, e)
            return False
        except discord.HTTPException as e:
            log.warning("DM to %s not sent: %s", user_id, e)
            return False
        return True

    async def fallback(
        self,
        channel_id: int,
        game_id: int,
        seat: int,
        user_id: int,
        text: str,
        lang: str,
        view: ui.View | None = None,
        *,
        always: bool = True,
    ) -> bool:
        """A direct message refused: ``text`` in the game's channel mentioning only that
        player, saying (once per game) that their DMs are closed and how to open them; not
        ``always``: only when it says so. Whether it was posted."""
        if await self.ledger.claim(game_id, 0, seat, N.TOLD):
            text = f"{text}\n{tr(lang, 'bot.notice.dms_closed')}"
            await self.ledger.finish(game_id, 0, seat, N.TOLD, "told")
        elif not always:
            return False
        mentions = discord.AllowedMentions(
            everyone=False, users=[discord.Object(user_id)], roles=False, replied_user=False
        )
        kw: dict[str, Any] = {"allowed_mentions": mentions}
        if view is not None:
            kw["view"] = view
        await self.client.get_partial_messageable(channel_id).send(text[:1990], **kw)
        return True

    # ------------------------------------------------------------------ the tick

    async def tick(self, game_id: int) -> list[str]:
        """Send the game's direct messages held back by quiet hours that may go now (their
        player still decides in that decision); the others that became moot are closed.
        What was done (for logs and tests)."""
        held = await self.ledger.held(game_id)
        if not held:
            return []
        s = await self.t.svc.peek(game_id)
        seats = s.seats
        since = await self.ledger.decisions(game_id)
        deciding = {seat: v for seat, v in since.items() if s.decides(seat)}
        uids = {h.seat: seats[h.seat].user_id for h in held if h.seat < len(seats)}
        quiets = await self.ledger.quiet(u for u in uids.values() if u is not None)
        by_seat = {seat: quiets.get(u) if u is not None else None for seat, u in uids.items()}
        send, moot = N.release(held, deciding, by_seat, self.ledger.now())
        done = []
        for h in moot:
            await self.ledger.finish(game_id, h.since, h.seat, N.HELD, "moot")
        post = s.rec.settings.open_post
        for h in send:
            uid = uids.get(h.seat)
            if uid is None or post is None:
                await self.ledger.finish(game_id, h.since, h.seat, N.HELD, "moot")
                continue
            if await self.ledger.claim(game_id, h.since, h.seat, N.TURN):
                link = jump_link(s.rec.guild_id, s.channel_id, post.message_id)
                await self._send(s, N.Plan(N.TURN, h.seat, uid, h.since), link)
                done.append(f"game {game_id} seat {h.seat}: notice after quiet hours")
            await self.ledger.finish(game_id, h.since, h.seat, N.HELD, "sent")
        return done

    # ------------------------------------------------------------------ reminders

    async def remind(self, n: Notice, view: ui.View | None = None) -> None:
        """A reminder (:class:`service.pace.Notice` of kind ``reminder``, its text the
        service's) by the player's mode: in the channel with a ping (``ping``), by direct
        message with the turn's link (``dm``), both (``both``), or in the channel without a
        ping (``none``). A direct message refused falls back to the channel's ping."""
        uid = n.user_id
        if uid is None:
            await self._channel(n.channel_id, n.text, [], view)
            return
        prefs = await self.ledger.prefs([uid])
        route = N.reminder_route(N.mode_of(prefs.get(uid)))
        if route.dm:
            s = await self.t.svc.peek(n.game_id)
            post = s.rec.settings.open_post
            lang = await self.t.lang_of(None, s, user_id=uid)
            text = n.text
            if post is not None:
                link = jump_link(s.rec.guild_id, s.channel_id, post.message_id)
                text = f"{text}\n{tr(lang, 'bot.notice.jump', link=link)}"
            sent = await self.direct(uid, text, view)
            if not sent and not route.channel:  # the channel's ping instead; they are told
                seat = n.seat if n.seat is not None else 0
                await self.fallback(n.channel_id, n.game_id, seat, uid, n.text, lang, view)
                return
        if route.channel:
            await self._channel(n.channel_id, n.text, [uid] if route.ping else [], view)

    async def _channel(
        self, channel_id: int, text: str, users: Sequence[int], view: ui.View | None
    ) -> None:
        mentions = discord.AllowedMentions(
            everyone=False,
            users=[discord.Object(u) for u in users] if users else False,
            roles=False,
            replied_user=False,
        )
        kw: dict[str, Any] = {"allowed_mentions": mentions}
        if view is not None:
            kw["view"] = view
        await self.client.get_partial_messageable(channel_id).send(text[:1990], **kw)


__all__ = ["DM_CLOSED", "Notices", "jump_link"]
