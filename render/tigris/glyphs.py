"""Vector glyphs of Tigris & Euphrates, drawn at 4× and cached as RGBA sprites: the four tile
icons, the four dynasty symbols, leaders, catastrophes, treasures, the unification tile and
the monuments. Nothing here knows a state: sizes in pixels in, sprites out."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import draw as D
from render.theme import INK, RGB, WHITE
from render.tigris.style import (
    CATASTROPHE,
    DOWN_FILL,
    ICON,
    TILE_EDGE,
    TREASURE,
    TREASURE_EDGE,
    UNIFY,
    tile_fill,
)

Draw = ImageDraw.ImageDraw
A = 255


def _c(rgb: RGB) -> tuple[int, int, int, int]:
    return (*rgb, A)


# ------------------------------------------------------------------------------ tile icons


def icon(
    d: Draw, colour: int, cx: float, cy: float, s: float, fill: RGB = ICON, hole: RGB | None = None
) -> None:
    """The icon of a tile colour in a box of half-size ``s``: 0 a house (settlement), 1 a
    stepped temple, 2 a sheaf over furrows (farm), 3 a market awning over a counter."""
    f = _c(fill)
    h = _c(hole) if hole is not None else (0, 0, 0, 0)
    if colour == 0:  # house: a roof and a body with a door
        d.polygon(
            [(cx - s * 0.85, cy - s * 0.05), (cx, cy - s * 0.85), (cx + s * 0.85, cy - s * 0.05)],
            fill=f,
        )
        d.rectangle((cx - s * 0.6, cy - s * 0.1, cx + s * 0.6, cy + s * 0.75), fill=f)
        d.rectangle((cx - s * 0.16, cy + s * 0.25, cx + s * 0.16, cy + s * 0.75), fill=h)
    elif colour == 1:  # ziggurat: three steps and a shrine
        for w, y0, y1 in ((0.9, 0.4, 0.8), (0.62, 0.0, 0.4), (0.36, -0.38, 0.0)):
            d.rectangle((cx - s * w, cy + s * y0, cx + s * w, cy + s * y1), fill=f)
        d.rectangle((cx - s * 0.14, cy - s * 0.82, cx + s * 0.14, cy - s * 0.38), fill=f)
    elif colour == 2:  # sheaf over furrows
        lw = max(1, round(s * 0.14))
        for dy in (0.45, 0.78):
            y = cy + s * dy
            pts = [
                (cx - s * 0.85 + s * 1.7 * i / 12, y + s * 0.09 * math.sin(i * math.pi / 3))
                for i in range(13)
            ]
            d.line(pts, fill=f, width=lw)
        d.line((cx, cy + s * 0.25, cx, cy - s * 0.75), fill=f, width=lw)
        for sgn in (-1, 1):
            d.line((cx, cy + s * 0.2, cx + sgn * s * 0.45, cy - s * 0.55), fill=f, width=lw)
        for k in (-0.6, -0.25):  # grains
            for sgn in (-1, 1):
                x, y = cx + sgn * s * 0.17, cy + s * k
                d.ellipse((x - s * 0.14, y - s * 0.2, x + s * 0.14, y + s * 0.2), fill=f)
        d.ellipse((cx - s * 0.13, cy - s * 0.95, cx + s * 0.13, cy - s * 0.55), fill=f)
    else:  # market: a scalloped awning, posts and a counter
        d.polygon(
            [
                (cx - s * 0.9, cy - s * 0.2),
                (cx - s * 0.65, cy - s * 0.8),
                (cx + s * 0.65, cy - s * 0.8),
                (cx + s * 0.9, cy - s * 0.2),
            ],
            fill=f,
        )
        r = s * 0.9 / 4
        for i in range(4):
            x = cx - s * 0.9 + r + 2 * r * i
            d.pieslice((x - r, cy - s * 0.2 - r, x + r, cy - s * 0.2 + r), 0, 180, fill=f)
        lw = max(1, round(s * 0.14))
        d.line((cx - s * 0.7, cy, cx - s * 0.7, cy + s * 0.8), fill=f, width=lw)
        d.line((cx + s * 0.7, cy, cx + s * 0.7, cy + s * 0.8), fill=f, width=lw)
        d.rectangle((cx - s * 0.85, cy + s * 0.35, cx + s * 0.85, cy + s * 0.58), fill=f)


# ------------------------------------------------------------------------ dynasty symbols


def symbol(
    d: Draw,
    dynasty: str,
    cx: float,
    cy: float,
    s: float,
    fill: RGB = WHITE,
    hole: RGB | None = None,
) -> None:
    """A dynasty's symbol in a box of half-size ``s``: bow (a drawn bow and arrow), bull (a
    head with horns), pot (an urn), lion (a maned head)."""
    f = _c(fill)
    lw = max(1, round(s * 0.16))
    if dynasty == "bow":
        d.arc(
            (cx - s * 1.5, cy - s * 0.95, cx + s * 0.45, cy + s * 0.95), -70, 70, fill=f, width=lw
        )
        top = (cx - s * 0.5 + s * 0.98 * math.cos(math.radians(-70)) * 1.0, cy - s * 0.9)
        bot = (top[0], cy + s * 0.9)
        d.line((top, bot), fill=f, width=max(1, lw // 2))
        d.line((cx - s * 0.85, cy, cx + s * 0.55, cy), fill=f, width=max(1, round(lw * 0.7)))
        d.polygon(
            [(cx + s * 0.95, cy), (cx + s * 0.45, cy - s * 0.28), (cx + s * 0.45, cy + s * 0.28)],
            fill=f,
        )
        d.polygon(
            [
                (cx - s * 0.95, cy - s * 0.25),
                (cx - s * 0.65, cy),
                (cx - s * 0.95, cy + s * 0.25),
                (cx - s * 0.75, cy),
            ],
            fill=f,
        )
    elif dynasty == "bull":
        d.ellipse((cx - s * 0.5, cy - s * 0.45, cx + s * 0.5, cy + s * 0.55), fill=f)
        d.ellipse((cx - s * 0.38, cy + s * 0.2, cx + s * 0.38, cy + s * 0.85), fill=f)
        for sgn in (-1, 1):  # horns: thick arcs curving up
            box = (
                cx + sgn * s * 0.5 - s * 0.5,
                cy - s * 1.0,
                cx + sgn * s * 0.5 + s * 0.5,
                cy - s * 0.05,
            )
            a0, a1 = (180, 300) if sgn < 0 else (240, 360)
            d.arc(box, a0, a1, fill=f, width=round(s * 0.22))
            d.ellipse(
                (
                    cx + sgn * s * 0.62 - s * 0.18,
                    cy - s * 0.32,
                    cx + sgn * s * 0.62 + s * 0.18,
                    cy - s * 0.08,
                ),
                fill=f,
            )
    elif dynasty == "pot":
        d.ellipse((cx - s * 0.72, cy - s * 0.35, cx + s * 0.72, cy + s * 0.95), fill=f)
        d.rectangle((cx - s * 0.3, cy - s * 0.75, cx + s * 0.3, cy - s * 0.1), fill=f)
        d.rectangle((cx - s * 0.5, cy - s * 0.95, cx + s * 0.5, cy - s * 0.72), fill=f)
        for sgn in (-1, 1):
            d.arc(
                (
                    cx + sgn * s * 0.55 - s * 0.3,
                    cy - s * 0.7,
                    cx + sgn * s * 0.55 + s * 0.3,
                    cy - s * 0.05,
                ),
                (90 if sgn < 0 else -90) - 90,
                (90 if sgn < 0 else -90) + 90,
                fill=f,
                width=max(1, round(s * 0.12)),
            )
    else:  # lion: a mane of rays around a face
        n = 12
        pts = []
        for i in range(2 * n):
            r = s * (0.98 if i % 2 == 0 else 0.7)
            a = math.pi * i / n
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        d.polygon(pts, fill=f)
        hole_ = _c(hole) if hole is not None else (0, 0, 0, 0)
        d.ellipse((cx - s * 0.5, cy - s * 0.5, cx + s * 0.5, cy + s * 0.5), fill=hole_)
        d.ellipse((cx - s * 0.38, cy - s * 0.38, cx + s * 0.38, cy + s * 0.42), fill=f)
        for sgn in (-1, 1):  # eyes
            d.ellipse(
                (cx + sgn * s * 0.16 - s * 0.07, cy - s * 0.14, cx + sgn * s * 0.16 + s * 0.07, cy),
                fill=hole_,
            )
        d.polygon(
            [(cx - s * 0.1, cy + s * 0.1), (cx + s * 0.1, cy + s * 0.1), (cx, cy + s * 0.22)],
            fill=hole_,
        )


# -------------------------------------------------------------------------------- sprites


@lru_cache(maxsize=64)
def tile_sprite(colour: int, size: int, high_contrast: bool = False) -> Image.Image:
    """A face-up tile: a rounded square of its colour with its icon, ``size`` px wide."""

    def paint(d: Draw, k: int) -> None:
        w = size * k
        m = 0.04 * w
        d.rounded_rectangle(
            (m, m, w - m, w - m),
            radius=w * 0.14,
            fill=_c(tile_fill(colour, high_contrast)),
            outline=_c(TILE_EDGE[colour] if colour else (120, 120, 120)),
            width=max(1, round(w * 0.04)),
        )
        icon(d, colour, w / 2, w / 2, w * 0.3, hole=tile_fill(colour, high_contrast))

    return D.supersampled(size, size, paint)


@lru_cache(maxsize=64)
def down_sprite(size: int) -> Image.Image:
    """A face-down tile (under a monument)."""

    def paint(d: Draw, k: int) -> None:
        w = size * k
        m = 0.04 * w
        d.rounded_rectangle(
            (m, m, w - m, w - m),
            radius=w * 0.14,
            fill=_c(DOWN_FILL),
            outline=_c((90, 75, 55)),
            width=max(1, round(w * 0.04)),
        )
        step = w / 6
        for i in range(1, 6):  # hatching
            d.line(
                (m + i * step, m, m, m + i * step),
                fill=(120, 100, 75, A),
                width=max(1, round(w * 0.02)),
            )
            d.line(
                (w - m, w - m - i * step + step * 0, w - m - i * step, w - m),
                fill=(120, 100, 75, A),
                width=max(1, round(w * 0.02)),
            )

    return D.supersampled(size, size, paint)


@lru_cache(maxsize=64)
def leader_sprite(colour: int, dynasty: str, size: int, high_contrast: bool = False) -> Image.Image:
    """A leader: a disc of its colour, white-ringed, with its dynasty's symbol."""
    pad = 2

    def paint(d: Draw, k: int) -> None:
        w = (size + 2 * pad) * k
        c = w / 2
        r = size * k / 2
        d.ellipse((c - r, c - r, c + r, c + r), fill=_c(INK))
        r2 = r * 0.9
        d.ellipse((c - r2, c - r2, c + r2, c + r2), fill=_c(WHITE))
        r3 = r * 0.8
        d.ellipse((c - r3, c - r3, c + r3, c + r3), fill=_c(tile_fill(colour, high_contrast)))
        symbol(d, dynasty, c, c, r * 0.55, hole=tile_fill(colour, high_contrast))

    return D.supersampled(size + 2 * pad, size + 2 * pad, paint)


@lru_cache(maxsize=32)
def symbol_sprite(dynasty: str, size: int, fill: RGB = INK, disc: RGB | None = None) -> Image.Image:
    """A dynasty's symbol alone (headers, panels), optionally on a disc."""

    def paint(d: Draw, k: int) -> None:
        w = size * k
        if disc is not None:
            d.ellipse(
                (1, 1, w - 2, w - 2), fill=_c(disc), outline=_c(INK), width=max(1, round(w * 0.05))
            )
            symbol(d, dynasty, w / 2, w / 2, w * 0.3, fill, disc)
        else:
            symbol(d, dynasty, w / 2, w / 2, w * 0.46, fill)

    return D.supersampled(size, size, paint)


@lru_cache(maxsize=16)
def catastrophe_sprite(size: int) -> Image.Image:
    """A catastrophe: a dark square with a jagged white crack and a cross."""

    def paint(d: Draw, k: int) -> None:
        w = size * k
        m = 0.04 * w
        d.rounded_rectangle(
            (m, m, w - m, w - m),
            radius=w * 0.08,
            fill=_c(CATASTROPHE),
            outline=_c(INK),
            width=max(1, round(w * 0.05)),
        )
        lw = round(w * 0.09)
        d.line((w * 0.22, w * 0.22, w * 0.78, w * 0.78), fill=_c(WHITE), width=lw)
        d.line((w * 0.78, w * 0.22, w * 0.22, w * 0.78), fill=_c(WHITE), width=lw)
        d.line(
            [
                (w * 0.5, w * 0.08),
                (w * 0.42, w * 0.3),
                (w * 0.56, w * 0.42),
                (w * 0.44, w * 0.6),
                (w * 0.58, w * 0.75),
                (w * 0.5, w * 0.92),
            ],
            fill=_c((255, 140, 40)),
            width=max(1, round(w * 0.05)),
        )

    return D.supersampled(size, size, paint)


@lru_cache(maxsize=16)
def treasure_sprite(size: int, corner: bool = False) -> Image.Image:
    """A treasure: a gold cube seen from a corner; a corner treasure has a star on it."""

    def paint(d: Draw, k: int) -> None:
        w = size * k
        c = w / 2
        r = w * 0.46
        top = [(c, c - r), (c + r * 0.87, c - r * 0.5), (c, c), (c - r * 0.87, c - r * 0.5)]
        left = [(c - r * 0.87, c - r * 0.5), (c, c), (c, c + r), (c - r * 0.87, c + r * 0.5)]
        right = [(c + r * 0.87, c - r * 0.5), (c, c), (c, c + r), (c + r * 0.87, c + r * 0.5)]
        ow = max(1, round(w * 0.05))
        d.polygon(left, fill=_c((220, 165, 10)), outline=_c(TREASURE_EDGE), width=ow)
        d.polygon(right, fill=_c((190, 135, 0)), outline=_c(TREASURE_EDGE), width=ow)
        d.polygon(top, fill=_c(TREASURE), outline=_c(TREASURE_EDGE), width=ow)
        if corner:
            pts = []
            for i in range(10):
                rr = r * (0.62 if i % 2 == 0 else 0.26)
                a = -math.pi / 2 + math.pi * i / 5
                pts.append((c + rr * math.cos(a), c + r * 0.08 + rr * math.sin(a)))
            d.polygon(pts, fill=_c(WHITE), outline=_c(INK), width=max(1, ow))

    return D.supersampled(size, size, paint)


@lru_cache(maxsize=16)
def unification_sprite(size: int) -> Image.Image:
    """The unification tile: a cream square with two linked rings."""

    def paint(d: Draw, k: int) -> None:
        w = size * k
        m = 0.1 * w
        d.rounded_rectangle(
            (m, m, w - m, w - m),
            radius=w * 0.1,
            fill=_c(UNIFY),
            outline=_c(INK),
            width=max(1, round(w * 0.05)),
        )
        r = w * 0.2
        lw = max(1, round(w * 0.07))
        for dx, col in ((-0.13, (200, 120, 0)), (0.13, (110, 40, 140))):
            x = w / 2 + dx * w
            d.ellipse((x - r, w / 2 - r, x + r, w / 2 + r), outline=_c(col), width=lw)

    return D.supersampled(size, size, paint)


@lru_cache(maxsize=32)
def monument_sprite(a: int, b: int, size: int, high_contrast: bool = False) -> Image.Image:
    """A monument over 2 × 2 squares, ``size`` px wide: a stepped tower, its base in colour
    ``a`` and its top in colour ``b``, each half with its colour's icon."""

    def paint(d: Draw, k: int) -> None:
        w = size * k
        ca, cb = tile_fill(a, high_contrast), tile_fill(b, high_contrast)
        ow = max(1, round(w * 0.012))
        base = (w * 0.14, w * 0.5, w * 0.86, w * 0.86)
        mid = (w * 0.24, w * 0.3, w * 0.76, w * 0.52)
        top = (w * 0.34, w * 0.12, w * 0.66, w * 0.32)
        d.rounded_rectangle(base, radius=w * 0.03, fill=_c(ca), outline=_c(INK), width=ow)
        d.rounded_rectangle(mid, radius=w * 0.03, fill=_c(cb), outline=_c(INK), width=ow)
        d.rounded_rectangle(top, radius=w * 0.03, fill=_c(cb), outline=_c(INK), width=ow)
        # the stair up the middle of the base, as on the physical monuments
        for i in range(4):
            yy = w * (0.62 + 0.06 * i)
            d.line((w * 0.45, yy, w * 0.55, yy), fill=_c(INK), width=max(1, round(w * 0.01)))
        icon(d, a, w * 0.28, w * 0.68, w * 0.1, hole=ca)
        icon(d, a, w * 0.72, w * 0.68, w * 0.1, hole=ca)
        icon(d, b, w * 0.5, w * 0.41, w * 0.08, hole=cb)

    return D.supersampled(size, size, paint)
