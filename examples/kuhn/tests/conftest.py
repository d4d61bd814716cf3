"""Kuhn poker's tests: the game registered, the service on a real SQLite file.

The game registers itself through the entry point ``kuhn`` of ``turnpost.games``
(``pyproject.toml``); a checkout whose installed metadata predates that line (the editable
install is made from it: ``pip install -e .`` again) does not list it, so it is registered
here, in this process, before anything reads the registrations. It must come before
:mod:`service.rulebook` is imported: its ``GAME_PATHS`` is built from the registrations at
import time."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from rules.registry import register, registration

if registration("kuhn") is None:
    assert "service.rulebook" not in sys.modules, "service.rulebook read the games already"
    from examples.kuhn.registration import REGISTRATION

    register(REGISTRATION)

from service import GameService, WorkerPool
from storage import SqliteGameStore


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteGameStore]:
    async with SqliteGameStore(str(tmp_path / "kuhn.sqlite3")) as s:
        yield s


@pytest.fixture
async def service(store: SqliteGameStore) -> AsyncIterator[GameService]:
    """The service with its work in threads (a worker process would read the installed
    registrations, without this process's) and the games' registered agents."""
    svc = GameService(store, workers=WorkerPool(0))
    yield svc
    await svc.aclose()
