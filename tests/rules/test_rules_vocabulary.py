"""Components and vocabulary (RULES.md §1: R-VOC-1..8): crops and elements, payment
substitution, cost icons, the reserve and hand limits, goods on buildings, the empire, VP/FP.

Test map ``test-duel`` (tests/data/pack): seat 0 (green) has its capital at C3, seat 1 (blue)
at H6. Around C3: B3 forest, B4 gold mine, C2 D3 C4 B2 plains; A2 and E3 are forests.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations
from typing import Any

import pytest

from rules.brazil import (
    Event,
    GameState,
    NotYourDecision,
    RulesError,
    deciders,
    legal_actions,
    score,
)
from rules.brazil.actions import PayItem
from rules.brazil.catalog import CROPS, get_catalog
from rules.brazil.payment import PayContext, check_payment, find_payment
from rules.brazil.state import Player
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
    to_movement,
)

CAT = get_catalog(PACK)


# tests.helpers.act names its action-type parameter ``kind``, which clashes with the ``kind``
# field of some actions (exchange, move); these short-hands take the type as ``atype``.
def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def paid(events: list[Event]) -> list[dict[str, str]]:
    pays = of(events, "pay")
    assert len(pays) == 1, events
    return list(pays[0].data["items"])


def R(what: str) -> dict[str, str]:
    return {"source": "reserve", "what": what}


def fresh(**kw: Any) -> GameState:
    """The fixed position with Dom Obá II for green (no painting bonus to interfere)."""
    kw.setdefault("monarchs", ("dom_oba_ii", "queen_victoria"))
    return start(**kw)


# ------------------------------------------------------------------------ R-VOC-1


def test_resource_of_choice_offers_the_four_crops_only__R_VOC_1() -> None:
    st = start()  # Pedro II: the first red painting gives 1 resource of choice
    st.players[0].reserve = {}
    st = act(st, "painting", painting="quitandeiras")
    assert st.pending[0].kind == "choose_good"
    opts = legal_actions(st, 0)
    assert {a.good for a in opts} == set(CROPS)
    assert len(opts) == 4
    for element in ("gold", "science"):
        assert_illegal(st, "choose_good", "R-VOC-1", good=element)
    new, ev = act_ev(st, "choose_good", good="cotton")
    assert new.players[0].reserve == {"cotton": 1}
    assert of(ev, "gain")[0].data["goods"] == {"cotton": 1}


def test_resource_in_a_trade_means_a_crop__R_VOC_1() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 2, "science": 1}
    st = act(st, "trade")
    for element in ("gold", "science"):
        assert not is_legal(st, "exchange", kind="gold", give=[element])
        assert_illegal(st, "exchange", "R-TRADE-2", kind="gold", give=[element])
    assert CROPS == ("sugar_cane", "coffee", "brazilwood", "cotton")


# ------------------------------------------------------------------------ R-VOC-2


def test_gold_pays_for_a_crop__R_VOC_2() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 1}
    assert is_legal(st, "build", building="sawmill", at="B3")  # costs sugar cane or coffee
    new, ev = act_ev(st, "build", building="sawmill", at="B3")
    assert paid(ev) == [R("gold")]
    assert new.players[0].reserve == {}
    assert new.tiles["B3"].id == "sawmill"


def test_science_pays_for_gold__R_VOC_2() -> None:
    st = fresh()
    st.players[0].reserve = {"science": 1}
    assert "machado_de_assis" in st.display  # costs 1 gold
    assert is_legal(st, "painting", painting="machado_de_assis")
    new, ev = act_listed(st, "painting", painting="machado_de_assis")
    assert paid(ev) == [R("science")]
    assert new.players[0].reserve == {}
    assert "machado_de_assis" in new.players[0].paintings


def test_science_pays_for_a_resource__R_VOC_2() -> None:
    st = fresh()
    st.players[0].reserve = {"science": 1}
    # an archer costs 1 any resource
    new, ev = act_ev(
        st, "recruit", deploy=[{"unit": "archer1", "to": "C3"}], payment=[R("science")]
    )
    assert paid(ev) == [R("science")]
    assert new.players[0].units["archer1"] == "C3"
    assert new.players[0].reserve == {}


def test_gold_card_pays_as_one_gold_and_is_discarded__R_VOC_2() -> None:
    st = fresh()
    st.players[0].gold_cards = ["veterans"]
    assert is_legal(st, "painting", painting="machado_de_assis")
    new, ev = act_ev(
        st,
        "painting",
        painting="machado_de_assis",
        payment=[{"source": "gold_card", "what": "veterans"}],
    )
    assert paid(ev) == [{"source": "gold_card", "what": "veterans"}]
    assert new.players[0].gold_cards == []
    assert new.gold_discard[-1] == "veterans"
    # the card is never spent by default (docs/RULINGS.md): the listed action carries it
    err = assert_illegal(st, "painting", "R-VOC-2", listed=True, painting="machado_de_assis")
    assert "choose how to pay" in err.message
    new2, ev2 = act_listed(st, "painting", painting="machado_de_assis")
    assert paid(ev2) == [{"source": "gold_card", "what": "veterans"}]
    assert new2.players[0].gold_cards == []


def test_a_crop_cannot_pay_for_gold__R_VOC_2() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 2, "cotton": 2}
    assert_illegal(st, "painting", "R-VOC-2", painting="machado_de_assis")
    assert_illegal(
        st, "painting", "R-VOC-2", listed=True, painting="machado_de_assis", payment=[R("coffee")]
    )


def test_gold_cannot_pay_for_science__R_VOC_2() -> None:
    st = fresh()
    st.display[st.display.index("factory")] = "isabel_of_brazil"  # costs 1 science
    st.painting_decks["blue"].remove("isabel_of_brazil")
    st.players[0].reserve = {"gold": 3, "coffee": 1}
    st.players[0].gold_cards = ["veterans"]
    assert_illegal(st, "painting", "R-VOC-2", painting="isabel_of_brazil")
    st.players[0].reserve["science"] = 1
    _, ev = act_ev(st, "painting", painting="isabel_of_brazil")
    assert paid(ev) == [R("science")]


def test_overpaying_or_paying_wrong_items_is_rejected__R_VOC_2() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 1, "sugar_cane": 1, "brazilwood": 1}
    assert is_legal(st, "build", building="sawmill", at="B3")
    # two items for a cost of one
    assert_illegal(
        st,
        "build",
        "R-VOC-2",
        listed=True,
        building="sawmill",
        at="B3",
        payment=[R("coffee"), R("sugar_cane")],
    )
    # nothing for a cost of one
    assert_illegal(st, "build", "R-VOC-2", listed=True, building="sawmill", at="B3", payment=[])
    # an item the cost does not accept
    assert_illegal(
        st, "build", "R-VOC-2", listed=True, building="sawmill", at="B3", payment=[R("brazilwood")]
    )
    # an item the player does not have
    err = assert_illegal(
        st, "build", "R-VOC-6", listed=True, building="sawmill", at="B3", payment=[R("gold")]
    )
    assert "gold" in err.message


def test_supply_of_goods_is_unlimited__R_VOC_2() -> None:
    # Only building tiles are counted in the supply: goods never run out.
    st = fresh()
    assert set(st.supply) == set(CAT.buildings)
    for seat in (0, 1):
        for _ in range(5):
            st.current = seat
            st.players[seat].token_arch = None
            st.turn.step = "action"
            st = act(st, "import", crop="coffee")
        assert st.players[seat].reserve == {"coffee": 5}


TOKENS = [*CROPS, "gold", "science", "any", "sugar_cane|coffee"]


def accepts(token: str, item: str, build_upgrade: bool) -> bool:
    """The substitution table of RULES.md, written out independently of the engine."""
    wanted = set(CROPS) if token == "any" else set(token.split("|"))
    if item in CROPS:
        gives = set(CROPS) if build_upgrade else {item}  # R-BUILD-8
    elif item == "gold":
        gives = {"gold", *CROPS}  # R-VOC-2: gold pays for any resource
    else:
        gives = {"science", "gold", *CROPS}  # R-VOC-2: science pays for gold or any resource
    return bool(wanted & gives)


def pays(cost: list[str], items: list[str], build_upgrade: bool) -> bool:
    return len(cost) == len(items) and any(
        all(accepts(t, i, build_upgrade) for t, i in zip(cost, perm, strict=True))
        for perm in permutations(items)
    )


def test_explicit_payments_follow_the_substitution_table__R_VOC_2() -> None:
    # R-VOC-3, R-BUILD-8: random costs and reserve payments against the table above
    rng = random.Random(2024)
    st = fresh()
    goods = [*CROPS, "gold", "science"]
    for _ in range(400):
        res: dict[str, int] = {}
        for g in rng.choices(goods, k=rng.randint(0, 5)):
            res[g] = res.get(g, 0) + 1
        st.players[0].reserve = res
        cost = rng.choices(TOKENS, k=rng.randint(1, 4))
        up = rng.random() < 0.3
        ctx = PayContext(any_crop_for_crop=up)
        pool = [g for g, n in res.items() for _ in range(n)]
        items = rng.sample(pool, rng.randint(0, len(pool)))
        try:
            check_payment(st, 0, cost, [PayItem("reserve", i) for i in items], ctx)
            accepted = True
        except RulesError:
            accepted = False
        assert accepted == pays(cost, items, up), (cost, items, up)
        possible = any(pays(cost, list(c), up) for c in set(combinations(sorted(pool), len(cost))))
        found = find_payment(st, 0, cost, ctx)
        assert (found is not None) == possible, (cost, res, up)
        if found is not None:
            assert pays(cost, [i.what for i in found], up)


# ------------------------------------------------------------------------ R-VOC-3


@pytest.mark.parametrize("crop", ["sugar_cane", "coffee"])
def test_either_or_icon_accepts_both_crops__R_VOC_3(crop: str) -> None:
    st = fresh()
    st.players[0].reserve = {crop: 1}
    assert is_legal(st, "build", building="sawmill", at="B3")
    new, ev = act_ev(st, "build", building="sawmill", at="B3", payment=[R(crop)])
    assert paid(ev) == [R(crop)]
    assert new.players[0].reserve == {}


@pytest.mark.parametrize("crop", ["brazilwood", "cotton"])
def test_either_or_icon_rejects_other_crops__R_VOC_3(crop: str) -> None:
    st = fresh()
    st.players[0].reserve = {crop: 2}
    assert_illegal(st, "build", "R-VOC-2", building="sawmill", at="B3")
    assert_illegal(
        st, "build", "R-VOC-2", listed=True, building="sawmill", at="B3", payment=[R(crop)]
    )


@pytest.mark.parametrize("crop", CROPS)
def test_any_resource_icon_accepts_every_crop__R_VOC_3(crop: str) -> None:
    st = fresh()
    st.players[0].reserve = {crop: 1}
    assert is_legal(st, "recruit", deploy=[{"unit": "archer1", "to": "C3"}])
    new, ev = act_ev(st, "recruit", deploy=[{"unit": "archer1", "to": "C3"}], payment=[R(crop)])
    assert paid(ev) == [R(crop)]
    assert new.players[0].units["archer1"] == "C3"


# ------------------------------------------------------------------------ R-VOC-4


def test_gain_over_five_makes_the_owner_discard_first__R_VOC_4() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 3, "cotton": 2}
    new = act(st, "import", crop="coffee")
    assert new.players[0].reserve == {"gold": 3, "cotton": 2, "coffee": 1}
    assert new.pending[0].seat == 0 and new.pending[0].kind == "discard"
    assert deciders(new) == [0]
    # nothing else before the discard: not the movement, not a gold card, not the other seat
    for atype, fields in (("end_turn", {}), ("move", {"unit": "archer1", "to": "D3"})):
        before = new.model_dump()
        with pytest.raises(NotYourDecision) as exc:
            act(new, atype, 0, **fields)
        assert exc.value.rule == "R-VOC-4"
        assert new.model_dump() == before
    with pytest.raises(RulesError):
        act(new, "import", 1, crop="coffee")
    # exactly the one-item discards are offered
    opts = legal_actions(new)
    assert {a.goods for a in opts} == {("gold",), ("cotton",), ("coffee",)}
    assert all(a.type == "discard" for a in opts)


@pytest.mark.parametrize("drop", ["coffee", "gold"])
def test_discard_the_new_item_or_an_older_one__R_VOC_4(drop: str) -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 5}
    st = act(st, "import", crop="coffee")
    new, ev = act_ev(st, "discard", goods=[drop])
    expected = {"gold": 5} if drop == "coffee" else {"gold": 4, "coffee": 1}
    assert new.players[0].reserve == expected
    assert of(ev, "discard")[0].data == {"goods": [drop]}
    assert new.pending == []
    assert sum(new.players[0].reserve.values()) == 5


def test_discard_must_be_exact_and_from_the_reserve__R_VOC_4() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 5}
    put(st, 0, "sawmill", "B3", brazilwood=2)
    st = act(st, "import", crop="coffee")
    assert_illegal(st, "discard", "R-VOC-4", goods=["gold", "gold"])
    assert_illegal(st, "discard", "R-VOC-4", goods=[])
    assert_illegal(st, "discard", "R-VOC-4", goods=["cotton"])
    # goods on a building are not in the reserve (R-VOC-6)
    assert_illegal(st, "discard", "R-VOC-4", goods=["brazilwood"])


def test_exactly_five_needs_no_discard__R_VOC_4() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 4}
    new = act(st, "import", crop="coffee")
    assert new.pending == []
    assert new.players[0].reserve == {"gold": 4, "coffee": 1}


def test_defeated_units_in_the_reserve_do_not_count__R_VOC_4() -> None:
    st = fresh()
    st.players[0].reserve = {"gold": 4}
    st.players[0].units["archer1"] = "reserve"
    st.players[0].units["cannon"] = "reserve"
    new = act(st, "import", crop="coffee")
    assert new.pending == []
    new = act(new, "end_turn")
    assert new.current == 1


# ------------------------------------------------------------------------ R-VOC-5


def test_fourth_gold_card_must_be_discarded__R_VOC_5() -> None:
    st = fresh()
    st.players[0].upgrades["import"] = "dye"  # upgraded Import draws a gold card
    st.players[0].products.remove("dye")
    st.players[0].gold_cards = ["veterans", "discovery", "commerce"]
    new = act(st, "import", crop="coffee")
    assert len(new.players[0].gold_cards) == 4
    drawn = new.players[0].gold_cards[-1]
    d = new.pending[0]
    assert (d.seat, d.kind, d.data["deck"]) == (0, "discard_cards", "gold")
    assert deciders(new) == [0]
    opts = legal_actions(new)
    assert all(a.type == "discard_cards" and a.deck == "gold" for a in opts)
    assert {a.cards for a in opts} == {(c,) for c in new.players[0].gold_cards}
    # wrong deck, wrong count, card not held
    assert_illegal(new, "discard_cards", "R-VOC-5", deck="combat", cards=[drawn])
    assert_illegal(new, "discard_cards", "R-VOC-5", deck="gold", cards=["veterans", "discovery"])
    assert_illegal(new, "discard_cards", "R-VOC-5", deck="gold", cards=["war"])
    # the discarded card has no effect: it goes to the discard pile, nothing is gained
    done, ev2 = act_ev(new, "discard_cards", deck="gold", cards=["veterans"])
    assert sorted(done.players[0].gold_cards) == sorted(["discovery", "commerce", drawn])
    assert done.gold_discard[-1] == "veterans"
    assert done.players[0].reserve == new.players[0].reserve
    assert done.pending == []
    assert kinds_of(ev2) == ["discard_cards"]


def kinds_of(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def test_fourth_combat_card_must_be_discarded__R_VOC_5() -> None:
    st = fresh()
    st.players[0].combat_cards = ["militia", "ambush", "militia"]
    new = act(st, "recruit", draw=1)
    assert len(new.players[0].combat_cards) == 4
    d = new.pending[0]
    assert (d.seat, d.kind, d.data["deck"]) == (0, "discard_cards", "combat")
    with pytest.raises(NotYourDecision) as exc:
        act(new, "end_turn", 0)
    assert exc.value.rule == "R-VOC-5"
    drawn = new.players[0].combat_cards[-1]
    done = act(new, "discard_cards", deck="combat", cards=[drawn])
    assert done.players[0].combat_cards == ["militia", "ambush", "militia"]
    assert done.combat_discard[-1] == drawn
    assert done.pending == []


def test_mission_cards_have_no_hand_limit__R_VOC_5() -> None:
    st = fresh()
    st.players[0].missions = ["I-1", "I-2", "I-3", "II-1", "II-2", "III-1"]
    st.players[0].gold_cards = ["veterans", "discovery", "commerce"]
    st.players[0].combat_cards = ["militia", "ambush", "militia"]
    new = act(st, "import", crop="coffee")
    assert new.pending == []
    assert len(new.players[0].missions) == 6


# ------------------------------------------------------------------------ R-VOC-6


def test_production_stays_on_the_building__R_VOC_6() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 1}
    new = act(st, "build", building="sawmill", at="B3")
    assert new.tiles["B3"].goods == {"brazilwood": 2}
    assert new.players[0].reserve == {}


def test_goods_on_your_building_can_be_spent__R_VOC_6() -> None:
    st = fresh()
    put(st, 0, "sawmill", "B3", brazilwood=2)
    assert is_legal(st, "build", building="sugar_field", at="C2")  # costs 1 brazilwood
    new, ev = act_ev(
        st,
        "build",
        building="sugar_field",
        at="C2",
        payment=[{"source": "B3", "what": "brazilwood"}],
    )
    assert paid(ev) == [{"source": "B3", "what": "brazilwood"}]
    assert new.tiles["B3"].goods == {"brazilwood": 1}
    assert new.players[0].reserve == {}
    # more than the tile holds, or what it does not hold
    assert_illegal(
        st,
        "build",
        "R-VOC-6",
        listed=True,
        building="sugar_field",
        at="C2",
        payment=[{"source": "B3", "what": "sugar_cane"}],
    )


def test_goods_on_an_opponents_building_cannot_be_spent__R_VOC_6() -> None:
    st = fresh()
    put(st, 1, "farm", "G6", coffee=2)
    assert_illegal(st, "build", "R-VOC-2", building="sawmill", at="B3")
    assert_illegal(
        st,
        "build",
        "R-VOC-6",
        building="sawmill",
        at="B3",
        payment=[{"source": "G6", "what": "coffee"}],
    )


def test_the_occupier_spends_the_goods_not_the_builder__R_VOC_6() -> None:
    st = fresh()
    put(st, 1, "farm", "G6", coffee=2)
    place_unit(st, 0, "archer1", "G6")  # green occupies blue's farm
    new, ev = act_ev(st, "build", building="sawmill", at="B3")
    assert paid(ev) == [{"source": "G6", "what": "coffee"}]
    assert new.tiles["G6"].goods == {"coffee": 1}
    # blue, the builder, can no longer spend them
    st.current = 1
    st.players[1].token_arch = None
    assert_illegal(
        st,
        "build",
        "R-VOC-6",
        seat=1,
        listed=True,
        building="sugar_field",
        at="H7",
        payment=[{"source": "G6", "what": "coffee"}],
    )


def test_goods_never_move_between_tile_and_reserve__R_VOC_6() -> None:
    # Renovating and trading take goods from the tile; nothing moves them to the reserve.
    st = fresh()
    put(st, 0, "sawmill", "B3", brazilwood=2)
    st = act(st, "trade")
    new = act(st, "exchange", kind="gold", give=["brazilwood"])
    assert new.tiles["B3"].goods == {"brazilwood": 1}
    assert new.players[0].reserve == {"gold": 1}  # the gold received, not the brazilwood
    assert "brazilwood" not in new.players[0].reserve


# ------------------------------------------------------------------------ R-VOC-7


def occupied_d3() -> GameState:
    """Green's sugar-cane field at D3 is occupied by a blue brawler."""
    st = fresh()
    put(st, 0, "sugar_field", "D3")
    place_unit(st, 1, "brawler1", "D3")
    return st


def test_occupied_building_still_extends_the_builders_empire__R_VOC_7() -> None:
    st = occupied_d3()
    st.players[0].reserve = {"coffee": 1}
    # E3 (forest) touches D3 only, not the capital C3
    assert "C3" not in CAT.boards["test-duel"].neighbours["E3"]
    assert is_legal(st, "build", building="sawmill", at="E3")
    new = act(st, "build", building="sawmill", at="E3")
    assert new.tiles["E3"].owner == 0


def test_occupier_cannot_build_next_to_the_occupied_building__R_VOC_7() -> None:
    st = occupied_d3()
    st.current = 1
    put(st, 1, "sugar_field", "E4")
    st.players[1].reserve = {"brazilwood": 2}
    # D4 touches blue's E4 and green's occupied D3 (not green's capital)
    assert "C3" not in CAT.boards["test-duel"].neighbours["D4"]
    assert_illegal(st, "build", "R-BUILD-4", seat=1, building="sugar_field", at="D4")
    # E5 touches E4 but not D3: fine
    assert is_legal(st, "build", 1, building="sugar_field", at="E5")
    new = act(st, "build", 1, building="sugar_field", at="E5")
    assert new.tiles["E5"].owner == 1


def test_occupier_controls_and_scores_the_tile__R_VOC_7() -> None:
    st = occupied_d3()
    assert score(st, 1)["categories"]["buildings"] == CAT.sides["sugar_field"].vp
    assert score(st, 0)["categories"]["buildings"] == 0
    st.players[1].units["brawler1"] = "board"
    assert score(st, 0)["categories"]["buildings"] == CAT.sides["sugar_field"].vp


# ------------------------------------------------------------------------ R-VOC-8


def test_no_score_track_in_the_state__R_VOC_8() -> None:
    st = fresh()
    for fields in (GameState.model_fields, Player.model_fields):
        assert not [f for f in fields if "vp" in f.lower() or "score" in f.lower()]
    assert st.result is None
    # VP exist only as the end count of what one has
    st.players[0].reserve = {"coffee": 1}
    new = act(st, "build", building="sawmill", at="B3")
    assert new.result is None
    assert score(new, 0)["categories"]["buildings"] == CAT.sides["sawmill"].vp


def battle(st: GameState) -> list[Event]:
    """Both sides commit no cards; returns the events of the resolution."""
    events: list[Event] = []
    while st.combat is not None or st.pending:
        d = st.pending[0]
        assert d.kind == "combat_cards"
        st, ev = act_ev(st, "commit_cards", d.seat)
        events += ev
    return events


def test_unit_fp_equals_its_vp__R_VOC_8() -> None:
    st = fresh()
    place_unit(st, 0, "cannon", "D5")
    place_unit(st, 1, "brawler1", "E5")
    st = to_movement(st, "recruit")
    st, ev = act_ev(st, "move", unit="cannon", to="E5", kind="free")
    assert of(ev, "battle")
    res = battle(st)
    r = of(res, "battle_result")[0].data
    assert r["attacker_fp"] == CAT.units["green.cannon"].vp == 4
    assert r["defender_fp"] == CAT.units["blue.brawler1"].vp == 2


def test_building_fp_equals_its_vp__R_VOC_8() -> None:
    st = fresh()
    put(st, 1, "farm", "E5")
    place_unit(st, 0, "archer1", "D5")
    st = to_movement(st, "recruit")
    st, _ = act_ev(st, "move", unit="archer1", to="E5", kind="free")
    r = of(battle(st), "battle_result")[0].data
    assert r["attacker_fp"] == CAT.units["green.archer1"].vp
    assert r["defender_fp"] == CAT.sides["farm"].vp
