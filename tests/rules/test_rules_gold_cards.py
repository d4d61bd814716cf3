"""Gold cards other than War (DATA.md "Gold cards"; free actions R-TURN-4).

End-scoring cards (Agriculture, Faith, In Hoc Signo Vinces, Frontier) are kept and scored by
``rules.brazil.scoring.score``; the others are played as free actions during your own turn.
Seat 0: green, capital C3; seat 1: blue, capital H6.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.brazil import (
    Event,
    GameState,
    NotYourDecision,
    view,
)
from rules.brazil.scoring import score
from tests.helpers import (
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


def holding(*cards: str, **goods: int) -> GameState:
    st = start()
    st.players[0].gold_cards = list(cards)
    st.players[0].reserve = dict(goods)
    return st


def play(st: GameState, card: str, **fields: Any) -> tuple[GameState, list[Event]]:
    return act_ev(st, "play_gold_card", card=card, **fields)


def end_vp(st: GameState, seat: int = 0) -> int:
    return int(score(st, seat)["categories"]["gold_cards"])


# ------------------------------------------------------------------------ end-scoring cards


def test_agriculture_more_farms_than_every_opponent() -> None:
    st = holding("agriculture")
    put(st, 0, "farm", "D3")
    put(st, 0, "farm", "C4")
    put(st, 1, "farm", "G6")
    assert end_vp(st) == 3
    del st.tiles["C4"]
    assert end_vp(st) == 0  # 1 farm each: not more


def test_agriculture_needs_a_farm() -> None:
    st = holding("agriculture")
    assert end_vp(st) == 0


def test_faith_more_churches_than_every_opponent() -> None:
    st = holding("faith")
    st.era = 3
    put(st, 0, "church", "D3")
    assert end_vp(st) == 3
    put(st, 1, "church", "G6")
    assert end_vp(st) == 0


def test_in_hoc_signo_vinces_three_combat_cards() -> None:
    st = holding("in_hoc_signo_vinces")
    st.players[0].combat_cards = ["militia", "ambush", "militia"]
    assert end_vp(st) == 3
    st.players[0].combat_cards.pop()
    assert end_vp(st) == 0


def test_frontier_city_within_three_hexes_of_an_opponents_capital() -> None:
    st = holding("frontier")
    put(st, 0, "vila_rica", "E6")  # 3 hexes from H6
    assert end_vp(st) == 3
    st2 = holding("frontier")
    put(st2, 0, "vila_rica", "D6")  # 4 hexes
    assert end_vp(st2) == 0


def test_frontier_needs_a_city_you_founded() -> None:
    # DATA.md: "keep once you have founded a city within 3 hexes of an opponent's capital".
    st = holding("frontier")
    put(st, 1, "olinda", "G5")  # seat 1's city, 2 hexes from its own capital
    place_unit(st, 0, "archer1", "G5")  # seat 0 occupies it but did not found it
    assert end_vp(st) == 0


@pytest.mark.parametrize("card", ["agriculture", "faith", "in_hoc_signo_vinces", "frontier"])
def test_end_cards_are_not_played(card: str) -> None:
    st = holding(card)
    assert_illegal(st, "play_gold_card", "R-TURN-4", card=card)


def test_gold_cards_are_secret() -> None:
    st = holding("agriculture", "jesuits")
    assert view(st, 1).players[0].gold_cards == ["?", "?"]
    assert view(st, 0).players[0].gold_cards == ["agriculture", "jesuits"]


# ------------------------------------------------------------------------ free-action rules


def test_a_card_not_held_cannot_be_played() -> None:
    st = holding("jesuits", gold=1, coffee=2)
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="immigration", at="D3")


def test_gold_cards_only_in_your_own_turn() -> None:
    st = start()
    st.players[1].gold_cards = ["discovery"]
    st.players[1].reserve = {"coffee": 1}
    before = st.model_dump()
    assert not is_legal(st, "play_gold_card", 1, card="discovery", give=["coffee"])
    with pytest.raises(NotYourDecision) as exc:
        act(st, "play_gold_card", 1, card="discovery", give=["coffee"])
    assert exc.value.rule == "R-TURN-1"
    assert st.model_dump() == before


def test_gold_cards_in_any_step_of_the_turn() -> None:
    # R-TURN-4: free actions at any time of your turn: trade step and movement phase too.
    st = holding("discovery", coffee=1)
    trading = act(st, "trade")
    assert trading.turn.step == "trade"
    assert act(trading, "play_gold_card", card="discovery", give=["coffee"]).players[0].reserve == {
        "science": 1
    }
    moving = to_movement(holding("discovery", coffee=1), "import")
    assert is_legal(moving, "play_gold_card", card="discovery", give=["coffee"])


# ------------------------------------------------------------------------ Jesuits


def test_jesuits_builds_a_church_in_any_era() -> None:
    st = holding("jesuits", gold=1, coffee=2)
    assert st.era == 1
    assert is_legal(st, "play_gold_card", card="jesuits", at="D3")
    new, ev = play(st, "jesuits", at="D3")
    assert new.tiles["D3"].id == "church" and new.tiles["D3"].owner == 0
    assert new.tiles["D3"].goods == {"gold": 1, "science": 1}
    assert new.players[0].reserve == {}
    assert new.players[0].gold_cards == [] and new.gold_discard[-1] == "jesuits"
    assert kinds(ev)[:3] == ["gold_card", "pay", "build"]
    # a free action: the turn's action is still to be taken
    assert new.turn.step == "action" and not new.turn.action_done
    # a Build action could not build a church in era I
    st2 = holding(gold=1, coffee=2)
    assert_illegal(st2, "build", "R-BUILD-2", building="church", at="D3")


def test_jesuits_church_follows_placement_rules() -> None:
    st = holding("jesuits", gold=1, coffee=2)
    assert_illegal(st, "play_gold_card", "R-BUILD-4", card="jesuits", at="E5")


def test_jesuits_card_cannot_pay_for_itself() -> None:
    st = holding("jesuits", coffee=2)  # the card itself would be the gold
    assert_illegal(st, "play_gold_card", "R-VOC-2", card="jesuits", at="D3")
    st2 = holding("jesuits", "espionage", coffee=2)  # another gold card pays as 1 gold
    new, _ = act_listed(st2, "play_gold_card", card="jesuits", at="D3")
    assert new.tiles["D3"].id == "church"
    assert new.players[0].gold_cards == []


def test_jesuits_church_renovated_only_in_era_III() -> None:
    st = holding("jesuits", gold=1, coffee=2)
    st = act(st, "play_gold_card", card="jesuits", at="D3")
    st.tiles["D3"] = st.tiles["D3"].model_copy(update={"goods": {}})
    st.players[0].reserve = {"coffee": 1}
    assert_illegal(st, "renovate", "R-RENOV-1", at="D3")
    st.era = 3
    new = act(st, "renovate", at="D3")
    assert new.tiles["D3"].goods == {"gold": 1, "science": 1}


# ------------------------------------------------------------------------ Immigration


def test_immigration_builds_a_farm() -> None:
    st = to_movement(holding("immigration", brazilwood=1, sugar_cane=1), "import")
    new, _ = play(st, "immigration", at="D3")
    assert new.tiles["D3"].id == "farm"
    assert new.tiles["D3"].goods == {"coffee": 2}
    assert new.players[0].reserve == {}
    assert new.gold_discard[-1] == "immigration"


def test_immigration_farm_needs_a_plain() -> None:
    st = holding("immigration", brazilwood=1, sugar_cane=1)
    assert_illegal(st, "play_gold_card", "R-BUILD-3", card="immigration", at="B3")


# ------------------------------------------------------------------------ Mercenaries


def test_mercenaries_deploys_a_basic_unit_paying_its_cost() -> None:
    st = holding("mercenaries", coffee=1)
    assert is_legal(st, "play_gold_card", card="mercenaries", unit="archer1", to="C3")
    new, ev = play(st, "mercenaries", unit="archer1", to="C3")
    assert new.players[0].units["archer1"] == "C3"
    assert new.players[0].reserve == {}
    assert [e.data for e in ev if e.kind == "deploy"] == [
        {"unit": "archer1", "hex": "C3", "first": True}
    ]
    assert score(new, 0)["categories"]["units"] == 2


def test_mercenaries_not_for_other_units() -> None:
    st = holding("mercenaries", brazilwood=1, coffee=1)
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="mercenaries", unit="dragoon", to="C3")


def test_mercenaries_only_for_a_first_deployment() -> None:
    # Engine reading of "paying its cost if it is its first deployment" (see report).
    st = holding("mercenaries", coffee=1)
    st.players[0].units["archer1"] = "reserve"
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="mercenaries", unit="archer1", to="C3")


# ------------------------------------------------------------------------ Coronation


def test_coronation_deploys_the_monarch_paying_its_cost() -> None:
    st = holding("coronation", gold=1, sugar_cane=1)
    new, _ = play(st, "coronation", unit="monarch", to="C3")
    assert new.players[0].units["monarch"] == "C3"
    assert new.players[0].reserve == {}


def test_coronation_redeploys_the_monarch_for_free() -> None:
    st = holding("coronation")
    st.players[0].units["monarch"] = "reserve"
    new, ev = play(st, "coronation", unit="monarch", to="C3")
    assert new.players[0].units["monarch"] == "C3"
    assert "pay" not in kinds(ev)


def test_coronation_only_the_monarch() -> None:
    st = holding("coronation", coffee=1)
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="coronation", unit="archer1", to="C3")


# ------------------------------------------------------------------------ Industry


def test_industry_manufactures_a_product_paying_its_cost() -> None:
    st = holding("industry", brazilwood=1, coffee=1)
    new, _ = play(st, "industry", product="dye", to="import")
    assert new.players[0].upgrades == {"import": "dye"}
    assert "dye" not in new.players[0].products
    assert new.players[0].reserve == {}
    assert new.turn.step == "action"  # not the Manufacture action


def test_industry_respects_the_slot_shape() -> None:
    st = holding("industry", brazilwood=1, coffee=1)
    assert_illegal(st, "play_gold_card", "R-MANUF-3", card="industry", product="dye", to="painting")


# ------------------------------------------------------------------------ exchanges


def test_discovery_one_resource_for_one_science() -> None:
    st = holding("discovery", cotton=1)
    new, ev = play(st, "discovery", give=["cotton"])
    assert new.players[0].reserve == {"science": 1}
    assert [e.data for e in ev if e.kind == "gain"] == [{"goods": {"science": 1}}]


def test_discovery_takes_a_crop_you_have() -> None:
    st = holding("discovery", gold=1, cotton=1)
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="discovery", give=["gold"])
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="discovery", give=["coffee"])


def test_pau_brasil_two_brazilwood_for_gold_and_science() -> None:
    st = holding("pau_brasil", brazilwood=2)
    new, _ = play(st, "pau_brasil", give=["brazilwood", "brazilwood"])
    assert new.players[0].reserve == {"gold": 1, "science": 1}


def test_pau_brasil_brazilwood_may_come_from_a_building() -> None:
    st = holding("pau_brasil", brazilwood=1)
    put(st, 0, "sawmill", "B3", brazilwood=2)
    new, _ = play(st, "pau_brasil", give=["brazilwood", "brazilwood"])
    total = new.players[0].reserve.get("brazilwood", 0) + new.tiles["B3"].goods.get("brazilwood", 0)
    assert total == 1
    assert new.players[0].reserve.get("gold") == 1


def test_pau_brasil_only_brazilwood() -> None:
    st = holding("pau_brasil", brazilwood=1, coffee=1)
    assert_illegal(
        st, "play_gold_card", "R-TURN-4", card="pau_brasil", give=["brazilwood", "coffee"]
    )
    st2 = holding("pau_brasil", brazilwood=1, gold=1)  # gold does not stand in
    assert_illegal(
        st2, "play_gold_card", "R-TURN-4", card="pau_brasil", give=["brazilwood", "brazilwood"]
    )


def test_commerce_two_resources_for_three_gold() -> None:
    st = holding("commerce", coffee=1, cotton=1)
    assert is_legal(st, "play_gold_card", card="commerce", give=["coffee", "cotton"])
    new, _ = play(st, "commerce", give=["coffee", "cotton"])
    assert new.players[0].reserve == {"gold": 3}


def test_commerce_needs_two_resources() -> None:
    st = holding("commerce", coffee=1, gold=1)
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="commerce", give=["coffee", "gold"])


# ------------------------------------------------------------------------ Espionage


def test_espionage_shows_an_opponents_hands_to_you_only() -> None:
    st = holding("espionage")
    opp = st.players[1]
    opp.gold_cards = ["faith"]
    opp.combat_cards = ["ambush", "militia"]
    new, ev = play(st, "espionage", target=1)
    public = [e for e in ev if e.kind == "espionage"]
    private = [e for e in ev if e.kind == "espionage_private"]
    assert public[0].visible_to is None and public[0].data == {"target": 1}
    assert private[0].visible_to == (0,)
    assert private[0].data["gold_cards"] == ["faith"]
    assert private[0].data["combat_cards"] == ["ambush", "militia"]
    assert private[0].data["missions"] == list(opp.missions)
    assert new.players[0].seen["1"] == ["faith", "ambush", "militia", *opp.missions]
    assert view(new, 1).players[0].seen == {}
    assert view(new, 0).players[0].seen == new.players[0].seen


def test_espionage_needs_an_opponent() -> None:
    st = holding("espionage")
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="espionage", target=0)


# ------------------------------------------------------------------------ Veterans


def test_veterans_returns_a_unit_for_gold_and_science() -> None:
    st = holding("veterans")
    place_unit(st, 0, "dragoon", "D4")
    new, ev = play(st, "veterans", unit="dragoon")
    assert new.players[0].units["dragoon"] == "reserve"
    assert new.players[0].reserve == {"gold": 1, "science": 1}
    assert [e.data for e in ev if e.kind == "veterans"] == [{"unit": "dragoon"}]
    assert score(new, 0)["categories"]["units"] == 3  # it was deployed: it still scores


def test_veterans_needs_a_unit_on_the_map() -> None:
    st = holding("veterans")
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="veterans", unit="dragoon")
    st.players[0].units["dragoon"] = "reserve"
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="veterans", unit="dragoon")
