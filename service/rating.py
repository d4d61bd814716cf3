"""Skill ratings of players (issue #31): the model, the places a finished game gives its
seats, and the number players see. Pure: no store, no clock.

The library is OpenSkill (``openskill``, Weng and Lin's Bayesian approximation, the full
Bradley-Terry model: every pair of players compared, which suits our 2 to 4 players): it
rates a game in one update, with ties, from a Gaussian belief per player (``mu``,
``sigma``), and stays well kept and small (no runtime dependency). Its Plackett-Luce model
was tried first and set aside: with a tie for first it gave the second place the same gain as
the tied winners (``tests/service/test_rating.py`` checks every place pattern of 2-4 players:
a better place always gains more, tied places alike). Chosen over TrueSkill (patented by Microsoft, its Python package unmaintained
and slower on more than two teams) and over Glicko-2 (two players at a time: a four-player
game would be six pairwise "matches", which overweights it). Defaults: ``mu`` 25, ``sigma``
25/3 (a new player), ``beta`` 25/6, ``tau`` 25/300 (the drift that keeps old ratings movable).

The number shown is a conservative one, :func:`shown`: ``1000 + 25 × (mu − 3 sigma)`` — a new
player shows 1,000 and rises as games make the system surer of them, so a lucky first game
does not top the table; a rating is *provisional* until :data:`SETTLED_GAMES` rated games.

    new = rate([old_a, old_b, old_c], places=[1, 2, 2])   # a winner, then a tie
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

__all__ = [
    "MODEL",
    "NEW",
    "SETTLED_GAMES",
    "Rating",
    "ai_key",
    "places_of",
    "rate",
    "shown",
    "user_key",
]

MODEL = BradleyTerryFull()
"""The rating model (OpenSkill's full Bradley-Terry, its default constants)."""

SETTLED_GAMES = 5
"""Rated games after which a player's rating is no longer marked provisional."""


@dataclass(frozen=True)
class Rating:
    """A player's skill belief: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float


NEW = Rating(MODEL.mu, MODEL.sigma)
"""A player's rating before any rated game."""


def shown(r: Rating) -> int:
    """The rating players see: ``1000 + 25 × (mu − 3 sigma)``, rounded (a new player: 1000)."""
    return round(1000 + 25 * (r.mu - 3 * r.sigma))


def user_key(user_id: int) -> str:
    """A human player's identity on the scale (their Discord user id)."""
    return f"u:{user_id}"


def ai_key(level: str) -> str:
    """A computer player level's fixed identity on the scale of a game (``ai:heuristic``)."""
    return f"ai:{level}"


def places_of(scores: Mapping[int, int], winners: frozenset[int]) -> dict[int, int]:
    """Each seat's place (1: best; ties share a place) from a finished game's scores and
    winners: the winners first (the game's tie-breaks chose them among equal scores), then
    the others by score, equal scores tied."""
    order = sorted(scores, key=lambda seat: (seat not in winners, -scores[seat]))
    out: dict[int, int] = {}
    for n, seat in enumerate(order):
        prev = order[n - 1] if n else None
        same = prev is not None and (
            (prev in winners) == (seat in winners) and scores[prev] == scores[seat]
        )
        out[seat] = out[prev] if same and prev is not None else n + 1
    return out


def rate(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings after one game of ``len(ratings)`` players (2 or more) finishing at
    ``places`` (1: best; equal places are ties), each player on their own."""
    if len(ratings) < 2 or len(ratings) != len(places):
        raise ValueError("a rated game has 2 or more players, each with a place")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    new = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Rating(team[0].mu, team[0].sigma) for team in new]
