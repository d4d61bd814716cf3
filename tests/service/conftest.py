"""Fixtures for the game service and the local mode: real SQLite files in tmp dirs."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from rules.brazil import GameState, legal_actions
from service import GameService
from storage import SqliteGameStore


class UniformAgent:
    """Uniformly random legal choices (independent of the ``ai`` package)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, state: GameState, seat: int) -> Any:
        return self.rng.choice(legal_actions(state, seat))


def uniform_factory(level: str, seed: int) -> UniformAgent:
    return UniformAgent(seed)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteGameStore]:
    async with SqliteGameStore(str(tmp_path / "bot.sqlite3")) as s:
        yield s


@pytest.fixture
def service(store: SqliteGameStore) -> GameService:
    return GameService(store, agent_factory=uniform_factory)
