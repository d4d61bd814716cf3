"""The Import and Trade actions (RULES.md §4: R-IMPORT-1..2, R-TRADE-1..3), and a short
scenario from the fixed setup: build a sawmill next to the capital, trade its production,
renovate it.

Test map ``test-duel``: seat 0 (green) has its capital at C3 (B3 next to it is a forest),
seat 1 (blue) at H6.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from rules.brazil import Event, GameState, RulesError, legal_actions
from rules.brazil.catalog import CROPS
from tests.helpers import act, act_ev, assert_illegal, is_legal, place_unit, put, start


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def R(what: str) -> dict[str, str]:
    return {"source": "reserve", "what": what}


def fresh(**goods: int) -> GameState:
    st = start(monarchs=("dom_oba_ii", "queen_victoria"))
    st.players[0].reserve = dict(goods)
    return st


def trading(**goods: int) -> GameState:
    """Seat 0 has chosen Trade and may now make exchanges."""
    st = act(fresh(**goods), "trade")
    assert st.turn.step == "trade"
    return st


def exchanges(st: GameState) -> set[tuple[str, tuple[str, ...]]]:
    return {(a.kind, a.give) for a in legal_actions(st) if a.type == "exchange"}


# ------------------------------------------------------------------------ R-IMPORT-1


@pytest.mark.parametrize("crop", CROPS)
def test_import_one_crop_of_choice__R_IMPORT_1(crop: str) -> None:
    st = fresh(gold=1)
    assert is_legal(st, "import", crop=crop)
    new, ev = act_ev(st, "import", crop=crop)
    assert [e.kind for e in ev] == ["action", "gain"]
    assert of(ev, "gain")[0].data["goods"] == {crop: 1}
    assert new.players[0].reserve == {"gold": 1, crop: 1}
    assert new.players[0].gold_cards == []  # not upgraded: no card
    assert new.players[0].token_arch == "import"
    assert new.turn.step == "movement"


@pytest.mark.parametrize("what", ["gold", "science", "tobacco"])
def test_import_only_crops__R_IMPORT_1(what: str) -> None:
    st = fresh()
    assert {a.crop for a in legal_actions(st) if a.type == "import"} == set(CROPS)
    assert_illegal(st, "import", "R-IMPORT-1", crop=what)


def test_import_reserve_limit_applies__R_IMPORT_1() -> None:
    st = fresh(cotton=5)
    new = act(st, "import", crop="coffee")
    assert new.players[0].reserve == {"cotton": 5, "coffee": 1}
    assert [(d.seat, d.kind) for d in new.pending] == [(0, "discard")]
    done = act(new, "discard", goods=["coffee"])
    assert done.players[0].reserve == {"cotton": 5}


# ------------------------------------------------------------------------ R-IMPORT-2


def upgraded_import(**goods: int) -> GameState:
    st = fresh(**goods)
    st.players[0].upgrades["import"] = "dye"
    st.players[0].products.remove("dye")
    return st


def test_upgraded_import_also_draws_a_gold_card__R_IMPORT_2() -> None:
    st = upgraded_import()
    top = st.gold_deck[-1]
    new, ev = act_ev(st, "import", crop="cotton")
    assert new.players[0].reserve == {"cotton": 1}
    assert new.players[0].gold_cards == [top]
    assert new.gold_deck == st.gold_deck[:-1]
    assert of(ev, "draw_gold")[0].data == {"count": 1}
    private = of(ev, "draw_gold_private")[0]
    assert private.visible_to == (0,) and private.data["cards"] == [top]


def test_upgraded_import_hand_limit_applies__R_IMPORT_2() -> None:
    st = upgraded_import()
    st.players[0].gold_cards = ["veterans", "discovery", "commerce"]
    new = act(st, "import", crop="cotton")
    assert len(new.players[0].gold_cards) == 4
    assert new.pending[0].kind == "discard_cards"


# ------------------------------------------------------------------------ R-TRADE-1


def test_one_resource_for_one_gold__R_TRADE_1() -> None:
    st = trading(sugar_cane=1, brazilwood=1)
    assert exchanges(st) == {("gold", ("sugar_cane",)), ("gold", ("brazilwood",))}
    new, ev = act_ev(st, "exchange", kind="gold", give=["sugar_cane"])
    assert new.players[0].reserve == {"brazilwood": 1, "gold": 1}
    assert of(ev, "pay")[0].data["items"] == [R("sugar_cane")]
    assert of(ev, "gain")[0].data["goods"] == {"gold": 1}
    assert new.players[0].gold_cards == []
    assert new.turn.step == "trade"  # more exchanges may follow


@pytest.mark.parametrize("pair", [("cotton", "cotton"), ("coffee", "coffee"), ("coffee", "cotton")])
def test_cotton_coffee_pair_for_two_gold_and_a_card__R_TRADE_1(pair: tuple[str, str]) -> None:
    st = trading(cotton=2, coffee=2)
    assert ("pair", pair) in exchanges(st)
    top = st.gold_deck[-1]
    new = act(st, "exchange", kind="pair", give=list(pair))
    left = {"cotton": 2, "coffee": 2}
    for c in pair:
        left[c] -= 1
    assert new.players[0].reserve == {**{k: v for k, v in left.items() if v}, "gold": 2}
    assert new.players[0].gold_cards == [top]


def test_four_resources_for_gold_science_and_a_card__R_TRADE_1() -> None:
    st = trading(cotton=1, coffee=1, sugar_cane=1, brazilwood=1)
    fours = {g for k, g in exchanges(st) if k == "four"}
    assert fours == {("sugar_cane", "coffee", "brazilwood", "cotton")}
    new = act(st, "exchange", kind="four", give=["cotton", "coffee", "sugar_cane", "brazilwood"])
    assert new.players[0].reserve == {"gold": 1, "science": 1}
    assert len(new.players[0].gold_cards) == 1


def test_two_combat_cards_for_gold_and_a_card__R_TRADE_1() -> None:
    st = trading()
    st.players[0].combat_cards = ["militia", "ambush", "parley"]
    assert ("cards", ("ambush", "militia")) in exchanges(st)
    new = act(st, "exchange", kind="cards", give=["militia", "ambush"])
    assert new.players[0].combat_cards == ["parley"]
    assert new.combat_discard == ["militia", "ambush"]
    assert new.players[0].reserve == {"gold": 1}
    assert len(new.players[0].gold_cards) == 1
    assert_illegal(new, "exchange", "R-TRADE-1", kind="cards", give=["militia", "parley"])


def test_exchanges_are_repeatable_then_end_trade__R_TRADE_1() -> None:
    st = trading(cotton=4, coffee=1)
    st = act(st, "exchange", kind="gold", give=["cotton"])
    st = act(st, "exchange", kind="gold", give=["cotton"])
    st = act(st, "exchange", kind="pair", give=["cotton", "coffee"])
    st = act(st, "exchange", kind="gold", give=["cotton"])
    assert st.players[0].reserve == {"gold": 5}
    assert len(st.players[0].gold_cards) == 1
    assert exchanges(st) == set()
    assert is_legal(st, "end_trade")
    st = act(st, "end_trade")
    assert st.turn.step == "movement" and st.players[0].token_arch == "trade"
    assert_illegal(st, "exchange", "R-TRADE-1", kind="gold", give=["cotton"])


def test_trade_with_no_exchange_at_all__R_TRADE_1() -> None:
    st = trading()
    assert exchanges(st) == set()
    new = act(st, "end_trade")
    assert new.turn.step == "movement"


def test_exchange_only_during_a_trade__R_TRADE_1() -> None:
    st = fresh(cotton=1)
    assert_illegal(st, "exchange", "R-TRADE-1", kind="gold", give=["cotton"])


def test_exchange_takes_the_right_number_of_items__R_TRADE_1() -> None:
    st = trading(cotton=3, coffee=2)
    for kind, give in (
        ("gold", ["cotton", "cotton"]),
        ("pair", ["cotton"]),
        ("four", ["cotton"] * 3),
    ):
        before = st.model_dump()
        with pytest.raises(RulesError) as exc:
            act(st, "exchange", kind=kind, give=give)
        assert exc.value.rule == "R-TRADE-1"
        assert st.model_dump() == before


def test_listed_four_exchanges_are_all_held_combinations__R_TRADE_1() -> None:
    st = trading(cotton=2, coffee=2, sugar_cane=1)
    fours = {g for k, g in exchanges(st) if k == "four"}
    have = {"cotton": 2, "coffee": 2, "sugar_cane": 1}
    expect = {
        combo
        for combo in combinations_with_replacement(CROPS, 4)
        if all(combo.count(c) <= have.get(c, 0) for c in CROPS)
    }
    assert fours == expect and len(fours) == 3


# ------------------------------------------------------------------------ R-TRADE-2


def test_gold_cannot_stand_in_for_cotton_or_coffee__R_TRADE_2() -> None:
    st = trading(cotton=1, gold=3, science=1)
    assert not any(k == "pair" for k, _ in exchanges(st))
    assert_illegal(st, "exchange", "R-TRADE-2", kind="pair", give=["cotton", "gold"])
    assert_illegal(
        st,
        "exchange",
        "R-TRADE-3",
        kind="pair",
        give=["cotton", "coffee"],
    )
    assert_illegal(
        st,
        "exchange",
        "R-VOC-6",
        listed=True,
        kind="gold",
        give=["cotton"],
        payment=[R("gold")],
    )


def test_pair_exchange_needs_cotton_or_coffee__R_TRADE_2() -> None:
    st = trading(sugar_cane=2, brazilwood=2)
    assert_illegal(st, "exchange", "R-TRADE-2", kind="pair", give=["sugar_cane", "sugar_cane"])
    assert_illegal(st, "exchange", "R-TRADE-2", kind="pair", give=["brazilwood", "sugar_cane"])


def test_elements_cannot_be_given_as_resources__R_TRADE_2() -> None:
    st = trading(gold=1, science=1, coffee=2)
    assert_illegal(st, "exchange", "R-TRADE-2", kind="gold", give=["science"])
    assert_illegal(
        st, "exchange", "R-TRADE-2", kind="four", give=["gold", "science", "coffee", "coffee"]
    )


def test_dragao_do_mar_does_not_widen_trade__R_TRADE_2() -> None:
    st = trading(cotton=1, gold=1)
    st.players[0].paintings = ["dragao_do_mar"]  # cotton may pay as gold elsewhere
    assert_illegal(st, "exchange", "R-TRADE-3", kind="pair", give=["coffee", "cotton"])


# ------------------------------------------------------------------------ R-TRADE-3


def test_resources_from_buildings_you_control__R_TRADE_3() -> None:
    st = trading()
    put(st, 0, "sawmill", "B3", brazilwood=2)
    assert ("gold", ("brazilwood",)) in exchanges(st)
    new, ev = act_ev(
        st,
        "exchange",
        kind="gold",
        give=["brazilwood"],
        payment=[{"source": "B3", "what": "brazilwood"}],
    )
    assert new.tiles["B3"].goods == {"brazilwood": 1}
    assert new.players[0].reserve == {"gold": 1}  # received goes to the reserve
    assert of(ev, "pay")[0].data["items"] == [{"source": "B3", "what": "brazilwood"}]


def test_mixed_sources_in_one_exchange__R_TRADE_3() -> None:
    st = trading(coffee=1)
    put(st, 0, "farm", "C2", coffee=1)
    put(st, 0, "sawmill", "B3", brazilwood=2)
    st.players[0].reserve["sugar_cane"] = 1
    give = ["coffee", "coffee", "brazilwood", "sugar_cane"]
    assert ("four", ("sugar_cane", "coffee", "coffee", "brazilwood")) in exchanges(st)
    new = act(
        st,
        "exchange",
        kind="four",
        give=give,
        payment=[
            R("coffee"),
            {"source": "C2", "what": "coffee"},
            {"source": "B3", "what": "brazilwood"},
            R("sugar_cane"),
        ],
    )
    assert new.tiles["C2"].goods == {}
    assert new.tiles["B3"].goods == {"brazilwood": 1}
    assert new.players[0].reserve == {"gold": 1, "science": 1}


def test_not_from_buildings_you_do_not_control__R_TRADE_3() -> None:
    st = trading()
    put(st, 1, "farm", "G6", coffee=2)
    put(st, 0, "sawmill", "B3", brazilwood=2)
    place_unit(st, 1, "brawler1", "B3")  # blue occupies green's sawmill
    assert exchanges(st) == set()
    assert_illegal(st, "exchange", "R-TRADE-3", kind="gold", give=["coffee"])
    assert_illegal(st, "exchange", "R-TRADE-3", kind="gold", give=["brazilwood"])
    # an occupier trades the goods of the building it occupies
    place_unit(st, 0, "archer1", "G6")
    new = act(st, "exchange", kind="gold", give=["coffee"])
    assert new.tiles["G6"].goods == {"coffee": 1}
    assert new.players[0].reserve == {"gold": 1}


def test_limits_apply_after_each_exchange__R_TRADE_3() -> None:
    st = trading(gold=5)
    put(st, 0, "sawmill", "B3", brazilwood=2)
    st = act(st, "exchange", kind="gold", give=["brazilwood"])
    assert st.players[0].reserve == {"gold": 6}
    assert [(d.seat, d.kind) for d in st.pending] == [(0, "discard")]
    # the discard comes before the next exchange
    with pytest.raises(RulesError) as exc:
        act(st, "exchange", kind="gold", give=["brazilwood"])
    assert exc.value.rule == "R-VOC-4"
    st = act(st, "discard", goods=["gold"])
    assert st.turn.step == "trade"
    st = act(st, "exchange", kind="gold", give=["brazilwood"])
    assert st.players[0].reserve == {"gold": 6}
    assert st.pending[0].kind == "discard"


def test_hand_limit_after_an_exchange__R_TRADE_3() -> None:
    st = trading(cotton=2)
    st.players[0].gold_cards = ["veterans", "discovery", "commerce"]
    st = act(st, "exchange", kind="pair", give=["cotton", "cotton"])
    assert len(st.players[0].gold_cards) == 4
    assert st.pending[0].kind == "discard_cards" and st.pending[0].data["deck"] == "gold"


def test_wrong_explicit_source_rejected__R_TRADE_3() -> None:
    st = trading(coffee=1)
    put(st, 0, "sawmill", "B3", brazilwood=1)
    assert_illegal(
        st,
        "exchange",
        "R-VOC-2",
        listed=True,
        kind="gold",
        give=["coffee"],
        payment=[{"source": "B3", "what": "brazilwood"}],
    )


# ------------------------------------------------------------------------ scenario


def test_sawmill_scenario_build_trade_renovate__R_TRADE_3() -> None:
    # R-BUILD-5, R-VOC-6, R-RENOV-1: from the fixed setup, three turns of green.
    st = fresh(coffee=2)
    # turn 1: a sawmill next to the capital
    st, ev = act_ev(st, "build", building="sawmill", at="B3")
    assert of(ev, "produce")[0].data == {"hex": "B3", "goods": {"brazilwood": 2}}
    assert st.tiles["B3"].goods == {"brazilwood": 2}
    assert st.players[0].reserve == {"coffee": 1}
    st = act(st, "end_turn")
    st = act(st, "import", 1, crop="cotton")
    st = act(st, "end_turn", 1)
    # turn 2: trade the sawmill's production (not renovatable while goods lie on it)
    assert_illegal(st, "renovate", "R-RENOV-3", at="B3")
    st = act(st, "trade")
    st = act(st, "exchange", kind="gold", give=["brazilwood"])
    st = act(st, "exchange", kind="gold", give=["brazilwood"])
    assert st.tiles["B3"].goods == {}
    assert st.players[0].reserve == {"coffee": 1, "gold": 2}
    st = act(st, "end_trade")
    st = act(st, "end_turn")
    st = act(st, "trade", 1)
    st = act(st, "end_trade", 1)
    st = act(st, "end_turn", 1)
    # turn 3: renovate the empty sawmill, paying the coffee
    assert is_legal(st, "renovate", at="B3")
    st = act(st, "renovate", at="B3", payment=[R("coffee")])
    assert st.tiles["B3"].goods == {"brazilwood": 2}
    assert st.players[0].reserve == {"gold": 2}
    assert st.round == 3
