"""Several processes on one PostgreSQL database (issue 19, part 3): each store object here
stands for one bot process (its own pool, its own origin).

- the writers of one game queue on its advisory lock, whatever rows they touch;
- a change saved by one store is reported to the others (``LISTEN``/``NOTIFY``), never to
  itself, never for a rolled-back transaction, and the listening connection comes back after
  it is cut (reporting that changes may have been missed);
- a game's pacing tick is held by one store at a time (``FOR UPDATE SKIP LOCKED``): another
  one is told at once to skip it, and gets it once the holder is done or gone.

The defaults of a one-process store (SQLite) are checked too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from storage import GameChange, PostgresGameStore, SqliteGameStore, VersionConflict
from storage.postgres import GAME_LOCK_CLASS
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, new_game, play


def _store(url: str) -> PostgresGameStore:
    return PostgresGameStore(
        url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=4
    )


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[PostgresGameStore, PostgresGameStore]]:
    """Two store objects on one database: two processes."""
    async with _store(pg_url) as first, _store(pg_url) as second:
        yield first, second


class Changes:
    """A subscriber that keeps what it is told."""

    def __init__(self) -> None:
        self.seen: list[GameChange] = []
        self.arrived = asyncio.Event()

    def __call__(self, change: GameChange) -> None:
        self.seen.append(change)
        self.arrived.set()

    async def until(self, wanted: GameChange, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while wanted not in self.seen:
            self.arrived.clear()
            left = end - time.monotonic()
            assert left > 0, f"never told {wanted}; told {self.seen}"
            try:
                await asyncio.wait_for(self.arrived.wait(), left)
            except TimeoutError:
                continue


# ---------------------------------------------------------------------- the game's lock


async def test_writes_of_one_game_queue_on_its_advisory_lock(
    two: tuple[PostgresGameStore, PostgresGameStore], pg_url: str
) -> None:
    first, second = two
    game = await new_game(first)
    other = await new_game(first, channel_id=2000)
    holder = await asyncpg.connect(pg_url)  # another process, inside a write of the game
    try:
        tx = holder.transaction()
        await tx.start()
        await holder.execute("SELECT pg_advisory_xact_lock($1, $2)", GAME_LOCK_CLASS, game.id)
        # writes that touch no game row: before the advisory lock they did not wait
        news = asyncio.create_task(second.add_news(game.id, 0, ["drawn: a card"]))
        clocks = asyncio.create_task(
            second.sync_decisions(game.id, game.version, [0], second.now())
        )
        step = asyncio.create_task(play(second, game, [3]))
        await asyncio.sleep(0.5)
        assert not news.done() and not clocks.done() and not step.done()
        await second.add_news(other.id, 0, ["another game does not wait"])
        await tx.commit()
        await asyncio.wait_for(asyncio.gather(news, clocks, step), 10)
    finally:
        await holder.close()
    assert [n.text for n in await first.unread_news(game.id, 0)] == ["drawn: a card"]
    assert (await first.get_game(game.id)).version == 1


# ---------------------------------------------------------------------- changes made known


async def test_a_step_saved_by_one_store_is_told_to_the_other(
    two: tuple[PostgresGameStore, PostgresGameStore],
) -> None:
    first, second = two
    told_first, told_second = Changes(), Changes()
    first.subscribe(told_first)
    second.subscribe(told_second)
    await asyncio.wait_for(first.listening.wait(), 10)
    await asyncio.wait_for(second.listening.wait(), 10)
    game = await new_game(first)
    saved = await play(first, game, [4, 2])
    await told_second.until(GameChange(game.id, 1))
    await told_second.until(GameChange(game.id, 2))
    # a stale save is rolled back: nothing is told for it
    with pytest.raises(VersionConflict):
        await play(second, game, [9])
    undone = await second.undo(game.id, 1, by=0, expected_version=saved.version)
    await told_first.until(GameChange(game.id, undone.version))
    await second.set_status(game.id, undone.status, expected_version=undone.version)
    await asyncio.sleep(0.3)  # anything else on its way arrives
    assert told_second.seen == [GameChange(game.id, 1), GameChange(game.id, 2)]  # not its own
    assert told_first.seen == [GameChange(game.id, 3), GameChange(game.id, 3)]


async def test_the_listening_connection_comes_back(
    two: tuple[PostgresGameStore, PostgresGameStore],
    pg_url: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr("storage.postgres.LISTEN_CHECK_SECONDS", 0.2)
    monkeypatch.setattr("storage.postgres.RECONNECT_DELAYS", (0.1, 0.4))
    first, second = two
    told = Changes()
    second.subscribe(told)
    await asyncio.wait_for(second.listening.wait(), 10)
    game = await new_game(first)
    admin = await asyncpg.connect(pg_url)
    try:
        for _ in range(2):  # cut twice: it comes back each time
            cut = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND (query LIKE 'LISTEN%' OR query = 'SELECT 1')"
            )
            assert cut >= 1
            await told.until(GameChange(None))
            told.seen.clear()
            await asyncio.wait_for(second.listening.wait(), 10)
        saved = await play(first, game, [1])
        await told.until(GameChange(game.id, saved.version))
    finally:
        await admin.close()
    lost = [r for r in caplog.records if "lost the listening connection" in r.getMessage()]
    back = [r for r in caplog.records if "listening to" in r.getMessage()]
    assert len(lost) == 2 and len(back) == 2  # once each per outage, not once per attempt
    assert "***" not in pg_url or all(pg_url not in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------------- one ticker per game


async def test_one_store_ticks_a_game_at_a_time(
    two: tuple[PostgresGameStore, PostgresGameStore],
) -> None:
    first, second = two
    game = await new_game(first)
    other = await new_game(first, channel_id=2000)
    async with first.tick_claim(game.id) as mine:
        assert mine
        # told at once, never waiting for the holder: the holder lets go only after this
        # block, so a claim that waited would never return (the guard ends such a hang; the
        # time it takes is a benchmark's figure: python -m devtools.pgtick)
        async with asyncio.timeout(60), second.tick_claim(game.id) as theirs:
            assert not theirs
        async with second.tick_claim(other.id) as theirs:
            assert theirs
        # the holder's own writes of the game do not wait on its tick
        await asyncio.wait_for(first.claim_timer(game.id, 0, 0, "half", first.now()), 5)
    async with second.tick_claim(game.id) as theirs:
        assert theirs


async def test_a_dead_holder_releases_the_tick(pg_url: str) -> None:
    async with _store(pg_url) as survivor:
        game = await new_game(survivor)
        dying = _store(pg_url)
        await dying.open()
        claim = dying.tick_claim(game.id)
        assert await claim.__aenter__()
        async with survivor.tick_claim(game.id) as mine:
            assert not mine
        pool = dying._pool
        assert pool is not None
        pool.terminate()  # the process dies: its connections drop
        end = time.monotonic() + 10
        while True:
            async with survivor.tick_claim(game.id) as mine:
                if mine:
                    break
            assert time.monotonic() < end, "the dead holder's tick was never released"
            await asyncio.sleep(0.1)


# ---------------------------------------------------------------------- one process: SQLite


async def test_sqlite_defaults_are_one_process(tmp_path: Path) -> None:
    async with SqliteGameStore(tmp_path / "one.sqlite3", replayer=toy_game.replay) as store:
        game = await new_game(store)
        told = Changes()
        store.subscribe(told)
        async with store.tick_claim(game.id) as mine:
            assert mine
        await play(store, game, [1])
        assert told.seen == []


async def test_the_tick_benchmark_measures_both_answers(pg_url: str) -> None:
    """``python -m devtools.pgtick``'s figures, made on a real database (no duration asserted)."""
    from devtools.pgtick import measure

    refused, granted = await measure(pg_url, 3)
    assert refused.startswith("refused (held by another process): median ")
    assert granted.startswith("granted: median ") and granted.endswith("(3 claims)")
