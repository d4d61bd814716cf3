"""The board: 16 × 11 squares (land, river), the edge coordinates, a legend — a static layer
cached per language and options — with the tiles, leaders, monuments, treasures,
catastrophes, the unification tile, the kingdoms' outlines and the last turn's squares on
top. About 1 300 px wide: a square is 78 px, readable in a phone's preview."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render import draw as D
from render import fit as F
from render.theme import HIGHLIGHT, INK, MUTED, PAPER, RGB, WHITE, RenderOptions, Weight, font
from render.tigris import glyphs as G
from render.tigris.style import (
    CORNER_FRAME,
    GRID,
    KINGDOM,
    LAND,
    LAND_HC,
    RIVER,
    RIVER_HC,
    RIVER_WAVE,
    colour_name,
    dynasty_name,
    tile_name,
)
from render.words import Words, words
from rules.tigris.data import BOARD, LABELS, MONUMENT_COLOURS, MONUMENTS
from rules.tigris.engine import label_regions
from rules.tigris.events import Event
from rules.tigris.state import CATASTROPHE, DOWN, LEADER, UP, TigrisState

CELL = 78  # px at scale 1
EDGE = 44  # the coordinate bands around the grid
TITLE_H = 128
TITLE_FS = 40
STATUS_FS = 28
EDGE_FS = 30
LABEL_FS = 14
LEGEND_FS = 24
MIN_FS = 15


@dataclass(frozen=True)
class Geometry:
    cell: int
    x0: int  # the grid's top-left corner
    y0: int
    width: int
    height: int
    grid_bottom: int
    s: float

    def box(self, sq: int) -> tuple[int, int, int, int]:
        x, y = sq % BOARD.columns, sq // BOARD.columns
        return (
            self.x0 + x * self.cell,
            self.y0 + y * self.cell,
            self.x0 + (x + 1) * self.cell,
            self.y0 + (y + 1) * self.cell,
        )

    def centre(self, sq: int) -> tuple[float, float]:
        a, b, c, d = self.box(sq)
        return ((a + c) / 2, (b + d) / 2)


@lru_cache(maxsize=32)
def geometry(scale: float, lang: str = "en") -> Geometry:
    cell = round(CELL * scale)
    edge = round(EDGE * scale)
    x0 = edge + round(8 * scale)
    y0 = round(TITLE_H * scale) + edge
    width = 2 * x0 + BOARD.columns * cell
    grid_bottom = y0 + BOARD.rows * cell + edge
    legend = _legend(None, width, grid_bottom, RenderOptions(scale=scale), words(lang))
    return Geometry(cell, x0, y0, width, round(legend), grid_bottom, scale)


# ---------------------------------------------------------------------------- static layer


@lru_cache(maxsize=16)
def static_layer(high_contrast: bool, scale: float, lang: str) -> Image.Image:
    opts = RenderOptions(high_contrast=high_contrast, scale=scale)
    g = geometry(scale, lang)
    img = Image.new("RGB", (g.width, g.height), PAPER)
    d = ImageDraw.Draw(img)
    land, river = (LAND_HC, RIVER_HC) if high_contrast else (LAND, RIVER)
    lw = max(1, round(1.5 * scale))
    wave = max(1, round(2.2 * scale))
    c = g.cell
    lf = font(round(LABEL_FS * scale), "semibold")
    for sq in range(BOARD.size):
        bx0, by0, bx1, by1 = g.box(sq)
        x0, y0, x1, y1 = float(bx0), float(by0), float(bx1), float(by1)
        is_river = sq in BOARD.river
        d.rectangle((x0, y0, x1, y1), fill=river if is_river else land)
        if is_river:  # two waves: the river reads without its colour
            for fy in (0.42, 0.7):
                y = y0 + c * fy
                for i in range(2):
                    ax = x0 + c * (0.18 + 0.34 * i)
                    d.arc(
                        (ax, y - c * 0.08, ax + c * 0.32, y + c * 0.08),
                        200,
                        340,
                        fill=RIVER_WAVE,
                        width=wave,
                    )
        d.text(
            (x0 + 4 * scale, y0 + 2 * scale),
            LABELS[sq],
            font=lf,
            fill=(60, 90, 130) if is_river else (120, 105, 75),
        )
    for i in range(BOARD.columns + 1):
        x = g.x0 + i * c
        d.line((x, g.y0, x, g.y0 + BOARD.rows * c), fill=GRID, width=lw)
    for j in range(BOARD.rows + 1):
        y = g.y0 + j * c
        d.line((g.x0, y, g.x0 + BOARD.columns * c, y), fill=GRID, width=lw)
    d.rectangle(
        (g.x0, g.y0, g.x0 + BOARD.columns * c, g.y0 + BOARD.rows * c),
        outline=INK,
        width=max(1, round(2 * scale)),
    )
    fw = max(2, round(4 * scale))
    for sq in BOARD.corners:  # the special border of a corner treasure's square
        x0, y0, x1, y1 = g.box(sq)
        d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=CORNER_FRAME, width=fw)
    ef = font(round(EDGE_FS * scale), "bold")
    top, bottom = g.y0 - round(EDGE * scale / 2), g.y0 + BOARD.rows * c + round(EDGE * scale / 2)
    for i in range(BOARD.columns):
        cx = g.x0 + i * c + c / 2
        letter = chr(ord("A") + i)
        d.text((cx, top), letter, font=ef, fill=INK, anchor="mm")
        d.text((cx, bottom), letter, font=ef, fill=INK, anchor="mm")
    for j in range(BOARD.rows):
        y = g.y0 + j * c + c / 2
        d.text((g.x0 - 8 * scale, y), str(j + 1), font=ef, fill=INK, anchor="rm")
        d.text(
            (g.x0 + BOARD.columns * c + 8 * scale, y), str(j + 1), font=ef, fill=INK, anchor="lm"
        )
    _legend(img, g.width, g.grid_bottom, opts, words(lang))
    return img


def _legend(img: Image.Image | None, width: int, top: int, opts: RenderOptions, t: Words) -> float:
    """Draws the legend (or only measures it when ``img`` is None); returns its bottom y."""
    s = opts.scale
    fs = round(LEGEND_FS * s)
    f = font(fs)
    x0 = round(16 * s)
    sw = round(fs * 1.5)
    row_h = round(sw * 1.25)
    y = float(top + round(6 * s))
    if img is not None:
        ImageDraw.Draw(img).line(
            (x0, y - 2 * s, width - x0, y - 2 * s), fill=MUTED, width=max(1, round(2 * s))
        )
    y += round(6 * s)
    items: list[tuple[Image.Image | RGB, str]] = [
        *(
            (G.tile_sprite(c, sw, opts.high_contrast), tile_name(t, c) + " · " + colour_name(t, c))
            for c in range(4)
        ),
        (G.leader_sprite(0, "bow", sw, opts.high_contrast), t("render.tigris.legend.leader")),
        (G.catastrophe_sprite(sw), t("render.tigris.legend.catastrophe")),
        (G.treasure_sprite(sw), t("render.tigris.legend.treasure")),
        (G.treasure_sprite(sw, True), t("render.tigris.legend.corner")),
        (G.down_sprite(sw), t("render.tigris.legend.down")),
        (G.unification_sprite(sw), t("render.tigris.legend.unification")),
        (RIVER_HC if opts.high_contrast else RIVER, t("render.tigris.legend.river")),
        (KINGDOM, t("render.tigris.legend.kingdom")),
        (HIGHLIGHT, t("render.tigris.legend.last_turn")),
    ]
    x = float(x0)
    room = width - 2 * x0
    for swatch, text in items:
        gap = 6 * s
        need = sw + gap + f.getlength(text)
        if need > room:  # a long word in a narrow page: shortened
            text = _fit(text, fs, "regular", room - sw - gap)
            need = sw + gap + f.getlength(text)
        if x + need > width - x0 and x > x0:
            x, y = float(x0), y + row_h
        if img is not None:
            if isinstance(swatch, Image.Image):
                D.paste_at(img, swatch, round(x), round(y))
            else:
                d = ImageDraw.Draw(img)
                lw = max(2, round(4 * s))
                if swatch in (KINGDOM, HIGHLIGHT):
                    d.rectangle(
                        (x + lw / 2, y + lw / 2, x + sw - lw / 2, y + sw - lw / 2),
                        outline=swatch,
                        width=lw,
                    )
                else:
                    d.rectangle((x, y, x + sw, y + sw), fill=swatch, outline=INK)
            D.draw_text(
                img,
                (x + sw + gap, y + sw / 2),
                text,
                fs,
                "regular",
                INK,
                "lm",
                limit=(x0, 0, width - x0, img.height),
            )
        x += need + 24 * s
    return y + row_h + 6 * s


# ------------------------------------------------------------------------------- changes

_SQUARE_KEYS = ("square", "origin")


def changed_squares(events: Iterable[Event], seat: int | None = None) -> list[int]:
    """The squares the events a seat may see name (placed, moved, removed, taken): the last
    turn's changes to highlight."""
    out: list[int] = []
    for e in events:
        if not e.visible(seat):
            continue
        vals: list[object] = [e.params.get(k) for k in _SQUARE_KEYS]
        sqs = e.params.get("squares")
        if isinstance(sqs, list):
            vals.extend(sqs)
        for v in vals:
            if isinstance(v, str) and v in BOARD.index:
                q = BOARD.index[v]
                if q not in out:
                    out.append(q)
    return out


def _squares(changed: Iterable[int | str]) -> set[int]:
    out: set[int] = set()
    for c in changed:
        if isinstance(c, str):
            if c in BOARD.index:
                out.add(BOARD.index[c])
        elif 0 <= c < BOARD.size:
            out.add(int(c))
    return out


# ------------------------------------------------------------------------------- drawing


def draw_board(
    v: TigrisState, changed: Iterable[int | str], opts: RenderOptions, lang: str = "en"
) -> Image.Image:
    t = words(lang)
    g = geometry(opts.scale, t.lang)
    img = static_layer(opts.high_contrast, opts.scale, t.lang).copy()
    d = ImageDraw.Draw(img)
    c = g.cell
    hc = opts.high_contrast
    ts = round(c * 0.88)
    dyn = [p.dynasty for p in v.players]
    cells = v.cells
    under_monument: set[int] = set()
    for tl in v.monuments.values():
        under_monument.update((tl, tl + 1, tl + BOARD.columns, tl + BOARD.columns + 1))
    for sq, code in enumerate(cells):
        if code == 0:
            continue
        cx, cy = g.centre(sq)
        if UP <= code < DOWN:
            spr = G.tile_sprite(code - UP, ts, hc)
        elif DOWN <= code < CATASTROPHE:
            spr = G.down_sprite(ts)
        elif code == CATASTROPHE:
            spr = G.catastrophe_sprite(ts)
        elif code >= LEADER:
            k = code - LEADER
            seat, colour = k >> 2, k & 3
            spr = G.leader_sprite(
                colour, dyn[seat] if seat < len(dyn) else "bow", round(c * 0.84), hc
            )
        else:
            continue
        D.paste_centred(img, spr, cx, cy)
    msz = 2 * c
    for mid, tl in sorted(v.monuments.items()):
        if mid not in MONUMENTS:
            continue
        a, b = MONUMENT_COLOURS[MONUMENTS.index(mid)]
        x0, y0, _, _ = g.box(tl)
        D.paste_at(img, G.monument_sprite(a, b, msz, hc), x0, y0)
    if 0 <= v.unification < BOARD.size:
        cx, cy = g.centre(v.unification)
        D.paste_centred(img, G.unification_sprite(round(c * 0.62)), cx, cy)
    tsz = round(c * 0.42)
    for sq in v.treasures:
        x0, y0, x1, y1 = g.box(sq)
        spr = G.treasure_sprite(tsz, sq in BOARD.corners)
        D.paste_at(img, spr, x1 - tsz - round(2 * g.s), y0 + round(2 * g.s))
    _kingdoms(d, g, v)
    ring = max(3, round(6 * g.s))
    for sq in sorted(_squares(changed)):
        x0, y0, x1, y1 = g.box(sq)
        d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=HIGHLIGHT, width=ring)
    head = header(v, g.width, opts, round(TITLE_H * opts.scale), t.lang)
    img.paste(head, (0, 0))
    return img


def _kingdoms(d: ImageDraw.ImageDraw, g: Geometry, v: TigrisState) -> None:
    """A dark line around each kingdom (a region holding a leader), on the squares' edges."""
    lab, regions = label_regions(v.cells, v.unification)
    kingdom = [any(v.cells[q] >= LEADER for q in r) for r in regions]
    w = max(3, round(7 * g.s))
    cols = BOARD.columns
    for sq, r in enumerate(lab):
        if r < 0 or not kingdom[r]:
            continue
        x0, y0, x1, y1 = g.box(sq)
        x, y = sq % cols, sq // cols

        def other(nx: int, ny: int, r: int = r) -> bool:
            if not (0 <= nx < cols and 0 <= ny < BOARD.rows):
                return True
            return lab[ny * cols + nx] != r

        h = w // 2
        if other(x, y - 1):
            d.line((x0 - h, y0, x1 + h, y0), fill=KINGDOM, width=w)
        if other(x, y + 1):
            d.line((x0 - h, y1, x1 + h, y1), fill=KINGDOM, width=w)
        if other(x - 1, y):
            d.line((x0, y0 - h, x0, y1 + h), fill=KINGDOM, width=w)
        if other(x + 1, y):
            d.line((x1, y0 - h, x1, y1 + h), fill=KINGDOM, width=w)


# -------------------------------------------------------------------------------- header


def status_text(v: TigrisState, t: Words) -> str:
    if v.phase == "over":
        return t("render.tigris.status.over")
    if v.pending:
        p = v.pending[0]
        who = dynasty_name(t, v.players[p.seat].dynasty)
        return t(f"render.tigris.status.{p.kind}", player=who)
    who = dynasty_name(t, v.players[v.active].dynasty)
    return t("render.tigris.status.play", player=who, n=v.actions_left)


def header(v: TigrisState, width: int, opts: RenderOptions, height: int, lang: str) -> Image.Image:
    """The title band: the game and turn, whose decision it is, the bag and the treasures
    left, and every dynasty's symbol and name (the active one underlined)."""
    t = words(lang)
    s = opts.scale
    img = Image.new("RGB", (width, height), PAPER)
    x0 = round(16 * s)
    room = width - 2 * x0
    lim = (x0, 0, width - x0, height)
    title = t("render.tigris.title", turn=v.turn)
    info = t("render.tigris.info", bag=v.bag_size, treasures=len(v.treasures))
    ifs = round(STATUS_FS * s)
    info_w = font(ifs, "semibold").getlength(info)
    tfs = D.fit_size(
        title, round(TITLE_FS * s), room - info_w - 30 * s, "bold", round(TITLE_FS * s * 0.7)
    )
    D.draw_text(
        img,
        (x0, round(36 * s)),
        _fit(title, tfs, "bold", room - info_w - 30 * s),
        tfs,
        "bold",
        INK,
        "lm",
        limit=(x0, 0, round(width - x0 - info_w - 30 * s), height),
        source=title,
    )
    D.draw_text(img, (width - x0, round(36 * s)), info, ifs, "semibold", MUTED, "rm", limit=lim)
    # second line: the status, then the dynasties' key on the right
    y = round(92 * s)
    ps = round(40 * s)
    kf = round(26 * s)
    keys = []
    for i, p in enumerate(v.players):
        name = dynasty_name(t, p.dynasty)
        keys.append((i, p.dynasty, name, ps + 6 * s + font(kf, "semibold").getlength(name)))
    gap = 18 * s
    keys_w = sum(k[3] for k in keys) + gap * (len(keys) - 1)
    status = status_text(v, t)
    sroom = room - keys_w - 2 * gap
    sfs = D.fit_size(status, round(STATUS_FS * s), sroom, "semibold", MIN_FS)
    D.draw_text(
        img,
        (x0, y),
        _fit(status, sfs, "semibold", sroom),
        sfs,
        "semibold",
        INK,
        "lm",
        limit=(x0, 0, round(x0 + sroom), height),
        source=status,
    )
    x = width - x0 - keys_w
    for seat, dyn, name, w in keys:
        active = v.phase != "over" and seat == (v.pending[0].seat if v.pending else v.active)
        spr = G.symbol_sprite(dyn, ps, WHITE, HIGHLIGHT if active else INK)
        D.paste_centred(img, spr, x + ps / 2, y)
        D.draw_text(
            img,
            (x + ps + 6 * s, y),
            name,
            kf,
            "bold" if active else "semibold",
            INK,
            "lm",
            limit=lim,
        )
        x += w + gap
    return img


def _fit(text: str, size: int, weight: Weight, width: float) -> str:
    """``text`` shortened after a whole word to ``width`` px (:func:`render.fit.shorten`)."""
    return F.shorten(text, width, size, weight)
