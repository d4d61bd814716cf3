"""A bot logged in to the fake Discord server, over a SQLite file in a tmp dir."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import discord
import pytest

from bot.app import BrazilBot
from bot.settings import BotSettings
from tests.discord.fakediscord import GUILD_ID, FakeDiscord, Harness

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


@pytest.fixture
async def make_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotMaker]:
    """Start a bot (a new client each call, same database): a restart is two calls."""
    bots: list[BrazilBot] = []

    async def make() -> Harness:
        for b in bots:
            if not b.is_closed():
                await b.close()
        settings = BotSettings(
            discord_token="fake-token",  # type: ignore[arg-type]
            db=tmp_path / "bot.sqlite3",
            test_guild=GUILD_ID,
            default_ai="random",
            _env_file=None,  # type: ignore[call-arg]
        )
        bot = BrazilBot(settings)
        await bot.login("fake-token")
        bots.append(bot)
        return Harness(fake, bot)

    yield make
    for b in bots:
        if not b.is_closed():
            await b.close()
