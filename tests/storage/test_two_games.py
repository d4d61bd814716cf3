"""One process, one database, both games: every game's old states are restored by its own
engine, whichever game was restored before it.

The stores used to keep the first replayer they loaded: once a Brazil: Imperial state had
been restored (``rules.brazil.replay_step``), every Tigris & Euphrates state that needed a
replay was replayed by Brazil's engine and failed (``RestoreFailed``), and the other way
round. Here real games of both games are played through the rules registry with seeded
random legal actions and saved as the service saves them (the store given no replayer, as
the service's is), then ``state_at`` of both games is asked for in one interleaved order and
compared with the states recorded while playing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from storage import GameSettings, GameStatus, GameStore, Seat, SqliteGameStore
from storage.base import SNAPSHOT_EVERY
from tests.storage.conftest import StoreFactory

games: Any = pytest.importorskip("rules.games")

PLAYERS = {"brazil": 4, "tigris": 3}
STEPS = 2 * SNAPSHOT_EVERY + 7
"""Actions per game: past two snapshots, so most versions need a replay from one."""


async def play_real_game(
    store: GameStore, name: str, channel: int, seed: int
) -> tuple[int, list[Any]]:
    """A game of ``name`` played with seeded random legal actions, saved step by step as the
    service saves them; returns its id and its state (parsed JSON) at every version."""
    face = games.game(name)
    rng = random.Random(seed)
    state = face.new_game(PLAYERS[name], seed=seed)
    record = await store.create_game(
        channel,
        initial_state_json=face.dump(state),
        settings=GameSettings(scenario="standard", player_count=PLAYERS[name]),
        guild_id=77,
        seats=[Seat.discord(k, 1000 + k) for k in range(PLAYERS[name])],
        status=GameStatus.RUNNING,
        game=name,
    )
    states = [json.loads(face.dump(state))]
    for _ in range(STEPS):
        if face.is_over(state):
            break
        action = rng.choice(face.legal_actions(state, None))
        described = face.describe_action(state, action)
        state, _events = face.apply(state, action)
        record = await store.save(
            record.id,
            expected_version=record.version,
            state_json=face.dump(state),
            action_json=face.action_to_json(action),
            seat=getattr(action, "seat", None),
            description=described,
        )
        states.append(json.loads(record.state_json))
    assert record.version == len(states) - 1 > SNAPSHOT_EVERY
    return record.id, states


async def test_both_games_restore_in_one_process(store_factory: StoreFactory) -> None:
    # no replayer given: each game's engine, picked by the record's game (as the service's)
    async with store_factory(replayer=None) as store:
        played = [
            (name, *await play_real_game(store, name, channel, seed))
            for name, channel, seed in (("tigris", 1, 5), ("brazil", 2, 7), ("tigris", 3, 9))
        ]
        # the reported order first: Tigris, then Brazil, then Tigris again
        _, tigris_id, tigris_states = played[0]
        _, brazil_id, brazil_states = played[1]
        assert json.loads(await store.state_at(tigris_id, 5)) == tigris_states[5]
        assert json.loads(await store.state_at(brazil_id, 5)) == brazil_states[5]
        assert json.loads(await store.state_at(tigris_id, 5)) == tigris_states[5]
        # then every version of every game, the games interleaved in a seeded order
        asks = [(game_id, v) for _, game_id, states in played for v in range(len(states))]
        random.Random(1).shuffle(asks)
        by_id = {game_id: (name, states) for name, game_id, states in played}
        wrong: list[str] = []
        for game_id, version in asks:
            name, states = by_id[game_id]
            try:
                got = json.loads(await store.state_at(game_id, version))
            except Exception as exc:
                wrong.append(f"{name} v{version}: {type(exc).__name__}: {exc}"[:200])
                continue
            if got != states[version]:
                wrong.append(f"{name} v{version}: another state")
        assert wrong == [], f"{len(wrong)} of {len(asks)} wrong: {wrong[:5]}"


async def test_the_tigris_page_serves_every_map_after_a_brazil_replay(tmp_path: Path) -> None:
    """The reported symptom, at the web layer: a bot serving both games (one process, one
    store) drew a Brazil: Imperial map of an old step, after which most maps of a Tigris &
    Euphrates game's page answered HTTP 500."""
    pytest.importorskip("aiohttp")
    from aiohttp.test_utils import TestClient, TestServer

    from service import GameService
    from web.server import WebServer

    async with SqliteGameStore(tmp_path / "both.sqlite3") as store:
        svc = GameService(store)
        tigris = (await svc.new_game(["ai:random"] * 3, game="tigris", seed=11)).game_id
        await svc.run_ai_turns(tigris, max_steps=40)
        brazil = (await svc.new_game(["ai:random"] * 4, seed=3)).game_id
        await svc.run_ai_turns(brazil, max_steps=SNAPSHOT_EVERY + 5)
        client: TestClient[Any, Any] = TestClient(TestServer(WebServer(svc).app))
        await client.start_server()
        try:
            # a Brazil map of an old step, off the snapshots: restored by a replay
            brazil_page = f"/g/{await svc.archive.token(brazil)}/"
            brazil_steps = (await (await client.get(brazil_page + "steps.json")).json())["steps"]
            old = next(s for s in brazil_steps if s["version"] % SNAPSHOT_EVERY == 3)
            resp = await client.get(brazil_page + old["map"])
            assert resp.status == 200, await resp.text()
            # then every map of the Tigris game's page
            page = f"/g/{await svc.archive.token(tigris)}/"
            steps = (await (await client.get(page + "steps.json")).json())["steps"]
            assert len(steps) == 41
            statuses = [(await client.get(page + s["map"])).status for s in steps]
            failed = len(steps) - statuses.count(200)
            assert statuses == [200] * len(steps), f"{failed} of {len(steps)} maps failed"
        finally:
            await client.close()
