"""Whole games in every language through the local mode (issue #17).

A player at the terminal plays a whole two-player game against a computer player, typing each
command in the words of the terminal's language (``épít fűrésztelep D3``): the commands a
heuristic player would choose, written by :func:`i18n.notation.localize`, so the same seed
gives the same game in every language. The game is played once in English and once in each
other language, and the two transcripts are compared line by line: they have the same shape
(one line for one line), and no line of the other language is the English line again, but
lines that hold nothing to translate (names, hex labels, numbers, file paths). In the
pseudo-language every word outside brackets is a name, a typed command or the grammar.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from pathlib import Path

import pytest

import i18n
from ai import make_agent
from i18n.notation import canonical, localize
from rules.brazil import format_action
from terminal import local
from terminal.local import LOCAL_WORDS, LineSource, LocalGame
from tests.i18n.pseudo import unbracketed_words

pytestmark = pytest.mark.slow  # whole games (tests/README.md)

LANGS = ["pt-BR", "fr", "de", "hu", "pl"]
SEED = 11
# a line with nothing to translate: names, hex labels, numbers, paths, punctuation
NEUTRAL = re.compile(r"^[\s\d.,:;!?()/\\#+\-—–=>|*'\"\[\]]*$")


def words(text: str) -> set[str]:
    """The words of a text (letters only, lower case; hex labels, numbers, file paths and
    `commands` left out)."""
    text = re.sub(r"`[^`]*`|\S*/\S*", " ", text)
    found = {w.lower() for w in re.findall(r"[^\W\d_]{2,}", text)}
    return {w for w in found if not re.fullmatch(r"[ivxlc]+", w)}  # roman numerals: palace VI


def is_terminal_command(line: str) -> bool:
    """A prompt line where the player typed one of the terminal's own commands (``score``,
    ``hand Ana``: the same words in every language, like the canonical notation)."""
    typed = line.partition("> ")[2]
    return typed.split(" ")[0] in LOCAL_WORDS


class TypedByAgent(LineSource):
    """Types, for the deciding seat, the command a heuristic player chooses, in the words of
    ``lang``; now and then asks for the score or the hand first (the terminal's own texts)."""

    def __init__(self, game: LocalGame, out: io.StringIO, lang: str, limit: int = 4000) -> None:
        self.game = game
        self.out = out
        self.lang = lang
        self.agent = make_agent("heuristic", seed=SEED)
        self.lines = 0
        self.limit = limit
        self.typed: list[str] = []

    async def read(self, prompt: str, seat: int | None) -> str | None:
        self.lines += 1
        if self.lines > self.limit:
            return None  # not expected: the test then fails on the game not being over
        s = self.game.game
        assert s is not None and seat is not None
        if self.lines % 97 == 1:
            line = "score"
        elif self.lines % 97 == 50:
            line = "hand Ana"
        else:
            action = self.agent.decide(s.state, seat)
            line = localize(format_action(s.state, action), self.lang)
            self.typed.append(line)
        print(f"{prompt}{line}", file=self.out)
        return line

    async def pause(self, prompt: str) -> None:
        print(prompt, file=self.out)


def play(tmp_path: Path, lang: str) -> tuple[str, TypedByAgent]:
    argv = ["--seats", "Ana,ai:heuristic", "--seed", str(SEED), "--lang", lang, "--workers", "0"]
    argv += ["--db", str(tmp_path / f"{lang}.sqlite3"), "--out", str(tmp_path / "img")]
    p = argparse.ArgumentParser()
    local.add_arguments(p)
    args = p.parse_args(argv)
    out = io.StringIO()
    sources: list[TypedByAgent] = []

    def source(game: LocalGame) -> TypedByAgent:
        sources.append(TypedByAgent(game, out, lang))
        return sources[0]

    assert asyncio.run(local.play(args, out=out, make_source=source)) == 0
    return out.getvalue().replace(str(tmp_path), "TMP"), sources[0]


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    text, _ = play(tmp_path_factory.mktemp("en"), "en")
    assert i18n.tr("en", "terminal.over", game=1, folder="TMP/img") in text
    return text.splitlines()


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_local_game_in_every_language(
    lang: str, english: list[str], tmp_path: Path
) -> None:
    text, source = play(tmp_path, lang)
    lines = text.splitlines()
    # the game reached its natural end, said in the language
    assert i18n.tr(lang, "terminal.over", game=1, folder="TMP/img") in text
    # commands were typed in the language's own words and accepted (nothing refused)
    assert source.typed and any(t != canonical(t, lang) for t in source.typed)
    assert "  ! " not in text
    # the same game line for line, and no English line left where a translation exists
    assert len(lines) == len(english)
    same = [
        en
        for en, other in zip(english, lines, strict=True)
        if en == other and not NEUTRAL.match(en) and not is_terminal_command(en)
    ]
    assert not same, same[:20]
    # and no English word inside a translated line (an English text passed as a parameter)
    vocabulary = words(" ".join(i18n.catalogue(lang).messages.values()))
    english_words = {
        (en, other): found
        for en, other in zip(english, lines, strict=True)
        if not is_terminal_command(en)
        and (found := (words(other) & words(en)) - vocabulary - {"ana", "ai", "heuristic", "tmp"})
    }
    assert not english_words, list(english_words.items())[:10]


def test_a_whole_local_game_in_the_pseudo_language(tmp_path: Path) -> None:
    text, source = play(tmp_path, i18n.PSEUDO)
    assert i18n.tr(i18n.PSEUDO, "terminal.over", game=1, folder="TMP/img") in text
    allowed = ["Ana", "TMP", *LOCAL_WORDS, *source.typed]  # the computer seat: translated
    found = {
        line: words for line in text.splitlines() if (words := unbracketed_words(line, allowed))
    }
    assert not found, list(found.items())[:20]
