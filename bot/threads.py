"""Games in threads and forum posts (issue #30): where ``/game new`` puts a game, the game's
own thread kept open while it runs, its forum tags, its spectators, and its end.

- **Where** (:func:`place_for`): ``/game new forum:#games`` or the server's games forum
  (``GuildSettings.forum_id``) make the lobby a forum post; in a text channel with the
  server's ``game_place`` "thread" (the default) the lobby is a post of the channel and the
  game plays in the thread started from it; in a thread, or with ``game_place`` "channel",
  the game takes the channel (one at a time), as before threads. The game's record lives in
  its thread (the store's one active game per channel holds per thread), so any number of
  games run side by side in one channel. A thread started from a message has the message's
  id, and a forum post's starter message the post's: the record is opened with that id.
- **Kept open**: threads are made with the longest inactivity time (a week); a thread
  archived meanwhile is unarchived at once when the gateway says so
  (:meth:`ThreadDesk.thread_updated`), and any request refused "Thread is archived" (400,
  code 50083: an edit, a pin, a member added — a message sent unarchives the thread by
  itself) unarchives the thread and is sent again (:meth:`ThreadDesk.install`, around the
  client's HTTP requests), so no turn is lost. A thread locked by a moderator refuses the
  bot's posts (403) unless the bot has Manage Threads: the game's host is told once, and the
  steps are posted when the thread is unlocked.
- **Forum tags**: the game's title and its state (open, running, finished) among the
  forum's ``available_tags``: missing ones are created (Manage Channels), else the post goes
  without them and the log says what to give the bot.
- **Spectators** follow a game by joining its thread: the lobby post's *Follow* button adds
  the presser to it (:class:`FollowButton`); players are added when they join the lobby.
- **The end** (:meth:`ThreadDesk.game_over`, called by the publisher after the final post):
  a forum post's tag becomes "finished" and the game's thread is archived.
"""

from __future__ import annotations

import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import discord
from discord import ui
from discord.http import Route, handle_message_parameters

from bot.discord_views import GameButton, check_layout, clip, turn_layout
from bot.hub import Hub
from i18n import supported, tr
from service import catalog
from service.language import game_language_of
from service.results import Refused
from storage import GameRecord

if TYPE_CHECKING:
    from service.game import GameSession

log = logging.getLogger("bot.threads")

ARCHIVED = 50083
"""Discord's code of a request refused because the thread is archived."""
MISSING_PERMISSIONS = 50013
"""Discord's code of a request refused for a missing permission (a locked thread's too)."""
LONGEST: Literal[10080] = 10080
"""The longest auto-archive duration, in minutes (a week without a message)."""
STATES = ("open", "running", "finished")
"""A forum post's state tags (``bot.thread.tag.<state>``)."""
MAX_APPLIED, MAX_AVAILABLE, TAG_NAME = 5, 20, 20
"""Discord's limits: tags applied to a post, tags of a forum, characters of a tag's name."""

OpenRecord = Callable[[int], Awaitable[GameRecord]]
Layout = Callable[[GameRecord], ui.LayoutView]


@dataclass(frozen=True)
class Place:
    """Where ``/game new`` puts a game: its channel, a thread of it, or a forum post."""

    kind: Literal["channel", "thread", "forum"]
    forum_id: int | None = None


def game_title(game: str, lang: str) -> str:
    """The game's display name in ``lang`` (its registration's title)."""
    for name, key in catalog.game_titles():
        if name == game:
            return tr(lang, key)
    return game


def titles_of(game: str) -> set[str]:
    """The game's title in every language (a forum tag made in any of them is its tag)."""
    return {game_title(game, lang).casefold()[:TAG_NAME] for lang in supported()}


def state_names(state: str) -> set[str]:
    """A state tag's name in every language."""
    return {tr(lang, f"bot.thread.tag.{state}").casefold() for lang in supported()}


def thread_name(rec: GameRecord) -> str:
    """The game's thread: its title and number ("Brazil: Imperial #12"), ≤ 100 characters."""
    title = game_title(rec.game, game_language_of(rec))
    return f"{clip(title, 90)} #{rec.id}"


async def place_for(hub: Hub, interaction: discord.Interaction[Any], forum: int | None) -> Place:
    """Where a ``/game new`` typed here goes (see module doc)."""
    if forum is not None:
        return Place("forum", forum)
    channel = interaction.channel
    if interaction.guild_id is None or isinstance(channel, discord.Thread):
        return Place("channel")
    server = await hub.svc.store.get_guild_settings(interaction.guild_id)
    if server.forum_id is not None:
        return Place("forum", server.forum_id)
    if (
        isinstance(channel, discord.TextChannel)
        and server.game_place == "thread"
        and hub.settings.game_threads
    ):
        return Place("thread")
    return Place("channel")


def placeholder(lang: str) -> ui.LayoutView:
    """The lobby's post until its number is known (a moment)."""
    return turn_layout(tr(lang, "bot.thread.opening"), [], "", [], accent=0x1565C0)


def with_follow(view: ui.LayoutView, game_id: int, lang: str) -> ui.LayoutView:
    """The lobby post ``view`` with a *Follow* button (a game in a thread)."""
    view.add_item(ui.ActionRow(FollowButton(game_id, lang=lang)))
    return check_layout(view)


class FollowButton(GameButton, prefix="brz:f", fields="game_id"):
    """Follow a game: the presser joins its thread (a spectator, or a player)."""

    label = "bot.thread.follow"

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        hub: Hub = interaction.client.tables
        await ThreadDesk.of(hub).follow(interaction, self.game_id)


class ThreadDesk:
    """The games' threads on Discord (see module doc); one per hub (:meth:`of`)."""

    _desks: ClassVar[weakref.WeakKeyDictionary[Hub, ThreadDesk]] = weakref.WeakKeyDictionary()

    def __init__(self, hub: Hub) -> None:
        self.t = hub
        self.told: set[int] = set()  # games whose host was told their thread is locked
        self.made: set[int] = set()  # the games' threads this process opened
        self._request: Any = None  # the client's own HTTP request, when installed

    @classmethod
    def of(cls, hub: Hub) -> ThreadDesk:
        desk = cls._desks.get(hub)
        if desk is None:
            desk = cls._desks[hub] = cls(hub)
        return desk

    @property
    def http(self) -> discord.http.HTTPClient:
        return self.t.client.http

    async def channel(self, channel_id: int) -> dict[str, Any]:
        """The channel (or thread) as Discord describes it (``GET /channels/{id}``)."""
        return dict(await self.http.get_channel(channel_id))

    def known_thread(self, channel_id: int) -> bool:
        """The client's cache (the gateway's guilds and threads) knows it as a thread."""
        return isinstance(self.t.client.get_channel(channel_id), discord.Thread)

    def may_be_thread(self, channel_id: int) -> bool:
        """Not known as anything but a thread (a channel the cache knows is not one)."""
        known = self.t.client.get_channel(channel_id)
        return known is None or isinstance(known, discord.Thread) or channel_id in self.made

    # ------------------------------------------------------------------ opening

    async def open_in_thread(
        self,
        interaction: discord.Interaction[Any],
        open_record: OpenRecord,
        layout: Layout,
        lang: str,
    ) -> GameRecord | None:
        """The lobby as a post of the channel and the game's thread started from it (see
        module doc); the game takes the channel itself when no thread can be started there.
        None: refused (answered privately)."""
        none = discord.AllowedMentions.none()
        sent = await interaction.response.send_message(
            view=placeholder(lang), allowed_mentions=none
        )
        post = sent.message_id
        channel_id = interaction.channel_id
        assert post is not None and channel_id is not None
        try:
            rec = await open_record(post)  # the thread will have the post's id
        except Refused as e:
            await self._withdraw(interaction, e)
            return None
        try:
            await self.http.start_thread_with_message(
                channel_id, post, name=thread_name(rec), auto_archive_duration=LONGEST
            )
            self.made.add(post)
        except discord.HTTPException as e:
            log.warning(
                "no thread for game %s in channel %s (%s): give the bot Create Public Threads "
                "there; the game takes the channel",
                rec.id,
                channel_id,
                e,
            )
            await self.t.svc.lobbies.leave(rec, interaction.user.id)  # closes it
            try:
                rec = await open_record(channel_id)
            except Refused as refused:
                await self._withdraw(interaction, refused)
                return None
            await interaction.edit_original_response(view=layout(rec), allowed_mentions=none)
            await self.t.say(interaction, "bot.thread.no_thread", game=rec)
            return rec
        await interaction.edit_original_response(
            view=with_follow(layout(rec), rec.id, lang), allowed_mentions=none
        )
        await self.add_member(rec.channel_id, interaction.user.id)
        log.info("lobby %s opened in thread %s of channel %s", rec.id, post, channel_id)
        return rec

    async def _withdraw(self, interaction: discord.Interaction[Any], e: Refused) -> None:
        """A refused lobby: its public post goes, the reason is told privately."""
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
        await self.t.reply(interaction, e.text(await self.t.lang_of(interaction)))

    async def open_in_forum(
        self,
        interaction: discord.Interaction[Any],
        forum_id: int,
        game: str,
        open_record: OpenRecord,
        layout: Layout,
        lang: str,
    ) -> GameRecord | None:
        """The lobby as a post of the forum ``forum_id``, tagged with the game's title and
        "open"; the user is told privately where. None: refused (answered privately)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = await self.t.lang_of(interaction)
        try:
            forum = await self.channel(forum_id)
        except discord.HTTPException:
            forum = {}
        if int(forum.get("type", -1)) != discord.ChannelType.forum.value:
            await self.t.reply(
                interaction, tr(mine, "bot.thread.not_forum", channel=f"<#{forum_id}>")
            )
            return None
        forum, tags = await self._tags(forum, game, "open", lang)
        payload = {
            "name": clip(game_title(game, lang), 100),
            "auto_archive_duration": LONGEST,
            "type": 11,
            "applied_tags": [str(t) for t in tags],
        }
        try:
            with handle_message_parameters(
                view=placeholder(lang),
                allowed_mentions=discord.AllowedMentions.none(),
                channel_payload=payload,
            ) as params:
                data = await self.http.start_thread_in_forum(forum_id, params=params)
        except discord.HTTPException as e:
            log.warning(
                "no post in forum %s (%s): the bot needs to see it, send messages "
                "and create posts there",
                forum_id,
                e,
            )
            await self.t.reply(
                interaction, tr(mine, "bot.thread.no_forum", channel=f"<#{forum_id}>")
            )
            return None
        tid = int(data["id"])
        self.made.add(tid)
        try:
            rec = await open_record(tid)
        except Refused as e:
            try:
                await self.http.delete_channel(tid)  # the post goes (it was empty)
            except discord.HTTPException as gone:
                log.warning("the empty post %s of forum %s not deleted: %s", tid, forum_id, gone)
            await self.t.reply(interaction, e.text(mine))
            return None
        none = discord.AllowedMentions.none()
        starter = self.t.client.get_partial_messageable(tid).get_partial_message(tid)
        await starter.edit(view=with_follow(layout(rec), rec.id, lang), allowed_mentions=none)
        await self.http.edit_channel(tid, name=thread_name(rec))
        await self.add_member(tid, interaction.user.id)
        log.info("lobby %s opened as post %s of forum %s", rec.id, tid, forum_id)
        await self.t.reply(interaction, tr(mine, "bot.thread.opened", thread=f"<#{tid}>"))
        return rec

    # ------------------------------------------------------------------ members

    async def add_member(self, thread_id: int, user_id: int) -> bool:
        """Add ``user_id`` to the thread (a player joining, a spectator following)."""
        try:
            await self.http.add_user_to_thread(thread_id, user_id)
        except discord.HTTPException as e:
            log.warning("user %s not added to thread %s: %s", user_id, thread_id, e)
            return False
        return True

    async def joined(
        self, interaction: discord.Interaction[Any], rec: GameRecord, user_id: int
    ) -> None:
        """A player joined the lobby ``rec``: they join the game's thread (when it has one:
        the lobby post is not in the game's channel, or the game's channel is a thread)."""
        if rec.channel_id != interaction.channel_id or isinstance(
            interaction.channel, discord.Thread
        ):
            await self.add_member(rec.channel_id, user_id)

    async def follow(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The *Follow* button: the presser joins the game's thread."""
        rec = await self.t.svc.places.record(game_id)
        lang = await self.t.lang_of(interaction, rec)
        if await self.add_member(rec.channel_id, interaction.user.id):
            text = tr(lang, "bot.thread.following", game=game_id, thread=f"<#{rec.channel_id}>")
        else:
            text = tr(lang, "bot.thread.follow_gone", game=game_id)
        await self.t.reply(interaction, text)

    # ------------------------------------------------------------------ tags

    async def _tags(
        self, forum: dict[str, Any], game: str, state: str, lang: str
    ) -> tuple[dict[str, Any], list[int]]:
        """The forum's tags for ``game`` and ``state`` (created when missing and the bot may:
        Manage Channels); the forum as it now is, and the tags' ids (those it has)."""
        want = [
            (titles_of(game), clip(game_title(game, lang), TAG_NAME)),
            (state_names(state), tr(lang, f"bot.thread.tag.{state}")),
        ]
        have: list[dict[str, Any]] = list(forum.get("available_tags") or [])

        def find(names: set[str]) -> int | None:
            for t in have:
                if str(t.get("name", "")).casefold() in names:
                    return int(t["id"])
            return None

        missing = [name for names, name in want if find(names) is None]
        room = MAX_AVAILABLE - len(have)
        if missing and room > 0:
            new = [*have, *({"name": n} for n in missing[:room])]
            try:
                forum = dict(await self.http.edit_channel(int(forum["id"]), available_tags=new))
                have = list(forum.get("available_tags") or [])
            except discord.HTTPException as e:
                log.warning(
                    "forum %s has no tag %s and the bot may not create it (%s): give the bot "
                    "Manage Channels there, or create the tags; posts go without them",
                    forum["id"],
                    ", ".join(repr(n) for n in missing),
                    e,
                )
        elif missing:
            log.warning(
                "forum %s has %d tags, Discord's most: no tag %s", forum["id"], len(have), missing
            )
        return forum, [i for names, _ in want if (i := find(names)) is not None]

    async def set_state(
        self, channel_id: int, game: str, state: str, lang: str, *, archive: bool = False
    ) -> None:
        """A game's thread follows its state: in a forum its state tag becomes ``state``;
        ``archive``: the thread is archived after. Only the threads the bot opened for a game
        (not a thread a game was opened in, nor a channel); failures are logged."""
        if not self.may_be_thread(channel_id):
            return
        try:
            thread = await self.channel(channel_id)
            me = self.t.client.user
            mine = me is not None and int(thread.get("owner_id") or 0) == me.id
            if int(thread.get("type", 0)) != discord.ChannelType.public_thread.value or not mine:
                return
            parent = await self.channel(int(thread["parent_id"]))
            if int(parent.get("type", 0)) == discord.ChannelType.forum.value:
                forum, tags = await self._tags(parent, game, state, lang)
                states: set[str] = set().union(*(state_names(s) for s in STATES))
                old = {
                    int(t["id"])
                    for t in forum.get("available_tags") or []
                    if str(t["name"]).casefold() in states
                }
                kept = [
                    int(t)
                    for t in thread.get("applied_tags") or []
                    if int(t) not in old and int(t) not in tags
                ]
                applied = [*tags, *kept][:MAX_APPLIED]
                await self.http.edit_channel(channel_id, applied_tags=[str(t) for t in applied])
            if archive:
                await self.http.edit_channel(channel_id, archived=True)
        except discord.NotFound:
            return  # not a channel Discord knows (a test's)
        except discord.HTTPException as e:
            log.warning("thread %s not set to %s: %s", channel_id, state, e)

    async def started(self, rec: GameRecord) -> None:
        """The lobby ``rec`` became its game: a forum post's tag becomes "running"."""
        await self.set_state(rec.channel_id, rec.game, "running", game_language_of(rec))

    async def closed(self, rec: GameRecord) -> None:
        """A game ended without its final post (a lobby everyone left, an abandoned game):
        its thread is tagged "finished" and archived, as at :meth:`game_over`."""
        await self.set_state(
            rec.channel_id, rec.game, "finished", game_language_of(rec), archive=True
        )

    async def game_over(self, s: GameSession) -> None:
        """The game ended (its final post is in its thread): a forum post's tag becomes
        "finished", and the game's thread is archived."""
        await self.set_state(
            s.channel_id, s.game, "finished", game_language_of(s.rec), archive=True
        )

    # ------------------------------------------------------------------ kept open

    def install(self) -> None:
        """Wrap the client's HTTP requests: a request into an archived thread unarchives it
        and is sent again; a locked game thread refusing a post tells the host (once)."""
        http = self.http
        if self._request is not None:
            return
        self._request = original = http.request

        async def request(route: Route, **kw: Any) -> Any:
            try:
                return await original(route, **kw)
            except discord.HTTPException as e:
                cid = getattr(route, "channel_id", None)
                if cid is None or is_channel_edit(route):
                    raise
                if e.code == ARCHIVED and await self.revive(int(cid)):
                    for f in kw.get("files") or ():
                        f.reset(seek=True)
                    return await original(route, **kw)
                if e.code == ARCHIVED or (e.status == 403 and e.code == MISSING_PERMISSIONS):
                    await self.refused(int(cid))  # locked (and archived): the host is told
                raise

        setattr(http, "request", request)  # noqa: B010 (mypy: a method)

    def uninstall(self) -> None:
        if self._request is not None:
            setattr(self.http, "request", self._request)  # noqa: B010
            self._request = None

    async def _raw(self, route: Route, **kw: Any) -> Any:
        send = self._request or self.http.request
        return await send(route, **kw)

    async def revive(self, thread_id: int) -> bool:
        """Unarchive the thread (not a finished game's: its thread was archived on purpose);
        whether it was."""
        last = await self.t.svc.places.latest_game(thread_id)
        if last is not None and not last.is_active:
            return False
        try:
            await self._raw(
                Route("PATCH", "/channels/{channel_id}", channel_id=thread_id),
                json={"archived": False},
            )
        except discord.HTTPException as e:
            log.warning("archived thread %s not reopened: %s", thread_id, e)
            return False
        log.info("thread %s was archived: reopened", thread_id)
        return True

    async def refused(self, channel_id: int) -> None:
        """The bot may not post in the channel: when it is a running game's locked thread,
        the game's host is told once (the steps are posted when it is unlocked)."""
        if channel_id not in self.made and not self.known_thread(channel_id):
            return  # a channel (not a thread), or one this process never saw
        rec = await self.t.svc.places.find(channel_id)
        if rec is None or rec.id in self.told:
            return
        try:
            data = await self._raw(Route("GET", "/channels/{channel_id}", channel_id=channel_id))
        except discord.HTTPException:
            return
        if not (data.get("thread_metadata") or {}).get("locked"):
            return
        self.told.add(rec.id)
        host = rec.settings.host_user_id or next(
            (s.user_id for s in rec.seats if s.user_id is not None), None
        )
        log.warning(
            "game %s: its thread %s is locked (the bot lacks Manage Threads)", rec.id, channel_id
        )
        if host is None:
            return
        lang = await self.t.lang_of(None, rec, user_id=host)
        text = tr(lang, "bot.thread.locked", game=rec.id, thread=f"<#{channel_id}>")
        try:
            user = self.t.client.get_user(host) or await self.t.client.fetch_user(host)
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as e:
            log.warning("the host of game %s not told of its locked thread: %s", rec.id, e)

    async def thread_updated(self, data: dict[str, Any]) -> None:
        """The gateway's ``THREAD_UPDATE``: an active game's thread archived is unarchived
        at once; once it is open and unlocked, its game's steps a lock held back (or left
        unposted) are posted."""
        meta = data.get("thread_metadata") or {}
        tid = int(data["id"])
        rec = await self.t.svc.places.find(tid)
        if rec is None:
            return
        if meta.get("locked"):
            return
        revived = bool(meta.get("archived")) and await self.revive(tid)
        if meta.get("archived") and not revived:
            return
        # a lock lifted, or reopened with steps unposted: catch up (not on any update: one
        # of the bot's own, between a lobby's start and its first post, must not post it)
        behind = (rec.settings.posted_version or 0) < rec.version and rec.version > 0
        if rec.id in self.told or (revived and behind):
            self.told.discard(rec.id)
            caught = await self.t.recover()  # type: ignore[attr-defined]
            log.info("thread %s open again: %s game(s) caught up", tid, caught)


def is_channel_edit(route: Route) -> bool:
    """A change of the channel itself (its own refusal is the answer)."""
    return route.method == "PATCH" and route.path == "/channels/{channel_id}"
