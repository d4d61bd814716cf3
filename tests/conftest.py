"""Test-wide set-up: the tests' data packs (tests/data/NAME) are looked up by name, and the
PostgreSQL tests are marked ``slow``.

The quick loop (tests/README.md): ``.venv/bin/python -m pytest -q -m "not slow"`` (or
``SKIP_LINT=1 bash scripts/test.sh -m "not slow"``) leaves out the tests marked ``slow``:
whole games, tournaments, the real browser, PostgreSQL, child processes, and any test that
takes more than about a second. CI runs everything.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.brazil.catalog import packs_folder, set_packs_folder

TEST_PACKS = Path(__file__).parent / "data"


def pytest_configure(config: pytest.Config) -> None:
    # Before collection: test modules load the "pack" catalog at import time.
    set_packs_folder(TEST_PACKS)


PG_FIXTURES = frozenset({"pg_server", "pg_url"})
"""Fixtures of tests/storage/conftest.py that give a test a PostgreSQL server."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test on PostgreSQL is slow (a database made and dropped per test, a server started
    once): those asking for the server or a database, and the ``postgres`` instances of the
    backend-neutral storage tests (``backend``, tests/storage/conftest.py)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_pg = PG_FIXTURES.intersection(getattr(item, "fixturenames", ())) or (
            callspec is not None and callspec.params.get("backend") == "postgres"
        )
        if on_pg:
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """``@pytest.mark.requires("module", ...)``: the test is skipped, saying why, when a module
    of an optional extra does not import (the ``terminal`` extra's prompt_toolkit, the ``dev``
    extra's playwright). PostgreSQL skips in its own fixture (tests/storage/pg_server.py)."""
    for mark in item.iter_markers("requires"):
        for module in mark.args:
            pytest.importorskip(module, reason=f"{module} is not installed (an optional extra)")


@pytest.fixture(autouse=True)
def tests_packs_folder() -> Iterator[None]:
    """Every test starts with tests/data as the packs folder (a test may change it)."""
    if packs_folder() != TEST_PACKS:
        set_packs_folder(TEST_PACKS)
    yield
