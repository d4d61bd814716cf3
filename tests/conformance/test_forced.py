"""No step without a decision (issue #29), for every registered game: after every press through
the service's one use case (:class:`service.turn.TurnService`), no human seat is left asked a
decision with one legal answer — the service answered it (the kinds are the adapter's
``forced_answers``), as every surface calls the same use case. Played by random human
presses from many seeds, all seats human (nobody's computer player hides the property)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from service import GameService
from service.games import adapter
from storage import SqliteGameStore
from tests.conformance.common import GAMES, two_and_most

PRESSES = 120
SEEDS = (1, 2, 3, 4)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    async with SqliteGameStore(str(tmp_path / "games.sqlite3"), snapshot_every=8) as store:
        svc = GameService(store)
        try:
            yield svc
        finally:
            await svc.aclose()


async def _play(svc: GameService, game: str, seed: int) -> tuple[int, int]:
    """Random presses of human seats; returns (presses, steps the service answered itself)."""
    A = adapter(game)
    players = two_and_most(game)[0]
    res = await svc.new_game([f"P{i + 1}" for i in range(players)], game=game, seed=seed)
    played = await svc.turns.announce(res)  # the first decision may have one answer too
    answered = len(played.steps)
    rng = random.Random(seed)
    presses = 0
    for _ in range(PRESSES):
        s = played.game
        if s.over:
            break
        deciders = A.face.deciders(s.state)
        for seat in deciders:
            one = len(A.face.legal_actions(s.state, seat)) == 1
            assert not one, (seed, s.version, seat, A.pending_kind(s.state, seat))
        seat = deciders[0]
        acts = A.face.legal_actions(s.state, seat)
        k = rng.randrange(len(acts))
        played = await svc.turns.press(s.game_id, seat, index=k, version=s.version, action=acts[k])
        assert not played.refused, played.command.errors
        assert played.game.version == s.version + 1 + len(played.steps)
        presses += 1
        answered += len(played.steps)
    return presses, answered


@pytest.mark.parametrize("game", GAMES)
async def test_no_human_is_asked_a_decision_with_one_answer(
    service: GameService, game: str
) -> None:
    A = adapter(game)
    total = 0
    for seed in SEEDS:
        presses, answered = await _play(service, game, seed)
        assert presses > 0
        total += answered
    if A.forced_answers and "turn" in A.forced_answers:
        # a game that ends a turn by itself did so in these games: the property was tested
        assert total > 0
