"""The bot's worker pool (issue 19): a map whose worker process dies while drawing it is
tried once more, then the turn's post goes out without it and says so in one short line —
never a stalled post — and the next turn's map is drawn again by new workers; the pool
stops with the bot."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

import service.workers
from rules.brazil import format_action, legal_actions
from tests.bot.conftest import bot_maker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import ANA, CH, SEED, Game, public, turn_writes
from tests.service import pool_jobs


@pytest.mark.slow
async def test_a_map_not_drawn_is_left_out_with_a_note_and_the_game_goes_on(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with bot_maker(fake, tmp_path / "bot.sqlite3", workers=1) as make:
        h = await make()
        pool = h.client.tables.svc.workers  # type: ignore[attr-defined]
        assert pool.enabled and pool.workers == 1
        monkeypatch.setattr(service.workers, "draw_job", pool_jobs.exit_draw)  # workers die
        await h.command(ANA, CH, "game", "new", players=2, ai_level="random")
        lobby = fake.messages[max(fake.messages)]
        await h.click(ANA, lobby, "brz:l:1:ai")
        h.client.tables.next_seed = SEED  # type: ignore[attr-defined]
        reqs = await h.click(ANA, lobby, "brz:l:1:start")
        first = public(reqs)[-1]
        assert "map.png" not in first.files and "attachment://map.png" not in first.text()
        assert "the map picture could not be drawn this time; the game goes on" in first.text()
        assert pool.replaced == 2  # tried twice, two workers died

        monkeypatch.undo()  # drawing works again: the next post has its map
        _, st = await Game(fake, h).state()
        action = legal_actions(st, 0)[0]
        reqs = await h.command(ANA, CH, "play", command=format_action(st, action))
        shown = turn_writes(reqs)
        assert shown and "map.png" in shown[-1].files
        assert "could not be drawn" not in shown[-1].text()
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
