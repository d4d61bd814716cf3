"""The rating rules through the game service (issue #31, ``docs/ratings.md``): whole games of
the example game (``examples/``: a few decisions a game) played to their natural end through
``svc.choose`` and the computer players; the ratings, leaderboards, histories and seasons of
``svc.ratings``; what is not rated (a local game, an abandoned one, one seat), a stand-in at
the end, computer seats as fixed points, two games ending at once for one player, a finished
game that cannot be rolled back and the tables rebuilt from the stored results."""

from __future__ import annotations

import asyncio
import itertools
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from rules.registry import registrations
from service import GameService, moderation
from service.games import adapter
from service.rating import NEW, SETTLED_GAMES, ai_key, rate, shown, user_key
from service.ratings import RULES, ai_rating, rated_seats, stored_equal
from service.results import Refused, SeatSpec
from storage import GameStatus, Seat, SqliteGameStore
from storage.models import SeatKind

GAME = next(n for n, r in registrations().items() if r.face.startswith("examples."))
"""The example game (two players, a few decisions a game)."""
A = adapter(GAME)
GUILD = 42
ANA, BO, CY = 101, 102, 103
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy"}


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[GameService]:
    async with SqliteGameStore(str(tmp_path / "bot.sqlite3")) as store:
        service = GameService(store)  # the real computer players (the game's own)
        yield service
        await service.aclose()


def human(user: int) -> SeatSpec:
    return SeatSpec(name=NAMES[user], user_id=user)


async def play_out(svc: GameService, gid: int, rng: random.Random, steps: int = 500) -> None:
    """Humans choose random legal actions, the computer seats (and stand-ins) play theirs,
    until the game is over."""
    for _ in range(steps):
        st = await svc.state(gid)
        if A.over(st):
            return
        specs = (await svc.info(gid)).seats
        seat = A.face.deciders(st)[0]
        if specs[seat].ai is not None:
            await svc.run_ai_turns(gid)
            continue
        res = await svc.choose(gid, seat, rng.choice(A.face.legal_actions(st, seat)))
        assert not res.errors, res.errors
    raise AssertionError("the game did not end")


async def game(
    svc: GameService, seats: list[SeatSpec], *, seed: int, guild: int | None = GUILD
) -> int:
    res = await svc.new_game(seats, game=GAME, seed=seed, guild_id=guild)
    await play_out(svc, res.game_id, random.Random(seed))
    assert (await svc.store.get_game(res.game_id)).status is GameStatus.FINISHED
    return res.game_id


async def assert_replays(svc: GameService, guild: int = GUILD) -> None:
    folded = await svc.ratings.recompute(guild, GAME)
    for season in [0] + [s.number for s in await svc.ratings.seasons(guild, GAME)]:
        assert stored_equal(folded, await svc.store.ratings(guild, GAME, season=season), season)


async def test_a_game_of_a_server_is_rated_at_its_natural_end(svc: GameService) -> None:
    gid = await game(svc, [human(ANA), human(BO)], seed=1)
    rec = await svc.store.get_game(gid)
    board = await svc.ratings.leaderboard(GUILD, GAME)
    assert {r.name for r in board} == {"Ana", "Bo"}  # seat names, never a user id
    assert all(r.provisional and r.games == 1 for r in board)
    winner = next(s for s in rec.seats if s.winner)
    tied = all(s.winner for s in rec.seats)
    top = board[0]
    if not tied:
        assert top.user_id == winner.user_id and top.place == 1 and board[1].place == 2
        assert top.rating > shown(NEW) > board[1].rating or top.rating > board[1].rating
    row, history = await svc.ratings.of(GUILD, GAME, ANA)
    assert row is not None and row.player == user_key(ANA)
    assert [(h.game_id, h.before) for h in history] == [(gid, shown(NEW))]
    assert history[0].after == row.rating and history[0].when == rec.finished_at
    assert await svc.ratings.place_of(GUILD, GAME, ANA) == row
    assert await svc.ratings.place_of(GUILD, GAME, CY) is None
    assert await svc.ratings.of(GUILD, GAME, CY) == (None, [])
    assert await svc.ratings.leaderboard(GUILD + 1, GAME) == []  # each server its own
    assert len(await svc.ratings.leaderboard(GUILD, GAME, limit=1)) == 1
    await assert_replays(svc)


async def test_games_that_are_not_rated(svc: GameService) -> None:
    await game(svc, [human(ANA), human(BO)], seed=2, guild=None)  # a local game
    res = await svc.new_game([human(ANA), human(BO)], game=GAME, seed=3, guild_id=GUILD)
    await moderation.abandon(svc, res.game_id)  # a moderator's end: abandoned, no result
    await game(svc, [SeatSpec("AI random", ai="random"), SeatSpec("AI x", ai="heuristic")], seed=4)
    assert await svc.ratings.leaderboard(GUILD, GAME) == []
    assert await svc.store.rating_changes(GUILD, GAME) == []
    # one seat, or a hot-seat one, is never rated (the plan the store applies)
    solo = [Seat.discord(0, ANA).model_copy(update={"score": 3, "winner": True})]
    assert rated_seats(GAME, solo) is None
    hot = [*solo, Seat.local(1, "Ana's friend").model_copy(update={"score": 1})]
    assert rated_seats(GAME, hot) is None


async def test_a_stand_in_at_the_end_is_not_rated_but_counts(svc: GameService) -> None:
    res = await svc.new_game([human(ANA), human(BO)], game=GAME, seed=5, guild_id=GUILD)
    await svc.set_stand_in(res.game_id, 1, "random")  # Bo timed out: an AI plays for him
    await play_out(svc, res.game_id, random.Random(5))
    board = await svc.ratings.leaderboard(GUILD, GAME)
    assert [r.user_id for r in board] == [ANA]  # Bo's rating does not move
    assert await svc.ratings.of(GUILD, GAME, BO) == (None, [])
    changes = await svc.store.rating_changes(GUILD, GAME)
    assert [(c.player, c.fixed) for c in changes] == [
        (user_key(ANA), False),
        (ai_key("random"), True),
    ]
    fixed = ai_rating(GAME, "random")
    ana = changes[0]
    expected = rate([NEW, fixed], [ana.place, changes[1].place])[0]
    assert (board[0].mu, board[0].sigma) == (expected.mu, expected.sigma)
    await assert_replays(svc)


async def test_computer_seats_are_fixed_points(svc: GameService, tmp_path: Path) -> None:
    for seed in range(6, 9):
        await game(svc, [human(ANA), SeatSpec("AI random", ai="random")], seed=seed)
    assert [r.player for r in await svc.store.ratings(GUILD, GAME)] == [user_key(ANA)]
    changes = [c for c in await svc.store.rating_changes(GUILD, GAME) if c.fixed]
    fixed = ai_rating(GAME, "random")
    assert len(changes) == 3
    assert all(
        (c.mu_before, c.mu_after, c.sigma_after) == (fixed.mu,) * 2 + (fixed.sigma,)
        for c in changes
    )


async def test_provisional_until_settled(svc: GameService) -> None:
    for seed in range(SETTLED_GAMES):
        await game(svc, [human(ANA), human(BO)], seed=20 + seed)
    board = await svc.ratings.leaderboard(GUILD, GAME)
    assert all(r.games == SETTLED_GAMES and not r.provisional for r in board)
    _, history = await svc.ratings.of(GUILD, GAME, BO)
    assert len(history) == SETTLED_GAMES
    assert all(a.after == b.before for a, b in itertools.pairwise(history))
    await assert_replays(svc)


async def test_a_season_updates_both_tables(svc: GameService) -> None:
    with pytest.raises(Refused) as none:
        await svc.ratings.end_season(GUILD, GAME, by=ANA)
    assert none.value.key == "svc.ratings.season.none"
    with pytest.raises(Refused) as empty:
        await svc.ratings.start_season(GUILD, GAME, "   ", by=ANA)
    assert empty.value.key == "svc.ratings.season.name"
    await game(svc, [human(ANA), human(BO)], seed=30)
    season = await svc.ratings.start_season(GUILD, GAME, "Autumn", by=ANA)
    with pytest.raises(Refused) as running:
        await svc.ratings.start_season(GUILD, GAME, "Winter", by=ANA)
    assert running.value.key == "svc.ratings.season.running"
    assert "Autumn" in running.value.text("en")
    await game(svc, [human(ANA), human(CY)], seed=31)
    alltime = {r.user_id: r for r in await svc.ratings.leaderboard(GUILD, GAME)}
    inseason = {r.user_id: r for r in await svc.ratings.leaderboard(GUILD, GAME, season.number)}
    assert alltime[ANA].games == 2 and inseason[ANA].games == 1 and BO not in inseason
    ended = await svc.ratings.end_season(GUILD, GAME, by=ANA)
    final = await svc.ratings.leaderboard(GUILD, GAME, season.number)
    await game(svc, [human(ANA), human(CY)], seed=32)
    assert await svc.ratings.leaderboard(GUILD, GAME, season.number) == final
    assert (await svc.ratings.seasons(GUILD, GAME)) == [ended]
    with pytest.raises(Refused) as taken:  # a name the game's seasons had here, in any case
        await svc.ratings.start_season(GUILD, GAME, "  autumn ", by=ANA)
    assert taken.value.key == "svc.ratings.season.taken"
    assert "autumn" in taken.value.text("en") and "{" not in taken.value.text("hu")
    await assert_replays(svc)


async def test_two_games_ending_at_once_for_one_player(svc: GameService) -> None:
    ids = [
        (
            await svc.new_game([human(ANA), human(who)], game=GAME, seed=40 + n, guild_id=GUILD)
        ).game_id
        for n, who in enumerate((BO, CY))
    ]
    await asyncio.gather(*(play_out(svc, gid, random.Random(gid)) for gid in ids))
    row, history = await svc.ratings.of(GUILD, GAME, ANA)
    assert row is not None and row.games == 2 and {h.game_id for h in history} == set(ids)
    assert history[1].before == history[0].after  # the second started from the first
    await assert_replays(svc)


async def test_a_finished_game_stays_rated_and_the_tables_rebuild(
    svc: GameService, tmp_path: Path
) -> None:
    """A moderator cannot roll a finished game back (the store never un-finishes a game):
    its rating stays. The tables are rebuilt from the stored results on demand (what a game
    taken back from its finished state would need)."""
    gid = await game(svc, [human(ANA), human(BO)], seed=50)
    before = await svc.store.ratings(GUILD, GAME)
    with pytest.raises(Refused):
        await moderation.rollback(svc, gid, 1, by=CY, reason="a wrong click")
    assert await svc.store.ratings(GUILD, GAME) == before
    with sqlite3.connect(tmp_path / "bot.sqlite3") as raw:  # a table gone wrong by hand
        raw.execute("UPDATE ratings SET mu = 0, games = 9 WHERE player = ?", (user_key(ANA),))
    raw.close()
    assert await svc.store.ratings(GUILD, GAME) != before
    folded = await svc.ratings.take_back(GUILD, GAME)
    assert stored_equal(folded, before)
    assert await svc.store.ratings(GUILD, GAME) == before
    assert RULES.plan(GAME, (await svc.store.get_game(gid)).seats) is not None
    await assert_replays(svc)


def test_a_stand_in_seat_is_planned_as_its_level() -> None:
    seats = [
        Seat.discord(0, ANA).model_copy(update={"score": 1}),
        Seat(seat=1, kind=SeatKind.DISCORD, user_id=BO, ai_level="search", score=2, winner=True),
    ]
    plan = rated_seats(GAME, seats)
    assert plan is not None
    assert [(p.player, p.place, p.fixed is not None) for p in plan] == [
        (user_key(ANA), 2, False),
        (ai_key("search"), 1, True),
    ]
