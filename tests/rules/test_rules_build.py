"""The Build action (RULES.md §4: R-BUILD-1..10): buildings and cities, eras, terrain,
adjacency to one's own empire and not to an opponent's, production, fog hexes, the upgrade.

Test map ``test-duel``: seat 0 (green) has its capital at C3, seat 1 (blue) at H6.
Around C3: B3 forest, B4 gold mine, B2 C2 D3 C4 plains. A2 E3 F7 B1 forests; D6 gold mine;
H2 water; fog hexes F3 E5 C7 (cleared by ``start``; tests put exploration tiles back).
"""

from __future__ import annotations

import pytest

import rules.brazil as rules
from rules.brazil import Event, GameState, legal_actions, score
from rules.brazil.catalog import get_catalog
from rules.brazil.game import Context
from tests.helpers import (
    PACK,
    act,
    act_ev,
    assert_illegal,
    explore,
    is_legal,
    place_unit,
    put,
    start,
)

CAT = get_catalog(PACK)
BOARD = CAT.boards["test-duel"]


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def R(what: str) -> dict[str, str]:
    return {"source": "reserve", "what": what}


def fresh(era: int = 1, **goods: int) -> GameState:
    st = start(monarchs=("dom_oba_ii", "queen_victoria"))
    st.era = era
    st.players[0].reserve = dict(goods)
    return st


def build_sites(st: GameState, building: str) -> set[str]:
    return {a.at for a in legal_actions(st) if a.type == "build" and a.building == building}


# ------------------------------------------------------------------------ R-BUILD-1


def test_build_one_building_paying_its_cost__R_BUILD_1() -> None:
    st = fresh(brazilwood=1, coffee=1)
    assert is_legal(st, "build", building="sugar_field", at="C2")
    new, ev = act_ev(st, "build", building="sugar_field", at="C2")
    assert [e.kind for e in ev] == ["action", "pay", "build", "produce"]
    assert of(ev, "pay")[0].data["items"] == [R("brazilwood")]
    assert of(ev, "build")[0].data == {"hex": "C2", "building": "sugar_field"}
    t = new.tiles["C2"]
    assert (t.kind, t.id, t.owner) == ("building", "sugar_field", 0)
    assert new.players[0].reserve == {"coffee": 1}
    assert new.supply["B"] == st.supply["B"] - 1
    assert new.players[0].token_arch == "build"
    assert new.turn.step == "movement"


def test_only_one_build_per_turn__R_BUILD_1() -> None:
    st = fresh(brazilwood=2)
    st = act(st, "build", building="sugar_field", at="C2")
    assert not any(a.type == "build" for a in legal_actions(st))
    # a second build needs Visconde de Mauá
    assert_illegal(st, "build", "R-TURN-2", building="sugar_field", at="B2")


def test_no_city_before_era_two__R_BUILD_1() -> None:
    st = fresh(gold=2, science=1, brazilwood=1)
    place_unit(st, 0, "monarch", "E5")
    top = st.city_piles[1][-1]
    assert_illegal(st, "build", "R-BUILD-1", building=top, at="E5")
    assert not any(a.type == "build" and a.building in CAT.cities for a in legal_actions(st))


def test_unknown_building__R_BUILD_1() -> None:
    st = fresh(brazilwood=1)
    before = st.model_dump()
    with pytest.raises(rules.InvalidAction) as exc:
        act(st, "build", building="castle", at="C2")
    assert exc.value.rule == "R-BUILD-1"
    assert st.model_dump() == before


def test_no_tiles_left_in_the_supply__R_BUILD_1() -> None:
    st = fresh(brazilwood=1, sugar_cane=1, coffee=1)
    st.supply["A"] = 0
    assert_illegal(st, "build", "R-BUILD-1", building="sawmill", at="B3")
    assert_illegal(st, "build", "R-BUILD-1", building="trading_post", at="B3")
    assert is_legal(st, "build", building="sugar_field", at="C2")


# ------------------------------------------------------------------------ R-BUILD-2


@pytest.mark.parametrize(
    ("side", "at", "goods"),
    [
        ("sawmill", "B3", {"coffee": 1}),
        ("trading_post", "B3", {"brazilwood": 1, "sugar_cane": 1}),
        ("sugar_field", "C2", {"brazilwood": 1}),
        ("farm", "C2", {"brazilwood": 1, "sugar_cane": 1}),
    ],
)
def test_either_side_of_an_era_one_tile__R_BUILD_2(
    side: str, at: str, goods: dict[str, int]
) -> None:
    st = fresh(**goods)
    assert is_legal(st, "build", building=side, at=at)
    new = act(st, "build", building=side, at=at)
    assert new.tiles[at].id == side
    assert new.players[0].reserve == {}


def test_era_two_buildings_from_era_two__R_BUILD_2() -> None:
    st = fresh(brazilwood=2, coffee=1, sugar_cane=1)
    assert_illegal(st, "build", "R-BUILD-2", building="foundry", at="B4")
    assert_illegal(st, "build", "R-BUILD-2", building="cotton_plantation", at="C2")
    st.era = 2
    assert is_legal(st, "build", building="foundry", at="B4")
    new = act(st, "build", building="foundry", at="B4")
    assert new.tiles["B4"].id == "foundry"
    assert new.supply["C"] == st.supply["C"] - 1


def test_era_three_buildings_only_in_era_three__R_BUILD_2() -> None:
    st = fresh(era=2, gold=1, coffee=2)
    assert_illegal(st, "build", "R-BUILD-2", building="church", at="C2")
    st.era = 3
    assert is_legal(st, "build", building="church", at="C2")
    new = act(st, "build", building="church", at="C2")
    assert new.tiles["C2"].id == "church"


def test_listed_builds_follow_the_era__R_BUILD_2() -> None:
    st = fresh(gold=3, brazilwood=2)
    st.players[0].upgrades["build"] = "rubber"  # any crop for any crop: every cost payable
    era1 = {a.building for a in legal_actions(st) if a.type == "build"}
    assert era1 == {"sawmill", "trading_post", "sugar_field", "farm"}
    st.era = 2
    era2 = {a.building for a in legal_actions(st) if a.type == "build"}
    assert {"foundry", "cotton_plantation"} <= era2
    assert not era2 & {"church", "academy"}
    st.era = 3
    era3 = {a.building for a in legal_actions(st) if a.type == "build"}
    assert {"church"} <= era3


# ------------------------------------------------------------------------ R-BUILD-3


def test_building_needs_its_terrain__R_BUILD_3() -> None:
    st = fresh(era=2, coffee=2, brazilwood=3, sugar_cane=2)
    assert BOARD.terrain["C2"] == "plain" and BOARD.terrain["B3"] == "forest"
    assert_illegal(st, "build", "R-BUILD-3", building="sawmill", at="C2")
    assert_illegal(st, "build", "R-BUILD-3", building="trading_post", at="B4")
    assert_illegal(st, "build", "R-BUILD-3", building="sugar_field", at="B3")
    assert_illegal(st, "build", "R-BUILD-3", building="farm", at="B4")
    assert_illegal(st, "build", "R-BUILD-3", building="foundry", at="B3")
    # foundry: gold mine or plain
    assert is_legal(st, "build", building="foundry", at="B4")
    assert is_legal(st, "build", building="foundry", at="C2")
    assert build_sites(st, "sawmill") == {"B3"}


@pytest.mark.parametrize("at", ["B3", "B4", "C2"])
def test_era_three_buildings_on_any_terrain__R_BUILD_3(at: str) -> None:
    st = fresh(era=3, gold=1, coffee=2)
    assert is_legal(st, "build", building="church", at=at)
    new = act(st, "build", building="church", at=at)
    assert new.tiles[at].id == "church"


@pytest.mark.parametrize(
    ("old", "old_tile", "at", "goods"),
    [("sawmill", "A", "B3", {"brazilwood": 1}), ("foundry", "C", "B4", {"gold": 2})],
)
def test_era_three_over_own_era_one_or_two_building__R_BUILD_3(
    old: str, old_tile: str, at: str, goods: dict[str, int]
) -> None:
    st = fresh(era=3, gold=1, coffee=2)
    put(st, 0, old, at, **goods)
    vp_before = score(st, 0)["categories"]["buildings"]
    assert is_legal(st, "build", building="church", at=at)
    new, ev = act_ev(
        st, "build", building="church", at=at, payment=[R("gold"), R("coffee"), R("coffee")]
    )
    assert of(ev, "removed")[0].data == {"hex": at}
    assert new.tiles[at].id == "church"
    assert new.tiles[at].goods == {"gold": 1, "science": 1}  # the old goods are gone
    # removed from the game: not back in the supply; its VP are lost
    assert new.supply[old_tile] == st.supply[old_tile]
    assert new.supply["D"] == st.supply["D"] - 1
    assert score(new, 0)["categories"]["buildings"] == CAT.sides["church"].vp
    assert vp_before == CAT.sides[old].vp


def test_city_over_own_era_one_building__R_BUILD_3() -> None:
    st = fresh(era=2, gold=1, science=1, coffee=1)
    put(st, 0, "sugar_field", "C2")
    place_unit(st, 0, "monarch", "C2")
    city = st.city_piles[1][-1]
    assert city == "salvador"  # 1 gold + 1 science + 1 any resource
    assert is_legal(st, "build", building=city, at="C2")
    new, ev = act_ev(st, "build", building=city, at="C2")
    assert of(ev, "removed")
    assert new.tiles["C2"].kind == "city"


def test_only_era_three_or_cities_go_over_a_building__R_BUILD_3() -> None:
    st = fresh(era=3, gold=2, coffee=3, brazilwood=3)
    put(st, 0, "sawmill", "B3")
    put(st, 0, "church", "C2")
    assert_illegal(st, "build", "R-BUILD-3", building="trading_post", at="B3")
    st.era = 2
    st.players[0].reserve = {"brazilwood": 2, "coffee": 1}
    put(st, 0, "sugar_field", "D3")
    assert_illegal(st, "build", "R-BUILD-3", building="foundry", at="D3")
    st.era = 3
    st.players[0].reserve = {"gold": 2, "coffee": 3}
    assert_illegal(st, "build", "R-BUILD-3", building="church", at="C2")


def test_never_over_an_opponents_building__R_BUILD_3() -> None:
    st = fresh(era=3, gold=1, coffee=2)
    put(st, 1, "farm", "D3")
    assert_illegal(st, "build", "R-BUILD-3", building="church", at="D3")


def test_no_city_on_water__R_BUILD_3() -> None:
    # docs/RULINGS.md: "any terrain" means any land; nothing is built on water
    st = fresh(era=2, gold=1, science=1, coffee=1)
    assert BOARD.terrain["H2"] == "water"
    place_unit(st, 0, "monarch", "H2")
    assert_illegal(st, "build", "R-BUILD-3", building="salvador", at="H2")


# ------------------------------------------------------------------------ R-BUILD-4


def test_must_touch_own_empire__R_BUILD_4() -> None:
    st = fresh(brazilwood=1)
    assert "C3" not in BOARD.neighbours["E4"]
    assert_illegal(st, "build", "R-BUILD-4", building="sugar_field", at="E4")
    assert build_sites(st, "sugar_field") == {"C2", "B2", "D3", "C4"}


def test_next_to_own_building_or_city__R_BUILD_4() -> None:
    st = fresh(era=2, coffee=1, brazilwood=1)
    put(st, 0, "sawmill", "B3")
    assert "C3" not in BOARD.neighbours["A2"]
    assert is_legal(st, "build", building="sawmill", at="A2")
    new = act(st, "build", building="sawmill", at="A2")
    assert new.tiles["A2"].owner == 0
    # next to an own city far from the capital
    put(st, 0, "vila_rica", "F7")
    assert is_legal(st, "build", building="sugar_field", at="E7")
    assert act(st, "build", building="sugar_field", at="E7").tiles["E7"].id == "sugar_field"


def test_never_next_to_an_opponents_capital__R_BUILD_4() -> None:
    st = fresh(brazilwood=1)
    put(st, 0, "sugar_field", "F6")
    assert "H6" in BOARD.neighbours["G6"]
    assert_illegal(st, "build", "R-BUILD-4", building="sugar_field", at="G6")
    assert is_legal(st, "build", building="sugar_field", at="E6")


def test_never_next_to_an_opponents_building__R_BUILD_4() -> None:
    st = fresh(brazilwood=1)
    put(st, 1, "farm", "D2")
    assert_illegal(st, "build", "R-BUILD-4", building="sugar_field", at="C2")
    assert_illegal(st, "build", "R-BUILD-4", building="sugar_field", at="D3")
    assert build_sites(st, "sugar_field") == {"B2", "C4"}


def test_never_next_to_an_opponents_occupied_building__R_BUILD_4() -> None:
    st = fresh(brazilwood=1)
    put(st, 1, "farm", "D2")
    place_unit(st, 0, "archer1", "D2")  # green occupies it: still blue's empire
    assert_illegal(st, "build", "R-BUILD-4", building="sugar_field", at="C2")


def test_never_on_a_hex_with_an_enemy_unit__R_BUILD_4() -> None:
    st = fresh(brazilwood=1)
    place_unit(st, 1, "brawler1", "D3")
    assert_illegal(st, "build", "R-BUILD-4", building="sugar_field", at="D3")
    # an own unit is no obstacle
    st.players[1].units["brawler1"] = "board"
    place_unit(st, 0, "archer1", "D3")
    assert is_legal(st, "build", building="sugar_field", at="D3")
    assert act(st, "build", building="sugar_field", at="D3").tiles["D3"].owner == 0


def test_never_on_a_capital__R_BUILD_4() -> None:
    st = fresh(era=3, gold=1, coffee=2)
    assert_illegal(st, "build", "R-BUILD-4", building="church", at="C3")
    assert_illegal(st, "build", "R-BUILD-4", building="church", at="H6")


# ------------------------------------------------------------------------ R-BUILD-5


@pytest.mark.parametrize(
    ("side", "at", "goods"),
    [
        ("sawmill", "B3", {"coffee": 1}),
        ("trading_post", "B3", {"brazilwood": 1, "sugar_cane": 1}),
        ("sugar_field", "C2", {"brazilwood": 1}),
        ("farm", "C2", {"brazilwood": 1, "sugar_cane": 1}),
    ],
)
def test_new_building_produces_onto_its_tile__R_BUILD_5(
    side: str, at: str, goods: dict[str, int]
) -> None:
    st = fresh(**goods)
    new, ev = act_ev(st, "build", building=side, at=at)
    prod = dict(CAT.sides[side].production)
    assert new.tiles[at].goods == prod
    assert of(ev, "produce")[0].data == {"hex": at, "goods": prod}
    assert new.players[0].reserve == {}


def test_era_two_and_three_production__R_BUILD_5() -> None:
    st = fresh(era=3, gold=1, cotton=1, coffee=1, brazilwood=1)
    new = act(st, "build", building="academy", at="C2")
    assert new.tiles["C2"].goods == {"science": 1}
    st = fresh(era=2, brazilwood=2, coffee=1)
    new = act(st, "build", building="foundry", at="B4")
    assert new.tiles["B4"].goods == {"gold": 2}


# ------------------------------------------------------------------------ R-BUILD-6


def city_state(**goods: int) -> GameState:
    st = fresh(era=2, **goods)
    place_unit(st, 0, "monarch", "E5")
    return st


def test_found_a_city_where_the_monarch_stands__R_BUILD_6() -> None:
    st = city_state(gold=1, science=1, brazilwood=1)
    pile = list(st.city_piles[1])
    city = pile[-1]
    assert city == "salvador"
    # E5 touches nothing of green's: a city need not be next to the empire
    assert not any(h in st.tiles for h in BOARD.neighbours["E5"])
    assert is_legal(st, "build", building=city, at="E5")
    new, ev = act_ev(st, "build", building=city, at="E5")
    t = new.tiles["E5"]
    assert (t.kind, t.id, t.owner, t.goods) == ("city", "salvador", 0, {})
    assert of(ev, "produce") == []  # cities have no production
    assert sorted(i["what"] for i in of(ev, "pay")[0].data["items"]) == [
        "brazilwood",
        "gold",
        "science",
    ]
    assert new.players[0].reserve == {}
    # the next tile of that pile becomes visible
    assert new.city_piles[1] == pile[:-1]
    assert new.city_piles[0] == st.city_piles[0]
    assert score(new, 0)["categories"]["buildings"] == CAT.cities["salvador"].vp == 5


def test_city_cost_is_printed_on_the_city__R_BUILD_6() -> None:
    st = city_state(gold=1, science=1)
    assert CAT.cities["salvador"].cost == ["gold", "science", "any"]
    assert_illegal(st, "build", "R-VOC-2", building="salvador", at="E5")


def test_only_the_two_visible_city_tiles__R_BUILD_6() -> None:
    st = city_state(gold=3, science=2, brazilwood=2)
    st.players[0].upgrades["build"] = "rubber"
    buried = st.city_piles[0][0]
    tops = {p[-1] for p in st.city_piles}
    assert_illegal(st, "build", "R-BUILD-6", building=buried, at="E5")
    listed = {a.building for a in legal_actions(st) if a.type == "build" and a.at == "E5"}
    assert listed & set(CAT.cities) <= tops


def test_city_only_on_the_monarchs_hex__R_BUILD_6() -> None:
    st = city_state(gold=1, science=1, brazilwood=1)
    assert_illegal(st, "build", "R-BUILD-6", building="salvador", at="D3")
    city_sites = {a.at for a in legal_actions(st) if a.type == "build" and a.building in CAT.cities}
    assert city_sites == {"E5"}
    st.players[0].units["monarch"] = "board"
    assert_illegal(st, "build", "R-BUILD-6", building="salvador", at="E5")


def test_city_never_next_to_an_opponents_empire__R_BUILD_6() -> None:
    st = city_state(gold=1, science=1, brazilwood=1)
    place_unit(st, 0, "monarch", "G6")  # next to blue's capital H6
    # the engine names the shared adjacency rule R-BUILD-4
    assert_illegal(st, "build", ("R-BUILD-6", "R-BUILD-4"), building="salvador", at="G6")
    put(st, 1, "farm", "E6")
    place_unit(st, 0, "monarch", "E5")  # next to blue's farm
    assert_illegal(st, "build", ("R-BUILD-6", "R-BUILD-4"), building="salvador", at="E5")


@pytest.mark.parametrize("at", ["F7", "D6"])
def test_city_on_any_terrain__R_BUILD_6(at: str) -> None:
    st = city_state(gold=1, science=1, brazilwood=1)
    assert BOARD.terrain[at] in ("forest", "gold_mine")
    place_unit(st, 0, "monarch", at)
    assert is_legal(st, "build", building="salvador", at=at)
    assert act(st, "build", building="salvador", at=at).tiles[at].kind == "city"


# ------------------------------------------------------------------------ R-BUILD-10


def test_any_number_of_cities_by_default__R_BUILD_10() -> None:
    st = city_state(gold=1, science=1, brazilwood=1)
    assert st.city_limit is None
    put(st, 0, "vila_rica", "C7")
    put(st, 0, "olinda", "A5")
    put(st, 0, "recife", "F8")
    assert is_legal(st, "build", building="salvador", at="E5")
    new = act(st, "build", building="salvador", at="E5")
    assert sum(1 for t in new.tiles.values() if t.kind == "city" and t.owner == 0) == 4


def test_city_limit_is_configurable__R_BUILD_10() -> None:
    g = rules.new_game(2, 1, "test-duel", data_pack=PACK, colours=["green", "blue"], city_limit=2)
    assert g.city_limit == 2
    st = city_state(gold=1, science=1, brazilwood=1)
    st.city_limit = 2
    put(st, 0, "vila_rica", "C7")
    assert is_legal(st, "build", building="salvador", at="E5")
    put(st, 0, "olinda", "A5")
    assert_illegal(st, "build", "R-BUILD-10", building="salvador", at="E5")
    # the opponent's cities do not count
    st.tiles["C7"] = st.tiles["C7"].model_copy(update={"owner": 1})
    assert is_legal(st, "build", building="salvador", at="E5")


# ------------------------------------------------------------------------ R-BUILD-7


def fog_state(**goods: int) -> GameState:
    """Green has a sawmill at E3, next to the fog hex F3 (a plain)."""
    st = fresh(**goods)
    put(st, 0, "sawmill", "E3")
    return st


def test_fog_hex_counts_as_plain__R_BUILD_7() -> None:
    st = fog_state(coffee=1, brazilwood=1)
    explore(st, "F3", "mandioca")
    assert_illegal(st, "build", "R-BUILD-3", building="sawmill", at="F3")
    assert is_legal(st, "build", building="sugar_field", at="F3")


def test_unrevealed_tile_discarded_unseen_without_effect__R_BUILD_7() -> None:
    st = fog_state(brazilwood=1)
    explore(st, "F3", "mandioca")  # revealed, it would give a resource
    st.players[1].peeks["F3"] = "mandioca"
    new, ev = act_ev(st, "build", building="sugar_field", at="F3")
    assert "F3" not in new.exploration
    assert of(ev, "explore_discard")[0].data == {"hex": "F3"}
    assert of(ev, "explore") == []
    assert not any("mandioca" in str(e.data) or "Mandioca" in e.text for e in ev)
    assert new.pending == [] and new.players[0].reserve == {}
    assert new.players[1].peeks == {}
    assert new.tiles["F3"].goods == {"sugar_cane": 2}


def test_revealed_minas_gerais_every_terrain_and_gold__R_BUILD_7() -> None:
    st = fog_state(coffee=1)
    explore(st, "F3", "minas_gerais", face_up=True)
    assert is_legal(st, "build", building="sawmill", at="F3")  # a forest building on a plain
    new, ev = act_ev(st, "build", building="sawmill", at="F3")
    assert new.tiles["F3"].id == "sawmill"
    assert new.players[0].reserve == {"gold": 1}
    assert of(ev, "gain")[0].data["goods"] == {"gold": 1}
    assert "F3" not in new.exploration


def test_revealed_cultura_every_terrain_builder_keeps_it__R_BUILD_7() -> None:
    st = fog_state(coffee=1)
    explore(st, "F3", "cultura", face_up=True)
    assert is_legal(st, "build", building="sawmill", at="F3")
    new, ev = act_ev(st, "build", building="sawmill", at="F3")
    assert new.players[0].kept_tiles == ["cultura"]
    assert of(ev, "keep_tile")[0].data == {"tile": "cultura"}
    assert score(new, 0)["categories"]["exploration"] == CAT.exploration["cultura"].reward_vp


@pytest.mark.parametrize("tile", ["river_basin", "bandeiras_4"])
def test_revealed_river_basin_or_bandeiras_cannot_be_built_on__R_BUILD_7(tile: str) -> None:
    st = fog_state(brazilwood=1, gold=1, science=1)
    explore(st, "F3", tile, face_up=True)
    assert_illegal(st, "build", "R-BUILD-7", building="sugar_field", at="F3")
    # nor a city
    st.era = 2
    place_unit(st, 0, "monarch", "F3")
    assert_illegal(st, "build", "R-BUILD-7", building="salvador", at="F3")


# ------------------------------------------------------------------------ R-BUILD-8


def upgraded(**goods: int) -> GameState:
    st = fresh(**goods)
    st.players[0].upgrades["build"] = "rubber"
    st.players[0].products.remove("rubber")
    return st


def test_upgraded_build_any_crop_for_any_crop__R_BUILD_8() -> None:
    st = upgraded(brazilwood=1)
    assert is_legal(st, "build", building="sawmill", at="B3")  # sugar cane or coffee
    new, ev = act_ev(st, "build", building="sawmill", at="B3", payment=[R("brazilwood")])
    assert of(ev, "pay")[0].data["items"] == [R("brazilwood")]
    assert new.tiles["B3"].id == "sawmill"
    # without the upgrade: not possible
    plain = fresh(brazilwood=1)
    assert_illegal(plain, "build", "R-VOC-2", building="sawmill", at="B3")


def test_upgraded_build_crops_may_all_differ__R_BUILD_8() -> None:
    st = upgraded(cotton=1, coffee=1)
    assert CAT.sides["farm"].cost == ["brazilwood", "sugar_cane"]
    assert is_legal(st, "build", building="farm", at="C2")
    new = act(st, "build", building="farm", at="C2", payment=[R("cotton"), R("coffee")])
    assert new.players[0].reserve == {}
    st2 = upgraded(cotton=2)
    assert act(st2, "build", building="farm", at="C2").players[0].reserve == {}


def test_upgraded_build_elements_unchanged__R_BUILD_8() -> None:
    st = upgraded(coffee=2, cotton=2)
    st.era = 3
    assert_illegal(st, "build", "R-VOC-2", building="church", at="C2")  # 1 gold + 2 any
    assert_illegal(
        st,
        "build",
        "R-VOC-2",
        listed=True,
        building="church",
        at="C2",
        payment=[R("coffee"), R("coffee"), R("cotton")],
    )
    # gold still stands in for a crop
    st.players[0].reserve = {"gold": 3}
    new = act(st, "build", building="church", at="C2")
    assert new.players[0].reserve == {}


def test_upgraded_build_only_while_building__R_BUILD_8() -> None:
    st = upgraded(brazilwood=2)
    # the Build upgrade does not widen other payments: sugar (2 sugar cane) is not paid
    # with brazilwood, while a sugar-cane field (1 brazilwood) is built with it
    assert_illegal(st, "manufacture", "R-VOC-2", product="sugar", to="import")
    st.players[0].reserve = {"sugar_cane": 2}
    assert is_legal(st, "manufacture", product="sugar", to="import")
    assert is_legal(st, "build", building="sugar_field", at="C2")


# ------------------------------------------------------------------------ R-BUILD-9


def test_built_hex_terrain_becomes_building__R_BUILD_9() -> None:
    st = fresh(coffee=1)
    place_unit(st, 0, "archer1", "B2")
    assert Context(st).terrain("B3") == "forest"
    st = act(st, "build", building="sawmill", at="B3")
    assert Context(st).terrain("B3") == "building"
    # the Painting extra move (to an adjacent forest) no longer goes to B3, but to A2
    st.turn.arch = "painting"
    st.players[0].token_arch = "painting"
    assert_illegal(st, "move", "R-MOVE-3", unit="archer1", to="B3", kind="extra")
    assert is_legal(st, "move", unit="archer1", to="A2", kind="extra")


def test_built_gold_mine_is_no_longer_a_gold_mine__R_BUILD_9() -> None:
    st = fresh(era=2, brazilwood=2, coffee=1)
    place_unit(st, 0, "archer1", "C4")
    st = act(st, "build", building="foundry", at="B4")
    st.turn.arch = "manufacture"
    st.players[0].token_arch = "manufacture"
    assert_illegal(st, "move", "R-MOVE-3", unit="archer1", to="B4", kind="extra")
