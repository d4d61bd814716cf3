"""Images of Tigris & Euphrates, drawn with Pillow from what a seat may see.

Every function is pure: a view (``rules.tigris.view(state, seat)``, ``None`` for everybody),
options and a language in, image bytes out; the texts come from the ``render.tigris.*`` keys.

    from render.tigris import render_board, changed_squares
    png = render_board(view(state, None), changed_squares(events))

- :func:`render_board`: the 16 × 11 board, the last turn's squares ringed in magenta.
- :func:`render_hand`: a player's private panel (tiles behind the screen, supply, own points).
- :func:`render_players`: everybody's public panel (points only with ``open_scoring``).
- :func:`render_conflict`: the last revolt or war (or the one being fought).
- :func:`render_scores`: the final scoring (weakest colour, treasures wild, tie-breaks).
- :func:`render_timeline`: an animated GIF of the board after each turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from render.encode import encode
from render.theme import DEFAULT, RenderOptions
from render.tigris.board import changed_squares, draw_board
from render.tigris.panels import draw_hand, draw_players
from render.tigris.reports import draw_conflict, draw_scores
from rules.tigris.events import Event
from rules.tigris.state import TigrisState


def render_board(
    v: TigrisState,
    changed: Iterable[int | str] = (),
    *,
    options: RenderOptions = DEFAULT,
    lang: str = "en",
) -> bytes:
    """The board; ``changed``: the squares the last turn changed (labels or numbers; see
    :func:`changed_squares`), ringed in the highlight colour."""
    return encode(draw_board(v, changed, options, lang), options)


def render_hand(
    v: TigrisState, seat: int, *, options: RenderOptions = DEFAULT, lang: str = "en"
) -> bytes:
    """``seat``'s private panel from ``view(state, seat)``: its 6 tiles, leaders in supply,
    catastrophes, points per colour and treasures. Send it to that player only."""
    return encode(draw_hand(v, seat, options, lang), options)


def render_players(v: TigrisState, *, options: RenderOptions = DEFAULT, lang: str = "en") -> bytes:
    """Every dynasty's public panel: leaders on the board and in supply, catastrophes, hand
    size, and points and treasures only with the ``open_scoring`` option (T-INFO-2)."""
    return encode(draw_players(v, options, lang), options)


def render_conflict(
    v: TigrisState,
    events: Sequence[Event] = (),
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
    lang: str = "en",
) -> bytes | None:
    """The last revolt or war in ``events`` (or the conflict ``v`` is resolving), or None."""
    img = draw_conflict(v, list(events), seat, options, lang)
    return None if img is None else encode(img, options)


def render_scores(v: TigrisState, *, options: RenderOptions = DEFAULT, lang: str = "en") -> bytes:
    """The final scoring: the full state once the game is over (the screens are lifted,
    T-FINAL-1); a player whose points a view hides is drawn with question marks."""
    return encode(draw_scores(v, options, lang), options)


def render_timeline(
    frames: Sequence[tuple[TigrisState, Sequence[Event]]],
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
    max_frames: int = 120,
    ms_per_frame: int = 350,
    lang: str = "en",
) -> bytes:
    """An animated GIF of the board after each turn (views, with each turn's squares ringed),
    about 640 px wide (every k-th turn past ``max_frames``; thinned out past 7.5 MB), like
    Brazil: Imperial's timeline (:func:`render.render_timeline`)."""
    from render.animate import TIMELINE_LIMIT, TIMELINE_WIDTH, animate
    from render.tigris.board import geometry

    if not frames:
        raise ValueError("no frames")
    full = geometry(1.0, lang).width
    small = RenderOptions(high_contrast=options.high_contrast, scale=TIMELINE_WIDTH / full)
    k = max(1, -(-len(frames) // max_frames))
    while True:
        picked = list(frames[::k])
        if picked[-1] is not frames[-1]:
            picked.append(frames[-1])
        rgb = [
            draw_board(v, changed_squares(ev, seat), small, lang).convert("RGB") for v, ev in picked
        ]
        data = animate(rgb, ms_per_frame)
        if len(data) <= TIMELINE_LIMIT or len(picked) <= 2:
            return data
        k *= 2


__all__ = [
    "changed_squares",
    "render_board",
    "render_conflict",
    "render_hand",
    "render_players",
    "render_scores",
    "render_timeline",
]
