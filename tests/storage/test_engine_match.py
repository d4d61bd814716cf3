"""Engine version and data pack recorded per game; data packs are names, never paths."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from storage import (
    GameSettings,
    GameStore,
    InvalidExport,
    SqliteGameStore,
    cli,
    current_engine_version,
    is_pack_name,
    load_export,
)
from storage.export import dump_export
from tests.storage import toy_game
from tests.storage.conftest import StoreFactory, new_game, play

TOY = "tests.storage.toy_game:replay"


@pytest.mark.parametrize(
    ("name", "plain"),
    [
        ("base", True),
        ("fan-pack_2.1", True),
        ("../../etc", False),
        ("/etc/passwd", False),
        ("packs/base", False),
        ("a..b", False),
        (".hidden", False),
        ("", False),
        ("C:\\packs", False),
        (None, False),
    ],
)
def test_pack_names(name: str | None, plain: bool) -> None:
    assert is_pack_name(name) is plain


def test_engine_version_is_read() -> None:
    version = current_engine_version()
    assert isinstance(version, str) and version


async def test_game_records_engine_version_and_pack(store_factory: StoreFactory) -> None:
    async with store_factory(engine_version=lambda: "7.7") as store:
        game = await store.create_game(
            1,
            initial_state_json='{"data_pack": "fan"}',
            settings=GameSettings(scenario="standard", player_count=2, data_pack="fan"),
        )
        assert (game.engine_version, game.data_pack) == ("7.7", "fan")
        assert await store.get_game(game.id) == game
        export = load_export(dump_export(await store.export_game(game.id)))
        assert (export.game.engine_version, export.game.data_pack) == ("7.7", "fan")


def poisoned_game(db_path: Path, pack: str) -> int:
    """A game whose initial state names ``pack`` (as a tampered database or import could)."""

    async def go() -> int:
        async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
            game = await play(store, await new_game(store), [1, 2])
            return game.id

    import asyncio

    game_id = asyncio.run(go())
    with sqlite3.connect(db_path) as raw:
        raw.execute("DROP TRIGGER actions_append_only_update")
        initial = json.loads(toy_game.initial_state()) | {"data_pack": pack}
        raw.execute(
            "UPDATE actions SET snapshot_json = ?, state_hash = NULL "
            "WHERE game_id = ? AND version = 0",
            (json.dumps(initial), game_id),
        )
    raw.close()
    return game_id


def test_check_refuses_to_replay_a_path_as_data_pack(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = poisoned_game(db_path, "../../../etc")
    calls: list[str] = []

    def spy(state_json: str, action_json: str) -> str:
        calls.append(state_json)
        return toy_game.replay(state_json, action_json)

    monkeypatch.setattr(toy_game, "spy", spy, raising=False)
    out = io.StringIO()
    code = cli.main(
        ["--db", str(db_path), "check", "--replayer", "tests.storage.toy_game:spy"], out=out
    )
    assert code == 1
    line = next(x for x in out.getvalue().splitlines() if x.startswith(f"game {game_id} "))
    assert "'../../../etc', which is not a plain pack name" in line
    assert calls == []  # the replayer never saw the state


async def test_import_refuses_a_path_as_data_pack(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1])
    text = dump_export(await store.export_game(game.id))
    for pack in ("/etc", "../x", "a/b"):
        raw = json.loads(text)
        raw["log"][0]["state"]["data_pack"] = pack
        raw["log"][0]["state_hash"] = None
        export = load_export(json.dumps(raw))
        for replayer in (None, toy_game.replay):
            with pytest.raises(InvalidExport, match="not a plain pack name"):
                await store.import_game(export, channel_id=55, replayer=replayer)
        raw = json.loads(text)
        raw["game"]["settings"]["data_pack"] = pack
        with pytest.raises(InvalidExport, match="not a plain pack name"):
            await store.import_game(load_export(json.dumps(raw)), channel_id=55)


def test_check_says_plainly_when_a_game_was_recorded_under_an_older_engine(
    db_path: Path,
) -> None:
    """The same log replayed by a changed engine: a plain statement, exit 0, not corruption."""
    import asyncio

    async def record() -> int:
        async with SqliteGameStore(db_path, engine_version=lambda: "0.0.1") as store:
            game = await play(store, await new_game(store), [1, 2, 3])
            return game.id

    game_id = asyncio.run(record())
    out = io.StringIO()
    code = cli.main(
        ["--db", str(db_path), "check", "--replayer", "tests.storage.toy_game:replay_v2"],
        out=out,
    )
    line = next(x for x in out.getvalue().splitlines() if x.startswith(f"game {game_id} "))
    assert "NOT REPLAYABLE WITH THIS ENGINE: recorded under engine 0.0.1, this is engine" in line
    assert "not a sign of corruption" in line
    assert code == 0, out.getvalue()
    assert "1 recorded under another engine (not replayable with this one)" in out.getvalue()
