"""Player boards (one panel per player and an overview of all) and the private hand."""

from __future__ import annotations

from typing import Any

from PIL import Image

from i18n.texts import component_text
from render.brazil.common import (
    HIDDEN,
    catalog,
    seat_name,
    status_line,
    title_line,
    to_play,
    unit_glyph,
)
from render.brazil.style import GOOD_FILL
from render.canvas import Canvas
from render.theme import (
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
from render.words import Words, nfc, words
from rules.brazil import score
from rules.brazil.catalog import Objective
from rules.brazil.state import GameState, Player

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


def _good_pip(cv: Canvas, t: Words, x: float, y: float, good: str | None, r: float = 13) -> None:
    d, px = cv.d, cv.px
    box = (px(x - r), px(y - r), px(x + r), px(y + r))
    if good is None:
        d.ellipse(box, fill=PAPER, outline=MUTED, width=max(1, px(1.5)))
        return
    f = GOOD_FILL.get(good, (200, 200, 200))
    d.ellipse(box, fill=f, outline=INK, width=max(1, px(1.5)))
    cv.text_in(x, y, t.initial("good", good), 2 * r - 2, 16, "extrabold", text_on(f), "mm")


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


def _panel(
    cv: Canvas, v: GameState, p: Player, y0: float, vp: int, playing: bool, t: Words
) -> float:
    """Draws one player's panel at ``y0``; returns the y below it. Laid out for a 600 px wide
    page so that its text stays ≥ 13 px in a 400 px phone preview; a longer language's labels
    shrink or are shortened to their boxes."""
    cat = catalog(v)
    opts = cv.opts
    fill = player_fill(p.colour, opts)
    x0, x1 = 10, W - 10
    cv.rect((x0, y0, x1, y0 + 56), fill=tint(fill), outline=fill, width=3, radius=10)
    cv.player_piece(x0 + 28, y0 + 28, p.colour, 40, t.colour_initial(p.colour))
    name = seat_name(v, p.seat, t)
    right = t("render.panel.vp", vp=vp)
    xr = x1 - 12 - cv.text_in(x1 - 12, y0 + 28, right, 140, 32, "extrabold", anchor="rm")
    if playing:
        xr -= 12 + cv.text_in(
            xr - 12, y0 + 29, t("render.panel.to_play"), 120, 22, "extrabold", _dark(fill), "rm"
        )
    w = cv.text_in(x0 + 56, y0 + 28, name, xr - 12 - (x0 + 56), 30, "bold", anchor="lm")
    mon = (
        t.term("monarch", p.monarch, cat.monarchs[p.monarch].name)
        if p.monarch in cat.monarchs
        else t("render.panel.no_monarch")
    )
    room = xr - (x0 + 68 + w) - 10
    if room > 40:
        cv.text_in(x0 + 68 + w, y0 + 30, mon, room, 22, "semibold", MUTED, "lm", 2, 23)
    y: float = y0 + 66
    # reserve (≤ 5)
    # the label stops short of the first pip's left edge (x0 + 112 - 15)
    cv.text_in(x0 + 4, y + 17, t("render.panel.reserve"), 89, 22, "semibold", anchor="lm")
    goods = [g for g, n in sorted(p.reserve.items()) for _ in range(n)]
    x: float = x0 + 112
    for i in range(max(RESERVE_LIMIT, len(goods))):
        _good_pip(cv, t, x, y + 17, goods[i] if i < len(goods) else None, 15)
        x += 35
    # palaces left, on the same line
    pal = " ".join(ROMAN[n] for n in p.palaces if 0 < n < len(ROMAN)) or t("render.none")
    pips_end = x0 + 112 + 35 * max(RESERVE_LIMIT, len(goods)) - 15
    cv.text_in(
        x1 - 4,
        y + 17,
        t("render.panel.palaces", palaces=pal),
        x1 - 4 - pips_end - 10,
        22,
        "semibold",
        anchor="rm",
    )
    y += 42
    # the hidden cards: counts only, never their faces
    x = x0 + 4
    hidden = t("render.panel.hidden_cards")
    hidden_w = min(cv.extent_of(hidden, 20, "regular", "r"), 150.0)
    counts = (
        (t("render.panel.missions", n=len(p.missions)), len(p.missions), (90, 70, 120)),
        (t("render.panel.combat", n=len(p.combat_cards)), len(p.combat_cards), (150, 40, 40)),
        (t("render.panel.gold", n=len(p.gold_cards)), len(p.gold_cards), (200, 160, 0)),
    )
    # the three counts share what the right-hand note leaves (each label ≥ its share)
    free = x1 - 4 - hidden_w - 12 - x0 - 4 - 3 * (32 + 24)
    wants = [cv.extent_of(label, 22, "semibold") for label, _, _ in counts]
    share = [free / 3] * 3 if sum(wants) > free else wants
    for (label, n, colour), most in zip(counts, share, strict=True):
        cv.rect((x, y + 1, x + 24, y + 33), fill=colour, radius=4)
        cv.text(x + 12, y + 17, str(n), 20, "extrabold", text_on(colour), "mm")
        x += 32 + cv.text_in(x + 32, y + 17, label, most, 22, "semibold", anchor="lm") + 24
    cv.text_in(x1 - 4, y + 17, hidden, hidden_w, 20, "regular", MUTED, "rm")
    y += 44
    # the seven arches (4 + 3 a row): current era token, flipped tokens, upgrade products
    per_row = 4
    bw = (x1 - x0) / per_row
    arch_names = {a: t.term("arch", a, cat.arches[a].name) for a in cat.arches}
    # a name too long for one line (Gemälde erwerben) takes two: every box grows by a line
    two = any(len(cv.fitted(n, bw - 10, 20, "bold", 2, "m").lines) > 1 for n in arch_names.values())
    dy = 20 if two else 0
    bh = 84 + dy
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
        cv.text_in(
            bx + bw / 2,
            by + 15 + dy / 2,
            arch_names[arch],
            bw - 10,
            20,
            "bold",
            anchor="mm",
            lines=2,
        )
        if p.token_arch == arch:
            cv.player_piece(
                bx + bw / 2 - (18 if arch in p.under else 0),
                by + 44 + dy,
                p.colour,
                32,
                ROMAN[v.era] if 0 < v.era < 4 else "?",
            )
        if arch in p.under:
            ux = bx + bw / 2 + (18 if p.token_arch == arch else 0)
            cv.d.ellipse(
                (cv.px(ux - 15), cv.px(by + 29 + dy), cv.px(ux + 15), cv.px(by + 59 + dy)),
                fill=(200, 200, 200),
                outline=INK,
                width=1,
            )
            cv.text(ux, by + 44 + dy, ROMAN[p.under[arch]], 16, "extrabold", anchor="mm")
        if up:
            pname = t.term("product", up, cat.products[up].name) if up in cat.products else up
            cv.text_in(bx + bw / 2, by + 72 + dy, pname, bw - 8, 18, "semibold", anchor="mm")
    rows = -(-len(cat.arches) // per_row)
    y += rows * (bh + 6) + 6
    # products still to make: shape, name, VP and cost
    cv.text_in(x0 + 4, y + 15, t("render.panel.to_make"), 104, 22, "semibold", anchor="lm")
    x = x0 + 112
    for pid in p.products:
        pr = cat.products.get(pid)
        if pr is None:
            continue
        prname = t.term("product", pid, pr.name)
        wname = min(cv.width_of(f"{prname} {pr.vp}", 20, "bold"), x1 - x0 - 112 - 40) + 30
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
        nw = cv.text_in(
            x + 26,
            y + 15,
            prname,
            min(
                cv.extent_of(prname, 20, "bold"),
                x1 - x0 - 112 - 40 - cv.width_of(f" {pr.vp}", 20, "bold"),
            ),
            20,
            "bold",
            anchor="lm",
        )
        cv.text(
            x + 31 + nw,
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
        cv.text_in(x, y + 15, t("render.panel.all_made"), x1 - x, 20, anchor="lm", fill=MUTED)
        y -= 22
    y += 64
    # units: on the map (hex), in the reserve, never deployed
    # the first piece's left edge is at x0 + 112 - 18: the label stops short of it
    cv.text_in(x0 + 4, y + 19, t("render.panel.units"), 86, 22, "semibold", anchor="lm")
    x = x0 + 112
    for uid, loc in sorted(p.units.items()):
        u = cat.units.get(f"{p.colour}.{uid}")
        if u is None:
            continue
        glyph = unit_glyph(u.ability, u.vp, t)
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
            where = t("render.panel.unit_new")
        else:
            cv.player_piece(x, y + 19, p.colour, 36, glyph)
            where = t("render.panel.unit_reserve") if loc == "reserve" else loc
        cv.text_in(x, y + 50, where, 64, 17, "semibold", INK if loc != "board" else MUTED, "mm")
        x += 68
    y += 70
    # paintings, kept tiles, revealed missions
    bits = []

    def names(kind: str, ids: list[str], book: dict[str, Any]) -> list[str]:
        return [t.term(kind, x, book[x].name) if x in book else x for x in ids]

    if p.paintings:
        bits.append(
            t("render.panel.paintings", names=names("painting", p.paintings, cat.paintings))
        )
    if p.revealed:
        bits.append(
            t("render.panel.missions_done", names=names("mission", p.revealed, cat.missions))
        )
    if p.kept_tiles:
        bits.append(
            t("render.panel.tiles", names=names("exploration", p.kept_tiles, cat.exploration))
        )
    if p.victoria:
        made = [x for x in p.victoria if x in cat.products]
        bits.append(t("render.panel.victoria", names=names("product", made, cat.products)))
    if p.factory:
        made = [x for x in p.factory if x in cat.products]
        bits.append(t("render.panel.factory", names=names("product", made, cat.products)))
    if not bits:
        bits = [t("render.panel.no_paintings")]
    for b in bits:
        for ln in cv.wrap(b, x1 - x0 - 8, 20):
            cv.text_in(x0 + 4, y + 13, ln, x1 - x0 - 8, 20, anchor="lm")
            y += 28
    return y + 14


def _dark(c: RGB) -> RGB:
    """A darker shade of a player colour, for text on that colour's tint."""
    return (round(c[0] * 0.6), round(c[1] * 0.6), round(c[2] * 0.6))


def _header(cv: Canvas, v: GameState, title: str, t: Words) -> float:
    cv.text_in(12, 8, title, W - 24, 34, "bold")
    y = 56.0
    for part in (title_line(v, t), status_line(v, t)):
        for ln in cv.wrap(part, W - 24, 22, "semibold"):
            cv.text_in(12, y, ln, W - 24, 22, "semibold", MUTED)
            y += 30
    return y + 12


def draw_boards(
    v: GameState, seat: int | None, opts: RenderOptions, lang: str = "en"
) -> Image.Image:
    """All players' panels, one under the other (one column: a phone preview is
    width-limited, so a narrow, tall page reads better than a wide one)."""
    t = words(lang)
    cv = Canvas(W, 120 + 700 * v.n, opts)
    y = _header(cv, v, t("render.boards.title"), t)
    vps = public_vps(v)
    playing = set(to_play(v))
    for p in v.players:
        y = _panel(cv, v, p, y, vps[p.seat], p.seat in playing, t) + 8
    return cv.crop_height(y)


def draw_panel(v: GameState, seat: int, opts: RenderOptions, lang: str = "en") -> Image.Image:
    t = words(lang)
    cv = Canvas(W, 800, opts)
    y = _header(cv, v, t("render.panel.title", who=seat_name(v, seat, t)), t)
    y = _panel(cv, v, v.players[seat], y, public_vps(v)[seat], seat in to_play(v), t)
    return cv.crop_height(y)


def objective_text(ob: Objective, t: Words) -> str:
    """A mission objective ("2 × sawmill of era 2") in the language: as
    :func:`rules.brazil.scoring.describe_objective` writes it in English."""
    if ob.frame:
        what = t("render.objective.frame", frame=t(f"render.frame.{ob.frame}"))
    elif ob.shape:
        what = t("render.objective.shape", shape=t(f"render.shape.{ob.shape}"))
    elif ob.type:
        what = t.term("building", ob.type, ob.type.replace("_", " "))
    else:
        what = t(f"render.objective.{ob.kind}", n=ob.count)
    if ob.era:
        what = t("render.objective.of_era", what=what, era=ob.era)
    return t("render.objective", n=ob.count, what=what)


def draw_hand(v: GameState, seat: int, opts: RenderOptions, lang: str = "en") -> Image.Image:
    """One seat's secrets, drawn from that seat's own view (masked cards are never named)."""
    from rules.brazil.scoring import objective_count

    t = words(lang)
    cat = catalog(v)
    p = v.players[seat]
    cv = Canvas(W, 2400, opts)
    y = _header(cv, v, t("render.hand.title", who=seat_name(v, seat, t)), t)
    x0, x1 = 14, W - 14

    def section(title: str, y: float) -> float:
        cv.text_in(x0, y + 4, title, x1 - x0, 26, "bold")
        return y + 42

    def card(y: float, head: str, body: list[str], colour: RGB) -> float:
        lines = [ln for b in body for ln in cv.wrap(b, x1 - x0 - 30, 20)]
        extra = 26 * (len(cv.fitted(head, x1 - x0 - 24, 22, "bold", 2).lines) - 1)
        h = 42 + extra + 28 * len(lines)
        cv.rect((x0, y, x1, y + h), fill=tint(colour, 0.85), outline=colour, width=3, radius=8)
        cv.text_in(x0 + 14, y + 21 + extra / 2, head, x1 - x0 - 24, 22, "bold", INK, "lm", 2, 26)
        yy = y + 47 + extra
        for ln in lines:
            cv.text_in(x0 + 16, yy, ln, x1 - x0 - 30, 20, anchor="lm")
            yy += 28
        return y + h + 10

    y = section(t("render.hand.missions", n=len(p.missions)), y)
    for mid in p.missions:
        m = cat.missions.get(mid)
        if m is None:
            continue
        body = []
        for ob in m.objectives:
            have = objective_count(v, seat, ob)
            line = t(
                "render.hand.objective",
                objective=objective_text(ob, t),
                have=min(have, ob.count),
                need=ob.count,
            )
            body.append(t("render.hand.objective_done", line=line) if have >= ob.count else line)
        head = t(
            "render.hand.mission",
            era=ROMAN[m.era],
            name=t.term("mission", mid, m.name),
            vp=m.vp,
        )
        y = card(y, head, body, (90, 70, 120))
    if not p.missions:
        cv.text_in(x0, y, t("render.none"), x1 - x0, 20, fill=MUTED)
        y += 32
    y = section(t("render.hand.combat", n=len(p.combat_cards)), y + 6)
    for cid in p.combat_cards:
        c = cat.combat_cards.get(cid)
        if c is not None:
            y = card(
                y,
                t.term("combat_card", cid, c.name),
                [card_text(t, "combat_card", cid, c.text)],
                (150, 40, 40),
            )
    y = section(t("render.hand.gold", n=len(p.gold_cards)), y + 6)
    for gid in p.gold_cards:
        gc = cat.gold_cards.get(gid)
        if gc is not None:
            head = t(
                "render.hand.gold_card",
                name=t.term("gold_card", gid, gc.name),
                kind=t(f"render.gold_kind.{gc.kind}"),
            )
            y = card(y, head, [card_text(t, "gold_card", gid, gc.text)], (200, 160, 0))
    peeks = {
        h: t
        for h, t in p.peeks.items()
        if t != HIDDEN
        and t in cat.exploration
        and h in v.exploration
        and not v.exploration[h].face_up
    }
    if peeks:
        y = section(t("render.hand.peeks"), y + 6)
        for h, tid in sorted(peeks.items()):
            tile = cat.exploration[tid]
            head = t("render.hand.peek", hex=h, name=t.term("exploration", tid, tile.name))
            y = card(y, head, [card_text(t, "exploration", tid, tile.text)], (120, 90, 40))
    return cv.crop_height(y + 10)


def card_text(t: Words, kind: str, id_: str, english: str) -> str:
    """A card's or tile's rules text (``text.<kind>.<id>``, :mod:`i18n.texts`) in the
    language: a data pack's own text as it wrote it."""
    return nfc(component_text(t.lang, kind, id_, english))


__all__ = ["card_text", "draw_boards", "draw_hand", "draw_panel", "objective_text", "public_vps"]
