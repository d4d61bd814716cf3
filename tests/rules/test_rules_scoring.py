"""The end of the game and final scoring (RULES.md §10: R-END-1..3; era III objectives
R-MISSION-3).

Seat 0 is the first player, so in this 2-player game seat 1 plays the last turn of a round.
"""

from __future__ import annotations

import pytest

from rules.brazil import (
    Event,
    GameState,
    IllegalAction,
    final_scores,
    is_over,
    legal_actions,
    score,
)
from tests.helpers import act, act_ev, kinds, place_unit, put, start

ALL_PRODUCTS = {
    "import": "dye",
    "renovate": "sugar",
    "painting": "cloth",
    "manufacture": "cocoa",
    "recruit": "coffee",
    "build": "rubber",
}


def era3_ready(seat: int) -> GameState:
    """Era III; ``seat`` holds III-4 (2 products of each shape) and has made all six."""
    st = start()
    st.era = 3
    p = st.players[seat]
    p.missions = ["III-4"]
    p.upgrades = dict(ALL_PRODUCTS)
    p.products = []
    return st


def plain_turn(st: GameState, seat: int, crop: str = "coffee") -> tuple[GameState, list[Event]]:
    """An Import action (or Trade, if the token stands on Import) and no move; end the turn."""
    if st.players[seat].token_arch == "import":
        st = act(act(st, "trade", seat), "end_trade", seat)
    else:
        st = act(st, "import", seat, crop=crop)
    return act_ev(st, "end_turn", seat)


# ------------------------------------------------------------------------ R-END-1


def test_era_III_reveal_by_first_player_finishes_the_round__R_END_1() -> None:
    st = era3_ready(0)
    st, ev = act_ev(st, "reveal_mission", mission="III-4")
    assert st.end_triggered and "end_triggered" in kinds(ev)
    assert st.pending == []  # no building: no palace; era III: no era change
    st, ev = plain_turn(st, 0)
    assert not is_over(st) and st.current == 1  # the round goes on
    assert "game_over" not in kinds(ev)
    st, ev = plain_turn(st, 1)
    assert is_over(st) and st.phase == "ended"
    assert kinds(ev)[-3:] == ["score", "score", "game_over"]
    assert st.result == final_scores(st)
    assert st.result["winners"] == [0]
    assert ev[-1].data == {"winners": [0]}
    assert legal_actions(st) == []
    before = st.model_dump()
    with pytest.raises(IllegalAction) as exc:
        act(st, "import", 0, crop="coffee")
    assert exc.value.rule == "R-END-1"
    assert st.model_dump() == before


def test_era_III_reveal_by_the_last_player_ends_after_its_turn__R_END_1() -> None:
    st = start()
    st, _ = plain_turn(st, 0)
    st.era = 3
    p = st.players[1]
    p.missions = ["III-4"]
    p.upgrades = dict(ALL_PRODUCTS)
    p.products = []
    st = act(st, "reveal_mission", 1, mission="III-4")
    assert st.end_triggered and not is_over(st)
    st, ev = plain_turn(st, 1)
    assert is_over(st)
    assert "game_over" in kinds(ev)


def test_last_turn_is_on_the_first_players_right__R_END_1() -> None:
    # The first player is seat 1 here: seat 0 plays the round's last turn.
    st = era3_ready(1)
    st.first_player = 1
    st.current = 1
    st = act(st, "reveal_mission", 1, mission="III-4")
    st, _ = plain_turn(st, 1)
    assert not is_over(st) and st.current == 0
    st, _ = plain_turn(st, 0)
    assert is_over(st)


def test_no_end_without_an_era_III_reveal__R_END_1() -> None:
    st = start()
    st.era = 3
    for _ in range(3):
        st, _ = plain_turn(st, 0, "coffee")
        st, _ = plain_turn(st, 1, "cotton")
    assert not is_over(st) and st.round == 4


def test_second_era_III_reveal_does_not_retrigger__R_END_1() -> None:
    st = era3_ready(0)
    st.players[0].missions = ["III-4", "III-2"]
    st.players[0].paintings = ["guarani", "oca", "tupiniquim", "quitandeiras"]
    put(st, 0, "academy", "D3")
    st = act(st, "reveal_mission", mission="III-4")
    assert st.pending == []  # an academy takes no palace
    new, ev = act_ev(st, "reveal_mission", mission="III-2")
    assert "end_triggered" not in kinds(ev)
    assert new.end_triggered


# ------------------------------------------------------------------------ R-END-2


def full_position() -> GameState:
    st = start(monarchs=("dom_oba_ii", "queen_victoria"))
    p = st.players[0]
    # units: archer1 on the map (2), dragoon defeated (3)
    place_unit(st, 0, "archer1", "G6")
    p.units["dragoon"] = "reserve"
    # products: dye (2) + cloth (3)
    p.upgrades = {"import": "dye", "painting": "cloth"}
    p.products = ["sugar", "cocoa", "coffee", "rubber"]
    # paintings: Guarani (2) + Maria Leopoldina (3)
    p.paintings = ["guarani", "maria_leopoldina"]
    # missions: I-1 revealed (1); III-1 kept, its church objective achieved (1)
    p.revealed = ["I-1"]
    p.missions = ["II-1", "III-1"]
    # gold cards: In Hoc Signo Vinces with 3 combat cards (3); Jesuits scores nothing
    p.gold_cards = ["in_hoc_signo_vinces", "jesuits"]
    p.combat_cards = ["militia", "militia", "ambush"]
    # exploration: 2 unknown species (3) + Cultura (2)
    p.kept_tiles = ["unknown_species", "unknown_species", "cultura"]
    # buildings: sawmill B3 (1), church D3 (2); farm C2 occupied by seat 1 (0 for seat 0);
    # seat 1's sugar-cane field G6 occupied by seat 0's archer (1)
    put(st, 0, "sawmill", "B3")
    put(st, 0, "church", "D3")
    put(st, 0, "farm", "C2")
    put(st, 1, "sugar_field", "G6")
    place_unit(st, 1, "brawler1", "C2")
    # palaces: V on the farm (1 VP per product: 2) — the builder scores it although occupied
    st.tiles["C2"] = st.tiles["C2"].model_copy(update={"palace": 5})
    p.palaces = [2, 3, 4, 6]
    return st


def test_score_per_category__R_END_2() -> None:
    st = full_position()
    row = score(st, 0)
    assert row["categories"] == {
        "units": 5,
        "products": 5,
        "paintings": 5,
        "missions": 2,
        "gold_cards": 3,
        "exploration": 5,
        "buildings": 4,
        "palaces": 2,
        "monarch": 1,  # Dom Obá II: one revealed mission
    }
    assert row["total"] == 32
    assert row["seat"] == 0
    opp = score(st, 1)
    # seat 1: brawler (2) + the occupied farm C2 (2); its own G6 is occupied by seat 0
    assert opp["categories"]["units"] == 2
    assert opp["categories"]["buildings"] == 2
    assert opp["total"] == 4
    res = final_scores(st)
    assert [r["total"] for r in res["scores"]] == [32, 4]
    assert res["winners"] == [0]


def test_undeployed_units_and_capitals_score_nothing__R_END_2() -> None:
    st = start()
    assert score(st, 0)["total"] == 0
    assert score(st, 1)["total"] == 0


def test_era_III_objectives_score_without_reveal__R_MISSION_3() -> None:
    st = start()
    st.players[0].missions = ["I-1", "II-1", "III-4"]
    p = st.players[0]
    p.upgrades = {"import": "dye", "renovate": "sugar", "painting": "cloth"}
    p.products = ["cocoa", "coffee", "rubber"]
    put(st, 0, "sawmill", "B3")
    put(st, 0, "sawmill", "A2")
    put(st, 0, "sugar_field", "D3")  # I-1 met but not revealed: 0
    # III-4: 2 square (1 VP) met; 2 pentagon (2 VP) not; 2 octagon (3 VP) not
    assert score(st, 0)["categories"]["missions"] == 1
    p.upgrades["manufacture"] = "cocoa"
    p.products.remove("cocoa")
    assert score(st, 0)["categories"]["missions"] == 3


def test_revealed_era_III_mission_scores_all_objectives__R_MISSION_3() -> None:
    st = era3_ready(0)
    st = act(st, "reveal_mission", mission="III-4")
    assert score(st, 0)["categories"]["missions"] == 6


# ------------------------------------------------------------------------ R-END-3


def tied() -> GameState:
    st = start()
    put(st, 0, "church", "D3", science=1)
    put(st, 1, "church", "G6", science=2)
    return st


def test_tie_broken_by_science_on_buildings__R_END_3() -> None:
    st = tied()
    res = final_scores(st)
    assert [r["total"] for r in res["scores"]] == [2, 2]
    assert [r["tiebreak_science"] for r in res["scores"]] == [1, 2]
    assert res["winners"] == [1]


def test_science_in_the_reserve_does_not_break_ties__R_END_3() -> None:
    st = tied()
    st.players[0].reserve = {"science": 5}
    assert final_scores(st)["winners"] == [1]


def test_still_tied_the_victory_is_shared__R_END_3() -> None:
    st = tied()
    st.tiles["D3"] = st.tiles["D3"].model_copy(update={"goods": {"science": 2}})
    assert final_scores(st)["winners"] == [0, 1]


def test_science_does_not_matter_without_a_tie__R_END_3() -> None:
    st = tied()
    put(st, 0, "sawmill", "B3")
    assert final_scores(st)["winners"] == [0]


def test_game_end_uses_the_tie_break__R_END_3() -> None:
    st = tied()
    st.end_triggered = True
    st, _ = plain_turn(st, 0, "coffee")
    st, ev = plain_turn(st, 1, "coffee")
    assert is_over(st)
    assert st.result is not None and st.result["winners"] == [1]
    assert ev[-1].kind == "game_over" and ev[-1].data == {"winners": [1]}
