"""The game per game record (schema 10), on both stores: ``"brazil"`` unless ``create_game``
names another game, returned by every read, never changed afterwards (lobbies included: the
started game keeps it; the databases refuse a change too), refused unless a game name;
carried by exports (an export from before the field is a Brazil game), dumps, copies and
backup files; the upgrade from schema 9 on SQLite and PostgreSQL (every stored game becomes
``"brazil"``, ``check`` passes). Storage never reads the state by its game: the toy game's
states are stored under any name."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

from storage import (
    DEFAULT_GAME,
    GameRecord,
    GameResult,
    GameStatus,
    GameStore,
    InvalidData,
    InvalidExport,
    PostgresGameStore,
    Seat,
    SqliteGameStore,
    cli,
    dump_export,
    is_game_name,
    load_export,
    open_store,
)
from storage.copy import BackupSource, copy_store
from storage.dump import BackupFile
from storage.jsonutil import state_hash
from storage.migrations import LATEST
from storage.pg_migrations import migrate as pg_migrate
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, SEATS, SETTINGS, StoreFactory, new_game, play, seats_of
from tests.storage.pg_server import PgServer
from tests.storage.test_migrations import build_old_database

TIGRIS = "tigris"
"""Another game's name: storage keeps it, whatever the state (here the toy game's)."""

TOY = "tests.storage.toy_game:replay"

BAD_NAMES = ["", "Tigris", "1830", "_brazil", "tigris-euphrates", "t&e", "brazil ", "brazil\n",
             "br azil", "tigris/../x", "é", "x" * 41, None, 7]  # fmt: skip


async def tigris_game(
    store: GameStore, channel_id: int = 1000, *, game: Any = TIGRIS
) -> GameRecord:
    """A running game recorded as ``game`` (the toy game's state: storage does not read it)."""
    return await store.create_game(
        channel_id,
        initial_state_json=toy_game.initial_state(),
        settings=SETTINGS,
        guild_id=77,
        seats=seats_of(SEATS),
        status=GameStatus.RUNNING,
        game=game,
    )


def test_game_names() -> None:
    assert DEFAULT_GAME == "brazil" and is_game_name(DEFAULT_GAME)
    for name in ("tigris", "brazil", "t2", "a", "tigris_euphrates", "x" * 40):
        assert is_game_name(name), name
    for bad in BAD_NAMES:
        assert not is_game_name(bad), bad


async def test_a_game_is_brazil_unless_named(store: GameStore) -> None:
    game = await new_game(store)
    assert game.game == "brazil"
    assert (await store.get_game(game.id)).game == "brazil"
    lobby = await store.create_game(1001, initial_state_json="{}", settings=SETTINGS)
    assert lobby.game == "brazil"
    assert [g.game for g in await store.list_games()] == ["brazil", "brazil"]


async def test_the_game_is_returned_by_every_read_and_write(store: GameStore) -> None:
    game = await tigris_game(store)
    assert game.game == TIGRIS
    brazil = await new_game(store, 1001)
    assert (await store.get_game(game.id)).game == TIGRIS
    active = await store.get_active_game(1000)
    assert active is not None and active.game == TIGRIS
    # every write returns the record with its game, and none changes it
    game = await play(store, game, [3, 1, 4, 1, 5])
    assert game.game == TIGRIS
    game = await store.undo(game.id, 4, by=0, expected_version=game.version)
    assert game.game == TIGRIS
    game = await store.rollback(game.id, 2, by=42, reason="misclick", expected_version=game.version)
    assert game.game == TIGRIS
    assert (await store.update_settings(game.id, language="hu", seed=3)).game == TIGRIS
    assert (await store.replace_seat(game.id, Seat.ai(2, "heuristic"))).game == TIGRIS
    assert json.loads(await store.state_at(game.id, 4)) == toy_game.state_after([3, 1, 4, 1])
    result = GameResult(scores={0: 5, 1: 3, 2: 1, 3: 0}, winners=frozenset({0}))
    finished = await store.finish_game(game.id, result)
    assert finished.game == TIGRIS and finished.status is GameStatus.FINISHED
    # listings: by channel, guild, player, status (the history of finished games)
    listings = [
        await store.list_games(),
        await store.list_games(channel_id=1000),
        await store.list_games(guild_id=77, statuses=[GameStatus.FINISHED]),
        await store.list_games(user_id=101, before_id=brazil.id),
    ]
    for listing in listings:
        assert {g.id: g.game for g in listing if g.id == game.id} == {game.id: TIGRIS}
    assert {g.id: g.game for g in await store.list_games()} == {
        game.id: TIGRIS,
        brazil.id: "brazil",
    }
    assert (await store.dump_game(game.id)).game.game == TIGRIS
    assert (await store.export_game(game.id)).game.game == TIGRIS
    assert (await store.get_game(brazil.id)).game == "brazil"  # the other game is untouched
    abandoned = await store.set_status(brazil.id, GameStatus.ABANDONED)
    assert abandoned.game == "brazil"


async def test_a_lobby_keeps_its_game_when_it_starts(store: GameStore) -> None:
    lobby = await store.create_game(
        1000, initial_state_json="{}", settings=SETTINGS, seats=[Seat.discord(0, 101)], game=TIGRIS
    )
    assert lobby.status is GameStatus.LOBBY and lobby.game == TIGRIS
    lobby = await store.assign_seat(lobby.id, Seat.discord(1, 102))
    assert lobby.game == TIGRIS
    assert (await store.set_colour(lobby.id, 1, "red")).game == TIGRIS
    assert (await store.remove_seat(lobby.id, 1)).game == TIGRIS
    started = await store.start_lobby(
        lobby.id,
        initial_state_json=toy_game.initial_state(),
        settings=SETTINGS,
        seats=seats_of(SEATS),
    )
    assert started.id == lobby.id and started.game == TIGRIS
    assert (await store.get_game(lobby.id)).game == TIGRIS
    # a lobby of the default game stays a Brazil game
    other = await store.create_game(1001, initial_state_json="{}", settings=SETTINGS)
    started = await store.start_lobby(
        other.id, initial_state_json=toy_game.initial_state(), settings=SETTINGS, seats=[]
    )
    assert started.game == "brazil"


@pytest.mark.parametrize("bad", BAD_NAMES)
async def test_a_bad_game_name_is_refused_and_nothing_written(store: GameStore, bad: Any) -> None:
    with pytest.raises(InvalidData, match="not a game name"):
        await tigris_game(store, game=bad)
    assert await store.list_games() == []
    assert await store.get_active_game(1000) is None


async def test_exports_carry_the_game(store: GameStore, store_factory: StoreFactory) -> None:
    game = await play(store, await tigris_game(store), [2, 7])
    text = dump_export(await store.export_game(game.id))
    raw = json.loads(text)
    assert raw["game"]["game"] == TIGRIS
    async with store_factory("other") as other:
        moved = await other.import_game(load_export(text), replayer=toy_game.replay)
        assert moved.game == TIGRIS and moved.state() == game.state()
        assert (await other.get_game(moved.id)).game == TIGRIS
        # an export written before the field is a Brazil: Imperial game
        del raw["game"]["game"]
        older = await other.import_game(load_export(json.dumps(raw)), channel_id=4242)
        assert older.game == "brazil"
        # a bad name in a file is refused as a malformed export
        raw["game"]["game"] = "../tigris"
        with pytest.raises(InvalidExport, match="malformed"):
            load_export(json.dumps(raw))
        brazil = await new_game(store, 1001)
        exported = json.loads(dump_export(await store.export_game(brazil.id)))
        assert exported["game"]["game"] == "brazil"  # the field is always written


async def test_dumps_and_copies_carry_the_game(
    tmp_path: Path, store: GameStore, store_factory: StoreFactory
) -> None:
    tigris = await play(store, await tigris_game(store), [1, 2])
    brazil = await play(store, await new_game(store, 1001), [3])
    dump = await store.dump_game(tigris.id)
    assert dump.game.game == TIGRIS
    async with store_factory("other") as other:
        await other.load_game(dump)
        assert (await other.get_game(tigris.id)).game == TIGRIS
        assert (await other.dump_game(tigris.id)).digest() == dump.digest()
    async with SqliteGameStore(tmp_path / "copy.sqlite3", replayer=toy_game.replay) as dest:
        report = await copy_store(store, dest)
        assert report.ok, report.summary()
        assert (await dest.get_game(tigris.id)).game == TIGRIS
        assert (await dest.get_game(brazil.id)).game == "brazil"


async def test_a_dump_from_before_the_field_is_a_brazil_game(
    tmp_path: Path, store: GameStore
) -> None:
    """A backup file written before schema 10 (its games have no ``game`` key) loads, and its
    games are Brazil games."""
    game = await play(store, await new_game(store), [5])
    line = json.loads((await store.dump_game(game.id)).model_dump_json())
    del line["game"]["game"]
    path = tmp_path / "old.backup.jsonl"
    header = {
        "format": "brazil-imperial-backup",
        "format_version": 1,
        "made_at": "2026-01-01T00:00:00Z",
        "schema_version": 9,
        "source": "x",
    }
    lines = [header, line, {"player_prefs": []}, {"end": 1}]
    path.write_text("".join(json.dumps(item) + "\n" for item in lines))
    old = BackupFile(path).dump_game(game.id)
    assert old.game.game == "brazil"
    async with SqliteGameStore(tmp_path / "new.sqlite3", replayer=toy_game.replay) as dest:
        report = await copy_store(BackupSource(path), dest)
        assert report.ok, report.summary()
        assert (await dest.get_game(game.id)).game == "brazil"


# ------------------------------------------------------------------ the databases' own rules


async def test_sqlite_refuses_changing_or_bad_games(sqlite_store: SqliteGameStore) -> None:
    game = await tigris_game(sqlite_store)
    path = sqlite_store.path
    with sqlite3.connect(path) as raw:
        with pytest.raises(sqlite3.IntegrityError, match="never changes"):
            raw.execute("UPDATE games SET game = 'brazil' WHERE id = ?", (game.id,))
        raw.execute("UPDATE games SET game = 'tigris' WHERE id = ?", (game.id,))  # same: fine
        for bad in ("Tigris", "", "1x", "a-b", "x" * 41, "brazil\n"):
            with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
                raw.execute(
                    "INSERT INTO games (channel_id, status, version, settings_json, created_at, "
                    "updated_at, game) VALUES (5, 'abandoned', 0, '{}', 'x', 'x', ?)",
                    (bad,),
                )
        raw.rollback()
    raw.close()
    assert (await sqlite_store.get_game(game.id)).game == TIGRIS


async def test_postgres_refuses_changing_or_bad_games(pg_url: str) -> None:
    async with PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    ) as store:
        game = await tigris_game(store)
        conn = await asyncpg.connect(pg_url)
        try:
            with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="never changes"):
                await conn.execute("UPDATE games SET game = 'brazil' WHERE id = $1", game.id)
            await conn.execute("UPDATE games SET game = 'tigris' WHERE id = $1", game.id)
            for bad in ("Tigris", "", "1x", "a-b", "x" * 41, "brazil\n"):
                with pytest.raises(asyncpg.CheckViolationError):
                    await conn.execute(
                        "INSERT INTO games (channel_id, status, version, settings_json, "
                        "created_at, updated_at, game) "
                        "VALUES (5, 'abandoned', 0, '{}', now(), now(), $1)",
                        bad,
                    )
            # `check` verifies the trigger is there and enabled
            assert await store.check_integrity() == []
            await conn.execute("ALTER TABLE games DISABLE TRIGGER games_game_fixed")
            problems = [str(p) for p in await store.check_integrity()]
            assert any("games_game_fixed" in p for p in problems), problems
            await conn.execute("ALTER TABLE games ENABLE TRIGGER games_game_fixed")
        finally:
            await conn.close()
        assert (await store.get_game(game.id)).game == TIGRIS


# ------------------------------------------------------------------------ the upgrade from 9


async def arun(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = await cli.amain(list(argv), out=out)
    return code, out.getvalue()


async def test_upgrade_9_to_10_on_sqlite(db_path: Path, tmp_path: Path) -> None:
    """A file at schema 9 made by the old migrations (a running and a finished game written
    the old way, plus a lobby) upgrades: every game is a Brazil game, ``check`` passes, and
    backup, export, import and copy carry the game."""
    assert LATEST >= 10
    await build_old_database(db_path, 9)
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        await db.execute(
            "INSERT INTO games (id, channel_id, status, version, settings_json, created_at, "
            "updated_at) SELECT 3, 502, 'lobby', 0, settings_json, created_at, updated_at "
            "FROM games WHERE id = 1"
        )
        await db.execute("INSERT INTO game_states VALUES (3, '{}')")
        await db.execute(
            "INSERT INTO actions (game_id, version, kind, events_json, snapshot_json, "
            "state_hash, created_at) VALUES (3, 0, 'created', '[]', '{}', ?, "
            "'2024-05-01T10:00:00.000000+00:00')",
            (state_hash({}),),
        )
        columns = [row[1] for row in await db.execute_fetchall("PRAGMA table_info(games)")]
        assert "game" not in columns
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == 9
        assert [(g.id, g.game) for g in await store.list_games()] == [
            (3, "brazil"),
            (2, "brazil"),
            (1, "brazil"),
        ]
        assert (await store.get_game(1)).game == "brazil"
        assert await store.check_integrity() == []
        # the lobby from before starts as the Brazil game it is
        started = await store.start_lobby(
            3, initial_state_json=toy_game.initial_state(), settings=SETTINGS, seats=[]
        )
        assert started.game == "brazil"
        tigris = await tigris_game(store, 503)
    code, out = await arun("--db", str(db_path), "check", "--replayer", TOY)
    assert code == 0, out
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert raw.execute("SELECT id, game FROM games ORDER BY id").fetchall() == [
            (1, "brazil"),
            (2, "brazil"),
            (3, "brazil"),
            (4, "tigris"),
        ]
    raw.close()
    # backup (an SQLite file), export and import (the command line) carry the game
    backup = tmp_path / "backup.sqlite3"
    code, out = await arun("--db", str(db_path), "backup", str(backup))
    assert code == 0, out
    async with open_store(str(backup), create=False) as copy:
        assert (await copy.get_game(tigris.id)).game == TIGRIS
    exported = tmp_path / "tigris.json"
    code, out = await arun("--db", str(db_path), "export", f"game:{tigris.id}", str(exported))
    assert code == 0, out
    assert json.loads(exported.read_text())["game"]["game"] == TIGRIS
    other = tmp_path / "other.sqlite3"
    code, out = await arun("--db", str(other), "import", str(exported), "--replayer", TOY)
    assert code == 0, out
    async with SqliteGameStore(other) as imported:
        assert [g.game for g in await imported.list_games()] == [TIGRIS]


async def test_upgrade_9_to_10_on_postgres(
    pg_url: str, pg_server: PgServer, tmp_path: Path
) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        await pg_migrate(conn, target=9)
        initial = toy_game.initial_state()
        after = toy_game.replay(initial, toy_game.action(4))
        for status in ("running", "finished"):
            await conn.execute(
                "INSERT INTO games (channel_id, guild_id, status, version, settings_json, "
                "created_at, updated_at) VALUES ($1, 20, $2, 1, $3, now(), now())",
                10 if status == "running" else 11,
                status,
                SETTINGS.model_dump_json(),
            )
        for game_id in (1, 2):
            await conn.execute("INSERT INTO game_states VALUES ($1, $2)", game_id, after)
            await conn.execute(
                "INSERT INTO seats (game_id, seat, kind, user_id) VALUES ($1, 0, 'discord', 7)",
                game_id,
            )
            await conn.execute(
                "INSERT INTO actions (game_id, version, kind, seat_no, action_json, events_json, "
                "snapshot_json, state_hash, created_at) VALUES "
                "($1, 0, 'created', NULL, NULL, '[]', $2, $3, now()), "
                "($1, 1, 'action', 0, $4, '[]', NULL, $5, now())",
                game_id,
                initial,
                state_hash(json.loads(initial)),
                toy_game.action(4),
                state_hash(json.loads(after)),
            )
    finally:
        await conn.close()
    async with PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    ) as store:
        assert store.migrated_from == 9
        assert [(g.id, g.game) for g in await store.list_games()] == [(2, "brazil"), (1, "brazil")]
        assert await store.check_integrity() == []
        game = await play(store, await store.get_game(1), [2])
        assert game.game == "brazil" and game.state() == toy_game.state_after([4, 2])
        tigris = await tigris_game(store, 12)
    assert pg_server.fetch(pg_url, "SELECT version FROM brazil_schema") == [(LATEST,)]
    assert pg_server.fetch(pg_url, "SELECT id, game FROM games ORDER BY id") == [
        (1, "brazil"),
        (2, "brazil"),
        (3, "tigris"),
    ]
    code, out = await arun("--db", pg_url, "check", "--replayer", TOY)
    assert code == 0, out
    # a backup file and a copy to SQLite carry the game
    backup = tmp_path / "pg.backup.jsonl"
    code, out = await arun("--db", pg_url, "backup", str(backup))
    assert code == 0, out
    assert BackupFile(backup).dump_game(tigris.id).game.game == TIGRIS
    restored = tmp_path / "restored.sqlite3"
    code, out = await arun("copy", str(backup), str(restored))
    assert code == 0, out
    async with open_store(str(restored), create=False) as copy:
        assert {g.id: g.game for g in await copy.list_games()} == {
            1: "brazil",
            2: "brazil",
            3: TIGRIS,
        }
