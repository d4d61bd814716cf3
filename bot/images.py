"""Images for Discord: drawn from the service's image requests in a worker thread, within the
interaction's upload limit."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import Any

import discord

from service import Frame, ImageRequest, render_image

DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024


def upload_limit(interaction: discord.Interaction[Any] | None) -> int:
    """The interaction's upload limit (10 MiB without one)."""
    limit = getattr(interaction, "filesize_limit", None) if interaction else None
    return int(limit) if limit else DEFAULT_UPLOAD_LIMIT


async def draw(reqs: Sequence[tuple[str, ImageRequest, Frame]], limit: int) -> list[discord.File]:
    """Draw the images in a worker thread; drop those that would pass the upload limit."""
    out: list[discord.File] = []
    total = 0
    for name, req, frame in reqs:
        data = await asyncio.to_thread(render_image, req, frame)
        if data is None or total + len(data) > limit:
            continue
        total += len(data)
        out.append(discord.File(io.BytesIO(data), filename=name))
    return out
