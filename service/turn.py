"""The turn's one use case: every surface's press, typed command, undo or announced change
goes through :class:`TurnService` — the game loaded once under its lock, the step applied and
saved, then everything that follows a step done here (the colours wished in the lobby, the
answers the service gives by itself, the computer seats' steps, the decision clocks), the
surface's ``show`` called with all of it while the lock is held (so posts reach a channel in
the game's order), and the game marked posted at the version shown.

    played = await service.turns.press(game_id, seat, text="build sawmill G8", show=publish)
    played.command   # the step asked for (or its errors: nothing changed)
    played.steps     # each step the service took after it, in order
    played.game      # the game as it now stands (to read)

A surface shows; it decides nothing about the game. The terminal streams the computer
seats' steps as they are saved (``on_step``); the Discord publisher makes its posts from the
:class:`Played` it is given.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from i18n import Msg
from service.results import Refused, Result, Shown
from service.session import GameSession

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from service.lobby import Lobbies
    from service.pace import Pacing, Schedule
    from service.places import Places
    from service.reading import Reading
    from storage.base import GameStore

NO_LONGER_KEY = "svc.no_longer"
"""The refusal of a press on a choice the game has moved past (a catalogue key)."""

Pause = Callable[[int, str], Awaitable[None]]
"""Awaited before the service answers a secret decision for a seat (its seat, the decision's
kind): a surface where timing shows waits there, so a quick answer tells nothing."""


@dataclass(frozen=True)
class Played:
    """What one use case did: the command's result (or the change's, with the colours wished
    taken after it), the steps the service took after it (forced answers, computer seats:
    ``steps`` one by one, ``ai`` merged), the decision clocks of who decides now, and the game
    as it stood at the end (a session to read, not to write through: its lock is released)."""

    command: Result
    ai: Result
    game: GameSession
    steps: tuple[Result, ...] = ()
    schedule: Schedule | None = None
    shown: Shown | None = None  # what the surface's ``show`` answered (None: not shown)

    @property
    def refused(self) -> bool:
        """The command was refused by the rules (``command.errors``): nothing changed."""
        return bool(self.command.errors)


Show = Callable[[Played], Awaitable[Shown]]
"""A surface's showing of a :class:`Played` (called under the game's lock); returns what it
showed (:class:`~service.results.Shown`: whether the new version was posted — the game is
then marked posted at it — and the surface's open post of the turn, kept with the game)."""


async def _notify(on_step: Callable[[Result], Any] | None, step: Result) -> None:
    if on_step is not None:
        out = on_step(step)
        if inspect.isawaitable(out):
            await out


class Service(Protocol):
    """What the turn's use cases use of the game service (:class:`service.game.GameService` is
    one): typed here, so this page depends on the service's parts, not on the service."""

    store: GameStore
    lobbies: Lobbies
    pacing: Pacing
    places: Places
    reading: Reading

    def session(
        self, game_id: int, *, loaded: GameSession | None = None
    ) -> AbstractAsyncContextManager[GameSession]: ...

    async def undo_in(self, s: GameSession, seat: int, *, lang: str | None = None) -> Result: ...


class TurnService:
    """The use cases of a turn (see module doc)."""

    def __init__(self, svc: Service) -> None:
        self.svc = svc

    async def press(
        self,
        game_id: int,
        seat: int,
        *,
        text: str | None = None,
        index: int | None = None,
        version: int | None = None,
        action: Any = None,
        lang: str = "en",
        loaded: GameSession | None = None,
        show: Show | None = None,
        on_step: Callable[[Result], Any] | None = None,
        pause: Pause | None = None,
    ) -> Played:
        """``seat`` typed ``text`` (in the words of ``lang``), or chose the legal action
        number ``index`` listed at ``version`` (``action``: that action already chosen, with
        its payment), and everything after it (:meth:`follow`). A choice the game moved past
        raises :class:`Refused` (``svc.no_longer``); a command the rules refuse comes back
        with ``command.errors`` and changes nothing (nothing is shown). ``loaded``: the game
        as the caller read it (:meth:`GameCore.peek`). ``on_step``: called with the command's
        result, then with each step the service takes after it, as it is saved."""
        async with self.svc.session(game_id, loaded=loaded) as s:
            if index is not None:
                if s.version != version:
                    raise Refused(Msg(NO_LONGER_KEY))
                if action is None:
                    acts = s.legal(seat)
                    if not 0 <= index < len(acts):
                        raise Refused(Msg(NO_LONGER_KEY))
                    action = acts[index]
                res = await s.choose(seat, action, choices=False)
            else:
                res = await s.act(seat, text or "", choices=False, lang=lang)
            await _notify(on_step, res)
            if res.errors:
                return Played(res, s.result(), s)
            return await self.follow(s, res, show=show, on_step=on_step, pause=pause)

    async def undo(
        self,
        game_id: int,
        seat: int,
        *,
        version: int | None = None,
        loaded: GameSession | None = None,
        show: Show | None = None,
        lang: str | None = None,
    ) -> Played:
        """``seat`` takes back their newest step (``version``: the game as the player saw it:
        a newer one raises :class:`Refused`); a refusal of the undo rule comes back in
        ``command.errors``, naming players in ``lang`` (the asker's)."""
        async with self.svc.session(game_id, loaded=loaded) as s:
            if version is not None and s.version != version:
                raise Refused(Msg(NO_LONGER_KEY))
            res = await self.svc.undo_in(s, seat, lang=lang)
            if res.errors:
                return Played(res, s.result(), s)
            return await self.follow(s, res, show=show, wishes=False)

    async def announce(
        self, res: Result, *, show: Show | None = None, pause: Pause | None = None
    ) -> Played:
        """Everything after a change made outside a turn (a moderator's rollback or seat
        change, the clock's deadline, a lobby's start, an import), and its showing."""
        async with self.svc.session(res.game_id) as s:
            return await self.follow(s, res, show=show, pause=pause, wishes=False)

    async def catch_up(
        self, s: GameSession, since: int, *, show: Show | None = None, pause: Pause | None = None
    ) -> Played:
        """What the channel missed after version ``since`` (saved, never shown: a stop between
        a save and its post), announced again in the session ``s`` (its lock held)."""
        res = await self.svc.reading.catch_up_in(s, since)
        return await self.follow(s, res, show=show, pause=pause, wishes=False)

    async def follow(
        self,
        s: GameSession,
        res: Result,
        *,
        show: Show | None = None,
        on_step: Callable[[Result], Any] | None = None,
        pause: Pause | None = None,
        wishes: bool = True,
    ) -> Played:
        """Everything after ``res`` in the session ``s`` (its lock held): the colours wished
        in the lobby (``wishes``, after a step), the answers the service gives by itself and
        the computer seats' steps until a human decides or the game is over, the decision
        clocks of who decides now; then ``show`` (the surface's), and the game marked posted
        when it showed the new version."""
        if wishes and res.applied:
            await self.svc.lobbies.colour_wishes(s, res)
        s.manual_end = await self.manual_end(s)
        steps: list[Result] = []

        async def took(step: Result) -> None:
            steps.append(step)
            await _notify(on_step, step)

        ai = await s.run_ai(on_step=took, before_secret=pause)
        res.version, res.over = s.version, s.over
        res.frames.setdefault(s.version, s.frame())
        schedule = await self.svc.pacing.refresh(s.game_id, s)
        played = Played(res, ai, s, tuple(steps), schedule)
        if show is not None:
            shown = await show(played)
            if shown.posted:
                await self.svc.places.mark_posted(s, s.version, shown)
            played = replace(played, shown=shown)
        return played

    async def manual_end(self, s: GameSession) -> frozenset[int]:
        """The human seats whose players end their turns themselves (their preference, read
        only for a game that ends turns by itself)."""
        if "turn" not in s.A.forced_answers:
            return frozenset()
        out: set[int] = set()
        for seat, spec in enumerate(s.seats):
            if spec.user_id is None or spec.ai:
                continue
            if (await self.svc.store.get_player_prefs(spec.user_id)).manual_end:
                out.add(seat)
        return frozenset(out)

    async def play(
        self,
        game_id: int,
        seat: int,
        text: str,
        *,
        lang: str = "en",
        on_step: Callable[[Result], Any] | None = None,
    ) -> Played:
        """One typed command and everything after it, shown step by step (``on_step``): the
        terminal's (see :meth:`press`)."""
        return await self.press(game_id, seat, text=text, lang=lang, on_step=on_step)


__all__ = ["NO_LONGER_KEY", "Pause", "Played", "Show", "Shown", "TurnService"]
