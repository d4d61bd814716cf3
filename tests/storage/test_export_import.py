"""Export a game to one JSON file and import it back (same or another database)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import (
    ChannelBusy,
    GameResult,
    GameStatus,
    GameStore,
    InvalidExport,
    dump_export,
    load_export,
)
from storage.export import EXPORT_FORMAT_VERSION
from tests.storage import toy_game
from tests.storage.conftest import StoreFactory, new_game, play


async def test_export_import_round_trip_to_another_database(
    store: GameStore, store_factory: StoreFactory
) -> None:
    game = await play(store, await new_game(store, 10, guild_id=5), [2, 7, 1, 8])
    game = await store.finish_game(
        game.id,
        GameResult(scores={0: 9, 1: 9, 2: 1}, winners=frozenset({0, 1})),
    )
    text = dump_export(await store.export_game(game.id))
    raw = json.loads(text)
    assert raw["format"] == "brazil-imperial-game"
    assert raw["format_version"] == EXPORT_FORMAT_VERSION
    assert raw["state"] == game.state()  # readable JSON, not a string
    assert raw["log"][0]["state"] == json.loads(toy_game.initial_state())
    assert [entry["action"] for entry in raw["log"]] == [
        None,
        {"add": 2},
        {"add": 7},
        {"add": 1},
        {"add": 8},
    ]

    async with store_factory("other") as other:
        await new_game(other, 1)  # ids differ in the other database
        imported = await other.import_game(load_export(text))
        assert imported.id != game.id
        expected = game.model_copy(update={"id": imported.id, "state_json": imported.state_json})
        assert imported == expected
        assert imported.state() == game.state()
        old_log = await store.get_log(game.id)
        new_log = await other.get_log(imported.id)
        assert len(new_log) == len(old_log)
        for old, new in zip(old_log, new_log, strict=True):
            assert (old.version, old.seat, old.state_hash, old.created_at) == (
                new.version,
                new.seat,
                new.state_hash,
                new.created_at,
            )
            assert json.loads(old.action_json or "null") == json.loads(new.action_json or "null")
            assert json.loads(old.events_json) == json.loads(new.events_json)
        report = await other.replay(imported.id, toy_game.replay)
        assert report.ok and report.verified_steps == 4
        assert await other.check_integrity() == []
        assert (await other.player_stats(101)).wins == 1  # red's user


async def test_import_refuses_busy_channel(store: GameStore) -> None:
    game = await play(store, await new_game(store, 10), [1])
    export = await store.export_game(game.id)
    with pytest.raises(ChannelBusy) as caught:
        await store.import_game(export)
    assert "channel 10 already has an active game" in str(caught.value)
    moved = await store.import_game(export, channel_id=11, guild_id=99)
    assert (moved.channel_id, moved.guild_id, moved.status) == (11, 99, GameStatus.RUNNING)
    assert await store.get_active_game(11) == moved
    # a finished game does not occupy the channel, so it can join the history of channel 10
    done = await store.finish_game(moved.id, GameResult(scores={0: 1}, winners=frozenset({0})))
    again = await store.import_game(await store.export_game(done.id))
    assert again.channel_id == 11 and again.status is GameStatus.FINISHED
    history = await store.import_game(await store.export_game(done.id), channel_id=10)
    assert history.status is GameStatus.FINISHED
    assert (await store.get_active_game(10)) == await store.get_game(game.id)


def mutate(text: str, change: Any) -> str:
    raw = json.loads(text)
    change(raw)
    return json.dumps(raw)


async def test_broken_exports_are_refused(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1, 2, 3])
    text = dump_export(await store.export_game(game.id))

    def drop_entry(raw: dict[str, Any]) -> None:
        del raw["log"][2]

    def shorten(raw: dict[str, Any]) -> None:
        raw["log"].pop()

    def edit_state(raw: dict[str, Any]) -> None:
        raw["state"]["counter"] = 1000

    def edit_initial(raw: dict[str, Any]) -> None:
        raw["log"][0]["state"]["counter"] = 1

    def no_initial(raw: dict[str, Any]) -> None:
        raw["log"][0]["state"] = None

    def empty_log(raw: dict[str, Any]) -> None:
        raw["log"] = []

    def twice_red(raw: dict[str, Any]) -> None:
        raw["seats"].append(raw["seats"][0])

    def newer(raw: dict[str, Any]) -> None:
        raw["format_version"] = EXPORT_FORMAT_VERSION + 1

    def bad_field(raw: dict[str, Any]) -> None:
        raw["game"]["status"] = "paused"

    cases = {
        drop_entry: "not contiguous",
        shorten: "ends at version 2",
        edit_state: "does not match the hash",
        edit_initial: "initial state does not match",
        no_initial: "no initial state",
        empty_log: "log is empty",
        twice_red: "appears twice",
        newer: "newer release",
        bad_field: "malformed",
    }
    for change, message in cases.items():
        with pytest.raises(InvalidExport, match=message):
            await store.import_game(load_export(mutate(text, change)), channel_id=77)
    for not_export in ("[1, 2]", "{}", "nonsense", '{"format": "brazil-imperial-game"}'):
        with pytest.raises(InvalidExport):
            load_export(not_export)
    assert await store.list_games(channel_id=77) == []


async def test_import_with_replay_verification(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1, 2, 3])
    text = dump_export(await store.export_game(game.id))
    ok = await store.import_game(load_export(text), channel_id=2, replayer=toy_game.replay)
    assert ok.version == 3

    def forge(raw: dict[str, Any]) -> None:  # a changed action with its hash dropped
        raw["log"][2]["action"] = {"add": 5}
        raw["log"][2]["state_hash"] = None

    forged = load_export(mutate(text, forge))
    with pytest.raises(InvalidExport, match="does not replay"):
        await store.import_game(forged, channel_id=3, replayer=toy_game.replay)
    # without a replayer only the structural checks run, and this forgery passes them
    assert (await store.import_game(forged, channel_id=3)).version == 3


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    adds=st.lists(st.integers(min_value=1, max_value=1000), max_size=12),
    padding=st.integers(min_value=0, max_value=300),
)
async def test_export_import_property(store: GameStore, adds: list[int], padding: int) -> None:
    game = await play(store, await new_game(store, 1, padding=padding), adds)
    copy = await store.import_game(
        load_export(dump_export(await store.export_game(game.id))), channel_id=2
    )
    assert copy.state() == toy_game.state_after(adds, padding)
    assert (await store.replay(copy.id, toy_game.replay)).ok
    await store.set_status(game.id, GameStatus.ABANDONED)
    await store.set_status(copy.id, GameStatus.ABANDONED)


async def test_format_1_exports_are_still_read(store: GameStore) -> None:
    """A file exported before schema 3 (seats keyed by colour, no entry kinds) imports with
    its seats numbered in colour order and its log seats mapped to those numbers."""
    game = await play(store, await new_game(store, 10), [2, 7])
    current = json.loads(dump_export(await store.export_game(game.id)))
    colours = {0: "red", 1: "blue", 2: "green", 3: "yellow"}
    old: dict[str, Any] = {
        **current,
        "format_version": 1,
        "game": {
            k: v for k, v in current["game"].items() if k not in ("engine_version", "data_pack")
        },
        "seats": [
            {"colour": colours[s["seat"]], "user_id": s["user_id"], "score": None, "winner": False}
            for s in current["seats"]
        ],
        "log": [
            {
                "version": e["version"],
                "seat": None if e["seat"] is None else colours[e["seat"]],
                "action": e["action"],
                "events": e["events"],
                "state": e["state"],
                "state_hash": e["state_hash"],
                "created_at": e["created_at"],
            }
            for e in current["log"]
        ],
    }
    moved = await store.import_game(
        load_export(json.dumps(old)), channel_id=11, replayer=toy_game.replay
    )
    # colour order: blue 0, green 1, red 2, yellow 3
    assert {s.seat: (s.colour, s.user_id) for s in moved.seats} == {
        0: ("blue", 102),
        1: ("green", 103),
        2: ("red", 101),
        3: ("yellow", 104),
    }
    log = await store.get_log(moved.id)
    assert [e.kind for e in log] == ["created", "action", "action"]
    assert [e.seat for e in log] == [None, 2, 0]  # red played v1, blue v2
    assert moved.state() == toy_game.state_after([2, 7])
