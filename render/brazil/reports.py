"""The battle report (FP by source, cards revealed, winner) and the final score sheet."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from PIL import Image

from render import fit as F
from render.brazil.common import catalog, colour_of, seat_name, title_line, winners_names
from render.brazil.panels import tint
from render.canvas import Canvas
from render.theme import INK, MUTED, RGB, WHITE, RenderOptions, player_fill
from render.words import Words, message, words
from rules.brazil.events import Event
from rules.brazil.state import ENEMY, GameState

W = 600  # narrow, like the boards: read in a ~400 px phone preview
GOLDEN: RGB = (200, 150, 0)

FLOOR_PX = 16  # a header's colour name drawn smaller than this gives way to the key


def last_battle(events: list[Event], seat: int | None) -> tuple[Event, list[Event]] | None:
    """The last battle or expedition result the seat may see, and the cards revealed for it."""
    visible = [e for e in events if e.visible(seat)]
    for i in range(len(visible) - 1, -1, -1):
        if visible[i].kind in ("battle_result", "expedition_result"):
            start = i
            while start > 0 and visible[start - 1].kind not in (
                "battle",
                "expedition",
                "battle_result",
                "expedition_result",
            ):
                start -= 1
            reveals = [
                e
                for e in visible[max(0, start - 1) : i]
                if e.kind in ("cards_revealed", "enemy_cards")
            ]
            return visible[i], reveals
    return None


def _rows(breakdown: Any, parts: Any, v: GameState, t: Words) -> list[tuple[str, int]]:
    """A side's FP sources: the event's English names (``data``) in English; in another
    language the event's messages (``params``: ``phrase.fp.part`` with a term reference or a
    ``phrase.fp.*`` message as its source), or, for an event stored before they were there,
    the English names read back as terms."""
    out: list[tuple[str, int]] = []
    if not isinstance(breakdown, list):
        return out
    rows = [(x[0], int(x[1])) for x in breakdown if isinstance(x, list | tuple) and len(x) == 2]
    sources: list[Any] = [None] * len(rows)
    if not t.english and isinstance(parts, list) and len(parts) == len(rows):
        sources = [
            p["params"].get("source") if isinstance(p, dict) and "params" in p else None
            for p in parts
        ]
    for (name, fp), src in zip(rows, sources, strict=True):
        out.append((fp_source(name if src is None else src, v, t), fp))
    return out


_AT = re.compile(r"^(?P<name>.+) at (?P<hex>[A-Z][0-9]+)$")
_SOURCES = {  # the engine's English words for fighting-power sources (rules.brazil.combat)
    "orange capital": "phrase.fp.orange_capital",
    "tactical advantage": "phrase.fp.tactical_advantage",
    "Acampamento resources": "phrase.fp.camp",
}


def fp_source(src: Any, v: GameState, t: Words) -> str:
    """A fighting-power source in the language: a term reference (``@term...``) or a message
    (``{"key", "params"}``) as such; an English text of the engine — a unit's, card's or
    painting's name, ``<building> at <hex>``, its own phrases — by its term or key."""
    if not isinstance(src, str) or src.startswith("@"):
        return message(t, src)
    if t.english:
        return src
    if src in _SOURCES:
        return t(_SOURCES[src])
    m = _AT.match(src)
    if m:
        return t("phrase.fp.tile", tile=_component(m["name"], v, t), hex=m["hex"])
    return _component(src, v, t)


def _component(name: str, v: GameState, t: Words) -> str:
    """The term for a component the engine named by its English catalog name."""
    return _names(v.data_pack, t.lang).get(name, name)


@lru_cache(maxsize=32)
def _names(pack: str | None, lang: str) -> dict[str, str]:
    from rules.brazil import get_catalog

    cat = get_catalog(pack)
    t = words(lang)
    out: dict[str, str] = {}
    books: list[tuple[str, dict[str, Any]]] = [
        ("painting", cat.paintings),
        ("combat_card", cat.combat_cards),
        ("monarch", cat.monarchs),
        ("city", cat.cities),
        ("capital", cat.capitals),
    ]
    for kind, book in books:
        for id_, x in book.items():
            out.setdefault(x.name, t.term(kind, id_, x.name))
    for tile in cat.buildings.values():
        for side in tile.sides:
            out.setdefault(side.name, t.term("building", side.id, side.name))
    for uid, u in cat.units.items():  # ids as the catalog keys them: "green.archer1"
        out.setdefault(u.name, t.term("unit", uid, u.name))
    return out


def draw_battle(
    v: GameState, events: list[Event], seat: int | None, opts: RenderOptions, lang: str = "en"
) -> Image.Image | None:
    t = words(lang)
    found = last_battle(events, seat)
    if found is None:
        return None
    res, reveals = found
    cat = catalog(v)
    d = res.data
    cv = Canvas(W, 900, opts)
    hx = d.get("hex", "?")
    cards: dict[int, list[str]] = {}
    for e in reveals:
        if e.seat is not None:
            cards.setdefault(e.seat, []).extend(str(c) for c in e.data.get("cards", []))
    if res.kind == "expedition_result":
        who = res.seat if res.seat is not None else ENEMY
        sides = [
            (
                who,
                int(d.get("fp", 0)),
                _rows(d.get("breakdown"), res.params.get("breakdown"), v, t),
            ),
        ]
        won = bool(d.get("won"))
        winner = who if won else None
        title = t("render.battle.expedition_at", hex=hx)
        req = d.get("requirement")
    else:
        sides = [
            (
                int(d.get("attacker", ENEMY)),
                int(d.get("attacker_fp", 0)),
                _rows(d.get("attacker_breakdown"), res.params.get("attacker_breakdown"), v, t),
            ),
            (
                int(d.get("defender", ENEMY)),
                int(d.get("defender_fp", 0)),
                _rows(d.get("defender_breakdown"), res.params.get("defender_breakdown"), v, t),
            ),
        ]
        winner = d.get("winner")
        title = t("render.battle.battle_at", hex=hx)
        req = None
    cv.text_in(14, 10, title, W - 28, 30, "bold")
    cv.text_in(14, 54, title_line(v, t), W - 28, 20, "semibold", MUTED)
    y0 = 96
    colw = (W - 36) / 2
    bottom = y0
    for i, (s, fp, rows) in enumerate(sides):
        x = 12 + i * (colw + 12)
        col = colour_of(v, s)
        fill = player_fill(col, opts)
        won = winner == s
        role = t("render.battle.attacker") if i == 0 else t("render.battle.defender")
        if res.kind == "expedition_result":
            role = t("render.battle.expedition")
        played = cards.get(s, [])
        # a battle says so when a side revealed no card (an expedition has no cards)
        n_cards = max(1, len(played)) if res.kind == "battle_result" else len(played)
        h = 120 + 32 * (len(rows) + n_cards) + (60 if won else 0)
        cv.rect(
            (x, y0, x + colw, y0 + h),
            fill=tint(fill, 0.85),
            outline=GOLDEN if won else fill,
            width=6 if won else 3,
            radius=12,
        )
        cv.player_piece(x + 28, y0 + 30, col, 40, t.colour_initial(col))
        # the piece beside it shows the colour's initial: the name alone (Pomarańczowy)
        side_name = (
            seat_name(v, s, t, short=True)
            if s == ENEMY or col is None
            else t.colour(col, short=True)
        )
        cv.text_in(x + 54, y0 + 20, side_name, colw - 120, 24, "bold", anchor="lm")
        cv.text_in(x + 54, y0 + 47, role, colw - 120, 20, "semibold", MUTED, "lm")
        cv.text(x + colw - 14, y0 + 36, f"{fp}", 52, "extrabold", anchor="rm")
        cv.text_in(x + colw - 14, y0 + 74, t("render.fp"), 56, 18, "bold", MUTED, "rm")
        yy = y0 + 104
        for src, n in rows:
            cv.text_in(x + 14, yy, src, colw - 70, 21, anchor="lm")
            cv.text(x + colw - 14, yy, f"+{n}", 21, "bold", anchor="rm")
            yy += 32
        if not played and n_cards:
            cv.text_in(
                x + 14, yy, t("render.battle.no_card"), colw - 28, 21, "regular", MUTED, "lm"
            )
            yy += 32
        for c in played:
            nm = t.term("combat_card", c, cat.combat_cards[c].name) if c in cat.combat_cards else c
            cv.text_in(
                x + 14,
                yy,
                t("render.battle.card", name=nm),
                colw - 28,
                21,
                "semibold",
                (150, 40, 40),
                "lm",
            )
            yy += 32
        if won:
            tag = t("render.winner")
            tw = max(166.0, min(colw - 28, cv.width_of(tag, 23, "extrabold") + 24))
            cv.rect((x + 14, yy + 8, x + 14 + tw, yy + 50), fill=GOLDEN, outline=INK, radius=8)
            cv.text_in(x + 14 + tw / 2, yy + 29, tag, tw - 16, 23, "extrabold", WHITE, "mm")
        bottom = max(bottom, y0 + h)
    if req is not None:
        x = 12 + colw + 12
        ok = winner is not None
        cv.rect((x, y0, x + colw, y0 + 140), fill=WHITE, outline=MUTED, radius=12)
        cv.text_in(
            x + colw / 2,
            y0 + 40,
            t("render.battle.needed", fp=req),
            colw - 20,
            26,
            "bold",
            anchor="mm",
        )
        cv.text_in(
            x + colw / 2,
            y0 + 90,
            t("render.battle.success") if ok else t("render.battle.failed"),
            colw - 20,
            30,
            "extrabold",
            (0, 120, 0) if ok else (160, 0, 0),
            "mm",
        )
        bottom = max(bottom, y0 + 140)
    return cv.crop_height(bottom + 14)


def draw_scores(v: GameState, opts: RenderOptions, lang: str = "en") -> Image.Image:
    """Per-category VP of every player (R-END-2), totals, winner and the tie-break (R-END-3)."""
    from rules.brazil.scoring import CATEGORIES

    t = words(lang)
    result = v.result
    if not result:
        raise ValueError("the game is not over: there is no final score sheet yet")
    rows: list[dict[str, Any]] = list(result.get("scores", []))
    winners = set(result.get("winners", []))
    n = len(rows)
    first_w = 170
    colw = min(150, (W - first_w - 20) / max(1, n))
    width = round(first_w + colw * n + 24)
    seats = [int(r.get("seat", j)) for j, r in enumerate(rows)]
    cols = [colour_of(v, s) for s in seats]
    # a column's header names its colour where the name fits the column whole at a readable
    # size; else (Pomarańczowy in a quarter of a phone's width) the pieces' initials are
    # spelled out in a key under the title, as the map does
    named = all(
        len(f.lines) == 1 and f.size >= FLOOR_PX * opts.scale and not f.shortened
        for f in (
            F.fit_text(
                t.colour(c, short=True),
                (colw - 12) * opts.scale,
                round(20 * opts.scale),
                "bold",
                h="m",
            )
            for c in cols
        )
    )
    # the key's entries (piece, name), laid in rows across the page width
    page_w = max(width, W)
    key: list[tuple[float, float, str | None]] = []
    kx, ky = 14.0, 0.0
    for c in [] if named else cols:
        need = 32 + F.extent(t.colour(c), round(20 * opts.scale), "semibold") / opts.scale + 18
        if kx + need > page_w - 14 and kx > 14:
            kx, ky = 14.0, ky + 32
        key.append((kx, ky, c))
        kx += need
    key_h = 0 if named else round(ky) + 38
    cv = Canvas(page_w, 200 + key_h + 40 * (len(CATEGORIES) + 4), opts)
    cv.text_in(14, 8, t("render.scores.title"), page_w - 28, 34, "bold")
    cv.text_in(14, 56, title_line(v, t), page_w - 28, 22, "semibold", MUTED)
    y: float = 112
    for kx, ky, c in key:
        cv.player_piece(kx + 13, y + 4 + ky, c, 26, t.colour_initial(c))
        cv.text_in(
            kx + 32, y + 4 + ky, t.colour(c), page_w - 14 - kx - 32, 20, "semibold", anchor="lm"
        )
    y += key_h
    totals = [int(r.get("total", 0)) for r in rows]
    tied = totals.count(max(totals)) > 1 if totals else False
    for j, s in enumerate(seats):
        col = cols[j]
        x = first_w + j * colw
        fill = player_fill(col, opts)
        cv.rect(
            (x + 4, y, x + colw - 4, y + 70),
            fill=tint(fill, 0.6),
            outline=GOLDEN if s in winners else fill,
            width=6 if s in winners else 2,
        )
        if named:
            cv.player_piece(x + colw / 2, y + 24, col, 34, t.colour_initial(col))
            cv.text_in(
                x + colw / 2, y + 54, t.colour(col, short=True), colw - 12, 20, "bold", anchor="mm"
            )
        else:
            cv.player_piece(x + colw / 2, y + 38, col, 40, t.colour_initial(col))
        if s in winners:  # the winner's column: a golden tag over the header
            tag = t("render.winner")
            # as wide as the column less 12 px a side, or wider (to 4 px a side) for a
            # longer word
            need = cv.extent_of(tag, 16, "extrabold", "m")
            half = colw / 2 - 12 if need <= colw - 30 else min(colw / 2 - 4, need / 2 + 6)
            cx = x + colw / 2
            cv.rect((cx - half, y - 14, cx + half, y + 10), fill=GOLDEN, outline=INK, radius=6)
            cv.text_in(cx, y - 2, tag, 2 * half - 6, 16, "extrabold", WHITE, "mm")
    y += 80
    for i, c in enumerate([*CATEGORIES, "total", "tie-break: science"]):
        if i % 2 == 0:
            cv.rect(
                (12, y, cv.img.width / cv.s - 12, y + 38),
                fill=(238, 234, 222),
                outline=None,
                radius=4,
            )
        is_total = c == "total"
        cv.text_in(
            20,
            y + 19,
            t(f"render.score.{c}" if not c.startswith("tie") else "render.score.tiebreak"),
            first_w - 26,
            23 if is_total else 21,
            "bold" if is_total else "regular",
            anchor="lm",
        )
        for j, r in enumerate(rows):
            x = first_w + j * colw + colw / 2
            if is_total and int(r.get("seat", j)) in winners:
                cv.rect(
                    (x - colw / 2 + 6, y + 1, x + colw / 2 - 6, y + 37),
                    fill=tint(GOLDEN, 0.5),
                    outline=GOLDEN,
                    width=3,
                    radius=6,
                )
            if is_total:
                val = str(r.get("total", 0))
            elif c.startswith("tie"):
                val = str(r.get("tiebreak_science", 0)) if tied else "–"
            else:
                val = str(r.get("categories", {}).get(c, 0))
            cv.text(
                x,
                y + 19,
                val,
                26 if is_total else 21,
                "extrabold" if is_total else "semibold",
                anchor="mm",
            )
        y += 40
    names = winners_names(v, sorted(winners), t)
    if tied and len(winners) == 1:
        note = t("render.scores.winner_tiebreak", names=names)
    elif len(winners) > 1:
        note = t("render.scores.winners_shared", names=names)
    else:
        note = t("render.scores.winner", names=names)
    if result.get("solo_won") is not None:
        note = (
            t("render.scores.solo_won") if result.get("solo_won") else t("render.scores.solo_lost")
        )
    y += 8
    for ln in cv.wrap(note, page_w - 40, 24, "bold"):
        cv.text_in(20, y + 14, ln, page_w - 40, 24, "bold", anchor="lm")
        y += 34
    return cv.crop_height(y + 14)
