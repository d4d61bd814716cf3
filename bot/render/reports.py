"""The battle report (FP by source, cards revealed, winner) and the final score sheet."""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.render.canvas import Canvas
from bot.render.common import ENEMY, catalog, colour_of, seat_name, title_line
from bot.render.panels import _tint
from bot.render.theme import INK, MUTED, RGB, WHITE, RenderOptions, player_fill
from rules.events import Event
from rules.state import GameState

W = 820
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
        h = 200 + 30 * (len(rows) + len(cards.get(s, [])))
        cv.rect(
            (x, y0, x + colw, y0 + h),
            fill=_tint(fill, 0.85),
            outline=GOLDEN if won else fill,
            width=6 if won else 3,
            radius=12,
        )
        cv.player_piece(x + 30, y0 + 32, col, 38)
        cv.text(x + 56, y0 + 20, seat_name(v, s), 24, "bold", anchor="lm")
        cv.text(x + 56, y0 + 46, role, 18, "semibold", MUTED, "lm")
        cv.text(x + colw - 16, y0 + 34, f"{fp}", 48, "extrabold", anchor="rm")
        yy = y0 + 76
        for src, n in rows:
            cv.text(x + 16, yy, src, 20, anchor="lm")
            cv.text(x + colw - 16, yy, f"+{n}", 20, "bold", anchor="rm")
            yy += 30
        for c in cards.get(s, []):
            nm = cat.combat_cards[c].name if c in cat.combat_cards else c
            cv.text(x + 16, yy, f"card: {nm}", 20, "semibold", (150, 40, 40), "lm")
            yy += 30
        if won:
            cv.rect((x + 14, yy + 8, x + 170, yy + 48), fill=GOLDEN, outline=INK, radius=8)
            cv.text(x + 92, yy + 28, "WINNER", 22, "extrabold", WHITE, "mm")
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
    first_w = 230
    colw = min(150, (W - first_w - 24) / max(1, n))
    width = round(first_w + colw * n + 24)
    cv = Canvas(max(width, 560), 140 + 40 * (len(CATEGORIES) + 4), opts)
    cv.text(14, 10, "Final scores", 30, "bold")
    cv.text(14, 54, title_line(v), 20, "semibold", MUTED)
    y = 100
    totals = [int(r.get("total", 0)) for r in rows]
    tied = totals.count(max(totals)) > 1 if totals else False
    for j, r in enumerate(rows):
        s = int(r.get("seat", j))
        col = colour_of(v, s)
        x = first_w + j * colw
        fill = player_fill(col, opts)
        cv.rect(
            (x + 4, y, x + colw - 4, y + 70),
            fill=_tint(fill, 0.6),
            outline=GOLDEN if s in winners else fill,
            width=6 if s in winners else 2,
        )
        cv.player_piece(x + colw / 2, y + 24, col, 34)
        cv.text(x + colw / 2, y + 54, (col or "?").capitalize(), 18, "bold", anchor="mm")
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
            c.replace("_", " "),
            22 if is_total else 20,
            "bold" if is_total else "regular",
            anchor="lm",
        )
        for j, r in enumerate(rows):
            x = first_w + j * colw + colw / 2
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
