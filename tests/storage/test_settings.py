"""Typed settings: legacy ``extra`` bags still load, ``update_settings`` is validated and
atomic, ``replace_seat`` cleans up after a replaced player, Discord seats carry names."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from storage import (
    GameNotActive,
    GameNotFound,
    GameSettings,
    GameStatus,
    GameStore,
    InvalidData,
    PendingRequest,
    PrivatePlace,
    Seat,
    SeatKind,
    dump_export,
    load_export,
)
from tests.storage.conftest import SETTINGS, StoreFactory, new_game

LEGACY: dict[str, Any] = {
    "scenario": "standard",
    "player_count": 3,
    "turn_timer_seconds": None,
    "data_pack": None,
    "extra": {
        "seed": 987654321,
        "host": 42,
        "ai_level": "heuristic",
        "lobby": True,
        "colour_wishes": {"0": "blue", "2": "green", "x": "red", "9": "pink"},
        "status_message": "123456789012345678",
        "posted_version": 7,
        "hand:101": {"where": "thread", "channel": "5550001"},
        "hand:102": {"where": "dm", "channel": "5550002"},
        "hand:103": {"where": "carrier pigeon", "channel": "1"},
        "mod_confirm": {"token": "ab12", "op": "rollback", "by": 9, "version": 4, "to": 2},
        "abandon_votes": [101, 102, 101, "x"],
        "seats": [{"name": "Ana", "ai": None, "user_id": 101}],
        "something_else": {"a": 1},
    },
}


def test_legacy_extra_settings_load_into_the_typed_fields() -> None:
    for settings in (
        GameSettings.model_validate(LEGACY),
        GameSettings.model_validate_json(json.dumps(LEGACY)),
    ):
        assert settings.scenario == "standard" and settings.player_count == 3
        assert settings.seed == 987654321
        assert settings.host_user_id == 42
        assert settings.ai_level == "heuristic"
        assert settings.colour_wishes == {0: "blue", 2: "green"}  # bad seats dropped
        assert settings.status_message_id == 123456789012345678
        assert settings.posted_version == 7
        assert settings.private_places == {
            101: PrivatePlace(where="thread", channel_id=5550001),
            102: PrivatePlace(where="dm", channel_id=5550002),
        }
        assert settings.pending_request == PendingRequest(
            token="ab12", op="rollback", by=9, version=4, data={"to": 2}
        )
        assert settings.abandon_votes == (101, 102)
        assert "extra" not in settings.model_dump()
    empty = GameSettings.model_validate({"scenario": "s", "player_count": 2, "extra": {}})
    assert empty == GameSettings(scenario="s", player_count=2)


def test_typed_settings_round_trip_as_json_and_refuse_unknown_keys() -> None:
    settings = GameSettings.model_validate(LEGACY)
    assert GameSettings.model_validate_json(settings.model_dump_json()) == settings
    with pytest.raises(ValueError):
        GameSettings.model_validate({"scenario": "s", "player_count": 2, "note": 1})
    with pytest.raises(ValueError):
        GameSettings(scenario="s", player_count=2, colour_wishes={8: "red"})
    with pytest.raises(ValueError):
        PrivatePlace(where="mail", channel_id=1)


def test_discord_seat_carries_a_name() -> None:
    seat = Seat.discord(0, 101, name="Ana", colour="red")
    assert (seat.kind, seat.user_id, seat.name, seat.colour) == (
        SeatKind.DISCORD,
        101,
        "Ana",
        "red",
    )
    assert seat.label() == "<@101>"
    assert Seat.discord(1, 102).name is None
    # an AI standing in for the user after a timeout (until `/seat back`)
    assert Seat(seat=0, kind=SeatKind.DISCORD, user_id=1, ai_level="x").ai_level == "x"
    with pytest.raises(ValueError):
        Seat(seat=0, kind=SeatKind.DISCORD, ai_level="x")


async def test_named_discord_seats_are_stored(store: GameStore) -> None:
    game = await store.create_game(
        5,
        initial_state_json="{}",
        settings=SETTINGS,
        seats=[Seat.discord(0, 101, name="Ana"), Seat.ai(1, "random")],
    )
    again = await store.get_game(game.id)
    assert again.seats == game.seats and again.seat(0) == Seat.discord(0, 101, name="Ana")


async def test_update_settings_changes_only_the_named_fields(store: GameStore) -> None:
    game = await new_game(store)
    game = await store.update_settings(game.id, seed=5, host_user_id=42, ai_level="random")
    game = await store.update_settings(
        game.id,
        colour_wishes={0: "blue"},
        private_places={101: PrivatePlace(where="dm", channel_id=9)},
        abandon_votes=[101],
        pending_request=PendingRequest(token="t", op="undo", by=7, version=0),
    )
    settings = (await store.get_game(game.id)).settings
    assert settings == game.settings
    assert (settings.seed, settings.host_user_id, settings.ai_level) == (5, 42, "random")
    assert settings.abandon_votes == (101,) and settings.colour_wishes == {0: "blue"}
    assert settings.scenario == SETTINGS.scenario and game.version == 0
    game = await store.update_settings(game.id, pending_request=None, ai_level=None)
    assert game.settings.pending_request is None and game.settings.ai_level is None
    assert game.settings.seed == 5  # untouched


async def test_update_settings_validates_and_writes_nothing_when_invalid(
    store: GameStore,
) -> None:
    game = await new_game(store)
    game = await store.update_settings(game.id, seed=1)
    bad: list[dict[str, Any]] = [
        {"host_user_id": -1},
        {"colour_wishes": {9: "red"}},
        {"posted_version": -3},
        {"player_count": 0},
        {"scenario": None},
        {"extra": {"x": 1}},
        {"seed": 2, "status_message_id": "not an id"},  # one bad field: nothing changes
    ]
    for changes in bad:
        with pytest.raises(InvalidData):
            await store.update_settings(game.id, **changes)
    assert (await store.get_game(game.id)).settings == game.settings
    with pytest.raises(GameNotFound):
        await store.update_settings(12345, seed=1)


async def test_update_settings_is_an_atomic_read_modify_write(
    store_factory: StoreFactory,
) -> None:
    """Two store objects (two processes) changing different fields at once: each change is
    a read-modify-write in one transaction, so none undoes the other."""
    async with store_factory() as first, store_factory() as second:
        game = await new_game(first)
        await asyncio.gather(
            *(first.update_settings(game.id, seed=n) for n in range(10)),
            *(second.update_settings(game.id, posted_version=n) for n in range(10)),
            first.update_settings(game.id, host_user_id=42),
            second.update_settings(game.id, ai_level="heuristic"),
        )
        settings = (await first.get_game(game.id)).settings
        assert settings.seed == 9 and settings.posted_version == 9
        assert settings.host_user_id == 42 and settings.ai_level == "heuristic"
        assert settings == (await second.get_game(game.id)).settings


async def test_replace_seat_forgets_the_old_players_place_and_vote(store: GameStore) -> None:
    game = await new_game(store, seats={0: 101, 1: 102, 2: 103, 3: 101})
    places = {
        101: PrivatePlace(where="dm", channel_id=1),
        102: PrivatePlace(where="thread", channel_id=2),
        103: PrivatePlace(where="dm", channel_id=3),
    }
    game = await store.update_settings(
        game.id, private_places=places, abandon_votes=(101, 102, 103), seed=3
    )
    # 102 leaves: their seat goes to a newcomer, their place and vote go with them
    game = await store.replace_seat(game.id, Seat.discord(1, 201, name="Newcomer"))
    assert game.seat(1) == Seat.discord(1, 201, name="Newcomer")
    assert set(game.settings.private_places) == {101, 103}
    assert game.settings.abandon_votes == (101, 103)
    assert game.settings.seed == 3 and game.version == 0
    # 101 still holds seat 3 after losing seat 0: keeps the place and the vote
    game = await store.replace_seat(game.id, Seat.ai(0, "heuristic", name="Bot"))
    assert set(game.settings.private_places) == {101, 103}
    assert game.settings.abandon_votes == (101, 103)
    # a replaced AI or empty seat touches no settings
    game = await store.replace_seat(game.id, Seat.local(0, "Zé"))
    game = await store.replace_seat(game.id, Seat.ai(5, "random"))
    assert game.seat(5) is not None and game.settings.abandon_votes == (101, 103)
    assert await store.get_game(game.id) == game


async def test_replace_seat_is_one_transaction(store: GameStore) -> None:
    game = await new_game(store)
    game = await store.set_colour(game.id, 0, "red")
    game = await store.update_settings(
        game.id,
        private_places={102: PrivatePlace(where="dm", channel_id=2)},
        abandon_votes=(102,),
    )
    with pytest.raises(InvalidData):  # the colour is seat 0's: nothing at all changes
        await store.replace_seat(game.id, Seat.discord(1, 201, colour="red"))
    assert await store.get_game(game.id) == game
    with pytest.raises(InvalidData):
        await store.replace_seat(game.id, "seat 1")  # type: ignore[arg-type]
    finished = await store.set_status(game.id, GameStatus.ABANDONED)
    with pytest.raises(GameNotActive):
        await store.replace_seat(game.id, Seat.discord(1, 201))
    assert await store.get_game(game.id) == finished


async def test_format_2_exports_with_an_extra_bag_still_load(store: GameStore) -> None:
    """An export written before typed settings: its ``extra`` becomes the typed fields and
    the names of the bot's seat list go to the seats."""
    game = await store.create_game(
        10,
        initial_state_json="{}",
        settings=SETTINGS,
        seats=[Seat.discord(0, 101), Seat.ai(1, "random"), Seat.local(2, "Zé")],
    )
    raw = json.loads(dump_export(await store.export_game(game.id)))
    raw["format_version"] = 2
    raw["game"]["settings"] = {
        **{k: v for k, v in LEGACY.items() if k != "extra"},
        "player_count": 4,
        "extra": {
            **LEGACY["extra"],
            "seats": [
                {"name": "Ana", "ai": None, "user_id": 101},
                {"name": "Robô", "ai": "random", "user_id": None},
                {"name": "Zé", "ai": None, "user_id": None},
            ],
        },
    }
    export = load_export(json.dumps(raw))
    assert export.format_version == 3
    assert export.game.settings.seed == 987654321
    assert export.game.settings.private_places[101].channel_id == 5550001
    assert [s.name for s in export.seats] == ["Ana", "Robô", "Zé"]
    imported = await store.import_game(export, channel_id=11)
    assert imported.settings == export.game.settings
    assert imported.seat(0) == Seat.discord(0, 101, name="Ana")
