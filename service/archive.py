"""A game's public archive: every step of its log as a spectator may see it, the map at each
step, and the game as it stands now — what a game's web page shows (or any other surface
for spectators).

Only public things leave this module: the steps' sentences are the events every seat may
see (players named as the table knows them), the maps are drawn from the spectator's view
(``view(state, None)``), the scores are the public ones. A game's page is found by an
unguessable token kept in storage; :meth:`GameArchive.reset_token` replaces it (the old
address stops working).

Its words are in a language (``lang``; by default the game's language, :func:`game_language`):
the steps' sentences, the turns' labels, the seats' colours, the title; the catalogue's
``web.*`` texts.

The steps of a game are replayed from its log once per game version and language and kept (a
few games, the newest versions); the maps are drawn once per version and language and kept
(bounded by bytes), so a replay's step costs a dictionary lookup after the first time, and a
map drawn before a ``/game language`` change is never served in the new language's place.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from i18n import DEFAULT, Translator, resolve, translator
from rules.brazil import GameState, apply, parse_action
from rules.brazil.events import Event, for_seat
from service.results import Frame, ImageRequest, ScoreRow, SeatSpec, Status
from storage.models import EntryKind, GameRecord, GameStatus, LogEntry

if TYPE_CHECKING:
    from service.core import GameCore

StepKind = Literal["start", "action", "undo", "rollback"]

TOKEN_BYTES = 18
"""A page token's randomness: 18 bytes, 24 URL-safe characters (144 bits)."""

BATTLE_EVENTS = frozenset({"battle_result", "expedition_result"})


def game_language(rec: GameRecord) -> str:
    """The language of a game's public texts (its page): the game's own setting, else
    English (a code no catalogue serves reads as English)."""
    code = getattr(rec.settings, "language", DEFAULT)  # the game's language
    return resolve(code if isinstance(code, str) else None) or DEFAULT


def seat_name(st: GameState, seats: Sequence[SeatSpec], seat: int, L: Translator) -> str:
    """``"Ana (red)"`` in ``L``'s language: the seat's player and colour once chosen."""
    name = seats[seat].name if seat < len(seats) else L("web.seat.number", n=seat + 1)
    colour = st.players[seat].colour if seat < len(st.players) else None
    if not colour:
        return name
    return L("web.seat.coloured", name=name, colour=L.name(f"web.colour.{colour}", colour))


def seat_colour(st: GameState, seat: int) -> str | None:
    """The seat's colour once chosen (its marker on the map), else None."""
    return st.players[seat].colour if 0 <= seat < len(st.players) else None


def decision_text(kind: str, lang: str = DEFAULT) -> str:
    """What a seat is awaited for, in words: ``"to play"`` (its turn, ``kind`` ``"turn"``) or
    the pending decision (``"combat cards"``)."""
    return translator(lang).name(f"web.decision.{kind}", kind.replace("_", " "))


@dataclass(frozen=True)
class PublicStep:
    """One entry of a game's log as spectators see it.

    ``n``: its place in the archive (0: the game's start); ``version``: the log version (the
    map at this step is the map of that version); ``text``: what happened, in public words;
    ``turn``: the turn it belongs to (an index into :attr:`Archive.turns`); ``undone``: an
    undo or a moderator's rollback took it back later (it stays in the archive, marked)."""

    n: int
    version: int
    kind: StepKind
    text: str
    turn: int
    phase: str
    era: int
    round: int
    battle: bool = False
    era_start: bool = False
    ends_turn: bool = False
    undone: bool = False


@dataclass(frozen=True)
class TurnMark:
    """A turn of the game: its label ("Era 1 · round 3 · Ana (red)") and its first step."""

    label: str
    first: int


@dataclass(frozen=True)
class Archive:
    """Every public step of a game at ``version``, and its turns, in ``lang``."""

    game_id: int
    version: int
    title: str
    steps: tuple[PublicStep, ...]
    turns: tuple[TurnMark, ...]
    events: tuple[tuple[Event, ...], ...] = field(repr=False, default=())
    """Per step, the events the map at that step highlights (the turn's so far)."""
    lang: str = DEFAULT

    def last_turn(self) -> list[str]:
        """The public sentences of the newest turn that has steps (the one the channel's
        last turn post holds)."""
        if not self.steps:
            return []
        turn = self.steps[-1].turn
        return [s.text for s in self.steps if s.turn == turn and not s.undone and s.n > 0]


@dataclass(frozen=True)
class LiveView:
    """A game as it stands now, for spectators, in ``lang`` (the seats of ``status.waiting``
    and ``scores`` are labelled in it; ``colours``: each seat's colour once chosen, for its
    marker)."""

    game_id: int
    version: int
    title: str
    status: Status
    scores: tuple[ScoreRow, ...]
    deadlines: dict[int, datetime | None]  # deciding human seat -> due (None: paused)
    last_turn: tuple[str, ...]
    steps: int
    finished: bool
    abandoned: bool
    lang: str = DEFAULT
    colours: dict[int, str] = field(default_factory=dict)


def _turn_key(st: GameState) -> tuple[int, int, str]:
    return (st.current, st.round, st.phase)


def _turn_label(st: GameState, seats: Sequence[SeatSpec], L: Translator) -> str:
    if st.phase == "setup":
        return L("web.turn.setup")
    if st.phase == "ended":
        return L("web.turn.end")
    who = seat_name(st, seats, st.current, L)
    return L("web.turn.play", era=st.era, round=st.round, who=who)


def build_archive(
    rec: GameRecord,
    entries: Sequence[LogEntry],
    seats: Sequence[SeatSpec],
    title: str,
    lang: str = DEFAULT,
) -> Archive:
    """Replay ``entries`` (a game's whole log) into its public steps, in ``lang``. Pure CPU
    work: run it in a worker thread."""
    from service.core import named_description, named_text  # the sentences' one source

    L = translator(lang)

    steps: list[PublicStep] = []
    turns: list[TurnMark] = []
    highlights: list[tuple[Event, ...]] = []
    st: GameState | None = None
    turn_events: list[Event] = []
    carry: dict[int, tuple[GameState, list[Event], int]] = {}  # version -> state, turn, turn no
    turn = -1

    def new_turn(s: GameState, first: int) -> int:
        turns.append(TurnMark(_turn_label(s, seats, L), first))
        return len(turns) - 1

    for e in entries:
        n = len(steps)
        if e.kind is EntryKind.CREATED or (e.action_json is None and st is None):
            if not e.snapshot_json:
                continue
            st = GameState.model_validate_json(e.snapshot_json)
            turn_events = []
            turn = new_turn(st, n)
            players = [seat_name(st, seats, p.seat, L) for p in st.players]
            steps.append(
                PublicStep(
                    n,
                    e.version,
                    "start",
                    L("web.step.start", title=title, players=players),
                    turn,
                    st.phase,
                    st.era,
                    st.round,
                )
            )
            highlights.append(())
            carry[e.version] = (st, [], turn)
            continue
        if st is None:
            continue
        if e.kind in (EntryKind.UNDO, EntryKind.ROLLBACK):
            target = int(e.target_version or 0)
            back = carry.get(target)
            if back is not None:
                st, turn_events = back[0], list(back[1])
                if back[2] != turn:  # back into an earlier turn: it is played again
                    turn = new_turn(st, n)
            elif e.snapshot_json:
                st, turn_events = GameState.model_validate_json(e.snapshot_json), []
                turn = new_turn(st, n)
            if e.kind is EntryKind.UNDO and e.seat is not None:
                who = seat_name(st, seats, e.seat, L)
                text = L("web.step.undo", who=who, target=target)
            elif e.kind is EntryKind.UNDO:
                text = L("web.step.undo_someone", target=target)
            elif e.reason:
                text = L("web.step.rollback_why", target=target, reason=e.reason)
            else:
                text = L("web.step.rollback", target=target)
            kind: StepKind = "undo" if e.kind is EntryKind.UNDO else "rollback"
            steps.append(PublicStep(n, e.version, kind, text, turn, st.phase, st.era, st.round))
            highlights.append(())
            carry[e.version] = (st, list(turn_events), turn)
            continue
        before = st
        action = parse_action(e.action_json or "{}")
        after, events = apply(before, action)
        public = [named_text(ev, after, seats, lang=lang) for ev in for_seat(events, None)]
        text = " ".join(public) or named_description(before, action, after, seats, lang=lang)
        ends = _turn_key(before) != _turn_key(after)
        turn_events = turn_events + events
        steps.append(
            PublicStep(
                n,
                e.version,
                "action",
                text,
                turn,
                after.phase,
                after.era,
                after.round,
                battle=any(ev.kind in BATTLE_EVENTS for ev in events),
                era_start=after.era > before.era,
                ends_turn=ends,
            )
        )
        highlights.append(tuple(turn_events))
        if ends:
            turn_events = []
            turn = new_turn(after, n + 1)
        carry[e.version] = (after, list(turn_events), turn)
        st = after
    # undone: an undo / rollback entry u takes back the actions after its target
    spans = [
        (int(e.target_version or 0), e.version) for e in entries if e.target_version is not None
    ]
    out = [
        s
        if s.kind != "action" or not any(t < s.version < u for t, u in spans)
        else replace(s, undone=True)
        for s in steps
    ]
    if turns and turns[-1].first >= len(out):  # the last turn has no step yet
        turns.pop()
    return Archive(
        rec.id, rec.version, title, tuple(out), tuple(turns), tuple(highlights), lang=lang
    )


class GameArchive:
    """The public archive and live view of games, their page tokens and maps (see module
    doc). ``cache_bytes`` bounds the maps kept in memory."""

    def __init__(self, core: GameCore, *, cache_bytes: int = 96 * 1024 * 1024) -> None:
        self.core = core
        self.cache_bytes = cache_bytes
        self._archives: OrderedDict[tuple[int, str], Archive] = OrderedDict()
        self._maps: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()  # game, version, lang
        self._map_bytes = 0
        self._drawing: dict[tuple[int, int, str], asyncio.Future[bytes]] = {}
        self._building: dict[tuple[int, int, str], asyncio.Future[Archive]] = {}

    # ---------------------------------------------------------------- tokens

    async def token(self, game_id: int) -> str:
        """The game's page token, made the first time it is asked for."""
        store = self.core.store
        tok = await store.web_token(game_id)
        if tok is None:
            await store.get_game(game_id)  # GameNotFound for an unknown game
            tok = secrets.token_urlsafe(TOKEN_BYTES)
            await store.set_web_token(game_id, tok)
        return tok

    async def reset_token(self, game_id: int) -> str:
        """A new token for the game's page: the old address stops working at once."""
        tok = secrets.token_urlsafe(TOKEN_BYTES)
        await self.core.store.set_web_token(game_id, tok)
        return tok

    async def game_of(self, token: str) -> int | None:
        """The game whose page ``token`` opens (None: unknown or revoked)."""
        if not 16 <= len(token) <= 64:
            return None
        return await self.core.store.game_of_web_token(token)

    # ---------------------------------------------------------------- reading

    async def version(self, game_id: int) -> int:
        """The game's newest version (what a live page watches)."""
        return (await self.core.store.get_game(game_id)).version

    async def language(self, game_id: int) -> str:
        """The language of the game's page: the game's language (:func:`game_language`)."""
        return game_language(await self.core.store.get_game(game_id))

    async def archive(self, game_id: int, *, lang: str | None = None) -> Archive:
        """Every public step of the game in ``lang`` (None: the game's language), replayed
        once per version and language, then kept."""
        rec = await self.core.store.get_game(game_id)
        lang = game_language(rec) if lang is None else lang
        hit = self._archives.get((game_id, lang))
        if hit is not None and hit.version == rec.version:
            self._archives.move_to_end((game_id, lang))
            return hit
        key = (game_id, rec.version, lang)
        job = self._building.get(key)
        if job is None:
            job = asyncio.ensure_future(self._build(rec, lang))
            self._building[key] = job
            job.add_done_callback(lambda _f: self._building.pop(key, None))
        return await asyncio.shield(job)

    async def _build(self, rec: GameRecord, lang: str) -> Archive:
        entries = await self.core.store.get_log(rec.id, to_version=rec.version)
        seats = self.core.seat_specs(rec)
        title = self._title(rec, lang)
        arch = await asyncio.to_thread(build_archive, rec, entries, seats, title, lang)
        self._archives[(rec.id, lang)] = arch
        self._archives.move_to_end((rec.id, lang))
        while len(self._archives) > 32:
            self._archives.popitem(last=False)
        return arch

    def _title(self, rec: GameRecord, lang: str = DEFAULT) -> str:
        """``"Game #7: Cisplatine War"``: the game's number and its map's name in ``lang``."""
        from rules.brazil import get_catalog

        L = translator(lang)
        scenario = rec.settings.scenario
        try:
            name = get_catalog(rec.data_pack).maps[scenario].name
        except Exception:  # an old or unknown map id: its id is still a name
            name = scenario
        name = name if L.lang == DEFAULT else L.name(f"term.scenario.{scenario}", name)
        return L("web.title", id=rec.id, map=name)

    async def live(self, game_id: int, *, lang: str | None = None) -> LiveView:
        """The game now: status, public scores, deadlines, the last turn's sentences, in
        ``lang`` (None: the game's language)."""
        s = await self.core.peek(game_id)
        lang = game_language(s.rec) if lang is None else lang
        L = translator(lang)
        arch = await self.archive(game_id, lang=lang)
        deadlines: dict[int, datetime | None] = {}
        if s.rec.status is GameStatus.RUNNING and not s.over:
            pacing = getattr(self.core, "pacing", None)
            if pacing is not None:
                deadlines = await pacing.deadlines(game_id, s)
        status = s.status()
        status = replace(
            status,
            waiting=tuple(
                replace(d, who=seat_name(s.state, s.seats, d.seat, L)) for d in status.waiting
            ),
        )
        scores = tuple(
            replace(r, who=seat_name(s.state, s.seats, r.seat, L))
            for r in self.core.score_rows(s.state, s.seats)
        )
        colours = {
            p.seat: c for p in s.state.players if (c := seat_colour(s.state, p.seat)) is not None
        }
        return LiveView(
            game_id=game_id,
            version=s.version,
            title=arch.title,
            status=status,
            scores=scores,
            deadlines=deadlines,
            last_turn=tuple(arch.last_turn()),
            steps=len(arch.steps),
            finished=s.rec.status is GameStatus.FINISHED,
            abandoned=s.rec.status is GameStatus.ABANDONED,
            lang=lang,
            colours=colours,
        )

    async def map_png(self, game_id: int, version: int, *, lang: str | None = None) -> bytes:
        """The public map at ``version`` (with its turn's changes ringed, as the channel
        shows it) in ``lang`` (None: the game's language now), drawn once per language and
        kept. ``KeyError`` if the game has no such step."""
        if lang is None:
            lang = await self.language(game_id)
        key = (game_id, version, lang)
        hit = self._maps.get(key)
        if hit is not None:
            self._maps.move_to_end(key)
            return hit
        job = self._drawing.get(key)
        if job is None:
            job = asyncio.ensure_future(self._draw(game_id, version, lang))
            self._drawing[key] = job
            job.add_done_callback(lambda _f: self._drawing.pop(key, None))
        return await asyncio.shield(job)

    def cached_map(self, game_id: int, version: int, lang: str = DEFAULT) -> bytes | None:
        """The map at ``version`` in ``lang`` if it is drawn already."""
        return self._maps.get((game_id, version, lang))

    async def _draw(self, game_id: int, version: int, lang: str) -> bytes:
        arch = await self.archive(game_id, lang=lang)
        step = next((s for s in arch.steps if s.version == version), None)
        if step is None:
            raise KeyError(version)
        state = GameState.model_validate_json(await self.core.store.state_at(game_id, version))
        frame = Frame(version, state, arch.events[step.n])
        req = ImageRequest("map", None, version, lang=lang)  # kept per language
        png = await self.core.render(req, frame)
        if png is None:
            raise KeyError(version)
        self._maps[(game_id, version, lang)] = png
        self._map_bytes += len(png)
        while self._map_bytes > self.cache_bytes and len(self._maps) > 1:
            _, old = self._maps.popitem(last=False)
            self._map_bytes -= len(old)
        return png
