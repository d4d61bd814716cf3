"""The bot's log lines: each names the game, guild, channel, seat and interaction it is about
(context variables), as text or JSON; none carries the token or anything hidden, over a whole
game played through real discord.py against the fake Discord server, logged at DEBUG."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.app import LIBRARY_LOGGERS, JsonFormatter, quiet_libraries
from rules.brazil import deciders, format_action, legal_actions
from service import logctx
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import ANA, CH, start_against_ai
from tests.service.test_service import _mentions, hidden_names


class Lines(logging.Handler):
    """Every record, formatted as the bot formats it in JSON (with the context fields)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.addFilter(logctx.ContextFilter())
        self.setFormatter(JsonFormatter())
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def lines() -> Iterator[Lines]:
    h = Lines()
    root = logging.getLogger()
    old = root.level, {n: logging.getLogger(n).level for n in LIBRARY_LOGGERS}
    root.addHandler(h)
    root.setLevel(logging.DEBUG)
    quiet_libraries(logging.DEBUG)  # as the bot's setup_logging does at TURNPOST_LOG_LEVEL=DEBUG
    try:
        yield h
    finally:
        root.removeHandler(h)
        root.setLevel(old[0])
        for n, level in old[1].items():
            logging.getLogger(n).setLevel(level)


@pytest.mark.slow
async def test_log_lines_name_their_game_and_leak_nothing(
    fake: FakeDiscord, make_bot: BotMaker, lines: Lines
) -> None:
    h = await make_bot()
    await start_against_ai(fake, h)
    rng = random.Random(5)
    leaks: list[str] = []
    token = h.client.http.token or "Bot-token-absent"  # type: ignore[attr-defined]
    for _ in range(60):
        rec = await h.client.tables.store.get_active_game(CH)  # type: ignore[attr-defined]
        if rec is None:
            break
        st = await h.client.tables.svc.state(rec.id)  # type: ignore[attr-defined]
        if 0 not in deciders(st):
            break
        acts = legal_actions(st, 0)
        if not acts:
            break
        before = len(lines.lines)
        await h.command(ANA, CH, "play", command=format_action(st, rng.choice(acts)))
        hidden = hidden_names(await h.client.tables.svc.state(rec.id))  # type: ignore[attr-defined]
        for line in lines.lines[before:]:
            text = json.dumps(line, ensure_ascii=False)
            if token in text:
                leaks.append(f"the token in {text[:200]}")
            for name, ident in hidden.items():
                if _mentions(line["msg"], name):
                    leaks.append(f"{name} ({ident}) in {text[:200]}")
    assert leaks == []
    ours = [ln for ln in lines.lines if ln["logger"].split(".")[0] in ("bot", "service", "web")]
    assert ours, "the bot logged nothing at DEBUG"
    # the lines of a command name its interaction, guild and channel; game lines the game
    with_game = [ln for ln in lines.lines if "game" in ln]
    assert with_game and all(ln["channel"] == CH for ln in with_game if "channel" in ln)
    assert any("interaction" in ln and ln.get("guild") for ln in lines.lines)


def test_text_lines_carry_the_context() -> None:
    rec = logging.LogRecord("bot", logging.INFO, __file__, 1, "hello", None, None)
    f = logctx.ContextFilter()
    logctx.bind(game=3, seat=0, guild=None, channel=None, interaction=None)
    try:
        assert f.filter(rec)
        text = logging.Formatter("%(name)s%(context)s: %(message)s").format(rec)
        assert text == "bot [game=3 seat=0]: hello"
        assert json.loads(JsonFormatter().format(rec))["game"] == 3
    finally:
        logctx.bind(game=None, seat=None)
