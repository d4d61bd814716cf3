"""The bot's worker pool (issue 19): a map whose worker process dies while drawing it is
tried once more, then drawn by the cheaper fallback in the bot's process (issue 29 item 7: a
turn's post always carries its map); only when the fallback fails too does the post go out
without it, saying so in one short line — never a stalled post — and the next turn's map is
drawn again by new workers; the pool stops with the bot."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import service.workers
from bot.images import draw, missing_note
from rules.brazil import format_action, legal_actions, new_game
from service import Frame, ImageRequest
from service.workers import WorkerPool
from tests.bot.conftest import bot_maker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import ANA, CH, SEED, Game, public, turn_writes
from tests.service import pool_jobs


async def until(cond: Callable[[], bool]) -> None:
    for _ in range(10_000):
        if cond():
            return
        await asyncio.sleep(0)
    raise AssertionError("never")


async def test_a_map_whose_workers_die_is_posted_from_the_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The post's pictures (``bot.images.draw``) through a pool whose every worker dies: the
    map is the fallback's (a real, smaller drawing), no note; the fallback failing too: the
    map is left out and named."""
    pool = WorkerPool(1, image_wait=600.0)
    ex = pool_jobs.FakeExecutor()
    monkeypatch.setattr(pool, "_start", lambda: ex)
    frame = Frame(3, new_game(2, seed=4))
    reqs = [("map.png", ImageRequest("map", None, 3), frame)]

    async def dying(n: int) -> None:
        for k in range(n, n + 2):  # the job and its retry
            await until(lambda k=k: len(ex.jobs) > k)  # type: ignore[misc]
            ex.crash(k)

    files, _ = await asyncio.gather(draw(reqs, 10 * 1024 * 1024, pool.draw), dying(0))
    assert [f.filename for f in files] == ["map.png"] and not files.missing
    assert files[0].fp.read(8) == b"\x89PNG\r\n\x1a\n" and missing_note(files) == ""
    assert pool.fallbacks == 1 and pool.replaced == 2

    monkeypatch.setattr(service.workers, "render_fallback", pool_jobs.failing_fallback)
    files, _ = await asyncio.gather(draw(reqs, 10 * 1024 * 1024, pool.draw), dying(2))
    assert list(files) == [] and files.missing == ["map.png"]
    assert "the map picture could not be drawn this time" in missing_note(files)
    pool.close(0)


async def _play_until_a_map(fake: FakeDiscord, h: Any) -> Any:
    """Ana's first legal commands until a post or an edit uploads a map (an edit within a turn
    keeps its post's map: issue #29), and that write."""
    for _ in range(12):
        _, st = await Game(fake, h).state()
        action = legal_actions(st, 0)[0]
        reqs = await h.command(ANA, CH, "play", command=format_action(st, action))
        mapped = [r for r in turn_writes(reqs) if "map.png" in r.files]
        if mapped:
            return mapped[-1]
    raise AssertionError("no new map in 12 steps")


@pytest.mark.slow
async def test_a_map_not_drawn_is_left_out_with_a_note_and_the_game_goes_on(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with bot_maker(fake, tmp_path / "bot.sqlite3", workers=1) as make:
        h = await make()
        pool = h.client.tables.svc.workers  # type: ignore[attr-defined]
        assert pool.enabled and pool.workers == 1
        pool.image_wait = 600.0  # a slow start of the workers is no fallback here
        monkeypatch.setattr(service.workers, "draw_job", pool_jobs.exit_draw)  # workers die
        monkeypatch.setattr(service.workers, "render_fallback", pool_jobs.failing_fallback)
        await h.command(ANA, CH, "game", "new", players=2, ai_level="random")
        lobby = fake.messages[max(fake.messages)]
        await h.click(ANA, lobby, "brz:l:1:ai")
        h.client.tables.next_seed = SEED  # type: ignore[attr-defined]
        reqs = await h.click(ANA, lobby, "brz:l:1:start")
        first = public(reqs)[-1]
        assert "map.png" not in first.files and "attachment://map.png" not in first.text()
        assert "the map picture could not be drawn this time; the game goes on" in first.text()
        assert pool.replaced == 2  # tried twice, two workers died

        monkeypatch.undo()  # the fallback works again: the next new map is posted
        monkeypatch.setattr(service.workers, "draw_job", pool_jobs.exit_draw)
        shown = await _play_until_a_map(fake, h)
        assert "could not be drawn" not in shown.text()  # drawn by the fallback
        assert pool.fallbacks >= 2

        monkeypatch.undo()  # drawing works again: the next post has the workers' map
        fallbacks = pool.fallbacks
        shown = await _play_until_a_map(fake, h)
        assert "could not be drawn" not in shown.text()
        assert pool.fallbacks == fallbacks
        worker = pool.pids()[0]
        assert worker != os.getpid()
        await h.client.close()
        assert not pool.enabled
        for _ in range(100):
            if not pool_alive(worker):
                break
            await asyncio.sleep(0.05)
        assert not pool_alive(worker), "the worker stopped with the bot"


def pool_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
