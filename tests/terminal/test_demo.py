"""``python -m turnpost demo`` with its pictures drawn in worker processes (issue 19): a worker
killed at every picture whose fallback drawing fails too (issue 29 item 7: the fallback
draws it otherwise) leaves those pictures out, says so in one line and exits 1 — the game
is still played and saved, no traceback; ``--workers 0`` draws in threads."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

import service.workers
from terminal.demo import add_arguments, run_demo
from tests.service import pool_jobs


def demo_args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_arguments(p)
    return p.parse_args(list(argv))


async def test_a_demo_whose_workers_die_while_drawing_says_so_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service.workers, "draw_job", pool_jobs.exit_draw)
    monkeypatch.setattr(service.workers, "render_fallback", pool_jobs.failing_fallback)
    out, err = io.StringIO(), io.StringIO()
    args = demo_args("--players", "2", "--max-rounds", "1", "--workers", "1", str(tmp_path))
    code = await run_demo(args, out=out, err=err)
    assert code == 1
    lines = [ln for ln in err.getvalue().splitlines() if ln.startswith("error:")]
    assert len(lines) == 1 and "could not be drawn (a worker process failed twice)" in lines[0]
    assert "turn-001-map.png" in lines[0] and "the game was played and saved" in lines[0]
    assert "Traceback" not in err.getvalue() + out.getvalue()
    assert "Stopped unfinished at the round cap" in out.getvalue()
    assert not list(tmp_path.glob("*.png"))  # nothing half-written
    assert (tmp_path / "timeline.gif").exists()  # the timeline is its own job: it worked


async def test_a_demo_in_threads_draws_everything(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    args = demo_args("--players", "2", "--max-rounds", "1", "--workers", "0", str(tmp_path))
    assert await run_demo(args, out=out, err=err) == 0
    assert (tmp_path / "final-map.png").exists() and (tmp_path / "timeline.gif").exists()
