"""Where a surface shows its games (surface-neutral bookkeeping): the game of a channel,
a user's games, a game's record, a player's statistics; the version of the game its channel
last saw posted (and the games saved past it, to catch up after a restart); the status
message edited after every turn; each user's private place for a game's private news.
Reached as ``svc.places`` (:class:`Places`).

    rec = await service.places.find(channel_id)
    for rec, posted in await service.places.unposted():
        ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from service.games import adapter_of, title_key
from service.results import Shown
from storage import GameRecord, GameStatus, GameSummary, PlayerStats, PrivatePlace
from storage.models import GuildSettings, SettingsChanges

if TYPE_CHECKING:
    from service.session import Core, GameSession


ACTIVE = (GameStatus.LOBBY, GameStatus.SETUP, GameStatus.RUNNING)
"""The statuses of a game a player is "in": a lobby, a game in setup or running."""


@dataclass(frozen=True)
class PlayerGame:
    """One of a player's games, as ``/games mine`` lists it: the game (its server, channel,
    kept turn post), whether the player decides now, and the catalogue key of the game's
    title (its registration's, ``game.<name>``)."""

    game: GameSummary
    my_turn: bool
    title_key: str

    @property
    def rank(self) -> int:
        """Their turn first (0), then the running games waiting for others (1), then the
        lobbies (2)."""
        if self.game.status is GameStatus.LOBBY:
            return 2
        return 0 if self.my_turn else 1


class Places:
    """The surfaces' bookkeeping of where a game is shown: which game a channel has (or had
    last), a user's games and whether they decide in each, a game's record and a player's
    statistics, the turn post's version that reached the channel (and the games saved past
    it), the status message edited in place, and the private place (thread or DMs) each user
    chose for a game's private news. It reads and writes the store's records and settings
    only, never a game's state but to say who decides. Reached as ``svc.places``."""

    def __init__(self, svc: Core) -> None:
        self.svc = svc

    async def find(self, channel_id: int) -> GameRecord | None:
        """The channel's active game or lobby (None: none)."""
        return await self.svc.store.get_active_game(channel_id)

    async def games_of(self, user_id: int, guild_id: int | None) -> list[tuple[GameSummary, bool]]:
        """``user_id``'s active games and lobbies on a server, each with whether the user
        decides now."""
        recs = await self.svc.store.list_games(
            user_id=user_id,
            guild_id=guild_id,
            statuses=[GameStatus.LOBBY, GameStatus.SETUP, GameStatus.RUNNING],
            limit=20,
        )
        out = []
        for g in recs:
            mine = set(g.seats_of(user_id))
            if g.status is GameStatus.LOBBY:
                now: set[int] = set()
            else:
                st = await self.svc.state(g.id)
                now = set(adapter_of(st).face.deciders(st))
            out.append((g, bool(mine & now)))
        return out

    async def player_games(self, user_id: int) -> list[PlayerGame]:
        """Every active game and lobby of ``user_id`` on every server (and outside one), their
        turn first, then the games waiting for others, then the lobbies (newest first within
        each)."""
        recs = await self.svc.store.list_games(user_id=user_id, statuses=ACTIVE, limit=None)
        out = []
        for g in recs:
            mine = set(g.seats_of(user_id))
            now: set[int] = set()
            if g.status is not GameStatus.LOBBY:
                st = await self.svc.state(g.id)
                now = set(adapter_of(st).face.deciders(st))
            out.append(PlayerGame(g, bool(mine & now), title_key(g.game)))
        out.sort(key=lambda p: p.rank)  # stable: newest first within each rank
        return out

    async def games_on_server(self, user_id: int, guild_id: int) -> int:
        """How many active games and lobbies (:data:`ACTIVE`) ``user_id`` holds a seat in on
        the server ``guild_id`` (computer seats are nobody's)."""
        recs = await self.svc.store.list_games(
            user_id=user_id, guild_id=guild_id, statuses=ACTIVE, limit=None
        )
        return len(recs)

    async def server_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults if never set)."""
        return await self.svc.store.get_guild_settings(guild_id)

    async def set_server_settings(
        self,
        guild_id: int,
        *,
        max_games: int | None = None,
        place: Literal["thread", "channel"] | None = None,
        forum_id: int | None = None,
    ) -> GuildSettings:
        """Change a server's settings: ``max_games`` (0: no cap; None: unchanged),
        ``place`` (None: unchanged; given, it also ends new games going to a forum) and
        ``forum_id`` (new lobbies become posts of that forum); the others keep their values.
        Returns them."""
        cur = await self.svc.store.get_guild_settings(guild_id)
        changes: dict[str, object] = {}
        if max_games is not None:
            changes["max_running_games"] = max_games or None
        if place is not None:
            changes["game_place"] = place
            changes["forum_id"] = None
        if forum_id is not None:
            changes["forum_id"] = forum_id
        if not changes:
            return cur
        new = GuildSettings.model_validate({**cur.model_dump(), **changes})
        return await self.svc.store.set_guild_settings(guild_id, new)

    async def record(self, game_id: int) -> GameRecord:
        """The game's record (its settings, seats and status; the state unread)."""
        return await self.svc.store.get_game(game_id)

    async def latest_game(self, channel_id: int | None) -> GameSummary | None:
        """The channel's active game, else its newest one (None: the channel never had one)."""
        if channel_id is None:
            return None
        rec = await self.svc.store.get_active_game(channel_id)
        if rec is not None:
            return rec
        games = await self.svc.store.list_games(channel_id=channel_id, limit=1)
        return games[0] if games else None

    async def player_stats(self, user_id: int, *, guild_id: int | None = None) -> PlayerStats:
        """A player's finished games, wins and scores (on a server, or everywhere)."""
        return await self.svc.store.player_stats(user_id, guild_id=guild_id)

    async def unposted(self) -> list[tuple[GameSummary, int]]:
        """Every game saved past its last published version (the surface stopped between a
        save and its post): the game and the last version published."""
        out = []
        for rec in await self.svc.store.list_games(
            statuses=[GameStatus.SETUP, GameStatus.RUNNING, GameStatus.FINISHED], limit=None
        ):
            posted = rec.settings.posted_version
            if posted is not None and posted < rec.version:
                out.append((rec, posted))
        return out

    async def mark_posted(self, s: GameSession, version: int, shown: Shown | None = None) -> None:
        """Remember that the game's turn post of ``version`` reached its channel, and (``shown``)
        the surface's post of the turn in progress — one write."""
        posted = s.rec.settings.posted_version
        changes: SettingsChanges = {}
        if posted is None or posted < version:
            changes["posted_version"] = version
        if shown is not None and shown.open_post != s.rec.settings.open_post:
            changes["open_post"] = shown.open_post
        if changes:
            s.rec = await self.svc.store.update_settings(s.game_id, **changes)

    @staticmethod
    def told(rec: GameRecord, what: str) -> bool:
        """Whether the game's host was already told that the surface lacks ``what`` (a
        permission's name, e.g. ``attach_files``) where the game is played."""
        return what in rec.settings.told_missing

    async def mark_told(self, s: GameSession, what: str) -> None:
        """Remember that the game's host was told the surface lacks ``what`` (once per game)."""
        if what not in s.rec.settings.told_missing:
            told = (*s.rec.settings.told_missing, what)
            s.rec = await self.svc.store.update_settings(s.game_id, told_missing=told)

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        """Remember the game's status message (edited in place after every turn)."""
        await self.svc.store.update_settings(game_id, status_message_id=message_id)

    @staticmethod
    def status_message(rec: GameRecord) -> int | None:
        """The game's status message, if one was posted (:meth:`set_status_message`)."""
        return rec.settings.status_message_id

    @staticmethod
    def private_place(rec: GameRecord, user_id: int | None) -> int | None:
        """The channel (private thread or DMs) where ``user_id`` gets this game's private
        news as it happens, if they chose one."""
        if user_id is None:
            return None
        place = rec.settings.private_places.get(user_id)
        return place.channel_id if place is not None else None

    async def set_private_place(
        self, game_id: int, user_id: int, where: str | None, channel_id: int | None = None
    ) -> None:
        """Keep (or with ``where`` None forget) the user's private place for this game."""
        rec = await self.svc.store.get_game(game_id)
        places = dict(rec.settings.private_places)
        if where is None or channel_id is None:
            places.pop(user_id, None)
        else:
            kind: Literal["thread", "dm"] = "thread" if where == "thread" else "dm"
            places[user_id] = PrivatePlace(where=kind, channel_id=channel_id)
        await self.svc.store.update_settings(game_id, private_places=places)
