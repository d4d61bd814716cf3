"""The terminal names each computer player's level with its rating on the scale when a game
starts (issue #31), in the terminal's language, from the shipped calibration."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from i18n import number
from service.ai_scale import ai_shown

ROOT = Path(__file__).resolve().parents[2]


def _start(tmp_path: Path, *args: str) -> str:
    script = tmp_path / "quit.txt"
    script.write_text("quit\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TURNPOST_DB", None)
    proc = subprocess.run(
        [sys.executable, "-m", "turnpost", "local", *args, "--script", str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Computer (strong): rated ≈ {n}"),
        ("de", "Computer (stark): Wertung ≈ {n}"),
        ("hu", "Gép (erős): értékszám ≈ {n}"),
    ],
)
def test_a_computer_seat_is_announced_with_its_rating(tmp_path: Path, lang: str, line: str) -> None:
    n = ai_shown("tigris", "search")
    assert n is not None
    out = _start(
        tmp_path, "--game", "tigris", "--lang", lang, "--seats", "Ana,ai:search",
        "--db", str(tmp_path / "t.sqlite3"), "--out", str(tmp_path / "img"),
    )  # fmt: skip
    assert line.format(n=number(lang, n)) in out, out[:1500]
