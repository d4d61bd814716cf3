"""Combat (RULES.md §8), bombard attacks (R-MOVE-5/6), expeditions (R-EXPLORE-3) and the solo
game (§12), including the rulebook's own examples (French rules p. 18–19)."""

from __future__ import annotations

import pytest

from rules.brazil import RulesError, legal_actions, view
from rules.brazil.engine import deciders
from rules.brazil.state import GameState
from tests.helpers import (
    act,
    act_ev,
    explore,
    give,
    kinds,
    pending_kind,
    place_unit,
    put,
    start,
    to_movement,
)


def duel(colours: tuple[str, str] = ("orange", "blue"), arch: str = "build") -> GameState:
    monarchs = {"green": "pedro_ii", "orange": "manuel_i", "red": "afonso_i", "blue": "napoleon"}
    st = start(colours=colours, monarchs=(monarchs[colours[0]], monarchs[colours[1]]))
    return to_movement(st, arch)


def archer_vs_brawler() -> GameState:
    """Green's archer (2 FP) at E4 next to blue's brawler (2 FP) at F4, in green's movement
    phase after a Build action (no tactical advantage)."""
    st = duel(("green", "blue"))
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "brawler1", "F4")
    return st


def commit(
    st: GameState, seat: int, *cards: str, camp: tuple[str, ...] = ()
) -> tuple[GameState, list]:
    return act_ev(st, "commit_cards", seat, cards=list(cards), camp=list(camp))


def result_event(events: list) -> dict:
    return next(e for e in events if e.kind == "battle_result").data


# --------------------------------------------------------------------------- the rulebook's examples


def test_stack_of_three_beats_two__R_COMBAT_3__R_MOVE_2():
    # French rules p. 18: 3 + 3 + 5 = 11 against 2 + 2 = 4. Orange's cavalry carries the
    # grenadier and the monarch into the blue brawlers' hex.
    st = duel()
    for u in ("cavalry", "grenadier", "monarch"):
        place_unit(st, 0, u, "E4")
    place_unit(st, 1, "brawler1", "F4")
    place_unit(st, 1, "brawler2", "F4")
    st = act(st, "move", unit="cavalry", to="F4", kind="free", carry=["grenadier", "monarch"])
    assert st.combat is not None and pending_kind(st, 0) == "combat_cards"
    st, _ = commit(st, 0)
    assert pending_kind(st, 1) == "combat_cards"  # R-COMBAT-4: then the defender
    st, ev = commit(st, 1)
    res = result_event(ev)
    assert (res["attacker_fp"], res["defender_fp"], res["winner"]) == (11, 4, 0)
    assert all(st.players[0].units[u] == "F4" for u in ("cavalry", "grenadier", "monarch"))
    assert st.players[1].units["brawler1"] == st.players[1].units["brawler2"] == "reserve"
    assert st.combat is None


def test_sepe_tiaraju_winner_keeps_one_unit__R_COMBAT_5():
    # French rules p. 19: green (3 + 5) attacks orange's sawmill guarded by two corsairs
    # (1 + 2 + 2) who play Sepé Tiaraju (+1): green wins 8 to 6 but keeps only one unit.
    st = start(colours=("green", "orange"), monarchs=("pedro_ii", "maurice_of_nassau"))
    st = to_movement(st, "build")
    put(st, 1, "sawmill", "F4")
    place_unit(st, 0, "dragoon", "E4")
    place_unit(st, 0, "monarch", "E4")
    place_unit(st, 1, "corsair1", "F4")
    place_unit(st, 1, "corsair2", "F4")
    st.players[1].combat_cards = ["sepe_tiaraju"]
    st = act(st, "move", unit="dragoon", to="F4", kind="free", carry=["monarch"])
    st, _ = commit(st, 0)
    st, ev = commit(st, 1, "sepe_tiaraju")
    res = result_event(ev)
    assert (res["attacker_fp"], res["defender_fp"], res["winner"]) == (8, 6, 0)
    # the winner chooses which unit to keep
    assert pending_kind(st, 0) == "sepe_keep"
    assert {a.unit for a in legal_actions(st)} == {"dragoon", "monarch"}
    st, ev = act_ev(st, "keep_unit", 0, unit="monarch")
    assert st.players[0].units["monarch"] == "F4"
    assert st.players[0].units["dragoon"] == "reserve"
    assert "sepe" in kinds(ev)
    assert "sepe_tiaraju" in st.combat_discard  # R-COMBAT-4 (6)


def test_cannon_wins_from_adjacent_hex_but_does_not_occupy__R_MOVE_6__R_COMBAT_9():
    # French rules p. 19 (C): green's cannon attacks orange's sawmill from the next hex and
    # wins, but no green unit stands on the sawmill, so orange keeps control of it.
    st = start(colours=("green", "orange"), monarchs=("pedro_ii", "manuel_i"))
    st = to_movement(st, "build")
    put(st, 1, "sawmill", "F4", brazilwood=2)
    place_unit(st, 0, "cannon", "E4")
    st, ev = act_ev(st, "bombard", 0, unit="cannon", at="F4")
    assert st.turn.free_move  # the attack spends the free move
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    res = result_event(ev)
    assert res["winner"] == 0 and res["attacker_fp"] == 4 and res["defender_fp"] == 1
    assert st.players[0].units["cannon"] == "E4"  # did not move in
    assert st.tiles["F4"].owner == 1
    from rules.brazil.control import controls

    assert controls(st, 1, "F4") and not controls(st, 0, "F4")


def test_occupied_tile_attacked_by_its_builder_counts_for_nobody__R_COMBAT_3__R_COMBAT_12():
    # French rules p. 19: when the builder attacks to take back its tile, the defender does
    # not add the tile's FP. Blue's brawler (2) occupies green's farm (2 VP); green's archer
    # (2) attacks: 2 against 2, a tie, the defender (the occupier) wins.
    st = duel(("green", "blue"))
    put(st, 0, "farm", "D4")
    place_unit(st, 1, "brawler1", "D4")
    place_unit(st, 0, "archer1", "D3")
    st = act(st, "move", unit="archer1", to="D4", kind="free")
    assert st.combat is not None and st.combat.defender.seat == 1  # R-COMBAT-12
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    res = result_event(ev)
    assert (res["attacker_fp"], res["defender_fp"]) == (2, 2)
    assert res["winner"] == 1
    assert st.players[0].units["archer1"] == "reserve"


def test_builder_retakes_occupied_tile_and_control_returns__R_COMBAT_11():
    st = duel(("green", "blue"))
    put(st, 0, "farm", "D4", coffee=2)
    place_unit(st, 1, "brawler1", "D4")
    place_unit(st, 0, "monarch", "D3")
    st = act(st, "move", unit="monarch", to="D4", kind="free")
    st, _ = commit(st, 0)
    st, _ = commit(st, 1)
    from rules.brazil.control import controls

    assert st.players[0].units["monarch"] == "D4"
    assert controls(st, 0, "D4")


def test_tie_goes_to_the_defender__R_COMBAT_4():
    st = archer_vs_brawler()
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    res = result_event(ev)
    assert res["attacker_fp"] == res["defender_fp"] == 2
    assert res["winner"] == 1
    assert st.players[0].units["archer1"] == "reserve"  # R-COMBAT-9: the attacker is defeated
    assert st.players[1].units["brawler1"] == "F4"


def test_bandeiras_won_on_equal_fp__R_EXPLORE_3():
    st = duel(("green", "blue"))
    explore(st, "E5", "bandeiras_4")
    place_unit(st, 0, "archer1", "D5")
    place_unit(st, 0, "archer2", "D5")
    st.players[0].paintings = ["guaicurus"]  # (no combat effect)
    # Two archers cannot move together without transport: the dragoon carries one.
    place_unit(st, 0, "dragoon", "D5")
    st = act(st, "move", unit="archer1", to="E5", kind="free")
    assert st.exploration["E5"].face_up and st.combat is not None  # must fight at once
    st.players[0].combat_cards = ["reinforcements"]
    st, ev = commit(st, 0, "reinforcements")
    res = next(e for e in ev if e.kind == "expedition_result").data
    assert res["fp"] == 4 and res["requirement"] == 4 and res["won"]
    assert "E5" not in st.exploration
    assert "bandeiras_4" in st.players[0].kept_tiles


def test_bandeiras_lost_changes_nothing_but_cards__R_EXPLORE_3():
    st = duel(("green", "blue"))
    explore(st, "E5", "bandeiras_7")
    place_unit(st, 0, "archer1", "D5")
    st.players[0].combat_cards = ["militia"]
    st = act(st, "move", unit="archer1", to="E5", kind="free")
    st, ev = commit(st, 0, "militia")
    assert not next(e for e in ev if e.kind == "expedition_result").data["won"]
    assert st.players[0].units["archer1"] == "E5"  # not defeated [ruling]
    assert st.exploration["E5"].face_up
    assert st.combat_discard[-1] == "militia"
    assert st.players[0].combat_cards == []


def test_unit_already_on_bandeiras_spends_free_move_to_fight__R_EXPLORE_3():
    st = duel(("green", "blue"))
    explore(st, "E5", "bandeiras_5", face_up=True)
    place_unit(st, 0, "monarch", "E5")
    assert any(a.type == "expedition" for a in legal_actions(st))
    st = act(st, "expedition", 0, at="E5")
    assert st.turn.free_move
    st, ev = commit(st, 0)
    assert next(e for e in ev if e.kind == "expedition_result").data["won"]
    assert st.players[0].reserve == {"gold": 1, "science": 1}
    with pytest.raises(RulesError) as e:
        act(to_movement(st, "build"), "expedition", 0, at="E5")
    assert e.value.rule == "R-EXPLORE-3"


def test_bandeiras_free_move_fight_only_by_a_unit_there_since_an_earlier_turn__R_EXPLORE_3():
    # [ruling, FR "d'un tour précédent"] A unit that came onto a revealed Bandeiras tile this
    # turn (here with Renovate's edge move) may not fight it with the free move; one that
    # stood there since an earlier turn may, and fights alone.
    st = start(map_id="cisplatine-war", capitals=("D4", "H7"))
    st = to_movement(st, "renovate")
    explore(st, "E1", "bandeiras_5", face_up=True)
    place_unit(st, 0, "archer1", "F1")
    st = act(st, "move", unit="archer1", to="E1", kind="extra")
    assert st.players[0].units["archer1"] == "E1"
    with pytest.raises(RulesError) as e:
        act(st, "expedition", 0, at="E1")
    assert e.value.rule == "R-EXPLORE-3"
    assert not any(a.type == "expedition" for a in legal_actions(st))
    st = GameState.model_validate_json(st.model_dump_json())  # what arrived survives JSON
    place_unit(st, 0, "monarch", "E1")  # (as if there since an earlier turn)
    st = act(st, "expedition", 0, at="E1")
    assert st.combat is not None and st.combat.attacker.units == ["monarch"]


def test_revealed_bandeiras_cannot_be_built_on__R_EXPLORE_3__R_BUILD_7():
    st = start()
    put(st, 0, "sugar_field", "D4")
    explore(st, "E4", "bandeiras_6", face_up=True)
    give(st, 0, sugar_cane=1)
    with pytest.raises(RulesError) as e:
        act(st, "build", 0, building="sawmill", at="E4")
    assert e.value.rule in ("R-BUILD-7", "R-BUILD-3")


# --------------------------------------------------------------------------- rules of §8


def test_combat_only_in_movement_phase__R_COMBAT_1():
    st = duel(("green", "blue"))
    st.turn.step = "action"
    place_unit(st, 0, "cannon", "E4")
    place_unit(st, 1, "brawler1", "F4")
    with pytest.raises(RulesError) as e:
        act(st, "bombard", 0, unit="cannon", at="F4")
    assert e.value.rule == "R-MOVE-6"


def test_capital_never_attacked__R_COMBAT_2__R_MOVE_1():
    st = duel(("green", "blue"))
    place_unit(st, 0, "cannon", "G6")
    with pytest.raises(RulesError) as e:
        act(st, "move", 0, unit="cannon", to="H6", kind="free")
    assert e.value.rule == "R-MOVE-1"
    with pytest.raises(RulesError) as e:
        act(st, "bombard", 0, unit="cannon", at="H6")
    assert e.value.rule == "R-COMBAT-2"
    assert not any(
        getattr(a, "at", None) == "H6" or getattr(a, "to", None) == "H6" for a in legal_actions(st)
    )


def test_capital_never_bombarded_even_with_units_on_it__R_COMBAT_2():
    st = duel(("green", "blue"))
    place_unit(st, 0, "cannon", "G6")
    place_unit(st, 1, "brawler1", "H6")  # blue's own unit on blue's capital
    with pytest.raises(RulesError) as e:
        act(st, "bombard", 0, unit="cannon", at="H6")
    assert e.value.rule == "R-COMBAT-2"
    assert not any(
        a.type == "bombard" and getattr(a, "at", None) == "H6" for a in legal_actions(st)
    )


def test_bombard_all_units_on_both_hexes_and_own_tile_counts__R_COMBAT_3():
    # The attacker stands on its own trading post (2 VP): archer 2 + cannon 4 + tile 2 = 8;
    # the defender: brawler 2 + brawler 2 on its own sugar field (1) = 5.
    st = duel(("green", "blue"))
    put(st, 0, "trading_post", "E4")
    put(st, 1, "sugar_field", "F4")
    place_unit(st, 0, "cannon", "E4")
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "brawler1", "F4")
    place_unit(st, 1, "brawler2", "F4")
    st = act(st, "bombard", 0, unit="cannon", at="F4")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    res = result_event(ev)
    assert (res["attacker_fp"], res["defender_fp"]) == (8, 5)
    assert st.players[1].units["brawler1"] == "reserve"
    assert st.players[0].units["cannon"] == "E4" and st.players[0].units["archer1"] == "E4"


def test_losing_bombard_attackers_are_all_defeated__R_COMBAT_5():
    st = duel(("green", "blue"))
    place_unit(st, 0, "cannon", "E4")
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "cannon", "F4")
    place_unit(st, 1, "hussar", "F4")
    st.players[1].combat_cards = ["reinforcements"]
    st = act(st, "bombard", 0, unit="cannon", at="F4")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1, "reinforcements")
    assert result_event(ev)["winner"] == 1
    assert st.players[0].units["cannon"] == st.players[0].units["archer1"] == "reserve"


def test_building_alone_defends_with_its_fp_and_cards__R_COMBAT_6():
    st = duel(("green", "blue"))
    put(st, 1, "farm", "F4")  # 2 FP
    place_unit(st, 0, "archer1", "E4")  # 2 FP: a tie
    st.players[1].combat_cards = ["militia"]
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    assert st.combat.defender.seat == 1 and st.combat.defender.units == []
    st, _ = commit(st, 0)
    st, ev = commit(st, 1, "militia")
    res = result_event(ev)
    assert (res["attacker_fp"], res["defender_fp"], res["winner"]) == (2, 3, 1)


def test_won_battle_on_building_occupies_it__R_COMBAT_10():
    st = duel(("green", "blue"))
    put(st, 1, "sawmill", "F4", brazilwood=2)
    place_unit(st, 0, "monarch", "E4")
    st = act(st, "move", unit="monarch", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    assert "occupy" in kinds(ev)
    from rules.brazil.control import controlled_tiles, controls
    from rules.brazil.scoring import score

    assert controls(st, 0, "F4")
    assert "F4" in controlled_tiles(st, 0)
    assert score(st, 0)["categories"]["buildings"] == 1
    assert score(st, 1)["categories"]["buildings"] == 0
    # its goods can be spent by the occupier
    from rules.brazil.payment import find_payment

    assert find_payment(st, 0, ["brazilwood"]) is not None
    # ...but it stays part of the builder's empire for adjacency (R-VOC-7)
    from rules.brazil.game import Context

    assert Context(st).opponent_adjacent(0, "G4") or "G4" not in Context(st).board.neighbours["F4"]
    # and an occupied building cannot be renovated by its builder (R-COMBAT-11)
    st.current = 1
    st.turn.step = "action"
    with pytest.raises(RulesError):
        act(st, "renovate", 1, at="F4")


def test_control_returns_when_occupier_leaves__R_COMBAT_11():
    st = duel(("green", "blue"))
    put(st, 1, "sawmill", "F4")
    place_unit(st, 0, "monarch", "F4")  # occupying
    from rules.brazil.control import controls

    assert controls(st, 0, "F4")
    st = act(st, "move", unit="monarch", to="E4", kind="free")
    assert controls(st, 1, "F4") and not controls(st, 0, "F4")


def test_two_sides_only_and_only_the_active_player_attacks__R_COMBAT_7():
    st = archer_vs_brawler()
    with pytest.raises(RulesError) as e:
        act(st, "move", 1, unit="brawler1", to="E4", kind="free")
    assert e.value.rule == "R-TURN-1"
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    assert {st.combat.attacker.seat, st.combat.defender.seat} == {0, 1}


@pytest.mark.parametrize(
    ("painting", "role", "bonus"),
    [
        ("duque_de_caxias", "attacker", 1),
        ("duque_de_caxias", "defender", 1),
        ("maria_quiteria", "attacker", 1),
        ("maria_quiteria", "defender", 2),
    ],
)
def test_painting_modifiers__R_COMBAT_8(painting: str, role: str, bonus: int):
    st = archer_vs_brawler()
    st.players[0 if role == "attacker" else 1].paintings.append(painting)
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    res = result_event(ev)
    key = "attacker_fp" if role == "attacker" else "defender_fp"
    assert res[key] == 2 + bonus


def test_temiminos_defending_a_city__R_COMBAT_8():
    st = duel(("green", "blue"))
    put(st, 1, "olinda", "F4")  # a city: 5 FP
    st.players[1].paintings.append("temiminos")
    for u in ("cannon", "monarch"):
        place_unit(st, 0, u, "E4")
    st.players[0].paintings.append("guaicurus")  # the monarch carries the cannon
    st = act(st, "move", unit="monarch", to="F4", kind="free", carry=["cannon"])
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    res = result_event(ev)
    assert (res["attacker_fp"], res["defender_fp"]) == (9, 7)


def test_camarao_not_for_buildings_away_from_the_battle__R_COMBAT_8():
    # [ruling] Camarão's +1 counts only for the building fought over, not every one of
    # yours next to a forest.
    st = duel(("green", "blue"))
    st.players[0].paintings.append("camarao")
    put(st, 0, "sugar_field", "D3")  # next to the forest E3
    from rules.brazil.catalog import get_catalog

    b = get_catalog(st.data_pack).boards["test-duel"]
    assert any(b.terrain[n] == "forest" for n in b.neighbours["D3"])
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "brawler1", "F4")
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    res = result_event(ev)
    assert res["attacker_fp"] == 2
    assert "Camarão" not in dict(res["attacker_breakdown"])


def test_camarao_for_the_building_fought_over_next_to_a_forest__R_COMBAT_8():
    st = duel(("green", "blue"))
    st.players[1].paintings.append("camarao")
    put(st, 1, "sugar_field", "E4")  # fought over, next to the forest E3
    put(st, 1, "farm", "D4")  # also next to E3, but not fought over
    place_unit(st, 1, "brawler1", "E4")
    place_unit(st, 0, "archer1", "F4")
    st = act(st, "move", unit="archer1", to="E4", kind="free")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    assert dict(result_event(ev)["defender_breakdown"])["Camarão"] == 1


@pytest.mark.parametrize(
    ("arch", "role", "bonus"), [("import", "attacker", 1), ("trade", "defender", 2)]
)
def test_tactical_advantage_while_token_on_import_or_trade__R_MOVE_3__R_COMBAT_8(
    arch: str, role: str, bonus: int
):
    st = duel(("green", "blue"), arch="build")
    if role == "attacker":
        st.players[0].token_arch = arch
    else:
        st.players[1].token_arch = arch
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "brawler1", "F4")
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    res = result_event(ev)
    assert res["attacker_fp" if role == "attacker" else "defender_fp"] == 2 + bonus


# --------------------------------------------------------------------------- cards


def test_cards_are_secret_until_both_have_chosen__R_COMBAT_4():
    st = archer_vs_brawler()
    st.players[0].combat_cards = ["reinforcements", "militia"]
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, ev = commit(st, 0, "reinforcements")
    # the defender (and spectators) see that a card was committed, not which
    assert view(st, 1).combat.attacker.cards == ["?"]
    assert view(st, None).combat.attacker.cards == ["?"]
    assert view(st, 0).combat.attacker.cards == ["reinforcements"]
    assert all(e.visible(1) for e in ev if e.kind == "cards_committed")
    assert "reinforcements" not in str([e.text for e in ev])
    # the defender decides now, and only the defender
    assert deciders(st) == [1]
    assert {a.seat for a in legal_actions(st)} == {1}
    with pytest.raises(RulesError):
        commit(st, 0, "militia")
    st, ev = commit(st, 1)
    texts = [e.text for e in ev if e.kind == "cards_revealed"]
    assert "Reinforcements" in texts[0]  # the attacker's cards are revealed first


def test_at_most_three_cards_and_pass_allowed__R_COMBAT_4():
    st = archer_vs_brawler()
    st.players[0].combat_cards = ["militia", "militia", "militia"]
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    opts = legal_actions(st)
    assert any(a.cards == () for a in opts)  # "no cards"
    assert max(len(a.cards) for a in opts) == 3
    st, ev = commit(st, 0, "militia", "militia", "militia")
    st, ev = commit(st, 1)
    assert result_event(ev)["attacker_fp"] == 5


def test_parley_cancels_attack_for_one_gold():
    st = duel(("green", "blue"))
    place_unit(st, 0, "monarch", "E4")
    place_unit(st, 1, "brawler1", "F4")
    st.players[1].combat_cards = ["parley"]
    give(st, 1, gold=1)
    st = act(st, "move", unit="monarch", to="F4", kind="free")
    with pytest.raises(RulesError):  # attackers cannot play Parley
        st.players[0].combat_cards = ["parley"]
        commit(st, 0, "parley")
    st.players[0].combat_cards = []
    st, _ = commit(st, 0)
    st, ev = commit(st, 1, "parley")
    assert "parley" in kinds(ev) and "battle_result" not in kinds(ev)
    assert st.players[0].units["monarch"] == "E4"  # went back where it came from
    assert st.players[0].reserve.get("gold") == 1 and not st.players[1].reserve.get("gold")
    assert st.combat is None and "parley" in st.combat_discard


def test_conde_deu_plus_two_with_adjacent_unit():
    st = duel(("green", "blue"))
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 0, "archer2", "G4")  # adjacent to F4
    place_unit(st, 1, "brawler1", "F4")
    st.players[0].combat_cards = ["conde_deu"]
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, _ = commit(st, 0, "conde_deu")
    st, ev = commit(st, 1)
    assert result_event(ev)["attacker_fp"] == 4


def test_conde_deu_units_in_the_battle_do_not_count_as_adjacent__R_COMBAT_8():
    # [ruling] +2 only for a unit of yours next to the battle hex that is not in the battle:
    # in a bombard, the units beside the cannon fight too.
    st = duel(("green", "blue"))
    place_unit(st, 0, "cannon", "E4")
    place_unit(st, 0, "archer2", "E4")  # adjacent to F4, but bombards with the cannon
    place_unit(st, 1, "brawler1", "F4")
    st.players[0].combat_cards = ["conde_deu"]
    st = act(st, "bombard", 0, unit="cannon", at="F4")
    st, _ = commit(st, 0, "conde_deu")
    st, ev = commit(st, 1)
    assert dict(result_event(ev)["attacker_breakdown"])["Conde d'Eu"] == 1


def test_acampamento_pays_resources_for_fp():
    st = archer_vs_brawler()
    st.players[0].combat_cards = ["acampamento"]
    give(st, 0, coffee=2, cotton=1)
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, _ = commit(st, 0, "acampamento", camp=("coffee", "coffee"))
    assert st.players[0].reserve == {"coffee": 2, "cotton": 1}  # paid at the reveal (R-COMBAT-4)
    st, ev = commit(st, 1)
    assert st.players[0].reserve == {"cotton": 1}
    assert result_event(ev)["attacker_fp"] == 4


def test_retreat_moves_losers_to_an_adjacent_empty_hex():
    st = duel(("green", "blue"))
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "cannon", "F4")
    st.players[0].combat_cards = ["retreat"]
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, _ = commit(st, 0, "retreat")
    st, _ev = commit(st, 1)
    assert pending_kind(st, 0) == "retreat"
    choices = [a.at for a in legal_actions(st) if a.at]
    assert "E4" in choices
    st = act(st, "retreat_to", 0, at=choices[0])
    assert st.players[0].units["archer1"] == choices[0]


def test_war_card_after_a_won_battle():
    st = duel(("green", "blue"))
    place_unit(st, 0, "monarch", "E4")
    place_unit(st, 1, "brawler1", "F4")
    st.players[0].gold_cards = ["war"]
    st = act(st, "move", unit="monarch", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, _ = commit(st, 1)
    assert pending_kind(st, 0) == "war_card"
    st, _ev = act_ev(st, "war_card", 0, play=True)
    assert st.players[0].reserve.get("gold") == 1
    assert len(st.players[0].combat_cards) == 1
    assert "war" in st.gold_discard


def test_war_question_does_not_reveal_a_war_card():
    # Any winner holding gold cards is asked; only one really holding War may play it.
    st = duel(("green", "blue"))
    place_unit(st, 0, "monarch", "E4")
    place_unit(st, 1, "brawler1", "F4")
    st.players[0].gold_cards = ["commerce"]
    st = act(st, "move", unit="monarch", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, _ = commit(st, 1)
    assert pending_kind(st, 0) == "war_card"
    assert [a.play for a in legal_actions(st)] == [False]
    with pytest.raises(RulesError):
        act(st, "war_card", 0, play=True)
    st = act(st, "war_card", 0, play=False)
    assert st.players[0].gold_cards == ["commerce"] and not st.pending


def test_war_card_cannot_be_played_as_free_action():
    st = start()
    st.players[0].gold_cards = ["war"]
    with pytest.raises(RulesError):
        act(st, "play_gold_card", 0, card="war")


def test_defeated_units_score_and_redeploy_free__R_COMBAT_5__R_RECRUIT_3():
    st = duel(("green", "blue"))
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "hussar", "F4")
    st = act(st, "move", unit="archer1", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, _ = commit(st, 1)
    from rules.brazil.scoring import score

    assert st.players[0].units["archer1"] == "reserve"
    assert score(st, 0)["categories"]["units"] == 2


# --------------------------------------------------------------------------- solo


def solo() -> GameState:
    return start(
        1, colours=("green",), monarchs=("pedro_ii",), capitals=("C3",), map_id="test-solo"
    )


def test_solo_setup_presets_orange_army__R_SOLO_1():
    st = solo()
    assert st.solo and st.players[0].colour == "green"
    assert st.tiles["H6"].kind == "capital" and st.tiles["H6"].owner == -1
    assert st.enemy_units == {"corsair1": "H6", "cavalry": "G6"}
    assert st.max_rounds == 20


def test_solo_enemy_defends_with_one_card_per_unit__R_COMBAT_13():
    st = to_movement(solo(), "build")
    place_unit(st, 0, "monarch", "F6")
    n_deck = len(st.combat_deck)
    st = act(st, "move", unit="monarch", to="G6", kind="free")
    st, ev = commit(st, 0)
    assert len(st.combat_deck) == n_deck - 1  # one card for the one cavalry
    assert "enemy_cards" in kinds(ev) and "battle_result" in kinds(ev)
    res = result_event(ev)
    assert res["defender"] == -1
    assert res["defender_fp"] >= 3


def test_solo_enemy_capital_can_be_attacked_and_captured__R_SOLO_1__R_COMBAT_2():
    st = to_movement(solo(), "build")
    st.enemy_units = {"corsair1": "reserve", "cavalry": "reserve"}
    place_unit(st, 0, "monarch", "G6")
    st = act(st, "move", unit="monarch", to="H6", kind="free")
    st, ev = commit(st, 0)
    assert result_event(ev)["winner"] == 0
    assert st.solo_captured and st.players[0].units["monarch"] == "H6"


def test_solo_win_as_soon_as_conditions_hold__R_SOLO_2():
    st = to_movement(solo(), "build")
    st.era = 3
    st.solo_captured = True
    for i, u in enumerate(st.players[0].units):
        place_unit(st, 0, u, ["C2", "D3", "D4", "B4", "C4"][i])
    # a move completes the position: the game is won at once
    st, ev = act_ev(st, "move", unit="archer1", to="B2", kind="free")
    assert st.phase == "ended" and st.result["solo_won"] is True
    assert "solo_result" in kinds(ev)


def test_solo_lost_after_round_twenty__R_SOLO_2():
    st = to_movement(solo(), "build")
    st.round = 20
    st, ev = act_ev(st, "end_turn")
    assert st.phase == "ended" and st.result["solo_won"] is False
    assert any(e.kind == "solo_result" and not e.data["won"] for e in ev)


def test_solo_era_three_mission_not_needed__R_SOLO_2():
    st = to_movement(solo(), "build")
    st.era = 3
    st.solo_captured = True
    assert not st.end_triggered
    for i, u in enumerate(st.players[0].units):
        place_unit(st, 0, u, ["C2", "D3", "D4", "B4", "C4"][i])
    st, _ = act_ev(st, "end_turn")
    assert st.result["solo_won"]


def test_entering_enemy_unit_starts_battle_immediately__R_MOVE_5():
    st = archer_vs_brawler()
    st, ev = act_ev(st, "move", unit="archer1", to="F4", kind="free")
    assert "battle" in kinds(ev) and st.combat is not None
    assert st.players[0].units["archer1"] == "E4"  # it enters only if it wins


# --------------------------------------------------------------------------- issue 22, defect 2


def test_winning_onto_a_face_down_bandeiras_starts_the_expedition__R_EXPLORE_1_R_EXPLORE_3():
    # A blue unit stands on a face-down tile (as a Retreat could leave it before the fix
    # below); green wins the battle there, enters, reveals Bandeiras and must fight it at
    # once. The expedition used to be started and then wiped with the won battle, leaving
    # green's card decision with no battle: commit_cards refused (R-COMBAT-4).
    st = duel(("green", "blue"))
    place_unit(st, 0, "monarch", "E4")
    place_unit(st, 1, "brawler1", "F3")
    explore(st, "F3", "bandeiras_4")
    st = act(st, "move", unit="monarch", to="F3", kind="free")
    st, _ = commit(st, 0)
    st, ev = commit(st, 1)
    assert "battle_result" in kinds(ev) and "expedition" in kinds(ev)
    assert st.combat is not None and st.combat.kind == "bandeiras"
    assert st.combat.attacker.units == ["monarch"]
    assert pending_kind(st, 0) == "combat_cards"
    st, ev = commit(st, 0)  # applies
    assert st.combat is None and any(e.kind.startswith("expedition_result") for e in ev)


def test_retreat_never_goes_onto_a_face_down_tile__R_EXPLORE_1():
    # docs/RULINGS.md "Combat cards: Retreat": an unexplored hex is not an empty hex.
    st = duel(("green", "blue"))
    place_unit(st, 0, "monarch", "E4")
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "brawler1", "F4")
    st.players[1].combat_cards = ["retreat"]
    explore(st, "F3", "bandeiras_4")
    st = act(st, "move", unit="monarch", to="F4", kind="free")
    st, _ = commit(st, 0)
    st, _ = commit(st, 1, "retreat")
    assert pending_kind(st, 1) == "retreat"
    choices = {a.at for a in legal_actions(st, 1)}
    assert "F3" not in choices and {None, "G3", "F5", "G5"} <= choices
