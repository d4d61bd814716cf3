"""The storage contract is whole: every operation a store offers is declared, typed, on
:class:`GameStore`, and the interface and its value types load without the SQLite backend."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from storage import GameStore, PostgresGameStore, SqliteGameStore

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
