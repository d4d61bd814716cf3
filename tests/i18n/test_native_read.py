"""A whole game's texts read by rule in every language (issue #32, devtools.textscan): for
every registered game and every language, a seeded game played at the terminal in the
language's words (help, score, hand, board, log, the legal commands, a word that is no
command and a command that breaks a rule included), and its web page, show no English fragment, no raw id or
key, no empty list, no doubled punctuation, no counted noun in the wrong form for its number,
no French typography slip and no wrong Hungarian article: a threshold of zero."""

from __future__ import annotations

import pytest

import i18n
from devtools.textscan import check, game_texts, read
from rules.registry import registrations

pytestmark = pytest.mark.slow  # whole games (tests/README.md)


@pytest.mark.parametrize("lang", i18n.supported())
@pytest.mark.parametrize("game", list(registrations()))
def test_a_whole_game_reads_as_a_native_wrote_it(game: str, lang: str) -> None:
    report = read(lang, game_texts(game, lang, seed=3))
    assert report.distinct > 30
    assert not report.defects, "\n".join(
        f"[{','.join(k)}] {s}" for s, k in list(report.defects.items())[:30]
    )


@pytest.mark.parametrize(
    ("lang", "sentence", "kinds"),
    [
        ("hu", "AI heuristic (vörös) uralkodót választ.", ["english"]),
        ("hu", "Red uralkodót választ.", ["english"]),
        ("pl", "Ana płaci 1 ziarna kawy.", ["number"]),
        ("en", "Ana gains 1 points.", ["number"]),
        ("fr", "Main de Ana : ok.", ["typography"]),
        ("hu", "Ana a Olinda városba lép.", ["article"]),
        ("hu", "Ana fizet: 2 arany, ezért: Fűrésztelep.", ["template"]),
        ("en", "0 tiles removed: .", ["empty"]),
        ("de", "Ana zieht 2 Plättchen..", ["punct"]),
        ("pl", "Ana wybiera term.colour.red.", ["raw"]),
    ],
)
def test_the_reader_finds_each_kind_of_defect(lang: str, sentence: str, kinds: list[str]) -> None:
    assert set(kinds) <= set(check(lang, sentence)), check(lang, sentence)


@pytest.mark.parametrize("lang", i18n.supported())
def test_the_reader_passes_good_sentences(lang: str) -> None:
    good = {
        "en": "Ana gains 2 points.",
        "hu": "Ana az Olinda mezőre lép, és a B1 mezőt választja.",
        "pl": "Ana płaci 5 ziaren kawy.",
        "fr": "Main d’Ana\u00a0: ok.",
        "de": "Ana zieht 2 Plättchen.",
        "pt-BR": "Ana ganha 2 pontos.",
    }[lang]
    assert check(lang, good) == []
