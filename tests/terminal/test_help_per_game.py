"""Each game's own help in the reader's language (issue #32): the terminal's ``help`` of every
registered game, in every language, writes that game's commands — its grammar, placeholders and
examples — in the language's words, and names no other game's commands."""

from __future__ import annotations

import re

import pytest

import i18n
from i18n.notation import localize_usage, words
from service import catalog
from service.games import adapter
from terminal.local import grammar_lines, help_text

GAMES = catalog.games()
LANGS = i18n.supported()


def full_help(lang: str, game: str) -> str:
    """What ``help`` prints: the terminal's commands and the game's grammar."""
    return "\n".join([help_text(lang, game), *grammar_lines(lang, game)])


def verbs(lang: str, game: str) -> set[str]:
    """The first word of each command of ``game``'s grammar, in ``lang``'s words."""
    return {localize_usage(cmd.split()[0], lang, game) for cmd, _, _ in catalog.grammar(game)}


def has_word(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w\-]){re.escape(word)}(?![\w\-])", text) is not None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_help_has_the_games_own_commands_and_no_other_games(game: str, lang: str) -> None:
    text = full_help(lang, game)
    mine = verbs(lang, game)
    missing = sorted(v for v in mine if v not in text)
    assert not missing, f"{game} {lang}: help lacks its commands {missing}"
    # no word of another game's commands that is not also a word of this game's
    own_words = set(words(lang, game).show.values()) | mine
    generic = " ".join(i18n.tr(lang, k) for k in i18n.catalogue("en").messages if "help" in k)
    for other in GAMES:
        if other == game:
            continue
        foreign = {
            v
            for v in verbs(lang, other)
            if v not in own_words and not has_word(generic, v) and len(v) > 2
        }
        found = sorted(v for v in foreign if has_word(text, v))
        assert not found, f"{game} {lang}: help names {other}'s commands {found}"
    assert "{" not in text


@pytest.mark.parametrize("lang", [c for c in LANGS if c != i18n.DEFAULT])
@pytest.mark.parametrize("game", GAMES)
def test_help_writes_the_commands_in_the_readers_words(game: str, lang: str) -> None:
    """No canonical (English) command word or placeholder where the language has its own."""
    text = "\n".join(grammar_lines(lang, game))
    w = words(lang, game)
    english = sorted(
        t
        for cmd, _, ex in catalog.grammar(game)
        for t in re.findall(r"[a-z][a-z_\-]+", f"{cmd} {ex}")
        if t in w.show and w.show[t] != t and t not in w.read and has_word(text, t)
    )
    assert not english, f"{game} {lang}: English command words {english}"
    for name, key in adapter(game).help_args.items():
        en, mine = i18n.tr("en", key), i18n.tr(lang, key)
        if en != mine:
            assert not re.search(rf"[<|+]{re.escape(en)}[|>+.]", text), (game, lang, name)
            assert not has_word(text, en.upper()) or en.upper() == mine.upper(), (game, name)


@pytest.mark.parametrize("game", GAMES)
def test_every_placeholder_of_thegrammar_lines_has_words(game: str) -> None:
    """English help is the grammar as the game wrote it, and every placeholder of it is one of
    the game's ``help_args`` (so every language can write it)."""
    args = adapter(game).help_args
    for cmd, _, _ in catalog.grammar(game):
        assert localize_usage(cmd, "en", game, args) == cmd
        for inner in re.findall(r"<([^<>]+)>", cmd):
            for run in re.findall(r"[a-z][a-z_]*(?: [a-z][a-z_]*)*", inner):
                known = run.replace(" ", "_") in args or all(
                    p in args or p in words("en", game).tokens for p in run.split()
                )
                assert known, (game, cmd, run)
        for upper in re.findall(r"(?<![\w-])[A-Z]+(?:-[A-Z]+)*(?![\w-])", cmd):
            assert all(p.lower() in args for p in upper.split("-")), (game, cmd, upper)


def test_tigris_help_is_not_brazils_in_any_language() -> None:
    """The issue's case, by name: Tigris' help was Brazil's in every language."""
    for lang in LANGS:
        tigris, brazil = full_help(lang, "tigris"), full_help(lang, "brazil")
        assert tigris != brazil
        assert localize_usage("tile red F4", lang, "tigris") in tigris
        assert localize_usage("build sawmill D3", lang, "brazil") not in tigris


@pytest.mark.parametrize("lang", LANGS)
def test_each_games_score_heading_is_its_own(lang: str) -> None:
    """``/score``'s heading (the adapter's ``score_head``): Brazil's names its hidden missions,
    no other game's does; a game without one gets the plain heading."""
    heads = {
        g: i18n.tr(lang, adapter(g).help_keys.get("score_head", "bot.score.head_plain"))
        for g in GAMES
    }
    assert len(set(heads.values())) == len(heads), heads
    missions = i18n.tr(lang, "bot.score.head")
    assert heads["brazil"] == missions
    assert all(h != missions for g, h in heads.items() if g != "brazil")
    plain = [g for g in GAMES if "score_head" not in adapter(g).help_keys]
    assert all(heads[g] == i18n.tr(lang, "bot.score.head_plain") for g in plain)
