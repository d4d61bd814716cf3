"""Kill test of the rating update (issue #31): a process finishing games of a server (each
rated in the transaction that records its result) is SIGKILLed again and again — every other
time *inside* a rating update (between two tables' rows, before COMMIT), the others at a
random moment. Afterwards nothing acknowledged is lost, the game cut inside its rating has
neither result nor rating, no finished game lacks its rating (no result without its rating),
and the tables equal the fold of the stored results."""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.ratings import RULES
from storage import GameStatus, SqliteGameStore
from storage.check import check_store
from tests.devtools.rating_kill_worker import GAME, GUILD
from tests.storage import toy_game

REPO = Path(__file__).resolve().parents[2]
KILLS = 8

pytestmark = [
    pytest.mark.slow,  # a writer process SIGKILLed again and again
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL"),
]


def run_and_kill(db: Path, rng: random.Random, seed: int, pause: bool) -> tuple[list[str], int]:
    """Start a worker and SIGKILL it (``pause``: inside a rating update); its complete
    output lines and exit code."""
    args = [sys.executable, "-m", "tests.devtools.rating_kill_worker", str(db), "--seed", str(seed)]
    if pause:
        args += ["--pause-after", str(rng.randrange(1, 6))]
    proc = subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    if pause:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 5)
            if not ready:
                continue
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if line.startswith("IN-RATING"):
                break
        assert lines and lines[-1].startswith("IN-RATING"), lines[-5:]
    else:  # once the store is open, at a random moment of the loop
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "the worker did not start"
        lines.append(proc.stdout.readline().rstrip("\n"))
        assert lines == ["READY"], lines
        time.sleep(rng.uniform(0.05, 0.5))
    os.kill(proc.pid, signal.SIGKILL)
    rest, _ = proc.communicate(timeout=20)
    complete = rest.split("\n")[:-1]  # a line cut by the kill is no acknowledgement
    return lines + complete, proc.returncode


def test_a_kill_during_a_rating_update_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "ratings.sqlite3"
    rng = random.Random(31)
    acked: set[int] = set()
    cut: list[int] = []
    for run in range(KILLS):
        pause = run % 2 == 0
        lines, code = run_and_kill(db, rng, seed=run, pause=pause)
        assert code == -signal.SIGKILL, lines[-5:]
        acked |= {int(line.split()[1]) for line in lines if line.startswith("ACK ")}
        cut += [int(line.split()[1]) for line in lines if line.startswith("IN-RATING ")]
    assert len(cut) == KILLS // 2 and len(acked) > KILLS

    async def verify() -> None:
        async with SqliteGameStore(db, replayer=toy_game.replay) as store:
            report = await check_store(store, toy_game.replay)
            assert report.ok, "\n".join(report.lines())
            for game_id in cut:  # killed inside its rating: no result, no rating
                assert game_id not in acked
                record = await store.get_game(game_id)
                assert record.status is GameStatus.RUNNING
                assert all(s.score is None for s in record.seats)
            changes = await store.rating_changes(GUILD, GAME)
            rated = {c.game_id for c in changes}
            finished = {
                g.id
                for g in await store.list_games(guild_id=GUILD, limit=None)
                if g.status is GameStatus.FINISHED
            }
            assert acked <= finished  # nothing acknowledged is lost
            for game_id in finished:  # no result without its rating (unless not rated)
                record = await store.get_game(game_id)
                assert (game_id in rated) == (RULES.plan(GAME, record.seats) is not None)
            assert {c.season for c in changes} == {0}
            season = await store.rating_changes(GUILD, GAME, season=1)
            assert {c.game_id for c in season} == rated  # both tables, every time
            folded = await store.fold_ratings(GUILD, GAME, RULES)
            for number in (0, 1):
                stored = await store.ratings(GUILD, GAME, season=number)
                mine = sorted(
                    (r for (s, _), r in folded.rows.items() if s == number),
                    key=lambda r: r.player,
                )
                assert stored == mine

    asyncio.run(verify())
