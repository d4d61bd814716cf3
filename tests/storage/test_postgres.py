"""PostgreSQL specifics (the backend-neutral behaviour is tested on both stores elsewhere):
the integrity triggers refuse any client's damaging SQL, the schema version lives in
``brazil_schema``, another application's database or a newer schema is refused untouched,
every older schema upgrades, first opens race safely, bad URLs are one clear error, and
``open_store`` picks the backend from the location."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import (
    BackendError,
    DatabaseMissing,
    GameResult,
    GameStatus,
    InvalidData,
    NotAGameDatabase,
    PostgresGameStore,
    SchemaTooNew,
    SqliteGameStore,
    open_store,
)
from storage.jsonutil import state_hash
from storage.location import parse_location
from storage.pg_migrations import LATEST, migrate
from storage.postgres import redact_url
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, new_game, play
from tests.storage.pg_server import PgServer, database_url


def pg_store(url: str, **options: Any) -> PostgresGameStore:
    return PostgresGameStore(
        url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2, **options
    )


async def raw(url: str) -> asyncpg.Connection:
    return await asyncpg.connect(url)


async def test_the_triggers_refuse_damage_from_any_client(pg_url: str) -> None:
    async with pg_store(pg_url) as store:
        game = await play(store, await new_game(store), [1, 2])
        lobby = await new_game(store, 2000, status=GameStatus.LOBBY)
        conn = await raw(pg_url)
        try:
            for statement in (
                "UPDATE actions SET action_json = '{}' WHERE version = 1",
                "DELETE FROM actions WHERE version = 2",
                "TRUNCATE actions CASCADE",
                "DELETE FROM games",
                "TRUNCATE games CASCADE",
                f"UPDATE games SET version = 0 WHERE id = {game.id}",
                "INSERT INTO actions (game_id, version, events_json, action_json, created_at)"
                f" VALUES ({game.id}, 7, '[]', '{{}}', now())",
                "INSERT INTO actions (game_id, version, kind, events_json, action_json, "
                f"created_at) VALUES ({game.id}, 3, 'undo', '[]', '{{}}', now())",
                # entry 0 of a game past its lobby
                f"UPDATE actions SET snapshot_json = '{{}}' WHERE game_id = {game.id} "
                "AND version = 0",
            ):
                with pytest.raises(asyncpg.IntegrityConstraintViolationError):
                    await conn.execute(statement)
            # a lobby's entry 0 may take its initial state (start_lobby), nothing else
            await conn.execute(
                f"UPDATE actions SET created_at = now() WHERE game_id = {lobby.id} AND version = 0"
            )
            await store.finish_game(game.id, GameResult(scores={0: 1}, winners=frozenset({0})))
            with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="cannot change"):
                await conn.execute(f"UPDATE games SET status = 'running' WHERE id = {game.id}")
        finally:
            await conn.close()
        assert await store.check_integrity() == []


async def test_check_reports_a_tampered_state_and_a_disabled_trigger(pg_url: str) -> None:
    async with pg_store(pg_url) as store:
        game = await play(store, await new_game(store), [1, 2, 3])
        conn = await raw(pg_url)
        try:
            state = toy_game.state_after([1, 2, 4])
            await conn.execute(
                "UPDATE game_states SET state_json = $1 WHERE game_id = $2",
                json.dumps(state),
                game.id,
            )
            await conn.execute("ALTER TABLE actions DISABLE TRIGGER actions_append_only_update")
        finally:
            await conn.close()
        problems = [str(problem) for problem in await store.check_integrity()]
        assert any("does not match the hash logged for version 3" in p for p in problems)
        assert any(
            "actions_append_only_update on actions is missing or disabled" in p for p in problems
        )
        assert not (await store.replay(game.id, toy_game.replay)).ok


async def test_the_schema_version_is_kept_in_a_table(pg_url: str, pg_server: PgServer) -> None:
    async with pg_store(pg_url) as store:
        assert store.migrated_from == 0
    assert pg_server.fetch(pg_url, "SELECT application, version FROM brazil_schema") == [
        ("brazil-imperial-bot", LATEST)
    ]
    async with pg_store(pg_url) as store:
        assert store.migrated_from == LATEST


async def test_another_applications_database_is_refused_untouched(
    pg_url: str, pg_server: PgServer
) -> None:
    pg_server.execute(pg_url, "CREATE TABLE customers (id int PRIMARY KEY, name text)")
    with pytest.raises(NotAGameDatabase, match=r"another application \(customers\)"):
        async with pg_store(pg_url):
            pass
    tables = pg_server.fetch(
        pg_url, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    )
    assert tables == [("customers",)]
    # a table named like ours, but not ours
    other = pg_server.create_database()
    try:
        pg_server.execute(
            other,
            "CREATE TABLE brazil_schema (application text, version int); "
            "INSERT INTO brazil_schema VALUES ('coffee-shop', 3)",
        )
        with pytest.raises(NotAGameDatabase, match="coffee-shop"):
            async with pg_store(other):
                pass
    finally:
        pg_server.drop_database(other)


async def test_a_newer_schema_is_refused_untouched(pg_url: str, pg_server: PgServer) -> None:
    async with pg_store(pg_url) as store:
        await new_game(store)
    pg_server.execute(pg_url, f"UPDATE brazil_schema SET version = {LATEST + 1}")
    with pytest.raises(SchemaTooNew, match=f"schema version {LATEST + 1}") as caught:
        async with pg_store(pg_url):
            pass
    assert "Nothing was changed" in str(caught.value)
    assert pg_server.fetch(pg_url, "SELECT version FROM brazil_schema") == [(LATEST + 1,)]


async def test_missing_schema_database_or_server(pg_url: str) -> None:
    with pytest.raises(DatabaseMissing, match="no game schema yet"):
        async with pg_store(pg_url, create=False):
            pass
    async with pg_store(pg_url):  # nothing was written: it is still a new database
        pass
    gone = database_url(pg_url, "brazil_no_such_database")
    with pytest.raises(DatabaseMissing, match="does not exist"):
        async with pg_store(gone):
            pass
    with pytest.raises(BackendError, match=r"cannot connect to postgresql://bot:\*\*\*@127") as e:
        async with pg_store("postgresql://bot:hunter2@127.0.0.1:1/brazil", connect_timeout=5):
            pass
    assert "hunter2" not in str(e.value)


@pytest.mark.parametrize("old_version", range(1, LATEST))
async def test_upgrade_from_every_older_version(
    pg_url: str, pg_server: PgServer, old_version: int
) -> None:
    """A database left at an older schema (with a game written the way that version did, for
    schema 1) upgrades to the latest on open, and its games are whole."""
    conn = await raw(pg_url)
    try:
        await migrate(conn, target=old_version)
        if old_version == 1:
            initial = toy_game.initial_state()
            after = toy_game.replay(initial, toy_game.action(4))
            await conn.execute(
                "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at) VALUES (10, 20, 'running', 1, $1, now(), now())",
                json.dumps({"scenario": "standard", "player_count": 2, "extra": {"seed": 5}}),
            )
            await conn.execute("INSERT INTO game_states VALUES (1, $1)", after)
            await conn.execute(
                "INSERT INTO seats (game_id, colour, user_id) VALUES (1, 'red', 7), (1, 'blue', 8)"
            )
            await conn.execute(
                "INSERT INTO actions (game_id, version, seat, action_json, events_json, "
                "snapshot_json, created_at) VALUES (1, 0, NULL, NULL, '[]', $1, now()), "
                "(1, 1, 'red', $2, '[]', NULL, now())",
                initial,
                toy_game.action(4),
            )
    finally:
        await conn.close()
    async with pg_store(pg_url) as store:
        assert store.migrated_from == old_version
        assert await store.check_integrity() == []
        if old_version == 1:
            game = await store.get_game(1)
            assert [(s.seat, s.colour, s.user_id) for s in game.seats] == [
                (0, "blue", 8),
                (1, "red", 7),
            ]
            assert game.settings.seed == 5
            log = await store.get_log(1)
            assert [e.seat for e in log] == [None, 1]
            assert log[0].state_hash == state_hash(json.loads(toy_game.initial_state()))
            assert (await store.replay(1, toy_game.replay)).ok
            game = await play(store, game, [2])
            assert game.state() == toy_game.state_after([4, 2])
        await new_game(store, 3000)
    assert pg_server.fetch(pg_url, "SELECT version FROM brazil_schema") == [(LATEST,)]


async def test_concurrent_first_opens(pg_url: str) -> None:
    stores = [pg_store(pg_url) for _ in range(4)]
    await asyncio.gather(*(store.open() for store in stores))
    try:
        assert sorted(store.migrated_from or 0 for store in stores)[-1] in (0, LATEST)
        game = await new_game(stores[0])
        assert (await stores[3].get_game(game.id)).id == game.id
    finally:
        for store in stores:
            await store.close()


def test_open_store_picks_the_backend(tmp_path: Path) -> None:
    assert isinstance(open_store(tmp_path / "a.sqlite3"), SqliteGameStore)
    assert isinstance(open_store(str(tmp_path / "a.sqlite3")), SqliteGameStore)
    sqlite = open_store(f"sqlite:///{tmp_path}/b.sqlite3", synchronous="FULL", pool_size=3)
    assert isinstance(sqlite, SqliteGameStore) and sqlite.path == tmp_path / "b.sqlite3"
    assert parse_location("sqlite:///games.db").target == "games.db"
    assert parse_location("sqlite:////var/lib/games.db").target == "/var/lib/games.db"
    pg = open_store("postgresql://bot:pw@db.example/brazil", synchronous="FULL", pool_size=3)
    assert (
        isinstance(pg, PostgresGameStore) and pg.where == "postgresql://bot:***@db.example/brazil"
    )
    assert isinstance(open_store("postgres://h/db"), PostgresGameStore)
    for bad in ("mysql://h/db", "sqlite://", "sqlite:///", "postgresq://h/db", "", "  "):
        with pytest.raises(InvalidData):
            open_store(bad)


def test_redact_url() -> None:
    assert redact_url("postgresql://bot:s3cr@t@h:5432/db") == "postgresql://bot:***@h:5432/db"
    assert redact_url("postgresql:///db?host=/run/pg&password=x") == (
        "postgresql:///db?host=/run/pg&password=***"
    )
    assert redact_url("postgresql://bot@h/db") == "postgresql://bot@h/db"
