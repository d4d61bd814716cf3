"""Issue 28, item 10: the front door, honest. Every command checks its arguments and its files
(a read-only folder or file, a missing folder, a file where a folder is wanted) before it
creates anything: a refusal is one line on stderr, exit status 2, no traceback, and nothing is
left behind (the folder's listing is the same before and after).

Read-only places are made read-only for real: ``chmod a-w`` for a normal user; for root (who
writes through permission bits) the immutable attribute (``chattr +i``), which root cannot
write through either; a test is skipped with the reason only when neither works here.

Each command runs as a user types it (``python -m MODULE ...`` from the repo root, through
``tests.test_cli_errors._run``)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.test_cli_errors import ROOT, _one_line, _run, unreachable_discord

ReadOnly = Callable[[Path], Path]


def _listing(root: Path) -> list[str]:
    """Every file and folder under ``root`` (relative names), sorted."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


@pytest.fixture
def read_only() -> Iterator[ReadOnly]:
    """Make a file or folder read-only for this process's user (root included); undone at
    the end of the test."""
    made: list[tuple[Path, int | None]] = []

    def make(path: Path) -> Path:
        if os.geteuid() == 0:
            done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
            if done.returncode != 0:
                pytest.skip(f"root, and chattr +i does not work here: {done.stderr.strip()}")
            made.append((path, None))
        else:
            mode = path.stat().st_mode
            path.chmod(mode & ~0o222)
            made.append((path, mode))
        if _writable(path):
            pytest.skip(f"{path} cannot be made read-only here")
        return path

    yield make
    for path, mode in reversed(made):
        if mode is None:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(mode)


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game database holding game 1 (Ana and an AI, as ``local`` saves it)."""
    db = tmp_path_factory.mktemp("saved") / "game.sqlite3"
    made = _run("turnpost", ["local", "--db", str(db), "--seats", "Ana,ai", "--script", os.devnull])
    assert made.returncode == 0, made.stderr
    assert _listing(db.parent) == ["game.sqlite3"]
    return db


def _copy_game(saved: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy2(saved, folder / "game.sqlite3"))


# ====================================================================== refusals


@dataclass
class Case:
    """A command and what its one line of refusal must name."""

    module: str
    args: list[str]
    expected: list[str]
    env: dict[str, str] = field(default_factory=dict)


def _local_db_read_only_folder(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    folder = ro(_mkdir(tmp / "ro"))
    db = folder / "new.sqlite3"
    return Case(
        "turnpost", ["local", "--db", str(db), "--script", os.devnull], [str(db), str(folder)]
    )


def _local_db_read_only_file(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    db = ro(_copy_game(saved, tmp / "games"))
    args = ["local", "--db", str(db), "--resume", "1", "--script", os.devnull]
    return Case("turnpost", args, [f"--db {db}"])


def _local_resume_read_only_folder(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    db = _copy_game(saved, tmp / "games")
    ro(db.parent)
    args = ["local", "--db", str(db), "--resume", "1", "--script", os.devnull]
    return Case("turnpost", args, [f"--db {db}", str(db.parent)])


def _local_scenario_for_other_players(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    db = tmp / "g.sqlite3"
    args = ["local", "--db", str(db), "--scenario", "amazon", "--players", "2"]
    return Case(
        "turnpost", [*args, "--script", os.devnull, "--lang", "en"], ["Amazon", "3 players"]
    )


def _local_out_is_a_file(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    notes = tmp / "notes.txt"
    notes.write_text("my notes\n")
    args = ["local", "--db", str(tmp / "g.sqlite3"), "--seats", "ai,ai", "--out", str(notes)]
    return Case("turnpost", [*args, "--script", os.devnull], [f"--out {notes}"])


def _local_out_in_read_only_folder(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    folder = ro(_mkdir(tmp / "ro"))
    out = folder / "images"
    args = ["local", "--db", str(tmp / "g.sqlite3"), "--seats", "ai,ai", "--out", str(out)]
    return Case("turnpost", [*args, "--script", os.devnull], [f"--out {out}", str(folder)])


def _local_out_inside_a_file(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    notes = tmp / "notes.txt"
    notes.write_text("my notes\n")
    out = notes / "images"
    args = ["local", "--db", str(tmp / "g.sqlite3"), "--seats", "ai,ai", "--out", str(out)]
    return Case("turnpost", [*args, "--script", os.devnull], [f"--out {out}", str(notes)])


def _demo_outdir_in_read_only_folder(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    folder = ro(_mkdir(tmp / "ro"))
    return Case("turnpost", ["demo", "--players", "2", str(folder / "outdir")], [str(folder)])


def _demo_outdir_read_only(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    out = ro(_mkdir(tmp / "outdir"))
    return Case("turnpost", ["demo", "--players", "2", str(out)], [str(out)])


def _demo_scenario_for_other_players(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    args = ["demo", "--players", "2", "--scenario", "amazon", "--lang", "en", str(tmp / "out")]
    return Case("turnpost", args, ["Amazon", "3 players"])


def _export_outdir_in_read_only_folder(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    db = _copy_game(saved, tmp / "games")
    folder = ro(_mkdir(tmp / "ro"))
    args = ["export-html", "1", str(folder / "page"), "--db", str(db)]
    return Case("turnpost", args, [str(folder)])


def _render_demo_into_a_file(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    notes = tmp / "notes.txt"
    notes.write_text("my notes\n")
    return Case("devtools.brazil.render", ["demo", str(notes)], [str(notes)])


def _render_demo_unknown_language(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    return Case(
        "devtools.brazil.render", ["demo", str(tmp / "out"), "--lang", "xx"], ["'xx'", "en"]
    )


def _render_bench_no_runs(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    return Case("devtools.brazil.render", ["bench", "--runs", "0"], ["--runs", "0"])


def _render_demo_in_read_only_folder(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    folder = ro(_mkdir(tmp / "ro"))
    return Case("devtools.brazil.render", ["demo", str(folder / "out")], [str(folder)])


def _run_db_in_read_only_folder(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
    folder = ro(_mkdir(tmp / "ro"))
    env = {"TURNPOST_DB": str(folder / "bot.sqlite3"), "DISCORD_TOKEN": "x.y.z"}
    return Case("turnpost", ["run"], ["TURNPOST_DB", str(folder)], {**env, "TURNPOST_SYNC": "none"})


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


def _simple(module: str, args: list[str], *expected: str) -> Callable[..., Case]:
    def case(tmp: Path, ro: ReadOnly, saved: Path) -> Case:
        return Case(module, args, list(expected))

    return case


CASES: dict[str, Callable[[Path, ReadOnly, Path], Case]] = {
    "local --db in a read-only folder": _local_db_read_only_folder,
    "local --db a read-only file": _local_db_read_only_file,
    "local --resume in a read-only folder": _local_resume_read_only_folder,
    "local --scenario amazon --players 2": _local_scenario_for_other_players,
    "local --out FILE": _local_out_is_a_file,
    "local --out in a read-only folder": _local_out_in_read_only_folder,
    "local --out inside a file": _local_out_inside_a_file,
    "demo OUTDIR in a read-only folder": _demo_outdir_in_read_only_folder,
    "demo OUTDIR read-only": _demo_outdir_read_only,
    "demo --scenario amazon --players 2": _demo_scenario_for_other_players,
    "export-html OUTDIR in a read-only folder": _export_outdir_in_read_only_folder,
    "run with TURNPOST_DB in a read-only folder": _run_db_in_read_only_folder,
    "devtools.brazil.render demo FILE": _render_demo_into_a_file,
    "devtools.brazil.render demo --lang xx": _render_demo_unknown_language,
    "devtools.brazil.render bench --runs 0": _render_bench_no_runs,
    "devtools.brazil.render demo in a read-only folder": _render_demo_in_read_only_folder,
    "devtools.loadtest --processes -2": _simple("devtools.loadtest", ["--processes", "-2"], "-2"),
    "devtools.loadtest --rate nan": _simple("devtools.loadtest", ["--rate", "nan"], "nan"),
    "devtools.loadtest --duration inf": _simple("devtools.loadtest", ["--duration", "inf"], "inf"),
    "devtools.loadtest --ramp 5,-1": _simple("devtools.loadtest", ["--ramp", "5,-1"], "-1"),
    "devtools.loadtest --ramp x": _simple("devtools.loadtest", ["--ramp", "x"], "'x'"),
    "devtools.loadtest --games 0": _simple("devtools.loadtest", ["--games", "0"], "--games"),
    "devtools.loadtest --kill -1": _simple("devtools.loadtest", ["--kill", "-1"], "--kill"),
    "devtools.loadtest --switch-interval -1": _simple(
        "devtools.loadtest", ["--switch-interval", "-1"], "--switch-interval"
    ),
    "rules bench --seconds nan": _simple("rules", ["bench", "--seconds", "nan"], "nan"),
    "rules bench --seconds -1": _simple("rules", ["bench", "--seconds", "-1"], "-1"),
    "rules bench --seconds inf": _simple("rules", ["bench", "--seconds", "inf"], "inf"),
    "rules bench --seconds 0": _simple("rules", ["bench", "--seconds", "0"], "--seconds"),
    "rules bench --players 9": _simple("rules", ["bench", "--players", "9"], "--players", "9"),
    "rules selfplay --games -1": _simple("rules", ["selfplay", "--games", "-1"], "-1"),
    "rules selfplay --games 0": _simple("rules", ["selfplay", "--games", "0"], "--games"),
    "rules selfplay --players -3": _simple("rules", ["selfplay", "--players", "-3"], "-3"),
    "rules selfplay --players 9": _simple("rules", ["selfplay", "--players", "9"], "9"),
    "ai tournament --budget inf": _simple(
        "ai", ["tournament", "--agents", "search,random", "--budget", "inf"], "inf"
    ),
    "ai tournament --budget nan": _simple(
        "ai", ["tournament", "--agents", "search,random", "--budget", "nan"], "nan"
    ),
    "ai tournament --games 0": _simple(
        "ai", ["tournament", "--agents", "random,random", "--games", "0"], "--games"
    ),
    "ai tournament --iterations -5": _simple(
        "ai", ["tournament", "--agents", "search,random", "--iterations", "-5"], "-5"
    ),
    "ai tournament --agents genius": _simple(
        "ai", ["tournament", "--agents", "genius,random"], "genius"
    ),
    "devtools.brazil selfplay --games 0": _simple(
        "devtools.brazil", ["selfplay", "--games", "0"], "--games"
    ),
    "devtools.brazil transcript --seed -1": _simple(
        "devtools.brazil", ["transcript", "--seed", "-1"], "--seed"
    ),
    "devtools.webbench --idle inf": _simple("devtools.webbench", ["--idle", "inf"], "inf"),
    "devtools.webbench --viewers 0": _simple("devtools.webbench", ["--viewers", "0"], "--viewers"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_refused_in_one_line_leaving_nothing_behind(
    name: str, tmp_path: Path, read_only: ReadOnly, saved_game: Path
) -> None:
    case = CASES[name](tmp_path, read_only, saved_game)
    before = _listing(tmp_path)
    root_before = _listing_top(ROOT)
    p = _run(case.module, case.args, **case.env)
    line = _one_line(p, case.expected[0])
    for part in case.expected[1:]:
        assert part in line, line
    assert "usage:" not in p.stderr, p.stderr
    assert _listing(tmp_path) == before, "files were left behind"
    assert _listing_top(ROOT) == root_before, "files were left in the repository"
    assert not p.stdout.strip(), p.stdout  # refused before anything was played or drawn


def _listing_top(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir())


# ====================================================================== run, check, hint


def test_run_leaves_no_database_when_discord_is_unreachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m turnpost run`` opens its database before it contacts Discord (a bad one is
    refused without the network); Discord out of reach leaves no new database behind."""

    from turnpost import __main__ as front

    unreachable_discord(monkeypatch, tmp_path)
    before = _listing(tmp_path)
    code = front.main(["run"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "cannot reach Discord" in lines[0], err
    assert _listing(tmp_path) == before, "the database was left behind"


@pytest.mark.parametrize("where", ["file", "folder", "both"])
def test_storage_check_of_a_read_only_database(
    where: str, tmp_path: Path, read_only: ReadOnly, saved_game: Path
) -> None:
    """A check only reads: a read-only database (the file, its folder or both) is checked
    as any other, and nothing is written next to it (no -wal or -shm file)."""
    db = _copy_game(saved_game, tmp_path / "games")
    if where in ("file", "both"):
        read_only(db)
    if where in ("folder", "both"):
        read_only(db.parent)
    before = _listing(tmp_path)
    p = _run("storage", ["check", "--db", str(db)])
    out = p.stdout + p.stderr
    assert "Traceback" not in out, out
    assert p.returncode == 0, out
    assert "integrity: database OK" in p.stdout, out
    assert "game 1 " in p.stdout and "OK: 1 game(s), 0 with problems" in p.stdout, out
    assert str(db) in p.stdout, out  # named as given, not as a copy
    assert _listing(tmp_path) == before, "files were left next to the database"


@pytest.mark.parametrize("command", ["export", "backup", "copy"])
def test_storage_reads_a_read_only_database(
    command: str, tmp_path: Path, read_only: ReadOnly, saved_game: Path
) -> None:
    """``export``, ``backup`` and ``copy`` only read their source: a read-only one works
    and nothing is written beside it."""
    db = _copy_game(saved_game, tmp_path / "games")
    read_only(db)
    read_only(db.parent)
    made = tmp_path / "made"
    args = {
        "export": ["export", "--db", str(db), "game:1", str(made)],
        "backup": ["backup", "--db", str(db), str(made)],
        "copy": ["copy", str(db), str(made)],
    }[command]
    p = _run("storage", args)
    out = p.stdout + p.stderr
    assert "Traceback" not in out, out
    assert p.returncode == 0, out
    assert made.is_file(), out
    assert _listing(db.parent) == ["game.sqlite3"], "files were left next to the database"


def test_export_html_from_a_read_only_database(
    tmp_path: Path, read_only: ReadOnly, saved_game: Path
) -> None:
    """``export-html`` only reads the database: one in a read-only folder is exported, and
    nothing is written beside it."""
    db = _copy_game(saved_game, tmp_path / "games")
    read_only(db)
    read_only(db.parent)
    page = tmp_path / "page"
    p = _run("turnpost", ["export-html", "1", str(page), "--db", str(db), "--lang", "en"])
    out = p.stdout + p.stderr
    assert "Traceback" not in out, out
    assert p.returncode == 0, out
    assert (page / "index.html").is_file(), out
    assert _listing(db.parent) == ["game.sqlite3"], "files were left next to the database"


def test_storage_check_of_a_read_only_database_that_is_not_one(
    tmp_path: Path, read_only: ReadOnly
) -> None:
    notes = tmp_path / "ro" / "notes.txt"
    notes.parent.mkdir()
    notes.write_text("these are my notes, not a database\n")
    read_only(notes.parent)
    _one_line(_run("storage", ["check", "--db", str(notes)]), f"{notes} is not an SQLite database")


def _hint(stdout: str) -> str:
    found = [ln.split("Resume with: ", 1)[1] for ln in stdout.splitlines() if "Resume with: " in ln]
    assert len(found) == 1, stdout
    return found[0].strip()


def test_the_resume_hint_works_as_printed(tmp_path: Path) -> None:
    """The hint at the end of a local game resumes that game when typed as printed: without
    the project's interpreter on PATH (``bash scripts/run.sh`` starts it) and with the
    game's database (``--db``, as an absolute path: run.sh works from the repo root)."""
    db = tmp_path / "games" / "mine.sqlite3"
    db.parent.mkdir()
    played = _run(
        "turnpost",
        ["local", "--db", str(db), "--seats", "Ana,ai", "--script", os.devnull, "--lang", "en"],
    )
    assert played.returncode == 0, played.stderr
    argv = shlex.split(_hint(played.stdout))
    assert argv[0] == "bash", argv
    run_sh = (ROOT / argv[1]).resolve()  # as typed in the folder the game was played in
    assert run_sh == ROOT / "scripts" / "run.sh", argv
    text = run_sh.read_text()
    assert 'cd "$(dirname "$0")/.."' in text and 'exec .venv/bin/python -m turnpost "$@"' in text
    # what run.sh runs: the project's interpreter, in the repo root, with the hint's arguments
    # (run.sh itself also sets the environment up with pip, which tests do not run)
    assert argv[2:5] == ["local", "--resume", "1"], argv
    resumed = subprocess.run(
        [sys.executable, "-m", "turnpost", *argv[2:], "--script", os.devnull, "--lang", "en"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if not k.startswith(("TURNPOST_", "DISCORD_"))},
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming game #1" in resumed.stdout, resumed.stdout
    assert _hint(resumed.stdout) == _hint(played.stdout)


# ====================================================================== no prompt_toolkit


def test_local_without_prompt_toolkit_reads_plain_lines(tmp_path: Path) -> None:
    """Without the ``terminal`` extra (prompt_toolkit cannot be imported: a stand-in package
    first on the path refuses), ``local`` reads plain lines from standard input."""
    shim = tmp_path / "shim" / "prompt_toolkit"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ImportError(\"No module named 'prompt_toolkit'\")\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TURNPOST_", "DISCORD_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(shim.parent), str(ROOT)])
    check = subprocess.run(
        [sys.executable, "-c", "import prompt_toolkit"], env=env, capture_output=True, text=True
    )
    assert check.returncode != 0 and "ImportError" in check.stderr  # the blocker blocks
    args = ["local", "--db", str(tmp_path / "g.sqlite3"), "--seats", "Ana,ai", "--lang", "en"]
    p = subprocess.run(
        [sys.executable, "-m", "turnpost", *args, "--out", str(tmp_path / "img")],
        cwd=ROOT,
        env=env,
        input="help\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = p.stdout + p.stderr
    assert "Traceback" not in out, out
    assert p.returncode == 0, out
    assert "Commands (type a game command, or one of these):" in p.stdout, out  # read `help`
    assert "Resume with: " in p.stdout, out  # read `quit`
    assert len([ln for ln in p.stderr.splitlines() if ln.strip()]) <= 1, p.stderr
