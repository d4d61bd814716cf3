"""The games a calibration of the computer players rests on (issue #31): line-ups of a game's
AI levels played against each other, any registered game with agents, through its rules face.

:func:`lineups` lists the line-ups of every player count (two players and more: a solo game is
not rated): every set of distinct levels when there are enough levels, otherwise every line-up
that seats each level at least once. :func:`play_matches` plays game ``i`` with line-up
``i mod L``, its seats rotated by ``i div L``, from seeds derived from ``(game, seed, i)``
alone, in worker processes when ``workers > 1``: the matches come back in their order, the
same for the same arguments whatever the number of workers (a ``budget`` in seconds makes
the search depend on the machine's speed; ``iterations`` keeps it exact).

The ratings are made from these matches by the service (:mod:`service.ai_scale`, with the
rating model of :mod:`service.rating`): this layer plays, it does not rate.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ai import make_agent
from rules import games as faces
from rules.registry import registrations

MAX_STEPS = 50_000
"""A safety net per game: a game of computer players that has not ended after so many steps
is counted as unfinished and not rated."""


@dataclass(frozen=True)
class Match:
    """One calibration game: the level of each seat, each seat's final score, the winners,
    and whether it reached its natural end (an unfinished game has no scores)."""

    index: int
    levels: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    finished: bool


@dataclass(frozen=True)
class Plan:
    """What a calibration plays: the game, how many games, the player counts, the seed and the
    search's options (``budget`` seconds or ``iterations`` rollouts per decision)."""

    game: str
    games: int
    players: tuple[int, ...]
    seed: int = 0
    budget: float | None = None
    iterations: int | None = None

    def search_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {}
        if self.budget is not None:
            opts["budget"] = self.budget
        if self.iterations is not None:
            opts["iterations"] = self.iterations
        return opts


def levels_of(game: str) -> tuple[str, ...]:
    """The game's computer levels, weakest first (its registration's ``agent_levels``)."""
    reg = registrations().get(game)
    if reg is None or not reg.agents or not reg.agent_levels:
        raise ValueError(f"{game!r} is no registered game with computer players")
    return reg.agent_levels


def player_counts(game: str, players: int | None = None) -> tuple[int, ...]:
    """The player counts a calibration of ``game`` plays: ``players`` alone, or every count
    of the game's range from two up (a solo game is not rated)."""
    reg = registrations()[game]
    counts = tuple(range(max(2, reg.min_players), reg.max_players + 1))
    if players is not None:
        if players not in counts:
            raise ValueError(
                f"{reg.title}: a rated game has {counts[0]} to {counts[-1]} players"
                if counts
                else f"{reg.title} has no rated player count"
            )
        return (players,)
    if not counts:
        raise ValueError(f"{reg.title} has no rated player count")
    return counts


def lineups(levels: Sequence[str], counts: Sequence[int]) -> list[tuple[str, ...]]:
    """The line-ups of every count in ``counts``, in a fixed order: the sets of distinct
    levels when ``count <= len(levels)``, else every multiset that holds each level at least
    once (four seats, three levels: one level doubled)."""
    out: list[tuple[str, ...]] = []
    for n in counts:
        if n <= len(levels):
            out += list(itertools.combinations(levels, n))
        else:
            out += [
                c
                for c in itertools.combinations_with_replacement(levels, n)
                if set(c) == set(levels)
            ]
    return out


def seated(plan: Plan, index: int) -> tuple[str, ...]:
    """The level of each seat in game ``index`` of the plan: its line-up, rotated."""
    ups = lineups(levels_of(plan.game), plan.players)
    up = ups[index % len(ups)]
    turn = (index // len(ups)) % len(up)
    return up[turn:] + up[:turn]


def play_one(plan: Plan, index: int) -> Match:
    """Play game ``index`` of the plan to its end (at most :data:`MAX_STEPS` steps)."""
    face = faces.game(plan.game)
    levels = seated(plan, index)
    rng = random.Random(f"calibrate:{plan.game}:{plan.seed}:{index}")
    agents = [
        make_agent(
            level,
            seed=rng.getrandbits(32),
            game=plan.game,
            **(plan.search_options() if level == "search" else {}),
        )
        for level in levels
    ]
    state = face.new_game(len(levels), seed=rng.getrandbits(32))
    for _ in range(MAX_STEPS):
        if face.is_over(state):
            break
        seat = face.deciders(state)[0]
        state, _ = face.apply(state, agents[seat].decide(state, seat))
    if not face.is_over(state):
        return Match(index, levels, (), (), False)
    by_seat = dict(face.final_scores(state))
    scores = tuple(int(by_seat[s]) for s in range(len(levels)))
    return Match(index, levels, scores, tuple(sorted(face.winners(state))), True)


def _play(args: tuple[Plan, int]) -> Match:
    return play_one(*args)


def play_matches(plan: Plan, workers: int = 1) -> list[Match]:
    """Every game of the plan, in order (``workers`` processes when more than one)."""
    if plan.games < 1:
        raise ValueError("the number of games must be at least 1")
    jobs = [(plan, i) for i in range(plan.games)]
    if workers <= 1:
        return [_play(j) for j in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_play, jobs, chunksize=1))


__all__ = [
    "MAX_STEPS",
    "Match",
    "Plan",
    "levels_of",
    "lineups",
    "play_matches",
    "play_one",
    "player_counts",
    "seated",
]
