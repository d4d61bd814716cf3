"""The bot's health and metrics for its operators: ``/healthz`` and ``/metrics`` on a small
aiohttp server inside the bot process (``TURNPOST_OPS_PORT``; 127.0.0.1 by default; apart from
the game pages, which may face the internet).

- ``GET /healthz``: 200 and ``ok`` lines when the gateway is connected (ready, heartbeats
  acknowledged), the store answers a trivial query, and the reminder loop has ticked
  recently (when it runs); else 503 naming what is wrong. A plain text body, one check a line.
- ``GET /metrics``: the service's metrics (:mod:`service.metrics`) in Prometheus' text format.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any, Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.settings import BotSettings
from service.metrics import REGISTRY
from storage.base import GameStore
from web.server import serve

log = logging.getLogger(__name__)

STORE_TIMEOUT = 2.0
"""Seconds the store's trivial query may take before the store counts as down."""


class Watched(Protocol):
    """What the health checks read of the bot (:class:`bot.app.TurnpostBot`)."""

    settings: BotSettings
    store: GameStore | None

    def is_closed(self) -> bool: ...

    def is_ready(self) -> bool: ...

    @property
    def latency(self) -> float: ...


class OpsServer:
    """``/healthz`` and ``/metrics`` of ``bot`` on ``host``:``port`` (port 0: any free one)."""

    def __init__(self, bot: Watched, host: str = "127.0.0.1", port: int = 9100) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self.started = time.monotonic()
        self.app = web.Application()
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/metrics", self.metrics)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner, self.port = await serve(self.app, self.host, self.port)
        log.info("health and metrics at http://%s:%s/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---------------------------------------------------------------- checks

    def gateway(self) -> str | None:
        """What is wrong with the Discord gateway (None: connected)."""
        bot = self.bot
        if bot.is_closed():
            return "the gateway is closed"
        if not bot.is_ready():
            return "the gateway is not ready yet"
        latency = bot.latency
        if not math.isfinite(latency) or latency > 30:
            return "the gateway's heartbeats are not acknowledged"
        return None

    async def store(self) -> str | None:
        """What is wrong with the store (None: it answers)."""
        store = self.bot.store
        if store is None:
            return "no store is open"
        try:
            await asyncio.wait_for(store.ping(), STORE_TIMEOUT)
        except TimeoutError:
            return f"the store did not answer within {STORE_TIMEOUT:g} s"
        except Exception as e:
            return f"the store fails: {type(e).__name__}"
        return None

    def scheduler(self) -> str | None:
        """What is wrong with the reminder loop (None: it ticks, or it is turned off)."""
        interval = self.bot.settings.pacing_tick_seconds
        pacer: Any = getattr(self.bot, "pacer", None)  # set by the pacing extension
        if interval <= 0 or pacer is None:
            return None
        last = pacer.last_tick if pacer.last_tick is not None else self.started
        late = time.monotonic() - last
        if late > 3 * interval + 30:
            return f"the reminder loop has not ticked for {late:.0f} s"
        return None

    async def healthz(self, request: web.Request) -> web.Response:
        checks = {
            "gateway": self.gateway(),
            "store": await self.store(),
            "scheduler": self.scheduler(),
        }
        ok = all(v is None for v in checks.values())
        text = "\n".join(f"{k}: {v or 'ok'}" for k, v in checks.items()) + "\n"
        return web.Response(text=text, status=200 if ok else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
