"""Storage with real games from the rules engine (``rules``), when it is importable.

The rest of the storage tests use the toy game so they do not depend on the rules engine;
these check the real thing: seeded random 4-player games saved action by action, replayed
with ``rules.brazil.replay_step`` (the default replayer of ``python -m storage check``), exported
and imported.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from storage import GameSettings, GameStatus, Seat, SqliteGameStore, cli, load_export
from storage.export import dump_export
from storage.replay import Replayer, default_replayer

rules: Any = pytest.importorskip("rules.brazil")
if not all(hasattr(rules, name) for name in ("new_game", "legal_actions", "apply", "replay_step")):
    pytest.skip("the rules engine does not provide the needed API yet", allow_module_level=True)

STEPS = 120


def to_json(value: Any) -> str:
    """JSON of a rules object (states and events are pydantic models, actions have to_json)."""
    if hasattr(value, "to_json"):
        return str(value.to_json())
    if hasattr(value, "model_dump_json"):
        return str(value.model_dump_json())
    return json.dumps(dataclasses.asdict(value))


async def play_real_game(store: SqliteGameStore, channel: int, seed: int) -> int:
    rng = random.Random(seed)
    state = rules.new_game(4, seed)
    record = await store.create_game(
        channel,
        initial_state_json=to_json(state),
        settings=GameSettings(
            scenario=str(getattr(state, "map", "standard")),
            player_count=4,
            data_pack=getattr(state, "data_pack", None),
        ),
        seats=[Seat.discord(k, 1000 + k) for k in range(4)],
        status=GameStatus.SETUP,
    )
    for _ in range(STEPS):
        if getattr(state, "phase", None) == "ended":
            break
        action = rng.choice(rules.legal_actions(state))
        state, events = rules.apply(state, action)
        record = await store.save(
            record.id,
            expected_version=record.version,
            state_json=to_json(state),
            action_json=to_json(action),
            seat=getattr(action, "seat", None),
            events_json="[" + ",".join(to_json(event) for event in events) + "]",
        )
    return record.id


@pytest.mark.slow
async def test_real_games_replay_and_check(db_path: Path, tmp_path: Path) -> None:
    replayer: Replayer = default_replayer()
    assert replayer is rules.replay_step  # rules: the rules.brazil package
    async with SqliteGameStore(db_path) as store:
        ids = [await play_real_game(store, channel, seed) for channel, seed in ((1, 3), (2, 8))]
        for game_id in ids:
            report = await store.replay(game_id, replayer)
            assert report.ok, report.describe()
            assert report.steps == report.verified_steps > 0
            middle = await store.replay(game_id, replayer, to_version=report.steps // 2)
            assert middle.ok
        export = await store.export_game(ids[0])
    # `check` with its default replayer (rules.brazil.replay_step) passes
    out = io.StringIO()
    assert await cli.amain(["--db", str(db_path), "check"], out=out) == 0, out.getvalue()
    assert "replay: with rules.brazil:replay_step" in out.getvalue()
    # and a real game moves to another database, verified by replaying it on import
    async with SqliteGameStore(tmp_path / "other.sqlite3") as other:
        moved = await other.import_game(load_export(dump_export(export)), replayer=replayer)
        assert moved.version == export.game.version
        assert json.loads(moved.state_json) == export.state


async def test_real_game_rollback_then_play_on(db_path: Path) -> None:
    """A moderator rolls a real game back (restored from a snapshot + rules.brazil.replay_step); play
    continues from there and `check` replays the whole log exactly."""
    async with SqliteGameStore(db_path) as store:  # default replayer: rules.brazil.replay_step
        game_id = await play_real_game(store, 1, 5)
        record = await store.get_game(game_id)
        target = record.version // 2 + 3  # not a snapshot version: replays a few actions
        log = await store.get_log(game_id, from_version=target, to_version=target)
        restored = await store.rollback(
            game_id, target, by=1, reason="test", expected_version=record.version
        )
        assert json.loads(restored.state_json) == json.loads(await store.state_at(game_id, target))
        assert restored.version == record.version + 1
        assert (await store.get_log(game_id, from_version=restored.version))[0].state_hash == log[
            0
        ].state_hash
        state = rules.GameState.model_validate_json(restored.state_json)
        rng = random.Random(99)
        for _ in range(10):
            if state.phase == "ended":
                break
            action = rng.choice(rules.legal_actions(state))
            state, _ = rules.apply(state, action)
            restored = await store.save(
                game_id,
                expected_version=restored.version,
                state_json=to_json(state),
                action_json=to_json(action),
            )
        report = await store.replay(game_id, default_replayer())
        assert report.ok, report.describe()
    out = io.StringIO()
    assert await cli.amain(["--db", str(db_path), "check"], out=out) == 0, out.getvalue()
