"""Computer players for Brazil: Imperial (imports only the ``rules`` engine).

``make_agent(name, seed=…)`` returns an :class:`Agent` — ``random``, ``heuristic`` or
``search`` — whose ``decide(state, seat)`` returns one legal action for ``seat``. The caller
passes the full state; an agent decides only from ``rules.view(state, seat)`` (and, for
search, from random re-deals of that view), so it never uses what its seat may not see.
"""

from __future__ import annotations

from typing import Any

from ai.agents import Agent, HeuristicAgent, NoDecision, RandomAgent
from ai.search import DEFAULT_BUDGET, SearchAgent, redeal

AGENT_NAMES = ("random", "heuristic", "search")


def make_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """A new agent by name; ``options`` go to its constructor (e.g. ``budget=0.5`` or
    ``iterations=20`` for ``search``)."""
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
