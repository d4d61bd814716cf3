"""Exploration tiles (RULES.md §9: R-EXPLORE-1, R-EXPLORE-2, R-EXPLORE-4; Quilombo's extra
mission R-MISSION-4).

Fog hexes of the test map: F3, E5, C7. ``explore(st, hex, tile)`` puts a known tile there.
Seat 0's units enter F3 from E3 (forest) or F2 (plain).
"""

from __future__ import annotations

import pytest

from rules.brazil import Event, GameState, legal_actions, view
from rules.brazil.scoring import score
from rules.brazil.state import Turn
from tests.helpers import (
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


def enter(tile: str, at: str = "F3", src: str = "F2") -> tuple[GameState, list[Event]]:
    """Seat 0's archer enters a face-down ``tile`` at ``at`` with its free move."""
    st = start()
    explore(st, at, tile)
    place_unit(st, 0, "archer1", src)
    st = to_movement(st, "import")
    return act_ev(st, "move", unit="archer1", to=at)


# ------------------------------------------------------------------------ R-EXPLORE-1


def test_entering_reveals_the_tile_to_all__R_EXPLORE_1() -> None:
    new, ev = enter("minas_gerais")
    assert kinds(ev) == ["move", "explore"]
    e = ev[1]
    assert e.visible_to is None and e.seat == 0
    assert e.data == {"hex": "F3", "tile": "minas_gerais"}
    assert new.exploration["F3"].face_up is True
    for seat in (0, 1, None):
        assert view(new, seat).exploration["F3"].tile == "minas_gerais"


def test_face_down_tiles_are_hidden_from_everyone__R_EXPLORE_1() -> None:
    st = start()
    explore(st, "F3", "cultura")
    for seat in (0, 1, None):
        assert view(st, seat).exploration["F3"].tile == "?"


# ------------------------------------------------------------------------ R-EXPLORE-2


def test_mandioca_gives_a_resource_of_choice__R_EXPLORE_2() -> None:
    new, _ = enter("mandioca")
    assert "F3" not in new.exploration  # immediate tile: discarded
    assert [(d.seat, d.kind) for d in new.pending] == [(0, "choose_good")]
    answers = {a.good for a in legal_actions(new, 0)}
    assert answers == {"sugar_cane", "coffee", "brazilwood", "cotton"}
    assert_illegal(new, "choose_good", "R-VOC-1", good="gold")
    done, ev2 = act_ev(new, "choose_good", good="cotton")
    assert done.players[0].reserve == {"cotton": 1}
    assert [e.data for e in ev2 if e.kind == "gain"] == [{"goods": {"cotton": 1}}]


def test_unknown_species_is_kept__R_EXPLORE_2() -> None:
    new, _ = enter("unknown_species")
    assert "F3" not in new.exploration
    assert new.players[0].kept_tiles == ["unknown_species"]
    assert score(new, 0)["categories"]["exploration"] == 1


@pytest.mark.parametrize(("n", "vp"), [(0, 0), (1, 1), (2, 3), (3, 5)])
def test_unknown_species_end_scores_1_3_5__R_EXPLORE_2(n: int, vp: int) -> None:
    st = start()
    st.players[0].kept_tiles = ["unknown_species"] * n
    assert score(st, 0)["categories"]["exploration"] == vp


def test_minas_gerais_stays_and_counts_as_every_terrain__R_EXPLORE_2() -> None:
    st, _ = enter("minas_gerais")
    assert st.exploration["F3"].face_up is True
    # seat 0's next turn: build a sawmill (forest only) on the plain F3 next to its sawmill E3
    st.turn = Turn()
    st.players[0].token_arch = None
    st.players[0].units["archer1"] = "F2"
    put(st, 0, "sawmill", "E3")
    st.players[0].reserve = {"coffee": 1}
    assert is_legal(st, "build", building="sawmill", at="F3")
    new, ev = act_ev(st, "build", building="sawmill", at="F3")
    assert new.tiles["F3"].id == "sawmill"
    assert "F3" not in new.exploration
    # the first builder gains 1 gold
    assert new.players[0].reserve == {"gold": 1}
    assert {"goods": {"gold": 1}} in [e.data for e in ev if e.kind == "gain"]


def test_without_minas_gerais_a_fog_hex_is_plain__R_EXPLORE_2() -> None:
    # R-BUILD-7: a face-down tile counts as plain, and is discarded unseen by a building.
    st = start()
    explore(st, "F3", "minas_gerais")
    put(st, 0, "sawmill", "E3")
    st.players[0].reserve = {"coffee": 1, "brazilwood": 1}
    assert_illegal(st, "build", "R-BUILD-3", building="sawmill", at="F3")
    new, ev = act_ev(st, "build", building="sugar_field", at="F3")
    assert "explore_discard" in kinds(ev)
    assert "F3" not in new.exploration
    assert new.players[0].reserve == {"coffee": 1}  # no gold: the tile gave nothing


def test_cultura_is_kept_by_its_builder__R_EXPLORE_2() -> None:
    st, _ = enter("cultura")
    assert st.exploration["F3"].face_up is True
    assert st.players[0].kept_tiles == []
    st.turn = Turn()
    st.players[0].token_arch = None
    put(st, 0, "sawmill", "E3")
    st.players[0].reserve = {"coffee": 1}
    new, ev = act_ev(st, "build", building="sawmill", at="F3")  # every terrain
    assert new.players[0].kept_tiles == ["cultura"]
    assert [e.data for e in ev if e.kind == "keep_tile"] == [{"tile": "cultura"}]
    assert score(new, 0)["categories"]["exploration"] == 2


def test_river_basin_adjacent_buildings_produce_one_more_crop_now__R_EXPLORE_2() -> None:
    st = start()
    st.era = 3
    explore(st, "F3", "river_basin")
    put(st, 0, "sawmill", "E3")  # brazilwood
    put(st, 0, "trading_post", "E2")  # brazilwood + gold: the crop only
    put(st, 0, "church", "F4", gold=1, science=1)  # no crop: nothing
    put(st, 1, "farm", "G3", coffee=2)  # every adjacent building, whoever built it
    put(st, 0, "sugar_field", "D3")  # not adjacent
    place_unit(st, 0, "archer1", "F2")
    st = to_movement(st, "import")
    new, ev = act_ev(st, "move", unit="archer1", to="F3")
    assert new.exploration["F3"].face_up is True  # it stays on the map
    goods = {h: new.tiles[h].goods for h in ("E3", "E2", "F4", "G3", "D3")}
    assert goods == {
        "E3": {"brazilwood": 1},
        "E2": {"brazilwood": 1},
        "F4": {"gold": 1, "science": 1},
        "G3": {"coffee": 3},
        "D3": {},
    }
    assert sorted(e.data["hex"] for e in ev if e.kind == "produce") == ["E2", "E3", "G3"]


def test_river_basin_later_builds_and_renovations_produce_more__R_EXPLORE_2() -> None:
    st = start()
    explore(st, "F3", "river_basin", face_up=True)
    put(st, 0, "sawmill", "E3")
    put(st, 0, "sugar_field", "F2")
    st.players[0].reserve = {"coffee": 1, "brazilwood": 1}
    renovated = act(st, "renovate", at="E3", payment=[{"source": "reserve", "what": "coffee"}])
    assert renovated.tiles["E3"].goods == {"brazilwood": 3}
    built = act(st, "build", building="sugar_field", at="G3")
    assert built.tiles["G3"].goods == {"sugar_cane": 3}


def test_river_basin_cannot_be_built_on__R_EXPLORE_2() -> None:
    st = start()
    explore(st, "F3", "river_basin", face_up=True)
    put(st, 0, "sawmill", "E3")
    st.players[0].reserve = {"brazilwood": 1}
    assert_illegal(st, "build", "R-BUILD-7", building="sugar_field", at="F3")


def test_bandeiras_stays_and_must_be_fought_at_once__R_EXPLORE_2() -> None:
    new, _ = enter("bandeiras_4")
    assert new.exploration["F3"].face_up is True
    assert new.combat is not None and new.combat.kind == "bandeiras"
    assert new.combat.requirement == 4


def test_quilombo_draws_a_mission_of_any_era__R_MISSION_4() -> None:
    st = start()
    explore(st, "F3", "quilombo")
    place_unit(st, 0, "archer1", "F2")
    st = to_movement(st, "import")
    st.mission_decks["3"] = []  # no era III card left: not offered
    new, _ = act_ev(st, "move", unit="archer1", to="F3")
    assert "F3" not in new.exploration
    assert [(d.seat, d.kind) for d in new.pending] == [(0, "choose_era")]
    assert {a.era for a in legal_actions(new, 0)} == {1, 2}
    assert_illegal(new, "choose_era", "R-MISSION-4", era=3)
    top = new.mission_decks["2"][-1]
    held = list(new.players[0].missions)
    done, ev = act_ev(new, "choose_era", era=2)
    assert done.players[0].missions == [*held, top]
    assert done.mission_decks["2"] == new.mission_decks["2"][:-1]
    public = [e for e in ev if e.kind == "mission_draw"]
    private = [e for e in ev if e.kind == "mission_draw_private"]
    assert public[0].visible_to is None and "mission" not in public[0].data
    assert private[0].visible_to == (0,) and private[0].data == {"mission": top}
    assert view(done, 1).players[0].missions[-1] == "?"


def test_quilombo_mission_is_completed_like_the_others__R_MISSION_4() -> None:
    st = start()
    st.era = 2
    explore(st, "F3", "quilombo")
    place_unit(st, 0, "archer1", "F2")
    st.players[0].missions = []
    st.mission_decks["1"] = [*(m for m in st.mission_decks["1"] if m != "I-1"), "I-1"]
    put(st, 0, "sawmill", "B3")
    put(st, 0, "sawmill", "A2")
    put(st, 0, "sugar_field", "D3")
    st = to_movement(st, "import")
    st = act(st, "move", unit="archer1", to="F3")
    st = act(st, "choose_era", era=1)
    assert st.players[0].missions == ["I-1"]
    new = act(st, "reveal_mission", mission="I-1")
    assert new.players[0].revealed == ["I-1"]
    assert score(new, 0)["categories"]["missions"] == 1


# ------------------------------------------------------------------------ R-EXPLORE-4


def peeked() -> GameState:
    """Seat 0 has looked at the mandioca tile at F3 (era token I under Import)."""
    st = start()
    st.era = 2
    st.players[0].under = {"import": 1}
    explore(st, "F3", "mandioca")
    explore(st, "E5", "cultura")
    st = act(st, "import", crop="coffee")
    return act(st, "peek", at="F3")


def test_a_peeked_tile_is_visible_only_to_the_peeker__R_EXPLORE_4() -> None:
    st = peeked()
    assert st.exploration["F3"].face_up is False
    assert view(st, 0).exploration["F3"].tile == "mandioca"
    assert view(st, 0).exploration["E5"].tile == "?"
    assert view(st, 1).exploration["F3"].tile == "?"
    assert view(st, None).exploration["F3"].tile == "?"
    assert view(st, 0).players[0].peeks == {"F3": "mandioca"}
    assert view(st, 1).players[0].peeks == {"F3": "?"}


def test_peek_only_at_a_face_down_tile__R_EXPLORE_4() -> None:
    st = start()
    st.era = 2
    st.players[0].under = {"import": 1}
    explore(st, "F3", "mandioca")
    explore(st, "E5", "minas_gerais", face_up=True)
    st = act(st, "import", crop="coffee")
    assert_illegal(st, "peek", "R-EXPLORE-4", at="E5")
    assert_illegal(st, "peek", "R-EXPLORE-4", at="D4")


def test_revealing_a_peeked_tile_ends_the_secret__R_EXPLORE_4() -> None:
    st = peeked()
    place_unit(st, 0, "archer1", "F2")
    new = act(st, "move", unit="archer1", to="F3")
    assert new.players[0].peeks == {}


def test_building_discards_a_peeked_tile_unseen__R_EXPLORE_4() -> None:
    st = peeked()
    st.turn = Turn()
    st.players[0].token_arch = None
    put(st, 0, "sawmill", "E3")
    st.players[0].reserve = {"brazilwood": 1}
    new = act(st, "build", building="sugar_field", at="F3")
    assert "F3" not in new.exploration
    assert new.players[0].peeks == {}
