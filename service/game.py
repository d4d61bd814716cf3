"""The game service every surface calls: the core game commands and sessions
(:class:`service.core.GameCore`) with the lobbies (:class:`service.lobby.Lobbies`), the
pacing of slow games (:class:`service.pace.Pacing`) and the games' public archive for their
web pages (:class:`service.archive.GameArchive`).

    service = GameService(store)
    res = await service.new_game(["Ana", "Bo", "ai:heuristic"], seed=7)
    res = await service.act(res.game_id, seat=0, text="colour blue")
"""

from __future__ import annotations

from collections.abc import Callable

from service.archive import GameArchive
from service.core import SECRET_ANSWERS, GameCore, GameSession
from service.images import render_image
from service.lobby import Lobbies
from service.pace import Pacing
from service.workers import Agent, WorkerPool, make_agent
from storage.base import GameStore


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


__all__ = [
    "SECRET_ANSWERS",
    "Agent",
    "GameService",
    "GameSession",
    "WorkerPool",
    "make_agent",
    "render_image",
]
