"""The rules reference in every language (issue #17): docs/rules.<lang>.md has every rule ID
of the English reference, in the same sections, with the same source tags and a translated
text; lookups take `lang`, fold the language's accents, and fall back to English."""

from __future__ import annotations

import os
import re
import shutil
import unicodedata
from pathlib import Path

import pytest

import i18n
from service.rulebook import (
    CHAT_LIMIT,
    DEFAULT_PATH,
    RuleEntry,
    format_entry,
    load_rulebook,
    lookup,
    parse_rulebook,
    rules_path,
)

ROOT = Path(__file__).resolve().parents[2]
LANGS = [c for c in i18n.supported() if c != "en"]
ID = re.compile(r"R-[A-Z]+-[0-9]+")
# the source marks inside a text: [seed PL], [faq], [ruling, FR "à chaque bâtiment"] …
MARK = re.compile(r"\[(seed|faq|ruling|design)\b[^\]]*\]")


def test_the_product_languages_all_have_a_reference() -> None:
    assert set(LANGS) == {"pt-BR", "fr", "de", "hu", "pl"}
    for lang in LANGS:
        doc = ROOT / "docs" / f"rules.{lang}.md"
        link = ROOT / "service" / "data" / f"rules.{lang}.md"
        assert doc.is_file(), doc
        # packaged the same way as the English file: a link into docs/ (one copy of the text)
        assert link.is_symlink() and os.readlink(link) == f"../../docs/rules.{lang}.md"
        assert rules_path(lang) == DEFAULT_PATH.with_name(f"rules.{lang}.md")
        assert load_rulebook(lang=lang).lang == lang


@pytest.mark.parametrize("lang", LANGS)
def test_same_ids_sections_and_tags_as_english(lang: str) -> None:
    en, book = load_rulebook(), load_rulebook(lang=lang)
    assert [e.id for e in book.entries] == [e.id for e in en.entries]
    assert len(book.sections) == len(en.sections)
    for e, t in zip(en.entries, book.entries, strict=True):
        assert en.sections.index(e.section) == book.sections.index(t.section), t.id
        assert t.tag == e.tag, t.id  # the source tags stay as written, in every language


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_is_translated(lang: str) -> None:
    en = {e.id: e for e in load_rulebook().entries}
    for t in load_rulebook(lang=lang).entries:
        e = en[t.id]
        assert t.title.strip() and t.text.strip(), t.id
        assert t.text != e.text, f"{lang} {t.id} is the English text"
        # the same rules cited, and the same source marks, in the same order
        assert ID.findall(t.text) == ID.findall(e.text), t.id
        assert [m.group(1) for m in MARK.finditer(t.text)] == [
            m.group(1) for m in MARK.finditer(e.text)
        ], t.id
        # lists keep their items
        assert t.text.count("\n") == e.text.count("\n"), t.id


@pytest.mark.parametrize("lang", LANGS)
def test_files_are_nfc_and_entries_fit_a_chat_message(lang: str) -> None:
    text = (ROOT / "docs" / f"rules.{lang}.md").read_text(encoding="utf-8")
    assert unicodedata.is_normalized("NFC", text)
    for entry in load_rulebook(lang=lang).entries:
        for markdown in (True, False):
            out = format_entry(entry, markdown=markdown)
            assert len(out) <= CHAT_LIMIT and out.startswith(("**R-", "R-")), entry.id


@pytest.mark.parametrize("lang", LANGS)
def test_lookup_by_id_reads_the_language(lang: str) -> None:
    english = load_rulebook().get("R-BUILD-4")
    assert english is not None
    for query in ("R-BUILD-4", "r_build_4", "build 4"):
        (hit,) = lookup(query, lang=lang)
        assert hit.id == "R-BUILD-4"
        assert hit == load_rulebook(lang=lang).get("R-BUILD-4")
        assert hit.text != english.text
    assert lookup(f"R-BUILD-{99}", lang=lang) == []  # (written so: no such ID in the repository)


@pytest.mark.parametrize(
    ("lang", "query", "rule_id"),
    [
        ("fr", "bombarder", "R-MOVE-6"),
        ("fr", "fonderie", "R-PALACE-2"),
        ("fr", "egalite", "R-END-3"),  # égalité, accents folded
        ("pt-BR", "canhão", "R-MOVE-6"),
        ("pt-BR", "canhao", "R-MOVE-6"),
        ("pt-BR", "fundição", "R-PALACE-2"),
        ("de", "Kanone", "R-MOVE-6"),
        ("de", "Münzstätte", "R-PALACE-2"),
        ("de", "munzstatte", "R-PALACE-2"),
        ("hu", "ágyúzás", "R-MOVE-6"),
        ("hu", "AGYUZAS", "R-MOVE-6"),
        ("hu", "aranyöntöde", "R-PALACE-2"),
        ("pl", "ostrzał", "R-MOVE-6"),
        ("pl", "ostrzal", "R-MOVE-6"),
        ("pl", "odlewnia", "R-PALACE-2"),  # the text says odlewnię: inflection
    ],
)
def test_lookup_by_a_word_of_the_language(lang: str, query: str, rule_id: str) -> None:
    assert rule_id in [e.id for e in lookup(query, lang=lang)]
    # the English reference does not know the word (it is the language's own)
    assert rule_id not in [e.id for e in lookup(query)]


@pytest.mark.parametrize(
    ("lang", "query", "rule_id"),
    [
        ("pt-BR", "construir 4", "R-BUILD-4"),
        ("fr", "rénover 2", "R-RENOV-2"),
        ("de", "Herstellen 1", "R-MANUF-1"),
        ("hu", "építés 4", "R-BUILD-4"),
        ("hu", "Kikötő 2", "R-IMPORT-2"),
        ("pl", "rozwój 3", "R-MANUF-3"),
        ("pl", "handel 1", "R-TRADE-1"),
    ],
)
def test_the_languages_action_words_name_id_families(lang: str, query: str, rule_id: str) -> None:
    assert [e.id for e in lookup(query, lang=lang)] == [rule_id]


def test_a_section_by_its_name_in_the_language() -> None:
    combat = [e.id for e in load_rulebook().entries if e.family == "COMBAT"]
    assert [e.id for e in lookup("Kampf", lang="de")] == combat
    assert [e.id for e in lookup("csata", lang="hu")] == combat
    assert [e.id for e in lookup("Bitwa", lang="pl")] == combat
    assert [e.id for e in lookup("combate", lang="pt-BR")] == combat
    # an action word lists its family, as `build` does in English
    build = [e.id for e in load_rulebook().entries if e.family == "BUILD"]
    assert [e.id for e in lookup("Építés", lang="hu")] == build


@pytest.mark.parametrize("code", ["pt_BR", "pt-br", "fr_FR.UTF-8", "de-DE", "Magyar", "pl_PL"])
def test_language_codes_as_people_write_them(code: str) -> None:
    lang = i18n.resolve(code)
    assert lang in LANGS
    assert load_rulebook(lang=code) == load_rulebook(lang=lang)


@pytest.mark.parametrize("code", ["xx", "", "pseudo", "en", "en-GB"])
def test_english_for_english_unknown_or_unserved_languages(code: str) -> None:
    assert rules_path(code) == DEFAULT_PATH
    assert load_rulebook(lang=code) == load_rulebook()
    assert lookup("R-BUILD-4", lang=code) == lookup("R-BUILD-4")


def test_a_language_without_a_file_reads_english(tmp_path: Path) -> None:
    """Another English file (the bot's rules_path setting) is looked up with its own
    translations next to it: none there gives English, one there is read."""
    english = tmp_path / "rules.md"
    shutil.copyfile(DEFAULT_PATH, english)
    assert rules_path("fr", english) == english
    assert lookup("R-BUILD-4", path=english, lang="fr") == lookup("R-BUILD-4")
    text = DEFAULT_PATH.read_text(encoding="utf-8").replace(
        "Where a building may go", "Où un bâtiment peut aller (copie)"
    )
    (tmp_path / "rules.fr.md").write_text(text, encoding="utf-8")
    (hit,) = lookup("R-BUILD-4", path=english, lang="fr_FR")
    assert hit.title == "Où un bâtiment peut aller (copie)"
    assert load_rulebook(english, lang="de") == load_rulebook()
    assert parse_rulebook(text, "fr").get("R-BUILD-4") == hit


def test_entries_keep_their_language_apart() -> None:
    """Loading one language never changes another's (each file parsed and cached alone)."""
    before = load_rulebook().get("R-MOVE-6")
    for lang in LANGS:
        load_rulebook(lang=lang)
    after = load_rulebook().get("R-MOVE-6")
    assert isinstance(after, RuleEntry) and after == before
    assert after.title == "Bombarding"
