"""The private-news inbox: kept per game and seat until read, the read marker only moves
forward, nothing is lost across a restart, exports ignore it, checks are not disturbed."""

from __future__ import annotations

import pytest

from storage import (
    GameNotFound,
    GameStore,
    InvalidData,
    SqliteGameStore,
    dump_export,
    load_export,
)
from tests.storage.conftest import StoreFactory, new_game


async def test_news_marker_semantics(store: GameStore) -> None:
    game = await new_game(store)
    other = await new_game(store, channel_id=2000)
    assert await store.unread_news(game.id, 1) == []
    await store.add_news(game.id, 1, ["You draw a Farm.", "Your mission: ports."])
    await store.add_news(game.id, 2, ["Seat 2 only."])
    await store.add_news(other.id, 1, ["Another game."])
    await store.add_news(game.id, 1, [])  # nothing
    first = await store.unread_news(game.id, 1)
    assert [item.text for item in first] == ["You draw a Farm.", "Your mission: ports."]
    assert first[0].id < first[1].id
    assert first[0].created_at.tzinfo is not None
    # reading does not mark; marking moves the marker to the id given
    assert await store.unread_news(game.id, 1) == first
    await store.mark_news_read(game.id, 1, first[0].id)
    assert await store.unread_news(game.id, 1) == first[1:]
    await store.add_news(game.id, 1, ["Later news."])
    await store.mark_news_read(game.id, 1, first[1].id)
    later = await store.unread_news(game.id, 1)
    assert [item.text for item in later] == ["Later news."]
    # never back
    await store.mark_news_read(game.id, 1, first[0].id)
    await store.mark_news_read(game.id, 1, 0)
    assert await store.unread_news(game.id, 1) == later
    await store.mark_news_read(game.id, 1, later[-1].id)
    assert await store.unread_news(game.id, 1) == []
    # other seats and games are apart
    assert [i.text for i in await store.unread_news(game.id, 2)] == ["Seat 2 only."]
    assert [i.text for i in await store.unread_news(other.id, 1)] == ["Another game."]
    assert await store.check_integrity() == []


async def test_news_arguments_are_checked(store: GameStore) -> None:
    game = await new_game(store)
    with pytest.raises(GameNotFound):
        await store.add_news(99_999, 0, ["x"])
    with pytest.raises(GameNotFound):
        await store.unread_news(99_999, 0)
    with pytest.raises(GameNotFound):
        await store.mark_news_read(99_999, 0, 1)
    for seat in (-1, 8, True):
        with pytest.raises(InvalidData):
            await store.add_news(game.id, seat, ["x"])
    with pytest.raises(InvalidData):
        await store.add_news(game.id, 0, "one string")
    with pytest.raises(InvalidData):
        await store.add_news(game.id, 0, ["ok", 3])  # type: ignore[list-item]
    with pytest.raises(InvalidData):
        await store.mark_news_read(game.id, 0, -1)
    assert await store.unread_news(game.id, 0) == []  # the failed adds left nothing


async def test_news_survive_a_restart(store_factory: StoreFactory) -> None:
    async with store_factory() as store:
        game = await new_game(store)
        await store.add_news(game.id, 0, ["one", "two", "three"])
        items = await store.unread_news(game.id, 0)
        await store.mark_news_read(game.id, 0, items[0].id)
    async with store_factory() as store:  # reopened: inbox and marker are still there
        assert await store.unread_news(game.id, 0) == items[1:]
        await store.mark_news_read(game.id, 0, items[1].id)
        await store.add_news(game.id, 0, ["four"])
    async with store_factory() as store:
        assert [i.text for i in await store.unread_news(game.id, 0)] == ["three", "four"]
        assert (await store.unread_news(game.id, 0))[-1].id > items[-1].id


async def test_export_ignores_news(store: GameStore) -> None:
    game = await new_game(store)
    await store.add_news(game.id, 0, ["secret"])
    text = dump_export(await store.export_game(game.id))
    assert "secret" not in text
    copy = await store.import_game(load_export(text), channel_id=4242)
    assert await store.unread_news(copy.id, 0) == []
    assert [i.text for i in await store.unread_news(game.id, 0)] == ["secret"]


async def test_news_rows_go_with_their_game(sqlite_store: SqliteGameStore) -> None:
    """Games are never deleted by the store, but the news tables do not stand in the way of
    a database administrator who deletes one (they cascade), nor of the checks."""
    game = await new_game(sqlite_store)
    await sqlite_store.add_news(game.id, 0, ["x"])
    await sqlite_store.mark_news_read(game.id, 0, 0)
    assert await sqlite_store.check_integrity() == []
    async with sqlite_store._write() as db:
        rows = list(await db.execute_fetchall("PRAGMA foreign_key_list(news)"))
        assert [(r[2], r[6]) for r in rows] == [("games", "CASCADE")]
        rows = list(await db.execute_fetchall("PRAGMA foreign_key_list(news_read)"))
        assert [(r[2], r[6]) for r in rows] == [("games", "CASCADE")]
