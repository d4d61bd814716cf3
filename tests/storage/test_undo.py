"""Undo and rollback: log entries of their own, restoring old versions from snapshots."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import (
    EntryKind,
    GameNotActive,
    GameResult,
    GameStore,
    InvalidData,
    RestoreFailed,
    SqliteGameStore,
    VersionConflict,
    load_export,
)
from storage.check import check_store
from storage.export import dump_export
from storage.jsonutil import state_hash
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, StoreFactory, new_game, play

MODERATOR = 9001


async def test_undo_returns_to_an_earlier_version_and_keeps_the_log(
    store: GameStore,
) -> None:
    game = await play(store, await new_game(store), [1, 2, 3, 4, 5])
    undone = await store.undo(game.id, 3, by=0, expected_version=5)
    assert undone.version == 6
    assert undone.state() == toy_game.state_after([1, 2, 3])
    assert undone == await store.get_game(game.id)
    entry = (await store.get_log(game.id, from_version=6))[0]
    assert entry.kind is EntryKind.UNDO and entry.target_version == 3 and entry.seat == 0
    assert entry.state_hash == state_hash(toy_game.state_after([1, 2, 3]))
    assert entry.snapshot_json is not None and entry.engine_version == ENGINE
    # the undone steps are still in the log, marked undone in the history
    history = await store.history(game.id)
    assert [item.version for item in history] == list(range(7))
    assert [item.undone for item in history] == [False] * 4 + [True, True, False]
    assert history[4].label() == "v4 seat 3: Adds 4 (undone)"
    assert history[6].label() == "v6 undo to v3 by seat 0"
    # play continues from there and the whole log replays exactly
    game = await play(store, undone, [7])
    assert game.state() == toy_game.state_after([1, 2, 3, 7])
    report = await store.replay(game.id, toy_game.replay)
    assert report.ok, report.describe()
    assert (await check_store(store, toy_game.replay)).ok


async def test_undo_and_rollback_are_version_guarded(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1, 2, 3])
    with pytest.raises(VersionConflict):
        await store.undo(game.id, 2, by=0, expected_version=2)
    with pytest.raises(VersionConflict):
        await store.rollback(game.id, 1, by=MODERATOR, reason="x", expected_version=1)
    for bad in (3, 4, -1):
        with pytest.raises(InvalidData):
            await store.undo(game.id, bad, by=0, expected_version=3)
    with pytest.raises(InvalidData):
        await store.rollback(game.id, 1, by=MODERATOR, reason="  ", expected_version=3)
    with pytest.raises(InvalidData):
        await store.undo(game.id, 1, by=9, expected_version=3)  # not a seat number
    assert (await store.get_game(game.id)).version == 3  # nothing was written


async def test_rollback_by_a_moderator_to_any_version(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1, 2, 3, 4])
    game = await store.undo(game.id, 2, by=1, expected_version=4)  # v5: back to v2
    # an undo cannot resurrect an undone step...
    with pytest.raises(InvalidData, match="itself undone"):
        await store.undo(game.id, 3, by=1, expected_version=5)
    # ...a moderator can
    game = await store.rollback(
        game.id, 3, by=MODERATOR, reason="misclick reported in #help", expected_version=5
    )
    assert game.version == 6 and game.state() == toy_game.state_after([1, 2, 3])
    history = await store.history(game.id)
    assert [item.undone for item in history] == [False, False, False, False, True, True, False]
    assert history[6].label() == (
        f"v6 rollback to v3 by <@{MODERATOR}>: misclick reported in #help"
    )
    assert history[6].reason == "misclick reported in #help" and history[6].actor_id == MODERATOR
    game = await store.rollback(game.id, 0, by=MODERATOR, reason="restart", expected_version=6)
    assert game.state() == json.loads(toy_game.initial_state())
    assert [item.undone for item in await store.history(game.id)] == [False] + [True] * 6 + [False]
    game = await play(store, game, [5])
    assert (await store.replay(game.id, toy_game.replay)).ok
    finished = await store.finish_game(game.id, GameResult(scores={0: 5}))
    with pytest.raises(GameNotActive):
        await store.rollback(game.id, 1, by=MODERATOR, reason="x", expected_version=9)
    assert finished.version == 8


async def test_snapshots_every_n_versions(store_factory: StoreFactory) -> None:
    async with store_factory(snapshot_every=4) as store:
        game = await play(store, await new_game(store), list(range(1, 11)))
        log = await store.get_log(game.id)
        assert [e.version for e in log if e.snapshot_json is not None] == [0, 4, 8]
        for version in range(11):
            assert json.loads(await store.state_at(game.id, version)) == toy_game.state_after(
                list(range(1, version + 1))
            )
        with pytest.raises(InvalidData):
            await store.state_at(game.id, 11)


async def test_restore_refuses_a_replay_that_does_not_match(store_factory: StoreFactory) -> None:
    """Under an engine that plays the logged actions differently, restoring an old version
    fails loudly (naming the engine versions) instead of returning a wrong state."""
    async with store_factory(engine_version=lambda: "0.9") as store:
        game = await play(store, await new_game(store), [1, 2, 3])

    def doubled(state_json: str, action_json: str) -> str:
        state = json.loads(state_json)
        return json.dumps(toy_game.apply(state, 2 * json.loads(action_json)["add"]))

    async with store_factory(replayer=doubled, engine_version=lambda: "1.0") as store:
        with pytest.raises(RestoreFailed, match=r"recorded under engine 0\.9; this is engine 1\.0"):
            await store.undo(game.id, 2, by=0, expected_version=3)
        assert (await store.get_game(game.id)).version == 3
        report = await store.replay(game.id, doubled)
        assert not report.ok and not report.is_problem
        assert report.describe().startswith("NOT REPLAYABLE WITH THIS ENGINE: recorded under")
        assert "not a sign of corruption" in report.describe()
        checked = await check_store(store, doubled)
        assert checked.ok  # explained by the engine change, not corruption
        assert "NOT REPLAYABLE WITH THIS ENGINE" in "\n".join(checked.lines())
    async with store_factory(engine_version=lambda: "0.9") as store:
        report = await store.replay(game.id, doubled)
        assert report.is_problem  # same engine version: a real difference


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(1, 9)),
        st.tuples(st.just("undo"), st.integers(0, 1000)),
        st.tuples(st.just("rollback"), st.integers(0, 1000)),
    ),
    max_size=30,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS, every=st.integers(1, 6))
def test_any_mix_of_actions_undos_and_rollbacks_replays_exactly(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, int]], every: int
) -> None:
    """Against a model of the game (the state of every version): restoring any version, the
    current state, the history's undone marks, the replay, check, and an export/import round
    trip all agree."""
    import asyncio

    path = tmp_path_factory.mktemp("undo") / "games.sqlite3"

    async def go() -> None:
        async with SqliteGameStore(
            path, replayer=toy_game.replay, snapshot_every=every, engine_version=lambda: ENGINE
        ) as store:
            game = await new_game(store)
            states: list[dict[str, Any]] = [json.loads(game.state_json)]
            line: list[int] = [0]  # versions the current state stands on
            for op, value in ops:
                if op == "add":
                    game = await play(store, game, [value])
                    states.append(toy_game.apply(states[-1], value))
                    line.append(game.version)
                    continue
                target = value % (game.version + 1)
                if target == game.version:
                    continue
                if op == "undo":
                    if target not in line:
                        with pytest.raises(InvalidData):
                            await store.undo(game.id, target, by=0, expected_version=game.version)
                        continue
                    game = await store.undo(game.id, target, by=0, expected_version=game.version)
                else:
                    game = await store.rollback(
                        game.id, target, by=MODERATOR, reason="test", expected_version=game.version
                    )
                states.append(states[target])
                # the line back from a jump: the target's line, then the jump entry
                line = [*_line_to(target, await store.history(game.id)), game.version]
            assert game.state() == states[-1]
            for version, expected in enumerate(states):
                assert json.loads(await store.state_at(game.id, version)) == expected
            history = await store.history(game.id)
            assert [not item.undone for item in history] == [v in line for v in range(len(states))]
            assert (await store.replay(game.id, toy_game.replay)).ok
            assert (await check_store(store, toy_game.replay)).ok
            export = load_export(dump_export(await store.export_game(game.id)))
            copy = await store.import_game(export, channel_id=777_000 + game.id,
                                           replayer=toy_game.replay)  # fmt: skip
            assert copy.state() == states[-1]
            assert await store.history(copy.id) == history

    asyncio.run(go())


def _line_to(target: int, history: list[Any]) -> list[int]:
    """The versions the state at ``target`` stands on (walking back through jumps)."""
    by_version = {item.version: item for item in history}
    out: list[int] = []
    version = target
    while version >= 0:
        out.append(version)
        item = by_version[version]
        if item.kind in (EntryKind.UNDO, EntryKind.ROLLBACK):
            version = item.target_version
        else:
            version -= 1
    return sorted(out)
