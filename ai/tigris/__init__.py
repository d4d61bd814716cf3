"""Computer players for Tigris & Euphrates (imports only the ``rules`` engine).

The same interface as Brazil: Imperial's players (:mod:`ai.brazil`): ``make_agent(name,
seed=…)`` returns an agent — ``random``, ``heuristic`` or ``search`` — whose
``decide(state, seat)`` returns one legal action for ``seat``, decided from
``rules.tigris.view(state, seat)`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ai import DEFAULT_BUDGET, by_level
from ai.tigris.agents import HeuristicAgent, NoDecision, RandomAgent
from ai.tigris.search import SearchAgent

Agent = RandomAgent | HeuristicAgent | SearchAgent
LEVELS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "search": SearchAgent,
}
AGENT_NAMES = tuple(LEVELS)


def make_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """A new Tigris & Euphrates agent by name; ``options`` go to its constructor (e.g.
    ``budget=0.5`` or ``iterations=20`` for ``search``)."""
    return by_level(name, seed, options, LEVELS)


__all__ = [
    "AGENT_NAMES",
    "DEFAULT_BUDGET",
    "Agent",
    "HeuristicAgent",
    "NoDecision",
    "RandomAgent",
    "SearchAgent",
    "make_agent",
]
