"""Payments: the safe default (R-VOC-2, R-VOC-6, R-END-2, docs/RULINGS.md "Default payment"),
one lot builder for the default and explicit paths, and the step-by-step chooser
(rules.brazil.paying: cost_of, default_payment, payment_step)."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest

from rules.brazil import (
    IllegalAction,
    InvalidAction,
    PayItem,
    apply,
    cost_of,
    default_payment,
    legal_actions,
    new_game,
    parse_action,
    payment_note,
    payment_step,
)
from rules.brazil.payment import PayContext, check_payment, find_payment
from rules.brazil.state import GameState
from tests.helpers import act_ev, assert_illegal, is_legal, listed, put, start


def fresh(**kw: Any) -> GameState:
    kw.setdefault("monarchs", ("dom_oba_ii", "queen_victoria"))
    return start(**kw)


def R(what: str) -> PayItem:
    return PayItem("reserve", what)


SAWMILL = {"building": "sawmill", "at": "B3"}  # costs 1 sugar cane or coffee


# ------------------------------------------------------------------ defect 5: safe default


def test_default_never_spends_a_scoring_gold_card__R_VOC_2_R_END_2() -> None:
    # Agriculture scores 3 VP at the end: paying with it must be the player's choice.
    st = fresh()
    st.players[0].gold_cards = ["agriculture"]
    before = st.model_dump_json()
    err = assert_illegal(st, "build", "R-VOC-2", listed=True, **SAWMILL)
    assert "choose how to pay" in err.message and "gold card" in err.message
    assert st.model_dump_json() == before
    a = parse_action({"type": "build", "seat": 0, **SAWMILL})
    assert default_payment(st, a) is None
    # listed with the explicit payment, which applies and spends exactly that
    la = listed(st, "build", **SAWMILL)
    assert la.payment == (PayItem("gold_card", "agriculture"),)
    new, _ = apply(st, la)
    assert new.players[0].gold_cards == [] and new.tiles["B3"].id == "sawmill"
    assert st.model_dump_json() == before  # listing changed nothing


def test_default_never_spends_combat_cards__R_VOC_2() -> None:
    # Afonso I may pay with combat cards, but only when told to.
    st = start(colours=("red", "blue"), monarchs=("afonso_i", "queen_victoria"))
    st.players[0].combat_cards = ["militia"]
    st.display.append("duque_de_caxias")  # 1 gold
    assert_illegal(st, "painting", "R-VOC-2", listed=True, painting="duque_de_caxias")
    assert listed(st, "painting", painting="duque_de_caxias").payment == (
        PayItem("combat_card", "militia"),
    )
    st.players[0].reserve = {"gold": 1}  # with goods, the default pays and keeps the card
    new, ev = act_ev(st, "painting", painting="duque_de_caxias")
    assert new.players[0].combat_cards == ["militia"]
    assert [e.data["items"] for e in ev if e.kind == "pay"] == [
        [{"source": "reserve", "what": "gold"}]
    ]


def test_default_never_substitutes_science__R_VOC_2_R_MISSION_3() -> None:
    # Science in the reserve counts for era III objectives, on buildings for the tie-break.
    st = fresh()
    st.players[0].reserve = {"science": 1}
    a = parse_action({"type": "build", "seat": 0, **SAWMILL})
    assert default_payment(st, a) is None
    assert_illegal(st, "build", "R-VOC-2", listed=True, **SAWMILL)
    assert listed(st, "build", **SAWMILL).payment == (R("science"),)
    # science for a science token is the cost itself: the default pays it
    st.display[st.display.index("factory")] = "isabel_of_brazil"  # costs 1 science
    st.painting_decks["blue"].remove("isabel_of_brazil")
    pa = parse_action({"type": "painting", "seat": 0, "painting": "isabel_of_brazil"})
    assert default_payment(st, pa) == (R("science"),)


def test_default_spends_reserve_and_building_goods__R_VOC_6() -> None:
    st = fresh()
    put(st, 0, "farm", "D3", coffee=1)
    st.players[0].reserve = {"gold": 1}
    st.players[0].gold_cards = ["agriculture"]
    a = parse_action({"type": "build", "seat": 0, **SAWMILL})
    assert default_payment(st, a) == (PayItem("D3", "coffee"),)
    assert is_legal(st, "build", **SAWMILL)
    assert listed(st, "build", **SAWMILL).payment is None  # a safe default exists
    st.tiles["D3"] = st.tiles["D3"].model_copy(update={"goods": {}})
    assert default_payment(st, a) == (R("gold"),)  # gold pays for a resource (R-VOC-2)


def test_cost_of_reports_tokens_discounts_and_context__R_VOC_3_R_BUILD_8() -> None:
    st = fresh()
    a = parse_action({"type": "build", "seat": 0, **SAWMILL})
    c = cost_of(st, a)
    assert c is not None and c.tokens == ("sugar_cane|coffee",)
    assert c.text == "1 sugar cane or coffee" and c.label == "Sawmill"
    assert not c.context.any_crop_for_crop
    st.players[0].upgrades["build"] = "sugar"
    c2 = cost_of(st, a)
    assert c2 is not None and c2.context.any_crop_for_crop
    assert any("R-BUILD-8" in n for n in c2.notes)
    assert cost_of(st, parse_action({"type": "import", "seat": 0, "crop": "coffee"})) is None


# ------------------------------------------------------------------ one lot builder


def test_afonso_default_with_a_war_chest_is_accepted_explicitly__R_VOC_2() -> None:
    # Regression: the default named a War chest among Afonso I's cards, and the explicit
    # check demanded that every War chest pay as a War chest.
    st = start(colours=("red", "blue"), monarchs=("afonso_i", "queen_victoria"))
    p = st.players[0]
    for hand in (
        ["war_chest", "militia", "ambush"],
        ["war_chest", "war_chest", "militia"],
        ["militia", "war_chest", "war_chest"],
    ):
        p.combat_cards = list(hand)
        for cost in (["gold", "science"], ["science", "coffee"], ["coffee", "cotton"], ["gold"]):
            found = find_payment(st, 0, cost)
            assert found is not None, (hand, cost)
            check_payment(st, 0, cost, found)  # does not raise


def test_explicit_payment_must_use_every_item__R_VOC_2() -> None:
    st = start(colours=("red", "blue"), monarchs=("afonso_i", "queen_victoria"))
    st.players[0].combat_cards = ["militia", "ambush", "reinforcements"]
    cards = [PayItem("combat_card", c) for c in ("militia", "ambush", "reinforcements")]
    check_payment(st, 0, ["gold", "science"], cards)  # option 3: 1 science + 1 gold
    with pytest.raises(IllegalAction):
        check_payment(st, 0, ["gold"], cards)  # one option per payment, all cards used
    with pytest.raises(IllegalAction):
        check_payment(st, 0, ["gold"], [PayItem("combat_card", "artillery")])


# ------------------------------------------------------------------ the chooser


def test_chooser_walks_token_by_token__R_VOC_2() -> None:
    st = fresh()
    put(st, 0, "farm", "D3", coffee=2)
    st.players[0].reserve = {"gold": 1, "science": 1}
    st.players[0].gold_cards = ["agriculture"]
    a = parse_action({"type": "build", "seat": 0, **SAWMILL})
    step = payment_step(st, a)
    assert not step.complete and step.token == "sugar_cane|coffee"
    items = {o.item for o in step.options}
    assert items == {
        PayItem("D3", "coffee"),
        R("gold"),
        R("science"),
        PayItem("gold_card", "agriculture"),
    }
    assert all(o.label for o in step.options)
    done = payment_step(st, a, [PayItem("gold_card", "agriculture")])
    assert done.complete and done.payment == (PayItem("gold_card", "agriculture"),)
    new, _ = apply(st, a.replace(payment=done.payment))
    assert new.players[0].gold_cards == []
    with pytest.raises(IllegalAction):
        payment_step(st, a, [R("gold"), R("science")])  # cannot be completed
    with pytest.raises(InvalidAction):
        payment_step(st, parse_action({"type": "import", "seat": 0, "crop": "coffee"}))


def test_chooser_never_offers_the_gold_card_being_played__R_TURN_4() -> None:
    st = fresh()
    st.players[0].gold_cards = ["jesuits", "espionage"]
    st.players[0].reserve = {"coffee": 2}
    a = listed(st, "play_gold_card", card="jesuits", at="D3").replace(payment=None)
    step = payment_step(st, a)
    assert PayItem("gold_card", "jesuits") not in {o.item for o in step.options}
    while not step.complete:
        step = payment_step(st, a, [*step.chosen, step.options[0].item])
    assert step.payment is not None
    new, _ = apply(st, a.replace(payment=step.payment))
    assert new.tiles["D3"].id == "church"


# ------------------------------------------------------------------ self-play properties


def _payable(state: GameState, a: Any) -> bool:
    c = cost_of(state, a)
    return c is not None and not c.free


def _games(n_games: int, seed0: int) -> Any:
    """Yield (state, listed actions, rng) along seeded random games of 1–4 players."""
    for k in range(n_games):
        players = 1 + k % 4
        rng = random.Random(seed0 + k)
        state = new_game(players, seed=seed0 + k)
        while state.phase != "ended" and state.round <= 25:
            acts = legal_actions(state)
            yield state, acts, rng
            state, _ = apply(state, rng.choice(acts))


@pytest.mark.slow
def test_every_default_payment_is_accepted_explicitly__R_VOC_2() -> None:
    # The payment the engine takes (read from the pay event) is accepted when given
    # explicitly, with the same resulting state; a listed action without a payment always
    # has a safe default, one with a payment has none.
    checked = 0
    for state, acts, rng in _games(24, 9100):
        for a in rng.sample(acts, min(6, len(acts))):
            if not _payable(state, a):
                continue
            if a.payment is None:
                assert default_payment(state, a) is not None, a
            else:
                assert default_payment(state, a) is None, a
            new, events = apply(state, a)
            pays = [e for e in events if e.kind == "pay" and e.seat == a.seat]
            if not pays:
                continue
            items = tuple(PayItem(**d) for d in pays[0].data["items"])
            again, _ = apply(state, a.replace(payment=items))
            assert again.model_dump_json() == new.model_dump_json(), a
            checked += 1
    assert checked > 300


@pytest.mark.slow
def test_chooser_walks_complete_and_apply__R_VOC_2_R_VOC_6() -> None:
    # Walking random options always ends complete, and apply accepts the payment.
    sizes: list[int] = []
    walks = 0
    for state, acts, rng in _games(16, 7300):
        costly = [a for a in acts if _payable(state, a)]
        for a in rng.sample(costly, min(3, len(costly))):
            a = a.replace(payment=None)
            step = payment_step(state, a)
            for _ in range(20):
                if step.complete:
                    break
                assert step.options, step.prompt
                sizes.append(len(step.options))
                step = payment_step(state, a, [*step.chosen, rng.choice(step.options).item])
            assert step.complete and step.payment is not None
            apply(state, a.replace(payment=step.payment))  # does not raise
            walks += 1
    assert walks > 150
    print(
        f"chooser: {walks} walks, {len(sizes)} steps, options per step median "
        f"{statistics.median(sizes)}, max {max(sizes)}"
    )


def test_context_ignores_the_label() -> None:
    assert PayContext(label="a").key() == PayContext(label="b").key()


# ------------------------------------------------------------------ issue 22: least loss first


def test_listed_payment_spends_science_before_a_scoring_gold_card__R_VOC_2_R_END_2() -> None:
    # Issue 22, defect 1: Agriculture is worth 3 VP at the end; science costs no points.
    st = fresh()
    st.players[0].reserve = {"science": 1}
    st.players[0].gold_cards = ["agriculture"]
    la = listed(st, "build", **SAWMILL)
    assert la.payment == (R("science"),)
    assert payment_note(st, la) is None
    a = la.replace(payment=None)
    assert payment_step(st, a).options[0].item == R("science")


def test_listed_payment_spends_a_free_gold_card_before_a_scoring_one__R_VOC_2_R_END_2() -> None:
    st = fresh()
    st.players[0].gold_cards = ["agriculture", "jesuits"]
    la = listed(st, "build", **SAWMILL)
    assert la.payment == (PayItem("gold_card", "jesuits"),)
    step = payment_step(st, la.replace(payment=None))
    assert step.options[0].item == PayItem("gold_card", "jesuits")
    assert {o.item for o in step.options} == {
        PayItem("gold_card", "jesuits"),
        PayItem("gold_card", "agriculture"),
    }


def test_least_loss_tries_afonso_before_a_scoring_gold_card__R_VOC_2_R_END_2() -> None:
    # Afonso I's options are searched only when nothing else pays: Agriculture did, so it
    # was spent while one combat card paid the gold at no VP.
    st = start(colours=("red", "blue"), monarchs=("afonso_i", "queen_victoria"))
    st.players[0].combat_cards = ["militia"]
    st.players[0].gold_cards = ["agriculture"]
    st.display.append("duque_de_caxias")  # 1 gold
    la = listed(st, "painting", painting="duque_de_caxias")
    assert la.payment == (PayItem("combat_card", "militia"),)
    assert find_payment(st, 0, ["gold"]) == [PayItem("combat_card", "militia")]
    step = payment_step(st, la.replace(payment=None))
    assert step.options[0].item == PayItem("combat_card", "militia")


def test_payment_note_names_the_points_lost__R_END_2() -> None:
    st = fresh()
    st.players[0].gold_cards = ["agriculture"]
    la = listed(st, "build", **SAWMILL)
    assert la.payment == (PayItem("gold_card", "agriculture"),)
    assert payment_note(st, la) == "pays with Agriculture — 3 VP at the end"
    # without a payment on it: the payment the listing would give
    assert payment_note(st, la.replace(payment=None)) == "pays with Agriculture — 3 VP at the end"
    st.players[0].reserve = {"coffee": 1}  # a safe default: nothing lost
    assert payment_note(st, la.replace(payment=None)) is None
    assert payment_note(st, parse_action({"type": "import", "seat": 0, "crop": "coffee"})) is None
