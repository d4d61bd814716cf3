"""Kuhn poker's rules reference in every language of the product (issue #32: no English
inside translated text): ``rules.<lang>.md`` beside ``rules.md`` has the English rule IDs in
the same order and sections, the same source tags, a translated text, the language's own
words for the ID families, and the game's own words (its catalogues': the cards, chips, pot,
check, call, fold); ``service.rulebook.lookup(…, lang=…, game="kuhn")`` reads it."""

from __future__ import annotations

import fnmatch
import re
import tomllib
import unicodedata
from pathlib import Path

import pytest

import i18n
from devtools.textscan import check, sentences
from i18n.grammar import polish_text
from service.rulebook import (
    CHAT_LIMIT,
    format_entry,
    game_path,
    load_rulebook,
    lookup,
    parse_rulebook,
    rules_path,
)

HERE = Path(__file__).resolve().parents[1]
ROOT = HERE.parents[1]
LANGS = [c for c in i18n.supported() if c != "en"]
ENGLISH = HERE / "rules.md"

# what a player asks the bot in each language, as the reference's introduction says:
# an ID in the language's words (K-BET-1), a word (K-FOLD-1), a section (the K-BET entries)
ASKED = {
    "hu": ("tét 1", "bedobás", "licitálás"),
    "pl": ("zakład 1", "pas", "zakłady"),
    "fr": ("mise 1", "coucher", "mises"),
    "de": ("setzen 1", "aussteigen", "Setzrunde"),
    "pt-BR": ("aposta 1", "desistência", "apostas"),
}
# words the English-fragment reader may see that are the language's own: the rule IDs, the
# author's name, and "Information", spelt alike in English, French and German
KEPT = re.compile(r"\bK-[A-Z]+(?:-\d+)?\b|H\. W\. Kuhn|\bInformation\b")


def english() -> list[str]:
    return [e.id for e in load_rulebook(ENGLISH).entries]


def test_every_language_has_its_file_beside_the_english_one_and_in_the_package() -> None:
    assert set(LANGS) == {"pt-BR", "fr", "de", "hu", "pl"}
    assert game_path("kuhn") == ENGLISH
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["package-data"]["examples.kuhn"]
    for lang in LANGS:
        path = HERE / f"rules.{lang}.md"
        assert path.is_file(), path
        assert rules_path(lang, ENGLISH) == path
        assert load_rulebook(ENGLISH, lang=lang).lang == lang
        # packaged with the English file: the wheel ships the translations too
        assert any(fnmatch.fnmatch(path.name, p) for p in patterns), (path.name, patterns)


@pytest.mark.parametrize("lang", LANGS)
def test_it_parses_with_the_english_ids_sections_and_tags(lang: str) -> None:
    text = (HERE / f"rules.{lang}.md").read_text(encoding="utf-8")
    assert unicodedata.is_normalized("NFC", text)
    en, book = load_rulebook(ENGLISH), parse_rulebook(text, lang)
    assert [e.id for e in book.entries] == english()
    assert len(book.sections) == len(en.sections)
    assert [h.split(". ")[0] for h in re.findall(r"^## (\d+\. .+)$", text, re.M)] == [
        str(n) for n in range(1, len(en.sections) + 1)
    ]
    for e, t in zip(en.entries, book.entries, strict=True):
        assert en.sections.index(e.section) == book.sections.index(t.section), t.id
        assert t.tag == e.tag, t.id  # [seed], [ruling] as written: the code localizes them
        assert t.title != e.title and t.text != e.text, f"{lang} {t.id} is the English text"
        assert t.text.count("\n") == e.text.count("\n"), t.id
        for markdown in (True, False):
            assert len(format_entry(t, markdown=markdown, lang=lang)) <= CHAT_LIMIT


@pytest.mark.parametrize("lang", LANGS)
def test_lookup_by_id_returns_the_translated_entry(lang: str) -> None:
    en, book = load_rulebook(ENGLISH), load_rulebook(ENGLISH, lang=lang)
    for rule_id in english():
        (hit,) = lookup(rule_id, lang=lang, game="kuhn")
        assert hit == book.get(rule_id)
        english_entry = en.get(rule_id)
        assert english_entry is not None and hit.text != english_entry.text
    assert lookup("K-BET-9", lang=lang, game="kuhn") == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_families_have_the_language_s_words(lang: str) -> None:
    book = load_rulebook(ENGLISH, lang=lang)
    assert {family for _, family in book.family_words} == {e.family for e in book.entries}
    for word, family in book.family_words:
        assert [e.id for e in book.lookup(f"{word} 1")] == [f"K-{family}-1"], word
    # the English words and the IDs work in every language
    assert [e.id for e in lookup("bet 3", lang=lang, game="kuhn")] == ["K-BET-3"]


@pytest.mark.parametrize("lang", LANGS)
def test_what_the_introduction_says_to_ask_works(lang: str) -> None:
    text = (HERE / f"rules.{lang}.md").read_text(encoding="utf-8")
    by_id, word, section = ASKED[lang]
    for query in ASKED[lang]:
        assert f"`{query}`" in text, query
    assert [e.id for e in lookup(by_id, lang=lang, game="kuhn")] == ["K-BET-1"]
    assert lookup(word, lang=lang, game="kuhn")[0].id == "K-FOLD-1"
    assert [e.id for e in lookup(section, lang=lang, game="kuhn")] == [
        "K-BET-1",
        "K-BET-2",
        "K-BET-3",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_the_reference_uses_the_game_s_words(lang: str) -> None:
    book = load_rulebook(ENGLISH, lang=lang)
    text = " ".join(e.text.replace("**", "") for e in book.entries).lower()
    nouns = [i18n.tr(lang, f"kuhn.card.{c}") for c in "JQK"]
    nouns.append(i18n.tr(lang, "terminal.score.category.chips"))
    nouns.append(i18n.tr(lang, "render.kuhn.pot", n=0).split(":")[0])
    for noun in (n.strip().lower() for n in nouns):
        stem = noun[:-1] if len(noun) >= 4 else noun  # inflected: pula -> pulę, kassza -> kasszát
        assert stem in text, noun
    # what the game says a player did, the reference says in the same verb
    betting = " ".join(e.text.replace("**", "") for e in book.entries if e.family == "BET")
    for action in ("check", "call", "fold"):
        said = i18n.tr(lang, f"kuhn.{action}", player="Ana")
        verb = said.removeprefix("Ana ").rstrip(".")
        assert verb in betting, (action, verb)


@pytest.mark.parametrize("lang", LANGS)
def test_it_reads_as_a_native_wrote_it(lang: str) -> None:
    text = (HERE / f"rules.{lang}.md").read_text(encoding="utf-8")
    # one line a paragraph, heading or list item; no heading marks, source tags or IDs
    prose = re.sub(r"\n(?!\n|\d+\. |#)\s*", " ", re.sub(r"(?m)^#.*$", "\\g<0>\n", text))
    prose = KEPT.sub("…", re.sub(r"^#+ |\**\[(?:seed|ruling)\]\** ?", "", prose, flags=re.M))
    defects = {s: kinds for s in sentences([prose]) if (kinds := check(lang, s))}
    assert not defects, defects
    if lang == "fr":  # the typographic apostrophe, the no-break spaces before : ; ? !
        assert "'" not in text and polish_text("fr", text) == text
        assert "\u00a0:" in text and "\u202f;" in text
