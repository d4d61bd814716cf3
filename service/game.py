"""The game service: one async call per command, for every surface (terminal, Discord).

No Discord and no terminal here: a call takes the game's lock, loads the game from storage,
turns the typed text (the engine's notation) or the chosen action into an action,
``rules.apply``-s it, saves the new state in one transaction (optimistic: the expected
version), and returns a :class:`Result` of plain data:

- ``posts``: what to show, per audience — ``"public"`` (everybody) or one seat number
  (privately). Public posts are made only of public events (``rules.events.for_seat(events,
  None)``); a seat's private post holds the secret events that seat may see. Each post names
  the images to draw (:class:`ImageRequest`: the kind and whose view), rendered later by the
  surface with :func:`render_image` (e.g. in a worker thread).
- ``errors``: private to the actor, each with the rule ID (``RulesError.rule``).
- ``next``: who decides now (:class:`Decision`), with their legal choices as commands of the
  notation. The choices are private to that seat (they may name its hidden cards).

    service = GameService(store)
    res = await service.new_game(["Ana", "Bo", "ai:heuristic"], seed=7)
    res = await service.run_ai_turns(res.game_id)
    res = await service.act(res.game_id, seat=0, text="colour blue")

Commands are the engine's notation (``rules.notation``). Computer players come from
``ai.make_agent`` and undo points from ``rules.undo``.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import ai
from rules import (
    GameState,
    RulesError,
    apply,
    deciders,
    get_catalog,
    parse_action,
    pending_for,
    undo,
    view,
)
from rules.errors import InvalidAction, NotYourDecision
from rules.events import Event, for_seat
from rules.notation import complete, describe_action, legal_texts, parse_text
from storage import GameRecord, GameResult, GameSettings, GameStatus, Seat, VersionConflict
from storage.base import GameStore

Audience = int | Literal["public"]
ImageKind = Literal["map", "map_zoom", "boards", "panel", "hand", "battle", "scores"]

# ============================================================================ plain data


@dataclass(frozen=True)
class ImageRequest:
    """An image to draw: its ``kind``, whose view it is drawn from (``seat``; None: a
    spectator's, the only one allowed on a public post), the game ``version`` it shows, and
    for ``panel`` the ``player`` whose panel. Draw it with :func:`render_image`."""

    kind: ImageKind
    seat: int | None
    version: int
    player: int | None = None

    def filename(self) -> str:
        who = "public" if self.seat is None else f"seat{self.seat}"
        extra = "" if self.player is None else f"-p{self.player}"
        return f"v{self.version:04d}-{self.kind}{extra}-{who}.png"


@dataclass(frozen=True)
class Post:
    """Something to show: to everybody (``"public"``) or to one seat only (an int)."""

    audience: Audience
    text: str
    images: tuple[ImageRequest, ...] = ()


@dataclass(frozen=True)
class ErrorInfo:
    """A refused command, shown only to the seat that typed it."""

    seat: int | None
    rule: str  # a rules-reference ID (R-BUILD-4), or "" when no rule applies
    message: str

    def text(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


@dataclass(frozen=True)
class Decision:
    """A seat that must (or may) decide now: ``kind`` is the pending decision's kind or
    ``"turn"``; ``choices`` are the legal commands (private to that seat)."""

    seat: int
    who: str
    ai: bool
    kind: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Frame:
    """A version's full state and the events that led to it: what images are drawn from.
    The state is secret (never shown as is): :func:`render_image` draws through a view."""

    version: int
    state: GameState
    events: tuple[Event, ...] = ()  # the step's events, or the whole turn's at its end


@dataclass
class Result:
    """What one call produced."""

    game_id: int
    version: int
    posts: list[Post] = field(default_factory=list)
    errors: list[ErrorInfo] = field(default_factory=list)
    next: list[Decision] = field(default_factory=list)
    over: bool = False
    frames: dict[int, Frame] = field(default_factory=dict)
    applied: int = 0  # actions applied by this call

    @property
    def ok(self) -> bool:
        return not self.errors

    def public(self) -> list[Post]:
        return [p for p in self.posts if p.audience == "public"]

    def private(self, seat: int) -> list[Post]:
        return [p for p in self.posts if p.audience == seat]

    def images(self) -> list[tuple[ImageRequest, Frame]]:
        """Every image request of every post with the frame to draw it from."""
        return [(r, self.frames[r.version]) for p in self.posts for r in p.images]

    def extend(self, other: Result) -> None:
        self.version = other.version
        self.posts += other.posts
        self.errors += other.errors
        self.next = other.next
        self.over = other.over
        self.frames.update(other.frames)
        self.applied += other.applied


@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat: a human (``name``; ``user_id`` for a Discord user) or an AI
    (``ai`` = its level: random, heuristic, search)."""

    name: str
    ai: str | None = None
    user_id: int | None = None

    @classmethod
    def parse(cls, text: str) -> SeatSpec:
        """``"Ana"`` (a local player) or ``"ai:heuristic"`` / ``"ai"`` (a computer player)."""
        t = text.strip()
        if not t:
            raise ValueError("empty seat name")
        if t.lower() == "ai" or t.lower().startswith("ai:"):
            level = t[3:].strip().lower() or "heuristic"
            return cls(name=f"AI {level}", ai=level)
        return cls(name=t)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ai": self.ai, "user_id": self.user_id}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatSpec:
        return cls(name=str(d["name"]), ai=d.get("ai"), user_id=d.get("user_id"))


@dataclass(frozen=True)
class ScoreRow:
    seat: int
    who: str
    total: int
    categories: dict[str, int]
    winner: bool = False


@dataclass(frozen=True)
class GameInfo:
    game_id: int
    version: int
    seats: tuple[SeatSpec, ...]
    scenario: str
    seed: int
    over: bool


class ServiceError(Exception):
    """A call the service cannot do (unknown game, a seat that does not exist)."""


# ============================================================================ adapters


class Agent(Protocol):
    def decide(self, state: GameState, seat: int) -> Any: ...


def make_agent(level: str, seed: int) -> Agent:
    """A computer player of ``level`` (``ai.make_agent``)."""
    agent: Agent = ai.make_agent(level, seed=seed)
    return agent


# ============================================================================ storage


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
    ) -> GameRecord:
        made = []
        for i, s in enumerate(seats):
            if s.ai:
                made.append(Seat.ai(i, s.ai, name=s.name))
            elif s.user_id is not None:
                made.append(Seat.discord(i, s.user_id))
            else:
                made.append(Seat.local(i, s.name))
        return await self.store.create_game(
            channel_id,
            initial_state_json=state.model_dump_json(),
            settings=settings,
            guild_id=guild_id,
            seats=made,
            status=GameStatus.RUNNING,
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
        result = None
        if after.phase == "ended" and after.result is not None:
            res = after.result
            result = GameResult(
                scores={int(r["seat"]): int(r["total"]) for r in res.get("scores", [])},
                winners=frozenset(int(w) for w in res.get("winners", [])),
            )
        return await self.store.save(
            game_id,
            expected_version=version,
            state_json=after.model_dump_json(),
            action_json=action.to_json(),
            seat=seat,
            events_json=json.dumps([e.model_dump(mode="json") for e in events]),
            description=description,
            result=result,
        )


# ============================================================================ the service


SECRET_ANSWERS = frozenset({"combat_cards"})
"""Decision kinds answered secretly while other players wait on the answer (a battle's
cards): an automatic answer to one must not come at a telling speed."""


def _load(state_json: str) -> GameState:
    return GameState.model_validate_json(state_json)


def _events(events_json: str) -> list[Event]:
    return [Event.model_validate(e) for e in json.loads(events_json or "[]")]


class GameService:
    """Surface-neutral commands over a :class:`storage.base.GameStore` (see module doc).

    ``agent_factory(level, seed)`` makes computer players (default :func:`make_agent`);
    agents are kept per game and seat for the life of the service.
    """

    def __init__(
        self,
        store: GameStore,
        *,
        agent_factory: Callable[[str, int], Agent] = make_agent,
        rulebook_path: str | None = None,
    ) -> None:
        self.store = store
        self._st = _Store(store)
        self._locks: dict[int, asyncio.Lock] = {}
        self._agents: dict[tuple[int, int], Agent] = {}
        self._turn_events: dict[int, list[Event]] = {}
        self._agent_factory = agent_factory
        self._rulebook_path = rulebook_path

    # ---------------------------------------------------------------- basics

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: every call that writes holds it (one writer per game)."""
        lk = self._locks.get(game_id)
        if lk is None:
            lk = self._locks[game_id] = asyncio.Lock()
        return lk

    async def _get(self, game_id: int) -> tuple[Any, GameState, list[SeatSpec]]:
        rec = await self.store.get_game(game_id)
        raw: Any = rec.settings.extra.get("seats", [])
        seats = [SeatSpec.from_json(s) for s in raw]
        return rec, _load(rec.state_json), seats

    async def info(self, game_id: int) -> GameInfo:
        rec, st, seats = await self._get(game_id)
        return GameInfo(
            game_id=game_id,
            version=rec.version,
            seats=tuple(seats),
            scenario=rec.settings.scenario,
            seed=int(rec.settings.extra.get("seed", 0)),
            over=st.phase == "ended",
        )

    async def state(self, game_id: int) -> GameState:
        """The full current state (secret: for rendering through a view, and for tests)."""
        return (await self._get(game_id))[1]

    async def view(self, game_id: int, seat: int | None) -> GameState:
        """The current state as ``seat`` (None: a spectator) may see it."""
        return view(await self.state(game_id), seat)

    @staticmethod
    def who(st: GameState, seats: Sequence[SeatSpec], seat: int) -> str:
        """``"Ana (red)"``: the seat's player and colour once chosen."""
        name = seats[seat].name if seat < len(seats) else f"Seat {seat + 1}"
        colour = st.players[seat].colour if seat < len(st.players) else None
        return f"{name} ({colour})" if colour else name

    def decisions(
        self, st: GameState, seats: Sequence[SeatSpec], *, choices: bool = True
    ) -> list[Decision]:
        out = []
        for s in deciders(st):
            pend = pending_for(st, s)
            ai = s < len(seats) and seats[s].ai is not None
            out.append(
                Decision(
                    seat=s,
                    who=self.who(st, seats, s),
                    ai=ai,
                    kind=pend.kind if pend is not None else "turn",
                    choices=tuple(legal_texts(st, s)) if choices and not ai else (),
                )
            )
        return out

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
    ) -> Result:
        """Create and save a game: one seat per entry of ``seats`` (players = len(seats));
        ``scenario`` is a map id (default: the first map for the player count). The result
        names who decides first. ``channel_id`` (Discord channel; local: a fresh number)."""
        from rules import new_game as rules_new_game

        specs = [s if isinstance(s, SeatSpec) else SeatSpec.parse(s) for s in seats]
        try:  # without a seed, the engine draws a secret 64-bit one
            st = rules_new_game(len(specs), seed, scenario, data_pack=data_pack)
        except RulesError as e:
            raise ServiceError(e.message) from e
        seed = st.rng.seed
        if channel_id is None:
            games = await self.store.list_games(limit=None)
            channel_id = max([g.channel_id for g in games] + [0]) + 1
        settings = GameSettings(
            scenario=st.map,
            player_count=len(specs),
            data_pack=data_pack,
            extra={"seats": [s.to_json() for s in specs], "seed": seed},
        )
        rec = await self._st.create(channel_id, st, settings, specs, guild_id)
        names = ", ".join(f"{self.who(st, specs, i)}" for i in range(len(specs)))
        res = Result(game_id=rec.id, version=rec.version)
        res.frames[rec.version] = Frame(rec.version, st)
        res.posts.append(
            Post(
                "public",
                f"New game #{rec.id} on {get_catalog(data_pack).maps[st.map].name}: {names}.",
            )
        )
        res.next = self.decisions(st, specs)
        return res

    # ---------------------------------------------------------------- commands

    async def act(self, game_id: int, seat: int, text: str) -> Result:
        """``seat`` typed ``text`` (a command of the notation): apply it, or say privately why
        not (``errors``, with the rule ID)."""
        return await self._command(game_id, seat, text=text)

    async def choose(self, game_id: int, seat: int, action: Any) -> Result:
        """``seat`` chose ``action`` (an action object, dict or JSON, e.g. from a button)."""
        return await self._command(game_id, seat, action=action)

    async def _command(
        self, game_id: int, seat: int, *, text: str | None = None, action: Any = None
    ) -> Result:
        async with self.lock(game_id):
            rec, st, seats = await self._get(game_id)
            res = Result(game_id=game_id, version=rec.version, over=st.phase == "ended")
            try:
                if not 0 <= seat < len(st.players):
                    raise InvalidAction("", f"there is no seat {seat}")
                if text is not None:
                    action = parse_text(st, seat, text)
                elif not hasattr(action, "type"):
                    action = parse_action(action)
                if action.seat != seat:
                    raise NotYourDecision("", "that action belongs to another seat")
                step = await self._apply(rec, st, seats, action)
            except RulesError as e:
                res.errors.append(ErrorInfo(seat, e.rule, e.message))
                res.next = self.decisions(st, seats)
                return res
            except VersionConflict:
                res.errors.append(ErrorInfo(seat, "", "the game changed meanwhile: try again"))
                return res
            res.extend(step)
            res.next = self.decisions(step.frames[step.version].state, seats)
            return res

    async def _apply(
        self, rec: Any, st: GameState, seats: Sequence[SeatSpec], action: Any
    ) -> Result:
        """Apply and save one action (the lock is held); the posts of this step."""
        after, events = apply(st, action)
        desc = describe_action(st, action, None)
        saved = await self._st.save(rec.id, rec.version, after, action, action.seat, events, desc)
        res = Result(game_id=rec.id, version=saved.version, over=after.phase == "ended", applied=1)
        # the turn's events so far (kept in memory): a turn's map highlights the whole turn
        turn = self._turn_events.setdefault(rec.id, [])
        turn += events
        if st.current != after.current or st.round != after.round or st.phase != after.phase:
            self._turn_events[rec.id] = []
        res.frames[saved.version] = Frame(saved.version, after, tuple(turn))
        res.posts += self._step_posts(st, action, after, events, seats, saved.version, desc)
        return res

    def _step_posts(
        self,
        before: GameState,
        action: Any,
        after: GameState,
        events: list[Event],
        seats: Sequence[SeatSpec],
        version: int,
        desc: str | None,
    ) -> list[Post]:
        seat = int(action.seat)
        who = self.who(after, seats, seat)
        public = [e.text for e in for_seat(events, None)]
        if not public:
            public = [desc or f"{who} decided."]
        images: list[ImageRequest] = []
        turn_over = (
            before.current != after.current
            or before.round != after.round
            or before.phase != after.phase
        )
        if turn_over or after.phase == "ended":
            images.append(ImageRequest("map", None, version))
        if any(e.kind in ("battle_result", "expedition_result") for e in events):
            images.append(ImageRequest("battle", None, version))
        if after.phase == "ended":
            images += [ImageRequest("boards", None, version), ImageRequest("scores", None, version)]
        posts = [Post("public", f"{who}: " + " ".join(public), tuple(images))]
        secret: dict[int, list[str]] = {}
        for e in events:
            for s in e.visible_to or ():
                secret.setdefault(s, []).append(e.text)
        for s, texts in sorted(secret.items()):
            posts.append(Post(s, " ".join(texts)))
        if after.phase == "ended":
            posts.append(Post("public", self._final_text(after, seats)))
        return posts

    # ---------------------------------------------------------------- AI

    def agent(self, game_id: int, seat: int, level: str, seed: int) -> Agent:
        key = (game_id, seat)
        a = self._agents.get(key)
        if a is None:
            a = self._agents[key] = self._agent_factory(level, seed * 10 + seat)
        return a

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
        The decisions run in a worker thread. ``before_secret(seat, kind)`` is awaited (without
        the lock) before an AI seat answers a secret decision other seats wait on (its
        ``combat_cards``): the Discord bot waits a random delay there, so the answer's timing
        reveals nothing."""
        rec, st, seats = await self._get(game_id)
        res = Result(game_id=game_id, version=rec.version, over=st.phase == "ended")
        seed = int(rec.settings.extra.get("seed", 0))
        for _ in range(max_steps):
            if before_secret is not None:
                _, st, seats = await self._get(game_id)
                for s in deciders(st):
                    pend = pending_for(st, s)
                    if s < len(seats) and seats[s].ai and pend is not None:
                        if pend.kind in SECRET_ANSWERS:
                            await before_secret(s, pend.kind)
                        break
            async with self.lock(game_id):
                rec, st, seats = await self._get(game_id)
                ai_seats = [s for s in deciders(st) if s < len(seats) and seats[s].ai]
                if not ai_seats or (until is not None and until(st)):
                    break
                s = ai_seats[0]
                level = seats[s].ai
                assert level is not None
                agent = self.agent(game_id, s, level, seed)
                action = await asyncio.to_thread(agent.decide, st, s)
                step = await self._apply(rec, st, seats, action)
            res.extend(step)
            if on_step is not None:
                r = on_step(step)
                if inspect.isawaitable(r):
                    await r
        rec, st, seats = await self._get(game_id)
        res.version, res.over = rec.version, st.phase == "ended"
        res.next = self.decisions(st, seats)
        return res

    # ---------------------------------------------------------------- undo, legal

    async def legal(self, game_id: int, seat: int) -> list[str]:
        """The commands ``seat`` may type now (empty if it has nothing to decide)."""
        st = await self.state(game_id)
        if seat not in deciders(st):
            return []
        return legal_texts(st, seat)

    async def complete(self, game_id: int, seat: int, prefix: str) -> list[str]:
        st = await self.state(game_id)
        return complete(st, seat, prefix) if seat in deciders(st) else []

    async def undo(self, game_id: int, seat: int) -> Result:
        """Take back ``seat``'s last step when the engine allows it (``rules.undo``: it
        revealed nothing, used no randomness, nobody else decided since, the turn goes on)."""
        async with self.lock(game_id):
            rec, st, seats = await self._get(game_id)
            res = Result(game_id=game_id, version=rec.version, over=st.phase == "ended")
            try:
                target, action = await self._undo_target(rec, seat)
                before = _load(await self.store.state_at(game_id, target))
                saved = await self.store.undo(
                    game_id, target, by=seat, expected_version=rec.version
                )
            except RulesError as e:
                res.errors.append(ErrorInfo(seat, e.rule, e.message))
                res.next = self.decisions(st, seats)
                return res
            desc = describe_action(before, action, None) or "their last step"
            text = f"{self.who(before, seats, seat)} took back: {desc}"
            return self.announce(game_id, saved.version, before, seats, text)

    async def _undo_target(self, rec: Any, seat: int) -> tuple[int, Any]:
        """The version to return to for undoing ``seat``'s newest step, and that step's
        action; RulesError(R-UNDO...) saying why not."""
        entries = {
            e.version: e
            for e in await self.store.get_log(rec.id, from_version=max(0, rec.version - 64))
        }
        v = rec.version
        while v in entries and getattr(entries[v], "kind", "action") in ("undo", "rollback"):
            v = int(entries[v].target_version or 0)
        entry = entries.get(v)
        if entry is None or v == 0 or entry.action_json is None or entry.seat != seat:
            raise InvalidAction("R-TURN-1", "you have no step of your own to take back")
        before = _load(await self.store.state_at(rec.id, v - 1))
        after = _load(await self.store.state_at(rec.id, v))
        action = parse_action(entry.action_json)
        depth = undo.undo_depth([(before, action, after, _events(entry.events_json))], seat)
        if depth < 1:
            raise InvalidAction(
                "R-TURN-1",
                "that step cannot be taken back: it revealed something, drew at random, "
                "ended the turn or another player has decided since",
            )
        return v - 1, action

    # ---------------------------------------------------------------- information

    async def board(self, game_id: int, seat: int | None = None) -> Result:
        """The board as text and images: public post (map + boards), and for ``seat`` a
        private post with its hand image."""
        rec, st, seats = await self._get(game_id)
        res = Result(game_id=game_id, version=rec.version, over=st.phase == "ended")
        res.frames[rec.version] = Frame(rec.version, st)
        lines = [self._status_text(st, seats)]
        lines += [f"  {row.who}: {row.total} VP" for row in self._score_rows(st, seats)]
        imgs = (ImageRequest("map", None, rec.version), ImageRequest("boards", None, rec.version))
        res.posts.append(Post("public", "\n".join(lines), imgs))
        if seat is not None:
            res.posts += (await self.hand(game_id, seat)).posts
        res.next = self.decisions(st, seats, choices=False)
        return res

    async def hand(self, game_id: int, seat: int) -> Result:
        """``seat``'s secret hand as a private post (text + hand image)."""
        rec, st, seats = await self._get(game_id)
        res = Result(game_id=game_id, version=rec.version, over=st.phase == "ended")
        res.frames[rec.version] = Frame(rec.version, st)
        res.posts.append(
            Post(seat, self.hand_text(st, seats, seat), (ImageRequest("hand", seat, rec.version),))
        )
        return res

    def hand_text(self, st: GameState, seats: Sequence[SeatSpec], seat: int) -> str:
        v = view(st, seat)
        p = v.players[seat]
        cat = get_catalog(v.data_pack)

        def names(ids: Sequence[str], table: dict[str, Any]) -> str:
            return ", ".join(f"{table[i].name} [{i}]" if i in table else i for i in ids) or "-"

        lines = [f"Hand of {self.who(st, seats, seat)}:"]
        if p.mission_offer:
            lines.append(f"  missions offered: {names(p.mission_offer, cat.missions)}")
        lines.append(f"  missions kept: {names(p.missions, cat.missions)}")
        if p.revealed:
            lines.append(f"  missions revealed: {names(p.revealed, cat.missions)}")
        lines.append(f"  combat cards: {names(p.combat_cards, cat.combat_cards)}")
        lines.append(f"  gold cards: {names(p.gold_cards, cat.gold_cards)}")
        if p.peeks:
            seen = ", ".join(
                f"{h}: {cat.exploration[t].name if t in cat.exploration else t}"
                for h, t in sorted(p.peeks.items())
            )
            lines.append(f"  peeked tiles: {seen}")
        reserve = ", ".join(f"{k} {n}" for k, n in sorted(p.reserve.items()) if n)
        lines.append(f"  reserve: {reserve or '-'}")
        return "\n".join(lines)

    def _status_text(self, st: GameState, seats: Sequence[SeatSpec]) -> str:
        if st.phase == "ended":
            return "The game is over."
        ds = ", ".join(self.who(st, seats, s) for s in deciders(st))
        where = "setup" if st.phase == "setup" else f"era {st.era}, round {st.round}"
        return f"Game ({where}); to decide: {ds or 'nobody'}"

    def _score_rows(self, st: GameState, seats: Sequence[SeatSpec]) -> list[ScoreRow]:
        if st.phase == "ended" and st.result:
            winners = {int(w) for w in st.result.get("winners", [])}
            rows = []
            for r in st.result.get("scores", []):
                s = int(r["seat"])
                cats = {k: int(v) for k, v in r.items() if isinstance(v, int) and k != "seat"}
                cats.pop("total", None)
                cats.pop("tiebreak_science", None)
                rows.append(
                    ScoreRow(s, self.who(st, seats, s), int(r["total"]), cats, s in winners)
                )
            return rows
        from bot.render.panels import public_vps

        vps = public_vps(view(st, None))
        return [ScoreRow(s, self.who(st, seats, s), vp, {}) for s, vp in sorted(vps.items())]

    async def scores(self, game_id: int) -> list[ScoreRow]:
        """Public scores now (hidden missions and gold cards not counted), or the final
        score sheet with categories and winners once the game is over."""
        _, st, seats = await self._get(game_id)
        return self._score_rows(st, seats)

    def _final_text(self, st: GameState, seats: Sequence[SeatSpec]) -> str:
        rows = sorted(self._score_rows(st, seats), key=lambda r: -r.total)
        lines = ["Final scores:"]
        lines += [f"  {r.who}: {r.total} VP{'  (winner)' if r.winner else ''}" for r in rows]
        if not any(r.winner for r in rows):
            lines.append("  nobody won")
        return "\n".join(lines)

    async def log(self, game_id: int, *, last: int = 20) -> list[str]:
        """The last public events of the game, one line per action (oldest first)."""
        rec = await self.store.get_game(game_id)
        entries = await self.store.get_log(game_id, from_version=max(1, rec.version - last + 1))
        lines = []
        for e in entries:
            kind = str(getattr(e, "kind", "action"))
            if kind in ("undo", "rollback"):
                lines.append(f"v{e.version}: {kind} to v{e.target_version}")
                continue
            texts = [ev.text for ev in for_seat(_events(e.events_json), None)]
            lines.append(f"v{e.version}: " + (" ".join(texts) or "(no public event)"))
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
    ) -> Result:
        """A result of one public post (``text``, with the map of ``st`` at ``version`` unless
        ``image`` is false) and the next decisions: for undo, rollback, seat changes, imports
        and catching up after a restart."""
        res = Result(game_id=game_id, version=version, over=st.phase == "ended")
        res.frames[version] = Frame(version, st)
        imgs = (ImageRequest("map", None, version),) if image else ()
        res.posts.append(Post("public", text, imgs))
        res.next = self.decisions(st, seats)
        return res

    async def catch_up(self, game_id: int, since: int) -> Result:
        """What the channel missed after version ``since`` (saved, never posted: the bot
        stopped between a save and its post): the public lines of those steps and the map
        now, with the next decisions, to publish again."""
        rec, st, seats = await self._get(game_id)
        missed = await self.log(game_id, last=max(1, rec.version - since))
        text = "\n".join(["The bot restarted; steps saved but not shown yet:", *missed])
        return self.announce(game_id, rec.version, st, seats, text)

    def rules(self, query: str, limit: int = 3) -> list[str]:
        """Rules-reference entries for an ID (``R-BUILD-4``, ``build 4``) or keywords."""
        from service.rulebook import format_entry, lookup

        return [
            format_entry(e, markdown=False) for e in lookup(query, limit, path=self._rulebook_path)
        ]


# ============================================================================ rendering


def render_image(req: ImageRequest, frame: Frame, options: Any = None) -> bytes | None:
    """Draw ``req`` from ``frame`` through the view of ``req.seat`` (None if the image
    would be empty, e.g. no battle). Pure CPU work: surfaces may run it in a worker thread."""
    from bot.render import (
        RenderOptions,
        render_battle,
        render_boards,
        render_hand,
        render_map,
        render_map_zoom,
        render_panel,
        render_scores,
    )

    opts = options if options is not None else RenderOptions()
    v = view(frame.state, req.seat)
    ev = list(frame.events)
    if req.kind == "map":
        return render_map(v, ev, seat=req.seat, options=opts)
    if req.kind == "map_zoom":
        return render_map_zoom(v, ev, seat=req.seat, options=opts)
    if req.kind == "boards":
        return render_boards(v, seat=req.seat, options=opts)
    if req.kind == "panel":
        return render_panel(v, req.player if req.player is not None else 0, options=opts)
    if req.kind == "hand":
        if req.seat is None:
            raise ValueError("a hand image needs a seat")
        return render_hand(v, req.seat, options=opts)
    if req.kind == "battle":
        return render_battle(v, ev, seat=req.seat, options=opts)
    if req.kind == "scores":
        return render_scores(v, options=opts)
    raise ValueError(f"unknown image kind {req.kind!r}")
