"""Hidden information: per-seat and spectator views, private events."""

from __future__ import annotations

import random

from rules.brazil import apply, legal_actions, new_game, view
from rules.brazil.events import for_seat
from rules.brazil.view import HIDDEN
from tests.helpers import act_ev, explore, start, to_movement


def mid_game(seed: int = 3, steps: int = 150):
    rng = random.Random(seed)
    st = new_game(3, seed)
    for _ in range(steps):
        st, _ = apply(st, rng.choice(legal_actions(st)))
    return st


def test_spectator_sees_only_public_information():
    st = mid_game()
    v = view(st, None)
    for p in v.players:
        assert set(p.missions) <= {HIDDEN} and set(p.gold_cards) <= {HIDDEN}
        assert set(p.combat_cards) <= {HIDDEN} and set(p.mission_offer) <= {HIDDEN}
        assert all(t == HIDDEN for t in p.peeks.values())
    assert set(v.combat_deck) <= {HIDDEN} and set(v.gold_deck) <= {HIDDEN}
    assert all(set(d) <= {HIDDEN} for d in v.mission_decks.values())
    assert all(set(d) <= {HIDDEN} for d in v.painting_decks.values())
    assert all(e.tile == HIDDEN for e in v.exploration.values() if not e.face_up)
    assert v.rng.seed == 0  # the deck order cannot be recomputed
    # counts stay public
    assert [len(p.combat_cards) for p in v.players] == [len(p.combat_cards) for p in st.players]
    # public things stay visible
    assert v.display == st.display and v.tiles == st.tiles


def test_a_seat_sees_its_own_secrets_only():
    st = mid_game()
    for seat in range(3):
        v = view(st, seat)
        assert v.players[seat].missions == st.players[seat].missions
        assert v.players[seat].gold_cards == st.players[seat].gold_cards
        for other in v.players:
            if other.seat != seat:
                assert set(other.missions) <= {HIDDEN}


def test_view_does_not_touch_the_state():
    st = mid_game()
    before = st.model_dump_json()
    view(st, 0)
    view(st, None)
    assert st.model_dump_json() == before


def test_setup_offers_and_capital_tiles_hidden__R_SETUP_5__R_SETUP_6():
    st = new_game(2, 9, colours=["green", "blue"])
    v = view(st, 1)
    assert set(v.players[0].mission_offer) == {HIDDEN}
    assert HIDDEN not in v.players[1].mission_offer
    assert set(v.capital_tiles.values()) == {HIDDEN}


def test_peek_is_private__R_EXPLORE_4():
    st = to_movement(start(), "build")
    explore(st, "E5", "quilombo")
    st.turn.peek = True
    st, ev = act_ev(st, "peek", 0, at="E5")
    assert view(st, 0).exploration["E5"].tile == "quilombo"
    assert view(st, 1).exploration["E5"].tile == HIDDEN
    assert view(st, None).exploration["E5"].tile == HIDDEN
    public = for_seat(ev, None)
    assert public and all("Quilombo" not in e.text for e in public)
    assert any("Quilombo" in e.text for e in for_seat(ev, 0))


def test_drawn_cards_are_named_only_to_the_drawer():
    st = start()
    st, ev = act_ev(st, "recruit", 0, draw=1)
    card = st.players[0].combat_cards[0]
    from rules.brazil.catalog import get_catalog

    name = get_catalog(st.data_pack).combat_cards[card].name
    assert any(name in e.text for e in for_seat(ev, 0))
    assert not any(name in e.text for e in for_seat(ev, 1))
    assert any(e.kind == "draw_combat" for e in for_seat(ev, None))


def test_acampamento_shows_nothing_until_the_reveal__R_COMBAT_4():
    # R-COMBAT-4: nothing of a committed card may show before both sides have chosen: the
    # camp resources stay in the attacker's (public) reserve and the camp list is not shown.
    from tests.helpers import give, place_unit

    def committed(cards: list[str], camp: list[str]):
        st = to_movement(start(), "build")
        place_unit(st, 0, "archer1", "E4")
        place_unit(st, 1, "brawler1", "F4")
        st.players[0].combat_cards = ["acampamento", "militia"]
        give(st, 0, coffee=2, cotton=1)
        st, _ = act_ev(st, "move", 0, unit="archer1", to="F4", kind="free")
        st, ev = act_ev(st, "commit_cards", 0, cards=cards, camp=camp)
        return st, ev

    with_camp, ev_camp = committed(["acampamento"], ["coffee", "coffee"])
    plain, ev_plain = committed(["militia"], [])
    for seat in (1, None):
        a, b = view(with_camp, seat), view(plain, seat)
        assert a.model_dump_json() == b.model_dump_json()  # indistinguishable
        assert [e.text for e in for_seat(ev_camp, seat)] == [
            e.text for e in for_seat(ev_plain, seat)
        ]
    assert view(with_camp, 0).combat.attacker.camp == ["coffee", "coffee"]  # the owner sees it
    assert with_camp.players[0].reserve == {"coffee": 2, "cotton": 1}  # still in the reserve
    # At the reveal the resources are paid and count +1 FP each.
    st, ev = act_ev(with_camp, "commit_cards", 1, cards=[], camp=[])
    assert st.players[0].reserve == {"cotton": 1}
    res = next(e for e in ev if e.kind == "battle_result").data
    assert res["attacker_fp"] == 4
