"""The game service every surface calls: the core game commands and sessions
(:class:`service.core.GameCore`, :class:`service.session.GameSession`) with its parts, each
an attribute: the lobbies (``lobbies``: :class:`service.lobby.Lobbies`), the pacing of slow
games (``pacing``: :class:`service.pace.Pacing`), the games' public archive for their web
pages (``archive``: :class:`service.archive.GameArchive`), the turn's use case (``turns``:
:class:`service.turn.TurnService`) and, from the core, who reads in which language
(``languages``: :class:`service.language.Languages`), what a player reads of a game
(``reading``: :class:`service.reading.Reading`) and where the surfaces show the games
(``places``: :class:`service.places.Places`). The games it plays, before any is loaded, are
:mod:`service.catalog`'s.

    service = GameService(store)
    res = await service.new_game(["Ana", "Bo", "ai:heuristic"], seed=7)
    played = await service.turns.press(res.game_id, 0, text="colour blue")

Several processes on one database: the service subscribes to the store's changes
(:meth:`storage.base.GameStore.subscribe`; PostgreSQL only) and drops what it remembers of a
game another process changed (:meth:`GameService.changed_elsewhere`).
"""

from __future__ import annotations

from collections.abc import Callable

from service.archive import GameArchive
from service.core import GameCore
from service.images import render_image
from service.lobby import Lobbies
from service.pace import Pacing
from service.session import SECRET_ANSWERS, GameSession
from service.turn import Played, TurnService
from service.workers import Agent, WorkerPool, make_agent
from storage.base import GameChange, GameStore


class GameService(GameCore):
    """The game service (see :class:`service.core.GameCore`), its lobbies, its pacing and
    its public archive."""

    def __init__(
        self,
        store: GameStore,
        *,
        agent_factory: Callable[[str, int], Agent] = make_agent,
        rulebook_path: str | None = None,
        workers: WorkerPool | None = None,
    ) -> None:
        super().__init__(
            store, agent_factory=agent_factory, rulebook_path=rulebook_path, workers=workers
        )
        self.lobbies = Lobbies(self)
        self.pacing = Pacing(self)
        self.archive = GameArchive(self)
        self.turns = TurnService(self)
        """The turn's one use case (a press, a typed command, an undo, an announced change and
        everything after it): :mod:`service.turn`."""
        self.on_changed_elsewhere: list[Callable[[int | None], None]] = []
        """The surfaces' hooks, called with the game id (None: any game) after
        :meth:`changed_elsewhere` (the bot's publisher forgets the game's open turn post)."""
        store.subscribe(self.changed_elsewhere)

    def changed_elsewhere(self, change: GameChange) -> None:
        """Another process changed ``change.game_id`` (None: changes may have been missed,
        any game): the turn's events kept for it are dropped (:meth:`forget`), the sessions
        read before are stale (they are loaded again under the lock), and the surfaces' hooks
        are called, so what is posted next is made from the stored game. (A computer
        player's decision depends only on the stored game: nothing of it is kept here.)"""
        if change.game_id is None:
            games = set(self._locks) | set(self._turn_events)
        else:
            games = {change.game_id}
        for game_id in games:
            self.forget(game_id)
            lock = self._locks.get(game_id)  # none: no session of it was ever read here
            if lock is not None:
                lock.touch()
        for hook in list(self.on_changed_elsewhere):
            hook(change.game_id)


__all__ = [
    "SECRET_ANSWERS",
    "Agent",
    "GameService",
    "GameSession",
    "Played",
    "WorkerPool",
    "make_agent",
    "render_image",
]
