"""Issue 22: a bad command line ends in one clear line on stderr and a non-zero exit, never a
Python traceback, and is refused before anything is created (no game row, no folder).

Each command runs as a new user would type it (``python -m turnpost ...`` from the repo root, a
tmp database); ``run`` against an unreachable Discord is tested in-process (no network)."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a Python process per command (tests/README.md)

ROOT = Path(__file__).resolve().parents[1]
LEVELS = "choose easy, normal or strong"


def _run(mod: str, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith(("TURNPOST_", "DISCORD_"))}
    e.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", mod, *args],
        cwd=ROOT,
        env=e,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def _one_line(p: subprocess.CompletedProcess[str], expected: str, code: int = 2) -> str:
    out = p.stdout + p.stderr
    assert "Traceback" not in out, out
    assert p.returncode == code, (p.returncode, out)
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, p.stderr
    assert expected in lines[0], lines[0]
    return lines[0]


def _games(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as c:
        if not c.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchall():
            return 0
        return int(c.execute("SELECT count(*) FROM games").fetchone()[0])


@pytest.fixture
def notdb(tmp_path: Path) -> Path:
    f = tmp_path / "notes.txt"
    f.write_text("these are my notes, not a database\n")
    return f


def test_local_db_not_sqlite(tmp_path: Path, notdb: Path) -> None:
    p = _run("turnpost", ["local", "--db", str(notdb), "--script", os.devnull])
    _one_line(p, "is not an SQLite database")
    assert notdb.read_text().startswith("these are my notes")


def test_local_db_is_a_folder(tmp_path: Path) -> None:
    _one_line(_run("turnpost", ["local", "--db", str(tmp_path), "--script", os.devnull]), "folder")


def test_local_resume_unknown_game(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    _one_line(_run("turnpost", ["local", "--db", str(db), "--resume", "999"]), "no game #999")
    assert not db.exists()  # nothing to resume: no empty database made
    made = _run("turnpost", ["local", "--db", str(db), "--seats", "Ana,ai", "--script", os.devnull])
    assert made.returncode == 0, made.stderr
    line = _one_line(
        _run("turnpost", ["local", "--db", str(db), "--resume", "999"]), "no game #999"
    )
    assert "1" in line.split("999", 1)[1]  # names the saved games there


def test_local_unknown_ai_level_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    p = _run(
        "turnpost", ["local", "--db", str(db), "--seats", "Ana,ai:genius", "--script", os.devnull]
    )
    line = _one_line(p, "unknown AI level 'genius'")
    assert LEVELS in line
    assert _games(db) == 0


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--players", "7"], "1 to 4"),
        (["--players", "0"], "1 to 4"),
        (["--seats", "Ana,,Bo"], "empty seat"),
        (["--seats", "Ana,Bo,Cy", "--players", "2"], "3 seats"),
        (["--seats", "Ana,Bo,Cy,Di,Ed"], "1 to 4"),
        (["--script", "/nonexistent/moves.txt"], "/nonexistent/moves.txt"),
        (["--scenario", "nowhere"], "unknown map 'nowhere'"),
        (["--web-port", "70000"], "--web-port must be from 0 to 65535, not 70000"),
        (["--web", "--web-port", "-1"], "--web-port must be from 0 to 65535, not -1"),
        (["--web-host", " "], "--web-host is empty"),
        (["--workers", "-1"], "--workers must be from 0 to 64, not -1"),
    ],
)
def test_local_bad_arguments(tmp_path: Path, args: list[str], expected: str) -> None:
    db = tmp_path / "g.sqlite3"
    script = [] if "--script" in args else ["--script", os.devnull]
    _one_line(_run("turnpost", ["local", "--db", str(db), *args, *script]), expected)
    assert _games(db) == 0


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--players", "7"], "1 to 4"),
        (["--agents", "nobody"], "unknown AI level 'nobody'"),
        (["--agents", "heuristic,genius"], "unknown AI level 'genius'"),
        (["--scenario", "nowhere"], "unknown map 'nowhere'"),
        (["--max-rounds", "0"], "--max-rounds"),
        (["--web-port", "65536"], "--web-port must be from 0 to 65535, not 65536"),
        (["--workers", "65"], "--workers must be from 0 to 64, not 65"),
    ],
)
def test_demo_bad_arguments(tmp_path: Path, args: list[str], expected: str) -> None:
    out = tmp_path / "demo-out"
    line = _one_line(_run("turnpost", ["demo", *args, str(out)]), expected)
    if "AI level" in expected:
        assert LEVELS in line
    if "map" not in expected:
        assert not out.exists()  # refused before the folder is made


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port of 127.0.0.1 another program listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield int(s.getsockname()[1])


def test_web_port_taken_creates_nothing(tmp_path: Path, taken_port: int) -> None:
    db, out = tmp_path / "g.sqlite3", tmp_path / "demo-out"
    local = ["local", "--db", str(db), "--seats", "Ana,ai", "--script", os.devnull]
    for args in ([*local, "--web-port", str(taken_port)], ["demo", "--web-port", str(taken_port)]):
        if args[0] == "demo":
            args.append(str(out))
        line = _one_line(
            _run("turnpost", args), f"cannot serve the game page on 127.0.0.1:{taken_port}"
        )
        assert "in use" in line
    assert not db.exists() and not out.exists()


def test_export_html_refusals(tmp_path: Path, notdb: Path) -> None:
    db, out = tmp_path / "g.sqlite3", tmp_path / "page"
    _one_line(
        _run("turnpost", ["export-html", "1", str(out), "--db", str(db)]), "no game #1 to export"
    )
    _one_line(
        _run("turnpost", ["export-html", "1", str(out), "--db", str(notdb)]),
        "is not an SQLite database",
    )
    made = _run("turnpost", ["local", "--db", str(db), "--seats", "Ana,ai", "--script", os.devnull])
    assert made.returncode == 0, made.stderr
    line = _one_line(
        _run("turnpost", ["export-html", "999", str(out), "--db", str(db)]), "no game #999"
    )
    assert "saved games: 1" in line
    _one_line(_run("turnpost", ["export-html", "1", str(notdb), "--db", str(db)]), "is a file")
    assert not out.exists()


def test_check_config_web_settings() -> None:
    bad = _run(
        "turnpost", ["--check-config"], TURNPOST_WEB_PUBLIC_URL="ftp://x", DISCORD_TOKEN="x.y.z"
    )
    _one_line(bad, "TURNPOST_WEB_PUBLIC_URL (web_public_url): an http:// or https:// address")
    port = _run("turnpost", ["--check-config"], TURNPOST_WEB_PORT="99999", DISCORD_TOKEN="x.y.z")
    _one_line(port, "TURNPOST_WEB_PORT")
    half = _run(
        "turnpost",
        ["--check-config"],
        TURNPOST_WEB_PUBLIC_URL="https://x.org",
        DISCORD_TOKEN="x.y.z",
    )
    _one_line(half, "TURNPOST_WEB_PUBLIC_URL is set but TURNPOST_WEB_PORT is not")
    ok = _run("turnpost", ["--check-config"], TURNPOST_WEB_PORT="8080", DISCORD_TOKEN="x.y.z")
    assert ok.returncode == 0 and "game pages: on 127.0.0.1, port 8080" in ok.stdout, ok.stdout


def test_demo_outdir_is_a_file(notdb: Path) -> None:
    _one_line(_run("turnpost", ["demo", "--no-images", str(notdb)]), str(notdb))


@pytest.mark.parametrize("where", ["missing", "in-a-file"])
def test_check_config_bad_db_folder(tmp_path: Path, notdb: Path, where: str) -> None:
    db = tmp_path / "nowhere" / "g.sqlite3" if where == "missing" else notdb / "g.sqlite3"
    for args in (["--check-config"], ["run"]):
        p = _run("turnpost", args, TURNPOST_DB=str(db), DISCORD_TOKEN="x.y.z")
        line = _one_line(p, "TURNPOST_DB")
        assert "validation error" not in p.stderr and "pydantic" not in p.stderr, line


def test_run_refuses_a_db_that_is_not_sqlite_before_contacting_discord(notdb: Path) -> None:
    p = _run(
        "turnpost", ["run"], TURNPOST_DB=str(notdb), DISCORD_TOKEN="x.y.z", TURNPOST_SYNC="none"
    )
    _one_line(p, "is not an SQLite database")
    assert notdb.read_text().startswith("these are my notes")


def test_check_config_bad_number_is_one_line() -> None:
    p = _run("turnpost", ["--check-config"], TURNPOST_DEFAULT_PLAYERS="9", DISCORD_TOKEN="x.y.z")
    _one_line(p, "TURNPOST_DEFAULT_PLAYERS")


def test_rules_describe_missing_data_pack() -> None:
    _one_line(_run("rules", ["describe", "--data-pack", "/nonexistent"]), "/nonexistent")


def test_storage_check_on_a_text_file(notdb: Path) -> None:
    _one_line(_run("storage", ["--db", str(notdb), "check"]), "not an SQLite database")


def test_run_when_discord_is_unreachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m turnpost run`` with Discord out of reach (a closed local port): one line."""

    from bot import app

    unreachable_discord(monkeypatch, tmp_path)
    code = app.main(None)
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "cannot reach Discord" in lines[0], err
    assert "127.0.0.1:9" in lines[0]


def unreachable_discord(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The bot's settings for a run against a Discord out of reach (a closed local port): a
    token, a database in ``tmp_path``, no command sync, no other setting, no log set-up."""
    import discord.http

    from bot import app

    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")
    for k in list(os.environ):
        if k.startswith(("TURNPOST_", "DISCORD_")):
            monkeypatch.delenv(k)
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("DISCORD_TOKEN", "x.y.z")
    monkeypatch.setenv("TURNPOST_DB", str(tmp_path / "bot.sqlite3"))
    monkeypatch.setenv("TURNPOST_SYNC", "none")
    monkeypatch.setattr(app, "setup_logging", lambda settings: None)
