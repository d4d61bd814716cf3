"""Storage (:class:`storage.SqliteGameStore`) with every registered game: the games saved step
by step as the service saves them (the adapter's JSON of states, actions and events), read
back at every version by ``state_at`` (snapshots plus the game's own replayer) — one game per
database, and every game in one database and one process, read interleaved."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from service.games import adapter
from storage import GameResult, GameSettings, GameStatus, Seat, SqliteGameStore
from tests.conformance.common import GAMES, SEEDS, Case, few_cases, recorded

STEPS = 100
"""The steps saved of each recorded game (its first ones)."""
SNAPSHOT_EVERY = 7
"""A snapshot every 7 versions: most versions are read by replaying a few steps."""


async def _save(store: SqliteGameStore, case: Case, channel: int) -> tuple[int, list[str]]:
    """``case``'s recorded game saved step by step: its id and the state's JSON per version."""
    A = adapter(case.game)
    rec = recorded(case)
    first = A.load(rec.states[0])
    record = await store.create_game(
        channel,
        initial_state_json=rec.states[0],
        settings=GameSettings(
            scenario=A.scenario_of(first), player_count=case.players, seed=A.seed_of(first)
        ),
        seats=[Seat.ai(n, "random") for n in range(case.players)],
        status=GameStatus.RUNNING,
        game=case.game,
    )
    states = [rec.states[0]]
    for i, action in enumerate(rec.actions[:STEPS]):
        after = rec.states[i + 1]
        final = A.final_result(A.load(after))
        record = await store.save(
            record.id,
            expected_version=record.version,
            state_json=after,
            action_json=A.action_json(action),
            seat=rec.seats[i],
            events_json=A.events_json(rec.events[i]),
            description=A.describe(A.load(rec.states[i]), action),
            result=None if final is None else _result(final),
        )
        states.append(after)
    assert record.version == len(states) - 1
    return record.id, states


def _result(final: tuple[dict[int, int], frozenset[int]]) -> GameResult:
    return GameResult(scores=final[0], winners=final[1])


@pytest.mark.parametrize("case", few_cases(), ids=str)
async def test_state_at_every_version_is_the_recorded_state(tmp_path: Path, case: Case) -> None:
    async with SqliteGameStore(
        str(tmp_path / "games.sqlite3"), snapshot_every=SNAPSHOT_EVERY
    ) as store:
        gid, states = await _save(store, case, 1)
        assert (await store.get_game(gid)).game == case.game
        for v in reversed(range(len(states))):
            assert await store.state_at(gid, v) == states[v], f"version {v}"
        report = await store.replay(gid, store.replayer_for(case.game))
        assert report.ok and report.steps == len(states) - 1


@pytest.mark.slow
@pytest.mark.parametrize("first", GAMES)
async def test_every_game_in_one_database_read_interleaved(tmp_path: Path, first: str) -> None:
    """Games of every registered game (``first``'s saved and read first) in one database:
    ``state_at`` of each, interleaved across the games for many versions, is its recorded
    state."""
    order = GAMES[GAMES.index(first) :] + GAMES[: GAMES.index(first)]
    saved: list[tuple[int, list[str]]] = []
    async with SqliteGameStore(
        str(tmp_path / "games.sqlite3"), snapshot_every=SNAPSHOT_EVERY
    ) as store:
        for k, seed in enumerate(SEEDS[:2]):
            for n, name in enumerate(order):
                case = Case(name, adapter(name).face.max_players, seed)
                saved.append(await _save(store, case, 100 * k + n + 1))
        rng = random.Random(len(first))
        reads = [(gid, v, states) for gid, states in saved for v in range(len(states))]
        # every game's versions, round robin across the games, each game's in random order
        by_game = [rng.sample(reads_of, len(reads_of)) for reads_of in _per_game(reads)]
        for i in range(max(len(r) for r in by_game)):
            for reads_of in by_game:
                if i < len(reads_of):
                    gid, v, states = reads_of[i]
                    assert await store.state_at(gid, v) == states[v], f"game {gid} v{v}"


def _per_game(
    reads: list[tuple[int, int, list[str]]],
) -> list[list[tuple[int, int, list[str]]]]:
    out: dict[int, list[tuple[int, int, list[str]]]] = {}
    for r in reads:
        out.setdefault(r[0], []).append(r)
    return list(out.values())
