"""Seeded random games recorded step by step, shared by the event and undo tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

from rules.brazil.engine import apply, legal_actions
from rules.brazil.setup import new_game
from rules.brazil.undo import Step

# (players, seed): a mix of player counts, long enough to reach battles and era changes.
GAMES = [(1, 11), (2, 21), (2, 22), (3, 31), (4, 41), (4, 42)]
MAX_STEPS = 500


def play(players: int, seed: int, max_steps: int = MAX_STEPS) -> Iterator[Step]:
    """The steps of one seeded random game: (before, action, after, events)."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    for _ in range(max_steps):
        if state.phase == "ended":
            return
        # Listed on a copy: listing must not touch the state (issue 7, defect 1), and a
        # recorded step must stay exactly what was applied.
        action = rng.choice(legal_actions(state.clone()))
        after, events = apply(state, action)
        yield state, action, after, events
        state = after


@cache
def recorded(players: int, seed: int) -> tuple[Step, ...]:
    return tuple(play(players, seed))


def all_steps() -> Iterator[tuple[int, int, Step]]:
    for players, seed in GAMES:
        for step in recorded(players, seed):
            yield players, seed, step
