"""Players' turn notices and heads-up, and servers' settings (schema 12, issue #30), on both
stores: defaults for players and servers from before, refused values, carried by copies and
backups; the upgrade from schema 11 keeps everything else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest
from pydantic import ValidationError

from storage import GameStore, GuildSettings, PlayerPrefs, PostgresGameStore, SqliteGameStore
from storage.copy import BackupSource, copy_store
from storage.dump import BackupFile
from storage.errors import InvalidData
from storage.migrations import LATEST
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, StoreFactory
from tests.storage.old_schema import pg_back_to_11, sqlite_back_to_11
from tests.storage.pg_server import PgServer


async def test_a_players_notices_and_heads_up(store: GameStore) -> None:
    first = await store.get_player_prefs(101)
    assert (first.notices, first.heads_up) == ("ping", False)
    got = await store.set_player_prefs(101, notices="dm", heads_up=True)
    assert (got.notices, got.heads_up) == ("dm", True)
    assert await store.get_player_prefs(101) == got
    # the other preferences leave them alone, and they leave the others alone
    await store.set_player_prefs(101, tz="Europe/Warsaw", manual_end=True)
    again = await store.get_player_prefs(101)
    assert (again.notices, again.heads_up, again.tz, again.manual_end) == (
        "dm",
        True,
        "Europe/Warsaw",
        True,
    )
    for mode in ("both", "none", "ping"):
        assert (await store.set_player_prefs(101, notices=mode)).notices == mode


async def test_an_unknown_notice_mode_is_refused_and_changes_nothing(store: GameStore) -> None:
    await store.set_player_prefs(101, notices="dm")
    with pytest.raises(InvalidData):
        await store.set_player_prefs(101, notices="carrier pigeon")
    assert (await store.get_player_prefs(101)).notices == "dm"


async def test_a_servers_settings(store: GameStore) -> None:
    assert await store.get_guild_settings(7) == GuildSettings()
    assert GuildSettings().game_place == "thread" and GuildSettings().max_running_games is None
    kept = await store.set_guild_settings(7, GuildSettings(game_place="channel"))
    assert await store.get_guild_settings(7) == kept
    capped = kept.model_copy(update={"max_running_games": 3})
    await store.set_guild_settings(7, capped)
    assert await store.get_guild_settings(7) == capped
    assert await store.get_guild_settings(8) == GuildSettings()  # each server its own
    assert await store.all_guild_settings() == {7: capped}
    with pytest.raises(ValidationError):
        GuildSettings(max_running_games=0)
    with pytest.raises(ValidationError):
        GuildSettings.model_validate({"game_place": "forum"})


async def test_copies_carry_notices_and_server_settings(
    tmp_path: Path, store_factory: StoreFactory
) -> None:
    async with store_factory() as store:
        await store.set_player_prefs(101, notices="both", heads_up=True)
        await store.set_guild_settings(7, GuildSettings(game_place="channel", max_running_games=2))
        async with SqliteGameStore(tmp_path / "copy.sqlite3", replayer=toy_game.replay) as dest:
            report = await copy_store(store, dest)
            assert report.ok and report.guilds_copied == 1, report.summary()
            assert await dest.all_player_prefs() == await store.all_player_prefs()
            assert await dest.all_guild_settings() == await store.all_guild_settings()
            # a second copy finds them equal: nothing to do, nothing refused
            again = await copy_store(store, dest, force=True)
            assert again.ok and again.guilds_copied == 0, again.summary()


async def test_a_destination_with_other_server_settings_is_not_overwritten(
    tmp_path: Path, store_factory: StoreFactory
) -> None:
    async with store_factory() as store:
        await store.set_guild_settings(7, GuildSettings(game_place="channel"))
        async with SqliteGameStore(tmp_path / "copy.sqlite3", replayer=toy_game.replay) as dest:
            await dest.set_guild_settings(7, GuildSettings(max_running_games=5))
            report = await copy_store(store, dest, force=True)
            assert not report.ok and any("server 7" in r for r in report.refused)
            assert (await dest.get_guild_settings(7)).max_running_games == 5


async def test_backups_carry_server_settings(
    tmp_path: Path, pg_url: str, pg_server: PgServer
) -> None:
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    async with store:
        await store.set_player_prefs(5, notices="none")
        await store.set_guild_settings(9, GuildSettings(max_running_games=4))
        await store.backup(tmp_path / "b.jsonl")
    back = BackupFile(tmp_path / "b.jsonl")
    assert back.guilds == {9: GuildSettings(max_running_games=4)}
    assert [p.notices for p in back.prefs] == ["none"]
    async with SqliteGameStore(tmp_path / "from-backup.sqlite3", replayer=toy_game.replay) as d:
        report = await copy_store(BackupSource(tmp_path / "b.jsonl"), d)
        assert report.ok and report.guilds_copied == 1, report.summary()
        assert await d.get_guild_settings(9) == GuildSettings(max_running_games=4)


async def test_upgrade_11_to_12_on_sqlite(db_path: Path) -> None:
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        await store.set_player_prefs(101, tz="Europe/Lisbon", language="pt-BR", manual_end=True)
    with sqlite3.connect(db_path) as raw:
        sqlite_back_to_11(raw)
        raw.execute("PRAGMA user_version = 11")
        raw.commit()
    raw.close()
    assert LATEST >= 12
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == 11
        assert await store.get_player_prefs(101) == PlayerPrefs(
            101, "Europe/Lisbon", None, None, "pt-BR", None, True, "ping", False
        )
        assert await store.all_guild_settings() == {}
        assert (await store.set_player_prefs(101, notices="dm")).notices == "dm"


async def test_upgrade_11_to_12_on_postgres(pg_url: str, pg_server: PgServer) -> None:
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    async with store:
        await store.set_player_prefs(101, tz="Europe/Lisbon", quiet=("23:00", "07:00"))
    conn = await asyncpg.connect(pg_url)
    try:
        await pg_back_to_11(conn)
        await conn.execute("UPDATE brazil_schema SET version = 11")
    finally:
        await conn.close()
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    async with store:
        assert store.migrated_from == 11
        prefs = await store.get_player_prefs(101)
        assert prefs == PlayerPrefs(101, "Europe/Lisbon", "23:00", "07:00", None, None, False)
        await store.set_guild_settings(3, GuildSettings(game_place="channel"))
        assert (await store.get_guild_settings(3)).game_place == "channel"
