"""The hex map: a cached static layer (terrain, patterns, labels, legend — drawn at 2× and
downscaled once per scenario) with the pieces, tiles and what-changed marks on top."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render import draw as D
from render import fit as F
from render.brazil.common import (
    HIDDEN,
    Changes,
    Piece,
    catalog,
    changes,
    colour_of,
    occupier,
    pieces_by_hex,
    status_line,
    title_line,
    unit_glyph,
)
from render.brazil.layout import SQRT3, Layout
from render.brazil.style import BUILDING_CODE, FOG, GOOD_FILL, terrain_fill
from render.theme import (
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    RGB,
    ROMAN,
    WHITE,
    RenderOptions,
    Weight,
    font,
    player_fill,
    player_shape,
    text_on,
)
from render.words import Words, words
from rules.brazil.events import Event
from rules.brazil.state import GameState, Tile

SUPER = 2  # the static layer is drawn at 2× and downscaled once
# Text sizes at scale 1, chosen by looking at the images downscaled to a 400 px phone preview:
# the title and the edge coordinates are ~3 % of the map's width, nothing is under 14 px.
TITLE_FS = 46
STATUS_FS = 32
TITLE_H = 124
EDGE_FS = 40
LEGEND_FS = 27
HEX_LABEL_FS = 17
MIN_FS = 14  # a longer language's tile name shrinks to this, then is shortened


@dataclass(frozen=True)
class Geometry:
    layout: Layout
    width: int
    height: int
    title_h: int
    map_bottom: int
    cols: int
    rows: int
    unit: float  # 1 px at scale 1


def _scale_px(x: float, g: Geometry) -> int:
    return max(1, round(x * g.unit))


@lru_cache(maxsize=64)
def geometry(map_id: str, pack: str | None, scale: float, lang: str = "en") -> Geometry:
    """The map's pixel geometry at ``scale`` (its legend, below the map, is as tall as its
    texts in ``lang`` need)."""
    m = catalog_for(pack).maps[map_id]
    cols = max(len(r) for r in m.rows)
    rows = len(m.rows)
    # hexes big enough for 14 px+ text on tiles and pieces (r ≈ 58 px on a 14-column map)
    r = scale * min(64.0, max(50.0, 1450.0 / ((cols + 0.5) * SQRT3)))
    title_h = round(TITLE_H * scale)
    margin = max(r * 1.1, EDGE_FS * 1.45 * scale)
    width = round((cols + 0.5) * SQRT3 * r + 2 * margin)
    origin = (margin + SQRT3 * r / 2, title_h + margin * 0.8 + r)
    map_bottom = round(origin[1] + 1.5 * r * (rows - 1) + r + margin * 0.8)
    legend_h = round(
        _legend(None, width, map_bottom, RenderOptions(scale=scale), words(lang)) - map_bottom
    )
    return Geometry(
        Layout(r, origin), width, map_bottom + legend_h, title_h, map_bottom, cols, rows, scale
    )


def catalog_for(pack: str | None):  # type: ignore[no-untyped-def]
    from rules.brazil import get_catalog

    return get_catalog(pack)


# ---------------------------------------------------------------------------- static layer


def _pattern(d: ImageDraw.ImageDraw, terrain: str, cx: float, cy: float, r: float) -> None:
    if terrain == "forest":
        col = (60, 120, 50)
        for ox, oy in ((-0.5, -0.05), (0.5, -0.05), (0.0, 0.55), (-0.55, 0.5), (0.55, 0.5)):
            x, y, s = cx + ox * r, cy + oy * r, r * 0.16
            d.polygon([(x, y - s * 1.4), (x + s, y + s * 0.6), (x - s, y + s * 0.6)], fill=col)
    elif terrain == "gold_mine":
        col = (150, 105, 30)
        for ox in (-0.42, 0.42):
            x, y, s = cx + ox * r, cy + 0.5 * r, r * 0.2
            d.polygon([(x - s, y + s * 0.5), (x, y - s * 0.9), (x + s, y + s * 0.5)], fill=col)
        d.regular_polygon((cx, cy + 0.62 * r, r * 0.08), 4, fill=(255, 225, 60), outline=col)
    elif terrain == "water":
        col = (40, 100, 170)
        w = max(2, round(r * 0.05))
        for oy in (-0.25, 0.1, 0.45):
            y = cy + oy * r
            for i in range(2):
                x0 = cx - 0.55 * r + i * 0.55 * r
                d.arc((x0, y - 0.12 * r, x0 + 0.55 * r, y + 0.12 * r), 200, 340, fill=col, width=w)
    elif terrain == "plain":
        col = (190, 175, 110)
        for ox, oy in ((-0.5, 0.15), (0.5, 0.15), (0.0, 0.55)):
            x, y, s = cx + ox * r, cy + oy * r, r * 0.05
            d.ellipse((x - s, y - s, x + s, y + s), fill=col)


@lru_cache(maxsize=24)
def static_layer(
    map_id: str, pack: str | None, high_contrast: bool, scale: float, lang: str = "en"
) -> Image.Image:
    opts = RenderOptions(high_contrast=high_contrast, scale=scale)
    g = geometry(map_id, pack, scale, lang)
    board = catalog_for(pack).boards[map_id]
    k = SUPER
    big = Image.new("RGB", (g.width * k, g.height * k), PAPER)
    d = ImageDraw.Draw(big)
    lay = Layout(g.layout.size * k, (g.layout.origin[0] * k, g.layout.origin[1] * k))
    r = lay.size
    line = (70, 70, 70) if not high_contrast else INK
    for lab in board.order:
        ter = board.terrain[lab]
        cx, cy = lay.centre(lab)
        d.polygon(
            lay.corners(lab),
            fill=terrain_fill(ter, opts),
            outline=line,
            width=max(2, round(r * 0.04)),
        )
        _pattern(d, ter, cx, cy, r)
        d.text(
            (cx, cy + LABEL_DY * r),
            lab,
            font=font(round(HEX_LABEL_FS * scale * k), "semibold"),
            fill=(55, 55, 55),
            anchor="mm",
        )
    # Coordinates along the edges: column letters top and bottom, row numbers left and right.
    fs = round(EDGE_FS * scale * k)
    ef = font(fs, "bold")
    top = lay.offset_centre(0, 0)[1] - r * 1.0 - fs * 0.6
    bottom = lay.offset_centre(0, g.rows - 1)[1] + r * 1.0 + fs * 0.6
    for col in range(g.cols):
        x = lay.offset_centre(col, 0)[0] + lay.width * 0.25
        letter = chr(ord("A") + col)
        d.text((x, top), letter, font=ef, fill=INK, anchor="mm")
        d.text((x, bottom), letter, font=ef, fill=INK, anchor="mm")
    for row in range(g.rows):
        cols_here = [c for c in range(g.cols) if lay and _is_hex(board.terrain, c, row)]
        y = lay.offset_centre(0, row)[1]
        left = (
            lay.offset_centre(min(cols_here), row)[0] if cols_here else lay.offset_centre(0, row)[0]
        )
        right = lay.offset_centre(max(cols_here), row)[0] if cols_here else left
        d.text((left - lay.width * 0.5 - fs * 0.2, y), str(row + 1), font=ef, fill=INK, anchor="rm")
        d.text(
            (right + lay.width * 0.5 + fs * 0.2, y), str(row + 1), font=ef, fill=INK, anchor="lm"
        )
    img = big.resize((g.width, g.height), Image.Resampling.LANCZOS)
    _legend(img, g.width, g.map_bottom, opts, words(lang))
    return img


def _is_hex(terrain: object, col: int, row: int) -> bool:
    from rules.brazil.hexgrid import Hex

    try:
        return Hex.from_offset(col, row).label in terrain  # type: ignore[operator]
    except ValueError:
        return False


def _legend(img: Image.Image | None, width: int, top: int, opts: RenderOptions, t: Words) -> float:
    """Draws the legend below the map (or only measures it when ``img`` is None); returns
    the y of its bottom edge."""
    d = ImageDraw.Draw(img) if img is not None else None
    s = opts.scale
    fs = round(LEGEND_FS * s)
    f = font(fs)
    fb = font(fs, "bold")
    x0 = round(16 * s)
    y: float = top + round(10 * s)
    if d is not None:
        d.line((x0, y - 4 * s, width - x0, y - 4 * s), fill=MUTED, width=max(1, round(2 * s)))
    row_h = round(fs * 1.55)
    sw = round(fs * 1.05)

    def flow(items: list[tuple[object, str]], y: float) -> float:
        x: float = x0
        for swatch, text in items:
            if d is not None:
                record_legend(img, text, f, x0, width)
            lead = sw if isinstance(swatch, tuple) else fb.getlength(str(swatch))
            w = lead + 6 * s + f.getlength(text)
            if x + w > width - x0:
                x, y = x0, y + row_h
            if d is None:
                x = round(x + w + 26 * s)
                continue
            if isinstance(swatch, tuple):
                d.rectangle((x, y + 4 * s, x + sw, y + 4 * s + sw), fill=swatch, outline=INK)
                tx = x + sw + 6 * s
            else:
                d.text((x, y + sw / 2 + 4 * s), str(swatch), font=fb, fill=INK, anchor="lm")
                tx = x + fb.getlength(str(swatch)) + 6 * s
            d.text((tx, y + sw / 2 + 4 * s), text, font=f, fill=INK, anchor="lm")
            x = round(tx + f.getlength(text) + 26 * s)
        return y + row_h

    y = flow(
        [
            (terrain_fill("plain", opts), t("render.legend.plain")),
            (terrain_fill("forest", opts), t("render.legend.forest")),
            (terrain_fill("gold_mine", opts), t("render.legend.gold_mine")),
            (terrain_fill("water", opts), t("render.legend.water")),
            (FOG, t("render.legend.unexplored")),
            (HIGHLIGHT, t("render.legend.last_turn")),
        ],
        y,
    )
    y = flow(
        [
            (unit_glyph("none", 2, t), t("render.legend.unit")),
            (t.initial("unit", "basic"), t("render.legend.basic")),
            (t.initial("unit", "transport"), t("render.legend.transport")),
            (t.initial("unit", "bombard"), t("render.legend.bombard")),
            (t.initial("unit", "founder"), t("render.legend.monarch")),
            ("I–VI", t("render.legend.palace")),
        ],
        y,
    )
    y = flow(
        [
            (building_code(side, t), t.term("building", side, side.replace("_", " ")))
            for side in BUILDING_CODE
        ],
        y,
    )
    return y + 8 * s


def building_code(side: str, t: Words) -> str:
    """The short code a building side shows on its map tile (the legend spells it out)."""
    return t(f"render.code.{side}") if t.L.has(f"render.code.{side}") else BUILDING_CODE[side]


def record_legend(
    img: Image.Image | None, text: str, f: ImageFont.FreeTypeFont, x0: int, width: int
) -> None:
    """The legend's texts for the tests' record (they flow within the page's margins)."""
    from render import words as T

    if img is not None and T.recording_now():
        T.record(text, None, (x0, 0, width - x0, img.height), img.size)


# ---------------------------------------------------------------------------- dynamic layer


def _badge_box(g: Geometry, cx: float, cy: float) -> tuple[float, float, float, float]:
    r = g.layout.size
    return (cx - 0.56 * r, cy - 0.6 * r, cx + 0.56 * r, cy + 0.14 * r)


@lru_cache(maxsize=1024)
def badge_sprite(
    kind: str,
    code: str,
    fill: RGB,
    goods: tuple[tuple[str, int], ...],
    palace: int | None,
    occ: RGB | None,
    occ_letter: str,
    owner_letter: str,
    r: float,
) -> Image.Image:
    """A tile on the map: owner colour, type code (and era), goods as counted pips."""
    pad = badge_pad(r)
    w, h = round(1.12 * r) + 2 * pad, round(0.74 * r) + 2 * pad + round(0.2 * r)
    top = pad + round(0.2 * r)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        x0, y0, x1, y1 = pad * k, top * k, (w - pad) * k, (h - pad) * k
        outline = occ or INK
        ow = (0.09 * r if occ else 0.04 * r) * k
        if kind == "capital":  # a crown: three points on top
            for i in range(3):
                px = x0 + (x1 - x0) * (0.2 + 0.3 * i)
                d.polygon(
                    [
                        (px - 0.12 * r * k, y0 + 2),
                        (px, y0 - 0.2 * r * k),
                        (px + 0.12 * r * k, y0 + 2),
                    ],
                    fill=fill,
                    outline=INK,
                    width=max(1, int(0.03 * r * k)),
                )
        if kind == "city":  # a roof
            d.polygon(
                [
                    (x0 + 0.1 * r * k, y0 + 2),
                    ((x0 + x1) / 2, y0 - 0.2 * r * k),
                    (x1 - 0.1 * r * k, y0 + 2),
                ],
                fill=fill,
                outline=INK,
                width=max(1, int(0.03 * r * k)),
            )
        d.rounded_rectangle(
            (x0, y0, x1, y1), radius=0.12 * r * k, fill=fill, outline=outline, width=int(ow)
        )
        tc = text_on(fill)
        fs = D.fit_size(code, int(0.3 * r * k), (x1 - x0) - 0.12 * r * k, "extrabold", 6)
        d.text(
            ((x0 + x1) / 2, y0 + 0.2 * r * k),
            code,
            font=font(fs, "extrabold"),
            fill=tc,
            anchor="mm",
        )
        # goods: one pip per item (up to 4 of a kind, then "n×")
        pips: list[tuple[str, str]] = []
        for good, n in goods:
            if n <= 3:
                pips += [(good, "")] * n
            else:
                pips.append((good, f"{n}"))
        # the owner's letter bottom left (colour is never the only cue)
        lx = x0 + 0.14 * r * k
        d.text(
            (lx, y1 - 0.19 * r * k),
            owner_letter,
            font=font(int(0.27 * r * k), "extrabold"),
            fill=tc,
            anchor="mm",
        )
        if pips:
            pr = 0.15 * r * k
            room = x1 - lx - 0.2 * r * k - 2 * pr
            step = min(2.2 * pr, room / max(1, len(pips) - 1)) if len(pips) > 1 else 0.0
            x = (lx + 0.12 * r * k + x1) / 2 - step * (len(pips) - 1) / 2
            py = y1 - 0.19 * r * k
            for good, label in pips:
                gf = GOOD_FILL.get(good, (200, 200, 200))
                if good == "gold":
                    d.regular_polygon((x, py, pr * 1.2), 4, fill=gf, outline=INK)
                elif good == "science":
                    d.rectangle((x - pr, py - pr, x + pr, py + pr), fill=gf, outline=INK)
                else:
                    d.ellipse(
                        (x - pr, py - pr, x + pr, py + pr), fill=gf, outline=INK, width=max(1, k)
                    )
                if label:
                    d.text(
                        (x, py),
                        label,
                        font=font(int(pr * 1.75), "extrabold"),
                        fill=text_on(gf),
                        anchor="mm",
                    )
                x += step
        if palace is not None and kind != "capital":
            pr = 0.22 * r * k
            px, py = x1 - pr * 0.3, y0 - pr * 0.3
            d.ellipse(
                (px - pr, py - pr, px + pr, py + pr), fill=WHITE, outline=INK, width=max(1, k)
            )
            d.text(
                (px, py),
                ROMAN[palace],
                font=font(int(pr * 1.15), "extrabold"),
                fill=INK,
                anchor="mm",
            )
        if occ is not None:  # the occupier's pennant
            px, py = x0 - 0.02 * r * k, y0 - 0.05 * r * k
            fr = 0.25 * r * k
            d.polygon(
                [(px, py - fr), (px + fr * 1.5, py), (px, py + fr)],
                fill=occ,
                outline=INK,
                width=max(1, k),
            )
            d.text(
                (px + fr * 0.45, py),
                occ_letter,
                font=font(int(fr * 1.1), "extrabold"),
                fill=text_on(occ),
                anchor="mm",
            )

    return D.supersampled(w, h, paint)


def badge_pad(r: float) -> int:
    """Room around a badge for the palace disc and the occupier's pennant."""
    return 4 + round(0.12 * r)


def _tile_code(v: GameState, t: Tile, w: Words) -> str:
    if t.kind == "capital":
        cap = w("render.code.capital")
        return cap + " " + ROMAN[t.palace or 1] if t.palace == 1 else cap
    if t.kind == "city":
        return w("render.code.city")
    cat = catalog(v)
    code = building_code(t.id, w) if t.id in BUILDING_CODE else t.id[:3].upper()
    try:
        era = cat.building_era(t.id)
    except KeyError:
        return code
    return f"{code}·{ROMAN[era]}"


LABEL_DY = 0.72  # hex labels sit low in the hex, under the pieces


def draw_map(
    v: GameState, events: list[Event], seat: int | None, opts: RenderOptions, lang: str = "en"
) -> tuple[Image.Image, Geometry, Changes]:
    """The map as an RGB image (its texts in ``lang``), its geometry and the changes it
    highlights."""
    img, g, ch, _ = _draw_map(v, events, seat, opts, lang)
    return img, g, ch


def draw_map_indexed(
    v: GameState, events: list[Event], seat: int | None, opts: RenderOptions, lang: str = "en"
) -> Image.Image:
    """The map as a 256-colour image, ready for PNG: the static layer is mapped to its palette
    once per scenario, so only the bands where pieces, tiles and marks were drawn are mapped
    again (about half the pixels, and no palette search per image)."""
    img, _, _, bands = _draw_map(v, events, seat, opts, lang)
    pal, indexed = map_palette(v.map, v.data_pack, opts.high_contrast, opts.scale, lang)
    out = indexed.copy()
    for box in bands:
        out.paste(img.crop(box).quantize(palette=pal, dither=Image.Dither.NONE), box[:2])
    return out


def _bands(
    g: Geometry, hexes: set[str], extra: list[tuple[int, int, int, int]]
) -> list[tuple[int, int, int, int]]:
    """The boxes drawn over the static layer, merged into one band per hex row."""
    lay = g.layout
    r = lay.size
    rows: dict[int, list[float]] = {}
    for hx in hexes:
        cx, cy = lay.centre(hx)
        key = round((cy - lay.origin[1]) / lay.row_height)
        b = rows.setdefault(key, [cx, cy, cx, cy])
        b[0], b[2] = min(b[0], cx), max(b[2], cx)
    boxes = [
        (x0 - 1.05 * r, y0 - 1.15 * r, x1 + 1.05 * r, y1 + 1.15 * r)
        for x0, y0, x1, y1 in rows.values()
    ]
    out = [(0, 0, g.width, g.title_h)]
    for x0, y0, x1, y1 in [*boxes, *extra]:
        out.append(
            (
                max(0, int(x0) - 2),
                max(0, int(y0) - 2),
                min(g.width, int(x1) + 3),
                min(g.height, int(y1) + 3),
            )
        )
    return sorted(set(out))


@lru_cache(maxsize=24)
def map_palette(
    map_id: str, pack: str | None, high_contrast: bool, scale: float, lang: str = "en"
) -> tuple[Image.Image, Image.Image]:
    """The scenario's 256 colours (chosen on its static layer and a swatch of every colour the
    pieces use) and the static layer mapped to them. Deterministic: it depends only on the
    scenario and the options, never on which state was drawn first."""
    opts = RenderOptions(high_contrast=high_contrast, scale=scale)
    st = static_layer(map_id, pack, high_contrast, scale, lang)
    half = st.reduce(2)
    sw = swatch(opts, half.width)
    sample = Image.new("RGB", (half.width, half.height + sw.height), PAPER)
    sample.paste(half, (0, 0))
    sample.paste(sw, (0, half.height))
    pal = sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return pal, st.quantize(palette=pal, dither=Image.Dither.NONE)


def swatch(opts: RenderOptions, width: int) -> Image.Image:
    """Patches of every colour drawn over the map, each with its ramps to ink and white (the
    anti-aliased edges), so the palette has entries close to all of them."""
    colours: list[RGB] = [
        *(player_fill(c, opts) for c in ("blue", "orange", "green", "red", None)),
        *GOOD_FILL.values(),
        HIGHLIGHT,
        FOG,
        WHITE,
        INK,
        (245, 235, 205),
        (120, 90, 40),
        (70, 70, 80),
    ]
    cell = 24
    per_row = max(1, width // cell)
    rows = -(-len(colours) * 3 // per_row)
    img = Image.new("RGB", (width, rows * cell), PAPER)
    d = ImageDraw.Draw(img)
    i = 0
    for c in colours:
        for other in (None, INK, WHITE):
            x, y = (i % per_row) * cell, (i // per_row) * cell
            if other is None:
                d.rectangle((x, y, x + cell - 1, y + cell - 1), fill=c)
            else:
                for k in range(cell):
                    t = k / (cell - 1)
                    mix = tuple(round(a + (b - a) * t * 0.8) for a, b in zip(c, other, strict=True))
                    d.line((x + k, y, x + k, y + cell - 1), fill=mix)
            i += 1
    return img


def _draw_map(
    v: GameState, events: list[Event], seat: int | None, opts: RenderOptions, lang: str
) -> tuple[Image.Image, Geometry, Changes, list[tuple[int, int, int, int]]]:
    pack = v.data_pack
    w = words(lang)
    lang = w.lang  # an unknown code draws English (one cache entry)
    g = geometry(v.map, pack, opts.scale, lang)
    img = static_layer(v.map, pack, opts.high_contrast, opts.scale, lang).copy()
    lay = g.layout
    r = lay.size
    ri = round(r)
    cat = catalog(v)
    board = cat.boards[v.map]

    pieces = pieces_by_hex(v, w)
    covered: set[str] = set()  # hexes whose printed label something was drawn over
    extra: list[tuple[int, int, int, int]] = []  # other boxes drawn over the static layer

    # Exploration tiles: face down (fog), peeked by this seat, or face up.
    for hx, ex in sorted(v.exploration.items()):
        if hx not in board.terrain:
            continue
        covered.add(hx)
        cx, cy = lay.centre(hx)
        # with units standing on the tile, its text moves up out of their way
        up = 0.28 * r if hx in pieces else 0.0
        if ex.face_up and ex.tile in cat.exploration:
            D.paste_centred(img, D.hex_sprite(ri, (245, 235, 205), (120, 90, 40), 0.08 * r), cx, cy)
            tile = cat.exploration[ex.tile]
            name = (
                w("render.map.bandeiras")
                if tile.kind == "bandeiras"
                else w.term("exploration", tile.id, tile.name)
            )
            fs = round(max(15 * opts.scale, 0.28 * r))
            room = 1.62 * r  # the hex's width, less its outline
            least = round(MIN_FS * opts.scale)
            fitted = [F.fit_text(name, room, fs, "bold", least=least, lines=2, h="m")]
            if tile.fp:
                fitted.append(F.fit_text(w("render.map.fp", fp=tile.fp), room, fs, "bold", h="m"))
            n_lines = sum(len(f.lines) for f in fitted)
            fs = fitted[0].size
            y = cy - (n_lines - 1) * fs * 0.55 - 0.1 * r - up
            lim = (round(cx - room / 2), 0, round(cx + room / 2), g.height)
            for f, src in zip(fitted, (name, ""), strict=False):
                for ln in f.lines:
                    D.draw_text(
                        img, (cx, y), ln, f.size, "bold", INK, "mm", limit=lim, source=src or ln
                    )
                    y += fs * 1.05
        else:
            D.paste_centred(img, D.hex_sprite(ri, FOG, (70, 70, 80), 0.05 * r), cx, cy)
            D.draw_text(
                img,
                (cx, cy - 0.15 * r - up),
                "?",
                round(0.7 * r),
                "extrabold",
                WHITE,
                "mm",
                max(1, round(r * 0.03)),
                (70, 70, 80),
            )
            if ex.tile != HIDDEN and ex.tile in cat.exploration:  # this seat peeked
                tile = cat.exploration[ex.tile]
                nm = w.term("exploration", tile.id, tile.name)
                room = 1.62 * r
                pfs = round(max(15 * opts.scale, 0.27 * r))
                whole = nm
                nm, pfs = F.fit_line(nm, room - 4, pfs, "bold", round(MIN_FS * opts.scale))
                D.draw_text(
                    img,
                    (cx, cy + 0.4 * r - up),
                    nm,
                    pfs,
                    "bold",
                    INK,
                    "mm",
                    2,
                    WHITE,
                    limit=(round(cx - room / 2), 0, round(cx + room / 2), g.height),
                    source=whole,
                )

    ch = changes(events, seat, set(board.terrain))
    marked = set(ch.hexes) | set(ch.battles) | {b for _, b in ch.moves}
    ring = D.hex_sprite(ri, None, HIGHLIGHT, 0.16 * r)
    ring_in = D.hex_sprite(ri - round(0.16 * r), None, INK, 0.05 * r)
    for hx in sorted(marked):
        cx, cy = lay.centre(hx)
        D.paste_centred(img, ring, cx, cy)
        D.paste_centred(img, ring_in, cx, cy)
        covered.add(hx)

    for hx, t in sorted(v.tiles.items()):
        if hx not in board.terrain:
            continue
        cx, cy = lay.centre(hx)
        occ_seat = occupier(v, hx, pieces)
        occ_col = colour_of(v, occ_seat) if occ_seat is not None else None
        goods = tuple(sorted((gk, n) for gk, n in t.goods.items() if n > 0))
        sprite = badge_sprite(
            t.kind,
            _tile_code(v, t, w),
            player_fill(colour_of(v, t.owner), opts),
            goods,
            t.palace,
            player_fill(occ_col, opts) if occ_seat is not None else None,
            w.colour_initial(occ_col),
            w.colour_initial(colour_of(v, t.owner)),
            r,
        )
        bx0, by0, _, _ = _badge_box(g, cx, cy)
        pad = badge_pad(r)
        D.paste_at(img, sprite, round(bx0 - pad), round(by0 - pad - 0.2 * r))
        covered.add(hx)
        if t.palace is not None and t.kind != "capital":
            # the palace disc reaches into the label of the hex above: redraw that label
            above = lay.pixel_to_label(cx + 0.45 * r, cy - 1.2 * r)
            if above is not None and above in board.terrain:
                covered.add(above)

    for hx, ps in sorted(pieces.items()):
        if hx not in board.terrain:
            continue
        covered.add(hx)
        cx, cy = lay.centre(hx)
        low = hx in v.tiles or hx in v.exploration
        psize = round((0.58 if low or len(ps) > 1 else 0.76) * r)
        y = cy + (0.36 * r if low else -0.08 * r)
        show: list[Piece | int] = list(ps) if len(ps) <= 3 else [*ps[:2], len(ps) - 2]
        step = min(psize * 1.02, 1.7 * r / max(1, len(show)))
        x = cx - step * (len(show) - 1) / 2
        for item in show:
            if isinstance(item, int):
                spr = D.piece_sprite("circle", WHITE, f"+{item}", psize)
            else:
                spr = D.piece_sprite(
                    player_shape(item.colour), player_fill(item.colour, opts), item.glyph, psize
                )
            D.paste_centred(img, spr, x, y)
            x += step

    for a, b in ch.moves:
        (ax, ay), (bx, by) = lay.centre(a), lay.centre(b)
        length = math.hypot(bx - ax, by - ay) or 1
        # across the border between the hexes, on top: clear of the badges and pieces
        # in the middle of both hexes (between neighbours it reads as a chevron)
        sx, sy = ax + (bx - ax) * 0.7 * r / length, ay + (by - ay) * 0.7 * r / length
        ex_, ey = bx - (bx - ax) * 0.62 * r / length, by - (by - ay) * 0.62 * r / length
        spr, (ox, oy) = D.arrow_sprite(
            round(ex_ - sx), round(ey - sy), round(max(4.0, 0.12 * r), 1), HIGHLIGHT
        )
        ax0, ay0 = round(sx + ox), round(sy + oy)
        D.paste_at(img, spr, ax0, ay0)
        extra.append((ax0, ay0, ax0 + spr.width, ay0 + spr.height))

    for hx in ch.battles:  # crossed swords
        cx, cy = lay.centre(hx)
        _swords(img, cx + 0.55 * r, cy - 0.55 * r, 0.3 * r)

    # the coordinates players type, redrawn on top (with a halo) where something covers them
    lfs = round(HEX_LABEL_FS * opts.scale)
    halo = max(2, round(3 * opts.scale))
    for hx in sorted(covered):
        cx, cy = lay.centre(hx)
        D.draw_text(img, (cx, cy + LABEL_DY * r), hx, lfs, "bold", INK, "mm", halo, WHITE)

    img.paste(header(v, g.width, opts, g.title_h, lang).crop((0, 0, g.width, g.title_h)), (0, 0))
    return img, g, ch, _bands(g, covered, extra)


def _swords(img: Image.Image, cx: float, cy: float, s: float) -> None:
    D.paste_centred(img, _swords_sprite(round(s, 1)), cx, cy)


@lru_cache(maxsize=16)
def _swords_sprite(s: float) -> Image.Image:
    w = max(8, round(s * 2.4))

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        c = w * k / 2
        rr = s * k
        d.ellipse(
            (c - rr * 1.15, c - rr * 1.15, c + rr * 1.15, c + rr * 1.15),
            fill=(*WHITE, 255),
            outline=(*INK, 255),
            width=max(1, int(0.12 * rr)),
        )
        for sgn in (1, -1):
            d.line(
                (c - rr * 0.7, c - sgn * rr * 0.7, c + rr * 0.7, c + sgn * rr * 0.7),
                fill=(*HIGHLIGHT, 255),
                width=int(0.28 * rr),
            )

    return D.supersampled(w, w, paint)


def header(
    v: GameState,
    width: int,
    opts: RenderOptions,
    height: int | None = None,
    lang: str = "en",
) -> Image.Image:
    """The title block: scenario, era and round; whose turn; every player's piece (shape and
    letter in their colour) and colour name — wrapped to ``width``. With a fixed ``height``
    (the map's title band) the players' key stays on the status line and the status is
    shortened to leave it room."""
    t = words(lang)
    s = opts.scale
    x0 = round(16 * s)
    tf = font(round(TITLE_FS * s), "bold")
    sf = font(round(STATUS_FS * s), "semibold")
    pf = font(round(30 * s), "semibold")
    ps = round(36 * s)
    title = title_line(v, t)
    status = status_line(v, t)
    room = width - 2 * x0
    # the players' key: one entry per player, flowed after the status line
    keys = [(p.colour, t.colour(p.colour)) for p in v.players if p.colour is not None]
    entries = [(c, name, ps + round(8 * s) + pf.getlength(name)) for c, name in keys]
    gap = round(22 * s)
    keys_w = sum(w for _, _, w in entries) + gap * (len(entries) - 1)
    status_w = sf.getlength(status)
    one_line = status_w + gap * 2 + keys_w <= room
    line_h = round(44 * s)
    two_lines_h = round(TITLE_FS * 1.25 * s) + line_h * 2 + round(10 * s)
    status_room = float(room)
    if not one_line and height is not None and two_lines_h > height:
        one_line = True  # no room for a second line: the status gives way to the key
        status_room = max(room / 3, room - gap * 2 - keys_w)
        least = round(STATUS_FS * s * 0.75)
        while sf.getlength(status) > status_room and sf.size > least:
            sf = font(round(sf.size) - 1, "semibold")
    elif one_line:
        status_room = room - gap * 2 - keys_w
    need = round(TITLE_FS * 1.25 * s) + line_h * (1 if one_line else 2) + round(10 * s)
    h = max(height or 0, need)
    img = Image.new("RGB", (width, h), PAPER)

    while tf.getlength(title) > room and tf.size > TITLE_FS * s * 0.7:  # shrink, then cut
        tf = font(round(tf.size) - 2, "bold")
    lim = (x0, 0, width - x0, h)
    D.draw_text(
        img,
        (x0, round(8 * s)),
        _fit(title, tf, room),
        round(tf.size),
        "bold",
        INK,
        limit=lim,
        source=title,
    )
    y = round(TITLE_FS * 1.25 * s) + round(6 * s)
    D.draw_text(
        img,
        (x0, y + line_h / 2),
        _fit(status, sf, status_room, "semibold"),
        round(sf.size),
        "semibold",
        INK,
        "lm",
        limit=(x0, 0, round(x0 + status_room), h),
        source=status,
    )
    if one_line:
        x = float(width - x0 - keys_w)
    else:
        y += line_h
        x = float(x0)
    for c, name, w in entries:
        if x + w > width - x0 + 1:
            break
        spr = D.piece_sprite(player_shape(c), player_fill(c, opts), t.colour_initial(c), ps)
        D.paste_centred(img, spr, x + ps / 2, y + line_h / 2)
        D.draw_text(
            img,
            (x + ps + round(8 * s), y + line_h / 2),
            name,
            round(pf.size),
            "semibold",
            INK,
            "lm",
            limit=lim,
        )
        x += w + gap
    return img


def _fit(text: str, f: ImageFont.FreeTypeFont, width: float, weight: Weight = "bold") -> str:
    """``text`` (drawn with ``f``, of ``weight``) shortened after a whole word to ``width``
    px (:func:`render.fit.shorten`)."""
    return F.shorten(text, width, round(f.size), weight)


def focus_box(g: Geometry, ch: Changes, v: GameState) -> tuple[int, int, int, int] | None:
    """The pixel box around the last turn's action: about five hexes wide (readable in a
    400 px preview), centred on the last change and the changes near it."""
    ordered: list[str] = []
    for lab in [*ch.hexes, *ch.battles, *(x for m in ch.moves for x in m)]:
        if lab not in ordered:
            ordered.append(lab)
    if not ordered:
        return None
    lay = g.layout
    hw, rh = lay.width, lay.row_height
    # the main action: a battle, else the last move's destination, else the last marked hex
    main = ch.battles[-1] if ch.battles else ch.moves[-1][1] if ch.moves else ordered[-1]
    mx, my = lay.centre(main)
    pts = [
        (x, y)
        for x, y in (lay.centre(h) for h in ordered)
        if abs(x - mx) <= 2.2 * hw and abs(y - my) <= 2.2 * rh
    ]
    x0 = min(p[0] for p in pts) - 1.6 * hw
    x1 = max(p[0] for p in pts) + 1.6 * hw
    y0 = min(p[1] for p in pts) - 1.7 * rh
    y1 = max(p[1] for p in pts) + 1.7 * rh
    # at least 5 hexes wide and 4:3, no more than the map area; shifted (not cut) at edges
    w = max(x1 - x0, 5.2 * hw, (y1 - y0) * 4 / 3)
    h = max(y1 - y0, w * 0.7)
    w, h = min(w, float(g.width)), min(h, float(g.map_bottom - g.title_h))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    x0 = min(max(0.0, cx - w / 2), g.width - w)
    y0 = min(max(float(g.title_h), cy - h / 2), g.map_bottom - h)
    return (round(x0), round(y0), round(x0 + w), round(y0 + h))
