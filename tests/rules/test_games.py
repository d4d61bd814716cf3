"""The game registry (issue 18, the platform): every game has the same face, picked by name,
and the properties that must hold for every game hold for each, over seeded self-play."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rules.games import DEFAULT, UnknownGame, game, game_of, load_state, names, replay_step
from rules.selfplay import play

GAMES = names()


def test_the_registry_names_every_registered_game_the_default_first() -> None:
    # Brazil: Imperial and Tigris & Euphrates, and whatever else is registered
    assert GAMES[0] == "brazil" and {"brazil", "tigris"} <= set(GAMES)
    assert DEFAULT == "brazil"
    assert game().name == "brazil" and game(" Tigris ").name == "tigris"
    with pytest.raises(UnknownGame, match=f"choose {', '.join(GAMES)}"):
        game("chess")


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_game_plays_seeded_self_play_with_its_invariants(name: str) -> None:
    """Listing changes nothing, notation and JSON round trips, the game's own invariants
    (for Tigris & Euphrates: T-COMP tile conservation, T-VOC-6 leaders, T-INFO views), exact
    replay — for every player count of the game."""
    g = game(name)
    for players in range(g.min_players, g.max_players + 1):
        r = play(g, players, seed=players, sample=4)
        assert r.natural_end, (name, players)


@pytest.mark.parametrize("name", GAMES)
def test_a_state_knows_its_game_and_storage_replays_it(name: str) -> None:
    g = game(name)
    state = g.new_game(g.max_players, seed=5)
    assert game_of(state) is g and game_of(g.view(state, None)) is g
    assert load_state(name, g.dump(state)) == state
    seat = g.deciders(state)[0]
    action = g.legal_actions(state, seat)[0]
    after, _ = g.apply(state, action)
    assert replay_step(name, g.dump(state), g.action_to_json(action)) == g.dump(after)
    with pytest.raises(TypeError):
        game_of(object())


def test_a_seat_that_does_not_decide_has_no_legal_action() -> None:
    for name in GAMES:
        g = game(name)
        state = g.new_game(2, seed=1)
        idle = [s for s in range(2) if s not in g.deciders(state)]
        for seat in idle:
            assert g.legal_actions(state, seat) == []


@pytest.mark.slow
def test_the_rules_cli_plays_and_benches_tigris() -> None:
    run = [sys.executable, "-m", "rules"]
    out = subprocess.run(
        [*run, "selfplay", "--game", "tigris", "--games", "2", "--players", "3"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "tigris players=3: 2 games" in out and "0 failures" in out
    out = subprocess.run(
        [*run, "bench", "--game", "tigris", "--players", "2", "--seconds", "0.3"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "tigris players=2:" in out and "actions/s" in out
    bad = subprocess.run([*run, "selfplay", "--game", "chess"], capture_output=True, text=True)
    assert bad.returncode == 2 and f"unknown game 'chess': choose {', '.join(GAMES)}" in bad.stderr
