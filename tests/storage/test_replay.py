"""Replaying logs to any version, and catching states that do not match their log."""

from __future__ import annotations

import importlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import GameStore, InvalidData, ReplayerUnavailable, SqliteGameStore, default_replayer
from storage.jsonutil import canonical_json, json_diff, semantic_equal, state_hash
from storage.replay import load_replayer
from tests.storage import toy_game
from tests.storage.conftest import new_game, play

ADDS = [3, 1, 4, 1, 5, 9, 2, 6]


async def test_replay_to_every_version_equals_direct_computation(
    store: GameStore,
) -> None:
    game = await play(store, await new_game(store), ADDS)
    for version in range(len(ADDS) + 1):
        report = await store.replay(game.id, toy_game.replay, to_version=version)
        assert report.ok, report.describe()
        assert report.steps == version and report.verified_steps == version
        assert json.loads(report.state_json or "") == toy_game.state_after(ADDS[:version])
    final = await store.replay(game.id, toy_game.replay)
    assert final.to_version == final.stored_version == len(ADDS)
    assert semantic_equal(final.state_json or "", game.state_json)
    assert final.describe().startswith("OK")


async def test_replay_bounds(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1])
    with pytest.raises(InvalidData):
        await store.replay(game.id, toy_game.replay, to_version=2)
    with pytest.raises(InvalidData):
        await store.replay(game.id, toy_game.replay, to_version=-1)


async def test_semantic_comparison_ignores_formatting(store: GameStore) -> None:
    game = await new_game(store)
    # the stored state is written with a different key order and spacing
    state = toy_game.state_after([2])
    reordered = json.dumps(dict(reversed(list(state.items()))), indent=3)
    await store.save(
        game.id, expected_version=0, state_json=reordered, action_json=toy_game.action(2)
    )
    report = await store.replay(game.id, toy_game.replay)
    assert report.ok, report.describe()


def tamper(db_path: Path, *statements: str) -> None:
    """Change the file behind storage's back (what a bug or a bad hand edit would do)."""
    with sqlite3.connect(db_path) as raw:
        raw.execute("DROP TRIGGER IF EXISTS actions_append_only_update")
        for statement in statements:
            raw.execute(statement)
    raw.close()


async def test_tampered_stored_state_is_reported(
    sqlite_store: SqliteGameStore, db_path: Path
) -> None:
    game = await play(sqlite_store, await new_game(sqlite_store), ADDS)
    state = game.state()
    state["counter"] += 100
    state["bonus"] = True
    tamper(db_path, f"UPDATE game_states SET state_json = '{json.dumps(state)}'")
    report = await sqlite_store.replay(game.id, toy_game.replay)
    assert not report.ok
    assert report.first_mismatch_version == len(ADDS)
    assert any(line.startswith("$.counter: stored 131, replayed 31") for line in report.differences)
    assert any(line.startswith("$.bonus: missing") for line in report.differences)
    problems = [str(problem) for problem in await sqlite_store.check_integrity()]
    assert problems == [
        f"game {game.id}: the stored state does not match the hash logged for version 8"
    ]


async def test_tampered_action_reports_first_differing_version(
    sqlite_store: SqliteGameStore, db_path: Path
) -> None:
    game = await play(sqlite_store, await new_game(sqlite_store), ADDS)
    tamper(db_path, "UPDATE actions SET action_json = '{\"add\": 7}' WHERE version = 3")
    report = await sqlite_store.replay(game.id, toy_game.replay)
    assert not report.ok
    assert report.first_mismatch_version == 3
    assert report.differences  # the final state also differs (counter and log)
    assert "first differs at version 3" in report.describe()
    # replaying only up to version 2 is still fine
    assert (await sqlite_store.replay(game.id, toy_game.replay, to_version=2)).ok


async def test_illegal_action_stops_replay(sqlite_store: SqliteGameStore, db_path: Path) -> None:
    game = await play(sqlite_store, await new_game(sqlite_store), ADDS)
    tamper(db_path, "UPDATE actions SET action_json = '{\"add\": -1}' WHERE version = 5")
    report = await sqlite_store.replay(game.id, toy_game.replay)
    assert not report.ok and report.state_json is None
    assert report.steps == 4
    assert "version 5" in (report.error or "") and "IllegalAction" in (report.error or "")


async def test_tampered_initial_state(sqlite_store: SqliteGameStore, db_path: Path) -> None:
    game = await play(sqlite_store, await new_game(sqlite_store), [1, 2])
    tamper(
        db_path,
        'UPDATE actions SET snapshot_json = \'{"counter": 5, "log": [], '
        '"padding": ""}\' WHERE version = 0',
    )
    report = await sqlite_store.replay(game.id, toy_game.replay)
    assert report.first_mismatch_version == 0
    assert any("initial state" in p.message for p in await sqlite_store.check_integrity())


async def test_log_gap_is_reported(sqlite_store: SqliteGameStore, db_path: Path) -> None:
    game = await play(sqlite_store, await new_game(sqlite_store), [1, 2, 3])
    tamper(
        db_path,
        "DROP TRIGGER actions_append_only_delete",
        f"DELETE FROM actions WHERE game_id = {game.id} AND version = 2",
    )
    report = await sqlite_store.replay(game.id, toy_game.replay)
    assert not report.ok and "not contiguous" in (report.error or "")
    messages = [p.message for p in await sqlite_store.check_integrity()]
    assert any("3 entries (versions 0..3) but the game is at version 3" in m for m in messages)


def test_default_replayer_is_rules_replay_step() -> None:
    try:
        expected = getattr(importlib.import_module("rules.brazil"), "replay_step", None)
    except ImportError:  # pragma: no cover
        expected = None
    if expected is None:
        with pytest.raises(ReplayerUnavailable, match=r"rules\.brazil:replay_step"):
            default_replayer()
    else:  # pragma: no cover - once the rules engine lands
        assert default_replayer() is expected


def test_load_replayer() -> None:
    assert load_replayer("tests.storage.toy_game:replay") is toy_game.replay
    for bad in (
        "no_colon",
        "tests.storage.toy_game:missing",
        "no_such_module_xyz:f",
        "json:__doc__",
    ):
        with pytest.raises(ReplayerUnavailable):
            load_replayer(bad)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200)
@given(json_values)
def test_hash_ignores_formatting(value: Any) -> None:
    spaced = json.dumps(value, indent=2)
    assert state_hash(json.loads(spaced)) == state_hash(value)
    assert json_diff(value, json.loads(spaced)) == []
    if isinstance(value, dict) and value:
        shuffled = dict(reversed(list(value.items())))
        assert canonical_json(shuffled) == canonical_json(value)


@settings(max_examples=200)
@given(json_values, json_values)
def test_diff_empty_exactly_when_canonically_equal(a: Any, b: Any) -> None:
    assert (json_diff(a, b) == []) == (canonical_json(a) == canonical_json(b))


def test_json_diff_messages() -> None:
    expected = {"a": 1, "b": [1, 2], "c": {"d": True}, "weird key": 0}
    actual = {"a": 2, "b": [1], "c": {"d": 1}, "e": None, "weird key": 0}
    assert json_diff(expected, actual) == [
        "$.a: expected 1, got 2",
        "$.b[1]: missing (expected 2)",
        "$.c.d: expected true, got 1 (boolean vs number)",
        "$.e: unexpected (got null)",
    ]
    many = json_diff(list(range(30)), [], limit=3)
    assert len(many) == 4 and many[-1] == "... and 27 more difference(s)"
