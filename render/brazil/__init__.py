"""Images for players and spectators, drawn with Pillow from what a seat may see.

Every function is pure: (a view, the last turn's events, options, a language) -> image
bytes; ``lang`` (default English) is the language of every text drawn. Pass
``view(state, seat)`` (or ``view(state, None)`` for a spectator) and the same ``seat``; events
the seat may not see are ignored. Nothing here reads files other than the packaged font.

    from render.brazil import render_map, RenderOptions
    png = render_map(view(state, None), events, options=RenderOptions(high_contrast=True))
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from render.animate import TIMELINE_LIMIT, TIMELINE_WIDTH, animate
from render.brazil.mapimg import draw_map, draw_map_indexed, focus_box, geometry, header
from render.brazil.panels import draw_boards, draw_hand, draw_panel
from render.brazil.reports import draw_battle, draw_scores
from render.encode import encode
from render.theme import DEFAULT, RenderOptions
from rules.brazil.events import Event
from rules.brazil.state import GameState

ZOOM = 1.5  # the zoomed crop is drawn at 1.5× the map's scale


def render_map(
    v: GameState,
    events: Sequence[Event] = (),
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
    lang: str = "en",
) -> bytes:
    """The whole map with the last turn highlighted (move arrows, built and battle hexes),
    its texts in ``lang`` (the game's language)."""
    if options.format == "png":
        return encode(draw_map_indexed(v, list(events), seat, options, lang), options)
    img, _, _ = draw_map(v, list(events), seat, options, lang)
    return encode(img, options)


def render_map_zoom(
    v: GameState,
    events: Sequence[Event] = (),
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
    lang: str = "en",
) -> bytes | None:
    """A close-up around the last turn's action, or None if the events changed no hex."""
    big = RenderOptions(
        high_contrast=options.high_contrast, scale=options.scale * ZOOM, format=options.format
    )
    img, g, ch = draw_map(v, list(events), seat, big, lang)
    box = focus_box(g, ch, v)
    if box is None:
        return None
    crop = img.crop(box)
    # a header of its own, fitted to the crop's width (the map's would be cut off)
    head = header(
        v,
        crop.width,
        RenderOptions(high_contrast=options.high_contrast, scale=options.scale),
        lang=lang,
    )
    out = Image.new("RGB", (crop.width, crop.height + head.height))
    out.paste(head, (0, 0))
    out.paste(crop, (0, head.height))
    return encode(out, options)


def render_boards(
    v: GameState, *, seat: int | None = None, options: RenderOptions = DEFAULT, lang: str = "en"
) -> bytes:
    """Every player's panel (public information only: hidden cards as counts)."""
    return encode(draw_boards(v, seat, options, lang), options)


def render_panel(
    v: GameState, player: int, *, options: RenderOptions = DEFAULT, lang: str = "en"
) -> bytes:
    """One player's panel."""
    return encode(draw_panel(v, player, options, lang), options)


def render_hand(
    v: GameState, seat: int, *, options: RenderOptions = DEFAULT, lang: str = "en"
) -> bytes:
    """``seat``'s private hand, from ``view(state, seat)``: missions with progress, combat and
    gold cards with their texts, peeked tiles, in ``lang`` (its owner's language). Send it
    to that player only."""
    return encode(draw_hand(v, seat, options, lang), options)


def render_battle(
    v: GameState,
    events: Sequence[Event],
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
    lang: str = "en",
) -> bytes | None:
    """The last battle or expedition in ``events`` (FP by source, cards, winner), or None."""
    img = draw_battle(v, list(events), seat, options, lang)
    return None if img is None else encode(img, options)


def render_scores(v: GameState, *, options: RenderOptions = DEFAULT, lang: str = "en") -> bytes:
    """The final score sheet (R-END-2) with the winner and tie-break (R-END-3)."""
    return encode(draw_scores(v, options, lang), options)


def render_timeline(
    frames: Sequence[tuple[GameState, Sequence[Event]]],
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
    max_frames: int = 120,
    ms_per_frame: int = 350,
    lang: str = "en",
) -> bytes:
    """An animated GIF of the map after each turn (every k-th turn past ``max_frames``), about
    640 px wide (a 230-turn game: ~0.75 MB); frames are thinned out if it passes 7.5 MB."""
    if not frames:
        raise ValueError("no frames")
    v0 = frames[-1][0]
    full = geometry(v0.map, v0.data_pack, 1.0).width
    small = RenderOptions(high_contrast=options.high_contrast, scale=TIMELINE_WIDTH / full)
    k = max(1, -(-len(frames) // max_frames))
    while True:
        picked = list(frames[::k])
        if picked[-1] is not frames[-1]:
            picked.append(frames[-1])
        data = animate(
            [draw_map(v, list(ev), seat, small, lang)[0] for v, ev in picked], ms_per_frame
        )
        if len(data) <= TIMELINE_LIMIT or len(picked) <= 2:
            return data
        k *= 2


__all__ = [
    "TIMELINE_LIMIT",
    "TIMELINE_WIDTH",
    "RenderOptions",
    "render_battle",
    "render_boards",
    "render_hand",
    "render_map",
    "render_map_zoom",
    "render_panel",
    "render_scores",
    "render_timeline",
]
