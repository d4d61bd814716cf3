"""The worker pool's queue of pictures (:meth:`service.workers.WorkerPool.draw`): one line per
game, taken in turn, so one busy game cannot starve the others' pictures; a game's picture
superseded while it waits — the same kind, seat, panel and language of the same game asked
for at a newer version — leaves the queue undrawn (its post gets the cheaper fallback
drawing, and the newer picture is drawn in its place).

Plain data, no event loop: the pool puts a :class:`Ticket` when a picture is asked for and
takes the next one when a worker is free::

    q = ImageQueue()
    dropped = q.put(Ticket(req, game_id))  # the tickets it superseded (they leave the queue)
    t = q.take()                           # the next game's oldest ticket, or None

A ticket without a game (``lane`` None: a surface that loaded no game) waits in a line of
its own and is never superseded: two of them may be of different games.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from service.results import ImageRequest


@dataclass(eq=False)
class Ticket:
    """A picture asked for: its request, the game it belongs to (``lane``: the game's id;
    None: unknown), what its worker needs (``payload``) and its ``outcome`` (the pool's
    future: the picture, or why the worker did not draw it)."""

    req: ImageRequest
    lane: int | None
    payload: tuple[Any, ...] = ()
    outcome: asyncio.Future[bytes | None] | None = field(default=None, repr=False)
    wanted: bool = True  # False: its caller stopped waiting (late, superseded, cancelled)

    def key(self) -> Hashable:
        """What a newer version of the picture shares with it."""
        r = self.req
        return (self.lane, r.game, r.kind, r.seat, r.player, r.lang)


class ImageQueue:
    """The pictures waiting for a worker, one line per game (see module doc)."""

    def __init__(self) -> None:
        self._lanes: OrderedDict[int | None, deque[Ticket]] = OrderedDict()

    def __len__(self) -> int:
        return sum(len(line) for line in self._lanes.values())

    def put(self, ticket: Ticket) -> list[Ticket]:
        """Queue ``ticket`` behind its game's earlier pictures; the tickets it supersedes
        (same :meth:`Ticket.key`, an older version) leave the queue and are returned — or
        ``[ticket]`` itself, not queued, when a newer version of it waits already."""
        line = self._lanes.get(ticket.lane)
        if line is None:
            line = self._lanes[ticket.lane] = deque()
        dropped: list[Ticket] = []
        if ticket.lane is not None:
            key, version = ticket.key(), ticket.req.version
            same = [t for t in line if t.key() == key]
            if any(t.req.version > version for t in same):
                return [ticket]
            dropped = [t for t in same if t.req.version < version]
            for t in dropped:
                line.remove(t)
        line.append(ticket)
        return dropped

    def take(self) -> Ticket | None:
        """The oldest ticket of the game whose turn it is (None: the queue is empty); that
        game goes to the back of the line."""
        while self._lanes:
            lane, line = next(iter(self._lanes.items()))
            if not line:
                del self._lanes[lane]
                continue
            ticket = line.popleft()
            if line:
                self._lanes.move_to_end(lane)
            else:
                del self._lanes[lane]
            return ticket
        return None

    def remove(self, ticket: Ticket) -> bool:
        """Take ``ticket`` out of the queue (its caller stopped waiting); False when it was
        not in it (taken already, or superseded)."""
        line = self._lanes.get(ticket.lane)
        if line is None or ticket not in line:
            return False
        line.remove(ticket)
        if not line:
            del self._lanes[ticket.lane]
        return True

    def drain(self) -> list[Ticket]:
        """Every ticket still waiting, in the order they would be taken; the queue empties."""
        out = []
        while (t := self.take()) is not None:
            out.append(t)
        return out
