"""Kuhn poker's pictures (Pillow), drawn from a view (a seat's, or a spectator's):

- :func:`draw_table` the table: both players' cards (face down unless the view may see them,
  K-INFO-1) and chip stacks, the pot in the middle, who acts, the last hand's result and the
  cards shown at its showdown (K-SHOW-1);
- :func:`draw_hand` a seat's own card, large, with its stack and the pot (private);
- :func:`draw_players` the players' stacks side by side (the public panel);
- :func:`draw_scores` the final chips, the winner marked (K-END-2);
- :func:`render_timeline` the table after every hand, animated.

The texts are catalogue messages (``render.kuhn.*`` in the game's ``locales``, the engine's
``kuhn.*`` terms) in the language asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from examples.kuhn.state import CARDS, NO_CARD, KuhnState
from i18n import tr
from render import draw as D
from render import fit as F
from render.encode import encode
from render.theme import DEFAULT, INK, PAPER, WHITE, RenderOptions, Weight

RGB = tuple[int, int, int]
FELT: RGB = (22, 110, 64)
FELT_HC: RGB = (0, 80, 30)
RIM: RGB = (92, 54, 26)
BACK: RGB = (170, 30, 45)
CHIP: RGB = (230, 180, 30)
CHIP_EDGE: RGB = (120, 80, 0)
ACT: RGB = (255, 0, 200)  # the seat to act: magenta, no card colour
CARD_RED: RGB = (190, 20, 40)
WIDTH, HEIGHT = 800, 520
CARD_W, CARD_H = 90, 130
CHIP_R = 11


def _s(v: float, scale: float) -> int:
    return max(1, round(v * scale))


class _Canvas:
    """A drawing at ``scale`` (coordinates in the 1.0 layout)."""

    def __init__(self, w: int, h: int, scale: float, bg: RGB, lang: str = "en") -> None:
        self.scale = scale
        self.w = w
        self.lang = lang
        self.img = Image.new("RGB", (_s(w, scale), _s(h, scale)), bg)
        self.d = ImageDraw.Draw(self.img)

    def xy(self, *v: float) -> list[int]:
        return [_s(x, self.scale) for x in v]

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: int,
        fill: RGB,
        *,
        weight: Weight = "regular",
        anchor: str = "mm",
        width: float | None = None,
    ) -> None:
        """``text`` at (x, y), fitted (:func:`render.fit.fit_text`) to ``width`` or, by
        default, to the page less a margin on the side(s) it runs towards."""
        if width is None:
            margin = 24
            h = anchor[0]
            width = (
                self.w - margin - x
                if h == "l"
                else x - margin
                if h == "r"
                else 2 * min(x - margin, self.w - margin - x)
            )
        h = anchor[0]
        fitted = F.fit_text(text, width * self.scale, _s(size, self.scale), weight, h=h)
        x0 = x if h == "l" else x - width if h == "r" else x - width / 2
        lim = (_s(x0, self.scale), 0, _s(x0 + width, self.scale), self.img.height)
        D.draw_text(
            self.img,
            (_s(x, self.scale), _s(y, self.scale)),
            fitted.lines[0],
            fitted.size,
            weight,
            fill,
            anchor,
            limit=lim,
            source=text,
        )

    def card(self, x: float, y: float, card: int, *, w: float = CARD_W, h: float = CARD_H) -> None:
        """A card with its top-left corner at (x, y): face up (``card`` >= 0) or its back."""
        r = _s(10 * w / CARD_W, self.scale)
        if card == NO_CARD:
            self.d.rounded_rectangle(
                self.xy(x, y, x + w, y + h), r, fill=BACK, outline=WHITE, width=_s(3, self.scale)
            )
            step = 12 * w / CARD_W
            k = step
            while k < w + h:  # the back's diagonal lattice
                self.d.line(
                    self.xy(x + max(0, k - h), y + min(h, k), x + min(w, k), y + max(0, k - w)),
                    fill=(220, 90, 100),
                    width=1,
                )
                k += step
            self.d.rounded_rectangle(
                self.xy(x, y, x + w, y + h), r, outline=WHITE, width=_s(3, self.scale)
            )
            return
        self.d.rounded_rectangle(
            self.xy(x, y, x + w, y + h), r, fill=WHITE, outline=INK, width=_s(2, self.scale)
        )
        letter = tr(self.lang, f"render.kuhn.initial.{CARDS[card]}")  # in the card's name
        colour = CARD_RED if CARDS[card] == "Q" else INK
        self.text(x + w / 2, y + h / 2, letter, int(0.5 * h), colour, weight="extrabold")
        if h >= 100:  # corner indices where they stay readable (not on the showdown's minis)
            self.text(x + 0.16 * w, y + 0.14 * h, letter, int(0.2 * h), colour, weight="bold")
            self.text(x + 0.84 * w, y + 0.86 * h, letter, int(0.2 * h), colour, weight="bold")

    def chips(self, x: float, y: float, n: int, *, per_stack: int = 5) -> float:
        """``n`` chips in stacks of ``per_stack`` from (x, y) (the bottom chip's centre)
        rightwards; returns the x after the last stack."""
        stacks = max(1, -(-n // per_stack)) if n else 0
        for s in range(stacks):
            in_stack = min(per_stack, n - s * per_stack)
            cx = x + s * (2 * CHIP_R + 4)
            for k in range(in_stack):
                cy = y - k * 5
                self.d.ellipse(
                    self.xy(cx - CHIP_R, cy - CHIP_R * 0.6, cx + CHIP_R, cy + CHIP_R * 0.6),
                    fill=CHIP,
                    outline=CHIP_EDGE,
                    width=_s(2, self.scale),
                )
        return x + stacks * (2 * CHIP_R + 4)


def _name(lang: str, seat: int) -> str:
    return tr(lang, f"kuhn.seat.{seat}")


def _card_name(lang: str, card: int) -> str:
    return tr(lang, f"kuhn.card.{CARDS[card]}")


def _title(v: KuhnState, lang: str) -> str:
    if v.phase == "over":
        return tr(lang, "render.kuhn.over", hands=v.options.hands)
    return tr(lang, "render.kuhn.title", hand=v.hand, hands=v.options.hands)


def _seat(cv: _Canvas, v: KuhnState, seat: int, y: float, lang: str) -> None:
    """A seat's row: its name (ringed when it acts), card, chips."""
    p = v.players[seat]
    acting = v.phase == "play" and v.to_act == seat
    label = _name(lang, seat)
    cv.text(150, y + CARD_H / 2 - 18, label, 24, ACT if acting else WHITE, weight="bold")
    if acting:
        cv.text(150, y + CARD_H / 2 + 14, tr(lang, "render.kuhn.to_act"), 16, ACT)
    if v.phase == "play":
        cv.card(WIDTH / 2 - CARD_W / 2, y, p.card)
    end = cv.chips(WIDTH / 2 + CARD_W / 2 + 40, y + CARD_H - 20, p.chips)
    cv.text(
        end + 10, y + CARD_H - 20, tr(lang, "render.kuhn.chips", n=p.chips), 18, WHITE, anchor="lm"
    )


def draw_table(v: KuhnState, options: RenderOptions = DEFAULT, lang: str = "en") -> Image.Image:
    """The table as ``v`` (a view) shows it."""
    cv = _Canvas(WIDTH, HEIGHT, options.scale, RIM, lang)
    felt = FELT_HC if options.high_contrast else FELT
    cv.d.rounded_rectangle(cv.xy(16, 16, WIDTH - 16, HEIGHT - 16), _s(120, cv.scale), fill=felt)
    cv.text(WIDTH / 2, 42, _title(v, lang), 24, WHITE, weight="bold")
    _seat(cv, v, 1, 70, lang)  # the second player across the table
    _seat(cv, v, 0, HEIGHT - 70 - CARD_H, lang)
    mid = HEIGHT / 2
    if v.pot:
        end = cv.chips(WIDTH / 2 - 40, mid + 8, v.pot, per_stack=4)
        cv.text(
            end + 10,
            mid,
            tr(lang, "render.kuhn.pot", n=v.pot),
            20,
            WHITE,
            weight="bold",
            anchor="lm",
        )
    if v.last is not None:  # the last hand, its showdown's cards (K-SHOW-1, K-FOLD-1)
        last = v.last
        cv.text(
            40,
            mid - 30,
            tr(lang, "render.kuhn.last", hand=last.hand, who=_name(lang, last.winner), n=last.pot),
            16,
            WHITE,
            anchor="lm",
        )
        if last.folded:
            cv.text(40, mid, tr(lang, "render.kuhn.folded"), 16, WHITE, anchor="lm")
        else:
            for i, c in enumerate(last.cards):
                cv.card(40 + i * 50, mid - 12, c, w=40, h=58)
    return cv.img


def draw_hand(
    v: KuhnState, seat: int, options: RenderOptions = DEFAULT, lang: str = "en"
) -> Image.Image:
    """``seat``'s own card, large, with its stack and the pot (from its view)."""
    cv = _Canvas(360, 420, options.scale, PAPER, lang)
    p = v.players[seat]
    cv.text(
        180, 30, tr(lang, "render.kuhn.hand.title", who=_name(lang, seat)), 22, INK, weight="bold"
    )
    if p.card != NO_CARD:
        cv.card(180 - 75, 60, p.card, w=150, h=216)
        cv.text(180, 296, _card_name(lang, p.card), 22, INK, weight="semibold")
    end = cv.chips(60, 360, p.chips)
    cv.text(end + 10, 352, tr(lang, "render.kuhn.chips", n=p.chips), 18, INK, anchor="lm")
    cv.text(180, 400, tr(lang, "render.kuhn.pot", n=v.pot), 16, INK)
    return cv.img


def draw_players(v: KuhnState, options: RenderOptions = DEFAULT, lang: str = "en") -> Image.Image:
    """The players' stacks side by side (what everybody sees)."""
    cv = _Canvas(600, 200, options.scale, PAPER, lang)
    cv.text(300, 28, _title(v, lang), 20, INK, weight="bold")
    for seat, p in enumerate(v.players):
        x = 40 + seat * 290
        acting = v.phase == "play" and v.to_act == seat
        cv.text(x, 80, _name(lang, seat), 20, ACT if acting else INK, weight="bold", anchor="lm")
        end = cv.chips(x + 12, 150, p.chips)
        cv.text(end + 8, 142, tr(lang, "render.kuhn.chips", n=p.chips), 16, INK, anchor="lm")
    return cv.img


def draw_scores(
    st: KuhnState, winners: Sequence[int], options: RenderOptions = DEFAULT, lang: str = "en"
) -> Image.Image:
    """The final chips per player, most first, the winners marked (K-END-2)."""
    cv = _Canvas(600, 240, options.scale, PAPER, lang)
    cv.text(300, 30, tr(lang, "render.kuhn.scores.title"), 24, INK, weight="bold")
    order = sorted(range(len(st.players)), key=lambda i: (-st.players[i].chips, i))
    for row, seat in enumerate(order):
        y = 100 + row * 80
        chips = st.players[seat].chips
        cv.text(40, y, _name(lang, seat), 20, INK, weight="bold", anchor="lm")
        end = cv.chips(200, y + 14, chips)
        text = tr(lang, "render.kuhn.chips", n=chips)
        if seat in winners:
            text += " · " + tr(lang, "render.kuhn.winner")
        cv.text(end + 10, y, text, 18, INK, anchor="lm")
    return cv.img


def png(img: Image.Image, options: RenderOptions = DEFAULT) -> bytes:
    return encode(img, options)


def render_timeline(
    frames: Sequence[tuple[KuhnState, Sequence[Any]]], *, lang: str = "en", ms_per_frame: int = 600
) -> bytes:
    """An animated GIF of the table after every hand (spectators' views)."""
    from render.animate import TIMELINE_WIDTH, animate

    if not frames:
        raise ValueError("no frames")
    small = RenderOptions(scale=TIMELINE_WIDTH / WIDTH)
    return animate([draw_table(v, small, lang) for v, _ in frames], ms_per_frame)


def sample_images(lang: str, seed: int = 3) -> list[Image.Image]:
    """Every picture of a seeded match, at its start, middle and end (each seat's hand too),
    in ``lang``: what the platform's image tests draw and check (issue 32)."""
    import random

    from examples.kuhn import engine
    from examples.kuhn.view import view

    rng = random.Random(seed)
    st = engine.new_game(2, seed=seed)
    states = [st]
    while st.phase != "over":
        st, _ = engine.apply(st, rng.choice(engine.legal_actions(st)))
        states.append(st)
    out = []
    for s in (states[0], states[len(states) // 2], states[-1]):
        out += [draw_table(view(s, None), lang=lang), draw_players(view(s, None), lang=lang)]
        out += [draw_hand(view(s, seat), seat, lang=lang) for seat in range(2)]
    out.append(draw_scores(states[-1], engine.winners(states[-1]), lang=lang))
    return out
