"""The small hand-written grammar that templates cannot choose alone, applied to every rendered
text of a language (:func:`polish_text`):

- French: elision where a name, a number or a term is inserted after *de*, *le*, *la*, *que*,
  *ne*, *je*, *se* (``la ville de Olinda`` -> ``la ville d’Olinda``, ``Main de Ana`` ->
  ``Main d’Ana``); *de le*/*de les*/*à le*/*à les* contracted (``du``, ``des``, ``au``,
  ``aux``); one apostrophe (’); and the French spacing: a no-break space before ``:`` and
  inside « », a narrow no-break space before ``; ? !``.
- Hungarian: the definite article chosen by the next sound (``a`` before a consonant, ``az``
  before a vowel: ``az Olinda``, ``a Bo``), numbers and hex labels read aloud (``az 1``,
  ``a 2``, ``az 5``, ``az F4``, ``a B1``); ``a(z)`` resolved the same way.

Text between backticks (typed commands) and links are left as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable

NBSP = "\u00a0"
NNBSP = "\u202f"

_PROTECTED = re.compile(r"`[^`]*`|<[^>]*>|https?://\S+")

# ---------------------------------------------------------------- French

_FR_VOWEL = "aeiouyàâäéèêëîïôöûùüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÙÜŒÆ"
# words starting with a vowel sound that still take no elision (h aspiré is not a vowel here)
_FR_NO_ELISION = {"onze", "onzième", "oui", "yacht", "ouistiti"}
_FR_CONTRACT = (
    (re.compile(r"\b([Dd])e le (?=[^\W\d" + _FR_VOWEL + r"])"), r"\1u "),
    (re.compile(r"\b([Dd])e les\b"), r"\1es"),
    (re.compile(r"\b([Àà]) le (?=[^\W\d" + _FR_VOWEL + r"])"), "au "),
    (re.compile(r"\b([Àà]) les\b"), "aux"),
)
_FR_BEFORE = re.compile(r"(?:(?<=\S)|^)[ \u00a0\u202f]?([;?!])(?=\s|$|[)»*_\]])")
_FR_COLON = re.compile(r"(?:(?<=[^\s:])|^)[ \u00a0\u202f]?:(?=\s|$)")
_FR_GUILL_OPEN = re.compile(r"«[ \u00a0\u202f]?")
_FR_GUILL_CLOSE = re.compile(r"[ \u00a0\u202f]?»")


def _french(text: str) -> str:
    text = text.replace("'", "’")
    for pattern, repl in _FR_CONTRACT:
        text = pattern.sub(repl, text)
    text = _FR_BEFORE.sub(NNBSP + r"\1", text)
    text = _FR_COLON.sub(NBSP + ":", text)
    text = _FR_GUILL_OPEN.sub("«" + NBSP, text)
    text = _FR_GUILL_CLOSE.sub(NBSP + "»", text)
    return text


_FR_TAIL = re.compile(r"(?:^|(?<=[\s(«\u00a0]))([DdLlJjNnSs]e|[Ll]a|[Qq]ue) $")


def _french_join(literal: str, value: str) -> str:
    m = _FR_TAIL.search(literal)
    if m is None or not value or value[0] not in _FR_VOWEL:
        return literal
    if re.match(r"[\w-]+", value) and re.match(r"[\w-]+", value).group(0).lower() in _FR_NO_ELISION:  # type: ignore[union-attr]
        return literal
    return literal[: m.start()] + m.group(1)[:-1] + "’"


# ---------------------------------------------------------------- Hungarian

_HU_VOWELS = set("aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰ")
# letters whose Hungarian names start with a vowel: a, e, ef, el, em, en, er, es, iksz, ipszilon…
_HU_VOWEL_LETTERS = set("AEIOUFLMNRSXYÁÉÍÓÖŐÚÜŰ")


def hu_number_takes_az(n: int) -> bool:
    """Whether a number read aloud starts with a vowel: egy (1), öt (5), ötven, ötszáz, ezer…"""
    if n >= 1_000_000:
        return hu_number_takes_az(n // 1_000_000)
    if n >= 1000:
        g = n // 1000
        return True if g == 1 else hu_number_takes_az(g)
    if n >= 100:
        return n // 100 == 5
    if n >= 10:
        return n // 10 == 5
    return n in (1, 5)


def _roman(text: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for a, b in zip(text, text[1:] + " ", strict=True):
        v = values[a]
        total += -v if b != " " and values[b] > v else v
    return total


def hu_takes_az(word: str) -> bool | None:
    """Whether ``word`` takes *az* (True), *a* (False), or None when it cannot be told (it
    starts with punctuation)."""
    w = word.lstrip("*_„\"'(«[")
    if not w:
        return None
    digits = re.match(r"\d[\d \u00a0\u202f.]*", w)
    if digits:
        return hu_number_takes_az(int(re.sub(r"\D", "", digits.group(0))))
    roman = re.fullmatch(r"([IVXLCDM]+)\.?[,;:]?", w)
    if roman and len(roman.group(1)) <= 6:
        return hu_number_takes_az(_roman(roman.group(1)))  # II. = második: a
    first = w[0]
    if not first.isalpha():
        return None
    # a label (hex B1, a code): read letter by letter
    if re.match(r"[A-Z]\d", w) or (len(w) > 1 and w[:2].isupper() and w.isalnum()):
        return first in _HU_VOWEL_LETTERS
    return first in _HU_VOWELS


def _hu_resolve(m: re.Match[str]) -> str:
    a, nxt = m.group(1), m.group(2)
    az = hu_takes_az(nxt)
    return m.group(0) if az is None else a + ("z " if az else " ")


_HU_AZ = re.compile(r"(?<![\w-])([Aa])\(z\) (?=(\S+))")
_HU_TAIL = re.compile(r"(?:^|(?<=[\s(„\u00a0]))([Aa])(z)? $")


def _hungarian(text: str) -> str:
    return _HU_AZ.sub(_hu_resolve, text)


def _hungarian_join(literal: str, value: str) -> str:
    m = _HU_TAIL.search(literal)
    if m is None:
        return literal
    az = hu_takes_az(value)
    if az is None:
        return literal
    return literal[: m.start()] + m.group(1) + ("z " if az else " ")


# ---------------------------------------------------------------- all

_RULES: dict[str, Callable[[str], str]] = {"fr": _french, "hu": _hungarian}
_JOINS: dict[str, Callable[[str, str], str]] = {"fr": _french_join, "hu": _hungarian_join}


def _apply(rule: Callable[[str], str], text: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _PROTECTED.finditer(text):
        out.append(rule(text[pos : m.start()]) if m.start() > pos else "")
        out.append(m.group(0))
        pos = m.end()
    out.append(rule(text[pos:]))
    return "".join(out)


def polish_text(babel: str, text: str) -> str:
    """``text`` with the language's grammar and typography rules applied (see the module)."""
    rule = _RULES.get(babel.split("_")[0])
    if rule is None or not text:
        return text
    return _apply(rule, text)


def join(babel: str, literal: str, value: str) -> str:
    """The literal text before an inserted ``value`` (a name, a number, a term), its last word
    chosen by the value's first sound: French elision (``de`` -> ``d’`` before ``Ana``),
    the Hungarian article (``a``/``az``)."""
    rule = _JOINS.get(babel.split("_")[0])
    if rule is None or not literal or not value:
        return literal
    return rule(literal, value)


__all__ = ["NBSP", "NNBSP", "hu_number_takes_az", "hu_takes_az", "join", "polish_text"]
