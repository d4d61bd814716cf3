"""Persistence of the platform's games (each record names its game: ``"brazil"`` for
Brazil: Imperial unless another is given), one active game per Discord channel.

The interface is :class:`GameStore` (async); :class:`SqliteGameStore` implements it on an
embedded SQLite file and :class:`PostgresGameStore` on a PostgreSQL server;
:func:`open_store` picks one from a path or a URL (``TURNPOST_DB``). Callers never see SQL. See
``storage/README.md``.

Importing this package loads neither backend (nor ``aiosqlite`` or ``asyncpg``): the
interface, the models and the errors are enough to code against a store;
``SqliteGameStore`` and ``PostgresGameStore`` are loaded on first use.
"""

from typing import TYPE_CHECKING

from storage.base import SNAPSHOT_EVERY, Clock, GameChange, GameStore, utc_now
from storage.dump import GameDump
from storage.engine_info import current_engine_version
from storage.errors import (
    BackendError,
    ChannelBusy,
    DatabaseCorrupt,
    DatabaseMissing,
    GameExists,
    GameNotActive,
    GameNotFound,
    InvalidData,
    InvalidExport,
    InvalidTransition,
    NotAGameDatabase,
    ReplayerUnavailable,
    RestoreFailed,
    SchemaTooNew,
    StorageError,
    VersionConflict,
)
from storage.export import GameExport, dump_export, load_export
from storage.location import open_store
from storage.models import (
    ACTIVE_STATUSES,
    DEFAULT_GAME,
    Break,
    DecisionClock,
    EntryKind,
    GamePacing,
    GameRecord,
    GameResult,
    GameSettings,
    GameStatus,
    GameSummary,
    GuildSettings,
    HistoryItem,
    IntegrityProblem,
    LogEntry,
    NewsItem,
    OpenPost,
    PendingRequest,
    PlayerPrefs,
    PlayerStats,
    PrivatePlace,
    ReplayReport,
    Seat,
    SeatKind,
    SettingsChanges,
    StandIn,
    Timer,
    is_game_name,
    is_pack_name,
)
from storage.replay import Replayer, default_replayer, load_replayer

if TYPE_CHECKING:
    from storage.postgres import PostgresGameStore
    from storage.sqlite import SqliteGameStore


def __getattr__(name: str) -> object:
    """The backends, imported when first asked for."""
    if name == "SqliteGameStore":
        from storage import sqlite

        return sqlite.SqliteGameStore
    if name == "PostgresGameStore":
        from storage import postgres

        return postgres.PostgresGameStore
    raise AttributeError(f"module 'storage' has no attribute {name!r}")


__all__ = [
    "ACTIVE_STATUSES",
    "DEFAULT_GAME",
    "SNAPSHOT_EVERY",
    "BackendError",
    "Break",
    "ChannelBusy",
    "Clock",
    "DatabaseCorrupt",
    "DatabaseMissing",
    "DecisionClock",
    "EntryKind",
    "GameChange",
    "GameDump",
    "GameExists",
    "GameExport",
    "GameNotActive",
    "GameNotFound",
    "GamePacing",
    "GameRecord",
    "GameResult",
    "GameSettings",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "GuildSettings",
    "HistoryItem",
    "IntegrityProblem",
    "InvalidData",
    "InvalidExport",
    "InvalidTransition",
    "LogEntry",
    "NewsItem",
    "NotAGameDatabase",
    "OpenPost",
    "PendingRequest",
    "PlayerPrefs",
    "PlayerStats",
    "PostgresGameStore",
    "PrivatePlace",
    "ReplayReport",
    "Replayer",
    "ReplayerUnavailable",
    "RestoreFailed",
    "SchemaTooNew",
    "Seat",
    "SeatKind",
    "SettingsChanges",
    "SqliteGameStore",
    "StandIn",
    "StorageError",
    "Timer",
    "VersionConflict",
    "current_engine_version",
    "default_replayer",
    "dump_export",
    "is_game_name",
    "is_pack_name",
    "load_export",
    "load_replayer",
    "open_store",
    "utc_now",
]
