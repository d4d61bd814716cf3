"""Schema versions: creation from scratch, upgrade from every older version, refusals."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from storage import (
    GameResult,
    NotAGameDatabase,
    PendingRequest,
    PrivatePlace,
    SchemaTooNew,
    Seat,
    SqliteGameStore,
    StorageError,
)
from storage.jsonutil import state_hash
from storage.migrations import APPLICATION_ID, LATEST, MIGRATIONS, Migration, migrate, split_sql
from tests.storage import toy_game
from tests.storage.conftest import SETTINGS, play

OLD_VERSIONS = list(range(1, LATEST))

LEGACY_SETTINGS_JSON = json.dumps(
    {
        "scenario": SETTINGS.scenario,
        "player_count": SETTINGS.player_count,
        "turn_timer_seconds": SETTINGS.turn_timer_seconds,
        "data_pack": SETTINGS.data_pack,
        "extra": {},
    }
)
"""``SETTINGS`` as code before schema 5 wrote it (with its free ``extra`` object)."""


def test_migrations_are_numbered_in_order() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert LATEST >= 2


async def test_new_database_gets_latest_schema(db_path: Path) -> None:
    async with SqliteGameStore(db_path) as store:
        assert store.migrated_from == 0
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    raw.close()
    assert {"games", "game_states", "seats", "actions"} <= tables
    async with SqliteGameStore(db_path) as store:
        assert store.migrated_from == LATEST  # nothing to do the second time


async def build_old_database(path: Path, version: int) -> None:
    """A database at schema ``version`` made by the old migrations only, with data written the
    way the old code did (raw SQL against the v1 tables, which every later version keeps)."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await db.execute("PRAGMA journal_mode = WAL")
        first = min(version, 2)  # the v1 tables are written as v1/v2 code did, then migrated
        assert await migrate(db, target=first) == (0, first)
        adds = [3, 1, 4]
        states = [toy_game.initial_state()]
        for add in adds:
            states.append(toy_game.replay(states[-1], toy_game.action(add)))
        stamp = "2024-05-01T10:00:00.000000+00:00"
        await db.execute("BEGIN")
        for game_id, channel, status, guild in (
            (1, 500, "running", 9),
            (2, 501, "finished", 9),
        ):
            await db.execute(
                "INSERT INTO games (id, channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, 3, ?, ?, ?, ?)",
                (
                    game_id,
                    channel,
                    guild,
                    status,
                    LEGACY_SETTINGS_JSON,
                    stamp,
                    stamp,
                    stamp if status == "finished" else None,
                ),
            )
            await db.execute("INSERT INTO game_states VALUES (?, ?)", (game_id, states[-1]))
            await db.execute(
                "INSERT INTO actions (game_id, version, seat, action_json, events_json, "
                "snapshot_json, created_at) VALUES (?, 0, NULL, NULL, '[]', ?, ?)",
                (game_id, states[0], stamp),
            )
            for version_no, add in enumerate(adds, start=1):
                await db.execute(
                    "INSERT INTO actions (game_id, version, seat, action_json, events_json, "
                    "snapshot_json, created_at) VALUES (?, ?, 'red', ?, '[]', NULL, ?)",
                    (game_id, version_no, toy_game.action(add), stamp),
                )
            if version >= 2:  # version 2 code hashed every state it wrote
                await db.execute("DROP TRIGGER actions_append_only_update")
                for version_no, text in enumerate(states):
                    await db.execute(
                        "UPDATE actions SET state_hash = ? WHERE game_id = ? AND version = ?",
                        (state_hash(json.loads(text)), game_id, version_no),
                    )
                await db.execute(
                    "CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions "
                    "BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END"
                )
            await db.execute(
                "INSERT INTO seats (game_id, colour, user_id, score, winner) VALUES "
                "(?, 'red', 71, ?, ?), (?, 'blue', 72, ?, 0)",
                (
                    game_id,
                    30 if status == "finished" else None,
                    int(status == "finished"),
                    game_id,
                    20 if status == "finished" else None,
                ),
            )
        await db.execute("COMMIT")
        if version > first:
            assert await migrate(db, target=version) == (first, version)


@pytest.mark.parametrize("old_version", OLD_VERSIONS)
async def test_upgrade_from_every_older_version(db_path: Path, old_version: int) -> None:
    await build_old_database(db_path, old_version)
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == old_version
        running = await store.get_game(1)
        assert running.version == 3
        assert running.state() == toy_game.state_after([3, 1, 4])
        assert running.settings == SETTINGS
        assert running.user_of(1) == 71  # seats numbered in colour order: blue 0, red 1
        assert running.seat(1).colour == "red"  # type: ignore[union-attr]
        # the data survived and the check passes
        assert await store.check_integrity() == []
        log = await store.get_log(1)
        assert [entry.version for entry in log] == [0, 1, 2, 3]
        # v2: hashes back-filled where the state was known (initial and current)...
        assert log[0].state_hash and log[3].state_hash
        report = await store.replay(1, toy_game.replay)
        if old_version == 1:
            assert log[1].state_hash is None and log[2].state_hash is None
            assert report.ok and report.steps == 3 and report.verified_steps == 1
            assert "2 without a recorded hash" in report.describe()
        else:
            assert report.ok and report.verified_steps == 3
        # v3: kinds, seat numbers (from the old colours), no engine version recorded
        assert [entry.kind for entry in log] == ["created", "action", "action", "action"]
        assert [entry.seat for entry in log] == [None, 1, 1, 1]  # 'red' was seat 1
        assert running.engine_version is None and log[1].engine_version is None
        assert [item.undone for item in await store.history(1)] == [False] * 4
        # ...and new saves record one, so replays verify every new step
        running = await play(store, running, [2, 2])
        log = await store.get_log(1, from_version=4)
        assert all(entry.state_hash for entry in log)
        report = await store.replay(1, toy_game.replay)
        assert report.ok and report.verified_steps == (3 if old_version == 1 else 5)
        # an old game can be undone to a version written before the upgrade
        running = await store.undo(1, 2, by=1, expected_version=running.version)
        assert running.state() == toy_game.state_after([3, 1])
        assert [item.undone for item in await store.history(1)] == [False] * 3 + [True] * 3 + [
            False
        ]
        assert (await store.replay(1, toy_game.replay)).ok
        assert await store.check_integrity() == []
        # statistics over pre-existing finished games
        stats = await store.player_stats(71)
        assert (stats.games, stats.wins, stats.average_score) == (1, 1, 30.0)
        finished = await store.finish_game(
            1, GameResult(scores={1: 10, 0: 40}, winners=frozenset({0}))
        )
        assert finished.winners == [0]
        assert (await store.player_stats(72)).wins == 1
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == LATEST
    raw.close()


async def test_upgrade_4_to_5_types_settings_and_names_seats(db_path: Path) -> None:
    """Schema 5 rewrites every game's ``extra`` bag into the typed settings (finished games
    too), copies the names of the bot's legacy seat list into the seats table, and adds the
    news inbox."""
    await build_old_database(db_path, 4)
    legacy = {
        **json.loads(LEGACY_SETTINGS_JSON),
        "extra": {
            "seed": 4242,
            "host": 71,
            "ai_level": "heuristic",
            "lobby": True,
            "colour_wishes": {"1": "red"},
            "status_message": "900000000000000001",
            "posted_version": 3,
            "hand:71": {"where": "dm", "channel": "800"},
            "mod_confirm": {"token": "t1", "op": "rollback", "by": 5, "version": 3, "to": 1},
            "abandon_votes": [72],
            "seats": [
                {"name": "Bea", "ai": None, "user_id": 72},
                {"name": "Ana", "ai": None, "user_id": 71},
                {"name": "Robô", "ai": "random", "user_id": None},
                {"name": "Named", "ai": "random", "user_id": None},
            ],
        },
    }
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        await db.execute(
            "UPDATE games SET settings_json = ? WHERE id IN (1, 2)", (json.dumps(legacy),)
        )
        await db.execute(
            "INSERT INTO seats (game_id, seat, kind, ai_level, name) VALUES "
            "(1, 2, 'ai', 'random', NULL), (1, 3, 'ai', 'random', 'Kept')"
        )
        await db.execute("INSERT INTO games (id, channel_id, status, version, settings_json, "
                         "created_at, updated_at) SELECT 3, 502, 'abandoned', 0, '{not json', "
                         "created_at, updated_at FROM games WHERE id = 1")  # fmt: skip
        await db.execute(
            "INSERT INTO game_states SELECT 3, state_json FROM game_states WHERE game_id = 1"
        )
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == 4
        for game_id in (1, 2):
            game = await store.get_game(game_id)
            settings = game.settings
            assert (settings.scenario, settings.player_count) == ("standard", 4)
            assert (settings.seed, settings.host_user_id, settings.ai_level) == (
                4242,
                71,
                "heuristic",
            )
            assert settings.colour_wishes == {1: "red"}
            assert settings.status_message_id == 900000000000000001
            assert settings.posted_version == 3
            assert settings.private_places == {71: PrivatePlace(where="dm", channel_id=800)}
            assert settings.pending_request == PendingRequest(
                token="t1", op="rollback", by=5, version=3, data={"to": 1}
            )
            assert settings.abandon_votes == (72,)
            assert [(s.seat, s.name) for s in game.seats][:2] == [(0, "Bea"), (1, "Ana")]
        running = await store.get_game(1)
        assert running.seat(2) == Seat.ai(2, "random", name="Robô")
        assert running.seat(3) == Seat.ai(3, "random", name="Kept")  # a name is never replaced
        assert running.user_of(1) == 71 and running.seat(1).colour == "red"  # type: ignore[union-attr]
        # the game with unreadable settings is left as it was, for `check` to report
        problems = await store.check_integrity()
        assert problems and {p.game_id for p in problems} == {3}  # (it has no log either)
        assert "invalid settings" in problems[0].message
        await store.add_news(1, 0, ["hello"])
        assert [item.text for item in await store.unread_news(1, 0)] == ["hello"]
    with sqlite3.connect(db_path) as raw:
        stored = json.loads(
            raw.execute("SELECT settings_json FROM games WHERE id = 1").fetchone()[0]
        )
    raw.close()
    assert "extra" not in stored and stored["private_places"] == {
        "71": {"where": "dm", "channel_id": 800}
    }


async def test_newer_database_is_refused_untouched(db_path: Path) -> None:
    async with SqliteGameStore(db_path):
        pass
    with sqlite3.connect(db_path) as raw:
        raw.execute(f"PRAGMA user_version = {LATEST + 1}")
        raw.execute("PRAGMA journal_mode = DELETE")
    raw.close()
    before = db_path.read_bytes()
    with pytest.raises(SchemaTooNew) as caught:
        async with SqliteGameStore(db_path):
            pass
    assert caught.value.found == LATEST + 1 and caught.value.supported == LATEST
    message = str(caught.value)
    assert f"schema version {LATEST + 1}" in message and "newer release" in message
    assert db_path.read_bytes() == before


async def test_foreign_files_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as raw:
        raw.execute("CREATE TABLE notes (text TEXT)")
    raw.close()
    with pytest.raises(NotAGameDatabase):
        await SqliteGameStore(other).open()
    foreign_app = tmp_path / "app.sqlite3"
    with sqlite3.connect(foreign_app) as raw:
        raw.execute("PRAGMA application_id = 1234")
    raw.close()
    with pytest.raises(NotAGameDatabase):
        await SqliteGameStore(foreign_app).open()
    versioned = tmp_path / "versioned.sqlite3"
    with sqlite3.connect(versioned) as raw:
        raw.execute("PRAGMA user_version = 99")  # not SchemaTooNew: it is not ours at all
    raw.close()
    with pytest.raises(NotAGameDatabase):
        await SqliteGameStore(versioned).open()
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(NotAGameDatabase):
        await SqliteGameStore(garbage).open()


async def test_failed_migration_rolls_back(db_path: Path) -> None:
    async def broken(db: aiosqlite.Connection) -> None:
        await db.execute("CREATE TABLE half_done (x INTEGER)")
        raise RuntimeError("migration bug")

    steps = (*MIGRATIONS[:1], Migration(2, "broken", broken))
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        with pytest.raises(RuntimeError):
            await migrate(db, migrations=steps)
        rows = list(await db.execute_fetchall("PRAGMA user_version"))
        assert rows[0][0] == 1  # migration 1 committed, the broken one left no trace
        tables = {row[0] for row in await db.execute_fetchall("SELECT name FROM sqlite_master")}
        assert "half_done" not in tables and "games" in tables
        assert not db.in_transaction


@pytest.mark.parametrize("attempt", range(5))
async def test_concurrent_first_opens(tmp_path: Path, attempt: int) -> None:
    """Several connections creating the same new file at once: exactly one creates the
    schema, none fails (switching to WAL and migrating both wait for each other)."""
    path = tmp_path / f"race{attempt}.sqlite3"
    stores = [SqliteGameStore(path) for _ in range(3)]
    await asyncio.gather(*(store.open() for store in stores))
    try:
        game = await stores[0].create_game(1, initial_state_json="{}", settings=SETTINGS)
        assert (await stores[2].get_game(game.id)).id == game.id
        assert await stores[1].check_integrity() == []
    finally:
        for store in stores:
            await store.close()


async def test_migrate_refuses_gaps(db_path: Path) -> None:
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        await db.execute("PRAGMA user_version = 1")
        with pytest.raises(StorageError):
            await migrate(
                db, migrations=(Migration(3, "gap", "SELECT 1;"), Migration(4, "x", "SELECT 1;"))
            )


def test_split_sql() -> None:
    script = """
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER t_guard BEFORE DELETE ON t
    BEGIN
        SELECT RAISE(ABORT, 'no; really');
    END;
    -- a comment
    INSERT INTO t VALUES ('1;2');
    """
    statements = split_sql(script)
    assert len(statements) == 3
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with sqlite3.connect(":memory:") as raw:
        for statement in statements:
            raw.execute(statement)
        assert json.dumps(raw.execute("SELECT x FROM t").fetchall()) == '[["1;2"]]'
    raw.close()
    with pytest.raises(ValueError):
        split_sql("CREATE TABLE x (a")
