"""The second round of issue 33's speed-ups agrees with a recomputation from scratch: the
listing's mission check (one scan of the map for every mission) with ``mission_complete``, the
payment search's plain matching with the general search, the build listing's inlined site
checks with ``site_check``, and the move listing with ``move_problem`` (over seeded self-play
and generated payments)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.brazil import apply, legal_actions, new_game
from rules.brazil import payment as PM
from rules.brazil.game import Context
from rules.brazil.movement import move_actions, move_problem
from rules.brazil.scoring import MissionCheck, mission_complete, objective_count
from rules.brazil.state import GameState
from rules.brazil.turn import build_sites, site_check, site_survey
from tests.rules.test_payment_fast import PROVIDES, TOKENS


def _selfplay(players: int, seed: int, steps: int = 400) -> Iterator[GameState]:
    """Each state of a seeded random self-play."""
    rng = random.Random(f"speed2:{players}:{seed}")
    state = new_game(players, seed)
    for _ in range(steps):
        yield state
        if state.phase == "ended":
            return
        state, _ = apply(state, rng.choice(legal_actions(state)))


@pytest.mark.parametrize(("players", "seed"), [(1, 0), (2, 1), (3, 2), (4, 3), (4, 7)])
def test_mission_check_agrees_with_mission_complete(players: int, seed: int) -> None:
    """Every mission of the catalog, for every seat, on every state: the listing's check
    counts each objective and decides each mission as the scoring functions do."""
    complete = counted = 0
    for state in _selfplay(players, seed):
        if state.phase != "play":
            continue
        g = Context(state)
        where = g.pay.where()
        for seat in range(state.n):
            check = MissionCheck(state, seat, where)
            for mid, mission in g.cat.missions.items():
                for ob in mission.objectives:
                    assert check.count(ob) == objective_count(state, seat, ob)
                    counted += 1
                got = check.complete(mid)
                assert got == mission_complete(state, seat, mid)
                assert got == mission_complete(state, seat, mid, where)
                complete += got
    assert counted > 1000
    assert complete > 0  # some missions were complete, not only incomplete ones


def _general(tokens: list[str], lots: list[PM.Lot], src: PM.Sources) -> list[int] | None:
    """The general search on the same lots: a pool of size 0 on every lot takes them off the
    plain path without changing the search (nothing is drawn from that pool)."""
    pooled = [
        PM.Lot(lot.source, lot.what, lot.provides, lot.count, lot.value, (("cc", 0),))
        for lot in lots
    ]
    if not lots:
        return None  # nothing pays a token (a cost has one at least)
    assert not PM._plain(pooled)
    return PM._solve(tokens, pooled, src)


@settings(max_examples=500, deadline=None)
@given(
    lots=st.lists(
        st.tuples(
            st.sampled_from(PROVIDES),
            st.integers(min_value=1, max_value=3),
            st.sampled_from([1.0, 2.0, 3.0, 4.0, 5.0]),  # few values: ties keep their order
        ),
        max_size=7,
    ),
    cost=st.lists(st.sampled_from(TOKENS), min_size=1, max_size=5),
)
def test_plain_search_is_the_general_search(
    lots: list[tuple[frozenset[str], int, float]], cost: list[str]
) -> None:
    made = [PM.Lot(f"h{i}", "x", p, n, v) for i, (p, n, v) in enumerate(lots)]
    src = PM.Sources(made, Counter(), [], False)
    tokens = PM.sort_tokens(cost)
    assert PM._plain(made)
    assert PM._solve_plain(tokens, made) == _general(tokens, made, src)
    assert PM._solve(tokens, made, src) == _general(tokens, made, src)


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 5), (4, 6)])
def test_plain_search_on_the_game_sources(players: int, seed: int) -> None:
    """The sources of real states (their goods and gold cards), with every cost of a few
    tokens: the plain search finds what the general one finds."""
    rng = random.Random(seed)
    searched = 0
    for state in _selfplay(players, seed, steps=300):
        if state.phase != "play":
            continue
        for seat in range(state.n):
            src = PM.sources(state, seat, PM.PayContext())
            if not PM._plain(src.lots):
                continue
            for _ in range(3):
                tokens = PM.sort_tokens(rng.choices(TOKENS, k=rng.randint(1, 4)))
                assert PM._solve(tokens, src.lots, src) == _general(tokens, src.lots, src)
                searched += 1
    assert searched > 100


@pytest.mark.parametrize(("players", "seed"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_build_sites_agree_with_site_check(players: int, seed: int) -> None:
    """The survey's inlined site checks keep exactly the candidate sites ``site_check``
    keeps, in label order."""
    surveyed = 0
    for state in _selfplay(players, seed):
        if state.phase != "play":
            continue
        g = Context(state)
        for seat in range(state.n):
            site_open = site_check(g, seat)
            want = sorted(at for at in build_sites(g, seat) if site_open(at, False))
            cover, _, here = site_survey(g, seat, [])
            assert sorted(here) == want
            assert set(cover[False]) <= set(want) and set(cover[True]) <= set(want)
            surveyed += 1
    assert surveyed > 50


@pytest.mark.parametrize(("players", "seed"), [(2, 8), (3, 9), (4, 10)])
def test_listed_moves_are_those_move_problem_allows(players: int, seed: int) -> None:
    """Every unit's every move to every hex of the map and back (without carried units):
    listed exactly when ``move_problem`` finds nothing, in the listing's order."""
    checked = 0
    for state in _selfplay(players, seed):
        if state.phase != "play" or state.turn.step != "movement" or state.pending:
            continue
        g = Context(state)
        seat = state.current
        listed = [a for a in move_actions(g, seat) if not a.carry]
        allowed = [
            (u, to, kind)
            for u, src in g.p(seat).units.items()
            if src not in ("board", "reserve")
            for kind in ("free", "extra")
            for to in g.board.terrain
            if move_problem(g, seat, u, to, kind, ()) is None
        ]
        assert sorted((a.unit, a.to, a.kind) for a in listed) == sorted(allowed)
        assert len(set(listed)) == len(listed)
        checked += 1
    assert checked > 20


def test_every_map_is_symmetric() -> None:
    """The build listing's site sets rely on it: a hex is a neighbour of its neighbours,
    on every scenario map."""
    from rules.brazil.catalog import get_catalog

    for board in get_catalog().boards.values():
        for h, near in board.neighbours.items():
            assert h in board.terrain
            for nb in near:
                assert h in board.neighbours[nb]
