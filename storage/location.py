"""Which store a setting names: :func:`open_store` takes ``TURNPOST_DB``'s value (a URL or a
path) and returns the store for it, not yet opened.

===========================================  ============================================
value                                        store
===========================================  ============================================
``postgresql://user:pw@host:5432/brazil``    :class:`~storage.postgres.PostgresGameStore`
``postgres://…`` (the same)                  (asyncpg URL: a Unix socket is
                                             ``postgresql:///brazil?host=/run/postgresql``)
``turnpost.sqlite3``, ``/var/lib/brazil.db``   :class:`~storage.sqlite.SqliteGameStore`
``sqlite:///turnpost.sqlite3`` (relative)      (the SQLAlchemy form: three slashes and a
``sqlite:////var/lib/brazil.db`` (absolute)  relative path, four and an absolute one)
===========================================  ============================================

Anything else with a ``scheme://`` (``mysql://``, ``sqlite://`` with no path, a typo such
as ``postgresq://``) is refused with :class:`~storage.errors.InvalidData` naming what is
accepted: it is never taken for a file name. Neither backend is imported until it is used.

:func:`open_readable` opens a store only to read it (``check``, ``export-html``): an SQLite
database this user may not write (the file, or the folder where SQLite keeps its journal) is
read in a copy, and nothing is written beside it.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from storage.errors import (
    BackendError,
    DatabaseCorrupt,
    DatabaseMissing,
    InvalidData,
    NotAGameDatabase,
    StorageError,
)

if TYPE_CHECKING:
    from storage.base import GameStore

__all__ = [
    "Location",
    "is_postgres_url",
    "open_readable",
    "open_store",
    "parse_location",
    "read_only",
    "snapshot",
]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_POSTGRES_SCHEMES = ("postgresql", "postgres")

_SQLITE_OPTIONS = frozenset({"synchronous", "busy_timeout_ms"})
_POSTGRES_OPTIONS = frozenset({"pool_size", "connect_timeout"})


@dataclass(frozen=True)
class Location:
    """Where a store lives: ``kind`` and its ``target`` (a file path, or the URL as given)."""

    kind: Literal["sqlite", "postgres"]
    target: str

    def describe(self) -> str:
        """What to show people: the path, or the URL without its password."""
        if self.kind == "postgres":
            from storage.postgres import redact_url

            return redact_url(self.target)
        return self.target


def is_postgres_url(text: str) -> bool:
    """True for ``postgresql://…`` and ``postgres://…``."""
    found = _SCHEME.match(text.strip())
    return found is not None and found.group(1).lower() in _POSTGRES_SCHEMES


def parse_location(text: str | Path) -> Location:
    """The store ``text`` names (see the module doc); ``InvalidData`` if it names none."""
    if isinstance(text, Path):
        return Location("sqlite", str(text))
    if not isinstance(text, str) or not text.strip():
        raise InvalidData.of("storage.error.no_location")
    value = text.strip()
    found = _SCHEME.match(value)
    if found is None:
        return Location("sqlite", value)
    scheme = found.group(1).lower()
    if scheme in _POSTGRES_SCHEMES:
        return Location("postgres", value)
    if scheme == "sqlite":
        rest = value[found.end() :]
        if not rest.startswith("/") or rest == "/":
            raise InvalidData.of("storage.error.sqlite_url", value=repr(value))
        path = rest[1:]
        if "?" in path or "#" in path:
            raise InvalidData.of("storage.error.sqlite_url_options", value=repr(value))
        return Location("sqlite", path)
    raise InvalidData.of("storage.error.scheme", scheme=repr(value.split("://", 1)[0]))


def open_store(location: str | Path, **options: Any) -> GameStore:
    """The store ``location`` names (a path or a URL, see the module doc), not yet opened:
    ``async with open_store(os.environ["TURNPOST_DB"]) as store: ...``.

    ``options`` go to the store's constructor: those both take (``clock``, ``create``,
    ``replayer``, ``snapshot_every``, ``engine_version``, ``cache_reads``) always; the
    SQLite-only ones (``synchronous``, ``busy_timeout_ms``) only to SQLite and the
    PostgreSQL-only ones (``pool_size``, ``connect_timeout``) only to PostgreSQL, so one
    call suits both. ``InvalidData`` for a location that names no store."""
    where = parse_location(location)
    if where.kind == "postgres":
        from storage.postgres import PostgresGameStore

        kept = {k: v for k, v in options.items() if k not in _SQLITE_OPTIONS}
        return PostgresGameStore(where.target, **kept)
    from storage.sqlite import SqliteGameStore

    kept = {k: v for k, v in options.items() if k not in _POSTGRES_OPTIONS}
    return SqliteGameStore(where.target, **kept)


def read_only(path: str | Path) -> bool:
    """True for an existing file this user may not write, or in a folder it may not write
    (where SQLite cannot make the journal, ``-wal`` and ``-shm``, beside the database)."""
    p = Path(path)
    if not p.is_file():
        return False
    return not os.access(p, os.W_OK) or not os.access(p.parent, os.W_OK | os.X_OK)


def snapshot(path: str | Path, copy: str | Path) -> None:
    """Copy the SQLite database ``path`` into the new file ``copy`` without writing anything
    at ``path``: SQLite's backup from a read-only connection (``immutable`` when no
    write-ahead log is beside it: nobody has it open to write), else, when the log cannot be
    read in place, the file and its log byte for byte (opening the copy replays the log).
    :class:`~storage.errors.NotAGameDatabase` for a file that is not an SQLite one."""
    source_path, copy_path = Path(path), Path(copy)
    with source_path.open("rb") as handle:
        header = handle.read(16)
    if header and header != b"SQLite format 3\x00":
        raise NotAGameDatabase.of("storage.error.not_sqlite_file", path=str(source_path))
    wal = Path(f"{source_path}-wal")
    logged = wal.is_file() and wal.stat().st_size > 0
    uri = f"{source_path.resolve().as_uri()}?mode=ro" + ("" if logged else "&immutable=1")
    try:
        source = sqlite3.connect(uri, uri=True)
        try:
            target = sqlite3.connect(copy_path)
            try:
                source.backup(target)
            finally:
                target.close()
        finally:
            source.close()
    except sqlite3.Error:
        if not logged:
            raise
        copy_path.unlink(missing_ok=True)
        shutil.copyfile(source_path, copy_path)
        shutil.copyfile(wal, Path(f"{copy_path}-wal"))


def _named_as_given(exc: StorageError, copy: Path, path: Path) -> StorageError:
    """``exc`` about the copy, its text naming the database as given (its class kept)."""
    text = str(exc).replace(str(copy), str(path))
    for kind in (DatabaseCorrupt, NotAGameDatabase, DatabaseMissing, BackendError):
        if isinstance(exc, kind):
            return kind(text)
    return StorageError(text)


@asynccontextmanager
async def open_readable(
    location: str | Path, **options: Any
) -> AsyncIterator[tuple[GameStore, bool]]:
    """The store ``location`` names, opened to be read (never created), and whether it is a
    copy: an SQLite database this user may not write (:func:`read_only`) is read in a copy
    made by :func:`snapshot` in a temporary folder (removed afterwards), so nothing is
    written beside it; an error names the database as given, not the copy. ``options``: as
    :func:`open_store`'s."""
    where = parse_location(location)
    path = Path(where.target)
    if where.kind != "sqlite" or not read_only(path):
        async with open_store(location, create=False, **options) as store:
            yield store, False
        return
    with tempfile.TemporaryDirectory(prefix="turnpost-read-") as tmp:
        copy = Path(tmp) / path.name
        try:
            await asyncio.to_thread(snapshot, path, copy)
            store = open_store(copy, create=False, **options)
            await store.open()
        except StorageError as exc:
            raise _named_as_given(exc, copy, path) from exc
        except sqlite3.Error as exc:
            raise BackendError(f"cannot read {path} without writing to it: {exc}") from exc
        try:
            yield store, True
        finally:
            await store.close()
