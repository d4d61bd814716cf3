"""The rules reference docs/rules.md and its lookup module service/rulebook.py."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rules.games import names
from service.rulebook import (
    CHAT_LIMIT,
    DEFAULT_PATH,
    RulebookError,
    RuleEntry,
    format_entry,
    load_rulebook,
    lookup,
    normalize_rule_id,
    parse_rulebook,
    source_label,
)

ROOT = Path(__file__).resolve().parents[2]
ID = re.compile(r"R-[A-Z]+-[0-9]+")

# Every rule ID of the specification (RULES.md, outside the repository), in its order.
SPEC_IDS = ID.findall(
    """
R-VOC-1 R-VOC-2 R-VOC-3 R-VOC-4 R-VOC-5 R-VOC-6 R-VOC-7 R-VOC-8
R-SETUP-1 R-SETUP-2 R-SETUP-3 R-SETUP-4 R-SETUP-5 R-SETUP-6 R-SETUP-7
R-TURN-1 R-TURN-2 R-TURN-3 R-TURN-4 R-TURN-5 R-TURN-6
R-RECRUIT-1 R-RECRUIT-2 R-RECRUIT-3 R-RECRUIT-4 R-RECRUIT-5
R-PAINT-1 R-PAINT-2 R-PAINT-3 R-PAINT-4
R-BUILD-1 R-BUILD-2 R-BUILD-3 R-BUILD-4 R-BUILD-5 R-BUILD-6 R-BUILD-10 R-BUILD-7 R-BUILD-8
R-BUILD-9 R-RENOV-1 R-RENOV-2 R-RENOV-3 R-RENOV-4 R-MANUF-1 R-MANUF-2 R-MANUF-3
R-IMPORT-1 R-IMPORT-2 R-TRADE-1 R-TRADE-2 R-TRADE-3
R-MOVE-1 R-MOVE-2 R-MOVE-3 R-MOVE-4 R-MOVE-5 R-MOVE-6
R-ERA-1 R-ERA-2 R-ERA-3 R-ERA-4
R-MISSION-1 R-MISSION-2 R-MISSION-3 R-MISSION-4 R-PALACE-1 R-PALACE-2 R-PALACE-3 R-PALACE-4
R-PALACE-5
R-COMBAT-1 R-COMBAT-2 R-COMBAT-3 R-COMBAT-4 R-COMBAT-5 R-COMBAT-6 R-COMBAT-7 R-COMBAT-8
R-COMBAT-9 R-COMBAT-10 R-COMBAT-11 R-COMBAT-12 R-COMBAT-13
R-EXPLORE-1 R-EXPLORE-2 R-EXPLORE-3 R-EXPLORE-4
R-END-1 R-END-2 R-END-3
R-MONARCH-1
R-SOLO-1 R-SOLO-2
"""
)

SKIP_DIRS = {".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
SKIP_DIRS |= {".hypothesis", "build"}


def ids(entries: list[RuleEntry]) -> list[str]:
    return [e.id for e in entries]


def cited_ids() -> dict[str, set[str]]:
    """Every rule ID written in the repository's text files -> the files citing it."""
    cited: dict[str, set[str]] = {}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder) / name
            if path == Path(__file__).resolve():
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            for rule_id in ID.findall(text):
                cited.setdefault(rule_id, set()).add(path.relative_to(ROOT).as_posix())
    return cited


# --------------------------------------------------------------------------- the document


def test_every_spec_id_has_exactly_one_entry_in_spec_order() -> None:
    book = load_rulebook()
    assert ids(list(book.entries)) == SPEC_IDS
    text = DEFAULT_PATH.read_text(encoding="utf-8")
    for rule_id in SPEC_IDS:
        assert len(re.findall(rf"^### {rule_id} — ", text, flags=re.M)) == 1, rule_id


def test_every_id_cited_in_the_repository_has_an_entry() -> None:
    cited = cited_ids()
    # the scan really reads code, tests and docs
    assert len(cited) > 60
    assert {"rules/brazil/turn.py", "docs/RULINGS.md"} <= set().union(*cited.values())
    known = {e.id for e in load_rulebook().entries}
    missing = {rule_id: sorted(files) for rule_id, files in cited.items() if rule_id not in known}
    assert missing == {}


def test_every_entry_parses_with_title_tag_text_and_section() -> None:
    book = load_rulebook()
    assert book.sections == (
        "Components and vocabulary",
        "Setup",
        "Turn structure",
        "Actions (the 7 arches)",
        "Movement",
        "Action tokens and eras",
        "Missions and palaces",
        "Combat",
        "Exploration",
        "End and scoring",
        "Monarchs",
        "Solo mode — Battle of Guararapes",
    )
    for e in book.entries:
        assert e.title and e.title == e.title.strip()
        assert e.kind in {"seed", "faq", "ruling", "design"}, e.id
        assert e.text and not e.text.startswith("["), e.id
        assert "\n\n\n" not in e.text
        assert e.section in book.sections
    assert book.get("R-TURN-6") is not None and book.get("R-TURN-6").kind == "ruling"  # type: ignore[union-attr]
    assert book.get("R-TURN-5").tag == "seed PL, faq"  # type: ignore[union-attr]
    assert book.get("R-COMBAT-2").section == "Combat"  # type: ignore[union-attr]


def test_entry_text_is_unwrapped_but_keeps_list_items() -> None:
    e = load_rulebook().get("R-TRADE-1")
    assert e is not None
    lines = e.text.splitlines()
    assert lines[0].startswith("Make as many")
    assert [ln[:2] for ln in lines[1:]] == ["- "] * 4
    assert "2 cotton, 2 coffee, or 1 cotton and 1 coffee → 2 gold and 1 gold card;" in e.text


def test_parser_rejects_malformed_documents() -> None:
    good = "## 1. Things\n\n### R-X-1 — A thing\n[seed] Text.\n"
    assert ids(list(parse_rulebook(good).entries)) == ["R-X-1"]
    with pytest.raises(RulebookError, match="tag"):
        parse_rulebook("## 1. Things\n\n### R-X-1 — A thing\nText.\n")
    with pytest.raises(RulebookError, match="twice"):
        parse_rulebook(good + "\n### R-X-1 — Again\n[seed] More.\n")
    with pytest.raises(RulebookError, match="no text"):
        parse_rulebook("## 1. Things\n\n### R-X-1 — A thing\n[seed]\n")
    with pytest.raises(RulebookError, match="heading"):
        parse_rulebook(good + "\n### Not an entry\ntext\n")
    with pytest.raises(RulebookError, match="outside a section"):
        parse_rulebook("# Title\n\n### R-X-1 — A thing\n[seed] Text.\n")


def test_load_from_an_explicit_path_and_a_missing_one(tmp_path: Path) -> None:
    copy = tmp_path / "rules.md"
    copy.write_text("## 1. Things\n\n### R-X-1 — A thing\n[ruling] Text here.\n", "utf-8")
    assert ids(lookup("x 1", path=copy)) == ["R-X-1"]
    with pytest.raises(FileNotFoundError, match="load_rulebook"):
        load_rulebook(tmp_path / "nowhere.md")


# --------------------------------------------------------------------------- lookup


@pytest.mark.parametrize(
    "query",
    ["R-BUILD-4", "r-build-4", "R_BUILD_4", "build-4", "build 4", "BUILD4", " R build 4 "],
)
def test_id_variants_resolve_R_BUILD_4(query: str) -> None:
    assert ids(lookup(query)) == ["R-BUILD-4"]


def test_family_words_resolve_to_ids() -> None:
    assert ids(lookup("renovate 2")) == ["R-RENOV-2"]
    assert ids(lookup("recruit 5")) == ["R-RECRUIT-5"]
    assert ids(lookup("painting 3")) == ["R-PAINT-3"]
    assert ids(lookup("exploration 3")) == ["R-EXPLORE-3"]
    assert ids(lookup("combat 12")) == ["R-COMBAT-12"]
    assert normalize_rule_id("r_combat_12") == "R-COMBAT-12"
    assert normalize_rule_id("build four") is None


def test_unknown_full_id_finds_nothing() -> None:
    assert lookup("R-BUILD-" + "99") == []
    assert lookup("") == []
    assert lookup("   ") == []


def test_section_and_family_names_list_their_entries() -> None:
    combat = lookup("combat")
    assert ids(combat) == [f"R-COMBAT-{n}" for n in range(1, 14)]
    assert ids(lookup("Missions and palaces"))[-1] == "R-PALACE-5"
    assert ids(lookup("palaces")) == [f"R-PALACE-{n}" for n in range(1, 6)]
    assert ids(lookup("solo mode")) == ["R-SOLO-1", "R-SOLO-2"]
    assert ids(lookup("vocabulary"))[0] == "R-VOC-1"
    assert len(lookup("actions")) == 31


def test_keyword_search_bombard_R_MOVE_6_R_COMBAT_2() -> None:
    found = ids(lookup("bombard", limit=10))
    assert found[0] == "R-MOVE-6"  # the title says it
    assert "R-COMBAT-2" in found
    assert "R-VOC-1" not in found


def test_keyword_search_ranks_and_limits() -> None:
    assert ids(lookup("reserve limit"))[0] == "R-VOC-4"
    assert ids(lookup("capital attacked"))[0] == "R-COMBAT-2"
    assert ids(lookup("how many cities"))[0] == "R-BUILD-10"
    assert ids(lookup("tie"))[:2] == ["R-COMBAT-4", "R-END-3"]
    assert len(lookup("the", limit=3)) == 0  # stop words alone match nothing
    assert len(lookup("hex", limit=3)) == 3
    assert lookup("xyzzy") == []


@pytest.mark.parametrize(
    ("query", "rule_id"),
    [
        ("sepe", "R-COMBAT-5"),
        ("Sepé Tiaraju", "R-COMBAT-5"),
        ("SEPE", "R-COMBAT-5"),
        ("camarao", "R-COMBAT-8"),
        ("Camarão", "R-COMBAT-8"),
        ("temiminos", "R-COMBAT-8"),
        ("tibirica", "R-MONARCH-1"),
        ("napoleon", "R-MONARCH-1"),
        ("obá", "R-MONARCH-1"),
    ],
)
def test_search_ignores_accents_and_case(query: str, rule_id: str) -> None:
    assert ids(lookup(query))[0] == rule_id


# --------------------------------------------------------------------------- formatting


def test_every_entry_formats_for_chat() -> None:
    for e in load_rulebook().entries:
        out = format_entry(e)
        assert len(out) <= CHAT_LIMIT
        tag = source_label(e.tag)
        assert out.startswith(f"**{e.id} — {e.title}** [{tag}]\n")
        # none needs cutting at the default width; its source marks in words
        marks = re.sub(
            r"\[((?:seed|faq|ruling|data)\b[^\]]*)\]",
            lambda m: f"[{source_label(m.group(1))}]",
            e.text,
        )
        assert out.endswith(marks) and "[seed" not in out
        plain = format_entry(e, markdown=False)
        assert plain.startswith(f"{e.id} — {e.title} [{tag}]\n") and "**" not in plain


@pytest.mark.parametrize(
    ("tag", "lang", "shown"),
    [
        ("seed", "en", "rulebook"),
        ("seed PL, faq", "en", "rulebook PL, FAQ"),
        ("ruling", "hu", "döntés"),
        ("seed, data", "pl", "instrukcja, dane elementów"),
        ("RULINGS.md", "de", "RULINGS.md"),
    ],
)
def test_the_source_tag_is_shown_in_the_readers_words(tag: str, lang: str, shown: str) -> None:
    assert source_label(tag, lang) == shown


def test_long_text_is_cut_at_a_sentence() -> None:
    e = load_rulebook().get("R-MONARCH-1")
    assert e is not None
    out = format_entry(e, 300)
    assert len(out) <= 300
    assert out.endswith("tiles produce. …")
    body = out.split("\n", 1)[1].removesuffix(" …")
    assert e.text.startswith(body)


def test_cut_without_a_sentence_end_falls_back_to_a_word() -> None:
    e = RuleEntry("R-X-1", "T", "word " * 100, "seed", "S")
    out = format_entry(e, 60)
    assert len(out) <= 60 and out.endswith("word …")
    with pytest.raises(ValueError):
        format_entry(e, 0)


@pytest.mark.parametrize("game", names())
def test_the_example_rule_id_is_one_of_the_games_own(game: str) -> None:
    """``/rules`` that finds nothing suggests an ID of the channel's game, not another's."""
    from service.games import adapter
    from service.rulebook import example_id, game_path, load_rulebook

    example = example_id(game)
    assert example.startswith(adapter(game).rules_prefix)
    assert load_rulebook(game_path(game)).get(example) is not None
