"""Crash safety: a process saving games is SIGKILLed at random moments, over and over.

The worker's steps include undos and rollbacks (which restore an old version from a snapshot
and replay). Afterwards the database must pass ``check`` (integrity + replay of every game)
and every write the worker acknowledged (printed ``ACK`` after its commit returned) must be
there, with the right kind, action or target, and the right state.
"""

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

from storage import SqliteGameStore
from storage.check import check_store
from storage.jsonutil import state_hash
from tests.storage import toy_game
from tests.storage.crash_worker import PADDING

REPO = Path(__file__).resolve().parents[2]
KILLS = 24

pytestmark = [
    pytest.mark.slow,  # a writer process SIGKILLed again and again (tests/README.md)
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL"),
]


def run_and_kill(db_path: Path, rng: random.Random, seed: int) -> tuple[str, int]:
    """Start a worker, SIGKILL it after a random delay; return its output and exit code."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.storage.crash_worker",
            "crash",
            str(db_path),
            "--games",
            "4",
            "--finish-at",
            "25",
            "--seed",
            str(seed),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    first = ""
    if rng.random() < 0.8:
        # most kills land while saving: wait until the store is open, then a random delay
        ready, _, _ = select.select([proc.stdout], [], [], 20)
        assert ready, "worker did not start"
        first = proc.stdout.readline()
        assert first == "READY\n"
        time.sleep(rng.uniform(0.0, 0.25))
    else:
        # the rest land anywhere, including start-up and schema creation or migration
        time.sleep(rng.uniform(0.0, 0.5))
    os.kill(proc.pid, signal.SIGKILL)
    rest, _ = proc.communicate(timeout=20)
    return first + rest, proc.returncode


def test_sigkill_loses_no_acknowledged_save(tmp_path: Path) -> None:
    db_path = tmp_path / "crash.sqlite3"
    rng = random.Random(20250101)
    acked: dict[int, int] = {}  # game id -> highest acknowledged version
    acked_kinds: dict[tuple[int, int], str] = {}
    finished: set[int] = set()
    started = time.monotonic()
    killed_while_saving = 0
    for run in range(KILLS):
        output, code = run_and_kill(db_path, rng, seed=run)
        assert code == -signal.SIGKILL, output[-500:]
        lines = output.split("\n")
        complete = lines[:-1]  # a line cut by the kill has no newline: not an acknowledgement
        acks = 0
        for line in complete:
            kind, *values = line.split()
            if kind == "ACK":
                game_id, version = int(values[0]), int(values[1])
                acked_kinds[game_id, version] = values[2]
                # versions only move forward; a save committed just before a kill (so never
                # acknowledged) may sit between two runs' acknowledgements
                assert version > acked.get(game_id, 0), "went back behind an acknowledged save"
                acked[game_id] = version
                acks += 1
            elif kind == "FINISHED":
                finished.add(int(values[0]))
        killed_while_saving += acks > 0
    print(f"{KILLS} kills in {time.monotonic() - started:.1f} s")  # a figure, not a test
    assert killed_while_saving >= KILLS // 2, "too few kills hit the save loop"
    assert sum(acked.values()) > 100
    kinds = set(acked_kinds.values())
    assert {"action", "undo", "rollback"} <= kinds, kinds

    async def verify() -> None:
        async with SqliteGameStore(db_path) as store:
            report = await check_store(store, toy_game.replay)
            assert report.ok, "\n".join(report.lines())
            for game_id, top in acked.items():
                record = await store.get_game(game_id)
                assert record.version >= top  # at most the unacknowledged last save is extra
                if game_id in finished:
                    assert record.status == "finished"
                log = await store.get_log(game_id)
                states = toy_game.crash_states(game_id, record.version, PADDING)
                last = "created"
                for version in range(1, record.version + 1):
                    entry = log[version]
                    op, value = toy_game.crash_step(game_id, version, last)
                    last = "action" if op == "add" else op
                    assert entry.kind == last
                    if version <= top:
                        assert acked_kinds.get((game_id, version), last) == last
                    if op == "add":
                        assert entry.action_json == toy_game.action(value)
                    else:
                        assert entry.target_version == value
                    assert entry.state_hash == state_hash(states[version])
                assert record.state() == states[-1]
                undone = [item.undone for item in await store.history(game_id)]
                assert undone[-1] is False and (True in undone) == (
                    any(e.kind != "action" for e in log[1:])
                )

    asyncio.run(verify())
