"""Subprocess of the rating kill test (``python -m tests.devtools.rating_kill_worker DB``).

Plays short toy games of one server to their end in a bounded loop: each game (2 or 3 seats
from a small pool of users, sometimes a computer seat or a stand-in) gets one step, then its
last step with the result and the rating rules (:data:`service.ratings.RULES`), as the
service saves a natural end. Prints ``ACK <game id>`` (flushed) only after that save has
committed. The first game starts a season, so each game updates two tables.

With ``--pause`` the store stops *inside* a rating update, between the all-time table's
rows and the season's (before COMMIT), prints ``IN-RATING <game id>`` and waits there for
the test's SIGKILL.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from service.ratings import RULES
from storage import GameResult, GameStatus, Seat, SqliteGameStore
from storage.models import SeatKind
from storage.ratings import RatingRow
from tests.storage import toy_game
from tests.storage.conftest import SETTINGS

GUILD = 5
GAME = "brazil"
USERS = (1, 2, 3, 4)


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class PausingRatingStore(SqliteGameStore):
    """Test-only: with ``pause``, a rating update stops after its first table's rows."""

    pause = False
    current = 0

    async def _upsert_ratings(self, db: Any, rows: Sequence[RatingRow]) -> None:
        await super()._upsert_ratings(db, rows)
        if self.pause and rows and rows[0].season == 0:
            emit(f"IN-RATING {self.current}")
            time.sleep(60)  # blocks the loop inside the open transaction: killed here


def seats_for(rng: random.Random) -> list[Seat]:
    users = rng.sample(USERS, rng.choice((2, 3)))
    seats = [Seat.discord(n, user, name=f"P{user}") for n, user in enumerate(users)]
    roll = rng.random()
    if roll < 0.2:
        seats[-1] = Seat.ai(len(seats) - 1, "heuristic")
    elif roll < 0.35:
        last = seats[-1]
        seats[-1] = Seat(
            seat=last.seat, kind=SeatKind.DISCORD, user_id=last.user_id, ai_level="random"
        )
    return seats


async def run(db: Path, seed: int, games: int, pause_after: int | None) -> None:
    rng = random.Random(seed)
    async with PausingRatingStore(db, replayer=toy_game.replay) as store:
        emit("READY")
        if not await store.seasons(GUILD, GAME):
            await store.start_season(GUILD, GAME, "Kill test", by=9)
        for n in range(games):
            record = await store.create_game(
                1000 + seed,  # a channel per run: the game a kill cut stays active in its own
                initial_state_json=toy_game.initial_state(),
                settings=SETTINGS,
                guild_id=GUILD,
                seats=seats_for(rng),
                status=GameStatus.RUNNING,
            )
            action = toy_game.action(1)
            record = await store.save(
                record.id,
                expected_version=0,
                state_json=toy_game.replay(record.state_json, action),
                action_json=action,
                seat=0,
            )
            scores = {s.seat: rng.randrange(4) for s in record.seats}
            best = max(scores.values())
            store.current = record.id
            store.pause = pause_after is not None and n >= pause_after
            await store.save(
                record.id,
                expected_version=record.version,
                state_json=toy_game.replay(record.state_json, action),
                action_json=action,
                seat=1,
                result=GameResult(
                    scores=scores,
                    winners=frozenset(seat for seat, score in scores.items() if score == best),
                ),
                rating=RULES,
            )
            emit(f"ACK {record.id}")
    emit("EXHAUSTED")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pause-after", type=int, default=None)
    args = parser.parse_args()
    asyncio.run(run(args.db, args.seed, args.games, args.pause_after))


if __name__ == "__main__":
    main()
