"""What every Discord desk of the bot shares (:class:`Hub`): the client, the game service,
the settings, the display names seen, the pacing figures shown, and the lookups and private
replies every handler needs. A leaf of the Discord package: it imports none of the desks,
which each take the hub (and the desks they use) when :class:`bot.tables.Tables` builds them.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.discord_views import NO_SEAT
from bot.settings import BotSettings
from service import GameService
from service.game import GameSession
from service.locks import GameLock
from storage import GameRecord

log = logging.getLogger("bot.tables")


class Hub:
    """The shared part of the Discord side (see module doc)."""

    def __init__(self, client: discord.Client, service: GameService, settings: BotSettings):
        self.client = client
        self.svc = service
        self.settings = settings
        self.names: dict[int, str] = {}
        self.in_flight = 0
        self.next_seed: int | None = None  # tests: the seed of the next game (else random)
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # tests: a recorder
        self._rng = random.SystemRandom()
        # pacing (bot.scheduler.Pacer): deadlines per (game, seat) as UNIX times (None: the
        # game is paused) and the status message's pacing lines per game
        self.pacer: Any = None
        self.due: dict[tuple[int, int], int | None] = {}
        self.status_notes: dict[int, list[str]] = {}

    async def auto_answer_pause(self, seat: int, kind: str) -> None:
        """Before the bot answers a secret decision for a seat (an AI's battle cards), wait a
        random time in ``settings.auto_answer_delay``: a quick answer would tell "no cards"."""
        lo, hi = self.settings.auto_answer_delay
        delay = self._rng.uniform(lo, hi)
        log.debug("automatic %s answer for seat %s in %.0f s", kind, seat, delay)
        if delay > 0:
            await self.sleep(delay)

    @property
    def store(self) -> Any:
        """The service's store (for tests and tools; the Discord side does not use it)."""
        return self.svc.store

    def lock(self, game_id: int) -> GameLock:
        """The game's lock — the service's own (one lock owner)."""
        return self.svc.lock(game_id)

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait for in-flight saves and posts to finish (shutdown)."""
        end = time.monotonic() + timeout
        while self.in_flight and time.monotonic() < end:
            await asyncio.sleep(0.05)

    # ------------------------------------------------------------------ lookups

    async def channel_game(self, channel_id: int | None) -> GameRecord | None:
        if channel_id is None:
            return None
        return await self.svc.find(channel_id)

    async def seat_of(self, game_id: int, user_id: int) -> int | None:
        return (await self.svc.peek(game_id)).seat_of(user_id)

    async def running_game(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[int, int | None] | None:
        """The channel's running game and the user's seat in it; says why not otherwise."""
        s = await self.running_session(interaction)
        return None if s is None else (s.game_id, s.seat_of(interaction.user.id))

    async def running_session(self, interaction: discord.Interaction[Any]) -> GameSession | None:
        """The channel's running game read once; says why not otherwise."""
        s = None
        if interaction.channel_id is not None:
            s = await self.svc.peek_channel(interaction.channel_id)
        if s is None:
            rec = await self.channel_game(interaction.channel_id)
            what = "only a lobby" if rec is not None else "no game"
            await self.reply(
                interaction, f"This channel has {what} running. `/game new` starts one."
            )
        return s

    async def seated_game(self, interaction: discord.Interaction[Any]) -> tuple[int, int] | None:
        """The channel's running game and the user's seat in it, when they have one; says
        why not otherwise."""
        s = await self.seated_session(interaction)
        if s is None:
            return None
        seat = s.seat_of(interaction.user.id)
        assert seat is not None
        return s.game_id, seat

    async def seated_session(self, interaction: discord.Interaction[Any]) -> GameSession | None:
        """The channel's running game read once, when the user has a seat in it."""
        s = await self.running_session(interaction)
        if s is not None and s.seat_of(interaction.user.id) is None:
            await self.reply(interaction, NO_SEAT)
            return None
        return s

    @staticmethod
    async def reply(
        interaction: discord.Interaction[Any],
        text: str,
        *,
        files: Sequence[discord.File] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        """A private (ephemeral) answer, whether or not the interaction was deferred."""
        text = text[:1990]
        kw: dict[str, Any] = {"ephemeral": True, "files": list(files)}
        if view is not None:
            kw["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(text, **kw)
        else:
            await interaction.response.send_message(text, **kw)
