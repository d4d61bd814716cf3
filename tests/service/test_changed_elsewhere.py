"""A game changed by another process (storage tells the service: ``GameChange``): the service
drops the turn's events it kept, sessions read before are loaded again under the lock, and
the surfaces' hooks are called (issue 19, part 3). Two service objects on one database file
stand for the two processes; the change is handed over as the PostgreSQL store would."""

from __future__ import annotations

from pathlib import Path

from rules.brazil import deciders, format_action, legal_actions
from service import GameService
from storage import GameChange, SqliteGameStore


async def test_a_change_elsewhere_makes_the_service_forget_and_reload(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    async with SqliteGameStore(db) as one, SqliteGameStore(db) as two:
        here, there = GameService(one), GameService(two)
        told: list[int | None] = []
        here.on_changed_elsewhere.append(told.append)
        gid = (await here.new_game(["Ana", "Bo"], seed=7)).game_id
        st = await here.state(gid)
        seat = deciders(st)[0]
        res = await here.act(gid, seat, format_action(st, legal_actions(st, seat)[0]))
        assert res.ok, res.errors
        read_before = await here.peek(gid)
        here._turn_events[gid] = []  # something remembered of the turn
        st = await there.state(gid)
        seat = deciders(st)[0]
        res = await there.act(gid, seat, format_action(st, legal_actions(st, seat)[0]))
        assert res.ok, res.errors
        here.changed_elsewhere(GameChange(gid, res.version))
        assert gid not in here._turn_events
        assert told == [gid]
        async with here.session(gid, loaded=read_before) as s:
            assert s.version == res.version > read_before.version  # loaded again
        here.changed_elsewhere(GameChange(None))  # changes may have been missed: every game
        assert told == [gid, None]
