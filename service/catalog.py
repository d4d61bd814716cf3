"""The games the service plays (surface-neutral, no game loaded, no store): their names and
titles, the players and maps each is for, its typed commands' grammar, whether its lobby
offers colour wishes, where the data packs are, and a new game's state. A thin face over the
adapters' registry (:mod:`service.games`) that answers an unknown game with a
:class:`~service.results.Refused` naming the known ones — what a surface asks before a game
exists (its menus, its command line's checks).

    from service import catalog
    catalog.games()                     # ["brazil", "tigris", …], the default first
    low, high = catalog.player_range("tigris")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import msg
from rules.errors import RulesError
from service.games import DEFAULT, GameAdapter, UnknownGame, adapter, names, title_key
from service.games import use_data_packs as _use_data_packs
from service.results import Refused

GameState = Any  # a state of any game of rules.games


def game_adapter(game: str | None) -> GameAdapter:
    """The adapter of game ``game`` (:mod:`service.games`); a :class:`Refused`
    naming the known games for an unknown one."""
    try:
        return adapter(game)
    except UnknownGame as e:
        raise Refused(str(e)) from e


def games() -> list[str]:
    """The games the service plays, by name, the default first."""
    return names()


def game_titles() -> list[tuple[str, str]]:
    """The games the service plays, the default first: (name, the catalogue key of its
    title: ``game.tigris``), for a surface's menu of games in its reader's language."""
    return [(n, title_key(n)) for n in names()]


def has_colours(game: str | None) -> bool:
    """Whether a lobby of ``game`` offers a colour wish per seat (Brazil: Imperial)."""
    try:
        return adapter(game).has_colours
    except Exception:
        return False


def player_range(game: str = DEFAULT) -> tuple[int, int]:
    """The fewest and most players ``game`` is for."""
    face = game_adapter(game).face
    return face.min_players, face.max_players


def scenarios(game: str | None = None) -> list[tuple[str, str]]:
    """The maps a game of ``game`` (None: the default game) may be played on: (id, name)."""
    return adapter(game).scenarios()


def grammar(game: str = DEFAULT) -> tuple[tuple[str, str, str], ...]:
    """The typed commands' grammar of ``game``: (command, action type, example) per
    command."""
    return adapter(game).grammar()


def help_keys(game: str = DEFAULT) -> Mapping[str, str]:
    """The game's own lines of a surface's help by the word they explain (catalogue keys:
    ``score``, ``rules``, ``footer``; the others are the surface's generic lines)."""
    return adapter(game).help_keys


def help_args(game: str = DEFAULT) -> Mapping[str, str]:
    """The words of the placeholders of the game's grammar (``<hex>``, ``SQUARE``): catalogue
    keys by the placeholder's name."""
    return adapter(game).help_args


def help_example(game: str = DEFAULT) -> str:
    """A command of the game's notation to show as an example ("": none)."""
    A = adapter(game)
    return A.help_example or next((ex for _, _, ex in A.grammar()), "")


def lookup(query: str, game: str = DEFAULT, lang: str = "en") -> list[str]:
    """The components of ``game`` a reader looks up by id or name (Brazil: Imperial's
    missions with their objectives), in ``lang``: one text each; none found, or a game
    without such components: []."""
    return adapter(game).lookup(query, lang)


def use_data_packs(folder: str | None) -> None:
    """Where games find the component data packs they name (each game's adapter)."""
    _use_data_packs(folder)


def build_game(
    players: int,
    scenario: str | None,
    seed: int | None,
    data_pack: str | None = None,
    *,
    game: str = DEFAULT,
    options: Mapping[str, Any] | None = None,
) -> GameState:
    """A new game's state (``rules.new_game``; without a seed, the engine draws a secret
    64-bit one); Refused saying why not."""
    A = game_adapter(game)
    try:
        return A.build(players, scenario, seed, data_pack, options)
    except RulesError as e:
        raise Refused(msg(e.key, **e.params) if e.key else e.message) from e
