"""The bot's /healthz and /metrics (TURNPOST_OPS_PORT), end to end: real discord.py against the
fake Discord server, the ops server on a free port of 127.0.0.1."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.app import TurnpostBot
from tests.bot.conftest import BotMaker, bot_maker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import ANA, CH, start_against_ai


@pytest.fixture
async def ops_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotMaker]:
    async with bot_maker(fake, tmp_path / "bot.sqlite3", ops_port=0) as make:
        yield make


async def get(bot: TurnpostBot, path: str) -> tuple[int, str]:
    assert bot.ops is not None
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{bot.ops.port}{path}") as r,
    ):
        return r.status, await r.text()


def connected(bot: TurnpostBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake server has no gateway: say the bot's is up, with a fresh heartbeat."""
    monkeypatch.setattr(type(bot), "is_ready", lambda self: True)
    monkeypatch.setattr(type(bot), "latency", property(lambda self: 0.05))


async def test_healthz_says_what_is_wrong(
    fake: FakeDiscord, ops_bot: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await ops_bot()
    bot: TurnpostBot = h.client  # type: ignore[assignment]
    status, text = await get(bot, "/healthz")
    assert status == 503 and "gateway: the gateway is not ready yet" in text
    assert "store: ok" in text and "scheduler: ok" in text
    connected(bot, monkeypatch)
    status, text = await get(bot, "/healthz")
    assert status == 200 and text == "gateway: ok\nstore: ok\nscheduler: ok\n"
    # a reminder loop that stopped ticking
    monkeypatch.setattr(bot.settings, "pacing_tick_seconds", 10.0)
    bot.pacer.last_tick = time.monotonic() - 120
    status, text = await get(bot, "/healthz")
    assert status == 503 and "scheduler: the reminder loop has not ticked for 12" in text
    bot.pacer.last_tick = time.monotonic()
    # a store that fails
    assert bot.store is not None

    async def broken() -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(bot.store, "ping", broken)
    status, text = await get(bot, "/healthz")
    assert status == 503 and "store: the store fails: OSError" in text


async def test_metrics_count_steps_store_time_and_active_games(
    fake: FakeDiscord, ops_bot: BotMaker
) -> None:
    h = await ops_bot()
    bot: TurnpostBot = h.client  # type: ignore[assignment]

    def value(text: str, name: str) -> float:
        line = next(ln for ln in text.splitlines() if ln.startswith(name + " "))
        return float(line.split()[-1])

    _, before = await get(bot, "/metrics")
    await start_against_ai(fake, h)
    await h.command(ANA, CH, "play", command="colour blue")
    await bot.pacer.tick()
    status, text = await get(bot, "/metrics")
    assert status == 200
    assert value(text, "turnpost_steps_applied_total") > value(
        before, "turnpost_steps_applied_total"
    )
    assert value(text, "turnpost_active_games") >= 1
    assert 'turnpost_store_seconds_count{op="save"}' in text
    assert 'turnpost_store_seconds_count{op="load"}' in text
    for name in (
        "turnpost_version_conflicts_total",
        "turnpost_render_seconds",
        "turnpost_ai_decision_seconds",
        "turnpost_interaction_errors_total",
        "turnpost_reminder_lateness_seconds",
        "turnpost_image_fallbacks_total",
    ):
        assert f"# HELP {name.removesuffix('_total')}" in text, name
