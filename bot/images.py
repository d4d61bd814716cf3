"""Images for Discord: drawn from the service's image requests in its worker processes
(:meth:`service.game.GameService.render`), within the interaction's upload limit. A picture
the workers fail to draw, or draw late, comes from the service's cheaper fallback drawing
(issue 29 item 7); one that could not be drawn even so is left out and named, so the post
can say so."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from i18n import translator
from service import Frame, ImageRequest, render_image
from service.workers import WorkerError

log = logging.getLogger("bot.images")

DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024

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
    its fallback); drop those that would pass the upload limit, and leave out (named in
    ``missing``) those that could not be drawn: a picture never stops a post."""
    out = Drawn()
    total = 0
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
        if data is None or total + len(data) > limit:
            continue
        total += len(data)
        out.append(discord.File(io.BytesIO(data), filename=name))
    return out
