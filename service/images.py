"""Drawing the service's image requests: pure CPU work, run in a worker process of
:class:`service.workers.WorkerPool` (or in a thread when the pool is off). Each request is
drawn by the adapter of its game (``req.game``: :mod:`service.games`)."""

from __future__ import annotations

from typing import Any

from service.games import adapter
from service.results import Frame, ImageRequest


def render_image(req: ImageRequest, frame: Frame, options: Any = None) -> bytes | None:
    """Draw ``req`` from ``frame`` through the view of ``req.seat`` (None if the image
    would be empty, e.g. no battle), with the drawing of the request's game. Pure CPU work:
    surfaces draw through :meth:`service.core.GameCore.render` (a worker process, or a
    thread)."""
    return adapter(req.game).render(req, frame, options)
