"""Scenario maps and mission cards: schema and the design rules of DATA.md ("Maps", "Missions").

These tests read ``rules/data/brazil/maps/*.toml`` and ``rules/data/brazil/missions.toml`` directly with
``tomllib`` and use only the schema (``MapDef``, ``Mission``, ``compile_board``) and the hex
geometry, so they do not depend on the other data files.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rules.brazil.catalog import Board, MapDef, Mission, compile_board
from rules.brazil.hexgrid import Hex

DATA_DIR = Path(__file__).resolve().parents[2] / "rules" / "data" / "brazil"
MAPS_DIR = DATA_DIR / "maps"

# Scenario table of DATA.md: id -> (players, conflict, has water hexes).
SCENARIOS: dict[str, tuple[int, str, bool]] = {
    "guararapes": (1, "-", False),
    "rio-de-janeiro": (2, "high", True),
    "cisplatine-war": (2, "high", False),
    "amazon": (3, "low", True),
    "platine-war": (3, "medium", False),
    "tordesillas": (3, "medium", True),
    "empire-of-brazil": (4, "medium", True),
    "across-the-atlantic": (4, "low", False),
    "sao-francisco": (4, "low", True),
}
MAP_IDS = sorted(SCENARIOS)
MULTIPLAYER_IDS = [m for m in MAP_IDS if SCENARIOS[m][0] > 1]
EXPLORATION_TILES = 18  # DATA.md "Exploration tiles"
SOLO_ARMY = {"corsair1", "corsair2", "grenadier", "cavalry"}


@cache
def load_map(map_id: str) -> MapDef:
    with (MAPS_DIR / f"{map_id}.toml").open("rb") as fh:
        return MapDef.model_validate(tomllib.load(fh))


@cache
def board(map_id: str) -> Board:
    return compile_board(load_map(map_id))


def land(b: Board) -> list[str]:
    return [h for h in b.order if b.terrain[h] != "water"]


def water(b: Board) -> list[str]:
    return [h for h in b.order if b.terrain[h] == "water"]


def capitals(b: Board) -> list[str]:
    """Capital sites, plus the solo enemy capital."""
    return list(b.capital_sites) + ([b.enemy_capital] if b.enemy_capital else [])


def within(b: Board, centre: str, radius: int) -> list[str]:
    return [h for h in b.order if h != centre and b.distance(centre, h) <= radius]


def components(b: Board, hexes: Iterable[str]) -> list[set[str]]:
    """Connected groups of ``hexes`` (neighbours on the board, restricted to ``hexes``)."""
    todo = set(hexes)
    out: list[set[str]] = []
    while todo:
        start = todo.pop()
        comp = {start}
        stack = [start]
        while stack:
            for n in b.neighbours[stack.pop()]:
                if n in todo:
                    todo.remove(n)
                    comp.add(n)
                    stack.append(n)
        out.append(comp)
    return out


def bare_plain(b: Board, h: str) -> bool:
    """A plain without fog or capital: a sugar-cane field or farm can go there at once."""
    return b.terrain[h] == "plain" and h not in b.fog and h not in capitals(b)


# --------------------------------------------------------------------------- maps


def test_all_nine_scenarios_have_a_map() -> None:
    # R-SETUP-1: a map for each scenario of DATA.md's table.
    assert sorted(p.stem for p in MAPS_DIR.glob("*.toml")) == MAP_IDS


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_map_header_matches_the_scenario_table(map_id: str) -> None:
    m = load_map(map_id)
    players, conflict, _ = SCENARIOS[map_id]
    assert m.id == map_id
    assert (m.players, m.conflict) == (players, conflict)
    assert m.name
    assert m.source == "design"


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_map_fits_short_labels(map_id: str) -> None:
    m = load_map(map_id)
    assert len(m.rows) <= 16
    assert all(len(row) <= 26 for row in m.rows)
    assert len({len(row) for row in m.rows}) == 1, "pad every row with '.' to the same width"
    b = board(map_id)
    assert all(len(h) <= 3 and Hex.parse(h).label == h for h in b.order)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_capital_sites_one_per_player(map_id: str) -> None:
    # R-SETUP-1: capital tiles go face down on the capital sites, one per player.
    m = load_map(map_id)
    b = board(map_id)
    text = "".join(m.rows)
    assert len(b.capital_sites) == text.count("C") == m.players
    if m.players == 1:
        assert text.count("O") == 1 and b.enemy_capital is not None  # R-SOLO-1
    else:
        assert text.count("O") == 0 and b.enemy_capital is None


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_capitals_five_to_seven_from_the_nearest_capital(map_id: str) -> None:
    b = board(map_id)
    caps = capitals(b)
    nearest = [min(b.distance(a, c) for c in caps if c != a) for a in caps]
    assert all(5 <= d <= 7 for d in nearest), dict(zip(caps, nearest, strict=True))
    conflict = SCENARIOS[map_id][1]
    if conflict == "high":  # smaller maps, capitals close together
        assert max(nearest) <= 5
    elif conflict == "low":  # larger maps, capitals far apart
        assert min(nearest) >= 7
    elif conflict == "medium":
        assert all(d == 6 for d in nearest)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_all_hexes_connected(map_id: str) -> None:
    b = board(map_id)
    assert len(components(b, b.order)) == 1


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_land_hexes_per_player(map_id: str) -> None:
    b = board(map_id)
    players = SCENARIOS[map_id][0]
    assert 30 <= len(land(b)) / players <= 45


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_fog_hexes_per_player(map_id: str) -> None:
    # R-SETUP-1: one face-down exploration tile per fog hex; there are 18 tiles.
    b = board(map_id)
    players = SCENARIOS[map_id][0]
    assert 4 * players <= len(b.fog) <= 5 * players
    assert len(b.fog) <= EXPLORATION_TILES
    assert all(b.terrain[h] == "plain" for h in b.fog)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_terrain_shares(map_id: str) -> None:
    b = board(map_id)
    counts = Counter(b.terrain[h] for h in land(b))
    total = sum(counts.values())
    assert 0.40 <= counts["plain"] / total <= 0.70
    assert 0.15 <= counts["forest"] / total <= 0.35
    assert 0.05 <= counts["gold_mine"] / total <= 0.15


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_water_only_where_the_scenario_has_it(map_id: str) -> None:
    # R-MOVE-4: water hexes exist on the scenario maps whose feature is water.
    b = board(map_id)
    n = len(water(b))
    if SCENARIOS[map_id][2]:
        assert n > 0
        assert n / len(b.order) <= 0.15
    else:
        assert n == 0


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_capitals_inland(map_id: str) -> None:
    # R-MOVE-3: no capital on an "edge" hex (fewer than 6 neighbours, or next to water).
    b = board(map_id)
    for cap in capitals(b):
        assert cap not in b.edge, cap
        assert b.terrain[cap] == "plain"


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_first_buildings_possible_next_to_each_capital_site(map_id: str) -> None:
    # R-BUILD-3, R-BUILD-4: the first building goes next to the capital, a sawmill on forest or
    # a sugar-cane field on plain; there must be room for both kinds.
    b = board(map_id)
    for cap in b.capital_sites:
        near = within(b, cap, 2)
        assert sum(b.terrain[h] == "forest" for h in near) >= 2, cap
        assert sum(bare_plain(b, h) for h in near) >= 2, cap
        assert any(b.terrain[h] == "forest" for h in b.neighbours[cap]), cap
        assert any(bare_plain(b, h) for h in b.neighbours[cap]), cap


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_fog_not_next_to_a_capital(map_id: str) -> None:
    # R-SETUP-1: fog hexes lie away from the capitals.
    b = board(map_id)
    for cap in capitals(b):
        assert not set(b.neighbours[cap]) & set(b.fog), cap


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_gold_mines_within_reach_of_each_capital_site(map_id: str) -> None:
    b = board(map_id)
    for cap in b.capital_sites:
        gold = [h for h in within(b, cap, 4) if b.terrain[h] == "gold_mine"]
        assert len(gold) >= 2, cap


@pytest.mark.parametrize("map_id", MULTIPLAYER_IDS)
def test_capital_surroundings_are_comparable(map_id: str) -> None:
    """Fairness: land and forest within 3 hexes, gold and fog within 4, nearly equal."""
    b = board(map_id)
    rows: dict[str, tuple[int, int, int, int]] = {}
    for cap in b.capital_sites:
        near3 = within(b, cap, 3)
        near4 = within(b, cap, 4)
        rows[cap] = (
            sum(b.terrain[h] != "water" for h in near3),
            sum(b.terrain[h] == "forest" for h in near3),
            sum(b.terrain[h] == "gold_mine" for h in near4),
            sum(h in b.fog for h in near4),
        )
    for i, (what, slack) in enumerate((("land", 3), ("forest", 1), ("gold", 1), ("fog", 1))):
        values = [r[i] for r in rows.values()]
        assert max(values) - min(values) <= slack, (what, rows)


def test_empire_of_brazil_two_crossings() -> None:
    # "An ocean between the empires, crossable only at two points": the ocean is a band of
    # no-hex cells; the only links between the two halves are two single water hexes.
    b = board("empire-of-brazil")
    crossings = water(b)
    assert len(crossings) == 2
    assert len(components(b, crossings)) == 2
    halves = components(b, land(b))
    assert len(halves) == 2
    for half in halves:
        assert sum(c in half for c in b.capital_sites) == 2
    for crossing in crossings:
        touched = [any(n in half for n in b.neighbours[crossing]) for half in halves]
        assert all(touched), crossing


@pytest.mark.parametrize(("map_id", "split"), [("amazon", (1, 2)), ("sao-francisco", (2, 2))])
def test_river_crosses_the_whole_map(map_id: str, split: tuple[int, int]) -> None:
    # R-MOVE-4: a river crossing the map; without its water hexes the land falls in two banks.
    b = board(map_id)
    banks = components(b, land(b))
    assert len(banks) == 2
    assert len(components(b, water(b))) == 1
    per_bank = sorted(sum(c in bank for c in b.capital_sites) for bank in banks)
    assert tuple(per_bank) == split


@pytest.mark.parametrize("map_id", ["rio-de-janeiro", "tordesillas"])
def test_bay_and_coast_do_not_cut_the_land(map_id: str) -> None:
    b = board(map_id)
    assert len(components(b, water(b))) == 1
    assert len(components(b, land(b))) == 1
    assert any(h in b.edge and len(b.neighbours[h]) < 6 for h in water(b))  # opens to the sea


def test_guararapes_solo_setup() -> None:
    # R-SOLO-1: green capital site, orange capital and the orange army placed as the map shows.
    m = load_map("guararapes")
    b = board("guararapes")
    assert m.enemy_colour == "orange"
    assert m.max_rounds == 20  # R-SOLO-2
    assert b.enemy_capital is not None
    assert 5 <= b.distance(b.capital_sites[0], b.enemy_capital) <= 7
    assert sorted(u.unit for u in m.preset_units) == sorted(SOLO_ARMY)
    per_hex = Counter(Hex.parse(u.hex).label for u in m.preset_units)
    for label, n in per_hex.items():
        assert label in b.terrain and b.terrain[label] != "water", label
        assert n <= 2, label
        assert b.distance(label, b.enemy_capital) <= 1, label
        assert label not in b.capital_sites


# --------------------------------------------------------------------------- missions

# Era of each building side (DATA.md "Buildings"), kept here so that these tests do not
# depend on buildings.toml.
BUILDING_ERA = {
    "sawmill": 1,
    "trading_post": 1,
    "sugar_field": 1,
    "farm": 1,
    "foundry": 2,
    "cotton_plantation": 2,
    "church": 3,
    "academy": 3,
}
TYPES_BY_ERA = {era: sum(e <= era for e in BUILDING_ERA.values()) for era in (1, 2, 3)}
# Upper bounds for one player: 5 units, 6 products, 6 arch slots, 5 items in the reserve.
MAX_COUNT = {
    "units_deployed": 5,
    "units_on_map": 5,
    "products": 6,
    "upgraded_arches": 6,
    "science": 5,
}


def raw_missions() -> list[dict[str, Any]]:
    with (DATA_DIR / "missions.toml").open("rb") as fh:
        doc = tomllib.load(fh)
    entries = doc["missions"]
    assert isinstance(entries, list)
    return entries


@cache
def missions() -> tuple[Mission, ...]:
    return tuple(Mission.model_validate(e) for e in raw_missions())


def test_missions_validate_with_unique_ids() -> None:
    ms = missions()
    ids = [m.id for m in ms]
    assert len(ids) == len(set(ids))
    expected = {f"{roman}-{n}" for roman in ("I", "II", "III") for n in range(1, 9)}
    assert set(ids) == expected
    for m in ms:
        assert m.era == {"I": 1, "II": 2, "III": 3}[m.id.split("-")[0]], m.id
        assert m.name.strip()
        assert m.source == "design"


def test_eight_missions_per_era() -> None:
    # R-SETUP-5: each player is dealt 2 missions of each era from decks of 8.
    assert Counter(m.era for m in missions()) == {1: 8, 2: 8, 3: 8}


def test_objective_counts_per_era() -> None:
    # R-MISSION-1 (eras I, II: 2-3 objectives), R-MISSION-3 (era III: 3 objectives).
    for m in missions():
        n = len(m.objectives)
        assert (2 <= n <= 3) if m.era < 3 else n == 3, m.id


def test_mission_vp() -> None:
    # R-MISSION-3: era III objectives each score their own VP; the card is worth their sum.
    for m in missions():
        if m.era == 3:
            assert all(1 <= ob.vp <= 3 for ob in m.objectives), m.id
            assert m.vp == sum(ob.vp for ob in m.objectives), m.id
            assert [ob.vp for ob in m.objectives] == sorted(ob.vp for ob in m.objectives), m.id
        else:
            assert m.vp == m.era, m.id  # era I: 1 VP, era II: 2 VP
            assert all(ob.vp == 0 for ob in m.objectives), m.id


def test_objective_fields_fit_their_kind() -> None:
    for m in missions():
        for ob in m.objectives:
            if ob.type is not None or ob.era is not None:
                assert ob.kind == "buildings", m.id
            if ob.type is not None and ob.era is not None:
                assert BUILDING_ERA[ob.type] == ob.era, m.id
            if ob.shape is not None:
                assert ob.kind == "products", m.id
            if ob.frame is not None:
                assert ob.kind == "paintings", m.id


def objective_era(ob: Any) -> int:
    """The first era in which an objective can be met."""
    if ob.kind == "buildings":
        return BUILDING_ERA[ob.type] if ob.type else (ob.era or 1)
    if ob.kind in ("cities", "palaces", "occupied"):
        return 2  # R-BUILD-1: cities from era II; palaces need a revealed mission
    return 1


def test_missions_use_components_of_their_era() -> None:
    # R-BUILD-2: era II buildings (and cities) exist from era II, era III buildings in era III.
    for m in missions():
        for ob in m.objectives:
            assert objective_era(ob) <= m.era, (m.id, ob)


def test_era_i_missions_avoid_later_components() -> None:
    for m in missions():
        if m.era != 1:
            continue
        for ob in m.objectives:
            assert ob.kind not in ("cities", "palaces", "occupied"), m.id
            assert ob.era in (None, 1), m.id
            assert ob.type is None or BUILDING_ERA[ob.type] == 1, m.id


def test_missions_achievable_by_one_player() -> None:
    # A solo player has no opponent tiles to occupy (R-SOLO-1); limits of one player's board.
    for m in missions():
        for ob in m.objectives:
            assert ob.kind != "occupied", m.id
            assert ob.count <= MAX_COUNT.get(ob.kind, ob.count), m.id
            if ob.kind == "products" and ob.shape is not None:
                assert ob.count <= 2, m.id  # R-MANUF-3: two slots per shape
            if ob.kind == "paintings" and ob.frame is not None:
                assert ob.count <= 8, m.id
            if ob.kind == "building_types":
                assert ob.count <= TYPES_BY_ERA[m.era], m.id
            if ob.kind == "palaces":
                assert ob.count <= m.era - 1, m.id  # R-PALACE-1: one per earlier revealed mission


def test_era_i_missions_fit_the_first_turns() -> None:
    # About 8 turns: 2-4 buildings, 1 product, 1-2 paintings, 2 units.
    limits = {"buildings": 4, "products": 1, "paintings": 2, "units_deployed": 2}
    limits |= {"units_on_map": 2, "building_types": 3, "upgraded_arches": 1, "science": 1}
    for m in missions():
        if m.era == 1:
            for ob in m.objectives:
                assert ob.count <= limits[ob.kind], (m.id, ob)


def test_no_two_missions_share_an_objective_set() -> None:
    seen: dict[frozenset[tuple[Any, ...]], str] = {}
    for m in missions():
        key = frozenset(
            (ob.kind, ob.count, ob.type, ob.era, ob.shape, ob.frame) for ob in m.objectives
        )
        assert key not in seen, (m.id, seen.get(key))
        seen[key] = m.id
