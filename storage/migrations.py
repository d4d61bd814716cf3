"""Schema versions of the SQLite database and the forward migrations between them.

The database's ``PRAGMA user_version`` holds its schema version (0 = empty file) and
``PRAGMA application_id`` marks the file as ours. At start-up :func:`migrate` runs every
migration newer than the file, in order, each in its own ``BEGIN IMMEDIATE`` transaction that
also bumps ``user_version`` (so a crash mid-migration leaves the previous version intact, and
two processes starting at once do not both migrate). A database *newer* than :data:`LATEST`
is refused with :class:`~storage.errors.SchemaTooNew`; nothing is changed.

Versions (never edit a released migration; append a new one):

1. core tables: ``games`` (one row per game, at most one active per channel), ``game_states``
   (current state JSON, kept apart so listings never read it), ``seats`` (colour -> Discord
   user, final score and winner flag), ``actions`` (the append-only log; version 0 holds the
   initial state), plus triggers that make the log append-only and contiguous, games
   undeletable, versions monotonic and finished/abandoned games final.
2. ``actions.state_hash``: SHA-256 of the canonical JSON of the state after each entry, so a
   replay can verify every step (old entries are back-filled where the state is known: the
   initial and the current state); an index on ``seats.user_id`` for player statistics.
3. Undo, rollback and snapshots; seats that match the engine; engine version and data pack.
   ``actions`` gains ``kind`` (created / action / undo / rollback), ``target_version`` (the
   version an undo or rollback returns to), ``seat_no`` (0-based seat number; the old
   ``seat`` colour text is kept for old entries and back-filled into ``seat_no``),
   ``description`` (public text of the step), ``reason`` and ``actor_id`` (rollback),
   ``engine_version``; a trigger keeps kinds consistent. ``seats`` is rebuilt keyed by seat
   number, with its kind (Discord user, local player name, AI level) and a nullable colour
   (old seats are numbered in colour order, as they were listed). ``games`` gains
   ``engine_version`` and ``data_pack``.
4. Pacing of slow games (the bot's deadlines, reminders, away time, pauses, AI stand-ins):
   ``pacing_games`` (a game's pacing settings JSON and its pause votes), ``pacing_players``
   (a Discord user's time zone and quiet hours), ``pacing_breaks`` (a seat's away periods and
   the whole game's pauses), ``pacing_decisions`` (when a seat's decision began: its clock),
   ``pacing_timers`` (one row per fired reminder / deadline / flag, unique per game, version,
   seat and kind: each fires once, even across restarts) and ``pacing_standins`` (an AI
   playing a seat until its owner is back). New tables only: existing data is untouched.
5. Typed settings and a private news inbox. Every game's settings JSON loses its free
   ``extra`` object: its keys become the typed fields of ``GameSettings`` (see
   :mod:`storage.legacy`; the redundant ``lobby`` flag and the bot's own copy of the seat list,
   ``extra["seats"]``, are dropped), and each seat's name in that list is copied into the
   ``seats`` table for Discord seats and unnamed AI seats (the table is the one place of the
   seats). New tables ``news`` (private texts kept for a seat until it reads them) and
   ``news_read`` (each seat's read-up-to marker), both cascading with their game.
6. A lobby becomes its game (one number per game): the append-only trigger lets entry 0 of a
   game that is still a lobby be rewritten — a lobby has no state yet, its entry 0 holds a
   placeholder, and starting it writes the game's initial state there in the same
   transaction that makes it running (``GameStore.start_lobby``). Every other entry, and
   entry 0 of any game past its lobby, stays unchangeable. No data is changed.
9. Languages: ``pacing_players`` gains ``language`` (the language a user chose with
   ``/language``; NULL: their Discord client's) and ``discord_locale`` (the Discord locale
   they were last seen with, for reminders sent outside an interaction); every game's
   settings gain ``"language": "en"`` (the language of its public posts; games from before
   were English). Settings that do not read as a JSON object are left for ``check``.
10. The game per game record (a second game on the platform): ``games`` gains ``game``, the
    game's name (a lower-case identifier: ``brazil``, ``tigris``...; NOT NULL, default
    ``'brazil'``: every game stored before was *Brazil: Imperial*), checked by a CHECK
    constraint, and a trigger refuses any change of it (a record's game is set when it is
    created, lobby included, and never changes). No index: no listing filters by game.
11. ``pacing_players`` gains ``manual_end`` (a player who ends their turns themselves).
12. ``pacing_players`` gains ``notices`` (``ping``, ``dm``, ``both`` or ``none``: how a player
    is told that they decide) and ``heads_up``; ``guild_settings`` keeps each server's
    settings (:class:`~storage.models.GuildSettings` as JSON).
13. Skill ratings (:mod:`storage.ratings`): ``ratings`` (per server, game, season and player),
    ``rating_changes`` (per rated game, season and seat) and ``seasons`` (per server, game
    and number); an index of ``games`` by server, game and status.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass

import aiosqlite

from storage.errors import NotAGameDatabase, SchemaTooNew, StorageError
from storage.jsonutil import state_hash
from storage.legacy import legacy_seat_names, legacy_stand_ins, upgrade_legacy_settings

__all__ = [
    "APPLICATION_ID",
    "LATEST",
    "MIGRATIONS",
    "Migration",
    "check_ours",
    "migrate",
    "schema_version",
]

APPLICATION_ID = 0x42524149  # "BRAI"
"""Written to ``PRAGMA application_id`` so other SQLite files are recognised as not ours."""

MigrationStep = str | Callable[[aiosqlite.Connection], Awaitable[None]]


@dataclass(frozen=True)
class Migration:
    """Brings the schema from ``version - 1`` to ``version``: an SQL script or a coroutine."""

    version: int
    description: str
    step: MigrationStep


V1_CORE = """
CREATE TABLE games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id    INTEGER NOT NULL,
    guild_id      INTEGER,
    status        TEXT    NOT NULL
                  CHECK (status IN ('lobby', 'setup', 'running', 'finished', 'abandoned')),
    version       INTEGER NOT NULL CHECK (version >= 0),
    settings_json TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    finished_at   TEXT
);

-- One active game per channel; finished and abandoned games stay, any number of them.
CREATE UNIQUE INDEX games_one_active_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'setup', 'running');
CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE INDEX games_by_guild ON games (guild_id, id);

CREATE TABLE game_states (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    state_json TEXT NOT NULL
);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    colour  TEXT    NOT NULL CHECK (colour <> ''),
    user_id INTEGER NOT NULL,
    score   INTEGER,
    winner  INTEGER NOT NULL DEFAULT 0 CHECK (winner IN (0, 1)),
    PRIMARY KEY (game_id, colour)
) WITHOUT ROWID;

CREATE TABLE actions (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    version       INTEGER NOT NULL CHECK (version >= 0),
    seat          TEXT,
    action_json   TEXT,
    events_json   TEXT    NOT NULL,
    snapshot_json TEXT,
    created_at    TEXT    NOT NULL,
    PRIMARY KEY (game_id, version),
    CHECK ((version = 0) = (action_json IS NULL)),
    CHECK (version > 0 OR snapshot_json IS NOT NULL)
);

CREATE TRIGGER actions_contiguous BEFORE INSERT ON actions
WHEN NEW.version <> COALESCE(
    (SELECT MAX(version) FROM actions WHERE game_id = NEW.game_id), -1) + 1
BEGIN
    SELECT RAISE(ABORT, 'action log versions must be contiguous');
END;

CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER games_never_deleted BEFORE DELETE ON games
BEGIN
    SELECT RAISE(ABORT, 'games are never deleted');
END;

CREATE TRIGGER games_version_monotonic BEFORE UPDATE OF version ON games
WHEN NEW.version < OLD.version
BEGIN
    SELECT RAISE(ABORT, 'a game version never decreases');
END;

CREATE TRIGGER games_final_status BEFORE UPDATE ON games
WHEN OLD.status IN ('finished', 'abandoned')
 AND (NEW.status <> OLD.status OR NEW.version <> OLD.version)
BEGIN
    SELECT RAISE(ABORT, 'a finished or abandoned game cannot change');
END;
"""


async def _v2_state_hashes(db: aiosqlite.Connection) -> None:
    await db.execute("ALTER TABLE actions ADD COLUMN state_hash TEXT")
    await db.execute("DROP TRIGGER actions_append_only_update")

    def digest(text: str) -> str | None:
        try:
            return state_hash(json.loads(text))
        except ValueError:
            return None  # left unverified; `check` reports the unparsable state itself

    game_rows = await db.execute_fetchall("SELECT id, version FROM games ORDER BY id")
    for game_id, version in list(game_rows):
        for text_sql, at_version in (
            ("SELECT snapshot_json FROM actions WHERE game_id = ? AND version = 0", 0),
            ("SELECT state_json FROM game_states WHERE game_id = ?", version),
        ):
            rows = list(await db.execute_fetchall(text_sql, (game_id,)))
            if rows and rows[0][0] is not None:
                await db.execute(
                    "UPDATE actions SET state_hash = ? WHERE game_id = ? AND version = ?",
                    (digest(rows[0][0]), game_id, at_version),
                )
    await db.execute(
        """CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        BEGIN
            SELECT RAISE(ABORT, 'the action log is append-only');
        END"""
    )
    await db.execute("CREATE INDEX seats_by_user ON seats (user_id, game_id)")


V3_SEATS = """
CREATE TABLE seats_v3 (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    kind     TEXT    NOT NULL CHECK (kind IN ('discord', 'local', 'ai')),
    user_id  INTEGER,
    name     TEXT,
    ai_level TEXT,
    colour   TEXT    CHECK (colour IS NULL OR colour <> ''),
    score    INTEGER,
    winner   INTEGER NOT NULL DEFAULT 0 CHECK (winner IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    CHECK ((kind = 'discord') = (user_id IS NOT NULL)),
    CHECK (kind <> 'local' OR name IS NOT NULL),
    CHECK (kind <> 'ai' OR ai_level IS NOT NULL)
) WITHOUT ROWID;

INSERT INTO seats_v3 (game_id, seat, kind, user_id, colour, score, winner)
SELECT game_id, ROW_NUMBER() OVER (PARTITION BY game_id ORDER BY colour) - 1,
       'discord', user_id, colour, score, winner
  FROM seats;

DROP TABLE seats;
ALTER TABLE seats_v3 RENAME TO seats;
CREATE UNIQUE INDEX seats_one_colour ON seats (game_id, colour) WHERE colour IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id, game_id);

ALTER TABLE games ADD COLUMN engine_version TEXT;
ALTER TABLE games ADD COLUMN data_pack TEXT;

ALTER TABLE actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'action'
    CHECK (kind IN ('created', 'action', 'undo', 'rollback'));
ALTER TABLE actions ADD COLUMN seat_no INTEGER;
ALTER TABLE actions ADD COLUMN target_version INTEGER;
ALTER TABLE actions ADD COLUMN description TEXT;
ALTER TABLE actions ADD COLUMN reason TEXT;
ALTER TABLE actions ADD COLUMN actor_id INTEGER;
ALTER TABLE actions ADD COLUMN engine_version TEXT;

DROP TRIGGER actions_append_only_update;

UPDATE actions SET kind = 'created' WHERE version = 0;
UPDATE actions SET seat_no = (
    SELECT s.seat FROM seats s WHERE s.game_id = actions.game_id AND s.colour = actions.seat
) WHERE seat IS NOT NULL;

CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_kind_consistent BEFORE INSERT ON actions
WHEN NOT CASE NEW.kind
    WHEN 'created' THEN NEW.version = 0
    WHEN 'action' THEN NEW.version > 0 AND NEW.target_version IS NULL
    ELSE NEW.version > 0 AND NEW.target_version IS NOT NULL
         AND NEW.target_version >= 0 AND NEW.target_version < NEW.version
         AND NEW.snapshot_json IS NOT NULL
END
BEGIN
    SELECT RAISE(ABORT, 'inconsistent log entry kind');
END;
"""

V4_PACING = """
CREATE TABLE pacing_games (
    game_id          INTEGER PRIMARY KEY REFERENCES games (id),
    settings_json    TEXT NOT NULL DEFAULT '{}',
    pause_votes_json TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE pacing_players (
    user_id     INTEGER PRIMARY KEY,
    tz          TEXT,
    quiet_start TEXT,
    quiet_end   TEXT,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL))
);

CREATE TABLE pacing_breaks (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seat     INTEGER CHECK (seat IS NULL OR seat BETWEEN 0 AND 7),
    start_at TEXT    NOT NULL,
    end_at   TEXT,
    by_user  INTEGER,
    reason   TEXT,
    CHECK (seat IS NULL OR end_at IS NOT NULL)
);
CREATE INDEX pacing_breaks_by_game ON pacing_breaks (game_id, seat);

CREATE TABLE pacing_decisions (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    since_version INTEGER NOT NULL CHECK (since_version >= 0),
    started_at    TEXT    NOT NULL,
    closed_at     TEXT,
    muted         INTEGER NOT NULL DEFAULT 0 CHECK (muted IN (0, 1)),
    PRIMARY KEY (game_id, seat, since_version)
) WITHOUT ROWID;
CREATE UNIQUE INDEX pacing_decisions_one_open
    ON pacing_decisions (game_id, seat) WHERE closed_at IS NULL;

CREATE TABLE pacing_timers (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    version    INTEGER NOT NULL CHECK (version >= 0),
    seat       INTEGER NOT NULL CHECK (seat BETWEEN -1 AND 7),
    kind       TEXT    NOT NULL CHECK (kind <> ''),
    claimed_at TEXT    NOT NULL,
    done_at    TEXT,
    outcome    TEXT,
    PRIMARY KEY (game_id, version, seat, kind)
) WITHOUT ROWID;

CREATE TABLE pacing_standins (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    user_id  INTEGER,
    ai_level TEXT    NOT NULL,
    since    TEXT    NOT NULL,
    ended_at TEXT,
    PRIMARY KEY (game_id, seat, since)
) WITHOUT ROWID;
CREATE UNIQUE INDEX pacing_standins_one_open
    ON pacing_standins (game_id, seat) WHERE ended_at IS NULL;
"""

V5_NEWS = """
CREATE TABLE news (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    text       TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);
CREATE INDEX news_by_seat ON news (game_id, seat, id);

CREATE TABLE news_read (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    up_to   INTEGER NOT NULL CHECK (up_to >= 0),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
"""


async def _v5_typed_settings_and_news(db: aiosqlite.Connection) -> None:
    for statement in split_sql(V5_NEWS):
        await db.execute(statement)
    rows = list(await db.execute_fetchall("SELECT id, settings_json FROM games ORDER BY id"))
    for game_id, text in rows:
        try:
            raw = json.loads(text)
        except ValueError:
            continue  # left as it is; `check` reports unreadable settings itself
        if not isinstance(raw, dict) or "extra" not in raw:
            continue
        typed = upgrade_legacy_settings(raw)
        await db.execute(
            "UPDATE games SET settings_json = ? WHERE id = ?",
            (json.dumps(typed, separators=(",", ":"), ensure_ascii=False), game_id),
        )
        for seat, name in legacy_seat_names(raw).items():
            await db.execute(
                "UPDATE seats SET name = ? WHERE game_id = ? AND seat = ? AND name IS NULL "
                "AND kind IN ('discord', 'ai')",
                (name, game_id, seat),
            )
        for seat, level in legacy_stand_ins(raw).items():  # an AI playing for a Discord user
            await db.execute(
                "UPDATE seats SET ai_level = ? WHERE game_id = ? AND seat = ? AND kind = 'discord'",
                (level, game_id, seat),
            )


V6_LOBBY_START = """
DROP TRIGGER actions_append_only_update;

CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
WHEN NOT (
    OLD.version = 0 AND NEW.version = 0 AND NEW.game_id = OLD.game_id
    AND NEW.kind = 'created'
    AND (SELECT status FROM games WHERE id = OLD.game_id) = 'lobby'
)
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
"""

V7_WEB_PAGES = """
-- A game's web page address: one random token per game (revoked by replacing it).
CREATE TABLE web_pages (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    token      TEXT    NOT NULL UNIQUE CHECK (length(token) >= 16),
    created_at TEXT    NOT NULL
);
"""

V8_TICKS = """
-- Which process ticks a game's pacing now: a PostgreSQL process holds its game's row locked
-- (FOR UPDATE SKIP LOCKED) while it ticks the game. One process owns an SQLite file: the
-- table is kept only so that schema 8 means the same tables on both backends.
CREATE TABLE pacing_ticks (
    game_id INTEGER PRIMARY KEY REFERENCES games (id)
);
"""

V9_LANGUAGES = """
ALTER TABLE pacing_players ADD COLUMN language TEXT;
ALTER TABLE pacing_players ADD COLUMN discord_locale TEXT;
"""


def with_language(text: str) -> str | None:
    """A game's settings JSON with ``"language": "en"`` added (schema 9), or None when it
    needs no change (it has a language already, or it is not a JSON object: ``check``
    reports that itself)."""
    try:
        raw = json.loads(text)
    except ValueError:
        return None
    if not isinstance(raw, dict) or "language" in raw:
        return None
    raw["language"] = "en"
    return json.dumps(raw, separators=(",", ":"), ensure_ascii=False)


async def _v9_languages(db: aiosqlite.Connection) -> None:
    for statement in split_sql(V9_LANGUAGES):
        await db.execute(statement)
    rows = list(await db.execute_fetchall("SELECT id, settings_json FROM games ORDER BY id"))
    for game_id, text in rows:
        new = with_language(text)
        if new is not None:
            await db.execute("UPDATE games SET settings_json = ? WHERE id = ?", (new, game_id))


V10_GAME = """
-- Which game a record is (storage keeps the name and never interprets the state by it).
ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'brazil'
    CHECK (length(game) BETWEEN 1 AND 40 AND substr(game, 1, 1) BETWEEN 'a' AND 'z'
           AND game NOT GLOB '*[^a-z0-9_]*');

CREATE TRIGGER games_game_fixed BEFORE UPDATE OF game ON games
WHEN NEW.game IS NOT OLD.game
BEGIN
    SELECT RAISE(ABORT, 'the game played by a game record never changes');
END;
"""


V11_MANUAL_END = """
-- A player who ends their turns themselves (1), rather than the bot ending a turn whose only
-- legal step left is its end (0, the default).
ALTER TABLE pacing_players ADD COLUMN manual_end INTEGER NOT NULL DEFAULT 0
    CHECK (manual_end IN (0, 1));
"""


V12_PLACES = """
-- How a player is told that they decide (a ping in the game's channel, a direct message, both,
-- none) and whether they want a heads-up when they are next; each server's settings (where a
-- game is played in a text channel: its own thread or the whole channel; a cap on running
-- games per player) as JSON.
ALTER TABLE pacing_players ADD COLUMN notices TEXT NOT NULL DEFAULT 'ping'
    CHECK (notices IN ('ping', 'dm', 'both', 'none'));
ALTER TABLE pacing_players ADD COLUMN heads_up INTEGER NOT NULL DEFAULT 0
    CHECK (heads_up IN (0, 1));
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY CHECK (guild_id >= 0),
    settings_json TEXT NOT NULL DEFAULT '{}'
);
"""


V13_RATINGS = """
-- Skill ratings per server and game (issue #31): each player's rating per table (season 0:
-- all-time), what each rated game changed, and the seasons.
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL CHECK (guild_id >= 0),
    game TEXT NOT NULL,
    season INTEGER NOT NULL CHECK (season >= 0),
    player TEXT NOT NULL CHECK (length(player) BETWEEN 1 AND 80),
    mu REAL NOT NULL,
    sigma REAL NOT NULL CHECK (sigma > 0),
    games INTEGER NOT NULL CHECK (games >= 1),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, game, season, player)
);
CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES games(id),
    season INTEGER NOT NULL CHECK (season >= 0),
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    player TEXT NOT NULL CHECK (length(player) BETWEEN 1 AND 80),
    place INTEGER NOT NULL CHECK (place >= 1),
    fixed INTEGER NOT NULL CHECK (fixed IN (0, 1)),
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after REAL NOT NULL,
    sigma_after REAL NOT NULL,
    PRIMARY KEY (game_id, season, seat)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player, game_id);
CREATE TABLE seasons (
    guild_id INTEGER NOT NULL CHECK (guild_id >= 0),
    game TEXT NOT NULL,
    number INTEGER NOT NULL CHECK (number >= 1),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    started_at TEXT NOT NULL,
    started_by INTEGER NOT NULL,
    ended_at TEXT,
    ended_by INTEGER,
    PRIMARY KEY (guild_id, game, number)
);
CREATE INDEX games_by_guild_game ON games (guild_id, game, status);
"""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core tables: games, game states, seats, append-only action log", V1_CORE),
    Migration(2, "per-entry state hash (back-filled), seats index by user", _v2_state_hashes),
    Migration(3, "undo/rollback entries, snapshots, seats by number, engine version", V3_SEATS),
    Migration(
        4, "pacing: settings, time zones, away and pauses, decision clocks, timers", V4_PACING
    ),
    Migration(
        5,
        "typed settings (no extra bag), Discord seat names, private news inbox",
        _v5_typed_settings_and_news,
    ),
    Migration(6, "a lobby's entry 0 takes the initial state when it starts", V6_LOBBY_START),
    Migration(7, "web pages: one unguessable token per game", V7_WEB_PAGES),
    Migration(8, "pacing ticks: one process ticks a game at a time", V8_TICKS),
    Migration(9, "languages: players' language and Discord locale, games' language", _v9_languages),
    Migration(10, "the game per game record (every game before: brazil)", V10_GAME),
    Migration(11, "players' choice to end their turns themselves", V11_MANUAL_END),
    Migration(12, "players' turn notices and heads-up, servers' settings", V12_PLACES),
    Migration(13, "skill ratings per server and game, their changes, seasons", V13_RATINGS),
)

LATEST: int = MIGRATIONS[-1].version
"""The schema version this code writes."""


def split_sql(script: str) -> list[str]:
    """Split an SQL script into statements (trigger bodies and quoted ';' stay intact)."""
    statements: list[str] = []
    buffer = ""
    pieces = script.split(";")
    for index, piece in enumerate(pieces):
        buffer += piece if index == len(pieces) - 1 else piece + ";"
        if buffer.rstrip().endswith(";") and sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            if statement.strip(";").strip():
                statements.append(statement)
            buffer = ""
    if buffer.strip(";").strip():
        raise ValueError(f"incomplete SQL statement at the end of the script: {buffer!r}")
    return statements


async def _pragma_int(db: aiosqlite.Connection, name: str) -> int:
    rows = list(await db.execute_fetchall(f"PRAGMA {name}"))
    return int(rows[0][0])


async def schema_version(db: aiosqlite.Connection) -> int:
    """The schema version recorded in the database (0 for a new, empty file)."""
    return await _pragma_int(db, "user_version")


async def check_ours(db: aiosqlite.Connection, version: int) -> None:
    """Refuse files that are not ours: another application id, a schema version we did not
    write (we always set both together), or tables in a file without a schema version."""
    app_id = await _pragma_int(db, "application_id")
    if app_id != APPLICATION_ID and (app_id != 0 or version != 0):
        raise NotAGameDatabase.of(
            "storage.error.other_application_here", app_id=f"{app_id:#x}", version=version
        )
    if version == 0:
        rows = list(
            await db.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1"
            )
        )
        if rows:
            raise NotAGameDatabase.of("storage.error.foreign_tables_here")


async def migrate(
    db: aiosqlite.Connection,
    *,
    migrations: Sequence[Migration] = MIGRATIONS,
    target: int | None = None,
) -> tuple[int, int]:
    """Run the pending migrations up to ``target`` (default: the latest).

    ``db`` must be in autocommit mode (``isolation_level=None``). Returns ``(from, to)``.
    Raises :class:`SchemaTooNew` if the file is newer than the code, and
    :class:`NotAGameDatabase` if it is some other SQLite file.
    """
    latest = migrations[-1].version
    goal = latest if target is None else target
    start = await schema_version(db)
    if start > latest:
        raise SchemaTooNew(found=start, supported=latest)
    if start > 0:
        await check_ours(db, start)
    for migration in migrations:
        if migration.version <= start or migration.version > goal:
            continue
        try:
            await db.execute("BEGIN IMMEDIATE")
            current = await schema_version(db)  # another process may have migrated meanwhile
            if current > latest:
                raise SchemaTooNew(found=current, supported=latest)
            if current >= migration.version:
                await db.execute("ROLLBACK")
                continue
            if current == 0:  # checked inside the lock: another process may be creating it
                await check_ours(db, current)
            if current != migration.version - 1:
                raise StorageError(
                    f"cannot migrate from schema {current} with migration {migration.version}"
                )
            if isinstance(migration.step, str):
                for statement in split_sql(migration.step):
                    await db.execute(statement)
            else:
                await migration.step(db)
            await db.execute(f"PRAGMA user_version = {int(migration.version)}")
            await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            await db.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.OperationalError):
                await db.execute("ROLLBACK")
            raise
    return start, await schema_version(db)
