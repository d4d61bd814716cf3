"""The hand-written grammar (issue #32): French elision, contraction and typography, the
Hungarian article, counted goods in each language's plural categories (CLDR)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import i18n
from devtools.typography import ROOT
from i18n.grammar import NBSP, NNBSP, hu_number_takes_az, hu_takes_az, polish_text
from i18n.render import render_template


def fr(template: str, **params: object) -> str:
    return render_template("fr", template, params)


def hu(template: str, **params: object) -> str:
    return render_template("hu", template, params)


def test_french_elides_before_an_inserted_name_or_term() -> None:
    assert fr("Main de {who}", who="Ana") == "Main d’Ana"
    assert fr("la ville de {c}", c="Olinda") == "la ville d’Olinda"
    assert fr("la ville de {c}", c="Recife") == "la ville de Recife"
    assert fr("le {x} est là", x="or") == "l’or est là"
    assert fr("de {n} points", n=8) == "de 8 points"  # a number is not elided
    # a proper name of the catalogue keeps its own "de"
    assert "Machado de Assis" in fr("{x}", x="@term.painting.machado_de_assis")


def test_french_spacing_and_one_apostrophe() -> None:
    assert fr("Tour {n} : à toi !", n=3) == f"Tour 3{NBSP}: à toi{NNBSP}!"
    assert fr("{who}: c'est fait; ok?", who="Bo") == f"Bo{NBSP}: c’est fait{NNBSP}; ok{NNBSP}?"
    assert fr("« {x} »", x="or") == f"«{NBSP}or{NBSP}»"
    # typed commands, links and times are left alone
    assert fr("tapez `l'aide` sur https://x.org/a?b=1 à 12:30") == (
        "tapez `l'aide` sur https://x.org/a?b=1 à 12:30"
    )


@pytest.mark.parametrize("path", sorted((ROOT / "fr").glob("*.toml")), ids=lambda p: p.name)
def test_the_french_catalogue_is_written_in_french_typography(path: object) -> None:
    from pathlib import Path

    assert isinstance(path, Path)
    if path.name == "words.toml":
        return
    import tomllib

    msgs = tomllib.loads(path.read_text(encoding="utf-8")).get("messages", {})
    wrong = {k: v for k, v in msgs.items() if polish_text("fr", v) != v}
    assert not wrong, f"run python -m devtools.typography fr: {list(wrong.items())[:5]}"


@pytest.mark.parametrize(
    ("n", "az"),
    [
        (0, False),
        (1, True),
        (2, False),
        (5, True),
        (10, False),
        (11, False),
        (15, False),
        (50, True),
        (55, True),
        (100, False),
        (500, True),
        (1000, True),
        (2000, False),
        (5000, True),
        (1_000_000, True),
    ],
)
def test_hungarian_article_before_numbers(n: int, az: bool) -> None:
    assert hu_number_takes_az(n) is az
    assert hu("a {n}. lépés", n=n) == ("az " if az else "a ") + f"{n}. lépés"


def test_hungarian_article_before_names_labels_and_terms() -> None:
    assert hu("a {x} mezőn", x="A4") == "az A4 mezőn"
    assert hu("a {x} mezőn", x="F4") == "az F4 mezőn"  # ef
    assert hu("az {x} mezőn", x="B1") == "a B1 mezőn"  # bé
    assert hu("a {who} lépése", who="Ildikó") == "az Ildikó lépése"
    assert hu("Az {who} lépése", who="Bo") == "A Bo lépése"
    assert hu("a(z) {who}", who="Ana") == "az Ana"
    assert hu("a(z) kör és a(z) ár") == "a kör és az ár"
    assert hu_takes_az("*Olinda*") is True
    assert hu_takes_az("—") is None


@given(st.integers(min_value=0, max_value=10**7))
def test_hungarian_numbers_take_the_article_of_their_first_spoken_word(n: int) -> None:
    spoken_first_vowel = str(n)[0] in "15" and not (
        len(str(n)) in (2, 3, 5, 6, 8) and str(n)[0] == "1"
    )
    # 1, 5, 1xxx (ezer), 5x, 5xx … take "az"; 1x (tíz/tizen), 1xx (száz) take "a"
    assert hu_number_takes_az(n) is spoken_first_vowel or len(str(n)) >= 7


@pytest.mark.parametrize(
    ("lang", "goods", "text"),
    [
        ("pl", {"coffee": 1}, "1 ziarno kawy"),
        ("pl", {"coffee": 2}, "2 ziarna kawy"),
        ("pl", {"coffee": 5}, "5 ziaren kawy"),
        ("pl", {"sugar_cane": 22, "brazilwood": 12}, "22 trzciny cukrowe, 12 pernambuków"),
        ("pl", {"gold": 3}, "3 złota"),
        ("de", {"coffee": 1}, "1 Kaffeebohne"),
        ("de", {"coffee": 2}, "2 Kaffeebohnen"),
        ("fr", {"sugar_cane": 2}, "2 cannes à sucre"),
        ("pt-BR", {"cotton": 2}, "2 algodões"),
        ("hu", {"coffee": 3}, "3 kávébab"),
        ("en", {"any": 2}, "2 any resource"),
    ],
)
def test_counted_goods_take_the_form_their_number_asks_for(
    lang: str, goods: dict[str, int], text: str
) -> None:
    assert render_template(lang, "{g:goods}", {"g": goods}) == text


def test_every_language_counts_every_good() -> None:
    en = i18n.catalogue("en").messages
    goods = [k.removeprefix("good.") for k in en if k.startswith("good.")]
    for lang in i18n.supported():
        for g in goods:
            assert f"count.good.{g}" in i18n.catalogue(lang).messages, (lang, g)


@pytest.mark.parametrize(
    ("lang", "n", "text"),
    [
        ("pl", 1, "1 ziarno kawy z pola A3"),
        ("pl", 2, "2 ziarna kawy z pola A3"),
        ("pl", 5, "5 ziaren kawy z pola A3"),
        ("de", 1, "1 Kaffeebohne von A3"),
    ],
)
def test_a_number_before_a_good_in_any_template_counts_it(lang: str, n: int, text: str) -> None:
    """``{n} {good}`` in a template: the good's counted form, whatever the template."""
    assert i18n.tr(lang, "phrase.item.tile", n=n, good="@good.coffee", hex="A3") == text


def test_a_name_ending_in_a_full_stop_ends_the_sentence_once() -> None:
    assert render_template("de", "wählt {m}.", {"m": "@term.monarch.afonso_i"}) == (
        "wählt Alfons I."
    )


@pytest.mark.parametrize(
    ("roman", "az"), [("I.", True), ("II.", False), ("V.", True), ("III", False), ("X.", False)]
)
def test_hungarian_article_before_roman_ordinals(roman: str, az: bool) -> None:
    assert hu_takes_az(roman) is az
