"""The tournament command: argument checks, the statistics it prints."""

from __future__ import annotations

import pytest

from ai import run_tournament
from ai.__main__ import main
from ai.report import entry_labels, wilson


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "-1", "--players", "2", "--agents", "random,random"],
        ["--games", "0", "--players", "2", "--agents", "random,random"],
        ["--games", "two", "--players", "2", "--agents", "random,random"],
        ["--games", "2", "--players", "5", "--agents", "random,random"],
        ["--games", "2", "--players", "3", "--agents", "random,random"],
        ["--games", "2", "--players", "2", "--agents", "random,oracle"],
        ["--games", "2", "--players", "2", "--agents", "random,random", "--budget", "-1"],
        ["--games", "2", "--players", "2", "--agents", "random,random", "--max-rounds", "0"],
    ],
)
def test_bad_arguments_are_refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["tournament", *args])
    assert e.value.code == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.slow
def test_tournament_prints_win_rates_scores_ends_and_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        [
            "tournament",
            "--games",
            "2",
            "--players",
            "2",
            "--agents",
            "heuristic,random",
            "--seed",
            "3",
            "--max-rounds",
            "3",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "2 games, 2 players" in out
    for word in (
        "heuristic",
        "random",
        "95% interval",
        "buildings",
        "natural end: 0/2",
        "decision times",
        "median",
        "p95",
    ):
        assert word in out


@pytest.mark.slow
def test_seats_rotate_and_every_game_counts() -> None:
    rep = run_tournament(["random", "random", "heuristic"], 3, seed=1, max_rounds=2)
    assert rep.games == 3
    assert rep.labels == ["random#1", "random#2", "heuristic"]
    assert all(len(rep.totals[lab]) == 3 for lab in rep.labels)
    assert sum(rep.wins.values()) >= 3  # every game has at least one winner (ties: several)


def test_tournament_refuses_no_games() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        run_tournament(["random"], 0)


def test_wilson_interval() -> None:
    lo, hi = wilson(9, 10)
    assert 0.59 < lo < 0.60 and 0.98 < hi < 0.99
    assert wilson(0, 0) == (0.0, 1.0)
    assert entry_labels(["a", "b", "a"]) == ["a#1", "b", "a#2"]
