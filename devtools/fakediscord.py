"""A fake Discord REST API on 127.0.0.1 for end-to-end tests of the bot.

discord.py's real code runs against it: ``discord.http.Route.BASE`` points here,
``client.login()`` logs in without the gateway, and raw gateway payloads go to the client's
parser as the gateway would send them: the guild first (``GUILD_CREATE`` with its roles,
:meth:`FakeDiscord.guild_payload`; what the ``guilds`` intent delivers in production, so that
``interaction.user.roles`` and :meth:`discord.Member.get_role` answer through the cached
guild), then ``INTERACTION_CREATE`` (:meth:`Harness.command`, :meth:`Harness.click`,
:meth:`Harness.select`, :meth:`Harness.autocomplete`). Every request is recorded
(:class:`Request`: method, path, query, JSON, files) for assertions, and answered the way
Discord does: ``Content-Type: application/json``; an interaction callback sent with
``?with_response=1`` gets the callback-response body; a follow-up with ``?wait=1`` gets the
full message; a Components V2 message (flags 1<<15) with ``content`` or embeds gets a 400.

Faults (:class:`Faults`, switchable at any time through ``fake.faults``): a share of the
requests answered 429 (the route's bucket or the global limit, with the headers and body
discord.py reads: ``Via``, ``X-RateLimit-*``, ``retry_after``, ``global``), 500, an added
latency, or a dropped connection. A faulted request has no effect (as if Discord refused it
before doing anything) and is kept in ``fake.faulted``, not in ``fake.requests``. Discord's
refusals (below) can be injected the same way, each on a share of the requests it can answer.

Discord's limits, modelled (issue #30; :data:`ERRORS` has each status, JSON code and message;
the defaults refuse nothing the end-to-end tests do; a refused request has no effect and is
kept in ``fake.refused`` with its kind, not in ``fake.requests``; ``fake.refusals()`` counts
both lists by kind):

- a virtual clock: :meth:`FakeDiscord.now` starts at 2025-01-01 00:00 UTC and follows the
  real time, :meth:`~FakeDiscord.advance` moves it, :meth:`~FakeDiscord.clock_from` ties it to
  a test's :class:`service.pacing.FakeClock`; messages' ``timestamp`` and
  ``edited_timestamp`` come from it;
- old-message edits: a message older than ``old_edit_age`` (1 h) may be edited
  ``old_edit_quota`` times (3) per channel and ``old_edit_window`` (20 s); past it an edit
  (channel or webhook PATCH of a non-ephemeral message) answers 30046 — with a 429 and no
  rate-limit headers, as Discord answers it (``edit_quota_status``), which discord.py raises
  as an ``HTTPException`` without retrying. Discord publishes neither figure; 3 per 20 s per
  channel is what bots report;
- interactions: the initial callback within ``interaction_deadline`` (3 s) of the
  interaction, else 404 10062; a second callback 400 40060; follow-ups and edits through the
  token within ``token_lifetime`` (15 min), else 401 50027. Tied to a FakeClock, the real time
  elapsed counts on top of it;
- ``closed_dms`` (user ids): a message to their DM channel 403 50007 (opening it works);
- permissions: :meth:`~FakeDiscord.deny` / :meth:`~FakeDiscord.allow` (``discord.Permissions``
  flag names, per channel, a thread inheriting its parent's): 403 50001 without View Channel,
  else 403 50013 for a post without Send Messages (Send Messages in Threads in a thread),
  Attach Files (files), Embed Links (embeds), Read Message History (a reply, a message read);
  pins without Manage Messages or Pin Messages; deleting another's message without Manage
  Messages; threads without Create Public/Private Threads, Manage Threads (lock) or Send
  Messages in Threads (members); a history read without Read Message History is empty. The
  interactions' ``app_permissions`` is :meth:`~FakeDiscord.permissions_of` the channel;
- ``upload_limit`` (10 MiB): files together past it 413 40005; the interactions'
  ``attachment_size_limit`` follows it;
- :meth:`~FakeDiscord.delete_by_moderator`: the message is gone (later reads and edits
  404 10008);
- ``refuse_gallery_edits`` (off): editing a media gallery showing files uploaded by that edit
  into a message without one answers 400 50035, as Discord does
  (https://github.com/discord/discord-api-docs/issues/7529);
- ``buckets`` (off; :class:`Buckets`): per-route rate limits by major parameter, with the
  ``X-RateLimit-*`` headers on every answer of the route and a 429 with ``retry_after`` when a
  bucket is exhausted (discord.py waits and retries).

It lives in the package (not under ``tests/``) because ``python -m devtools.loadtest`` runs the
bot against it.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import math
import random
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from aiohttp import web

from devtools.discord_limits import channel_edit_problems, message_problems, thread_problems

APP_ID = 900_000_000_000_000_001
BOT_ID = APP_ID
GUILD_ID = 800_000_000_000_000_001
IS_V2 = 1 << 15
EPHEMERAL = 1 << 6


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: dict[str, bytes] = field(default_factory=dict)
    ephemeral: bool = False
    interaction_user: int | None = None  # the user whose interaction this answers
    at: float = 0.0  # time.monotonic() when the server had read it
    status: int = 0  # the status it was answered with (0 while it is handled)

    def text(self) -> str:
        """Every string in the body (for scanning for secrets)."""
        return json.dumps(self.json, ensure_ascii=False) if self.json is not None else ""


def user(uid: int, name: str) -> dict[str, Any]:
    return {
        "id": str(uid),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": uid == BOT_ID,
    }


def walk_components(comps: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in comps or []:
        yield c
        yield from walk_components(c.get("components", []))
        if "accessory" in c:
            yield c["accessory"]


FAULT_KINDS = (
    "429",
    "global",
    "500",
    "drop",
    # Discord's refusals (see ERRORS), each drawn only on the requests it can answer
    "edit_quota",
    "late",
    "expired",
    "dm_closed",
    "no_permission",
    "too_large",
    "deleted",
)
# the command line's names of the Faults fields (the kinds are their own names)
_FIELD_OF = {
    "429": "rate_limit",
    "global": "global_rate_limit",
    "500": "server_error",
    "drop": "drop",
    "edit_quota": "edit_quota",
    "late": "late",
    "expired": "expired",
    "dm_closed": "dm_closed",
    "no_permission": "no_permission",
    "too_large": "too_large",
    "deleted": "deleted",
}

# Discord's answers to what it refuses: (status, JSON error code, message). Checked against
# Discord's error-code table (discord-api-docs, "JSON Error Codes"); 30046 comes with a 429
# and no rate-limit headers (it is no bucket: discord.py raises it as it is, see
# FakeDiscord.edit_quota_status).
ERRORS: dict[str, tuple[int, int, str]] = {
    "edit_quota": (
        429,
        30046,
        "Maximum number of edits to messages older than 1 hour reached. Try again later.",
    ),
    "late": (404, 10062, "Unknown interaction"),
    "acknowledged": (400, 40060, "Interaction has already been acknowledged."),
    "expired": (401, 50027, "Invalid Webhook Token"),
    "dm_closed": (403, 50007, "Cannot send messages to this user"),
    "no_permission": (403, 50013, "Missing Permissions"),
    "no_access": (403, 50001, "Missing Access"),
    "too_large": (413, 40005, "Request entity too large"),
    "deleted": (404, 10008, "Unknown Message"),
    "gallery": (400, 50035, "Invalid Form Body"),
}


@dataclass
class Faults:
    """What the server does wrong, each on a share (0 to 1) of the requests.

    ``rate_limit``: 429 on the route's bucket; ``global_rate_limit``: 429 on the global
    limit; ``server_error``: 500; ``drop``: the connection is closed without an answer;
    ``latency`` (+ up to ``jitter``) seconds before every answer. ``retry_after`` is the wait
    a 429 asks for. ``match`` (a regex on ``"METHOD /path"``) limits the faults to some
    requests and ``limit`` to a number in all (with a share of 1 the first ``limit``
    matching requests fail: deterministic tests). ``seed`` seeds the draws.

    Discord's refusals, each drawn (at its share) only among the requests it can answer,
    with Discord's status, code and message (:data:`ERRORS`): ``edit_quota`` (30046 on an
    edit of a message), ``late`` (10062 on an interaction callback: answered after 3 s),
    ``expired`` (50027 on a follow-up or an edit through an interaction's token),
    ``dm_closed`` (50007 on a post in a DM channel), ``no_permission`` (50013 on a post in a
    guild channel: Attach Files missing when it has files, Send Messages else),
    ``too_large`` (40005 on a request with files), ``deleted`` (10008 on a GET or PATCH of a
    bot message, and the message is really deleted, as by a moderator). Unlike 429/500 they
    are not retried by discord.py: the bot sees the error."""

    rate_limit: float = 0.0
    global_rate_limit: float = 0.0
    server_error: float = 0.0
    drop: float = 0.0
    edit_quota: float = 0.0
    late: float = 0.0
    expired: float = 0.0
    dm_closed: float = 0.0
    no_permission: float = 0.0
    too_large: float = 0.0
    deleted: float = 0.0
    latency: float = 0.0
    jitter: float = 0.0
    retry_after: float = 0.05
    match: str | None = None
    limit: int | None = None
    seed: int = 0
    injected: int = 0
    _rng: random.Random = field(default_factory=random.Random, repr=False)

    def __post_init__(self) -> None:
        self._rng.seed(self.seed)

    @classmethod
    def parse(cls, text: str) -> Faults:
        """``"429=0.05,global=0.01,500=0.02,drop=0,latency=0.05,jitter=0.1,retry_after=0.2"``
        and Discord's refusals ``edit_quota=0.02,late=0.01,expired=0.01,dm_closed=0.1,
        no_permission=0.01,too_large=0.01,deleted=0.01`` (any subset; empty: no fault)."""
        names = dict(_FIELD_OF, latency="latency", jitter="jitter", retry_after="retry_after")
        names["seed"] = "seed"
        kw: dict[str, Any] = {}
        for part in filter(None, (x.strip() for x in text.split(","))):
            key, _, value = part.partition("=")
            if key not in names or not value:
                raise ValueError(f"unknown fault {part!r}: use {', '.join(names)} as NAME=VALUE")
            kw[names[key]] = int(value) if key == "seed" else float(value)
        for k, v in kw.items():
            if k in _FIELD_OF.values() and not 0 <= v <= 1:
                raise ValueError(f"{k} is a share between 0 and 1, not {v}")
            if v < 0:
                raise ValueError(f"{k} must not be negative")
        return cls(**kw)

    def shares(self) -> tuple[float, ...]:
        """The share of each of :data:`FAULT_KINDS`, in that order."""
        return tuple(float(getattr(self, _FIELD_OF[k])) for k in FAULT_KINDS)

    def draw(
        self, method: str, path: str, applies: Callable[[str], bool] | None = None
    ) -> str | None:
        """The fault for this request (one of FAULT_KINDS) or None. ``applies(kind)`` tells
        whether a kind of Discord's refusals can answer this request (without it, none of
        them is drawn); 429, global, 500 and drop can answer any."""
        if self.limit is not None and self.injected >= self.limit:
            return None
        if self.match is not None and not re.search(self.match, f"{method} {path}"):
            return None
        x = self._rng.random()
        for kind, share in zip(FAULT_KINDS, self.shares(), strict=True):
            if not share:
                continue
            if kind not in _ANY_REQUEST and (applies is None or not applies(kind)):
                continue
            if x < share:
                self.injected += 1
                return kind
            x -= share
        return None

    def delay(self) -> float:
        return self.latency + (self._rng.uniform(0, self.jitter) if self.jitter else 0.0)

    def describe(self) -> str:
        parts = [
            f"{name} {share:.1%}"
            for name, share in zip(FAULT_KINDS, self.shares(), strict=True)
            if share
        ]
        if self.latency or self.jitter:
            parts.append(f"latency {self.latency * 1000:.0f}+{self.jitter * 1000:.0f} ms")
        return ", ".join(parts) or "none"


_ANY_REQUEST = frozenset({"429", "global", "500", "drop"})


# Discord publishes no per-route figures (its headers are the truth and may change); these are
# the limits bots observe and discord.py's own notes name: (method regex, path regex whose
# first group is the major parameter, requests, seconds).
BUCKET_LIMITS: tuple[tuple[str, str, int, float], ...] = (
    ("POST", r"/channels/(\d+)/messages", 5, 5.0),  # send a message: 5 per 5 s per channel
    ("PATCH", r"/channels/(\d+)/messages/\d+", 5, 5.0),  # edit a message
    ("DELETE", r"/channels/(\d+)/messages/\d+", 5, 1.0),  # delete a message
    ("GET", r"/channels/(\d+)/messages(?:/\d+)?", 5, 1.0),  # read messages / history
    ("PUT|DELETE", r"/channels/(\d+)/messages/pins/\d+", 5, 5.0),  # pin, unpin
    ("POST", r"/users/@me/(channels)", 5, 5.0),  # open a DM channel (no major parameter)
    ("POST|PATCH|GET|DELETE", r"/webhooks/\d+/([^/]+)(?:/messages/.+)?", 5, 2.0),  # token
    ("POST", r"/interactions/\d+/([^/]+)/callback", 5, 1.0),  # per interaction: never hit
)


@dataclass
class Buckets:
    """Discord's per-route rate limits (opt-in: ``fake.buckets = Buckets()``): each route of
    :data:`BUCKET_LIMITS` with its major parameter (channel id, webhook token) is a bucket of
    ``limit`` requests per window (a fixed window from the bucket's first request). Every
    answer on such a route carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
    ``-Reset-After`` and ``-Bucket``; a request on an exhausted bucket gets a 429 with
    ``retry_after`` (and ``Via``, as Discord's, without which discord.py takes a 429 for a
    Cloudflare ban) and has no effect. ``scale`` multiplies every window (tests: 0.05 keeps the
    real counts, in a twentieth of the time)."""

    scale: float = 1.0
    limits: tuple[tuple[str, str, int, float], ...] = BUCKET_LIMITS
    limited: int = 0  # 429s answered
    _state: dict[tuple[int, str], tuple[float, int]] = field(default_factory=dict, repr=False)

    def take(self, method: str, path: str) -> tuple[dict[str, str], float | None] | None:
        """The bucket's headers for this request and, when it is exhausted, the seconds to
        wait (the request is then refused); None for a route without a bucket."""
        for k, (methods, pattern, limit, per) in enumerate(self.limits):
            g = re.fullmatch(pattern, path)
            if g is None or not re.fullmatch(methods, method):
                continue
            window = per * self.scale
            now = time.monotonic()
            key = (k, g[1])
            start, used = self._state.get(key, (now, 0))
            if now >= start + window:
                start, used = now, 0
            wait: float | None = None
            if used >= limit:
                wait = start + window - now
                self.limited += 1
            else:
                used += 1
                self._state[key] = (start, used)
            reset_after = max(0.0, start + window - now)
            headers = {
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Remaining": str(limit - used),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": hashlib.sha1(f"{methods} {pattern}".encode()).hexdigest()[
                    :16
                ],
            }
            return headers, wait
        return None


class FakeDiscord:
    """The server, its recorded requests and its messages (see module doc)."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.users: dict[int, str] = {BOT_ID: "Turnpost Bot"}
        self.ids = itertools.count(1_000_000_000_000_000_000)
        self.tokens: dict[str, int] = {}  # interaction token -> user id
        self.originals: dict[str, int] = {}  # interaction token -> original message id
        self.commands: list[dict[str, Any]] = []
        self.runner: web.AppRunner | None = None
        self.base = ""
        self.errors: list[str] = []
        self.threads: dict[int, dict[str, Any]] = {}  # thread id -> what it was created with
        self.dms: dict[int, int] = {}  # user id -> DM channel id
        self.faults = Faults()
        self.faulted: list[tuple[str, Request]] = []  # (fault kind, the request refused)
        self.on_request: list[Callable[[Request], None]] = []  # called as each one is handled
        # called with (kind, request) for each request refused (a fault, a limit)
        self.on_refused: list[Callable[[str, Request], None]] = []
        self.extra_routes: list[tuple[str, str, Any]] = []  # (method, path regex, handler)
        self.channel_messages: dict[int, list[int]] = {}  # channel id -> its message ids
        self.roles: dict[int, str] = {}  # the guild's roles (besides @everyone): id -> name
        # ---- Discord's limits (module doc, "Discord's limits"); the defaults refuse nothing
        # that the end-to-end tests do
        self.refused: list[tuple[str, Request]] = []  # (kind, the request) refused by a limit
        self.closed_dms: set[int] = set()  # users whose DMs are closed to the bot
        self.upload_limit = 10 * 1024 * 1024  # bytes of files per message (no boost)
        self.refuse_gallery_edits = False  # discord-api-docs#7529, see _gallery_refused
        self.buckets: Buckets | None = None  # the per-route rate limits, when set
        self.interaction_deadline = 3.0  # seconds to the initial callback
        self.token_lifetime = 15 * 60.0  # seconds an interaction token works (follow-ups)
        self.old_edit_age = 3600.0  # a message older than this (seconds) is "old"
        self.old_edit_quota = 3  # edits of old messages per channel and window...
        self.old_edit_window = 20.0  # ...of this many seconds (virtual)
        self.edit_quota_status = 429  # what Discord answers 30046 with
        self.acknowledged: set[str] = set()  # the tokens whose interaction got its callback
        self._denied: dict[int, int] = {}  # channel id -> permission bits denied there
        self._created: dict[int, datetime] = {}  # message id -> its creation (virtual)
        self._old_edits: dict[int, list[datetime]] = {}  # channel -> its old-message edits
        self._issued: dict[str, tuple[datetime, float]] = {}  # token -> (virtual, monotonic)
        self._clock: Callable[[], datetime] | None = None
        self._channel_of: dict[str, int] = {}  # interaction token -> its channel
        self._message_of: dict[str, int] = {}  # interaction token -> its component's message
        self._start = datetime(2025, 1, 1, tzinfo=UTC)
        self._mono0 = time.monotonic()
        self._offset = 0.0
        # threads and forum posts (see that section): the guild's channels (text, forum) by
        # id, and what the bot may do in them
        self.channels: dict[int, dict[str, Any]] = {}
        self.manage_threads = False  # the bot's Manage Threads (posts in locked threads)
        self.manage_channels = True  # the bot's Manage Channels (a forum's tags)
        self.create_threads = True  # the bot's Create Public Threads (and Create Posts)

    # ------------------------------------------------------------------ the clock

    def now(self) -> datetime:
        """The fake's time (UTC): from 2025-01-01 00:00 following the real time elapsed, or
        the clock given to :meth:`clock_from`; plus every :meth:`advance`."""
        base = (
            self._clock()
            if self._clock is not None
            else self._start + timedelta(seconds=time.monotonic() - self._mono0)
        )
        return base + timedelta(seconds=self._offset)

    def advance(self, seconds: float) -> datetime:
        """Move the fake's time forward (messages age, interactions get late)."""
        self._offset += seconds
        return self.now()

    def clock_from(self, clock: Callable[[], datetime] | Any) -> None:
        """Take the time from ``clock`` (a callable, or an object with ``now()`` such as
        :class:`service.pacing.FakeClock`). The interaction deadlines then count the real
        time elapsed on top of it (a FakeClock stands still while the bot works)."""
        self._clock = clock if callable(clock) else clock.now

    def _age(self, since: datetime) -> float:
        return (self.now() - since).total_seconds()

    def _token_age(self, token: str) -> float:
        """Seconds since the interaction of ``token`` was sent (0 for a token it never sent)."""
        issued = self._issued.get(token)
        if issued is None:
            return 0.0
        age = self._age(issued[0])
        if self._clock is not None:
            age += time.monotonic() - issued[1]
        return age

    # ------------------------------------------------------------------ permissions, moderators

    def deny(self, channel_id: int, *names: str) -> None:
        """The bot loses these permissions (``discord.Permissions`` flag names) in the channel
        (and in its threads)."""
        self._denied[channel_id] = self._denied.get(channel_id, 0) | _bits(names)

    def allow(self, channel_id: int, *names: str) -> None:
        """The bot gets these permissions back in the channel (none named: all of them)."""
        left = self._denied.get(channel_id, 0) & ~_bits(names) if names else 0
        if left:
            self._denied[channel_id] = left
        else:
            self._denied.pop(channel_id, None)

    def _denied_in(self, channel_id: int) -> int:
        denied = self._denied.get(channel_id, 0)
        parent = self.threads.get(channel_id, {}).get("parent_id")
        if parent is not None:
            denied |= self._denied.get(int(parent), 0)
        return denied

    def permissions_of(self, channel_id: int) -> int:
        """The bot's permissions in the channel (the interactions' ``app_permissions``): all
        of them, but those denied there (and Administrator, which would override them)."""
        denied = self._denied_in(channel_id)
        if not denied:
            return ALL_PERMISSIONS
        return ALL_PERMISSIONS & ~denied & ~discord.Permissions(administrator=True).value

    def delete_by_moderator(self, message_id: int) -> bool:
        """A moderator deletes the message: gone from the messages and the channel's history
        (later edits and reads answer 404 10008). False if there was no such message."""
        msg = self.messages.pop(message_id, None)
        if msg is None:
            return False
        ids = self.channel_messages.get(int(msg["channel_id"]), [])
        if message_id in ids:
            ids.remove(message_id)
        return True

    # ------------------------------------------------------------------ the guild

    @staticmethod
    def role_payload(role_id: int, name: str, position: int = 1) -> dict[str, Any]:
        """A role as the gateway sends it (``@everyone`` has the guild's id)."""
        return {
            "id": str(role_id),
            "name": name,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": "0",
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def guild_payload(
        self, guild_id: int = GUILD_ID, name: str = "Turnpost test guild"
    ) -> dict[str, Any]:
        """The ``GUILD_CREATE`` of the test guild (or of another one, ``guild_id``): its roles
        (``@everyone`` and :attr:`roles`) and the bot as its member; no channels (the bot meets
        them in the interactions, as partial channels)."""
        roles = [self.role_payload(guild_id, "@everyone", 0)] + [
            self.role_payload(rid, name, i) for i, (rid, name) in enumerate(self.roles.items(), 1)
        ]
        return {
            "id": str(guild_id),
            "name": name,
            "icon": None,
            "owner_id": "1",
            "unavailable": False,
            "large": False,
            "member_count": 1,
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "roles": roles,
            "emojis": [],
            "stickers": [],
            "channels": [dict(c) for c in self.channels.values()],
            "threads": [  # the active threads (threads and forum posts)
                self.thread_payload(t) for t, v in self.threads.items() if not v.get("archived")
            ],
            "members": [
                {
                    "user": user(BOT_ID, self.users[BOT_ID]),
                    "roles": [],
                    "joined_at": "2025-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                }
            ],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": "2025-01-01T00:00:00+00:00",
        }

    # ------------------------------------------------------------------ server

    async def start(self) -> str:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base = f"http://127.0.0.1:{port}/api/v10"
        return self.base

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    @staticmethod
    def reply(data: Any, status: int = 200) -> web.Response:
        return web.Response(
            status=status,
            body=json.dumps(data).encode(),
            headers={"Content-Type": "application/json"},
        )

    async def _body(self, req: web.Request) -> tuple[Any, dict[str, bytes]]:
        raw = await req.read()
        if req.content_type.startswith("multipart/"):
            return parse_multipart(raw, req.headers.get("Content-Type", ""))
        return (json.loads(raw) if raw else None), {}

    async def handle(self, req: web.Request) -> web.Response:
        path = "/" + req.match_info["tail"]
        body, files = await self._body(req)
        r = Request(req.method, path, dict(req.query), body, files, at=time.monotonic())
        delay = self.faults.delay()
        if delay > 0:
            await asyncio.sleep(delay)
        fault = self.faults.draw(req.method, path, lambda kind: self._fault_applies(kind, r))
        if fault is not None:
            resp = self.fault(fault, req, r)
            r.status = resp.status
            self.faulted.append((fault, r))
            self._refused_hooks(fault, r)
            return resp
        limits: dict[str, str] = {}
        if self.buckets is not None and (taken := self.buckets.take(req.method, path)):
            limits, wait = taken
            if wait is not None:
                return self._refused(("rate_limit", self._bucket_429(limits, wait)), r)
        try:
            refusal = self._refusal(r)
        except Exception as e:  # a bug here must fail the test, not hang it
            self.errors.append(f"{req.method} {path}: {e!r}")
            return self.reply({"message": str(e), "code": 0}, 500)
        if refusal is not None and refusal[0]:
            refusal[1].headers.update(limits)
            return self._refused(refusal, r)
        self.requests.append(r)
        for hook in self.on_request:
            hook(r)
        try:
            resp = refusal[1] if refusal is not None else await self.route(r)
            r.status = resp.status
            if resp.status < 300:
                self._done(r)
        except Exception as e:  # a bug here must fail the test, not hang it
            self.errors.append(f"{req.method} {path}: {e!r}")
            return self.reply({"message": str(e), "code": 0}, 500)
        resp.headers.update(limits)
        return resp

    def fault(self, kind: str, req: web.Request, r: Request) -> web.Response:
        """The answer of an injected fault (see :class:`Faults`)."""
        ra = self.faults.retry_after
        if kind in ERRORS:
            if kind == "deleted" and (target := self._target_message(r)) is not None:
                self.delete_by_moderator(target[0])
            return self.error(kind)
        if kind == "drop":
            if req.transport is not None:
                req.transport.abort()
            return web.Response(status=500)  # never reaches the client
        if kind == "500":
            return self.reply({"message": "500: Internal Server Error", "code": 0}, 500)
        glob = kind == "global"
        headers = {
            "Content-Type": "application/json",
            "Via": "1.1 google",  # without it discord.py takes a 429 for a Cloudflare ban
            "Retry-After": str(max(1, round(ra))),
            "X-RateLimit-Scope": "global" if glob else "user",
        }
        if glob:
            headers["X-RateLimit-Global"] = "true"
        else:
            route = re.sub(r"\d+", "0", r.path.split("/callback")[0])
            headers.update(
                {
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + ra:.3f}",
                    "X-RateLimit-Reset-After": f"{ra:.3f}",
                    "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
                }
            )
        data = {"message": "You are being rate limited.", "retry_after": ra, "global": glob}
        return web.Response(status=429, body=json.dumps(data).encode(), headers=headers)

    # ------------------------------------------------------------------ Discord's limits

    def error(self, kind: str) -> web.Response:
        """Discord's answer refusing a request for ``kind`` (:data:`ERRORS`)."""
        status, code, message = ERRORS[kind]
        if kind == "edit_quota":
            status = self.edit_quota_status
        body: dict[str, Any] = {"message": message, "code": code}
        if kind == "gallery":  # the shape of Discord's form errors (discord-api-docs#7529)
            body["errors"] = {
                "components": {
                    "_errors": [
                        {
                            "code": "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                            "message": "Attachment not found.",
                        }
                    ]
                }
            }
        return self.reply(body, status)

    @staticmethod
    def _bucket_429(headers: dict[str, str], wait: float) -> web.Response:
        data = {"message": "You are being rate limited.", "retry_after": wait, "global": False}
        headers = dict(
            headers,
            **{
                "Content-Type": "application/json",
                "Via": "1.1 google",
                "Retry-After": str(max(1, math.ceil(wait))),
                "X-RateLimit-Scope": "user",
            },
        )
        return web.Response(status=429, body=json.dumps(data).encode(), headers=headers)

    def _refused_hooks(self, kind: str, r: Request) -> None:
        for hook in self.on_refused:
            hook(kind, r)

    def _refused(self, refusal: tuple[str, web.Response], r: Request) -> web.Response:
        """Record a request refused by a limit (:attr:`refused`) and answer it."""
        kind, resp = refusal
        r.status = resp.status
        self.refused.append((kind, r))
        self._refused_hooks(kind, r)
        return resp

    def refusals(self) -> dict[str, int]:
        """How many requests were refused, by kind: the faults injected (:attr:`faulted`)
        and the limits (:attr:`refused`)."""
        out: dict[str, int] = {}
        for kind, _ in [*self.faulted, *self.refused]:
            out[kind] = out.get(kind, 0) + 1
        return out

    def _target_message(self, r: Request) -> tuple[int, dict[str, Any]] | None:
        """The existing message a request reads, edits or deletes (by channel or token)."""
        mid: int | None = None
        if g := re.fullmatch(r"/channels/\d+/messages/(\d+)", r.path):
            mid = int(g[1])
        elif g := re.fullmatch(r"/webhooks/\d+/([^/]+)/messages/(@original|\d+)", r.path):
            mid = self.originals.get(g[1]) if g[2] == "@original" else int(g[2])
        msg = self.messages.get(mid or 0)
        return None if msg is None or mid is None else (mid, msg)

    def _dm_channels(self) -> set[int]:
        return set(self.dms.values())

    def _fault_applies(self, kind: str, r: Request) -> bool:
        """Whether a refusal of ``kind`` (an injected fault) can answer this request."""
        m, p = r.method, r.path
        posted = m == "POST" and re.fullmatch(r"/channels/(\d+)/messages", p)
        if kind == "edit_quota":
            target = self._target_message(r) if m == "PATCH" else None
            return target is not None and not int(target[1]["flags"]) & EPHEMERAL
        if kind == "late":
            return m == "POST" and p.endswith("/callback")
        if kind == "expired":
            return p.startswith("/webhooks/")
        if kind in ("dm_closed", "no_permission"):
            in_dm = bool(posted) and int(p.split("/")[2]) in self._dm_channels()
            return bool(posted) and in_dm == (kind == "dm_closed")
        if kind == "too_large":
            return bool(r.files)
        if kind == "deleted":
            target = self._target_message(r) if m in ("GET", "PATCH") else None
            return (  # a moderator sees no ephemeral message
                target is not None
                and int(target[1]["author"]["id"]) == BOT_ID
                and not int(target[1]["flags"]) & EPHEMERAL
            )
        return False

    def _refusal(self, r: Request) -> tuple[str, web.Response] | None:
        """What Discord refuses of this request: (kind, answer); or ("", answer) for an
        answer that is no refusal (a history read without Read Message History: empty)."""
        m, p, body = r.method, r.path, r.json if isinstance(r.json, dict) else {}
        if r.files and sum(len(d) for d in r.files.values()) > self.upload_limit:
            return "too_large", self.error("too_large")
        if g := re.fullmatch(r"/interactions/\d+/([^/]+)/callback", p):
            if g[1] in self.acknowledged:
                return "acknowledged", self.error("acknowledged")
            if self._token_age(g[1]) > self.interaction_deadline:
                return "late", self.error("late")
        if (g := re.fullmatch(r"/webhooks/\d+/([^/]+)(?:/.*)?", p)) and (
            self._token_age(g[1]) > self.token_lifetime
        ):
            return "expired", self.error("expired")
        if g := re.match(r"/channels/(\d+)", p):
            ch = int(g[1])
            refusal = self._permission_refusal(r, ch)
            if refusal is not None:
                return refusal
            if m == "POST" and p == f"/channels/{ch}/messages":
                closed = {self.dms[u] for u in self.closed_dms if u in self.dms}
                if ch in closed:
                    return "dm_closed", self.error("dm_closed")
        target = self._target_message(r) if m == "PATCH" else None
        if target is not None and not int(target[1]["flags"]) & EPHEMERAL:
            mid, msg = target
            created = self._created.get(mid)
            if created is not None and self._age(created) > self.old_edit_age:
                ch = int(msg["channel_id"])
                recent = [
                    t for t in self._old_edits.get(ch, []) if self._age(t) < self.old_edit_window
                ]
                self._old_edits[ch] = recent
                if len(recent) >= self.old_edit_quota:
                    return "edit_quota", self.error("edit_quota")
        if self.refuse_gallery_edits and r.files and self._gallery_refused(r, body):
            return "gallery", self.error("gallery")
        return None

    def _gallery_refused(self, r: Request, body: dict[str, Any]) -> bool:
        """discord-api-docs#7529: editing a media gallery (component 12) into a message that
        had none, its items showing ``attachment://`` files uploaded by this very edit, is
        refused (400, 50035: the attachment "not found"); posting it new works."""
        old: dict[str, Any] | None = None
        if r.method == "PATCH" and (target := self._target_message(r)) is not None:
            old = target[1]
        elif (g := re.fullmatch(r"/interactions/\d+/([^/]+)/callback", r.path)) and int(
            body.get("type", 0)
        ) == 7:
            old = self.messages.get(self._message_of.get(g[1], 0))
            body = body.get("data") or {}
        if old is None or "components" not in body:
            return False
        had = any(c.get("type") == 12 for c in walk_components(old.get("components") or []))
        shown = {
            str(item.get("media", {}).get("url", "")).removeprefix("attachment://")
            for c in walk_components(body.get("components") or [])
            if c.get("type") == 12
            for item in c.get("items", [])
        }
        return not had and bool(shown & set(r.files))

    def _permission_refusal(self, r: Request, ch: int) -> tuple[str, web.Response] | None:
        """The permission a request on channel ``ch`` needs and the bot lacks there."""
        denied = self._denied_in(ch)
        if not denied:
            return None
        if denied & _bits(["view_channel"]):
            return "no_access", self.error("no_access")
        m, p, body = r.method, r.path, r.json if isinstance(r.json, dict) else {}
        need: list[str] = []
        if m == "POST" and p == f"/channels/{ch}/messages":
            need.append("send_messages_in_threads" if ch in self.threads else "send_messages")
            if r.files:
                need.append("attach_files")
            if body.get("embeds"):
                need.append("embed_links")
            if body.get("message_reference"):
                need.append("read_message_history")
        elif m == "GET" and p == f"/channels/{ch}/messages":
            if denied & _bits(["read_message_history"]):
                return "", self.reply([])  # Discord answers an empty history
        elif re.fullmatch(rf"/channels/{ch}/(?:messages/)?pins/\d+", p):
            need += ["manage_messages", "pin_messages"]
        elif g := re.fullmatch(rf"/channels/{ch}/messages/(\d+)", p):
            msg = self.messages.get(int(g[1]))
            if m == "GET":
                need.append("read_message_history")
            elif m == "PATCH" and r.files:
                need.append("attach_files")
            elif m == "DELETE" and msg is not None and int(msg["author"]["id"]) != BOT_ID:
                need.append("manage_messages")
        elif m == "POST" and p == f"/channels/{ch}/threads":
            private = int(body.get("type", 11)) == 12
            need.append("create_private_threads" if private else "create_public_threads")
        elif m == "POST" and re.fullmatch(rf"/channels/{ch}/messages/\d+/threads", p):
            need.append("create_public_threads")
        elif m == "PUT" and re.fullmatch(rf"/channels/{ch}/thread-members/\d+", p):
            need.append("send_messages_in_threads")
        elif (
            m == "PATCH"
            and p == f"/channels/{ch}"
            and ch in self.threads
            and set(body) - {"archived", "auto_archive_duration", "name"}  # not the owner's
        ):
            need.append("manage_threads")
        if denied & _bits(need):
            return "no_permission", self.error("no_permission")
        return None

    def _done(self, r: Request) -> None:
        """What a request Discord accepted counts towards its limits."""
        if g := re.fullmatch(r"/interactions/\d+/([^/]+)/callback", r.path):
            self.acknowledged.add(g[1])
        elif r.method == "PATCH" and (target := self._target_message(r)) is not None:
            created = self._created.get(target[0])
            if created is not None and self._age(created) > self.old_edit_age:
                ch = int(target[1]["channel_id"])
                self._old_edits.setdefault(ch, []).append(self.now())

    def _check_message(
        self, body: dict[str, Any], files: dict[str, bytes] | None = None, *, edit: bool = False
    ) -> str | None:
        """The first of Discord's published limits the message breaks
        (:func:`devtools.discord_limits.message_problems`), else None."""
        found = message_problems(body, files, edit=edit)
        return "; ".join(found) if found else None

    def _message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: dict[str, bytes],
        author: int = BOT_ID,
        mid: int | None = None,
        ephemeral: bool = False,
    ) -> dict[str, Any]:
        mid = mid or next(self.ids)
        flags = int(body.get("flags") or 0) | (EPHEMERAL if ephemeral else 0)
        atts = [
            {
                "id": str(next(self.ids)),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.example/{name}",
                "proxy_url": f"https://cdn.example/{name}",
            }
            for name, data in files.items()
        ]
        msg = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(GUILD_ID),
            "author": user(author, self.users.get(author, "x")),
            "content": body.get("content") or "",
            "timestamp": self.now().isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": atts,
            "embeds": body.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": flags,
            "components": body.get("components") or [],
        }
        _check_attachments(msg)
        self.messages[mid] = msg
        self._created[mid] = self.now()
        self.channel_messages.setdefault(channel_id, []).append(mid)
        return msg

    async def route(self, r: Request) -> web.Response:
        p, m = r.path, r.method
        for method, pattern, handler in self.extra_routes:
            if method in (m, "*") and (g := re.fullmatch(pattern, p)):
                return await handler(r, g)  # type: ignore[no-any-return]
        threaded = self.thread_route(r)  # threads and forum posts (their section)
        if threaded is not None:
            return threaded
        if m == "GET" and p == "/users/@me":
            return self.reply(user(BOT_ID, "Turnpost Bot"))
        if m == "GET" and (g := re.fullmatch(r"/users/(\d+)", p)):
            uid = int(g[1])
            return self.reply(user(uid, self.users.get(uid, f"user{uid}")))
        if m == "GET" and p == "/oauth2/applications/@me":
            return self.reply(
                {
                    "id": str(APP_ID),
                    "name": "Turnpost",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": user(1, "owner"),
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "team": None,
                }
            )
        if m == "PUT" and re.fullmatch(r"/applications/\d+(/guilds/\d+)?/commands", p):
            self.commands = [
                dict(c, id=str(next(self.ids)), application_id=str(APP_ID), version="1")
                for c in r.json
            ]
            return self.reply(self.commands)
        if g := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", p):
            return self.callback(r, g[2])
        if g := re.fullmatch(r"/webhooks/\d+/([^/]+)", p):
            if m != "POST":
                return self.reply({"message": "405"}, 405)
            return self.followup(r, g[1])
        if g := re.fullmatch(r"/webhooks/\d+/([^/]+)/messages/(@original|\d+)", p):
            tok = g[1]
            mid = self.originals.get(tok) if g[2] == "@original" else int(g[2])
            r.interaction_user = self.tokens.get(tok)
            old = self.messages.get(mid or 0)
            r.ephemeral = bool(old and int(old["flags"]) & EPHEMERAL)
            if m == "DELETE":
                return web.Response(status=204)
            if old is None:
                return self.reply({"message": "Unknown Message", "code": 10008}, 404)
            if m == "GET":
                return self.reply(old)
            err = self._check_message(dict(old, **(r.json or {})), r.files, edit=True)
            if err:
                return self.reply({"message": err, "code": 50035}, 400)
            return self.reply(self._edit(old, r))
        if g := re.fullmatch(r"/channels/(\d+)/messages", p):
            if m == "GET":  # the channel's history, newest first
                limit = int(r.query.get("limit", "50"))
                mids = self.channel_messages.get(int(g[1]), [])[::-1][:limit]
                return self.reply([self.messages[i] for i in mids if i in self.messages])
            if m != "POST":
                return self.reply([])
            err = self._check_message(r.json or {}, r.files)
            if err:
                return self.reply({"message": err, "code": 50035}, 400)
            return self.reply(self._message(int(g[1]), r.json or {}, r.files))
        if m == "POST" and p == "/users/@me/channels":
            uid = int((r.json or {})["recipient_id"])
            did = self.dms.setdefault(uid, next(self.ids))
            return self.reply(
                {
                    "id": str(did),
                    "type": 1,
                    "recipients": [user(uid, self.users.get(uid, f"user{uid}"))],
                    "last_message_id": None,
                }
            )
        if g := re.fullmatch(r"/channels/(\d+)/messages/pins/(\d+)", p):
            pinned = self.messages.get(int(g[2]))
            if pinned is None:
                return self.reply({"message": "Unknown Message", "code": 10008}, 404)
            pinned["pinned"] = m == "PUT"
            return web.Response(status=204)
        if g := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", p):
            old = self.messages.get(int(g[2]))
            if old is None:
                return self.reply({"message": "Unknown Message", "code": 10008}, 404)
            if m == "DELETE":  # gone from the channel's history too
                del self.messages[int(g[2])]
                ids = self.channel_messages.get(int(g[1]), [])
                if int(g[2]) in ids:
                    ids.remove(int(g[2]))
                return web.Response(status=204)
            if m == "GET":
                return self.reply(old)
            err = self._check_message(dict(old, **(r.json or {})), r.files, edit=True)
            if err:
                return self.reply({"message": err, "code": 50035}, 400)
            return self.reply(self._edit(old, r))
        return self.reply({"message": f"fake: no route {m} {p}", "code": 0}, 404)

    def _edit(self, old: dict[str, Any], r: Request) -> dict[str, Any]:
        body = r.json or {}
        for k in ("content", "components", "embeds"):
            if k in body:
                old[k] = body[k] if body[k] is not None else ([] if k != "content" else "")
        if "flags" in body and body["flags"] is not None:
            old["flags"] = int(body["flags"]) | (int(old["flags"]) & EPHEMERAL)
        # as Discord: ``attachments`` lists the ones kept (by id) and the new uploads; an edit
        # without it keeps the message's attachments (only its text or components change)
        if "attachments" in body or r.files:
            listed = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in old["attachments"] if a["id"] in listed]
            old["attachments"] = kept + [
                {
                    "id": str(next(self.ids)),
                    "filename": n,
                    "size": len(d),
                    "url": f"https://cdn.example/{n}",
                    "proxy_url": f"https://cdn.example/{n}",
                }
                for n, d in r.files.items()
            ]
        _check_attachments(old)
        old["edited_timestamp"] = self.now().isoformat()
        return old

    def callback(self, r: Request, token: str) -> web.Response:
        body = r.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        r.interaction_user = self.tokens.get(token)
        flags = int(data.get("flags") or 0)
        r.ephemeral = bool(flags & EPHEMERAL)
        if kind in (4, 7):
            err = self._check_message(data, r.files, edit=kind == 7)
            if err:
                return self.reply({"message": err, "code": 50035}, 400)
        iid = r.path.split("/")[2]
        resp: dict[str, Any] = {"interaction": {"id": iid, "type": 2}}
        if kind in (4, 5):  # a message (or "thinking…") answering the interaction
            msg = self._message(
                self._channel_of.get(token, 0), data, r.files, ephemeral=r.ephemeral
            )
            self.originals[token] = int(msg["id"])
            resp["interaction"].update(
                response_message_id=msg["id"],
                response_message_loading=kind == 5,
                response_message_ephemeral=r.ephemeral,
            )
            resp["resource"] = {"type": kind, "message": msg}
        elif kind in (6, 7):  # update the message with the component
            mid = self._message_of.get(token)
            if mid is not None and mid in self.messages:
                self.originals[token] = mid
                old = self.messages[mid]
                r.ephemeral = bool(int(old["flags"]) & EPHEMERAL)
                if kind == 7:
                    self._edit(
                        old, r if not data else Request(r.method, r.path, r.query, data, r.files)
                    )
                resp["resource"] = {"type": kind, "message": old}
            else:
                resp["resource"] = {"type": kind}
        else:
            resp["resource"] = {"type": kind}
        if r.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        return self.reply(resp)

    def followup(self, r: Request, token: str) -> web.Response:
        body = r.json or {}
        r.interaction_user = self.tokens.get(token)
        r.ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        err = self._check_message(body, r.files)
        if err:
            return self.reply({"message": err, "code": 50035}, 400)
        msg = self._message(self._channel_of.get(token, 0), body, r.files, ephemeral=r.ephemeral)
        if r.query.get("wait") not in ("1", "true", "True"):
            return web.Response(status=204)
        return self.reply(msg)

    _channel_of: dict[str, int]
    _message_of: dict[str, int]

    # ============================================================ threads and forum posts
    # The guild's channels (:attr:`channels`: text channels, type 0, and forum channels,
    # type 15, with their ``available_tags``) and threads (:attr:`threads`: a thread started
    # from a message has that message's id; a forum post's starter message has the post's
    # id), modelled on Discord's documented behaviour: a message sent to an archived thread
    # unarchives it (unless it is locked); anything else in an archived thread (an edit, a
    # deletion, a pin, adding a member, changing it without unarchiving it) answers 400
    # code 50083 "Thread is archived"; a locked thread refuses posts, edits and changes 403
    # code 50013 unless the bot has Manage Threads (:attr:`manage_threads`); a forum's tags
    # are changed only with Manage Channels (:attr:`manage_channels`). Discord's published
    # limits are checked (devtools.discord_limits): a thread's name 1-100 characters, a forum post needs a starter
    # message, at most 5 applied tags (each one of the forum's), at most 20 available tags of
    # at most 20 characters, auto_archive_duration one of 60, 1440, 4320, 10080 minutes.

    def add_channel(
        self, channel_id: int, name: str = "game", *, forum: bool = False, tags: Any = ()
    ) -> dict[str, Any]:
        """A channel of the guild (a text channel, or a forum with the tags ``tags``)."""
        c: dict[str, Any] = {
            "id": str(channel_id),
            "type": 15 if forum else 0,
            "guild_id": str(GUILD_ID),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "default_auto_archive_duration": 1440,
        }
        if forum:
            c.update(
                available_tags=[self._tag(t) for t in tags],
                default_reaction_emoji=None,
                default_thread_rate_limit_per_user=0,
                default_sort_order=None,
                default_forum_layout=0,
                flags=0,
            )
        self.channels[channel_id] = c
        return c

    def _tag(self, name: str, tag_id: int | None = None) -> dict[str, Any]:
        return {
            "id": str(tag_id or next(self.ids)),
            "name": name,
            "moderated": False,
            "emoji_id": None,
            "emoji_name": None,
        }

    def tag_names(self, thread_id: int) -> list[str]:
        """The names of a forum post's applied tags."""
        t = self.threads[thread_id]
        forum = self.channels.get(int(t["parent_id"]), {})
        names = {x["id"]: x["name"] for x in forum.get("available_tags", [])}
        return [names.get(str(i), "?") for i in t.get("applied_tags", [])]

    def channel_payload(self, channel_id: int) -> dict[str, Any]:
        """The channel as Discord describes it (an interaction's ``channel``, ``GET
        /channels/{id}``): a thread (type 11 or 12, its parent and thread_metadata), a
        channel of :attr:`channels`, else a text channel named "game"."""
        if channel_id in self.threads:
            return self.thread_payload(channel_id)
        if channel_id in self.channels:
            return dict(self.channels[channel_id])
        return {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": "game",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }

    def thread_payload(self, thread_id: int) -> dict[str, Any]:
        t = self.threads[thread_id]
        return {
            "id": str(thread_id),
            "type": int(t.get("type", 11)),
            "guild_id": str(GUILD_ID),
            "parent_id": str(t["parent_id"]),
            "name": t.get("name", ""),
            "owner_id": str(t.get("owner_id", BOT_ID)),
            "applied_tags": [str(x) for x in t.get("applied_tags", [])],
            "message_count": 0,
            "member_count": len(t["members"]),
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": bool(t.get("archived", False)),
                "auto_archive_duration": int(t.get("auto_archive_duration", 10080)),
                "archive_timestamp": "2025-01-01T00:00:00+00:00",
                "locked": bool(t.get("locked", False)),
                "invitable": bool(t.get("invitable", True)),
            },
        }

    def archive(self, thread_id: int, archived: bool = True) -> None:
        """The thread is archived (as Discord does after its inactivity time)."""
        self.threads[thread_id]["archived"] = archived

    def lock(self, thread_id: int, locked: bool = True) -> None:
        """A moderator locks (or unlocks) the thread."""
        self.threads[thread_id]["locked"] = locked

    def thread_update(self, client: discord.Client, thread_id: int) -> None:
        """The gateway's ``THREAD_UPDATE`` of the thread as it now is, to ``client``."""
        client._connection.parse_thread_update(self.thread_payload(thread_id))  # type: ignore[arg-type]

    @staticmethod
    def _refuse(status: int, code: int, message: str) -> web.Response:
        return FakeDiscord.reply({"message": message, "code": code}, status)

    def _archived(self) -> web.Response:
        return self._refuse(400, 50083, "Thread is archived")

    def _locked(self) -> web.Response:
        return self._refuse(403, 50013, "Missing Permissions")

    def _bad_tags(self, forum_id: int, tags: Any) -> web.Response | None:
        forum = self.channels.get(forum_id)
        if forum is None or forum["type"] != 15:
            return self._refuse(400, 50035, "applied_tags outside a forum")
        known = {x["id"] for x in forum["available_tags"]}
        if len(tags) > 5 or any(str(t) not in known for t in tags):
            return self._refuse(400, 50035, "Invalid Form Body: applied_tags")
        return None

    def _new_thread(
        self, tid: int, parent: int, body: dict[str, Any], *, kind: int = 11
    ) -> dict[str, Any]:
        duration = int(body.get("auto_archive_duration") or 4320)
        self.threads[tid] = dict(
            body,
            parent_id=str(parent),
            members=[BOT_ID] if kind != 12 else [],
            type=kind,
            owner_id=BOT_ID,
            archived=False,
            locked=False,
            auto_archive_duration=duration,
            applied_tags=[str(t) for t in body.get("applied_tags") or []],
        )
        return self.threads[tid]

    def thread_route(self, r: Request) -> web.Response | None:
        """The routes of threads and forum posts; None: not one of them (or a post the
        channel's own route makes, once the thread allows it)."""
        p, m, body = r.path, r.method, r.json or {}
        if m == "POST" and (g := re.fullmatch(r"/channels/(\d+)/messages/(\d+)/threads", p)):
            cid, mid = int(g[1]), int(g[2])
            msg = self.messages.get(mid)
            if msg is None or int(msg["channel_id"]) != cid:
                return self._refuse(404, 10008, "Unknown Message")
            if mid in self.threads:
                return self._refuse(
                    400, 160004, "A thread has already been created for this message"
                )
            if cid in self.threads:
                return self._refuse(400, 50024, "Cannot execute action on this channel type")
            if not self.create_threads:
                return self._locked()
            if found := thread_problems(body, forum=False):
                return self._refuse(400, 50035, "Invalid Form Body: " + "; ".join(found))
            self._new_thread(mid, cid, body)  # the thread has the message's id
            msg["thread"] = self.thread_payload(mid)
            return self.reply(self.thread_payload(mid))
        if m == "POST" and (g := re.fullmatch(r"/channels/(\d+)/threads", p)):
            cid = int(g[1])
            forum = self.channels.get(cid, {}).get("type") == 15
            if found := thread_problems(body, forum=forum):
                return self._refuse(400, 50035, "Invalid Form Body: " + "; ".join(found))
            if forum and not self.create_threads:
                return self._locked()
            if not forum:  # a thread without a starter message (a private one: a hand's)
                tid = next(self.ids)
                self._new_thread(tid, cid, body, kind=int(body.get("type", 11)))
                return self.reply(self.thread_payload(tid))
            message = body["message"]
            tags = body.get("applied_tags") or []
            if (bad := self._bad_tags(cid, tags)) is not None:
                return bad
            tid = next(self.ids)
            self._new_thread(tid, cid, {k: v for k, v in body.items() if k != "message"})
            starter = self._message(tid, message, r.files, mid=tid)
            return self.reply(dict(self.thread_payload(tid), message=starter))
        g = re.fullmatch(r"/channels/(\d+)(/.*)?", p)
        if g is None:
            return None
        cid, rest = int(g[1]), g[2] or ""
        if m == "GET" and not rest:
            if cid in self.threads or cid in self.channels:
                return self.reply(self.channel_payload(cid))
            return self._refuse(404, 10003, "Unknown Channel")
        if m == "PATCH" and not rest and cid in self.channels:
            return self._edit_channel(cid, body)
        t = self.threads.get(cid)
        if t is None:
            return None
        if m == "PATCH" and not rest:
            return self._edit_thread(cid, t, body)
        if m == "DELETE" and not rest:  # the thread and its messages go
            gone = self.thread_payload(cid)
            for mid in self.channel_messages.pop(cid, []):
                self.messages.pop(mid, None)
            del self.threads[cid]
            return self.reply(gone)
        locked_out = t["locked"] and not self.manage_threads
        if g2 := re.fullmatch(r"/thread-members/(\d+|@me)", rest):
            if m != "PUT":
                return None
            if t["archived"]:
                return self._archived()
            uid = BOT_ID if g2[1] == "@me" else int(g2[1])
            if uid not in t["members"]:
                t["members"].append(uid)
            return web.Response(status=204)
        if m == "POST" and rest == "/messages":
            if locked_out:
                return self._locked()
            t["archived"] = False  # a message sent to an archived thread unarchives it
            return None
        if rest.startswith("/messages/") and m in ("PATCH", "DELETE", "PUT"):
            if t["archived"]:
                return self._archived()
            if locked_out:
                return self._locked()
        return None

    def _edit_thread(self, tid: int, t: dict[str, Any], body: dict[str, Any]) -> web.Response:
        if (t["locked"] or "locked" in body) and not self.manage_threads:
            return self._locked()  # a locked thread: only Manage Threads changes it
        if t["archived"] and body.get("archived") is not False:
            return self._archived()
        if found := channel_edit_problems(body):
            return self._refuse(400, 50035, "Invalid Form Body: " + "; ".join(found))
        if "applied_tags" in body:
            if (bad := self._bad_tags(int(t["parent_id"]), body["applied_tags"])) is not None:
                return bad
            t["applied_tags"] = [str(x) for x in body["applied_tags"]]
        if "auto_archive_duration" in body:
            t["auto_archive_duration"] = int(body["auto_archive_duration"])
        for k in ("archived", "locked", "name"):
            if k in body:
                t[k] = body[k]
        return self.reply(self.thread_payload(tid))

    def _edit_channel(self, cid: int, body: dict[str, Any]) -> web.Response:
        c = self.channels[cid]
        if "available_tags" in body:
            if not self.manage_channels:
                return self._locked()
            tags = body["available_tags"]
            if c["type"] != 15:
                return self._refuse(400, 50035, "Invalid Form Body: available_tags")
            if found := channel_edit_problems(body):
                return self._refuse(400, 50035, "Invalid Form Body: " + "; ".join(found))
            c["available_tags"] = [self._tag(x["name"], int(x.get("id") or 0)) for x in tags]
        if "name" in body:
            c["name"] = body["name"]
        return self.reply(dict(c))

    # ------------------------------------------------------------------ interactions

    def interaction(
        self,
        kind: int,
        uid: int,
        channel_id: int,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
        guild_id: int | None = GUILD_ID,
    ) -> dict[str, Any]:
        """An ``INTERACTION_CREATE`` of ``uid`` in ``channel_id`` on the test guild, or on
        another one (``guild_id``), or in the user's DMs with the bot (``guild_id`` None)."""
        iid = next(self.ids)
        token = f"tok{iid}"
        self.tokens[token] = uid
        self._issued[token] = (self.now(), time.monotonic())
        if not hasattr(self, "_channel_of"):
            self._channel_of, self._message_of = {}, {}
        self._channel_of[token] = channel_id
        if message is not None:
            self._message_of[token] = int(message["id"])
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": self.channel_payload(channel_id),
            "member": {
                "user": user(uid, self.users.get(uid, f"user{uid}")),
                "roles": [],
                "joined_at": "2025-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(discord.Permissions.all().value),
                "pending": False,
            },
            "token": token,
            "version": 1,
            "app_permissions": str(self.permissions_of(channel_id)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": self.upload_limit,
        }
        if guild_id is None:  # a DM: a user and a DM channel, no guild, no member
            payload["user"] = payload.pop("member")["user"]
            for k in ("guild_id", "guild_locale"):
                payload.pop(k)
            payload["channel"] = {"id": str(channel_id), "type": 1, "recipients": [payload["user"]]}
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = 1
        elif guild_id != GUILD_ID:
            payload["guild_id"] = payload["channel"]["guild_id"] = str(guild_id)
            payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        if message is not None:
            payload["message"] = message
        return payload


class Harness:
    """A logged-in client over the fake server, and helpers to send interactions and wait
    until the bot has answered them. The guild is delivered first, as the gateway does
    (``guild``: False leaves the client without it, as before its ``GUILD_CREATE``)."""

    def __init__(self, fake: FakeDiscord, client: discord.Client, *, guild: bool = True) -> None:
        self.fake = fake
        self.client = client
        if guild:
            self.deliver_guild()

    def deliver_guild(self, guild_id: int = GUILD_ID, name: str = "Turnpost test guild") -> None:
        """Feed the guild's ``GUILD_CREATE`` (its roles: :attr:`FakeDiscord.roles`) to the
        client's connection state: the guild is cached, as the ``guilds`` intent has it
        (``guild_id``, ``name``: another guild the bot is on)."""
        self.client._connection.parse_guild_create(self.fake.guild_payload(guild_id, name))

    def add_role(self, role_id: int, name: str) -> None:
        """A new role in the guild (``GUILD_ROLE_CREATE`` when the guild is cached)."""
        self.fake.roles[role_id] = name
        payload = {
            "guild_id": str(GUILD_ID),
            "role": self.fake.role_payload(role_id, name, len(self.fake.roles)),
        }
        self.client._connection.parse_guild_role_create(payload)

    def remove_guild(self) -> None:
        """``GUILD_DELETE``: the guild leaves the client's cache."""
        self.client._connection.parse_guild_delete({"id": str(GUILD_ID)})

    async def feed(self, payload: dict[str, Any]) -> list[Request]:
        """Dispatch one INTERACTION_CREATE and wait until the bot has finished with it;
        return the requests it made for it."""
        before = len(self.fake.requests)
        baseline = set(asyncio.all_tasks())
        self.client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle(baseline)
        assert not self.fake.errors, self.fake.errors
        return self.fake.requests[before:]

    async def settle(self, baseline: set[asyncio.Task[Any]]) -> None:
        """Until every task started since ``baseline`` is done (the server's per-connection
        handlers aside) and no request came in for a few polls."""
        me = asyncio.current_task()
        quiet, last = 0, -1
        busy: list[asyncio.Task[Any]] = []
        for _ in range(2000):
            await asyncio.sleep(0.005)
            busy = [
                t
                for t in asyncio.all_tasks()
                if t is not me and t not in baseline and not t.done() and not _idle(t)
            ]
            n = len(self.fake.requests)
            quiet = quiet + 1 if (not busy and n == last) else 0
            last = n
            if quiet >= 3:
                return
        raise AssertionError(f"the bot did not settle: {busy!r}"[:3000])

    async def command(
        self,
        uid: int,
        channel: int,
        name: str,
        sub: str | None = None,
        *,
        guild_id: int | None = GUILD_ID,
        **options: Any,
    ) -> list[Request]:
        """Slash command ``/name [sub] options`` of ``uid`` in ``channel``, on the test guild
        (another guild: ``guild_id``; the user's DMs with the bot: ``guild_id=None``)."""
        opts = [
            {"name": k, "type": _opt_type(v), "value": _opt_value(v)} for k, v in options.items()
        ]
        data: dict[str, Any] = {"id": str(next(self.fake.ids)), "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        refs = [v.id for v in options.values() if isinstance(v, ChannelRef)]
        if refs:  # a channel option: Discord resolves it (threads and forum posts)
            full = str(ALL_PERMISSIONS)
            data["resolved"] = {
                "channels": {
                    str(c): dict(self.fake.channel_payload(c), permissions=full) for c in refs
                }
            }
        return await self.feed(self.fake.interaction(2, uid, channel, data, guild_id=guild_id))

    async def autocomplete(
        self, uid: int, channel: int, name: str, option: str, value: str, sub: str | None = None
    ) -> list[str]:
        opts = [{"name": option, "type": 3, "value": value, "focused": True}]
        data: dict[str, Any] = {"id": str(next(self.fake.ids)), "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        reqs = await self.feed(self.fake.interaction(4, uid, channel, data))
        cb = [r for r in reqs if r.path.endswith("/callback")]
        assert cb and cb[0].json["type"] == 8, reqs
        return [c["value"] for c in cb[0].json["data"]["choices"]]

    async def click(self, uid: int, message: dict[str, Any], custom_id: str) -> list[Request]:
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self.fake.interaction(3, uid, int(message["channel_id"]), data, message)
        return await self.feed(payload)

    async def select(
        self, uid: int, message: dict[str, Any], custom_id: str, value: str
    ) -> list[Request]:
        data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        payload = self.fake.interaction(3, uid, int(message["channel_id"]), data, message)
        return await self.feed(payload)


_PARAM = re.compile(r'(\w+)="([^"]*)"')


def parse_multipart(raw: bytes, content_type: str) -> tuple[Any, dict[str, bytes]]:
    """A multipart/form-data body as discord.py sends it: its ``payload_json`` (parsed) and
    its files by name. A plain split on the boundary: the fake server runs in the load
    test's process beside the bot, and aiohttp's general reader costs it about a millisecond
    of CPU per part (its header parsing), which the load test would count against the bot."""
    m = re.search(r'boundary="?([^";]+)"?', content_type)
    if m is None:
        raise ValueError("multipart body without a boundary")
    payload: Any = None
    files: dict[str, bytes] = {}
    for chunk in raw.split(b"--" + m.group(1).encode())[1:]:
        if chunk.startswith(b"--"):
            break  # the closing boundary
        head, _, body = chunk.partition(b"\r\n\r\n")
        if body.endswith(b"\r\n"):
            body = body[:-2]
        params: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            if line.lower().startswith("content-disposition:"):
                params = dict(_PARAM.findall(line))
        if params.get("name") == "payload_json":
            payload = json.loads(body)
        else:
            files[params.get("filename") or params.get("name") or "?"] = body
    return payload, files


def _check_attachments(msg: dict[str, Any]) -> None:
    """Every ``attachment://NAME`` a message's components show is one of its attachments
    (Discord refuses the message otherwise); a bug of the bot fails the test."""
    names = {a["filename"] for a in msg.get("attachments") or []}
    shown = re.findall(r"attachment://([^\"'\s]+)", json.dumps(msg.get("components") or []))
    missing = sorted(set(shown) - names)
    if missing:
        raise ValueError(f"components show attachments the message lacks: {missing}")


ALL_PERMISSIONS = discord.Permissions.all().value


def _bits(names: Iterable[str]) -> int:
    """The permission bits of ``discord.Permissions`` flag names."""
    bits = 0
    for name in names:
        if name not in discord.Permissions.VALID_FLAGS:
            raise ValueError(f"no permission {name!r} (a discord.Permissions flag name)")
        bits |= discord.Permissions(**{name: True}).value
    return bits


def _idle(task: asyncio.Task[Any]) -> bool:
    """The server's per-connection handlers live as long as a keep-alive connection; a
    view's timeout timer waits, it does not work."""
    name = repr(task.get_coro())
    return "RequestHandler" in name or "__timeout_task_impl" in name  # a view's timer


@dataclass(frozen=True)
class ChannelRef:
    """A channel given as a slash command's option (type 7; threads and forum posts)."""

    id: int


def _opt_value(v: Any) -> Any:
    return str(v.id) if isinstance(v, ChannelRef) else v


def _opt_type(v: Any) -> int:
    if isinstance(v, ChannelRef):
        return 7
    if isinstance(v, bool):
        return 5
    if isinstance(v, int):
        return 4
    return 3


def components_of(msg: dict[str, Any]) -> list[dict[str, Any]]:
    return list(walk_components(msg.get("components") or []))


def custom_ids(msg: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for c in components_of(msg) if "custom_id" in c]
