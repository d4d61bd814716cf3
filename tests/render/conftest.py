from __future__ import annotations

import pytest

from devtools.brazil.render_games import Snapshot, play


@pytest.fixture(scope="session")
def game4() -> list[Snapshot]:
    """A seeded, self-played 4-player game: one snapshot per turn."""
    return play(4, 1)
