"""Reports: the last conflict (attacker, defender, base strength, support, totals, result)
and the final scoring (points per colour, treasures as wild points, the weakest colour,
ranking with tie-breaks)."""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from render import draw as D
from render.canvas import Canvas
from render.theme import HIGHLIGHT, INK, MUTED, WHITE, RenderOptions
from render.tigris import glyphs as G
from render.tigris.panels import X0, W, place_sprite
from render.tigris.style import colour_name, dynasty_name
from render.words import Words, words
from rules.tigris.data import COLOURS
from rules.tigris.events import Event
from rules.tigris.scoring import final_scores
from rules.tigris.state import TigrisState

_STARTS = ("tigris.revolt.start", "tigris.war.start")


@dataclass
class Fight:
    kind: str  # revolt | war
    colour: int
    attacker: int
    defender: int
    abase: int
    dbase: int
    acommit: int = -1
    dcommit: int = -1
    winner: int = -1
    removed: int = -1
    gains: list[tuple[int, int, int]] = field(default_factory=list)  # seat, n, colour


def _seat(v: TigrisState, ref: object) -> int:
    if isinstance(ref, str) and ref.startswith("@tigris.dynasty."):
        d = ref.rsplit(".", 1)[1]
        for i, p in enumerate(v.players):
            if p.dynasty == d:
                return i
    return -1


def _colour(ref: object) -> int:
    if isinstance(ref, str) and ref.startswith("@tigris.colour."):
        c = ref.rsplit(".", 1)[1]
        if c in COLOURS:
            return COLOURS.index(c)
    return -1


def _int(x: object) -> int:
    return x if isinstance(x, int) else -1


def last_fight(v: TigrisState, events: list[Event], seat: int | None) -> Fight | None:
    """The last conflict the events show (or, with none, the one ``v`` is resolving)."""
    seen = [e for e in events if e.visible(seat)]
    start = max((i for i, e in enumerate(seen) if e.key in _STARTS), default=-1)
    if start < 0:
        c = v.conflict
        if c is None:
            return None
        return Fight(
            c.kind,
            c.colour,
            c.attacker,
            c.defender,
            c.attacker_base,
            c.defender_base,
            c.attacker_commit,
            c.defender_commit,
        )
    e = seen[start]
    p = e.params
    f = Fight(
        "revolt" if e.key == _STARTS[0] else "war",
        _colour(p.get("colour")),
        _seat(v, p.get("attacker")),
        _seat(v, p.get("defender")),
        _int(p.get("abase")),
        _int(p.get("dbase")),
    )
    for e in seen[start + 1 :]:
        p = e.params
        if e.key in _STARTS:
            break
        if e.key == "tigris.support":
            if f.acommit < 0:
                f.acommit = _int(p.get("n"))
            else:
                f.dcommit = _int(p.get("n"))
        elif e.key == "tigris.conflict.won":
            f.winner = _seat(v, p.get("winner"))
        elif e.key == "tigris.war.removed":
            f.removed = _int(p.get("n"))
        elif e.key in ("tigris.score.revolt", "tigris.score.war"):
            n = 1 if e.key == "tigris.score.revolt" else _int(p.get("n"))
            col = 1 if e.key == "tigris.score.revolt" else _colour(p.get("colour"))
            f.gains.append((_seat(v, p.get("player")), n, col))
    return f


def _dyn(v: TigrisState, seat: int, t: Words) -> str:
    return dynasty_name(t, v.players[seat].dynasty) if 0 <= seat < len(v.players) else "?"


def draw_conflict(
    v: TigrisState, events: list[Event], seat: int | None, opts: RenderOptions, lang: str = "en"
) -> Image.Image | None:
    f = last_fight(v, events, seat)
    if f is None or f.colour < 0:
        return None
    t = words(lang)
    cv = Canvas(W, 700, opts)
    y = 14.0
    place_sprite(cv, G.tile_sprite(f.colour, cv.px(52), opts.high_contrast), X0 + 26, y + 26)
    title = t(f"render.tigris.conflict.{f.kind}", colour=colour_name(t, f.colour))
    cv.text_in(X0 + 62, y + 26, title, W - 2 * X0 - 62, 30, "bold", INK, "lm")
    y += 70
    label_w = 230
    col_w = (W - 2 * X0 - label_w) / 2
    sides = (
        (f.attacker, f.abase, f.acommit, "attacker"),
        (f.defender, f.dbase, f.dcommit, "defender"),
    )
    # the two leaders
    for i, (s_, _, _, role) in enumerate(sides):
        x0 = X0 + label_w + i * col_w
        won = f.winner >= 0 and f.winner == s_
        cv.rect(
            (x0 + 4, y, x0 + col_w - 4, y + 300),
            fill=(255, 240, 250) if won else WHITE,
            outline=HIGHLIGHT if won else MUTED,
            width=4 if won else 1.5,
            radius=12,
        )
        cx = x0 + col_w / 2
        cv.text_in(
            cx, y + 18, t(f"render.tigris.conflict.{role}"), col_w - 16, 17, "semibold", MUTED, "mm"
        )
        if 0 <= s_ < len(v.players):
            place_sprite(
                cv,
                G.leader_sprite(f.colour, v.players[s_].dynasty, cv.px(60), opts.high_contrast),
                cx,
                y + 66,
            )
        cv.text_in(cx, y + 114, _dyn(v, s_, t), col_w - 16, 22, "bold", INK, "mm")
    rows = [
        (t(f"render.tigris.conflict.base_{f.kind}"), [s[1] for s in sides], 30),
        (t("render.tigris.conflict.support"), [s[2] for s in sides], 30),
    ]
    ry = y + 140
    for label, vals, size in rows:
        for j, ln in enumerate(cv.wrap(label, label_w - 12, 18, "semibold")[:2]):
            cv.text_in(X0, ry + 12 + j * 22, ln, label_w - 12, 18, "semibold", INK, "lm")
        for i, n in enumerate(vals):
            cx = X0 + label_w + i * col_w + col_w / 2
            if n < 0:
                cv.text_in(
                    cx,
                    ry + 22,
                    t("render.tigris.conflict.waiting"),
                    col_w - 20,
                    18,
                    "regular",
                    MUTED,
                    "mm",
                )
            else:
                cv.text(cx, ry + 22, str(n), size, "extrabold", INK, "mm")
        ry += 54
    cv.d.line((cv.px(X0), cv.px(ry), cv.px(W - X0), cv.px(ry)), fill=MUTED, width=max(1, cv.px(2)))
    cv.text_in(X0, ry + 28, t("render.tigris.conflict.total"), label_w - 12, 22, "bold", INK, "lm")
    for i, (_, base, commit, _) in enumerate(sides):
        cx = X0 + label_w + i * col_w + col_w / 2
        total = base + max(0, commit)
        cv.text(cx, ry + 28, str(total) if commit >= 0 else f"{base}+", 40, "extrabold", INK, "mm")
    y = max(ry + 66, y + 312)
    if f.winner >= 0:
        cv.text_in(
            X0,
            y + 16,
            t("render.tigris.conflict.wins", player=_dyn(v, f.winner, t)),
            W - 2 * X0,
            26,
            "bold",
            INK,
            "lm",
        )
        y += 40
        if f.acommit >= 0 and f.dcommit >= 0 and f.abase + f.acommit == f.dbase + f.dcommit:
            cv.text_in(
                X0, y + 12, t("render.tigris.conflict.tie"), W - 2 * X0, 19, "regular", INK, "lm"
            )
            y += 30
        if f.kind == "war" and f.removed >= 0:
            cv.text_in(
                X0,
                y + 12,
                t("render.tigris.conflict.removed", n=f.removed),
                W - 2 * X0,
                19,
                "regular",
                INK,
                "lm",
            )
            y += 30
        for s_, n, col in f.gains:
            if col < 0:
                continue
            text = t(
                "render.tigris.conflict.points",
                player=_dyn(v, s_, t),
                n=n,
                colour=colour_name(t, col),
            )
            place_sprite(cv, G.tile_sprite(col, cv.px(24), opts.high_contrast), X0 + 12, y + 12)
            cv.text_in(X0 + 32, y + 12, text, W - 2 * X0 - 32, 19, "regular", INK, "lm")
            y += 30
    return cv.crop_height(y + 14)


def draw_scores(v: TigrisState, opts: RenderOptions, lang: str = "en") -> Image.Image:
    t = words(lang)
    n = len(v.players)
    cv = Canvas(W, 330 + 96 * n, opts)
    y = 14.0
    cv.text_in(X0, y + 22, t("render.tigris.scores.title"), W - 2 * X0, 32, "bold", INK, "lm")
    y += 52
    if v.end_reason in ("treasures", "bag"):
        cv.text_in(
            X0,
            y + 12,
            t(f"render.tigris.scores.reason_{v.end_reason}"),
            W - 2 * X0,
            19,
            "regular",
            MUTED,
            "lm",
        )
        y += 32
    hidden = {i for i, p in enumerate(v.players) if p.hidden and not v.options.open_scoring}
    rows = final_scores(v)
    known = [r for r in rows if r.seat not in hidden]
    order = sorted(known, key=lambda r: (r.rank, r.seat)) + [r for r in rows if r.seat in hidden]
    rank_w, name_w, score_w = 40, 138, 86
    col_w = (W - 2 * X0 - rank_w - name_w - score_w) / 4
    cx0 = X0 + rank_w + name_w
    # the header row: colour icons, the score
    for c in range(4):
        place_sprite(
            cv, G.tile_sprite(c, cv.px(34), opts.high_contrast), cx0 + c * col_w + col_w / 2, y + 20
        )
    cv.text_in(
        W - X0 - score_w / 2,
        y + 20,
        t("render.tigris.scores.score"),
        score_w - 4,
        18,
        "bold",
        INK,
        "mm",
    )
    cv.text_in(
        X0 + (rank_w + name_w) / 2,
        y + 20,
        t("render.tigris.scores.rank"),
        rank_w + name_w - 8,
        18,
        "bold",
        MUTED,
        "mm",
    )
    y += 46
    for r in order:
        hid = r.seat in hidden
        top = y
        h = 84
        first = not hid and r.rank == 1
        cv.rect(
            (X0, top, W - X0, top + h),
            fill=(255, 246, 215) if first else WHITE,
            outline=(200, 150, 0) if first else MUTED,
            width=3 if first else 1.5,
            radius=10,
        )
        cv.text(
            X0 + rank_w / 2 + 4,
            top + h / 2,
            "?" if hid else str(r.rank),
            30,
            "extrabold",
            INK,
            "mm",
        )
        place_sprite(
            cv, G.symbol_sprite(r.dynasty, cv.px(36), WHITE, INK), X0 + rank_w + 22, top + 28
        )
        cv.text_in(
            X0 + rank_w + 4, top + 62, dynasty_name(t, r.dynasty), name_w - 8, 20, "bold", INK, "lm"
        )
        weakest = r.totals.index(min(r.totals))
        for c in range(4):
            x = cx0 + c * col_w
            cell = (x + 3, top + 8, x + col_w - 3, top + h - 8)
            if not hid and c == weakest:
                cv.rect(cell, fill=None, outline=HIGHLIGHT, width=4, radius=8)
            cx = x + col_w / 2
            cv.text(cx, top + 32, "?" if hid else str(r.totals[c]), 28, "extrabold", INK, "mm")
            wild = r.totals[c] - r.points[c]
            if not hid and wild:
                place_sprite(cv, G.treasure_sprite(cv.px(18)), cx - 16, top + 60)
                cv.text(cx - 4, top + 60, f"+{wild}", 16, "bold", (140, 95, 0), "lm")
        cv.text(
            W - X0 - score_w / 2,
            top + h / 2,
            "?" if hid else str(r.score),
            38,
            "extrabold",
            INK,
            "mm",
        )
        y += h + 8
    y += 6
    if known:
        names = [dynasty_name(t, r.dynasty) for r in known if r.rank == 1]
        cv.text_in(
            X0,
            y + 14,
            t("render.tigris.scores.winner", names=t.names(names)),
            W - 2 * X0,
            24,
            "bold",
            INK,
            "lm",
        )
        y += 40
    for ln in cv.wrap(t("render.tigris.scores.explain"), W - 2 * X0, 17, "regular"):
        cv.text_in(X0, y + 10, ln, W - 2 * X0, 17, "regular", MUTED, "lm")
        y += 24
    return cv.crop_height(y + 12)


__all__ = ["D", "draw_conflict", "draw_scores", "last_fight"]
