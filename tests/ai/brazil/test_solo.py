"""The solo plan (R-SOLO-2): the objectives still missing and the readiness of their steps."""

from __future__ import annotations

from functools import cache

import pytest

from ai import make_agent
from ai.brazil.evaluate import evaluate
from ai.brazil.solo import (
    city_site_open,
    covered,
    current_mission,
    plan_turns,
    plan_value,
    site_distance,
    solo_plan,
    visible_cities,
)
from rules.brazil import apply, new_game, view
from rules.brazil.catalog import get_catalog
from rules.brazil.state import GameState, Tile


@cache
def _era_two_solo() -> GameState:
    """A seeded solo game played by the heuristic into era II, before any city."""
    s = new_game(1, 7)
    agent = make_agent("heuristic", seed=7)
    while s.phase != "ended" and s.era < 2 and s.round <= 20:
        s, _ = apply(s, agent.decide(s, 0))
    assert s.era == 2, "the seeded game should reach era II"
    return s


def _with_city_mission(s: GameState) -> GameState:
    """``s`` with II-4 (4 units deployed, 1 city) as the kept era II mission, the monarch on
    the capital and no goods at hand."""
    s = s.clone()
    p = s.players[0]
    p.missions = ["II-4", *[m for m in p.missions if not m.startswith("II-")]]
    p.reserve = {}
    for h, t in s.tiles.items():
        if t.owner == 0:
            t.goods.clear()
        if t.kind == "city" and t.owner == 0:
            raise AssertionError(f"the fixture expects no city yet ({h})")
    assert p.capital is not None
    p.units["monarch"] = p.capital
    return s


def test_covered_counts_specific_alternative_and_any_tokens_R_BUILD_6() -> None:
    # R-BUILD-6: a city's cost is printed on it; the plan counts what the goods cover.
    assert covered(["gold", "gold", "brazilwood"], {"gold": 1, "brazilwood": 3}) == 2
    assert covered(["sugar_cane|coffee"], {"coffee": 1}) == 1
    assert covered(["science", "any", "any"], {"cotton": 1, "gold": 1}) == 2
    assert covered(["science", "any"], {"science": 1}) == 1  # the science is spent once
    assert covered([], {"gold": 2}) == 0


def test_city_sites_exclude_capitals_and_the_orange_empire_R_BUILD_6() -> None:
    s = _era_two_solo()
    cat = get_catalog(s.data_pack)
    board = cat.boards[s.map]
    cap = s.players[0].capital
    assert cap is not None
    assert not city_site_open(s, 0, cap)  # R-BUILD-4: never on a capital
    enemy = next(h for h, t in s.tiles.items() if t.owner < 0)
    for nb in board.neighbours[enemy]:
        assert not city_site_open(s, 0, nb)  # never adjacent to an opponent's empire
    free = [
        nb
        for nb in board.neighbours[cap]
        if nb not in s.tiles and board.terrain[nb] != "water" and city_site_open(s, 0, nb)
    ]
    assert free, "some empty hex next to the capital takes a city"


def test_plan_lists_the_missing_city_and_its_goods_R_SOLO_2() -> None:
    s = _with_city_mission(_era_two_solo())
    assert current_mission(s, 0) == "II-4"
    plan = solo_plan(s, 0)
    assert plan.city
    city_step = next(st for st in plan.steps if st.kind == "cities")
    cat = get_catalog(s.data_pack)
    assert city_step.goods in [cat.cities[c].cost for c in visible_cities(s)]


def test_monarch_off_the_capital_towards_a_site_is_progress_R_SOLO_2() -> None:
    # R-BUILD-6: a city is founded where the monarch stands, so walking it there counts.
    s = _with_city_mission(_era_two_solo())
    assert site_distance(s, 0) == 1  # the capital itself is no site
    on_site = s.clone()
    cap = s.players[0].capital
    assert cap is not None
    board = get_catalog(s.data_pack).boards[s.map]
    site = next(
        nb for nb in sorted(board.neighbours[cap]) if nb not in s.tiles and city_site_open(s, 0, nb)
    )
    on_site.players[0].units["monarch"] = site
    assert site_distance(on_site, 0) == 0
    assert plan_value(on_site, 0) > plan_value(s, 0)
    off_map = s.clone()
    off_map.players[0].units["monarch"] = "board"
    assert site_distance(off_map, 0) is None
    assert plan_value(s, 0) > plan_value(off_map, 0)


def test_goods_gathered_for_the_city_are_progress_R_SOLO_2() -> None:
    s = _with_city_mission(_era_two_solo())
    cat = get_catalog(s.data_pack)
    cost = cat.cities[visible_cities(s)[0]].cost
    before = plan_value(s, 0)
    richer = s.clone()
    for tok in cost:
        good = "cotton" if tok == "any" else tok.split("|")[0]
        richer.players[0].reserve[good] = richer.players[0].reserve.get(good, 0) + 1
    assert plan_value(richer, 0) > before


def test_plan_reads_only_the_view_R_SOLO_2() -> None:
    s = _with_city_mission(_era_two_solo())
    assert plan_value(view(s, 0), 0) == plan_value(s, 0)


def test_plan_is_solo_only() -> None:
    s = new_game(2, 3)
    assert plan_value(s, 0) == 0.0
    import ai.brazil.evaluate as E

    before = evaluate(s, 0)
    old = E.PLAN_WEIGHT
    try:
        E.PLAN_WEIGHT = 50.0
        assert evaluate(s, 0) == before
    finally:
        E.PLAN_WEIGHT = old


def test_plan_turns_count_deployments_and_goods_R_SOLO_2() -> None:
    # R-SOLO-2: all five units on the map; R-RECRUIT-2: a first deployment costs its goods.
    s = _with_city_mission(_era_two_solo())
    base = plan_turns(s, 0)
    p = s.players[0]
    on_board = s.clone()
    on_board.players[0].units["monarch"] = "board"
    assert plan_turns(on_board, 0) > base  # one more Recruit and its gold + sugar cane
    lost = s.clone()
    lost.players[0].units["monarch"] = "reserve"
    assert base < plan_turns(lost, 0) < plan_turns(on_board, 0)  # redeploying is free
    richer = s.clone()
    richer.players[0].reserve["gold"] = p.reserve.get("gold", 0) + 2
    assert plan_turns(richer, 0) < base
    assert plan_turns(view(s, 0), 0) == base


def test_plan_turns_drop_when_an_objective_is_met_R_SOLO_2() -> None:
    s = _with_city_mission(_era_two_solo())
    cap = s.players[0].capital
    assert cap is not None
    board = get_catalog(s.data_pack).boards[s.map]
    site = next(
        nb for nb in sorted(board.neighbours[cap]) if nb not in s.tiles and city_site_open(s, 0, nb)
    )
    built = s.clone()
    built.tiles[site] = Tile(kind="city", id=visible_cities(s)[0], owner=0)
    assert plan_turns(built, 0) < plan_turns(s, 0)


def test_the_monarch_stays_out_of_the_march_while_a_city_is_needed_R_BUILD_6() -> None:
    # R-BUILD-6: the city is founded where the monarch stands (never next to the orange
    # capital), so the march towards that capital does not pull the monarch along.
    from ai.brazil.evaluate import march_value

    s = _with_city_mission(_era_two_solo())
    board = get_catalog(s.data_pack).boards[s.map]
    enemy = next(h for h, t in s.tiles.items() if t.owner < 0 and t.kind == "capital")
    cap = s.players[0].capital
    assert cap is not None
    nearer = min(board.neighbours[cap], key=lambda h: (board.distance(h, enemy), h))
    assert board.distance(nearer, enemy) < board.distance(cap, enemy)
    moved = s.clone()
    moved.players[0].units["monarch"] = nearer
    assert march_value(moved, 0) == march_value(s, 0)
    done = s.clone()
    done.players[0].missions = [m for m in s.players[0].missions if m != "II-4"]
    moved_done = done.clone()
    moved_done.players[0].units["monarch"] = nearer
    assert march_value(moved_done, 0) > march_value(done, 0)  # no city needed: it marches too


def test_search_solo_width_and_prior_are_its_own_R_SOLO_2() -> None:
    # The solo game's search has its own width and prior weight (the multi-player ones
    # unchanged): with one candidate it plays the heuristic's best-ranked action, no rollout.
    from ai.brazil.agents import action_value
    from ai.brazil.evaluate import evaluate as ev
    from ai.brazil.fill import placeholder_fill
    from ai.brazil.search import SearchAgent
    from rules.brazil import legal_actions

    s = _era_two_solo()
    v = view(s, 0)
    acts = legal_actions(v.clone(), 0)
    assert len(acts) > 1
    f = placeholder_fill(v, 0)
    base = ev(f, 0)
    vals = [action_value(f, 0, a, base) for a in acts]
    best = acts[vals.index(max(vals))]
    agent = SearchAgent(1, iterations=50, solo_candidates=1, candidates=5)
    assert agent.decide(s, 0) == best
    assert agent.last_iterations == 0
    wide = SearchAgent(1, iterations=6, solo_candidates=3, solo_prior_weight=6.0)
    assert wide.decide(s, 0) in acts
    assert wide.last_iterations == 6


@pytest.mark.slow
def test_search_solo_compares_candidates_on_the_same_deals_R_SOLO_2() -> None:
    # Common random numbers: in the solo game every candidate is rolled out on each deal
    # (the iterations count rollouts, rounded up to whole deals), so all get the same
    # number of visits; deterministic for its seed.
    from ai.brazil.search import SearchAgent

    s = _era_two_solo()
    a = SearchAgent(3, iterations=7, solo_candidates=3)
    choice = a.decide(s, 0)
    assert a.last_visits == [3, 3, 3] and a.last_iterations == 9
    b = SearchAgent(3, iterations=7, solo_candidates=3)
    assert b.decide(s, 0) == choice
