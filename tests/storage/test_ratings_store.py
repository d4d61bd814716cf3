"""Ratings, their changes and seasons in both stores (schema 13, issue #31): a game is rated in
the transaction that records its result, and only then; the tables always equal the fold of
the stored results (a property test over random results); the upgrade from schema 12;
copies and backups carry them."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rating import NEW, Rating, ai_key, places_of, rate, user_key
from service.ratings import RULES, ai_rating
from storage import (
    GameRecord,
    GameResult,
    GameStatus,
    GameStore,
    PostgresGameStore,
    Seat,
    SqliteGameStore,
    VersionConflict,
)
from storage.copy import BackupSource, copy_store
from storage.dump import BackupFile
from storage.errors import InvalidData
from storage.models import SeatKind
from storage.ratings import RatingRules, Skill
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, SETTINGS, StoreFactory
from tests.storage.old_schema import pg_back_to_12, sqlite_back_to_12
from tests.storage.pg_server import PgServer

GUILD = 77
GAME = "brazil"

_channels = itertools.count(5000)
_guilds = itertools.count(1000)


def human(n: int, user: int) -> Seat:
    return Seat.discord(n, user, name=f"Player {user}")


def stand_in(n: int, user: int, level: str) -> Seat:
    return Seat(seat=n, kind=SeatKind.DISCORD, user_id=user, name=f"Player {user}", ai_level=level)


async def start(store: GameStore, seats: list[Seat], *, guild: int | None = GUILD) -> GameRecord:
    return await store.create_game(
        next(_channels),
        initial_state_json=toy_game.initial_state(),
        settings=SETTINGS,
        guild_id=guild,
        seats=seats,
        status=GameStatus.RUNNING,
    )


async def finish(
    store: GameStore,
    rec: GameRecord,
    scores: dict[int, int],
    winners: set[int] | None = None,
    *,
    rules: RatingRules | None = RULES,
) -> GameRecord:
    """The game's last step, with its result (and the rating rules, as the service saves)."""
    if winners is None:
        best = max(scores.values())
        winners = {seat for seat, score in scores.items() if score == best}
    return await store.save(
        rec.id,
        expected_version=rec.version,
        state_json=toy_game.replay(rec.state_json, toy_game.action(1)),
        action_json=toy_game.action(1),
        seat=0,
        result=GameResult(scores=scores, winners=frozenset(winners)),
        rating=rules,
    )


async def assert_fold_equals(store: GameStore, guild: int, game: str = GAME) -> None:
    """The stored tables and changes equal the fold of the stored results."""
    folded = await store.fold_ratings(guild, game, RULES)
    seasons = [0] + [s.number for s in await store.seasons(guild, game)]
    for season in seasons:
        stored = await store.ratings(guild, game, season=season)
        mine = sorted(
            (r for (s, _), r in folded.rows.items() if s == season), key=lambda r: r.player
        )
        assert sorted(stored, key=lambda r: r.player) == mine, f"season {season}"
        changes = [
            c.model_copy(update={"finished_at": None})
            for c in await store.rating_changes(guild, game, season=season)
        ]
        assert changes == [c for c in folded.changes if c.season == season], f"season {season}"


# ---------------------------------------------------------------- the rules in the store


async def test_a_finished_game_is_rated_with_its_result(store: GameStore) -> None:
    rec = await start(store, [human(0, 1), human(1, 2), Seat.ai(2, "heuristic")])
    done = await finish(store, rec, {0: 10, 1: 4, 2: 7})
    rows = {r.player: r for r in await store.ratings(GUILD, GAME)}
    assert set(rows) == {"u:1", "u:2"}  # the computer seat is a fixed point: no row
    assert rows["u:1"].games == rows["u:2"].games == 1
    assert rows["u:1"].mu > NEW.mu > rows["u:2"].mu
    assert rows["u:1"].updated_at == done.finished_at
    changes = await store.rating_changes(GUILD, GAME)
    assert [(c.seat, c.player, c.place, c.fixed) for c in changes] == [
        (0, "u:1", 1, False),
        (1, "u:2", 3, False),
        (2, "ai:heuristic", 2, True),
    ]
    ai = changes[2]
    fixed = ai_rating(GAME, "heuristic")
    assert (ai.mu_before, ai.sigma_before, ai.mu_after, ai.sigma_after) == (
        fixed.mu,
        fixed.sigma,
        fixed.mu,
        fixed.sigma,
    )
    # the model's own numbers: the three seats rated together, the AI at its fixed rating
    expected = rate([NEW, NEW, fixed], [1, 3, 2])
    assert (rows["u:1"].mu, rows["u:1"].sigma) == (expected[0].mu, expected[0].sigma)
    assert (rows["u:2"].mu, rows["u:2"].sigma) == (expected[1].mu, expected[1].sigma)
    assert [c.finished_at for c in changes] == [done.finished_at] * 3
    assert await store.rating_changes(GUILD, GAME, player="u:2") == [changes[1]]
    await assert_fold_equals(store, GUILD)


async def test_games_that_are_not_rated(store: GameStore) -> None:
    local = await start(store, [human(0, 1), human(1, 2)], guild=None)
    await finish(store, local, {0: 3, 1: 1})  # no server: not rated
    solo = await start(store, [human(0, 1)])
    await finish(store, solo, {0: 3}, set())  # one seat
    ais = await start(store, [Seat.ai(0, "random"), stand_in(1, 2, "heuristic")])
    await finish(store, ais, {0: 3, 1: 1})  # nobody to rate
    hot = await start(store, [human(0, 1), Seat.local(1, "Ana")])
    await finish(store, hot, {0: 3, 1: 1})  # a hot-seat seat
    plain = await start(store, [human(0, 1), human(1, 2)])
    await finish(store, plain, {0: 3, 1: 1}, rules=None)  # a save without the rules
    given_up = await start(store, [human(0, 1), human(1, 2)])
    await store.set_status(given_up.id, GameStatus.ABANDONED)
    assert await store.ratings(GUILD, GAME) == []
    assert await store.rating_changes(GUILD, GAME) == []
    assert (await store.get_game(plain.id)).status is GameStatus.FINISHED


async def test_a_stand_in_at_the_end_is_not_rated_but_counts(store: GameStore) -> None:
    rec = await start(store, [human(0, 1), stand_in(1, 2, "search")])
    await finish(store, rec, {0: 1, 1: 9})
    rows = {r.player: r for r in await store.ratings(GUILD, GAME)}
    assert set(rows) == {"u:1"}  # user 2's rating does not move (no row at all)
    expected = rate([NEW, ai_rating(GAME, "search")], [2, 1])[0]
    assert (rows["u:1"].mu, rows["u:1"].sigma) == (expected.mu, expected.sigma)
    changes = await store.rating_changes(GUILD, GAME)
    assert [(c.player, c.fixed) for c in changes] == [("u:1", False), (ai_key("search"), True)]


async def test_no_result_without_its_rating(store: GameStore) -> None:
    """The rating is part of the result's transaction: a rating that fails takes the result
    (and the step) with it; a result refused (a stale version) leaves no rating."""

    def broken(before: object, places: object) -> list[Skill]:
        raise RuntimeError("the rating model failed")

    rec = await start(store, [human(0, 1), human(1, 2)])
    with pytest.raises(RuntimeError):
        await finish(store, rec, {0: 2, 1: 1}, rules=RatingRules(RULES.plan, broken, RULES.new))
    again = await store.get_game(rec.id)
    assert again.status is GameStatus.RUNNING and again.version == rec.version
    assert await store.ratings(GUILD, GAME) == []
    stale = rec.model_copy(update={"version": rec.version + 5})
    with pytest.raises(VersionConflict):
        await finish(store, stale, {0: 2, 1: 1})
    assert await store.ratings(GUILD, GAME) == []
    await finish(store, again, {0: 2, 1: 1})
    assert len(await store.ratings(GUILD, GAME)) == 2


async def test_seasons_update_both_tables_and_keep_the_final_one(store: GameStore) -> None:
    first = await start(store, [human(0, 1), human(1, 2)])
    await finish(store, first, {0: 5, 1: 1})  # before any season
    with pytest.raises(InvalidData):
        await store.end_season(GUILD, GAME, by=9)
    spring = await store.start_season(GUILD, GAME, "  Spring   2026 ", by=9)
    assert (spring.number, spring.name, spring.running) == (1, "Spring 2026", True)
    with pytest.raises(InvalidData):
        await store.start_season(GUILD, GAME, "Another", by=9)
    with pytest.raises(InvalidData):
        await store.start_season(GUILD, "tigris", "", by=9)
    second = await start(store, [human(0, 1), human(1, 3)])
    await finish(store, second, {0: 1, 1: 5})
    season = {r.player: r for r in await store.ratings(GUILD, GAME, season=1)}
    alltime = {r.player: r for r in await store.ratings(GUILD, GAME)}
    assert set(season) == {"u:1", "u:3"} and season["u:1"].games == 1
    assert alltime["u:1"].games == 2 and alltime["u:3"].games == 1
    assert season["u:1"].mu != alltime["u:1"].mu  # the season started from new
    ended = await store.end_season(GUILD, GAME, by=9)
    assert ended.ended_by == 9 and not ended.running
    final = await store.ratings(GUILD, GAME, season=1)
    third = await start(store, [human(0, 1), human(1, 3)])
    await finish(store, third, {0: 1, 1: 5})
    assert await store.ratings(GUILD, GAME, season=1) == final  # kept unchanged
    assert {r.player: r.games for r in await store.ratings(GUILD, GAME)}["u:1"] == 3
    summer = await store.start_season(GUILD, GAME, "Summer", by=9)
    assert summer.number == 2
    assert [s.number for s in await store.seasons(GUILD, GAME)] == [1, 2]
    assert await store.seasons(GUILD + 1, GAME) == []  # each server its own
    await assert_fold_equals(store, GUILD)


async def test_two_games_ending_at_once_for_one_player(store_factory: StoreFactory) -> None:
    """Two store objects (two processes) finish two games of the same player at the same
    moment: both updates count, in one order that the fold finds again."""
    async with store_factory() as one, store_factory() as two:
        a = await start(one, [human(0, 1), human(1, 2)])
        b = await start(two, [human(0, 1), human(1, 3)])
        await asyncio.gather(finish(one, a, {0: 5, 1: 1}), finish(two, b, {0: 5, 1: 1}))
        rows = {r.player: r for r in await one.ratings(GUILD, GAME)}
        assert rows["u:1"].games == 2
        history = await one.rating_changes(GUILD, GAME, player="u:1")
        assert {c.game_id for c in history} == {a.id, b.id}
        # the second rated game started from the first one's rating: nothing lost
        assert (history[1].mu_before, history[1].sigma_before) == (
            history[0].mu_after,
            history[0].sigma_after,
        )
        await assert_fold_equals(one, GUILD)


async def test_rebuild_replaces_the_tables_by_the_fold(store: GameStore) -> None:
    for scores in ({0: 1, 1: 2}, {0: 3, 1: 2}, {0: 2, 1: 2}):
        await finish(store, await start(store, [human(0, 1), human(1, 2)]), scores)
    before = await store.ratings(GUILD, GAME)
    folded = await store.rebuild_ratings(GUILD, GAME, RULES)
    assert sorted(folded.rows.values(), key=lambda r: r.player) == before
    assert await store.ratings(GUILD, GAME) == before
    await assert_fold_equals(store, GUILD)


async def test_seat_names_are_the_latest_seat_names(store: GameStore) -> None:
    await start(store, [Seat.discord(0, 1, name="Old"), human(1, 2)])
    await start(store, [Seat.discord(0, 1, name="New"), Seat.discord(1, 4)])
    assert await store.seat_names(GUILD, GAME, [1, 2, 3, 4]) == {1: "New", 2: "Player 2"}


# ---------------------------------------------------------------- the property


@dataclass(frozen=True)
class Played:
    seats: tuple[tuple[str, int], ...]  # ("u", user) | ("ai", level index) | ("si", user)
    scores: tuple[int, ...]
    winners: tuple[bool, ...]
    season: str  # "start", "end" or "" before the game


LEVELS = ("random", "heuristic", "search")

seat_kind = st.one_of(
    st.tuples(st.just("u"), st.integers(1, 4)),
    st.tuples(st.just("ai"), st.integers(0, 2)),
    st.tuples(st.just("si"), st.integers(1, 4)),
)


@st.composite
def played(draw: st.DrawFn) -> Played:
    n = draw(st.integers(2, 4))
    scores = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    return Played(
        seats=tuple(draw(st.lists(seat_kind, min_size=n, max_size=n))),
        scores=tuple(scores),
        winners=tuple(draw(st.lists(st.booleans(), min_size=n, max_size=n))),
        season=draw(st.sampled_from(["", "", "", "start", "end"])),
    )


def seat_of(n: int, kind: str, value: int) -> Seat:
    if kind == "u":
        return human(n, value)
    if kind == "ai":
        return Seat.ai(n, LEVELS[value])
    return stand_in(n, value, LEVELS[value % 3])


def expected_alltime(games: list[Played]) -> dict[str, tuple[Rating, int]]:
    """The all-time table by the model alone, games in the order played (independent of the
    store's code): humans rated, computer seats and stand-ins at their fixed ratings."""
    table: dict[str, tuple[Rating, int]] = {}
    for g in games:
        seats = [seat_of(n, k, v) for n, (k, v) in enumerate(g.seats)]
        users = [s.user_id for s in seats if s.ai_level is None]
        if not users or len(set(users)) != len(users):
            continue
        winners = frozenset(n for n, w in enumerate(g.winners) if w)
        places = places_of(dict(enumerate(g.scores)), winners)
        before = [
            ai_rating(GAME, s.ai_level)
            if s.ai_level is not None
            else table.get(user_key(s.user_id or 0), (NEW, 0))[0]
            for s in seats
        ]
        after = rate(before, [places[n] for n in range(len(seats))])
        for s, new in zip(seats, after, strict=True):
            if s.ai_level is None:
                key = user_key(s.user_id or 0)
                table[key] = (new, table.get(key, (NEW, 0))[1] + 1)
    return table


@pytest.mark.slow
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(games=st.lists(played(), min_size=1, max_size=7))
async def test_ratings_after_n_games_equal_the_recomputation(
    store: GameStore, games: list[Played]
) -> None:
    guild = next(_guilds)
    for g in games:
        if g.season == "start" and not any(s.running for s in await store.seasons(guild, GAME)):
            await store.start_season(guild, GAME, "Season", by=5)
        if g.season == "end" and any(s.running for s in await store.seasons(guild, GAME)):
            await store.end_season(guild, GAME, by=5)
        rec = await start(
            store, [seat_of(n, k, v) for n, (k, v) in enumerate(g.seats)], guild=guild
        )
        winners = {n for n, w in enumerate(g.winners) if w}
        await finish(store, rec, dict(enumerate(g.scores)), winners)
    await assert_fold_equals(store, guild)
    stored = {r.player: r for r in await store.ratings(guild, GAME)}
    expected = expected_alltime(games)
    assert set(stored) == set(expected)
    for key, (r, count) in expected.items():
        assert (stored[key].mu, stored[key].sigma, stored[key].games) == (r.mu, r.sigma, count)


# ---------------------------------------------------------------- schema, copies, backups


async def rated_store(store: GameStore) -> None:
    await store.start_season(GUILD, GAME, "One", by=9)
    await finish(store, await start(store, [human(0, 1), Seat.ai(1, "search")]), {0: 1, 1: 0})
    await store.end_season(GUILD, GAME, by=9)
    await finish(store, await start(store, [human(0, 1), human(1, 2)]), {0: 0, 1: 1})


async def test_copies_carry_ratings_and_seasons(
    tmp_path: Path, store_factory: StoreFactory
) -> None:
    async with store_factory() as store:
        await rated_store(store)
        async with SqliteGameStore(tmp_path / "copy.sqlite3", replayer=toy_game.replay) as dest:
            report = await copy_store(store, dest)
            assert report.ok and report.ratings_copied == 4, report.summary()  # 3 rows, 1 season
            assert await dest.rating_tables() == await store.rating_tables()
            assert await dest.rating_changes(GUILD, GAME) == await store.rating_changes(GUILD, GAME)
            await assert_fold_equals(dest, GUILD)
            again = await copy_store(store, dest, force=True)
            assert again.ok and again.ratings_copied == 0, again.summary()


async def test_a_destination_with_other_ratings_is_not_overwritten(
    tmp_path: Path, store_factory: StoreFactory
) -> None:
    async with store_factory() as store:
        await rated_store(store)
        async with SqliteGameStore(tmp_path / "copy.sqlite3", replayer=toy_game.replay) as dest:
            await dest.start_season(GUILD, GAME, "Theirs", by=3)
            report = await copy_store(store, dest, force=True)
            assert not report.ok and any("season 1" in r for r in report.refused)
            assert [s.name for s in await dest.seasons(GUILD, GAME)] == ["Theirs"]


async def test_backups_carry_ratings_and_seasons(
    tmp_path: Path, pg_url: str, pg_server: PgServer
) -> None:
    store = PostgresGameStore(
        pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
    )
    async with store:
        await rated_store(store)
        tables = await store.rating_tables()
        changes = await store.rating_changes(GUILD, GAME)
        await store.backup(tmp_path / "b.jsonl")
    back = BackupFile(tmp_path / "b.jsonl")
    assert back.ratings == tables and len(tables.ratings) == 3 and len(tables.seasons) == 1
    async with SqliteGameStore(tmp_path / "from-backup.sqlite3", replayer=toy_game.replay) as d:
        report = await copy_store(BackupSource(tmp_path / "b.jsonl"), d)
        assert report.ok and report.ratings_copied == 4, report.summary()
        assert await d.rating_tables() == tables
        assert await d.rating_changes(GUILD, GAME) == changes


async def test_sqlite_backups_carry_ratings(tmp_path: Path, sqlite_store: SqliteGameStore) -> None:
    await rated_store(sqlite_store)
    await sqlite_store.backup(tmp_path / "b.sqlite3")
    async with SqliteGameStore(tmp_path / "b.sqlite3", replayer=toy_game.replay) as copy:
        assert await copy.rating_tables() == await sqlite_store.rating_tables()
        await assert_fold_equals(copy, GUILD)


async def test_upgrade_12_to_13_on_sqlite(db_path: Path) -> None:
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        rec = await start(store, [human(0, 1), human(1, 2)])
        await finish(store, rec, {0: 1, 1: 0}, rules=None)
    with sqlite3.connect(db_path) as raw:
        sqlite_back_to_12(raw)
        raw.execute("PRAGMA user_version = 12")
        raw.commit()
    raw.close()
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == 12
        assert (await store.get_game(rec.id)).status is GameStatus.FINISHED
        assert await store.ratings(GUILD, GAME) == [] and await store.seasons(GUILD, GAME) == []
        assert await store.check_integrity() == []
        await rated_store(store)
        await assert_fold_equals(store, GUILD)


async def test_upgrade_12_to_13_on_postgres(pg_url: str, pg_server: PgServer) -> None:
    def make() -> PostgresGameStore:
        return PostgresGameStore(
            pg_url, replayer=toy_game.replay, engine_version=lambda: ENGINE, pool_size=2
        )

    async with make() as store:
        rec = await start(store, [human(0, 1), human(1, 2)])
        await finish(store, rec, {0: 1, 1: 0}, rules=None)
    conn = await asyncpg.connect(pg_url)
    try:
        await pg_back_to_12(conn)
        await conn.execute("UPDATE brazil_schema SET version = 12")
    finally:
        await conn.close()
    async with make() as store:
        assert store.migrated_from == 12
        assert (await store.get_game(rec.id)).status is GameStatus.FINISHED
        assert await store.ratings(GUILD, GAME) == []
        assert await store.check_integrity() == []
        await rated_store(store)
        await assert_fold_equals(store, GUILD)
