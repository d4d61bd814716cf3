"""``python -m devtools.aibench``: every section prints its figures (issue 33), on the smallest
game and the fewest games, so the command stays runnable; the figures themselves are in
docs/computer-players.md (never asserted: a figure of speed depends on the machine)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from devtools.aibench.__main__ import main
from devtools.aibench.engine_loop import selfplay_rate
from rules.games import game, names
from rules.registry import registrations

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_loop_counts_steps_and_listed_actions() -> None:
    for name in names():
        f = selfplay_rate(name, 2, 0.05)
        assert f["games"] >= 1 and f["listed_per_s"] >= f["steps_per_s"] > 0


def test_engines_prints_a_line_per_game_and_player_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["engines", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    for name in names():
        g = game(name)
        for players in range(g.min_players, g.max_players + 1):
            assert re.search(rf"{name}\s+{players}\s+[\d,]+\s+[\d,]+", out), out


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_engines_against_a_commit_prints_before_after_and_the_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    one = names()[0]
    args = ["engines", "--game", one, "--seconds", "0.05", "--rounds", "1", "--against", "HEAD"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert re.search(rf"{one}\s+\d+\s+[\d,]+\s+[\d,]+\s+\d+\.\d\dx", out), out
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True, check=True
    ).stdout
    assert "aibench-" not in listed  # the temporary checkout is removed


@pytest.mark.slow
def test_decisions_ends_match_and_effort_print_their_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    two = [n for n, r in registrations().items() if r.tournament and "search" in r.agent_levels]
    one = two[-1]
    assert main(["decisions", "--game", one, "--states", "2"]) == 0
    assert main(["ends", "--game", one, "--games", "1", "--levels", "random"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"{one}\s+search\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\d+", out), out
    top = game(one).max_players
    assert re.search(rf"{one}\s+random\s+{top}\s+1/1", out), out


def test_paired_sections_need_an_even_number_of_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["match", "--games", "3"])
    assert "even" in capsys.readouterr().err
