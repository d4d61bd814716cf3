"""A player's choice to end their turns themselves (schema 11, issue #29), on both stores:
kept with their other preferences, off by default and for players from before, carried by
copies; the upgrade from schema 10 keeps everything else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from storage import GameStore, PlayerPrefs, PostgresGameStore, SqliteGameStore
from storage.copy import copy_store
from storage.migrations import LATEST
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, StoreFactory
from tests.storage.old_schema import pg_back_to_10, sqlite_back_to_10
from tests.storage.pg_server import PgServer


async def test_a_players_manual_end(store: GameStore) -> None:
    assert (await store.get_player_prefs(101)).manual_end is False
    got = await store.set_player_prefs(101, manual_end=True)
    assert got.manual_end is True
    assert await store.get_player_prefs(101) == got
    # the other preferences leave it alone, and it leaves them alone
    await store.set_player_prefs(101, tz="Europe/Warsaw")
    assert (await store.get_player_prefs(101)).manual_end is True
    back = await store.set_player_prefs(101, manual_end=False)
    assert back == PlayerPrefs(101, "Europe/Warsaw", None, None, None, None, False)
    assert [p.manual_end for p in await store.all_player_prefs()] == [False]


async def test_copies_carry_the_manual_end(tmp_path: Path, store_factory: StoreFactory) -> None:
    async with store_factory() as store:
        await store.set_player_prefs(101, manual_end=True)
        await store.set_player_prefs(102, tz="Europe/Lisbon")
        async with SqliteGameStore(tmp_path / "copy.sqlite3", replayer=toy_game.replay) as dest:
            report = await copy_store(store, dest)
            assert report.ok and report.prefs_copied == 2, report.summary()
            assert await dest.all_player_prefs() == await store.all_player_prefs()
            assert (await dest.get_player_prefs(101)).manual_end is True


async def test_upgrade_10_to_11_on_sqlite(db_path: Path) -> None:
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        await store.set_player_prefs(101, tz="Europe/Lisbon", language="pt-BR")
    with sqlite3.connect(db_path) as raw:
        sqlite_back_to_10(raw)
        raw.execute("PRAGMA user_version = 10")
        raw.commit()
    raw.close()
    assert LATEST >= 11
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == 10
        assert await store.get_player_prefs(101) == PlayerPrefs(
            101, "Europe/Lisbon", None, None, "pt-BR", None, False
        )
        assert (await store.set_player_prefs(101, manual_end=True)).manual_end


async def test_upgrade_10_to_11_on_postgres(pg_url: str, pg_server: PgServer) -> None:
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    async with store:
        await store.set_player_prefs(101, tz="Europe/Lisbon", quiet=("23:00", "07:00"))
    conn = await asyncpg.connect(pg_url)
    try:
        await pg_back_to_10(conn)
        await conn.execute("UPDATE brazil_schema SET version = 10")
    finally:
        await conn.close()
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    async with store:
        assert store.migrated_from == 10
        prefs = await store.get_player_prefs(101)
        assert prefs == PlayerPrefs(101, "Europe/Lisbon", "23:00", "07:00", None, None, False)
        assert (await store.set_player_prefs(101, manual_end=True)).manual_end
