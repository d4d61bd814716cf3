"""Refusals name the commands in the notation the player typed (issue #32): a player who typed
in Hungarian or Polish reads the legal commands, the usages and what they typed in their
language's words (placeholders too); a player who typed the canonical (English) notation
reads it back in the canonical notation. Every registered game, through the service."""

from __future__ import annotations

import re

import pytest

import i18n
from i18n.notation import canonical, localize, words
from service import GameService, catalog
from service.games import adapter

GAMES = catalog.games()
SPAN = re.compile(r"`([^`]+)`")


async def _refusals(service: GameService, game: str, lang: str) -> tuple[list[str], list[str]]:
    """What a seat reads when it types, in ``lang``'s words: an unknown word, the verb of a
    legal command alone, a legal command with a square/hex that does not exist; and when it
    types the same verb canonically. (texts in ``lang``, the canonical typings' texts)"""
    low, _ = catalog.player_range(game)
    res = await service.new_game(["Ana", "Bo"][: max(2, low)], game=game, seed=3)
    gid = res.game_id
    s = await service.peek(gid)
    (seat, *_) = s.A.face.deciders(s.state)
    legal = await service.legal(gid, seat)
    assert legal, game
    verb = legal[0].split()[0]
    typed = ["xyzzy", localize(legal[0], lang, game) + " Z99"]
    if verb != legal[0]:  # a command with arguments: its verb alone is refused too
        typed.insert(1, localize(verb, lang, game))
    texts: list[str] = []
    for line in typed:
        r = await service.act(gid, seat, line, lang=lang)
        assert r.errors, (game, line)
        texts.append(r.errors[0].text_in(lang))
    canon: list[str] = []
    if verb != legal[0]:
        r = await service.act(gid, seat, verb, lang=lang)
        canon = [e.text_in(lang) for e in r.errors]
    return texts, canon


def english_left(text: str, lang: str, game: str) -> list[str]:
    """The canonical (English) command words and placeholders ``text`` shows where ``lang``
    has its own: a command in backticks that is not written in ``lang``'s words, a token
    whose word differs, a placeholder in English."""
    w = words(lang, game)
    found: list[str] = []
    for span in SPAN.findall(text):
        if localize(canonical(span, lang, game), lang, game) != span:
            found.append(f"`{span}`")
    for token, shown in w.show.items():
        english = len(token) >= 3 and shown.lower() != token and token not in w.read
        if english and re.search(rf"(?<![\w\-]){re.escape(token)}(?![\w\-])", text):
            found.append(token)
    for key in adapter(game).help_args.values():
        en, mine = i18n.tr("en", key), i18n.tr(lang, key)
        if en != mine and re.search(rf"[<|+]{re.escape(en)}[|>+.]", text):
            found.append(f"<{en}>")
    return found


@pytest.mark.parametrize("lang", ["hu", "pl"])
@pytest.mark.parametrize("game", GAMES)
async def test_refusals_list_the_commands_in_the_players_words(
    service: GameService, game: str, lang: str
) -> None:
    texts, _ = await _refusals(service, game, lang)
    for text in texts:
        assert english_left(text, lang, game) == [], (game, text)
        assert "{" not in text and "|" not in text, text
    w = words(lang, game)
    if w.show:  # a game with words of its own in the language: its commands were named
        assert any(shown in " ".join(texts) for t, shown in w.show.items() if shown != t)


@pytest.mark.parametrize("game", [g for g in GAMES if words("hu", g).show])
async def test_a_player_who_typed_the_canonical_notation_reads_it_back(
    service: GameService, game: str
) -> None:
    _, canon = await _refusals(service, game, "hu")
    assert canon
    (text,) = canon
    assert english_left(text, "hu", game)  # English, not Hungarian
    spans = SPAN.findall(text)
    assert all(canonical(s, "hu", game) == s for s in spans), spans


def test_the_check_finds_english_commands() -> None:
    assert english_left("legal: `colour green`, `colour red`", "hu", "brazil")
    assert english_left("commands: tile, leader", "pl", "tigris") == ["leader", "tile"]
    assert english_left("`épít <building> <hex>`", "hu", "brazil")
    hu = localize("colour green", "hu")
    assert english_left(f"most szabályos: `{hu}`", "hu", "brazil") == []
