"""Property tests over whole games: invariants, JSON round trip, determinism, legality.

Seeded random self-play drives the engine through setup, every action and combat; hypothesis
picks seeds, prefixes and malformed inputs.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devtools.brazil.selfplay import check_invariants, play_random_game, run_selfplay
from rules.brazil import (
    GameState,
    RulesError,
    apply,
    legal_actions,
    new_game,
    parse_action,
    replay_step,
)
from rules.brazil.actions import ACTION_TYPES

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_prefix(players: int, seed: int, steps: int) -> tuple[GameState, list[Any]]:
    rng = random.Random(seed)
    state = new_game(players, seed)
    taken = []
    for _ in range(steps):
        if state.phase == "ended":
            break
        action = rng.choice(legal_actions(state))
        taken.append(action)
        state, _ = apply(state, action)
    return state, taken


@SETTINGS
@given(st.integers(1, 4), st.integers(0, 10_000), st.integers(0, 400))
def test_invariants_hold_and_json_round_trips(players: int, seed: int, steps: int):
    state, _ = random_prefix(players, seed, steps)
    check_invariants(state)
    assert (
        GameState.model_validate_json(state.model_dump_json()).model_dump_json()
        == state.model_dump_json()
    )


@SETTINGS
@given(st.integers(1, 4), st.integers(0, 10_000), st.integers(0, 300))
def test_same_seed_same_actions_byte_identical(players: int, seed: int, steps: int):
    a, taken = random_prefix(players, seed, steps)
    # Replay the same actions through their JSON form, as storage does.
    b = new_game(players, seed)
    for act in taken:
        b = GameState.model_validate_json(replay_step(b.model_dump_json(), act.to_json()))
    assert a.model_dump_json() == b.model_dump_json()


@SETTINGS
@given(st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 300))
def test_every_listed_action_is_accepted(players: int, seed: int, steps: int):
    state, _ = random_prefix(players, seed, steps)
    for action in legal_actions(state)[:60]:
        apply(state, action)  # must not raise


@st.composite
def junk_actions(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(sorted(ACTION_TYPES)))
    fields = ACTION_TYPES[kind].__dataclass_fields__
    out: dict[str, Any] = {"type": kind, "seat": draw(st.integers(-1, 4))}
    words = st.sampled_from(
        [
            "D4",
            "C3",
            "H6",
            "Z9",
            "sawmill",
            "olinda",
            "gold",
            "coffee",
            "archer1",
            "monarch",
            "militia",
            "free",
            "extra",
            "build",
            "recruit",
            "I-1",
            "dye",
            "victoria",
            "",
        ]
    )
    for name in fields:
        if name in ("type", "seat") or draw(st.booleans()):
            continue
        out[name] = draw(
            st.one_of(
                words, st.integers(-1, 7), st.booleans(), st.none(), st.lists(words, max_size=4)
            )
        )
    return out


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 50), junk_actions())
def test_bad_input_is_rejected_cleanly_and_changes_nothing(seed: int, data: dict[str, Any]):
    state, _ = random_prefix(2, seed, 60 + seed)
    before = state.model_dump_json()
    try:
        action = parse_action(data)
    except ValueError:
        return  # malformed: never reaches the engine
    try:
        apply(state, action)
    except RulesError as e:
        assert e.message  # a plain sentence for the player
    assert state.model_dump_json() == before  # apply never mutates its input


@pytest.mark.slow
def test_short_selfplay_every_player_count():
    for n in (1, 2, 3, 4):
        s = run_selfplay(n, games=2, seed=100 + n, max_rounds=25)
        assert s.failures == [], s.failures
        assert s.games == 2 and s.actions > 0


@pytest.mark.slow
def test_random_game_reaches_the_natural_end__R_END_1():
    # Random play reaches an era III reveal in most 3-player games (about 70%, see the
    # self-play figures); the first of a few fixed seeds that does is checked to the end.
    for seed in range(1, 7):
        final = play_random_game(3, seed, max_rounds=80)
        if final.phase == "ended":
            break
    assert final.phase == "ended" and final.end_triggered
    assert final.result is not None and final.result["winners"]
    assert len(final.result["scores"]) == 3
