"""Subprocess used by the crash and multi-process tests (run with ``python -m``).

``crash`` mode: keeps ``--games`` channels each with an active toy game and writes
deterministic steps (see :func:`tests.storage.toy_game.crash_step`: actions, undos and
rollbacks) in a bounded loop, printing ``ACK <game_id> <version> <kind>`` (flushed) only after
each write has committed. Games that reach ``--finish-at`` are finished and replaced. The test
kills it with SIGKILL at random.

``contend`` mode: ``--iterations`` times, reload game ``--game`` and add 1 to its counter,
retrying on VersionConflict; prints ``DONE <saves> <conflicts>``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path

from storage import (
    GameRecord,
    GameResult,
    GameStatus,
    Seat,
    SqliteGameStore,
    VersionConflict,
)
from tests.storage import toy_game
from tests.storage.conftest import SETTINGS

PADDING = 3000  # makes every state span a page boundary


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


SNAPSHOT_EVERY = 5


async def crash_mode(db: Path, games: int, iterations: int, finish_at: int, seed: int) -> None:
    rng = random.Random(seed)
    async with SqliteGameStore(
        db, replayer=toy_game.replay, snapshot_every=SNAPSHOT_EVERY
    ) as store:
        emit("READY")
        current: dict[int, GameRecord] = {}
        last_kind: dict[int, str] = {}
        for channel in range(1, games + 1):
            record = await store.get_active_game(channel)
            if record is None:
                record = await store.create_game(
                    channel,
                    initial_state_json=toy_game.initial_state(PADDING),
                    settings=SETTINGS,
                    seats=[Seat.discord(0, 1), Seat.discord(1, 2)],
                    status=GameStatus.RUNNING,
                )
                emit(f"CREATED {record.id} {channel}")
            current[channel] = record
            last = await store.get_log(record.id, from_version=record.version)
            last_kind[channel] = last[0].kind.value
        for _ in range(iterations):
            channel = rng.randrange(1, games + 1)
            record = current[channel]
            version = record.version + 1
            op, value = toy_game.crash_step(record.id, version, last_kind[channel])
            if op == "undo":
                record = await store.undo(
                    record.id, value, by=version % 2, expected_version=record.version
                )
                last_kind[channel] = "undo"
            elif op == "rollback":
                record = await store.rollback(
                    record.id, value, by=7, reason="crash test", expected_version=record.version
                )
                last_kind[channel] = "rollback"
            else:
                action = toy_game.action(value)
                record = await store.save(
                    record.id,
                    expected_version=record.version,
                    state_json=toy_game.replay(record.state_json, action),
                    action_json=action,
                    seat=version % 2,
                    description=f"Adds {value}",
                )
                last_kind[channel] = "action"
            emit(f"ACK {record.id} {record.version} {last_kind[channel]}")
            if record.version >= finish_at:
                await store.finish_game(
                    record.id,
                    GameResult(scores={0: 1, 1: 2}, winners=frozenset({1})),
                    expected_version=record.version,
                )
                emit(f"FINISHED {record.id}")
                record = await store.create_game(
                    channel,
                    initial_state_json=toy_game.initial_state(PADDING),
                    settings=SETTINGS,
                    seats=[Seat.discord(0, 1), Seat.discord(1, 2)],
                    status=GameStatus.RUNNING,
                )
                emit(f"CREATED {record.id} {channel}")
                last_kind[channel] = "created"
            current[channel] = record
    emit("EXHAUSTED")


async def contend_mode(db: Path, game_id: int, iterations: int) -> None:
    saves = conflicts = 0
    async with SqliteGameStore(db) as store:
        emit("READY")
        while saves < iterations:
            record = await store.get_game(game_id)
            await asyncio.sleep(0)
            try:
                await store.save(
                    game_id,
                    expected_version=record.version,
                    state_json=toy_game.replay(record.state_json, toy_game.action(1)),
                    action_json=toy_game.action(1),
                )
            except VersionConflict:
                conflicts += 1
            else:
                saves += 1
    emit(f"DONE {saves} {conflicts}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["crash", "contend"])
    parser.add_argument("db", type=Path)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--game", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=100_000)
    parser.add_argument("--finish-at", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.mode == "crash":
        asyncio.run(crash_mode(args.db, args.games, args.iterations, args.finish_at, args.seed))
    else:
        asyncio.run(contend_mode(args.db, args.game, args.iterations))


if __name__ == "__main__":
    main()
