"""The games the platform plays, by name: one face per game, the same for every game.

A game is a package of rules (``rules.tigris``, Brazil: Imperial's modules) with one face, a
:class:`Game`: new game, legal actions, apply, who decides, view per seat, determinize,
notation (format, parse, complete, describe), actions to and from JSON, final scores and
undo points. The tools and (step by step) the service pick a game by name::

    from rules.games import game, game_of
    g = game("tigris")
    state = g.new_game(3, seed=7)
    while not g.is_over(state):
        seat = g.deciders(state)[0]
        state, events = g.apply(state, g.legal_actions(state, seat)[0])
    game_of(state).name   # "tigris"

Every function of the face takes the same arguments whatever the game: ``parse_text(state,
seat, text)``, ``format_action(state, action)``, ``legal_actions(state, seat)`` (``None``:
the actions of every seat that decides now). A game's package is imported the first time
it is asked for. The games are the registered ones (:mod:`rules.registry`: one registration
per game, in the game's own package); :data:`DEFAULT` is the registration marked default, the
game of every stored game that names none.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic

from pydantic import BaseModel
from typing_extensions import TypeVar

from rules.registry import default_name, registration, registrations

DEFAULT: str
"""The default game's name (declared for the type checker; see ``__getattr__``)."""


def __getattr__(attr: str) -> str:
    # DEFAULT, the default game's name (the registration marked default), is read from the
    # registrations when first asked for: a game's registration imports its package, whose
    # face imports this module
    if attr == "DEFAULT":
        return default_name()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


_LOADED: dict[str, Game] = {}


StateT = TypeVar("StateT", bound=BaseModel, default=Any)
"""A game's state: a pydantic model (its JSON is what storage keeps)."""
ActionT = TypeVar("ActionT", default=Any)
"""A game's action."""


@dataclass(frozen=True)
class Game(Generic[StateT, ActionT]):
    """One game's face (see the module docstring), typed by its state and action classes:
    ``Game[TigrisState, Action]``. The platform holds any game's face (``Game``: both
    ``Any``); a game's own face is checked against its types."""

    name: str
    title: str  # the English title; the catalogues' ``game.<name>`` in other languages
    min_players: int
    max_players: int
    state_type: type[StateT]
    new_game: Callable[..., StateT]  # (players, seed=None, **options) -> state
    legal_actions: Callable[[StateT, int | None], list[ActionT]]
    apply: Callable[[StateT, ActionT], tuple[StateT, list[Any]]]
    deciders: Callable[[StateT], list[int]]
    is_over: Callable[[StateT], bool]
    view: Callable[[StateT, int | None], StateT]
    determinize: Callable[[StateT, int, random.Random], StateT]
    format_action: Callable[[StateT, ActionT], str]
    parse_text: Callable[[StateT, int, str], ActionT]
    complete: Callable[[StateT, int, str], list[str]]
    describe_action: Callable[[StateT, ActionT], str]
    action_to_json: Callable[[ActionT], str]
    action_from_json: Callable[[str | dict[str, Any]], ActionT]
    final_scores: Callable[[StateT], list[tuple[int, int]]]  # (seat, score), best first
    winners: Callable[[StateT], list[int]]
    undo_depth: Callable[[Sequence[tuple[StateT, ActionT, StateT, list[Any]]], int], int]
    # the game's own invariants after a step (self-play): raise AssertionError if broken;
    # ``rng`` for the checks that deal hidden information
    check: Callable[[StateT, random.Random], None] | None = None
    # whether the game stands still: a run of turns (every seat passing, say) in which nothing
    # moved it towards its natural end, read from the state alone (its views too). The rules
    # may allow it; the game's computer players then play only actions that progress, so a
    # game of computer players always ends. None: the game cannot stand still (every turn
    # progresses, or it has a natural end whatever is played)
    stalled: Callable[[StateT], bool] | None = None
    # who decides next: the seats whose turn comes once the seats deciding now have finished
    # theirs, whatever they choose, if the game goes on (answers asked of other seats within
    # the turn — a defender's cards, a war's support — do not count); None: it cannot be
    # known from the state (it depends on the choices, or the game has no turn order). Read
    # from the state alone; the platform's heads-up ("you are next") uses it. None (the hook
    # itself): the game never says
    next_deciders: Callable[[StateT], list[int] | None] | None = None

    def load(self, state_json: str | bytes) -> StateT:
        """A state of this game from its JSON."""
        return self.state_type.model_validate_json(state_json)

    def dump(self, state: StateT) -> str:
        """A state's JSON (read back exactly by :meth:`load`)."""
        return state.model_dump_json()

    def legal_texts(self, state: StateT, seat: int) -> list[str]:
        """The commands ``seat`` may type now, in the engine's listing order (each once)."""
        return list(
            dict.fromkeys(self.format_action(state, a) for a in self.legal_actions(state, seat))
        )


class UnknownGame(ValueError):
    """A game name the platform does not know (``str()`` names the known ones)."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"unknown game {name!r}: choose {', '.join(names())}")


def names() -> list[str]:
    """The games' names, the default first."""
    return list(registrations())


def game(name: str | None = None) -> Game:
    """The face of game ``name`` (None: :data:`DEFAULT`); :class:`UnknownGame` if none."""
    name = default_name() if name is None else name.strip().lower()
    found = _LOADED.get(name)
    if found is None:
        reg = registration(name)
        if reg is None:
            raise UnknownGame(name)
        found = reg.load("face")
        if not isinstance(found, Game) or found.name != name:
            raise TypeError(f"{reg.face} is not the face of game {name!r}")
        _LOADED[name] = found
    return found


def game_of(state: Any) -> Game:
    """The game a state belongs to."""
    for name in names():
        g = game(name)
        if isinstance(state, g.state_type):
            return g
    raise TypeError(f"not a game state: {type(state).__name__}")


def load_state(game_name: str | None, state_json: str | bytes) -> Any:
    """A state of game ``game_name`` from its JSON."""
    return game(game_name).load(state_json)


def replay_step(game_name: str | None, state_json: str, action_json: str) -> str:
    """The JSON of the state after ``action_json`` on ``state_json`` (storage's replayer)."""
    g = game(game_name)
    new, _ = g.apply(g.load(state_json), g.action_from_json(action_json))
    return g.dump(new)


def action_json(action: Any) -> str:
    """An action of any game as JSON."""
    to_dict = getattr(action, "to_dict", None)
    if to_dict is not None:
        return json.dumps(to_dict(), separators=(",", ":"))
    return str(action.model_dump_json())
