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
before doing anything) and is kept in ``fake.faulted``, not in ``fake.requests``.

It lives in the package (not under ``tests/``) because ``python -m devtools.loadtest`` runs the
bot against it.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import web

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


FAULT_KINDS = ("429", "global", "500", "drop")


@dataclass
class Faults:
    """What the server does wrong, each on a share (0 to 1) of the requests.

    ``rate_limit``: 429 on the route's bucket; ``global_rate_limit``: 429 on the global
    limit; ``server_error``: 500; ``drop``: the connection is closed without an answer;
    ``latency`` (+ up to ``jitter``) seconds before every answer. ``retry_after`` is the wait
    a 429 asks for. ``match`` (a regex on ``"METHOD /path"``) limits the faults to some
    requests and ``limit`` to a number in all (with a share of 1 the first ``limit``
    matching requests fail: deterministic tests). ``seed`` seeds the draws."""

    rate_limit: float = 0.0
    global_rate_limit: float = 0.0
    server_error: float = 0.0
    drop: float = 0.0
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
        (any subset; empty: no fault)."""
        names = {
            "429": "rate_limit",
            "global": "global_rate_limit",
            "500": "server_error",
            "drop": "drop",
            "latency": "latency",
            "jitter": "jitter",
            "retry_after": "retry_after",
            "seed": "seed",
        }
        kw: dict[str, Any] = {}
        for part in filter(None, (x.strip() for x in text.split(","))):
            key, _, value = part.partition("=")
            if key not in names or not value:
                raise ValueError(f"unknown fault {part!r}: use {', '.join(names)} as NAME=VALUE")
            kw[names[key]] = int(value) if key == "seed" else float(value)
        for k, v in kw.items():
            if k in ("rate_limit", "global_rate_limit", "server_error", "drop") and not 0 <= v <= 1:
                raise ValueError(f"{k} is a share between 0 and 1, not {v}")
            if v < 0:
                raise ValueError(f"{k} must not be negative")
        return cls(**kw)

    def draw(self, method: str, path: str) -> str | None:
        """The fault for this request (one of FAULT_KINDS) or None."""
        if self.limit is not None and self.injected >= self.limit:
            return None
        if self.match is not None and not re.search(self.match, f"{method} {path}"):
            return None
        x = self._rng.random()
        for kind, share in zip(
            FAULT_KINDS,
            (self.rate_limit, self.global_rate_limit, self.server_error, self.drop),
            strict=True,
        ):
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
            for name, share in zip(
                FAULT_KINDS,
                (self.rate_limit, self.global_rate_limit, self.server_error, self.drop),
                strict=True,
            )
            if share
        ]
        if self.latency or self.jitter:
            parts.append(f"latency {self.latency * 1000:.0f}+{self.jitter * 1000:.0f} ms")
        return ", ".join(parts) or "none"


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
        self.extra_routes: list[tuple[str, str, Any]] = []  # (method, path regex, handler)
        self.channel_messages: dict[int, list[int]] = {}  # channel id -> its message ids
        self.roles: dict[int, str] = {}  # the guild's roles (besides @everyone): id -> name
        # threads and forum posts (see that section): the guild's channels (text, forum) by
        # id, and what the bot may do in them
        self.channels: dict[int, dict[str, Any]] = {}
        self.manage_threads = False  # the bot's Manage Threads (posts in locked threads)
        self.manage_channels = True  # the bot's Manage Channels (a forum's tags)
        self.create_threads = True  # the bot's Create Public Threads (and Create Posts)

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

    def guild_payload(self) -> dict[str, Any]:
        """The ``GUILD_CREATE`` of the test guild: its roles (``@everyone`` and
        :attr:`roles`) and the bot as its member; no channels (the bot meets them in the
        interactions, as partial channels)."""
        roles = [self.role_payload(GUILD_ID, "@everyone", 0)] + [
            self.role_payload(rid, name, i) for i, (rid, name) in enumerate(self.roles.items(), 1)
        ]
        return {
            "id": str(GUILD_ID),
            "name": "Turnpost test guild",
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
        fault = self.faults.draw(req.method, path)
        if fault is not None:
            self.faulted.append((fault, r))
            return self.fault(fault, req, r)
        self.requests.append(r)
        for hook in self.on_request:
            hook(r)
        try:
            return await self.route(r)
        except Exception as e:  # a bug here must fail the test, not hang it
            self.errors.append(f"{req.method} {path}: {e!r}")
            return self.reply({"message": str(e), "code": 0}, 500)

    def fault(self, kind: str, req: web.Request, r: Request) -> web.Response:
        """The answer of an injected fault (see :class:`Faults`)."""
        ra = self.faults.retry_after
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

    def _check_message(self, body: dict[str, Any]) -> str | None:
        flags = int(body.get("flags") or 0)
        if flags & IS_V2 and (body.get("content") or body.get("embeds")):
            return "content and embeds cannot be sent with IS_COMPONENTS_V2"
        comps = list(walk_components(body.get("components") or []))
        if flags & IS_V2 and len(comps) > 40:
            return "too many components"
        for c in comps:
            if c.get("type") == 3 and len(c.get("options", [])) > 25:
                return "too many select options"
            if len(str(c.get("custom_id", ""))) > 100:
                return "custom_id too long"
        text = sum(len(c.get("content", "")) for c in comps if c.get("type") == 10)
        if text > 4000 or len(body.get("content") or "") > 2000:
            return "text too long"
        return None

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
            "timestamp": "2025-01-01T00:00:00+00:00",
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
            err = self._check_message(dict(old, **(r.json or {})))
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
            err = self._check_message(r.json or {})
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
            err = self._check_message(dict(old, **(r.json or {})))
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
        return old

    def callback(self, r: Request, token: str) -> web.Response:
        body = r.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        r.interaction_user = self.tokens.get(token)
        flags = int(data.get("flags") or 0)
        r.ephemeral = bool(flags & EPHEMERAL)
        if kind in (4, 7):
            err = self._check_message(data)
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
        err = self._check_message(body)
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
    # limits are checked: a thread's name 1-100 characters, a forum post needs a starter
    # message, at most 5 applied tags (each one of the forum's), at most 20 available tags of
    # at most 20 characters, auto_archive_duration one of 60, 1440, 4320, 10080 minutes.

    ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

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

    def _bad_name(self, name: Any) -> web.Response | None:
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            return self._refuse(400, 50035, "Invalid Form Body: name must be 1-100 characters")
        return None

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
            if (bad := self._bad_name(body.get("name"))) is not None:
                return bad
            if int(body.get("auto_archive_duration") or 4320) not in self.ARCHIVE_DURATIONS:
                return self._refuse(400, 50035, "Invalid Form Body: auto_archive_duration")
            self._new_thread(mid, cid, body)  # the thread has the message's id
            msg["thread"] = self.thread_payload(mid)
            return self.reply(self.thread_payload(mid))
        if m == "POST" and (g := re.fullmatch(r"/channels/(\d+)/threads", p)):
            cid = int(g[1])
            if (bad := self._bad_name(body.get("name"))) is not None:
                return bad
            forum = self.channels.get(cid, {}).get("type") == 15
            if forum and not self.create_threads:
                return self._locked()
            if not forum:  # a thread without a starter message (a private one: a hand's)
                tid = next(self.ids)
                self._new_thread(tid, cid, body, kind=int(body.get("type", 11)))
                return self.reply(self.thread_payload(tid))
            message = body.get("message")
            if not isinstance(message, dict):
                return self._refuse(400, 50035, "Invalid Form Body: a forum post needs a message")
            tags = body.get("applied_tags") or []
            if (bad := self._bad_tags(cid, tags)) is not None:
                return bad
            err = self._check_message(message)
            if err:
                return self._refuse(400, 50035, err)
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
        if "name" in body and (bad := self._bad_name(body["name"])) is not None:
            return bad
        if "applied_tags" in body:
            if (bad := self._bad_tags(int(t["parent_id"]), body["applied_tags"])) is not None:
                return bad
            t["applied_tags"] = [str(x) for x in body["applied_tags"]]
        if "auto_archive_duration" in body:
            if int(body["auto_archive_duration"]) not in self.ARCHIVE_DURATIONS:
                return self._refuse(400, 50035, "Invalid Form Body: auto_archive_duration")
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
            if c["type"] != 15 or len(tags) > 20:
                return self._refuse(400, 50035, "Invalid Form Body: available_tags")
            if any(not 1 <= len(str(x.get("name", ""))) <= 20 for x in tags):
                return self._refuse(400, 50035, "Invalid Form Body: a tag's name")
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
    ) -> dict[str, Any]:
        iid = next(self.ids)
        token = f"tok{iid}"
        self.tokens[token] = uid
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
                "permissions": str(0x7FFFFFFFFFFF),
                "pending": False,
            },
            "token": token,
            "version": 1,
            "app_permissions": str(0x7FFFFFFFFFFF),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
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

    def deliver_guild(self) -> None:
        """Feed the guild's ``GUILD_CREATE`` (its roles: :attr:`FakeDiscord.roles`) to the
        client's connection state: the guild is cached, as the ``guilds`` intent has it."""
        self.client._connection.parse_guild_create(self.fake.guild_payload())

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
        self, uid: int, channel: int, name: str, sub: str | None = None, **options: Any
    ) -> list[Request]:
        opts = [
            {"name": k, "type": _opt_type(v), "value": _opt_value(v)} for k, v in options.items()
        ]
        data: dict[str, Any] = {"id": str(next(self.fake.ids)), "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        refs = [v.id for v in options.values() if isinstance(v, ChannelRef)]
        if refs:  # a channel option: Discord resolves it (threads and forum posts)
            full = str(0x7FFFFFFFFFFF)
            data["resolved"] = {
                "channels": {
                    str(c): dict(self.fake.channel_payload(c), permissions=full) for c in refs
                }
            }
        return await self.feed(self.fake.interaction(2, uid, channel, data))

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
