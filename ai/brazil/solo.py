"""A small goal-directed plan for the solo game (R-SOLO-2), used by the solo evaluation.

The conditions of victory are era III (the kept era I and era II missions completed in turn),
all five units on the map and the enemy capital captured, within 20 rounds. The heuristic's
one-ply look-ahead credits finished steps (a building, a deployed unit); what it cannot see
are the *preparations* a missing objective needs several turns ahead. :func:`solo_plan`
lists the objectives still missing, and for each the concrete next steps and the goods they
need; :func:`plan_value` turns the readiness of those steps into a value, so that the turns
before an objective (gathering its goods, walking the monarch to where the city will stand)
are not wasted. Everything here reads only what the seat may see (its own missions, reserve
and the public map), so it serves a view, a filled view and a determinization alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.brazil.catalog import CROPS, Catalog, get_catalog
from rules.brazil.control import controlled_tiles
from rules.brazil.scoring import objective_count
from rules.brazil.state import GameState

OFF_MAP = ("board", "reserve")
SITE_RADIUS = 4  # how far from the monarch a city site is looked for
# plan_value weights (VP-like units): per cost token of a missing objective's next step
# covered by goods at hand, once all are covered, the monarch on a city site, per move away.
STEP_GOODS = 0.0  # measured: rewarding goods held for each step hoards them (34/100)
STEP_READY = 0.0
SITE_BONUS = 2.0
SITE_STEP = 0.7
TURN_WEIGHT = 1.0  # per turn the plan still needs (plan_turns)


@dataclass
class Step:
    """One objective still missing: what it is and the goods its next step needs."""

    kind: str  # the objective kind (``cities``, ``buildings``, ``products``…)
    missing: int
    goods: list[str] = field(default_factory=list)  # cost tokens of the cheapest next step


@dataclass
class Plan:
    steps: list[Step]
    city: bool  # a city is still needed by the current era's mission
    mission: str | None  # the current era's kept mission (None: none left to complete)


def _catalog(state: GameState) -> Catalog:
    return get_catalog(state.data_pack)


def goods_at_hand(state: GameState, seat: int) -> dict[str, int]:
    """The seat's reserve plus the goods on the buildings it controls (both pay costs)."""
    have = {k: n for k, n in state.players[seat].reserve.items() if n > 0}
    for h in controlled_tiles(state, seat):
        for good, n in state.tiles[h].goods.items():
            if n > 0:
                have[good] = have.get(good, 0) + n
    return have


def covered(cost: list[str], have: dict[str, int]) -> int:
    """How many tokens of ``cost`` the goods in ``have`` cover (specific tokens first, then
    ``a|b`` alternatives, then ``any`` from what is left)."""
    left = dict(have)
    n = 0
    specific = [t for t in cost if t != "any" and "|" not in t]
    alts = [t for t in cost if "|" in t]
    for tok in specific:
        if left.get(tok, 0) > 0:
            left[tok] -= 1
            n += 1
    for tok in alts:
        for o in tok.split("|"):
            if left.get(o, 0) > 0:
                left[o] -= 1
                n += 1
                break
    anys = sum(1 for t in cost if t == "any")
    spare = sum(v for k, v in left.items() if k in CROPS or k == "gold")
    return n + min(anys, spare)


def current_mission(state: GameState, seat: int) -> str | None:
    """The kept, unrevealed mission of the current era (eras I and II only)."""
    if state.era >= 3:
        return None
    cat = _catalog(state)
    for mid in state.players[seat].missions:
        if cat.missions[mid].era == state.era:
            return mid
    return None


def visible_cities(state: GameState) -> list[str]:
    return [pile[-1] for pile in state.city_piles if pile]


def solo_plan(state: GameState, seat: int) -> Plan:
    """The objectives of the current era's mission still missing, with the goods the
    cheapest next step of each needs."""
    cat = _catalog(state)
    mid = current_mission(state, seat)
    steps: list[Step] = []
    city = False
    if mid is None:
        return Plan(steps, city, mid)
    have = goods_at_hand(state, seat)
    p = state.players[seat]
    for ob in cat.missions[mid].objectives:
        missing = ob.count - objective_count(state, seat, ob)
        if missing <= 0:
            continue
        goods: list[str] = []
        if ob.kind == "cities":
            city = True
            costs = [cat.cities[c].cost for c in visible_cities(state)]
            if costs:
                goods = max(costs, key=lambda c: (covered(c, have) - len(c), -len(c)))
        elif ob.kind == "buildings" and ob.type is not None and ob.type in cat.sides:
            goods = list(cat.sides[ob.type].cost)
        elif ob.kind == "products" and p.colour is not None:
            options = [
                cat.products[pid].cost
                for pid in p.products
                if pid in cat.products and (ob.shape is None or cat.products[pid].shape == ob.shape)
            ]
            if options:
                goods = max(options, key=lambda c: (covered(c, have) - len(c), -len(c)))
        steps.append(Step(ob.kind, missing, list(goods)))
    return Plan(steps, city, mid)


def city_site_open(state: GameState, seat: int, at: str) -> bool:
    """Could a city stand on ``at`` for ``seat`` (R-BUILD-3/4/6), the goods aside?"""
    cat = _catalog(state)
    board = cat.boards[state.map]
    if board.terrain.get(at) == "water":
        return False
    for q in state.players:
        if q.seat != seat and at in q.units.values():
            return False
    if at in state.enemy_units.values():
        return False
    for nb in (at, *board.neighbours[at]):
        t = state.tiles.get(nb)
        if t is not None and t.owner != seat:
            return False  # on or next to an opponent's (the orange army's) empire
    t = state.tiles.get(at)
    if t is not None and (
        t.kind != "building" or t.palace is not None or cat.building_era(t.id) >= 3
    ):
        return False
    ex = state.exploration.get(at)
    return not (
        ex is not None
        and ex.face_up
        and ex.tile in cat.exploration
        and cat.exploration[ex.tile].kind in ("river_basin", "bandeiras")
    )


def site_distance(state: GameState, seat: int) -> int | None:
    """Moves the monarch needs to stand on an open city site (None: not on the map)."""
    p = state.players[seat]
    loc = p.units.get("monarch")
    if loc is None or loc in OFF_MAP:
        return None
    board = _catalog(state).boards[state.map]
    frontier = [loc]
    seen = {loc}
    for d in range(SITE_RADIUS + 1):
        nxt: list[str] = []
        for h in sorted(frontier):
            if city_site_open(state, seat, h) and not _prefer_empty(state, seat, h):
                return d
            for nb in board.neighbours[h]:
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    return SITE_RADIUS + 1


def _prefer_empty(state: GameState, seat: int, at: str) -> bool:
    """A city over one of the seat's own buildings loses that building (and may undo a
    building objective): count such a hex as a site only when nothing else is near."""
    t = state.tiles.get(at)
    return t is not None and t.owner == seat


def plan_value(state: GameState, seat: int) -> float:
    """The readiness of the solo plan's next steps (VP-like units, added to the solo
    evaluation): goods gathered for each missing objective's next step and, when the
    current mission needs a city, the monarch deployed and standing on an open site; less
    :data:`TURN_WEIGHT` per turn the plan still needs (:func:`plan_turns`)."""
    if not state.solo or state.phase == "ended":
        return 0.0
    v = -TURN_WEIGHT * plan_turns(state, seat) if TURN_WEIGHT else 0.0
    plan = solo_plan(state, seat)
    if not plan.steps:
        return v
    have = goods_at_hand(state, seat)
    for st in plan.steps:
        if st.goods:
            n = covered(st.goods, have)
            v += STEP_GOODS * n + (STEP_READY if n == len(st.goods) else 0.0)
    if plan.city:
        d = site_distance(state, seat)
        if d is not None:
            v += SITE_BONUS - SITE_STEP * d
    return v


# ------------------------------------------------------------------ turns still needed

GOODS_PER_TURN = 1.3  # goods one economy action brings (import 1, renovate/build ~1-2 net)
GENERIC_COST = {  # cost tokens of the cheapest way to meet one of an objective kind
    "buildings": 1,  # a sawmill (sugar cane or coffee) or a sugar-cane field (brazilwood)
    "building_types": 1,
    "paintings": 1,
    "palaces": 0,
    "science": 3,  # four resources traded give one science and one gold
}


def _objective_needs(state: GameState, seat: int, mission: str) -> tuple[int, int]:
    """(actions, goods) the objectives of ``mission`` still need, units aside (those are
    counted once, by :func:`plan_turns`, as deployments)."""
    cat = _catalog(state)
    p = state.players[seat]
    actions = goods = 0
    for ob in cat.missions[mission].objectives:
        missing = ob.count - objective_count(state, seat, ob)
        if missing <= 0 or ob.kind in ("units_deployed", "units_on_map"):
            continue
        if ob.kind == "cities":
            costs = [len(cat.cities[c].cost) for c in visible_cities(state)] or [3]
            actions += missing
            goods += missing * min(costs)
        elif ob.kind == "buildings" and ob.type is not None and ob.type in cat.sides:
            actions += missing
            goods += missing * len(cat.sides[ob.type].cost)
        elif ob.kind in ("products", "upgraded_arches"):
            left = sorted(
                len(cat.products[pid].cost)
                for pid in p.products
                if pid in cat.products and (ob.shape is None or cat.products[pid].shape == ob.shape)
            )
            actions += missing
            goods += sum(left[:missing]) + 3 * max(0, missing - len(left))
        elif ob.kind == "science":
            goods += missing * GENERIC_COST["science"]
            actions += missing
        else:
            actions += missing
            goods += missing * GENERIC_COST.get(ob.kind, 1)
    return actions, goods


def plan_turns(state: GameState, seat: int) -> float:
    """Turns the solo plan still needs (R-SOLO-2): one action per missing objective of the
    kept era I and II missions not yet revealed, one Recruit per unit not on the map, and
    the goods all of those cost beyond the goods at hand, at :data:`GOODS_PER_TURN`."""
    cat = _catalog(state)
    p = state.players[seat]
    if p.colour is None:
        return 0.0
    actions = goods = 0
    for mid in p.missions:
        if cat.missions[mid].era < 3 and cat.missions[mid].era >= state.era:
            a, g = _objective_needs(state, seat, mid)
            actions += a
            goods += g
    for u in cat.colours[p.colour].units:
        loc = p.units.get(u.id)
        if loc == "board":
            actions += 1
            goods += len(u.cost)
        elif loc == "reserve":
            actions += 1
    have = sum(
        n for k, n in goods_at_hand(state, seat).items() if k in CROPS or k in ("gold", "science")
    )
    return actions + max(0, goods - have) / GOODS_PER_TURN
