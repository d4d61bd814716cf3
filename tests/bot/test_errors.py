"""Unexpected failures (storage down, a bug) end in a private answer, never in Discord's "This
interaction failed" and never in a public post: a slash command whose check fails, one whose
body fails, a button press; each fault is logged with its traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.errors import GONE_WRONG
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Request
from tests.bot.test_game import ANA, CH, texts_to


def break_store(monkeypatch: pytest.MonkeyPatch, store: Any, *names: str) -> None:
    """Every call of the store's methods ``names`` raises (the database is gone)."""

    async def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database is gone")

    for name in names:
        monkeypatch.setattr(store, name, boom)


def channel_writes(reqs: list[Request]) -> list[Request]:
    return [r for r in reqs if r.path.startswith("/channels/") and r.method in ("POST", "PATCH")]


def assert_private_apology(reqs: list[Request]) -> None:
    mine = [r for r in reqs if r.interaction_user == ANA and r.json]
    assert mine, "the interaction was not answered"
    assert all(r.ephemeral for r in mine), [r.path for r in mine]
    assert any(GONE_WRONG in t for t in texts_to(reqs, ANA)), texts_to(reqs, ANA)
    assert not channel_writes(reqs), "a failure posted in the channel"


async def test_failures_are_answered_privately_and_logged(
    fake: FakeDiscord,
    make_bot: BotMaker,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = await make_bot()
    await h.command(ANA, CH, "game", "new", players=2, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    store = h.client.tables.store  # type: ignore[attr-defined]
    break_store(monkeypatch, store, "get_game", "get_active_game", "list_games")
    caplog.set_level(logging.ERROR, logger="bot")

    # a slash command whose check (is there a game here?) reads the store
    assert_private_apology(await h.command(ANA, CH, "score"))
    # a slash command whose body reads the store
    assert_private_apology(await h.command(ANA, CH, "games", "mine"))
    # a button
    assert_private_apology(await h.click(ANA, lobby, "brz:l:1:join"))

    faults = [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    assert len(faults) == 3, [r.getMessage() for r in caplog.records]
    assert all("database is gone" in str(r.exc_info[1]) for r in faults if r.exc_info)
