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

from devtools.discord_limits import message_problems

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
            "channels": [],
            "threads": [],
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
        if m == "POST" and (g := re.fullmatch(r"/channels/(\d+)/threads", p)):
            tid = next(self.ids)
            self.threads[tid] = dict(r.json or {}, parent_id=str(g[1]), members=[])
            return self.reply(
                {
                    "id": str(tid),
                    "type": int((r.json or {}).get("type", 11)),
                    "guild_id": str(GUILD_ID),
                    "parent_id": str(g[1]),
                    "name": (r.json or {}).get("name", ""),
                    "owner_id": str(BOT_ID),
                    "thread_metadata": {
                        "archived": False,
                        "auto_archive_duration": 10080,
                        "archive_timestamp": "2025-01-01T00:00:00+00:00",
                        "locked": False,
                        "invitable": bool((r.json or {}).get("invitable", True)),
                    },
                }
            )
        if m == "PUT" and (g := re.fullmatch(r"/channels/(\d+)/thread-members/(\d+)", p)):
            self.threads[int(g[1])]["members"].append(int(g[2]))
            return web.Response(status=204)
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
            "channel": {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": "game",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            },
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
            "app_permissions": str(discord.Permissions.all().value),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
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
        opts = [{"name": k, "type": _opt_type(v), "value": v} for k, v in options.items()]
        data: dict[str, Any] = {"id": str(next(self.fake.ids)), "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
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


def _idle(task: asyncio.Task[Any]) -> bool:
    """The server's per-connection handlers live as long as a keep-alive connection; a
    view's timeout timer waits, it does not work."""
    name = repr(task.get_coro())
    return "RequestHandler" in name or "__timeout_task_impl" in name  # a view's timer


def _opt_type(v: Any) -> int:
    if isinstance(v, bool):
        return 5
    if isinstance(v, int):
        return 4
    return 3


def components_of(msg: dict[str, Any]) -> list[dict[str, Any]]:
    return list(walk_components(msg.get("components") or []))


def custom_ids(msg: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for c in components_of(msg) if "custom_id" in c]
