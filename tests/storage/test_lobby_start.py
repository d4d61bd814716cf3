"""``start_lobby``: a lobby becomes its game in one transaction, keeping its id and its
channel (one number per game, issue 22); log entry 0 is rewritten only while the game is a
lobby (schema 6's trigger), never afterwards."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from storage import (
    ChannelBusy,
    GameNotActive,
    GameNotFound,
    GameRecord,
    GameSettings,
    GameStatus,
    GameStore,
    InvalidData,
    InvalidTransition,
    Seat,
    SqliteGameStore,
)
from storage.jsonutil import state_hash
from storage.models import EntryKind
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, play

CH = 4242
GAME_SETTINGS = GameSettings(scenario="standard", player_count=2, seed=99, turn_timer_seconds=7200)
GAME_SEATS = [Seat.discord(0, 101, name="Ana"), Seat.ai(1, "random", name="AI random 2")]


async def open_lobby(store: GameStore, channel_id: int = CH) -> GameRecord:
    return await store.create_game(
        channel_id,
        initial_state_json="{}",
        settings=GameSettings(scenario="auto", player_count=2, host_user_id=101),
        guild_id=5,
        seats=[Seat.discord(0, 101, colour="blue"), Seat.ai(1, "random", name="AI random")],
        status=GameStatus.LOBBY,
    )


async def start(store: GameStore, game_id: int, **kw: Any) -> GameRecord:
    args: dict[str, Any] = {
        "initial_state_json": toy_game.initial_state(),
        "settings": GAME_SETTINGS,
        "seats": GAME_SEATS,
        **kw,
    }
    return await store.start_lobby(game_id, **args)


async def test_a_lobby_becomes_its_game(store: GameStore) -> None:
    lobby = await open_lobby(store)
    game = await start(store, lobby.id)
    assert (game.id, game.channel_id, game.guild_id) == (lobby.id, CH, 5)
    assert (game.status, game.version) == (GameStatus.RUNNING, 0)
    assert game.settings == GAME_SETTINGS and game.seats == tuple(GAME_SEATS)
    assert game.state_json == toy_game.initial_state() and game.engine_version == ENGINE
    assert game.created_at == lobby.created_at
    assert await store.get_game(lobby.id) == game
    active = await store.get_active_game(CH)
    assert active is not None and active.id == lobby.id
    assert [g.id for g in await store.list_games(channel_id=CH, limit=None)] == [lobby.id]
    # log entry 0 as create_game writes it
    (entry,) = await store.get_log(lobby.id)
    assert (entry.version, entry.kind, entry.seat, entry.action_json) == (
        0,
        EntryKind.CREATED,
        None,
        None,
    )
    assert entry.state_hash == state_hash(json.loads(toy_game.initial_state()))
    assert entry.engine_version == ENGINE
    assert await store.state_at(lobby.id, 0) == toy_game.initial_state()
    # the channel stays taken; the game is played, undone to 0 and replayed as any other
    with pytest.raises(ChannelBusy):
        await open_lobby(store)
    game = await play(store, game, [2, 5])
    assert (await store.replay(lobby.id, toy_game.replay)).ok
    game = await store.undo(lobby.id, 0, by=0, expected_version=game.version)
    assert game.state_json == toy_game.initial_state()
    assert await store.check_integrity() == []


async def test_start_in_setup_and_with_a_data_pack(store: GameStore) -> None:
    lobby = await open_lobby(store)
    game = await start(store, lobby.id, status=GameStatus.SETUP, data_pack="mypack")
    assert game.status is GameStatus.SETUP and game.data_pack == "mypack"


async def test_refusals_change_nothing(store: GameStore) -> None:
    lobby = await open_lobby(store)
    for kw, error in (
        ({"status": GameStatus.LOBBY}, InvalidData),
        ({"status": GameStatus.FINISHED}, InvalidData),
        ({"initial_state_json": "{not json"}, InvalidData),
        ({"data_pack": "../up"}, InvalidData),
        (
            {"seats": [Seat.discord(0, 101, colour="red"), Seat.ai(1, "x", colour="red")]},
            InvalidData,
        ),
        ({"seats": [Seat.discord(0, 101), Seat.discord(0, 102)]}, InvalidData),
    ):
        with pytest.raises(error):
            await start(store, lobby.id, **kw)
    with pytest.raises(GameNotFound):
        await start(store, 987654)
    assert await store.get_game(lobby.id) == lobby
    assert (await store.get_log(lobby.id))[0].state_hash == state_hash({})

    # started once: a second start (another press) is refused
    game = await start(store, lobby.id)
    with pytest.raises(InvalidTransition):
        await start(store, lobby.id, settings=GAME_SETTINGS.model_copy(update={"seed": 1}))
    assert await store.get_game(lobby.id) == game
    # a game that was created running, and an abandoned lobby, are not lobbies
    running = await store.create_game(
        CH + 1, initial_state_json=toy_game.initial_state(), settings=GAME_SETTINGS,
        status=GameStatus.RUNNING,
    )  # fmt: skip
    with pytest.raises(InvalidTransition):
        await start(store, running.id)
    gone = await open_lobby(store, CH + 2)
    await store.set_status(gone.id, GameStatus.ABANDONED)
    with pytest.raises(GameNotActive):
        await start(store, gone.id)
    assert await store.check_integrity() == []


async def test_the_log_is_append_only_past_the_lobby(sqlite_store: SqliteGameStore) -> None:
    """Schema 6's trigger: entry 0 may be rewritten while its game is a lobby, and no other
    entry, nor entry 0 once the game started."""
    lobby = await open_lobby(sqlite_store)
    game = await play(sqlite_store, await start(sqlite_store, lobby.id), [3])
    other = await open_lobby(sqlite_store, CH + 1)
    with sqlite3.connect(sqlite_store.path) as raw:
        for game_id, version in ((game.id, 0), (game.id, 1)):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                raw.execute(
                    "UPDATE actions SET snapshot_json = '{}' WHERE game_id = ? AND version = ?",
                    (game_id, version),
                )
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):  # not a created entry
            raw.execute(
                "UPDATE actions SET kind = 'action' WHERE game_id = ? AND version = 0",
                (other.id,),
            )
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM actions WHERE game_id = ?", (other.id,))
        raw.execute(
            "UPDATE actions SET description = 'x' WHERE game_id = ? AND version = 0", (other.id,)
        )
        raw.rollback()
    raw.close()
    assert await sqlite_store.check_integrity() == []
