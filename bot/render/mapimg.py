"""The hex map: a cached static layer (terrain, patterns, labels, legend — drawn at 2× and
downscaled once per scenario) with the pieces, tiles and what-changed marks on top."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import draw as D
from bot.render.common import (
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
)
from bot.render.layout import SQRT3, Layout
from bot.render.theme import (
    BUILDING_CODE,
    FOG,
    GOOD_FILL,
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    RGB,
    ROMAN,
    WHITE,
    RenderOptions,
    font,
    player_fill,
    player_letter,
    player_shape,
    terrain_fill,
    text_on,
)
from rules.events import Event
from rules.state import GameState, Tile

SUPER = 2  # the static layer is drawn at 2× and downscaled once


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


@lru_cache(maxsize=32)
def geometry(map_id: str, pack: str | None, scale: float) -> Geometry:
    m = catalog_for(pack).maps[map_id]
    cols = max(len(r) for r in m.rows)
    rows = len(m.rows)
    r = scale * min(58.0, max(40.0, 1150.0 / ((cols + 0.5) * SQRT3)))
    title_h = round(96 * scale)
    margin = r * 1.1
    width = round((cols + 0.5) * SQRT3 * r + 2 * margin)
    origin = (margin + SQRT3 * r / 2, title_h + margin * 0.8 + r)
    map_bottom = round(origin[1] + 1.5 * r * (rows - 1) + r + margin * 0.8)
    legend_h = round(4 * 34 * scale + 24 * scale)
    return Geometry(
        Layout(r, origin), width, map_bottom + legend_h, title_h, map_bottom, cols, rows, scale
    )


def catalog_for(pack: str | None):  # type: ignore[no-untyped-def]
    from rules import get_catalog

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
def static_layer(map_id: str, pack: str | None, high_contrast: bool, scale: float) -> Image.Image:
    opts = RenderOptions(high_contrast=high_contrast, scale=scale)
    g = geometry(map_id, pack, scale)
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
            (cx, cy + 0.66 * r),
            lab,
            font=font(round(14 * scale * k), "semibold"),
            fill=(60, 60, 60),
            anchor="mm",
        )
    # Coordinates along the edges: column letters top and bottom, row numbers left and right.
    fs = round(19 * scale * k)
    ef = font(fs, "bold")
    top = lay.offset_centre(0, 0)[1] - r * 1.35
    bottom = lay.offset_centre(0, g.rows - 1)[1] + r * 1.35
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
    img = big.resize((g.width, g.height), Image.Resampling.LANCZOS).convert("RGBA")
    _legend(img, g, opts)
    return img


def _is_hex(terrain: object, col: int, row: int) -> bool:
    from rules.hexgrid import Hex

    try:
        return Hex.from_offset(col, row).label in terrain  # type: ignore[operator]
    except ValueError:
        return False


def _legend(img: Image.Image, g: Geometry, opts: RenderOptions) -> None:
    d = ImageDraw.Draw(img)
    s = g.unit
    fs = round(19 * s)
    f = font(fs)
    fb = font(fs, "bold")
    x0 = round(16 * s)
    y: float = g.map_bottom + round(8 * s)
    d.line((x0, y - 4 * s, g.width - x0, y - 4 * s), fill=MUTED, width=max(1, round(s)))
    row_h = round(34 * s)
    sw = round(22 * s)

    def flow(items: list[tuple[object, str]], y: float) -> float:
        x: float = x0
        for swatch, text in items:
            w = sw + 6 * s + f.getlength(text) + 22 * s
            if x + w > g.width - x0:
                x, y = x0, y + row_h
            if isinstance(swatch, tuple):
                d.rectangle((x, y + 4 * s, x + sw, y + 4 * s + sw), fill=swatch, outline=INK)
                tx = x + sw + 6 * s
            else:
                d.text((x, y + sw / 2 + 4 * s), str(swatch), font=fb, fill=INK, anchor="lm")
                tx = x + fb.getlength(str(swatch)) + 6 * s
            d.text((tx, y + sw / 2 + 4 * s), text, font=f, fill=INK, anchor="lm")
            x = round(tx + f.getlength(text) + 22 * s)
        return y + row_h

    y = flow(
        [
            (terrain_fill("plain", opts), "plain"),
            (terrain_fill("forest", opts), "forest"),
            (terrain_fill("gold_mine", opts), "gold mine"),
            (terrain_fill("water", opts), "water"),
            (FOG, "? unexplored"),
            (HIGHLIGHT, "last turn"),
        ],
        y,
    )
    y = flow(
        [
            ("A2", "unit: type letter + FP"),
            ("T", "transport"),
            ("B", "bombard"),
            ("M", "monarch"),
            ("I–VI", "palace"),
        ],
        y,
    )
    flow([(code, side.replace("_", " ")) for side, code in BUILDING_CODE.items()], y)


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
    w, h = round(1.12 * r) + 8, round(0.74 * r) + 8 + round(0.2 * r)
    top = 4 + round(0.2 * r)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        x0, y0, x1, y1 = 4 * k, top * k, (w - 4) * k, (h - 4) * k
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
        fs = int(0.3 * r * k)
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
            pr = 0.13 * r * k
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
                        font=font(int(pr * 1.5), "extrabold"),
                        fill=text_on(gf),
                        anchor="mm",
                    )
                x += step
        if palace is not None and kind != "capital":
            pr = 0.17 * r * k
            px, py = x1 - pr * 0.4, y0 - pr * 0.3
            d.ellipse(
                (px - pr, py - pr, px + pr, py + pr), fill=WHITE, outline=INK, width=max(1, k)
            )
            d.text(
                (px, py),
                ROMAN[palace],
                font=font(int(pr * 1.05), "extrabold"),
                fill=INK,
                anchor="mm",
            )
        if occ is not None:  # the occupier's pennant
            px, py = x0 - 0.02 * r * k, y0 - 0.05 * r * k
            fr = 0.2 * r * k
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


def _tile_code(v: GameState, t: Tile) -> str:
    if t.kind == "capital":
        return "CAP " + ROMAN[t.palace or 1] if t.palace == 1 else "CAP"
    if t.kind == "city":
        return "CITY"
    cat = catalog(v)
    code = BUILDING_CODE.get(t.id, t.id[:3].upper())
    try:
        era = cat.building_era(t.id)
    except KeyError:
        return code
    return f"{code}·{ROMAN[era]}"


def _wrap2(text: str) -> list[str]:
    words = text.split()
    if len(words) <= 1 or len(text) <= 9:
        return [text]
    best = max(
        range(1, len(words)),
        key=lambda i: -abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))),
    )
    return [" ".join(words[:best]), " ".join(words[best:])]


def draw_map(
    v: GameState, events: list[Event], seat: int | None, opts: RenderOptions
) -> tuple[Image.Image, Geometry, Changes]:
    """The map as an RGBA image, its geometry and the changes it highlights."""
    pack = v.data_pack
    g = geometry(v.map, pack, opts.scale)
    img = static_layer(v.map, pack, opts.high_contrast, opts.scale).copy()
    lay = g.layout
    r = lay.size
    ri = round(r)
    cat = catalog(v)
    board = cat.boards[v.map]
    d = ImageDraw.Draw(img)

    # Exploration tiles: face down (fog), peeked by this seat, or face up.
    for hx, ex in sorted(v.exploration.items()):
        if hx not in board.terrain:
            continue
        cx, cy = lay.centre(hx)
        if ex.face_up and ex.tile in cat.exploration:
            D.paste_centred(img, D.hex_sprite(ri, (245, 235, 205), (120, 90, 40), 0.08 * r), cx, cy)
            tile = cat.exploration[ex.tile]
            name = "Bandeiras" if tile.kind == "bandeiras" else tile.name
            lines = _wrap2(name) + ([f"FP {tile.fp}"] if tile.fp else [])
            fs = round(max(14 * opts.scale, 0.27 * r))
            y = cy - (len(lines) - 1) * fs * 0.55 - 0.1 * r
            for ln in lines:
                d.text((cx, y), ln, font=font(fs, "bold"), fill=INK, anchor="mm")
                y += fs * 1.1
        else:
            D.paste_centred(img, D.hex_sprite(ri, FOG, (70, 70, 80), 0.05 * r), cx, cy)
            d.text(
                (cx, cy - 0.15 * r),
                "?",
                font=font(round(0.7 * r), "extrabold"),
                fill=WHITE,
                anchor="mm",
                stroke_width=max(1, round(r * 0.03)),
                stroke_fill=(70, 70, 80),
            )
            if ex.tile != HIDDEN and ex.tile in cat.exploration:  # this seat peeked
                nm = cat.exploration[ex.tile].name
                d.text(
                    (cx, cy + 0.42 * r),
                    nm[:12],
                    font=font(round(max(14 * opts.scale, 0.26 * r)), "bold"),
                    fill=INK,
                    anchor="mm",
                    stroke_width=2,
                    stroke_fill=WHITE,
                )
        d.text(
            (cx, cy + 0.66 * r),
            hx,
            font=font(round(14 * opts.scale), "semibold"),
            fill=(40, 40, 40),
            anchor="mm",
        )

    ch = changes(events, seat, set(board.terrain))
    marked = set(ch.hexes) | set(ch.battles) | {b for _, b in ch.moves}
    ring = D.hex_sprite(ri, None, HIGHLIGHT, 0.16 * r)
    ring_in = D.hex_sprite(ri - round(0.16 * r), None, INK, 0.05 * r)
    for hx in sorted(marked):
        cx, cy = lay.centre(hx)
        D.paste_centred(img, ring, cx, cy)
        D.paste_centred(img, ring_in, cx, cy)

    pieces = pieces_by_hex(v)
    for hx, t in sorted(v.tiles.items()):
        if hx not in board.terrain:
            continue
        cx, cy = lay.centre(hx)
        occ_seat = occupier(v, hx, pieces)
        occ_col = colour_of(v, occ_seat) if occ_seat is not None else None
        goods = tuple(sorted((gk, n) for gk, n in t.goods.items() if n > 0))
        sprite = badge_sprite(
            t.kind,
            _tile_code(v, t),
            player_fill(colour_of(v, t.owner), opts),
            goods,
            t.palace,
            player_fill(occ_col, opts) if occ_seat is not None else None,
            player_letter(occ_col),
            player_letter(colour_of(v, t.owner)),
            r,
        )
        bx0, by0, _, _ = _badge_box(g, cx, cy)
        img.alpha_composite(sprite, (round(bx0 - 4), round(by0 - 4 - 0.2 * r)))

    for hx, ps in sorted(pieces.items()):
        if hx not in board.terrain:
            continue
        cx, cy = lay.centre(hx)
        on_tile = hx in v.tiles
        psize = round((0.6 if on_tile or len(ps) > 1 else 0.8) * r)
        y = cy + (0.43 * r if on_tile else 0.0)
        show: list[Piece | int] = list(ps) if len(ps) <= 3 else [*ps[:2], len(ps) - 2]
        step = min(psize * 0.95, 1.5 * r / max(1, len(show)))
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

    for hx in ch.battles:  # crossed swords
        cx, cy = lay.centre(hx)
        _swords(img, cx + 0.55 * r, cy - 0.55 * r, 0.3 * r)
    for a, b in ch.moves:
        (ax, ay), (bx, by) = lay.centre(a), lay.centre(b)
        length = math.hypot(bx - ax, by - ay) or 1
        # stop short of the centres so the pieces stay visible
        sx, sy = ax + (bx - ax) * 0.28 * r / length * 1.0, ay + (by - ay) * 0.28 * r / length
        ex_, ey = bx - (bx - ax) * 0.3 * r / length, by - (by - ay) * 0.3 * r / length
        spr, (ox, oy) = D.arrow_sprite(ex_ - sx, ey - sy, max(4.0, 0.14 * r), HIGHLIGHT)
        img.alpha_composite(spr, (round(sx + ox), round(sy + oy)))

    _title(img, v, g, opts)
    return img, g, ch


def _swords(img: Image.Image, cx: float, cy: float, s: float) -> None:
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

    D.paste_centred(img, D.supersampled(w, w, paint), cx, cy)


def _title(img: Image.Image, v: GameState, g: Geometry, opts: RenderOptions) -> None:
    d = ImageDraw.Draw(img)
    s = opts.scale
    x = round(16 * s)
    d.text((x, round(10 * s)), title_line(v), font=font(round(32 * s), "bold"), fill=INK)
    y2 = round(58 * s)
    status = status_line(v)
    d.text((x, y2), status, font=font(round(24 * s), "semibold"), fill=INK)
    # the players: piece (shape + letter) and colour name, right-aligned on the second line
    xr = g.width - round(16 * s)
    f = font(round(22 * s), "semibold")
    ps = round(26 * s)
    for p in reversed(v.players):
        if p.colour is None:
            continue
        name = p.colour.capitalize()
        xr -= round(f.getlength(name))
        d.text((xr, y2 + ps / 2 + 2 * s), name, font=f, fill=INK, anchor="lm")
        xr -= ps // 2 + round(6 * s)
        spr = D.piece_sprite(
            player_shape(p.colour), player_fill(p.colour, opts), player_letter(p.colour), ps
        )
        D.paste_centred(img, spr, xr, y2 + ps / 2 + 2 * s)
        xr -= ps // 2 + round(18 * s)


def focus_box(g: Geometry, ch: Changes, v: GameState) -> tuple[int, int, int, int] | None:
    """The pixel box around the last turn's action (with a margin of about two hexes)."""
    labels = set(ch.hexes) | set(ch.battles) | {h for m in ch.moves for h in m}
    if not labels:
        return None
    pts = [g.layout.centre(h) for h in labels]
    r = g.layout.size
    x0 = min(p[0] for p in pts) - 3.2 * r
    x1 = max(p[0] for p in pts) + 3.2 * r
    y0 = min(p[1] for p in pts) - 2.8 * r
    y1 = max(p[1] for p in pts) + 2.8 * r
    # at least a 4:3 box, inside the map area
    w, h = x1 - x0, y1 - y0
    if w < h * 4 / 3:
        cxm = (x0 + x1) / 2
        x0, x1 = cxm - h * 2 / 3, cxm + h * 2 / 3
    x0, y0 = max(0.0, x0), max(float(g.title_h), y0)
    x1, y1 = min(float(g.width), x1), min(float(g.map_bottom), y1)
    return (round(x0), round(y0), round(x1), round(y1))
