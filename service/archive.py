"""A game's public archive: every step of its log as a spectator may see it, the map at each
step, and the game as it stands now — what a game's web page shows (or any other surface
for spectators).

Every game's archive is made through its adapter (:mod:`service.games`): the steps'
sentences, the players' names, the turns' labels, what marks a battle (Tigris & Euphrates:
a revolt or war decided) or an era (Brazil: Imperial's only), the map (the adapter's ``map``
picture), the public score rows.

Only public things leave this module: the steps' sentences are the events every seat may
see (players named as the table knows them), the maps are drawn from the spectator's view
(``view(state, None)``), the scores are the public ones (points behind a player's screen are
``hidden`` rows: no number). A game's page is found by an
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
from typing import TYPE_CHECKING, Any, Literal

from i18n import DEFAULT, Translator, resolve, translator
from rules.registry import default_name
from service.games import GameAdapter, adapter, adapter_of
from service.results import Frame, ImageRequest, ScoreRow, SeatSpec, Status
from storage.models import EntryKind, GameRecord, GameStatus, LogEntry

if TYPE_CHECKING:
    from service.core import GameCore

StepKind = Literal["start", "action", "undo", "rollback"]

TOKEN_BYTES = 18
"""A page token's randomness: 18 bytes, 24 URL-safe characters (144 bits)."""


def game_language(rec: GameRecord) -> str:
    """The language of a game's public texts (its page): the game's own setting, else
    English (a code no catalogue serves reads as English)."""
    code = getattr(rec.settings, "language", DEFAULT)  # the game's language
    return resolve(code if isinstance(code, str) else None) or DEFAULT


def seat_name(st: Any, seats: Sequence[SeatSpec], seat: int, L: Translator) -> str:
    """A seat as the page names it in ``L``'s language (its game's adapter's): ``"Ana
    (red)"`` (the player and colour once chosen), ``"Ana (Bow)"`` (the dynasty)."""
    return adapter_of(st).page_seat(st, seats, seat, L.lang)


def seat_colour(st: Any, seat: int) -> str | None:
    """The seat's colour once chosen (its marker on the map), else None."""
    return adapter_of(st).page_colour(st, seat)


def decision_text(kind: str, lang: str = DEFAULT, game: str | None = None) -> str:
    """What a seat is awaited for, in words: ``"to play"`` (its turn, ``kind`` ``"turn"``) or
    the pending decision (``"combat cards"``; ``game``'s own words where it has them:
    Tigris's ``"support"``)."""
    if game is not None:
        own = adapter(game).decision_words(kind, lang)
        if own:
            return own
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
    events: tuple[tuple[Any, ...], ...] = field(repr=False, default=())
    """Per step, the events the map at that step highlights (the turn's so far)."""
    lang: str = DEFAULT
    game: str = field(default_factory=default_name)
    """The game's name (:mod:`service.games`)."""
    eras: bool = True
    """Whether the game has eras (the era menu)."""
    battle_word: str = "battle"
    """The game's word for a step that fought (``battle``, ``conflict``)."""

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
    where: str | None = None
    """Where the game stands in its own words (None: the era and round's)."""
    game: str = field(default_factory=default_name)


def build_archive(
    rec: GameRecord,
    entries: Sequence[LogEntry],
    seats: Sequence[SeatSpec],
    title: str,
    lang: str = DEFAULT,
) -> Archive:
    """Replay ``entries`` (a game's whole log) into its public steps, in ``lang``, through
    the game's adapter (``rec.game``). Pure CPU work: run it in a worker thread."""
    A: GameAdapter = adapter(rec.game)
    L = translator(lang)

    steps: list[PublicStep] = []
    turns: list[TurnMark] = []
    highlights: list[tuple[Any, ...]] = []
    st: Any = None
    turn_events: list[Any] = []
    carry: dict[int, tuple[Any, list[Any], int]] = {}  # version -> state, turn, turn no
    turn = -1

    def new_turn(s: Any, first: int) -> int:
        turns.append(TurnMark(A.page_turn(s, seats, lang), first))
        return len(turns) - 1

    for e in entries:
        n = len(steps)
        if e.kind is EntryKind.CREATED or (e.action_json is None and st is None):
            if not e.snapshot_json:
                continue
            st = A.load(e.snapshot_json)
            turn_events = []
            turn = new_turn(st, n)
            players = [A.page_seat(st, seats, i, lang) for i in range(len(st.players))]
            steps.append(
                PublicStep(
                    n,
                    e.version,
                    "start",
                    L("web.step.start", title=title, players=players),
                    turn,
                    *A.page_marks(st),
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
                st, turn_events = A.load(e.snapshot_json), []
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
            steps.append(PublicStep(n, e.version, kind, text, turn, *A.page_marks(st)))
            highlights.append(())
            carry[e.version] = (st, list(turn_events), turn)
            continue
        before = st
        action = A.parse_action(e.action_json or "{}")
        after, events = A.apply(before, action)
        text = A.page_text(before, action, after, events, seats, lang)
        ends = A.turn_key(before) != A.turn_key(after)
        turn_events = turn_events + events
        phase, era, rnd = A.page_marks(after)
        steps.append(
            PublicStep(
                n,
                e.version,
                "action",
                text,
                turn,
                phase,
                era,
                rnd,
                battle=A.page_battle(events),
                era_start=era > A.page_marks(before)[1],
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
        rec.id,
        rec.version,
        title,
        tuple(out),
        tuple(turns),
        tuple(highlights),
        lang=lang,
        game=A.name,
        eras=A.has_eras,
        battle_word=A.battle_word,
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
        """``"Game #7: Cisplatine War"``: the game's number and its map's name in ``lang``
        (another game: its title, ``"Game #8: Tigris & Euphrates"``)."""
        L = translator(lang)
        name = adapter(rec.game).page_subject(rec.settings.scenario, rec.data_pack, L.lang)
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
        A = adapter_of(s.state)
        status = s.status(lang)
        status = replace(
            status,
            waiting=tuple(
                replace(d, who=seat_name(s.state, s.seats, d.seat, L)) for d in status.waiting
            ),
        )
        scores = tuple(
            replace(r, who=seat_name(s.state, s.seats, r.seat, L))
            for r in self.core.reading.score_rows(s.state, s.seats)
        )
        colours = {
            i: c
            for i in range(len(s.state.players))
            if (c := A.page_colour(s.state, i)) is not None
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
            where=A.page_where(status, lang),
            game=A.name,
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
        A = adapter(arch.game)
        state = A.load(await self.core.store.state_at(game_id, version))
        frame = Frame(version, state, arch.events[step.n])
        req = ImageRequest("map", None, version, lang=lang, game=A.name)  # kept per language
        png = await self.core.render(req, frame)
        if png is None:
            raise KeyError(version)
        self._maps[(game_id, version, lang)] = png
        self._map_bytes += len(png)
        while self._map_bytes > self.cache_bytes and len(self._maps) > 1:
            _, old = self._maps.popitem(last=False)
            self._map_bytes -= len(old)
        return png
