"""Drawing the service's image requests: pure CPU work, run in a worker process of
:class:`service.workers.WorkerPool` (or in a thread when the pool is off). Each request is
drawn by the adapter of its game (``req.game``: :mod:`service.games`). When the worker's
drawing fails or comes late, the pool draws the request's cheaper fallback
(:func:`render_fallback`) in its own process: a post always carries its picture."""

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


def render_fallback(req: ImageRequest, frame: Frame) -> bytes | None:
    """The cheaper drawing of ``req`` from ``frame``: the adapter's
    :meth:`~service.games.GameAdapter.render_fallback` (by default the same picture at a
    smaller scale). Drawn in the surface's own process, when the worker's drawing failed or
    is late (:meth:`service.workers.WorkerPool.draw`)."""
    return adapter(req.game).render_fallback(req, frame)
