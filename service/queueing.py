"""The matchmaking queue's use cases (issue #31), surface-neutral: join, leave, where a player
stands, the tables the queues form now, and opening a table's game through the lobby API
(as ``/game new``, the joins and the start would). The entries are kept in the store
(:class:`storage.base.QueueStore`: a restart loses nobody's place); the matching itself is
:mod:`service.queue`'s, pure.

Until the ratings store lands, a player's rating comes from :func:`rating_for` alone, and
the computer levels' ratings from :func:`level_ratings` alone (see their docs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from i18n import msg
from service.games import UnknownGame, adapter, names, title_key
from service.moderation import AI_LEVELS
from service.queue import (
    DEFAULT_MAX_WAIT,
    Entrant,
    Table,
    active_hours,
    match,
    window,
)
from service.rating import NEW, Rating, shown
from service.ratings import ai_rating
from service.results import Refused, Result
from storage import GameStatus
from storage.queue import QueueEntry

if TYPE_CHECKING:
    from service.game import GameService

__all__ = [
    "Formed",
    "QueueService",
    "Standing",
    "level_ratings",
    "max_wait_of",
    "queue_sizes",
    "rating_for",
]


async def rating_for(svc: GameService, guild_id: int, game: str, user_id: int) -> Rating:
    """A player's all-time rating on the server for ``game`` (:attr:`svc.ratings`; a new
    player's, :data:`service.rating.NEW`, before their first rated game)."""
    row = await svc.ratings.place_of(guild_id, game, user_id)
    return Rating(row.mu, row.sigma) if row is not None else NEW


def level_ratings(game: str) -> list[tuple[str, int | None]]:
    """The computer levels of ``game``, the lowest first, with their calibrated shown
    ratings (:func:`service.ratings.ai_rating`; None for a level the calibration has not
    rated: a table is then filled at the lowest level)."""
    out: list[tuple[str, int | None]] = []
    for level in AI_LEVELS:
        r = ai_rating(game, level)
        out.append((level, None if r == NEW else shown(r)))
    return out


@dataclass(frozen=True)
class Standing:
    """Where a player stands in one queue: the queue (game, table size), how many wait in
    it, their place (1: the longest waiting), how long they have waited, their shown rating
    and the rating window now, and when computer players fill their table (None: never)."""

    entry: QueueEntry
    waiting: int
    place: int
    waited: timedelta
    rating: int
    window: int
    fill_at: datetime | None


@dataclass(frozen=True)
class Formed:
    """A table the queue formed: the table and the stored entries of its human players (the
    anchor's first: its game opens where they joined)."""

    table: Table
    entries: tuple[QueueEntry, ...]

    @property
    def game(self) -> str:
        return self.entries[0].game

    @property
    def guild_id(self) -> int:
        return self.entries[0].guild_id

    @property
    def channel_id(self) -> int:
        return self.entries[0].channel_id

    @property
    def players(self) -> int:
        return self.entries[0].players


class QueueService:
    """The queue's use cases over one game service (see module doc)."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc

    # ---------------------------------------------------------------- a player's requests

    async def join(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        game: str,
        players: int,
        *,
        ai_fill: bool = False,
        max_wait: timedelta | None = None,
    ) -> QueueEntry:
        """``user_id`` waits on the server for a table of ``players`` of ``game``. Joining
        the same queue again keeps their place (a changed table size or filler choice is
        kept too; a changed size starts a new wait). Refused for an unknown game, a table
        size outside the game's range or a solo table, or a wait under a minute."""
        name = game.strip().lower()
        try:
            A = adapter(name)
        except UnknownGame as e:
            raise Refused(msg("svc.lobby.no_game", game=name, games=", ".join(names()))) from e
        lo, hi = A.face.min_players, A.face.max_players
        if not max(lo, 2) <= players <= hi:
            title = f"@{title_key(A.name)}"
            raise Refused(msg("svc.queue.players", title=title, min=max(lo, 2), max=hi))
        if max_wait is not None and max_wait < timedelta(minutes=1):
            raise Refused(msg("svc.queue.short_wait"))
        now = self.svc.store.now()
        before = await self.svc.store.queue_entries(guild_id, game=A.name, user_id=user_id)
        joined = before[0].joined_at if before and before[0].players == players else now
        entry = QueueEntry(
            guild_id=guild_id,
            game=A.name,
            user_id=user_id,
            players=players,
            channel_id=channel_id,
            joined_at=joined,
            ai_fill=ai_fill,
            max_wait_seconds=None if max_wait is None else int(max_wait.total_seconds()),
        )
        return await self.svc.store.queue_put(entry)

    async def leave(self, guild_id: int, user_id: int, game: str | None = None) -> int:
        """``user_id`` leaves the server's queues (``game``: that game's only); how many."""
        name = None if game is None else game.strip().lower()
        return await self.svc.store.queue_remove(guild_id, user_id, name)

    async def standing(self, guild_id: int, user_id: int) -> list[Standing]:
        """Where ``user_id`` stands in each of the server's queues they wait in."""
        now = self.svc.store.now()
        out: list[Standing] = []
        for mine in await self.svc.store.queue_entries(guild_id, user_id=user_id):
            queue = [
                e
                for e in await self.svc.store.queue_entries(guild_id, game=mine.game)
                if e.players == mine.players
            ]
            place = 1 + sum(
                1 for e in queue if (e.joined_at, e.user_id) < (mine.joined_at, user_id)
            )
            waited = now - mine.joined_at
            rating = await rating_for(self.svc, guild_id, mine.game, user_id)
            fill_at = mine.joined_at + max_wait_of(mine) if mine.ai_fill else None
            out.append(
                Standing(mine, len(queue), place, waited, shown(rating), window(waited), fill_at)
            )
        return out

    # ---------------------------------------------------------------- the tables

    async def entrant(self, e: QueueEntry, now: datetime) -> Entrant:
        """A stored entry as the matching sees it: rating, active hours today, filler."""
        prefs = await self.svc.store.get_player_prefs(e.user_id)
        hours = active_hours(prefs.tz, prefs.quiet_start, prefs.quiet_end, now.date())
        rating = await rating_for(self.svc, e.guild_id, e.game, e.user_id)
        return Entrant(e.user_id, shown(rating), e.joined_at, hours, e.ai_fill, max_wait_of(e))

    async def tables(
        self, guild_id: int | None = None, *, now: datetime | None = None
    ) -> list[Formed]:
        """The tables the server's queues (every server's: None) form now; nothing is taken
        out yet (:meth:`take`). A player at the server's cap on running games
        (:meth:`service.lobby.Lobbies.check_cap`) is left waiting; nobody is at two tables,
        even one waiting in several queues."""
        at = now or self.svc.store.now()
        queues: dict[tuple[int, str, int], list[QueueEntry]] = {}
        for e in await self.svc.store.queue_entries(guild_id):
            queues.setdefault((e.guild_id, e.game, e.players), []).append(e)
        capped: set[tuple[int, int]] = set()
        for (guild, _, _), entries in queues.items():
            for e in entries:
                if (guild, e.user_id) in capped:
                    continue
                try:
                    await self.svc.lobbies.check_cap(e.user_id, guild)
                except Refused:
                    capped.add((guild, e.user_id))
        taken: set[tuple[int, int]] = set()
        out: list[Formed] = []
        for (guild, game, players), entries in sorted(queues.items()):
            free = [e for e in entries if (guild, e.user_id) not in capped | taken]
            by_user = {e.user_id: e for e in free}
            entrants = [await self.entrant(e, at) for e in free]
            for table in match(entrants, players, at, level_ratings(game)):
                stored = tuple(by_user[h.user_id] for h in table.humans)
                taken.update((guild, h.user_id) for h in table.humans)
                out.append(Formed(table, stored))
        return out

    async def take(self, formed: Formed) -> bool:
        """Take the table's players out of the queue, in one transaction: False (nothing
        taken) when any of them left or was seated meanwhile."""
        return await self.svc.store.queue_take(formed.entries)

    async def put_back(self, formed: Formed) -> None:
        """The table could not open: its players wait again, in their places."""
        for e in formed.entries:
            await self.svc.store.queue_put(e)

    async def open_table(
        self,
        formed: Formed,
        channel_id: int,
        names: Mapping[int, str],
        *,
        default_level: str,
        default_scenario: str | None,
        deadline_hours: int,
        language: str = "en",
        seed: int | None = None,
    ) -> Result:
        """Open the table's game in ``channel_id`` as ``/game new`` (the anchor its host,
        the computer seats), the other players' joins and the start would, through the
        lobby API; the lobby is closed again when any step is refused (Refused raised)."""
        lobbies = self.svc.lobbies
        humans = formed.entries
        table = formed.table
        level = table.ai_level or default_level
        rec = await lobbies.open(
            channel_id,
            formed.guild_id,
            humans[0].user_id,
            scenario=None,
            players=formed.players,
            ai_seats=table.ai_seats,
            ai_level=level,
            deadline_hours=deadline_hours,
            language=language,
            game=formed.game,
        )
        try:
            for e in humans[1:]:
                rec = await lobbies.join(rec, e.user_id)
            return await lobbies.start(
                rec, names, default_level=level, default_scenario=default_scenario, seed=seed
            )
        except Refused:
            await self.close_lobby(rec.id)
            raise

    async def close_lobby(self, game_id: int) -> None:
        """A table's lobby that did not start: abandoned (its channel freed)."""
        rec = await self.svc.store.get_game(game_id)
        if rec.status is GameStatus.LOBBY:
            await self.svc.store.set_status(game_id, GameStatus.ABANDONED)


def max_wait_of(e: QueueEntry) -> timedelta:
    """How long the entry waits before computer players fill its table."""
    return DEFAULT_MAX_WAIT if e.max_wait_seconds is None else timedelta(seconds=e.max_wait_seconds)


def queue_sizes(entries: Sequence[QueueEntry]) -> dict[tuple[str, int], int]:
    """How many wait in each (game, table size) of ``entries``."""
    out: dict[tuple[str, int], int] = {}
    for e in entries:
        out[(e.game, e.players)] = out.get((e.game, e.players), 0) + 1
    return out
