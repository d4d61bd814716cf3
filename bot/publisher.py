"""Publishing a game's results in its channel: one Components V2 post per finished turn with
the map (drawn in the service's worker processes), the ping of who decides next, the status message edited
in place, the timeline at the end, and catching up after a restart.

Everything here works from what the service returned (a :class:`~service.Result` and the
:class:`~service.game.GameSession` it came from): no store, no engine.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.alt import describe, image_alt, public_alts
from bot.discord_views import fit_lines, status_layout, turn_buttons, turn_layout
from bot.hub import Hub
from bot.images import draw, missing_note, upload_limit
from bot.notices import Notices
from bot.private import PrivateDesk
from bot.settings import shard_of
from bot.threads import ThreadDesk
from i18n import catalogue, tr, typeset
from service import Frame, ImageRequest, Post, Result, SeatSpec
from service.games import adapter
from service.results import Refused, Shown, Status
from service.turn import Played, Show
from storage.models import OpenPost

if TYPE_CHECKING:
    from service.game import GameSession
    from web.server import WebServer

log = logging.getLogger("bot.publisher")

DrawImages = Callable[
    [Sequence[tuple[str, ImageRequest, Frame]], int], Awaitable[list[discord.File]]
]

TIMELINE_NOTE = "bot.image.timeline_missing"
"""The note of a final post without its timeline (a catalogue key)."""

TOO_LARGE = 40005
"""Discord's error code of an upload past the channel's size limit (with HTTP 413)."""

EDIT_QUOTA = 30046
"""Discord's code refusing an edit of a message older than an hour past its quota ("Maximum
number of edits to messages older than 1 hour reached"); Discord has answered it with a 400
and with a 429 that is no rate limit (no retry_after to wait): either way the message is
posted anew, never waited on."""

BOARD_WORDS = 1800
"""Characters of a post's board in words at most (a post without pictures)."""


class Unannounced(Exception):
    """The channel refused a turn's post itself (no Send Messages, a server error after
    discord.py's retries): the step stays saved and unannounced, posted later."""


@dataclass
class _Out:
    """One publishing's circumstances: the interaction it answers (its permissions, its
    player for a private word), the upload limit, who is not pinged, whether it starts a
    new post."""

    interaction: discord.Interaction[Any] | None
    limit: int
    quiet: Collection[int | None] = ()
    anew: bool = False


def _may_pin(perms: discord.Permissions) -> bool:
    """The newer Pin Messages permission (bit 51), where discord.py knows it."""
    return bool(perms.value >> 51 & 1)


def _sizes(files: Sequence[discord.File]) -> list[bytes]:
    return [f.fp.getvalue() for f in files if isinstance(f.fp, io.BytesIO)]


@dataclass
class Chunk:
    """Public lines gathered until a turn ends, the images shown with them (a battle's, with
    the frame each is drawn from) and the newest frame (the map's, with the turn's events)."""

    lines: list[str] = field(default_factory=list)
    images: list[tuple[ImageRequest, Frame]] = field(default_factory=list)
    frame: Frame | None = None
    closed: bool = False  # a turn (or the game) ended with it


def kind_text(lang: str, kind: str, game: str | None = None) -> str:
    """A pending decision's kind in words (``combat cards``): the game's own words for it
    (its adapter's ``decision_words``), else the key ``bot.decision.<kind>``, else the kind
    itself."""
    if game is not None:
        own = adapter(game).decision_words(kind, lang)
        if own:
            return own
    key = f"bot.decision.{kind}"
    return tr(lang, key) if key in catalogue("en").messages else kind.replace("_", " ")


class Publisher:
    """Posts of the bot's games (see module doc)."""

    def __init__(self, hub: Hub, private: PrivateDesk) -> None:
        self.t = hub
        self.private = private
        # the drawing of images, in the service's workers (a load test may replace it)
        self.images: DrawImages = functools.partial(draw, render=hub.svc.render)
        self.pages: WebServer | None = None  # the game pages' server (None: off)
        self.notices = Notices(hub)  # [notices] turn notices (issue #30)
        # what the channels refused (learnt where no permissions are at hand): channels where
        # an upload was refused (403), smaller upload limits (413), and per game the lines
        # of steps saved but not announced (with the posted version they follow)
        self.no_attach: set[int] = set()
        self.limits: dict[int, int] = {}
        self.held: dict[int, tuple[int | None, list[str]]] = {}

    @property
    def client(self) -> discord.Client:
        return self.t.client

    # ------------------------------------------------------------------ publishing

    async def publish(
        self,
        played: Played,
        *,
        interaction: discord.Interaction[Any] | None = None,
        actor: int | None = None,
        force: bool = False,
        anew: bool = False,
    ) -> Shown:
        """Post what the service did (:class:`~service.turn.Played`: the command's result and
        the steps it took after it) — one post per turn: the turn's post is edited in place
        while the same players decide (its summary grows, its pictures stay: its map is the
        board as it was posted, the buttons follow the version: no new ping), finished with
        the turn's last step when the turn ends; a new post (with the board now and a ping to
        who decides) comes when a new turn begins — it tells what happened since: the
        computer player's whole turn just before, else the step that ended the turn before,
        never an empty summary — and when the deciders change within the turn (a battle's defender,
        then the attacker again) the turn's post moves down: a new post with the whole turn
        so far, the old one deleted. Private posts go to the actor ephemerally, or to the
        player's private place, or wait in their inbox. The turn's post is the one the game
        keeps (its id, lines, deciders and pictures: a restart or another process goes on
        with it), and only the newest post of a game has buttons: a post the game moved past
        loses them. Called by the service with the game's lock held (the posts reach the
        channel in the game's order); returns what was posted. ``force``: post even when
        nothing new happened (a restart's catch-up); ``anew``: a moderator's or the clock's
        doing (a rollback, a seat change, a deadline) starts a new post rather than joining
        the turn's.

        No refusal of Discord escapes once the step is saved ("When Discord refuses" in
        docs/discord.md): an edit of the turn's post refused (the edit quota of a post older
        than an hour, a gallery Discord will not take) or a post deleted moves the turn to a
        new post; a channel where the bot may not attach files gets the post without its
        pictures, the board in words instead (the host told once); pictures too large are
        drawn smaller; a post the channel refuses altogether (no Send Messages, a server
        error after discord.py's retries) leaves the step saved but unannounced
        (``Shown.announced`` False, the game not marked posted): its lines go with the next
        post of the game, or the restart's catch-up posts them."""
        s, res, others = played.game, played.command, played.ai
        before = s.rec.settings.open_post  # the turn's post as the game keeps it
        chunks: list[Chunk] = [Chunk(lines=self._held_lines(s))]
        limit = min(upload_limit(interaction), self.limits.get(s.channel_id, 1 << 40))
        deliveries: list[Post] = []
        frames: dict[int, Frame] = {}  # what the private posts' pictures are drawn from
        for r in (res, *played.steps):
            frames.update(r.frames)
            for post in r.posts:
                self._take(post, r, chunks, s.seats, deliveries)
        # who just acted is not pinged again unless someone else decided in between
        acted = s.seats[actor].user_id if actor is not None and actor < len(s.seats) else None
        quiet = {acted} if acted is not None and not others.applied else set()
        if self.t.pacer is not None and played.schedule is not None:
            self.t.pacer.show(played.schedule)  # the deadlines of who decides now
        closed, last = chunks[:-1], chunks[-1]
        if not (force or last.lines or closed):
            return Shown(False)
        if s.over and closed:  # the end: its own post with the scores, boards and timeline
            ending = closed[-1]
            kept = [(q, f) for q, f in ending.images if q.kind not in ("boards", "scores")]
            last.images = [(q, f) for q, f in ending.images if (q, f) not in kept]
            last.frame, ending.images = ending.frame, kept
        out = _Out(interaction, limit, quiet, anew)
        try:
            now = await self._announce(s, chunks, before, out)
        except Unannounced as e:
            log.warning("game %s v%s saved but not announced: %s", s.game_id, s.version, e)
            held = [line for c in chunks for line in c.lines]
            self.held[s.game_id] = (s.rec.settings.posted_version, held)
            shown = Shown(False, before, announced=False)
        else:
            self.held.pop(s.game_id, None)
            shown = Shown(True, now)
        await self.update_status(s, interaction=interaction)
        try:
            await self.private.deliver(s, deliveries, interaction, actor, frames=frames)
        except discord.HTTPException as e:  # the step is saved: a refusal must not undo that
            log.warning("private news of game %s not delivered: %s", s.game_id, e)
        if s.over and shown.announced:  # threads (bot/threads.py): the finished game's thread
            await ThreadDesk.of(self.t).game_over(s)  # tagged and archived after its end post
        return shown

    async def _announce(
        self, s: GameSession, chunks: list[Chunk], before: OpenPost | None, out: _Out
    ) -> OpenPost | None:
        """The channel's posts of ``chunks`` (see :meth:`publish`): the turn's post as it now
        stands (None: the game is over). Raises :class:`Unannounced` when the channel refuses
        a post."""
        closed, last = chunks[:-1], chunks[-1]
        quiet = out.quiet
        deciders = tuple(d.seat for d in s.status().waiting if d.user_id and not d.ai)
        open_post = None if out.anew else before
        edited: set[int] = set()  # the posts edited or deleted here (their buttons are done)
        rest, recap = list(closed), list[str]()
        if open_post is not None and rest:  # the open post's turn ended: finished in place
            first = rest.pop(0)
            done = await self._edit(s, open_post, first, out, final=False)
            if done is not None:
                edited.add(done.message_id)
                recap = first.lines[-1:]  # the step that ended it: the next post's first line
            else:  # gone, or its edit refused: the whole turn in a new post, the old one goes
                whole = Chunk([*open_post.lines, *first.lines], first.images, first.frame)
                await self._send(s, whole, out, final=False)
                if await self._delete(s, open_post):
                    edited.add(open_post.message_id)
            open_post = None
        # whole turns since (computer players'): each its own post, but the last one is
        # folded into the new post (it tells what happened since the turn before)
        for c in rest[:-1]:
            await self._send(s, c, out, final=False)
        fold = Chunk()
        for c in (*rest[-1:], last):
            fold.lines += c.lines
            fold.images += c.images
            fold.frame = c.frame or fold.frame
        if not fold.lines:  # a new post never has an empty summary
            fold.lines = recap or [await self._where(s)]
        now: OpenPost | None = None
        moved = False  # [notices] the turn's post moved down (not a new turn)
        if s.over:
            await self._send(s, fold, out, final=True)
        elif open_post is not None:
            if open_post.deciders == deciders:
                now = await self._edit(s, open_post, last, out, final=True)
                if now is not None:
                    edited.add(now.message_id)
            if now is None:
                # the same turn, other deciders (a defender's battle cards, then the attacker
                # again), or the post gone or refusing its edit: the turn's post moves down
                # to ping them — the new one has the whole turn so far and the board now,
                # the old one goes (one post per turn stays)
                lines = [*open_post.lines, *last.lines] or fold.lines
                moving = Chunk(lines, last.images, last.frame)
                now = await self._open(s, moving, out, deciders, quiet)
                moved = True
                if await self._delete(s, open_post):
                    edited.add(open_post.message_id)
        else:
            now = await self._open(s, fold, out, deciders, quiet)
        if now is not None and now.message_id not in edited:  # [notices] a new turn post:
            await self.notices.after_post(s, now, before, quiet, new_turn=not moved)  # its DMs
        if before is not None and before.message_id not in edited:
            await self._strip(s, before)  # only the newest post of a game has buttons
        return now

    def _held_lines(self, s: GameSession) -> list[str]:
        """The public lines of steps saved but not announced (the channel refused their post),
        to go first in the game's next post — unless the game was posted since (a catch-up
        or another process posted them)."""
        held = self.held.get(s.game_id)
        if held is None or held[0] != s.rec.settings.posted_version:
            self.held.pop(s.game_id, None)
            return []
        return list(held[1])

    def show(
        self,
        *,
        interaction: discord.Interaction[Any] | None = None,
        actor: int | None = None,
        force: bool = False,
        anew: bool = False,
    ) -> Show:
        """:meth:`publish` with these options, as the service's ``show``."""
        return functools.partial(
            self.publish, interaction=interaction, actor=actor, force=force, anew=anew
        )

    def _take(  # post.text: the service's, in the game's language
        self,
        post: Post,
        r: Result,
        chunks: list[Chunk],
        seats: Sequence[SeatSpec],
        deliveries: list[Post],
    ) -> None:
        if post.audience == "public":
            c = chunks[-1]
            c.lines.append(post.text)
            c.frame = r.frames.get(r.version, c.frame)
            for req in post.images:
                if req.kind != "map" and req.seat is None:
                    c.images.append((req, r.frames[req.version]))
            if post.ends_turn:
                maps = [q for q in post.images if q.kind == "map"]
                if maps:
                    c.frame = r.frames[maps[0].version]
                c.closed = True
                chunks.append(Chunk())
            return
        seat = int(post.audience)
        if seat < len(seats) and seats[seat].ai:
            return  # an AI's private news: nobody reads it
        deliveries.append(post)

    async def may_undo(self, s: GameSession) -> bool:
        """Whether the one deciding now may take back their last step (the Undo button):
        known from the session's own step, else from the log (after an undo, a catch-up)."""
        if s.last_step is not None:
            return s.undo_allowed()
        who = s.status().waiting
        if len(who) != 1 or s.state.phase != "play":
            return False
        try:
            await self.t.svc.undo_check_in(s, who[0].seat)
        except Refused:
            return False
        return True

    async def _content(
        self,
        s: GameSession,
        lines: list[str],
        chunk: Chunk,
        limit: int,
        *,
        final: bool,
        kept: Sequence[tuple[str, str]] = (),
        text_only: bool = False,
    ) -> tuple[ui.LayoutView, list[discord.File], list[int], dict[str, str]]:
        """A turn post: the summary ``lines``, the map (and a battle's picture), and when
        ``final`` (the game now) who decides with the buttons; the users it pings and the
        pictures' alt texts. ``kept``: the pictures the message already has (name, alt
        text), not drawn again unless the chunk has a newer one of their kind.
        ``text_only``: no pictures (the bot may not attach files there): the board in words
        instead, as a post whose pictures all failed has it."""
        frame = chunk.frame or s.frame()
        lang = await self.t.game_lang(s)
        if text_only:
            board = self._board_words(s, frame, lang)
            view, users = await self._layout(s, lines, [], {}, final=final, board=board)
            return view, [], users, {}
        reqs: list[tuple[str, ImageRequest, Frame]] = []
        if "map.png" not in dict(kept):
            req = ImageRequest("map", None, frame.version, lang=lang, game=s.game)
            reqs.append(("map.png", req, frame))
        kinds_seen = {"map"}
        for req, f in reversed(chunk.images):  # the newest of each kind
            if req.kind not in kinds_seen:
                kinds_seen.add(req.kind)
                reqs.append((f"{req.kind}.png", req, f))
        files = await self.images(reqs, limit) if reqs else []
        drawn = {name for name, _, _ in reqs}
        alts = {n: a for n, a in kept if n not in drawn}
        alts.update(self._alts(s, reqs, chunk.lines or lines, lang) if reqs else {})
        notes = [missing_note(files, lang)]
        if final and s.over:
            used = sum(len(f.fp.getvalue()) for f in files if isinstance(f.fp, io.BytesIO))
            try:
                gif = await self._timeline(s.game_id, limit - used)
            except Exception:  # a picture must not break the end of a game
                log.exception("timeline of game %s not drawn", s.game_id)
                gif, notes = None, [*notes, tr(lang, TIMELINE_NOTE)]
            if gif is not None:
                files.append(discord.File(io.BytesIO(gif), filename="timeline.gif"))
                alts["timeline.gif"] = image_alt("timeline", s.game, lang, game_id=s.game_id)
        describe(files, alts)
        lines = [*lines, *(n for n in notes if n)]
        names = [n for n, _ in kept if n not in drawn] + [f.filename for f in files]
        # no picture at all (none could be drawn small enough): the board in words instead
        board = self._board_words(s, frame, lang) if reqs and not names else []
        view, users = await self._layout(s, lines, names, alts, final=final, board=board)
        return view, files, users, alts

    def _board_words(self, s: GameSession, frame: Frame, lang: str) -> list[str]:
        """The board of ``frame`` in words, in ``lang`` (the game adapter's, as ``/board
        text:`` shows it), under a line saying why: a post without its pictures."""
        try:
            words = s.A.board_text(frame.state, s.seats, lang)
        except Exception:  # the words must not stop the post
            log.exception("the board of game %s not written in words", s.game_id)
            words = []
        return [tr(lang, "bot.limits.board_words"), *words]

    async def _layout(
        self,
        s: GameSession,
        lines: list[str],
        names: list[str],
        alts: dict[str, str],
        *,
        final: bool,
        board: Sequence[str] = (),
    ) -> tuple[ui.LayoutView, list[int]]:
        """A turn post's layout over its pictures ``names`` (uploaded with it, or already
        the message's); the users it pings. ``board``: the board in words (a post without
        pictures), after the summary."""
        lang = await self.t.game_lang(s)
        footer, users, buttons = "", list[int](), list[ui.Item[Any]]()
        if final:
            status = s.status(lang)
            footer, users, kinds = self.next_text(status, lang)
            if kinds:
                undo = await self.may_undo(s)
                buttons = turn_buttons(s.game_id, s.version, kinds, undo=undo, lang=lang)
        words = fit_lines(list(board), BOARD_WORDS, lang) if board else ""
        summary = fit_lines(lines, 3400 - len(words), lang)
        if words:
            summary = f"{summary}\n\n{words}"
        return turn_layout(summary, names, footer, buttons, alts=alts), users

    async def _where(self, s: GameSession) -> str:
        """Where the game stands, in its language (a post's summary when nothing was said)."""
        lang = await self.t.game_lang(s)
        return self.where_text(s.status(lang), lang)

    def _alts(
        self,
        s: GameSession,
        reqs: Sequence[tuple[str, ImageRequest, Frame]],
        summary: Sequence[str],
        lang: str,
    ) -> dict[str, str]:
        """The alt texts of a turn post's pictures, by file name (:mod:`bot.alt`): public
        only (who decides, the public scores, the turn's ``summary``), in the game's
        language; "" for one that could not be written (a picture goes out without it
        rather than not at all)."""
        try:
            return public_alts(self.t.svc, s.game_id, s.seats, reqs, lang, summary)
        except Exception:
            log.exception("alt texts of game %s not written", s.game_id)
            return {}

    # ------------------------------------------------------------------ permissions

    def permissions(
        self, s: GameSession, interaction: discord.Interaction[Any] | None = None
    ) -> discord.Permissions | None:
        """The bot's permissions in the game's channel: the interaction's
        (``app_permissions``, when it comes from that channel), else the cached guild's
        (``permissions_for``), else None (not known: learnt from a refusal)."""
        if interaction is not None and interaction.channel_id == s.channel_id:
            return interaction.app_permissions
        guild = self.client.get_guild(s.rec.guild_id) if s.rec.guild_id else None
        if guild is None or guild.me is None:
            return None
        channel = guild.get_channel_or_thread(s.channel_id)
        return None if channel is None else channel.permissions_for(guild.me)

    def _may_send(
        self,
        s: GameSession,
        perms: discord.Permissions | None,
        interaction: discord.Interaction[Any] | None,
    ) -> bool:
        """Whether the bot may post in the game's channel as far as its permissions tell
        (True when they are not known): Send Messages, or in a thread Send Messages in
        Threads."""
        if perms is None:
            return True
        channel: Any = None
        if interaction is not None and interaction.channel_id == s.channel_id:
            channel = interaction.channel
        elif s.rec.guild_id and (guild := self.client.get_guild(s.rec.guild_id)) is not None:
            channel = guild.get_channel_or_thread(s.channel_id)
        if isinstance(channel, discord.Thread):
            return perms.send_messages_in_threads
        return perms.send_messages

    def _may_attach(self, s: GameSession, perms: discord.Permissions | None) -> bool:
        """Whether to upload pictures in the game's channel: its known permissions, else
        what the last refusal there taught (a 403 on an upload)."""
        if perms is None:
            return s.channel_id not in self.no_attach
        if perms.attach_files:
            self.no_attach.discard(s.channel_id)
        else:
            self.no_attach.add(s.channel_id)
        return perms.attach_files

    async def _tell_host(
        self, s: GameSession, what: str, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Tell the game's host (seat 1's player, else who opened the game), once per game,
        that the bot lacks the permission ``what`` (``attach_files``, ``send_messages``) in
        the game's channel, in the host's language: in their DMs, else privately to the
        player whose press it is. Not for a thread a moderator locked: its host is told that
        (bot/threads.py), and the permissions are not what is missing."""
        if self.t.svc.places.told(s.rec, what):
            return
        if what == "send_messages" and s.game_id in ThreadDesk.of(self.t).told:
            return
        first = s.seats[0] if s.seats else None
        host = first.user_id if first is not None and not first.ai else None
        host = host or s.rec.settings.host_user_id
        key = f"bot.limits.missing.{what}"
        where = f"<#{s.channel_id}>"
        told = False
        if host is not None:
            lang = await self.t.lang_of(None, s, user_id=host)
            try:
                dm = await self.client.http.start_private_message(host)
                await self.client.get_partial_messageable(int(dm["id"])).send(
                    tr(lang, key, channel=where, game=s.game_id),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                told = True
            except discord.HTTPException as e:
                log.info("host of game %s not told in DMs (%s): %s", s.game_id, what, e)
        if not told and interaction is not None:
            lang = await self.t.lang_of(interaction, s)
            try:
                await self.t.reply(interaction, tr(lang, key, channel=where, game=s.game_id))
                told = True
            except discord.HTTPException as e:
                log.info("game %s: %s not told to the player: %s", s.game_id, what, e)
        if told:
            await self.t.svc.places.mark_told(s, what)

    # ------------------------------------------------------------------ posting

    async def _send(
        self,
        s: GameSession,
        chunk: Chunk,
        out: _Out,
        *,
        final: bool,
        quiet: Collection[int | None] = (),
    ) -> tuple[discord.Message, dict[str, str]]:
        """A new post of ``chunk`` (pinging who decides now when ``final``, but not the
        users in ``quiet``); its pictures' alt texts. Refused uploads are handled here: no
        Attach Files (known from the permissions, or a 403 on the upload) → the same post
        without pictures, the board in words (the host told once); too large (413) → the
        pictures drawn smaller, else without them. Raises :class:`Unannounced` when the
        channel refuses the post itself (no Send Messages: the host told once; a server
        error after discord.py's retries)."""
        perms = self.permissions(s, out.interaction)
        if not self._may_send(s, perms, out.interaction):
            await self._tell_host(s, "send_messages", out.interaction)
            raise Unannounced(f"no Send Messages in channel {s.channel_id}")
        text_only = no_attach = not self._may_attach(s, perms)
        limit = out.limit
        view, files, users, alts = await self._content(
            s, chunk.lines, chunk, limit, final=final, text_only=text_only
        )
        users = [u for u in users if u not in quiet]
        users = await self.notices.pinged(users)  # [notices] only who asked for pings
        mentions = discord.AllowedMentions.none()
        if users:
            mentions = discord.AllowedMentions(
                users=[discord.Object(u) for u in users], everyone=False, roles=False
            )
        channel = self.client.get_partial_messageable(s.channel_id)
        for tries in range(1, 6):
            try:
                msg = await channel.send(view=view, files=files, allowed_mentions=mentions)
            except discord.Forbidden as e:
                if not files:  # refused even without pictures: no Send Messages
                    await self._tell_host(s, "send_messages", out.interaction)
                    raise Unannounced(f"post refused: {e}") from e
                log.info("game %s: upload refused (%s), posting without pictures", s.game_id, e)
                self.no_attach.add(s.channel_id)
                text_only = no_attach = True
            except discord.HTTPException as e:
                if not (files and (e.status == 413 or e.code == TOO_LARGE)):
                    raise Unannounced(f"post refused: {e}") from e
                sent = sum(len(b) for b in _sizes(files))
                limit = min(limit, sent) // 2
                self.limits[s.channel_id] = limit  # this channel's uploads: smaller from now
                log.info("game %s: upload of %s bytes too large, now %s", s.game_id, sent, limit)
                text_only = tries >= 3  # smaller twice and still too large: without them
            else:
                if no_attach:  # the pictures stayed out for want of Attach Files: say so
                    await self._tell_host(s, "attach_files", out.interaction)
                return msg, {f.filename: alts.get(f.filename, "") for f in files}
            view, files, _, alts = await self._content(
                s, chunk.lines, chunk, limit, final=final, text_only=text_only
            )
        raise Unannounced("post refused: no size of its pictures was taken")

    async def _open(
        self,
        s: GameSession,
        chunk: Chunk,
        out: _Out,
        deciders: tuple[int, ...],
        quiet: Collection[int | None] = (),
    ) -> OpenPost:
        """A new turn post for who decides now (pinged, but not ``quiet``), kept open for
        the turn's steps."""
        msg, images = await self._send(s, chunk, out, final=True, quiet=quiet)
        return OpenPost(
            message_id=msg.id,
            lines=tuple(chunk.lines),
            deciders=deciders,
            version=s.version,
            images=tuple(images.items()),
        )

    async def _edit(
        self, s: GameSession, post: OpenPost, chunk: Chunk, out: _Out, *, final: bool
    ) -> OpenPost | None:
        """Add ``chunk`` to the open turn post in place (no ping: an edit notifies nobody);
        ``final``: the turn goes on (who decides, the buttons), else the turn ended. The
        post keeps its pictures (its map is the board as the post was made: the summary
        tells the steps since, the next post shows the board after them) unless a new
        picture comes (a battle's report): then all are drawn afresh. The post as it now
        stands; None when it is gone (deleted) or Discord refuses the edit (the edit quota
        of a message older than an hour, code 30046; a media gallery it will not take in an
        edit, 50035; an upload refused): the caller posts anew. A server error (after
        discord.py's retries) raises :class:`Unannounced`."""
        lines = [*post.lines, *chunk.lines]
        channel = self.client.get_partial_messageable(s.channel_id)
        message = channel.get_partial_message(post.message_id)
        none = discord.AllowedMentions.none()
        attach = self._may_attach(s, self.permissions(s, out.interaction))
        try:
            if attach and (chunk.images or not post.images):  # new pictures beside its own
                kept: list[discord.Attachment] = []
                if post.images:
                    kept = list((await message.fetch()).attachments)
                have = {a.filename for a in kept}
                view, files, _, alts = await self._content(
                    s,
                    lines,
                    chunk,
                    out.limit,
                    final=final,
                    kept=[p for p in post.images if p[0] in have],
                )
                new = [f.filename for f in files]
                kept = [a for a in kept if a.filename in alts and a.filename not in new]
                await message.edit(view=view, attachments=[*kept, *files], allowed_mentions=none)
                images = tuple((n, alts.get(n, "")) for n in [*(a.filename for a in kept), *new])
            else:  # the attachments stay: only the components change
                alts = dict(post.images)
                board: list[str] = []
                if not alts:  # a post without pictures: its board in words, as it is now
                    lang = await self.t.game_lang(s)
                    board = self._board_words(s, chunk.frame or s.frame(), lang)
                view, _ = await self._layout(s, lines, list(alts), alts, final=final, board=board)
                await message.edit(view=view, allowed_mentions=none)
                images = post.images
        except discord.NotFound:
            return None
        except discord.HTTPException as e:
            if e.code != EDIT_QUOTA and (e.status >= 500 or e.status == 429):
                raise Unannounced(f"edit failed: {e}") from e
            log.info("game %s's post %s refused its edit: %s", s.game_id, post.message_id, e)
            return None
        return post.model_copy(
            update={"lines": tuple(lines), "version": s.version, "images": images}
        )

    async def _delete(self, s: GameSession, post: OpenPost) -> bool:
        """Delete a turn post that moved down (its lines are in the new one); whether it is
        gone (else it keeps its buttons for :meth:`_strip`)."""
        channel = self.client.get_partial_messageable(s.channel_id)
        try:
            await channel.get_partial_message(post.message_id).delete()
        except discord.NotFound:
            return True
        except discord.HTTPException as e:
            log.warning("game %s's post %s not deleted: %s", s.game_id, post.message_id, e)
            return False
        return True

    async def _strip(self, s: GameSession, post: OpenPost) -> None:
        """Take the buttons (and who decided) off a post the game moved past, keeping its
        summary and pictures (the attachments stay: only the components change). A post
        gone or no longer editable stays as it is (logged)."""
        lang = await self.t.game_lang(s)
        alts = dict(post.images)
        view = turn_layout(fit_lines(list(post.lines), 3400, lang), list(alts), "", alts=alts)
        channel = self.client.get_partial_messageable(s.channel_id)
        try:
            await channel.get_partial_message(post.message_id).edit(
                view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound:
            pass
        except discord.HTTPException as e:
            log.warning("buttons of game %s's post %s left: %s", s.game_id, post.message_id, e)

    # ------------------------------------------------------------------ a post gone

    async def repost(
        self, game_id: int, *, interaction: discord.Interaction[Any] | None = None
    ) -> bool:
        """When the game's open turn post is gone (a moderator deleted it) — e.g. a player
        pressed a button of an older post — post the turn again (:meth:`repost_turn`), under
        the game's lock. Whether a new post went out (False: the post is still there, the
        game is over, or the channel refused)."""
        async with self.t.svc.session(game_id) as s:
            if s.over:
                return False
            post = s.rec.settings.open_post
            if post is not None and await self._exists(s, post.message_id):
                return False
            return (await self.repost_turn(s, interaction=interaction)).announced

    async def repost_turn(
        self, s: GameSession, *, interaction: discord.Interaction[Any] | None = None
    ) -> Shown:
        """A new turn post of the current decision (the turn's lines so far, the board now,
        the buttons and the ping), the old one deleted, the game marked posted at it and the
        status message brought up to date; called with the game's lock held (``s``: its
        session). ``Shown.announced`` False: the channel refused it."""
        before = s.rec.settings.open_post
        lines = list(before.lines) if before is not None and before.lines else []
        lines = lines or [await self._where(s)]
        deciders = tuple(d.seat for d in s.status().waiting if d.user_id and not d.ai)
        limit = min(upload_limit(interaction), self.limits.get(s.channel_id, 1 << 40))
        try:
            now = await self._open(s, Chunk(lines), _Out(interaction, limit), deciders)
        except Unannounced as e:
            log.warning("game %s's turn not posted again: %s", s.game_id, e)
            return Shown(False, before, announced=False)
        if before is not None:
            await self._delete(s, before)
        shown = Shown(True, now)
        await self.t.svc.places.mark_posted(s, s.version, shown)
        await self.update_status(s, interaction=interaction)
        return shown

    async def _exists(self, s: GameSession, message_id: int) -> bool:
        """Whether the channel still has the message (True when it cannot tell)."""
        channel = self.client.get_partial_messageable(s.channel_id)
        try:
            await channel.fetch_message(message_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True
        return True

    # ------------------------------------------------------------------ status

    def status_text(self, status: Status, lang: str = "en") -> str:
        """The status message, in the game's language ``lang``: scenario, era, round, whose
        turn and the deadline. ``status`` names the seats in ``lang`` (``s.status(lang)``:
        "Ana (piros)"); the pacing notes are the service's, in the game's language too
        (:meth:`service.pace.Pacing.notes`)."""
        # the scenario's name as the game's adapter writes it in ``lang``
        lines = [tr(lang, "bot.status.title", game=status.game_id, scenario=status.scenario)]
        if status.over:
            lines.append(tr(lang, "bot.status.over"))
            return "\n".join(lines)
        lines.append(self.where_text(status, lang))
        for d in status.waiting:
            who = f"<@{d.user_id}>" if d.user_id and not d.ai else d.who
            what = (
                tr(lang, "bot.status.to_play")
                if d.kind == "turn"
                else kind_text(lang, d.kind, status.game)
            )
            line = tr(lang, "bot.status.waiting", who=who, what=what)
            if not d.ai:
                line += " — " + self.deadline_text(status.game_id, d.seat, "deadline", lang)
            lines.append(line)
        lines += self.t.status_notes.get(status.game_id, [])
        return "\n".join(lines)

    def where_text(self, status: Status, lang: str = "en") -> str:
        """Where the game stands, in ``lang``: the game's own words (Tigris: turn, who,
        actions left), the setup, or era and round."""
        if status.over:
            return tr(lang, "bot.status.over")
        if status.where_key:
            where = status.where(lang)
            return where[:1].upper() + where[1:]
        if status.phase == "setup":
            return tr(lang, "bot.status.setup")
        return tr(lang, "bot.status.where", era=status.era, round=status.round)

    def deadline_text(self, game_id: int | None, seat: int, word: str, lang: str = "en") -> str:
        """``deadline <t:…:f> (<t:…:R>)`` (``word``: ``deadline`` or ``by``, the keys
        ``bot.due.*``): the seat's deadline kept by the pacer, else the default length from
        now; "the game is paused" while it is."""
        key = (game_id, seat) if game_id is not None else None
        if key is not None and key in self.t.due:
            at = self.t.due[key]
            if at is None:
                return tr(lang, "bot.due.paused")
        else:
            at = int(time.time()) + self.t.settings.turn_deadline_hours * 3600
        return tr(lang, f"bot.due.{word}", at=f"<t:{at}:f>", rel=f"<t:{at}:R>")

    def next_text(self, status: Status, lang: str = "en") -> tuple[str, list[int], list[str]]:
        """Who decides now (a ping for the humans), the deadline, and the decision kinds,
        in ``lang`` (the game's in a public post, the reader's in a private answer)."""
        if status.over:
            return tr(lang, "bot.next.over"), [], []
        parts, users, kinds = [], [], []
        for d in status.waiting:
            if d.user_id is not None and not d.ai:
                users.append(d.user_id)
                kinds.append(d.kind)
                what = (
                    tr(lang, "bot.next.your_turn")
                    if d.kind == "turn"
                    else tr(lang, "bot.next.decide", what=kind_text(lang, d.kind, status.game))
                )
                due = self.deadline_text(status.game_id, d.seat, "by", lang)
                parts.append(typeset(lang, f"<@{d.user_id}>: {what} — {due}"))
            else:
                parts.append(tr(lang, "bot.next.thinking", who=d.who))
        return "\n".join(parts), users, kinds

    async def update_status(
        self, s: GameSession, *, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """Edit the game's one status message in place (PATCH), in the game's language;
        post it (and pin it where the bot may) the first time, or again when it was deleted
        or Discord refuses its edit (the edit quota of a message older than an hour, code
        30046: a status edited every turn for days reaches it) — the new one pinned, the old
        one unpinned, so the status never names the wrong player. A server error leaves it
        to the next turn; nothing here raises for Discord's refusals (the step is saved)."""
        lang = await self.t.game_lang(s)
        view = status_layout(
            self.status_text(s.status(lang), lang), await self.page_url(s.game_id), lang
        )
        mid = self.t.svc.places.status_message(s.rec)
        channel = self.client.get_partial_messageable(s.channel_id)
        none = discord.AllowedMentions.none()
        if mid is not None:
            try:
                await channel.get_partial_message(mid).edit(view=view, allowed_mentions=none)
                return
            except discord.NotFound:
                pass  # deleted: post a new one
            except discord.HTTPException as e:
                if e.code != EDIT_QUOTA and (e.status >= 500 or e.status == 429):
                    log.warning("status message of game %s not edited: %s", s.game_id, e)
                    return  # the next turn edits it
                log.info(
                    "status message of game %s refused its edit (%s): posted anew", s.game_id, e
                )
        perms = self.permissions(s, interaction)
        if not self._may_send(s, perms, interaction):
            log.warning("status message of game %s not posted: no Send Messages", s.game_id)
            return
        try:
            msg = await channel.send(view=view, allowed_mentions=none)
        except discord.Forbidden as e:
            log.warning("status message of game %s not posted: %s", s.game_id, e)
            await self._tell_host(s, "send_messages", interaction)
            return
        except discord.HTTPException as e:
            log.warning("status message of game %s not posted: %s", s.game_id, e)
            return
        await self.t.svc.places.set_status_message(s.game_id, msg.id)
        s.rec = s.rec.model_copy(
            update={"settings": s.rec.settings.model_copy(update={"status_message_id": msg.id})}
        )
        if perms is not None and not (perms.manage_messages or _may_pin(perms)):
            log.info("status message of game %s not pinned (no Manage Messages)", s.game_id)
            return
        try:
            await msg.pin(reason="the game's status")
        except discord.HTTPException:
            log.info("status message of game %s not pinned (no permission)", s.game_id)
        if mid is not None:
            with contextlib.suppress(discord.HTTPException):  # gone already, or not pinned
                await channel.get_partial_message(mid).unpin(reason="the game's status moved")

    async def page_url(self, game_id: int) -> str | None:
        """The game's web page (None when the bot serves no pages, or its address could not
        be read: the status message goes out without its link rather than not at all)."""
        if self.pages is None:
            return None
        try:
            return await self.pages.page_url(game_id)
        except Exception:
            log.exception("the page address of game %s not read", game_id)
            return None

    async def timeline(self, game_id: int, budget: int) -> bytes | None:
        """The game's timeline animation (the public map after every turn, replayed from the
        log in the service's worker processes), or None if it would not fit in ``budget``
        bytes or could not be drawn."""
        try:
            return await self._timeline(game_id, budget)
        except Exception:  # a picture must not break the end of a game
            log.exception("timeline of game %s not drawn", game_id)
            return None

    async def _timeline(self, game_id: int, budget: int) -> bytes | None:
        """:meth:`timeline`, raising when it could not be drawn."""
        gif = await self.t.svc.reading.timeline_image(game_id)
        if gif is None or len(gif) > budget:
            log.info("timeline of game %s left out (upload limit)", game_id)
            return None
        return gif

    # ------------------------------------------------------------------ after a restart

    async def _turn_posted(self, channel_id: int, gid: int, version: int) -> int | None:
        """The channel's recent post of this game's turn at ``version`` (its Take-my-turn
        button names game and version): its message id, or None."""
        want = f'"brz:t:{gid}:{version}"'
        try:
            recent = await self.client.http.logs_from(channel_id, 25)
        except discord.HTTPException:
            return None
        for m in recent:
            if want in json.dumps(m):
                return int(m["id"])
        return None

    async def _adopt(self, s: GameSession, message_id: int) -> None:
        """The post ``message_id`` of the game's version reached the channel but was not
        recorded (a stop in between): it becomes the game's open post (its summary lines are
        not known again: later steps of the turn show only theirs), the one before loses its
        buttons, and the game is marked posted."""
        before = s.rec.settings.open_post
        if before is not None and before.message_id != message_id:
            await self._strip(s, before)
        deciders = tuple(d.seat for d in s.status().waiting if d.user_id and not d.ai)
        images = (("map.png", ""),)
        now = OpenPost(message_id=message_id, deciders=deciders, version=s.version, images=images)
        await self.t.svc.places.mark_posted(s, s.version, Shown(True, None if s.over else now))

    async def recover(self, *, older_than: float | None = None) -> int:
        """After a restart: publish again every running game saved past its last turn post
        (the bot was stopped between a save and its post, or during the AI seats' turns),
        and let waiting AI seats play. A stop between the post and its mark is recognised
        in the channel's recent history (the turn post's button names game and version),
        so nothing is posted twice and no turn goes unposted. Returns how many games were
        caught up. With several processes, each catches up the games of its own shards, at
        start and then (``older_than``: seconds) every game left unposted that long — a step
        another process saved and was stopped before posting."""
        done = 0
        settings = self.t.settings
        now = self.t.svc.store.now()
        for rec, posted in await self.t.svc.places.unposted():
            shards, count = settings.shards, settings.shard_count
            if shards is not None and count and shard_of(rec.guild_id or 0, count) not in shards:
                continue  # the process running the game's shard catches it up
            if older_than is not None and (now - rec.updated_at).total_seconds() < older_than:
                continue  # a live process may be posting it right now
            try:
                async with self.t.svc.session(rec.id) as s:
                    now_posted = s.rec.settings.posted_version
                    if now_posted is None or now_posted >= s.version:
                        continue  # posted meanwhile (by this process or another)
                    posted = now_posted
                    found = await self._turn_posted(s.channel_id, s.game_id, s.version)
                    if found is not None:  # stopped just after posting it: it is the turn's
                        await self._adopt(s, found)
                        continue
                    self.held.pop(s.game_id, None)  # the catch-up lists them from the log
                    await self.t.svc.turns.catch_up(
                        s, posted, show=self.show(force=True), pause=self.t.auto_answer_pause
                    )
                done += 1
            except discord.HTTPException as e:  # the channel is gone: the next start retries
                log.warning("could not catch up game %s: %s", rec.id, e)
        return done
