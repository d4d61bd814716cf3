"""Storage of pacing (schema 4): the upgrade from schema 3 keeps every game, timers fire
once across store objects on the same file, decision clocks, breaks, preferences, stand-ins."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import GameStore, SqliteGameStore
from storage.errors import InvalidData
from storage.migrations import LATEST
from tests.storage import toy_game
from tests.storage.conftest import StoreFactory, new_game, play
from tests.storage.old_schema import sqlite_back_to_9

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def test_upgrade_3_to_4_with_a_game_in_the_file(db_path: Path) -> None:
    """A game saved under schema 3 is still there, unchanged, after the upgrade."""
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        rec = await new_game(store)
        rec = await play(store, rec, [3, 1, 4])
        state = rec.state_json
    # take the file back to a v3 file: drop the v4 (to v8) tables, the v10 column, and reset
    # user_version
    with sqlite3.connect(db_path) as raw:
        sqlite_back_to_9(raw)  # schemas 11 and 10
        for t in (
            "pacing_games",
            "pacing_players",
            "pacing_breaks",
            "pacing_decisions",
            "pacing_timers",
            "pacing_standins",
            "news",  # schema 5
            "news_read",
            "web_pages",  # schema 7
            "pacing_ticks",  # schema 8
        ):
            raw.execute(f"DROP TABLE {t}")
        raw.execute("PRAGMA user_version = 3")
        raw.commit()
    raw.close()
    assert LATEST >= 4
    async with SqliteGameStore(db_path, replayer=toy_game.replay) as store:
        assert store.migrated_from == 3
        again = await store.get_game(rec.id)
        assert again.version == rec.version and again.state_json == state
        assert await store.check_integrity() == []
        assert (await store.get_pacing(rec.id)).settings_json == "{}"


async def test_timer_fires_once_across_store_objects(store_factory: StoreFactory) -> None:
    async with store_factory() as store:
        rec = await new_game(store)
        assert await store.claim_timer(rec.id, 0, 1, "remind1", T0)
        assert not await store.claim_timer(rec.id, 0, 1, "remind1", T0)
        assert await store.claim_timer(rec.id, 0, 1, "remind2", T0)  # another kind
        assert await store.claim_timer(rec.id, 1, 1, "remind1", T0)  # another version
    # a "restart": a new store object on the same database
    async with store_factory() as store:
        assert not await store.claim_timer(rec.id, 0, 1, "remind1", T0 + timedelta(hours=1))
        pending = await store.timers(rec.id, unfinished=True)
        assert len(pending) == 3
        await store.finish_timer(rec.id, 0, 1, "remind1", T0, "sent")
        assert len(await store.timers(rec.id, unfinished=True)) == 2
        done = [t for t in await store.timers(rec.id) if t.done is not None]
        assert [(t.kind, t.outcome) for t in done] == [("remind1", "sent")]


async def test_concurrent_claims_only_one_wins(store_factory: StoreFactory) -> None:
    async with store_factory() as a, store_factory() as b:
        rec = await new_game(a)
        got = await asyncio.gather(
            *[(a if i % 2 else b).claim_timer(rec.id, 0, 0, "deadline", T0) for i in range(10)]
        )
        assert sorted(got) == [False] * 9 + [True]


async def test_decision_clocks(store: GameStore) -> None:
    rec = await new_game(store)
    open_ = await store.sync_decisions(rec.id, 0, [0], T0)
    assert [(c.seat, c.since_version, c.started) for c in open_] == [(0, 0, T0)]
    # still deciding later: the clock keeps its start
    later = T0 + timedelta(hours=2)
    open_ = await store.sync_decisions(rec.id, 3, [0, 2], later)
    assert [(c.seat, c.since_version, c.started) for c in open_] == [(0, 0, T0), (2, 3, later)]
    assert await store.mute_decision(rec.id, 2, 3)
    assert (await store.open_decisions(rec.id))[1].muted
    # seat 0 done: its clock closes; muting a closed decision does nothing
    open_ = await store.sync_decisions(rec.id, 4, [2], later)
    assert [c.seat for c in open_] == [2]
    assert not await store.mute_decision(rec.id, 0, 0)
    # seat 0 deciding again: a new clock from the new version
    open_ = await store.sync_decisions(rec.id, 6, [0, 2], later + timedelta(hours=1))
    assert [(c.seat, c.since_version) for c in open_] == [(0, 6), (2, 3)]


async def test_breaks_prefs_and_stand_ins(store: GameStore) -> None:
    rec = await new_game(store)
    away = await store.add_break(rec.id, 1, T0, T0 + timedelta(days=3), by_user=102)
    pause = await store.add_break(rec.id, None, T0 + timedelta(hours=1), None, reason="vote")
    with pytest.raises(InvalidData):
        await store.add_break(rec.id, 1, T0, None)
    with pytest.raises(InvalidData):
        await store.add_break(rec.id, 1, datetime(2026, 1, 1), T0)  # naive
    await store.end_break(away.id, T0 + timedelta(days=1))
    await store.end_break(pause.id, T0 + timedelta(hours=5))
    got = await store.breaks(rec.id)
    assert [(b.seat, b.end) for b in got] == [
        (1, T0 + timedelta(days=1)),
        (None, T0 + timedelta(hours=5)),
    ]
    # ending again later does not extend a break that already ended
    await store.end_break(away.id, T0 + timedelta(days=2))
    assert (await store.breaks(rec.id))[0].end == T0 + timedelta(days=1)

    assert (await store.get_player_prefs(5)).tz is None
    await store.set_player_prefs(5, tz="Europe/Lisbon")
    p = await store.set_player_prefs(5, quiet=("22:00", "08:00"))
    assert (p.tz, p.quiet_start, p.quiet_end) == ("Europe/Lisbon", "22:00", "08:00")
    p = await store.set_player_prefs(5, clear_quiet=True)
    assert (p.tz, p.quiet_start) == ("Europe/Lisbon", None)

    await store.set_pacing_settings(rec.id, '{"policy": "ai"}')
    await store.set_pause_votes(rec.id, [102, 101, 102])
    gp = await store.get_pacing(rec.id)
    assert gp.settings_json == '{"policy": "ai"}' and gp.pause_votes == (101, 102)
    with pytest.raises(InvalidData):
        await store.set_pacing_settings(rec.id, "{not json")

    assert await store.start_stand_in(rec.id, 1, 102, "heuristic", T0)
    assert not await store.start_stand_in(rec.id, 1, 102, "heuristic", T0)  # one at a time
    assert [s.user_id for s in await store.stand_ins(rec.id)] == [102]
    ended = await store.end_stand_in(rec.id, 1, T0 + timedelta(hours=3))
    assert ended is not None and ended.ended == T0 + timedelta(hours=3)
    assert await store.stand_ins(rec.id) == []
    assert await store.end_stand_in(rec.id, 1, T0) is None
    assert len(await store.stand_ins(rec.id, open_only=False)) == 1
