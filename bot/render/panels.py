"""Player boards (one panel per player and an overview of all) and the private hand."""

from __future__ import annotations

from PIL import Image

from bot.render.canvas import Canvas
from bot.render.common import (
    HIDDEN,
    catalog,
    seat_name,
    status_line,
    title_line,
    to_play,
    unit_glyph,
)
from bot.render.theme import (
    GOOD_FILL,
    GOOD_LETTER,
    INK,
    MUTED,
    PAPER,
    RGB,
    ROMAN,
    WHITE,
    RenderOptions,
    player_fill,
    text_on,
)
from rules import score
from rules.state import GameState, Player

W = 600  # narrow: a phone preview is ~400 px wide, so body text stays ≥ 13 px
RESERVE_LIMIT = 5
_SHAPE_SIDES = {"square": 4, "pentagon": 5, "octagon": 8}


def public_vps(v: GameState) -> dict[int, int]:
    """VP anyone can count now: the score without hidden missions and gold cards."""
    pub = v.model_copy(
        update={
            "players": [p.model_copy(update={"missions": [], "gold_cards": []}) for p in v.players]
        }
    )
    return {p.seat: int(score(pub, p.seat)["total"]) for p in v.players}


def tint(c: RGB, k: float = 0.78) -> RGB:
    return (
        round(c[0] + (255 - c[0]) * k),
        round(c[1] + (255 - c[1]) * k),
        round(c[2] + (255 - c[2]) * k),
    )


def _good_pip(cv: Canvas, x: float, y: float, good: str | None, r: float = 13) -> None:
    d, px = cv.d, cv.px
    box = (px(x - r), px(y - r), px(x + r), px(y + r))
    if good is None:
        d.ellipse(box, fill=PAPER, outline=MUTED, width=max(1, px(1.5)))
        return
    f = GOOD_FILL.get(good, (200, 200, 200))
    d.ellipse(box, fill=f, outline=INK, width=max(1, px(1.5)))
    cv.text(x, y, GOOD_LETTER.get(good, "?"), 16, "extrabold", text_on(f), "mm")


def _cost(cv: Canvas, x: float, y: float, tokens: list[str], r: float = 9) -> float:
    """Cost tokens as small pips (alternatives split, 'any' as a white pip with '*')."""
    for tok in tokens:
        first = tok.split("|")[0]
        f = GOOD_FILL.get(first, WHITE)
        cv.d.ellipse(
            (cv.px(x - r), cv.px(y - r), cv.px(x + r), cv.px(y + r)), fill=f, outline=INK, width=1
        )
        if tok == "any" or "|" in tok:
            cv.text(x, y, "*" if tok == "any" else "/", 16, "extrabold", text_on(f), "mm")
        x += 2 * r + 3
    return x


def _panel(cv: Canvas, v: GameState, p: Player, y0: float, vp: int, playing: bool) -> float:
    """Draws one player's panel at ``y0``; returns the y below it. Laid out for a 600 px wide
    page so that its text stays ≥ 13 px in a 400 px phone preview."""
    cat = catalog(v)
    opts = cv.opts
    fill = player_fill(p.colour, opts)
    x0, x1 = 10, W - 10
    cv.rect((x0, y0, x1, y0 + 56), fill=tint(fill), outline=fill, width=3, radius=10)
    cv.player_piece(x0 + 28, y0 + 28, p.colour, 40)
    name = seat_name(v, p.seat)
    w = cv.text(x0 + 56, y0 + 28, name, 30, "bold", anchor="lm")
    right = f"{vp} VP"
    xr = x1 - 12 - cv.text(x1 - 12, y0 + 28, right, 32, "extrabold", anchor="rm")
    if playing:
        xr -= 12 + cv.text(xr - 12, y0 + 29, "to play", 22, "extrabold", _dark(fill), "rm")
    mon = cat.monarchs[p.monarch].name if p.monarch in cat.monarchs else "no monarch yet"
    room = xr - (x0 + 68 + w) - 10
    if room > 40:
        cv.text_in(x0 + 68 + w, y0 + 30, mon, room, 22, "semibold", MUTED, "lm")
    y: float = y0 + 66
    # reserve (≤ 5)
    cv.text(x0 + 4, y + 17, "Reserve", 22, "semibold", anchor="lm")
    goods = [g for g, n in sorted(p.reserve.items()) for _ in range(n)]
    x: float = x0 + 112
    for i in range(max(RESERVE_LIMIT, len(goods))):
        _good_pip(cv, x, y + 17, goods[i] if i < len(goods) else None, 15)
        x += 35
    # palaces left, on the same line
    pal = " ".join(ROMAN[n] for n in p.palaces if 0 < n < len(ROMAN)) or "none"
    cv.text(x1 - 4, y + 17, f"Palaces {pal}", 22, "semibold", anchor="rm")
    y += 42
    # the hidden cards: counts only, never their faces
    x = x0 + 4
    for label, n, colour in (
        ("missions", len(p.missions), (90, 70, 120)),
        ("combat", len(p.combat_cards), (150, 40, 40)),
        ("gold", len(p.gold_cards), (200, 160, 0)),
    ):
        cv.rect((x, y + 1, x + 24, y + 33), fill=colour, radius=4)
        cv.text(x + 12, y + 17, str(n), 20, "extrabold", text_on(colour), "mm")
        text = f"{label[:-1] if n == 1 and label == 'missions' else label}"
        x += 32 + cv.text(x + 32, y + 17, text, 22, "semibold", anchor="lm") + 24
    cv.text(x1 - 4, y + 17, "hidden cards", 20, "regular", MUTED, "rm")
    y += 44
    # the seven arches (4 + 3 a row): current era token, flipped tokens, upgrade products
    per_row = 4
    bw = (x1 - x0) / per_row
    bh = 84
    for i, arch in enumerate(cat.arches):
        bx = x0 + (i % per_row) * bw
        by = y + (i // per_row) * (bh + 6)
        up = p.upgrades.get(arch)
        cv.rect(
            (bx + 2, by, bx + bw - 2, by + bh),
            fill=tint(fill, 0.55) if up else WHITE,
            outline=MUTED,
            width=1.5,
            radius=6,
        )
        aname = cat.arches[arch].name
        cv.text_in(bx + bw / 2, by + 15, aname, bw - 10, 20, "bold", anchor="mm")
        if p.token_arch == arch:
            cv.player_piece(
                bx + bw / 2 - (18 if arch in p.under else 0),
                by + 44,
                p.colour,
                32,
                ROMAN[v.era] if 0 < v.era < 4 else "?",
            )
        if arch in p.under:
            ux = bx + bw / 2 + (18 if p.token_arch == arch else 0)
            cv.d.ellipse(
                (cv.px(ux - 15), cv.px(by + 29), cv.px(ux + 15), cv.px(by + 59)),
                fill=(200, 200, 200),
                outline=INK,
                width=1,
            )
            cv.text(ux, by + 44, ROMAN[p.under[arch]], 16, "extrabold", anchor="mm")
        if up:
            pname = cat.products[up].name if up in cat.products else up
            cv.text_in(bx + bw / 2, by + 72, pname, bw - 8, 18, "semibold", anchor="mm")
    rows = -(-len(cat.arches) // per_row)
    y += rows * (bh + 6) + 6
    # products still to make: shape, name, VP and cost
    cv.text(x0 + 4, y + 15, "To make", 22, "semibold", anchor="lm")
    x = x0 + 112
    for pid in p.products:
        pr = cat.products.get(pid)
        if pr is None:
            continue
        wname = cv.width_of(f"{pr.name} {pr.vp}", 20, "bold") + 30
        wcost = len(pr.cost) * 23
        w = max(wname, wcost) + 10
        if x + w > x1:
            x, y = x0 + 112, y + 58
        cv.d.regular_polygon(
            (cv.px(x + 10), cv.px(y + 15), cv.px(10)),
            _SHAPE_SIDES[pr.shape],
            fill=(230, 230, 230),
            outline=INK,
        )
        cv.text(x + 26, y + 15, pr.name, 20, "bold", anchor="lm")
        cv.text(
            x + 31 + cv.width_of(pr.name, 20, "bold"),
            y + 15,
            f"{pr.vp}",
            20,
            "extrabold",
            (0, 110, 0),
            "lm",
        )
        _cost(cv, x + 10, y + 41, pr.cost, 10)
        x += w + 8
    if not p.products:
        cv.text(x, y + 15, "all made", 20, anchor="lm", fill=MUTED)
        y -= 22
    y += 64
    # units: on the map (hex), in the reserve, never deployed
    cv.text(x0 + 4, y + 19, "Units", 22, "semibold", anchor="lm")
    x = x0 + 112
    for uid, loc in sorted(p.units.items()):
        u = cat.units.get(f"{p.colour}.{uid}")
        if u is None:
            continue
        glyph = unit_glyph(u.name, u.ability, u.vp)
        if x + 30 > x1:
            x, y = x0 + 112, y + 66
        if loc == "board":
            cv.d.ellipse(
                (cv.px(x - 17), cv.px(y + 2), cv.px(x + 17), cv.px(y + 36)),
                fill=WHITE,
                outline=MUTED,
                width=max(1, cv.px(2)),
            )
            cv.text(x, y + 19, glyph, 16, "bold", MUTED, "mm")
            where = "new"
        else:
            cv.player_piece(x, y + 19, p.colour, 36, glyph)
            where = "reserve" if loc == "reserve" else loc
        cv.text(x, y + 50, where, 17, "semibold", INK if loc != "board" else MUTED, "mm")
        x += 68
    y += 70
    # paintings, kept tiles, revealed missions
    bits = []
    if p.paintings:
        bits.append(
            "Paintings: "
            + ", ".join(cat.paintings[x].name if x in cat.paintings else x for x in p.paintings)
        )
    if p.revealed:
        bits.append(
            "Missions done: "
            + ", ".join(cat.missions[m].name if m in cat.missions else m for m in p.revealed)
        )
    if p.kept_tiles:
        bits.append(
            "Tiles: "
            + ", ".join(
                cat.exploration[t].name if t in cat.exploration else t for t in p.kept_tiles
            )
        )
    if p.victoria:
        bits.append(
            "Victoria: " + ", ".join(cat.products[t].name for t in p.victoria if t in cat.products)
        )
    if p.factory:
        bits.append(
            "Factory: " + ", ".join(cat.products[t].name for t in p.factory if t in cat.products)
        )
    if not bits:
        bits = ["No paintings yet"]
    for b in bits:
        for ln in cv.wrap(b, x1 - x0 - 8, 20):
            cv.text(x0 + 4, y + 13, ln, 20, anchor="lm")
            y += 28
    return y + 14


def _dark(c: RGB) -> RGB:
    """A darker shade of a player colour, for text on that colour's tint."""
    return (round(c[0] * 0.6), round(c[1] * 0.6), round(c[2] * 0.6))


def _header(cv: Canvas, v: GameState, title: str) -> float:
    cv.text(12, 8, title, 34, "bold")
    y = 56.0
    for part in (title_line(v), status_line(v)):
        for ln in cv.wrap(part, W - 24, 22, "semibold"):
            cv.text(12, y, ln, 22, "semibold", MUTED)
            y += 30
    return y + 12


def draw_boards(v: GameState, seat: int | None, opts: RenderOptions) -> Image.Image:
    """All players' panels, one under the other (one column: a phone preview is
    width-limited, so a narrow, tall page reads better than a wide one)."""
    cv = Canvas(W, 120 + 640 * v.n, opts)
    y = _header(cv, v, "Player boards")
    vps = public_vps(v)
    playing = set(to_play(v))
    for p in v.players:
        y = _panel(cv, v, p, y, vps[p.seat], p.seat in playing) + 8
    return cv.crop_height(y)


def draw_panel(v: GameState, seat: int, opts: RenderOptions) -> Image.Image:
    cv = Canvas(W, 800, opts)
    y = _header(cv, v, f"Board of {seat_name(v, seat)}")
    y = _panel(cv, v, v.players[seat], y, public_vps(v)[seat], seat in to_play(v))
    return cv.crop_height(y)


def draw_hand(v: GameState, seat: int, opts: RenderOptions) -> Image.Image:
    """One seat's secrets, drawn from that seat's own view (masked cards are never named)."""
    from rules.scoring import describe_objective, objective_count

    cat = catalog(v)
    p = v.players[seat]
    cv = Canvas(W, 2400, opts)
    y = _header(cv, v, f"Your hand — {seat_name(v, seat)}")
    x0, x1 = 14, W - 14

    def section(title: str, y: float) -> float:
        cv.text(x0, y + 4, title, 26, "bold")
        return y + 42

    def card(y: float, head: str, body: list[str], colour: RGB) -> float:
        lines = [ln for b in body for ln in cv.wrap(b, x1 - x0 - 30, 20)]
        h = 42 + 28 * len(lines)
        cv.rect((x0, y, x1, y + h), fill=tint(colour, 0.85), outline=colour, width=3, radius=8)
        cv.text_in(x0 + 14, y + 21, head, x1 - x0 - 24, 22, "bold", anchor="lm")
        yy = y + 47
        for ln in lines:
            cv.text(x0 + 16, yy, ln, 20, anchor="lm")
            yy += 28
        return y + h + 10

    y = section(f"Missions kept ({len(p.missions)})", y)
    for mid in p.missions:
        m = cat.missions.get(mid)
        if m is None:
            continue
        body = []
        for ob in m.objectives:
            have = objective_count(v, seat, ob)
            body.append(
                f"• {describe_objective(ob)}: {min(have, ob.count)}/{ob.count}"
                + (" — done" if have >= ob.count else "")
            )
        y = card(y, f"Era {ROMAN[m.era]} · {m.name} ({m.vp} VP)", body, (90, 70, 120))
    if not p.missions:
        cv.text(x0, y, "none", 20, fill=MUTED)
        y += 32
    y = section(f"Combat cards ({len(p.combat_cards)})", y + 6)
    for cid in p.combat_cards:
        c = cat.combat_cards.get(cid)
        if c is not None:
            y = card(y, c.name, [c.text], (150, 40, 40))
    y = section(f"Gold cards ({len(p.gold_cards)})", y + 6)
    for gid in p.gold_cards:
        gc = cat.gold_cards.get(gid)
        if gc is not None:
            y = card(y, f"{gc.name} ({gc.kind})", [gc.text], (200, 160, 0))
    peeks = {
        h: t
        for h, t in p.peeks.items()
        if t != HIDDEN
        and t in cat.exploration
        and h in v.exploration
        and not v.exploration[h].face_up
    }
    if peeks:
        y = section("Tiles you looked at", y + 6)
        for h, t in sorted(peeks.items()):
            y = card(y, f"{h}: {cat.exploration[t].name}", [cat.exploration[t].text], (120, 90, 40))
    return cv.crop_height(y + 10)


__all__ = ["draw_boards", "draw_hand", "draw_panel", "public_vps"]
