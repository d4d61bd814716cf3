"""Moving whole games between stores: ``dump_game`` / ``load_game`` on every backend, and
``python -m storage copy`` SQLite -> PostgreSQL -> SQLite (verified, resumable, refusing a
non-empty destination), the PostgreSQL backup file, and one-line errors for bad input."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import (
    BackendError,
    GameDump,
    GameExists,
    GameResult,
    GameStatus,
    GameStore,
    PostgresGameStore,
    SqliteGameStore,
    cli,
    open_store,
)
from storage.dump import BackupFile
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, StoreFactory, new_game, pg_database, play
from tests.storage.pg_server import PgServer

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def populate(store: GameStore) -> list[int]:
    """Games of every kind with every kind of row: a long game with snapshots, an undo and a
    rollback, news read and unread, every pacing row, a web token; a finished, an abandoned
    and a lobby game; two players' preferences."""
    long = await play(store, await new_game(store, 5001), list(range(1, 21)))
    long = await store.undo(long.id, 18, by=1, expected_version=long.version)
    long = await store.rollback(
        long.id, 5, by=900, reason="misclick", expected_version=long.version
    )
    long = await play(store, long, [7, 7])
    await store.add_news(long.id, 0, ["you drew a card", "é ü 漢字"])
    await store.add_news(long.id, 2, ["a secret"])
    first = (await store.unread_news(long.id, 0))[0]
    await store.mark_news_read(long.id, 0, first.id)
    await store.set_pacing_settings(long.id, '{"policy": "ai", "hours": 24}')
    await store.set_pause_votes(long.id, [103, 101])
    away = await store.add_break(long.id, 1, T0, T0 + timedelta(days=2), by_user=102, reason="trip")
    await store.end_break(away.id, T0 + timedelta(days=1))
    await store.add_break(long.id, None, T0 + timedelta(hours=3), None, reason="vote")
    await store.sync_decisions(long.id, 3, [0, 2], T0)
    await store.sync_decisions(long.id, 4, [2], T0 + timedelta(hours=1))
    await store.mute_decision(long.id, 2, 3)
    assert await store.claim_timer(long.id, 3, 0, "remind1", T0)
    assert await store.claim_timer(long.id, 3, 0, "Remind2", T0)
    await store.finish_timer(long.id, 3, 0, "remind1", T0 + timedelta(minutes=1), "sent")
    assert await store.start_stand_in(long.id, 3, 104, "heuristic", T0)
    await store.end_stand_in(long.id, 3, T0 + timedelta(hours=5))
    assert await store.start_stand_in(long.id, 3, 104, "greedy", T0 + timedelta(hours=6))
    await store.set_web_token(long.id, "W" * 24)

    done = await play(store, await new_game(store, 5002), [4, 5])
    await store.finish_game(done.id, GameResult(scores={0: 9, 1: 3}, winners=frozenset({0})))
    quit_ = await new_game(store, 5003)
    await store.set_status(quit_.id, GameStatus.ABANDONED)
    lobby = await new_game(store, 5004, status=GameStatus.LOBBY)
    await store.update_settings(lobby.id, host_user_id=101, colour_wishes={0: "blue"})

    await store.set_player_prefs(101, tz="America/Sao_Paulo", quiet=("22:00", "08:00"))
    await store.set_player_prefs(102, tz="Europe/Lisbon")
    return [long.id, done.id, quit_.id, lobby.id]


async def dumps(store: GameStore) -> list[GameDump]:
    return [await store.dump_game(game_id) for game_id in await store.game_ids()]


async def test_a_dump_loads_into_another_database_as_it_was(
    store: GameStore, store_factory: StoreFactory
) -> None:
    ids = await populate(store)
    originals = await dumps(store)
    async with store_factory("other") as other:
        for dump in originals:
            await other.load_game(dump)
        assert [d.digest() for d in await dumps(other)] == [d.digest() for d in originals]
        assert await other.all_player_prefs() == []  # preferences are not a game's
        assert await other.check_integrity() == []
        with pytest.raises(GameExists):
            await other.load_game(originals[0])
        # new rows get new ids, past the loaded ones
        fresh = await new_game(other, 6000)
        assert fresh.id > max(ids)
        await other.add_news(fresh.id, 0, ["new"])
        assert (await other.unread_news(fresh.id, 0))[0].id > max(
            n.id for d in originals for n in d.news
        )
        pause = await other.add_break(fresh.id, None, T0, None)
        assert pause.id > max(b.id for d in originals for b in d.breaks)
        # the copies behave like the originals
        long = await other.get_game(ids[0])
        assert (await other.replay(long.id, toy_game.replay)).ok
        assert await other.state_at(long.id, 12) == await store.state_at(long.id, 12)
        assert await other.game_of_web_token("W" * 24) == long.id
        assert not await other.claim_timer(long.id, 3, 0, "remind1", T0)


# -- python -m storage copy ---------------------------------------------------------------


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), out=out)
    return code, out.getvalue()


async def arun(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = await cli.amain(list(argv), out=out)
    return code, out.getvalue()


async def fill(location: str) -> list[GameDump]:
    async with open_store(location, replayer=toy_game.replay, engine_version=lambda: ENGINE) as s:
        await populate(s)
        return await dumps(s)


async def read_all(location: str) -> tuple[list[str], list[object]]:
    async with open_store(location, create=False) as s:
        return [d.digest() for d in await dumps(s)], list(await s.all_player_prefs())


@pytest.fixture
def pg_other(pg_server: PgServer, pg_databases: dict[str, str]) -> str:
    return pg_database(pg_server, pg_databases, "other")


async def test_copy_sqlite_to_postgres_and_back(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(tmp_path / "games.sqlite3")
    originals = await fill(source)
    code, out = await arun("copy", source, pg_url)
    assert code == 0, capsys.readouterr().err
    assert "4 game(s) copied and verified" in out and "2 player preference(s)" in out
    assert f"game {originals[0].game_id} (running, v24, 25 log entries, state sha256" in out
    assert ":***@" in out or "@" not in pg_url  # the URL is shown without its password
    assert await read_all(pg_url) == await read_all(source)

    back = str(tmp_path / "back.sqlite3")
    code, out = await arun("copy", pg_url, f"sqlite:///{back}")
    assert code == 0, capsys.readouterr().err
    assert await read_all(back) == await read_all(source)
    assert (await arun("--db", back, "check", "--replayer", "tests.storage.toy_game:replay"))[
        0
    ] == 0
    assert (await arun("--db", pg_url, "check", "--replayer", "tests.storage.toy_game:replay"))[
        0
    ] == 0


@pytest.mark.parametrize("direction", ["sqlite-to-postgres", "postgres-to-sqlite"])
async def test_an_interrupted_copy_resumes(
    direction: str,
    tmp_path: Path,
    pg_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sqlite_path = str(tmp_path / "games.sqlite3")
    source, dest = (
        (sqlite_path, pg_url) if direction == "sqlite-to-postgres" else (pg_url, sqlite_path)
    )
    await fill(source)
    dest_class: type[GameStore] = PostgresGameStore if dest == pg_url else SqliteGameStore
    real_load = dest_class.load_game
    loads: list[int] = []

    async def flaky_load(self: GameStore, dump: GameDump) -> None:
        if len(loads) == 2:
            raise BackendError("the connection was lost")
        await real_load(self, dump)
        loads.append(dump.game_id)

    monkeypatch.setattr(dest_class, "load_game", flaky_load)
    code, out = await arun("copy", source, dest)
    assert code == 2
    assert capsys.readouterr().err.strip() == "error: the connection was lost"
    half = await read_all(dest)
    assert len(half[0]) == 2  # whole games only

    monkeypatch.setattr(dest_class, "load_game", real_load)
    code, out = await arun("copy", source, dest)
    assert code == 0, capsys.readouterr().err
    assert out.count("already copied and equal, skipped") == 2
    assert "2 game(s) copied and verified, 2 already there" in out
    assert await read_all(dest) == await read_all(source)
    code, out = await arun("copy", source, dest)  # a third run has nothing left to do
    assert code == 0 and "0 game(s) copied and verified, 4 already there" in out


async def test_a_non_empty_destination_is_refused_without_force(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(tmp_path / "games.sqlite3")
    await fill(source)
    async with open_store(pg_url) as dest:
        mine = await play(dest, await new_game(dest, 777), [3])
    before = await read_all(pg_url)
    code, out = await arun("copy", source, pg_url)
    err = capsys.readouterr().err
    assert code == 2 and "copied" not in out
    assert err.count("\n") == 1 and err.startswith("error: the destination is not empty")
    assert "--force" in err
    assert await read_all(pg_url) == before  # nothing written

    code, out = await arun("copy", source, pg_url, "--force")
    err = capsys.readouterr().err
    assert code == 2  # game 1 was left out: the destination's own game 1 stays
    assert f"game {mine.id}: NOT COPIED" in out and f"problem: game {mine.id}" in err
    assert "3 game(s) copied and verified" in out
    async with open_store(pg_url, create=False) as dest:
        assert (await dest.get_game(mine.id)).channel_id == 777
        assert len(await dest.game_ids()) == 4


def test_bad_input_is_one_line_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games.sqlite3"
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    cases: list[tuple[list[str], Callable[[str], bool]]] = [
        (["copy", str(games), "mysql://u:pw@h/db"], lambda e: "not supported" in e),
        (["copy", str(games), "sqlite://"], lambda e: "sqlite:///" in e),
        (
            ["copy", str(games), "postgresql://bot:hunter2@127.0.0.1:1/brazil"],
            lambda e: "cannot connect to postgresql://bot:***@127.0.0.1:1/brazil" in e,
        ),
        (
            ["--db", "postgresql:///brazil?host=/nonexistent&password=hunter2", "check"],
            lambda e: "cannot connect" in e and "password=***" in e,
        ),
        (["copy", str(text), str(tmp_path / "new.sqlite3")], lambda e: "not an SQLite" in e),
        (["copy", str(games), str(text)], lambda e: "not an SQLite" in e),
        (["copy", str(games), f"sqlite:///{games}"], lambda e: "the same database" in e),
        (["copy", str(tmp_path / "none.sqlite3"), str(games)], lambda e: "no database" in e),
    ]
    asyncio.run(fill(str(games)))
    for argv, says in cases:
        code, _ = run(*argv)
        err = capsys.readouterr().err
        assert code == 2, (argv, err)
        assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)
        assert "hunter2" not in err and says(err), (argv, err)
    assert text.read_text() == "not a database\n"
    assert not (tmp_path / "new.sqlite3").exists()


async def test_a_postgres_backup_file_loads_into_a_new_database(
    tmp_path: Path, pg_url: str, pg_other: str, capsys: pytest.CaptureFixture[str]
) -> None:
    originals = await fill(pg_url)
    backup = tmp_path / "brazil.backup.jsonl"
    code, out = await arun("--db", pg_url, "backup", str(backup))
    assert code == 0, capsys.readouterr().err
    assert "backed up 4 game(s)" in out
    assert BackupFile(backup).game_ids() == [d.game_id for d in originals]
    assert (await arun("--db", pg_url, "backup", str(backup)))[0] == 2  # exists: --force

    code, out = await arun("copy", str(backup), pg_other)
    assert code == 0, capsys.readouterr().err
    assert await read_all(pg_other) == await read_all(pg_url)
    restored = tmp_path / "restored.sqlite3"
    assert (await arun("copy", str(backup), str(restored)))[0] == 0
    assert await read_all(str(restored)) == await read_all(pg_url)

    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(backup.read_bytes().rsplit(b"\n", 2)[0] + b"\n")
    capsys.readouterr()
    code, _ = await arun("copy", str(cut), str(tmp_path / "never.sqlite3"))
    err = capsys.readouterr().err
    assert code == 2 and "cut short" in err and err.count("\n") == 1
