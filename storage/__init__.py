"""Persistence of Brazil: Imperial games, one active game per Discord channel.

The interface is :class:`GameStore` (async); :class:`SqliteGameStore` implements it on an
embedded SQLite file. Callers never see SQL. See ``storage/README.md``.
"""

from storage.base import Clock, GameStore, utc_now
from storage.errors import (
    BackendError,
    ChannelBusy,
    DatabaseMissing,
    GameNotActive,
    GameNotFound,
    InvalidData,
    InvalidExport,
    InvalidTransition,
    NotAGameDatabase,
    ReplayerUnavailable,
    SchemaTooNew,
    StorageError,
    VersionConflict,
)
from storage.export import GameExport, dump_export, load_export
from storage.models import (
    ACTIVE_STATUSES,
    GameRecord,
    GameResult,
    GameSettings,
    GameStatus,
    GameSummary,
    IntegrityProblem,
    LogEntry,
    PlayerStats,
    ReplayReport,
    Seat,
)
from storage.replay import Replayer, default_replayer, load_replayer
from storage.sqlite import SqliteGameStore

__all__ = [
    "ACTIVE_STATUSES",
    "BackendError",
    "ChannelBusy",
    "Clock",
    "DatabaseMissing",
    "GameExport",
    "GameNotActive",
    "GameNotFound",
    "GameRecord",
    "GameResult",
    "GameSettings",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "IntegrityProblem",
    "InvalidData",
    "InvalidExport",
    "InvalidTransition",
    "LogEntry",
    "NotAGameDatabase",
    "PlayerStats",
    "ReplayReport",
    "Replayer",
    "ReplayerUnavailable",
    "SchemaTooNew",
    "Seat",
    "SqliteGameStore",
    "StorageError",
    "VersionConflict",
    "default_replayer",
    "dump_export",
    "load_export",
    "load_replayer",
    "utc_now",
]
