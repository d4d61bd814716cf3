"""The lobby's rules (service level, real SQLite): a started game keeps the lobby's number,
the channel holds one active game at every moment, and the colours humans wished in the
lobby are theirs (an AI seat choosing before them takes another colour) — issue 22."""

from __future__ import annotations

from typing import Any

import pytest

from rules import GameState, deciders, legal_actions, pending_for
from rules.actions import ChooseColour
from service import GameService
from service.results import Refused
from storage import GameStatus
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
