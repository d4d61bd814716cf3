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

from bot.discord_views import NO_SEAT_KEY
from bot.settings import BotSettings
from i18n import tr
from service import GameService
from service.game import GameSession
from service.language import game_language_of
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

    # ------------------------------------------------------------------ languages

    async def lang_of(
        self,
        interaction: discord.Interaction[Any] | None,
        game: GameRecord | GameSession | str | None = None,
        *,
        user_id: int | None = None,
    ) -> str:
        """The language to write to the interaction's user (or ``user_id`` outside an
        interaction) in (:meth:`service.language.Languages.user_language`; ``game``: the game
        concerned, its record, session or language)."""
        if isinstance(game, GameSession):
            game = game.rec
        locale = None
        if interaction is not None:
            user_id = interaction.user.id
            locale = None if interaction.locale is None else str(interaction.locale)
        found: str = await self.svc.languages.user_language(user_id, locale, game=game)
        return found

    async def game_lang(self, game: int | GameRecord | GameSession) -> str:
        """The language of a game's public posts (its settings)."""
        if isinstance(game, GameSession):
            game = game.rec
        if isinstance(game, GameRecord):
            return game_language_of(game)
        found: str = await self.svc.languages.game_language(game)
        return found

    async def say(
        self,
        interaction: discord.Interaction[Any],
        key: str,
        *,
        game: GameRecord | GameSession | str | None = None,
        view: discord.ui.View | None = None,
        **params: Any,
    ) -> None:
        """A private answer: the message ``key`` in the user's language."""
        lang = await self.lang_of(interaction, game)
        await self.reply(interaction, tr(lang, key, **params), view=view)

    # ------------------------------------------------------------------ lookups

    async def channel_game(self, channel_id: int | None) -> GameRecord | None:
        if channel_id is None:
            return None
        return await self.svc.places.find(channel_id)

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
            key = "bot.channel.only_lobby" if rec is not None else "bot.channel.no_game"
            await self.say(interaction, key, game=rec)
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
            await self.say(interaction, NO_SEAT_KEY, game=s)
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
