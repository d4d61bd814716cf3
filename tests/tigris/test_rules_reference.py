"""The Tigris & Euphrates rules reference, docs/tigris/rules*.md (issue 18).

Every language file has exactly the rule IDs of the specification (kept below, in its
order), in the same sections, with the same source tags and a non-empty text; the files are
NFC-normalised. They are written in the format `service/rulebook.py` parses (`## N. Section`,
`### ID — title`, a text starting with `[seed]`, `[faq]` or `[ruling]`). That parser takes
only `R-` IDs (Brazil's) for now, so where it refuses a `T-` heading the test parses a copy
with the prefix turned into `R-`: everything else about the format is still checked.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from service.rulebook import Rulebook, RulebookError, parse_rulebook

DOCS = Path(__file__).resolve().parents[2] / "docs" / "tigris"
FILES = sorted(DOCS.glob("rules*.md"))
LANGS = {p.name: (p.name.split(".")[1] if p.name.count(".") == 2 else "en") for p in FILES}

# Every rule ID of the specification (RULES-TIGRIS.md), in its order: each family and the
# number of its rules, numbered from 1.
SPEC_FAMILIES = {
    "VOC": 14,
    "COMP": 3,
    "SETUP": 6,
    "TURN": 5,
    "LEADER": 9,
    "TILE": 5,
    "SCORE": 5,
    "CATASTROPHE": 5,
    "SWAP": 3,
    "CONFLICT": 4,
    "REVOLT": 5,
    "WAR": 11,
    "MONUMENT": 7,
    "TREASURE": 4,
    "REFILL": 3,
    "END": 3,
    "FINAL": 4,
    "INFO": 2,
    "VAR": 1,
}
SPEC_IDS = [
    f"T-{family}-{n}" for family, count in SPEC_FAMILIES.items() for n in range(1, count + 1)
]

HEADING_ID = re.compile(r"^### (T-[A-Z]+-[0-9]+) — \S", re.MULTILINE)
T_ID = re.compile(r"\bT-([A-Z]+)(?=[-)\s])")


def _parse(text: str, lang: str) -> tuple[Rulebook, str]:
    """The parsed reference and the prefix its IDs carry (`T` or, when the parser takes only
    Brazil's IDs, `R` for a copy whose `T-` prefixes were turned into `R-`)."""
    try:
        return parse_rulebook(text, lang), "T"
    except RulebookError:
        return parse_rulebook(T_ID.sub(r"R-\1", text), lang), "R"


def _book(path: Path) -> tuple[Rulebook, list[str]]:
    book, prefix = _parse(path.read_text(encoding="utf-8"), LANGS[path.name])
    return book, [f"T-{e.id.removeprefix(prefix + '-')}" for e in book.entries]


def test_the_specification_list_has_no_repeats_and_there_are_translations() -> None:
    assert len(SPEC_IDS) == len(set(SPEC_IDS)) == 99
    assert {
        "rules.md",
        "rules.hu.md",
        "rules.fr.md",
        "rules.pl.md",
        "rules.pt-BR.md",
    } <= set(LANGS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_file_is_nfc(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert unicodedata.is_normalized("NFC", text), path.name


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_exactly_the_specification_ids_in_its_order(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert HEADING_ID.findall(text) == SPEC_IDS  # each once, none extra, none missing


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_rulebook_parser_reads_it_with_no_empty_entry(path: Path) -> None:
    book, ids = _book(path)
    assert ids == SPEC_IDS
    assert len(book.sections) == 19
    for entry in book.entries:
        assert entry.title.strip(), entry.id
        assert len(entry.text) >= 20, entry.id  # a sentence, not a stub
        assert entry.kind in {"seed", "faq", "ruling"}, entry.id


@pytest.mark.parametrize("path", [p for p in FILES if p.name != "rules.md"], ids=lambda p: p.name)
def test_same_sections_and_tags_as_english(path: Path) -> None:
    en, _ = _book(DOCS / "rules.md")
    book, _ = _book(path)
    assert [e.tag for e in book.entries] == [e.tag for e in en.entries]
    for e, t in zip(en.entries, book.entries, strict=True):
        assert en.sections.index(e.section) == book.sections.index(t.section), t.id
        # the inline source marks ([ruling] …) stay where the English has them
        assert t.text.count("[ruling]") == e.text.count("[ruling]"), t.id
        assert t.text.count("[faq]") == e.text.count("[faq]"), t.id


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_family_has_a_word_in_the_language(path: Path) -> None:
    book, _ = _book(path)
    named = {family for _, family in book.family_words}
    assert named >= {e.family for e in book.entries}
    prefix = book.entries[0].id.split("-")[0]
    for word, family in book.family_words:
        assert book.lookup(f"{word} 1")[0].id == f"{prefix}-{family}-1", word


GLOSSARIES = sorted((DOCS.parent / "glossary").glob("tigris.*.md"))
GLOSSARY_ROW = re.compile(
    r"^\| `(tigris\.[a-z_.]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \| (T-[A-Z]+-\d+) \|$"
)


def test_the_glossaries_list_the_same_terms_with_a_source_and_an_existing_rule() -> None:
    assert {p.name for p in GLOSSARIES} >= {"tigris.en.md", "tigris.hu.md"}
    keys = {}
    for path in GLOSSARIES:
        text = path.read_text(encoding="utf-8")
        assert unicodedata.is_normalized("NFC", text), path.name
        rows = [GLOSSARY_ROW.match(line) for line in text.splitlines() if line.startswith("| `")]
        assert rows and all(rows), path.name
        keys[path.name] = [m.group(1) for m in rows if m]
        for m in rows:
            assert m and m.group(5) in SPEC_IDS and m.group(4).strip(), (
                path.name,
                m and m.group(1),
            )
    first = keys["tigris.en.md"]
    assert len(first) == len(set(first))
    assert all(k == first for k in keys.values())
