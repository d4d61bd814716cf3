"""The language layer itself: loading, resolving, CLDR plurals, formats, fallbacks, the
pseudo-language, and a language added from a folder with no code."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import i18n
from i18n.catalogue import clear_locale_dirs
from i18n.check import problems
from i18n.notation import GAMES
from i18n.pseudo import CLOSE, OPEN, pseudo_text


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    clear_locale_dirs()
    yield
    clear_locale_dirs()


def test_the_six_languages_are_served() -> None:
    assert i18n.supported() == ["en", "de", "fr", "hu", "pl", "pt-BR"]
    assert i18n.languages()["hu"].name == "Magyar"


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("pt_BR", "pt-BR"),
        ("pt-br", "pt-BR"),
        ("pt", "pt-BR"),
        ("de_DE.UTF-8", "de"),
        ("en-GB", "en"),
        ("en-US", "en"),
        ("Magyar", "hu"),
        ("polish", "pl"),
        ("fr", "fr"),
    ],
)
def test_codes_as_people_and_programs_write_them(written: str, code: str) -> None:
    assert i18n.resolve(written) == code


def test_an_unknown_language_names_the_supported_ones() -> None:
    assert i18n.resolve("klingon") is None
    with pytest.raises(i18n.UnknownLanguage) as err:
        i18n.require("klingon")
    msg = str(err.value)
    assert "klingon" in msg and "hu (Magyar)" in msg and "pt-BR" in msg


def test_discord_locales_map_to_languages() -> None:
    m = i18n.discord_locales()
    assert m["en-US"] == m["en-GB"] == "en"
    assert m["pt-BR"] == "pt-BR" and m["hu"] == "hu" and m["pl"] == "pl"


def test_system_language_from_the_environment() -> None:
    assert i18n.system_language({"LANG": "hu_HU.UTF-8"}) == "hu"
    assert i18n.system_language({"LC_ALL": "C", "LANG": "pl_PL.UTF-8"}) == "pl"
    assert i18n.system_language({"LANG": "C.UTF-8"}) == "en"
    assert i18n.system_language({}) == "en"


POLISH = "{n} {n|one=karta|few=karty|many=kart|other=karty}"


@pytest.mark.parametrize(
    ("n", "text"),
    [(1, "1 karta"), (2, "2 karty"), (5, "5 kart"), (22, "22 karty"), (12, "12 kart")],
)
def test_polish_plurals_follow_cldr_one_few_many(n: int, text: str) -> None:
    assert i18n.render_template("pl", POLISH, {"n": n}) == text


def test_english_positional_plurals() -> None:
    assert i18n.tr("en", "draw_gold", who="Ana", n=1) == "Ana draws 1 gold card."
    assert i18n.tr("en", "draw_gold", who="Ana", n=3) == "Ana draws 3 gold cards."


def test_lists_numbers_and_durations_per_locale() -> None:
    assert i18n.fmt_list("hu", ["A", "B", "C"]) == "A, B és C"
    assert i18n.fmt_list("pl", ["A", "B", "C"]) == "A, B i C"
    assert i18n.fmt_list("en", ["A", "B"]) == "A and B"
    assert i18n.number("de", 12345) == "12.345"
    assert i18n.duration("pl", 5 * 3600) == "5 godzin"
    assert i18n.duration("de", 90 * 60, threshold=2) == "90 Minuten"
    assert i18n.render_template("hu", "{xs:and}", {"xs": ["A", "B", "C"]}) == "A, B és C"
    assert i18n.render_template("fr", "{xs:and:rien}", {"xs": []}) == "rien"


def test_a_missing_key_falls_back_to_english_and_is_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="i18n"):
        a = i18n.tr("hu", "draw_gold", who="Ana", n=2)
        b = i18n.tr("hu", "draw_gold", who="Ana", n=2)
    assert a == b
    if "draw_gold" not in i18n.catalogue("hu").messages:
        assert a == "Ana draws 2 gold cards."
        assert len([r for r in caplog.records if "draw_gold" in r.getMessage()]) == 1


def test_a_key_missing_everywhere_shows_the_key_never_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="i18n"):
        assert i18n.tr("fr", "no.such.key", x=1) == "no.such.key"
    assert "no.such.key" in caplog.text
    # a missing parameter leaves the placeholder visible, logged, no exception
    assert i18n.tr("en", "draw_gold", n=2) == "{who} draws 2 gold cards."


def test_term_references_in_parameters_and_templates() -> None:
    assert i18n.tr("en", "gain", who="Ana", goods={"coffee": 2, "gold": 1}) == (
        "Ana gains 2 coffee, 1 gold."
    )
    assert i18n.render_template("en", "{@good.coffee} / {x}", {"x": "@good.gold"}) == (
        "coffee / gold"
    )


def test_pseudo_language_brackets_accents_and_lengthens() -> None:
    text = pseudo_text("Ana gains {goods:goods}.")
    assert text.startswith(OPEN) and text.endswith(CLOSE)
    assert "{goods:goods}" in text and "á" in text
    assert len(text) >= len("Ana gains {goods:goods}.") * 1.2
    shown = i18n.tr(i18n.PSEUDO, "draw_gold", who="Ana", n=2)
    assert shown.startswith(OPEN) and shown.endswith(CLOSE) and "Ana" in shown
    assert i18n.PSEUDO not in i18n.supported()


def test_a_language_added_from_a_folder_needs_no_code(tmp_path: Path) -> None:
    """Adding a language is one catalogue file: Italian, from a temporary folder."""
    en = i18n.catalogue("en").messages
    words = tuple(GAMES.values())  # each game's typed-command words: word.*, tigris.word.*
    lines = [
        "[meta]",
        'name = "Italiano"',
        'english = "Italian"',
        'babel = "it"',
        'discord = ["it"]',
        # typed commands keep the canonical words (a new language may add its own later)
        f"same_as_english = {json.dumps(sorted(k for k in en if k.startswith(words)))}",
        "[messages]",
    ]
    for key, english in en.items():
        if key.startswith(words):
            lines.append(f"{json.dumps(key)} = {json.dumps(english)}")
            continue
        # Italian names its plural categories (CLDR: one, many, other)
        text = re.sub(
            r"\{(\w+)\|([^{}|=]*)\|([^{}|=]*)\}", r"{\1|one=\2|many=\3|other=\3}", english
        )
        lines.append(f"{json.dumps(key)} = {json.dumps('IT ' + text, ensure_ascii=False)}")
    (tmp_path / "it.toml").write_text("\n".join(lines), encoding="utf-8")
    i18n.add_locale_dir(tmp_path)
    assert "it" in i18n.supported()
    assert i18n.resolve("it-IT") == "it" and i18n.discord_locales()["it"] == "it"
    assert i18n.tr("it", "draw_gold", who="Ana", n=2).startswith("IT Ana")
    assert problems("it") == []
