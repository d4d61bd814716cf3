"""The words an image draws, in the language of its audience (issue 17).

Every text an image shows comes from here: ``render.*`` keys of the catalogue
(``i18n/locales/<lang>/render.toml``) and the game's terms (``term.<kind>.<id>``, ``good.<id>``).
English draws the component names of the catalog (``rules.brazil.catalog``: a data pack may rename
them), so English images stay as they were; another language draws its term, or the catalog's
name while the term is missing. Texts are NFC-normalised before they are drawn.

A debug hook (:func:`recording`) keeps every text drawn with where its ink landed and the box
it had to stay in: the pseudo-language tests use it to find unbracketed (hard-coded) English
and clipped text.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from i18n import DEFAULT, Translator, translator

Box = tuple[int, int, int, int]


def nfc(text: str) -> str:
    """Text as it is drawn: composed characters (``e`` + U+0301 becomes ``é``), one glyph each."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


class Words:
    """One language's texts for drawing: ``t("render.key", **params)``, ``t.term(kind, id,
    english)``, ``t.good(id)``, ``t.names([...])``."""

    def __init__(self, lang: str = DEFAULT) -> None:
        self.L: Translator = translator(lang)
        self.lang = self.L.lang
        self.english = self.lang == DEFAULT

    def __call__(self, key: str, /, **params: Any) -> str:
        return nfc(self.L(key, **params))

    def term(self, kind: str, id_: str, english: str) -> str:
        """A component's name: ``term.<kind>.<id>`` in this language; in English (or while
        the term is missing) the catalog's name ``english``."""
        key = f"term.{kind}.{id_}"
        if self.english or not self.L.has(key):
            return nfc(english)
        return nfc(self.L.term(key))

    def names(self, items: Sequence[str]) -> str:
        """``A and B`` (``A, B and C``) as the language writes a list of names."""
        return nfc(self.L.list(list(items))) if items else ""

    def colour(self, colour: str | None, *, short: bool = False) -> str:
        """A player colour's name (``Blue``) as headers draw it; ``short``: its short form
        for narrow boxes (the score sheet's columns)."""
        if colour is None:
            return "?"
        key = f"render.colour{'_short' if short else ''}.{colour}"
        return self(key) if self.L.has(key) else colour.capitalize()

    def initial(self, group: str, id_: str | None) -> str:
        """The initial this language marks a piece, seat or good with (issue 32):
        ``render.initial.<group>.<id>`` (``colour``, ``unit``, ``good``), the first letter(s)
        of its term; ``?`` for none."""
        if id_ is None:
            return "?"
        key = f"render.initial.{group}.{id_}"
        return self(key) if self.L.has(key) else id_[:1].upper()

    def colour_initial(self, colour: str | None) -> str:
        """A player colour's initial on its pieces and in its name ("Niebieski (N)")."""
        return self.initial("colour", colour)


@lru_cache(maxsize=16)
def words(lang: str = DEFAULT) -> Words:
    """The (cached) :class:`Words` of a language; an unknown code draws English."""
    return Words(lang)


def message(t: Words, value: Any) -> str:
    """A value an event carries, for drawing: a ``{"key", "params"}`` mapping (a message of
    the catalogue), a term reference ``@term.<kind>.<id>``, or a text (drawn as it is)."""
    if isinstance(value, Mapping) and isinstance(value.get("key"), str):
        return nfc(t.L(str(value["key"]), **dict(value.get("params") or {})))
    if isinstance(value, str) and value.startswith("@") and len(value) > 1:
        return nfc(t.L.term(value[1:]))
    return nfc(str(value))


# ---------------------------------------------------------------------------- debug hook


@dataclass
class Drawn:
    """One text drawn: ``ink`` its painted pixels' box on the page, ``limit`` the box it had
    to stay in (None: the page), ``page`` the page's final size."""

    text: str
    ink: Box | None
    limit: Box | None
    page: tuple[int, int]
    sheet: int = 0  # which page (texts on one page must not overlap)
    source: str | None = None  # drawn through render.fit: the whole text it is (part of)
    font: tuple[str, int] | None = None  # its weight and size (px), as drawn


_records: list[Drawn] | None = None
_sheets: dict[int, tuple[weakref.ref[Any], int]] = {}
_serial = itertools.count(1)


def sheet_of(page: Any) -> int:
    """A number for a page (an image or canvas) while it lives: two pages never share one,
    even when Python reuses an object id."""
    key = id(page)
    known = _sheets.get(key)
    if known is not None and known[0]() is page:
        return known[1]
    n = next(_serial)
    _sheets[key] = (weakref.ref(page), n)
    return n


def record(
    text: str,
    ink: Box | None,
    limit: Box | None,
    page: tuple[int, int],
    sheet: int = 0,
    source: str | None = None,
    font: tuple[str, int] | None = None,
) -> Drawn | None:
    """Keeps a drawn text while :func:`recording` (a no-op otherwise)."""
    if _records is None:
        return None
    d = Drawn(text, ink, limit, page, sheet, source, font)
    _records.append(d)
    return d


def recording_now() -> bool:
    return _records is not None


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Every text drawn inside the block, for tests (``with recording() as drawn: ...``)."""
    global _records
    old, _records = _records, []
    try:
        yield _records
    finally:
        _records = old


_WORD = re.compile(r"[^\W\d_]+")
_ROMAN = re.compile(r"^[IVX]+$")


_BRACKETED = re.compile(r"\[[^\[\]]*\]")
_ACCENTED = set("aeiouycnszAEIOUYCNSZ")  # the letters the pseudo-language accents


def english_words(text: str) -> list[str]:
    """The words of ``text`` that the pseudo-language would have changed, drawn unchanged:
    runs of two or more plain ASCII letters with a letter it accents (Roman numerals are
    numbers; one letter is a symbol: a hex column, a player's letter). Bracketed spans are
    catalogue texts; a wrapped line may hold only a text's start (``[...``) or end (``...]``),
    and a line of a wrapped text with neither keeps its accents."""
    while True:
        shorter = _BRACKETED.sub(" ", text)
        if shorter == text:
            break
        text = shorter
    if "]" in text:
        text = text[text.rindex("]") + 1 :]
    if "[" in text:
        text = text[: text.index("[")]
    return [
        w
        for w in _WORD.findall(text)
        if len(w) > 1 and w.isascii() and not _ROMAN.match(w) and _ACCENTED & set(w)
    ]
