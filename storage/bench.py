"""``python -m storage bench``: how fast saves, loads and restores are, on a throw-away database.

Measures the median and 95th percentile of :meth:`~storage.base.GameStore.save` and
:meth:`~storage.base.GameStore.get_game` for a late-game 4-player state, the time to restore
the state of a version 500 steps back (:meth:`~storage.base.GameStore.state_at`: nearest
snapshot + replay, as undo and rollback do), then fills the database to N games (1,000 by
default) and measures the throughput of saves spread over all of them. The state is a real one
(from rules self-play, or ``--state-file``) or a synthetic state of realistic size and shape.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from storage.models import GameSettings, GameStatus, Seat
from storage.replay import Replayer
from storage.sqlite import SqliteGameStore

__all__ = [
    "RESTORE_STEPS_BACK",
    "BenchResult",
    "RestoreGame",
    "run_bench",
    "synthetic_late_game_state",
    "synthetic_restore_game",
]

RESTORE_STEPS_BACK = 500


@dataclass
class RestoreGame:
    """A game to time restores on: its initial state, its steps ``(action_json, state_json
    after it)`` and the replayer that turns one into the other."""

    source: str
    initial_state_json: str
    steps: list[tuple[str, str]]
    replayer: Replayer


def _synthetic_replay(state_json: str, action_json: str) -> str:
    state = json.loads(state_json)
    state["bench_seq"] = json.loads(action_json)["seq"]
    return json.dumps(state)


def synthetic_restore_game(state_json: str, steps: int = RESTORE_STEPS_BACK + 40) -> RestoreGame:
    """A stand-in game over ``state_json``: each action sets a sequence number (the replayer
    parses and re-serialises the whole state, as a real one does, but applies no rules)."""
    history: list[tuple[str, str]] = []
    current = state_json
    for seq in range(1, steps + 1):
        action = json.dumps({"seq": seq})
        current = _synthetic_replay(current, action)
        history.append((action, current))
    return RestoreGame("synthetic replayer (no rules)", state_json, history, _synthetic_replay)


COLOURS = ("red", "blue", "green", "yellow")
TERRAINS = ("forest", "plains", "mountain", "coast", "jungle", "river", "sea")
UNITS = ("infantry", "cavalry", "artillery", "ship", "settler")
BUILDINGS = ("town", "city", "fort", "farm", "mine", "port", "church", "market")


def synthetic_late_game_state(*, seed: int = 1822, hexes: int = 170) -> dict[str, Any]:
    """A stand-in for a late-game 4-player state (about 60 KB of JSON, nested like the real
    thing will be: map hexes with owners, buildings and units; players with resources, hands,
    decks and scores; shared decks; the recent event history)."""
    rng = random.Random(seed)

    def card(prefix: str) -> dict[str, Any]:
        return {
            "id": f"{prefix}-{rng.randrange(1000):03d}",
            "cost": rng.randrange(0, 9),
            "tags": rng.sample(["trade", "war", "faith", "science", "culture"], 2),
        }

    board = []
    for index in range(hexes):
        owner = rng.choice([*COLOURS, None])
        board.append(
            {
                "id": f"h{index:03d}",
                "q": index % 13 - 6,
                "r": index // 13 - 5,
                "terrain": rng.choice(TERRAINS),
                "region": f"region-{index % 11}",
                "owner": owner,
                "building": (
                    {"type": rng.choice(BUILDINGS), "level": rng.randrange(1, 4)}
                    if owner and rng.random() < 0.5
                    else None
                ),
                "units": [
                    {"id": f"u{index}-{k}", "type": rng.choice(UNITS), "owner": owner, "hp": 2}
                    for k in range(rng.randrange(0, 4) if owner else 0)
                ],
                "resources": {"wood": rng.randrange(3), "ore": rng.randrange(3)},
            }
        )
    players = [
        {
            "colour": colour,
            "leader": f"leader-{rng.randrange(12)}",
            "treasury": {
                "gold": rng.randrange(40),
                "wood": rng.randrange(15),
                "ore": rng.randrange(15),
                "food": rng.randrange(15),
            },
            "hand": [card("c") for _ in range(7)],
            "deck": [card("c") for _ in range(18)],
            "discard": [card("c") for _ in range(14)],
            "missions": [
                {"id": f"m-{rng.randrange(60)}", "done": rng.random() < 0.5} for _ in range(4)
            ],
            "techs": sorted(rng.sample(range(40), 12)),
            "score": {
                "total": rng.randrange(60, 140),
                "breakdown": {
                    k: rng.randrange(30)
                    for k in ("land", "buildings", "missions", "wonders", "gold")
                },
            },
            "passed": False,
        }
        for colour in COLOURS
    ]
    history = [
        {
            "turn": 60 - k,
            "seat": COLOURS[k % 4],
            "type": rng.choice(["move", "build", "attack", "play", "pass"]),
            "detail": {
                "from": f"h{rng.randrange(hexes):03d}",
                "to": f"h{rng.randrange(hexes):03d}",
            },
        }
        for k in range(40)
    ]
    return {
        "schema": "bench-synthetic",
        "scenario": "standard",
        "round": 9,
        "turn": 61,
        "phase": "action",
        "active_seat": "blue",
        "seed": seed,
        "map": {"name": "standard", "hexes": board},
        "players": players,
        "decks": {
            "market": [card("k") for _ in range(6)],
            "draw": [card("k") for _ in range(45)],
            "events": [card("e") for _ in range(20)],
            "missions": [{"id": f"m-{k}", "points": rng.randrange(3, 9)} for k in range(24)],
        },
        "history": history,
    }


@dataclass
class BenchResult:
    """Figures from :func:`run_bench` (times in milliseconds)."""

    state_source: str
    state_bytes: int
    synchronous: str
    save_ms: list[float]
    load_ms: list[float]
    games: int
    fill_seconds: float
    throughput_saves: int
    throughput_seconds: float
    throughput_save_ms: list[float]
    full_load_ms: list[float]
    db_bytes: int
    restore_ms: list[float]
    restore_back: int
    restore_source: str
    snapshot_every: int

    @property
    def saves_per_second(self) -> float:
        return self.throughput_saves / self.throughput_seconds if self.throughput_seconds else 0.0

    def lines(self) -> list[str]:
        def figures(samples: list[float]) -> str:
            if not samples:
                return "no samples"
            return f"median {median(samples):.3f} ms, p95 {p95(samples):.3f} ms"

        def verdict(samples: list[float]) -> str:
            return (
                ""
                if not samples
                else (
                    "  (target < 5 ms: met)" if median(samples) < 5 else "  (target < 5 ms: MISSED)"
                )
            )

        restore_verdict = ""
        if self.restore_ms:
            met = "met" if median(self.restore_ms) < 20 else "MISSED"
            restore_verdict = f"  (target < 20 ms: {met})"
        return [
            f"state: {self.state_source} ({self.state_bytes:,} bytes of JSON)",
            f"database: temporary SQLite file, WAL, synchronous={self.synchronous}",
            f"save, 1 game in the database ({len(self.save_ms)} saves): "
            f"{figures(self.save_ms)}{verdict(self.save_ms)}",
            f"load, 1 game in the database ({len(self.load_ms)} loads): "
            f"{figures(self.load_ms)}{verdict(self.load_ms)}",
            f"restore a version {self.restore_back} steps back ({len(self.restore_ms)} "
            f"restores, snapshot every {self.snapshot_every} versions, "
            f"{self.restore_source}): {figures(self.restore_ms)}{restore_verdict}",
            f"filled the database to {self.games:,} games in {self.fill_seconds:.2f} s",
            f"save throughput, {self.games:,} games ({self.throughput_saves:,} saves spread "
            f"over all games): {self.saves_per_second:,.0f} saves/s "
            f"({figures(self.throughput_save_ms)})",
            f"load, {self.games:,} games in the database ({len(self.full_load_ms)} loads): "
            f"{figures(self.full_load_ms)}",
            f"database size: {self.db_bytes / 1e6:.1f} MB",
        ]


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _variant_maker(state_json: str) -> Callable[[int], str]:
    """Distinct but equally large states (a sequence number spliced into the object)."""
    stripped = state_json.strip()
    if stripped.startswith("{") and stripped[1:].lstrip().startswith('"'):
        body = stripped[1:]
        return lambda i: '{"bench_seq":' + str(i) + "," + body
    return lambda i: state_json


async def run_bench(
    db_path: Path,
    *,
    state_json: str,
    state_source: str,
    saves: int = 300,
    loads: int = 300,
    games: int = 1000,
    throughput_saves: int = 2000,
    synchronous: Literal["NORMAL", "FULL", "EXTRA"] = "NORMAL",
    progress: Callable[[str], None] | None = None,
    restore_game: RestoreGame | None = None,
    restores: int = 32,
) -> BenchResult:
    """Run the benchmark on a new database at ``db_path`` (which must not exist yet).
    ``restore_game`` (default: :func:`synthetic_restore_game` over ``state_json``) is saved
    step by step, then ``restores`` versions about 500 steps back are restored."""
    if db_path.exists():
        raise FileExistsError(f"{db_path} exists: the benchmark needs a fresh database")
    json.loads(state_json)  # fail early on a bad --state-file
    say = progress or (lambda message: None)
    variant = _variant_maker(state_json)
    settings = GameSettings(scenario="standard", player_count=4, turn_timer_seconds=86400)
    seats = [Seat.discord(k, 1000 + k) for k in range(len(COLOURS))]
    clock = time.perf_counter
    game = restore_game or synthetic_restore_game(state_json)
    async with SqliteGameStore(db_path, synchronous=synchronous, replayer=game.replayer) as store:
        first = await store.create_game(
            1,
            initial_state_json=state_json,
            settings=settings,
            seats=seats,
            status=GameStatus.RUNNING,
        )
        version = first.version
        say(f"timing {saves} saves and {loads} loads of one game")
        for _ in range(3):  # warm up
            version = (
                await store.save(
                    first.id,
                    expected_version=version,
                    state_json=variant(version),
                    action_json="{}",
                )
            ).version
        save_ms: list[float] = []
        for _ in range(saves):
            text = variant(version + 1)
            start = clock()
            record = await store.save(
                first.id,
                expected_version=version,
                state_json=text,
                action_json='{"type":"pass"}',
                seat=0,
                events_json='[{"type":"passed"}]',
            )
            save_ms.append((clock() - start) * 1000)
            version = record.version
        load_ms: list[float] = []
        for _ in range(loads):
            start = clock()
            await store.get_game(first.id)
            load_ms.append((clock() - start) * 1000)

        say(f"saving a {len(game.steps)}-step game and timing {restores} restores")
        long = await store.create_game(
            0,
            initial_state_json=game.initial_state_json,
            settings=settings,
            seats=seats,
            status=GameStatus.RUNNING,
        )
        for action_json, after in game.steps:
            long = await store.save(
                long.id, expected_version=long.version, state_json=after, action_json=action_json
            )
        back = max(0, min(RESTORE_STEPS_BACK, long.version - store.snapshot_every))
        restore_ms: list[float] = []
        for k in range(restores if long.version > 0 else 0):
            old = max(0, long.version - back - k % store.snapshot_every)
            begin = clock()
            await store.state_at(long.id, old)
            restore_ms.append((clock() - begin) * 1000)

        say(f"filling the database to {games} games")
        start = clock()
        versions: dict[int, int] = {first.id: version}
        for channel in range(2, games + 1):
            record = await store.create_game(
                channel,
                initial_state_json=state_json,
                settings=settings,
                seats=seats,
                status=GameStatus.RUNNING,
            )
            versions[record.id] = record.version
        fill_seconds = clock() - start

        say(f"timing {throughput_saves} saves spread over {len(versions)} games")
        ids = sorted(versions)
        throughput_save_ms: list[float] = []
        texts = [variant(k) for k in range(64)]
        start = clock()
        for k in range(throughput_saves):
            game_id = ids[k % len(ids)]
            begin = clock()
            record = await store.save(
                game_id,
                expected_version=versions[game_id],
                state_json=texts[k % 64],
                action_json='{"type":"pass"}',
                seat=0,
            )
            throughput_save_ms.append((clock() - begin) * 1000)
            versions[game_id] = record.version
        throughput_seconds = clock() - start

        full_load_ms: list[float] = []
        rng = random.Random(7)
        for _ in range(loads):
            game_id = rng.choice(ids)
            begin = clock()
            await store.get_game(game_id)
            full_load_ms.append((clock() - begin) * 1000)
    db_bytes = sum(
        path.stat().st_size
        for path in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm"))
        if path.exists()
    )
    return BenchResult(
        state_source=state_source,
        state_bytes=len(state_json.encode()),
        synchronous=synchronous,
        save_ms=save_ms,
        load_ms=load_ms,
        games=len(versions),
        fill_seconds=fill_seconds,
        throughput_saves=throughput_saves,
        throughput_seconds=throughput_seconds,
        throughput_save_ms=throughput_save_ms,
        full_load_ms=full_load_ms,
        db_bytes=db_bytes,
        restore_ms=restore_ms,
        restore_back=back,
        restore_source=game.source,
        snapshot_every=store.snapshot_every,
    )
