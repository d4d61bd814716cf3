"""Images for players and spectators, drawn with Pillow from what a seat may see.

Every function is pure: (a view, the last turn's events, options, a language) -> image
bytes; ``lang`` (default English) is the language of every text drawn. Pass
``view(state, seat)`` (or ``view(state, None)`` for a spectator) and the same ``seat``; events
the seat may not see are ignored. Nothing here reads files other than the packaged font.

    from bot.render import render_map, RenderOptions
    png = render_map(view(state, None), events, options=RenderOptions(high_contrast=True))
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence

from PIL import Image, ImageChops

from bot.render.encode import encode
from bot.render.mapimg import draw_map, draw_map_indexed, focus_box, geometry, header
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


TIMELINE_WIDTH = 640  # px: the map at a glance, turn after turn
TIMELINE_LIMIT = 7_500_000  # bytes, under the 8 MB asked for (Discord: 10 MiB)


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
        data = _gif([draw_map(v, list(ev), seat, small, lang)[0] for v, ev in picked], ms_per_frame)
        if len(data) <= TIMELINE_LIMIT or len(picked) <= 2:
            return data
        k *= 2


def animate(rgb: list[Image.Image], ms_per_frame: int = 350) -> bytes:
    """An animated GIF of the images ``rgb`` (same size), each shown ``ms_per_frame``, the
    last three seconds; only what changed is stored per frame (any game's timeline)."""
    return _gif(rgb, ms_per_frame)


def _gif(rgb: list[Image.Image], ms_per_frame: int) -> bytes:
    """Every frame on one 255-colour palette; from the second frame on, the pixels that did
    not change since the previous frame are transparent (index 255, drawn over the previous
    frame), so a turn costs only what it changed: ~10× smaller than whole frames."""
    pal = rgb[-1].quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    imgs = [im.quantize(palette=pal, dither=Image.Dither.NONE) for im in rgb]
    colours = (pal.getpalette() or [])[: 3 * 255]
    palette = colours + [0] * (3 * 255 - len(colours)) + [255, 0, 255]
    frames = [Image.frombytes("P", imgs[0].size, imgs[0].tobytes())]
    for a, b in itertools.pairwise(imgs):
        la = Image.frombytes("L", a.size, a.tobytes())
        lb = Image.frombytes("L", b.size, b.tobytes())
        same = ImageChops.difference(la, lb).point(lambda x: 0 if x else 255)
        lb.paste(TRANSPARENT, mask=same)
        frames.append(Image.frombytes("P", b.size, lb.tobytes()))
    for f in frames:
        f.putpalette(palette)
    durations = [ms_per_frame] * (len(frames) - 1) + [3000]
    buf = io.BytesIO()
    frames[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        transparency=TRANSPARENT,
        disposal=1,
    )
    return buf.getvalue()


TRANSPARENT = 255


__all__ = [
    "RenderOptions",
    "animate",
    "render_battle",
    "render_boards",
    "render_hand",
    "render_map",
    "render_map_zoom",
    "render_panel",
    "render_scores",
    "render_timeline",
]
