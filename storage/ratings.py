"""Skill ratings as storage keeps them (schema 13, issue #31): the rows, and the fold that
recomputes them from the stored results.

Storage does not know the rating model (that is :mod:`service.rating`'s): the service hands
the store a :class:`RatingRules` value with the result of a game's last step
(:meth:`~storage.base.GameRecords.save`), and the store, inside the transaction that
records the result, reads the seats' current ratings, calls the rules' pure functions and
writes the new ratings and the game's changes. The same rules fold the stored results
again (:func:`fold`): the tables a store holds always equal that fold.

Three tables, per server (``guild_id``) and game (``game``, a game name):

- ``ratings``: one row per ``(guild_id, game, season, player)`` — the player's ``mu``,
  ``sigma``, rated ``games`` count and ``updated_at``; season 0 is the all-time table.
  A ``player`` is a key such as ``u:<user id>`` (:func:`service.rating.user_key`); computer
  levels (``ai:<level>``) are fixed points and have no row.
- ``rating_changes``: one row per ``(game_id, season, seat)`` of a rated game: the player,
  their place, whether the seat played at a fixed rating, and ``mu``/``sigma`` before and
  after (equal for a fixed seat).
- ``seasons``: one row per ``(guild_id, game, number)`` (numbers from 1): its name, when and
  by whom it was started and ended. A game counts in season ``n`` when it finished at or
  after the start and before the end (:func:`seasons_at`); an ended season's rows stay as
  they were: its final table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from pydantic import AwareDatetime, BaseModel, ConfigDict

from storage.models import Seat

__all__ = [
    "FinishedGame",
    "Folded",
    "RatedSeat",
    "RatingChange",
    "RatingRow",
    "RatingRules",
    "RatingTables",
    "Season",
    "Skill",
    "fold",
    "rate_game",
    "seasons_at",
]


@dataclass(frozen=True)
class Skill:
    """A rating as stored: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a rated game: who (``player`` key), its ``place`` (1: best; ties share
    one) and, for a seat that plays at a fixed rating (a computer level, an AI stand-in),
    that rating (``fixed``; its player's row is neither read nor written)."""

    seat: int
    player: str
    place: int
    fixed: Skill | None = None


Plan = Callable[[str, Sequence[Seat]], Sequence[RatedSeat] | None]
"""The seats of a finished game (``game`` name, seats with scores and winners) to rate, or
None: the game is not rated."""

Rate = Callable[[Sequence[Skill], Sequence[int]], Sequence[Skill]]
"""The ratings after one game, from the ratings before and the places (pure)."""


@dataclass(frozen=True)
class RatingRules:
    """How finished games are rated (the service's model, given to the store as data):
    ``plan`` picks the rated seats, ``rate`` updates the ratings, ``new`` is a player's
    rating before any rated game. All pure: the store calls them inside its transaction and
    :func:`fold` calls them again."""

    plan: Plan
    rate: Rate
    new: Skill


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RatingRow(_Frozen):
    """A player's rating in one table: ``season`` 0 is the all-time one."""

    guild_id: int
    game: str
    season: int
    player: str
    mu: float
    sigma: float
    games: int
    updated_at: AwareDatetime


class RatingChange(_Frozen):
    """What one game did to one seat's rating in one table (``season`` 0: all-time);
    ``finished_at``: when the game finished (read with the change, not stored in it)."""

    game_id: int
    season: int
    seat: int
    player: str
    place: int
    fixed: bool
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    finished_at: AwareDatetime | None = None


class Season(_Frozen):
    """A season of a server's game: number (from 1), name, start and end (None: running)."""

    guild_id: int
    game: str
    number: int
    name: str
    started_at: AwareDatetime
    started_by: int
    ended_at: AwareDatetime | None = None
    ended_by: int | None = None

    @property
    def running(self) -> bool:
        return self.ended_at is None


class RatingTables(_Frozen):
    """Every rating row and every season of a store (what copies and backups carry besides
    the games; each game's changes travel with the game)."""

    ratings: tuple[RatingRow, ...] = ()
    seasons: tuple[Season, ...] = ()


def seasons_at(seasons: Sequence[Season], at: datetime) -> list[int]:
    """The tables a game finished at ``at`` counts in: 0 (all-time) and each season started
    at or before ``at`` and not ended by then."""
    running = [
        s.number for s in seasons if s.started_at <= at and (s.ended_at is None or at < s.ended_at)
    ]
    return [0, *sorted(running)]


def rate_game(
    rules: RatingRules,
    plan: Sequence[RatedSeat],
    current: Mapping[str, Skill],
    *,
    game_id: int,
    season: int,
) -> list[RatingChange]:
    """The changes one game makes to one table: each seat before (its ``fixed`` rating, its
    ``current`` one, or new) and after (``rules.rate``; a fixed seat does not move)."""
    before = [p.fixed if p.fixed is not None else current.get(p.player, rules.new) for p in plan]
    after = list(rules.rate(before, [p.place for p in plan]))
    if len(after) != len(plan):
        raise ValueError("the rating rules returned a rating per seat")
    return [
        RatingChange(
            game_id=game_id,
            season=season,
            seat=p.seat,
            player=p.player,
            place=p.place,
            fixed=p.fixed is not None,
            mu_before=b.mu,
            sigma_before=b.sigma,
            mu_after=b.mu if p.fixed is not None else a.mu,
            sigma_after=b.sigma if p.fixed is not None else a.sigma,
        )
        for p, b, a in zip(plan, before, after, strict=True)
    ]


def check_plan(plan: Sequence[RatedSeat] | None) -> Sequence[RatedSeat] | None:
    """``plan`` if it rates somebody: 2 or more seats, one player per seat, at least one
    seat not fixed; None otherwise (the game is not rated)."""
    if plan is None or len(plan) < 2:
        return None
    rated = [p.player for p in plan if p.fixed is None]
    if not rated or len(set(rated)) != len(rated) or len({p.seat for p in plan}) != len(plan):
        return None
    return plan


@dataclass(frozen=True)
class FinishedGame:
    """A rated game as the fold reads it: id, finish time, seats (with scores and winners),
    and the fixed ratings its fixed seats played at (by seat, as recorded)."""

    game_id: int
    finished_at: datetime
    seats: tuple[Seat, ...]
    fixed: Mapping[int, Skill] = field(default_factory=dict)


@dataclass
class Folded:
    """The tables a fold gives: rows by ``(season, player)`` and every change, in order."""

    rows: dict[tuple[int, str], RatingRow] = field(default_factory=dict)
    changes: list[RatingChange] = field(default_factory=list)


def plan_of(rules: RatingRules, game: str, g: FinishedGame) -> Sequence[RatedSeat] | None:
    """The game's rated seats, the fixed ones at the ratings they were recorded with."""
    plan = check_plan(rules.plan(game, g.seats))
    if plan is None:
        return None
    return [
        RatedSeat(p.seat, p.player, p.place, g.fixed.get(p.seat, p.fixed))
        if p.fixed is not None
        else p
        for p in plan
    ]


def fold(
    rules: RatingRules,
    guild_id: int,
    game: str,
    games: Sequence[FinishedGame],
    seasons: Sequence[Season],
) -> Folded:
    """Every table of ``(guild_id, game)`` recomputed from its rated games' results, folded
    in order (finish time, then game id)."""
    out = Folded()
    for g in sorted(games, key=lambda g: (g.finished_at, g.game_id)):
        plan = plan_of(rules, game, g)
        if plan is None:
            continue
        for season in seasons_at(seasons, g.finished_at):
            current = {
                player: Skill(row.mu, row.sigma)
                for (s, player), row in out.rows.items()
                if s == season
            }
            changes = rate_game(rules, plan, current, game_id=g.game_id, season=season)
            for c in changes:
                if c.fixed:
                    continue
                old = out.rows.get((season, c.player))
                out.rows[(season, c.player)] = RatingRow(
                    guild_id=guild_id,
                    game=game,
                    season=season,
                    player=c.player,
                    mu=c.mu_after,
                    sigma=c.sigma_after,
                    games=(old.games if old else 0) + 1,
                    updated_at=g.finished_at,
                )
            out.changes.extend(changes)
    return out
