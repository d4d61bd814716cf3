"""The plain data the game service returns to every surface: what to show (posts per
audience, images to draw from frames), refusals, who decides next, scores and status.

No Discord, no terminal, no storage here: a surface renders these as it likes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import i18n
from i18n import Msg, text_of, tr, translator
from rules.registry import default_name
from storage.models import OpenPost

Audience = int | Literal["public"]
ImageKind = Literal["map", "map_zoom", "boards", "panel", "hand", "battle", "scores"]

# ============================================================================ plain data


@dataclass(frozen=True)
class ImageRequest:
    """An image to draw: its ``kind``, whose view it is drawn from (``seat``; None: a
    spectator's, the only one allowed on a public post), the game ``version`` it shows, for
    ``panel`` the ``player`` whose panel, the language of its texts (``lang``: the game's
    for a public image, the owner's for a hand) and the ``game`` it is of (a name of
    :mod:`rules.games`: the worker loads that game's state and draws with its adapter). The
    kinds are roles, drawn by each game its own way: ``map`` the board, ``boards`` the
    players' public panels, ``battle`` the last fight (Tigris: the conflict report),
    ``hand`` a seat's private hand, ``scores`` the final score sheet. Draw it with
    :func:`render_image`."""

    kind: ImageKind
    seat: int | None
    version: int
    player: int | None = None
    lang: str = "en"
    game: str = field(default_factory=default_name)  # the default game's, unless named

    def filename(self) -> str:
        who = "public" if self.seat is None else f"seat{self.seat}"
        extra = "" if self.player is None else f"-p{self.player}"
        return f"v{self.version:04d}-{self.kind}{extra}-{who}.png"


@dataclass(frozen=True)
class Post:
    """Something to show: to everybody (``"public"``) or to one seat only (an int).
    ``ends_turn``: the step ended a turn (or the game): its map closes the turn's summary."""

    audience: Audience
    text: str
    images: tuple[ImageRequest, ...] = ()
    ends_turn: bool = False


@dataclass(frozen=True)
class ErrorInfo:
    """A refused command, shown only to the seat that typed it."""

    seat: int | None
    rule: str  # a rules-reference ID (R-BUILD-4), or "" when no rule applies
    message: str  # in English
    key: str = ""  # the engine's message key (error.*), "" for a text without one
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    game: str = ""  # the game whose commands it names ("": none named)
    notation: str = ""  # the language the refused command was typed in ("": the reader's)
    args: Mapping[str, str] = field(default_factory=dict, hash=False)  # placeholders' words

    def text(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message

    def message_in(self, lang: str) -> str:
        """The refusal in ``lang`` (the English ``message`` when it has no key); the commands
        it names (typed, legal, usages) in the notation the player typed in, else in the
        words of ``lang`` (:func:`i18n.notation.refusal`)."""
        if not self.key:
            return self.message
        if self.game:
            from i18n.notation import refusal

            notation = self.notation or None
            return refusal(lang, self.key, self.params, self.game, notation, self.args)
        return tr(lang, self.key, **self.params)

    def text_in(self, lang: str) -> str:
        """:meth:`text` in ``lang``: the refusal and its rule ID."""
        m = self.message_in(lang)
        return f"{m} ({self.rule})" if self.rule else m


@dataclass(frozen=True)
class Decision:
    """A seat that must (or may) decide now: ``kind`` is the pending decision's kind or
    ``"turn"``; ``choices`` are the legal commands (private to that seat)."""

    seat: int
    who: str
    ai: bool
    kind: str
    choices: tuple[str, ...] = ()
    user_id: int | None = None  # the Discord user who plays the seat, if any
    term: str = ""  # the message key naming the decision, when not svc.decision.<kind>

    def what(self, lang: str = "en") -> str:
        """``"to play"`` or the pending decision in words (``"combat cards"``)."""
        if self.kind == "turn":
            return tr(lang, "svc.decision.turn")
        if self.term:
            return tr(lang, self.term)
        return translator(lang).name(f"svc.decision.{self.kind}", self.kind.replace("_", " "))


@dataclass(frozen=True)
class Frame:
    """A version's full state and the events that led to it: what images are drawn from.
    The state is secret (never shown as is): :func:`render_image` draws through a view."""

    version: int
    state: Any  # a state of any game of rules.games
    events: tuple[Any, ...] = ()  # the step's events, or the whole turn's at its end


@dataclass(frozen=True)
class Shown:
    """What a surface showed of a step (the answer of its ``show``, :mod:`service.turn`):
    whether it posted the game's new version (the game is then marked posted at it), and its
    post of the turn in progress, kept with the game (None: none open: the game ended, or the
    surface keeps none). ``announced``: False when the surface could not post the step (the
    channel refused it: a missing permission, a server error): the step is saved but not
    shown yet, and is announced by a later showing or the restart's catch-up (the game stays
    marked posted at the version before)."""

    posted: bool
    open_post: OpenPost | None = None
    announced: bool = True


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
    undo_allowed: bool = False  # the seat that took this command's step may take it back
    status: Status | None = None  # the game's status after the call (when asked for)

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
        self.undo_allowed = other.undo_allowed
        self.status = other.status or self.status

    def frame(self) -> Frame | None:
        """The frame of the result's own version, when the call had the state at hand."""
        return self.frames.get(self.version)


@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat: a human (``name``; ``user_id`` for a Discord user) or an AI
    (``ai`` = its level: random, heuristic, search)."""

    name: str
    ai: str | None = None
    user_id: int | None = None

    @classmethod
    def parse(cls, text: str) -> SeatSpec:
        """``"Ana"`` (a local player) or ``"ai:heuristic"`` / ``"ai"`` (a computer player);
        :class:`Refused` for an empty text."""
        t = text.strip()
        if not t:
            raise Refused(Msg("svc.seat_spec.empty"))
        if t.lower() == "ai" or t.lower().startswith("ai:"):
            level = t[3:].strip().lower() or "heuristic"
            return cls.computer(level)
        return cls(name=t)

    @classmethod
    def computer(cls, level: str) -> SeatSpec:
        """A computer seat at ``level``: its name is its id (``ai:heuristic``), shown as
        the level's name in the reader's language (:func:`seat_name`)."""
        return cls(name=ai_id(level), ai=level)

    @property
    def named_by_level(self) -> bool:
        """A computer seat that the platform names (:func:`seat_name`): an AI seat of no
        Discord user (a stand-in keeps its player's name) whose name is the platform's
        default one: its id (``ai:search``), none, or the English default of older records
        (``AI heuristic 2``). A name someone gave the seat is kept."""
        return (
            self.ai is not None
            and self.user_id is None
            and _DEFAULT_AI_NAME.match(self.name.strip()) is not None
        )

    def shown(self, lang: str) -> str:
        """The seat's name in ``lang`` when nothing else is known of the table (no number)."""
        return ai_name(lang, str(self.ai)) if self.named_by_level else self.name


# a computer seat's name as the platform gives it (``ai:search``), older records' English
# default (``AI heuristic 2``, ``AI random``, ``AI``) or none
_DEFAULT_AI_NAME = re.compile(r"^(?:ai(?:(?:\s*:\s*|\s+)[a-z_]+)?(?:\s+\d+)?)?$", re.IGNORECASE)


def ai_id(level: str) -> str:
    """The stored name of a computer seat at ``level`` (an id, never shown: ``ai:search``)."""
    return f"ai:{level}"


def ai_level_word(lang: str, level: str) -> str:
    """A computer level's word in ``lang`` (``"közepes"`` for heuristic in hu); an unknown
    level: its id."""
    return translator(lang).name(f"ai.level.word.{level}", level)


AI_LEVEL_IDS = ("random", "heuristic", "search")
"""The computer levels' ids (a game's registration lists those it has, ``agent_levels``)."""


def _plain(text: str) -> str:
    """``text`` folded for comparing typed words: lower case, no accents (``Erős`` → ``eros``)."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ł", "l")


def ai_level_of(text: str) -> str | None:
    """The computer level ``text`` names: its id or its word in any served language, in any
    case, with or without accents (``strong``, ``Erős``, ``mocny``, ``search`` → ``search``);
    None for no level."""
    want = _plain(text)
    if not want:
        return None
    for level in AI_LEVEL_IDS:
        if want == level or any(
            want == _plain(ai_level_word(lang, level)) for lang in i18n.languages()
        ):
            return level
    return None


def level_words(levels: Sequence[str]) -> list[str]:
    """``levels`` as references to their words (``@ai.level.word.search``), for a message's
    list parameter rendered in its reader's language."""
    return [f"@ai.level.word.{level}" for level in levels]


def ai_name(lang: str, level: str, n: int | None = None, *, rating: int | None = None) -> str:
    """A computer seat's name in ``lang``: ``"Computer (normal)"``, ``"Gép (közepes) 2"``
    (``n``: its number among the seats of its level), ``"Computer (strong, ≈ 1,650)"``
    (``rating``: its level's rating where calibrated)."""
    key = "ai.name" if n is None else "ai.name.numbered"
    params: dict[str, Any] = {"level": ai_level_word(lang, level)}
    if n is not None:
        params["n"] = n
    if rating is not None:
        key += ".rated"
        params["rating"] = rating
    return tr(lang, key, **params)


def ai_number(seats: Sequence[SeatSpec], seat: int) -> int | None:
    """Seat ``seat``'s number among the platform-named computer seats of its level (1, 2,
    … in seat order), or None when it is the only one (or no such seat)."""
    spec = seats[seat] if 0 <= seat < len(seats) else None
    if spec is None or not spec.named_by_level:
        return None
    same = [i for i, s in enumerate(seats) if s.named_by_level and s.ai == spec.ai]
    return same.index(seat) + 1 if len(same) > 1 else None


def seat_name(seats: Sequence[SeatSpec], seat: int, lang: str, fallback: str | None = None) -> str:
    """Who plays seat ``seat`` as ``lang``'s readers read it: the player's name, or a
    computer seat's level name in ``lang`` (``"Gép (közepes) 2"`` when several seats play
    at that level; an older record's ``"AI heuristic 2"`` too: recognised by its level);
    a seat beyond ``seats``: ``fallback``, else "Seat N" in ``lang``."""
    if not 0 <= seat < len(seats):
        return fallback if fallback is not None else tr(lang, "svc.seat", n=seat + 1)
    spec = seats[seat]
    if not spec.named_by_level:
        return spec.name
    return ai_name(lang, str(spec.ai), ai_number(seats, seat))


def shown_seats(seats: Sequence[SeatSpec], lang: str) -> list[SeatSpec]:
    """``seats`` with every name as :func:`seat_name` shows it in ``lang`` (for a text that
    lists the seats; never to store)."""
    return [replace(s, name=seat_name(seats, i, lang)) for i, s in enumerate(seats)]


@dataclass(frozen=True)
class ScoreRow:
    seat: int
    who: str
    total: int
    categories: dict[str, int]
    winner: bool = False
    hidden: bool = False  # the points lie behind the player's screen (total not shown)


@dataclass(frozen=True)
class GameInfo:
    game_id: int
    version: int
    seats: tuple[SeatSpec, ...]
    scenario: str
    seed: int
    over: bool
    game: str  # the game's name (rules.games)


@dataclass(frozen=True)
class Status:
    """Where a game stands: the one source of every surface's status text."""

    game_id: int
    scenario: str  # the map's name
    phase: str  # "setup", "play" or "ended"
    era: int
    round: int
    waiting: tuple[Decision, ...] = ()
    where_key: str = ""  # a game's own words for where it stands (with where_params)
    where_params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    game: str | None = None  # the registered game's name (its own words for decisions)

    @property
    def over(self) -> bool:
        return self.phase == "ended"

    def where(self, lang: str = "en") -> str:
        """``"setup"`` or ``"era 2, round 5"`` (another game: its own words, ``where_key``)."""
        if self.where_key:
            return tr(lang, self.where_key, **self.where_params)
        if self.phase == "setup":
            return tr(lang, "svc.status.setup")
        return tr(lang, "svc.status.where", era=self.era, round=self.round)

    def text(self, lang: str = "en") -> str:
        """One line: ``Game (era 1, round 2); to decide: Ana (red)`` (the terminal's)."""
        if self.over:
            return tr(lang, "svc.status.over")
        ds = ", ".join(d.who for d in self.waiting)
        if not ds:
            return tr(lang, "svc.status.nobody", where=self.where(lang))
        return tr(lang, "svc.status.line", where=self.where(lang), who=ds)


class Refused(ValueError):
    """The one refusal of the service (``docs/errors.md``): a request that cannot be done —
    a lobby button pressed by the wrong person, a game the engine cannot set up, a seat's text
    that names nobody, an undo the rules forbid. The reason is a message (a :class:`i18n.Msg`:
    its key and parameters; a plain text only where no catalogue can say it): :meth:`text`
    renders it in the reader's language, ``str()`` is English. A game move the rules refuse is
    no exception of the service: it is an error in the call's result (``Result.errors``). It
    is a ``ValueError`` (a request the service cannot take), as the seat parser's was."""

    def __init__(self, reason: str | Msg) -> None:
        self.reason = reason
        super().__init__(str(reason))

    @property
    def key(self) -> str:
        """The message key of the reason ("" for a plain text)."""
        return self.reason.key if isinstance(self.reason, Msg) else ""

    def text(self, lang: str = "en") -> str:
        """Why not, in ``lang``."""
        return text_of(self.reason, lang)

    def param(self) -> str | dict[str, Any]:
        """The reason as a parameter of another message (a nested message: rendered in the
        outer message's language)."""
        r = self.reason
        return {"key": r.key, "params": dict(r.params)} if isinstance(r, Msg) else r
