"""The service's per-game adapters: what the game service says and draws about one game.

The rules registry (:mod:`rules.games`) gives every game the same face (new game, legal
actions, apply, view, notation, scores, undo points); the service needs more than that face
knows about a game — its words for a status line, a hand, a score sheet, the sentences of its
events with the players named, which pictures a step posts and how they are drawn. Each game
has an adapter (:class:`GameAdapter`), named by the game's registration
(:mod:`rules.registry`; Brazil: Imperial's and Tigris & Euphrates' are
``service/games/brazil/adapter.py`` and ``service/games/tigris/adapter.py``: each game's folder
holds its parts under the same module names). They are the only modules of the service that
import a game's own modules; the service (:mod:`service.core`, :mod:`service.images`,
:mod:`service.workers`, :mod:`service.undo`) picks the adapter by the game's name (a stored
record's ``game``) or by the state it holds (:func:`adapter_of`), and otherwise acts through
the rules registry's face::

    from service.games import adapter, adapter_of
    A = adapter("tigris")
    st = A.build(3, None, 7, None)
    A.status(1, st, seats, waiting, "en").text("en")
    adapter_of(st).name  # "tigris"
"""

from __future__ import annotations

import json
import secrets
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from i18n import tr
from rules.games import DEFAULT, UnknownGame, game_of, names
from rules.games import game as rules_game
from rules.registry import registration

if TYPE_CHECKING:
    from rules.games import Game
    from service.labels import Choice, Label
    from service.results import Decision, Frame, ImageRequest, Post, ScoreRow, SeatSpec, Status

__all__ = [
    "DEFAULT",
    "GameAdapter",
    "PaymentChooser",
    "UnknownGame",
    "adapter",
    "adapter_of",
    "choices_at",
    "names",
    "title_key",
    "use_data_packs",
]

_LOADED: dict[str, GameAdapter] = {}

Why = tuple[str, dict[str, Any]]
"""A reason as a message: its key and parameters (the undo check's refusals)."""


class GameAdapter(ABC):
    """One game's adapter: the face of :mod:`rules.games` (:attr:`face`) and what the service
    says and draws about the game. The generic parts work through the face; a game's module
    subclasses it and must implement every abstract hook (a missing one fails when the adapter
    is made, not when a surface first needs it)."""

    name: str
    """The game's name, as registered (each adapter sets it)."""
    secret_answers: frozenset[str] = frozenset()
    """Decision kinds answered secretly while other players wait on the answer: an automatic
    answer to one must not come at a telling speed (the Discord bot waits a random delay)."""
    has_timeline: bool = False
    """Whether :mod:`service.timeline` can replay the game (the animated map)."""
    rules_prefix: str = "R-"
    """The rule IDs of the game's rules reference (``R-BUILD-4``, ``T-WAR-6``)."""
    has_payments: bool = False
    """Whether actions cost something the player may pay in several ways (Brazil: Imperial's
    payment chooser and the guided turn's cost line)."""
    undo_rule: str = ""
    """The rule ID a refused undo names (Brazil: Imperial's R-TURN-1; "": the game has no rule
    of its own on taking a step back)."""
    has_colours: bool = False
    """Whether a lobby offers a colour wish per seat (Brazil: Imperial, R-SETUP-4)."""
    score_key: str = "svc.score"
    """The catalogue key of a score in the game's unit (``n``): points by default ("12
    points"), Brazil: Imperial's victory points ("12 VP")."""
    forced_answers: frozenset[str] = frozenset()
    """Decision kinds a human seat with exactly one legal answer has answered for it by the
    service (after the surface's random wait when the kind is in :attr:`secret_answers`), so
    nobody is asked to confirm what is no decision: Tigris's support with no tile of the
    conflict's colour behind the screen; Brazil: Imperial's every kind, ``turn`` included (a
    turn whose only legal step left is ending it ends by itself, a defender without combat
    cards answers "none")."""

    def __init__(self) -> None:
        self.face: Game = rules_game(self.name)

    def board_text(self, st: Any, seats: Sequence[SeatSpec], lang: str = "en") -> list[str]:
        """The board in words, public things only, one line each, in ``lang``: what a
        screen reader reads instead of the map (``/board text:``, the terminal's ``board``).
        The base has none beyond the status and the scores every game's board text starts
        with."""
        return []

    def score_text(self, n: int, lang: str = "en") -> str:
        """A score in the game's unit, in ``lang`` (:attr:`score_key`)."""
        return tr(lang, self.score_key, n=n)

    # ------------------------------------------------------------ states and actions

    def load(self, state_json: str | bytes) -> Any:
        return self.face.load(state_json)

    def dump(self, state: Any) -> str:
        return self.face.dump(state)

    def build(
        self,
        players: int,
        scenario: str | None,
        seed: int | None,
        data_pack: str | None,
        options: Mapping[str, Any] | None = None,
    ) -> Any:
        """A new game's state; a :class:`rules.errors.RulesError` saying why not. Without a
        seed, a secret one is drawn."""
        if seed is None:
            seed = secrets.randbits(62)
        return self.face.new_game(players, seed=seed, **dict(options or {}))

    def seat_count(self, st: Any) -> int:
        """How many seats the game has."""
        return len(st.players)

    def seed_of(self, st: Any) -> int:
        return int(st.rng.seed)

    def scenario_of(self, st: Any) -> str:
        """What the game record's ``settings.scenario`` says (the map, the board)."""
        return "standard"

    def over(self, st: Any) -> bool:
        return bool(self.face.is_over(st))

    def apply(self, st: Any, action: Any, *, checked: bool = True) -> tuple[Any, list[Any]]:
        after, events = self.face.apply(st, action)
        return after, list(events)

    def parse_action(self, data: Any) -> Any:
        """An action from its JSON or dict (a button's), or the action itself."""
        if isinstance(data, (str, bytes, dict)):
            return self.face.action_from_json(
                data if not isinstance(data, bytes) else data.decode()
            )
        return data

    def action_json(self, action: Any) -> str:
        return self.face.action_to_json(action)

    def describe(self, st: Any, action: Any) -> str:
        """The step's description kept in the log (English)."""
        return self.face.describe_action(st, action)

    def describe_in(self, st: Any, action: Any, lang: str) -> str:
        """The step ``action`` (taken from ``st``) in words of ``lang``: English, the log's
        description (:meth:`describe`); another language, the action as its menu names it
        (:meth:`action_label`), never an English sentence; "" when it has no words."""
        if lang == "en":
            return self.describe(st, action)
        try:
            return self.action_label(st, action, lang).text
        except Exception:  # the words must never break an undo: the caller's own words
            return ""

    def pending_kind(self, st: Any, seat: int) -> str:
        """What ``seat`` decides now: ``"turn"`` or the pending decision's kind."""
        return "turn"

    def default_answer(self, st: Any, seat: int) -> Any | None:
        """The game's own "nothing" answer to what ``seat`` decides now, from its legal
        actions (the pacing's ``default`` policy at a deadline); None when there is none
        (a choice to make: by the player or an AI standing in)."""
        return None

    def use_data_packs(self, folder: str | None) -> None:
        """Where the game finds the component data packs its games name (None: the game's
        own data only); a game without data packs has nothing to do."""
        return None

    def data_packs(self) -> str | None:
        """The folder :meth:`use_data_packs` set (a worker process is given the parent's)."""
        return None

    def scenarios(self) -> list[tuple[str, str]]:
        """The maps or boards a game may be played on: (id, name); none to choose from when
        the game has one."""
        return []

    # ------------------------------------------------------------ colours (has_colours)

    def colours(self, lang: str) -> list[tuple[str, str]]:
        """The colours a player may wish for in a lobby: (id, name in ``lang``)."""
        return []

    def colour_to_choose(self, st: Any) -> int | None:
        """The seat whose colour the game's colour step asks for now (None: none now)."""
        return None

    def colour_action(self, st: Any, seat: int, colour: str) -> Any | None:
        """The legal action by which ``seat`` takes ``colour`` now (None: not legal now)."""
        return None

    def ai_colour(self, st: Any, seat: int, wishes: Mapping[int, str]) -> Any | None:
        """The colour AI seat ``seat`` takes in the colour step when it must leave wished
        colours alone: its own seat's wish if legal (an AI standing in for a player), else
        the first legal colour that no seat still to choose has wished. None when no wish of
        another seat is at stake (the AI then chooses itself)."""
        return None

    def decision_term(self, kind: str) -> str:
        """The message key naming a decision ``kind`` (``""``: ``svc.decision.<kind>``)."""
        return ""

    # ------------------------------------------------------------ events

    def events_json(self, events: Sequence[Any]) -> str:
        return json.dumps([self.event_dict(e) for e in events])

    @abstractmethod
    def event_dict(self, event: Any) -> dict[str, Any]:
        raise NotImplementedError

    @abstractmethod
    def events_from_json(self, events_json: str | bytes | None) -> list[Any]:
        raise NotImplementedError

    @staticmethod
    def public(events: Sequence[Any]) -> list[Any]:
        """The events every seat may see."""
        return [e for e in events if e.visible_to is None]

    @abstractmethod
    def event_text(self, event: Any, lang: str) -> str:
        """An event's sentence in ``lang`` without the players' names (the log)."""
        raise NotImplementedError

    def log_text(self, event: Any, st: Any, seats: Sequence[SeatSpec], lang: str) -> str:
        """An event's sentence in the game's log (``log``), ``st`` the game now."""
        return self.event_text(event, lang)

    @abstractmethod
    def round_of(self, st: Any) -> int:
        """The round the game is in (every player had a turn per round; 0: setting up)."""
        raise NotImplementedError

    @abstractmethod
    def progress(self, st: Any) -> float:
        """How far the game has come, from 0 to 1 (a progress bar's)."""
        raise NotImplementedError

    @abstractmethod
    def turn_key(self, st: Any) -> tuple[Any, ...]:
        """What changes when a turn ends (a new turn's map, the turn's events start anew)."""
        raise NotImplementedError

    @abstractmethod
    def playing(self, st: Any) -> bool:
        """The game is in its turns (not setting up, not over)."""
        raise NotImplementedError

    @abstractmethod
    def begins_turn(self, events: Sequence[Any]) -> bool:
        """The events of a step that began a turn (or the game)."""
        raise NotImplementedError

    # ------------------------------------------------------------ words

    @abstractmethod
    def seat_label(self, st: Any, seats: Sequence[SeatSpec], seat: int, lang: str = "en") -> str:
        raise NotImplementedError

    @abstractmethod
    def new_game_text(self, lang: str, game_id: int, st: Any, seats: Sequence[SeatSpec]) -> str:
        raise NotImplementedError

    @abstractmethod
    def status(
        self,
        game_id: int,
        st: Any,
        seats: Sequence[SeatSpec],
        waiting: tuple[Decision, ...],
        lang: str,
    ) -> Status:
        raise NotImplementedError

    @abstractmethod
    def step_posts(
        self,
        before: Any,
        action: Any,
        after: Any,
        events: list[Any],
        seats: Sequence[SeatSpec],
        version: int,
        *,
        lang: str = "en",
        seat_langs: Mapping[int, str] | None = None,
    ) -> list[Post]:
        raise NotImplementedError

    @abstractmethod
    def hand_text(self, st: Any, seats: Sequence[SeatSpec], seat: int, lang: str = "en") -> str:
        raise NotImplementedError

    @abstractmethod
    def score_rows(self, st: Any, seats: Sequence[SeatSpec], lang: str = "en") -> list[ScoreRow]:
        raise NotImplementedError

    def final_result(self, after: Any) -> tuple[dict[int, int], frozenset[int]] | None:
        """The finished game's scores per seat and winners (None: not over)."""
        if not self.over(after):
            return None
        scores = dict(self.face.final_scores(after))
        return scores, frozenset(self.face.winners(after))

    def board_images(self, version: int, lang: str) -> tuple[ImageRequest, ...]:
        """The public pictures of ``board``: the map and the players' boards."""
        from service.results import ImageRequest

        return (
            ImageRequest("map", None, version, lang=lang, game=self.name),
            ImageRequest("boards", None, version, lang=lang, game=self.name),
        )

    @abstractmethod
    def choices(self, st: Any, seat: int, legal: Sequence[Any], lang: str = "en") -> list[Choice]:
        """The legal actions as menu choices (the guided turn), labelled in ``lang``."""
        raise NotImplementedError

    def action_label(self, st: Any, action: Any, lang: str = "en") -> Label:
        """``action`` as a menu names it, from what its own seat (the one deciding it) sees,
        in ``lang``: by default the label of its menu choice (:meth:`choices`)."""
        return self.choices(st, int(action.seat), [action], lang)[0].label

    def group_label(
        self, members: Sequence[Choice], prefix: str, *, cut: bool = False, lang: str = "en"
    ) -> Label:
        """The label of a guided menu's group: the choices ``members`` whose commands start
        with ``prefix`` (``cut``: its last word is only the first letters of the next word).
        By default the command's words as typed (a cut word lists the words it stands for:
        ``raise 1`` -> "raise 1: 10, 15"), described by how many choices the group holds; a
        game names them in its own words."""
        from i18n import tr
        from service.labels import Label, clip

        head = prefix.strip()
        if cut and members:
            k = len(head.split())
            nxt = dict.fromkeys(
                m.command.split()[k - 1] for m in members if len(m.command.split()) >= k
            )
            head += ": " + ", ".join(nxt)
        return Label(clip(head), clip(tr(lang, "svc.choices", n=len(members))))

    def grammar(self) -> tuple[tuple[str, str, str], ...]:
        """The typed commands' grammar: (command, action type, example) per command."""
        return ()

    # ------------------------------------------------------------ a reader's help

    help_keys: Mapping[str, str] = MappingProxyType({})
    """The game's own lines of a surface's help, by the word they explain (``score``,
    ``rules``, ``footer``; ``score_head``: the heading of the scores a player asks for):
    catalogue keys in the game's catalogue ({}: the surface's generic lines serve)."""

    help_args: Mapping[str, str] = MappingProxyType({})
    """The words of the placeholders in the game's grammar and in its refusals' usages
    (``<hex>``, ``SQUARE``), by the placeholder's name (lower case, ``_`` for a space):
    catalogue keys; the help and the refusals write them in the reader's language
    (:func:`i18n.notation.localize_usage`)."""

    help_example: str = ""
    """A command of the game's notation that the help shows as a typed line's example (in
    the reader's words; "": the grammar's first example)."""

    def lookup(self, query: str, lang: str = "en") -> list[str]:
        """The game's components a reader looks up by id or name, in ``lang``, beside the
        rules reference (Brazil: Imperial's missions and their objectives: ``I-1``, ``The
        Brazilwood Coast``); none by default."""
        return []

    def notes(self, st: Any, seat: int, legal: Sequence[Any], lang: str = "en") -> list[str]:
        """What ``seat`` should know of its ``legal`` actions to choose among them, beside
        their commands, as it sees the game, in ``lang`` (Brazil: Imperial's missions it may
        keep or reveal, with their objectives); none by default."""
        return []

    # ------------------------------------------------------------ the game's page and timeline

    has_eras: bool = False
    """Whether the game has eras (the page's era menu and *new era* marks)."""
    battle_word: str = "battle"
    """The page's word for a step that fought (``web.badge.<word>``): ``battle``,
    ``conflict``."""

    def page_subject(self, scenario: str, data_pack: str | None, lang: str) -> str:
        """What the page's title names after the game's number: the game's title."""
        from i18n import tr

        return tr(lang, title_key(self.name))

    def page_seat(self, st: Any, seats: Sequence[SeatSpec], seat: int, lang: str) -> str:
        """A seat as the page names it (:meth:`seat_label`)."""
        return self.seat_label(st, seats, seat, lang)

    def page_colour(self, st: Any, seat: int) -> str | None:
        """The seat's colour marker on the page (None: no marker colour)."""
        return None

    @abstractmethod
    def page_turn(self, st: Any, seats: Sequence[SeatSpec], lang: str) -> str:
        """The label of the turn ``st`` is in (the replay's turn menu)."""
        raise NotImplementedError

    @abstractmethod
    def page_marks(self, st: Any) -> tuple[str, int, int]:
        """A step's phase, era (0: the game has none) and round (Tigris: the turn)."""
        raise NotImplementedError

    def page_text(
        self,
        before: Any,
        action: Any,
        after: Any,
        events: Sequence[Any],
        seats: Sequence[SeatSpec],
        lang: str,
    ) -> str:
        """A step's public sentences, the players named (the events every seat may see, else
        what the action was)."""
        public = [self.log_text(e, after, seats, lang) for e in self.public(events)]
        if public:
            return " ".join(public)
        who = self.seat_label(after, seats, int(action.seat), lang)
        return f"{who}: {self.describe(before, action)}"

    def page_battle(self, events: Sequence[Any]) -> bool:
        """Whether a step's events fought a battle (a conflict)."""
        return False

    def page_where(self, status: Status, lang: str) -> str | None:
        """The page's subtitle in the game's words (None: the era and round's)."""
        return None

    def decision_words(self, kind: str, lang: str) -> str | None:
        """What a seat is awaited for in the game's words (None: ``web.decision.<kind>``)."""
        term = self.decision_term(kind)
        if not term:
            return None
        from i18n import tr

        return tr(lang, term)

    def timeline_frame(self, st: Any) -> Any:
        """A timeline frame's state: what a spectator sees."""
        return self.face.view(st, None)

    @abstractmethod
    def render_timeline(self, frames: Sequence[tuple[Any, Sequence[Any]]], lang: str) -> bytes:
        """The timeline animation (a GIF) of ``frames``: the public board after each turn with
        its turn's events."""
        raise NotImplementedError

    # ------------------------------------------------------------ undo

    @abstractmethod
    def undo_why(
        self,
        before: Any,
        seat: int,
        after: Any,
        events: Sequence[Any],
        seats: Sequence[SeatSpec],
        *,
        lang: str = "en",
    ) -> Why | None:
        """Why ``seat``'s step cannot be taken back (a ``svc.undo.*`` message), or None;
        the players it names, named in ``lang``."""
        raise NotImplementedError

    def undo_depth(self, before: Any, action: Any, after: Any, events: list[Any], seat: int) -> int:
        return int(self.face.undo_depth([(before, action, after, events)], seat))

    # ------------------------------------------------------------ images

    @abstractmethod
    def render(self, req: ImageRequest, frame: Frame, options: Any = None) -> bytes | None:
        """``req`` drawn from ``frame`` through the view of ``req.seat``."""
        raise NotImplementedError

    fallback_scale: float = 0.6
    """The scale of :meth:`render_fallback`'s default drawing (1.0: the full picture's)."""

    def render_fallback(self, req: ImageRequest, frame: Frame) -> bytes | None:
        """A cheaper drawing of ``req`` (the worker pool's fallback, drawn in the surface's own
        process when the worker's drawing failed or is late): the post must carry a picture
        players can follow, quickly. By default :meth:`render` at :attr:`fallback_scale`
        (about a third of the pixels, a half of the time); a game may offer a simpler
        picture of its own (its board without the legend, say)."""
        from render.theme import RenderOptions

        return self.render(req, frame, RenderOptions(scale=self.fallback_scale))


@runtime_checkable
class PaymentChooser(Protocol):
    """The capability of an adapter whose game's costs may be paid in several ways
    (:attr:`GameAdapter.has_payments`): the payment chooser's steps, one token at a time, and
    their words in the reader's language (the guided turn's cost line and payment menus)."""

    def payment_path(self, st: Any, action: Any, path: Sequence[int]) -> Any | None:
        """The payment step that the option numbers ``path`` lead to (the game's own record
        of it: prompt, options, complete, payment, cost, chosen), or None if they no longer
        make sense."""

    def cost_line(self, st: Any, action: Any, lang: str = "en") -> str:
        """What ``action`` costs and the payment the game lists for it (a line ending in a
        newline, saying when the payment costs points); "" when it is free."""

    def cost_text(self, cost: Any, lang: str = "en") -> str:
        """A payment step's ``cost`` in words (``1 gold + 2 coffee``)."""

    def pay_prompt(self, step: Any, lang: str = "en") -> str:
        """A payment step's sentence for its next token to pay."""

    def pay_options(self, step: Any, lang: str = "en") -> list[str]:
        """The labels of the sources that may pay a payment step's next token (in the order
        of its options)."""

    def pay_item_text(self, st: Any, seat: int, item: Any, lang: str = "en") -> str:
        """One item of a payment (a step's ``chosen``) in words, as ``seat`` sees the game."""


def adapter(name: str | None = None) -> GameAdapter:
    """The adapter of game ``name`` (None: the default game); :class:`UnknownGame`."""
    key = DEFAULT if name is None else name.strip().lower()
    found = _LOADED.get(key)
    if found is None:
        reg = registration(key)
        if reg is None:
            raise UnknownGame(key)
        found = reg.load("adapter")
        if not isinstance(found, GameAdapter) or found.name != key:
            raise TypeError(f"{reg.adapter} is not the service adapter of game {key!r}")
        _LOADED[key] = found
    return found


def adapter_of(state: Any) -> GameAdapter:
    """The adapter of the game ``state`` belongs to."""
    return adapter(game_of(state).name)


def use_data_packs(folder: str | None) -> None:
    """Where every game finds the component data packs it names (the surfaces' setting)."""
    for name in names():
        adapter(name).use_data_packs(folder)


def title_key(name: str) -> str:
    """The catalogue key of a game's title (``game.tigris``: "Tigris & Euphrates")."""
    return f"game.{name}"


def choices_at(st: Any, seat: int, lang: str = "en") -> list[Choice]:
    """The legal actions of ``seat`` in ``st`` as the guided turn's menu choices, in
    ``lang`` (the adapter of the state's game)."""
    A = adapter_of(st)
    return A.choices(st, seat, A.face.legal_actions(st, seat), lang)


def seat_label(st: Any, seats: Sequence[SeatSpec], seat: int, lang: str = "en") -> str:
    """``"Ana (red)"``: the seat's player and colour once chosen (the colour's name in
    ``lang``: "Ana (piros)"); in another game, its adapter's words (Tigris: the dynasty,
    "Ana (Bow)")."""
    return adapter_of(st).seat_label(st, seats, seat, lang)
