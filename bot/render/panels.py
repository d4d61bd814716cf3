"""Player boards (one panel per player and an overview of all) and the private hand."""

from __future__ import annotations

from PIL import Image

from bot.render.canvas import Canvas
from bot.render.common import HIDDEN, catalog, seat_name, status_line, title_line, to_play
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

W = 820
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


def _tint(c: RGB, k: float = 0.78) -> RGB:
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
    cv.text(x, y, GOOD_LETTER.get(good, "?"), 14, "extrabold", text_on(f), "mm")


def _cost(cv: Canvas, x: float, y: float, tokens: list[str], r: float = 9) -> float:
    """Cost tokens as small pips (alternatives split, 'any' as a white pip with '*')."""
    for tok in tokens:
        first = tok.split("|")[0]
        f = GOOD_FILL.get(first, WHITE)
        cv.d.ellipse(
            (cv.px(x - r), cv.px(y - r), cv.px(x + r), cv.px(y + r)), fill=f, outline=INK, width=1
        )
        if tok == "any" or "|" in tok:
            cv.text(x, y, "*" if tok == "any" else "/", 14, "extrabold", text_on(f), "mm")
        x += 2 * r + 3
    return x


def _panel(cv: Canvas, v: GameState, p: Player, y0: float, vp: int) -> float:
    """Draws one player's panel at ``y0``; returns the y below it."""
    cat = catalog(v)
    opts = cv.opts
    fill = player_fill(p.colour, opts)
    x0, x1 = 12, W - 12
    cv.rect((x0, y0, x1, y0 + 52), fill=_tint(fill), outline=fill, width=3, radius=10)
    cv.player_piece(x0 + 28, y0 + 26, p.colour, 36)
    name = seat_name(v, p.seat)
    w = cv.text(x0 + 54, y0 + 26, name, 28, "bold", anchor="lm")
    mon = cat.monarchs[p.monarch].name if p.monarch in cat.monarchs else "no monarch yet"
    cv.text(x0 + 66 + w, y0 + 28, mon, 22, "semibold", MUTED, "lm")
    right = f"{vp} VP"
    cv.text(x1 - 14, y0 + 26, right, 28, "extrabold", anchor="rm")
    if p.seat in to_play(v):
        cv.text(
            x1 - 30 - cv.width_of(right, 28, "extrabold"),
            y0 + 27,
            "to play",
            20,
            "bold",
            fill,
            "rm",
        )
    y: float = y0 + 64
    # reserve (≤ 5) and the hidden cards (counts only: never their faces)
    cv.text(x0 + 4, y + 16, "Reserve", 20, "semibold", anchor="lm")
    goods = [g for g, n in sorted(p.reserve.items()) for _ in range(n)]
    x: float = x0 + 104
    for i in range(max(RESERVE_LIMIT, len(goods))):
        _good_pip(cv, x, y + 16, goods[i] if i < len(goods) else None, 14)
        x += 32
    x = x0 + 290
    for label, n in (
        ("missions", len(p.missions)),
        ("combat", len(p.combat_cards)),
        ("gold", len(p.gold_cards)),
    ):
        cv.rect(
            (x, y + 2, x + 22, y + 30),
            fill=(90, 70, 120)
            if label == "missions"
            else (150, 40, 40)
            if label == "combat"
            else (200, 160, 0),
            radius=4,
        )
        w = cv.text(
            x + 28,
            y + 16,
            f"{n} {label[:-1] if n == 1 and label == 'missions' else label}",
            20,
            "semibold",
            anchor="lm",
        )
        x += 28 + w + 16
    y += 42
    # the seven arches: current era token, flipped tokens, upgrades
    bw = (x1 - x0) / 7
    for i, arch in enumerate(cat.arches):
        bx = x0 + i * bw
        up = p.upgrades.get(arch)
        cv.rect(
            (bx + 2, y, bx + bw - 2, y + 84),
            fill=_tint(fill, 0.55) if up else WHITE,
            outline=MUTED,
            width=1.5,
            radius=6,
        )
        aname = cat.arches[arch].name
        cv.text(
            bx + bw / 2,
            y + 14,
            aname if cv.width_of(aname, 17, "bold") < bw - 8 else aname[:6] + ".",
            17,
            "bold",
            anchor="mm",
        )
        if p.token_arch == arch:
            cv.player_piece(
                bx + bw / 2 - (16 if arch in p.under else 0),
                y + 44,
                p.colour,
                32,
                ROMAN[v.era] if 0 < v.era < 4 else "?",
            )
        if arch in p.under:
            ux = bx + bw / 2 + (18 if p.token_arch == arch else 0)
            cv.d.ellipse(
                (cv.px(ux - 14), cv.px(y + 30), cv.px(ux + 14), cv.px(y + 58)),
                fill=(200, 200, 200),
                outline=INK,
                width=1,
            )
            cv.text(ux, y + 44, ROMAN[p.under[arch]], 15, "extrabold", anchor="mm")
        if up:
            pname = cat.products[up].name if up in cat.products else up
            cv.text(bx + bw / 2, y + 72, pname, 16, "semibold", anchor="mm")
    y += 94
    # products still to make: shape, name, VP and cost
    cv.text(x0 + 4, y + 14, "To make", 20, "semibold", anchor="lm")
    x = x0 + 100
    for pid in p.products:
        pr = cat.products.get(pid)
        if pr is None:
            continue
        wname = cv.width_of(f"{pr.name} {pr.vp}", 18, "bold") + 26
        wcost = len(pr.cost) * 21
        w = max(wname, wcost) + 10
        if x + w > x1:
            x, y = x0 + 100, y + 54
        cv.d.regular_polygon(
            (cv.px(x + 10), cv.px(y + 14), cv.px(9)),
            _SHAPE_SIDES[pr.shape],
            fill=(230, 230, 230),
            outline=INK,
        )
        cv.text(x + 24, y + 14, pr.name, 18, "bold", anchor="lm")
        cv.text(
            x + 28 + cv.width_of(pr.name, 18, "bold"),
            y + 14,
            f"{pr.vp}",
            18,
            "extrabold",
            (0, 110, 0),
            "lm",
        )
        _cost(cv, x + 10, y + 38, pr.cost)
        x += w + 8
    if not p.products:
        cv.text(x, y + 14, "all made", 18, anchor="lm", fill=MUTED)
    y += 60
    # units: on the map (hex), in the reserve, never deployed
    cv.text(x0 + 4, y + 18, "Units", 20, "semibold", anchor="lm")
    x = x0 + 100
    for uid, loc in sorted(p.units.items()):
        u = cat.units.get(f"{p.colour}.{uid}")
        if u is None:
            continue
        from bot.render.common import unit_glyph

        glyph = unit_glyph(u.name, u.ability, u.vp)
        if loc == "board":
            cv.d.ellipse(
                (cv.px(x - 16), cv.px(y + 2), cv.px(x + 16), cv.px(y + 34)),
                fill=WHITE,
                outline=MUTED,
                width=max(1, cv.px(2)),
            )
            cv.text(x, y + 18, glyph, 15, "bold", MUTED, "mm")
            where = "new"
        else:
            cv.player_piece(x, y + 18, p.colour, 32, glyph)
            where = "reserve" if loc == "reserve" else loc
        cv.text(x, y + 46, where, 15, "semibold", INK if loc not in ("board",) else MUTED, "mm")
        x += 64
    x = max(x + 10, x0 + 440)
    pal = " ".join(ROMAN[n] for n in p.palaces if 0 < n < len(ROMAN)) or "none"
    cv.text(x, y + 18, f"Palaces left: {pal}", 20, "semibold", anchor="lm")
    y += 62
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
        for ln in cv.wrap(b, x1 - x0 - 8, 18):
            cv.text(x0 + 4, y + 12, ln, 18, anchor="lm")
            y += 26
    return y + 14


def _header(cv: Canvas, v: GameState, title: str) -> float:
    cv.text(14, 10, title, 28, "bold")
    cv.text(14, 50, f"{title_line(v)}   {status_line(v)}", 20, "semibold", MUTED)
    return 86


def draw_boards(v: GameState, seat: int | None, opts: RenderOptions) -> Image.Image:
    """All players' panels, one under the other."""
    cv = Canvas(W, 40 + 470 * v.n + 90, opts)
    y = _header(cv, v, "Player boards")
    vps = public_vps(v)
    for p in v.players:
        y = _panel(cv, v, p, y, vps[p.seat]) + 6
    return cv.crop_height(y)


def draw_panel(v: GameState, seat: int, opts: RenderOptions) -> Image.Image:
    cv = Canvas(W, 560, opts)
    y = _header(cv, v, f"Board of {seat_name(v, seat)}")
    y = _panel(cv, v, v.players[seat], y, public_vps(v)[seat])
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
        cv.text(x0, y + 4, title, 24, "bold")
        return y + 40

    def card(y: float, head: str, body: list[str], colour: RGB) -> float:
        lines = [ln for b in body for ln in cv.wrap(b, x1 - x0 - 30, 19)]
        h = 40 + 26 * len(lines)
        cv.rect((x0, y, x1, y + h), fill=_tint(colour, 0.85), outline=colour, width=3, radius=8)
        cv.text(x0 + 14, y + 20, head, 21, "bold", anchor="lm")
        yy = y + 44
        for ln in lines:
            cv.text(x0 + 16, yy, ln, 19, anchor="lm")
            yy += 26
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
        cv.text(x0, y, "none", 19, fill=MUTED)
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
