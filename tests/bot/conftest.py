"""A bot logged in to the fake Discord server, over a SQLite file in a tmp dir."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import TurnpostBot
from bot.settings import BotSettings
from tests.bot.fakediscord import GUILD_ID, FakeDiscord, Harness

BotMaker = Callable[[], Awaitable[Harness]]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    f = FakeDiscord()
    base = await f.start()
    old = discord.http.Route.BASE
    discord.http.Route.BASE = base
    try:
        yield f
    finally:
        discord.http.Route.BASE = old
        await f.stop()


@contextlib.asynccontextmanager
async def bot_maker(
    fake: FakeDiscord,
    db: Path,
    *,
    after_login: Callable[[TurnpostBot], None] | None = None,
    **settings: Any,
) -> AsyncIterator[BotMaker]:
    """Start a bot (a new client each call, same database ``db``): a restart is two calls.
    ``settings`` override the test defaults; ``after_login`` adjusts each new bot."""
    bots: list[TurnpostBot] = []

    async def make() -> Harness:
        for b in bots:
            if not b.is_closed():
                await b.close()
        values: dict[str, Any] = {
            "discord_token": "fake-token",
            "db": db,
            "test_guild": GUILD_ID,
            "default_ai": "random",
            "auto_answer_delay": (0.0, 0.0),
            "game_threads": False,  # games take their channel (threads: test_game_threads.py)
            **settings,
        }
        bot = TurnpostBot(BotSettings(**values, _env_file=None))
        await bot.login("fake-token")
        if after_login is not None:
            after_login(bot)
        bots.append(bot)
        return Harness(fake, bot)

    try:
        yield make
    finally:
        for b in bots:
            if not b.is_closed():
                await b.close()


@pytest.fixture
async def make_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotMaker]:
    """Start a bot (a new client each call, same database): a restart is two calls."""
    async with bot_maker(fake, tmp_path / "bot.sqlite3") as make:
        yield make
