"""A small text-flow canvas for the card-like images (boards, hand, reports)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import draw as D
from bot.render.theme import (
    INK,
    PAPER,
    RGB,
    RenderOptions,
    Weight,
    fit,
    font,
    player_fill,
    player_letter,
    player_shape,
)


@lru_cache(maxsize=4096)
def text_mask(text: str, size: int, weight: Weight, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as an 8-bit coverage mask, with its offset from the anchor point.
    Rendering glyphs dominated the boards' drawing time (0.25 ms a string); the same names,
    labels and numbers recur on every image, so they are rendered once and pasted."""
    f = font(size, weight)
    x0, y0, x1, y1 = (int(c) for c in f.getbbox(text, anchor=anchor))
    m = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(m).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
    return m, x0, y0


class Canvas:
    """Draws top to bottom on a fixed-width RGB page; sizes are given at scale 1."""

    def __init__(self, width: int, height: int, opts: RenderOptions, bg: RGB = PAPER) -> None:
        self.s = opts.scale
        self.opts = opts
        self.img = Image.new("RGB", (round(width * self.s), round(height * self.s)), bg)
        self.d = ImageDraw.Draw(self.img)

    def px(self, v: float) -> int:
        return round(v * self.s)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: int = 22,
        weight: Weight = "regular",
        fill: RGB = INK,
        anchor: str = "la",
    ) -> float:
        """Draws ``text``; returns its width (at scale 1)."""
        m, ox, oy = text_mask(text, self.px(size), weight, anchor)
        self.img.paste(fill, (self.px(x) + ox, self.px(y) + oy), m)
        return self.width_of(text, size, weight)

    def text_in(
        self,
        x: float,
        y: float,
        text: str,
        width: float,
        size: int = 22,
        weight: Weight = "regular",
        fill: RGB = INK,
        anchor: str = "la",
    ) -> float:
        """Draws ``text`` shortened to ``width`` (scale 1); returns its width (at scale 1)."""
        return self.text(
            x, y, self.fit(text, size, round(width * self.s), weight), size, weight, fill, anchor
        )

    def fit(self, text: str, size: int, width_px: int, weight: Weight = "regular") -> str:
        """``text`` shortened to ``width_px`` (page pixels) at ``size`` (scale 1)."""
        return fit(text, self.px(size), width_px, weight)

    def width_of(self, text: str, size: int = 22, weight: Weight = "regular") -> float:
        return _length(text, self.px(size), weight) / self.s

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: RGB | None = None,
        outline: RGB | None = INK,
        width: float = 2,
        radius: float = 8,
    ) -> None:
        self.d.rounded_rectangle(
            tuple(self.px(v) for v in box),
            radius=self.px(radius),
            fill=fill,
            outline=outline,
            width=max(1, self.px(width)),
        )

    def player_piece(
        self, cx: float, cy: float, colour: str | None, size: float = 34, text: str | None = None
    ) -> None:
        spr = D.piece_sprite(
            player_shape(colour),
            player_fill(colour, self.opts),
            player_letter(colour) if text is None else text,
            self.px(size),
        )
        D.paste_centred(self.img, spr, self.px(cx), self.px(cy))

    def crop_height(self, h: float) -> Image.Image:
        return self.img.crop((0, 0, self.img.width, min(self.img.height, self.px(h))))

    def wrap(
        self, text: str, width: float, size: int = 22, weight: Weight = "regular"
    ) -> list[str]:
        words, lines, cur = text.split(), [], ""
        for w in words:
            t = f"{cur} {w}".strip()
            if self.width_of(t, size, weight) <= width or not cur:
                cur = t
            else:
                lines.append(cur)
                cur = w
        if cur:
            lines.append(cur)
        return lines


@lru_cache(maxsize=8192)
def _length(text: str, size: int, weight: Weight) -> float:
    return font(size, weight).getlength(text)
