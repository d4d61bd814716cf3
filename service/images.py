"""Drawing the service's image requests: pure CPU work, run in a worker process of
:class:`service.workers.WorkerPool` (or in a thread when the pool is off)."""

from __future__ import annotations

from typing import Any

from rules import view
from service.results import Frame, ImageRequest


def render_image(req: ImageRequest, frame: Frame, options: Any = None) -> bytes | None:
    """Draw ``req`` from ``frame`` through the view of ``req.seat`` (None if the image
    would be empty, e.g. no battle). Pure CPU work: surfaces draw through
    :meth:`service.core.GameCore.render` (a worker process, or a thread)."""
    from bot.render import (
        RenderOptions,
        render_battle,
        render_boards,
        render_hand,
        render_map,
        render_map_zoom,
        render_panel,
        render_scores,
    )

    opts = options if options is not None else RenderOptions()
    v = view(frame.state, req.seat)
    ev = list(frame.events)
    if req.kind == "map":
        return render_map(v, ev, seat=req.seat, options=opts, lang=req.lang)
    if req.kind == "map_zoom":
        return render_map_zoom(v, ev, seat=req.seat, options=opts, lang=req.lang)
    if req.kind == "boards":
        return render_boards(v, seat=req.seat, options=opts, lang=req.lang)
    if req.kind == "panel":
        return render_panel(
            v, req.player if req.player is not None else 0, options=opts, lang=req.lang
        )
    if req.kind == "hand":
        if req.seat is None:
            raise ValueError("a hand image needs a seat")
        return render_hand(v, req.seat, options=opts, lang=req.lang)
    if req.kind == "battle":
        return render_battle(v, ev, seat=req.seat, options=opts, lang=req.lang)
    if req.kind == "scores":
        return render_scores(v, options=opts, lang=req.lang)
    raise ValueError(f"unknown image kind {req.kind!r}")
