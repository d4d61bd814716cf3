"""Images for Discord: drawn from the service's image requests in its worker processes
(:meth:`service.game.GameService.render`), within the interaction's upload limit: pictures that would pass it together are drawn again
smaller (scaled down and quantised, :func:`fit`; the same when Discord refuses a post as too
large, 413). A picture the workers fail to draw, or draw late, comes from the service's
cheaper fallback drawing (issue 29 item 7); one that could not be drawn even so is left out
and named, so the post can say so."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from PIL import Image

from i18n import translator
from service import Frame, ImageRequest, render_image
from service.workers import WorkerError

log = logging.getLogger("bot.images")

DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024
SMALLEST_SIDE = 200
"""A picture is not shrunk below this many pixels on its longer side (left out instead)."""

Render = Callable[[ImageRequest, Frame], Awaitable[bytes | None]]
"""Draws one request (``GameService.render``: a worker process, or a thread)."""


class Drawn(list[discord.File]):
    """The files drawn; ``missing``: the file names of the images that could not be drawn
    (their worker's drawing and the fallback both failed)."""

    def __init__(self) -> None:
        super().__init__()
        self.missing: list[str] = []


def upload_limit(interaction: discord.Interaction[Any] | None) -> int:
    """The interaction's upload limit (10 MiB without one)."""
    limit = getattr(interaction, "filesize_limit", None) if interaction else None
    return int(limit) if limit else DEFAULT_UPLOAD_LIMIT


async def in_thread(req: ImageRequest, frame: Frame) -> bytes | None:
    """Draw in a thread of this process (when no service is at hand)."""
    return await asyncio.to_thread(render_image, req, frame)


def missing_note(files: Sequence[discord.File], lang: str = "en") -> str:
    """One short line in ``lang`` saying which pictures are missing ("" when none is)."""
    missing = getattr(files, "missing", None)
    if not missing:
        return ""
    L = translator(lang)
    kinds = [n.rsplit(".", 1)[0] for n in missing]
    names = [L.name(f"bot.image.kind.{k}", k.replace("_", " ")) for k in kinds]
    return L("bot.image.missing", names=names, n=len(names))


async def draw(
    reqs: Sequence[tuple[str, ImageRequest, Frame]], limit: int, render: Render = in_thread
) -> Drawn:
    """Draw the images (``render``: the service's ``render``, in its worker processes, with
    its fallback); shrink them when together they would pass the upload limit (:func:`fit`:
    a picture past any shrinking is dropped), and leave out (named in ``missing``) those
    that could not be drawn: a picture never stops a post."""
    out = Drawn()
    drawn: list[tuple[str, bytes]] = []
    for name, req, frame in reqs:
        try:
            data = await render(req, frame)
        except WorkerError as e:
            log.error("image %s (v%s) not drawn: %s", req.kind, req.version, e)
            out.missing.append(name)
            continue
        except Exception:
            log.exception("image %s (v%s) not drawn", req.kind, req.version)
            out.missing.append(name)
            continue
        if data is not None:
            drawn.append((name, data))
    if sum(len(d) for _, d in drawn) > limit:
        drawn = await asyncio.to_thread(fit_bytes, drawn, limit)
    out.extend(discord.File(io.BytesIO(d), filename=n) for n, d in drawn)
    return out


def smaller(data: bytes, factor: float) -> bytes | None:
    """A PNG picture scaled by ``factor`` and quantised to 128 colours (None: not a picture
    Pillow reads as one frame, or already at :data:`SMALLEST_SIDE`)."""
    try:
        with Image.open(io.BytesIO(data)) as im:
            if getattr(im, "n_frames", 1) > 1 or max(im.size) <= SMALLEST_SIDE:
                return None
            w = max(1, round(im.width * factor))
            h = max(1, round(im.height * factor))
            small = im.convert("RGB").resize((w, h), Image.Resampling.LANCZOS)
    except (OSError, ValueError):
        return None
    q = small.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def fit_bytes(files: Sequence[tuple[str, bytes]], limit: int) -> list[tuple[str, bytes]]:
    """The pictures (name, bytes) drawn again smaller until together they take at most
    ``limit`` bytes; those that cannot shrink (an animation, a picture already small) are
    dropped, the last first, until the rest fit ([] when nothing does)."""
    out = list(files)
    for _ in range(6):
        total = sum(len(d) for _, d in out)
        if total <= limit:
            return out
        factor = max(0.3, min(0.85, 0.95 * (limit / total) ** 0.5))
        shrunk = [(n, smaller(d, factor)) for n, d in out]
        if all(d is None for _, d in shrunk):
            break
        out = [
            (n, d if d is not None and len(d) < len(old) else old)
            for (n, d), (_, old) in zip(shrunk, out, strict=True)
        ]
    while out and sum(len(d) for _, d in out) > limit:
        # the animation first (it cannot shrink), else the last picture
        gone = next((i for i, (n, _) in enumerate(out) if not n.endswith(".png")), len(out) - 1)
        out.pop(gone)
    return out


async def fit(files: Sequence[discord.File], limit: int) -> list[discord.File]:
    """:func:`fit_bytes` of discord files (their names and descriptions kept)."""
    said = {f.filename: f.description for f in files}
    raw = [(f.filename, _bytes_of(f)) for f in files]
    kept = await asyncio.to_thread(fit_bytes, raw, limit)
    return [discord.File(io.BytesIO(d), filename=n, description=said.get(n)) for n, d in kept]


def _bytes_of(f: discord.File) -> bytes:
    fp = f.fp
    if isinstance(fp, io.BytesIO):
        return fp.getvalue()
    fp.seek(0)
    return fp.read()
