"""Counting: mission objectives (R-MISSION-1..3), end scoring (R-END-2) and the tie-break
(R-END-3). Pure functions of the state."""

from __future__ import annotations

from collections import Counter
from typing import Any, NotRequired, TypedDict

from rules.brazil.catalog import BuildingOverride, Catalog, Objective, get_catalog
from rules.brazil.control import controlled_tiles, occupier_of, unit_seats
from rules.brazil.state import GameState, Tile

CATEGORIES = (
    "units",
    "products",
    "paintings",
    "missions",
    "gold_cards",
    "exploration",
    "buildings",
    "palaces",
    "monarch",
)


def catalog_of(state: GameState) -> Catalog:
    return get_catalog(state.data_pack, state.data_pack_hash)


def built_and_controlled(state: GameState, seat: int, side: str) -> int:
    """Buildings of ``side`` that ``seat`` built and still controls (R-PALACE-5)."""
    return sum(
        1
        for hex_, t in state.tiles.items()
        if t.kind == "building"
        and t.id == side
        and t.owner == seat
        and occupier_of(state, hex_) is None
    )


def units_deployed(state: GameState, seat: int) -> int:
    return sum(1 for loc in state.players[seat].units.values() if loc != "board")


def units_on_map(state: GameState, seat: int) -> int:
    return sum(1 for loc in state.players[seat].units.values() if loc not in ("board", "reserve"))


def manufactured(state: GameState, seat: int) -> list[str]:
    p = state.players[seat]
    return list(p.upgrades.values()) + p.victoria + p.factory


def objective_count(
    state: GameState, seat: int, ob: Objective, where: dict[str, int] | None = None
) -> int:
    """``where``: :func:`rules.brazil.control.unit_seats` of ``state``, when the caller has it."""
    cat = catalog_of(state)
    p = state.players[seat]
    k = ob.kind
    if k == "buildings":
        if where is None:
            where = unit_seats(state)
        # controlled_tiles(state, seat, "building", where), counted in one pass
        n = 0
        for hex_, t in state.tiles.items():
            if t.kind != "building" or where.get(hex_, t.owner) != seat:
                continue
            if ob.type is not None and t.id != ob.type:
                continue
            if ob.era is not None and cat.building_era(t.id) != ob.era:
                continue
            n += 1
        return n
    if k == "cities":
        return len(controlled_tiles(state, seat, "city", where))
    if k == "products":
        made = manufactured(state, seat)
        if ob.shape is not None:
            return sum(1 for pr in made if cat.products[pr].shape == ob.shape)
        return len(made)
    if k == "paintings":
        if ob.frame is not None:
            return sum(1 for pa in p.paintings if cat.paintings[pa].frame == ob.frame)
        return len(p.paintings)
    if k == "units_deployed":
        return units_deployed(state, seat)
    if k == "units_on_map":
        return units_on_map(state, seat)
    if k == "building_types":
        return len({state.tiles[h].id for h in controlled_tiles(state, seat, "building", where)})
    if k == "upgraded_arches":
        return len(p.upgrades)
    if k == "palaces":
        return sum(1 for n in range(2, 7) if n not in p.palaces)
    if k == "occupied":
        if where is None:
            return sum(1 for h in state.tiles if occupier_of(state, h) == seat)
        return sum(1 for h, t in state.tiles.items() if t.owner != seat and where.get(h) == seat)
    if k == "science":
        return p.reserve.get("science", 0)
    raise ValueError(f"unknown objective kind {k}")


def objective_met(
    state: GameState, seat: int, ob: Objective, where: dict[str, int] | None = None
) -> bool:
    return objective_count(state, seat, ob, where) >= ob.count


def mission_complete(
    state: GameState, seat: int, mission_id: str, where: dict[str, int] | None = None
) -> bool:
    """``where``: :func:`rules.brazil.control.unit_seats` of ``state``, when the caller has it."""
    return all(
        objective_met(state, seat, ob, where) for ob in _cheap_first(catalog_of(state), mission_id)
    )


class MissionCheck:
    """:func:`mission_complete` of one seat on one unchanging state (a legal-action listing,
    which asks it of every mission in the seat's hand): the scans of the map that the tile
    objectives count — the buildings and the cities the seat controls — are made once, not
    once an objective. ``where``: :func:`rules.brazil.control.unit_seats` of ``state``."""

    def __init__(self, state: GameState, seat: int, where: dict[str, int]) -> None:
        self.state = state
        self.seat = seat
        self.where = where
        self.cat = catalog_of(state)
        self._buildings: list[str] | None = None  # the controlled buildings' sides, map order
        self._cities: int | None = None

    def buildings(self) -> list[str]:
        """The side ids of the buildings ``seat`` controls, in the map's tile order."""
        if self._buildings is None:
            seat = self.seat
            where = self.where
            self._buildings = [
                t.id
                for hex_, t in self.state.tiles.items()
                if t.kind == "building" and where.get(hex_, t.owner) == seat
            ]
        return self._buildings

    def count(self, ob: Objective) -> int:
        """``objective_count(state, seat, ob, where)``."""
        k = ob.kind
        if k == "buildings":
            era = ob.era
            typ = ob.type
            if era is None and typ is None:
                return len(self.buildings())
            building_era = self.cat.building_era
            return sum(
                1
                for side in self.buildings()
                if (typ is None or side == typ) and (era is None or building_era(side) == era)
            )
        if k == "building_types":
            return len(set(self.buildings()))
        if k == "cities":
            if self._cities is None:
                self._cities = len(controlled_tiles(self.state, self.seat, "city", self.where))
            return self._cities
        return objective_count(self.state, self.seat, ob, self.where)

    def complete(self, mission_id: str) -> bool:
        """``mission_complete(state, seat, mission_id, where)``."""
        count = self.count
        return all(count(ob) >= ob.count for ob in _cheap_first(self.cat, mission_id))


# Objectives counted by a scan of the map's tiles; the others are read from the player.
_TILE_SCAN = frozenset({"buildings", "cities", "building_types", "occupied"})
_CHEAP_FIRST: dict[tuple[int, str], tuple[Catalog, tuple[Objective, ...]]] = {}


def _cheap_first(cat: Catalog, mission_id: str) -> tuple[Objective, ...]:
    """A mission's objectives, those read from the player first (stable otherwise): a
    mission is complete when all are met, whichever is counted first, and an unmet cheap
    one spares the scans of the map (made once per catalog and mission)."""
    key = (id(cat), mission_id)
    got = _CHEAP_FIRST.get(key)
    if got is not None and got[0] is cat:
        return got[1]
    obs = tuple(sorted(cat.missions[mission_id].objectives, key=lambda ob: ob.kind in _TILE_SCAN))
    _CHEAP_FIRST[key] = (cat, obs)
    return obs


def describe_objective(ob: Objective) -> str:
    what = {
        "buildings": "building",
        "cities": "city",
        "products": "product",
        "paintings": "painting",
        "units_deployed": "unit deployed",
        "units_on_map": "unit on the map",
        "building_types": "building type",
        "upgraded_arches": "upgraded arch",
        "palaces": "palace placed",
        "occupied": "occupied enemy tile",
        "science": "science in reserve",
    }[ob.kind]
    qual = ""
    if ob.type:
        what = ob.type.replace("_", " ")
    if ob.era:
        qual += f" of era {ob.era}"
    if ob.shape:
        what = f"{ob.shape} product"
    if ob.frame:
        what = f"{ob.frame}-frame painting"
    return f"{ob.count} × {what}{qual}"


# ---------------------------------------------------------------------------- end scoring


def override_for(state: GameState, t: Tile) -> BuildingOverride | None:
    """The builder's monarch values for this building, if it is one of the monarch's first
    N of its type (R-MONARCH-1); they replace the side's production and VP."""
    if not t.special or t.owner < 0:
        return None
    mon = state.players[t.owner].monarch
    ov = catalog_of(state).monarchs[mon].building_override if mon else None
    return ov if ov is not None and ov.side == t.id else None


def base_production(state: GameState, t: Tile) -> dict[str, int]:
    """A building's printed production, or its monarch's values (before bonuses)."""
    ov = override_for(state, t)
    return dict(ov.production if ov is not None else catalog_of(state).sides[t.id].production)


def tile_vp(state: GameState, hex_: str) -> int:
    cat = catalog_of(state)
    t = state.tiles[hex_]
    if t.kind == "city":
        return cat.cities[t.id].vp
    if t.kind != "building":
        return 0
    ov = override_for(state, t)
    return ov.vp if ov is not None else cat.sides[t.id].vp


class ScoreRow(TypedDict):
    """One seat's final score (R-END-2)."""

    seat: int
    total: int
    categories: dict[str, int]  # VP per category
    details: dict[str, list[str]]  # what scored, per category
    tiebreak_science: int  # R-END-3


class FinalScores(TypedDict):
    scores: list[ScoreRow]
    winners: list[int]  # seats
    solo_won: NotRequired[bool]  # solo game only (R-SOLO-2)


def score(state: GameState, seat: int) -> ScoreRow:
    """Per-category VP of one seat (R-END-2), with details for the breakdown."""
    cat = catalog_of(state)
    p = state.players[seat]
    s: Counter[str] = Counter()
    detail: dict[str, list[str]] = {c: [] for c in CATEGORIES}

    def add(c: str, vp: int, why: str) -> None:
        if vp:
            s[c] += vp
            detail[c].append(f"{why}: {vp}")

    # Units: revealed laurels of deployed units (on the map or defeated) — R-RECRUIT-2.
    for uid, loc in p.units.items():
        if loc != "board" and p.colour:
            add("units", cat.units[f"{p.colour}.{uid}"].vp, cat.units[f"{p.colour}.{uid}"].name)
    # Products.
    for pr in manufactured(state, seat):
        add("products", cat.products[pr].vp, cat.products[pr].name)
    # Paintings and their end effects.
    mine = set(p.paintings)
    for pa in p.paintings:
        add("paintings", cat.paintings[pa].vp, cat.paintings[pa].name)
        par = cat.paintings[pa].params
        if cat.paintings[pa].effect == "production" and par.get("vp_each"):
            n = sum(
                1
                for h in controlled_tiles(state, seat, "building")
                if state.tiles[h].id == par["side"]
            )
            add("paintings", n * int(par["vp_each"]), f"{cat.paintings[pa].name} bonus")
    if "camarao" in mine:
        forests = _forests_next_to_empire(state, seat)
        add(
            "paintings",
            forests * int(cat.paintings["camarao"].params.get("vp_per_forest", 1)),
            "Camarão forests",
        )
    if "factory" in mine:
        add(
            "paintings",
            len(p.factory) * int(cat.paintings["factory"].params.get("vp_each", 2)),
            "Factory products",
        )
    if p.coroados == 1 and "coroados" in mine:
        add(
            "paintings",
            int(cat.paintings["coroados"].params.get("token1_vp", 2)),
            "Coroados token I",
        )
    # Missions: revealed cards; era III objectives achieved even if not revealed.
    for mid in p.revealed:
        add(
            "missions",
            cat.missions[mid].vp
            if cat.missions[mid].era < 3
            else sum(o.vp for o in cat.missions[mid].objectives),
            cat.missions[mid].name,
        )
    for mid in p.missions:
        m = cat.missions[mid]
        if m.era == 3:
            got = sum(o.vp for o in m.objectives if objective_met(state, seat, o))
            add("missions", got, f"{m.name} (objectives achieved)")
    # Gold cards kept for the end.
    for gc in p.gold_cards:
        card = cat.gold_cards[gc]
        if card.kind == "end" and _end_card_scores(state, seat, card.effect, card.params):
            add("gold_cards", int(card.params.get("vp", 0)), card.name)
    # Exploration tiles kept.
    kept = Counter(cat.exploration[t].kind for t in p.kept_tiles)
    if kept["unknown_species"]:
        table = list(cat.exploration["unknown_species"].params.get("vp_table", [0, 1, 3, 5]))
        n = min(kept["unknown_species"], len(table) - 1)
        add("exploration", int(table[n]), f"{kept['unknown_species']} unknown species")
    for t in p.kept_tiles:
        tile = cat.exploration[t]
        if tile.kind != "unknown_species":
            add("exploration", tile.reward_vp, tile.name)
    # Buildings and cities controlled (own unoccupied + occupied enemy ones).
    for h in controlled_tiles(state, seat):
        add("buildings", tile_vp(state, h), f"{state.tiles[h].id.replace('_', ' ')} {h}")
    # Palace bonuses (R-PALACE-2, R-PALACE-5).
    for placed in state.tiles.values():
        if placed.owner != seat or placed.palace is None:
            continue
        if placed.palace == 3:
            add("palaces", built_and_controlled(state, seat, "foundry"), "Palace III (foundries)")
        elif placed.palace == 4:
            add(
                "palaces",
                2 * built_and_controlled(state, seat, "cotton_plantation"),
                "Palace IV (cotton plantations)",
            )
        elif placed.palace == 5:
            add("palaces", len(manufactured(state, seat)), "Palace V (products)")
        elif placed.palace == 6:
            add("palaces", units_deployed(state, seat), "Palace VI (units deployed)")
    # Monarch bonuses.
    if p.monarch == "dom_oba_ii":
        par = cat.monarchs["dom_oba_ii"].params
        add(
            "monarch",
            min(len(p.revealed), int(par.get("missions", 2))) * int(par.get("vp", 1)),
            "Dom Obá II",
        )
    if p.monarch == "queen_victoria":
        add(
            "monarch",
            len(p.victoria) * int(cat.monarchs["queen_victoria"].params.get("vp", 1)),
            "Queen Victoria",
        )
    total = sum(s.values())
    return {
        "seat": seat,
        "total": total,
        "categories": {c: s.get(c, 0) for c in CATEGORIES},
        "details": detail,
        "tiebreak_science": science_on_buildings(state, seat),
    }


def science_on_buildings(state: GameState, seat: int) -> int:
    return sum(
        state.tiles[h].goods.get("science", 0) for h in controlled_tiles(state, seat, "building")
    )


def _forests_next_to_empire(state: GameState, seat: int) -> int:
    board = catalog_of(state).boards[state.map]
    forests: set[str] = set()
    for h, t in state.tiles.items():
        if t.owner != seat:
            continue
        for nb in board.neighbours[h]:
            if board.terrain[nb] == "forest" and nb not in state.tiles:
                forests.add(nb)
    return len(forests)


def _end_card_scores(state: GameState, seat: int, effect: str, params: dict[str, Any]) -> bool:
    others = [q.seat for q in state.players if q.seat != seat]
    if effect == "most_buildings":
        mine = sum(
            1
            for h in controlled_tiles(state, seat, "building")
            if state.tiles[h].id == params["side"]
        )
        theirs = [
            sum(
                1
                for h in controlled_tiles(state, o, "building")
                if state.tiles[h].id == params["side"]
            )
            for o in others
        ]
        return mine > 0 and all(mine > t for t in theirs)
    if effect == "combat_cards_held":
        return len(state.players[seat].combat_cards) >= int(params.get("count", 3))
    if effect == "frontier":
        board = catalog_of(state).boards[state.map]
        caps = [t_h for t_h, t in state.tiles.items() if t.kind == "capital" and t.owner != seat]
        # "once you have founded a city": cities you built, occupied or not (R-VOC-7)
        cities = [h for h, t in state.tiles.items() if t.kind == "city" and t.owner == seat]
        return any(
            board.distance(c, k) <= int(params.get("distance", 3)) for c in cities for k in caps
        )
    return False


def final_scores(state: GameState) -> FinalScores:
    """Scores of every seat and the winners (R-END-2, tie-break R-END-3)."""
    rows = [score(state, p.seat) for p in state.players]
    best = max(r["total"] for r in rows)
    tied = [r for r in rows if r["total"] == best]
    if len(tied) > 1:
        top_sci = max(r["tiebreak_science"] for r in tied)
        tied = [r for r in tied if r["tiebreak_science"] == top_sci]
    return {"scores": rows, "winners": [r["seat"] for r in tied]}
