"""What the load test and the kill test share: the fake Discord server started on 127.0.0.1
for the bot, the bot's test settings, the first channel and user ids of the simulated
games, and the count of turn posts posted twice."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import discord

from devtools.fakediscord import GUILD_ID, FakeDiscord, Faults, custom_ids

FIRST_CHANNEL = 70_000
FIRST_USER = 50_000


def duplicate_posts(fake: FakeDiscord) -> int:
    """Turn posts (their Take-my-turn id names game and version) posted more than once."""
    seen: dict[str, int] = {}
    for r in fake.requests:
        if r.method == "POST" and r.path.startswith("/channels/") and r.json:
            for c in custom_ids(r.json):
                if c.startswith("brz:t:"):
                    seen[c] = seen.get(c, 0) + 1
    return sum(n - 1 for n in seen.values() if n > 1)


@contextlib.asynccontextmanager
async def fake_server(faults: Faults | None = None) -> Any:
    fake = FakeDiscord()
    base = await fake.start()
    old = discord.http.Route.BASE
    discord.http.Route.BASE = base
    if faults is not None:
        fake.faults = faults
    try:
        yield fake
    finally:
        discord.http.Route.BASE = old
        await fake.stop()


def bot_settings(db: Path) -> Any:
    from bot.settings import BotSettings

    return BotSettings(
        discord_token="fake-token",
        db=db,
        test_guild=GUILD_ID,
        default_ai="random",
        auto_answer_delay=(0.0, 0.0),
        game_threads=False,  # each simulated game takes its channel
        _env_file=None,
    )
