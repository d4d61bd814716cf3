"""Hex grid geometry: axial coordinates inside, human labels (``D7``) outside.

The maps are drawn with pointy-top hexes in rows. Data files and labels use *offset*
coordinates ("odd-r": every odd row, counting from 0, is shifted half a hex to the right);
the engine computes with *axial* coordinates ``(q, r)`` where ``s = -q - r``.

A label is the column letter (``A`` = first column) followed by the 1-based row number, so
``D7`` is column 3, row 6 (0-based). Pixel geometry lives in the renderer, not here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

_LABEL_RE = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")

# Axial direction vectors, clockwise from east.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Hex(NamedTuple):
    """An axial hex coordinate. Immutable and hashable."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def neighbours(self) -> list[Hex]:
        return [Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS]

    def distance(self, other: Hex) -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    # Offset (column, row) <-> axial, odd-r layout.
    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        return cls(col - (row - (row & 1)) // 2, row)

    def to_offset(self) -> tuple[int, int]:
        return self.q + (self.r - (self.r & 1)) // 2, self.r

    @classmethod
    def parse(cls, label: str) -> Hex:
        """Parse a human label such as ``D7`` (case-insensitive)."""
        m = _LABEL_RE.match(label)
        if not m:
            raise ValueError(
                f"'{label}' is not a hex label: use a column letter and a row number, like D7"
            )
        col = ord(m.group(1).upper()) - ord("A")
        row = int(m.group(2)) - 1
        if row < 0:
            raise ValueError(f"'{label}' is not a hex label: rows start at 1")
        return cls.from_offset(col, row)

    @property
    def label(self) -> str:
        col, row = self.to_offset()
        if not 0 <= col < 26 or row < 0:
            raise ValueError(f"hex {tuple(self)} has no label")
        return f"{chr(ord('A') + col)}{row + 1}"

    def __str__(self) -> str:
        return self.label


@lru_cache(maxsize=4096)
def normalise_label(label: str) -> str:
    """Return the canonical form of a label (``d07`` -> ``D7``); raises ValueError if malformed.
    (A pure function of the text: answers are remembered, errors are not.)"""
    return Hex.parse(label).label


def distance(a: str, b: str) -> int:
    """Distance in hex steps between two labels."""
    return Hex.parse(a).distance(Hex.parse(b))
