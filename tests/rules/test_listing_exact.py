"""The listing's shortcuts (hex checks once a hex, payability memo) list exactly what the
plain rule checks allow (R-BUILD-3, R-BUILD-4, R-RENOV-1), over self-play states."""

from __future__ import annotations

import random

import pytest

from rules.brazil import actions as A
from rules.brazil import apply, legal_actions, new_game
from rules.brazil.game import Context
from rules.brazil.payment import PayContext, can_pay
from rules.brazil.turn import (
    REBOUCAS_KINDS,
    build_actions,
    build_cost,
    build_problem,
    build_sites,
    discount,
    is_city,
)


def _reference_builds(g: Context, seat: int) -> list[A.Build]:
    """The unoptimised listing: every building and hex through the full checks."""
    s, p = g.s, g.p(seat)
    sites = sorted(build_sites(g, seat))
    whats = [w for w in g.cat.sides if s.supply.get(g.cat.side_tile[w], 0) > 0]
    if s.era >= 2:
        whats += [pile[-1] for pile in s.city_piles if pile]
    out = []
    for what in whats:
        cost, ctx = build_cost(g, seat, what, second=False)
        if "andre_reboucas" in p.paintings and not s.turn.reboucas:
            cost = discount(g, seat, cost, REBOUCAS_KINDS, ctx)
        if cost and not can_pay(s, seat, cost, ctx):
            continue
        hexes = sorted(g.s.tiles) + sorted(g.board.terrain) if is_city(g, what) else sites
        for at in dict.fromkeys(hexes):
            if build_problem(g, seat, what, at) is None:
                out.append(A.Build(seat=seat, building=what, at=at))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_build_listing_matches_the_full_checks__R_BUILD_4(players: int):
    rng = random.Random(players)
    st = new_game(players, 100 + players)
    checked = 0
    while st.phase != "ended" and st.round <= 40:
        if st.phase == "play" and not st.pending and st.turn.step == "action":
            g = Context(st)
            got = sorted(map(repr, build_actions(g, st.current, second=False)))
            assert got == sorted(map(repr, _reference_builds(Context(st), st.current)))
            checked += 1
        st, _ = apply(st, rng.choice(legal_actions(st)))
    assert checked > 20


@pytest.mark.parametrize("players", [2, 4])
def test_renovate_listing_matches_the_full_checks__R_RENOV_1(players: int):
    from rules.brazil.game import is_upgraded
    from rules.brazil.turn import renovate_problem

    rng = random.Random(players)
    st = new_game(players, 200 + players)
    while st.phase != "ended" and st.round <= 40:
        if st.phase == "play" and not st.pending and st.turn.step == "action":
            seat = st.current
            g = Context(st)
            # which renovations are listed (an explicit payment on one is checked elsewhere)
            listed = {
                a.replace(payment=None)
                for a in legal_actions(st, seat)
                if isinstance(a, A.Renovate)
            }
            want = set()
            if st.players[seat].token_arch != "renovate":
                cost = (
                    [] if is_upgraded(g, seat, "renovate") else list(g.cat.arches["renovate"].cost)
                )
                for h, t in st.tiles.items():
                    if t.owner == seat and t.kind == "building":
                        for flip in (False, True):
                            if renovate_problem(g, seat, h, flip) is None and can_pay(
                                st, seat, cost, PayContext(exclude_hex=h)
                            ):
                                want.add(A.Renovate(seat=seat, at=h, flip=flip))
            assert listed == want
        st, _ = apply(st, rng.choice(legal_actions(st)))


@pytest.mark.parametrize("players", [2, 4])
def test_mission_objectives_with_known_unit_seats_match_R_MISSION_1(players: int):
    """The listing counts objectives with the unit seats worked out once a listing
    (``where``): the same counts as without, every objective and seat, over self-play."""
    from rules.brazil.control import unit_seats
    from rules.brazil.scoring import mission_complete, objective_count

    rng = random.Random(players + 7)
    st = new_game(players, 300 + players)
    checked = 0
    while st.phase != "ended" and st.round <= 45:
        if st.phase == "play" and rng.random() < 0.2:
            g = Context(st)
            where = unit_seats(st)
            for seat in range(players):
                for mid, m in g.cat.missions.items():
                    for ob in m.objectives:
                        assert objective_count(st, seat, ob, where) == objective_count(
                            st, seat, ob
                        ), (seat, mid, ob)
                    got = mission_complete(st, seat, mid, where)
                    assert got == mission_complete(st, seat, mid)
                    checked += got
        st, _ = apply(st, rng.choice(legal_actions(st)))
    assert checked > 0


@pytest.mark.parametrize("players", [1, 2, 4])
def test_move_listing_matches_the_full_checks_R_MOVE_1(players: int):
    """The listing's free moves skip the checks a free move to a neighbour always passes:
    it lists exactly the moves (without carried units) that move_problem allows."""
    from rules.brazil.movement import move_actions, move_problem

    rng = random.Random(players + 11)
    st = new_game(players, 400 + players)
    checked = 0
    while st.phase != "ended" and st.round <= 45:
        if st.phase == "play" and not st.pending and st.turn.step == "movement":
            g = Context(st)
            seat = st.current
            got = {(a.unit, a.to, a.kind) for a in move_actions(g, seat) if not a.carry}
            want = set()
            for u, src in st.players[seat].units.items():
                if src in ("board", "reserve"):
                    continue
                for to in {*g.board.neighbours[src], *st.tiles}:
                    for kind in ("free", "extra"):
                        if move_problem(g, seat, u, to, kind, ()) is None:
                            want.add((u, to, kind))
            assert got == want
            checked += 1
        st, _ = apply(st, rng.choice(legal_actions(st)))
    assert checked > 10
