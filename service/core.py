"""The game service's core (:class:`GameCore`, completed by :class:`service.game.GameService`
with the lobbies and the pacing): one async call per command, for every surface (terminal,
Discord). Its sessions (one game loaded under its lock) are :mod:`service.session`'s; what a
player reads of a game is its part ``svc.reading`` (:mod:`service.reading`), where the
surfaces show their games its part ``svc.places`` (:mod:`service.places`), and the games it
plays (names, player counts, maps, a new game's state) :mod:`service.catalog`'s.

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

import contextlib
import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

import i18n
from i18n import Msg, tr
from rules.games import DEFAULT as DEFAULT_GAME
from service import catalog, metrics
from service.games import adapter, adapter_of, seat_label
from service.language import Languages, game_language_of
from service.locks import GameLock
from service.places import Places
from service.ratings import RULES, Ratings
from service.reading import Reading, final_text
from service.results import (
    Decision,
    ErrorInfo,
    Frame,
    GameInfo,
    ImageRequest,
    Post,
    Refused,
    Result,
    SeatSpec,
    Status,
    ai_id,
)
from service.session import GameSession, notify
from service.undo import UndoPlan, undo_plan
from service.workers import Agent, WorkerError, WorkerPool, make_agent
from storage import GameRecord, GameResult, GameSettings, GameStatus, Seat, VersionConflict
from storage.base import GameStore
from storage.models import EntryKind, SeatKind

GameState = Any  # a state of any game of rules.games (Brazil: Imperial's rules.GameState, …)
Event = Any  # an event of any game

log = logging.getLogger("service")

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
                    rating=RULES,
                )
        except VersionConflict:
            metrics.CONFLICTS.inc()
            raise
        metrics.STEPS.inc()
        return rec


# ============================================================================ the service


def _load(rec: GameRecord) -> GameState:
    """The record's state, read by its game's engine."""
    return adapter(rec.game).load(rec.state_json)


def _takes_game(factory: Callable[..., Any]) -> bool:
    """Whether an agent factory takes the game's name (``game=``)."""
    try:
        return "game" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


class GameCore:
    """Surface-neutral commands over a :class:`storage.base.GameStore` (see module doc).

    ``agent_factory(level, seed)`` makes computer players (default :func:`make_agent`): one
    per decision, seeded from the game's seed, the seat and the version
    (:func:`service.workers.decision_seed`), so a decision is the same in any process and
    after a restart. ``workers``: the pool that draws the images and runs the computer
    players (default: none, threads of this process); the surface that made it closes it
    (:meth:`aclose`). The service owns the games' locks: one writer per game, whatever the
    surface.

    Its parts, reached as attributes: ``languages`` (:class:`service.language.Languages`:
    who reads in which language), ``reading`` (:class:`service.reading.Reading`: the board,
    hands, scores, log and timeline; ``rulebook_path``: its rules reference), ``places``
    (:class:`service.places.Places`: where the surfaces show the games) and ``ratings``
    (:class:`service.ratings.Ratings`: ratings, leaderboards and seasons; a game reaching its
    natural end is rated in the transaction that records its result, :data:`RULES`).
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
        self.reading = Reading(self, rulebook_path=rulebook_path)  # a game read for a player
        self.places = Places(self)  # where the surfaces show the games
        self.ratings = Ratings(self)  # ratings, leaderboards and seasons per server and game
        self._locks: dict[int, GameLock] = {}
        self._turn_events: dict[int, list[Event]] = {}
        self._ai_failures: set[tuple[int, int, str]] = set()
        self._agent_factory = agent_factory

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
        rec, st, seats = await self.read(game_id)
        return GameSession(self, rec, st, seats, gen=gen)

    async def peek_channel(self, channel_id: int) -> GameSession | None:
        """The channel's active game loaded once (None: no game, or only a lobby)."""
        rec = await self.store.get_active_game(channel_id)
        if rec is None or rec.status is GameStatus.LOBBY:
            return None
        gen = self.lock(rec.id).acquisitions
        return GameSession(self, rec, _load(rec), self.seat_specs(rec), gen=gen)

    async def read(self, game_id: int) -> tuple[GameRecord, GameState, list[SeatSpec]]:
        """The game's record, state and seats, loaded once without its lock (one store
        load; a :class:`GameSession` of them is :meth:`peek`)."""
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
                out.append(SeatSpec(name=seat.name or ai_id(seat.ai_level or ""), ai=seat.ai_level))
            else:
                out.append(SeatSpec(name=seat.name or f"Seat {n + 1}"))
        return out

    def forget(self, game_id: int) -> None:
        """Drop what the service remembers of the game's current turn (its events): after a
        rollback or a seat change they no longer apply."""
        self._turn_events.pop(game_id, None)

    async def info(self, game_id: int) -> GameInfo:
        rec, st, seats = await self.read(game_id)
        return GameInfo(
            game_id=game_id,
            version=rec.version,
            seats=tuple(seats),
            scenario=rec.settings.scenario,
            seed=rec.settings.seed or 0,
            over=adapter_of(st).over(st),
            game=rec.game,
        )

    async def state(self, game_id: int) -> GameState:
        """The full current state (secret: for rendering through a view, and for tests)."""
        return (await self.read(game_id))[1]

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
        A = catalog.game_adapter(game)
        specs = [s if isinstance(s, SeatSpec) else SeatSpec.parse(s) for s in seats]
        st = catalog.build_game(len(specs), scenario, seed, data_pack, game=A.name, options=options)
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

    def started(self, rec: GameRecord, st: GameState, specs: Sequence[SeatSpec]) -> Result:
        """The result of a game just created: "New game #N on MAP: who plays", who decides
        (in the game's language)."""
        lang = game_language_of(rec)
        res = Result(game_id=rec.id, version=rec.version)
        res.frames[rec.version] = Frame(rec.version, st)
        text = adapter_of(st).new_game_text(lang, rec.id, st, specs)
        res.posts.append(Post("public", text))
        res.next = self.decisions(st, specs, lang=lang)
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
            posts.append(Post("public", final_text(after, seats, lang)))
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
        falls back: see :meth:`service.session.GameSession.ai_step`)."""
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
            await notify(on_step, step)
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
        rec, st, seats = await self.read(game_id)
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

    async def undo_in(self, s: GameSession, seat: int, *, lang: str | None = None) -> Result:
        """:meth:`undo` inside a session (the lock held, the game loaded). The public post says
        what was taken back in the game's language; a refusal names players in ``lang`` (the
        asker's; None: the game's)."""
        game_lang = game_language_of(s.rec)
        try:
            plan = await undo_plan(self.store, s.rec, s.state, s.seats, seat, lang=game_lang)
            before = s.A.load(await self.store.state_at(s.game_id, plan.target))
            saved = await self.store.undo(
                s.game_id, plan.target, by=seat, expected_version=s.version
            )
        except Refused as refused:
            e = refused
            if lang is not None and lang != game_lang:  # the reason, in the asker's words
                try:
                    await undo_plan(self.store, s.rec, s.state, s.seats, seat, lang=lang)
                except Refused as again:
                    e = again
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

    # ---------------------------------------------------------------- announcing

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
        res.next = self.decisions(st, seats, lang=lang)
        return res

    # ---------------------------------------------------------------- seats, the worker pool

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

    async def render(
        self, req: ImageRequest, frame: Frame, *, game_id: int | None = None
    ) -> bytes | None:
        """``req`` drawn from ``frame`` (:func:`service.images.render_image`) in a worker
        process (a thread when the pool is off), queued in the line of game ``game_id`` (None:
        the game loaded in this task); by the cheaper fallback in this process when the
        worker's drawing fails or is late (:meth:`service.workers.WorkerPool.draw`). Raises
        only when the fallback failed too (:class:`service.workers.WorkerError`, or the
        drawing's own error)."""
        with metrics.timed(metrics.RENDER_SECONDS, req.kind):
            return await self.workers.draw(req, frame, game_id=game_id)

    async def aclose(self) -> None:
        """Stop the worker pool (jobs after this run in threads)."""
        await self.workers.aclose()
