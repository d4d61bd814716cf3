"""Finding hard-coded English in what a reader is shown in the pseudo-language: every text
of a catalogue is in brackets there, so a word outside brackets came from code."""

from __future__ import annotations

import re
from collections.abc import Iterable

# spans that are not prose: typed commands in backticks, Discord mentions and timestamps,
# Roman numerals (palaces, eras),
# links, emoji names, hex labels (D3), versions (v12), custom emoji
_NOT_PROSE = re.compile(
    r"`[^`]*`|<[@#:/t][^<>]*>|https?://\S+|:[a-z_]+:|\b[A-Z]\d{1,2}\b|\bv\d+\b|\b[IVX]+\b|\*+|_+"
)
_WORD = re.compile(r"[^\W\d_]{3,}")


def outside_brackets(text: str) -> str:
    """The text with every bracketed part (nested ones too) removed."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def unbracketed_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` outside brackets that are neither a name (players, ids) nor
    a command, a mention, a link or a hex label: hard-coded English."""
    allowed = {w.lower() for n in names for w in _WORD.findall(n)}
    prose = outside_brackets(_NOT_PROSE.sub(" ", text))
    return [w for w in _WORD.findall(prose) if w.lower() not in allowed]
