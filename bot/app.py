"""The Discord application: the bot client, its extensions, logging, start-up and shutdown.

The features are extensions (:data:`EXTENSIONS`, each module's ``setup`` adds its cog; a cog
registers its own persistent buttons and menus and the pacing cog runs the reminder loop).
Slash-command failures are answered privately by the command tree (:class:`bot.errors.BrazilTree`).

    python -m bot run [--config FILE] [--check-config]

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

from bot.errors import BrazilTree
from bot.settings import BotSettings
from bot.tables import Tables
from service import GameService, WorkerPool
from storage import SqliteGameStore
from storage.base import GameStore

if TYPE_CHECKING:
    from bot.scheduler import Pacer

log = logging.getLogger("bot")

EXTENSIONS = (
    "bot.cogs.game",
    "bot.cogs.play",
    "bot.cogs.info",
    "bot.cogs.mod",
    "bot.cogs.pacing",
)
"""Loaded in this order by :meth:`BrazilBot.setup_hook` (the pacing extension last: its
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


class BrazilBot(commands.Bot):
    """The bot: one game service over one store, and the extensions."""

    tables: Tables
    pacer: Pacer  # set by the pacing extension

    def __init__(self, settings: BotSettings, *, store: GameStore | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=BrazilTree,
        )
        self.settings = settings
        self.store = store
        self._own_store = store is None

    async def setup_hook(self) -> None:
        if self.settings.packs_dir is not None:
            GameService.use_data_packs(str(self.settings.packs_dir))
        if self.store is None:
            self.store = SqliteGameStore(str(self.settings.db), cache_reads=True)
            await self.store.open()
        rules_path = str(self.settings.rules_file) if self.settings.rules_file else None
        workers = WorkerPool(self.settings.workers)  # started at its first job
        service = GameService(self.store, rulebook_path=rules_path, workers=workers)
        self.tables = Tables(self, service, self.settings)
        for name in EXTENSIONS:
            await self.load_extension(name)
        caught_up = await self.tables.recover()  # turns saved but never posted
        if caught_up:
            log.info("caught up %d game(s) saved past their last post", caught_up)
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
            await self.tables.svc.aclose()
        await super().close()
        if self._own_store and self.store is not None:
            await self.store.close()
            self.store = None
        log.info("closed")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out)


def setup_logging(settings: BotSettings) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if settings.log_json:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)
    logging.getLogger("discord").setLevel(max(logging.INFO, root.level))


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
    store = SqliteGameStore(str(settings.db), cache_reads=True)
    try:
        await store.open()
    except StorageError as e:
        print(f"error: BRAZIL_DB (db): {e}", file=sys.stderr)
        return 2
    try:
        return await _run_bot(settings, token, store)
    finally:
        await store.close()


async def _run_bot(settings: BotSettings, token: str, store: SqliteGameStore) -> int:
    from storage import StorageError

    sys.setswitchinterval(SWITCH_INTERVAL)
    bot = BrazilBot(settings, store=store)
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
    except (OSError, TimeoutError, discord.GatewayNotFound, discord.DiscordServerError) as e:
        print(f"error: {_unreachable(e)}: check the network, then start again", file=sys.stderr)
        return 1
    except StorageError as e:
        print(f"error: the database {settings.db}: {e}", file=sys.stderr)
        return 1
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)
    return 0


def main(config: str | None = None, *, check_only: bool = False) -> int:
    """``python -m bot run``: load and check the settings, then run (or only check)."""
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
            problems.append("sync = guild needs BRAZIL_TEST_GUILD")
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
