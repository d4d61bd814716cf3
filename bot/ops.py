"""The bot's health and metrics for its operators: ``/healthz`` and ``/metrics`` on a small
aiohttp server inside the bot process (``TURNPOST_OPS_PORT``; 127.0.0.1 by default; apart from
the game pages, which may face the internet).

- ``GET /healthz``: 200 and ``ok`` lines when the gateway is connected (ready, heartbeats
  acknowledged), the store answers a trivial query, and the reminder loop has ticked
  recently (when it runs); else 503 naming what is wrong. A plain text body, one check a line.
- ``GET /metrics``: the service's metrics (:mod:`service.metrics`) in Prometheus' text format.

The interactions' figures (:func:`watch`, called for every interaction by the ``setup``
extension's listener, :mod:`bot.cogs.setup`): per slash command and per component kind, the
seconds to the first answer and to the end of the handler, and the commands refused
(:func:`note_refusal`, :func:`refusal_reason`). Labels are bounded: a command's qualified name
(the tree's), a component's custom-id prefix (``brz:t``; anything else is ``other``), a
refusal's message key or kind — never a user, a game or an id.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import math
import re
import time
from typing import Any, Protocol

import discord
from aiohttp import web
from discord import app_commands
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.errors import Answered, CheckFault, Refusal
from bot.settings import BotSettings
from i18n import Msg
from service import metrics
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


# ---------------------------------------------------------------------- interactions' figures

WATCH_KEY = "turnpost:watch"
"""``interaction.extras``: the interaction's :class:`Watch`."""

REFUSAL_KEY = "turnpost:refused"
"""``interaction.extras``: why the interaction was refused (:func:`note_refusal`)."""

MAX_AGE = 900.0
"""An interaction older than this (seconds, by its snowflake) at reception has a clock that
cannot be trusted (Discord's tokens last 15 minutes): its times count from its reception."""

_PREFIX = re.compile(r"[a-z]{1,8}:[a-z]{1,8}")

_HANDLERS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-")
"""The names discord.py gives the tasks that run an interaction's handler."""


def label(interaction: discord.Interaction[Any]) -> tuple[str, str] | None:
    """The interaction's ``(kind, name)`` labels, or None when it is not measured
    (autocomplete, ping). ``name`` is bounded (module doc)."""
    data: dict[str, Any] = dict(interaction.data or {})
    t = interaction.type
    if t is discord.InteractionType.application_command:
        cmd = interaction.command
        return "command", cmd.qualified_name if cmd is not None else "unknown"
    if t is discord.InteractionType.component:
        kind = "button" if data.get("component_type") == 2 else "select"
        return kind, component_name(str(data.get("custom_id", "")))
    if t is discord.InteractionType.modal_submit:
        return "modal", component_name(str(data.get("custom_id", "")))
    return None


def component_name(custom_id: str) -> str:
    """A component's label: the first two parts of its custom id when they are short words
    (``brz:t:12:40`` → ``brz:t``), else ``other`` (discord.py's random ids of short-lived
    views, anything unexpected)."""
    head = ":".join(custom_id.split(":")[:2])
    return head if _PREFIX.fullmatch(head) else "other"


def note_refusal(interaction: discord.Interaction[Any], reason: str) -> None:
    """Say that the interaction was refused and why (a message key or a short kind): counted
    in ``turnpost_command_refusals`` when its handler ends."""
    interaction.extras[REFUSAL_KEY] = reason


def refusal_reason(error: BaseException) -> str:
    """A bounded reason for a command's failure: the refusal's message key, ``no_game`` /
    ``no_seat`` (the shared checks' own answers), ``fault`` (an unexpected error, answered
    with an apology), else the check's kind (``check`` for one of discord.py's)."""
    if isinstance(error, Refusal):
        return error.reason.key if isinstance(error.reason, Msg) else "refused"
    if isinstance(error, Answered):
        return {"no seat": "no_seat", "no running game": "no_game"}.get(str(error), "answered")
    if isinstance(error, CheckFault | app_commands.CommandInvokeError):
        return "fault"
    if isinstance(error, app_commands.CheckFailure):
        return "check"
    if isinstance(error, app_commands.TransformerError):
        return "bad_option"
    return "fault"


async def observe_error(*args: Any) -> None:
    """A command's error handler (``Command.on_error``; with a cog, called with the cog
    first) that only notes why the command failed (:func:`note_refusal`); the tree's
    ``on_error`` still answers the user."""
    interaction, error = args[-2], args[-1]
    if REFUSAL_KEY not in interaction.extras:
        note_refusal(interaction, refusal_reason(error))


def observe_commands(tree: app_commands.CommandTree[Any]) -> int:
    """Give every slash command without an error handler of its own :func:`observe_error`;
    how many were given it."""
    n = 0
    for cmd in tree.walk_commands():
        if isinstance(cmd, app_commands.Command) and cmd.on_error is None:
            cmd.on_error = observe_error
            n += 1
    return n


_SLOT = discord.InteractionResponse.__dict__["_response_type"]
"""The slot discord.py sets when an interaction gets its first answer."""


class _TimedResponse(discord.InteractionResponse[Any]):
    """An interaction's ``response`` that tells its :class:`Watch` when the first answer
    (a message, a defer, an update, a modal) went out: discord.py sets ``_response_type``
    once the callback request succeeded."""

    __slots__ = ()

    @property
    def _response_type(self) -> discord.InteractionResponseType | None:
        value: discord.InteractionResponseType | None = _SLOT.__get__(self, type(self))
        return value

    @_response_type.setter
    def _response_type(self, value: discord.InteractionResponseType | None) -> None:
        first = _SLOT.__get__(self, type(self)) is None
        _SLOT.__set__(self, value)
        watch = self._parent.extras.get(WATCH_KEY)
        if first and value is not None and isinstance(watch, Watch):
            watch.answered()


class Watch:
    """The figures of one interaction (:func:`watch`)."""

    def __init__(self, interaction: discord.Interaction[Any], kind: str, name: str) -> None:
        self.interaction = interaction
        self.kind = kind
        self.name = name
        self.t0 = _start(interaction)
        self.first: float | None = None

    def answered(self) -> None:
        if self.first is None:
            self.first = time.monotonic() - self.t0
            metrics.INTERACTION_FIRST_RESPONSE.labels(self.kind, self.name).observe(self.first)

    def ended(self, _task: asyncio.Task[Any] | None = None) -> None:
        metrics.INTERACTION_SECONDS.labels(self.kind, self.name).observe(time.monotonic() - self.t0)
        i = self.interaction
        reason = i.extras.get(REFUSAL_KEY)
        if reason is None and self.kind == "command" and i.command_failed:
            reason = "fault"
        if reason is not None:  # a command's, or a button's or menu's (by its kind)
            metrics.COMMAND_REFUSALS.labels(self.name, str(reason)).inc()


def _start(interaction: discord.Interaction[Any]) -> float:
    """The interaction's creation on the monotonic clock: its snowflake's time when plausible
    (not in the future, not older than :data:`MAX_AGE`), else now."""
    now = time.monotonic()
    age = (datetime.datetime.now(datetime.UTC) - interaction.created_at).total_seconds()
    return now - age if 0 <= age <= MAX_AGE else now


def watch(interaction: discord.Interaction[Any]) -> Watch | None:
    """Measure ``interaction`` (call it as soon as the bot sees it: the ``on_interaction``
    listener): its first answer, and the end of the handler's task, then its refusal if any.
    None when it is not measured (:func:`label`)."""
    names = label(interaction)
    if names is None:
        return None
    w = Watch(interaction, *names)
    interaction.extras[WATCH_KEY] = w
    response = interaction.response
    if response.is_done():  # answered before the listener ran: now is the best bound
        w.answered()
    elif type(response) is discord.InteractionResponse:
        response.__class__ = _TimedResponse
    task = _handler_task(interaction)
    if task is None or task.done():
        w.ended()
    else:
        task.add_done_callback(w.ended)
    return w


def _handler_task(interaction: discord.Interaction[Any]) -> asyncio.Task[Any] | None:
    """The task discord.py started to run the interaction's handler (the command tree's, a
    view's or a dynamic item's), found by its name and the interaction it holds."""
    for task in asyncio.all_tasks():
        if not task.get_name().startswith(_HANDLERS) or task.done():
            continue
        frame = getattr(task.get_coro(), "cr_frame", None)
        if frame is not None and frame.f_locals.get("interaction") is interaction:
            return task
    return None
