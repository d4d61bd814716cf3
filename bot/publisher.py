"""Publishing a game's results in its channel: one Components V2 post per finished turn with
the map (drawn in the service's worker processes), the ping of who decides next, the status message edited
in place, the timeline at the end, and catching up after a restart.

Everything here works from what the service returned (a :class:`~service.Result` and the
:class:`~service.game.GameSession` it came from): no store, no engine.
"""

from __future__ import annotations

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
from i18n import catalogue, tr
from service import Frame, ImageRequest, Post, Result, SeatSpec
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


@dataclass
class Chunk:
    """Public lines gathered until a turn ends, the images shown with them (a battle's, with
    the frame each is drawn from) and the newest frame (the map's, with the turn's events)."""

    lines: list[str] = field(default_factory=list)
    images: list[tuple[ImageRequest, Frame]] = field(default_factory=list)
    frame: Frame | None = None
    closed: bool = False  # a turn (or the game) ended with it


def kind_text(lang: str, kind: str) -> str:
    """A pending decision's kind in words (``combat cards``): the key ``bot.decision.<kind>``,
    else the kind itself."""
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
        the turn's."""
        s, res, others = played.game, played.command, played.ai
        before = s.rec.settings.open_post  # the turn's post as the game keeps it
        chunks: list[Chunk] = [Chunk()]
        limit = upload_limit(interaction)
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
        deciders = tuple(d.seat for d in s.status().waiting if d.user_id and not d.ai)
        open_post = None if anew else before
        edited: set[int] = set()  # the posts edited here (their buttons follow the game)
        rest, recap = list(closed), list[str]()
        if open_post is not None and rest:  # the open post's turn ended: finished in place
            first = rest.pop(0)
            done = await self._edit(s, open_post, first, limit, final=False)
            if done is not None:
                edited.add(done.message_id)
                recap = first.lines[-1:]  # the step that ended it: the next post's first line
            else:
                await self._send(s, first, limit, final=False)
            open_post = None
        # whole turns since (computer players'): each its own post, but the last one is
        # folded into the new post (it tells what happened since the turn before)
        for c in rest[:-1]:
            await self._send(s, c, limit, final=False)
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
            await self._send(s, fold, limit, final=True)
        elif open_post is not None and open_post.deciders == deciders:
            now = await self._edit(s, open_post, last, limit, final=True)
            if now is None:
                now = await self._open(s, fold, limit, deciders, quiet)
            else:
                edited.add(now.message_id)
        elif open_post is not None:
            # the same turn, other deciders (a defender's battle cards, then the attacker
            # again): the turn's post moves down to ping them — the new one has the whole
            # turn so far and the board now, the old one goes (one post per turn stays)
            moving = Chunk([*open_post.lines, *last.lines] or fold.lines, last.images, last.frame)
            now, moved = await self._open(s, moving, limit, deciders, quiet), True
            if await self._delete(s, open_post):
                edited.add(open_post.message_id)
        else:
            now = await self._open(s, fold, limit, deciders, quiet)
        if now is not None and now.message_id not in edited:  # [notices] a new turn post:
            await self.notices.after_post(s, now, before, quiet, new_turn=not moved)  # its DMs
        if before is not None and before.message_id not in edited:
            await self._strip(s, before)  # only the newest post of a game has buttons
        await self.update_status(s)
        await self.private.deliver(s, deliveries, interaction, actor, frames=frames)
        if s.over:  # threads (bot/threads.py): the finished game's thread tagged and archived
            await ThreadDesk.of(self.t).game_over(s)
        return Shown(True, now)

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
    ) -> tuple[ui.LayoutView, list[discord.File], list[int], dict[str, str]]:
        """A turn post: the summary ``lines``, the map (and a battle's picture), and when
        ``final`` (the game now) who decides with the buttons; the users it pings and the
        pictures' alt texts. ``kept``: the pictures the message already has (name, alt
        text), not drawn again unless the chunk has a newer one of their kind."""
        frame = chunk.frame or s.frame()
        lang = await self.t.game_lang(s)
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
        view, users = await self._layout(s, lines, names, alts, final=final)
        return view, files, users, alts

    async def _layout(
        self,
        s: GameSession,
        lines: list[str],
        names: list[str],
        alts: dict[str, str],
        *,
        final: bool,
    ) -> tuple[ui.LayoutView, list[int]]:
        """A turn post's layout over its pictures ``names`` (uploaded with it, or already
        the message's); the users it pings."""
        lang = await self.t.game_lang(s)
        footer, users, buttons = "", list[int](), list[ui.Item[Any]]()
        if final:
            status = s.status(lang)
            footer, users, kinds = self.next_text(status, lang)
            if kinds:
                undo = await self.may_undo(s)
                buttons = turn_buttons(s.game_id, s.version, kinds, undo=undo, lang=lang)
        summary = fit_lines(lines, 3400, lang)
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

    async def _send(
        self,
        s: GameSession,
        chunk: Chunk,
        limit: int,
        *,
        final: bool,
        quiet: Collection[int | None] = (),
    ) -> tuple[discord.Message, dict[str, str]]:
        """A new post of ``chunk`` (pinging who decides now when ``final``, but not the
        users in ``quiet``); its pictures' alt texts."""
        view, files, users, alts = await self._content(s, chunk.lines, chunk, limit, final=final)
        users = [u for u in users if u not in quiet]
        users = await self.notices.pinged(users)  # [notices] only who asked for pings
        mentions = discord.AllowedMentions.none()
        if users:
            mentions = discord.AllowedMentions(
                users=[discord.Object(u) for u in users], everyone=False, roles=False
            )
        channel = self.client.get_partial_messageable(s.channel_id)
        msg = await channel.send(view=view, files=files, allowed_mentions=mentions)
        return msg, {f.filename: alts.get(f.filename, "") for f in files}

    async def _open(
        self,
        s: GameSession,
        chunk: Chunk,
        limit: int,
        deciders: tuple[int, ...],
        quiet: Collection[int | None] = (),
    ) -> OpenPost:
        """A new turn post for who decides now (pinged, but not ``quiet``), kept open for
        the turn's steps."""
        msg, images = await self._send(s, chunk, limit, final=True, quiet=quiet)
        return OpenPost(
            message_id=msg.id,
            lines=tuple(chunk.lines),
            deciders=deciders,
            version=s.version,
            images=tuple(images.items()),
        )

    async def _edit(
        self, s: GameSession, post: OpenPost, chunk: Chunk, limit: int, *, final: bool
    ) -> OpenPost | None:
        """Add ``chunk`` to the open turn post in place (no ping: an edit notifies nobody);
        ``final``: the turn goes on (who decides, the buttons), else the turn ended. The
        post keeps its pictures (its map is the board as the post was made: the summary
        tells the steps since, the next post shows the board after them) unless a new
        picture comes (a battle's report): then all are drawn afresh. The post as it now
        stands; None when it is gone (deleted): the caller posts anew."""
        lines = [*post.lines, *chunk.lines]
        channel = self.client.get_partial_messageable(s.channel_id)
        message = channel.get_partial_message(post.message_id)
        none = discord.AllowedMentions.none()
        try:
            if chunk.images or not post.images:  # new pictures beside the message's own
                kept: list[discord.Attachment] = []
                if post.images:
                    kept = list((await message.fetch()).attachments)
                have = {a.filename for a in kept}
                view, files, _, alts = await self._content(
                    s,
                    lines,
                    chunk,
                    limit,
                    final=final,
                    kept=[p for p in post.images if p[0] in have],
                )
                new = [f.filename for f in files]
                kept = [a for a in kept if a.filename in alts and a.filename not in new]
                await message.edit(view=view, attachments=[*kept, *files], allowed_mentions=none)
                images = tuple((n, alts.get(n, "")) for n in [*(a.filename for a in kept), *new])
            else:  # the attachments stay: only the components change
                alts = dict(post.images)
                view, _ = await self._layout(s, lines, list(alts), alts, final=final)
                await message.edit(view=view, allowed_mentions=none)
                images = post.images
        except discord.NotFound:
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
            what = tr(lang, "bot.status.to_play") if d.kind == "turn" else kind_text(lang, d.kind)
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
                    else tr(lang, "bot.next.decide", what=kind_text(lang, d.kind))
                )
                due = self.deadline_text(status.game_id, d.seat, "by", lang)
                parts.append(f"<@{d.user_id}>: {what} — {due}")
            else:
                parts.append(tr(lang, "bot.next.thinking", who=d.who))
        return "\n".join(parts), users, kinds

    async def update_status(self, s: GameSession) -> None:
        """Edit the game's one status message in place (PATCH), in the game's language;
        post it (and try to pin it) the first time or if it was deleted."""
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
                log.warning("status message of game %s not edited: %s", s.game_id, e)
                return
        msg = await channel.send(view=view, allowed_mentions=none)
        await self.t.svc.places.set_status_message(s.game_id, msg.id)
        try:
            await msg.pin(reason="the game's status")
        except discord.HTTPException:
            log.info("status message of game %s not pinned (no permission)", s.game_id)

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
                    await self.t.svc.turns.catch_up(
                        s, posted, show=self.show(force=True), pause=self.t.auto_answer_pause
                    )
                done += 1
            except discord.HTTPException as e:  # the channel is gone: the next start retries
                log.warning("could not catch up game %s: %s", rec.id, e)
        return done
