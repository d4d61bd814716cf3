"""The computer levels named with their rating on the scale (issue #31) on Discord: the
lobby's computer seats and ``/game new``'s ``ai_level`` suggestions, in the game's or the
user's language, from the shipped calibration (service/data/ai_ratings.json)."""

from __future__ import annotations

from typing import Any

from i18n import number
from service.ai_scale import ai_shown
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Harness
from tests.bot.test_game import ANA, CH


def rated(game: str, level: str, lang: str = "en") -> str:
    n = ai_shown(game, level)
    assert n is not None, f"{game} {level} is not calibrated"
    return number(lang, n)


async def suggestions(h: Harness, fake: FakeDiscord, **options: Any) -> list[dict[str, Any]]:
    """The choices ``/game new``'s ``ai_level`` autocomplete answers, ``options`` typed."""
    opts: list[dict[str, Any]] = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    opts.append({"name": "ai_level", "type": 3, "value": "", "focused": True})
    data = {
        "id": str(next(fake.ids)),
        "name": "game",
        "type": 1,
        "options": [{"name": "new", "type": 1, "options": opts}],
    }
    reqs = await h.feed(fake.interaction(4, ANA, CH, data))
    cb = [r for r in reqs if r.path.endswith("/callback")]
    assert cb and cb[0].json is not None and cb[0].json["type"] == 8
    choices: list[dict[str, Any]] = cb[0].json["data"]["choices"]
    return choices


async def test_the_lobby_names_a_computer_seat_with_its_rating(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    await h.command(ANA, CH, "game", "new", game="tigris", players=3, ai=1, ai_level="search")
    lobby = fake.messages[max(fake.messages)]
    text = str(lobby["components"])
    assert f"Computer (strong, ≈ {rated('tigris', 'search')})" in text
    assert "(open)" in text


async def test_a_german_lobby_writes_the_number_in_german(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    await h.command(
        ANA, CH, "game", "new", game="brazil", players=2, ai=1, ai_level="heuristic", language="de"
    )
    text = str(fake.messages[max(fake.messages)]["components"])
    german = rated("brazil", "heuristic", "de")
    assert f"Computer (mittel, ≈ {german})" in text
    assert german != rated("brazil", "heuristic", "en")  # 1.5xx, not 1,5xx


async def test_the_ai_level_suggestions_carry_the_games_ratings(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    got = await suggestions(h, fake, game="tigris")
    assert [c["value"] for c in got] == ["random", "heuristic", "search"]
    for c in got:
        assert c["name"].endswith(f"rating ≈ {rated('tigris', c['value'])}")
        assert len(c["name"]) <= 100
    brazil = await suggestions(h, fake)  # no game chosen: the default game's
    assert brazil[2]["name"] == f"strong (search) — rating ≈ {rated('brazil', 'search')}"
    assert await suggestions(h, fake, game="chess") == []
