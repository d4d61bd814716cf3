"""A small text-flow canvas for the card-like images (boards, hand, reports)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import draw as D
from render import fit as F
from render import words as T
from render.theme import (
    INK,
    PAPER,
    RGB,
    RenderOptions,
    Weight,
    font,
    player_fill,
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
        self._drawn: list[T.Drawn] = []  # while recording (tests): the texts drawn here

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
        limit: tuple[float, float] | None = None,
        source: str | None = None,
    ) -> float:
        """Draws ``text`` (NFC); returns its width (at scale 1). ``limit``: the x range
        (scale 1) it must stay in, for the tests' record of drawn texts; ``source``: the
        whole text this line was fitted from (:mod:`render.fit`)."""
        text = T.nfc(text)
        m, ox, oy = text_mask(text, self.px(size), weight, anchor)
        at = (self.px(x) + ox, self.px(y) + oy)
        self.img.paste(fill, at, m)
        if T.recording_now():
            self._record(text, m, at, limit, source, (weight, self.px(size)))
        return self.width_of(text, size, weight)

    def _record(
        self,
        text: str,
        m: Image.Image,
        at: tuple[int, int],
        limit: tuple[float, float] | None,
        source: str | None = None,
        used: tuple[str, int] | None = None,
    ) -> None:
        bb = m.getbbox()
        ink = None if bb is None else (bb[0] + at[0], bb[1] + at[1], bb[2] + at[0], bb[3] + at[1])
        box = None
        if limit is not None:
            box = (self.px(limit[0]), 0, self.px(limit[1]), self.img.height)
        d = T.record(text, ink, box, self.img.size, T.sheet_of(self), source, used)
        if d is not None:
            self._drawn.append(d)

    def fitted(
        self,
        text: str,
        width: float,
        size: int = 22,
        weight: Weight = "regular",
        lines: int = 1,
        h: str = "l",
    ) -> F.Fitted:
        """How :meth:`text_in` lays ``text`` out in ``width`` (scale 1) on ``lines`` lines:
        the lines and their size (page pixels; :meth:`size_of` gives it at scale 1)."""
        least = min(size, max(MIN_SHRINK_SIZE, round(size * SHRINK)))
        return F.fit_text(
            text,
            width * self.s,
            self.px(size),
            weight,
            least=self.px(least),
            lines=lines,
            h=h,
        )

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
        lines: int = 1,
        line_h: float | None = None,
    ) -> float:
        """Draws ``text`` within ``width`` (scale 1) and on at most ``lines`` lines, laid out
        by :func:`render.fit.fit_text`: at ``size``, else down to 80 % of it (never under
        15 px), else wrapped between words, else shortened after a whole word with an
        ellipsis. Its painted pixels stay in the box (a glyph overhanging its advance, as
        ``f`` does, counts). Lines are ``line_h`` apart (default 1.2 × the size), centred on
        ``y`` for a middle anchor, else going down from it. Returns the widest line's width
        (scale 1)."""
        text = T.nfc(text)
        h = anchor[0]
        fit = self.fitted(text, width, size, weight, lines, h)
        px_size = fit.size / self.s
        step = line_h if line_h is not None else px_size * 1.2
        n = len(fit.lines)
        if anchor[1] == "m":
            y -= (n - 1) * step / 2
        x0 = x if h == "l" else x - width if h == "r" else x - width / 2
        widest = 0.0
        for i, ln in enumerate(fit.lines):
            m, ox, oy = text_mask(ln, fit.size, weight, anchor)
            at = (self.px(x) + ox, self.px(y + i * step) + oy)
            self.img.paste(fill, at, m)
            if T.recording_now():
                self._record(ln, m, at, (x0, x0 + width), text, (weight, fit.size))
            widest = max(widest, _length(ln, fit.size, weight) / self.s)
        return widest

    def extent_of(self, text: str, size: int, weight: Weight, h: str = "l") -> float:
        """The width (scale 1) a box anchored on its ``h`` side (l, m, r) needs for ``text``:
        its advance, or its ink where a glyph overhangs the far side."""
        return F.extent(T.nfc(text), self.px(size), weight, h) / self.s

    def fit(self, text: str, size: int, width_px: int, weight: Weight = "regular") -> str:
        """``text`` shortened (after a whole word) to ``width_px`` (page pixels) at ``size``
        (scale 1)."""
        return F.shorten(T.nfc(text), width_px, self.px(size), weight)

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
        self, cx: float, cy: float, colour: str | None, size: float, text: str
    ) -> None:
        """A piece in the player's colour and shape marked with ``text`` (the colour's
        initial in the image's language, a unit's mark, an era)."""
        spr = D.piece_sprite(
            player_shape(colour), player_fill(colour, self.opts), text, self.px(size)
        )
        D.paste_centred(self.img, spr, self.px(cx), self.px(cy))

    def crop_height(self, h: float) -> Image.Image:
        out = self.img.crop((0, 0, self.img.width, min(self.img.height, self.px(h))))
        for d in self._drawn:  # the texts drawn here end on the cropped page
            d.page = out.size
        return out

    def wrap(
        self, text: str, width: float, size: int = 22, weight: Weight = "regular"
    ) -> list[str]:
        """``text`` in lines of at most ``width`` (scale 1), broken between words (a word
        longer than a line stays whole: draw lines with :meth:`text_in`)."""
        return F.wrap(T.nfc(text).split(), width * self.s, self.px(size), weight)


SHRINK = 0.8  # a text too long for its box is drawn down to 80 % of its size first
MIN_SHRINK_SIZE = 15  # ... but never under 15 px (readable in a phone preview)


@lru_cache(maxsize=8192)
def _length(text: str, size: int, weight: Weight) -> float:
    return font(size, weight).getlength(text)
