"""One thing, one name, in every language (issue #32): wherever the English catalogue names a
thing with the same words — an action in the "Take my turn" menu, in the events, on the board
and in the rules' terms, a decision in the status message, on the web page and in the
terminal — each language names it the same way too (compared without case). Where a
language's grammar needs two forms of one English name, the English name is listed in the
language's ``[meta] one_name_exempt`` with the reason in a comment; the list stays short."""

from __future__ import annotations

import tomllib
from collections import defaultdict

import pytest

import i18n
from devtools.textscan import glossary, key_game, published_terms

OTHERS = [c for c in i18n.supported() if c != "en"]
MAX_EXEMPT = 8


def names() -> dict[str, list[str]]:
    """English name -> the keys that say it (short names without placeholders; the typed
    words, Discord's command names and the images' one-letter initials aside), each game's
    keys apart: two games may name two things alike in English (a Tigris square is not a
    painting's square frame)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for k, v in i18n.catalogue("en").messages.items():
        if "{" in v or len(v.split()) > 4 or k.startswith("cmd.") or ".word." in "." + k:
            continue
        if ".initial." in k:
            continue
        game = key_game(k)
        groups[f"{game}:{v.strip().lower()}" if game else v.strip().lower()].append(k)
    return {v: ks for v, ks in groups.items() if len(ks) > 1}


def exempt(lang: str) -> set[str]:
    out: set[str] = set()
    cat = i18n.catalogue(lang)
    for path in set(cat.sources.values()):
        with path.open("rb") as f:
            out |= {x.lower() for x in tomllib.load(f).get("meta", {}).get("one_name_exempt", [])}
    return out


@pytest.mark.parametrize("lang", OTHERS)
def test_one_thing_has_one_name(lang: str) -> None:
    cat = i18n.catalogue(lang).messages
    skip = exempt(lang)
    assert len(skip) <= MAX_EXEMPT, sorted(skip)
    differ = {
        english: {k: cat.get(k) for k in keys}
        for english, keys in names().items()
        if english not in skip and len({cat.get(k, "").strip().lower() for k in keys}) > 1
    }
    assert not differ, "\n".join(f"{e!r}: {ks}" for e, ks in differ.items())


@pytest.mark.parametrize("lang", [c for c in OTHERS if glossary(c)])
def test_the_catalogues_use_the_rulebooks_words(lang: str) -> None:
    """Of the catalogue's texts that name a thing the language's rulebook names, at least 95 %
    use the rulebook's word (devtools.textscan.published_terms)."""
    using, naming, missing = published_terms(lang)
    assert naming > 100
    assert using / naming >= 0.95, missing[: naming - using]
