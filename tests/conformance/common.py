"""What the conformance tests share: the registered games, the cases (game, players, seed),
seeded random games recorded step by step, and the games' computer players.

Nothing here knows a game by name: every list comes from the registry (:mod:`rules.games`,
:mod:`rules.registry`), read when the tests are collected.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rules.games import Game, game, names
from rules.registry import RegistrationError, registration

GAMES: list[str] = names()
"""Every registered game, the default first (read at collection time)."""

SEEDS: tuple[int, ...] = (1, 2, 3)
"""The seeds every game is played with."""

MAX_STEPS = 1_200
"""A random game's bound (:func:`rules.selfplay.play` allows 20 000): a random game of the
registered games takes a few hundred steps; one not over after this many is reported (and
kept, truncated, for the other tests)."""


def player_counts(name: str) -> list[int]:
    """The player counts a game is tried with: its fewest, two (when allowed), its most."""
    g = game(name)
    counts = {g.min_players, g.max_players}
    if g.min_players <= 2 <= g.max_players:
        counts.add(2)
    return sorted(counts)


def two_and_most(name: str) -> list[int]:
    """A 2-player game (or the fewest players when 2 is not allowed) and the most (the same
    count twice for a game of one player count)."""
    g = game(name)
    return [min(max(2, g.min_players), g.max_players), g.max_players]


@dataclass(frozen=True)
class Case:
    """One seeded game of one registered game."""

    game: str
    players: int
    seed: int

    def __str__(self) -> str:
        return f"{self.game}-{self.players}p-seed{self.seed}"

    @property
    def face(self) -> Game:
        return game(self.game)


def cases(seeds: tuple[int, ...] = SEEDS) -> list[Case]:
    """Every game × its player counts × ``seeds`` (the player counts rotate over the seeds
    when there are more counts than seeds, so each count is played)."""
    out = []
    for name in GAMES:
        counts = player_counts(name)
        for seed in seeds:
            for players in counts:
                out.append(Case(name, players, seed))
    return out


def few_cases() -> list[Case]:
    """One case per game and seed, the player count rotating over the game's counts."""
    out = []
    for name in GAMES:
        counts = player_counts(name)
        for i, seed in enumerate(SEEDS):
            out.append(Case(name, counts[i % len(counts)], seed))
    return out


@dataclass(frozen=True)
class Recorded:
    """A seeded random game: the state's JSON before every step and at the end
    (``len(actions) + 1`` states), the actions and who took them, each step's events."""

    case: Case
    states: tuple[str, ...]
    actions: tuple[Any, ...]
    seats: tuple[int, ...]
    events: tuple[tuple[Any, ...], ...]
    over: bool

    def state(self, i: int) -> Any:
        """The state before step ``i`` (``len(actions)``: the final state), read back."""
        return self.case.face.load(self.states[i])

    def sample(self, n: int = 10) -> list[int]:
        """About ``n`` step indices spread over the game (the first and the last included)."""
        last = len(self.actions)
        if last == 0:
            return [0]
        return sorted({round(k * last / (n - 1)) for k in range(n)})


@functools.cache
def recorded(case: Case, max_steps: int = MAX_STEPS) -> Recorded:
    """``case`` played with uniformly random legal actions by whoever decides first (as
    :func:`rules.selfplay.play`), to its end or ``max_steps``."""
    g = case.face
    rng = random.Random(case.seed * 7919 + case.players)
    state = g.new_game(case.players, seed=case.seed)
    states = [g.dump(state)]
    actions: list[Any] = []
    seats: list[int] = []
    events: list[tuple[Any, ...]] = []
    while not g.is_over(state) and len(actions) < max_steps:
        seat = g.deciders(state)[0]
        action = rng.choice(g.legal_actions(state, seat))
        state, evs = g.apply(state, action)
        states.append(g.dump(state))
        actions.append(action)
        seats.append(seat)
        events.append(tuple(evs))
    return Recorded(
        case, tuple(states), tuple(actions), tuple(seats), tuple(events), g.is_over(state)
    )


def walk(rec: Recorded) -> Iterator[tuple[int, Any, Any, Any, list[Any]]]:
    """Replays ``rec`` in memory: (step, before, action, after, events) per step."""
    g = rec.case.face
    state = g.new_game(rec.case.players, seed=rec.case.seed)
    for i, action in enumerate(rec.actions):
        after, events = g.apply(state, action)
        yield i, state, action, after, list(events)
        state = after


# ---------------------------------------------------------------------------- agents

AgentFactory = Callable[..., Any]

TINY_SEARCH: tuple[dict[str, Any], ...] = ({"iterations": 1, "horizon": 2}, {"iterations": 1}, {})
"""The options tried, in turn, to make a computer player quick: a search of one short rollout
(``iterations``, ``horizon``: the searches' option names); a level that takes none of them
(``random``, ``heuristic``) is made without."""


def agent_factory(name: str) -> AgentFactory:
    """The game's computer players' factory, ``(level, seed=…, **options) -> agent``: its
    registration's ``agents``; when that does not resolve yet (Brazil: Imperial's
    ``ai.brazil`` lands on another branch), ``ai.make_agent`` with ``game=name``."""
    reg = registration(name)
    assert reg is not None, name
    try:
        factory: AgentFactory = reg.load("agents")
    except RegistrationError:
        import ai

        factory = functools.partial(ai.make_agent, game=name)
    return factory


def agent_levels(name: str) -> tuple[str, ...]:
    reg = registration(name)
    assert reg is not None, name
    return reg.agent_levels


def make_agent(name: str, level: str, seed: int) -> Any:
    """A quick computer player of ``level`` for game ``name`` (see :data:`TINY_SEARCH`)."""
    factory = agent_factory(name)
    for options in TINY_SEARCH:
        try:
            return factory(level, seed=seed, **options)
        except TypeError:
            if not options:
                raise
    raise AssertionError("unreachable")


def agent_cases() -> list[tuple[str, str, int]]:
    """(game, level, players) for each level of each game, 2 players and the most."""
    return [
        (name, level, players)
        for name in GAMES
        for level in agent_levels(name)
        for players in two_and_most(name)
    ]
