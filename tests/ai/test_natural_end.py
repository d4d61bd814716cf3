"""Issue 33: all-AI games reach their natural end — many seeded games per game, level and
player count (``slow``; the quick tests of the mechanism: ``tests/ai/tigris/test_stall.py``).

Each game is played through the games' face (:mod:`rules.games`) by ``ai.make_agent``
players, every seat a fresh agent of one level, seeded from the game's seed. The samples are
what fits the slow suite's time on the 2-core machine (a heuristic game costs seconds); the
larger runs and their times are in ``docs/measurements/README.md``
(``python -m tests.ai.test_natural_end GAME LEVEL PLAYERS GAMES [FIRST_SEED [ITERATIONS]]``
measures one case; ``ITERATIONS``: a search's rollouts a decision).

Brazil: Imperial's games end when someone reveals an era III mission (R-END-1): every level
reveals a completed mission as soon as it may, and an overdue game (era III from round 60) is
played towards the era III mission (``ai.brazil.evaluate.overdue``): every level reveals a
completed era III mission at once (``ai.brazil.agents.ending_reveal``; before, the normal
level held one back when behind, and 4 of its first 13 seeded 2-player games played on for
ever), and marches on the opponents' tiles its mission needs
(``ai.brazil.evaluate.conquest_targets``: the all-random 3-player game of seed 130, its
supplies spent, played on for ever before) — ``docs/computer-players.md``.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import pytest

import ai
from rules.games import game

MAX_STEPS = {"tigris": 5_000, "brazil": 20_000}

CASES: list[tuple[str, str, int, int]] = [
    # (game, level, players, games)
    *[("tigris", "random", p, 200) for p in (2, 3, 4)],
    ("tigris", "heuristic", 2, 8),
    ("tigris", "heuristic", 3, 3),
    ("tigris", "heuristic", 4, 3),
    ("brazil", "random", 1, 200),
    *[("brazil", "random", p, 60) for p in (2, 3, 4)],
    ("brazil", "heuristic", 1, 20),
    ("brazil", "heuristic", 2, 12),  # seeds 6, 7, 9 and 11 played on for ever before
    *[("brazil", "heuristic", p, 2) for p in (3, 4)],
]


def play_to_end(name: str, level: str, players: int, seed: int, **options: Any) -> tuple[bool, int]:
    """(whether the game reached its natural end, decisions taken) for one seeded all-AI
    game of ``level`` players (``options``: the agents', e.g. a search's ``iterations``)."""
    g = game(name)
    rng = random.Random(f"natural-end:{name}:{level}:{players}:{seed}")
    agents = [
        ai.make_agent(level, seed=rng.getrandbits(32), game=name, **options) for _ in range(players)
    ]
    state = g.new_game(players, seed=seed)
    taken = 0
    while not g.is_over(state) and taken < MAX_STEPS[name]:
        seat = g.deciders(state)[0]
        state, _ = g.apply(state, agents[seat].decide(state, seat))
        taken += 1
    return g.is_over(state), taken


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "level", "players", "games"), CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}p" for c in CASES]
)
def test_all_ai_games_reach_their_natural_end(
    name: str, level: str, players: int, games: int
) -> None:
    endless = [s for s in range(games) if not play_to_end(name, level, players, s)[0]]
    assert endless == []


def main(argv: list[str]) -> None:
    name, level, players, games = argv[0], argv[1], int(argv[2]), int(argv[3])
    first = int(argv[4]) if len(argv) > 4 else 0
    options = {"iterations": int(argv[5])} if len(argv) > 5 else {}
    t0 = time.perf_counter()
    ends, steps, endless = 0, 0, []
    for s in range(first, first + games):
        over, taken = play_to_end(name, level, players, s, **options)
        ends += over
        steps += taken
        if not over:
            endless.append(s)
    el = time.perf_counter() - t0
    print(
        f"{name} {level} {players}p seeds {first}-{first + games - 1}: {ends}/{games} ended, "
        f"{steps / games:.0f} decisions a game, {el:.1f} s ({el / games:.2f} s a game); "
        f"endless: {endless}",
        flush=True,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
