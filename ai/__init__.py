"""Computer players for Brazil: Imperial and Tigris & Euphrates (imports only the ``rules``
engine).

``make_agent(name, seed=…)`` returns an :class:`Agent` — ``random``, ``heuristic`` or
``search`` — whose ``decide(state, seat)`` returns one legal action for ``seat``. The caller
passes the full state; an agent decides only from ``rules.brazil.view(state, seat)`` (and, for
search, from random re-deals of that view), so it never uses what its seat may not see.
``make_agent(name, seed, game="tigris")`` gives the Tigris & Euphrates players
(:mod:`ai.tigris`); Brazil: Imperial is the default.
"""

from __future__ import annotations

from typing import Any

from ai.agents import Agent, HeuristicAgent, NoDecision, RandomAgent
from ai.search import DEFAULT_BUDGET, SearchAgent, redeal

AGENT_NAMES = ("random", "heuristic", "search")
GAMES = ("brazil", "tigris")


def make_agent(name: str, seed: int = 0, game: str = "brazil", **options: Any) -> Agent:
    """A new agent by name for ``game`` (``brazil``, the default, or ``tigris``);
    ``options`` go to its constructor (e.g. ``budget=0.5`` or ``iterations=20`` for
    ``search``)."""
    if game == "tigris":
        import ai.tigris

        return ai.tigris.make_agent(name, seed, **options)
    if game != "brazil":
        raise ValueError(f"unknown game {game!r}: choose from {', '.join(GAMES)}")
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
    "GAMES",
    "Agent",
    "HeuristicAgent",
    "NoDecision",
    "RandomAgent",
    "SearchAgent",
    "make_agent",
    "redeal",
]
