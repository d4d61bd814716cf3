"""Anti-aliased drawing helpers: shapes are drawn at 4× on a small canvas, downscaled once and
cached as RGBA sprites, then composited (Pillow's own polygons have jagged edges)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from render import words as T
from render.theme import INK, RGB, WHITE, Shape, Weight, font, text_on

SS = 4  # supersampling factor of sprites
Pt = tuple[float, float]


def hex_corners(cx: float, cy: float, r: float) -> list[Pt]:
    """A pointy-top hexagon's six corners around (``cx``, ``cy``), ``r`` from the centre."""
    return [
        (cx + r * math.cos(math.radians(60 * i - 90)), cy + r * math.sin(math.radians(60 * i - 90)))
        for i in range(6)
    ]


def shape_points(shape: Shape, cx: float, cy: float, r: float) -> list[Pt]:
    if shape == "square":
        k = r * 0.86
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if shape == "diamond":
        k = r * 1.08
        return [(cx, cy - k), (cx + k, cy), (cx, cy + k), (cx - k, cy)]
    if shape == "hexagon":
        return [
            (cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i)))
            for i in range(6)
        ]
    if shape == "triangle":
        return [(cx, cy - r), (cx + r * 0.95, cy + r * 0.7), (cx - r * 0.95, cy + r * 0.7)]
    # circle as a 32-gon (drawn with ellipse below)
    return []


def draw_shape(
    d: ImageDraw.ImageDraw,
    shape: Shape,
    cx: float,
    cy: float,
    r: float,
    fill: RGB,
    outline: RGB,
    width: int,
) -> None:
    if shape == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    else:
        d.polygon(shape_points(shape, cx, cy, r), fill=fill, outline=outline, width=width)


def centred_text(
    d: ImageDraw.ImageDraw,
    xy: Pt,
    text: str,
    size: int,
    fill: RGB,
    weight: Weight = "bold",
    stroke: RGB | None = None,
    stroke_width: int = 0,
) -> None:
    d.text(
        xy,
        text,
        font=font(size, weight),
        fill=fill,
        anchor="mm",
        stroke_width=stroke_width,
        stroke_fill=stroke,
    )


def supersampled(w: int, h: int, paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """An RGBA sprite of ``w``×``h`` px painted at 4× by ``paint(draw, factor)``."""
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SS)
    return big.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def piece_sprite(
    shape: Shape, fill: RGB, text: str, size: int, ring: RGB | None = None
) -> Image.Image:
    """A unit piece: the owner's shape in the owner's colour with a short glyph."""
    pad = 3
    w = size + 2 * pad

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        c = w * k / 2
        r = size * k / 2
        draw_shape(d, shape, c, c, r, fill, ring or INK, max(2, int(1.6 * k)))
        n = len(text)
        ts = int(size * k * (0.62 if n <= 1 else 0.5 if n == 2 else 0.4))
        centred_text(
            d,
            (c, c + (r * 0.08 if shape == "triangle" else 0) + r * 0.05 * (shape == "triangle")),
            text,
            ts,
            text_on(fill),
            "extrabold",
        )

    return supersampled(w, w, paint)


@lru_cache(maxsize=64)
def hex_sprite(
    r: int, fill: RGB | None, outline: RGB | None, width: float, alpha: int = 255
) -> Image.Image:
    """A hexagon of radius ``r`` (fill and/or outline), for fog, tiles and highlights."""
    w = int(2 * r + 4)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        pts = hex_corners(w * k / 2, w * k / 2, r * k - width * k / 2)
        f = (*fill, alpha) if fill else None
        o = (*outline, 255) if outline else None
        d.polygon(pts, fill=f, outline=o, width=int(width * k) if outline else 0)

    return supersampled(w, w, paint)


def paste_at(base: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Composites an RGBA sprite onto an RGB or RGBA page (clipped at the edges)."""
    if base.mode == "RGBA" and (
        x >= 0 and y >= 0 and x + sprite.width <= base.width and y + sprite.height <= base.height
    ):
        base.alpha_composite(sprite, (x, y))
        return
    base.paste(sprite, (x, y), sprite)


def paste_centred(base: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    paste_at(base, sprite, round(cx - sprite.width / 2), round(cy - sprite.height / 2))


@lru_cache(maxsize=256)
def arrow_sprite(dx: float, dy: float, width: float, colour: RGB) -> tuple[Image.Image, Pt]:
    """An arrow from (0, 0) to (dx, dy); returns the sprite and where its origin lands."""
    pad = width * 3
    x0, y0 = min(0.0, dx) - pad, min(0.0, dy) - pad
    w = int(abs(dx) + 2 * pad) + 1
    h = int(abs(dy) + 2 * pad) + 1
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        sx, sy = (-x0) * k, (-y0) * k
        ex, ey = (dx - x0) * k, (dy - y0) * k
        head = width * 2.6 * k
        bx, by = ex - ux * head, ey - uy * head
        for col, extra in ((WHITE, 2.5), (colour, 0.0)):
            lw = int((width + extra * 2) * k)
            d.line((sx, sy, bx, by), fill=(*col, 255), width=lw)
            hw = head * 0.65 + extra * k
            tip = (ex + ux * extra * k * 1.5, ey + uy * extra * k * 1.5)
            d.polygon(
                [
                    tip,
                    (bx - uy * hw - ux * extra * k, by + ux * hw - uy * extra * k),
                    (bx + uy * hw - ux * extra * k, by - ux * hw - uy * extra * k),
                ],
                fill=(*col, 255),
            )

    return supersampled(w, h, paint), (x0, y0)


@lru_cache(maxsize=4096)
def text_sprite(
    text: str,
    size: int,
    weight: Weight,
    fill: RGB,
    anchor: str = "mm",
    stroke_width: int = 0,
    stroke_fill: RGB | None = None,
) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as an RGBA sprite and its offset from the anchor point: glyph
    rendering was a third of the map's drawing time, and labels, names and numbers recur."""
    f = font(size, weight)
    x0, y0, x1, y1 = (int(c) for c in f.getbbox(text, anchor=anchor, stroke_width=stroke_width))
    img = Image.new("RGBA", (max(1, x1 - x0), max(1, y1 - y0)), (*(stroke_fill or fill), 0))
    ImageDraw.Draw(img).text(
        (-x0, -y0),
        text,
        font=f,
        fill=fill,
        anchor=anchor,
        stroke_width=stroke_width,
        stroke_fill=stroke_fill,
    )
    return img, x0, y0


def draw_text(
    base: Image.Image,
    xy: Pt,
    text: str,
    size: int,
    weight: Weight = "regular",
    fill: RGB = INK,
    anchor: str = "la",
    stroke_width: int = 0,
    stroke_fill: RGB | None = None,
    limit: T.Box | None = None,
    source: str | None = None,
) -> None:
    """Like ``ImageDraw.text`` (same anchors; text NFC-normalised), from the sprite cache.
    ``limit``: the box (page pixels) the text must stay in, for the tests' record;
    ``source``: the whole text this line was fitted from (:mod:`render.fit`)."""
    text = T.nfc(text)
    spr, ox, oy = text_sprite(text, size, weight, fill, anchor, stroke_width, stroke_fill)
    x, y = round(xy[0]) + ox, round(xy[1]) + oy
    paste_at(base, spr, x, y)
    if T.recording_now():
        bb = spr.getchannel("A").getbbox()
        ink = None if bb is None else (bb[0] + x, bb[1] + y, bb[2] + x, bb[3] + y)
        T.record(text, ink, limit, base.size, T.sheet_of(base), source, (weight, size))


def fit_size(text: str, size: int, width: float, weight: Weight, least: int) -> int:
    """The largest size from ``size`` down to ``least`` at which ``text`` is at most ``width``
    px long (``least`` if none is)."""
    f = font(size, weight)
    n = f.getlength(text)
    if n <= width:
        return size
    guess = max(least, min(size - 1, int(size * width / max(1.0, n))))
    while guess > least and font(guess, weight).getlength(text) > width:
        guess -= 1
    return guess
