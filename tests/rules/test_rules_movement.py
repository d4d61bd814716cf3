"""Movement phase: free move, transport, the arches' extra moves, water, and exploration on
entering a face-down tile (RULES.md §5: R-MOVE-1..4, the exploration part of R-MOVE-5).

Test map ``test-duel`` (tests/data/pack): seat 0 (green) has its capital at C3, seat 1 (blue)
at H6. Useful hexes: forests B3 E3 E2 A2, gold mine B4, water G4 H2 H3 H4; edge hexes include
A2 A3 A4 G3 F4 G5 H5 (map border or next to water); D3 D4 C4 are inland plains.
"""

from __future__ import annotations

import pytest

from rules.brazil import GameState, legal_actions
from rules.brazil.catalog import get_catalog
from tests.helpers import (
    PACK,
    act,
    act_ev,
    assert_illegal,
    explore,
    is_legal,
    kinds,
    place_unit,
    put,
    start,
    to_movement,
)

# tests.helpers.act names its action-type parameter ``kind``, which clashes with the ``kind``
# field of a move; these local short-hands take the action type as ``atype``.


def moving(arch: str | None = "renovate", **units: str) -> GameState:
    """Seat 0 in its movement phase after ``arch``, with its units placed as given."""
    st = start()
    for u, at in units.items():
        place_unit(st, 0, u, at)
    return to_movement(st, arch)


# ------------------------------------------------------------------------ R-MOVE-1


def test_free_move_to_adjacent_hex__R_MOVE_1() -> None:
    st = moving(dragoon="D3")
    assert is_legal(st, "move", unit="dragoon", to="D4", kind="free")
    new, ev = act_ev(st, "move", 0, unit="dragoon", to="D4", kind="free")
    assert new.players[0].units["dragoon"] == "D4"
    assert new.turn.free_move is True
    assert new.turn.extra_move is False
    mv = [e for e in ev if e.kind == "move"]
    assert len(mv) == 1
    assert mv[0].data == {
        "units": ["dragoon"],
        "src": "D3",
        "to": "D4",
        "move": "free",
    }
    assert mv[0].visible_to is None
    # the input state is untouched
    assert st.players[0].units["dragoon"] == "D3"


def test_free_moves_listed_are_exactly_the_neighbours__R_MOVE_1() -> None:
    st = moving(arch="import", dragoon="D4")
    free = {a.to for a in legal_actions(st, 0) if a.type == "move" and a.kind == "free"}
    assert free == {"E4", "E3", "D3", "C4", "D5", "E5"}


def test_move_to_non_adjacent_hex_refused__R_MOVE_1() -> None:
    st = moving(dragoon="D3")
    assert_illegal(st, "move", "R-MOVE-1", unit="dragoon", to="D5", kind="free")


def test_unit_not_on_the_map_cannot_move__R_MOVE_1() -> None:
    st = moving(dragoon="D3")
    assert st.players[0].units["archer1"] == "board"
    assert_illegal(st, "move", "R-MOVE-1", unit="archer1", to="C4", kind="free")
    st.players[0].units["archer1"] = "reserve"  # a defeated unit is not on the map either
    assert_illegal(st, "move", "R-MOVE-1", unit="archer1", to="C4", kind="free")


def test_no_unit_may_enter_an_opponents_capital__R_MOVE_1() -> None:
    st = moving(dragoon="G6")
    assert_illegal(st, "move", "R-MOVE-1", unit="dragoon", to="H6", kind="free")


def test_own_capital_may_be_entered__R_MOVE_1() -> None:
    st = moving(dragoon="D3")
    assert is_legal(st, "move", unit="dragoon", to="C3", kind="free")
    new = act(st, "move", 0, unit="dragoon", to="C3", kind="free")
    assert new.players[0].units["dragoon"] == "C3"


def test_only_one_free_move_per_turn__R_TURN_3() -> None:
    # R-MOVE-1 / R-TURN-3: the free move is one move of one unit.
    st = act(moving(dragoon="D3", archer1="C4"), "move", 0, unit="dragoon", to="D4")
    assert_illegal(st, "move", "R-TURN-3", unit="archer1", to="D5", kind="free")


def test_no_moves_during_the_action_phase__R_MOVE_1() -> None:
    st = start()
    place_unit(st, 0, "dragoon", "D3")
    assert_illegal(st, "move", "R-TURN-3", unit="dragoon", to="D4", kind="free")


# ------------------------------------------------------------------------ R-MOVE-2


def test_transport_unit_carries_units_on_its_hex__R_MOVE_2() -> None:
    st = moving(dragoon="D3", archer1="D3", archer2="D3")
    assert is_legal(st, "move", unit="dragoon", to="D4", carry=["archer1", "archer2"])
    assert is_legal(st, "move", unit="dragoon", to="D4", carry=["archer1"])
    new, ev = act_ev(st, "move", 0, unit="dragoon", to="D4", carry=["archer1"])
    units = new.players[0].units
    assert (units["dragoon"], units["archer1"], units["archer2"]) == ("D4", "D4", "D3")
    assert [e.data["units"] for e in ev if e.kind == "move"] == [["dragoon", "archer1"]]
    assert new.turn.free_move is True


def test_unit_without_transport_moves_alone__R_MOVE_2() -> None:
    st = moving(dragoon="D3", archer1="D3")
    assert_illegal(st, "move", "R-MOVE-2", unit="archer1", to="D4", carry=["dragoon"])


def test_transport_carries_only_units_on_its_own_hex__R_MOVE_2() -> None:
    st = moving(dragoon="D3", archer1="C4")
    assert_illegal(st, "move", "R-MOVE-2", unit="dragoon", to="D4", carry=["archer1"])


# ------------------------------------------------------------------------ R-MOVE-3


def test_recruit_extra_move_goes_to_capital_any_distance__R_MOVE_3() -> None:
    st = moving(arch="recruit", dragoon="F5")
    assert is_legal(st, "move", unit="dragoon", to="C3", kind="extra")
    new, ev = act_ev(st, "move", 0, unit="dragoon", to="C3", kind="extra")
    assert new.players[0].units["dragoon"] == "C3"
    assert new.turn.extra_move is True and new.turn.free_move is False
    assert [e.data["move"] for e in ev if e.kind == "move"] == ["extra"]


def test_recruit_extra_move_to_own_city_but_not_elsewhere__R_MOVE_3() -> None:
    st = moving(arch="recruit", dragoon="F5")
    put(st, 0, "vila_rica", "B7")  # a city of seat 0, far away
    put(st, 1, "olinda", "I4")  # a city of seat 1
    assert is_legal(st, "move", unit="dragoon", to="B7", kind="extra")
    new = act(st, "move", 0, unit="dragoon", to="B7", kind="extra")
    assert new.players[0].units["dragoon"] == "B7"
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="B6", kind="extra")
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="I4", kind="extra")
    # not even an adjacent plain hex: the Recruit move only goes home
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="F6", kind="extra")


def test_painting_extra_move_to_adjacent_forest__R_MOVE_3() -> None:
    st = moving(arch="painting", dragoon="D3")
    assert is_legal(st, "move", unit="dragoon", to="E3", kind="extra")
    new = act(st, "move", 0, unit="dragoon", to="E3", kind="extra")
    assert new.players[0].units["dragoon"] == "E3"
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="D4", kind="extra")


def test_painting_extra_move_not_onto_a_built_forest__R_MOVE_3() -> None:
    # R-BUILD-9: a built hex is no longer forest.
    st = moving(arch="painting", dragoon="D3")
    put(st, 0, "sawmill", "E3")
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="E3", kind="extra")


def test_build_extra_move_to_adjacent_own_building_or_city__R_MOVE_3() -> None:
    st = moving(arch="build", dragoon="D3")
    put(st, 0, "sawmill", "E3")
    put(st, 0, "sugar_field", "D4")
    assert is_legal(st, "move", unit="dragoon", to="E3", kind="extra")
    assert (
        act(st, "move", 0, unit="dragoon", to="E3", kind="extra").players[0].units["dragoon"]
        == "E3"
    )
    assert (
        act(st, "move", 0, unit="dragoon", to="D4", kind="extra").players[0].units["dragoon"]
        == "D4"
    )
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="D2", kind="extra")  # empty plain
    st2 = moving(arch="build", dragoon="D3")
    put(st2, 0, "vila_rica", "D4")
    assert (
        act(st2, "move", 0, unit="dragoon", to="D4", kind="extra").players[0].units["dragoon"]
        == "D4"
    )
    # not an opponent's building
    st3 = moving(arch="build", dragoon="F6")
    put(st3, 1, "sugar_field", "G6")
    assert_illegal(st3, "move", "R-MOVE-3", unit="dragoon", to="G6", kind="extra")


def test_build_extra_move_may_end_on_own_capital__R_MOVE_3() -> None:
    # docs/RULINGS.md: "a capital counts as a city, except in combat" [seed FR p. 6].
    st = moving(arch="build", dragoon="D3")
    assert is_legal(st, "move", unit="dragoon", to="C3", kind="extra")
    assert (
        act(st, "move", 0, unit="dragoon", to="C3", kind="extra").players[0].units["dragoon"]
        == "C3"
    )


def test_renovate_extra_move_edge_to_edge__R_MOVE_3() -> None:
    st = moving(arch="renovate", dragoon="A3")
    assert is_legal(st, "move", unit="dragoon", to="A4", kind="extra")
    new = act(st, "move", 0, unit="dragoon", to="A4", kind="extra")
    assert new.players[0].units["dragoon"] == "A4"
    # B3 is inland (6 neighbours, no water next to it)
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="B3", kind="extra")
    # from an inland hex there is no Renovate move at all
    st2 = moving(arch="renovate", dragoon="D3")
    assert_illegal(st2, "move", "R-MOVE-3", unit="dragoon", to="D2", kind="extra")


def test_renovate_edge_includes_hexes_next_to_water__R_MOVE_3() -> None:
    # F4 and G5 have 6 neighbours but are next to the lake (G4): both are edge hexes.
    st = moving(arch="renovate", dragoon="F4")
    new = act(st, "move", 0, unit="dragoon", to="G5", kind="extra")
    assert new.players[0].units["dragoon"] == "G5"


def test_edge_hexes_follow_the_definition__R_MOVE_3() -> None:
    # edge = fewer than 6 neighbours on the map, a water hex, or a hex next to water
    b = get_catalog(PACK).boards["test-duel"]
    water = {h for h, t in b.terrain.items() if t == "water"}
    expected = {
        h
        for h in b.terrain
        if len(b.neighbours[h]) < 6 or h in water or any(n in water for n in b.neighbours[h])
    }
    assert set(b.edge) == expected
    st = moving(arch="renovate", dragoon="E4")  # inland, though next to the edge hex F4
    assert "F4" in b.neighbours["E4"] and "E4" not in b.edge
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="F4", kind="extra")


def test_manufacture_extra_move_to_adjacent_gold_mine__R_MOVE_3() -> None:
    st = moving(arch="manufacture", dragoon="C4")
    assert is_legal(st, "move", unit="dragoon", to="B4", kind="extra")
    new = act(st, "move", 0, unit="dragoon", to="B4", kind="extra")
    assert new.players[0].units["dragoon"] == "B4"
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="D4", kind="extra")
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="C5", kind="extra")  # forest


@pytest.mark.parametrize("arch", ["import", "trade", None])
def test_import_trade_and_pass_give_no_extra_move__R_MOVE_3(arch: str | None) -> None:
    st = moving(arch=arch, dragoon="D3")
    assert not [a for a in legal_actions(st, 0) if a.type == "move" and a.kind == "extra"]
    assert_illegal(st, "move", "R-MOVE-3", unit="dragoon", to="D4", kind="extra")


def test_free_and_extra_move_in_either_order_by_any_units__R_MOVE_3() -> None:
    # R-TURN-3: extra first, then the free move by another unit; then nothing more.
    st = moving(arch="painting", dragoon="D3", archer1="C4")
    st = act(st, "move", 0, unit="dragoon", to="E3", kind="extra")
    assert is_legal(st, "move", unit="archer1", to="D4", kind="free")
    assert not any(a.type == "move" and a.kind == "extra" for a in legal_actions(st, 0))
    st = act(st, "move", 0, unit="archer1", to="D4", kind="free")
    assert st.turn.free_move and st.turn.extra_move
    assert not any(a.type == "move" for a in legal_actions(st, 0))
    assert_illegal(st, "move", "R-TURN-3", unit="dragoon", to="F3", kind="extra")
    # the same unit may make both moves
    st2 = moving(arch="painting", dragoon="D4")
    st2 = act(st2, "move", 0, unit="dragoon", to="D3", kind="free")
    st2 = act(st2, "move", 0, unit="dragoon", to="E3", kind="extra")
    assert st2.players[0].units["dragoon"] == "E3"


# ------------------------------------------------------------------------ R-MOVE-4


def test_free_move_may_enter_and_leave_water__R_MOVE_4() -> None:
    st = moving(arch="import", dragoon="G3")
    assert is_legal(st, "move", unit="dragoon", to="G4", kind="free")
    assert act(st, "move", 0, unit="dragoon", to="G4").players[0].units["dragoon"] == "G4"
    st2 = moving(arch="import", dragoon="G4")
    assert act(st2, "move", 0, unit="dragoon", to="G5").players[0].units["dragoon"] == "G5"


def test_renovate_extra_move_may_enter_and_leave_water__R_MOVE_4() -> None:
    st = moving(arch="renovate", dragoon="G3")
    assert is_legal(st, "move", unit="dragoon", to="G4", kind="extra")
    assert (
        act(st, "move", 0, unit="dragoon", to="G4", kind="extra").players[0].units["dragoon"]
        == "G4"
    )
    st2 = moving(arch="renovate", dragoon="G4")
    assert (
        act(st2, "move", 0, unit="dragoon", to="H5", kind="extra").players[0].units["dragoon"]
        == "H5"
    )


def test_other_extra_moves_cannot_enter_water__R_MOVE_4() -> None:
    for arch in ("painting", "build", "manufacture"):
        st = moving(arch=arch, dragoon="G3")
        assert_illegal(st, "move", "R-MOVE-4", unit="dragoon", to="G4", kind="extra")


def test_recruit_extra_move_cannot_leave_water__R_MOVE_4() -> None:
    # The Recruit move would reach the capital from anywhere, but not from a water hex.
    st = moving(arch="recruit", dragoon="G4")
    assert_illegal(st, "move", "R-MOVE-4", unit="dragoon", to="C3", kind="extra")
    st2 = moving(arch="recruit", dragoon="G5")
    assert (
        act(st2, "move", 0, unit="dragoon", to="C3", kind="extra").players[0].units["dragoon"]
        == "C3"
    )


# ------------------------------------------------------------------------ R-MOVE-5 (exploration)


def test_entering_face_down_tile_reveals_it__R_MOVE_5() -> None:
    st = moving(arch="import", dragoon="E3")
    explore(st, "F3", "unknown_species")
    new, ev = act_ev(st, "move", 0, unit="dragoon", to="F3")
    assert kinds(ev) == ["move", "explore"]
    explore_ev = ev[1]
    assert explore_ev.visible_to is None  # R-EXPLORE-1: revealed to all
    assert explore_ev.data == {"hex": "F3", "tile": "unknown_species"}
    assert new.players[0].units["dragoon"] == "F3"
    assert "F3" not in new.exploration
    assert new.players[0].kept_tiles == ["unknown_species"]


def test_carried_units_reveal_together__R_MOVE_5() -> None:
    st = moving(arch="import", dragoon="E3", archer1="E3")
    explore(st, "F3", "minas_gerais")
    new, ev = act_ev(st, "move", 0, unit="dragoon", to="F3", carry=["archer1"])
    assert kinds(ev) == ["move", "explore"]
    assert new.exploration["F3"].face_up is True
    assert new.players[0].units["archer1"] == "F3"


def test_entering_face_up_tile_reveals_nothing_again__R_MOVE_5() -> None:
    st = moving(arch="import", dragoon="E3")
    explore(st, "F3", "minas_gerais", face_up=True)
    new, ev = act_ev(st, "move", 0, unit="dragoon", to="F3")
    assert kinds(ev) == ["move"]
    assert new.exploration["F3"].face_up is True
