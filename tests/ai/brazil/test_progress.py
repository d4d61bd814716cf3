"""Issue 33: Brazil: Imperial's computer players work towards the end (R-END-1: only a
revealed era III mission ends the game): a completed mission is revealed as soon as it may
be (R-TURN-5, R-MISSION-1), and an overdue game (era III from round 60) is played towards the
era III mission."""

from __future__ import annotations

import random

from ai.brazil import make_agent
from ai.brazil.evaluate import OVERDUE_ROUND, evaluate, mission_progress, overdue
from rules.brazil import actions as A
from rules.brazil import apply, deciders, legal_actions, new_game
from rules.brazil.state import GameState


def _reveal_points(limit: int = 3) -> list[tuple[GameState, int]]:
    """Seeded random-game states where the deciding seat may reveal a mission."""
    out: list[tuple[GameState, int]] = []
    for seed in range(40):
        rng = random.Random(seed)
        st = new_game(2, seed)
        while st.phase != "ended" and st.round <= 80 and len(out) < limit:
            seat = deciders(st)[0]
            acts = legal_actions(st, seat)
            if any(isinstance(a, A.RevealMission) for a in acts):
                out.append((st, seat))
                break
            st, _ = apply(st, rng.choice(acts))
        if len(out) >= limit:
            break
    return out


def test_the_random_player_reveals_a_completed_mission_at_once_R_MISSION_1() -> None:
    points = _reveal_points()
    assert points, "no seeded state with a mission to reveal"
    for st, seat in points:
        for s in range(5):
            assert isinstance(make_agent("random", seed=s).decide(st, seat), A.RevealMission)


def test_a_game_is_overdue_in_era_III_from_round_60_R_END_1() -> None:
    st = new_game(2, 3)
    assert not overdue(st)
    late = st.model_copy(update={"era": 3, "round": OVERDUE_ROUND})
    assert overdue(late)
    assert not overdue(late.model_copy(update={"round": OVERDUE_ROUND - 1}))
    assert not overdue(late.model_copy(update={"era": 2}))


def test_an_overdue_game_weighs_the_era_III_mission_more_R_END_1() -> None:
    """The same position judged just before and in overdue time: with some progress towards
    the era III mission held, it counts more once the game is overdue."""
    rng = random.Random(8)
    st = new_game(2, 8)
    for _ in range(3000):
        seat = deciders(st)[0]
        era3 = [m for m in st.players[0].missions if m.startswith("III")]
        if era3 and mission_progress(st, 0, era3[0]) > 0:
            break
        st, _ = apply(st, rng.choice(legal_actions(st, seat)))
    else:
        raise AssertionError("no progress towards an era III mission in the seeded game")
    base = st.model_copy(update={"era": 3, "round": OVERDUE_ROUND - 1})
    late = st.model_copy(update={"era": 3, "round": OVERDUE_ROUND})
    assert evaluate(late, 0) > evaluate(base, 0)
