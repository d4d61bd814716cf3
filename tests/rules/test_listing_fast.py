"""The listing's and apply's shortcuts (speed pass 3) give exactly what the plain rule checks
and constructors give, over seeded self-play states: gold cards' payability without the
card (R-VOC-2), builds under a city limit and on occupied buildings (R-BUILD-10,
R-COMBAT-11), manufactures (R-MANUF-1/3), trusted action constructors and replace, events
built without validation."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from rules.brazil import actions as A
from rules.brazil import apply, legal_actions, new_game
from rules.brazil.events import Event
from rules.brazil.game import Context, is_upgraded
from rules.brazil.messages import Param
from rules.brazil.payment import PayContext, can_pay
from rules.brazil.state import GameState
from rules.brazil.turn import (
    arch_actions,
    build_actions,
    build_cost,
    build_problem,
    build_sites,
    is_city,
    manufacture_cost,
    product_destinations,
    reboucas_discount,
)


def _play(players: int, seed: int, rounds: int = 45) -> list[GameState]:
    """States of a seeded random game, every step."""
    rng = random.Random(seed)
    st = new_game(players, seed)
    out = []
    while st.phase != "ended" and st.round <= rounds:
        out.append(st)
        st, _ = apply(st, rng.choice(legal_actions(st)))
    return out


def _action_states(players: int, seed: int) -> list[GameState]:
    return [s for s in _play(players, seed) if s.phase == "play" and not s.pending]


@pytest.mark.parametrize("players", [2, 4])
def test_gold_card_payability_without_the_card_R_VOC_2(players: int) -> None:
    """A card used in payment is gone: the listing's ``spent_card`` context answers what
    ``can_pay`` answers on a state whose hand lacks that card."""
    rng = random.Random(players)
    costs = [["gold"], ["science"], ["any", "any"], ["gold", "coffee"], ["science", "gold"]]
    checked = 0
    for st in _action_states(players, 600 + players):
        seat = st.current
        hand = st.players[seat].gold_cards
        if not hand:
            continue
        g = Context(st)
        for card in sorted(set(hand)):
            without = st.clone()
            without.players[seat].gold_cards.remove(card)
            for cost in rng.sample(costs, 3):
                want = can_pay(without, seat, cost)
                assert g.pay.can_pay(seat, cost, PayContext(spent_card=card)) == want, (
                    card,
                    cost,
                )
                checked += 1
    assert checked > 50


def _reference_builds(g: Context, seat: int) -> list[A.Build]:
    """Every building and hex through build_problem (no shortcut)."""
    s = g.s
    whats = [w for w in g.cat.sides if s.supply.get(g.cat.side_tile[w], 0) > 0]
    if s.era >= 2:
        whats += [pile[-1] for pile in s.city_piles if pile]
    sites = sorted(build_sites(g, seat))
    out = []
    for what in whats:
        cost, ctx = build_cost(g, seat, what, second=False)
        cost = reboucas_discount(g, seat, cost, ctx)
        if cost and not can_pay(s, seat, cost, ctx):
            continue
        hexes = sorted(s.tiles) + sorted(g.board.terrain) if is_city(g, what) else sites
        for at in dict.fromkeys(hexes):
            if build_problem(g, seat, what, at) is None:
                out.append(A.Build(seat=seat, building=what, at=at))
    return out


@pytest.mark.parametrize("limit", [0, 1, 2])
def test_build_listing_under_a_city_limit_R_BUILD_10(limit: int) -> None:
    checked = cities = 0
    for st in _action_states(4, 700 + limit):
        if st.turn.step != "action" or st.era < 2:
            continue
        st = st.clone()
        st.city_limit = limit
        g = Context(st)
        got = sorted(map(repr, build_actions(g, st.current, second=False)))
        assert got == sorted(map(repr, _reference_builds(Context(st), st.current)))
        cities += sum(1 for a in got if "city" in a)
        checked += 1
    assert checked > 10


@pytest.mark.slow
def test_build_listing_on_occupied_buildings_R_COMBAT_11() -> None:
    """A unit of another seat put on each of the seat's buildings in turn: the listing
    never builds over it, exactly as build_problem says."""
    checked = 0
    for st in _action_states(2, 801)[::5]:
        seat = st.current
        other = st.players[1 - seat]
        unit = next((u for u, loc in other.units.items() if loc not in ("board", "reserve")), None)
        if unit is None:
            continue
        for h, t in st.tiles.items():
            if t.owner != seat or t.kind != "building":
                continue
            occupied = st.clone()
            occupied.players[1 - seat].units[unit] = h
            g = Context(occupied)
            got = sorted(map(repr, build_actions(g, seat, second=False)))
            assert got == sorted(map(repr, _reference_builds(Context(occupied), seat)))
            assert not any(f"at='{h}'" in a for a in got)
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("players", [2, 4])
def test_manufacture_listing_matches_the_full_checks_R_MANUF_1(players: int) -> None:
    checked = 0
    for st in _action_states(players, 900 + players):
        if st.turn.step != "action":
            continue
        seat = st.current
        if st.players[seat].token_arch == "manufacture":
            continue
        g = Context(st)
        got = [a for a in arch_actions(g, seat) if isinstance(a, A.Manufacture)]
        want = []
        up = is_upgraded(g, seat, "manufacture")
        for pr in st.players[seat].products:
            dests = product_destinations(g, seat, pr)
            if dests and can_pay(st, seat, manufacture_cost(g, seat, pr, up)):
                want += [A.Manufacture(seat=seat, product=pr, to=d) for d in dests]
        assert got == want
        checked += bool(want)
    assert checked > 5


def test_listed_actions_equal_their_plain_construction_and_replace() -> None:
    """Actions built by ``A.trusted_maker`` equal (and hash, print and dump like) the ones
    the dataclass constructor builds; ``replace`` is ``dataclasses.replace``."""
    kinds: set[str] = set()
    pay = (A.PayItem("reserve", "coffee"),)
    for st in _play(4, 41)[::3]:
        for a in legal_actions(st):
            fields = {f.name: getattr(a, f.name) for f in dataclasses.fields(a)}
            plain = type(a)(**fields)
            assert a == plain and hash(a) == hash(plain)
            assert repr(a) == repr(plain) and a.to_json() == plain.to_json()
            if "payment" in fields:
                paid: Any = a  # (the union of action types: payment is not on all of them)
                assert paid.replace(payment=pay) == dataclasses.replace(paid, payment=pay)
            kinds.add(a.type)
    assert {"build", "move", "renovate", "import", "painting", "recruit"} <= kinds
    with pytest.raises(TypeError):
        A.Build(seat=0, building="x", at="D7").replace(nope=1)


def test_events_as_model_construct_builds_them() -> None:
    params: dict[str, Param] = {"who": "Red", "goods": {"coffee": 2}}
    made = Event.make("gain", params, 0, (0,), {"goods": {"coffee": 2}})
    plain = Event.model_construct(
        kind="gain",
        text=made.text,
        key="gain",
        params=params,
        seat=0,
        data={"goods": {"coffee": 2}},
        visible_to=(0,),
        reveals=made.reveals,
    )
    assert made == plain
    assert made.model_fields_set == plain.model_fields_set
    assert made.model_dump_json() == plain.model_dump_json()
    assert Event.model_validate_json(made.model_dump_json()) == made


@pytest.mark.parametrize("leopoldina", [False, True])
@pytest.mark.parametrize("card", ["jesuits", "immigration"])
def test_gold_card_build_listing_matches_the_full_checks_R_BUILD_4(
    card: str, leopoldina: bool
) -> None:
    """The card's builds (speed pass 4: build_problem's checks made once a hex, as the build
    listing makes them): the same sites as build_problem on every candidate hex (the card
    in hand, not paying for itself), with and without Maria Leopoldina (R-BUILD-3)."""
    from rules.brazil.gold_cards import gold_card_actions

    checked = 0
    states = _action_states(4, 1000)[::4] + _action_states(2, 1002)[::4]
    for st in states:
        seat = st.current
        st = st.clone()
        st.players[seat].gold_cards.append(card)
        if leopoldina and "maria_leopoldina" not in st.players[seat].paintings:
            st.players[seat].paintings.append("maria_leopoldina")
        g = Context(st)
        got = list(gold_card_actions(g, seat, card))
        side = str(g.cat.gold_cards[card].params["side"])
        without = st.clone()
        without.players[seat].gold_cards.remove(card)
        want = []
        if can_pay(without, seat, list(g.cat.sides[side].cost)):
            want = [
                A.PlayGoldCard(seat=seat, card=card, at=at)
                for at in sorted(build_sites(g, seat))
                if build_problem(g, seat, side, at, by_card=card) is None
            ]
        assert got == want
        checked += bool(want)
    assert checked > 5


def test_safe_sources_derived_from_the_full_ones_R_VOC_2() -> None:
    """The listing's safe sources (docs/RULINGS.md "Default payment"), made from the full
    ones already built, are the lots ``sources(..., safe=True)`` scans for."""
    from rules.brazil.payment import sources

    contexts = [PayContext(), PayContext(any_crop_for_crop=True), PayContext(exact=True)]
    checked = 0
    for st in _play(4, 1100)[::7]:
        for seat in range(4):
            for ctx in contexts:
                g = Context(st)
                g.pay.sources(seat, ctx)  # the full sources first, as the listing does
                got = g.pay.sources(seat, ctx, safe=True)
                want = sources(st, seat, ctx, safe=True)
                assert got.lots == want.lots and got.hand == want.hand
                assert got.card_uses == want.card_uses and got.afonso == want.afonso
                checked += bool(want.lots)
    assert checked > 20


@pytest.mark.parametrize("card", ["mercenaries", "coronation"])
def test_gold_card_deploy_listing_matches_the_full_checks_R_RECRUIT_2(card: str) -> None:
    """The card's deployments (speed pass 4: targets and each unit's checks once a unit) are
    exactly the (unit, target) pairs that the checked apply accepts (with the payment a
    listing gives), in unit then target order (R-RECRUIT-2, R-TURN-4)."""
    from rules.brazil.gold_cards import gold_card_actions
    from rules.brazil.paying import with_payments
    from rules.brazil.state import Tile
    from rules.brazil.turn import deploy_targets
    from rules.errors import RulesError

    checked = several = 0
    for players, seed in ((4, 1000), (2, 1001)):
        for k, st in enumerate(_action_states(players, seed)[::3]):
            seat = st.current
            st = st.clone()
            st.players[seat].gold_cards.append(card)
            g = Context(st)
            if k % 2:  # a second target: a city of the seat on an empty land hex
                taken = set(st.tiles) | {h for q in st.players for h in q.units.values()}
                free = sorted(h for h, t in g.board.terrain.items() if t != "water")
                at = next(h for h in free if h not in taken)
                st.tiles[at] = Tile(kind="city", id=next(iter(g.cat.cities)), owner=seat)
            targets = deploy_targets(g, seat)
            got = list(gold_card_actions(g, seat, card))
            want = []
            for u, loc in st.players[seat].units.items():
                if loc not in ("board", "reserve"):
                    continue
                for to in targets:
                    a = A.PlayGoldCard(seat=seat, card=card, unit=u, to=to)
                    try:  # with the payment a listing gives it (none if it has no safe default)
                        apply(st, with_payments(Context(st), [a])[0])
                    except RulesError:
                        continue
                    want.append(a)
            assert got == want
            checked += bool(want)
            several += bool(want) and len(targets) > 1
    assert checked > 5 and several > 5


def test_mission_complete_cheap_objectives_first_R_MISSION_1() -> None:
    """mission_complete (speed pass 4: objectives read from the player before those that
    scan the map) says what all of the mission's objectives, in catalog order, say: for
    every mission and seat over seeded self-play states (R-MISSION-1)."""
    from rules.brazil.control import unit_seats
    from rules.brazil.game import Context
    from rules.brazil.scoring import mission_complete, objective_met

    met = 0
    for players, seed in ((4, 1003), (2, 1004)):
        for st in _play(players, seed)[::9]:
            cat = Context(st).cat
            where = unit_seats(st)
            for m_id, m in cat.missions.items():
                for seat in range(players):
                    want = all(objective_met(st, seat, ob, where) for ob in m.objectives)
                    assert mission_complete(st, seat, m_id, where) is want
                    assert mission_complete(st, seat, m_id) is want
                    met += want
    assert met > 5
