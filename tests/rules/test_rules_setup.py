"""Setup (RULES.md §2: R-SETUP-1..7): map and tiles, decks, paintings display, colours,
missions and monarchs (simultaneous), capitals chosen in turn order from a random chooser,
and the first-player tile deciding who starts.

Most tests use the 2-player test map ``test-duel`` of the test data pack: capital sites C3 and
H6, fog hexes F3, E5, C7.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import rules.brazil as rules
from rules.brazil import Event, GameState, InvalidAction, NotYourDecision, RulesError, view
from rules.brazil.catalog import FRAMES, get_catalog
from tests.helpers import PACK, act, act_ev

CAT = get_catalog(PACK)
MAP = "test-duel"
SITES = ("C3", "H6")
FOG = ("F3", "E5", "C7")


def new(seed: int = 1, colours: list[str] | None = None, **kw: Any) -> GameState:
    return rules.new_game(2, seed, MAP, data_pack=PACK, colours=colours, **kw)


def coloured(seed: int = 1) -> GameState:
    return new(seed, ["green", "blue"])


def assert_illegal(
    st: GameState,
    atype: str,
    seat: int,
    rule: str,
    exc: type[RulesError] = RulesError,
    **fields: Any,
) -> RulesError:
    before = st.model_dump()
    assert rules.parse_action({"type": atype, "seat": seat, **fields}) not in rules.legal_actions(
        st
    )
    with pytest.raises(exc) as info:
        act(st, atype, seat, **fields)
    assert info.value.rule == rule, info.value
    assert st.model_dump() == before
    return info.value


def first_of_each_era(st: GameState, seat: int) -> list[str]:
    out: dict[int, str] = {}
    for m in st.players[seat].mission_offer:
        out.setdefault(CAT.missions[m].era, m)
    return [out[e] for e in sorted(out)]


def decide_missions_and_monarchs(
    st: GameState, monarchs: tuple[str, str] = ("pedro_ii", "napoleon")
) -> GameState:
    for seat in (0, 1):
        st = act(st, "keep_missions", seat, keep=first_of_each_era(st, seat))
        st = act(st, "choose_monarch", seat, monarch=monarchs[seat])
    return st


def to_capitals(seed: int) -> GameState:
    return decide_missions_and_monarchs(coloured(seed))


def seed_where(cond: Any) -> int:
    for seed in range(1, 200):
        if cond(to_capitals(seed)):
            return seed
    raise AssertionError("no seed found")


# ------------------------------------------------------------------------ R-SETUP-1


def test_capital_tiles_on_the_sites_always_with_the_first_player_one__R_SETUP_1() -> None:
    seen: set[str] = set()
    for seed in range(1, 13):
        st = coloured(seed)
        assert sorted(st.capital_tiles) == sorted(SITES)
        tiles = list(st.capital_tiles.values())
        assert "capital_first" in tiles
        assert len(set(tiles)) == 2
        assert all(t in CAT.capitals for t in tiles)
        seen.update(h for h, t in st.capital_tiles.items() if t == "capital_first")
        # no capital is placed before the choice
        assert st.tiles == {}
    assert seen == set(SITES)  # at random: the first-player tile lands on either site


def test_exploration_tiles_face_down_on_the_fog_only__R_SETUP_1() -> None:
    st = coloured(3)
    assert sorted(st.exploration) == sorted(FOG)
    assert all(not e.face_up for e in st.exploration.values())
    assert all(e.tile in CAT.exploration for e in st.exploration.values())
    # face down: nobody sees them
    for seat in (None, 0, 1):
        assert {e.tile for e in view(st, seat).exploration.values()} == {"?"}
    # random: not always the same tiles
    layouts = {tuple(e.tile for e in coloured(s).exploration.values()) for s in range(1, 9)}
    assert len(layouts) > 1


def test_capital_tiles_stay_face_down_until_revealed__R_SETUP_1() -> None:
    st = coloured(1)
    assert set(view(st, 0).capital_tiles.values()) == {"?"}
    st = decide_missions_and_monarchs(st)
    assert view(st, 0).capital_tiles == st.capital_tiles


def test_map_must_fit_the_player_count__R_SETUP_1() -> None:
    with pytest.raises(InvalidAction) as exc:
        rules.new_game(3, 1, MAP, data_pack=PACK)
    assert exc.value.rule == "R-SETUP-1"
    with pytest.raises(InvalidAction) as exc:
        rules.new_game(2, 1, "no-such-map", data_pack=PACK)
    assert exc.value.rule == "R-SETUP-1"
    with pytest.raises(InvalidAction) as exc:
        rules.new_game(5, 1)
    assert exc.value.rule == "R-SETUP-1"


@pytest.mark.parametrize("players", [3, 4])
def test_default_map_for_the_player_count__R_SETUP_1(players: int) -> None:
    st = rules.new_game(players, 7)
    cat = get_catalog(None)
    assert cat.maps[st.map].players == players
    board = cat.boards[st.map]
    assert sorted(st.capital_tiles) == sorted(board.capital_sites)
    assert len(st.capital_tiles) == players
    assert "capital_first" in st.capital_tiles.values()
    assert len(set(st.capital_tiles.values())) == players
    assert sorted(st.exploration) == sorted(board.fog)


# ------------------------------------------------------------------------ R-SETUP-2


def test_combat_and_gold_decks_complete_and_shuffled__R_SETUP_2() -> None:
    a, b = coloured(1), coloured(2)
    for st in (a, b):
        assert Counter(st.combat_deck) == Counter(
            {c.id: c.count for c in CAT.combat_cards.values()}
        )
        assert len(st.combat_deck) == 24
        assert Counter(st.gold_deck) == Counter({c.id: c.count for c in CAT.gold_cards.values()})
        assert len(st.gold_deck) == 20
        assert st.combat_discard == [] and st.gold_discard == []
    assert a.combat_deck != b.combat_deck
    assert a.gold_deck != b.gold_deck


def test_city_tiles_in_two_piles__R_SETUP_2() -> None:
    orders = set()
    for seed in (1, 2, 3):
        st = coloured(seed)
        assert len(st.city_piles) == 2
        assert [len(p) for p in st.city_piles] == [4, 4]
        assert sorted(st.city_piles[0] + st.city_piles[1]) == sorted(CAT.cities)
        orders.add(tuple(st.city_piles[0] + st.city_piles[1]))
        # face up: the tops are public
        v = view(st, None)
        assert [p[-1] for p in v.city_piles] == [p[-1] for p in st.city_piles]
    assert len(orders) > 1


# ------------------------------------------------------------------------ R-SETUP-3


def test_six_paintings_two_per_frame_on_display__R_SETUP_3() -> None:
    st = coloured(4)
    assert len(st.display) == 6
    frames = Counter(CAT.paintings[p].frame for p in st.display)
    assert frames == {"red": 2, "pink": 2, "blue": 2}
    for fr in FRAMES:
        deck = st.painting_decks[fr]
        assert len(deck) == 6
        assert all(CAT.paintings[p].frame == fr for p in deck)
    everything = st.display + [p for fr in FRAMES for p in st.painting_decks[fr]]
    assert sorted(everything) == sorted(CAT.paintings)
    assert len(everything) == 24
    assert {tuple(coloured(s).display) for s in range(1, 6)} != {tuple(st.display)}


# ------------------------------------------------------------------------ R-SETUP-4


def test_colours_chosen_in_seat_order__R_SETUP_4() -> None:
    st = new(5)
    assert st.phase == "setup"
    assert [(d.seat, d.kind) for d in st.pending] == [(0, "choose_colour")]
    assert rules.deciders(st) == [0]
    assert {a.colour for a in rules.legal_actions(st)} == set(CAT.colours)
    # seat 1 must wait
    with pytest.raises(NotYourDecision):
        act(st, "choose_colour", 1, colour="red")
    st, ev = act_ev(st, "choose_colour", 0, colour="blue")
    assert [e.kind for e in ev] == ["colour"]
    assert st.players[0].colour == "blue"
    assert [(d.seat, d.kind) for d in st.pending] == [(1, "choose_colour")]
    assert "blue" not in {a.colour for a in rules.legal_actions(st)}
    assert_illegal(st, "choose_colour", 1, "R-SETUP-4", colour="blue")
    with pytest.raises(InvalidAction) as exc:
        act(st, "choose_colour", 1, colour="purple")
    assert exc.value.rule == "R-SETUP-4"
    st = act(st, "choose_colour", 1, colour="red")
    assert st.players[1].colour == "red"
    assert {d.kind for d in st.pending} == {"keep_missions", "choose_monarch"}


def test_given_colours_skip_the_choice__R_SETUP_4() -> None:
    st = new(5, ["red", "green"])
    assert [p.colour for p in st.players] == ["red", "green"]
    assert all(d.kind != "choose_colour" for d in st.pending)
    with pytest.raises(InvalidAction) as exc:
        new(5, ["green", "green"])
    assert exc.value.rule == "R-SETUP-4"
    with pytest.raises(InvalidAction) as exc:
        new(5, ["green"])
    assert exc.value.rule == "R-SETUP-4"
    with pytest.raises(InvalidAction) as exc:
        new(5, ["green", "purple"])
    assert exc.value.rule == "R-SETUP-4"


def test_each_player_takes_units_palaces_and_products__R_SETUP_4() -> None:
    st = coloured(2)
    for p in st.players:
        assert p.colour is not None
        units = CAT.colours[p.colour].units
        assert p.units == {u.id: "board" for u in units}
        assert len(p.units) == 5
        assert p.palaces == [1, 2, 3, 4, 5, 6]
        assert sorted(p.products) == sorted(CAT.products)
        assert len(p.products) == 6
        assert p.upgrades == {} and p.token_arch is None and p.under == {}
        assert p.reserve == {}


# ------------------------------------------------------------------------ R-SETUP-5


def test_two_missions_of_each_era_dealt__R_SETUP_5() -> None:
    st = coloured(6)
    for p in st.players:
        assert len(p.mission_offer) == 6
        assert Counter(CAT.missions[m].era for m in p.mission_offer) == {1: 2, 2: 2, 3: 2}
        assert p.missions == []
    dealt = st.players[0].mission_offer + st.players[1].mission_offer
    assert len(set(dealt)) == 12
    assert {k: len(d) for k, d in st.mission_decks.items()} == {"1": 4, "2": 4, "3": 4}
    # secret: the other player's offer is hidden
    v = view(st, 1)
    assert set(v.players[0].mission_offer) == {"?"}
    assert v.players[1].mission_offer == st.players[1].mission_offer


def test_keep_one_of_each_era_return_the_other_to_the_bottom__R_SETUP_5() -> None:
    st = coloured(6)
    offer = list(st.players[0].mission_offer)
    keep = first_of_each_era(st, 0)
    returned = [m for m in offer if m not in keep]
    st2, ev = act_ev(st, "keep_missions", 0, keep=keep)
    assert st2.players[0].missions == keep
    assert st2.players[0].mission_offer == []
    for m in returned:
        deck = st2.mission_decks[str(CAT.missions[m].era)]
        assert deck[0] == m  # the bottom (the top is the last element)
        assert len(deck) == 5
    assert [e.kind for e in ev] == ["missions_kept"]


def test_keeping_must_be_one_per_era_from_the_offer__R_SETUP_5() -> None:
    st = coloured(6)
    offer = st.players[0].mission_offer
    era1 = [m for m in offer if CAT.missions[m].era == 1]
    keep = first_of_each_era(st, 0)
    assert_illegal(st, "keep_missions", 0, "R-SETUP-5", keep=[era1[0], era1[1], keep[2]])
    assert_illegal(st, "keep_missions", 0, "R-SETUP-5", keep=keep[:2])
    other = st.players[1].mission_offer[0]
    assert_illegal(st, "keep_missions", 0, "R-SETUP-5", keep=[other, *keep[1:]])
    opts = [a for a in rules.legal_actions(st) if a.seat == 0 and a.type == "keep_missions"]
    assert len(opts) == 8  # 2 x 2 x 2 choices


def test_missions_and_monarchs_are_simultaneous__R_SETUP_5() -> None:
    st = coloured(6)
    assert rules.deciders(st) == [0, 1]
    assert {a.seat for a in rules.legal_actions(st)} == {0, 1}
    # seat 1 may decide before seat 0
    st = act(st, "keep_missions", 1, keep=first_of_each_era(st, 1))
    st = act(st, "choose_monarch", 1, monarch="queen_victoria")
    assert st.players[1].monarch == "queen_victoria"
    assert rules.deciders(st) == [0]
    assert all(d.kind != "choose_capital" for d in st.pending)
    st = act(st, "keep_missions", 0, keep=first_of_each_era(st, 0))
    assert all(d.kind != "choose_capital" for d in st.pending)
    st = act(st, "choose_monarch", 0, monarch="tibirica")
    assert [d.kind for d in st.pending] == ["choose_capital"]


def test_monarch_choice_green_four_others_two__R_SETUP_5() -> None:
    st = coloured(6)
    st = act(st, "keep_missions", 0, keep=first_of_each_era(st, 0))
    st = act(st, "keep_missions", 1, keep=first_of_each_era(st, 1))
    green = {a.monarch for a in rules.legal_actions(st, 0)}
    blue = {a.monarch for a in rules.legal_actions(st, 1)}
    assert green == {"pedro_ii", "dom_oba_ii", "pedro_i", "tibirica"}
    assert blue == {"napoleon", "queen_victoria"}
    assert_illegal(st, "choose_monarch", 1, "R-SETUP-5", monarch="pedro_ii")
    assert_illegal(st, "choose_monarch", 0, "R-SETUP-5", monarch="napoleon")
    st2, ev = act_ev(st, "choose_monarch", 0, monarch="pedro_i")
    assert st2.players[0].monarch == "pedro_i"
    assert ev[0].kind == "monarch" and ev[0].data == {"monarch": "pedro_i"}


# ------------------------------------------------------------------------ R-SETUP-6


def test_capitals_revealed_and_a_random_player_chooses_first__R_SETUP_6() -> None:
    st = coloured(6)
    st = act(st, "keep_missions", 0, keep=first_of_each_era(st, 0))
    st = act(st, "choose_monarch", 0, monarch="pedro_ii")
    st = act(st, "keep_missions", 1, keep=first_of_each_era(st, 1))
    st, ev = act_ev(st, "choose_monarch", 1, monarch="napoleon")
    assert "capitals_revealed" in [e.kind for e in ev]
    chooser = st.capital_chooser
    assert [(d.seat, d.kind) for d in st.pending] == [(chooser, "choose_capital")]
    assert rules.deciders(st) == [chooser]
    assert {a.at for a in rules.legal_actions(st)} == set(SITES)
    # the other seat cannot choose first
    before = st.model_dump()
    with pytest.raises(NotYourDecision) as exc:
        act(st, "choose_capital", 1 - chooser, at="C3")
    assert exc.value.rule == "R-SETUP-6"
    assert st.model_dump() == before
    # the chooser is random: both seats choose first for some seed
    choosers = {to_capitals(s).capital_chooser for s in range(1, 12)}
    assert choosers == {0, 1}


def test_choosing_a_capital_gives_its_resource_and_palace_one__R_SETUP_6() -> None:
    st = to_capitals(6)
    c = st.capital_chooser
    assert_illegal(st, "choose_capital", c, "R-SETUP-6", at="D4")  # not a capital site
    site = "H6"
    tile = st.capital_tiles[site]
    st2, ev = act_ev(st, "choose_capital", c, at=site)
    p = st2.players[c]
    assert p.capital == site
    t = st2.tiles[site]
    assert (t.kind, t.id, t.owner, t.palace) == ("capital", tile, c, 1)
    assert 1 not in p.palaces
    assert p.reserve == {CAT.capitals[tile].resource: 1}
    gains = [e for e in ev if e.kind == "gain"]
    assert gains and gains[0].data["goods"] == {CAT.capitals[tile].resource: 1}
    # then clockwise: the next seat, and the taken site is no longer available
    other = 1 - c
    assert [(d.seat, d.kind) for d in st2.pending] == [(other, "choose_capital")]
    assert {a.at for a in rules.legal_actions(st2)} == {"C3"}
    assert_illegal(st2, "choose_capital", other, "R-SETUP-6", at=site)


def test_capital_choice_goes_clockwise_from_the_chooser__R_SETUP_6() -> None:
    st = rules.new_game(3, 11, colours=["green", "blue", "red"])
    for seat in range(3):
        keep: dict[int, str] = {}
        for m in st.players[seat].mission_offer:
            keep.setdefault(CAT.missions[m].era, m)
        st = act(st, "keep_missions", seat, keep=[keep[e] for e in sorted(keep)])
        st = act(st, "choose_monarch", seat, monarch=rules.legal_actions(st, seat)[0].monarch)
    c = st.capital_chooser
    order = []
    while st.pending:
        d = st.pending[0]
        assert d.kind == "choose_capital"
        order.append(d.seat)
        st = act(st, "choose_capital", d.seat, at=rules.legal_actions(st)[0].at)
    assert order == [c, (c + 1) % 3, (c + 2) % 3]
    assert st.phase == "play"


# ------------------------------------------------------------------------ R-SETUP-7


def play_capitals(st: GameState, chooser_takes: str) -> tuple[GameState, list[Event]]:
    c = st.capital_chooser
    st = act(st, "choose_capital", c, at=chooser_takes)
    other = next(s for s in SITES if s != chooser_takes)
    return act_ev(st, "choose_capital", 1 - c, at=other)


@pytest.mark.parametrize("chooser_takes_first_tile", [True, False])
def test_first_player_tile_decides_who_starts__R_SETUP_7(chooser_takes_first_tile: bool) -> None:
    st = to_capitals(6)
    first_site = next(h for h, t in st.capital_tiles.items() if t == "capital_first")
    other_site = next(h for h in SITES if h != first_site)
    c = st.capital_chooser
    st, ev = play_capitals(st, first_site if chooser_takes_first_tile else other_site)
    starter = c if chooser_takes_first_tile else 1 - c
    assert st.players[starter].capital == first_site
    assert st.phase == "play" and st.setup_step == "done"
    assert st.first_player == starter
    assert st.current == starter
    assert st.round == 1
    assert st.pending == []
    assert rules.deciders(st) == [starter]
    start_ev = [e for e in ev if e.kind == "start"]
    assert start_ev and start_ev[0].seat == starter
    # the first-player capital brings sugar cane
    assert st.players[starter].reserve == {CAT.capitals["capital_first"].resource: 1}


def test_play_goes_clockwise_from_the_first_player__R_SETUP_7() -> None:
    seed = seed_where(lambda s: s.capital_tiles["H6"] == "capital_first")
    st = to_capitals(seed)
    c = st.capital_chooser
    # seat 1 takes the first-player capital at H6
    st = act(st, "choose_capital", c, at="H6" if c == 1 else "C3")
    st = act(st, "choose_capital", 1 - c, at="C3" if c == 1 else "H6")
    assert st.first_player == 1 and st.current == 1
    seen = []
    for i in range(4):
        seen.append((st.round, st.current))
        if i < 2:
            st = act(st, "trade", st.current)
            st = act(st, "end_trade", st.current)
        else:
            st = act(st, "import", st.current, crop="coffee")
        st = act(st, "end_turn", st.current)
    assert seen == [(1, 1), (1, 0), (2, 1), (2, 0)]


# ------------------------------------------------------------------------ determinism


def full_setup(seed: int) -> GameState:
    st = to_capitals(seed)
    c = st.capital_chooser
    st = act(st, "choose_capital", c, at="C3")
    return act(st, "choose_capital", 1 - c, at="H6")


def test_same_seed_same_game_different_seed_differs__R_SETUP_2() -> None:
    # R-SETUP-1, R-SETUP-3: every shuffle comes from the seed
    assert coloured(42).model_dump_json() == coloured(42).model_dump_json()
    assert full_setup(42).model_dump_json() == full_setup(42).model_dump_json()
    assert new(42).model_dump_json() == new(42).model_dump_json()
    a, b = coloured(42), coloured(43)
    assert a.model_dump_json() != b.model_dump_json()
    assert (a.combat_deck, a.gold_deck, a.display) != (b.combat_deck, b.gold_deck, b.display)


def test_a_seats_setup_choices_may_come_in_either_order__R_SETUP_5() -> None:
    st = rules.new_game(2, 5, "test-duel", data_pack=PACK, colours=["green", "blue"])
    listed = {a.type for a in rules.legal_actions(st, 0)}
    assert listed == {"keep_missions", "choose_monarch"}
    st = act(st, "choose_monarch", 0, monarch="tibirica")  # before keeping missions
    assert st.players[0].monarch == "tibirica"
    assert {a.type for a in rules.legal_actions(st, 0)} == {"keep_missions"}
    with pytest.raises(NotYourDecision):
        act(st, "choose_monarch", 0, monarch="pedro_i")  # answered already
