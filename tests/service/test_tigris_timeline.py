"""Tigris & Euphrates' timeline animation (``service/timeline.py`` through the game's
adapter): the public board after every turn, each turn's squares ringed, as a GIF — what the
demo writes as ``timeline.gif`` and the Discord end post attaches."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from render.animate import TIMELINE_WIDTH
from render.theme import RenderOptions
from render.tigris.board import changed_squares, draw_board, geometry
from rules.tigris.state import TigrisState
from service import GameService
from service.games import adapter
from service.timeline import timeline_frames
from service.workers import WorkerPool


@pytest.mark.slow
async def test_the_timeline_of_a_tigris_game_is_its_board_after_every_turn(
    service: GameService,
) -> None:
    res = await service.new_game(["ai:random"] * 3, game="tigris", seed=5)
    gid = res.game_id
    await service.run_ai_turns(gid)
    st = await service.state(gid)
    assert st.phase == "over"
    frames = await service.reading.timeline_frames(gid)
    # one frame per turn (the last: the end), each a spectator's view: no hand in it
    assert len(frames) == st.turn
    assert all(isinstance(v, TigrisState) and v.view_of is None for v, _ in frames)
    assert all(p.hand == [0, 0, 0, 0] or p.hidden for v, _ in frames for p in v.players)
    assert frames[-1][0].phase == "over"
    gif = await service.reading.timeline_image(gid)
    assert gif is not None and len(gif) < 8_000_000
    im = Image.open(io.BytesIO(gif))
    assert im.format == "GIF" and getattr(im, "n_frames", 1) == len(frames)
    assert abs(im.width - TIMELINE_WIDTH) <= 2
    # every decoded frame is the board after that turn with its squares ringed
    scale = TIMELINE_WIDTH / geometry(1.0).width
    for i in (0, len(frames) // 2, len(frames) - 1):
        im.seek(i)
        got = im.convert("RGB")
        v, ev = frames[i]
        want = draw_board(v, changed_squares(ev), RenderOptions(scale=scale)).convert("RGB")
        assert got.size == want.size
        diff = ImageChops.difference(got, want).convert("L")
        assert sum(diff.histogram()[40:]) < 0.002 * got.width * got.height, i
    # drawn in a worker process: the same bytes
    entries = await service.store.get_log(gid)
    async with WorkerPool(1) as pool:
        assert await pool.timeline(entries, "en", "tigris") == gif
    # a game not started has no timeline; Brazil: Imperial's log is replayed as before
    assert timeline_frames(entries[:1], "tigris") == []
    assert adapter("tigris").has_timeline
