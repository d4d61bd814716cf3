"""Hex → pixel geometry for drawing only (after Red Blob Games' "Hexagonal Grids").

Pointy-top hexes; the engine's labels (``D7``) are "odd-r" offset coordinates
(:mod:`rules.brazil.hexgrid`). A :class:`Layout` maps a label to its centre in pixels and gives the
corners of its polygon. The engine never needs pixels, so this lives in the renderer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from render.draw import hex_corners
from rules.brazil.hexgrid import Hex

SQRT3 = math.sqrt(3.0)
Point = tuple[float, float]


@dataclass(frozen=True)
class Layout:
    """``size``: centre-to-corner radius in px; ``origin``: pixel centre of hex A1."""

    size: float
    origin: Point

    @property
    def width(self) -> float:
        """Width of one hex (flat side to flat side)."""
        return SQRT3 * self.size

    @property
    def row_height(self) -> float:
        return 1.5 * self.size

    def centre(self, label: str) -> Point:
        col, row = Hex.parse(label).to_offset()
        return self.offset_centre(col, row)

    def offset_centre(self, col: int, row: int) -> Point:
        x = self.origin[0] + self.width * (col + 0.5 * (row & 1))
        y = self.origin[1] + self.row_height * row
        return (x, y)

    def corners(self, label: str, shrink: float = 0.0) -> list[Point]:
        """The six corners, clockwise from the top, ``shrink`` px inside the outline."""
        cx, cy = self.centre(label)
        return hex_corners(cx, cy, self.size - shrink)

    def pixel_to_label(self, x: float, y: float) -> str | None:
        """The label of the hex under a pixel (cube rounding); None off the labelled grid
        (above row 1 or left of column A)."""
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        q = SQRT3 / 3 * px - py / 3
        r = 2 / 3 * py
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        try:
            return Hex(rq, rr).label
        except ValueError:
            return None
