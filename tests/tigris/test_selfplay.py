"""Seeded random self-play with the invariants checked after every step (rules.tigris.selfplay),
the notation, views, determinization, undo points and the JSON round trip."""

from __future__ import annotations

import json
import random

import pytest

from rules.errors import InvalidAction
from rules.tigris import (
    Action,
    apply,
    complete,
    describe_action,
    determinize,
    format_action,
    legal_actions,
    new_game,
    parse_text,
    undo_depth,
    undoable,
    view,
)
from rules.tigris.actions import Action as A
from rules.tigris.messages import EN
from rules.tigris.selfplay import play_game
from tests.tigris.helpers import leader, position, sq, support

GAMES = 30


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_selfplay_invariants_T_COMP_1_T_VOC_6_T_INFO_1(players: int) -> None:
    natural = 0
    for seed in range(GAMES if players == 2 else GAMES // 3):
        r = play_game(players, seed, check=True, notation_sample=8)
        natural += r.natural_end
    assert natural == (GAMES if players == 2 else GAMES // 3)


@pytest.mark.slow
def test_selfplay_unchecked_many_games_reach_the_end() -> None:
    for players in (2, 3, 4):
        for seed in range(100, 110):
            r = play_game(players, seed, check=False)
            assert r.natural_end and r.end_reason in ("bag", "treasures")


@pytest.mark.slow
def test_notation_round_trip_every_legal_action() -> None:
    s = new_game(3, seed=11)
    rng = random.Random(0)
    for _ in range(150):
        for a in legal_actions(s):
            assert parse_text(format_action(a), s) == a
            assert describe_action(a)
            assert A.from_dict(json.loads(json.dumps(a.to_dict()))) == a
        s, _ = apply(s, rng.choice(legal_actions(s)))
        if not legal_actions(s):
            break


def test_notation_forms() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 1, 1]})
    assert parse_text("tile red F4", s) == Action("tile", 0, 1, sq("F4"))
    assert parse_text("TILE temple f4", s) == Action("tile", 0, 1, sq("F4"))
    assert parse_text("leader king J7", s) == parse_text("leader black j7", s)
    assert parse_text("swap 2 black red", s).tiles == (2, 1, 0, 0)
    assert parse_text("swap 2black red", s).tiles == (2, 1, 0, 0)
    assert parse_text("swap all", s).tiles == (2, 2, 1, 1)
    assert parse_text("monument blue-red H4", s) == parse_text("monument red-blue H4", s)
    for bad in ("", "tile red Z9", "tile purple F4", "dance", "support x", "monument red-red A1"):
        with pytest.raises(InvalidAction):
            parse_text(bad, s)
    assert "tile red F4" in complete("tile red F", s)
    assert all(t.startswith("leader king") for t in complete("leader king", s))


def test_view_determinize_consistent_T_INFO_1() -> None:
    s = new_game(4, seed=4)
    rng = random.Random(3)
    for _ in range(60):
        s, _ = apply(s, rng.choice(legal_actions(s)))
    for seat in range(4):
        v = view(s, seat)
        d = determinize(v, seat, random.Random(seat))
        assert d.players[seat].hand == s.players[seat].hand
        assert [p.hand_size for p in d.players] == [p.hand_size for p in s.players]
        assert legal_actions(d) or True


def test_json_round_trip_and_messages() -> None:
    s = new_game(2, seed=1)
    s2 = type(s).model_validate_json(s.model_dump_json())
    assert s2 == s
    rng = random.Random(5)
    for _ in range(200):
        s, ev = apply(s, rng.choice(legal_actions(s)))
        for e in ev:
            assert e.key in EN and e.text
        if not legal_actions(s):
            break


def test_undo_points() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]})
    a = leader(0, "king", "G3")
    s1, ev = apply(s, a)
    assert undoable(s, a, s1, ev)  # no randomness, nothing revealed
    b = Action("swap", 0, tiles=(1, 0, 0, 0))
    s2, ev2 = apply(s1, b)
    assert not undoable(s1, b, s2, ev2)  # a draw
    assert undo_depth([(s, a, s1, ev), (s1, b, s2, ev2)], 0) == 0
    assert undo_depth([(s, a, s1, ev)], 0) == 1
    # a revolt that asks the other player is final
    r = position(
        ["bull", "lion"],
        active=1,
        leaders={"H7": (0, "king")},
        hands={0: [0, 3, 3, 0], 1: [0, 3, 3, 0]},
    )
    c = leader(1, "king", "I6")
    r1, _e1 = apply(r, c)
    d = support(1, 1)
    r2, e2 = apply(r1, d)
    assert not undoable(r1, d, r2, e2)


def test_same_seed_same_game() -> None:
    a = play_game(3, 42, check=False)
    b = play_game(3, 42, check=False)
    assert a.actions == b.actions
