"""The command-line tools: python -m devtools.brazil {selfplay, bench, transcript} and python -m rules
describe: --help and runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    tool = "rules" if args[:1] == ("describe",) else "devtools.brazil"
    return subprocess.run(
        [sys.executable, "-m", tool, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_help_lists_the_commands():
    out = run("--help").stdout
    for cmd in ("selfplay", "bench", "transcript"):
        assert cmd in out
    assert (
        "describe"
        in subprocess.run(
            [sys.executable, "-m", "rules", "--help"], cwd=ROOT, capture_output=True, text=True
        ).stdout
    )
    assert "invariants" in run("selfplay", "--help").stdout


@pytest.mark.slow
def test_selfplay_prints_a_summary_and_exits_zero():
    r = run("selfplay", "--players", "2", "--games", "2", "--seed", "4", "--max-rounds", "8")
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    for key in ("games=2", "natural_end=", "avg_rounds=", "actions_per_s=", "invariant_failures=0"):
        assert key in line


def test_describe_validates_and_prints():
    r = run("describe")
    assert r.returncode == 0 and "== Paintings (24)" in r.stdout


def test_describe_reports_a_broken_pack(tmp_path: Path):
    (tmp_path / "cities.toml").write_text('[[cities]]\nid = "recife"\nvp = -1\n')
    r = run("describe", "--data-pack", str(tmp_path))
    assert r.returncode == 2
    assert "cities.toml" in r.stderr and "'recife'" in r.stderr and "'vp'" in r.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["transcript", "--steps", "0"],
        ["transcript", "--steps", "-5"],
        ["selfplay", "--games", "-1"],
        ["selfplay", "--games", "0"],
        ["selfplay", "--max-rounds", "-3"],
        ["selfplay", "--max-rounds", "0"],
        ["bench", "--games", "-2"],
        ["transcript", "--steps", "x"],
    ],
)
def test_counts_must_be_positive(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 7, defect 6: refused by argparse with a clear message, no traceback.
    from devtools.brazil.__main__ import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "must be a whole number of 1 or more" in err and "Traceback" not in err
