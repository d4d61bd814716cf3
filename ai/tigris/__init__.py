"""Computer players for Tigris & Euphrates (imports only the ``rules`` engine).

The same interface as Brazil: Imperial's players (:mod:`ai.brazil`): ``make_agent(name,
seed=…)`` returns an agent — ``random``, ``heuristic`` or ``search`` — whose
``decide(state, seat)`` returns one legal action for ``seat``, decided from
``rules.tigris.view(state, seat)`` only.
"""

from __future__ import annotations

from typing import Any

from ai import DEFAULT_BUDGET
from ai.tigris.agents import HeuristicAgent, NoDecision, RandomAgent
from ai.tigris.search import SearchAgent

AGENT_NAMES = ("random", "heuristic", "search")

Agent = RandomAgent | HeuristicAgent | SearchAgent


def make_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """A new Tigris & Euphrates agent by name; ``options`` go to its constructor (e.g.
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
]
