"""A game's page as a folder of static files (``python -m turnpost export-html GAME OUTDIR``): the
same page with its data embedded, its script and style, and the map of every step, so that
anyone can host it or open ``index.html`` from disk. Public things only, as on the live page,
in the game's language.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from web.data import live_json, steps_json
from web.page import render_page
from web.server import static_file

if TYPE_CHECKING:
    from collections.abc import Callable

    from service.game import GameService


async def export_html(
    svc: GameService,
    game_id: int,
    outdir: str | Path,
    *,
    progress: Callable[[int, int], None] | None = None,
    lang: str | None = None,
) -> Path:
    """Write the game's page into ``outdir`` (created if needed): ``index.html``,
    ``page.js``, ``page.css`` and ``map/<version>.png`` for every step, in ``lang`` (None:
    the game's language). ``progress(done, total)`` is called after each map. Returns the
    path of ``index.html``."""
    out = Path(outdir)
    (out / "map").mkdir(parents=True, exist_ok=True)
    if lang is None:
        lang = await svc.archive.language(game_id)  # the game's language
    live = live_json(await svc.archive.live(game_id, lang=lang), map_lang=False)
    steps = steps_json(await svc.archive.archive(game_id, lang=lang), map_lang=False)
    versions = sorted({int(s["version"]) for s in steps["steps"]})
    for i, v in enumerate(versions, 1):
        (out / "map" / f"{v}.png").write_bytes(await svc.archive.map_png(game_id, v, lang=lang))
        if progress is not None:
            progress(i, len(versions))
    for name in ("page.js", "page.css"):
        (out / name).write_bytes(static_file(name))
    index = out / "index.html"
    index.write_text(render_page(live, steps, static=True, lang=lang), encoding="utf-8")
    return index
