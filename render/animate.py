"""Timeline animations, any game's: an animated GIF of a game's boards turn after turn."""

from __future__ import annotations

import io
import itertools

from PIL import Image, ImageChops

TIMELINE_WIDTH = 640  # px: the board at a glance, turn after turn
TIMELINE_LIMIT = 7_500_000  # bytes, under the 8 MB asked for (Discord: 10 MiB)
TRANSPARENT = 255


def animate(rgb: list[Image.Image], ms_per_frame: int = 350) -> bytes:
    """An animated GIF of the images ``rgb`` (same size), each shown ``ms_per_frame``, the
    last three seconds. Every frame on one 255-colour palette; from the second frame on, the
    pixels that did not change since the previous frame are transparent (index 255, drawn over
    the previous frame), so a turn costs only what it changed: ~10× smaller than whole
    frames."""
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
