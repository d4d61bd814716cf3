"""Panels: a player's private hand (T-INFO-1: the tiles and points behind the screen) and
the dynasties' public overview (what lies in front of the screens; points and treasures only
with the ``open_scoring`` option, T-INFO-2)."""

from __future__ import annotations

from PIL import Image

from render import draw as D
from render.canvas import Canvas
from render.theme import HIGHLIGHT, INK, MUTED, PAPER, WHITE, RenderOptions
from render.tigris import glyphs as G
from render.tigris.board import status_text
from render.tigris.style import colour_name, dynasty_name, leader_name, tile_name
from render.words import Words, words
from rules.tigris.data import CATASTROPHES, LABELS
from rules.tigris.scoring import allocate
from rules.tigris.state import Player, TigrisState

W = 600  # narrow, like Brazil's boards: read in a ~400 px phone preview
X0 = 16
FADED = (205, 200, 188)


def place_sprite(cv: Canvas, spr: Image.Image, x: float, y: float) -> None:
    D.paste_centred(cv.img, spr, cv.px(x), cv.px(y))


_FADED: dict[int, tuple[Image.Image, Image.Image]] = {}


def _faded(spr: Image.Image) -> Image.Image:
    """A used or absent piece: the (cached) sprite at a third of its opacity."""
    hit = _FADED.get(id(spr))
    if hit is not None and hit[0] is spr:
        return hit[1]
    out = spr.copy()
    out.putalpha(spr.getchannel("A").point(lambda a: a // 3))
    if len(_FADED) > 256:
        _FADED.clear()
    _FADED[id(spr)] = (spr, out)
    return out


def _title(cv: Canvas, v: TigrisState, text: str, dynasty: str | None, y: float, t: Words) -> float:
    x = X0
    if dynasty is not None:
        place_sprite(cv, G.symbol_sprite(dynasty, cv.px(52), WHITE, INK), X0 + 26, y + 26)
        x = X0 + 62
    cv.text_in(x, y + 26, text, W - X0 - x, 32, "bold", INK, "lm")
    y += 60
    cv.text_in(X0, y + 14, status_text(v, t), W - 2 * X0, 20, "semibold", MUTED, "lm")
    return y + 36


def _points(
    cv: Canvas, p: Player, y: float, t: Words, big: bool, x0: float = X0, x1: float = W - X0
) -> float:
    """Points per colour (the weakest, treasures added, outlined) and, on the big variant,
    the treasures."""
    totals = allocate(p.score, p.treasures)
    weakest = totals.index(min(totals))
    col_w = (x1 - x0 - (110 if big else 0)) / 4
    ts = 44 if big else 32
    for c in range(4):
        x = x0 + c * col_w
        box = (x + 2, y, x + col_w - 4, y + (ts + 40 if big else ts + 14))
        weak = c == weakest
        cv.rect(
            box,
            fill=WHITE,
            outline=HIGHLIGHT if weak else MUTED,
            width=4 if weak else 1.5,
            radius=8,
        )
        place_sprite(
            cv,
            G.tile_sprite(c, cv.px(ts), cv.opts.high_contrast),
            x + 8 + ts / 2,
            box[1] + 7 + ts / 2,
        )
        nx = x + 16 + ts
        cv.text_in(
            nx,
            box[1] + 7 + ts / 2,
            str(p.score[c]),
            box[2] - nx - 4,
            34 if big else 26,
            "extrabold",
            INK,
            "lm",
        )
        if big:
            cv.text_in(
                (box[0] + box[2]) / 2,
                box[3] - 14,
                colour_name(t, c),
                col_w - 12,
                16,
                "regular",
                MUTED,
                "mm",
            )
    if not big:
        return y + ts + 14
    tx = x0 + 4 * col_w + 6
    tb = (tx, y, x1, y + ts + 40)
    cv.rect(tb, fill=WHITE, outline=MUTED, width=1.5, radius=8)
    place_sprite(cv, G.treasure_sprite(cv.px(30)), tx + 22, tb[1] + 7 + ts / 2)
    cv.text_in(
        tx + 42,
        tb[1] + 7 + ts / 2,
        str(p.treasures),
        tb[2] - tx - 46,
        34 if big else 26,
        "extrabold",
        INK,
        "lm",
    )
    if big:
        cv.text_in(
            (tb[0] + tb[2]) / 2,
            tb[3] - 14,
            t("render.tigris.hand.treasures"),
            tb[2] - tb[0] - 8,
            16,
            "regular",
            MUTED,
            "mm",
        )
    return tb[3]


def draw_hand(v: TigrisState, seat: int, opts: RenderOptions, lang: str = "en") -> Image.Image:
    """``seat``'s private panel (from ``view(state, seat)``)."""
    t = words(lang)
    cv = Canvas(W, 900, opts)
    p = v.players[seat]
    y = _title(
        cv, v, t("render.tigris.hand.title", dynasty=dynasty_name(t, p.dynasty)), p.dynasty, 12.0, t
    )
    cv.text_in(X0, y, t("render.tigris.hand.tiles"), W - 2 * X0, 22, "bold", INK, "lt")
    y += 36
    tiles = [c for c in range(4) for _ in range(max(0, p.hand[c]))]
    step = (W - 2 * X0) / 6
    ts = 78
    for i in range(6):
        cx = X0 + step * i + step / 2
        if i < len(tiles):
            place_sprite(cv, G.tile_sprite(tiles[i], cv.px(ts), opts.high_contrast), cx, y + ts / 2)
            cv.text_in(
                cx, y + ts + 14, tile_name(t, tiles[i]), step - 12, 17, "semibold", INK, "mm"
            )
        else:  # an empty place behind the screen
            cv.rect(
                (cx - ts / 2 + 4, y + 4, cx + ts / 2 - 4, y + ts - 4),
                fill=None,
                outline=FADED,
                width=2,
                radius=10,
            )
    y += ts + 40
    cv.text_in(X0, y, t("render.tigris.hand.supply"), (W - 2 * X0) * 0.66, 22, "bold", INK, "lt")
    cv.text_in(
        X0 + (W - 2 * X0) * 0.7,
        y,
        t("render.tigris.hand.catastrophes"),
        (W - 2 * X0) * 0.3,
        22,
        "bold",
        INK,
        "lt",
    )
    y += 36
    ls = 64
    lstep = (W - 2 * X0) * 0.66 / 4
    for c in range(4):
        cx = X0 + lstep * c + lstep / 2
        spr = G.leader_sprite(c, p.dynasty, cv.px(ls), opts.high_contrast)
        on = p.leaders[c]
        place_sprite(cv, _faded(spr) if on >= 0 else spr, cx, y + ls / 2)
        if on >= 0:  # on the board: where
            cv.text(cx, y + ls / 2, LABELS[on], 22, "extrabold", INK, "mm")
        cv.text_in(
            cx,
            y + ls + 14,
            leader_name(t, c),
            lstep - 4,
            17,
            "semibold",
            INK if on < 0 else MUTED,
            "mm",
        )
    cs = 52
    for i in range(CATASTROPHES):
        cx = X0 + (W - 2 * X0) * 0.7 + 30 + i * (cs + 12)
        spr = G.catastrophe_sprite(cv.px(cs))
        place_sprite(cv, spr if i < p.catastrophes else _faded(spr), cx, y + ls / 2)
    y += ls + 40
    cv.text_in(X0, y, t("render.tigris.hand.points"), W - 2 * X0, 22, "bold", INK, "lt")
    y += 36
    y = _points(cv, p, y, t, True) + 14
    totals = allocate(p.score, p.treasures)
    cv.text_in(
        X0,
        y + 12,
        t("render.tigris.hand.score", n=min(totals)),
        W - 2 * X0,
        19,
        "semibold",
        INK,
        "lm",
    )
    y += 32
    cv.text_in(X0, y + 12, t("render.tigris.hand.private"), W - 2 * X0, 17, "regular", MUTED, "lm")
    y += 34
    return cv.crop_height(y)


def draw_players(v: TigrisState, opts: RenderOptions, lang: str = "en") -> Image.Image:
    """Every dynasty's public panel. Draws only what lies in front of the screens (never a
    hand's tiles; points and treasures only with ``open_scoring`` or once the game is over),
    whatever view it is given."""
    t = words(lang)
    n = len(v.players)
    cv = Canvas(W, 140 + 240 * n, opts)
    y = _title(cv, v, t("render.tigris.players.title"), None, 8.0, t)
    # points and treasures: with open scoring, and once the game is over (the screens are
    # lifted, T-FINAL-1; the view shows them then)
    open_scoring = v.options.open_scoring or v.phase == "over"
    deciding = -1 if v.phase == "over" else (v.pending[0].seat if v.pending else v.active)
    for seat, p in enumerate(v.players):
        top = y
        h = 200 if open_scoring else 168
        active = seat == deciding
        cv.rect(
            (X0, top, W - X0, top + h),
            fill=(255, 240, 250) if active else WHITE,
            outline=HIGHLIGHT if active else MUTED,
            width=3 if active else 1.5,
            radius=12,
        )
        place_sprite(
            cv,
            G.symbol_sprite(p.dynasty, cv.px(44), WHITE, HIGHLIGHT if active else INK),
            X0 + 34,
            top + 32,
        )
        right = W - X0 - 14
        # the hand: its size as tile backs
        hs = 20
        backs_w = 6 * (hs + 3)
        hx = right - backs_w
        for i in range(6):
            spr = G.down_sprite(cv.px(hs))
            place_sprite(
                cv, spr if i < p.hand_size else _faded(spr), hx + i * (hs + 3) + hs / 2, top + 32
            )
        label = t("render.tigris.players.hand") + f" {p.hand_size}"
        lw = min(cv.width_of(label, 20, "semibold"), 150)
        cv.text_in(hx - 8, top + 32, label, lw, 20, "semibold", INK, "rm")
        name_room = hx - 8 - lw - 12 - (X0 + 64)
        name = dynasty_name(t, p.dynasty)
        if active:
            name += " · " + t("render.tigris.players.to_play")
        cv.text_in(X0 + 64, top + 32, name, name_room, 26, "bold", INK, "lm")
        # leaders: in supply (whole) or on the board (faded, with their square)
        ly = top + 62
        ls = 46
        step = 58
        lx = X0 + 14
        for c in range(4):
            spr = G.leader_sprite(c, p.dynasty, cv.px(ls), opts.high_contrast)
            on = p.leaders[c]
            cx = lx + c * step + ls / 2
            place_sprite(cv, _faded(spr) if on >= 0 else spr, cx, ly + ls / 2)
            if on >= 0:
                cv.text(cx, ly + ls / 2, LABELS[on], 18, "extrabold", INK, "mm")
            else:
                cv.text_in(
                    cx,
                    ly + ls + 12,
                    t("render.tigris.players.supply"),
                    step - 4,
                    16,
                    "regular",
                    MUTED,
                    "mm",
                )
        # catastrophes left, treasures (each labelled below)
        gx = lx + 4 * step + 14
        gw = (right - gx - 16) / 2
        cs = 36
        for i in range(CATASTROPHES):
            spr = G.catastrophe_sprite(cv.px(cs))
            ccx = gx + gw / 2 + (i - (CATASTROPHES - 1) / 2) * (cs + 8)
            place_sprite(cv, spr if i < p.catastrophes else _faded(spr), ccx, ly + ls / 2)
        cv.text_in(
            gx + gw / 2,
            ly + ls + 12,
            t("render.tigris.players.catastrophes"),
            gw,
            16,
            "regular",
            MUTED,
            "mm",
        )
        tx = gx + gw + 16
        place_sprite(cv, G.treasure_sprite(cv.px(32)), tx + gw / 2 - 18, ly + ls / 2)
        tr = str(p.treasures) if open_scoring else "?"
        cv.text(tx + gw / 2 + 4, ly + ls / 2, tr, 26, "extrabold", INK, "lm")
        cv.text_in(
            tx + gw / 2,
            ly + ls + 12,
            t("render.tigris.players.treasures"),
            gw,
            16,
            "regular",
            MUTED,
            "mm",
        )
        y2 = ly + ls + 32
        if open_scoring:
            _points(cv, p, y2, t, False, X0 + 12, W - X0 - 10)
        else:
            cv.text_in(
                X0 + 14,
                y2 + 6,
                t("render.tigris.players.hidden"),
                W - 2 * X0 - 28,
                16,
                "regular",
                MUTED,
                "lm",
            )
        y = top + h + 12
    return cv.crop_height(y + 4)


__all__ = ["PAPER", "draw_hand", "draw_players"]
