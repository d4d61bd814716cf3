"""Computer players for Brazil: Imperial (imports only the ``rules`` engine).

The same interface as Tigris & Euphrates' players (:mod:`ai.tigris`): ``make_agent(name,
seed=…)`` returns an agent — ``random``, ``heuristic`` or ``search`` — whose
``decide(state, seat)`` returns one legal action for ``seat``, decided from
``rules.brazil.view(state, seat)`` only (and, for search, from random re-deals of that view:
:func:`redeal`).
"""

from __future__ import annotations

from typing import Any

from ai import DEFAULT_BUDGET
from ai.brazil.agents import HeuristicAgent, NoDecision, RandomAgent
from ai.brazil.search import SearchAgent, redeal

AGENT_NAMES = ("random", "heuristic", "search")

Agent = RandomAgent | HeuristicAgent | SearchAgent


def make_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """A new Brazil: Imperial agent by name; ``options`` go to its constructor (e.g.
    ``budget=0.5`` or ``iterations=20`` for ``search``)."""
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(seed, **options)
    if name == "search":
        return SearchAgent(seed, **options)
    raise ValueError(f"unknown agent {name!r}: choose from {', '.join(AGENT_NAMES)}")


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
