"""Finding a fair table (issue #31): the pure matching (:mod:`service.queue`: the window, the
active hours, the fillers' level), a simulated population of several hundred players joining
over simulated days (every table within its window, its players' hours overlapping, nobody
past their wait when fillers are on, nobody twice), and the stored queue's use cases
(:mod:`service.queueing`) over a real SQLite store: join, leave, standing, the server's cap,
a table taken in one transaction and its game opened through the lobby API.

``QUEUE_PRINT=1`` prints the simulation's figures (``docs/queue.md`` quotes them)."""

from __future__ import annotations

import os
import random
import statistics
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from rules.registry import registrations
from service import GameService
from service.ai_scale import ai_shown
from service.pacing import FakeClock
from service.queue import (
    ALL_HOURS,
    MIN_SHARED_HOURS,
    WINDOW_MOST,
    WINDOW_PER_HOUR,
    WINDOW_START,
    Entrant,
    Table,
    active_hours,
    level_for,
    match,
    window,
)
from service.queueing import QueueService, level_ratings, rating_for
from service.rating import NEW, shown
from service.results import Refused
from storage import GameStatus, GuildSettings, SqliteGameStore
from tests.service.conftest import uniform_factory

T0 = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)  # a Monday in winter (no daylight saving)
LEVELS = [("random", None), ("heuristic", None), ("search", None)]
EXAMPLE = next(n for n, r in registrations().items() if r.face.startswith("examples."))
"""The example game (named by its registration only: no platform test names a game)."""


def ent(uid: int, rating: int, minutes_ago: float = 0, **kw: object) -> Entrant:
    joined = T0 - timedelta(minutes=minutes_ago)
    return Entrant(uid, rating, joined, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the pure matching


def test_the_window_widens_with_the_wait_up_to_its_most() -> None:
    assert window(timedelta(0)) == WINDOW_START == 100
    assert window(timedelta(hours=1)) == WINDOW_START + WINDOW_PER_HOUR == 150
    assert window(timedelta(hours=4, minutes=30)) == 325
    assert window(timedelta(days=3)) == WINDOW_MOST
    assert window(timedelta(hours=-1)) == WINDOW_START  # a clock a little behind


def test_active_hours_are_outside_quiet_hours_in_the_players_zone() -> None:
    day = date(2026, 1, 12)
    assert active_hours(None, None, None, day) == ALL_HOURS
    assert active_hours("Europe/Warsaw", None, None, day) == ALL_HOURS
    # 22:00-08:00 in Warsaw (UTC+1 in winter): active 08:00-22:00 local, 07-21 UTC
    assert active_hours("Europe/Warsaw", "22:00", "08:00", day) == frozenset(range(7, 21))
    # the same hours in São Paulo (UTC-3): 11-01 UTC, across midnight
    sp = active_hours("America/Sao_Paulo", "22:00", "08:00", day)
    assert sp == frozenset([*range(11, 24), 0])
    # a day time quiet period (work): 09:00-17:00 UTC
    assert active_hours("UTC", "09:00", "17:00", day) == ALL_HOURS - frozenset(range(9, 17))
    # in summer Warsaw is UTC+2: an hour earlier in UTC
    assert active_hours("Europe/Warsaw", "22:00", "08:00", date(2026, 7, 1)) == frozenset(
        range(6, 20)
    )


def test_the_fillers_level_is_the_closest_rated_else_the_lowest() -> None:
    assert level_for(1500, LEVELS) == "random"
    rated = [("random", 700), ("heuristic", 1100), ("search", 1600)]
    assert level_for(1000, rated) == "heuristic"
    assert level_for(1400, rated) == "search"
    assert level_for(100, rated) == "random"
    assert level_for(1400, [("random", 700), ("heuristic", None), ("search", None)]) == "random"
    with pytest.raises(ValueError):
        level_for(1000, [])


def test_close_ratings_sit_together_at_once_far_ones_wait_for_the_window() -> None:
    people = [ent(1, 1000, 10), ent(2, 1090, 5), ent(3, 1300, 1), ent(4, 1010, 0)]
    (t,) = match(people, 2, T0)
    assert [e.user_id for e in t.humans] == [1, 4]  # the closest to the longest waiting
    assert t.window == 108 and t.spread == 10 and t.ai_seats == 0  # 10 minutes: +8
    # 1300 is 210 from 1090: within the window of 1090's anchor after 2h12m, not before
    rest = [ent(2, 1090, 60), ent(3, 1300, 1)]
    assert match(rest, 2, T0) == []
    (late,) = match(rest, 2, T0 + timedelta(hours=1, minutes=13))
    assert {e.user_id for e in late.humans} == {2, 3} and late.window >= 210


def test_players_without_enough_common_hours_are_not_seated_together() -> None:
    day = T0.date()
    warsaw = active_hours("Europe/Warsaw", "20:00", "10:00", day)  # 09-19 UTC
    tokyo = active_hours("Asia/Tokyo", "20:00", "10:00", day)  # 01-11 UTC: 2 common
    lisbon = active_hours("Europe/Lisbon", "23:00", "09:00", day)  # 09-23 UTC
    assert len(warsaw & tokyo) < MIN_SHARED_HOURS <= len(warsaw & lisbon)
    people = [
        ent(1, 1000, 30, active=warsaw),
        ent(2, 1000, 20, active=tokyo),
        ent(3, 1050, 10, active=lisbon),
    ]
    (t,) = match(people, 2, T0)
    assert [e.user_id for e in t.humans] == [1, 3] and len(t.shared) >= MIN_SHARED_HOURS
    # three players: the table's hours are those all three share
    assert match(people, 3, T0 + timedelta(days=2)) == []


def test_fillers_complete_a_table_after_the_wait_at_the_closest_level() -> None:
    alone = [ent(1, 1200, 59, ai_fill=True, max_wait=timedelta(hours=1))]
    assert match(alone, 3, T0, LEVELS) == []
    (t,) = match(alone, 3, T0 + timedelta(minutes=1), LEVELS)
    assert t.ai_seats == 2 and t.ai_level == "random" and len(t.humans) == 1
    rated = [("random", 700), ("heuristic", 1150), ("search", 1600)]
    (t,) = match(alone, 3, T0 + timedelta(minutes=1), rated)
    assert t.ai_level == "heuristic"
    # without the filler choice, or without levels, the player waits on
    assert match([ent(1, 1200, 600)], 3, T0, LEVELS) == []
    assert match(alone, 3, T0 + timedelta(hours=2), ()) == []
    # a second player who accepts fillers too sits with them; one who does not, waits
    two = [*alone, ent(2, 1250, 1, ai_fill=True), ent(3, 1210, 1)]
    (t,) = match(two, 4, T0 + timedelta(minutes=1), LEVELS)
    assert [e.user_id for e in t.humans] == [1, 2] and t.ai_seats == 2


# ---------------------------------------------------------------- a simulated population

ZONES = [
    "America/Los_Angeles",
    "America/New_York",
    "America/Sao_Paulo",
    "Europe/Lisbon",
    "Europe/Paris",
    "Europe/Warsaw",
    "Europe/Budapest",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "Australia/Sydney",
]
TICK = timedelta(minutes=15)


def population(rng: random.Random, n: int, days: int) -> list[tuple[datetime, Entrant, int]]:
    """``n`` players with random ratings, time zones and quiet hours (a third without),
    joining at random times over ``days`` days for a table of 2, 3 or 4; half accept
    fillers after 2-24 hours. (join time, entrant, table size), by join time."""
    out = []
    for uid in range(1, n + 1):
        at = T0 + timedelta(seconds=rng.randrange(days * 86400))
        rating = int(rng.gauss(1000, 180))
        if rng.random() < 1 / 3:
            hours = ALL_HOURS
        else:
            start = rng.randrange(20, 26) % 24
            length = rng.randrange(6, 11)
            zone = rng.choice(ZONES)
            hours = active_hours(
                zone, f"{start:02d}:00", f"{(start + length) % 24:02d}:00", at.date()
            )
        fill = rng.random() < 0.5
        wait = timedelta(hours=rng.randrange(2, 25))
        e = Entrant(uid, rating, at, hours, fill, wait)
        out.append((at, e, rng.choice((2, 2, 3, 4))))
    return sorted(out, key=lambda x: x[0])


def simulate(seed: int, n: int = 400, days: int = 3) -> dict[str, float]:
    """Run the queues of a simulated population tick by tick; check every table; the
    figures."""
    rng = random.Random(seed)
    arrivals = population(rng, n, days)
    queues: dict[int, list[Entrant]] = {2: [], 3: [], 4: []}
    seated: set[int] = set()
    tables: list[tuple[Table, datetime]] = []
    now, i = T0, 0
    end = T0 + timedelta(days=days + 2)
    while now <= end:
        while i < len(arrivals) and arrivals[i][0] <= now:
            _, e, size = arrivals[i]
            queues[size].append(e)
            i += 1
        for size, waiting in queues.items():
            formed = match(waiting, size, now, LEVELS)
            for t in formed:
                ids = [e.user_id for e in t.humans]
                assert not seated & set(ids), "nobody is seated twice"
                seated.update(ids)
                assert len(ids) + t.ai_seats == size
                waited = now - t.anchor.joined
                assert t.window == window(waited)
                assert all(abs(e.rating - t.anchor.rating) <= t.window for e in t.humans)
                if len(ids) > 1:
                    shared = frozenset.intersection(*(e.active for e in t.humans))
                    assert shared == t.shared and len(shared) >= MIN_SHARED_HOURS
                if t.ai_seats:
                    assert all(e.ai_fill for e in t.humans)
                    assert waited >= t.anchor.max_wait
                tables.append((t, now))
            queues[size] = [e for e in waiting if e.user_id not in seated]
        for waiting in queues.values():  # nobody who accepts fillers waits past their wait
            for e in waiting:
                assert not (e.ai_fill and now - e.joined >= e.max_wait + TICK), e
        now += TICK
    humans = [(e, t, at) for t, at in tables for e in t.humans]
    full = [t for t, _ in tables if not t.ai_seats]
    waits = [(at - e.joined).total_seconds() / 3600 for e, _, at in humans]
    return {
        "players": n,
        "tables": len(tables),
        "full_tables": len(full),
        "filled_tables": len(tables) - len(full),
        "seated": len(humans),
        "still_waiting": sum(len(q) for q in queues.values()),
        "mean_spread_full": statistics.fmean(t.spread for t in full) if full else 0.0,
        "max_spread_full": max((t.spread for t in full), default=0),
        "mean_wait_h": statistics.fmean(waits),
        "median_wait_h": statistics.median(waits),
        "p90_wait_h": statistics.quantiles(waits, n=10)[-1],
    }


@pytest.mark.parametrize(("seed", "n", "days"), [(1, 400, 3), (2, 400, 3), (3, 150, 7)])
def test_a_simulated_population_forms_fair_tables(seed: int, n: int, days: int) -> None:
    figures = simulate(seed, n, days)
    if os.environ.get("QUEUE_PRINT"):
        print(
            f"\nseed {seed}, {days} days: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items())
        )
    assert figures["tables"] > 50
    assert figures["seated"] + figures["still_waiting"] == figures["players"]
    # close ratings: the mean spread of a full table is well inside the widest window
    assert figures["mean_spread_full"] < WINDOW_MOST / 2


# ---------------------------------------------------------------- the stored queue


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
async def qs(tmp_path: Path, clock: FakeClock) -> AsyncIterator[QueueService]:
    async with SqliteGameStore(str(tmp_path / "q.sqlite3"), clock=clock.now) as store:
        yield QueueService(GameService(store, agent_factory=uniform_factory))


G, CH = 7, 555


async def test_a_players_rating_and_the_levels_calibrated_ratings(qs: QueueService) -> None:
    """A player without a rated game is a new player (1,000); the computer levels carry
    the shipped calibration's numbers (service/data/ai_ratings.json)."""
    assert await rating_for(qs.svc, G, EXAMPLE, 1) == NEW and shown(NEW) == 1000
    assert level_ratings(EXAMPLE) == [
        (lv, ai_shown(EXAMPLE, lv)) for lv, _ in level_ratings(EXAMPLE)
    ]
    assert all(r is not None for _, r in level_ratings(EXAMPLE))


def closest_level(mean: float) -> str:
    """The level whose calibrated rating is closest to ``mean`` (the lowest on a tie)."""
    rated = [(lv, r) for lv, r in level_ratings(EXAMPLE) if r is not None]
    return min(rated, key=lambda lr: abs(lr[1] - mean))[0]


async def test_join_keeps_the_place_leave_and_standing(qs: QueueService, clock: FakeClock) -> None:
    first = await qs.join(G, CH, 1, EXAMPLE, 2)
    clock.advance(timedelta(minutes=30))
    await qs.join(G, CH, 2, f" {EXAMPLE.upper()} ", 2, ai_fill=True, max_wait=timedelta(hours=3))
    clock.advance(timedelta(hours=1))
    again = await qs.join(G, 999, 1, EXAMPLE, 2, ai_fill=True)  # same queue: same place
    assert again.joined_at == first.joined_at and again.channel_id == 999 and again.ai_fill
    (mine,) = await qs.standing(G, 2)
    assert (mine.waiting, mine.place, mine.rating) == (2, 2, 1000)
    assert mine.waited == timedelta(hours=1) and mine.window == window(timedelta(hours=1))
    assert mine.fill_at == T0 + timedelta(minutes=30, hours=3)
    assert (await qs.standing(G, 1))[0].place == 1
    assert await qs.leave(G, 1) == 1 and await qs.standing(G, 1) == []
    assert await qs.leave(G, 1) == 0
    with pytest.raises(Refused):
        await qs.join(G, CH, 3, "no such game", 2)
    with pytest.raises(Refused):
        await qs.join(G, CH, 3, EXAMPLE, 1)  # a solo table is no match
    with pytest.raises(Refused):
        await qs.join(G, CH, 3, EXAMPLE, 9)
    with pytest.raises(Refused):
        await qs.join(G, CH, 3, EXAMPLE, 2, max_wait=timedelta(seconds=10))


async def test_a_table_forms_is_taken_once_and_opens_its_game(
    qs: QueueService, clock: FakeClock
) -> None:
    await qs.join(G, CH, 1, EXAMPLE, 2)
    await qs.join(G, CH + 1, 2, EXAMPLE, 2)
    (formed,) = await qs.tables(G)
    assert [e.user_id for e in formed.entries] == [1, 2] and formed.channel_id == CH
    assert await qs.take(formed)
    assert not await qs.take(formed)  # taken once
    assert await qs.tables(G) == []
    res = await qs.open_table(
        formed,
        4242,
        {1: "Ana", 2: "Bo"},
        default_level="random",
        default_scenario=None,
        deadline_hours=24,
    )
    rec = await qs.svc.store.get_game(res.game_id)
    assert rec.status is GameStatus.RUNNING and rec.channel_id == 4242 and rec.game == EXAMPLE
    assert sorted(s.user_id for s in rec.seats if s.user_id) == [1, 2]


async def test_the_cap_on_running_games_keeps_a_player_waiting(
    qs: QueueService, clock: FakeClock
) -> None:
    store = qs.svc.store
    await store.set_guild_settings(G, GuildSettings(max_running_games=1))
    await qs.svc.lobbies.open(
        31, G, 1, scenario=None, players=2, ai_seats=0, ai_level="random",
        deadline_hours=24, game=EXAMPLE,
    )  # fmt: skip
    await qs.join(G, CH, 1, EXAMPLE, 2)
    await qs.join(G, CH, 2, EXAMPLE, 2)
    assert await qs.tables(G) == []  # 1 holds a lobby already: the cap
    await qs.join(G, CH, 3, EXAMPLE, 2)
    (formed,) = await qs.tables(G)
    assert [e.user_id for e in formed.entries] == [2, 3]


async def test_one_player_in_two_queues_sits_at_one_table_a_round(
    qs: QueueService, clock: FakeClock
) -> None:
    await qs.join(G, CH, 1, EXAMPLE, 2)
    await qs.join(G, CH, 2, EXAMPLE, 2)
    await qs.join(G + 1, CH, 1, EXAMPLE, 2)  # another server's queue
    await qs.join(G + 1, CH, 3, EXAMPLE, 2)
    formed = await qs.tables()
    assert len(formed) == 2  # servers are separate: a player may wait on each
    assert {f.guild_id for f in formed} == {G, G + 1}


async def test_a_filled_table_opens_with_computer_seats(qs: QueueService, clock: FakeClock) -> None:
    await qs.join(G, CH, 1, EXAMPLE, 2, ai_fill=True, max_wait=timedelta(hours=2))
    assert await qs.tables(G) == []
    clock.advance(timedelta(hours=2))
    (formed,) = await qs.tables(G)
    level = closest_level(1000)  # a new player's table: the level nearest 1,000
    assert formed.table.ai_seats == 1 and formed.table.ai_level == level
    assert await qs.take(formed)
    res = await qs.open_table(
        formed, 4343, {1: "Ana"}, default_level="heuristic", default_scenario=None,
        deadline_hours=24,
    )  # fmt: skip
    rec = await qs.svc.store.get_game(res.game_id)
    assert rec.status is GameStatus.RUNNING
    assert [s.ai_level for s in rec.seats if s.user_id is None] == [level]


async def test_a_table_that_cannot_open_closes_its_lobby_and_its_players_wait_again(
    qs: QueueService, clock: FakeClock
) -> None:
    store = qs.svc.store
    await qs.join(G, CH, 1, EXAMPLE, 2)
    await qs.join(G, CH, 2, EXAMPLE, 2)
    (formed,) = await qs.tables(G)
    assert await qs.take(formed)
    await store.set_guild_settings(G, GuildSettings(max_running_games=1))
    await qs.svc.lobbies.open(
        31, G, 2, scenario=None, players=2, ai_seats=0, ai_level="random",
        deadline_hours=24, game=EXAMPLE,
    )  # fmt: skip  # 2 took a seat elsewhere meanwhile: at the cap
    with pytest.raises(Refused):
        await qs.open_table(
            formed, 4444, {}, default_level="random", default_scenario=None, deadline_hours=24
        )
    assert await store.get_active_game(4444) is None  # the table's lobby was closed
    await qs.put_back(formed)
    assert [e.user_id for e in await store.queue_entries(G)] == [1, 2]
