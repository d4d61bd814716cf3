"""The matchmaking queue's store (schema 14, issue #31), on both stores: entries kept and
replaced, listed longest-waiting first, left, a table's entries taken in one transaction
(all or none: nobody at two tables), carried by copies and backups, and the upgrade from
schema 13."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from storage import GameStore, PostgresGameStore, SqliteGameStore
from storage.copy import BackupSource, copy_store
from storage.dump import BackupFile
from storage.migrations import LATEST
from storage.queue import QueueEntry
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, StoreFactory
from tests.storage.old_schema import sqlite_back_to_13
from tests.storage.pg_server import PgServer

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def entry(user: int, minutes: int = 0, **kw: object) -> QueueEntry:
    values: dict[str, object] = {
        "guild_id": 7,
        "game": "toy",
        "user_id": user,
        "players": 3,
        "channel_id": 555,
        "joined_at": T0 + timedelta(minutes=minutes),
        **kw,
    }
    return QueueEntry.model_validate(values)


async def test_entries_are_kept_replaced_and_listed_longest_waiting_first(
    store: GameStore,
) -> None:
    assert await store.queue_entries() == []
    await store.queue_put(entry(3, 30))
    await store.queue_put(entry(1, 10, ai_fill=True, max_wait_seconds=7200))
    await store.queue_put(entry(2, 20, game="other"))
    await store.queue_put(entry(4, 5, guild_id=8))
    assert [e.user_id for e in await store.queue_entries()] == [4, 1, 2, 3]
    assert [e.user_id for e in await store.queue_entries(7)] == [1, 2, 3]
    assert [e.user_id for e in await store.queue_entries(7, game="toy")] == [1, 3]
    assert await store.queue_entries(user_id=1) == [
        entry(1, 10, ai_fill=True, max_wait_seconds=7200)
    ]
    # joining again replaces the player's entry for that server and game
    await store.queue_put(entry(1, 40, players=2))
    (again,) = await store.queue_entries(user_id=1)
    assert again == entry(1, 40, players=2) and not again.ai_fill
    assert [e.user_id for e in await store.queue_entries(7, game="toy")] == [3, 1]


async def test_leaving_one_game_or_all(store: GameStore) -> None:
    await store.queue_put(entry(1))
    await store.queue_put(entry(1, game="other"))
    await store.queue_put(entry(1, guild_id=8))
    assert await store.queue_remove(7, 1, "other") == 1
    assert await store.queue_remove(7, 1, "other") == 0
    assert [(e.guild_id, e.game) for e in await store.queue_entries(user_id=1)] == [
        (7, "toy"),
        (8, "toy"),
    ]
    assert await store.queue_remove(7, 1) == 1
    assert [e.guild_id for e in await store.queue_entries(user_id=1)] == [8]


async def test_a_table_is_taken_whole_or_not_at_all(store: GameStore) -> None:
    a, b, c = entry(1), entry(2, 1), entry(3, 2)
    for e in (a, b, c):
        await store.queue_put(e)
    assert await store.queue_take([a, b])
    assert await store.queue_entries() == [c]
    # b is gone: a table naming it is refused, and c stays
    assert not await store.queue_take([c, b])
    assert await store.queue_entries() == [c]
    # an entry replaced meanwhile (joined again) is not the one the table was made of
    await store.queue_put(entry(3, 9))
    assert not await store.queue_take([c])
    assert await store.queue_entries() == [entry(3, 9)]


async def test_two_tables_racing_for_one_player_seat_them_once(store: GameStore) -> None:
    a, b, c = entry(1), entry(2, 1), entry(3, 2)
    for e in (a, b, c):
        await store.queue_put(e)
    results = await asyncio.gather(store.queue_take([a, b]), store.queue_take([b, c]))
    assert sorted(results) == [False, True]
    left = await store.queue_entries()
    assert left == ([c] if results[0] else [a])


def test_bad_entries_are_refused() -> None:
    with pytest.raises(ValidationError):
        entry(1, players=0)
    with pytest.raises(ValidationError):
        entry(1, game="Not A Name")
    with pytest.raises(ValidationError):
        entry(1, max_wait_seconds=5)
    with pytest.raises(ValidationError):
        QueueEntry.model_validate(
            {**entry(1).model_dump(), "joined_at": datetime(2026, 3, 1)}  # naive
        )


async def test_copies_carry_the_queue(tmp_path: Path, store_factory: StoreFactory) -> None:
    async with store_factory() as store:
        await store.queue_put(entry(1, ai_fill=True, max_wait_seconds=3600))
        await store.queue_put(entry(2, 3, game="other"))
        async with SqliteGameStore(tmp_path / "copy.sqlite3", replayer=toy_game.replay) as dest:
            await dest.queue_put(entry(2, 99, game="other"))  # another entry for that player
            report = await copy_store(store, dest, force=True)
            assert report.queue_copied == 1, report.summary()
            assert any("queue entry" in r for r in report.refused)
            assert await dest.queue_entries(game="toy") == await store.queue_entries(game="toy")
            assert await dest.queue_entries(game="other") == [entry(2, 99, game="other")]


async def test_backups_carry_the_queue(tmp_path: Path, pg_url: str, pg_server: PgServer) -> None:
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    kept = entry(5, 7, ai_fill=True, max_wait_seconds=86400)
    async with store:
        await store.queue_put(kept)
        await store.backup(tmp_path / "b.jsonl")
    assert BackupFile(tmp_path / "b.jsonl").queue == (kept,)
    async with SqliteGameStore(tmp_path / "from-backup.sqlite3", replayer=toy_game.replay) as d:
        report = await copy_store(BackupSource(tmp_path / "b.jsonl"), d)
        assert report.ok and report.queue_copied == 1, report.summary()
        assert await d.queue_entries() == [kept]


async def test_upgrade_13_to_14_on_sqlite(db_path: Path) -> None:
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        await store.set_player_prefs(101, tz="Europe/Lisbon")
    with sqlite3.connect(db_path) as raw:
        sqlite_back_to_13(raw)
        raw.execute("PRAGMA user_version = 13")
        raw.commit()
    raw.close()
    assert LATEST >= 14
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == 13
        assert (await store.get_player_prefs(101)).tz == "Europe/Lisbon"
        assert await store.queue_entries() == []
        await store.queue_put(entry(1))
        assert [e.user_id for e in await store.queue_entries()] == [1]
