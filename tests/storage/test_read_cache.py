"""The opt-in read cache of ``SqliteGameStore(cache_reads=True)`` (the bot's one store per
process): ``get_game`` answers from memory until the next write, and every write (save,
undo, settings, seats, status, another game's) is seen at once."""

from __future__ import annotations

from pathlib import Path

from storage import GameStatus, Seat, SqliteGameStore
from tests.storage import toy_game
from tests.storage.conftest import ENGINE, FakeClock, new_game, play


async def test_cached_reads_see_every_write(db_path: Path, clock: FakeClock) -> None:
    async with (
        SqliteGameStore(
            db_path, clock=clock, replayer=toy_game.replay, engine_version=lambda: ENGINE,
            cache_reads=True,
        ) as cached,
        SqliteGameStore(db_path, replayer=toy_game.replay) as plain,
    ):  # fmt: skip
        game = await new_game(cached)
        other = await new_game(cached, channel_id=2000)

        async def same() -> None:
            assert await cached.get_game(game.id) == await plain.get_game(game.id)
            assert await cached.get_game(other.id) == await plain.get_game(other.id)

        await same()
        game = await play(cached, game, [1, 2, 3])
        await same()
        await cached.get_game(game.id)
        await play(cached, other, [4])  # another game's write
        await same()
        await cached.undo(game.id, 2, by=0, expected_version=3)
        await same()
        await cached.update_settings(game.id, status_message_id=123)
        await same()
        assert (await cached.get_game(game.id)).settings.status_message_id == 123
        await cached.assign_seat(game.id, Seat.ai(3, "random", name="AI"))
        await same()
        await cached.set_status(game.id, GameStatus.ABANDONED)
        await same()


async def test_cached_reads_hit_until_a_write(db_path: Path) -> None:
    async with SqliteGameStore(db_path, replayer=toy_game.replay, cache_reads=True) as cached:
        game = await new_game(cached)
        first = await cached.get_game(game.id)
        assert await cached.get_game(game.id) is first  # from memory
        await cached.update_settings(game.id, posted_version=1)
        again = await cached.get_game(game.id)
        assert again is not first and again.settings.posted_version == 1
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as plain:
        game2 = await plain.get_game(game.id)
        assert await plain.get_game(game.id) is not game2  # off by default
