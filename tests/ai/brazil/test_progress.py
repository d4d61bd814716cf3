"""Issue 33: Brazil: Imperial's computer players work towards the end (R-END-1: only a
revealed era III mission ends the game): a completed mission is revealed as soon as it may
be (R-TURN-5, R-MISSION-1), and an overdue game (era III from round 60) is played towards the
era III mission."""

from __future__ import annotations

import random

from ai.brazil import make_agent
from ai.brazil.evaluate import (
    OVERDUE_ROUND,
    catalog_for,
    conquest_targets,
    evaluate,
    mission_progress,
    overdue,
)
from rules.brazil import actions as A
from rules.brazil import apply, deciders, legal_actions, new_game
from rules.brazil.control import controls
from rules.brazil.scoring import objective_count
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


def _spent_game() -> tuple[GameState, list[object]]:
    """The seeded 3-player all-random game that used to play on for ever, at the first
    state where it is overdue, with its agents (played on, by round 100 every building, city
    and painting was taken: its era III missions could then be completed only by
    occupation, which no level sought)."""
    rng = random.Random("natural-end:brazil:random:3:130")
    agents = [make_agent("random", seed=rng.getrandbits(32)) for _ in range(3)]
    st = new_game(3, 130)
    while not overdue(st):
        seat = deciders(st)[0]
        st, _ = apply(st, agents[seat].decide(st, seat))
    return st, list(agents)


def test_an_overdue_game_marches_on_the_tiles_its_missions_need_R_END_1_R_END_2() -> None:
    """The targets are exactly the opponents' buildings and cities whose occupation would
    meet more of an unmet era III objective (an occupied tile counts as the occupier's,
    R-END-2); none before the game is overdue."""
    st, _ = _spent_game()
    cat = catalog_for(st.data_pack)
    early = st.model_copy(update={"round": OVERDUE_ROUND - 1})
    seen = 0
    for seat in range(3):
        assert conquest_targets(early, seat) == []
        unmet = [
            ob
            for mid in st.players[seat].missions
            if cat.missions[mid].era == 3
            for ob in cat.missions[mid].objectives
            if objective_count(st, seat, ob) < ob.count
        ]
        targets = conquest_targets(st, seat)
        for h in targets:
            t = st.tiles[h]
            assert t.owner != seat and t.kind != "capital" and not controls(st, seat, h)
            assert any(
                (ob.kind == "cities" and t.kind == "city")
                or (ob.kind == "buildings" and t.kind == "building" and ob.type in (None, t.id))
                or ob.kind in ("building_types", "occupied")
                for ob in unmet
            )
        needs_city = any(ob.kind == "cities" for ob in unmet)
        cities = [h for h, t in st.tiles.items() if t.kind == "city" and t.owner != seat]
        if needs_city:
            assert set(cities) - {h for h in cities if controls(st, seat, h)} <= set(targets)
        seen += len(targets)
    assert seen, "no seat of the spent game has a tile to occupy"


def test_a_game_whose_supplies_are_spent_still_ends_R_END_1() -> None:
    """The seeded game that played on for ever (3 players, seed 130): overdue, the players
    occupy what their missions need, and someone reveals an era III mission."""
    st, agents = _spent_game()
    for _ in range(3000):
        if st.phase == "ended":
            break
        seat = deciders(st)[0]
        st, _ = apply(st, agents[seat].decide(st, seat))  # type: ignore[attr-defined]
    assert st.phase == "ended"
    assert any(m.startswith("III") for p in st.players for m in p.revealed)


def test_every_level_ends_an_overdue_game_it_can_end_R_END_1() -> None:
    """A seeded 2-player game of the normal level where, overdue, the deciding seat holds a
    completed era III mission: every level reveals it (before, the normal level, behind on
    points, held it back and the game played on for ever)."""
    rng = random.Random("natural-end:brazil:heuristic:2:6")
    agents = [make_agent("heuristic", seed=rng.getrandbits(32)) for _ in range(2)]
    st = new_game(2, 6)
    cat = catalog_for(st.data_pack)
    for _ in range(5000):
        assert st.phase != "ended", "the seeded game ended before it was overdue"
        seat = deciders(st)[0]
        acts = legal_actions(st, seat)
        ending = [
            a for a in acts if isinstance(a, A.RevealMission) and cat.missions[a.mission].era == 3
        ]
        if ending and overdue(st):
            break
        st, _ = apply(st, agents[seat].decide(st, seat))
    else:
        raise AssertionError("no overdue state with an era III mission to reveal")
    for level in ("random", "heuristic", "search"):
        agent = make_agent(level, seed=1, **({"iterations": 4} if level == "search" else {}))
        assert agent.decide(st, seat) == ending[0], level
