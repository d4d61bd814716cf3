"""The game service stays split into cohesive parts (#28, item 5): :class:`GameCore` keeps the
sessions, the step path, the computer players, undo and the worker pool; the sessions are
:mod:`service.session`'s, reading a game :mod:`service.reading`'s (``svc.reading``), where the
surfaces show the games :mod:`service.places`'s (``svc.places``), the games it plays
:mod:`service.catalog`'s. A method moved out has no old home left on the core, and the core
does not grow back past :data:`MAX_CORE_METHODS` public methods."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from service import GameService, catalog
from service.core import GameCore
from service.places import Places
from service.ratings import Ratings
from service.reading import Reading
from service.session import GameSession

MAX_CORE_METHODS = 36
"""GameCore's own public methods (73 methods before the split, 38 after it, 36 of them
public): a new one belongs in a part, or this number is raised on purpose."""

MOVED = {
    "places": [
        "find",
        "games_of",
        "record",
        "latest_game",
        "player_stats",
        "unposted",
        "mark_posted",
        "set_status_message",
        "status_message",
        "private_place",
        "set_private_place",
    ],
    "reading": [
        "board",
        "hand",
        "hold_news",
        "hand_post",
        "hand_text",
        "score_rows",
        "scores",
        "log",
        "catch_up",
        "catch_up_in",
        "timeline_frames",
        "timeline_image",
        "rules",
    ],
    "catalog": [
        "game_adapter",
        "games",
        "has_colours",
        "game_titles",
        "player_range",
        "use_data_packs",
        "grammar",
        "scenarios",
        "build_game",
    ],
}
"""Each part's public calls, once GameCore's."""

PARTS: dict[str, type[Reading | Places | Ratings]] = {
    "reading": Reading,
    "places": Places,
    "ratings": Ratings,
}
"""The parts the service reaches as attributes (class by attribute)."""


def own_public_methods(cls: type) -> list[str]:
    """The public methods (static ones and properties too) ``cls`` itself defines."""
    return [
        name
        for name, value in vars(cls).items()
        if not name.startswith("_")
        and (inspect.isfunction(value) or isinstance(value, staticmethod | classmethod | property))
    ]


def test_the_core_keeps_at_most_its_number_of_public_methods() -> None:
    found = own_public_methods(GameCore)
    assert len(found) <= MAX_CORE_METHODS, (
        f"GameCore has {len(found)} public methods (at most {MAX_CORE_METHODS}): {found}"
    )


@pytest.mark.parametrize("part", sorted(MOVED))
def test_a_moved_call_is_the_part_s_and_not_the_core_s(part: str) -> None:
    module = importlib.import_module(f"service.{part}")
    home = PARTS.get(part, module)  # a class's method, or the catalog's function
    for name in MOVED[part]:
        assert callable(getattr(home, name, None)), f"service.{part} has no {name}"
        assert not hasattr(GameCore, name), f"GameCore.{name} is left (now svc.{part}.{name})"


ROOT = Path(__file__).resolve().parents[2]


def imports_from(module: str) -> list[tuple[str, str]]:
    """Every name imported ``from module import …`` in the project's Python files: (file,
    name)."""
    found = []
    for top in ("service", "bot", "terminal", "web", "devtools", "turnpost", "tests", "examples"):
        for path in (ROOT / top).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module == module:
                    rel = str(path.relative_to(ROOT))
                    found += [(rel, alias.name) for alias in node.names]
    return found


def test_the_session_lives_in_its_own_module_with_no_old_home() -> None:
    assert GameSession.__module__ == "service.session"
    old = [f"{f}: {name}" for f, name in imports_from("service.core") if name == "GameSession"]
    assert not old, f"GameSession imported from its old home service.core: {old}"


def test_the_service_exposes_its_parts(service: GameService) -> None:
    for attr, cls in PARTS.items():
        part = getattr(service, attr)
        assert isinstance(part, cls) and part.svc is service
    # the parts GameService composes itself, as before
    for attr in ("lobbies", "pacing", "archive", "turns", "languages"):
        assert getattr(service, attr) is not None
    assert catalog.games()[0] == "brazil"  # the catalog is module functions, no instance


@pytest.mark.parametrize("cls", [GameSession, Reading, Places], ids=lambda c: c.__name__)
def test_each_part_says_in_one_paragraph_what_it_is_for(cls: type) -> None:
    doc = inspect.getdoc(cls) or ""
    assert doc and "\n\n" not in doc, f"{cls.__name__}: one paragraph of docstring"
    assert (inspect.getdoc(catalog) or "").strip()
