"""The Discord side of the bot's games: what cogs and buttons call, a thin adapter over
:class:`service.GameService` (no rules and no storage here).

An interaction becomes one service call: the game is read once
(:meth:`~service.game.GameService.peek` or a session), a command is applied and saved in the
service, and the :class:`~service.Result` becomes messages — its public posts gathered per
turn into one Components V2 post with the map (:mod:`bot.publisher`), its private posts as
ephemeral replies or private news (:mod:`bot.private`), errors privately, in plain words.
The jobs live in their own modules: the lobby (:mod:`bot.lobby`), the guided turn and its
payment chooser (:mod:`bot.flow`), publishing (:mod:`bot.publisher`) and private looks
(:mod:`bot.private`); :class:`Tables` holds them together with the service and the settings.
Lasting messages are sent with the bot token (interaction tokens expire after 15 minutes).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.discord_views import NO_LONGER, NO_SEAT
from bot.flow import GuidedFlow
from bot.lobby import LobbyDesk
from bot.private import PrivateDesk
from bot.publisher import Publisher
from bot.settings import BotSettings
from service import GameService, Result
from service.game import GameSession
from service.locks import GameLock
from service.results import Refused, Status
from storage import GameRecord, GameStatus

log = logging.getLogger("bot.tables")


class Tables:
    """Every game the bot runs, seen from Discord (one per channel)."""

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
        self.publisher = Publisher(self)
        self.private = PrivateDesk(self)
        self.flow = GuidedFlow(self)
        self.lobby = LobbyDesk(self)

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

    # ------------------------------------------------------------------ acting

    async def play(self, interaction: discord.Interaction[Any], command: str) -> None:
        """``/play COMMAND``: the typed command of the user's seat, read once and applied."""
        s = await self.seated_session(interaction)
        if s is None:
            return
        seat = s.seat_of(interaction.user.id)
        assert seat is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        res = await self.act(interaction, s.game_id, seat, text=command, loaded=s)
        if res is not None and not res.errors:
            await interaction.followup.send(f"Done: `{command[:200]}`", ephemeral=True)

    async def act(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        seat: int,
        *,
        text: str | None = None,
        index: int | None = None,
        version: int | None = None,
        action: Any = None,
        loaded: GameSession | None = None,
        choices_for: int | None = None,
    ) -> Result | None:
        """Apply a typed command or the legal action number ``index`` (checked against
        ``version``; ``action``: that action already chosen, with its payment), publish, let
        the AI seats play — in one session of the game (``loaded``: the game as the caller
        read it). Errors go privately to the actor. ``choices_for``: a seat whose commands
        to list in the result if it still decides (the guided flow's next menu)."""
        self.in_flight += 1
        try:
            async with self.svc.session(game_id, loaded=loaded) as s:
                if index is not None:
                    if s.version != version:
                        await self.reply(interaction, NO_LONGER)
                        return None
                    if action is None:
                        acts = s.legal(seat)
                        if not 0 <= index < len(acts):
                            await self.reply(interaction, NO_LONGER)
                            return None
                        action = acts[index]
                    res = await s.choose(seat, action, choices=False)
                else:
                    res = await s.act(seat, text or "", choices=False)
                if res.errors:
                    msg = "\n".join(f"That did not work: {e.text()}" for e in res.errors)
                    await self.reply(interaction, msg)
                    return res
                await self.svc.lobbies.colour_wishes(s, res)
                await self.publisher.publish(s, res, interaction=interaction, actor=seat)
                res.next = s.decisions(choices=False)
                if choices_for is not None and s.decides(choices_for):
                    res.next = [
                        d if d.seat != choices_for else _with(d, s.legal_texts(choices_for))
                        for d in res.next
                    ]
                return res
        finally:
            self.in_flight -= 1

    async def undo(
        self, interaction: discord.Interaction[Any], gid: int, *, version: int | None = None
    ) -> None:
        """``/undo`` or the turn post's Undo button (``version``: the post's): the presser's
        newest step taken back while the engine allows it, posted publicly ("Ana (red) took
        back: ..."), the status message updated and the turn's buttons posted again at the
        new version; a refusal says why, privately."""
        s = await self.svc.peek(gid)
        seat = s.seat_of(interaction.user.id)
        if seat is None:
            await self.reply(interaction, NO_SEAT)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.svc.session(gid, loaded=s) as s:
            if version is not None and s.version != version:
                await self.reply(interaction, NO_LONGER)
                return
            res = await self.svc.undo_in(s, seat)
            if res.errors:
                await self.reply(interaction, "\n".join(e.message for e in res.errors))
                return
            await self.publisher.publish(s, res, interaction=interaction, actor=seat, force=True)
        await interaction.followup.send("Taken back.", ephemeral=True)

    async def publish(
        self,
        channel_id: int,
        res: Result,
        *,
        interaction: discord.Interaction[Any] | None = None,
        actor: int | None = None,
        force: bool = False,
    ) -> None:
        """Publish ``res`` (made outside a session: moderation, pacing) in one session of
        its game."""
        async with self.svc.session(res.game_id) as s:
            await self.publisher.publish(s, res, interaction=interaction, actor=actor, force=force)

    async def update_status(self, game_id: int, *_: Any) -> None:
        """Edit the game's status message (after a change of pace, a seat, a pause)."""
        await self.publisher.update_status(await self.svc.peek(game_id))

    def status_text(self, status: Status) -> str:
        return self.publisher.status_text(status)

    def next_text(self, status: Status) -> tuple[str, list[int], list[str]]:
        return self.publisher.next_text(status)

    def deadline_text(self, game_id: int | None, seat: int, word: str) -> str:
        return self.publisher.deadline_text(game_id, seat, word)

    async def timeline(self, game_id: int, budget: int) -> bytes | None:
        return await self.publisher.timeline(game_id, budget)

    async def recover(self) -> int:
        return await self.publisher.recover()


def _with(d: Any, choices: list[str]) -> Any:
    from dataclasses import replace

    return replace(d, choices=tuple(choices))


__all__ = ["GameStatus", "Refused", "Tables"]
