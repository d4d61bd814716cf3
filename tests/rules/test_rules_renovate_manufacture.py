"""The Renovate and Manufacture actions (RULES.md §4: R-RENOV-1..4, R-MANUF-1..3).

Test map ``test-duel``: seat 0 (green) has its capital at C3, seat 1 (blue) at H6.
Upgrade slots (DATA.md): square — Import, Renovate; pentagon — Painting, Manufacture;
octagon — Recruit, Build; Trade has none. Products: dye (brazilwood + any), sugar (2 sugar
cane), cloth (2 cotton + any), cocoa (coffee + sugar cane + gold), coffee (2 coffee + gold +
science), rubber (brazilwood + cotton + gold + science).
"""

from __future__ import annotations

import pytest

from rules.brazil import (
    Event,
    GameState,
    InvalidAction,
    legal_actions,
    score,
)
from rules.brazil.catalog import get_catalog
from tests.helpers import PACK, act, act_ev, assert_illegal, is_legal, place_unit, put, start

CAT = get_catalog(PACK)


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def R(what: str) -> dict[str, str]:
    return {"source": "reserve", "what": what}


def fresh(**goods: int) -> GameState:
    st = start(monarchs=("dom_oba_ii", "queen_victoria"))
    st.players[0].reserve = dict(goods)
    return st


def renovations(st: GameState) -> set[tuple[str, bool]]:
    return {(a.at, a.flip) for a in legal_actions(st) if a.type == "renovate"}


# ------------------------------------------------------------------------ R-RENOV-1


def test_renovate_reproduces__R_RENOV_1() -> None:
    st = fresh(coffee=1)
    put(st, 0, "sawmill", "B3")
    assert is_legal(st, "renovate", at="B3")
    new, ev = act_ev(st, "renovate", at="B3")
    assert [e.kind for e in ev] == ["action", "pay", "renovate", "produce"]
    assert of(ev, "pay")[0].data["items"] == [R("coffee")]
    assert new.tiles["B3"].id == "sawmill"
    assert new.tiles["B3"].goods == {"brazilwood": 2}
    assert new.players[0].reserve == {}
    assert new.players[0].token_arch == "renovate"


@pytest.mark.parametrize(("old", "at"), [("sawmill", "B3"), ("farm", "C2"), ("foundry", "B4")])
def test_renovate_flips_and_produces_the_other_side__R_RENOV_1(old: str, at: str) -> None:
    st = fresh(cotton=1)
    st.era = 2
    put(st, 0, old, at)
    other = CAT.other_side(old)
    supply = dict(st.supply)
    assert is_legal(st, "renovate", at=at, flip=True)
    new, ev = act_ev(st, "renovate", at=at, flip=True)
    assert of(ev, "flip")[0].data == {"hex": at, "building": other}
    assert new.tiles[at].id == other
    assert new.tiles[at].owner == 0
    assert new.tiles[at].goods == dict(CAT.sides[other].production)
    assert new.supply == supply  # the same tile, turned over


def test_renovate_pays_one_resource_gold_substitutes__R_RENOV_1() -> None:
    st = fresh()
    put(st, 0, "sawmill", "B3")
    assert_illegal(st, "renovate", "R-VOC-2", at="B3")
    st.players[0].reserve = {"gold": 1}
    new, ev = act_ev(st, "renovate", at="B3")
    assert of(ev, "pay")[0].data["items"] == [R("gold")]
    # or a resource from another building
    st.players[0].reserve = {}
    put(st, 0, "sugar_field", "C2", sugar_cane=1)
    new, ev = act_ev(st, "renovate", at="B3", payment=[{"source": "C2", "what": "sugar_cane"}])
    assert new.tiles["C2"].goods == {}
    assert new.tiles["B3"].goods == {"brazilwood": 2}


def test_renovate_only_own_buildings__R_RENOV_1() -> None:
    st = fresh(coffee=1)
    put(st, 1, "farm", "G6")
    assert_illegal(st, "renovate", "R-RENOV-1", at="G6")
    assert_illegal(st, "renovate", "R-RENOV-1", at="D4")  # an empty hex
    assert renovations(st) == set()


def test_renovate_not_when_occupied_by_an_opponent__R_RENOV_1() -> None:
    st = fresh(coffee=1)
    put(st, 0, "sawmill", "B3")
    place_unit(st, 1, "brawler1", "B3")
    assert_illegal(st, "renovate", "R-RENOV-1", at="B3")
    assert_illegal(st, "renovate", "R-RENOV-1", at="B3", flip=True)
    # and the occupier cannot renovate it either (not its building)
    st.current = 1
    st.players[1].reserve = {"coffee": 1}
    assert_illegal(st, "renovate", "R-RENOV-1", seat=1, at="B3")


def test_renovate_listed_both_ways__R_RENOV_1() -> None:
    st = fresh(coffee=1)
    put(st, 0, "sawmill", "B3")
    put(st, 0, "farm", "C2")
    assert renovations(st) == {("B3", False), ("B3", True), ("C2", False), ("C2", True)}


# ------------------------------------------------------------------------ R-RENOV-2


def test_palace_building_reproduces_but_cannot_flip__R_RENOV_2() -> None:
    st = fresh(coffee=1)
    put(st, 0, "sawmill", "B3")
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"palace": 2})
    assert renovations(st) == {("B3", False)}
    assert_illegal(st, "renovate", "R-RENOV-2", at="B3", flip=True)
    new = act(st, "renovate", at="B3")
    assert new.tiles["B3"].id == "sawmill"
    assert new.tiles["B3"].palace == 2
    assert new.tiles["B3"].goods == {"brazilwood": 2}


# ------------------------------------------------------------------------ R-RENOV-3


@pytest.mark.parametrize("goods", [{"brazilwood": 1}, {"gold": 1}, {"science": 1}])
def test_building_with_goods_cannot_be_renovated__R_RENOV_3(goods: dict[str, int]) -> None:
    st = fresh(coffee=1)
    put(st, 0, "trading_post", "B3", **goods)
    assert renovations(st) == set()
    assert_illegal(st, "renovate", "R-RENOV-3", at="B3")
    assert_illegal(st, "renovate", "R-RENOV-3", at="B3", flip=True)


# ------------------------------------------------------------------------ R-RENOV-4


def test_upgraded_renovate_costs_nothing__R_RENOV_4() -> None:
    st = fresh()
    st.players[0].upgrades["renovate"] = "sugar"
    st.players[0].products.remove("sugar")
    put(st, 0, "sawmill", "B3")
    assert is_legal(st, "renovate", at="B3", flip=True)
    new, ev = act_ev(st, "renovate", at="B3", flip=True)
    assert of(ev, "pay") == []
    assert new.tiles["B3"].id == "trading_post"
    # paying anyway is overpaying
    st.players[0].reserve = {"coffee": 1}
    assert_illegal(st, "renovate", "R-VOC-2", listed=True, at="B3", payment=[R("coffee")])


def test_cities_and_capitals_cannot_be_renovated__R_RENOV_4() -> None:
    st = fresh(coffee=1)
    st.era = 2
    put(st, 0, "salvador", "E5")
    assert_illegal(st, "renovate", "R-RENOV-4", at="E5")
    assert_illegal(st, "renovate", "R-RENOV-4", at="C3")
    assert renovations(st) == set()


# ------------------------------------------------------------------------ R-MANUF-1


def test_manufacture_pays_and_upgrades_an_arch__R_MANUF_1() -> None:
    st = fresh(brazilwood=1, cotton=1, coffee=1)
    assert is_legal(st, "manufacture", product="dye", to="import")
    new, ev = act_ev(
        st, "manufacture", product="dye", to="import", payment=[R("brazilwood"), R("cotton")]
    )
    assert [e.kind for e in ev] == ["action", "pay", "manufacture"]
    m = of(ev, "manufacture")[0]
    assert m.data == {"product": "dye", "to": "import"}
    assert f"{CAT.products['dye'].vp} VP" in m.text
    assert new.players[0].upgrades == {"import": "dye"}
    assert "dye" not in new.players[0].products
    assert new.players[0].reserve == {"coffee": 1}
    assert new.players[0].token_arch == "manufacture"
    assert score(new, 0)["categories"]["products"] == CAT.products["dye"].vp


def test_the_upgrade_is_for_good__R_MANUF_1() -> None:
    # scenario: manufacture dye onto Import, then Import draws a gold card next turn
    st = fresh(brazilwood=1, cotton=1)
    st = act(st, "manufacture", product="dye", to="import")
    st = act(st, "end_turn")
    st = act(st, "trade", 1)
    st = act(st, "end_trade", 1)
    st = act(st, "end_turn", 1)
    top = st.gold_deck[-1]
    st = act(st, "import", crop="coffee")
    assert st.players[0].gold_cards == [top]
    assert st.players[0].upgrades == {"import": "dye"}


def test_manufacture_needs_its_cost__R_MANUF_1() -> None:
    st = fresh(brazilwood=1)
    assert_illegal(st, "manufacture", "R-VOC-2", product="dye", to="import")


def test_each_product_once__R_MANUF_1() -> None:
    st = fresh(brazilwood=2, cotton=2)
    st.players[0].products.remove("dye")
    st.players[0].upgrades["import"] = "dye"
    assert_illegal(st, "manufacture", "R-MANUF-1", product="dye", to="renovate")
    before = st.model_dump()
    with pytest.raises(InvalidAction) as exc:
        act(st, "manufacture", product="tobacco", to="renovate")
    assert exc.value.rule == "R-MANUF-1"
    assert st.model_dump() == before


# ------------------------------------------------------------------------ R-MANUF-2


def upgraded_manufacture(**goods: int) -> GameState:
    st = fresh(**goods)
    st.players[0].upgrades["manufacture"] = "cloth"
    st.players[0].products.remove("cloth")
    return st


def test_upgraded_manufacture_one_resource_less__R_MANUF_2() -> None:
    st = upgraded_manufacture(coffee=1, gold=1)  # cocoa: coffee + sugar cane + gold
    assert is_legal(st, "manufacture", product="cocoa", to="painting")
    new, ev = act_ev(st, "manufacture", product="cocoa", to="painting")
    assert sorted(i["what"] for i in of(ev, "pay")[0].data["items"]) == ["coffee", "gold"]
    assert new.players[0].reserve == {}
    assert new.players[0].upgrades["painting"] == "cocoa"


def test_upgraded_manufacture_an_any_resource_less__R_MANUF_2() -> None:
    st = upgraded_manufacture(brazilwood=1)  # dye: brazilwood + any
    assert is_legal(st, "manufacture", product="dye", to="import")
    _, ev = act_ev(st, "manufacture", product="dye", to="import")
    assert of(ev, "pay")[0].data["items"] == [R("brazilwood")]


def test_upgraded_manufacture_elements_are_not_reduced__R_MANUF_2() -> None:
    st = upgraded_manufacture(coffee=2, gold=1)  # coffee: 2 coffee + gold + science
    assert_illegal(st, "manufacture", "R-VOC-2", product="coffee", to="recruit")
    st.players[0].reserve = {"coffee": 1, "gold": 1, "science": 1}
    new = act(st, "manufacture", product="coffee", to="recruit")
    assert new.players[0].reserve == {}


def test_not_upgraded_manufacture_pays_in_full__R_MANUF_2() -> None:
    st = fresh(coffee=1, gold=1)
    assert_illegal(st, "manufacture", "R-VOC-2", product="cocoa", to="painting")


def test_upgraded_manufacture_player_chooses_the_resource_left_out__R_MANUF_2() -> None:
    st = upgraded_manufacture(coffee=1, sugar_cane=1, gold=1)
    for kept in ("coffee", "sugar_cane"):
        new = act(st, "manufacture", product="cocoa", to="painting", payment=[R(kept), R("gold")])
        assert new.players[0].reserve == {({"coffee", "sugar_cane"} - {kept}).pop(): 1}


# ------------------------------------------------------------------------ R-MANUF-3


def test_product_goes_only_on_a_slot_of_its_shape__R_MANUF_3() -> None:
    st = fresh(brazilwood=1, cotton=1)
    dests = {a.to for a in legal_actions(st) if a.type == "manufacture" and a.product == "dye"}
    assert dests == {"import", "renovate"}
    for arch in ("recruit", "build", "painting", "manufacture", "trade", "victoria", "factory"):
        assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to=arch)
    assert is_legal(st, "manufacture", product="dye", to="renovate")


def test_each_arch_holds_one_product__R_MANUF_3() -> None:
    st = fresh(brazilwood=1, cotton=1, sugar_cane=2)
    st.players[0].upgrades["import"] = "sugar"
    st.players[0].products.remove("sugar")
    assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to="import")
    assert is_legal(st, "manufacture", product="dye", to="renovate")
    # both square slots full: no square product can be made
    st.players[0].upgrades["renovate"] = "sugar"
    assert not any(a.type == "manufacture" and a.product == "dye" for a in legal_actions(st))
    assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to="renovate")


def test_immigrants_lets_a_product_go_on_any_slotted_arch__R_MANUF_3() -> None:
    st = fresh(brazilwood=1, cotton=1)
    st.players[0].paintings = ["immigrants"]
    dests = {a.to for a in legal_actions(st) if a.type == "manufacture" and a.product == "dye"}
    assert dests == {"recruit", "painting", "build", "renovate", "manufacture", "import"}
    new = act(st, "manufacture", product="dye", to="build")
    assert new.players[0].upgrades == {"build": "dye"}
    assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to="trade")


def test_queen_victoria_tile_as_destination__R_MANUF_3() -> None:
    st = fresh()
    st.current = 1
    st.players[1].reserve = {"brazilwood": 1, "cotton": 1}
    assert st.players[1].monarch == "queen_victoria"
    assert is_legal(st, "manufacture", 1, product="dye", to="victoria")
    new = act(st, "manufacture", 1, product="dye", to="victoria")
    assert new.players[1].victoria == ["dye"]
    assert new.players[1].upgrades == {}
    assert new.players[1].reserve == {"science": 1}
    # full after 3
    st.players[1].victoria = ["sugar", "cocoa", "coffee"]
    assert_illegal(st, "manufacture", "R-MANUF-3", seat=1, product="dye", to="victoria")
