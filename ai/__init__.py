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

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ai.report import Report

AGENT_NAMES = ("random", "heuristic", "search")
GAMES = ("brazil", "tigris")
DEFAULT_BUDGET = 2.0
"""The search's default seconds per decision, in either game (:mod:`ai.brazil.search`,
:mod:`ai.tigris.search`)."""


class Agent(Protocol):
    """A computer player: ``decide`` returns one legal action for ``seat`` (``state``: the
    game's state, a Brazil: Imperial ``GameState`` or a Tigris & Euphrates ``TigrisState``)."""

    name: str

    def decide(self, state: Any, seat: int) -> Any: ...


def _unknown_game(game: str) -> ValueError:
    return ValueError(f"unknown game {game!r}: choose from {', '.join(GAMES)}")


def make_agent(name: str, seed: int = 0, game: str = "brazil", **options: Any) -> Agent:
    """A new agent by name for ``game`` (``brazil``, the default, or ``tigris``);
    ``options`` go to its constructor (e.g. ``budget=0.5`` or ``iterations=20`` for
    ``search``)."""
    if game == "brazil":
        import ai.brazil

        return ai.brazil.make_agent(name, seed, **options)
    if game == "tigris":
        import ai.tigris

        return ai.tigris.make_agent(name, seed, **options)
    raise _unknown_game(game)


def run_tournament(
    names: list[str],
    games: int,
    *,
    seed: int = 0,
    max_rounds: int = 60,
    budget: float | None = None,
    iterations: int | None = None,
    game: str = "brazil",
) -> Report:
    """Play ``games`` games of ``len(names)`` players of ``game`` (``brazil``, the default:
    :func:`ai.brazil.tournament.run_tournament`; ``tigris``:
    :func:`ai.tigris.tournament.run_tournament`, where ``max_rounds`` is not used: every
    game runs to its natural end). ``budget``/``iterations`` configure any search agents."""
    if game == "brazil":
        from ai.brazil.tournament import run_tournament as run_brazil

        return run_brazil(
            names, games, seed=seed, max_rounds=max_rounds, budget=budget, iterations=iterations
        )
    if game == "tigris":
        from ai.tigris.tournament import run_tournament as run_tigris

        return run_tigris(names, games, seed=seed, budget=budget, iterations=iterations)
    raise _unknown_game(game)


__all__ = [
    "AGENT_NAMES",
    "DEFAULT_BUDGET",
    "GAMES",
    "Agent",
    "make_agent",
    "run_tournament",
]
