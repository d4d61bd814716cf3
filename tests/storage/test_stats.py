"""History and per-player statistics over finished games."""

from __future__ import annotations

import pytest

from storage import GameResult, GameStatus, GameStore, PlayerStats
from tests.storage.conftest import new_game, play

ALICE, BOB, CAROL = 1, 2, 3


async def finished(
    store: GameStore,
    channel: int,
    seats: dict[int, int],
    scores: dict[int, int],
    winners: set[int],
    guild: int = 50,
) -> None:
    game = await play(store, await new_game(store, channel, guild_id=guild, seats=seats), [1])
    await store.finish_game(
        game.id, GameResult(scores=scores, winners=frozenset(winners)), expected_version=1
    )


async def test_player_statistics(store: GameStore) -> None:
    await finished(store, 1, {0: ALICE, 1: BOB}, {0: 80, 1: 60}, {0})
    await finished(store, 1, {0: BOB, 1: ALICE}, {0: 70, 1: 70}, {0, 1})  # a tie: both win
    await finished(store, 2, {0: ALICE, 2: CAROL}, {0: 40, 2: 90}, {2}, guild=51)
    # neither abandoned nor still running games count
    abandoned = await new_game(store, 3, seats={0: ALICE})
    await store.set_status(abandoned.id, GameStatus.ABANDONED)
    await new_game(store, 4, seats={0: ALICE})

    alice = await store.player_stats(ALICE)
    assert alice.model_copy(update={"average_score": 0.0}) == PlayerStats(
        user_id=ALICE, games=3, wins=2, average_score=0.0, best_score=80
    )
    assert alice.average_score == pytest.approx(190 / 3)
    assert alice.win_rate == pytest.approx(2 / 3)
    bob = await store.player_stats(BOB)
    assert (bob.games, bob.wins, bob.average_score, bob.best_score) == (2, 1, 65.0, 70)
    in_guild = await store.player_stats(ALICE, guild_id=50)
    assert (in_guild.games, in_guild.wins, in_guild.average_score) == (2, 2, 75.0)
    nobody = await store.player_stats(999)
    assert (nobody.games, nobody.wins, nobody.average_score, nobody.win_rate) == (0, 0, None, 0.0)

    board = await store.leaderboard()
    assert [(p.user_id, p.wins) for p in board] == [(ALICE, 2), (CAROL, 1), (BOB, 1)]
    assert [p.user_id for p in await store.leaderboard(guild_id=51)] == [CAROL, ALICE]
    assert len(await store.leaderboard(limit=1)) == 1

    history = await store.list_games(user_id=ALICE, statuses=[GameStatus.FINISHED])
    assert len(history) == 3 and all(game.winners for game in history)
    assert all(game.finished_at is not None for game in history)


async def test_unscored_seat_counts_as_played(store: GameStore) -> None:
    await finished(store, 1, {0: ALICE, 1: BOB}, {0: 10}, {0})
    bob = await store.player_stats(BOB)
    assert (bob.games, bob.wins, bob.average_score, bob.best_score) == (1, 0, None, None)
