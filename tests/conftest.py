"""Test-wide set-up: the tests' data packs (tests/data/NAME) are looked up by name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.brazil.catalog import packs_folder, set_packs_folder

TEST_PACKS = Path(__file__).parent / "data"


def pytest_configure(config: pytest.Config) -> None:
    # Before collection: test modules load the "pack" catalog at import time.
    set_packs_folder(TEST_PACKS)


@pytest.fixture(autouse=True)
def tests_packs_folder() -> Iterator[None]:
    """Every test starts with tests/data as the packs folder (a test may change it)."""
    if packs_folder() != TEST_PACKS:
        set_packs_folder(TEST_PACKS)
    yield
