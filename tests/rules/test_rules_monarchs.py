"""Monarch powers (RULES.md §11 and R-MONARCH-1).

Seat 0 plays from its capital C3. Forest hexes next to its empire, chained: B3 (next to C3),
A2 (next to B3), A1 and B1 (next to A2). Plains next to C3: D3, C4, C2.
"""

from __future__ import annotations

from rules.brazil import Event, GameState, legal_actions
from rules.brazil.scoring import score, tile_vp
from rules.brazil.state import Turn
from tests.helpers import (
    act,
    act_ev,
    act_listed,
    assert_illegal,
    explore,
    is_legal,
    kinds,
    place_unit,
    put,
    start,
    to_movement,
)


def new_turn(st: GameState) -> GameState:
    """Back to the action phase of seat 0 with a fresh token (a later turn, for tests)."""
    st.turn = Turn()
    st.players[0].token_arch = None
    return st


def build(st: GameState, side: str, at: str, **goods: int) -> tuple[GameState, list[Event]]:
    """Seat 0 builds ``side`` at ``at`` in a new turn, given exactly ``goods`` to pay with."""
    st = new_turn(st)
    st.players[0].reserve = dict(goods)
    return act_ev(st, "build", building=side, at=at)


# ------------------------------------------------------------------------ Manuel I, R-MONARCH-1


def test_manuel_i_first_three_sawmills__R_MONARCH_1() -> None:
    st = start(colours=("orange", "blue"), monarchs=("manuel_i", "queen_victoria"))
    for i, at in enumerate(["B3", "A2", "A1"], start=1):
        st, ev = build(st, "sawmill", at, coffee=1)
        assert st.tiles[at].special is True
        assert st.tiles[at].goods == {"brazilwood": 2, "gold": 1}
        assert tile_vp(st, at) == 2
        assert "monarch_power" in kinds(ev)
        assert st.players[0].counters["override:sawmill"] == i
    st, ev = build(st, "sawmill", "B1", coffee=1)  # the fourth is an ordinary sawmill
    assert st.tiles["B1"].special is False
    assert st.tiles["B1"].goods == {"brazilwood": 2}
    assert tile_vp(st, "B1") == 1
    assert "monarch_power" not in kinds(ev)
    assert score(st, 0)["categories"]["buildings"] == 2 + 2 + 2 + 1


def test_manuel_i_special_sawmill_produces_on_renovation__R_MONARCH_1() -> None:
    st = start(colours=("orange", "blue"), monarchs=("manuel_i", "queen_victoria"))
    st, _ = build(st, "sawmill", "B3", coffee=1)
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"goods": {}})
    st = new_turn(st)
    st.players[0].reserve = {"coffee": 1}
    new = act(st, "renovate", at="B3")
    assert new.tiles["B3"].goods == {"brazilwood": 2, "gold": 1}


def test_manuel_i_flipping_creates_a_counted_sawmill__R_MONARCH_1() -> None:
    # "First 3" counts sawmills built or created by flipping, in order.
    st = start(colours=("orange", "blue"), monarchs=("manuel_i", "queen_victoria"))
    put(st, 0, "trading_post", "B3")  # placed directly: not built as a sawmill
    st = new_turn(st)
    st.players[0].reserve = {"coffee": 1}
    new, ev = act_ev(st, "renovate", at="B3", flip=True)
    assert new.tiles["B3"].id == "sawmill"
    assert new.tiles["B3"].special is True
    assert new.tiles["B3"].goods == {"brazilwood": 2, "gold": 1}
    assert new.players[0].counters["override:sawmill"] == 1
    assert "monarch_power" in kinds(ev)


def test_manuel_i_flipped_away_sawmill_loses_its_power__R_MONARCH_1() -> None:
    st = start(colours=("orange", "blue"), monarchs=("manuel_i", "queen_victoria"))
    st, _ = build(st, "sawmill", "B3", coffee=1)
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"goods": {}})
    st = new_turn(st)
    st.players[0].reserve = {"coffee": 1}
    new = act(st, "renovate", at="B3", flip=True)
    assert new.tiles["B3"].id == "trading_post"
    assert new.tiles["B3"].special is False
    assert new.tiles["B3"].goods == {"brazilwood": 1, "gold": 1}
    assert tile_vp(new, "B3") == 2  # an ordinary trading post


def test_manuel_i_stacks_with_guarani__R_MONARCH_1() -> None:
    # DATA.md: monarch values replace the tile's, painting bonuses add to them.
    st = start(colours=("orange", "blue"), monarchs=("manuel_i", "queen_victoria"))
    st.players[0].paintings = ["guarani"]
    st, _ = build(st, "sawmill", "B3", coffee=1)
    assert st.tiles["B3"].goods == {"brazilwood": 3, "gold": 1}


def test_manuel_i_special_sawmill_with_a_river_basin__R_MONARCH_1() -> None:
    # The special production applies whenever the tile produces: +1 of its crop now, and
    # 2 + 1 brazilwood + 1 gold when renovated next to the basin.
    st = start(colours=("orange", "blue"), monarchs=("manuel_i", "queen_victoria"))
    st, _ = build(st, "sawmill", "B3", coffee=1)
    assert st.tiles["B3"].special
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"goods": {}})
    explore(st, "A3", "river_basin")  # A3 is next to B3 (a plain hex, a fog tile for the test)
    place_unit(st, 0, "corsair1", "A4")
    st = to_movement(st, "import")
    st = act(st, "move", unit="corsair1", to="A3")
    assert st.tiles["B3"].goods == {"brazilwood": 1}
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"goods": {}})
    st = new_turn(st)
    st.players[0].reserve = {"coffee": 1}
    new = act(st, "renovate", at="B3")
    assert new.tiles["B3"].goods == {"brazilwood": 3, "gold": 1}


def test_other_monarch_sawmills_are_ordinary__R_MONARCH_1() -> None:
    st = start(colours=("orange", "blue"), monarchs=("maurice_of_nassau", "queen_victoria"))
    st, _ = build(st, "sawmill", "B3", coffee=1)
    assert st.tiles["B3"].special is False
    assert st.tiles["B3"].goods == {"brazilwood": 2}


# ------------------------------------------------------------------------ Maurice of Nassau


def test_maurice_of_nassau_first_three_sugar_fields__R_MONARCH_1() -> None:
    st = start(colours=("orange", "blue"), monarchs=("maurice_of_nassau", "queen_victoria"))
    for at in ("D3", "C4", "C2"):
        st, _ = build(st, "sugar_field", at, brazilwood=1)
        assert st.tiles[at].goods == {"sugar_cane": 3}
        assert tile_vp(st, at) == 3
    st, _ = build(st, "sugar_field", "D4", brazilwood=1)
    assert st.tiles["D4"].goods == {"sugar_cane": 2}
    assert tile_vp(st, "D4") == 1
    assert score(st, 0)["categories"]["buildings"] == 10


# ------------------------------------------------------------------------ Isabella I of Castile


def test_isabella_i_first_three_trading_posts__R_MONARCH_1() -> None:
    st = start(colours=("red", "blue"), monarchs=("isabella_i", "queen_victoria"))
    for at in ("B3", "A2", "A1"):
        st, _ = build(st, "trading_post", at, brazilwood=1, sugar_cane=1)
        assert st.tiles[at].goods == {"brazilwood": 1, "gold": 2}
        assert tile_vp(st, at) == 3
    st, _ = build(st, "trading_post", "B1", brazilwood=1, sugar_cane=1)
    assert st.tiles["B1"].goods == {"brazilwood": 1, "gold": 1}
    assert tile_vp(st, "B1") == 2


def test_isabella_i_flipped_sawmill_becomes_special__R_MONARCH_1() -> None:
    st = start(colours=("red", "blue"), monarchs=("isabella_i", "queen_victoria"))
    st, _ = build(st, "sawmill", "B3", coffee=1)
    assert st.tiles["B3"].special is False
    st.tiles["B3"] = st.tiles["B3"].model_copy(update={"goods": {}})
    st = new_turn(st)
    st.players[0].reserve = {"coffee": 1}
    new = act(st, "renovate", at="B3", flip=True)
    assert new.tiles["B3"].special is True
    assert new.tiles["B3"].goods == {"brazilwood": 1, "gold": 2}


# ------------------------------------------------------------------------ Pedro II


def take(st: GameState, painting: str, **goods: int) -> tuple[GameState, list[Event]]:
    st = new_turn(st)
    for g, n in goods.items():
        st.players[0].reserve[g] = st.players[0].reserve.get(g, 0) + n
    if painting not in st.display:
        st.display.append(painting)
    return act_ev(st, "painting", painting=painting)


def test_pedro_ii_first_red_painting_gives_a_resource_of_choice() -> None:
    st = start(monarchs=("pedro_ii", "queen_victoria"))
    st, ev = take(st, "guarani")
    assert [(d.seat, d.kind) for d in st.pending] == [(0, "choose_good")]
    assert {a.good for a in legal_actions(st, 0)} == {
        "sugar_cane",
        "coffee",
        "brazilwood",
        "cotton",
    }
    st = act(st, "choose_good", good="cotton")
    assert st.players[0].reserve == {"cotton": 1}
    # the second red painting gives nothing
    st, ev = take(st, "oca")
    assert st.pending == []
    assert "gain" not in kinds(ev)


def test_pedro_ii_first_pink_gold_first_blue_science() -> None:
    st = start(monarchs=("pedro_ii", "queen_victoria"))
    st, ev = take(st, "guaicurus", coffee=1)
    assert st.players[0].reserve == {"gold": 1}
    assert [e.data for e in ev if e.kind == "gain"] == [{"goods": {"gold": 1}}]
    st, ev = take(st, "coroados", coffee=1)
    assert st.players[0].reserve == {"gold": 1, "science": 1}
    assert [e.data for e in ev if e.kind == "gain"] == [{"goods": {"science": 1}}]
    st, _ = take(st, "dragao_do_mar", coffee=1)  # second pink: nothing
    assert st.players[0].reserve == {"gold": 1, "science": 1}


def test_without_pedro_ii_no_painting_bonus() -> None:
    st = start(monarchs=("dom_oba_ii", "queen_victoria"))
    st, _ = take(st, "guarani")
    assert st.pending == [] and st.players[0].reserve == {}


# ------------------------------------------------------------------------ Dom Obá II


def test_dom_oba_ii_first_two_missions_give_science_and_vp() -> None:
    st = start(monarchs=("dom_oba_ii", "queen_victoria"))
    st.era = 3  # past eras' missions: no era change
    put(st, 0, "sawmill", "B3")
    put(st, 0, "sawmill", "A2")
    put(st, 0, "sugar_field", "D3")
    put(st, 0, "farm", "C2")
    st.players[0].paintings = ["guarani", "oca"]
    st.players[0].palaces = []  # no palace decisions in the way
    st.players[0].missions = ["I-1", "I-2", "I-4"]
    st, ev = act_ev(st, "reveal_mission", mission="I-1")
    assert st.players[0].reserve == {"science": 1}
    assert {"goods": {"science": 1}} in [e.data for e in ev if e.kind == "gain"]
    st = act(st, "reveal_mission", mission="I-2")
    assert st.players[0].reserve == {"science": 2}
    assert score(st, 0)["categories"]["monarch"] == 2
    st, ev = act_ev(st, "reveal_mission", mission="I-4")
    assert st.players[0].reserve == {"science": 2}
    assert "gain" not in kinds(ev)
    assert score(st, 0)["categories"]["monarch"] == 2
    assert score(st, 0)["categories"]["missions"] == 3


# ------------------------------------------------------------------------ Afonso I


def afonso(*cards: str) -> GameState:
    st = start(colours=("red", "blue"), monarchs=("afonso_i", "queen_victoria"))
    st.players[0].combat_cards = list(cards)
    return st


def test_afonso_i_one_combat_card_as_one_gold() -> None:
    st = afonso("militia")
    st.display.append("duque_de_caxias")
    assert is_legal(st, "painting", painting="duque_de_caxias")
    new, _ = act_listed(st, "painting", painting="duque_de_caxias")
    assert "duque_de_caxias" in new.players[0].paintings
    assert new.players[0].combat_cards == []
    assert new.combat_discard[-1] == "militia"


def test_afonso_i_two_combat_cards_as_two_resources() -> None:
    st = afonso("militia", "ambush")
    new, _ = act_listed(
        st, "recruit", deploy=[{"unit": "templar1", "to": "C3"}]
    )  # brazilwood + any
    assert new.players[0].units["templar1"] == "C3"
    assert new.players[0].combat_cards == []


def test_afonso_i_three_combat_cards_as_science_and_gold() -> None:
    st = afonso("militia", "ambush", "reinforcements")
    st.players[0].reserve = {"coffee": 2}
    # the coffee product: 2 coffee + 1 gold + 1 science
    new, _ = act_listed(st, "manufacture", product="coffee", to="recruit")
    assert new.players[0].upgrades == {"recruit": "coffee"}
    assert new.players[0].combat_cards == [] and new.players[0].reserve == {}


def test_afonso_i_one_option_per_payment() -> None:
    # A church (1 gold + 2 resources) would need option 1 and option 2 together.
    st = afonso("militia", "ambush", "reinforcements", "militia")
    st.era = 3
    assert_illegal(st, "build", "R-VOC-2", building="church", at="D3")
    st.players[0].combat_cards = ["militia", "ambush"]
    st.players[0].reserve = {"gold": 1}
    new, _ = act_listed(st, "build", building="church", at="D3")
    assert new.tiles["D3"].id == "church"
    assert new.players[0].combat_cards == []


def test_without_afonso_i_combat_cards_do_not_pay() -> None:
    st = start(colours=("red", "blue"), monarchs=("isabella_i", "queen_victoria"))
    st.players[0].combat_cards = ["militia"]
    st.display.append("duque_de_caxias")
    assert_illegal(st, "painting", "R-VOC-2", painting="duque_de_caxias")


# ------------------------------------------------------------------------ Pedro I


def recruit(st: GameState, unit: str) -> tuple[GameState, list[Event]]:
    st = new_turn(st)
    return act_ev(st, "recruit", deploy=[{"unit": unit, "to": "C3"}])


def test_pedro_i_archer_and_cannon_give_a_resource_of_choice() -> None:
    st = start(monarchs=("pedro_i", "queen_victoria"))
    st.players[0].reserve = {"coffee": 1}
    st, _ = recruit(st, "archer1")
    assert [d.kind for d in st.pending] == ["choose_good"]
    st = act(st, "choose_good", good="brazilwood")
    assert st.players[0].reserve == {"brazilwood": 1}
    st.players[0].reserve = {"gold": 1, "brazilwood": 1, "cotton": 1}
    st, _ = recruit(st, "cannon")
    assert [d.kind for d in st.pending] == ["choose_good"]


def test_pedro_i_monarch_and_dragoon_give_a_gold_card() -> None:
    st = start(monarchs=("pedro_i", "queen_victoria"))
    st.players[0].reserve = {"gold": 1, "sugar_cane": 1}
    top = st.gold_deck[-1]
    st, ev = recruit(st, "monarch")
    assert st.players[0].gold_cards == [top]
    assert st.pending == []
    st.players[0].reserve = {"brazilwood": 1, "coffee": 1}
    st, ev = recruit(st, "dragoon")
    assert len(st.players[0].gold_cards) == 2
    assert "draw_gold" in kinds(ev)


def test_pedro_i_redeployment_gives_nothing() -> None:
    st = start(monarchs=("pedro_i", "queen_victoria"))
    st.players[0].units["dragoon"] = "reserve"  # deployed before, then defeated
    st, ev = recruit(st, "dragoon")
    assert st.players[0].units["dragoon"] == "C3"
    assert st.players[0].gold_cards == [] and st.pending == []
    assert [e.data["first"] for e in ev if e.kind == "deploy"] == [False]


# ------------------------------------------------------------------------ Tibiriçá


def test_tibirica_first_three_forest_builds() -> None:
    st = start(monarchs=("tibirica", "queen_victoria"))
    st, _ = build(st, "sawmill", "B3", coffee=1)
    assert [d.kind for d in st.pending] == ["choose_good"]
    st = act(st, "choose_good", good="coffee")
    assert st.players[0].reserve == {"coffee": 1}
    st, _ = build(st, "sawmill", "A2", coffee=1)
    assert st.players[0].reserve == {"gold": 1}
    st, _ = build(st, "sawmill", "A1", coffee=1)
    assert st.players[0].reserve == {"science": 1}
    st, _ = build(st, "sawmill", "B1", coffee=1)
    assert st.players[0].reserve == {} and st.pending == []
    assert st.players[0].counters["tibirica"] == 3


def test_tibirica_plain_builds_do_not_count() -> None:
    st = start(monarchs=("tibirica", "queen_victoria"))
    st, _ = build(st, "sugar_field", "D3", brazilwood=1)
    assert st.players[0].reserve == {} and st.pending == []
    assert "tibirica" not in st.players[0].counters
    st, _ = build(st, "sawmill", "B3", coffee=1)
    assert [d.kind for d in st.pending] == ["choose_good"]  # still the first reward


def test_tibirica_city_on_forest_counts() -> None:
    st = start(monarchs=("tibirica", "queen_victoria"))
    st.era = 2
    place_unit(st, 0, "monarch", "E3")  # a forest
    city = st.city_piles[0][-1]
    st.players[0].reserve = {"gold": 2, "science": 1, "coffee": 2}
    new = act(st, "build", building=city, at="E3")
    assert new.tiles["E3"].kind == "city"
    assert [d.kind for d in new.pending] == ["choose_good"]


# ------------------------------------------------------------------------ Napoleon


def napoleon() -> GameState:
    return start(colours=("blue", "green"), monarchs=("napoleon", "pedro_ii"))


def test_napoleon_first_recruit_draws_an_extra_combat_card() -> None:
    st = napoleon()
    deck = list(st.combat_deck)
    st, _ = act_ev(st, "recruit", draw=1)
    assert st.players[0].combat_cards == [deck[-1], deck[-2]]
    st.players[0].combat_cards = []
    st = new_turn(st)
    st = act(st, "recruit", draw=1)
    assert len(st.players[0].combat_cards) == 1


def test_napoleon_extra_card_even_when_only_deploying() -> None:
    st = napoleon()
    st.players[0].reserve = {"coffee": 1}
    new = act(st, "recruit", deploy=[{"unit": "brawler1", "to": "C3"}])
    assert len(new.players[0].combat_cards) == 1


def test_napoleon_combat_card_pays_as_a_resource() -> None:
    st = napoleon()
    st.players[0].combat_cards = ["militia"]
    top = st.combat_deck[-1]
    new, _ = act_listed(st, "recruit", deploy=[{"unit": "brawler1", "to": "C3"}])  # 1 any resource
    assert new.players[0].units["brawler1"] == "C3"
    assert new.players[0].combat_cards == [top]  # militia spent; the first-Recruit extra card
    assert new.combat_discard == ["militia"]


def test_napoleon_two_combat_cards_pay_as_a_science() -> None:
    st = napoleon()
    st.players[0].combat_cards = ["militia"]
    st.display.append("duque_de_caxias")  # 1 gold: one card (a resource) is not enough
    assert_illegal(st, "painting", "R-VOC-2", painting="duque_de_caxias")
    st.players[0].combat_cards = ["militia", "ambush"]
    new, _ = act_listed(st, "painting", painting="duque_de_caxias")  # 2 cards = 1 science = 1 gold
    assert new.players[0].combat_cards == []


def test_napoleon_card_payments_mix() -> None:
    # Blue cannon: 2 gold + 1 cotton = 1 gold from the reserve, 2 cards (science), 1 card.
    st = napoleon()
    st.players[0].combat_cards = ["militia", "ambush", "reinforcements"]
    st.players[0].reserve = {"gold": 1}
    new, _ = act_listed(st, "recruit", deploy=[{"unit": "cannon", "to": "C3"}])
    assert new.players[0].units["cannon"] == "C3"
    assert new.players[0].reserve == {}
    # the 3 cards were spent before the action's own extra card is drawn (R-RECRUIT-5)
    assert len(new.players[0].combat_cards) == 1


# ------------------------------------------------------------------------ Queen Victoria


def victoria() -> GameState:
    return start(colours=("blue", "green"), monarchs=("queen_victoria", "pedro_ii"))


def test_queen_victoria_product_on_her_tile_gives_science_and_vp() -> None:
    st = victoria()
    st.players[0].reserve = {"brazilwood": 1, "coffee": 1}
    assert is_legal(st, "manufacture", product="dye", to="victoria")
    new, ev = act_ev(st, "manufacture", product="dye", to="victoria")
    p = new.players[0]
    assert p.victoria == ["dye"] and p.upgrades == {}
    assert p.reserve == {"science": 1}
    assert [e.data for e in ev if e.kind == "manufacture"] == [{"product": "dye", "to": "victoria"}]
    cats = score(new, 0)["categories"]
    assert cats["monarch"] == 1 and cats["products"] == 2


def test_queen_victoria_holds_three_products_at_most() -> None:
    st = victoria()
    st.players[0].victoria = ["sugar", "cloth", "cocoa"]
    st.players[0].products = ["dye", "coffee", "rubber"]
    st.players[0].reserve = {"brazilwood": 1, "coffee": 1}
    assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to="victoria")
    assert score(st, 0)["categories"]["monarch"] == 3


def test_without_queen_victoria_no_tile() -> None:
    st = start(colours=("blue", "green"), monarchs=("napoleon", "pedro_ii"))
    st.players[0].reserve = {"brazilwood": 1, "coffee": 1}
    assert_illegal(st, "manufacture", "R-MANUF-3", product="dye", to="victoria")
