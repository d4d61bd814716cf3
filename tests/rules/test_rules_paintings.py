"""Painting effects other than combat (DATA.md "Paintings"; R-PAINT-4 production, R-ERA-4
Coroados).

Seat 0 (green, capital C3) plays Dom Obá II here so that no first-painting bonus (Pedro II)
gets in the way. Plains next to C3: D3, C4, C2; forests B3 (next to C3) and E3 (next to D3).
"""

from __future__ import annotations

import pytest

from rules.brazil import (
    GameState,
    NotYourDecision,
    get_catalog,
)
from rules.brazil.scoring import score
from rules.brazil.state import Turn
from tests.helpers import (
    PACK,
    act,
    act_ev,
    act_listed,
    assert_illegal,
    is_legal,
    kinds,
    place_unit,
    put,
    start,
    to_movement,
)


def game(*paintings: str, **goods: int) -> GameState:
    st = start(monarchs=("dom_oba_ii", "queen_victoria"))
    st.players[0].paintings = list(paintings)
    st.players[0].reserve = dict(goods)
    return st


def goods_for(cost: list[str]) -> dict[str, int]:
    """Reserve goods that pay ``cost`` exactly ("any" and "a|b" paid with a crop)."""
    out: dict[str, int] = {}
    for tok in cost:
        g = "coffee" if tok == "any" else tok.split("|")[0]
        out[g] = out.get(g, 0) + 1
    return out


def new_turn(st: GameState) -> GameState:
    st.turn = Turn()
    st.players[0].token_arch = None
    return st


# ------------------------------------------------------------------------ R-PAINT-4 production

PRODUCTION = [
    # painting, building side, extra production
    ("guarani", "sawmill", {"brazilwood": 1}),
    ("oca", "trading_post", {"brazilwood": 1}),
    ("quitandeiras", "farm", {"coffee": 1}),
    ("tupiniquim", "sugar_field", {"sugar_cane": 1}),
    ("bank", "foundry", {"gold": 1}),
    ("jose_bonifacio", "foundry", {"science": 1}),
    ("jose_de_anchieta", "church", {"science": 1}),
    ("joaquim_nabuco", "academy", {"science": 1}),
]


def with_buildings(side: str) -> GameState:
    """Era III; seat 0 has two empty buildings of ``side`` (D3, C4) and a sugar-cane field
    or a sawmill (C2); seat 1 has one of ``side`` at G6."""
    st = game()
    st.era = 3
    put(st, 0, side, "D3")
    put(st, 0, side, "C4")
    put(st, 0, "sawmill" if side == "sugar_field" else "sugar_field", "C2")
    put(st, 1, side, "G6")
    return st


@pytest.mark.parametrize(("painting", "side", "extra"), PRODUCTION)
def test_production_painting_produces_at_once__R_PAINT_4(
    painting: str, side: str, extra: dict[str, int]
) -> None:
    st = with_buildings(side)
    cost = get_catalog(PACK).paintings[painting].cost
    st.players[0].reserve = goods_for(cost)
    st.display.append(painting)
    new, ev = act_ev(st, "painting", painting=painting)
    assert painting in new.players[0].paintings
    assert new.tiles["D3"].goods == extra
    assert new.tiles["C4"].goods == extra
    assert new.tiles["C2"].goods == {}  # another type
    assert new.tiles["G6"].goods == {}  # the opponent's
    assert sorted(e.data["hex"] for e in ev if e.kind == "produce") == ["C4", "D3"]
    assert new.players[0].reserve == {}


@pytest.mark.parametrize(("painting", "side", "extra"), PRODUCTION)
def test_production_painting_applies_on_renovation__R_PAINT_4(
    painting: str, side: str, extra: dict[str, int]
) -> None:
    st = with_buildings(side)
    st.players[0].paintings = [painting]
    st.players[0].reserve = {"cotton": 1}
    new = act(st, "renovate", at="D3")
    base = get_catalog(PACK).sides[side].production
    want = dict(base)
    for g, n in extra.items():
        want[g] = want.get(g, 0) + n
    assert new.tiles["D3"].goods == want


def test_production_painting_applies_to_later_builds__R_PAINT_4() -> None:
    st = game("guarani", coffee=1)
    new = act(st, "build", building="sawmill", at="B3")
    assert new.tiles["B3"].goods == {"brazilwood": 3}


def test_production_paintings_do_not_touch_other_players__R_PAINT_4() -> None:
    st = game("tupiniquim")
    st.current = 1
    put(st, 1, "sawmill", "I5")
    st.players[1].reserve = {"brazilwood": 1}
    new = act(st, "build", 1, building="sugar_field", at="G6")
    assert new.tiles["G6"].goods == {"sugar_cane": 2}


def test_jose_de_anchieta_each_church_one_more_vp() -> None:
    st = game("jose_de_anchieta")
    put(st, 0, "church", "D3")
    put(st, 0, "church", "C4")
    assert score(st, 0)["categories"]["paintings"] == 2 + 2


def test_joaquim_nabuco_each_academy_one_more_vp() -> None:
    st = game("joaquim_nabuco")
    put(st, 0, "academy", "D3")
    assert score(st, 0)["categories"]["paintings"] == 2 + 1


# ------------------------------------------------------------------------ Camarão


def test_camarao_one_vp_per_forest_next_to_your_empire() -> None:
    st = game("camarao")
    assert score(st, 0)["categories"]["paintings"] == 2 + 1  # B3 next to the capital
    put(st, 0, "sugar_field", "D3")  # E3
    assert score(st, 0)["categories"]["paintings"] == 2 + 2
    put(st, 0, "sugar_field", "C4")  # C5; B3 is counted once
    assert score(st, 0)["categories"]["paintings"] == 2 + 3
    put(st, 1, "sawmill", "B3")  # a built hex is no longer forest (R-BUILD-9)
    assert score(st, 0)["categories"]["paintings"] == 2 + 2


def test_without_camarao_forests_score_nothing() -> None:
    st = game("guarani")
    put(st, 0, "sugar_field", "D3")
    assert score(st, 0)["categories"]["paintings"] == 2


# ------------------------------------------------------------------------ Immigrants


def test_immigrants_products_go_on_any_arch() -> None:
    st = game("immigrants", brazilwood=1, coffee=1)
    assert is_legal(st, "manufacture", product="dye", to="painting")
    new = act(st, "manufacture", product="dye", to="recruit")
    assert new.players[0].upgrades == {"recruit": "dye"}


def test_without_immigrants_the_shape_must_match() -> None:
    st = game(brazilwood=1, coffee=1)
    assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to="painting")


def test_immigrants_still_one_product_per_arch() -> None:
    st = game("immigrants", brazilwood=1, coffee=1)
    st.players[0].upgrades = {"painting": "cloth"}
    st.players[0].products.remove("cloth")
    assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to="painting")


# ------------------------------------------------------------------------ Araribóia


def city_ready(*paintings: str) -> tuple[GameState, str]:
    st = game(*paintings)
    st.era = 2
    place_unit(st, 0, "archer1", "E5")
    city = st.city_piles[0][-1]
    st.players[0].reserve = goods_for(get_catalog(PACK).cities[city].cost)
    return st, city


def test_arariboia_any_unit_founds_a_city() -> None:
    st, city = city_ready("arariboia")
    assert is_legal(st, "build", building=city, at="E5")
    new = act(st, "build", building=city, at="E5")
    assert new.tiles["E5"].kind == "city" and new.tiles["E5"].owner == 0


def test_without_arariboia_only_the_monarch_founds() -> None:
    st, city = city_ready()
    assert_illegal(st, "build", "R-BUILD-6", building=city, at="E5")


# ------------------------------------------------------------------------ Maria Leopoldina


def test_maria_leopoldina_build_ignores_terrain() -> None:
    st = game("maria_leopoldina", coffee=1)
    new = act(st, "build", building="sawmill", at="D3")  # a plain
    assert new.tiles["D3"].id == "sawmill"
    st2 = game(coffee=1)
    assert_illegal(st2, "build", "R-BUILD-3", building="sawmill", at="D3")


def test_maria_leopoldina_build_over_own_building_of_any_era() -> None:
    st = game("maria_leopoldina", coffee=1)
    put(st, 0, "sugar_field", "D3")
    supply = st.supply["B"]
    new, ev = act_ev(st, "build", building="sawmill", at="D3")
    assert new.tiles["D3"].id == "sawmill"
    assert "removed" in kinds(ev)
    assert new.supply["B"] == supply  # removed from the game, not back to the supply
    st2 = game(coffee=1)
    put(st2, 0, "sugar_field", "D3")
    assert_illegal(st2, "build", "R-BUILD-3", building="sawmill", at="D3")


def test_maria_leopoldina_not_over_an_opponents_building() -> None:
    st = game("maria_leopoldina", coffee=1)
    put(st, 1, "sugar_field", "D3")
    assert_illegal(st, "build", "R-BUILD-3", building="sawmill", at="D3")


# ------------------------------------------------------------------------ Amazônia


def test_amazonia_gives_one_science_once() -> None:
    st = game(coffee=1)
    st.display.append("amazonia")
    new, ev = act_ev(st, "painting", painting="amazonia")
    assert new.players[0].reserve == {"science": 1}
    assert [e.data for e in ev if e.kind == "gain"] == [{"goods": {"science": 1}}]
    # nothing more later: a renovation or another action gives no science
    new = new_turn(new)
    new = act(new, "import", crop="cotton")
    assert new.players[0].reserve == {"science": 1, "cotton": 1}


# ------------------------------------------------------------------------ Guaicurus


def test_guaicurus_monarch_has_transport() -> None:
    st = game("guaicurus")
    place_unit(st, 0, "monarch", "D3")
    place_unit(st, 0, "archer1", "D3")
    st = to_movement(st, "import")
    assert is_legal(st, "move", unit="monarch", to="D4", carry=["archer1"])
    new = act(st, "move", unit="monarch", to="D4", carry=["archer1"])
    assert new.players[0].units["archer1"] == "D4"
    st2 = game()
    place_unit(st2, 0, "monarch", "D3")
    place_unit(st2, 0, "archer1", "D3")
    st2 = to_movement(st2, "import")
    assert_illegal(st2, "move", "R-MOVE-2", unit="monarch", to="D4", carry=["archer1"])


# ------------------------------------------------------------------------ Dragão do Mar


def test_dragao_do_mar_cotton_pays_as_gold() -> None:
    st = game("dragao_do_mar", cotton=1)
    st.display.append("duque_de_caxias")  # costs 1 gold
    assert is_legal(st, "painting", painting="duque_de_caxias")
    new = act(st, "painting", painting="duque_de_caxias")
    assert new.players[0].reserve == {}
    st2 = game(cotton=1)
    st2.display.append("duque_de_caxias")
    assert_illegal(st2, "painting", "R-VOC-2", painting="duque_de_caxias")


def test_dragao_do_mar_cotton_pays_as_any_resource() -> None:
    st = game("dragao_do_mar", cotton=1)
    new = act(st, "build", building="sugar_field", at="D3")  # costs 1 brazilwood
    assert new.tiles["D3"].id == "sugar_field"


# ------------------------------------------------------------------------ Machado de Assis


def test_machado_de_assis_gold_card_pays_as_science() -> None:
    st = game("machado_de_assis")
    st.players[0].gold_cards = ["espionage"]
    st.display.append("isabel_of_brazil")  # costs 1 science
    assert is_legal(st, "painting", painting="isabel_of_brazil")
    new, _ = act_listed(st, "painting", painting="isabel_of_brazil")
    assert new.players[0].gold_cards == []
    assert new.gold_discard[-1] == "espionage"
    st2 = game()
    st2.players[0].gold_cards = ["espionage"]
    st2.display.append("isabel_of_brazil")
    assert_illegal(st2, "painting", "R-VOC-2", painting="isabel_of_brazil")


# ------------------------------------------------------------------------ Coroados, R-ERA-4


def test_coroados_token_I_scores_two_vp__R_ERA_4() -> None:
    st = game("coroados")
    st.era = 2
    st.players[0].under = {"import": 1}
    assert is_legal(st, "coroados", token=1)
    new, ev = act_ev(st, "coroados", token=1)
    assert new.players[0].under == {}
    assert new.players[0].coroados == 1
    assert [e.data for e in ev if e.kind == "coroados"] == [{"token": 1}]
    assert score(new, 0)["categories"]["paintings"] == 2 + 2
    # a free action: the turn's action is still to come
    assert new.turn.step == "action"


def test_coroados_token_II_draws_two_gold_cards__R_ERA_4() -> None:
    st = game("coroados")
    st.era = 3
    st.players[0].under = {"import": 1, "trade": 2}
    top2 = st.gold_deck[-2:]
    new = act(st, "coroados", token=2)
    assert sorted(new.players[0].gold_cards) == sorted(top2)
    assert new.players[0].under == {"import": 1}
    assert score(new, 0)["categories"]["paintings"] == 2  # token II scores nothing


def test_coroados_holds_one_token__R_ERA_4() -> None:
    st = game("coroados")
    st.era = 3
    st.players[0].under = {"trade": 2}
    st.players[0].coroados = 1
    assert_illegal(st, "coroados", "R-ERA-4", token=2)


def test_coroados_needs_the_painting_and_the_token__R_ERA_4() -> None:
    st = game()
    st.era = 2
    st.players[0].under = {"import": 1}
    assert_illegal(st, "coroados", "R-ERA-4", token=1)
    st2 = game("coroados")
    st2.era = 2
    assert_illegal(st2, "coroados", "R-ERA-4", token=1)


def test_coroados_any_time_in_your_turn__R_ERA_4() -> None:
    st = to_movement(game("coroados"), "import")
    st.era = 2
    st.players[0].under = {"trade": 1}
    assert act(st, "coroados", token=1).players[0].coroados == 1
    st.current = 1
    before = st.model_dump()
    with pytest.raises(NotYourDecision):
        act(st, "coroados", 0, token=1)
    assert st.model_dump() == before


def test_coroados_at_the_era_change__R_ERA_4() -> None:
    st = game("coroados")
    st.era = 2
    p = st.players[0]
    p.under = {"import": 1}
    p.missions = ["II-3"]
    p.upgrades = {"import": "dye", "painting": "cloth", "recruit": "coffee"}
    st = act(st, "reveal_mission", mission="II-3")
    assert is_legal(st, "place_era_token", arch="coroados")
    top2 = st.gold_deck[-2:]
    new = act(st, "place_era_token", arch="coroados")
    assert new.players[0].coroados == 2
    assert sorted(new.players[0].gold_cards) == sorted(top2)
    assert new.players[0].under == {"import": 1}


# ------------------------------------------------------------------------ Isabel of Brazil


def test_isabel_of_brazil_places_a_palace_once() -> None:
    st = game("isabel_of_brazil")
    put(st, 0, "cotton_plantation", "D3")
    put(st, 0, "farm", "C4")
    assert is_legal(st, "isabel_palace", palace=4, at="D3")
    new, _ = act_ev(st, "isabel_palace", palace=4, at="D3")
    assert new.tiles["D3"].palace == 4
    assert new.players[0].reserve == {"cotton": 1}
    assert new.players[0].palaces == [2, 3, 5, 6]
    assert new.turn.step == "action"  # any time, no action spent
    assert_illegal(new, "isabel_palace", "R-PALACE-1", palace=5, at="C4")


def test_isabel_of_brazil_placement_rules_apply() -> None:
    st = game("isabel_of_brazil")
    put(st, 0, "cotton_plantation", "D3")
    assert_illegal(st, "isabel_palace", "R-PALACE-2", palace=5, at="D3")
    st2 = game()
    put(st2, 0, "cotton_plantation", "D3")
    assert_illegal(st2, "isabel_palace", "R-PALACE-1", palace=4, at="D3")


# ------------------------------------------------------------------------ Visconde de Mauá


def test_visconde_de_maua_second_build_costs_one_more_resource() -> None:
    st = game("visconde_de_maua", brazilwood=2, coffee=1)
    st = act(st, "build", building="sugar_field", at="D3")
    assert st.turn.step == "movement" and st.players[0].reserve == {"brazilwood": 1, "coffee": 1}
    st.tiles["D3"] = st.tiles["D3"].model_copy(
        update={"goods": {}}
    )  # its sugar cane could pay too (R-VOC-6): keep the count simple
    assert is_legal(st, "build", building="sugar_field", at="C4")
    new, _ = act_ev(st, "build", building="sugar_field", at="C4")
    assert new.tiles["C4"].id == "sugar_field"
    assert new.players[0].reserve == {}
    assert new.turn.step == "movement"
    # a third build is refused
    new.players[0].reserve = {"brazilwood": 2}
    assert_illegal(new, "build", "R-TURN-2", building="sugar_field", at="C2")


def test_visconde_de_maua_second_build_must_pay_the_extra() -> None:
    st = game("visconde_de_maua", brazilwood=2)
    st = act(st, "build", building="sugar_field", at="D3")
    st.tiles["D3"] = st.tiles["D3"].model_copy(update={"goods": {}})
    assert_illegal(st, "build", "R-VOC-2", building="sugar_field", at="C4")


def test_without_visconde_de_maua_one_build_per_turn() -> None:
    st = game(brazilwood=3)
    st = act(st, "build", building="sugar_field", at="D3")
    assert_illegal(st, "build", "R-TURN-2", building="sugar_field", at="C4")


# ------------------------------------------------------------------------ André Rebouças


def test_andre_reboucas_build_costs_one_less() -> None:
    st = game("andre_reboucas", sugar_cane=1)
    new = act(st, "build", building="farm", at="D3")  # brazilwood + sugar cane
    assert new.tiles["D3"].id == "farm"
    assert new.players[0].reserve == {}
    st2 = game(sugar_cane=1)
    assert_illegal(st2, "build", "R-VOC-2", building="farm", at="D3")


def test_andre_reboucas_once_per_turn() -> None:
    st = game("andre_reboucas", "visconde_de_maua", brazilwood=1, coffee=1)
    st = act(st, "build", building="sugar_field", at="D3")  # free
    assert st.players[0].reserve == {"brazilwood": 1, "coffee": 1}
    st.tiles["D3"] = st.tiles["D3"].model_copy(update={"goods": {}})
    new = act(st, "build", building="sugar_field", at="C4")  # full: brazilwood + 1
    assert new.players[0].reserve == {}


# ------------------------------------------------------------------------ Factory


def test_factory_takes_a_pentagon_and_an_octagon_product() -> None:
    st = game("factory", cotton=2, coffee=1)
    assert is_legal(st, "manufacture", product="cloth", to="factory")
    new = act(st, "manufacture", product="cloth", to="factory")
    p = new.players[0]
    assert p.factory == ["cloth"] and p.upgrades == {}
    cats = score(new, 0)["categories"]
    assert cats["paintings"] == 2 + 2 and cats["products"] == 3
    # a second pentagon product cannot go there; an octagon one can
    new = new_turn(new)
    new.players[0].token_arch = "import"
    new.players[0].reserve = {"coffee": 2, "gold": 1, "science": 1}
    assert_illegal(new, "manufacture", "R-MANUF-3", product="cocoa", to="factory")
    done = act(new, "manufacture", product="coffee", to="factory")
    assert done.players[0].factory == ["cloth", "coffee"]
    assert score(done, 0)["categories"]["paintings"] == 2 + 4


def test_factory_takes_no_square_product() -> None:
    st = game("factory", brazilwood=1, coffee=1)
    assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to="factory")


def test_without_factory_no_factory_place() -> None:
    st = game(cotton=2, coffee=1)
    assert_illegal(st, "manufacture", "R-MANUF-3", product="cloth", to="factory")
