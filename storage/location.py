"""Which store a setting names: :func:`open_store` takes ``BRAZIL_DB``'s value (a URL or a
path) and returns the store for it, not yet opened.

===========================================  ============================================
value                                        store
===========================================  ============================================
``postgresql://user:pw@host:5432/brazil``    :class:`~storage.postgres.PostgresGameStore`
``postgres://…`` (the same)                  (asyncpg URL: a Unix socket is
                                             ``postgresql:///brazil?host=/run/postgresql``)
``brazil.sqlite3``, ``/var/lib/brazil.db``   :class:`~storage.sqlite.SqliteGameStore`
``sqlite:///brazil.sqlite3`` (relative)      (the SQLAlchemy form: three slashes and a
``sqlite:////var/lib/brazil.db`` (absolute)  relative path, four and an absolute one)
===========================================  ============================================

Anything else with a ``scheme://`` (``mysql://``, ``sqlite://`` with no path, a typo such
as ``postgresq://``) is refused with :class:`~storage.errors.InvalidData` naming what is
accepted: it is never taken for a file name. Neither backend is imported until it is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from storage.errors import InvalidData

if TYPE_CHECKING:
    from storage.base import GameStore

__all__ = ["Location", "is_postgres_url", "open_store", "parse_location"]

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
    ``async with open_store(os.environ["BRAZIL_DB"]) as store: ...``.

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
