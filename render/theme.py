"""Visual language shared by every image: options, palettes, fonts, small text helpers.

Players are told apart by colour (Okabe–Ito palette) *and* by a shape and a letter, so every
piece stays readable for colour-blind players. The font is Open Sans from the ``ttf-opensans``
package, never a system path: it has every letter of the six languages (ő ű ł ą ę ć ń ś ź ż
ã õ ç é è ê ä ö ü ß, checked by tests/render/test_languages.py). The letters on pieces,
pips and players are initials in the image's language (``render.initial.*`` of the
catalogues, issue 32); the legend says what they stand for. Text in a bounded box is fitted by :mod:`render.fit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import ttf_opensans  # type: ignore[import-untyped]
from PIL import ImageFont

RGB = tuple[int, int, int]
Format = Literal["png", "webp"]


@dataclass(frozen=True, kw_only=True)
class RenderOptions:
    """How to draw: ``high_contrast`` (a per-game option), ``scale`` (1.0 = the phone-tuned
    size) and the output ``format``."""

    high_contrast: bool = False
    scale: float = 1.0
    format: Format = "png"


DEFAULT = RenderOptions()

# Okabe–Ito: colour-blind safe. Game colour id -> fill and shape (the letter: its initial).
PLAYER_FILL: dict[str, RGB] = {
    "blue": (0, 114, 178),
    "orange": (230, 159, 0),
    "green": (0, 158, 115),
    "red": (213, 94, 0),
}
PLAYER_FILL_HC: dict[str, RGB] = {
    "blue": (0, 60, 200),
    "orange": (255, 170, 0),
    "green": (0, 120, 60),
    "red": (200, 0, 0),
}
Shape = Literal["circle", "square", "diamond", "hexagon", "triangle"]
PLAYER_SHAPE: dict[str, Shape] = {
    "blue": "circle",
    "orange": "diamond",
    "green": "square",
    "red": "hexagon",
}
NEUTRAL: RGB = (120, 120, 120)
HIGHLIGHT: RGB = (255, 0, 200)  # magenta: no player colour, stands out on every terrain
INK: RGB = (20, 20, 20)
PAPER: RGB = (250, 248, 240)
WHITE: RGB = (255, 255, 255)
MUTED: RGB = (95, 95, 95)

ROMAN = ("", "I", "II", "III", "IV", "V", "VI")


def player_fill(colour: str | None, opts: RenderOptions) -> RGB:
    table = PLAYER_FILL_HC if opts.high_contrast else PLAYER_FILL
    return table.get(colour or "", NEUTRAL)


def player_shape(colour: str | None) -> Shape:
    return PLAYER_SHAPE.get(colour or "", "triangle")


def text_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


Weight = Literal["regular", "semibold", "bold", "extrabold"]
_WEIGHTS = {
    "regular": ttf_opensans.OPENSANS_REGULAR,
    "semibold": ttf_opensans.OPENSANS_SEMIBOLD,
    "bold": ttf_opensans.OPENSANS_BOLD,
    "extrabold": ttf_opensans.OPENSANS_EXTRABOLD,
}


@lru_cache(maxsize=128)
def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """Open Sans at ``size`` px (shipped by the ``ttf-opensans`` package)."""
    return ImageFont.truetype(str(_WEIGHTS[weight].path), size=max(6, size))
