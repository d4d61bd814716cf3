"""A small text-flow canvas for the card-like images (boards, hand, reports)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import draw as D
from bot.render.theme import (
    INK,
    PAPER,
    RGB,
    RenderOptions,
    Weight,
    font,
    player_fill,
    player_letter,
    player_shape,
)


class Canvas:
    """Draws top to bottom on a fixed-width RGBA page; sizes are given at scale 1."""

    def __init__(self, width: int, height: int, opts: RenderOptions, bg: RGB = PAPER) -> None:
        self.s = opts.scale
        self.opts = opts
        self.img = Image.new("RGBA", (round(width * self.s), round(height * self.s)), (*bg, 255))
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
        f = font(self.px(size), weight)
        self.d.text((self.px(x), self.px(y)), text, font=f, fill=fill, anchor=anchor)
        return f.getlength(text) / self.s

    def width_of(self, text: str, size: int = 22, weight: Weight = "regular") -> float:
        return font(self.px(size), weight).getlength(text) / self.s

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
