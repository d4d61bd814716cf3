"""Computer seats named in the game's language on Discord (issue #32): a Hungarian or Polish
game of every registered game, its lobby, start, turn posts, status message and the commands
a player types, never say "AI random" nor the seat's id (``ai:random``), and do say the
level's name ("Gép (könnyű)")."""

from __future__ import annotations

import random
import re

import pytest

from rules.registry import registrations
from service.results import ai_name
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import ANA, CH

ENGLISH_AI = re.compile(r"\bAI (random|heuristic|search)\b|\bai:(random|heuristic|search)\b")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["hu", "pl"])
@pytest.mark.parametrize("game", list(registrations()))
async def test_a_game_on_discord_names_its_computer_seat_in_the_games_language(
    fake: FakeDiscord, make_bot: BotMaker, game: str, lang: str
) -> None:
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    await h.command(
        ANA, CH, "game", "new", game=game, players=2, ai=1, ai_level="random", language=lang
    )
    lobby = fake.messages[max(fake.messages)]
    start = re.search(r'"(brz:l:\d+:start)"', str(lobby).replace("'", '"'))
    assert start, lobby
    tables.next_seed = 5
    await h.click(ANA, lobby, start.group(1))
    gid = max(r.id for r in await tables.store.list_games())
    rng = random.Random(1)
    for _ in range(8):
        s = await tables.svc.peek(gid)
        if s.over:
            break
        legal = await tables.svc.legal(gid, 0)
        if not legal:
            break
        await h.command(ANA, CH, "play", command=rng.choice(legal))
    await h.command(ANA, CH, "game", "status")
    await h.command(ANA, CH, "log")
    said = [r.text() for r in fake.requests if r.json is not None]
    english = [t for t in said if ENGLISH_AI.search(t)]
    assert not english, english[:2]
    assert any(ai_name(lang, "random") in t for t in said), said[-3:]
