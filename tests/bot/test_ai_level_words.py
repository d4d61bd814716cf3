"""Issue 33: the computer levels are chosen by their players' words (easy, normal, strong, in
every language) as well as by their ids, and an unknown level is refused before anything is
created, naming the levels in the user's words — every registered game with computer players."""

from __future__ import annotations

import pytest

import i18n
from rules.registry import registrations
from service.results import ai_level_of, ai_level_word
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import EPHEMERAL, FakeDiscord
from tests.bot.test_game import ANA, CH

AI_GAMES = [n for n, r in registrations().items() if r.agent_levels and r.max_players >= 2]
LANGS = list(i18n.languages())


@pytest.mark.parametrize("lang", LANGS)
def test_every_levels_word_in_every_language_names_the_level(lang: str) -> None:
    for level in ("random", "heuristic", "search"):
        word = ai_level_word(lang, level)
        assert word != level, f"{lang} has no word for {level}"
        assert ai_level_of(word) == level
        assert ai_level_of(word.upper()) == level
        assert ai_level_of(level) == level
    assert ai_level_of("oracle") is None
    assert ai_level_of("") is None


def test_words_typed_without_their_accents_are_read() -> None:
    assert ai_level_of("konnyu") == "random"
    assert ai_level_of("erős") == "search"
    assert ai_level_of("lekki") is None  # not a level's word anywhere


@pytest.mark.parametrize("game", AI_GAMES)
async def test_a_level_typed_in_the_players_words_seats_that_level(
    game: str, fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    await h.command(
        ANA, CH, "game", "new", game=game, players=2, ai=1, ai_level="Erős", language="hu"
    )
    lobby = fake.messages[max(fake.messages)]
    assert "Gép (erős" in str(lobby["components"])


async def test_an_unknown_level_is_refused_naming_the_levels_and_nothing_is_created(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    before = set(fake.messages)
    await h.command(ANA, CH, "game", "new", players=2, ai=1, ai_level="oracle", language="de")
    new = [fake.messages[k] for k in set(fake.messages) - before]
    assert len(new) == 1 and new[0]["flags"] & EPHEMERAL  # the refusal only: no lobby
    answer = str(new[0])
    for word in ("easy", "normal", "strong", "oracle"):  # the user's language
        assert word in answer
    assert await h.client.tables.channel_game(CH) is None  # type: ignore[attr-defined]
    await h.command(ANA, CH, "game", "new", players=2, ai=1, ai_level="stark")
    assert await h.client.tables.channel_game(CH)  # type: ignore[attr-defined]
