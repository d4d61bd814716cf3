"""Self-play and speed of any game of the registry (:mod:`rules.games`), through its face:
``python -m rules selfplay --game tigris`` and ``python -m rules bench --game tigris``.

After every step of a seeded random game it checks what must hold for every game: listing
the legal actions changes nothing, every listed action's command reads back as that action
(notation round trip) and its JSON too, the state's JSON reads back equal, the game's own
invariants (:attr:`Game.check`: tile conservation, leaders per kingdom, views leak nothing,
…), and at the end that replaying the actions from the seed gives the same state."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from rules.games import Game


class InvariantError(AssertionError):
    """An invariant of self-play broke (the message says which, at which step)."""


@dataclass
class SelfPlay:
    players: int
    seed: int
    steps: int
    natural_end: bool


def play(
    g: Game,
    players: int,
    seed: int,
    *,
    check: bool = True,
    sample: int = 8,
    max_steps: int = 20_000,
) -> SelfPlay:
    """One seeded random game of ``g``; :class:`InvariantError` if an invariant breaks."""
    rng = random.Random(seed * 7919 + players)
    state = g.new_game(players, seed=seed)
    actions: list[Any] = []
    while not g.is_over(state) and len(actions) < max_steps:
        seat = g.deciders(state)[0]
        before = g.dump(state) if check else ""
        legal = g.legal_actions(state, seat)
        if not legal:
            raise InvariantError(f"step {len(actions)}: seat {seat} decides but has no action")
        if check:
            if g.dump(state) != before:
                raise InvariantError(f"step {len(actions)}: listing changed the state")
            for a in legal if len(legal) <= sample else rng.sample(legal, sample):
                if g.parse_text(state, seat, g.format_action(state, a)) != a:
                    raise InvariantError(f"step {len(actions)}: notation round trip of {a}")
                if g.action_from_json(g.action_to_json(a)) != a:
                    raise InvariantError(f"step {len(actions)}: JSON round trip of {a}")
        action = rng.choice(legal)
        state, _events = g.apply(state, action)
        actions.append(action)
        if check:
            if g.load(g.dump(state)) != state:
                raise InvariantError(f"step {len(actions)}: state JSON round trip")
            if g.check is not None:
                try:
                    g.check(state, rng)
                except AssertionError as e:
                    raise InvariantError(f"step {len(actions)}: {e}") from e
    if check:
        again = g.new_game(players, seed=seed)
        for a in actions:
            again, _ = g.apply(again, a)
        if g.dump(again) != g.dump(state):
            raise InvariantError("replaying the actions from the seed gave another state")
    return SelfPlay(players, seed, len(actions), g.is_over(state))


def bench(g: Game, players: int, seconds: float = 5.0, seed: int = 1) -> tuple[int, float]:
    """Random self-play without checks for about ``seconds``: (actions, actions per second),
    listing the legal actions at every step."""
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        rng = random.Random(seed)
        state = g.new_game(players, seed=seed)
        while not g.is_over(state) and time.perf_counter() - t0 < seconds:
            seat = g.deciders(state)[0]
            state, _ = g.apply(state, rng.choice(g.legal_actions(state, seat)))
            n += 1
        seed += 1
    el = time.perf_counter() - t0
    return n, n / el
