"""Creating, saving, loading and listing games on a real SQLite file."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from storage import (
    BackendError,
    ChannelBusy,
    GameNotActive,
    GameNotFound,
    GameResult,
    GameSettings,
    GameStatus,
    GameStore,
    GameSummary,
    InvalidData,
    InvalidTransition,
    PendingRequest,
    PrivatePlace,
    Seat,
    SeatKind,
    SqliteGameStore,
)
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, SEATS, SETTINGS, FakeClock, StoreFactory, new_game, play


async def test_create_and_load_round_trip(store: GameStore, clock: FakeClock) -> None:
    created = await new_game(store, 1000, guild_id=77)
    assert created.version == 0
    assert created.status is GameStatus.RUNNING
    assert created.channel_id == 1000 and created.guild_id == 77
    assert created.settings == SETTINGS
    assert {seat.seat: seat.user_id for seat in created.seats} == SEATS
    assert all(seat.kind is SeatKind.DISCORD and seat.colour is None for seat in created.seats)
    assert created.engine_version == ENGINE and created.data_pack is None
    assert created.created_at == created.updated_at == clock.moment
    assert created.finished_at is None
    loaded = await store.get_game(created.id)
    assert loaded == created
    assert loaded.state() == json.loads(toy_game.initial_state())
    assert await store.get_active_game(1000) == created
    assert await store.get_active_game(999) is None


async def test_save_bumps_version_logs_and_persists(
    store_factory: StoreFactory, clock: FakeClock
) -> None:
    async with store_factory() as store:
        game = await new_game(store)
        saved = await play(store, game, [3, 4, 5])
        assert saved.version == 3
        assert saved.state() == toy_game.state_after([3, 4, 5])
        assert saved.updated_at == clock.moment
        assert saved.created_at == game.created_at
        assert saved == await store.get_game(game.id)
    # a new store on the same database (a restart) sees everything
    async with store_factory() as store:
        again = await store.get_game(game.id)
        assert again == saved
        log = await store.get_log(game.id)
    assert [entry.version for entry in log] == [0, 1, 2, 3]
    assert log[0].action_json is None
    assert log[0].snapshot_json == toy_game.initial_state()
    assert [json.loads(e.action_json or "null") for e in log[1:]] == [
        {"add": 3},
        {"add": 4},
        {"add": 5},
    ]
    assert [e.seat for e in log] == [None, 0, 1, 2]
    assert json.loads(log[2].events_json) == [{"added": 4}]
    assert all(entry.state_hash for entry in log)
    assert log[1].created_at < log[2].created_at < log[3].created_at


async def test_get_log_ranges(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1, 2, 3, 4])
    middle = await store.get_log(game.id, from_version=2, to_version=3)
    assert [entry.version for entry in middle] == [2, 3]
    assert [e.version for e in await store.get_log(game.id, from_version=3)] == [3, 4]
    assert await store.get_log(game.id, from_version=9) == []
    with pytest.raises(GameNotFound):
        await store.get_log(12345)


async def test_database_settings(sqlite_store: SqliteGameStore, db_path: Path) -> None:
    async with sqlite_store._locked() as db:
        pragmas = {
            name: (await db.execute_fetchall(f"PRAGMA {name}"))[0][0]  # type: ignore[index]
            for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
        }
    assert pragmas == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "foreign_keys": 1,
        "busy_timeout": 5000,
    }


async def test_synchronous_full(db_path: Path) -> None:
    async with SqliteGameStore(db_path, synchronous="FULL") as store, store._locked() as db:
        rows = list(await db.execute_fetchall("PRAGMA synchronous"))
    assert rows[0][0] == 2


async def test_unknown_game(store: GameStore) -> None:
    with pytest.raises(GameNotFound):
        await store.get_game(42)
    with pytest.raises(GameNotFound):
        await store.save(42, expected_version=0, state_json="{}", action_json="{}")
    with pytest.raises(GameNotFound):
        await store.set_status(42, GameStatus.ABANDONED)


async def test_one_active_game_per_channel(store: GameStore) -> None:
    first = await new_game(store, 5)
    with pytest.raises(ChannelBusy) as caught:
        await new_game(store, 5)
    assert caught.value.game_id == first.id
    other_channel = await new_game(store, 6)
    finished = await store.finish_game(
        first.id, GameResult(scores={0: 10, 1: 12}, winners=frozenset({1}))
    )
    assert finished.status is GameStatus.FINISHED and not finished.is_active
    second = await new_game(store, 5)  # the channel is free again
    assert await store.get_active_game(5) == second
    history = await store.list_games(channel_id=5)
    assert [game.id for game in history] == [second.id, first.id]
    assert other_channel.id not in [game.id for game in history]


async def test_invalid_values_write_nothing(store: GameStore) -> None:
    game = await play(store, await new_game(store), [2])
    for state, action, events in (
        ("{not json", "{}", "[]"),
        ("{}", "nope", "[]"),
        ("{}", "{}", "["),
    ):
        with pytest.raises(InvalidData):
            await store.save(
                game.id,
                expected_version=1,
                state_json=state,
                action_json=action,
                events_json=events,
            )
    assert await store.get_game(game.id) == game
    assert len(await store.get_log(game.id)) == 2
    with pytest.raises(InvalidData):
        await store.create_game(1, initial_state_json="[", settings=SETTINGS)
    with pytest.raises(InvalidData):
        await store.create_game(-1, initial_state_json="{}", settings=SETTINGS)
    with pytest.raises(InvalidData):
        await store.create_game(
            1, initial_state_json="{}", settings=SETTINGS, status=GameStatus.FINISHED
        )
    with pytest.raises(InvalidData):
        await store.create_game(
            1,
            initial_state_json="{}",
            settings=SETTINGS,
            seats=[Seat.discord(0, 5), Seat.local(0, "Ana")],  # seat 0 twice
        )
    with pytest.raises(InvalidData):
        await store.create_game(
            1,
            initial_state_json="{}",
            settings=SETTINGS,
            seats=[Seat.discord(0, 5, colour="red"), Seat.local(1, "Ana", colour="red")],
        )
    with pytest.raises(InvalidData):
        await store.create_game(
            1, initial_state_json="{}", settings=SETTINGS, data_pack="../../etc"
        )
    assert await store.list_games(channel_id=1) == []


async def test_failed_transaction_changes_nothing(
    sqlite_store: SqliteGameStore, db_path: Path
) -> None:
    """A save whose log insert fails half-way leaves state and version untouched."""
    game = await play(sqlite_store, await new_game(sqlite_store), [1, 1])
    # Another writer (raw SQL, bypassing storage) has appended log entry 3 without the rest.
    with sqlite3.connect(db_path) as raw:
        raw.execute(
            "INSERT INTO actions (game_id, version, seat, action_json, events_json, created_at)"
            " VALUES (?, 3, NULL, '{}', '[]', '2025-01-01T00:00:00+00:00')",
            (game.id,),
        )
    raw.close()
    with pytest.raises(BackendError):
        await play(sqlite_store, game, [5])
    assert (
        await sqlite_store.get_game(game.id) == game
    )  # the UPDATEs before the failure rolled back
    # and the connection is usable again
    assert (await sqlite_store.get_game(game.id)).version == 2


async def test_status_lifecycle(store: GameStore) -> None:
    game = await new_game(store, status=GameStatus.LOBBY)
    game = await store.set_status(game.id, GameStatus.SETUP)
    assert game.status is GameStatus.SETUP
    with pytest.raises(InvalidTransition):
        await store.set_status(game.id, GameStatus.LOBBY)
    with pytest.raises(InvalidData):
        await store.set_status(game.id, GameStatus.FINISHED)
    game = await play(store, game, [1])
    game = await store.save(
        game.id,
        expected_version=1,
        state_json=toy_game.replay(game.state_json, toy_game.action(2)),
        action_json=toy_game.action(2),
        status=GameStatus.RUNNING,
    )
    assert (game.status, game.version) == (GameStatus.RUNNING, 2)
    abandoned = await store.set_status(game.id, GameStatus.ABANDONED, expected_version=2)
    assert abandoned.status is GameStatus.ABANDONED
    assert abandoned.finished_at is not None
    assert abandoned.version == 2
    with pytest.raises(GameNotActive):
        await play(store, abandoned, [1])
    with pytest.raises(GameNotActive):
        await store.set_status(game.id, GameStatus.RUNNING)
    with pytest.raises(GameNotActive):
        await store.assign_seat(game.id, Seat.discord(0, 5))


async def test_save_with_result_finishes_atomically(store: GameStore) -> None:
    game = await play(store, await new_game(store), [1])
    result = GameResult(scores={0: 50, 1: 61, 2: 61}, winners=frozenset({1, 2}))
    done = await store.save(
        game.id,
        expected_version=1,
        state_json=toy_game.replay(game.state_json, toy_game.action(9)),
        action_json=toy_game.action(9),
        seat=0,
        result=result,
    )
    assert done.status is GameStatus.FINISHED
    assert done.version == 2
    assert sorted(done.winners) == [1, 2]
    assert {s.seat: s.score for s in done.seats} == {1: 61, 2: 61, 0: 50, 3: None}
    assert done == await store.get_game(game.id)
    with pytest.raises(InvalidData):
        await store.save(
            game.id,
            expected_version=2,
            state_json="{}",
            action_json="{}",
            status=GameStatus.FINISHED,
        )


async def test_result_validation(store: GameStore) -> None:
    game = await new_game(store)
    with pytest.raises(ValidationError):
        GameResult(scores={0: 1}, winners=frozenset({1}))
    with pytest.raises(InvalidData):
        await store.finish_game(game.id, GameResult(scores={7: 3}, winners=frozenset({7})))
    assert (await store.get_game(game.id)).status is GameStatus.RUNNING


async def test_seats(store: GameStore) -> None:
    game = await new_game(store, seats={0: 1}, status=GameStatus.LOBBY)
    game = await store.assign_seat(game.id, Seat.discord(1, 2))
    game = await store.assign_seat(game.id, Seat.discord(0, 3))  # replaces user 1
    assert game.user_of(0) == 3 and game.user_of(1) == 2
    assert game.seats_of(3) == [0] and game.seats_of(1) == []
    game = await store.remove_seat(game.id, 1)
    assert [seat.seat for seat in game.seats] == [0]
    assert game.user_of(1) is None
    assert await store.get_game(game.id) == game


async def test_seat_kinds_and_colours(store: GameStore) -> None:
    """Seats keyed by the engine's seat number: a Discord user, a local player or an AI, and
    the colour once chosen in the game."""
    game = await store.create_game(
        5,
        initial_state_json="{}",
        settings=SETTINGS,
        seats=[Seat.discord(0, 42), Seat.local(1, "Ana"), Seat.ai(2, "hard")],
    )
    assert [seat.kind for seat in game.seats] == [SeatKind.DISCORD, SeatKind.LOCAL, SeatKind.AI]
    assert [seat.label() for seat in game.seats] == ["<@42>", "Ana", "AI (hard)"]
    assert [seat.colour for seat in game.seats] == [None, None, None]
    game = await store.set_colour(game.id, 1, "green")
    game = await store.set_colour(game.id, 2, "red")
    with pytest.raises(InvalidData):
        await store.set_colour(game.id, 0, "green")  # taken by seat 1
    with pytest.raises(InvalidData):
        await store.set_colour(game.id, 5, "blue")  # nobody sits there
    assert {seat.seat: seat.colour for seat in game.seats} == {0: None, 1: "green", 2: "red"}
    assert await store.get_game(game.id) == game
    with pytest.raises(ValidationError):
        Seat(seat=0, kind=SeatKind.AI, user_id=4)  # an AI seat has a level, not a user
    with pytest.raises(ValidationError):
        Seat.discord(8, 1)  # seat numbers 0..7


async def test_lost_solo_game_has_no_winner(store: GameStore) -> None:
    """A solo game the player lost finishes with a score and no winner (used to raise)."""
    game = await new_game(store, seats={0: 7})
    done = await store.finish_game(game.id, GameResult(scores={0: 31}))
    assert done.status is GameStatus.FINISHED and done.winners == []
    assert done.seat(0) is not None and done.seat(0).score == 31  # type: ignore[union-attr]
    assert await store.check_integrity() == []
    stats = await store.player_stats(7)
    assert (stats.games, stats.wins, stats.best_score) == (1, 0, 31)


async def test_list_games_filters_and_paging(store: GameStore) -> None:
    a = await new_game(store, 1, guild_id=10, seats={0: 500})
    b = await new_game(store, 2, guild_id=10, seats={0: 600})
    c = await new_game(store, 3, guild_id=20, seats={0: 500, 1: 600})
    await store.set_status(b.id, GameStatus.ABANDONED)

    def ids(games: list[GameSummary]) -> list[int]:
        return [game.id for game in games]

    assert ids(await store.list_games()) == [c.id, b.id, a.id]
    assert ids(await store.list_games(guild_id=10)) == [b.id, a.id]
    assert ids(await store.list_games(user_id=500)) == [c.id, a.id]
    assert ids(await store.list_games(statuses=[GameStatus.ABANDONED])) == [b.id]
    assert await store.list_games(statuses=[]) == []
    assert ids(await store.list_games(limit=2)) == [c.id, b.id]
    assert ids(await store.list_games(before_id=b.id)) == [a.id]
    assert ids(await store.list_games(limit=None, guild_id=20, user_id=600)) == [c.id]
    summary = (await store.list_games(channel_id=3))[0]
    assert not hasattr(summary, "state_json")
    assert await store.game_ids() == [a.id, b.id, c.id]


async def test_settings_round_trip(store: GameStore) -> None:
    settings = GameSettings(
        scenario="1822",
        player_count=3,
        turn_timer_seconds=None,
        data_pack="fan-pack",
        seed=12,
        host_user_id=42,
        ai_level="heuristic",
        colour_wishes={0: "blue", 2: "green"},
        status_message_id=123456789012345678,
        posted_version=3,
        private_places={42: PrivatePlace(where="dm", channel_id=555)},
        pending_request=PendingRequest(
            token="ab12", op="rollback", by=7, version=3, data={"to": 1, "why": ["x"]}
        ),
        abandon_votes=(42, 43),
    )
    game = await store.create_game(9, initial_state_json="{}", settings=settings)
    assert (await store.get_game(game.id)).settings == settings
    with pytest.raises(ValidationError):
        GameSettings(scenario="x", player_count=4, unknown_key=1)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        GameSettings(scenario="x", player_count=0)


async def test_clock_must_be_aware(store_factory: StoreFactory) -> None:
    async with store_factory(clock=lambda: datetime(2025, 1, 1)) as store:
        with pytest.raises(InvalidData):
            await store.create_game(1, initial_state_json="{}", settings=SETTINGS)
    other_zone = datetime.fromisoformat("2025-06-01T12:00:00+02:00")
    async with store_factory(clock=lambda: other_zone) as store:
        game = await store.create_game(1, initial_state_json="{}", settings=SETTINGS)
    assert game.created_at == other_zone and game.created_at.tzinfo == UTC


async def test_log_is_append_only_and_games_undeletable(
    sqlite_store: SqliteGameStore, db_path: Path
) -> None:
    game = await play(sqlite_store, await new_game(sqlite_store), [1, 2])
    with sqlite3.connect(db_path) as raw:
        for statement in (
            "UPDATE actions SET action_json = '{}' WHERE version = 1",
            "DELETE FROM actions WHERE version = 2",
            "DELETE FROM games",
            "UPDATE games SET version = 0",
            "INSERT INTO actions (game_id, version, events_json, action_json, created_at)"
            f" VALUES ({game.id}, 7, '[]', '{{}}', 'x')",
        ):
            with pytest.raises(sqlite3.IntegrityError):
                raw.execute(statement)
    raw.close()
    await sqlite_store.finish_game(game.id, GameResult(scores={0: 1}, winners=frozenset({0})))
    with sqlite3.connect(db_path) as raw, pytest.raises(sqlite3.IntegrityError):
        raw.execute("UPDATE games SET status = 'running'")
    raw.close()
    assert await sqlite_store.check_integrity() == []


async def test_open_twice_and_close_idempotent(store_factory: StoreFactory) -> None:
    store = store_factory()
    await store.open()
    await store.open()
    await store.close()
    await store.close()
    with pytest.raises(RuntimeError):
        await store.get_game(1)


async def test_update_settings_keeps_version_and_other_fields(store: GameStore) -> None:
    """A surface's bookkeeping (a status message id) in the typed settings: set, replaced,
    removed with None, in any status, without a version bump."""
    game = await store.create_game(6, initial_state_json="{}", settings=SETTINGS, seats=[])
    before = game.settings
    game = await store.update_settings(game.id, status_message_id=123456789012345678)
    assert game.settings == before.model_copy(update={"status_message_id": 123456789012345678})
    assert game.version == 0 and await store.get_game(game.id) == game
    game = await store.update_settings(game.id, status_message_id=None)
    assert game.settings == before
    game = await store.set_status(game.id, GameStatus.ABANDONED)
    game = await store.update_settings(
        game.id,
        pending_request=PendingRequest(token="t", op="x", by=1, version=0, data={"a": [1, 2]}),
    )
    pending = (await store.get_game(game.id)).settings.pending_request
    assert pending is not None and pending.data == {"a": [1, 2]}
    with pytest.raises(GameNotFound):
        await store.update_settings(99_999, seed=1)
