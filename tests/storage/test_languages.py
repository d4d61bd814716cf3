"""Languages in storage (schema 9), on both stores: a player's chosen language and last seen
Discord locale (written only when it changes), a game's language (``"en"`` by default and for
games from before), carried by exports, backups and copies; older exports and backup files
still load; the upgrade from schema 8 on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage import (
    GameStatus,
    GameStore,
    InvalidData,
    PlayerPrefs,
    PostgresGameStore,
    SqliteGameStore,
    dump_export,
    load_export,
)
from storage.copy import BackupSource, copy_store
from storage.dump import BackupFile
from storage.migrations import LATEST
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, StoreFactory, new_game, play
from tests.storage.old_schema import pg_back_to_9, sqlite_back_to_9
from tests.storage.pg_server import PgServer


async def test_a_players_language_and_discord_locale(store: GameStore) -> None:
    assert await store.get_player_prefs(5) == PlayerPrefs(5, None, None, None, None, None)
    p = await store.set_player_prefs(5, tz="Europe/Budapest", quiet=("22:00", "08:00"))
    assert (p.language, p.discord_locale) == (None, None)
    p = await store.set_player_prefs(5, language="hu")
    assert p == PlayerPrefs(5, "Europe/Budapest", "22:00", "08:00", "hu", None)
    # the locale: written when it changes, and only then
    assert await store.remember_locale(5, "pl") is True
    assert await store.remember_locale(5, "pl") is False
    assert await store.remember_locale(5, "pt-BR") is True
    assert await store.get_player_prefs(5) == PlayerPrefs(
        5, "Europe/Budapest", "22:00", "08:00", "hu", "pt-BR"
    )
    # a player seen before any preference: a row of their own
    assert await store.remember_locale(6, "fr") is True
    assert await store.get_player_prefs(6) == PlayerPrefs(6, None, None, None, None, "fr")
    # what is not named is kept; the language cleared (follow Discord again)
    p = await store.set_player_prefs(5, tz="Europe/Warsaw")
    assert (p.tz, p.language, p.discord_locale) == ("Europe/Warsaw", "hu", "pt-BR")
    p = await store.set_player_prefs(5, clear_language=True)
    assert (p.language, p.discord_locale, p.quiet_start) == (None, "pt-BR", "22:00")
    assert await store.get_player_prefs(5) == p
    assert await store.all_player_prefs() == [p, PlayerPrefs(6, None, None, None, None, "fr")]
    with pytest.raises(InvalidData):
        await store.remember_locale(5, "")


async def test_a_games_language(store: GameStore, store_factory: StoreFactory) -> None:
    game = await new_game(store)
    assert game.settings.language == "en"
    changed = await store.update_settings(game.id, language="hu")
    assert changed.settings.language == "hu"
    assert (await store.get_game(game.id)).settings.language == "hu"
    with pytest.raises(InvalidData):
        await store.update_settings(game.id, language="")
    game = await play(store, changed, [1, 2])
    # an export carries it...
    text = dump_export(await store.export_game(game.id))
    async with store_factory("other") as other:
        moved = await other.import_game(load_export(text))
        assert moved.settings.language == "hu"
        # ...and an export from before the languages is an English game
        old = json.loads(text)
        del old["game"]["settings"]["language"]
        older = await other.import_game(load_export(json.dumps(old)), channel_id=4242)
        assert older.settings.language == "en"


async def test_copies_and_backup_files_carry_the_languages(
    tmp_path: Path, store_factory: StoreFactory
) -> None:
    async with store_factory() as store:
        game = await new_game(store)
        await store.update_settings(game.id, language="pl")
        await store.set_player_prefs(101, language="de", tz="Europe/Berlin")
        await store.remember_locale(101, "de")
        await store.remember_locale(102, "pt-BR")
        async with SqliteGameStore(tmp_path / "copy.sqlite3", replayer=toy_game.replay) as dest:
            report = await copy_store(store, dest)
            assert report.ok and report.prefs_copied == 2, report.summary()
            assert await dest.all_player_prefs() == await store.all_player_prefs()
            assert (await dest.get_game(game.id)).settings.language == "pl"


def test_a_backup_file_from_before_the_languages_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "old.backup.jsonl"
    lines = [
        {
            "format": "brazil-imperial-backup",
            "format_version": 1,
            "made_at": "2026-01-01T00:00:00Z",
            "schema_version": 8,
            "source": "postgresql://x",
        },
        {
            "player_prefs": [
                {"user_id": 5, "tz": "Europe/Lisbon", "quiet_start": None, "quiet_end": None}
            ]
        },
        {"end": 0},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert BackupFile(path).prefs == (PlayerPrefs(5, "Europe/Lisbon", None, None, None, None),)


async def test_an_old_backup_file_copies_into_a_store(tmp_path: Path) -> None:
    path = tmp_path / "old.backup.jsonl"
    prefs = {"user_id": 7, "tz": None, "quiet_start": "22:00", "quiet_end": "07:00"}
    path.write_text(
        json.dumps(
            {
                "format": "brazil-imperial-backup",
                "format_version": 1,
                "made_at": "2026-01-01T00:00:00Z",
                "schema_version": 8,
                "source": "x",
            }
        )
        + "\n"
        + json.dumps({"player_prefs": [prefs]})
        + "\n"
        + json.dumps({"end": 0})
        + "\n"
    )
    async with SqliteGameStore(tmp_path / "new.sqlite3", replayer=toy_game.replay) as dest:
        report = await copy_store(BackupSource(path), dest)
        assert report.ok and report.prefs_copied == 1
        assert await dest.get_player_prefs(7) == PlayerPrefs(7, None, "22:00", "07:00")


# ---------------------------------------------------------------------- the upgrade from 8


def without_language(text: str) -> str:
    raw = json.loads(text)
    raw.pop("language")
    return json.dumps(raw)


async def test_upgrade_8_to_9_on_sqlite(db_path: Path) -> None:
    """A file at schema 8 (no language anywhere) upgrades: its games are English, its
    players keep their time zones and have no language yet; unreadable settings are left."""
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        rec = await play(store, await new_game(store), [3, 1])
        done = await new_game(store, 1001)
        await store.set_status(done.id, GameStatus.ABANDONED)
        await store.set_player_prefs(101, tz="Europe/Lisbon")
    with sqlite3.connect(db_path) as raw:
        for game_id, text in raw.execute("SELECT id, settings_json FROM games").fetchall():
            raw.execute(
                "UPDATE games SET settings_json = ? WHERE id = ?",
                (without_language(text), game_id),
            )
        raw.execute(
            "INSERT INTO games (channel_id, status, version, settings_json, created_at, "
            "updated_at) VALUES (1002, 'abandoned', 0, '{not json', 'x', 'x')"
        )
        raw.execute("ALTER TABLE pacing_players DROP COLUMN language")
        raw.execute("ALTER TABLE pacing_players DROP COLUMN discord_locale")
        sqlite_back_to_9(raw)
        raw.execute("PRAGMA user_version = 8")
        raw.commit()
        assert "language" not in raw.execute("SELECT settings_json FROM games").fetchone()[0]
    raw.close()
    assert LATEST >= 9
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == 8
        for game_id in (rec.id, done.id):
            assert (await store.get_game(game_id)).settings.language == "en"
        assert await store.get_player_prefs(101) == PlayerPrefs(
            101, "Europe/Lisbon", None, None, None, None
        )
        assert await store.remember_locale(101, "hu")
    with sqlite3.connect(db_path) as raw:
        texts = [t for (t,) in raw.execute("SELECT settings_json FROM games ORDER BY id")]
    raw.close()
    assert [json.loads(t)["language"] for t in texts[:2]] == ["en", "en"]
    assert texts[2] == "{not json"  # for `check` to report, as before


async def test_upgrade_8_to_9_on_postgres(pg_url: str, pg_server: PgServer) -> None:
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    async with store:
        rec = await play(store, await new_game(store), [3, 1])
        await store.set_player_prefs(101, tz="Europe/Lisbon", quiet=("23:00", "07:00"))
    conn = await asyncpg.connect(pg_url)
    try:
        for game_id, text in await conn.fetch("SELECT id, settings_json FROM games"):
            await conn.execute(
                "UPDATE games SET settings_json = $1 WHERE id = $2", without_language(text), game_id
            )
        await conn.execute(
            "ALTER TABLE pacing_players DROP COLUMN language, DROP COLUMN discord_locale"
        )
        await pg_back_to_9(conn)
        await conn.execute("UPDATE brazil_schema SET version = 8")
    finally:
        await conn.close()
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    async with store:
        assert store.migrated_from == 8
        game = await store.get_game(rec.id)
        assert game.settings.language == "en" and game.state() == rec.state()
        assert await store.get_player_prefs(101) == PlayerPrefs(
            101, "Europe/Lisbon", "23:00", "07:00", None, None
        )
        assert await store.remember_locale(101, "pl")
        assert await store.check_integrity() == []
    (text,) = pg_server.fetch(pg_url, "SELECT settings_json FROM games")[0]
    assert json.loads(text)["language"] == "en"
