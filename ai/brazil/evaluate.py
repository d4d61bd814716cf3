"""A hand-tuned evaluation of a game state from one seat's point of view.

Everything here reads only what that seat may see: its own cards and missions and the public
part of the others (their hidden cards and missions are ignored, whatever the state holds).
So the same function serves a view, a placeholder-filled view and a determinization.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ai.brazil.solo import plan_value, solo_plan
from rules.brazil.catalog import CROPS, Catalog, Objective, get_catalog
from rules.brazil.control import controlled_tiles, unit_seats
from rules.brazil.game import Context
from rules.brazil.scoring import (
    mission_complete,
    objective_count,
    score,
    units_on_map,
)
from rules.brazil.state import Battle, GameState, Side
from rules.brazil.view import HIDDEN

# Values of goods and cards held (beyond their VP, which the score counts).
GOOD_VALUE = {"gold": 0.85, "science": 1.1}
CROP_VALUE = 0.6
TILE_GOOD_FACTOR = 0.9  # goods on a building can only be spent by its controller
GOLD_CARD_VALUE = 0.7
UPGRADE_VALUE = 1.3  # an upgraded arch, beyond its product's VP
PAINTING_EFFECT = 0.6
UNIT_ON_MAP = 0.35
BUILDING_VALUE = 0.6  # production capacity
MISSION_WEIGHT = 0.75  # share of an unrevealed mission's VP credited by progress
OPPONENT_WEIGHT = 0.45
SOLO_ERA3_MISSION = 0.5  # solo: share of the era III mission's VP credited by progress
MONARCH_MARCHES = False  # solo: the monarch joins the march even while a city is needed
PLAN_WEIGHT = 1.0  # solo: readiness of the plan's next steps (ai.brazil.solo)


@lru_cache(maxsize=8)
def catalog_for(pack: str | None) -> Catalog:
    return get_catalog(pack)


def combat_card_value(cat: Catalog, card: str) -> float:
    """What keeping a combat card is worth (a defence or attack reserve)."""
    if card == HIDDEN or card not in cat.combat_cards:
        return 0.6
    c = cat.combat_cards[card]
    fp = int(c.params.get("fp", c.params.get("defend", 1)))
    return 0.35 + 0.25 * fp + (0.2 if c.effect in ("parley", "retreat", "war_chest") else 0.0)


def gold_card_value(cat: Catalog, card: str) -> float:
    if card == HIDDEN or card not in cat.gold_cards:
        return GOLD_CARD_VALUE
    c = cat.gold_cards[card]
    if c.kind == "end":
        return 0.9
    return GOLD_CARD_VALUE


OVERDUE_ROUND = 60
"""The round from which an era III game is overdue: games of the heuristic end in about 33
rounds, random games mostly before 100 (R-END-1: only a revealed era III mission ends one)."""
OVERDUE_PUSH = 10.0
"""The era III mission's weight (its VP times its progress) in an overdue game: every player
then works towards the end (issue 33: all-AI games that never ended)."""


def overdue(state: GameState) -> bool:
    """Whether the game is overdue (public: the era and the round): in era III at round
    :data:`OVERDUE_ROUND` or later, where only a revealed era III mission ends it (R-END-1)."""
    return state.era == 3 and state.round >= OVERDUE_ROUND and not state.solo


def mission_progress(state: GameState, seat: int, mission: str, power: float = 2.0) -> float:
    """0..1: how far ``seat`` is towards ``mission`` (mean of objective shares, to ``power``:
    squared, nearly finished missions pull harder)."""
    m = catalog_for(state.data_pack).missions[mission]
    shares = [
        min(1.0, objective_count(state, seat, ob) / ob.count) if ob.count else 1.0
        for ob in m.objectives
    ]
    return float((sum(shares) / len(shares)) ** power)


def _own_score(state: GameState, seat: int) -> float:
    return float(score(state, seat)["total"])


def public_score(state: GameState, seat: int) -> float:
    """An opponent's score as the others can count it: without hidden cards and missions."""
    p = state.players[seat]
    missions, gold = p.missions, p.gold_cards
    p.missions, p.gold_cards = [], []
    try:
        return float(score(state, seat)["total"])
    finally:
        p.missions, p.gold_cards = missions, gold


def _solo_terms(state: GameState, seat: int) -> float:
    """R-SOLO-2: era III, all five units on the map, the enemy capital taken — within 20
    rounds: the goods the missing units cost are planned for (the cannon's gold, brazilwood
    and cotton), and the clock makes the era missions more urgent as rounds pass."""
    v = 14.0 * (state.era - 1)
    on_map = units_on_map(state, seat)
    v += 4.0 * on_map + (6.0 if on_map >= len(state.players[seat].units) else 0.0)
    v += 3.0 * sum(1 for loc in state.enemy_units.values() if loc == "reserve")
    v += _unit_economy(state, seat)
    v += march_value(state, seat)
    v += PLAN_WEIGHT * plan_value(state, seat)
    if state.solo_captured:
        v += 18.0
    if state.phase == "ended":
        v += 60.0 if (state.result or {}).get("solo_won") else -10.0
    return v


def march_value(state: GameState, seat: int) -> float:
    """Solo: the army closing on the enemy capital (its strength weighted by unit VP), so
    the free moves of the 20 rounds are not wasted."""
    cat = catalog_for(state.data_pack)
    board = cat.boards[state.map]
    caps = [h for h, t in state.tiles.items() if t.owner < 0 and t.kind == "capital"]
    p = state.players[seat]
    if not caps or p.colour is None or state.solo_captured:
        return 0.0
    vp = {u.id: u.vp for u in cat.colours[p.colour].units}
    stacks: dict[str, int] = {}
    # The monarch founds the city (R-BUILD-6): it stays behind while the mission needs one.
    keep_home = not MONARCH_MARCHES and solo_plan(state, seat).city
    for u, loc in p.units.items():
        if keep_home and u == "monarch":
            continue
        if loc not in ("board", "reserve"):
            stacks[loc] = stacks.get(loc, 0) + vp.get(u, 2)
    if not stacks:
        return 0.0
    # the strongest stack (it moves together with the dragoon) counts most: attack as one
    main = max(sorted(stacks), key=lambda h: stacks[h])
    v = 0.0
    for loc, strength in stacks.items():
        d = min(board.distance(loc, c) for c in caps)
        v += (0.12 if loc == main else 0.05) * strength * max(0, 7 - d)
    return v


def _unit_economy(state: GameState, seat: int) -> float:
    """Goods at hand (reserve, own buildings) and production towards the units not yet on the
    map (R-SOLO-2: all five must be deployed): each cost token covered is worth a share of
    the unit, a building producing a needed good a little."""
    cat = catalog_for(state.data_pack)
    p = state.players[seat]
    if p.colour is None:
        return 0.0
    need: dict[str, int] = {}
    for u in cat.colours[p.colour].units:
        if p.units.get(u.id) in ("board", "reserve"):
            for tok in u.cost:
                need[tok] = need.get(tok, 0) + 1
    if not need:
        return 0.0
    have = dict(p.reserve)
    prod: dict[str, int] = {}
    for h in controlled_tiles(state, seat):
        t = state.tiles[h]
        for good, n in t.goods.items():
            have[good] = have.get(good, 0) + n
        if t.kind == "building" and t.id in cat.sides:
            for good in cat.sides[t.id].production:
                prod[good] = prod.get(good, 0) + 1
    v = 0.0
    for tok, n in sorted(need.items()):
        if tok == "any":
            continue
        opts = tok.split("|")
        got = sum(have.get(o, 0) for o in opts)
        used = min(n, got)
        v += 1.2 * used
        for o in opts:
            have[o] = max(0, have.get(o, 0) - used)
            used = 0
        if any(prod.get(o, 0) for o in opts):
            v += 0.6
    crops = sum(have.get(c, 0) for c in CROPS)
    v += 0.5 * min(need.get("any", 0), crops)
    return v


def opponent_scores(state: GameState, seat: int) -> list[float]:
    return [public_score(state, q.seat) for q in state.players if q.seat != seat]


def evaluate(state: GameState, seat: int, others: list[float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` (higher is better); VP-like units.
    ``others``: the opponents' public scores when known not to have changed."""
    cat = catalog_for(state.data_pack)
    p = state.players[seat]
    if p.colour is None:
        return 0.0
    if state.phase == "ended" and state.result is not None and not state.solo:
        rows = {r["seat"]: r["total"] for r in state.result["scores"]}
        mine = rows[seat]
        best_other = max((t for s, t in rows.items() if s != seat), default=0)
        won = seat in state.result["winners"]
        return float(mine - OPPONENT_WEIGHT * best_other + (25.0 if won else 0.0))
    # Solo (R-SOLO-2): VP do not decide the game, the conditions of victory do.
    v = _own_score(state, seat) * (0.25 if state.solo else 1.0)
    # Missions not yet revealed: credit by progress; a completed one is worth nearly its VP.
    for mid in p.missions:
        m = cat.missions[mid]
        if m.era > state.era + 1:
            continue
        vp = m.vp if m.era < 3 else sum(o.vp for o in m.objectives)
        if state.solo and m.era == state.era < 3:
            v += 16.0 * mission_progress(state, seat, mid, 1.0)  # R-SOLO-2: eras must advance
        if m.era < 3:
            prog = mission_progress(state, seat, mid)
            v += MISSION_WEIGHT * vp * prog
            if m.era <= state.era and mission_complete(state, seat, mid):
                v += 0.1 * vp  # still better to reveal (the score counts it then)
        else:
            # Solo (R-SOLO-2): the era III mission need not be completed.
            w = SOLO_ERA3_MISSION if state.solo else OVERDUE_PUSH if overdue(state) else 0.5
            v += w * vp * mission_progress(state, seat, mid)
    # Revealing the current era's mission first brings the next era: good for the revealer.
    v += 1.5 * len(p.revealed)
    # Economy.
    for good, n in p.reserve.items():
        v += n * GOOD_VALUE.get(good, CROP_VALUE)
    mine = controlled_tiles(state, seat)
    for h in mine:
        t = state.tiles[h]
        if t.kind == "building":
            v += BUILDING_VALUE
        for good, n in t.goods.items():
            v += TILE_GOOD_FACTOR * n * GOOD_VALUE.get(good, CROP_VALUE)
    v += sum(gold_card_value(cat, c) for c in p.gold_cards)
    v += sum(combat_card_value(cat, c) for c in p.combat_cards)
    v += UPGRADE_VALUE * len(p.upgrades)
    v += PAINTING_EFFECT * len(p.paintings)
    v += UNIT_ON_MAP * units_on_map(state, seat)
    v += _position(state, seat)
    if state.solo:
        v += _solo_terms(state, seat)
    else:
        if others is None:
            others = opponent_scores(state, seat)
        if others:
            v -= OPPONENT_WEIGHT * max(others) + 0.1 * sum(others) / len(others)
    return v


def conquest_targets(state: GameState, seat: int) -> list[str]:
    """In an overdue game (:func:`overdue`), the opponents' tiles whose occupation would meet
    more of ``seat``'s unmet era III objectives: an occupied building or city counts as the
    occupier's (R-END-2, ``controlled_tiles``), and once the supplies are spent (no building,
    city or painting left) occupation is the only way left to complete the mission that
    ends the game (R-END-1)."""
    if not overdue(state):
        return []
    cat = catalog_for(state.data_pack)
    p = state.players[seat]
    wanted: list[Objective] = [
        ob
        for mid in p.missions
        if cat.missions[mid].era == 3
        for ob in cat.missions[mid].objectives
        if ob.kind in ("buildings", "cities", "building_types", "occupied")
        and objective_count(state, seat, ob) < ob.count
    ]
    if not wanted:
        return []
    where = unit_seats(state)
    have = {state.tiles[h].id for h in controlled_tiles(state, seat, "building", where)}
    out = []
    for h, t in state.tiles.items():
        if t.owner in (seat, -1) or t.kind == "capital" or where.get(h) == seat:
            continue
        for ob in wanted:
            if (
                ob.kind == "occupied"
                or (ob.kind == "cities" and t.kind == "city")
                or (
                    ob.kind == "buildings"
                    and t.kind == "building"
                    and ob.type in (None, t.id)
                    and (ob.era is None or cat.building_era(t.id) == ob.era)
                )
                or (ob.kind == "building_types" and t.kind == "building" and t.id not in have)
            ):
                out.append(h)
                break
    return out


def _position(state: GameState, seat: int) -> float:
    """Units near things worth reaching: face-down exploration tiles and targets to occupy
    (the enemy's in the solo game; in an overdue game, :func:`conquest_targets`)."""
    cat = catalog_for(state.data_pack)
    board = cat.boards[state.map]
    p = state.players[seat]
    targets = [h for h, e in state.exploration.items() if not e.face_up]
    if state.solo:
        enemy = [h for h, t in state.tiles.items() if t.owner < 0]
    else:
        enemy = conquest_targets(state, seat)
    if not targets and not enemy:
        return 0.0
    v = 0.0
    for loc in p.units.values():
        if loc in ("board", "reserve"):
            continue
        if targets:
            v += 0.25 / (1 + min(board.distance(loc, t) for t in targets))
        if enemy:
            v += 0.8 / (1 + min(board.distance(loc, t) for t in enemy))
    return v


# ------------------------------------------------------------------------------ battles


def _base_fp(state: GameState, b: Battle, side: Side, role: str) -> int:
    g = Context(state)
    from rules.brazil.combat import side_fp

    bare = side.model_copy(update={"cards": [], "camp": []})
    return sum(v for _, v in side_fp(g, b, bare, role))


def card_fp(state: GameState, b: Battle, side: Side, role: str, card: str) -> int:
    from rules.brazil import combat

    if card == HIDDEN:
        return 1
    return combat.card_fp(Context(state), b, side, role, card)


def win_probability(margin: float) -> float:
    """Chance of winning with an FP lead of ``margin`` before unknown cards (logistic)."""
    return 1.0 / (1.0 + math.exp(-1.1 * margin))


def battle_margin(state: GameState, seat: int) -> float | None:
    """Expected FP lead of ``seat`` in the battle of ``state`` before its own card choice,
    counting the other side's unknown cards at their average; None if no battle."""
    b = state.combat
    if b is None:
        return None
    att = b.attacker
    if b.kind == "bandeiras":
        return float(_base_fp(state, b, att, "attacker") - (b.requirement or 0)) + 0.5
    d = b.defender
    if d is None:
        return None
    a_fp = float(_base_fp(state, b, att, "attacker"))
    d_fp = float(_base_fp(state, b, d, "defender"))
    if seat == att.seat:
        opp = d
        own, other = a_fp, d_fp + 0.5  # ties go to the defender
    else:
        opp = att
        own, other = d_fp + 0.5, a_fp
    if opp.seat < 0:
        expected: float = 1.3 * len(opp.units)  # R-COMBAT-13: one card per orange unit
    elif opp.committed:
        expected = 1.3 * len(opp.cards)
    else:
        hand = len(state.players[opp.seat].combat_cards)
        expected = 1.0 * min(3, hand)
    return own - other - expected


def hidden_crop_placeholder() -> str:
    return CROPS[0]
