"""A game's web page token (schema 7): one per game, replaced to revoke, found by its token."""

from __future__ import annotations

import pytest

from storage.base import GameStore
from storage.errors import GameNotFound, InvalidData
from tests.storage.conftest import StoreFactory, new_game


async def test_a_game_has_one_token_replaced_to_revoke(store: GameStore) -> None:
    a = await new_game(store, 1000)
    b = await new_game(store, 1001)
    assert await store.web_token(a.id) is None
    await store.set_web_token(a.id, "A" * 24)
    await store.set_web_token(b.id, "B" * 24)
    assert await store.web_token(a.id) == "A" * 24
    assert await store.game_of_web_token("A" * 24) == a.id
    await store.set_web_token(a.id, "C" * 24)  # a new address: the old one is gone
    assert await store.web_token(a.id) == "C" * 24
    assert await store.game_of_web_token("A" * 24) is None
    assert await store.game_of_web_token("C" * 24) == a.id
    assert await store.game_of_web_token("B" * 24) == b.id
    assert await store.game_of_web_token("nothing like it") is None


async def test_bad_tokens_are_refused_and_change_nothing(store: GameStore) -> None:
    a = await new_game(store, 1000)
    b = await new_game(store, 1001)
    await store.set_web_token(a.id, "A" * 24)
    with pytest.raises(InvalidData):
        await store.set_web_token(b.id, "short")
    with pytest.raises(InvalidData):  # another game's token
        await store.set_web_token(b.id, "A" * 24)
    with pytest.raises(GameNotFound):
        await store.set_web_token(999, "D" * 24)
    assert await store.web_token(b.id) is None
    assert await store.game_of_web_token("A" * 24) == a.id


async def test_tokens_survive_a_restart(store_factory: StoreFactory) -> None:
    async with store_factory() as store:
        a = await new_game(store, 1000)
        await store.set_web_token(a.id, "A" * 24)
    async with store_factory() as store:
        assert await store.game_of_web_token("A" * 24) == a.id
        assert await store.check_integrity() == []
