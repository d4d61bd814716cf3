"""The command-line tools: python -m rules {selfplay, describe, bench} --help and runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_help_lists_the_commands():
    out = run("--help").stdout
    for cmd in ("selfplay", "bench", "describe"):
        assert cmd in out
    assert "invariants" in run("selfplay", "--help").stdout


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
