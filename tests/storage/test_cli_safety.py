"""``python -m storage`` never damages a file and never shows a traceback (issue 8)."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
from pathlib import Path

import pytest

from storage import SqliteGameStore, cli
from tests.storage.conftest import new_game, play

PAGE = 4096


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), out=out)  # returns: an exception here would be a traceback
    return code, out.getvalue()


def make_db(path: Path, games: int = 3) -> None:
    async def go() -> None:
        async with SqliteGameStore(path) as store:
            for channel in range(games):
                await play(store, await new_game(store, 100 + channel, padding=3000), [1, 2, 3])

    asyncio.run(go())


def corrupt(path: Path) -> None:
    """Overwrite some data pages in the middle (page 1, the header and schema, stays)."""
    data = bytearray(path.read_bytes())
    assert len(data) > 12 * PAGE
    for page in (4, 6, 8, 10):
        data[page * PAGE : page * PAGE + 600] = b"\xa5" * 600
    path.write_bytes(bytes(data))


@pytest.fixture
def corrupt_db(tmp_path: Path) -> Path:
    path = tmp_path / "corrupt.sqlite3"
    make_db(path, games=6)
    corrupt(path)
    return path


def test_backup_from_corrupt_database_keeps_the_good_backup(
    corrupt_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good_source = tmp_path / "good.sqlite3"
    make_db(good_source)
    backup = tmp_path / "backup.sqlite3"
    assert run("--db", str(good_source), "backup", str(backup))[0] == 0
    good_bytes = backup.read_bytes()
    capsys.readouterr()
    code, _ = run("--db", str(corrupt_db), "backup", str(backup), "--force")
    assert code == 1
    err = capsys.readouterr().err
    assert str(corrupt_db) in err and "corrupt" in err and "Traceback" not in err
    assert backup.read_bytes() == good_bytes
    # without --force, to a new name: no corrupt copy is left there either
    fresh = tmp_path / "fresh-backup.sqlite3"
    assert run("--db", str(corrupt_db), "backup", str(fresh))[0] == 1
    assert not fresh.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_backup_never_deletes_a_partial_file_it_did_not_write(tmp_path: Path) -> None:
    source = tmp_path / "games.sqlite3"
    make_db(source)
    target = tmp_path / "backup.sqlite3"
    theirs = tmp_path / "backup.sqlite3.partial"
    theirs.write_text("someone else's download in progress")
    assert run("--db", str(source), "backup", str(target))[0] == 0
    assert theirs.read_text() == "someone else's download in progress"
    assert target.exists()


def test_check_on_a_corrupt_database_reports_a_problem(
    corrupt_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("--db", str(corrupt_db), "check", "--no-replay")
    assert code == 1  # "check found a problem", not "could not run"
    text = out + capsys.readouterr().err
    assert "Traceback" not in text and ("integrity_check" in text or "corrupt" in text)


def test_other_applications_file_is_not_touched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as raw:
        raw.execute("CREATE TABLE notes (text TEXT)")
        raw.execute("INSERT INTO notes VALUES ('hello')")
    raw.close()
    before = other.read_bytes()
    ours = tmp_path / "games.sqlite3"
    make_db(ours, games=1)
    export = tmp_path / "game.json"
    assert run("--db", str(ours), "export", "1", str(export))[0] == 0
    backup = str(tmp_path / "x.sqlite3")
    for argv in (["check"], ["export", "1", "-"], ["import", str(export)], ["backup", backup]):
        code, _ = run("--db", str(other), *argv)
        assert code == 2, argv
        assert other.read_bytes() == before, argv  # not even switched to WAL
        assert not Path(f"{other}-wal").exists()
    assert "refusing to touch it" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["check"], ["export", "1", "-"]])
def test_empty_file_stays_empty(
    tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    code, _ = run("--db", str(empty), *command)
    assert code == 2
    assert empty.stat().st_size == 0
    assert "empty" in capsys.readouterr().err


def test_import_of_a_non_utf8_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "export.json"
    binary.write_bytes(b"\xff\xfe{\x00}\x00 \x80\x81")
    db = tmp_path / "games.sqlite3"
    code, _ = run("--db", str(db), "import", str(binary))
    assert code == 2
    err = capsys.readouterr().err
    assert "not a UTF-8 text file" in err and "Traceback" not in err


def test_export_refs_that_are_not_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    make_db(db, games=1)
    capsys.readouterr()
    code, _ = run("--db", str(db), "export", "99999999999999999999999", "-")
    assert code == 2  # was OverflowError
    assert "no game" in capsys.readouterr().err
    target = tmp_path / "x"
    code, _ = run("--db", str(db), "export", "abc", str(target))
    assert code == 2 and not target.exists()
    err = capsys.readouterr().err
    assert "None" not in err and "'abc' is not a game" in err


def test_export_does_not_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite3"
    make_db(db, games=1)
    target = tmp_path / "game.json"
    target.write_text("my notes")
    code, _ = run("--db", str(db), "export", "1", str(target))
    assert code == 2 and target.read_text() == "my notes"
    assert "--force" in capsys.readouterr().err
    code, _ = run("--db", str(db), "export", "1", str(target), "--force")
    assert code == 0 and json.loads(target.read_text())["game"]["id"] == 1
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_bench_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_json = tmp_path / "state.txt"
    not_json.write_text("this is not JSON")
    code, _ = run("bench", "--state-file", str(not_json), "--games", "1", "--saves", "1")
    assert code == 2
    assert "is not a JSON state" in capsys.readouterr().err
    for option in ("--games", "--saves", "--loads", "--throughput-saves", "--restores"):
        with pytest.raises(SystemExit) as caught:
            cli.main(["bench", option, "-5"])
        assert caught.value.code == 2, option
        assert "must be at least 1" in capsys.readouterr().err
