"""The battle report (FP by source, cards revealed, winner) and the final score sheet."""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.render.canvas import Canvas
from bot.render.common import catalog, colour_of, seat_name, title_line
from bot.render.panels import tint
from bot.render.theme import INK, MUTED, RGB, WHITE, RenderOptions, player_fill
from rules.events import Event
from rules.state import ENEMY, GameState

W = 600  # narrow, like the boards: read in a ~400 px phone preview
GOLDEN: RGB = (200, 150, 0)


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


def _rows(breakdown: Any) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    if isinstance(breakdown, list):
        for item in breakdown:
            if isinstance(item, (list, tuple)) and len(item) == 2:
                out.append((str(item[0]), int(item[1])))
    return out


def draw_battle(
    v: GameState, events: list[Event], seat: int | None, opts: RenderOptions
) -> Image.Image | None:
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
            (who, int(d.get("fp", 0)), _rows(d.get("breakdown"))),
        ]
        won = bool(d.get("won"))
        winner = who if won else None
        title = f"Expedition at {hx}"
        req = d.get("requirement")
    else:
        sides = [
            (
                int(d.get("attacker", ENEMY)),
                int(d.get("attacker_fp", 0)),
                _rows(d.get("attacker_breakdown")),
            ),
            (
                int(d.get("defender", ENEMY)),
                int(d.get("defender_fp", 0)),
                _rows(d.get("defender_breakdown")),
            ),
        ]
        winner = d.get("winner")
        title = f"Battle at {hx}"
        req = None
    cv.text(14, 10, title, 30, "bold")
    cv.text(14, 54, title_line(v), 20, "semibold", MUTED)
    y0 = 96
    colw = (W - 36) / 2
    bottom = y0
    for i, (s, fp, rows) in enumerate(sides):
        x = 12 + i * (colw + 12)
        col = colour_of(v, s)
        fill = player_fill(col, opts)
        won = winner == s
        role = "attacker" if i == 0 else "defender"
        if res.kind == "expedition_result":
            role = "expedition"
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
        cv.player_piece(x + 28, y0 + 30, col, 40)
        cv.text_in(x + 54, y0 + 20, seat_name(v, s), colw - 120, 24, "bold", anchor="lm")
        cv.text(x + 54, y0 + 47, role, 20, "semibold", MUTED, "lm")
        cv.text(x + colw - 14, y0 + 36, f"{fp}", 52, "extrabold", anchor="rm")
        cv.text(x + colw - 14, y0 + 74, "FP", 18, "bold", MUTED, "rm")
        yy = y0 + 104
        for src, n in rows:
            cv.text_in(x + 14, yy, src, colw - 70, 21, anchor="lm")
            cv.text(x + colw - 14, yy, f"+{n}", 21, "bold", anchor="rm")
            yy += 32
        if not played and n_cards:
            cv.text(x + 14, yy, "no card played", 21, "regular", MUTED, "lm")
            yy += 32
        for c in played:
            nm = cat.combat_cards[c].name if c in cat.combat_cards else c
            cv.text_in(x + 14, yy, f"card: {nm}", colw - 28, 21, "semibold", (150, 40, 40), "lm")
            yy += 32
        if won:
            cv.rect((x + 14, yy + 8, x + 180, yy + 50), fill=GOLDEN, outline=INK, radius=8)
            cv.text(x + 97, yy + 29, "WINNER", 23, "extrabold", WHITE, "mm")
        bottom = max(bottom, y0 + h)
    if req is not None:
        x = 12 + colw + 12
        ok = winner is not None
        cv.rect((x, y0, x + colw, y0 + 140), fill=WHITE, outline=MUTED, radius=12)
        cv.text(x + colw / 2, y0 + 40, f"needed: {req} FP", 26, "bold", anchor="mm")
        cv.text(
            x + colw / 2,
            y0 + 90,
            "success" if ok else "failed",
            30,
            "extrabold",
            (0, 120, 0) if ok else (160, 0, 0),
            "mm",
        )
        bottom = max(bottom, y0 + 140)
    return cv.crop_height(bottom + 14)


def draw_scores(v: GameState, opts: RenderOptions) -> Image.Image:
    """Per-category VP of every player (R-END-2), totals, winner and the tie-break (R-END-3)."""
    from rules.scoring import CATEGORIES

    result = v.result
    if not result:
        raise ValueError("the game is not over: there is no final score sheet yet")
    rows: list[dict[str, Any]] = list(result.get("scores", []))
    winners = set(result.get("winners", []))
    n = len(rows)
    first_w = 170
    colw = min(150, (W - first_w - 20) / max(1, n))
    width = round(first_w + colw * n + 24)
    cv = Canvas(max(width, W), 200 + 40 * (len(CATEGORIES) + 4), opts)
    cv.text(14, 8, "Final scores", 34, "bold")
    cv.text(14, 56, title_line(v), 22, "semibold", MUTED)
    y = 112
    totals = [int(r.get("total", 0)) for r in rows]
    tied = totals.count(max(totals)) > 1 if totals else False
    for j, r in enumerate(rows):
        s = int(r.get("seat", j))
        col = colour_of(v, s)
        x = first_w + j * colw
        fill = player_fill(col, opts)
        cv.rect(
            (x + 4, y, x + colw - 4, y + 70),
            fill=tint(fill, 0.6),
            outline=GOLDEN if s in winners else fill,
            width=6 if s in winners else 2,
        )
        cv.player_piece(x + colw / 2, y + 24, col, 34)
        cv.text(x + colw / 2, y + 54, (col or "?").capitalize(), 20, "bold", anchor="mm")
        if s in winners:  # the winner's column: a golden tag over the header
            cv.rect((x + 12, y - 14, x + colw - 12, y + 10), fill=GOLDEN, outline=INK, radius=6)
            cv.text(x + colw / 2, y - 2, "WINNER", 16, "extrabold", WHITE, "mm")
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
        cv.text(
            20,
            y + 19,
            c.replace("_", " ") if not c.startswith("tie") else "tie-break: sci.",
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
    names = " and ".join(seat_name(v, w) for w in sorted(winners)) or "nobody"
    note = f"Winner: {names}" + (
        " (tie broken by science on buildings)"
        if tied and len(winners) == 1
        else " (shared)"
        if len(winners) > 1
        else ""
    )
    if result.get("solo_won") is not None:
        note = "Solo: victory" if result.get("solo_won") else "Solo: defeat"
    y += 8
    for ln in cv.wrap(note, cv.img.width / cv.s - 40, 24, "bold"):
        cv.text(20, y + 14, ln, 24, "bold", anchor="lm")
        y += 34
    return cv.crop_height(y + 14)
