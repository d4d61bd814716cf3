"""A catalogue's problems against English: what the catalogue test and
``python -m i18n check`` report.

Every English key must exist in every language, not empty, not identical to English (unless
the key is listed in the language's ``[meta] same_as_english`` — names that stay as they
are), with no placeholder English lacks, only known terms, each plural field with the forms of every CLDR
plural category the language uses, and every text in Unicode NFC; the typed-command words clash with no other
(:func:`i18n.notation.problems`, for each game's words). The
keys of every engine are checked alike: Brazil's and *Tigris & Euphrates*' (``tigris.*``),
since both are in English's catalogue.
"""

from __future__ import annotations

import tomllib
import unicodedata

from i18n.catalogue import DEFAULT, Catalogue, catalogue, supported
from i18n.render import categories, placeholders, plural_forms, terms


def same_ok(cat: Catalogue) -> set[str]:
    keys: set[str] = set()
    for path in set(cat.sources.values()):
        with path.open("rb") as f:
            meta = tomllib.load(f).get("meta", {})
        keys |= set(meta.get("same_as_english", []))
    return keys


def problems(code: str, prefixes: tuple[str, ...] = ()) -> list[str]:
    """Everything wrong with one language's catalogue (empty when it is whole); with
    ``prefixes``, only about the keys that start with one of them."""
    en = catalogue(DEFAULT)
    cat = catalogue(code)
    out: list[str] = []
    same = same_ok(cat) if code != DEFAULT else set()
    cats = categories(code)
    for key, etext in sorted(en.messages.items()):
        if prefixes and not key.startswith(prefixes):
            continue
        text = cat.messages.get(key)
        if text is None:
            if code != DEFAULT:
                out.append(f"{code}: {key!r} is missing")
            continue
        if not text.strip():
            out.append(f"{code}: {key!r} is empty")
        if (
            code != DEFAULT
            and text == etext
            and key not in same
            and any(c.isalpha() for c in etext)
        ):
            out.append(
                f"{code}: {key!r} is the English text (translate it or list it in same_as_english)"
            )
        if extra := placeholders(text) - placeholders(etext):
            # a translation may leave out a parameter its grammar does not need (an English
            # plural form), never use one that English does not give
            out.append(f"{code}: {key!r} uses placeholders {sorted(extra)} that English lacks")
        if not terms(text) <= set(en.messages):
            out.append(
                f"{code}: {key!r} names unknown terms {sorted(terms(text) - set(en.messages))}"
            )
        for name, forms in plural_forms(text):
            if code == DEFAULT and not any("=" in f for f in forms):
                continue
            given = {f.partition("=")[0].strip() for f in forms if "=" in f}
            if not given:
                out.append(f"{code}: {key!r} plural {{{name}|…}} must name its categories (one=…)")
            elif missing := [c for c in cats if c not in given]:
                out.append(f"{code}: {key!r} plural {{{name}|…}} lacks {missing}")
        if unicodedata.normalize("NFC", text) != text:
            out.append(f"{code}: {key!r} is not NFC")
    from i18n.notation import GAMES
    from i18n.notation import problems as word_problems

    for game, wp in GAMES.items():  # each game's typed-command words (word.*, tigris.word.*)
        if not prefixes or any(wp.startswith(p) or p.startswith(wp) for p in prefixes):
            out += [f"{code}: {p}" for p in word_problems(code, game)]
    for key in sorted(set(cat.messages) - set(en.messages)):
        if prefixes and not key.startswith(prefixes):
            continue
        out.append(f"{code}: {key!r} is not an English key (left over?)")
    return out


def all_problems() -> list[str]:
    return [p for code in supported() for p in problems(code)]
