"""The game pages' web server: a small aiohttp application over the game service.

Routes (a game's page lives under ``/g/<token>/``; every address in the page is relative to
it, so the static export of :mod:`web.export` works from disk with the same page)::

    GET /                         a short note (pages are opened from their games' links)
    GET /healthz                  "ok"
    GET /g/<token>                -> redirect to /g/<token>/
    GET /g/<token>/               the page (?step=N opens the replay at step N)
    GET /g/<token>/live.json      the game now (web.data.live_json)
    GET /g/<token>/steps.json     every public step and the turns (web.data.steps_json)
    GET /g/<token>/map/<v>.png    the public map at version v (drawn once, then cached)
    GET /g/<token>/events         server-sent events: "version" when the game changes
    GET /g/<token>/page.js|.css   the page's script and style
    GET /s/<guild>/leaderboard/<game>   a server's leaderboard of a game (?season=N: a
                                  season's table); display names only (web.leaderboard)

The page is in its game's language (the archive's texts, the catalogue's ``web.*``); an error
about a game too, and one that concerns no game (an unknown address, too many requests) in
the reader's language (``Accept-Language``), else English.

Bad input gets a plain answer and costs little: an unknown or revoked token a 404 page, a
step out of range a 404, a malformed query a 400, a request larger than a few kilobytes is
refused by aiohttp, and an address asking too often (``rate``/s, ``burst`` at once) a 429.
Images are drawn in worker threads, never in the event loop, so a page being read does not
slow the bot's Discord work.

Live pages: one watcher per watched game reads the game's version every ``poll`` seconds
(whatever the number of viewers), starts drawing the new map and wakes the viewers' streams
when it changes; a stream also sends a comment every ``keepalive`` seconds so proxies keep
it open.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from aiohttp import web
from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from i18n import DEFAULT, PSEUDO, resolve, tr
from web.data import live_json, steps_json
from web.leaderboard import board_of, render_leaderboard
from web.page import error_page, render_page

if TYPE_CHECKING:
    from service.game import GameService

log = logging.getLogger(__name__)

MAX_REQUEST_BYTES = 8 * 1024
STEP_RE = re.compile(r"\d{1,7}")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_static_cache: dict[str, bytes] = {}


def static_file(name: str) -> bytes:
    """One of the page's files (``page.js``, ``page.css``) shipped in the package."""
    data = _static_cache.get(name)
    if data is None:
        data = _static_cache[name] = (resources.files("web") / "static" / name).read_bytes()
    return data


async def serve(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Serve ``app`` on ``host``:``port`` (0: any free port): its runner (``cleanup()``
    stops it) and the port bound. ``OSError`` (nothing left open) when it cannot bind."""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner, int(runner.addresses[0][1]) if port == 0 else port


def bind_error(e: OSError, hint: str | None = None, lang: str = DEFAULT) -> str:
    """Why an address could not be bound, in a few words in ``lang`` (``hint``: how to
    choose another port; by default "choose another one"). Another reason is the system's
    own words."""
    if e.errno == errno.EADDRINUSE:
        hint = tr(lang, "web.error.bind.hint") if hint is None else hint
        return tr(lang, "web.error.bind.in_use", hint=hint)
    if e.errno == errno.EADDRNOTAVAIL:
        return tr(lang, "web.error.bind.not_here")
    if e.errno == errno.EACCES:
        return tr(lang, "web.error.bind.denied")
    return e.strerror or str(e) or type(e).__name__


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


def _error(status: int, lang: str, title: str, message: str, **params: Any) -> web.Response:
    """An error page in ``lang``: ``title`` and ``message`` are catalogue keys."""
    page = error_page(status, tr(lang, title), tr(lang, message, **params), lang=lang)
    return _html(page, status)


NOT_FOUND = ("web.error.not_found.title", "web.error.not_found.text")


def reader_language(accept: str | None) -> str:
    """The reader's language from an ``Accept-Language`` header (``pt-BR,pt;q=0.9,en;q=0.8``):
    the first one by preference that a catalogue serves, else English."""
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0:
            wanted.append((-q, i, tag))
    for _, _, tag in sorted(wanted):
        found = resolve(tag)
        if found is not None and found != PSEUDO:
            return found
    return DEFAULT


def _reader(request: web.Request) -> str:
    return reader_language(request.headers.get("Accept-Language"))


@dataclass
class _Watch:
    """One game's viewers: the version they were last told and how to wake them."""

    version: int
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    viewers: int = 0
    task: asyncio.Task[None] | None = None


class WebServer:
    """The game pages of ``svc``'s games, served on ``host``:``port`` (port 0: any free
    port). ``public_url``: the address to give out when the server sits behind a reverse
    proxy (else ``http://host:port``)."""

    def __init__(
        self,
        svc: GameService,
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        public_url: str | None = None,
        poll: float = 1.0,
        keepalive: float = 20.0,
        rate: int = 50,
        burst: int = 1200,
    ) -> None:
        self.svc = svc
        self.host = host
        self.port = port
        self.public_url = public_url.rstrip("/") if public_url else None
        self.poll = poll
        self.keepalive = keepalive
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._limits = (RateLimitItemPerSecond(rate), RateLimitItemPerMinute(burst))
        self._watches: dict[int, _Watch] = {}
        self._closing = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._runner: web.AppRunner | None = None
        self.app = self.make_app()

    # ---------------------------------------------------------------- life

    def make_app(self) -> web.Application:
        app = web.Application(
            client_max_size=MAX_REQUEST_BYTES, middlewares=[self._limit_middleware]
        )
        r = app.router
        r.add_get("/", self.index)
        r.add_get("/healthz", self.healthz)
        r.add_get("/g/{token}", self.to_page)
        r.add_get("/g/{token}/", self.page)
        r.add_get("/g/{token}/live.json", self.live)
        r.add_get("/g/{token}/steps.json", self.steps)
        r.add_get(r"/g/{token}/map/{version:\d{1,9}}.png", self.map_png)
        r.add_get("/g/{token}/events", self.events)
        r.add_get("/g/{token}/{name:page\\.(?:js|css)}", self.asset)
        r.add_get(r"/s/{guild:\d{1,20}}/leaderboard/{game}", self.leaderboard)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def start(self) -> None:
        """Bind and serve (``OSError`` if the address is taken)."""
        self._closing.clear()
        self._runner, self.port = await serve(self.app, self.host, self.port)
        log.info("game pages at %s", self.base_url)

    async def stop(self) -> None:
        """Close the live streams and the server."""
        self._closing.set()
        for w in self._watches.values():
            if w.task is not None:
                w.task.cancel()
            async with w.changed:
                w.changed.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _on_shutdown(self, app: web.Application) -> None:
        self._closing.set()

    @property
    def base_url(self) -> str:
        """Where the pages are reached: ``public_url``, else ``http://host:port``."""
        if self.public_url:
            return self.public_url
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def page_url(self, game_id: int) -> str:
        """The game's page address (its token made the first time)."""
        return f"{self.base_url}/g/{await self.svc.archive.token(game_id)}/"

    def leaderboard_url(self, guild_id: int, game: str, season: int | None = None) -> str:
        """The address of a server's leaderboard of ``game``: its table now, or the table of
        season number ``season``."""
        query = "" if season is None else f"?season={season}"
        return f"{self.base_url}/s/{guild_id}/leaderboard/{game}{query}"

    # ---------------------------------------------------------------- guards

    @web.middleware
    async def _limit_middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        who = request.remote or "?"
        if not all(self._limiter.hit(item, who) for item in self._limits):
            resp = _error(
                429, _reader(request), "web.error.too_many.title", "web.error.too_many.text"
            )
            resp.headers["Retry-After"] = "2"
            return resp
        return await handler(request)

    async def _game(self, request: web.Request) -> int:
        gid = await self.svc.archive.game_of(request.match_info["token"])
        if gid is None:
            lang = _reader(request)
            title, text = (tr(lang, k) for k in NOT_FOUND)
            raise web.HTTPNotFound(
                text=error_page(404, title, text, lang=lang), content_type="text/html"
            )
        return gid

    # ---------------------------------------------------------------- handlers

    async def index(self, request: web.Request) -> web.StreamResponse:
        lang = _reader(request)
        return _html(
            error_page(200, tr(lang, "web.index.title"), tr(lang, "web.index.text"), lang=lang)
        )

    async def healthz(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text="ok")

    async def to_page(self, request: web.Request) -> web.StreamResponse:
        await self._game(request)
        qs = f"?{request.query_string}" if request.query_string else ""
        raise web.HTTPMovedPermanently(f"{request.path}/{qs}")

    async def page(self, request: web.Request) -> web.StreamResponse:
        gid = await self._game(request)
        lang = await self.svc.archive.language(gid)  # the page's: the game's language
        step: int | None = None
        unknown = set(request.query) - {"step"}
        if unknown:
            name = sorted(unknown)[0]
            return _error(
                400, lang, "web.error.bad.title", "web.error.bad.param", name=name, step="step"
            )
        if "step" in request.query:
            raw = request.query.getone("step")
            if not STEP_RE.fullmatch(raw):
                return _error(400, lang, "web.error.bad.title", "web.error.bad.step", step="step")
            step = int(raw)
        live = live_json(await self.svc.archive.live(gid, lang=lang))
        steps = steps_json(await self.svc.archive.archive(gid, lang=lang))
        last = len(steps["steps"]) - 1
        if step is not None and step > last:
            return _error(
                404,
                lang,
                "web.error.no_step.title",
                "web.error.no_step.text",
                last=last,
                step=step,
            )
        resp = _html(render_page(live, steps, step=step, lang=lang))
        resp.headers["Cache-Control"] = "no-cache"
        resp.headers["Referrer-Policy"] = "no-referrer"  # the address is the key
        return resp

    async def live(self, request: web.Request) -> web.StreamResponse:
        gid = await self._game(request)
        return self._json(live_json(await self.svc.archive.live(gid)))

    async def steps(self, request: web.Request) -> web.StreamResponse:
        gid = await self._game(request)
        return self._json(steps_json(await self.svc.archive.archive(gid)))

    @staticmethod
    def _json(data: dict[str, Any]) -> web.Response:
        resp = web.json_response(data, dumps=lambda d: json.dumps(d, ensure_ascii=False))
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def map_png(self, request: web.Request) -> web.StreamResponse:
        gid = await self._game(request)
        version = int(request.match_info["version"])
        # ``?lang=de``: the page's language when it asked (an unknown one: the game's now)
        lang = resolve(request.query.get("lang"))
        try:
            png = await self.svc.archive.map_png(gid, version, lang=lang)
        except KeyError:
            lang = await self.svc.archive.language(gid)
            return _error(404, lang, "web.error.no_step.title", "web.error.no_map", version=version)
        # a version's map in a language never changes: cached by the browser as long as it likes
        return web.Response(
            body=png,
            content_type="image/png",
            headers={"Cache-Control": "public, max-age=31536000, immutable"},
        )

    async def asset(self, request: web.Request) -> web.StreamResponse:
        await self._game(request)
        name = request.match_info["name"]
        kind = "application/javascript" if name.endswith(".js") else "text/css"
        return web.Response(
            body=static_file(name),
            content_type=kind,
            charset="utf-8",
            headers={"Cache-Control": "no-cache"},
        )

    async def leaderboard(self, request: web.Request) -> web.StreamResponse:
        """A server's leaderboard of a game, in the reader's language (web.leaderboard)."""
        lang = _reader(request)
        guild_id, game = int(request.match_info["guild"]), request.match_info["game"]
        unknown = set(request.query) - {"season"}
        if unknown:
            name = sorted(unknown)[0]
            return _error(
                400, lang, "web.error.bad.title", "web.error.bad.param", name=name, step="season"
            )
        season: int | None = None
        if "season" in request.query:
            raw = request.query.getone("season")
            if not STEP_RE.fullmatch(raw):
                return _error(
                    400, lang, "web.error.bad.title", "web.lb.bad_season", season="season"
                )
            season = int(raw)
        board = await board_of(self.svc, guild_id, game, season, lang=lang)
        if board is None:
            return _error(404, lang, "web.error.not_found.title", "web.lb.not_found")
        resp = _html(render_leaderboard(board, lang=lang))
        resp.headers["Cache-Control"] = "no-cache"
        resp.headers["Referrer-Policy"] = "no-referrer"
        return resp

    # ---------------------------------------------------------------- live stream

    async def events(self, request: web.Request) -> web.StreamResponse:
        gid = await self._game(request)
        w = self._watches.get(gid)
        if w is None:
            w = self._watches[gid] = _Watch(await self.svc.archive.version(gid))
        w.viewers += 1
        if w.task is None or w.task.done():
            w.task = asyncio.ensure_future(self._watch(gid, w))
        resp = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",  # nginx: do not buffer the stream
            }
        )
        try:
            await resp.prepare(request)
            told = w.version
            await resp.write(self._event(told))
            while not self._closing.is_set():
                await self._wait_change(w, told)
                if self._closing.is_set():
                    break
                if w.version != told:
                    told = w.version
                    await resp.write(self._event(told))
                else:
                    await resp.write(b": ping\n\n")
        except ConnectionResetError:
            pass  # the viewer left
        finally:
            w.viewers -= 1
        return resp

    async def _wait_change(self, w: _Watch, told: int) -> None:
        """Until the game's version is not ``told``, the server closes, or ``keepalive``."""

        def changed() -> bool:
            return w.version != told or self._closing.is_set()

        async with w.changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(w.changed.wait_for(changed), self.keepalive)

    @staticmethod
    def _event(version: int) -> bytes:
        return f"retry: 3000\nevent: version\ndata: {json.dumps({'version': version})}\n\n".encode()

    def _predraw(self, gid: int, version: int) -> None:
        async def draw() -> None:
            try:
                await self.svc.archive.map_png(gid, version)
            except Exception:  # drawn (or refused) again when asked for
                log.debug("game %s: map of version %s not drawn ahead", gid, version, exc_info=True)

        task = asyncio.ensure_future(draw())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _watch(self, gid: int, w: _Watch) -> None:
        """Read the game's version while somebody watches; wake the streams on a change."""
        try:
            while w.viewers > 0 and not self._closing.is_set():
                await asyncio.sleep(self.poll)
                try:
                    v = await self.svc.archive.version(gid)
                except Exception:  # the store is busy or closing: try again next time
                    log.debug("game %s: version not read", gid, exc_info=True)
                    continue
                if v != w.version:
                    w.version = v
                    # the viewers will ask for the new map at once: start drawing it now
                    self._predraw(gid, v)
                    async with w.changed:
                        w.changed.notify_all()
        finally:
            if w.viewers <= 0:
                self._watches.pop(gid, None)
