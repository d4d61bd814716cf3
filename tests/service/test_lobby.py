"""The lobby's rules (service level, real SQLite): a started game keeps the lobby's number,
the channel holds one active game at every moment, and the colours humans wished in the
lobby are theirs (an AI seat choosing before them takes another colour) — issue 22."""

from __future__ import annotations

from typing import Any

import pytest

from rules.brazil import (
    GameState,
    apply,
    deciders,
    get_catalog,
    legal_actions,
    new_game,
    pending_for,
)
from rules.brazil.actions import ChooseColour
from service import GameService
from service.lobby import Lobbies
from service.results import Refused
from storage import GameStatus, SqliteGameStore
from storage.models import EntryKind, SeatKind
from tests.service.conftest import UniformAgent

CH = 900
ANA, BO = 101, 102
NAMES = {ANA: "Ana", BO: "Bo"}


class BlueLover(UniformAgent):
    """Takes blue whenever it may (the colour a human wished in the tests below)."""

    def decide(self, state: GameState, seat: int) -> Any:
        acts = legal_actions(state, seat)
        blue = [a for a in acts if isinstance(a, ChooseColour) and a.colour == "blue"]
        return blue[0] if blue else super().decide(state, seat)


def blue_factory(level: str, seed: int) -> BlueLover:
    return BlueLover(seed)


def colour_pending(st: GameState) -> bool:
    return any(
        (p := pending_for(st, d)) is not None and p.kind == "choose_colour" for d in deciders(st)
    )


async def test_the_game_keeps_the_lobby_number(service: GameService) -> None:
    """Issue 22: Start turns the lobby into the game — one games row, one number, the channel
    never free in between; the game is built as ``new_game`` builds one (same state, seed)."""
    lobby = await service.lobbies.open(
        CH, 7, ANA, scenario=None, players=2, ai_seats=0, ai_level="random", deadline_hours=48
    )
    lobby = await service.lobbies.join(lobby, BO)
    res = await service.lobbies.start(
        lobby, NAMES, default_level="random", default_scenario=None, seed=7
    )
    assert res.game_id == lobby.id
    games = await service.store.list_games(channel_id=CH, limit=None)
    assert [(g.id, g.status) for g in games] == [(lobby.id, GameStatus.RUNNING)]
    active = await service.store.get_active_game(CH)
    assert active is not None and active.id == lobby.id
    assert any(f"New game #{lobby.id} " in p.text for p in res.public())

    rec = await service.store.get_game(lobby.id)
    assert rec.version == 0 and rec.guild_id == 7
    assert [(s.seat, s.kind, s.user_id, s.name, s.colour) for s in rec.seats] == [
        (0, SeatKind.DISCORD, ANA, "Ana", None),
        (1, SeatKind.DISCORD, BO, "Bo", None),
    ]
    st = await service.state(lobby.id)
    assert rec.settings.seed == st.rng.seed == 7
    assert rec.settings.scenario == st.map and rec.settings.player_count == 2
    assert rec.settings.turn_timer_seconds == 48 * 3600  # the lobby's deadline stays
    # the same game as new_game builds from the same seats and seed
    other = await service.new_game(["Ana", "Bo"], seed=7, channel_id=CH + 1)
    assert st.model_dump() == (await service.state(other.game_id)).model_dump()
    # log entry 0 holds the initial state, as create_game writes it
    log = await service.store.get_log(lobby.id)
    assert [(e.version, e.kind) for e in log] == [(0, EntryKind.CREATED)]
    assert await service.store.state_at(lobby.id, 0) == rec.state_json
    assert await service.store.check_integrity() == []
    # the channel is taken by the game: a new lobby is refused
    with pytest.raises(Refused, match="already has a game"):
        await service.lobbies.open(
            CH, 7, BO, scenario=None, players=2, ai_seats=0, ai_level="random", deadline_hours=24
        )
    # a started lobby is closed to lobby operations
    with pytest.raises(Refused, match="closed"):
        await service.lobbies.get_open(lobby.id)


async def test_a_start_that_fails_leaves_the_lobby_open(service: GameService) -> None:
    """The lobby is not closed before the game exists: a refused start leaves it as it was."""
    lobby = await service.lobbies.open(
        CH, None, ANA, scenario=None, players=2, ai_seats=1, ai_level="random", deadline_hours=24
    )
    with pytest.raises(Refused, match="could not start"):
        await service.lobbies.start(
            lobby, NAMES, default_level="random", default_scenario="nowhere", seed=1
        )
    again = await service.lobbies.get_open(lobby.id)
    assert again.status is GameStatus.LOBBY and again.seats == lobby.seats
    active = await service.store.get_active_game(CH)
    assert active is not None and active.id == lobby.id
    res = await service.lobbies.start(
        lobby, NAMES, default_level="random", default_scenario=None, seed=1
    )
    assert res.game_id == lobby.id


async def test_a_wish_is_not_taken_by_an_ai_seat_R_SETUP_4(store: SqliteGameStore) -> None:
    """Issue 22: ``players:3 ai:1``, Bo (seat 3) wishes blue; Ana chooses in the game, then
    the AI seat (which would take blue) takes the first colour nobody wished, and Bo gets
    blue without being asked."""
    service = GameService(store, agent_factory=blue_factory)
    lobby = await service.lobbies.open(
        CH, None, ANA, scenario=None, players=3, ai_seats=1, ai_level="random", deadline_hours=24
    )
    lobby = await service.lobbies.join(lobby, BO)
    assert lobby.seat(2) is not None and lobby.seat(2).user_id == BO  # type: ignore[union-attr]
    lobby = await service.lobbies.colour(lobby.id, BO, "blue")
    res = await service.lobbies.start(
        lobby, NAMES, default_level="random", default_scenario=None, seed=3
    )
    assert [d.seat for d in res.next] == [0]  # Ana wished nothing: she chooses
    async with service.session(res.game_id) as s:
        out = await s.act(0, "colour red")
        assert out.ok
        await service.lobbies.colour_wishes(s, out)
    st = await service.state(res.game_id)
    first_free = next(c for c in get_catalog(None).colours if c not in ("red", "blue"))
    assert [p.colour for p in st.players] == ["red", first_free, "blue"]
    assert not colour_pending(st)
    assert any("blue" in p.text for p in out.public())


async def test_wishes_before_and_after_ai_seats_R_SETUP_4(store: SqliteGameStore) -> None:
    """Every human wished (seats 1 and 4), two AI seats between them: Start settles the
    whole colour step; the AI seats take what is left, in catalog order."""
    service = GameService(store, agent_factory=blue_factory)
    lobby = await service.lobbies.open(
        CH, None, ANA, scenario=None, players=4, ai_seats=2, ai_level="random", deadline_hours=24
    )
    lobby = await service.lobbies.join(lobby, BO)
    await service.lobbies.colour(lobby.id, ANA, "red")
    lobby = await service.lobbies.colour(lobby.id, BO, "blue")
    res = await service.lobbies.start(
        lobby, NAMES, default_level="random", default_scenario=None, seed=5
    )
    st = await service.state(res.game_id)
    left = [c for c in get_catalog(None).colours if c not in ("red", "blue")]
    assert [p.colour for p in st.players] == ["red", *left[:2], "blue"]
    assert not colour_pending(st)
    assert res.game_id == lobby.id


async def test_an_ai_seat_chooses_freely_without_wishes_R_SETUP_4(store: SqliteGameStore) -> None:
    """No wish to protect: the AI seat's own choice stands (here: blue)."""
    service = GameService(store, agent_factory=blue_factory)
    lobby = await service.lobbies.open(
        CH, None, ANA, scenario=None, players=2, ai_seats=1, ai_level="random", deadline_hours=24
    )
    lobby = await service.lobbies.colour(lobby.id, ANA, "red")
    res = await service.lobbies.start(
        lobby, NAMES, default_level="random", default_scenario=None, seed=5
    )
    st = await service.state(res.game_id)
    assert [p.colour for p in st.players] == ["red", "blue"]


def test_ai_colour_keeps_the_wishes_of_seats_still_to_choose_R_SETUP_4() -> None:
    """``Lobbies.ai_colour``: None when no wish is at stake; the seat's own wish (an AI
    standing in for a player) first; else the first free colour in catalog order."""
    st = new_game(3, 1, None)
    assert Lobbies.ai_colour(st, 0, {}) is None
    assert Lobbies.ai_colour(st, 0, {0: "orange"}) == ChooseColour(seat=0, colour="orange")
    assert Lobbies.ai_colour(st, 0, {2: "green"}) == ChooseColour(seat=0, colour="orange")
    st, _ = apply(st, ChooseColour(seat=0, colour="orange"))
    assert Lobbies.ai_colour(st, 1, {0: "green"}) is None  # seat 0 has chosen: nothing to keep
    assert Lobbies.ai_colour(st, 1, {2: "green"}) == ChooseColour(seat=1, colour="red")
    assert Lobbies.ai_colour(st, 1, {1: "orange", 2: "blue"}) == ChooseColour(
        seat=1, colour="green"
    )
