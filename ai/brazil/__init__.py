"""Computer players for Brazil: Imperial (imports only the ``rules`` engine).

The same interface as Tigris & Euphrates' players (:mod:`ai.tigris`): ``make_agent(name,
seed=…)`` returns an agent — ``random``, ``heuristic`` or ``search`` — whose
``decide(state, seat)`` returns one legal action for ``seat``, decided from
``rules.brazil.view(state, seat)`` only (and, for search, from random re-deals of that view:
:func:`redeal`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ai import DEFAULT_BUDGET, by_level
from ai.brazil.agents import HeuristicAgent, NoDecision, RandomAgent
from ai.brazil.search import SearchAgent, redeal

Agent = RandomAgent | HeuristicAgent | SearchAgent
LEVELS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "search": SearchAgent,
}
AGENT_NAMES = tuple(LEVELS)


def make_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """A new Brazil: Imperial agent by name; ``options`` go to its constructor (e.g.
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
    "redeal",
]
