"""Ratings, leaderboards and seasons per server and game (issue #31), reached as
``svc.ratings`` (:class:`Ratings`). The model is :mod:`service.rating`'s; the tables are the
store's (:mod:`storage.ratings`); the rules are here (:data:`RULES`, ``docs/ratings.md``):

- a game is rated once, when it reaches its natural end, in the transaction that records its
  result (:meth:`service.core._Store.save` passes :data:`RULES` to the store's ``save``);
- only a game of a server (never a local one) with 2 or more seats, every seat scored, no
  local (hot-seat) seat and at least one human seat is rated; an abandoned game (a vote, a
  moderator's end, the pacing's) has no result and is never rated;
- a seat is rated for the human seated at the end; a seat an AI stand-in holds at the end is
  not rated (its owner's rating does not move) but counts as an opponent at the stand-in
  level's fixed rating; a computer seat plays at its level's fixed rating
  (:func:`ai_rating`, from the calibration in ``service/data/ai_ratings.json``) and is never
  updated by games;
- the game updates the server's all-time table of the game (season 0) and, when a season is
  running, the season's too.

    rows = await svc.ratings.leaderboard(guild_id, "brazil")
    row, history = await svc.ratings.of(guild_id, "brazil", user_id)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from i18n import msg
from service.ai_scale import ai_rating
from service.games import title_key
from service.rating import (
    NEW,
    SETTLED_GAMES,
    Rating,
    ai_key,
    places_of,
    rate,
    shown,
    user_key,
)
from service.results import Refused
from storage import InvalidData
from storage.models import Seat, SeatKind
from storage.ratings import Folded, RatedSeat, RatingRow, RatingRules, Season, Skill

if TYPE_CHECKING:
    from service.session import Core

__all__ = [
    "RULES",
    "Change",
    "Ratings",
    "Row",
    "ai_rating",
    "rated_seats",
    "stored_equal",
]

MAX_SEASON_NAME = 100


def _skill(r: Rating) -> Skill:
    return Skill(r.mu, r.sigma)


def rated_seats(game: str, seats: Sequence[Seat]) -> list[RatedSeat] | None:
    """The seats of a finished ``game`` (scored) to rate, with their places; None when the
    game is not rated (module doc)."""
    if len(seats) < 2 or any(s.score is None for s in seats):
        return None
    if any(s.kind is SeatKind.LOCAL for s in seats):
        return None
    scores = {s.seat: int(s.score or 0) for s in seats}
    places = places_of(scores, frozenset(s.seat for s in seats if s.winner))
    out: list[RatedSeat] = []
    for s in sorted(seats, key=lambda seat: seat.seat):
        if s.ai_level is not None:  # a computer seat, or a stand-in holding a human's seat
            fixed = _skill(ai_rating(game, s.ai_level))
            out.append(RatedSeat(s.seat, ai_key(s.ai_level), places[s.seat], fixed))
        elif s.user_id is not None:
            out.append(RatedSeat(s.seat, user_key(s.user_id), places[s.seat]))
        else:
            return None
    if all(p.fixed is not None for p in out):
        return None
    return out


def _rate(before: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    return [_skill(r) for r in rate([Rating(b.mu, b.sigma) for b in before], places)]


RULES = RatingRules(plan=rated_seats, rate=_rate, new=_skill(NEW))
"""The rating rules the store applies when a game ends (module doc)."""


@dataclass(frozen=True)
class Row:
    """One line of a table: the player's key, display name (their seat's name; None when
    none was kept: never a user id), the rating players see, rated games, whether it is
    still provisional, and the place (ties share one)."""

    player: str
    user_id: int | None
    name: str | None
    rating: int
    games: int
    provisional: bool
    place: int
    mu: float
    sigma: float


@dataclass(frozen=True)
class Change:
    """One rated game in a player's history: the game, when it finished, the shown rating
    before and after, and the place."""

    game_id: int
    when: datetime | None
    before: int
    after: int
    place: int


def _user_of(player: str) -> int | None:
    kind, _, rest = player.partition(":")
    return int(rest) if kind == "u" and rest.isdigit() else None


class Ratings:
    """The server's ratings of each game: tables, a player's rating and history, seasons
    (module doc). Reached as ``svc.ratings``."""

    rules = RULES

    def __init__(self, svc: Core) -> None:
        self.svc = svc

    async def table(self, guild_id: int, game: str, season: int | None = None) -> list[Row]:
        """The whole table (``season`` None: all-time), best first."""
        rows = await self.svc.store.ratings(guild_id, game, season=season or 0)
        users = [u for u in (_user_of(r.player) for r in rows) if u is not None]
        names = await self.svc.store.seat_names(guild_id, game, users)
        ranked = sorted(
            rows,
            key=lambda r: (-shown(Rating(r.mu, r.sigma)), -r.mu, -r.games, r.player),
        )
        out: list[Row] = []
        for n, r in enumerate(ranked):
            value = shown(Rating(r.mu, r.sigma))
            place = out[-1].place if out and out[-1].rating == value else n + 1
            user = _user_of(r.player)
            out.append(
                Row(
                    player=r.player,
                    user_id=user,
                    name=None if user is None else names.get(user),
                    rating=value,
                    games=r.games,
                    provisional=r.games < SETTLED_GAMES,
                    place=place,
                    mu=r.mu,
                    sigma=r.sigma,
                )
            )
        return out

    async def leaderboard(
        self, guild_id: int, game: str, season: int | None = None, limit: int = 10
    ) -> list[Row]:
        """The top ``limit`` players of the server's game (``season`` None: all-time)."""
        return (await self.table(guild_id, game, season))[: max(0, limit)]

    async def place_of(
        self, guild_id: int, game: str, user_id: int, season: int | None = None
    ) -> Row | None:
        """The user's line of the table (their place in it), None if not rated yet."""
        key = user_key(user_id)
        return next((r for r in await self.table(guild_id, game, season) if r.player == key), None)

    async def of(
        self, guild_id: int, game: str, user_id: int, season: int | None = None
    ) -> tuple[Row | None, list[Change]]:
        """The user's line (None: no rated game yet) and history, oldest first."""
        row = await self.place_of(guild_id, game, user_id, season)
        changes = await self.svc.store.rating_changes(
            guild_id, game, player=user_key(user_id), season=season or 0
        )
        history = [
            Change(
                game_id=c.game_id,
                when=c.finished_at,
                before=shown(Rating(c.mu_before, c.sigma_before)),
                after=shown(Rating(c.mu_after, c.sigma_after)),
                place=c.place,
            )
            for c in changes
        ]
        return row, history

    # ---------------------------------------------------------------- seasons

    async def seasons(self, guild_id: int, game: str) -> list[Season]:
        """The server's game's seasons, oldest first (the last may be running)."""
        return await self.svc.store.seasons(guild_id, game)

    async def start_season(self, guild_id: int, game: str, name: str, by: int) -> Season:
        """Start a season of the server's game, by (admin) user ``by``. ``Refused`` when the
        name is empty or too long, when one is running, or when the game already had a season
        of that name here (the game named by its title in the reader's words)."""
        clean = " ".join(name.split())
        title = "@" + title_key(game)
        if not 1 <= len(clean) <= MAX_SEASON_NAME:
            raise Refused(msg("svc.ratings.season.name", most=MAX_SEASON_NAME))
        seasons = await self.seasons(guild_id, game)
        running = [s for s in seasons if s.running]
        if running:
            raise Refused(msg("svc.ratings.season.running", title=title, name=running[-1].name))
        if any(s.name.casefold() == clean.casefold() for s in seasons):
            raise Refused(msg("svc.ratings.season.taken", title=title, name=clean))
        try:
            return await self.svc.store.start_season(guild_id, game, clean, by=by)
        except InvalidData as e:  # started meanwhile by another admin
            raise Refused(msg("svc.ratings.season.running", title=title, name=clean)) from e

    async def end_season(self, guild_id: int, game: str, by: int) -> Season:
        """End the running season (its table is kept as it is). ``Refused`` when none runs."""
        try:
            return await self.svc.store.end_season(guild_id, game, by=by)
        except InvalidData as e:
            raise Refused(msg("svc.ratings.season.none", title="@" + title_key(game))) from e

    # ---------------------------------------------------------------- replay

    async def recompute(self, guild_id: int, game: str) -> Folded:
        """The tables recomputed from the stored results (writes nothing): equal to the
        stored ones (``docs/ratings.md``)."""
        return await self.svc.store.fold_ratings(guild_id, game, RULES)

    async def take_back(self, guild_id: int, game: str) -> Folded:
        """Rebuild the server's game's tables from the stored results: what a game taken
        back from its finished state had changed goes away."""
        return await self.svc.store.rebuild_ratings(guild_id, game, RULES)


def stored_equal(folded: Folded, rows: Sequence[RatingRow], season: int = 0) -> bool:
    """Whether a fold's table ``season`` equals the stored rows."""
    mine = sorted((r for (s, _), r in folded.rows.items() if s == season), key=lambda r: r.player)
    return mine == sorted(rows, key=lambda r: r.player)
