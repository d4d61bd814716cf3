"""Palaces (RULES.md §7: R-PALACE-1..5).

Seat 0 (green, capital C3 with palace I) reveals a mission and may place one palace II–VI
on a hex of its empire meeting the palace's requirement; the bonus is taken at once and the
palace's end bonus is scored for its builder only.
"""

from __future__ import annotations

import pytest

from rules.brazil import (
    GameState,
    NotYourDecision,
    legal_actions,
)
from rules.brazil.scoring import score
from rules.brazil.state import Pending
from tests.helpers import (
    act,
    act_ev,
    assert_illegal,
    kinds,
    place_unit,
    put,
    start,
    to_movement,
)


def empire() -> GameState:
    """Seat 0: sawmill B3, sugar-cane field D3, foundry C4, cotton plantation D4, farm C2,
    church B2, city Vila Rica at B7; seat 1: a sawmill at I5. Era III."""
    st = start()
    st.era = 3
    put(st, 0, "sawmill", "B3")
    put(st, 0, "sugar_field", "D3")
    put(st, 0, "foundry", "C4")
    put(st, 0, "cotton_plantation", "D4")
    put(st, 0, "farm", "C2")
    put(st, 0, "church", "B2")
    put(st, 0, "vila_rica", "B7")
    put(st, 1, "sawmill", "I5")
    return st


def palace_decision(st: GameState, seat: int = 0) -> GameState:
    """The decision a mission reveal opens (see the reveal scenarios below)."""
    st.pending.insert(0, Pending(seat=seat, kind="place_palace", data={"blocking": True}))
    return st


def era1_ready() -> GameState:
    st = start()
    put(st, 0, "sawmill", "B3")
    put(st, 0, "sawmill", "A2")
    put(st, 0, "sugar_field", "D3")
    st.players[0].missions = ["I-1"]
    return st


# ------------------------------------------------------------------------ R-PALACE-1


def test_revealing_a_mission_opens_a_palace_decision__R_PALACE_1() -> None:
    st = era1_ready()
    st.era = 2  # a past era's mission: no era change in the way
    st = act(st, "reveal_mission", mission="I-1")
    assert [(d.seat, d.kind) for d in st.pending] == [(0, "place_palace")]
    options = {(a.palace, a.at) for a in legal_actions(st, 0)}
    # II on an era I building, III on an era I/II building; nothing else here
    assert options == {
        (None, None),
        (2, "B3"),
        (2, "A2"),
        (2, "D3"),
        (3, "B3"),
        (3, "A2"),
        (3, "D3"),
    }
    # the decision comes first
    before = st.model_dump()
    with pytest.raises(NotYourDecision) as exc:
        act(st, "import", crop="coffee")
    assert exc.value.rule == "R-PALACE-1"
    assert st.model_dump() == before


def test_placing_a_palace_takes_it_from_the_board__R_PALACE_1() -> None:
    st = era1_ready()
    st.era = 2
    st = act(st, "reveal_mission", mission="I-1")
    new, ev = act_ev(st, "place_palace", palace=3, at="A2")
    assert new.tiles["A2"].palace == 3
    assert new.players[0].palaces == [2, 4, 5, 6]
    assert [e.data for e in ev if e.kind == "palace"] == [{"palace": 3, "hex": "A2"}]
    assert new.pending == []


def test_a_palace_may_be_declined__R_PALACE_1() -> None:
    st = palace_decision(era1_ready())
    new, ev = act_ev(st, "place_palace", palace=None)
    assert kinds(ev) == ["no_palace"]
    assert new.players[0].palaces == [2, 3, 4, 5, 6]
    assert all(t.palace is None for h, t in new.tiles.items() if h != "C3" and h != "H6")


def test_one_palace_per_hex__R_PALACE_1() -> None:
    st = palace_decision(era1_ready())
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"palace": 2})
    st.players[0].palaces = [3, 4, 5, 6]
    assert_illegal(st, "place_palace", "R-PALACE-1", palace=3, at="B3")
    assert_illegal(st, "place_palace", "R-PALACE-1", palace=3, at="C3")  # capital: palace I


def test_only_palaces_still_on_the_board__R_PALACE_1() -> None:
    st = palace_decision(era1_ready())
    st.players[0].palaces = [3, 4, 5, 6]
    assert_illegal(st, "place_palace", "R-PALACE-1", palace=2, at="B3")
    assert_illegal(st, "place_palace", "R-PALACE-1", palace=1, at="B3")


def test_palace_only_on_a_controlled_hex_of_your_empire__R_PALACE_1() -> None:
    st = palace_decision(era1_ready())
    put(st, 1, "sawmill", "I5")
    assert_illegal(st, "place_palace", "R-PALACE-1", palace=2, at="I5")  # opponent's
    place_unit(st, 1, "brawler1", "A2")  # own sawmill occupied by the opponent
    assert_illegal(st, "place_palace", "R-PALACE-1", palace=2, at="A2")
    assert_illegal(st, "place_palace", "R-PALACE-1", palace=2, at="E5")  # empty hex


# ------------------------------------------------------------------------ R-PALACE-2


def test_palace_II_sugar_cane_and_a_free_square_product__R_PALACE_2() -> None:
    st = palace_decision(empire())
    new, ev = act_ev(st, "place_palace", palace=2, at="B3")
    assert [e.data for e in ev if e.kind == "gain"] == [{"goods": {"sugar_cane": 1}}]
    assert new.players[0].reserve == {"sugar_cane": 1}
    assert [d.kind for d in new.pending] == ["free_manufacture"]
    offered = {(a.product, a.to) for a in legal_actions(new, 0)}
    assert offered == {
        (None, None),
        ("dye", "import"),
        ("dye", "renovate"),
        ("sugar", "import"),
        ("sugar", "renovate"),
    }
    # a pentagon product is not the palace II product
    assert_illegal(new, "free_manufacture", "R-PALACE-2", product="cloth", to="painting")
    done, ev2 = act_ev(new, "free_manufacture", product="dye", to="import")
    assert done.players[0].upgrades == {"import": "dye"}
    assert "dye" not in done.players[0].products
    assert done.players[0].reserve == {"sugar_cane": 1}  # nothing paid
    assert "pay" not in kinds(ev2)


def test_palace_II_free_product_may_be_declined__R_PALACE_2() -> None:
    st = act(palace_decision(empire()), "place_palace", palace=2, at="D3")
    new, ev = act_ev(st, "free_manufacture")
    assert kinds(ev) == ["decline"]
    assert new.players[0].upgrades == {}
    assert new.pending == []


def test_palace_II_no_free_product_without_a_free_square_slot__R_PALACE_2() -> None:
    st = palace_decision(empire())
    st.players[0].upgrades = {"import": "dye", "renovate": "sugar"}  # both square slots used
    st.players[0].products = ["cloth", "cocoa", "coffee", "rubber"]
    new, ev = act_ev(st, "place_palace", palace=2, at="B3")
    assert new.players[0].reserve == {"sugar_cane": 1}
    assert new.pending == []
    assert "palace" in kinds(ev)


def test_palace_III_gold_card__R_PALACE_2() -> None:
    st = palace_decision(empire())
    top = st.gold_deck[-1]
    new, ev = act_ev(st, "place_palace", palace=3, at="C4")  # an era II foundry
    assert new.players[0].gold_cards == [top]
    assert "draw_gold" in kinds(ev)
    city = act(palace_decision(empire()), "place_palace", palace=3, at="B7")  # a city
    assert city.tiles["B7"].palace == 3


def test_palace_IV_cotton__R_PALACE_2() -> None:
    new = act(palace_decision(empire()), "place_palace", palace=4, at="D4")
    assert new.players[0].reserve == {"cotton": 1}
    assert new.tiles["D4"].palace == 4


def test_palace_V_no_immediate_gain__R_PALACE_2() -> None:
    st = palace_decision(empire())
    new, ev = act_ev(st, "place_palace", palace=5, at="C2")
    assert kinds(ev) == ["palace"]
    assert new.players[0].reserve == {}
    assert new.tiles["C2"].palace == 5


def test_palace_VI_combat_card__R_PALACE_2() -> None:
    st = palace_decision(empire())
    top = st.combat_deck[-1]
    new = act(st, "place_palace", palace=6, at="B7")
    assert new.players[0].combat_cards == [top]
    assert new.tiles["B7"].palace == 6


@pytest.mark.parametrize(
    ("palace", "at"),
    [
        (2, "C4"),  # II: an era I building, not a foundry
        (2, "B7"),  # ... nor a city
        (3, "B2"),  # III: not an era III church
        (4, "C2"),  # IV: a cotton plantation, not a farm
        (5, "B3"),  # V: a farm, not a sawmill
        (6, "D3"),  # VI: a city, not a building
    ],
)
def test_palace_requirements__R_PALACE_2(palace: int, at: str) -> None:
    st = palace_decision(empire())
    assert_illegal(st, "place_palace", "R-PALACE-2", palace=palace, at=at)


def test_palaces_need_not_be_placed_in_order__R_PALACE_5() -> None:
    st = act(palace_decision(empire()), "place_palace", palace=6, at="B7")
    st = act(palace_decision(st), "place_palace", palace=4, at="D4")
    assert st.players[0].palaces == [2, 3, 5]


# ------------------------------------------------------------------------ R-PALACE-3


def test_building_with_palace_cannot_be_built_over__R_PALACE_3() -> None:
    st = empire()
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"palace": 2})
    st.players[0].reserve = {"gold": 1, "coffee": 2}
    assert_illegal(st, "build", "R-PALACE-3", building="church", at="B3")
    # without the palace an era III building may replace it (R-BUILD-3)
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"palace": None})
    new = act(st, "build", building="church", at="B3")
    assert new.tiles["B3"].id == "church"


def test_building_with_palace_cannot_be_flipped_but_can_be_renovated__R_PALACE_3() -> None:
    st = empire()
    st.tiles["D3"] = st.tiles["D3"].model_copy(update={"palace": 2})
    st.players[0].reserve = {"coffee": 1}
    assert_illegal(st, "renovate", "R-RENOV-2", at="D3", flip=True)
    new = act(st, "renovate", at="D3")
    assert new.tiles["D3"].id == "sugar_field"
    assert new.tiles["D3"].goods == {"sugar_cane": 2}


# ------------------------------------------------------------------------ R-PALACE-4


def test_no_legal_palace_the_mission_still_scores__R_PALACE_4() -> None:
    st = era1_ready()
    st.players[0].palaces = [4, 5, 6]  # none fits sawmills and a sugar-cane field
    new, ev = act_ev(st, "reveal_mission", mission="I-1")
    assert kinds(ev) == ["mission", "no_palace", "era"]
    assert not [d for d in new.pending if d.kind == "place_palace"]
    assert new.players[0].revealed == ["I-1"]
    assert score(new, 0)["categories"]["missions"] == 1


# ------------------------------------------------------------------------ R-PALACE-5 (scoring)


def test_palace_III_scores_built_and_controlled_foundries__R_PALACE_5() -> None:
    st = empire()
    st.tiles["C4"] = st.tiles["C4"].model_copy(update={"palace": 3})
    st.players[0].palaces = [2, 4, 5, 6]
    put(st, 0, "foundry", "B4")
    put(st, 0, "foundry", "D2")
    assert score(st, 0)["categories"]["palaces"] == 3
    place_unit(st, 1, "brawler1", "D2")  # occupied: no longer counts for its builder
    assert score(st, 0)["categories"]["palaces"] == 2
    # a foundry seat 0 occupies was not built by seat 0
    put(st, 1, "foundry", "G6")
    place_unit(st, 0, "archer1", "G6")
    assert score(st, 0)["categories"]["palaces"] == 2


def test_palace_IV_scores_two_per_cotton_plantation__R_PALACE_5() -> None:
    st = empire()
    st.tiles["D4"] = st.tiles["D4"].model_copy(update={"palace": 4})
    put(st, 0, "cotton_plantation", "E4")
    assert score(st, 0)["categories"]["palaces"] == 4


def test_palace_V_scores_one_per_product__R_PALACE_5() -> None:
    st = empire()
    st.tiles["C2"] = st.tiles["C2"].model_copy(update={"palace": 5})
    p = st.players[0]
    p.upgrades = {"import": "dye", "painting": "cloth"}
    p.products = [x for x in p.products if x not in ("dye", "cloth")]
    assert score(st, 0)["categories"]["palaces"] == 2


def test_palace_VI_scores_one_per_unit_deployed__R_PALACE_5() -> None:
    st = empire()
    st.tiles["B7"] = st.tiles["B7"].model_copy(update={"palace": 6})
    place_unit(st, 0, "archer1", "D5")
    st.players[0].units["dragoon"] = "reserve"  # defeated: deployed all the same
    assert score(st, 0)["categories"]["palaces"] == 2


def test_palace_bonus_scores_only_for_its_builder__R_PALACE_5() -> None:
    st = empire()
    st.tiles["C4"] = st.tiles["C4"].model_copy(update={"palace": 3})
    put(st, 0, "foundry", "B4")
    place_unit(st, 1, "brawler1", "C4")  # the opponent occupies the palace's hex
    put(st, 1, "foundry", "G6")
    assert score(st, 1)["categories"]["palaces"] == 0
    assert score(st, 0)["categories"]["palaces"] == 1  # B4 only: C4 is occupied


def test_a_hex_with_a_palace_can_still_be_attacked__R_PALACE_5() -> None:
    st = empire()
    st.tiles["D4"] = st.tiles["D4"].model_copy(update={"palace": 4})
    st.current = 1
    place_unit(st, 1, "brawler1", "E4")
    st = to_movement(st, "import")
    new, ev = act_ev(st, "move", 1, unit="brawler1", to="D4")
    assert "battle" in kinds(ev)
    assert new.combat is not None and new.combat.hex == "D4"
