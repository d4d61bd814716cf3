"""The games' locks: one writer per game, owned by the game service for every surface.

A game's lock is re-entrant within one asyncio task: a surface may hold it around a service
call and its own publishing (so a turn's posts reach the channel in order), and the service
call inside takes it again without waiting on itself. Other tasks wait their turn, first come
first served (an :class:`asyncio.Lock` underneath).
"""

from __future__ import annotations

import asyncio
from types import TracebackType


class GameLock:
    """An :class:`asyncio.Lock` that the task holding it may take again (a depth count)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[object] | None = None
        self._depth = 0
        self.acquisitions = 0  # times taken from outside (not re-entries): for tests

    @property
    def depth(self) -> int:
        """How many times the holding task has taken the lock (0: free)."""
        return self._depth

    def touch(self) -> None:
        """The game changed elsewhere (another process): the sessions read before now are
        stale (:meth:`service.core.GameCore.session` reloads a ``loaded`` one read before)."""
        self.acquisitions += 2

    def locked(self) -> bool:
        return self._lock.locked()

    async def acquire(self) -> None:
        me = asyncio.current_task()
        if me is not None and self._owner is me:
            self._depth += 1
            return
        await self._lock.acquire()
        self._owner, self._depth = me, 1
        self.acquisitions += 1

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
            self._lock.release()

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
