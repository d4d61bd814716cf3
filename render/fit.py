"""Text that fits its box (issue 32): one helper for every text drawn into a bounded box.

A text is measured with the font it is drawn in (its advance, or its ink where a glyph
overhangs the box's far side) and, in this order, drawn at its size; drawn a little smaller
(never under the box's ``least`` size); wrapped onto more lines between words (where the box
has them); and only then shortened by rule: whole words are kept and an ellipsis follows the
last one kept (never a word cut in two, never an ellipsis inside a word). A single word too
long for the box at ``least`` is drawn smaller still, whole.

While the tests record (:func:`render.words.recording`), every line drawn through here is kept
with the text it came from, its box and its font (:class:`render.words.Drawn`), so a test can
check that nothing overflows and nothing is cut mid-word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from render import words as T
from render.theme import Weight, font

ELLIPSIS = "…"
SHRINK = 0.8  # a one-line text may be drawn down to 80 % of its size before anything else
WRAP_FIRST = 0.9  # ... but where the box has more lines, it wraps below 90 %
FLOOR = 8  # px: a single over-long word is drawn down to this, whole
_TRAIL = " ,;:·-–—/("  # separators dropped before an ellipsis


@dataclass(frozen=True)
class Fitted:
    """A text laid out in its box: its ``lines``, their ``size`` (px) and whether words were
    left off (``shortened``: the last line ends with an ellipsis after a whole word)."""

    lines: tuple[str, ...]
    size: int
    shortened: bool = False


@lru_cache(maxsize=16384)
def extent(text: str, size: int, weight: Weight, h: str = "l") -> float:
    """The width (px) a box anchored on its ``h`` side (l, m, r) needs for ``text`` at
    ``size``: its advance, or its ink where a glyph overhangs the far side."""
    f = font(size, weight)
    adv = f.getlength(text)
    if not text:
        return 0.0
    x0, _, x1, _ = f.getbbox(text, anchor=h + "s")
    if h == "l":
        return max(adv, x1)
    if h == "r":
        return max(adv, -x0)
    return max(adv, 2 * max(-x0, x1))


def wrap(words: list[str], width: float, size: int, weight: Weight, h: str = "l") -> list[str]:
    """Words in lines of at most ``width`` px, broken between words (a word longer than a
    line stays whole, alone on its line)."""
    lines: list[str] = []
    cur = ""
    for w in words:
        t = f"{cur} {w}" if cur else w
        if not cur or extent(t, size, weight, h) <= width:
            cur = t
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


def _fits(lines: list[str], width: float, size: int, weight: Weight, h: str) -> bool:
    return all(extent(ln, size, weight, h) <= width for ln in lines)


def shorten(text: str, width: float, size: int, weight: Weight = "regular", h: str = "l") -> str:
    """``text`` as it fits ``width`` px at ``size``: whole, or its first whole words and an
    ellipsis ("" when not even its first word fits)."""
    if extent(text, size, weight, h) <= width:
        return text
    words = _words(text)
    kept = ""
    for w in words:
        t = f"{kept} {w}" if kept else w
        if extent(t.rstrip(_TRAIL) + ELLIPSIS, size, weight, h) > width:
            break
        kept = t
    return kept.rstrip(_TRAIL) + ELLIPSIS if kept else ""


def fit_text(
    text: str,
    width: float,
    size: int,
    weight: Weight = "regular",
    *,
    least: int | None = None,
    lines: int = 1,
    h: str = "l",
) -> Fitted:
    """``text`` laid out in a box ``width`` px wide with room for ``lines`` lines, at
    ``size`` px or smaller (down to ``least``, by default 80 % of ``size``)."""
    text = " ".join(_words(T.nfc(text)))
    least = max(1, min(size, round(size * SHRINK) if least is None else least))
    width = max(1.0, width)
    one_floor = least if lines <= 1 else max(least, round(size * WRAP_FIRST))
    for s in range(size, one_floor - 1, -1):
        if extent(text, s, weight, h) <= width:
            return Fitted((text,), s)
    words = _words(text)
    if lines > 1:
        for s in range(size, least - 1, -1):
            ls = wrap(words, width, s, weight, h)
            if len(ls) <= lines and _fits(ls, width, s, weight, h):
                return Fitted(tuple(ls), s)
    # shortened at ``least``: whole words, an ellipsis after the last one kept; a first word
    # too long even for that is drawn smaller, whole
    s = least
    while s > FLOOR and extent(words[0] if words else "", s, weight, h) > width:
        s -= 1
    if len(words) == 1:
        return Fitted((text,), s)
    ls = wrap(words, width, s, weight, h)
    if len(ls) <= lines and _fits(ls, width, s, weight, h):
        return Fitted(tuple(ls), s)
    head = ls[: max(0, lines - 1)]
    rest = " ".join(words[len(_words(" ".join(head))) :])
    last = shorten(rest, width, s, weight, h)
    if not last:  # not one word and the ellipsis: the previous lines end it
        if head:
            head[-1] = shorten(head[-1] + " " + rest, width, s, weight, h)
            return Fitted(tuple(head), s, True)
        return Fitted((words[0],), s, True)
    return Fitted((*head, last), s, True)


def fit_line(
    text: str, width: float, size: int, weight: Weight = "regular", least: int | None = None
) -> tuple[str, int]:
    """One line: ``text`` (perhaps shortened at a word boundary) and the size it is drawn at."""
    f = fit_text(text, width, size, weight, least=least, lines=1)
    return f.lines[0], f.size


def _words(text: str) -> list[str]:
    """The words of a text, split at ordinary white space only: a no-break space (French
    ``jouer\u00a0:``) binds, as its name says."""
    return [w for w in re.split(r"[ \t\r\n]+", text) if w]


def whole_words(source: str, shown: str) -> bool:
    """Whether ``shown`` (a line drawn from ``source``) holds only whole words of it: no word
    cut in two, an ellipsis only after a whole word."""
    src = " ".join(_words(T.nfc(source)))
    body = shown[: -len(ELLIPSIS)] if shown.endswith(ELLIPSIS) else shown
    if shown.endswith(ELLIPSIS) and src.endswith(shown):
        return True  # the source itself ends with an ellipsis
    body = body.strip()
    if not body:
        return not shown.endswith(ELLIPSIS)
    at = src.find(body)
    while at >= 0:
        end = at + len(body)
        before_ok = at == 0 or src[at - 1] == " "
        after_ok = end == len(src) or src[end] == " " or src[end] in _TRAIL
        if before_ok and after_ok:
            return True
        at = src.find(body, at + 1)
    return False
