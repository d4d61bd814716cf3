"""Persistence of Brazil: Imperial games, one active game per Discord channel.

The interface is :class:`GameStore` (async); :class:`SqliteGameStore` implements it on an
embedded SQLite file. Callers never see SQL. See ``storage/README.md``.
"""

from storage.base import Clock, GameStore, utc_now
from storage.engine_info import current_engine_version
from storage.errors import (
    BackendError,
    ChannelBusy,
    DatabaseCorrupt,
    DatabaseMissing,
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
from storage.models import (
    ACTIVE_STATUSES,
    EntryKind,
    GameRecord,
    GameResult,
    GameSettings,
    GameStatus,
    GameSummary,
    HistoryItem,
    IntegrityProblem,
    LogEntry,
    PlayerStats,
    ReplayReport,
    Seat,
    SeatKind,
    is_pack_name,
)
from storage.replay import Replayer, default_replayer, load_replayer
from storage.sqlite import SNAPSHOT_EVERY, SqliteGameStore

__all__ = [
    "ACTIVE_STATUSES",
    "SNAPSHOT_EVERY",
    "BackendError",
    "ChannelBusy",
    "Clock",
    "DatabaseCorrupt",
    "DatabaseMissing",
    "EntryKind",
    "GameExport",
    "GameNotActive",
    "GameNotFound",
    "GameRecord",
    "GameResult",
    "GameSettings",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "HistoryItem",
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
    "RestoreFailed",
    "SchemaTooNew",
    "Seat",
    "SeatKind",
    "SqliteGameStore",
    "StorageError",
    "VersionConflict",
    "current_engine_version",
    "default_replayer",
    "dump_export",
    "is_pack_name",
    "load_export",
    "load_replayer",
    "utc_now",
]
