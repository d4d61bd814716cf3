"""The Recruit and Painting actions (RULES.md §4: R-RECRUIT-1..5, R-PAINT-1..4).

Test map ``test-duel``: seat 0 (green) has its capital at C3, seat 1 (blue) at H6. Green's
units: archer1/archer2 (2 VP, 1 any resource), dragoon, cannon, monarch (5 VP, 1 gold + 1
sugar cane); blue's: brawler1/brawler2 (2 VP, 1 any resource), cannon, hussar, monarch.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.brazil import Event, GameState, RulesError, legal_actions, score, view
from rules.brazil.catalog import CROPS, get_catalog
from tests.helpers import (
    PACK,
    act,
    act_ev,
    act_listed,
    assert_illegal,
    is_legal,
    place_unit,
    put,
    start,
)

CAT = get_catalog(PACK)


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def R(what: str) -> dict[str, str]:
    return {"source": "reserve", "what": what}


def dep(unit: str, to: str = "C3") -> dict[str, str]:
    return {"unit": unit, "to": to}


def fresh(**kw: Any) -> GameState:
    kw.setdefault("monarchs", ("dom_oba_ii", "queen_victoria"))
    return start(**kw)


# ------------------------------------------------------------------------ R-RECRUIT-1


def test_deploy_only__R_RECRUIT_1() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 1}
    assert is_legal(st, "recruit", deploy=[dep("archer1")])
    new, ev = act_ev(st, "recruit", deploy=[dep("archer1")])
    assert [e.kind for e in ev] == ["action", "pay", "deploy"]
    assert new.players[0].units["archer1"] == "C3"
    assert new.players[0].combat_cards == []
    assert new.players[0].token_arch == "recruit"


def test_draw_only__R_RECRUIT_1() -> None:
    st = fresh()
    top = st.combat_deck[-1]
    assert is_legal(st, "recruit", draw=1)
    new, ev = act_ev(st, "recruit", draw=1)
    assert new.players[0].combat_cards == [top]
    assert of(ev, "draw_combat")[0].data == {"count": 1}
    private = of(ev, "draw_combat_private")[0]
    assert private.visible_to == (0,) and private.data["cards"] == [top]
    assert all(loc == "board" for loc in new.players[0].units.values())


def test_deploy_and_draw__R_RECRUIT_1() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 1}
    assert is_legal(st, "recruit", deploy=[dep("archer1")], draw=1)
    new = act(st, "recruit", deploy=[dep("archer1")], draw=1)
    assert new.players[0].units["archer1"] == "C3"
    assert len(new.players[0].combat_cards) == 1


def test_recruit_must_do_something__R_RECRUIT_1() -> None:
    st = fresh()
    assert_illegal(st, "recruit", "R-RECRUIT-1")
    assert_illegal(st, "recruit", "R-RECRUIT-1", draw=0, deploy=[])


def test_recruit_drawing_from_empty_piles_does_nothing_so_is_refused__R_RECRUIT_1() -> None:
    st = fresh()
    st.combat_deck = []
    st.combat_discard = []
    assert not is_legal(st, "recruit", draw=1)  # legal_actions agrees: nothing can be drawn
    assert_illegal(st, "recruit", "R-RECRUIT-1", draw=1)


# ------------------------------------------------------------------------ R-RECRUIT-2


def test_first_deployment_pays_its_cost_and_reveals_its_vp__R_RECRUIT_2() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 1, "sugar_cane": 1, "coffee": 1}
    assert is_legal(st, "recruit", deploy=[dep("monarch")])
    new, ev = act_ev(st, "recruit", deploy=[dep("monarch")])
    pay = of(ev, "pay")[0].data["items"]
    assert sorted(i["what"] for i in pay) == ["gold", "sugar_cane"]
    assert new.players[0].reserve == {"coffee": 1}
    d = of(ev, "deploy")[0]
    assert d.data == {"unit": "monarch", "hex": "C3", "first": True}
    assert "5 VP" in d.text
    assert new.players[0].units["monarch"] == "C3"
    assert score(new, 0)["categories"]["units"] == CAT.units["green.monarch"].vp == 5


def test_deployment_needs_the_cost__R_RECRUIT_2() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 1, "coffee": 1}
    assert_illegal(st, "recruit", "R-VOC-2", deploy=[dep("monarch")])


def test_deploy_only_on_capital_or_own_controlled_city__R_RECRUIT_2() -> None:
    st = fresh()
    st.era = 2
    st.players[0].reserve = {"coffee": 3}
    put(st, 0, "salvador", "F7")
    put(st, 0, "sugar_field", "C2")
    put(st, 1, "recife", "J8")
    # capital and own city
    assert is_legal(st, "recruit", deploy=[dep("archer1", "F7")])
    new = act(st, "recruit", deploy=[dep("archer1", "F7")])
    assert new.players[0].units["archer1"] == "F7"
    # not a building, not an empty hex, not an opponent's city or capital
    for where in ("C2", "D3", "J8", "H6"):
        assert_illegal(st, "recruit", "R-RECRUIT-2", deploy=[dep("archer1", where)])
    # not an own city occupied by the opponent
    place_unit(st, 1, "brawler1", "F7")
    assert_illegal(st, "recruit", "R-RECRUIT-2", deploy=[dep("archer1", "F7")])
    assert is_legal(st, "recruit", deploy=[dep("archer1", "C3")])


def test_a_unit_on_the_map_cannot_be_deployed__R_RECRUIT_2() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 1}
    place_unit(st, 0, "archer1", "D3")
    assert_illegal(st, "recruit", "R-RECRUIT-2", deploy=[dep("archer1")])


def test_deployed_unit_scores_even_when_defeated__R_RECRUIT_2() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 1}
    st = act(st, "recruit", deploy=[dep("archer1")])
    vp = CAT.units["green.archer1"].vp
    assert score(st, 0)["categories"]["units"] == vp
    st.players[0].units["archer1"] = "reserve"  # defeated
    assert score(st, 0)["categories"]["units"] == vp


# ------------------------------------------------------------------------ R-RECRUIT-3


def test_defeated_unit_redeploys_for_free__R_RECRUIT_3() -> None:
    st = fresh()
    st.players[0].units["monarch"] = "reserve"  # deployed earlier, then defeated
    assert st.players[0].reserve == {}
    assert is_legal(st, "recruit", deploy=[dep("monarch")])
    before_vp = score(st, 0)["categories"]["units"]
    new, ev = act_ev(st, "recruit", deploy=[dep("monarch")])
    assert of(ev, "pay") == []
    assert of(ev, "deploy")[0].data == {"unit": "monarch", "hex": "C3", "first": False}
    assert new.players[0].units["monarch"] == "C3"
    # no additional VP
    assert score(new, 0)["categories"]["units"] == before_vp == 5


def test_redeploy_ignores_an_explicit_payment__R_RECRUIT_3() -> None:
    st = fresh()
    st.players[0].units["archer1"] = "reserve"
    st.players[0].reserve = {"coffee": 1}
    assert_illegal(
        st, "recruit", "R-VOC-2", listed=True, deploy=[dep("archer1")], payment=[R("coffee")]
    )


# ------------------------------------------------------------------------ R-RECRUIT-4


def test_upgraded_recruit_deploys_two_and_draws_two__R_RECRUIT_4() -> None:
    st = fresh()
    st.players[0].upgrades["recruit"] = "coffee"
    st.players[0].products.remove("coffee")
    st.players[0].reserve = {"gold": 1, "sugar_cane": 1, "cotton": 1}
    # (legal_actions lists the units in board order)
    assert is_legal(st, "recruit", deploy=[dep("archer1"), dep("monarch")], draw=2)
    new, ev = act_ev(st, "recruit", deploy=[dep("monarch"), dep("archer1")], draw=2)
    assert new.players[0].units["monarch"] == "C3"
    assert new.players[0].units["archer1"] == "C3"
    assert len(new.players[0].combat_cards) == 2
    assert new.players[0].reserve == {}
    assert len(of(ev, "deploy")) == 2
    assert of(ev, "draw_combat")[0].data == {"count": 2}


def test_not_upgraded_recruit_is_one_and_one__R_RECRUIT_4() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 1, "sugar_cane": 1, "cotton": 1}
    assert_illegal(st, "recruit", "R-RECRUIT-4", deploy=[dep("monarch"), dep("archer1")])
    assert_illegal(st, "recruit", "R-RECRUIT-4", draw=2)
    st.players[0].upgrades["recruit"] = "coffee"
    assert_illegal(st, "recruit", "R-RECRUIT-4", draw=3)
    assert_illegal(
        st, "recruit", "R-RECRUIT-4", deploy=[dep("monarch"), dep("archer1"), dep("archer2")]
    )


def test_upgraded_recruit_cannot_deploy_the_same_unit_twice__R_RECRUIT_4() -> None:
    st = fresh()
    st.players[0].upgrades["recruit"] = "coffee"
    st.players[0].reserve = {"cotton": 2}
    assert_illegal(st, "recruit", "R-RECRUIT-1", deploy=[dep("archer1"), dep("archer1")])


# ------------------------------------------------------------------------ R-RECRUIT-5


def napoleon() -> GameState:
    """Blue (Napoleon: a combat card pays as 1 resource) to play."""
    st = start(monarchs=("dom_oba_ii", "napoleon"))
    st.current = 1
    return st


def test_card_drawn_by_recruit_cannot_pay_its_deployment__R_RECRUIT_5() -> None:
    st = napoleon()
    assert st.players[1].combat_cards == [] and st.players[1].reserve == {}
    assert not is_legal(st, "recruit", 1, deploy=[dep("brawler1", "H6")], draw=1)
    before = st.model_dump()
    with pytest.raises(RulesError) as exc:
        act(st, "recruit", 1, deploy=[dep("brawler1", "H6")], draw=1)
    assert exc.value.rule == "R-VOC-2"
    assert st.model_dump() == before


def test_card_held_before_recruit_may_pay_the_deployment__R_RECRUIT_5() -> None:
    st = napoleon()
    st.players[1].combat_cards = ["militia"]
    top = st.combat_deck[-2:]
    assert is_legal(st, "recruit", 1, deploy=[dep("brawler1", "H6")], draw=1)
    new, ev = act_listed(st, "recruit", 1, deploy=[dep("brawler1", "H6")], draw=1)
    assert of(ev, "pay")[0].data["items"] == [{"source": "combat_card", "what": "militia"}]
    assert new.players[1].units["brawler1"] == "H6"
    assert new.combat_discard == ["militia"]
    # the drawn cards (1 + Napoleon's extra card on the first Recruit) are all kept
    assert sorted(new.players[1].combat_cards) == sorted(top)


# ------------------------------------------------------------------------ R-PAINT-1


def test_take_a_displayed_painting_and_pay_its_cost__R_PAINT_1() -> None:
    st = fresh()
    st.players[0].reserve = {"cotton": 1}
    assert "immigrants" in st.display  # costs 1 resource
    assert is_legal(st, "painting", painting="immigrants")
    new, ev = act_ev(st, "painting", painting="immigrants")
    assert of(ev, "pay")[0].data["items"] == [R("cotton")]
    assert new.players[0].paintings == ["immigrants"]
    assert "immigrants" not in new.display
    assert of(ev, "painting")[0].data == {"painting": "immigrants"}
    assert new.players[0].token_arch == "painting"
    assert score(new, 0)["categories"]["paintings"] == CAT.paintings["immigrants"].vp
    # kept face up: the opponent and spectators see it
    assert view(new, 1).players[0].paintings == ["immigrants"]
    assert view(new, None).players[0].paintings == ["immigrants"]


def test_a_free_painting_still_takes_the_action__R_PAINT_1() -> None:
    st = fresh()
    assert CAT.paintings["quitandeiras"].cost == []
    assert is_legal(st, "painting", painting="quitandeiras")
    new, ev = act_ev(st, "painting", painting="quitandeiras")
    assert of(ev, "pay") == []
    assert next(e.kind for e in ev) == "action"
    assert new.players[0].paintings == ["quitandeiras"]
    assert new.players[0].token_arch == "painting"
    assert new.turn.step == "movement"
    # the token now stands on Painting: not again next turn
    new.turn.step = "action"
    new.players[0].reserve = {"cotton": 1}
    assert_illegal(new, "painting", "R-TURN-2", painting="immigrants")


def test_only_displayed_paintings_can_be_taken__R_PAINT_1() -> None:
    st = fresh()
    assert "oca" not in st.display
    assert_illegal(st, "painting", "R-PAINT-1", painting="oca")
    with pytest.raises(RulesError) as exc:
        act(st, "painting", painting="mona_lisa")
    assert exc.value.rule == "R-PAINT-1"


def test_a_painting_must_be_paid__R_PAINT_1() -> None:
    st = fresh()
    assert_illegal(st, "painting", "R-VOC-2", painting="immigrants")


def test_one_shot_painting_effect__R_PAINT_1() -> None:
    st = fresh()
    i = st.display.index("guaicurus")
    st.display[i] = "amazonia"  # pink for pink: once, 1 science
    st.painting_decks["pink"].remove("amazonia")
    st.painting_decks["pink"].append("guaicurus")
    st.players[0].reserve = {"coffee": 1}
    new, ev = act_ev(st, "painting", painting="amazonia")
    assert new.players[0].reserve == {"science": 1}
    assert of(ev, "gain")[0].data["goods"] == {"science": 1}
    assert new.players[0].paintings == ["amazonia"]


# ------------------------------------------------------------------------ R-PAINT-2


def test_display_refilled_from_the_same_frame__R_PAINT_2() -> None:
    st = fresh()
    top = st.painting_decks["red"][-1]
    new, ev = act_ev(st, "painting", painting="quitandeiras")
    assert of(ev, "display")[0].data == {"painting": top}
    assert top in new.display
    assert len(new.display) == 6
    assert new.painting_decks["red"] == st.painting_decks["red"][:-1]
    assert CAT.paintings[top].frame == "red"


def test_empty_frame_deck_taker_chooses_another_deck__R_PAINT_2() -> None:
    st = fresh()
    st.painting_decks["red"] = []
    new, ev = act_ev(st, "painting", painting="quitandeiras")
    assert of(ev, "display") == []
    assert len(new.display) == 5
    d = new.pending[0]
    assert (d.seat, d.kind, sorted(d.data["choices"])) == (0, "choose_deck", ["blue", "pink"])
    assert {a.frame for a in legal_actions(new)} == {"pink", "blue"}
    assert_illegal(new, "choose_deck", "R-PAINT-2", frame="red")
    pink_top = new.painting_decks["pink"][-1]
    done = act(new, "choose_deck", frame="pink")
    assert pink_top in done.display and len(done.display) == 6
    assert done.painting_decks["pink"] == new.painting_decks["pink"][:-1]
    assert done.pending == []


def test_only_one_other_deck_left_is_used_at_once__R_PAINT_2() -> None:
    st = fresh()
    st.painting_decks["red"] = []
    st.painting_decks["pink"] = []
    blue_top = st.painting_decks["blue"][-1]
    new = act(st, "painting", painting="quitandeiras")
    assert new.pending == []
    assert blue_top in new.display and len(new.display) == 6


# ------------------------------------------------------------------------ R-PAINT-3


def upgraded_painting() -> GameState:
    st = fresh()
    st.players[0].upgrades["painting"] = "cloth"
    st.players[0].products.remove("cloth")
    return st


def test_upgraded_painting_one_resource_is_free__R_PAINT_3() -> None:
    st = upgraded_painting()
    assert CAT.paintings["immigrants"].cost == ["any"]
    assert is_legal(st, "painting", painting="immigrants")
    new, ev = act_ev(st, "painting", painting="immigrants")
    assert of(ev, "pay") == []
    assert new.players[0].paintings == ["immigrants"]


def test_upgraded_painting_one_gold_paid_with_a_resource__R_PAINT_3() -> None:
    st = upgraded_painting()
    assert CAT.paintings["machado_de_assis"].cost == ["gold"]
    st.players[0].reserve = {"coffee": 1}
    assert is_legal(st, "painting", painting="machado_de_assis")
    new, ev = act_ev(st, "painting", painting="machado_de_assis", payment=[R("coffee")])
    assert of(ev, "pay")[0].data["items"] == [R("coffee")]
    assert new.players[0].reserve == {}
    # gold still pays
    st.players[0].reserve = {"gold": 1}
    new = act(st, "painting", painting="machado_de_assis")
    assert new.players[0].reserve == {}


def test_not_upgraded_no_discount__R_PAINT_3() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 1}
    assert_illegal(st, "painting", "R-VOC-2", painting="machado_de_assis")
    st.players[0].reserve = {}
    assert_illegal(st, "painting", "R-VOC-2", painting="immigrants")


def test_upgraded_painting_other_costs_unchanged__R_PAINT_3() -> None:
    st = upgraded_painting()
    assert CAT.paintings["factory"].cost == ["any", "gold"]
    st.players[0].reserve = {"coffee": 1}
    assert_illegal(st, "painting", "R-VOC-2", painting="factory")
    st.players[0].reserve = {"coffee": 1, "gold": 1}
    _, ev = act_ev(st, "painting", painting="factory")
    assert sorted(i["what"] for i in of(ev, "pay")[0].data["items"]) == ["coffee", "gold"]


# ------------------------------------------------------------------------ R-PAINT-4


def test_production_painting_existing_buildings_produce_at_once__R_PAINT_4() -> None:
    st = fresh()
    put(st, 0, "farm", "C2", coffee=2)
    put(st, 0, "farm", "D3")
    put(st, 0, "sugar_field", "C4")
    put(st, 1, "farm", "G6")
    new, ev = act_ev(st, "painting", painting="quitandeiras")  # farms +1 coffee
    assert new.tiles["C2"].goods == {"coffee": 3}
    assert new.tiles["D3"].goods == {"coffee": 1}
    assert new.tiles["C4"].goods == {}
    assert new.tiles["G6"].goods == {}  # not blue's farm
    prod = {e.data["hex"]: e.data["goods"] for e in of(ev, "produce")}
    assert prod == {"C2": {"coffee": 1}, "D3": {"coffee": 1}}


def test_production_painting_applies_to_later_builds_and_renovations__R_PAINT_4() -> None:
    # scenario: take Quitandeiras, next turn build a farm, the turn after renovate one
    st = fresh()
    put(st, 0, "farm", "D3")
    st = act(st, "painting", painting="quitandeiras")
    st = act(st, "end_turn")
    st = act(st, "import", 1, crop="coffee")
    st = act(st, "end_turn", 1)
    st.players[0].reserve = {"brazilwood": 1, "sugar_cane": 1, "coffee": 1}
    st, ev = act_ev(st, "build", building="farm", at="C2")
    assert st.tiles["C2"].goods == {"coffee": 3}
    assert of(ev, "produce")[0].data["goods"] == {"coffee": 3}
    st = act(st, "end_turn")
    st = act(st, "trade", 1)
    st = act(st, "end_trade", 1)
    st = act(st, "end_turn", 1)
    st.tiles["D3"] = st.tiles["D3"].model_copy(update={"goods": {}})
    st, ev = act_ev(st, "renovate", at="D3", payment=[R("coffee")])
    assert st.tiles["D3"].goods == {"coffee": 3}


def test_production_painting_applies_to_a_flip__R_PAINT_4() -> None:
    st = fresh()
    put(st, 0, "sugar_field", "C4")
    st.players[0].paintings = ["quitandeiras"]
    st.players[0].reserve = {"cotton": 1}
    new = act(st, "renovate", at="C4", flip=True)
    assert new.tiles["C4"].id == "farm"
    assert new.tiles["C4"].goods == {"coffee": 3}


def test_pedro_ii_first_red_painting_gives_a_crop__R_PAINT_1() -> None:
    # The painting's effect applies at once; with Pedro II the reward is a crop of choice.
    st = start()
    new = act(st, "painting", painting="quitandeiras")
    assert new.pending[0].kind == "choose_good"
    assert set(new.pending[0].data["choices"]) == set(CROPS)
