"""The tournament command: argument checks, the statistics it prints."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from importlib import import_module

import pytest

from ai import run_tournament
from ai.__main__ import main
from ai.report import Report, entry_labels, seating, wilson
from rules.registry import registrations


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


def _figures(rep: Report) -> tuple[object, ...]:
    return (
        rep.games,
        rep.natural_end,
        sorted(rep.rounds),
        dict(rep.wins),
        {k: sorted(v) for k, v in rep.totals.items()},
        {k: dict(v) for k, v in rep.categories.items()},
        {k: len(v) for k, v in rep.times.items()},
    )


TOURNAMENTS = [name for name, reg in registrations().items() if reg.tournament]


@pytest.mark.parametrize("game", TOURNAMENTS)
def test_workers_change_nothing_but_the_time(game: str) -> None:
    """Issue 33: the games spread over worker processes give the very figures of one process
    (every game's seeds come from its index), for every registered game."""
    reg = registrations()[game]
    names = ["random"] * max(2, reg.min_players)
    one = run_tournament(names, 5, seed=4, game=game, max_rounds=6)
    two = run_tournament(names, 5, seed=4, game=game, max_rounds=6, workers=2)
    assert _figures(one) == _figures(two)
    assert one.games == 5


@pytest.mark.parametrize("game", TOURNAMENTS)
def test_paired_games_play_one_deal_per_seat_rotation(game: str) -> None:
    """``paired``: the games of a group share their deal and their seats' seeds, the line-up
    rotated; a line-up of one level then plays the very same game within a group."""
    reg = registrations()[game]
    names = ["random"] * max(2, reg.min_players)
    one = _one_game(game)

    def scores(i: int, paired: bool) -> list[int]:
        rep = one(names, i, seed=9, paired=paired, budget=None, iterations=None)
        return sorted(x for vals in rep.totals.values() for x in vals)

    assert scores(0, True) == scores(1, True)  # one deal, the seats rotated
    assert [scores(i, False) for i in range(4)] != [scores(0, False)] * 4
    assert seating(5, 2, 1, paired=True) == ([1, 0], "1:2")
    assert seating(5, 2, 1, paired=False) == ([1, 0], "1:5")


def _one_game(game: str) -> Callable[..., Report]:
    module = registrations()[game].tournament
    assert module is not None
    one: Callable[..., Report] = import_module(module.split(":")[0]).one_game
    if "max_rounds" in inspect.signature(one).parameters:
        return partial(one, max_rounds=6)
    return one


def test_paired_needs_whole_groups(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--games", "3", "--agents", "random,random", "--paired"])
    assert "multiple of --players" in capsys.readouterr().err
