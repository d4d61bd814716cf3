"""Taking a database made by the current code back to an older schema's tables, for tests of
one upgrade that start from a store the current code filled (``test_languages``: 8 -> 9,
``test_pacing_store``: 3 -> 4). Each later migration adds the undoing of what it adds here,
so such a file really is at the older schema when its ``user_version`` says so."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncpg


DROP_13 = (
    "DROP TABLE rating_changes",
    "DROP TABLE ratings",
    "DROP TABLE seasons",
    "DROP INDEX games_by_guild_game",
)


def sqlite_back_to_12(raw: sqlite3.Connection) -> None:
    """Undo schema 13 on an SQLite file: no ratings, rating changes or seasons."""
    for statement in DROP_13:
        raw.execute(statement)


async def pg_back_to_12(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """Undo schema 13 on a PostgreSQL database."""
    for statement in DROP_13:
        await conn.execute(statement)


def sqlite_back_to_11(raw: sqlite3.Connection) -> None:
    """Undo schemas 13 and 12 on an SQLite file: no turn notices, no heads-up, no servers'
    settings."""
    sqlite_back_to_12(raw)
    raw.execute("ALTER TABLE pacing_players DROP COLUMN notices")
    raw.execute("ALTER TABLE pacing_players DROP COLUMN heads_up")
    raw.execute("DROP TABLE guild_settings")


async def pg_back_to_11(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """Undo schemas 13 and 12 on a PostgreSQL database."""
    await pg_back_to_12(conn)
    await conn.execute("ALTER TABLE pacing_players DROP COLUMN notices")
    await conn.execute("ALTER TABLE pacing_players DROP COLUMN heads_up")
    await conn.execute("DROP TABLE guild_settings")


def sqlite_back_to_10(raw: sqlite3.Connection) -> None:
    """Undo schemas 12 and 11 on an SQLite file: no ``pacing_players.manual_end`` column."""
    sqlite_back_to_11(raw)
    raw.execute("ALTER TABLE pacing_players DROP COLUMN manual_end")


async def pg_back_to_10(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """Undo schemas 12 and 11 on a PostgreSQL database."""
    await pg_back_to_11(conn)
    await conn.execute("ALTER TABLE pacing_players DROP COLUMN manual_end")


def sqlite_back_to_9(raw: sqlite3.Connection) -> None:
    """Undo schemas 11 and 10 on an SQLite file: no ``games.game`` column, no trigger guarding
    it."""
    sqlite_back_to_10(raw)
    raw.execute("DROP TRIGGER games_game_fixed")
    raw.execute("ALTER TABLE games DROP COLUMN game")


async def pg_back_to_9(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """Undo schemas 11 and 10 on a PostgreSQL database (the column's trigger goes with it)."""
    await pg_back_to_10(conn)
    await conn.execute("DROP TRIGGER games_game_fixed ON games")
    await conn.execute("ALTER TABLE games DROP COLUMN game")
