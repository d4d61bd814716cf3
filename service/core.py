"""The game service's core (:class:`GameCore`, completed by :class:`service.game.GameService`
with the lobbies and the pacing): one async call per command, for every surface (terminal,
Discord).

No Discord and no terminal here: a call takes the game's lock, loads the game from storage,
turns the typed text (the engine's notation) or the chosen action into an action,
``rules.apply``-s it, saves the new state in one transaction (optimistic: the expected
version), and returns a :class:`Result` of plain data:

- ``posts``: what to show, per audience — ``"public"`` (everybody) or one seat number
  (privately). Public posts are made only of public events (``rules.brazil.events.for_seat(events,
  None)``); a seat's private post holds the secret events that seat may see. Each post names
  the images to draw (:class:`ImageRequest`: the kind and whose view), drawn later by the
  surface with :meth:`GameCore.render` (in a worker process of :mod:`service.workers`).
- ``errors``: private to the actor, each with the rule ID (``RulesError.rule``).
- ``next``: who decides now (:class:`Decision`), with their legal choices as commands of the
  notation. The choices are private to that seat (they may name its hidden cards).

    service = GameCore(store)
    res = await service.new_game(["Ana", "Bo", "ai:heuristic"], seed=7)
    res = await service.run_ai_turns(res.game_id)
    res = await service.act(res.game_id, seat=0, text="colour blue")

Commands are the engine's notation (``rules.brazil.notation``). Computer players come from
``ai.make_agent`` and undo points from ``rules.brazil.undo``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import i18n
from i18n import Msg, msg, tr, translator
from rules.errors import InvalidAction, NotYourDecision, RulesError
from rules.games import DEFAULT as DEFAULT_GAME
from service import logctx, metrics
from service.games import GameAdapter, PaymentChooser, adapter, adapter_of, seat_label, title_key
from service.images import render_image as render_image  # the name's old home
from service.language import Languages, game_language_of
from service.locks import GameLock
from service.results import (
    Decision,
    ErrorInfo,
    Frame,
    GameInfo,
    ImageRequest,
    Post,
    Refused,
    Result,
    ScoreRow,
    SeatSpec,
    Status,
)
from service.timeline import timeline_frames
from service.undo import UndoPlan, undo_plan
from service.workers import Agent, WorkerError, WorkerPool, decision_seed, make_agent
from storage import (
    GameRecord,
    GameResult,
    GameSettings,
    GameStatus,
    GameSummary,
    PlayerStats,
    PrivatePlace,
    Seat,
    VersionConflict,
)
from storage.base import GameStore
from storage.models import EntryKind, SeatKind

if TYPE_CHECKING:
    from service.labels import Choice

GameState = Any  # a state of any game of rules.games (Brazil: Imperial's rules.GameState, …)
Event = Any  # an event of any game

log = logging.getLogger("service")

# ============================================================================ adapters


# ============================================================================ storage


def game_seat(n: int, spec: SeatSpec) -> Seat:
    """Seat number ``n`` of a game, played by ``spec`` (as the seats table keeps it)."""
    if spec.ai:
        return Seat.ai(n, spec.ai, name=spec.name)
    if spec.user_id is not None:
        return Seat.discord(n, spec.user_id, name=spec.name)
    return Seat.local(n, spec.name)


class _Store:
    """The calls the service makes to storage (seats by number, undo, descriptions)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def create(
        self,
        channel_id: int,
        state: GameState,
        settings: GameSettings,
        seats: Sequence[SeatSpec],
        guild_id: int | None,
        game: str = DEFAULT_GAME,
    ) -> GameRecord:
        return await self.store.create_game(
            channel_id,
            initial_state_json=adapter(game).dump(state),
            settings=settings,
            guild_id=guild_id,
            seats=[game_seat(n, spec) for n, spec in enumerate(seats)],
            status=GameStatus.RUNNING,
            game=game,
        )

    async def save(
        self,
        game_id: int,
        version: int,
        after: GameState,
        action: Any,
        seat: int,
        events: list[Event],
        description: str | None,
    ) -> GameRecord:
        A = adapter_of(after)
        result = None
        final = A.final_result(after)
        if final is not None:
            result = GameResult(scores=final[0], winners=final[1])
        try:
            with metrics.timed(metrics.STORE_SECONDS, "save"):
                rec = await self.store.save(
                    game_id,
                    expected_version=version,
                    state_json=A.dump(after),
                    action_json=A.action_json(action),
                    seat=seat,
                    events_json=A.events_json(events),
                    description=description,
                    result=result,
                )
        except VersionConflict:
            metrics.CONFLICTS.inc()
            raise
        metrics.STEPS.inc()
        return rec


# ============================================================================ the service


FALLBACK_LEVEL = "heuristic"
"""The computer player that decides for one whose decision failed."""

SECRET_ANSWERS = frozenset({"combat_cards"})
"""Brazil: Imperial's decision kinds answered secretly while other players wait on the
answer (a battle's cards): an automatic answer to one must not come at a telling speed.
Each game's are its adapter's ``secret_answers`` (Tigris: a conflict's support)."""


def _load(rec: GameRecord) -> GameState:
    """The record's state, read by its game's engine."""
    return adapter(rec.game).load(rec.state_json)


def _takes_game(factory: Callable[..., Any]) -> bool:
    """Whether an agent factory takes the game's name (``game=``)."""
    try:
        return "game" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


async def _notify(on_step: Callable[[Result], Any] | None, step: Result) -> None:
    """Call ``on_step(step)``, awaiting what it returns when that is awaitable."""
    if on_step is not None:
        r = on_step(step)
        if inspect.isawaitable(r):
            await r


def _seed(rec: GameRecord) -> int:
    return rec.settings.seed or 0


class GameSession:
    """One game loaded once, under its lock, for one interaction (or one AI run): every
    call on it works on the state in memory and saves in one transaction per action, so a
    button press costs one load, one validation and one listing. Get one with
    ``async with service.session(game_id) as s:``; it is valid only inside that block."""

    def __init__(
        self,
        svc: GameCore,
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
        return _seed(self.rec)

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

    def decisions(self, *, choices: bool = True, lang: str = "en") -> list[Decision]:
        """Who decides now (their names in ``lang``)."""
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
        if lang != "en":
            from i18n.notation import canonical

            text = canonical(text, lang, self.game)
        return await self._command(seat, text=text, choices=choices)

    async def choose(self, seat: int, action: Any, *, choices: bool = True) -> Result:
        """``seat`` chose ``action`` (an action object, dict or JSON, e.g. from a button)."""
        return await self._command(seat, action=action, choices=choices)

    async def _command(
        self, seat: int, *, text: str | None = None, action: Any = None, choices: bool = True
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
            res.errors.append(ErrorInfo(seat, e.rule, e.message, e.key, e.params))
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
                if (
                    self.A.pending_kind(self.state, s) in self.A.forced_answers
                    and len(self.A.face.legal_actions(self.state, s)) == 1
                ):
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
        forced = self.A.face.legal_actions(self.state, s)
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
        return await self.apply(self.A.face.legal_actions(self.state, s)[0])

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
            await _notify(on_step, step)
        res.version, res.over = self.version, self.over
        res.frames.setdefault(self.version, self.frame())
        res.next = self.decisions(choices=False)  # who decides; their choices when asked
        return res

    # ------------------------------------------------------------ the guided flow

    def legal(self, seat: int) -> list[Any]:
        """The legal actions of ``seat`` now (empty if it has nothing to decide)."""
        return self.A.face.legal_actions(self.state, seat) if self.decides(seat) else []

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


class GameCore:
    """Surface-neutral commands over a :class:`storage.base.GameStore` (see module doc).

    ``agent_factory(level, seed)`` makes computer players (default :func:`make_agent`): one
    per decision, seeded from the game's seed, the seat and the version
    (:func:`service.workers.decision_seed`), so a decision is the same in any process and
    after a restart. ``workers``: the pool that draws the images and runs the computer
    players (default: none, threads of this process); the surface that made it closes it
    (:meth:`aclose`). The service owns the games' locks: one writer per game, whatever the
    surface.
    """

    def __init__(
        self,
        store: GameStore,
        *,
        agent_factory: Callable[..., Agent] = make_agent,
        rulebook_path: str | None = None,
        workers: WorkerPool | None = None,
    ) -> None:
        self.store = store
        self.workers = workers if workers is not None else WorkerPool(0)
        self._st = _Store(store)
        self.languages = Languages(self)  # who reads in which language
        self._locks: dict[int, GameLock] = {}
        self._turn_events: dict[int, list[Event]] = {}
        self._ai_failures: set[tuple[int, int, str]] = set()
        self._agent_factory = agent_factory
        self._rulebook_path = rulebook_path

    # ---------------------------------------------------------------- basics

    def lock(self, game_id: int) -> GameLock:
        """The game's lock: every call that writes holds it (one writer per game); re-entrant
        within a task, so a surface may hold it around a call and its publishing."""
        lk = self._locks.get(game_id)
        if lk is None:
            lk = self._locks[game_id] = GameLock()
        return lk

    @contextlib.asynccontextmanager
    async def session(
        self, game_id: int, *, loaded: GameSession | None = None
    ) -> AsyncIterator[GameSession]:
        """The game under its lock, loaded once (see :class:`GameSession`). ``loaded``: a
        session read before the lock (:meth:`peek`) reused as it is when nobody took the
        game's lock since it was read (every writer of this process holds it), else the game
        is loaded again; a writer in another process is caught by the save's expected
        version."""
        lk = self.lock(game_id)
        async with lk:
            taken_since = lk.acquisitions - (loaded.gen if loaded is not None else 0)
            fresh = loaded is not None and taken_since <= (0 if lk.depth > 1 else 1)
            if loaded is not None and fresh:
                yield GameSession(self, loaded.rec, loaded.state, loaded.seats)
            else:
                yield await self.peek(game_id)

    async def peek(self, game_id: int) -> GameSession:
        """The game loaded once without its lock: to read, check and answer quickly (a
        button's refusal, a guided menu); write through :meth:`session` (``loaded=``)."""
        gen = self.lock(game_id).acquisitions
        rec, st, seats = await self._get(game_id)
        return GameSession(self, rec, st, seats, gen=gen)

    async def peek_channel(self, channel_id: int) -> GameSession | None:
        """The channel's active game loaded once (None: no game, or only a lobby)."""
        rec = await self.store.get_active_game(channel_id)
        if rec is None or rec.status is GameStatus.LOBBY:
            return None
        gen = self.lock(rec.id).acquisitions
        return GameSession(self, rec, _load(rec), self.seat_specs(rec), gen=gen)

    async def _get(self, game_id: int) -> tuple[GameRecord, GameState, list[SeatSpec]]:
        with metrics.timed(metrics.STORE_SECONDS, "load"):
            rec = await self.store.get_game(game_id)
        return rec, _load(rec), self.seat_specs(rec)

    @staticmethod
    def seat_specs(rec: GameRecord) -> list[SeatSpec]:
        """The game's seats as the service knows them (name, AI level, Discord user)."""
        out = []
        for n in range(rec.settings.player_count):
            seat = rec.seat(n)
            if seat is None:
                out.append(SeatSpec(name=f"Seat {n + 1}"))
            elif seat.kind is SeatKind.DISCORD:
                name = seat.name or f"Player {n + 1}"
                out.append(SeatSpec(name=name, ai=seat.ai_level, user_id=seat.user_id))
            elif seat.kind is SeatKind.AI:
                out.append(SeatSpec(name=seat.name or f"AI {seat.ai_level}", ai=seat.ai_level))
            else:
                out.append(SeatSpec(name=seat.name or f"Seat {n + 1}"))
        return out

    def forget(self, game_id: int) -> None:
        """Drop what the service remembers of the game's current turn (its events): after a
        rollback or a seat change they no longer apply."""
        self._turn_events.pop(game_id, None)

    async def info(self, game_id: int) -> GameInfo:
        rec, st, seats = await self._get(game_id)
        return GameInfo(
            game_id=game_id,
            version=rec.version,
            seats=tuple(seats),
            scenario=rec.settings.scenario,
            seed=_seed(rec),
            over=adapter_of(st).over(st),
            game=rec.game,
        )

    async def state(self, game_id: int) -> GameState:
        """The full current state (secret: for rendering through a view, and for tests)."""
        return (await self._get(game_id))[1]

    async def view(self, game_id: int, seat: int | None) -> GameState:
        """The current state as ``seat`` (None: a spectator) may see it."""
        st = await self.state(game_id)
        return adapter_of(st).face.view(st, seat)

    @staticmethod
    def who(st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str = "en") -> str:
        """``"Ana (red)"``: the seat's player and colour once chosen (in ``lang``)."""
        return seat_label(st, seats, seat, lang)

    def decisions(
        self, st: GameState, seats: Sequence[SeatSpec], *, choices: bool = True, lang: str = "en"
    ) -> list[Decision]:
        out = []
        A = adapter_of(st)
        for s in A.face.deciders(st):
            ai = s < len(seats) and seats[s].ai is not None
            kind = A.pending_kind(st, s)
            out.append(
                Decision(
                    seat=s,
                    who=seat_label(st, seats, s, lang),
                    ai=ai,
                    kind=kind,
                    choices=tuple(A.face.legal_texts(st, s)) if choices and not ai else (),
                    user_id=seats[s].user_id if s < len(seats) else None,
                    term=A.decision_term(kind),
                )
            )
        return out

    def status(
        self, game_id: int, st: GameState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> Status:
        """The game's status (scenario, phase, era and round — or the game's own words —,
        who is awaited): the one source of every surface's status text (names in ``lang``)."""
        waiting = tuple(self.decisions(st, seats, choices=False, lang=lang))
        return adapter_of(st).status(game_id, st, seats, waiting, lang)

    @staticmethod
    def round_of(st: GameState) -> int:
        """The round ``st`` is in (0: setting up): a round cap's measure (the demo's)."""
        return adapter_of(st).round_of(st)

    @staticmethod
    def progress(st: GameState) -> float:
        """How far the game of ``st`` has come, from 0 to 1 (a progress bar)."""
        return adapter_of(st).progress(st)

    # ---------------------------------------------------------------- new game

    async def new_game(
        self,
        seats: Sequence[SeatSpec | str],
        *,
        scenario: str | None = None,
        seed: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        data_pack: str | None = None,
        language: str = "en",
        game: str = DEFAULT_GAME,
        options: Mapping[str, Any] | None = None,
    ) -> Result:
        """Create and save a game: one seat per entry of ``seats`` (players = len(seats));
        ``game``: which game, by name (:func:`rules.games.names`: ``"brazil"``, the default,
        or ``"tigris"``), recorded with the game; ``options``: the game's own options
        (Tigris: ``open_scoring``); ``scenario`` is a map id (Brazil: Imperial; default: the
        first map for the player count). The result names who decides first.
        ``channel_id`` (Discord channel; local: a fresh number); ``language``: the game's
        public posts' (:class:`i18n.UnknownLanguage` if not served). An unknown game is a
        :class:`Refused` naming the known ones."""
        lang = i18n.require(language)
        A = self.game_adapter(game)
        specs = [s if isinstance(s, SeatSpec) else SeatSpec.parse(s) for s in seats]
        st = self.build_game(len(specs), scenario, seed, data_pack, game=A.name, options=options)
        if channel_id is None:
            games = await self.store.list_games(limit=None)
            channel_id = max([g.channel_id for g in games] + [0]) + 1
        settings = GameSettings(
            scenario=A.scenario_of(st),
            player_count=len(specs),
            data_pack=data_pack,
            seed=A.seed_of(st),
            language=lang,
        )
        rec = await self._st.create(channel_id, st, settings, specs, guild_id, game=A.name)
        return self.started(rec, st, specs)

    @staticmethod
    def game_adapter(game: str | None) -> GameAdapter:
        """The adapter of game ``game`` (:mod:`service.games`); a :class:`Refused`
        naming the known games for an unknown one."""
        from rules.games import UnknownGame

        try:
            return adapter(game)
        except UnknownGame as e:
            raise Refused(str(e)) from e

    @staticmethod
    def games() -> list[str]:
        """The games the service plays, by name, the default first."""
        from rules.games import names

        return names()

    @staticmethod
    def has_colours(game: str | None) -> bool:
        """Whether a lobby of ``game`` offers a colour wish per seat (Brazil: Imperial)."""
        try:
            return adapter(game).has_colours
        except Exception:
            return False

    @staticmethod
    def game_titles() -> list[tuple[str, str]]:
        """The games the service plays, the default first: (name, the catalogue key of its
        title: ``game.tigris``), for a surface's menu of games in its reader's language."""
        from rules.games import names

        return [(n, title_key(n)) for n in names()]

    @staticmethod
    def player_range(game: str = DEFAULT_GAME) -> tuple[int, int]:
        """The fewest and most players ``game`` is for."""
        face = GameCore.game_adapter(game).face
        return face.min_players, face.max_players

    @staticmethod
    def build_game(
        players: int,
        scenario: str | None,
        seed: int | None,
        data_pack: str | None = None,
        *,
        game: str = DEFAULT_GAME,
        options: Mapping[str, Any] | None = None,
    ) -> GameState:
        """A new game's state (``rules.new_game``; without a seed, the engine draws a secret
        64-bit one); Refused saying why not."""
        A = GameCore.game_adapter(game)
        try:
            return A.build(players, scenario, seed, data_pack, options)
        except RulesError as e:
            raise Refused(msg(e.key, **e.params) if e.key else e.message) from e

    def started(self, rec: GameRecord, st: GameState, specs: Sequence[SeatSpec]) -> Result:
        """The result of a game just created: "New game #N on MAP: who plays", who decides
        (in the game's language)."""
        lang = game_language_of(rec)
        res = Result(game_id=rec.id, version=rec.version)
        res.frames[rec.version] = Frame(rec.version, st)
        text = adapter_of(st).new_game_text(lang, rec.id, st, specs)
        res.posts.append(Post("public", text))
        res.next = self.decisions(st, specs)
        return res

    # ---------------------------------------------------------------- commands

    async def act(self, game_id: int, seat: int, text: str, *, lang: str = "en") -> Result:
        """``seat`` typed ``text`` (a command of the notation, or in the words of ``lang``):
        apply it, or say privately why not (``errors``, with the rule ID)."""
        async with self.session(game_id) as s:
            return await s.act(seat, text, lang=lang)

    async def choose(self, game_id: int, seat: int, action: Any) -> Result:
        """``seat`` chose ``action`` (an action object, dict or JSON, e.g. from a button)."""
        async with self.session(game_id) as s:
            return await s.choose(seat, action)

    async def save_step(
        self,
        rec: GameRecord,
        after: GameState,
        action: Any,
        events: list[Event],
        description: str | None,
    ) -> GameRecord:
        """Save one applied action (expected version: ``rec.version``)."""
        return await self._st.save(
            rec.id, rec.version, after, action, action.seat, events, description
        )

    async def turn_events(
        self, rec: GameRecord, before: GameState, after: GameState, events: list[Event]
    ) -> list[Event]:
        """The turn's events so far, this step's included: a turn's map highlights the whole
        turn. Kept in memory, and read back from the log when memory has none (after a
        restart, a rollback, in another process). A new turn starts empty."""
        game_id = rec.id
        turn = self._turn_events.get(game_id)
        if turn is None:
            turn = self._turn_events[game_id] = await self._turn_so_far(rec, before)
        turn += events
        out = list(turn)
        A = adapter_of(after)
        if A.turn_key(before) != A.turn_key(after):
            self._turn_events[game_id] = []
        return out

    async def _turn_so_far(self, rec: GameRecord, before: GameState) -> list[Event]:
        """The events of the turn in progress at ``rec.version``, from the log: those of the
        steps since the one that began the turn (its "Round …: …'s turn." or the game's
        start), less the steps an undo or a rollback took back."""
        A = adapter_of(before)
        if not A.playing(before) or rec.version < 1:
            return []
        entries = await self.store.get_log(rec.id, from_version=max(1, rec.version - 63))
        out: list[Event] = []
        undone_above: int | None = None  # an undo or a rollback took back the later steps
        for e in reversed(entries):
            if e.version > rec.version:
                continue  # the step being applied (saved already) is added by the caller
            if undone_above is not None and e.version > undone_above:
                continue
            if e.kind in (EntryKind.UNDO, EntryKind.ROLLBACK):
                undone_above = int(e.target_version or 0)
                continue
            if e.kind is not EntryKind.ACTION:
                break
            evs = A.events_from_json(e.events_json)
            if A.begins_turn(evs):
                break
            out = evs + out
        return out

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
    ) -> list[Post]:
        """The posts of one step: its public line (with the map when the turn ends, the
        battle, the final boards and scores) in the game's language ``lang``, and each
        seat's secret events privately in that seat's language (``seat_langs``): the game's
        adapter's (:mod:`service.games`), then the final scores once the game is over."""
        A = adapter_of(after)
        posts = A.step_posts(
            before, action, after, events, seats, version, lang=lang, seat_langs=seat_langs
        )
        if A.over(after):
            posts.append(Post("public", self._final_text(after, seats, lang)))
        return posts

    async def readers(
        self, rec: GameRecord, seats: Sequence[SeatSpec]
    ) -> tuple[str, dict[int, str]]:
        """The game's language (its public posts) and each human seat's reader's language
        (their private posts): :class:`service.language.Languages`, kept in memory."""
        lang = game_language_of(rec)
        langs = self.languages
        return lang, {
            i: await langs.user_language(spec.user_id, None, game=lang)
            for i, spec in enumerate(seats)
            if spec.user_id is not None and not spec.ai
        }

    # ---------------------------------------------------------------- AI

    async def decide(
        self, level: str, seed: int, seat: int, state: GameState, *, game: str | None = None
    ) -> Any:
        """The decision of a computer player of ``level`` seeded ``seed`` (see
        :func:`service.workers.decision_seed`) for ``seat`` in ``state``, made in a worker
        process (a thread when the pool is off, or when a test's agent factory cannot be
        sent to one): an action. Raises what the agent raised, or
        :class:`service.workers.WorkerError` when its worker failed twice."""
        A = adapter_of(state) if game is None else adapter(game)
        factory: Callable[..., Agent] | None = self._agent_factory
        if factory is make_agent or (
            A.name != DEFAULT_GAME and factory is not None and not _takes_game(factory)
        ):
            factory = None  # a factory of Brazil: Imperial's agents plays no other game
        with metrics.timed(metrics.AI_SECONDS, level):
            action_json = await self.workers.decide(factory, level, seed, seat, state, game=A.name)
        return A.parse_action(action_json)

    def ai_failed(self, game_id: int, seat: int, level: str, error: Exception) -> None:
        """Log a computer player's failure, once per game, seat and level (the decision then
        falls back: see :meth:`GameSession.ai_step`)."""
        key = (game_id, seat, level)
        if key in self._ai_failures:
            return
        self._ai_failures.add(key)
        log.error(
            "game %s: the %s computer player of seat %s failed (%r); the heuristic decides "
            "for it when it fails",
            game_id,
            level,
            seat + 1,
            error,
            exc_info=None if isinstance(error, WorkerError) else error,  # its sentence says all
        )

    async def run_ai_turns(
        self,
        game_id: int,
        *,
        max_steps: int = 100_000,
        on_step: Callable[[Result], Any] | None = None,
        until: Callable[[GameState], bool] | None = None,
        before_secret: Callable[[int, str], Awaitable[None]] | None = None,
    ) -> Result:
        """Let AI seats decide, one saved action at a time (the lock is taken per step, so a
        human's command may come in between), until no AI seat may decide: a human must, or
        the game is over. ``on_step(step_result)`` is called after each action (awaited if it
        returns an awaitable); ``until(state)`` true stops before the next step (e.g. a round cap).
        The decisions run in a worker thread. ``before_secret(seat, kind)`` is awaited before
        an AI seat answers a secret decision other seats wait on (its ``combat_cards``): the
        Discord bot waits a random delay there, so the answer's timing reveals nothing."""
        res: Result | None = None
        for _ in range(max_steps):
            async with self.session(game_id) as s:
                step = await s.run_ai(max_steps=1, until=until, before_secret=before_secret)
            if res is None:
                res = Result(game_id=game_id, version=step.version, over=step.over)
            if not step.applied:
                break
            res.extend(step)
            await _notify(on_step, step)
        async with self.session(game_id) as s:
            out = s.result(choices=True)
        if res is not None:
            res.version, res.over, res.next = out.version, out.over, out.next
            return res
        return out

    # ---------------------------------------------------------------- undo, legal

    async def legal(self, game_id: int, seat: int, *, lang: str = "en") -> list[str]:
        """The commands ``seat`` may type now (empty if it has nothing to decide), written
        with the words of ``lang``."""
        return (await self.peek(game_id)).legal_texts(seat, lang=lang)

    async def complete(
        self, game_id: int, seat: int, prefix: str, *, lang: str = "en"
    ) -> list[str]:
        """The commands ``seat`` may type now that start with ``prefix`` (typed and shown in
        the words of ``lang``)."""
        return (await self.peek(game_id)).complete(seat, prefix, lang=lang)

    async def undo_check(self, game_id: int, seat: int) -> UndoPlan:
        """What ``seat`` would take back with an undo now; :class:`Refused` saying why not."""
        rec, st, seats = await self._get(game_id)
        return await undo_plan(self.store, rec, st, seats, seat)

    async def undo_check_in(self, s: GameSession, seat: int) -> UndoPlan:
        """:meth:`undo_check` on a game already loaded."""
        return await undo_plan(self.store, s.rec, s.state, s.seats, seat)

    async def undo(self, game_id: int, seat: int) -> Result:
        """Take back ``seat``'s last step when the game's rules allow it (Brazil: Imperial: it
        revealed nothing, used no randomness, nobody else decided since, the turn goes on);
        a refusal is an error saying why (the same check as ``/undo`` and the Undo button)."""
        async with self.session(game_id) as s:
            return await self.undo_in(s, seat)

    async def undo_in(self, s: GameSession, seat: int) -> Result:
        """:meth:`undo` inside a session (the lock held, the game loaded)."""
        try:
            plan = await undo_plan(self.store, s.rec, s.state, s.seats, seat)
            before = s.A.load(await self.store.state_at(s.game_id, plan.target))
            saved = await self.store.undo(
                s.game_id, plan.target, by=seat, expected_version=s.version
            )
        except Refused as e:
            res = s.result(choices=True)
            why = e.reason
            key, params = (why.key, dict(why.params)) if isinstance(why, Msg) else ("", {})
            rule = s.A.undo_rule
            res.errors.append(ErrorInfo(seat, rule, str(e), key, params))
            return res
        self.forget(s.game_id)
        s.rec, s.state, s._last = saved, before, None
        lang = game_language_of(saved)
        who = seat_label(before, s.seats, seat, lang)
        text = tr(lang, "svc.core.took_back", who=who, what=plan.description)
        return self.announce(s.game_id, saved.version, before, s.seats, text, lang=lang)

    # ---------------------------------------------------------------- information

    async def board(
        self, game_id: int, seat: int | None = None, *, lang: str | None = None
    ) -> Result:
        """The board as text and images: public post (map + boards, in the game's language
        or ``lang``), and for ``seat`` a private post with its hand image (in ``lang``)."""
        rec, st, seats = await self._get(game_id)
        A = adapter_of(st)
        lang = lang or game_language_of(rec)
        res = Result(game_id=game_id, version=rec.version, over=A.over(st))
        res.frames[rec.version] = Frame(rec.version, st)
        L = translator(lang)
        lines = [self.status(game_id, st, seats, lang).text(lang)]
        lines += [
            L("svc.core.score_hidden", who=row.who)
            if row.hidden
            else L("svc.core.score_line", who=row.who, vp=row.total)
            for row in self.score_rows(st, seats, lang)
        ]
        imgs = A.board_images(rec.version, lang)
        res.posts.append(Post("public", "\n".join(lines), imgs))
        if seat is not None:
            res.posts.append(self.hand_post(rec.version, st, seats, seat, lang))
        res.next = self.decisions(st, seats, choices=False)
        return res

    async def hand(
        self, game_id: int, seat: int, *, news: bool = False, lang: str = "en"
    ) -> Result:
        """``seat``'s secret hand as a private post (text + hand image); with ``news``, the
        private news kept for the seat since it last looked (:meth:`hold_news`) follows,
        and is then marked read."""
        rec, st, seats = await self._get(game_id)
        res = Result(game_id=game_id, version=rec.version, over=adapter_of(st).over(st))
        res.frames[rec.version] = Frame(rec.version, st)
        res.posts.append(self.hand_post(rec.version, st, seats, seat, lang))
        if news:
            items = await self.store.unread_news(game_id, seat)
            if items:
                lines = "\n".join(f"- {n.text}" for n in items)
                res.posts.append(Post(seat, tr(lang, "svc.core.news") + "\n" + lines))
                await self.store.mark_news_read(game_id, seat, items[-1].id)
        return res

    async def hold_news(self, game_id: int, seat: int, texts: Sequence[str]) -> None:
        """Keep private news for ``seat`` until it next looks at its hand (in storage: a
        restart loses nothing)."""
        await self.store.add_news(game_id, seat, texts)

    def hand_post(
        self, version: int, st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> Post:
        image = ImageRequest("hand", seat, version, lang=lang, game=adapter_of(st).name)
        return Post(seat, self.hand_text(st, seats, seat, lang), (image,))

    def hand_text(
        self, st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> str:
        """``seat``'s secret hand in words (its game's adapter's)."""
        return adapter_of(st).hand_text(st, seats, seat, lang)

    def score_rows(
        self, st: GameState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> list[ScoreRow]:
        """Public scores of ``st`` (Brazil: hidden missions and gold cards not counted;
        Tigris: only with open scoring, else ``hidden``), or the final score sheet with
        categories and winners once the game is over."""
        return adapter_of(st).score_rows(st, seats, lang)

    async def scores(self, game_id: int, lang: str = "en") -> list[ScoreRow]:
        """Public scores now (hidden missions and gold cards not counted), or the final
        score sheet with categories and winners once the game is over (names in ``lang``)."""
        _, st, seats = await self._get(game_id)
        return self.score_rows(st, seats, lang)

    def _final_text(self, st: GameState, seats: Sequence[SeatSpec], lang: str = "en") -> str:
        rows = sorted(self.score_rows(st, seats, lang), key=lambda r: -r.total)
        L = translator(lang)
        lines = [L("svc.core.final")]
        lines += [
            L("svc.core.final_winner" if r.winner else "svc.core.final_line", who=r.who, vp=r.total)
            for r in rows
        ]
        if not any(r.winner for r in rows):
            lines.append(L("svc.core.nobody_won"))
        return "\n".join(lines)

    async def log(self, game_id: int, *, last: int = 20, lang: str = "en") -> list[str]:
        """The last public events of the game, one line per action (oldest first)."""
        rec = await self.store.get_game(game_id)
        return await self._log_lines(rec, last, lang)

    async def _log_lines(self, rec: GameRecord, last: int, lang: str = "en") -> list[str]:
        entries = await self.store.get_log(rec.id, from_version=max(1, rec.version - last + 1))
        A = adapter(rec.game)
        st, seats = _load(rec), self.seat_specs(rec)
        lines = []
        for e in entries:
            kind = str(getattr(e, "kind", "action"))
            if kind in ("undo", "rollback"):
                key = f"svc.core.log.{kind}"
                lines.append(tr(lang, key, version=e.version, target=e.target_version))
                continue
            evs = A.public(A.events_from_json(e.events_json))
            texts = [A.log_text(ev, st, seats, lang) for ev in evs]
            lines.append(f"v{e.version}: " + (" ".join(texts) or tr(lang, "svc.core.log.none")))
        return lines

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
    ) -> Result:
        """A result of one public post (``text``, with the map of ``st`` at ``version`` unless
        ``image`` is false; ``lang``: the game's language, for the map) and the next
        decisions: for undo, rollback, seat changes, imports and catching up after a
        restart."""
        game = adapter_of(st)
        res = Result(game_id=game_id, version=version, over=game.over(st))
        res.frames[version] = Frame(version, st)
        imgs = (ImageRequest("map", None, version, lang=lang, game=game.name),) if image else ()
        res.posts.append(Post("public", text, imgs))
        res.next = self.decisions(st, seats)
        return res

    async def catch_up(self, game_id: int, since: int) -> Result:
        """What the channel missed after version ``since`` (saved, never posted: the bot
        stopped between a save and its post): the public lines of those steps and the map
        now, with the next decisions, to publish again."""
        return await self.catch_up_in(await self.peek(game_id), since)

    async def catch_up_in(self, s: GameSession, since: int) -> Result:
        """:meth:`catch_up` on a game already loaded."""
        missed = await self._log_lines(s.rec, max(1, s.version - since))
        text = "\n".join(["The bot restarted; steps saved but not shown yet:", *missed])
        return self.announce(s.game_id, s.version, s.state, s.seats, text)

    # ---------------------------------------------------------------- the surface's bookkeeping

    async def find(self, channel_id: int) -> GameRecord | None:
        """The channel's active game or lobby (None: none)."""
        return await self.store.get_active_game(channel_id)

    async def games_of(self, user_id: int, guild_id: int | None) -> list[tuple[GameSummary, bool]]:
        """``user_id``'s active games and lobbies on a server, each with whether the user
        decides now."""
        recs = await self.store.list_games(
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
                st = await self.state(g.id)
                now = set(adapter_of(st).face.deciders(st))
            out.append((g, bool(mine & now)))
        return out

    async def record(self, game_id: int) -> GameRecord:
        """The game's record (its settings, seats and status; the state unread)."""
        return await self.store.get_game(game_id)

    async def latest_game(self, channel_id: int | None) -> GameSummary | None:
        """The channel's active game, else its newest one (None: the channel never had one)."""
        if channel_id is None:
            return None
        rec = await self.store.get_active_game(channel_id)
        if rec is not None:
            return rec
        games = await self.store.list_games(channel_id=channel_id, limit=1)
        return games[0] if games else None

    async def player_stats(self, user_id: int, *, guild_id: int | None = None) -> PlayerStats:
        """A player's finished games, wins and scores (on a server, or everywhere)."""
        return await self.store.player_stats(user_id, guild_id=guild_id)

    @staticmethod
    def use_data_packs(folder: str | None) -> None:
        """Where games find the component data packs they name (each game's adapter)."""
        from service.games import use_data_packs

        use_data_packs(folder)

    @staticmethod
    def grammar(game: str = DEFAULT_GAME) -> tuple[tuple[str, str, str], ...]:
        """The typed commands' grammar of ``game``: (command, action type, example) per
        command."""
        return adapter(game).grammar()

    def scenarios(self, game: str | None = None) -> list[tuple[str, str]]:
        """The maps a game of ``game`` (None: the default game) may be played on: (id, name)."""
        return adapter(game).scenarios()

    async def unposted(self) -> list[tuple[GameSummary, int]]:
        """Every game saved past its last published version (the surface stopped between a
        save and its post): the game and the last version published."""
        out = []
        for rec in await self.store.list_games(
            statuses=[GameStatus.SETUP, GameStatus.RUNNING, GameStatus.FINISHED], limit=None
        ):
            posted = rec.settings.posted_version
            if posted is not None and posted < rec.version:
                out.append((rec, posted))
        return out

    async def mark_posted(self, s: GameSession, version: int) -> None:
        """Remember that the game's turn post of ``version`` reached its channel."""
        posted = s.rec.settings.posted_version
        if posted is None or posted < version:
            s.rec = await self.store.update_settings(s.game_id, posted_version=version)

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        """Remember the game's status message (edited in place after every turn)."""
        await self.store.update_settings(game_id, status_message_id=message_id)

    @staticmethod
    def status_message(rec: GameRecord) -> int | None:
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
        rec = await self.store.get_game(game_id)
        places = dict(rec.settings.private_places)
        if where is None or channel_id is None:
            places.pop(user_id, None)
        else:
            kind: Literal["thread", "dm"] = "thread" if where == "thread" else "dm"
            places[user_id] = PrivatePlace(where=kind, channel_id=channel_id)
        await self.store.update_settings(game_id, private_places=places)

    async def set_stand_in(self, game_id: int, seat: int, level: str | None) -> None:
        """An AI of ``level`` plays ``seat`` for its owner from now on (None: the owner plays
        again); who owns the seat does not change."""
        rec = await self.store.get_game(game_id)
        old = rec.seat(seat)
        if old is None or old.kind is not SeatKind.DISCORD:
            return
        new = Seat(
            seat=seat,
            kind=SeatKind.DISCORD,
            user_id=old.user_id,
            name=old.name,
            colour=old.colour,
            ai_level=level,
        )
        await self.store.replace_seat(game_id, new)

    async def timeline_frames(self, game_id: int) -> list[tuple[Any, list[Any]]]:
        """The public board after every turn, replayed from the log in a worker thread."""
        rec = await self.store.get_game(game_id)
        entries = await self.store.get_log(game_id)
        return await asyncio.to_thread(timeline_frames, entries, rec.game)

    async def timeline_image(self, game_id: int, lang: str | None = None) -> bytes | None:
        """The game's timeline animation (an animated GIF of the public map after every
        turn, replayed from the log), drawn in a worker process; None: no turn yet. Raises
        :class:`service.workers.WorkerError` when its worker failed twice."""
        rec = await self.store.get_game(game_id)
        if not adapter(rec.game).has_timeline:
            return None  # a game service.timeline cannot replay
        entries = await self.store.get_log(game_id)
        if lang is None:
            lang = game_language_of(rec)
        with metrics.timed(metrics.RENDER_SECONDS, "timeline"):
            return await self.workers.timeline(entries, lang, rec.game)

    async def render(self, req: ImageRequest, frame: Frame) -> bytes | None:
        """``req`` drawn from ``frame`` (:func:`service.images.render_image`) in a worker
        process (a thread when the pool is off). Raises
        :class:`service.workers.WorkerError` when its worker failed twice."""
        with metrics.timed(metrics.RENDER_SECONDS, req.kind):
            return await self.workers.draw(req, frame)

    async def aclose(self) -> None:
        """Stop the worker pool (jobs after this run in threads)."""
        await self.workers.aclose()

    def rules(
        self, query: str, limit: int = 3, *, lang: str = "en", game: str = DEFAULT_GAME
    ) -> list[str]:
        """Rules-reference entries of ``game`` for an ID (``R-BUILD-4``, ``build 4``;
        Tigris: ``T-WAR-6``, ``war 6``) or keywords, from the reference in ``lang`` (English
        where a language has none)."""
        from service.rulebook import format_entry, lookup

        path = self._rulebook_path if game == DEFAULT_GAME else None
        return [
            format_entry(e, markdown=False)
            for e in lookup(query, limit, path=path, lang=lang, game=game)
        ]
