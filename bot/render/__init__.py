"""Images for players and spectators, drawn with Pillow from what a seat may see.

Every function is pure: (a view, the last turn's events, options) -> image bytes. Pass
``view(state, seat)`` (or ``view(state, None)`` for a spectator) and the same ``seat``; events
the seat may not see are ignored. Nothing here reads files other than the packaged font.

    from bot.render import render_map, RenderOptions
    png = render_map(view(state, None), events, options=RenderOptions(high_contrast=True))
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.render.encode import encode, quantized
from bot.render.mapimg import draw_map, focus_box
from bot.render.panels import draw_boards, draw_hand, draw_panel
from bot.render.reports import draw_battle, draw_scores
from bot.render.theme import DEFAULT, RenderOptions
from rules.events import Event
from rules.state import GameState

ZOOM = 1.5  # the zoomed crop is drawn at 1.5× the map's scale


def render_map(
    v: GameState,
    events: Sequence[Event] = (),
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
) -> bytes:
    """The whole map with the last turn highlighted (move arrows, built and battle hexes)."""
    img, _, _ = draw_map(v, list(events), seat, options)
    return encode(img, options)


def render_map_zoom(
    v: GameState,
    events: Sequence[Event] = (),
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
) -> bytes | None:
    """A close-up around the last turn's action, or None if the events changed no hex."""
    big = RenderOptions(
        high_contrast=options.high_contrast, scale=options.scale * ZOOM, format=options.format
    )
    img, g, ch = draw_map(v, list(events), seat, big)
    box = focus_box(g, ch, v)
    if box is None:
        return None
    title = img.crop((0, 0, box[2] - box[0], g.title_h))
    crop = img.crop(box)
    out = Image.new("RGBA", (crop.width, crop.height + g.title_h))
    out.paste(title, (0, 0))
    out.paste(crop, (0, g.title_h))
    return encode(out, options)


def render_boards(
    v: GameState, *, seat: int | None = None, options: RenderOptions = DEFAULT
) -> bytes:
    """Every player's panel (public information only: hidden cards as counts)."""
    return encode(draw_boards(v, seat, options), options)


def render_panel(v: GameState, player: int, *, options: RenderOptions = DEFAULT) -> bytes:
    """One player's panel."""
    return encode(draw_panel(v, player, options), options)


def render_hand(v: GameState, seat: int, *, options: RenderOptions = DEFAULT) -> bytes:
    """``seat``'s private hand, from ``view(state, seat)``: missions with progress, combat and
    gold cards with their texts, peeked tiles. Send it to that player only."""
    return encode(draw_hand(v, seat, options), options)


def render_battle(
    v: GameState,
    events: Sequence[Event],
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
) -> bytes | None:
    """The last battle or expedition in ``events`` (FP by source, cards, winner), or None."""
    img = draw_battle(v, list(events), seat, options)
    return None if img is None else encode(img, options)


def render_scores(v: GameState, *, options: RenderOptions = DEFAULT) -> bytes:
    """The final score sheet (R-END-2) with the winner and tie-break (R-END-3)."""
    return encode(draw_scores(v, options), options)


def render_timeline(
    frames: Sequence[tuple[GameState, Sequence[Event]]],
    *,
    seat: int | None = None,
    options: RenderOptions = DEFAULT,
    max_frames: int = 120,
    ms_per_frame: int = 350,
) -> bytes:
    """An animated GIF of the map after each turn (every k-th turn past ``max_frames``)."""
    if not frames:
        raise ValueError("no frames")
    small = RenderOptions(high_contrast=options.high_contrast, scale=options.scale * 0.5)
    k = max(1, -(-len(frames) // max_frames))
    picked = list(frames[::k])
    if picked[-1] is not frames[-1]:
        picked.append(frames[-1])
    rgb = [draw_map(v, list(ev), seat, small)[0].convert("RGB") for v, ev in picked]
    # one palette for every frame, so unchanged regions stay identical and compress away
    pal = quantized(rgb[-1])
    imgs = [im.quantize(palette=pal, dither=Image.Dither.NONE) for im in rgb]
    durations = [ms_per_frame] * (len(imgs) - 1) + [3000]
    import io

    buf = io.BytesIO()
    imgs[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=imgs[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return buf.getvalue()


__all__ = [
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
