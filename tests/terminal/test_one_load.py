"""Issue 28: the service owns the turn, and a typed terminal command costs what a Discord press
costs: one load of the game, one validation of its state, at most one listing of the legal
actions by the platform — for every registered game.

Counted for real at the seams every game goes through: the store's reads of a game record,
the game's state class parsing JSON, and the game's face listing legal actions (the service
lists through the face: the face is replaced by a counting copy)."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rules.games
from service import GameService
from service.games import adapter
from service.results import SeatSpec
from storage import SqliteGameStore
from terminal.local import LocalGame, ScriptSource

LOADS = ("get_game", "get_active_game")
SAVES = "save"


@dataclasses.dataclass
class Counts:
    store: Counter[str] = dataclasses.field(default_factory=Counter)
    validations: int = 0
    listings: int = 0

    @property
    def loads(self) -> int:
        return sum(self.store[n] for n in LOADS)

    @property
    def others(self) -> int:
        """Steps saved beyond the typed one: the computer players' (each decided from a
        state of its own, parsed in its worker, after a look at its legal actions)."""
        return max(0, self.store[SAVES] - 1)


@contextlib.contextmanager
def counting(svc: GameService, game: str, mp: pytest.MonkeyPatch) -> Iterator[Counts]:
    """Count, while the block runs, what the platform does to the game (see module doc)."""
    c = Counts()
    store = svc.store
    for name in (*LOADS, SAVES):
        fn = getattr(store, name)

        def wrap(name: str, fn: Any) -> Any:
            @functools.wraps(fn)
            async def counted(*a: Any, **k: Any) -> Any:
                c.store[name] += 1
                return await fn(*a, **k)

            return counted

        mp.setattr(store, name, wrap(name, fn))
    A = adapter(game)
    face = A.face
    state_type = face.state_type
    original = state_type.model_validate_json.__func__

    def validate(cls: Any, *a: Any, **k: Any) -> Any:
        c.validations += 1
        return original(cls, *a, **k)

    mp.setattr(state_type, "model_validate_json", classmethod(validate))

    def listing(*a: Any, **k: Any) -> Any:
        c.listings += 1
        return face.legal_actions(*a, **k)

    counted_face = dataclasses.replace(face, legal_actions=listing)
    mp.setattr(A, "face", counted_face)
    mp.setitem(rules.games._LOADED, game, counted_face)
    yield c


async def _local(tmp_path: Path, game: str) -> tuple[GameService, LocalGame, SqliteGameStore]:
    store = SqliteGameStore(str(tmp_path / "g.sqlite3"))
    await store.open()
    svc = GameService(store)
    seats = [SeatSpec(name="Ana"), SeatSpec(name="AI random 2", ai="random")]
    res = await svc.new_game(seats, seed=11, game=game)
    out = io.StringIO()
    local = LocalGame(svc, res.game_id, seats, tmp_path / "out", out=out)
    local.game_name = game
    local.source = ScriptSource([], out)
    await local.run_ai()
    return svc, local, store


@pytest.mark.parametrize("game", rules.games.names())
async def test_a_typed_command_loads_the_game_once(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc, local, store = await _local(tmp_path, game)
    rng = random.Random(5)
    played = 0
    try:
        for _ in range(12):
            g = local.game
            assert g is not None
            if g.over:
                break
            seat = next(d.seat for d in g.decisions(choices=False) if not d.ai)
            face = adapter(game).face
            text = rng.choice(face.legal_texts(g.state, seat))
            with monkeypatch.context() as mp, counting(svc, game, mp) as c:
                await local.command(text, seat)
            assert local.game is not None and local.game.version > g.version, text
            assert c.loads == 1, (text, c)
            assert c.validations <= 1 + c.others, (text, c)
            assert c.listings <= 1 + c.others, (text, c)
            played += 1
    finally:
        await svc.aclose()
        await store.close()
    assert played >= 3


@pytest.mark.parametrize("game", rules.games.names())
@pytest.mark.parametrize("command", ["legal", "board", "score", "log", "undo"])
async def test_every_other_command_loads_the_game_once(
    tmp_path: Path, game: str, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc, local, store = await _local(tmp_path, game)
    try:
        g = local.game
        assert g is not None
        seat = next(d.seat for d in g.decisions(choices=False) if not d.ai)
        with monkeypatch.context() as mp, counting(svc, game, mp) as c:
            await local.command(command, seat)
        assert c.loads == 1, c
        assert c.validations == 1, c
        assert c.listings <= 1, c
    finally:
        await svc.aclose()
        await store.close()
