"""The storage contract is whole: every operation a store offers is declared, typed, on
:class:`GameStore`, and the interface and its value types load without the SQLite backend."""

from __future__ import annotations

import inspect
import subprocess
import sys
from abc import ABC
from pathlib import Path

import pytest

from storage import GameStore, PostgresGameStore, SqliteGameStore
from storage.backend import SqlGameStore
from storage.base import (
    GameRecords,
    GuildSettingsStore,
    NewsStore,
    OperatorStore,
    PacingStore,
    PlayerPrefsStore,
    RatingStore,
)

ROOT = Path(__file__).resolve().parents[2]


def _public_coroutines(cls: type) -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_") and inspect.iscoroutinefunction(member)
    }


@pytest.mark.parametrize("backend", [SqliteGameStore, PostgresGameStore])
def test_each_store_implements_the_whole_interface(backend: type[GameStore]) -> None:
    assert not getattr(backend, "__abstractmethods__", frozenset())
    missing = _public_coroutines(backend) - _public_coroutines(GameStore)
    assert missing == set(), f"not declared on GameStore: {sorted(missing)}"


def test_pacing_methods_are_abstract_on_game_store() -> None:
    pacing = {
        "get_pacing", "set_pacing_settings", "set_pause_votes", "get_player_prefs",
        "set_player_prefs", "add_break", "end_break", "breaks", "sync_decisions",
        "open_decisions", "mute_decision", "claim_timer", "finish_timer", "timers",
        "start_stand_in", "end_stand_in", "stand_ins",
    }  # fmt: skip
    assert pacing <= GameStore.__abstractmethods__
    for name in pacing:
        method = getattr(GameStore, name)
        assert method.__doc__, f"{name} has no docstring"
        hints = inspect.get_annotations(method)
        assert "return" in hints, f"{name} has no return type"


def test_interface_and_types_import_without_a_backend() -> None:
    code = (
        "import sys\n"
        "from storage import (GameStore, GamePacing, PlayerPrefs, Break, DecisionClock, Timer,\n"
        "                     StandIn, GameSettings, Seat, open_store)\n"
        "backends = ('storage.sqlite', 'storage.postgres', 'aiosqlite', 'asyncpg')\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in backends\n"
        "                or m in backends)\n"
        "assert not loaded, loaded\n"
        "from storage import SqliteGameStore\n"
        "assert 'storage.sqlite' in sys.modules and 'asyncpg' not in sys.modules\n"
        "from storage import PostgresGameStore\n"
        "assert 'storage.postgres' in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_the_contract_comes_in_parts() -> None:
    """``GameStore`` is its parts (what a press needs, news, players' preferences, pacing,
    the operator tools, ratings) plus its own side; each part declares its own operations, none
    twice, and both stores are each part."""
    parts = [
        GameRecords, NewsStore, PlayerPrefsStore, PacingStore, OperatorStore, GuildSettingsStore,
        RatingStore,
    ]  # fmt: skip
    declared = [
        {name for name in vars(part) if name in GameStore.__abstractmethods__} for part in parts
    ]
    assert all(declared), "a part declares no operation"
    for i, one in enumerate(declared):
        for other in declared[i + 1 :]:
            assert not one & other, one & other
    assert {"get_game", "save", "history", "undo", "state_at"} <= declared[0]
    assert declared[1] == {"add_news", "unread_news", "mark_news_read"}
    assert declared[2] == {"get_player_prefs", "set_player_prefs", "remember_locale"}
    assert {"get_pacing", "claim_timer", "stand_ins"} <= declared[3]
    assert declared[4] == OPERATOR_ABSTRACT
    assert declared[5] == {"get_guild_settings", "set_guild_settings"}
    assert declared[6] == {
        "ratings", "rating_changes", "seasons", "start_season", "end_season", "fold_ratings",
        "rebuild_ratings", "seat_names", "rating_tables", "load_rating_tables",
    }  # fmt: skip
    own = {name for name in vars(GameStore) if name in GameStore.__abstractmethods__}
    assert own == {
        "open", "close", "player_stats", "leaderboard", "web_token", "set_web_token",
        "game_of_web_token",
    }  # fmt: skip
    assert set().union(own, *declared) == GameStore.__abstractmethods__
    for store in (SqliteGameStore, PostgresGameStore):
        assert all(issubclass(store, part) for part in parts)
        assert issubclass(store, SqlGameStore)


OPERATOR_ABSTRACT = {
    "game_ids", "dump_game", "load_game", "all_player_prefs", "all_guild_settings",
    "check_integrity", "backup", "_insert_import",
}  # fmt: skip
"""What a backend implements for the operator tools (``python -m storage``)."""
OPERATOR = OPERATOR_ABSTRACT | {"export_game", "import_game"}
"""The operator tools' contract: the above, and one game's export and import (which
:class:`GameStore` implements from its records)."""


def _functions(cls: type) -> set[str]:
    """The methods ``cls`` itself defines (not those it inherits)."""
    return {name for name, member in vars(cls).items() if inspect.isfunction(member)}


def _declared(cls: type) -> set[str]:
    """Every method ``cls`` offers, its bases' included."""
    return {name for name, _ in inspect.getmembers(cls, inspect.isfunction)}


def test_the_operator_tools_are_apart_from_what_a_press_needs() -> None:
    """``OperatorStore`` holds exactly the operator tools' operations, every one abstract and
    documented; what a press needs (``GameRecords``) offers none of them, nor do the other
    parts; ``GameStore`` is the operator contract, implementing its export and import."""
    assert _functions(OperatorStore) == OPERATOR
    assert OperatorStore.__abstractmethods__ == OPERATOR
    assert OperatorStore.__bases__ == (ABC,)
    for name in OPERATOR:
        method = getattr(OperatorStore, name)
        assert method.__doc__, f"{name} has no docstring"
        assert "return" in inspect.get_annotations(method), f"{name} has no return type"
    for part in (GameRecords, NewsStore, PlayerPrefsStore, PacingStore):
        assert not _declared(part) & OPERATOR, (part.__name__, _declared(part) & OPERATOR)
    assert issubclass(GameStore, OperatorStore)
    assert OPERATOR & GameStore.__abstractmethods__ == OPERATOR_ABSTRACT
    assert {"export_game", "import_game"} <= _functions(GameStore)


@pytest.mark.parametrize("backend", [SqliteGameStore, PostgresGameStore])
def test_each_store_implements_the_operator_contract(backend: type[GameStore]) -> None:
    assert issubclass(backend, OperatorStore)
    assert not backend.__abstractmethods__
    for name in OPERATOR:
        method = getattr(backend, name)
        assert not getattr(method, "__isabstractmethod__", False), f"{name} is abstract"
        assert inspect.iscoroutinefunction(method), f"{name} is not a coroutine"
