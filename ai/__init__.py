"""Computer players for Brazil: Imperial and Tigris & Euphrates (imports only the ``rules``
engine), one package per game side by side: :mod:`ai.brazil` and :mod:`ai.tigris`.

``make_agent(name, seed=…, game=…)`` returns an :class:`Agent` of that game — ``random``,
``heuristic`` or ``search`` — whose ``decide(state, seat)`` returns one legal action for
``seat``. The caller passes the full state; an agent decides only from its game's
``view(state, seat)`` (and, for search, from random re-deals of that view), so it never uses
what its seat may not see. ``run_tournament(…, game=…)`` plays a game's agents against each
other (:mod:`ai.report`: the report, shared). A game's package is imported the first time
that game is asked for; Brazil: Imperial is the default argument.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rules.registry import Registration, default_name, registrations

if TYPE_CHECKING:
    from ai.report import Report

AGENT_NAMES = ("random", "heuristic", "search")
"""The levels every registered game's computer players have (a game's registration lists its
own, ``agent_levels``)."""
GAMES = tuple(name for name, reg in registrations().items() if reg.agents)
"""The registered games that have computer players."""
A = TypeVar("A")
DEFAULT_BUDGET = 2.0
"""The search's default seconds per decision, in every game (:mod:`ai.brazil.search`,
:mod:`ai.tigris.search`)."""


class Agent(Protocol):
    """A computer player: ``decide`` returns one legal action for ``seat`` (``state``: the
    state of the agent's game)."""

    name: str

    def decide(self, state: Any, seat: int) -> Any: ...


def by_level(
    name: str, seed: int, options: Mapping[str, Any], levels: Mapping[str, Callable[..., A]]
) -> A:
    """A game's agent of level ``name`` from its classes by level (the way every game's
    ``make_agent`` picks one): the ``random`` level takes the seed alone, the others
    ``options`` too (``budget=0.5``, ``iterations=20``…); a ``ValueError`` naming the levels
    otherwise."""
    make = levels.get(name)
    if make is None:
        raise ValueError(f"unknown agent {name!r}: choose from {', '.join(levels)}")
    return make(seed) if name == "random" else make(seed, **options)


def _registered(game: str | None, ref: str) -> Registration:
    name = default_name() if game is None else game
    reg = registrations().get(name)
    if reg is None or not getattr(reg, ref):
        raise ValueError(f"unknown game {name!r}: choose from {', '.join(GAMES)}")
    return reg


def make_agent(name: str, seed: int = 0, game: str | None = None, **options: Any) -> Agent:
    """A new agent by name for ``game`` (a registered game's name; None: the default game);
    ``options`` go to its constructor (e.g. ``budget=0.5`` or ``iterations=20`` for
    ``search``)."""
    agent: Agent = _registered(game, "agents").load("agents")(name, seed, **options)
    return agent


def run_tournament(
    names: list[str],
    games: int,
    *,
    seed: int = 0,
    max_rounds: int = 60,
    budget: float | None = None,
    iterations: int | None = None,
    game: str | None = None,
    workers: int = 1,
    paired: bool = False,
) -> Report:
    """Play ``games`` games of ``len(names)`` players of ``game`` (None: the default game)
    with its registered tournament (``max_rounds``: a round limit where the game has rounds
    without a natural end). ``budget``/``iterations`` configure any search agents;
    ``workers``: processes the games are spread over; ``paired``: the games in groups on one
    deal with the seats rotated (:func:`ai.report.seating`)."""
    run = _registered(game, "tournament").load("tournament")
    report: Report = run(
        names,
        games,
        seed=seed,
        max_rounds=max_rounds,
        budget=budget,
        iterations=iterations,
        workers=workers,
        paired=paired,
    )
    return report


__all__ = [
    "AGENT_NAMES",
    "DEFAULT_BUDGET",
    "GAMES",
    "Agent",
    "by_level",
    "make_agent",
    "run_tournament",
]
