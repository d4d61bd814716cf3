"""The pseudo-language, generated from English: every template accented, 35 % longer and in
brackets — ``Ana gains 2 coffee.`` reads ``[Áñá gáíñš {goods:goods}.~~~~~~]``. A whole game
shown in it leaves any hard-coded English visible as text outside brackets, and its images
show whether longer texts fit."""

from __future__ import annotations

import math
import re

OPEN, CLOSE, PAD = "[", "]", "~"
GROWTH = 0.35

_ACCENTS = str.maketrans(
    "aeiouycnszAEIOUYCNSZ",
    "áéíóúýçñšžÁÉÍÓÚÝÇÑŠŽ",
)
# Spans left as they are: placeholders, code (typed commands), mentions, links, emoji names.
_KEEP = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>]*>|https?://\S+|:[a-z_]+:")


def accent(text: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _KEEP.finditer(text):
        out.append(text[pos : m.start()].translate(_ACCENTS))
        out.append(m.group(0))
        pos = m.end()
    out.append(text[pos:].translate(_ACCENTS))
    return "".join(out)


def pseudo_text(template: str) -> str:
    """One English template in the pseudo-language (placeholders kept)."""
    if not template:
        return template
    visible = len(_KEEP.sub("", template))
    pad = PAD * max(1, math.ceil(visible * GROWTH))
    return f"{OPEN}{accent(template)}{pad}{CLOSE}"


def pseudo_messages(en: dict[str, str]) -> dict[str, str]:
    """English's templates in the pseudo-language."""
    return {k: pseudo_text(v) for k, v in en.items()}
