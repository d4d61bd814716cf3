"""Optimistic concurrency: a save computed from a stale version fails cleanly, nothing lost."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage import BackendError, GameResult, GameStore, Seat, SqliteGameStore, VersionConflict
from tests.storage import toy_game
from tests.storage.conftest import StoreFactory, new_game, play

REPO = Path(__file__).resolve().parents[2]


async def test_stale_save_raises_version_conflict(store_factory: StoreFactory) -> None:
    async with store_factory() as first, store_factory() as second:
        game = await new_game(first)
        seen_by_second = await second.get_game(game.id)
        winner = await play(first, game, [5])
        with pytest.raises(VersionConflict) as caught:
            await play(second, seen_by_second, [7])
        assert (caught.value.expected, caught.value.actual) == (0, 1)
        assert caught.value.game_id == game.id
        assert "version 0" in str(caught.value) and "version 1" in str(caught.value)
        # no lost update: the first write is intact and the second left no trace
        assert await second.get_game(game.id) == winner
        assert [entry.version for entry in await second.get_log(game.id)] == [0, 1]
        # the loser reloads and retries
        retried = await play(second, await second.get_game(game.id), [7])
        assert retried.state() == toy_game.state_after([5, 7])


async def test_concurrent_saves_on_one_store(store: GameStore) -> None:
    game = await new_game(store)
    attempts = [play(store, game, [add]) for add in range(1, 11)]
    results = await asyncio.gather(*attempts, return_exceptions=True)
    winners = [r for r in results if not isinstance(r, BaseException)]
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    assert len(winners) == 1 and len(conflicts) == 9
    final = await store.get_game(game.id)
    assert final == winners[0] and final.version == 1


async def test_read_modify_write_with_retries_loses_nothing(store_factory: StoreFactory) -> None:
    stores = [store_factory() for _ in range(3)]
    for opened in stores:
        await opened.open()
    try:
        game = await new_game(stores[0])

        async def worker(store: GameStore, adds: list[int]) -> int:
            conflicts = 0
            for add in adds:
                while True:
                    record = await store.get_game(game.id)
                    await asyncio.sleep(0)  # let the others interleave
                    try:
                        await play(store, record, [add])
                        break
                    except VersionConflict:
                        conflicts += 1
            return conflicts

        plans = [[1] * 15, [2] * 15, [3] * 15]
        conflicts = await asyncio.gather(
            *(worker(s, p) for s, p in zip(stores, plans, strict=True))
        )
        final = await stores[1].get_game(game.id)
        assert final.version == 45
        assert final.state()["counter"] == 15 * (1 + 2 + 3)
        assert sum(conflicts) > 0  # they really did collide
        report = await stores[2].replay(game.id, toy_game.replay)
        assert report.ok and report.steps == 45
    finally:
        for opened in stores:
            await opened.close()


async def test_metadata_changes_are_version_guarded(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1])
    result = GameResult(scores={0: 3}, winners=frozenset({0}))
    with pytest.raises(VersionConflict):
        await store.finish_game(game.id, result, expected_version=0)
    with pytest.raises(VersionConflict):
        await store.assign_seat(game.id, Seat.discord(0, 9), expected_version=0)
    assert await store.get_game(game.id) == game
    done = await store.finish_game(game.id, result, expected_version=1)
    assert done.winners == [0]


@pytest.mark.slow
def test_two_processes_contending(db_path: Path) -> None:
    async def setup() -> int:
        async with SqliteGameStore(db_path) as store:
            return (await new_game(store)).id

    game_id = asyncio.run(setup())
    command = [
        sys.executable,
        "-m",
        "tests.storage.crash_worker",
        "contend",
        str(db_path),
        "--game",
        str(game_id),
        "--iterations",
        "60",
    ]
    procs = [
        subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, text=True) for _ in range(2)
    ]
    outputs = [proc.communicate(timeout=60)[0] for proc in procs]
    assert all(proc.returncode == 0 for proc in procs), outputs
    assert all("DONE 60" in output for output in outputs)

    async def verify() -> None:
        async with SqliteGameStore(db_path) as store:
            final = await store.get_game(game_id)
            assert final.version == 120 and final.state()["counter"] == 120
            assert (await store.replay(game_id, toy_game.replay)).ok
            assert await store.check_integrity() == []

    asyncio.run(verify())


async def test_cancelled_saves_leave_the_store_consistent(store: GameStore) -> None:
    game = await new_game(store)
    for delay_steps in range(12):
        record = await store.get_game(game.id)
        task = asyncio.create_task(play(store, record, [1]))
        for _ in range(delay_steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        # whether or not that save got in, the next one works and nothing is half-written
        after = await store.get_game(game.id)
        assert after.version in (record.version, record.version + 1)
        await play(store, after, [2])
    final = await store.get_game(game.id)
    assert len(await store.get_log(game.id)) == final.version + 1
    assert (await store.replay(game.id, toy_game.replay)).ok
    assert await store.check_integrity() == []


async def test_locked_database_raises_backend_error(db_path: Path) -> None:
    async with SqliteGameStore(db_path, busy_timeout_ms=100) as store:
        game = await new_game(store)
        blocker = sqlite3.connect(db_path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            with pytest.raises(BackendError, match="locked"):
                await play(store, game, [1])
            assert (await store.get_game(game.id)).version == 0  # reads still work in WAL
            blocker.execute("ROLLBACK")
        finally:
            blocker.close()
        assert (await play(store, game, [1])).version == 1
