"""Fixtures for storage tests: real SQLite files in tmp dirs, a controllable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import GameRecord, GameSettings, GameStatus, Seat, SqliteGameStore
from tests.storage import toy_game

SETTINGS = GameSettings(scenario="standard", player_count=4, turn_timer_seconds=3600)
SEATS = {0: 101, 1: 102, 2: 103, 3: 104}
"""Seat number -> Discord user id of the default test game."""
ENGINE = "test-engine-1"
"""The engine version the test stores record (a fixed one: tests do not depend on the
installed package)."""


def seats_of(mapping: dict[int, int]) -> list[Seat]:
    return [Seat.discord(number, user) for number, user in mapping.items()]


class FakeClock:
    """Starts at 2025-01-01 00:00 UTC and moves one second per call."""

    def __init__(self) -> None:
        self.moment = datetime(2025, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.moment += timedelta(seconds=1)
        return self.moment


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[SqliteGameStore]:
    async with SqliteGameStore(
        db_path, clock=clock, replayer=toy_game.replay, engine_version=lambda: ENGINE
    ) as opened:
        yield opened


async def new_game(
    store: SqliteGameStore,
    channel_id: int = 1000,
    *,
    guild_id: int | None = 77,
    seats: dict[int, int] | None = None,
    status: GameStatus = GameStatus.RUNNING,
    padding: int = 0,
) -> GameRecord:
    return await store.create_game(
        channel_id,
        initial_state_json=toy_game.initial_state(padding),
        settings=SETTINGS,
        guild_id=guild_id,
        seats=seats_of(SEATS if seats is None else seats),
        status=status,
    )


async def play(store: SqliteGameStore, record: GameRecord, adds: list[int]) -> GameRecord:
    """Save one toy action per ``adds`` item, seat rotating through the seats."""
    numbers = sorted(SEATS)
    for add in adds:
        record = await store.save(
            record.id,
            expected_version=record.version,
            state_json=toy_game.replay(record.state_json, toy_game.action(add)),
            action_json=toy_game.action(add),
            seat=numbers[record.version % len(numbers)],
            events_json=f'[{{"added": {add}}}]',
            description=f"Adds {add}",
        )
    return record
