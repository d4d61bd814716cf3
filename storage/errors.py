"""Exceptions raised by the storage layer.

Every exception derives from :class:`StorageError`, so a caller can catch them all at once.
They are part of the :class:`storage.base.GameStore` contract: every backend raises the same
ones, and none of them exposes SQL or driver details to callers.

A refusal that people read (a file that is not a game database, an unknown game...) carries
a message ``key`` of the catalogue (``storage.error.*``, in ``i18n/locales/<lang>/``) and its
``params``: ``e.text(lang)`` is the refusal in a reader's language, ``str(e)`` its English.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Self

_NO_PARAMS: Mapping[str, Any] = MappingProxyType({})


def english(key: str, params: Mapping[str, Any]) -> str:
    """The English text of message ``key`` (``i18n`` is imported when a refusal is made)."""
    from i18n import tr

    return tr("en", key, **params)


class StorageError(Exception):
    """Base class of every error raised by ``storage``. ``key`` and ``params``: its message
    in every language ("" for an error that has only its English text)."""

    key: str = ""
    params: Mapping[str, Any] = _NO_PARAMS

    @classmethod
    def of(cls, key: str, /, **params: Any) -> Self:
        """The error of message ``key`` with ``params`` (``str()``: its English)."""
        err = cls(english(key, params))
        err.key, err.params = key, params
        return err

    def _keyed(self, key: str, /, **params: Any) -> str:
        """Give this error message ``key``; returns its English (for ``__init__``)."""
        self.key, self.params = key, params
        return english(key, params)

    def text(self, lang: str = "en") -> str:
        """The refusal in ``lang`` (its English text when it has no key)."""
        if not self.key:
            return str(self)
        from i18n import tr

        return tr(lang, self.key, **self.params)


class GameNotFound(StorageError):
    """No game with this id (or no game in this channel)."""

    def __init__(self, game_id: int | None = None, *, channel_id: int | None = None) -> None:
        self.game_id = game_id
        self.channel_id = channel_id
        if channel_id is not None and game_id is None:
            message = self._keyed("storage.error.no_game_in_channel", channel=channel_id)
        else:
            message = self._keyed("storage.error.no_game", game=game_id)
        super().__init__(message)


class VersionConflict(StorageError):
    """A write named a version that is no longer the game's current version.

    Another write came first: reload the game, recompute, and try again (or tell the player).
    """

    def __init__(self, game_id: int, *, expected: int, actual: int) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"game {game_id}: the write was computed from version {expected}, "
            f"but the game is now at version {actual}"
        )


class ChannelBusy(StorageError):
    """The channel already has an active game (lobby, setup or running)."""

    def __init__(self, channel_id: int, *, game_id: int) -> None:
        self.channel_id = channel_id
        self.game_id = game_id
        super().__init__(
            f"channel {channel_id} already has an active game (id {game_id}); finish or "
            "abandon it first, or use another channel"
        )


class GameNotActive(StorageError):
    """The game is finished or abandoned: it can be read but no longer changed."""

    def __init__(self, game_id: int, *, status: str) -> None:
        self.game_id = game_id
        self.status = status
        if status in ("finished", "abandoned"):
            message = self._keyed(f"storage.error.{status}", game=game_id)
        else:
            message = self._keyed("storage.error.not_active", game=game_id, status=status)
        super().__init__(message)


class InvalidTransition(StorageError):
    """A status change that the game lifecycle does not allow (e.g. running -> lobby)."""

    def __init__(self, game_id: int, *, from_status: str, to_status: str) -> None:
        self.game_id = game_id
        self.from_status = from_status
        self.to_status = to_status
        super().__init__(f"game {game_id}: cannot go from {from_status} to {to_status}")


class GameExists(StorageError):
    """A game with this id is already stored (loading a copied game never overwrites one)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(self._keyed("storage.error.game_exists", game=game_id))


class BackendError(StorageError):
    """The database itself failed (disk full, corrupt file, locked for too long...).

    Raised instead of the driver's own exception so callers never handle SQL errors; the
    original is chained as ``__cause__``. A failed write changed nothing.
    """


class DatabaseCorrupt(BackendError):
    """The database file is damaged (SQLite reports corruption): restore a backup.

    The command line reports it as a problem found (exit code 1), like ``check``."""


class RestoreFailed(StorageError):
    """An old version of a game could not be restored: replaying the logged actions from the
    nearest snapshot did not give the logged state (e.g. the game was recorded under another
    rules engine version), or the replay failed."""


class InvalidData(StorageError, ValueError):
    """A value handed to storage is malformed (e.g. a state that is not valid JSON)."""


class SchemaTooNew(StorageError):
    """The database was written by a newer version of this program."""

    def __init__(self, *, found: int, supported: int, where: str | None = None) -> None:
        self.found = found
        self.supported = supported
        if where is None:  # "the database"
            message = self._keyed("storage.error.too_new", found=found, supported=supported)
        else:
            message = self._keyed(
                "storage.error.too_new_at", where=where, found=found, supported=supported
            )
        super().__init__(message)


class NotAGameDatabase(StorageError):
    """The file is an SQLite database, but not one of ours (or not an SQLite file at all), or
    the PostgreSQL database holds another application's tables."""


class DatabaseMissing(StorageError):
    """Opening without ``create=True`` and the database file does not exist (or, on
    PostgreSQL, the database has no game schema yet)."""


class InvalidExport(StorageError, ValueError):
    """An export file is malformed, from an unknown format version, or its log is broken."""


class ReplayerUnavailable(StorageError):
    """The default replayer (``rules.brazil.replay_step``) cannot be imported."""
