"""One game loaded once, under its lock, for one interaction (or one AI run):
:class:`GameSession`. The game service (:class:`service.core.GameCore`) hands one out
(``async with service.session(game_id) as s:``, or :meth:`~service.core.GameCore.peek` to
read without the lock); every call on it works on the state in memory and saves in one
transaction per action: a typed command or a chosen action (``s.act``, ``s.choose``), the
computer seats' decisions (``s.run_ai``), the guided flow's listings (``s.legal``,
``s.choices``, ``s.complete``) and the undo check of the step it took.

    async with service.session(game_id) as s:
        res = await s.act(0, "colour blue")
        res.extend(await s.run_ai())
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from rules.errors import InvalidAction, NotYourDecision, RulesError
from service import logctx
from service.games import GameAdapter, PaymentChooser, adapter_of
from service.language import game_language_of
from service.results import Decision, ErrorInfo, Frame, Post, Result, SeatSpec, Status
from service.workers import decision_seed, make_agent
from storage import GameRecord, VersionConflict

if TYPE_CHECKING:
    from service.labels import Choice
    from service.workers import WorkerPool
    from storage.base import GameStore

log = logging.getLogger("service.session")

GameState = Any  # a state of any game of rules.games (Brazil: Imperial's rules.GameState, …)
Event = Any  # an event of any game

FALLBACK_LEVEL = "heuristic"
"""The computer player that decides for one whose decision failed."""

SECRET_ANSWERS = frozenset({"combat_cards"})
"""Brazil: Imperial's decision kinds answered secretly while other players wait on the
answer (a battle's cards): an automatic answer to one must not come at a telling speed.
Each game's are its adapter's ``secret_answers`` (Tigris: a conflict's support)."""


async def notify(on_step: Callable[[Result], Any] | None, step: Result) -> None:
    """Call ``on_step(step)``, awaiting what it returns when that is awaitable."""
    if on_step is not None:
        r = on_step(step)
        if inspect.isawaitable(r):
            await r


class Core(Protocol):
    """What a session and the service's parts (:mod:`service.reading`, :mod:`service.places`)
    use of the game service's core (:class:`service.core.GameCore` is one): typed here, so the
    parts depend on this page and the core on them — no circle."""

    store: GameStore
    workers: WorkerPool

    def ai_failed(self, game_id: int, seat: int, level: str, error: Exception) -> None: ...

    def announce(
        self,
        game_id: int,
        version: int,
        st: GameState,
        seats: Sequence[SeatSpec],
        text: str,
        *,
        image: bool = True,
        lang: str = "en",
    ) -> Result: ...

    async def decide(
        self, level: str, seed: int, seat: int, state: GameState, *, game: str | None = None
    ) -> Any: ...

    def decisions(
        self, st: GameState, seats: Sequence[SeatSpec], *, choices: bool = True, lang: str = "en"
    ) -> list[Decision]: ...

    async def readers(
        self, rec: GameRecord, seats: Sequence[SeatSpec]
    ) -> tuple[str, dict[int, str]]: ...

    async def save_step(
        self,
        rec: GameRecord,
        after: GameState,
        action: Any,
        events: list[Event],
        description: str | None,
    ) -> GameRecord: ...

    def status(
        self, game_id: int, st: GameState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> Status: ...

    def step_posts(
        self,
        before: GameState,
        action: Any,
        after: GameState,
        events: list[Event],
        seats: Sequence[SeatSpec],
        version: int,
        desc: str | None,
        *,
        lang: str = "en",
        seat_langs: Mapping[int, str] | None = None,
    ) -> list[Post]: ...

    async def turn_events(
        self, rec: GameRecord, before: GameState, after: GameState, events: list[Event]
    ) -> list[Event]: ...

    def who(self, st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str = "en") -> str: ...

    async def peek(self, game_id: int) -> GameSession: ...

    async def read(self, game_id: int) -> tuple[GameRecord, GameState, list[SeatSpec]]: ...

    def seat_specs(self, rec: GameRecord) -> list[SeatSpec]: ...

    async def state(self, game_id: int) -> GameState: ...


class GameSession:
    """One game loaded once, under its lock, for one interaction (or one AI run): every
    call on it works on the state in memory and saves in one transaction per action, so a
    button press costs one load, one validation and one listing. Get one with
    ``async with service.session(game_id) as s:``; it is valid only inside that block."""

    def __init__(
        self,
        svc: Core,
        rec: GameRecord,
        state: GameState,
        seats: list[SeatSpec],
        *,
        gen: int = -2,
    ) -> None:
        self.gen = gen  # the game lock's acquisitions when this was read (see session())
        logctx.bind(game=rec.id, guild=rec.guild_id, channel=rec.channel_id or None, seat=None)
        self.svc = svc
        self.rec = rec
        self.state = state
        self.seats = seats
        self.A: GameAdapter = adapter_of(state)  # the game's adapter (service.games)
        self._last: tuple[GameState, Any, GameState, list[Event]] | None = None
        self._listed: tuple[GameState, int, list[Any]] | None = None  # see _listing
        self.manual_end: frozenset[int] = frozenset()
        """Seats whose players end their turns themselves (their preference): a turn of theirs
        with only its end left waits for them (see :meth:`ai_seat`)."""

    # ------------------------------------------------------------ reading

    @property
    def game_id(self) -> int:
        return self.rec.id

    @property
    def version(self) -> int:
        return self.rec.version

    @property
    def channel_id(self) -> int:
        return self.rec.channel_id

    @property
    def game(self) -> str:
        """The game's name (``"brazil"``, ``"tigris"``)."""
        return self.A.name

    @property
    def over(self) -> bool:
        return self.A.over(self.state)

    @property
    def active(self) -> bool:
        """The game is still played (not finished or abandoned)."""
        return self.rec.status.is_active and not self.over

    @property
    def seed(self) -> int:
        return self.rec.settings.seed or 0

    def seat_of(self, user_id: int) -> int | None:
        """The human seat ``user_id`` plays, if any."""
        for i, s in enumerate(self.seats):
            if s.user_id == user_id and s.ai is None:
                return i
        return None

    def decides(self, seat: int | None) -> bool:
        return seat is not None and seat in self.A.face.deciders(self.state)

    def who(self, seat: int, lang: str = "en") -> str:
        """``"Ana (red)"``: the seat's player and colour, the colour's name in ``lang``."""
        return self.svc.who(self.state, self.seats, seat, lang)

    def decisions(self, *, choices: bool = True, lang: str | None = None) -> list[Decision]:
        """Who decides now (their names in ``lang``; None: the game's language)."""
        lang = lang or game_language_of(self.rec)
        return self.svc.decisions(self.state, self.seats, choices=choices, lang=lang)

    def status(self, lang: str = "en") -> Status:
        """The game's status, its seats' names in ``lang``."""
        return self.svc.status(self.game_id, self.state, self.seats, lang)

    def frame(self) -> Frame:
        return Frame(self.version, self.state)

    def announce(self, text: str, *, image: bool = True) -> Result:
        """A result of one public post about the game as it is now (see
        :meth:`GameCore.announce`), its map in the game's language."""
        return self.svc.announce(
            self.game_id,
            self.version,
            self.state,
            self.seats,
            text,
            image=image,
            lang=game_language_of(self.rec),
        )

    def result(self, *, choices: bool = False) -> Result:
        """A result of nothing done: the game as it is now (its frame, who decides)."""
        res = Result(game_id=self.game_id, version=self.version, over=self.over)
        res.frames[self.version] = self.frame()
        res.next = self.decisions(choices=choices)
        return res

    def undo_allowed(self) -> bool:
        """Whether the one deciding now may take back their last step (the Undo button):
        one seat decides, it took this session's last step, and :meth:`step_undoable`."""
        who = self.A.face.deciders(self.state)
        if self._last is None or len(who) != 1 or int(self._last[1].seat) != who[0]:
            return False
        return self.step_undoable()

    def step_undoable(self) -> bool:
        """Whether the seat that took this session's last step may take it back now: the
        answer of the undo check (:func:`service.undo.undo_plan`, ``/undo``), known from the
        step itself (no log read); False when the session applied none. Others may decide
        too (e.g. a seat's own era token, which does not wait on this step)."""
        if self._last is None or not self.rec.status.is_active:
            return False
        before, action, after, events = self._last
        seat = int(action.seat)
        if self.A.undo_why(before, seat, after, events, self.seats) is not None:
            return False
        return self.A.undo_depth(before, action, after, events, seat) >= 1

    # ------------------------------------------------------------ acting

    async def act(self, seat: int, text: str, *, choices: bool = True, lang: str = "en") -> Result:
        """``seat`` typed ``text`` (a command of the notation): apply it, or say privately why
        not (``errors``, with the rule ID). ``choices``: list who decides next's commands.
        ``lang``: the language the text is typed in (its words, the canonical notation, or a
        mix: :func:`i18n.notation.canonical`)."""
        notation = lang
        if lang != "en":
            from i18n.notation import canonical, typed_notation

            notation = typed_notation(text, lang, self.game)
            text = canonical(text, lang, self.game)
        return await self._command(seat, text=text, choices=choices, notation=notation)

    async def choose(self, seat: int, action: Any, *, choices: bool = True) -> Result:
        """``seat`` chose ``action`` (an action object, dict or JSON, e.g. from a button)."""
        return await self._command(seat, action=action, choices=choices)

    async def _command(
        self,
        seat: int,
        *,
        text: str | None = None,
        action: Any = None,
        choices: bool = True,
        notation: str = "",
    ) -> Result:
        st = self.state
        logctx.bind(seat=seat)
        res = Result(game_id=self.game_id, version=self.version, over=self.over)
        try:
            if not 0 <= seat < len(st.players):
                raise InvalidAction.of("", "error.seat.no_seat", seat=seat)
            if text is not None:
                action = self.A.face.parse_text(st, seat, text)
            else:
                action = self.A.parse_action(action)
            if action.seat != seat:
                raise NotYourDecision.of("", "error.seat.other")
            step = await self.apply(action)
        except RulesError as e:
            info = ErrorInfo(
                seat, e.rule, e.message, e.key, e.params, self.game, notation, self.A.help_args
            )
            res.errors.append(info)
            res.next = self.decisions(choices=choices)
            return res
        except VersionConflict:
            res.errors.append(ErrorInfo(seat, "", "the game changed meanwhile: try again"))
            return res
        res.extend(step)
        res.next = self.decisions(choices=choices)
        res.undo_allowed = self.step_undoable()
        return res

    async def apply(self, action: Any, *, checked: bool = True) -> Result:
        """Apply and save one action (``checked=False`` only for an action listed from this
        very state); the posts of this step. The session goes on from the new state."""
        st = self.state
        after, events = self.A.apply(st, action, checked=checked)
        desc = self.A.describe(st, action)
        saved = await self.svc.save_step(self.rec, after, action, events, desc)
        log.debug("step v%s of seat %s saved", saved.version, int(action.seat) + 1)
        res = Result(game_id=self.game_id, version=saved.version, over=self.A.over(after))
        res.applied = 1
        turn = await self.svc.turn_events(self.rec, st, after, events)
        res.frames[saved.version] = Frame(saved.version, after, tuple(turn))
        lang, seat_langs = await self.svc.readers(saved, self.seats)
        res.posts += self.svc.step_posts(
            st,
            action,
            after,
            events,
            self.seats,
            saved.version,
            desc,
            lang=lang,
            seat_langs=seat_langs,
        )
        self.rec, self.state, self._last = saved, after, (st, action, after, events)
        return res

    def ai_seat(self) -> int | None:
        """The first AI seat that decides now, if any — or a human seat whose decision has
        one answer the service gives for it (:attr:`GameAdapter.forced_answers`: Tigris's
        "support 0" with no tile to commit)."""
        deciders = self.A.face.deciders(self.state)
        for s in deciders:
            if s < len(self.seats) and self.seats[s].ai:
                return s
        if self.A.forced_answers:
            for s in deciders:
                kind = self.A.pending_kind(self.state, s)
                if kind == "turn" and s in self.manual_end:
                    continue  # the player ends their turns themselves
                if kind in self.A.forced_answers and len(self._listing(s)) == 1:
                    return s
        return None

    async def ai_step(
        self, before_secret: Callable[[int, str], Awaitable[None]] | None = None
    ) -> Result | None:
        """One AI seat's decision, applied and saved (None: no AI seat decides now). The
        decision runs in a worker process (:meth:`GameCore.decide`); ``before_secret(seat,
        kind)`` is awaited first when the AI answers a secret decision other seats wait on
        (see :data:`SECRET_ANSWERS`)."""
        s = self.ai_seat()
        logctx.bind(seat=s)
        if s is None:
            return None
        kind = self.A.pending_kind(self.state, s)
        if before_secret is not None and kind in self.A.secret_answers:
            await before_secret(s, kind)
        level = self.seats[s].ai
        forced = self._listing(s)
        if len(forced) == 1:  # every agent plays the only legal action: no worker needed
            return await self.apply(forced[0], checked=False)
        assert level is not None
        seed = decision_seed(self.seed, s, self.version)
        try:
            action = await self.svc.decide(level, seed, s, self.state, game=self.game)
            return await self.apply(action)
        except VersionConflict:
            raise
        except Exception as e:  # a computer player's failure must never stall a game
            self.svc.ai_failed(self.game_id, s, level, e)
        # that decision falls back to the heuristic in this process (and to the first legal
        # action if even the heuristic fails): the game goes on
        try:
            fallback = make_agent(FALLBACK_LEVEL, seed, self.game)
            action = await asyncio.to_thread(fallback.decide, self.state, s)
            return await self.apply(action)
        except VersionConflict:
            raise
        except Exception as e:
            self.svc.ai_failed(self.game_id, s, FALLBACK_LEVEL, e)
        return await self.apply(self._listing(s)[0])

    async def run_ai(
        self,
        *,
        max_steps: int = 100_000,
        on_step: Callable[[Result], Any] | None = None,
        until: Callable[[GameState], bool] | None = None,
        before_secret: Callable[[int, str], Awaitable[None]] | None = None,
    ) -> Result:
        """Let AI seats decide, from the state in memory, until no AI seat may decide (a human
        must, or the game is over) or ``until(state)`` is true; ``on_step(step_result)`` after
        each action (awaited if it returns an awaitable)."""
        res = Result(game_id=self.game_id, version=self.version, over=self.over)
        for _ in range(max_steps):
            if until is not None and until(self.state):
                break
            step = await self.ai_step(before_secret)
            if step is None:
                break
            res.extend(step)
            await notify(on_step, step)
        res.version, res.over = self.version, self.over
        res.frames.setdefault(self.version, self.frame())
        res.next = self.decisions(choices=False)  # who decides; their choices when asked
        return res

    # ------------------------------------------------------------ the guided flow

    def legal(self, seat: int) -> list[Any]:
        """The legal actions of ``seat`` now (empty if it has nothing to decide)."""
        return list(self._listing(seat)) if self.decides(seat) else []

    def _listing(self, seat: int) -> list[Any]:
        """``seat``'s legal actions in the state in memory, listed once per state and seat
        (the forced-answer check, the step it answers and a menu share one listing)."""
        kept = self._listed
        if kept is not None and kept[0] is self.state and kept[1] == seat:
            return kept[2]
        acts = list(self.A.face.legal_actions(self.state, seat))
        self._listed = (self.state, seat, acts)
        return acts

    def legal_texts(self, seat: int, *, lang: str = "en") -> list[str]:
        """The commands ``seat`` may type now, in the notation (written with the words of
        ``lang``: :func:`i18n.notation.localize`)."""
        texts = [self.A.face.format_action(self.state, a) for a in self.legal(seat)]
        if lang != "en":
            from i18n.notation import localize

            texts = [localize(t, lang, self.game) for t in texts]
        return texts

    def choices(self, seat: int, *, lang: str = "en") -> list[Choice]:
        """The legal actions of ``seat`` (listed once) as menu choices in the game's words:
        names, not notation ids, from what ``seat`` sees (see :mod:`service.labels`), in
        ``lang``."""
        return self.A.choices(self.state, seat, self.legal(seat), lang)

    def describe(self, action: Any) -> str:
        """An action as a command of the notation (``build sawmill D3``)."""
        return self.A.face.format_action(self.state, action)

    def payment_path(self, action: Any, path: Sequence[int]) -> Any | None:
        """The payment step that the option numbers ``path`` lead to, paying ``action`` one
        token at a time; None if they no longer make sense, or the game has no payment chooser
        (:class:`service.games.PaymentChooser`: Brazil: Imperial's ``PaymentStep``)."""
        A = self.A
        if not isinstance(A, PaymentChooser):
            return None
        return A.payment_path(self.state, action, path)

    def complete(self, seat: int, prefix: str, *, lang: str = "en") -> list[str]:
        """The commands ``seat`` may type now that start with ``prefix``; with ``lang``, typed
        and shown in that language's words (:func:`i18n.notation.complete`)."""
        if not self.decides(seat):
            return []
        face = self.A.face
        if lang == "en":
            return face.complete(self.state, seat, prefix)
        from i18n import notation

        return notation.complete(prefix, face.legal_texts(self.state, seat), lang, self.game)

    @property
    def last_step(self) -> tuple[GameState, Any, GameState, list[Event]] | None:
        """The step this session applied last (before, action, after, events), if any."""
        return self._last
