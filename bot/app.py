"""The Discord application: the bot client, its extensions, logging, start-up and shutdown.

The features are extensions (:data:`EXTENSIONS`, each module's ``setup`` adds its cog; a cog
registers its own persistent buttons and menus and the pacing cog runs the reminder loop).
Slash-command failures are answered privately by the command tree (:class:`bot.errors.TurnpostTree`).

    python -m turnpost run [--config FILE] [--check-config]

Intents: none privileged. ``guilds`` only (channels and threads the bot sees); slash
commands, buttons and menus arrive as interactions whatever the intents, so neither
``message_content`` (no text commands are read), ``members`` (the interaction names its
user) nor ``presences`` is needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import sys
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands

from bot.errors import TurnpostTree
from bot.settings import BotSettings
from bot.tables import Tables
from bot.translator import CatalogueTranslator
from service import GameService, WorkerPool, catalog, logctx
from storage.base import GameStore

if TYPE_CHECKING:
    from bot.ops import OpsServer
    from bot.scheduler import Pacer
    from web.server import WebServer

log = logging.getLogger("bot")

EXTENSIONS = (
    "bot.cogs.game",
    "bot.cogs.play",
    "bot.cogs.info",
    "bot.cogs.mod",
    "bot.cogs.language",
    "bot.cogs.server",
    "bot.cogs.notices",
    "bot.cogs.pacing",
    "bot.cogs.queue",
    "bot.cogs.ratings",
    "bot.cogs.setup",  # last: it notes every command's refusals (bot.ops.observe_commands)
)
"""Loaded in this order by :meth:`TurnpostBot.setup_hook` (the pacing extension last: its
pacer reads the tables)."""

SWITCH_INTERVAL = 0.001
"""``sys.setswitchinterval`` while the bot runs: the event loop gets the GIL back from a
drawing or database thread within 1 ms instead of 5 (measured with ``python -m
devtools.loadtest``: the highest sustained rate went from about 16 to 20-25 turns/s)."""


def intents() -> discord.Intents:
    """No privileged intent (see module doc)."""
    i = discord.Intents.none()
    i.guilds = True
    return i


class WebStartError(RuntimeError):
    """The game pages could not be served (the port is taken, the address is not this
    machine's): one line, said at start-up."""


class TurnpostBot(commands.Bot):
    """The bot: one game service over one store, the extensions, and the game pages' server
    when ``settings.web_port`` is set (:attr:`web`)."""

    tables: Tables
    pacer: Pacer  # set by the pacing extension
    web: WebServer | None = None
    ops: OpsServer | None = None  # /healthz and /metrics when settings.ops_port is set

    def __init__(self, settings: BotSettings, *, store: GameStore | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=TurnpostTree,
            **shard_options(settings, sharded=isinstance(self, commands.AutoShardedBot)),
        )
        self.settings = settings
        self.store = store
        self._own_store = store is None

    async def setup_hook(self) -> None:
        if self.settings.packs_dir is not None:
            catalog.use_data_packs(str(self.settings.packs_dir))
        if self.store is None:
            self.store = open_bot_store(self.settings)
            await self.store.open()
        rules_path = str(self.settings.rules_file) if self.settings.rules_file else None
        workers = WorkerPool(self.settings.workers)
        # started now, in the background: the first pictures after a start are the workers'
        self._warming = asyncio.create_task(workers.warm())
        service = GameService(self.store, rulebook_path=rules_path, workers=workers)
        if self.settings.web_port is not None:
            self.web = await start_web(service, self.settings)
        self.tables = Tables(self, service, self.settings)
        self.tables.publisher.pages = self.web
        for name in EXTENSIONS:
            await self.load_extension(name)
        caught_up = await self.tables.recover()  # turns saved but never posted
        if caught_up:
            log.info("caught up %d game(s) saved past their last post", caught_up)
        if self.settings.ops_port is not None:
            self.ops = await start_ops(self, self.settings)
        await self.tree.set_translator(CatalogueTranslator())  # commands in each user's language
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Register the slash commands: in the test guild (at once) or globally."""
        mode = self.settings.sync_mode
        if mode == "none":
            return
        if mode == "guild":
            if not self.settings.test_guild:
                raise ValueError("sync=guild needs test_guild")
            guild = discord.Object(self.settings.test_guild)
            self.tree.copy_global_to(guild=guild)
            done = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(done), self.settings.test_guild)
        else:
            done = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to show)", len(done))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop the reminder loop, finish in-flight saves and posts, stop the worker
        processes, close the gateway and the database."""
        for name in reversed(EXTENSIONS):  # the pacing cog's unload stops the loop
            with contextlib.suppress(commands.ExtensionNotLoaded):
                await self.unload_extension(name)
        if hasattr(self, "tables"):
            await self.tables.drain()
        if self.web is not None:
            await self.web.stop()
            self.web = None
        if self.ops is not None:
            await self.ops.stop()
            self.ops = None
        warming = getattr(self, "_warming", None)
        if warming is not None and not warming.done():
            warming.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await warming
        if hasattr(self, "tables"):  # the worker processes, once nothing draws
            await self.tables.svc.aclose()
        await super().close()
        if self._own_store and self.store is not None:
            await self.store.close()
            self.store = None
        log.info("closed")


class ShardedTurnpostBot(TurnpostBot, commands.AutoShardedBot):
    """The bot running several Discord shards in one process (``TURNPOST_SHARD_IDS`` with more
    than one id): one gateway connection per shard, one game service and store."""


def shard_options(settings: BotSettings, *, sharded: bool) -> dict[str, Any]:
    """discord.py's shard arguments from the settings: none when sharding is off (today's
    one connection); ``shard_id`` for one shard; ``shard_ids`` for several (sharded bot)."""
    shards = settings.shards
    if shards is None:
        return {}
    if sharded:
        return {"shard_count": settings.shard_count, "shard_ids": list(shards)}
    if len(shards) != 1:
        raise ValueError("several shards in one process need ShardedTurnpostBot (make_bot)")
    return {"shard_count": settings.shard_count, "shard_id": shards[0]}


def make_bot(settings: BotSettings, *, store: GameStore | None = None) -> TurnpostBot:
    """The bot for these settings: :class:`ShardedTurnpostBot` when this process runs several
    shards, else :class:`TurnpostBot` (one shard of several, or no sharding)."""
    shards = settings.shards
    if shards is not None and len(shards) > 1:
        return ShardedTurnpostBot(settings, store=store)
    return TurnpostBot(settings, store=store)


def open_bot_store(settings: BotSettings) -> GameStore:
    """The bot's store (``TURNPOST_DB``: an SQLite file or a PostgreSQL URL), not yet opened.
    SQLite keeps recent reads in memory (one process owns the file); PostgreSQL does not,
    since other bot processes may write the same games."""
    from storage.location import open_store, parse_location

    sqlite = parse_location(settings.db).kind == "sqlite"
    return open_store(settings.db, cache_reads=sqlite)


async def start_web(service: GameService, settings: BotSettings) -> WebServer:
    """Serve the game pages (``settings.web_*``) over ``service``; :class:`WebStartError`
    in one line when the address cannot be bound."""
    from web.server import WebServer, bind_error

    port = settings.web_port or 0
    server = WebServer(
        service, host=settings.web_host, port=port, public_url=settings.web_public_url
    )
    try:
        await server.start()
    except OSError as e:
        raise WebStartError(
            f"TURNPOST_WEB_PORT (web_port): cannot serve the game pages on "
            f"{settings.web_host}:{port} ({bind_error(e)})"
        ) from None
    return server


async def start_ops(bot: TurnpostBot, settings: BotSettings) -> OpsServer:
    """Serve /healthz and /metrics (``settings.ops_*``); :class:`WebStartError` in one line
    when the address cannot be bound."""
    from bot.ops import OpsServer
    from web.server import bind_error

    ops = OpsServer(bot, settings.ops_host, settings.ops_port or 0)
    try:
        await ops.start()
    except OSError as e:
        raise WebStartError(
            f"TURNPOST_OPS_PORT (ops_port): cannot serve /healthz and /metrics on "
            f"{settings.ops_host}:{settings.ops_port} ({bind_error(e)})"
        ) from None
    return ops


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name in logctx.FIELDS:  # set by logctx.ContextFilter: the game, seat, …
            value = getattr(record, name, None)
            if value is not None:
                out[name] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out)


def setup_logging(settings: BotSettings) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(logctx.ContextFilter())  # game, guild, channel, seat, interaction
    if settings.log_json:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s%(context)s: %(message)s")
        )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)
    quiet_libraries(root.level)


LIBRARY_LOGGERS = ("discord", "aiosqlite", "asyncpg", "aiohttp.access")
"""Libraries whose DEBUG lines carry payloads (messages sent, private replies included; SQL
with game states; addresses with page tokens): never below INFO, whatever the bot's level."""


def quiet_libraries(level: int) -> None:
    """Keep :data:`LIBRARY_LOGGERS` at INFO or above (hidden information stays out of logs)."""
    for name in LIBRARY_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, level))


def _unreachable(e: BaseException) -> str:
    """Why Discord could not be reached, in one line (no token, no traceback)."""
    if isinstance(e, aiohttp.ClientConnectorError):
        why = e.os_error.strerror or str(e.os_error) or type(e.os_error).__name__
        return f"cannot reach Discord at {e.host}:{e.port} ({why})"
    if isinstance(e, discord.DiscordServerError):
        return f"Discord answered {e.status} (a server error)"
    if isinstance(e, TimeoutError):
        return "cannot reach Discord (timed out)"
    return f"cannot reach Discord ({e.__class__.__name__}: {e})"


async def run_bot(settings: BotSettings) -> int:
    """Run until SIGINT/SIGTERM (then finish in-flight work and close). The database is
    opened before Discord is contacted; a database refused, a token refused or Discord out of
    reach is one line on stderr (exit 2, 1, 1)."""
    from storage import StorageError

    token = settings.token()
    store = open_bot_store(settings)
    try:
        await store.open()
    except StorageError as e:
        print(f"error: TURNPOST_DB (db): {e}", file=sys.stderr)
        return 2
    try:
        return await _run_bot(settings, token, store)
    finally:
        await store.close()


async def _run_bot(settings: BotSettings, token: str, store: GameStore) -> int:
    from storage import StorageError

    sys.setswitchinterval(SWITCH_INTERVAL)
    bot = make_bot(settings, store=store)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not stopping.is_set():
            stopping.set()
            log.info("stopping")
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows
            loop.add_signal_handler(sig, stop)
    for line in settings.describe():
        log.info("settings: %s", line)
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        print("error: Discord refused the token (DISCORD_TOKEN): check it", file=sys.stderr)
        return 1
    except WebStartError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (OSError, TimeoutError, discord.GatewayNotFound, discord.DiscordServerError) as e:
        print(f"error: {_unreachable(e)}: check the network, then start again", file=sys.stderr)
        return 1
    except StorageError as e:
        print(f"error: the database {settings.db_text()}: {e}", file=sys.stderr)
        return 1
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)
    return 0


def main(config: str | None = None, *, check_only: bool = False) -> int:
    """``python -m turnpost run``: load and check the settings, then run (or only check)."""
    from pydantic import ValidationError

    from bot.settings import explain, load_settings

    try:
        settings = load_settings(config)
    except ValidationError as e:
        print(f"configuration error: {explain(e)}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as e:  # the config file: missing, not TOML, holds a token
        print(f"configuration error: {e}", file=sys.stderr)
        return 2
    if check_only:
        for line in settings.describe():
            print(line)
        problems = []
        if settings.discord_token is None:
            problems.append("DISCORD_TOKEN is not set (environment or .env)")
        if settings.sync_mode == "guild" and not settings.test_guild:
            problems.append("sync = guild needs TURNPOST_TEST_GUILD")
        if settings.web_public_url and settings.web_port is None:
            problems.append("TURNPOST_WEB_PUBLIC_URL is set but TURNPOST_WEB_PORT is not")
        for p in problems:
            print(f"problem: {p}", file=sys.stderr)
        print("configuration OK" if not problems else "configuration has problems")
        return 0 if not problems else 2
    setup_logging(settings)
    try:
        return asyncio.run(run_bot(settings))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
