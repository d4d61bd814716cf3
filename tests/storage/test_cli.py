"""``python -m storage``: backup, check, export/import, bench."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage import BackendError, GameResult, SqliteGameStore, cli
from storage.bench import run_bench, synthetic_late_game_state
from tests.storage import toy_game
from tests.storage.conftest import new_game, play

REPO = Path(__file__).resolve().parents[2]
TOY = "tests.storage.toy_game:replay"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), out=out)
    return code, out.getvalue()


def populate(db_path: Path) -> list[int]:
    """Three games: running, finished, lobby (no actions)."""

    async def go() -> list[int]:
        async with SqliteGameStore(db_path) as store:
            a = await play(store, await new_game(store, 2_000_000_001), [1, 2, 3])
            b = await play(store, await new_game(store, 2_000_000_002), [4])
            await store.finish_game(b.id, GameResult(scores={0: 5}, winners=frozenset({0})))
            c = await new_game(store, 2_000_000_003)
            return [a.id, b.id, c.id]

    return asyncio.run(go())


def test_check_ok_with_replayer(db_path: Path) -> None:
    ids = populate(db_path)
    code, out = run("--db", str(db_path), "check", "--replayer", TOY)
    assert code == 0, out
    assert f"game {ids[0]} (channel 2000000001, running, v3): OK (3 actions replayed)" in out
    assert "integrity: database OK" in out
    assert out.strip().endswith("OK: 3 game(s), 0 with problems")


def test_check_without_rules_engine_skips_replay(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    populate(db_path)
    monkeypatch.setattr(cli, "DEFAULT_REPLAYER", "no_rules_engine_here:replay_step")
    code, out = run("--db", str(db_path), "check")
    assert code == 0, out
    assert "replay: SKIPPED, the rules engine is not available" in out
    assert "integrity OK (replay skipped)" in out


def test_check_reports_differences(db_path: Path) -> None:
    ids = populate(db_path)
    with sqlite3.connect(db_path) as raw:
        state = toy_game.state_after([1, 2, 3])
        state["counter"] = 99
        raw.execute(
            "UPDATE game_states SET state_json = ? WHERE game_id = ?", (json.dumps(state), ids[0])
        )
    raw.close()
    code, out = run("check", "--db", str(db_path), "--replayer", TOY)  # --db after command
    assert code == 1
    line = next(text for text in out.splitlines() if text.startswith(f"game {ids[0]} "))
    assert "does not match the hash logged for version 3" in line
    assert "first differs at version 3" in line
    assert "$.counter: stored 99, replayed 6" in line
    assert "PROBLEMS FOUND: 3 game(s), 1 with problems" in out
    code, out = run("--db", str(db_path), "check", "--no-replay")
    assert code == 1 and "replay: SKIPPED, --no-replay given" in out


def test_check_missing_database_fails_without_creating_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.sqlite3"
    code, _ = run("--db", str(missing), "check")
    assert code == 2 and not missing.exists()
    assert "no database at" in capsys.readouterr().err


def test_explicit_replayer_must_load(db_path: Path) -> None:
    populate(db_path)
    code, _ = run("--db", str(db_path), "check", "--replayer", "nowhere:nothing")
    assert code == 2


def test_database_from_environment(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    populate(db_path)
    monkeypatch.setenv("TURNPOST_DB", str(db_path))
    assert cli.default_db_path() == str(db_path)
    code, out = run("check", "--replayer", TOY)
    assert code == 0 and str(db_path) in out
    monkeypatch.delenv("TURNPOST_DB")
    assert cli.default_db_path() == "turnpost.sqlite3"


def test_backup(db_path: Path, tmp_path: Path) -> None:
    ids = populate(db_path)
    target = tmp_path / "backup.sqlite3"

    async def backup_while_open() -> None:
        async with SqliteGameStore(db_path) as live:  # the bot keeps running meanwhile
            await play(live, await live.get_game(ids[0]), [9])
            out = io.StringIO()
            code = await cli.amain(["--db", str(db_path), "backup", str(target)], out=out)
            assert code == 0, out.getvalue()
            assert "backed up 3 game(s)" in out.getvalue()
            assert "quick_check: ok" in out.getvalue()

    asyncio.run(backup_while_open())
    assert not Path(f"{target}-wal").exists()  # a single self-contained file

    async def verify() -> None:
        async with SqliteGameStore(target, create=False) as copy:
            assert await copy.game_ids() == ids
            assert (await copy.get_game(ids[0])).state() == toy_game.state_after([1, 2, 3, 9])
            assert (await copy.replay(ids[0], toy_game.replay)).ok

    asyncio.run(verify())
    code, _ = run("--db", str(db_path), "backup", str(target))
    assert code == 2  # exists
    code, _ = run("--db", str(db_path), "backup", str(target), "--force")
    assert code == 0
    code, _ = run("--db", str(db_path), "backup", str(db_path), "--force")
    assert code == 2  # never over the database itself


def test_export_and_import(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = populate(db_path)
    by_id = tmp_path / "by_id.json"
    code, out = run("--db", str(db_path), "export", str(ids[0]), str(by_id))
    assert code == 0 and f"exported game {ids[0]}" in out
    by_channel = tmp_path / "by_channel.json"
    assert run("--db", str(db_path), "export", "2000000001", str(by_channel))[0] == 0
    assert json.loads(by_id.read_text())["log"] == json.loads(by_channel.read_text())["log"]
    # a finished game is found through its channel too
    code, out = run("--db", str(db_path), "export", "channel:2000000002", "-")
    assert code == 0 and json.loads(out)["game"]["status"] == "finished"
    assert run("--db", str(db_path), "export", "game:999", "-")[0] == 2
    assert run("--db", str(db_path), "export", "channel:5", "-")[0] == 2
    assert run("--db", str(db_path), "export", "banana", "-")[0] == 2

    # the channel is busy: refused with a clear message, then imported elsewhere
    code, _ = run("--db", str(db_path), "import", str(by_id))
    assert code == 2 and "already has an active game" in capsys.readouterr().err
    code, out = run(
        "--db", str(db_path), "import", str(by_id), "--channel", "42", "--replayer", TOY
    )
    assert code == 0 and "in channel 42 (running, version 3)" in out
    # into a brand-new database (moving to another server)
    fresh = tmp_path / "fresh.sqlite3"
    code, out = run("--db", str(fresh), "import", str(by_id))
    assert code == 0 and "as game 1 in channel 2000000001" in out
    assert run("--db", str(fresh), "check", "--replayer", TOY)[0] == 0
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    assert run("--db", str(fresh), "import", str(broken))[0] == 2


def test_export_ambiguous_number(db_path: Path, tmp_path: Path) -> None:
    async def go() -> int:
        async with SqliteGameStore(db_path) as store:
            await new_game(store, 500)
            other = await new_game(store, 1)  # channel 1, while game id 1 is in channel 500
            return other.id

    other_id = asyncio.run(go())
    code, _ = run("--db", str(db_path), "export", "1", "-")
    assert code == 2
    code, out = run("--db", str(db_path), "export", "channel:1", "-")
    assert code == 0 and json.loads(out)["game"]["id"] == other_id
    code, out = run("--db", str(db_path), "export", "game:1", "-")
    assert code == 0 and json.loads(out)["game"]["channel_id"] == 500


@pytest.mark.slow
def test_bench_tiny(tmp_path: Path) -> None:
    state = synthetic_late_game_state()
    size = len(json.dumps(state))
    assert 40_000 <= size <= 80_000
    assert len(state["players"]) == 4
    result = asyncio.run(
        run_bench(
            tmp_path / "bench.sqlite3",
            state_json=json.dumps(state),
            state_source="synthetic",
            saves=3,
            loads=3,
            games=4,
            throughput_saves=8,
        )
    )
    assert result.games == 4 and len(result.save_ms) == 3
    assert result.saves_per_second > 0
    text = "\n".join(result.lines())
    assert "median" in text and "saves/s" in text and "synthetic" in text


def test_bench_command_with_state_file(tmp_path: Path) -> None:
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps(toy_game.state_after([1, 2])))
    code, out = run(
        "bench",
        "--state-file",
        str(state_file),
        "--games",
        "3",
        "--saves",
        "2",
        "--loads",
        "2",
        "--throughput-saves",
        "4",
    )
    assert code == 0
    assert f"real state from {state_file}" in out
    assert "save throughput, 3 games" in out


def test_help() -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["--help"])
    assert caught.value.code == 0
    for command in ("backup", "check", "bench", "export", "import"):
        with pytest.raises(SystemExit) as caught:
            cli.main([command, "--help"])
        assert caught.value.code == 0
    done = subprocess.run(
        [sys.executable, "-m", "storage", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    for command in ("backup", "check", "bench", "export", "import", "--db"):
        assert command in done.stdout


async def test_backup_to_missing_directory(sqlite_store: SqliteGameStore, tmp_path: Path) -> None:
    with pytest.raises(BackendError):
        await sqlite_store.backup(tmp_path / "no" / "such" / "dir.sqlite3")
    assert not list(tmp_path.glob("**/*.partial"))
