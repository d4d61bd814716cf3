"""One test (at least) per rule ID of RULES-TIGRIS.md; the ID is in each test's name or in a
comment."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from rules.errors import IllegalAction, NotYourDecision, RulesError
from rules.tigris import (
    Action,
    apply,
    check,
    deciders,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    view,
)
from rules.tigris.data import (
    BLACK,
    BLUE,
    BOARD,
    GREEN,
    MONUMENT_COLOURS,
    MONUMENTS,
    NEIGHBOURS,
    RED,
    SQUARE,
    TILE_COUNTS,
)
from rules.tigris.engine import label_regions
from rules.tigris.state import CATASTROPHE, EMPTY
from rules.tigris.view import board_tiles
from tests.tigris.helpers import cell, keys, leader, play, position, sq, support, tile, up

DATA = Path(__file__).resolve().parents[2] / "rules" / "data" / "tigris"


def refused(s: object, a: Action, rule: str) -> RulesError:
    before = s.model_dump_json()  # type: ignore[attr-defined]
    with pytest.raises(RulesError) as e:
        apply(s, a)  # type: ignore[arg-type]
    assert e.value.rule == rule, e.value
    assert s.model_dump_json() == before  # type: ignore[attr-defined]
    return e.value


# ------------------------------------------------------------------ vocabulary, components


def test_board_data_T_VOC_1_T_SETUP_1() -> None:
    assert (BOARD.columns, BOARD.rows) == (16, 11)
    assert len(BOARD.river) == 41
    assert sorted(BOARD.temples) == sorted(
        SQUARE[x] for x in ["K1", "B2", "P2", "F3", "N5", "I7", "B8", "O9", "F10", "K11"]
    )
    assert BOARD.corners == {SQUARE[x] for x in ["B2", "P2", "B8", "O9"]}
    assert sq("K1") == 10  # x = 10, y = 0
    assert set(NEIGHBOURS[sq("A1")]) == {sq("B1"), sq("A2")}  # sides only, T-VOC-1


def test_components_T_COMP_1_T_COMP_2_T_VOC_2() -> None:
    assert TILE_COUNTS == (30, 57, 36, 30) and sum(TILE_COUNTS) == 153
    assert len(MONUMENTS) == 6
    assert {frozenset(p) for p in MONUMENT_COLOURS} == {
        frozenset((a, b)) for a in range(4) for b in range(4) if a < b
    }
    comp = tomllib.loads((DATA / "components.toml").read_text(encoding="utf-8"))
    assert [c["leader"] for c in comp["colours"]] == ["king", "priest", "farmer", "trader"]


def test_face_down_tiles_connect_catastrophes_do_not_T_VOC_5_T_VOC_3() -> None:
    s = position(["bow", "bull"], tiles={"G3": "red-down", "H3": "black", "J3": "x"})
    lab, _ = label_regions(s.cells)
    assert lab[sq("F3")] == lab[sq("G3")] == lab[sq("H3")]
    assert lab[sq("J3")] == -1


def test_kingdom_may_hold_several_dynasties_T_VOC_6_T_VOC_4() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]})
    s, _ = play(s, leader(0, "king", "F4"), Action("pass", 0), leader(1, "priest", "G3"))
    lab, _ = label_regions(s.cells)
    assert lab[sq("F4")] == lab[sq("G3")]
    assert s.options.dynasties == ["bow", "bull"]


def test_supply_and_hand_T_VOC_7_T_VOC_8() -> None:
    s = new_game(3, seed=2)
    for p in s.players:
        assert p.leaders == [-1, -1, -1, -1] and p.hand_size == 6 and p.catastrophes == 2


def test_points_per_colour_and_treasures_T_VOC_9_T_COMP_3() -> None:
    s = position(["bow", "bull"])
    s.players[0].score = [200, 0, 0, 0]  # unlimited plain integers
    assert final_scores(s)[0].points == (200, 0, 0, 0)


def test_active_player_and_deciders_differ_T_VOC_10_T_TURN_5() -> None:
    s = position(
        ["bow", "bull", "pot"],
        active=2,
        tiles={"I3": "red"},
        leaders={"G3": (0, "king"), "I4": (1, "king")},
        hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0], 2: [2, 2, 2, 0]},
    )
    s, _ = play(s, tile(2, "black", "H3"))
    assert s.active == 2 and deciders(s) == [0]
    with pytest.raises(NotYourDecision) as e:
        apply(s, support(2, 0))
    assert e.value.rule == "T-TURN-5"


def test_supporters_are_own_colour_own_side_T_VOC_11_T_WAR_6() -> None:
    lion, pot = 0, 1
    s = position(
        ["lion", "pot"],
        tiles={"H3": "green", "E4": "green", "J3": "green", "K3": "green", "L3": "red"},
        leaders={
            "F4": (lion, "king"),
            "G3": (lion, "trader"),
            "L4": (pot, "king"),
            "L2": (pot, "trader"),
        },
        hands={lion: [1, 0, 0, 5], pot: [2, 2, 0, 2]},
    )
    s, _ = play(s, tile(lion, "black", "I3"), Action("war_order", lion, colour=GREEN))
    c = s.conflict
    assert c is not None and (c.attacker_base, c.defender_base) == (2, 2)  # E4 does not touch G3


def test_out_of_the_game_never_returns_T_VOC_12() -> None:
    s = position(["bow", "bull"], hands={0: [6, 0, 0, 0], 1: [0, 6, 0, 0]})
    bag_before = list(s.bag)
    s, _ = play(s, Action("swap", 0, tiles=(3, 0, 0, 0)))
    assert s.discarded == [3, 0, 0, 0]
    assert sum(s.bag) == sum(bag_before) - 3


def test_face_down_red_is_no_temple_T_VOC_14_T_MONUMENT_4() -> None:
    s = position(["bow", "bull"], tiles={"H4": "red-down"}, hands={0: [2, 2, 2, 0]})
    refused(s, leader(0, "king", "H5"), "T-LEADER-2")


# ----------------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_T_SETUP_1_to_6(players: int) -> None:
    # T-SETUP-1, T-SETUP-2, T-SETUP-3, T-SETUP-4, T-SETUP-5, T-SETUP-6
    s = new_game(players, seed=5)
    assert [s.cells[t] for t in BOARD.temples] == [up("red")] * 10
    assert sorted(s.treasures) == sorted(BOARD.temples)
    assert sum(s.bag) + 6 * players == 143
    assert len(s.players) == players and s.active == 0
    assert [p.dynasty for p in s.players] == ["bow", "bull", "pot", "lion"][:players]
    assert new_game(players, seed=5) == s  # seeded
    s2 = new_game(players, seed=5, options={"start": players - 1})
    assert s2.active == players - 1
    with pytest.raises(RulesError):
        new_game(5)


# ------------------------------------------------------------------------------------ turn


def test_two_actions_then_the_turn_ends_T_TURN_1_T_TURN_4() -> None:
    s = position(["bow", "bull"], hands={0: [3, 3, 0, 0], 1: [3, 3, 0, 0]})
    s, ev = play(s, tile(0, "black", "A1"), tile(0, "black", "A2"))
    assert s.active == 1 and s.actions_left == 2
    assert keys(ev)[-3:] == ["tigris.draw", "tigris.draw.private", "tigris.turn.start"]


def test_pass_always_legal_T_TURN_2() -> None:
    s = position(["bow", "bull"], hands={0: [3, 3, 0, 0], 1: [3, 3, 0, 0]})
    assert Action("pass", 0) in legal_actions(s)
    s, _ = play(s, Action("pass", 0))
    assert s.active == 1


def test_action_order_inside_T_TURN_3() -> None:
    # placement, VP, then the treasure (monument option in between when it applies)
    s = position(
        ["bull", "lion"],
        active=1,
        tiles={"P3": "black", "P4": "blue", "P5": "blue"},
        leaders={"M5": (0, "farmer"), "N6": (1, "trader")},
        hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]},
    )
    _, ev = play(s, tile(1, "blue", "O5"))
    assert keys(ev) == ["tigris.tile", "tigris.score.tile", "tigris.treasure"]


# --------------------------------------------------------------------------------- leaders


def test_leader_on_an_empty_square_own_leaders_T_LEADER_1() -> None:
    s = position(["bow", "bull"], tiles={"G3": "black"}, hands={0: [2, 2, 2, 0]})
    refused(s, leader(0, "king", "G3"), "T-LEADER-1")
    refused(s, leader(1, "king", "G2"), "T-TURN-5")


def test_leader_next_to_a_temple_T_LEADER_2() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 2, 0]})
    e = refused(s, leader(0, "king", "A11"), "T-LEADER-2")
    assert "temple" in e.message


def test_leader_not_on_a_river_T_LEADER_3() -> None:
    s = position(["bow", "bull"], tiles={"E4": "red"}, hands={0: [2, 2, 2, 0]})
    refused(s, leader(0, "king", "E3"), "T-LEADER-3")


def test_leader_may_not_unite_kingdoms_T_LEADER_4() -> None:
    s = position(
        ["bow", "bull"],
        tiles={"H3": "red"},
        leaders={"F4": (1, "king"), "H4": (1, "priest")},
        hands={0: [2, 2, 2, 0]},
    )
    # G3 touches F3 (kingdom with F4) and H3 (kingdom with H4)
    refused(s, leader(0, "trader", "G3"), "T-LEADER-4")
    # joining leaderless regions (and one kingdom) is fine
    s2 = position(["bow", "bull"], tiles={"H3": "red"}, hands={0: [2, 2, 2, 0]})
    check(s2, leader(0, "trader", "G3"))


def test_relocate_judged_with_the_leader_lifted_T_LEADER_5() -> None:
    s = position(
        ["bow", "bull"], leaders={"G3": (0, "king")}, hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]}
    )
    refused(s, leader(0, "king", "G3"), "T-LEADER-5")
    s, ev = play(s, leader(0, "king", "F4"))
    assert cell(s, "G3") == EMPTY and s.players[0].leaders[BLACK] == sq("F4")
    assert keys(ev)[0] == "tigris.leader.move"
    # lifted: its former region is no kingdom any more, so G3 joins one kingdom only
    s3 = position(
        ["bow", "bull"],
        tiles={"H3": "red"},
        leaders={"F4": (0, "king"), "H4": (1, "priest")},
        hands={0: [2, 2, 2, 0]},
    )
    check(s3, leader(0, "king", "G3"))
    refused(s3, leader(0, "trader", "G3"), "T-LEADER-4")


def test_withdraw_T_LEADER_6() -> None:
    s = position(["bow", "bull"], leaders={"G3": (0, "king")}, hands={0: [2, 2, 2, 0]})
    s2, _ = play(s, Action("withdraw", 0, colour=BLACK))
    assert s2.players[0].leaders[BLACK] == -1 and cell(s2, "G3") == EMPTY
    refused(s, Action("withdraw", 0, colour=RED), "T-LEADER-6")


def test_leader_actions_score_nothing_T_LEADER_7() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 2, 0]})
    s, _ = play(s, leader(0, "king", "G3"), leader(0, "king", "F4"))
    assert s.players[0].score == [0, 0, 0, 0]


def test_leader_without_temple_leaves_T_LEADER_8() -> None:
    s = position(
        ["bow", "bull"],
        tiles={"H4": "red"},
        leaders={"H5": (1, "king")},
        hands={0: [2, 2, 2, 0]},
    )
    s, ev = play(s, Action("catastrophe", 0, square=sq("H4")))
    assert s.players[1].leaders[BLACK] == -1
    assert "tigris.leader.no_temple" in keys(ev)


def test_loser_may_place_again_T_LEADER_9() -> None:
    s = position(
        ["bull", "lion"],
        active=1,
        leaders={"H7": (0, "king")},
        hands={0: [0, 3, 3, 0], 1: [0, 0, 3, 3]},
    )
    s, _ = play(s, leader(1, "king", "I6"), support(1, 0), support(0, 0))
    assert s.players[1].leaders[BLACK] == -1
    check(s, leader(1, "king", "I6"))


# ----------------------------------------------------------------------------------- tiles


def test_tile_from_the_hand_on_an_empty_square_T_TILE_1() -> None:
    s = position(["bow", "bull"], hands={0: [0, 2, 2, 2]})
    refused(s, tile(0, "black", "A1"), "T-TILE-1")
    refused(s, tile(0, "red", "F3"), "T-TILE-1")


def test_rivers_only_blue_T_TILE_2() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 2, 0]})
    e = refused(s, tile(0, "red", "E1"), "T-TILE-2")
    assert "river" in e.message
    refused(s, tile(0, "blue", "A1"), "T-TILE-2")
    check(s, tile(0, "blue", "E1"))


def test_tile_alone_or_joined_T_TILE_3() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 2, 0]})
    check(s, tile(0, "black", "A11"))
    check(s, tile(0, "black", "F4"))


def test_tile_may_not_unite_three_kingdoms_T_TILE_4() -> None:
    s2 = position(
        ["bow", "bull", "pot"],
        tiles={"G2": "red", "G4": "red", "H3": "red"},
        leaders={"G1": (0, "king"), "G5": (1, "king"), "I3": (2, "king"), "F2": (2, "priest")},
        hands={0: [2, 2, 2, 0]},
    )
    # G3 touches G2 (G1's kingdom), G4 (G5's), H3 (I3's) and F3 (F2's): 4 kingdoms
    e = refused(s2, tile(0, "black", "G3"), "T-TILE-4")
    assert "kingdoms" in e.message
    assert not any(a.square == sq("G3") and a.kind == "tile" for a in legal_actions(s2))


def test_placed_tiles_never_move_T_TILE_5() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]})
    s, _ = play(s, tile(0, "black", "A11"), Action("pass", 0), Action("pass", 1))
    assert cell(s, "A11") == up("black")


# ---------------------------------------------------------------------------------- points


def test_tile_scores_for_leader_of_its_colour_else_king_T_SCORE_1() -> None:
    s = position(
        ["bow", "bull"],
        leaders={"G3": (0, "king"), "F4": (1, "trader")},
        hands={0: [2, 2, 2, 2]},
    )
    s, _ = play(s, tile(0, "green", "G2"), tile(0, "red", "E4"))
    assert s.players[1].score == [0, 0, 0, 1]  # trader's owner
    assert s.players[0].score == [0, 1, 0, 0]  # king stands in, red VP


def test_no_vp_outside_a_kingdom_or_without_leader_T_SCORE_2() -> None:
    s = position(["bow", "bull"], leaders={"G3": (0, "priest")}, hands={0: [2, 2, 2, 2]})
    s, _ = play(s, tile(0, "black", "A11"), tile(0, "black", "G2"))
    assert s.players[0].score == [0, 0, 0, 0]


def test_vp_immediately_secret_T_SCORE_3_T_INFO_1() -> None:
    s = position(["bow", "bull"], leaders={"G3": (0, "king")}, hands={0: [2, 2, 2, 2]})
    s, ev = play(s, tile(0, "black", "G2"))
    assert s.players[0].score == [1, 0, 0, 0]
    assert "tigris.score.tile" in keys(ev)  # T-INFO-2: the gain is public
    assert view(s, 1).players[0].score == [0, 0, 0, 0]
    assert view(s, 0).players[0].score == [1, 0, 0, 0]


def test_king_not_for_monuments_T_SCORE_4() -> None:
    s = position(
        ["bull", "bow"],
        tiles={"H4": "red", "I4": "red", "H5": "red"},
        leaders={"G4": (0, "king")},
        hands={0: [0, 2, 2, 2], 1: [2, 2, 2, 0]},
    )
    s, _ = play(s, tile(0, "red", "I5"))
    m = next(
        a for a in legal_actions(s) if a.kind == "monument" and MONUMENTS[a.monument] == "red-blue"
    )
    s, _ = play(s, m, Action("pass", 0))
    # G4 lost its temples and left; anyway no red/blue leader: no monument VP
    assert s.players[0].score[RED] == 1 and s.players[0].score[BLUE] == 0


def test_all_sources_of_vp_T_SCORE_5() -> None:
    # nothing but a tile, a revolt, a war, a monument scores: a catastrophe, swap, leader
    # action and pass score nothing
    s = position(["bow", "bull"], leaders={"G3": (0, "king")}, hands={0: [2, 2, 2, 0]})
    s, _ = play(s, Action("catastrophe", 0, square=sq("A1")), Action("swap", 0, tiles=(1, 0, 0, 0)))
    assert all(p.score == [0, 0, 0, 0] for p in s.players)


# ----------------------------------------------------------------------------- catastrophe


def test_two_catastrophes_per_player_T_CATASTROPHE_1() -> None:
    s = position(["bow", "bull"], hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]})
    s, _ = play(
        s, Action("catastrophe", 0, square=sq("A1")), Action("catastrophe", 0, square=sq("A2"))
    )
    s, _ = play(s, Action("pass", 1))
    refused(s, Action("catastrophe", 0, square=sq("A3")), "T-CATASTROPHE-1")


def test_catastrophe_targets_T_CATASTROPHE_2() -> None:
    s = position(
        ["bow", "bull"],
        tiles={"A1": "x", "H4": "red", "H5": "red-down"},
        leaders={"G3": (0, "king")},
        hands={0: [2, 2, 2, 0]},
    )
    e = refused(s, Action("catastrophe", 0, square=sq("F3")), "T-CATASTROPHE-2")
    assert "treasure" in e.message
    e = refused(s, Action("catastrophe", 0, square=sq("G3")), "T-CATASTROPHE-2")
    assert "leader" in e.message
    refused(s, Action("catastrophe", 0, square=sq("A1")), "T-CATASTROPHE-2")
    refused(s, Action("catastrophe", 0, square=sq("H5")), "T-MONUMENT-6")
    check(s, Action("catastrophe", 0, square=sq("E1")))  # a river square
    check(s, Action("catastrophe", 0, square=sq("H4")))


def test_catastrophe_square_is_dead_T_CATASTROPHE_3() -> None:
    s = position(["bow", "bull"], tiles={"G4": "black"}, hands={0: [2, 2, 2, 0]})
    s, _ = play(s, Action("catastrophe", 0, square=sq("G4")))
    assert cell(s, "G4") == CATASTROPHE and s.removed[BLACK] == 1
    refused(s, tile(0, "black", "G4"), "T-TILE-1")


def test_catastrophe_splits_without_conflict_T_CATASTROPHE_4_T_CATASTROPHE_5() -> None:
    s = position(
        ["bow", "bull"],
        tiles={"G4": "black", "H4": "red", "I4": "red"},
        leaders={"G5": (0, "king"), "I5": (1, "king")},
        hands={0: [2, 2, 2, 0]},
    )
    s, _ev = play(s, Action("catastrophe", 0, square=sq("H4")))
    assert s.conflict is None and s.pending == []
    assert all(p.score == [0, 0, 0, 0] for p in s.players)


# ------------------------------------------------------------------------------------ swap


def test_swap_T_SWAP_1_T_SWAP_2() -> None:
    s = position(["bow", "bull"], hands={0: [6, 0, 0, 0], 1: [0, 6, 0, 0]})
    refused(s, Action("swap", 0, tiles=(0, 0, 0, 0)), "T-SWAP-1")
    refused(s, Action("swap", 0, tiles=(0, 1, 0, 0)), "T-SWAP-1")
    s, _ = play(s, Action("swap", 0, tiles=(6, 0, 0, 0)))
    assert s.players[0].hand_size == 6 and s.actions_left == 1
    s, _ = play(s, Action("swap", 0, tiles=tuple(s.players[0].hand)))  # type: ignore[arg-type]
    assert s.active == 1


def test_swap_with_a_short_bag_ends_the_game_T_SWAP_3_T_END_3() -> None:
    s = position(["bow", "bull"], hands={0: [3, 3, 0, 0], 1: [3, 3, 0, 0]})
    s.discarded = list(s.bag)
    s.discarded_size = s.bag_size
    s.bag = [1, 0, 0, 0]
    s.discarded[0] -= 1
    s.discarded_size -= 1
    s.bag_size = 1
    s, ev = play(s, Action("swap", 0, tiles=(2, 0, 0, 0)))
    assert is_over(s) and s.end_reason == "bag"
    assert "tigris.turn.end" not in keys(ev)  # at once: no monument VP, no refill


# ------------------------------------------------------------------------------- conflicts


def test_conflicts_arise_from_leaders_and_tiles_only_T_CONFLICT_1() -> None:
    s = position(
        ["bow", "bull"],
        leaders={"G3": (0, "king"), "F4": (1, "priest")},
        hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]},
    )
    s2, _ = play(s, leader(0, "priest", "F2"))
    assert s2.conflict is not None and s2.conflict.kind == "revolt"


def test_conflict_resolved_within_the_action_T_CONFLICT_2() -> None:
    s = position(
        ["bull", "lion"],
        active=1,
        leaders={"H7": (0, "king")},
        hands={0: [0, 3, 3, 0], 1: [0, 3, 3, 0]},
    )
    s, _ = play(s, leader(1, "king", "I6"))
    refused(s, Action("pass", 1), "T-CONFLICT-3")
    refused(s, Action("withdraw", 1, colour=BLACK), "T-CONFLICT-3")


def test_commitment_attacker_first_ties_to_defender_T_CONFLICT_3() -> None:
    s = position(
        ["bull", "lion"],
        active=1,
        leaders={"H7": (0, "king")},
        hands={0: [0, 3, 3, 0], 1: [0, 3, 3, 0]},
    )
    s, _ = play(s, leader(1, "king", "I6"))
    assert deciders(s) == [1]
    assert [a.amount for a in legal_actions(s)] == [0, 1, 2, 3]
    refused(s, support(1, 4), "T-REVOLT-3")
    s, _ = play(s, support(1, 2))
    assert view(s, 0).conflict is not None and view(s, 0).conflict.attacker_commit == 2  # type: ignore[union-attr]
    s, _ = play(s, support(0, 2))
    assert s.players[0].score[RED] == 1  # 3 v 3: defender


def test_committers_refill_at_turn_end_T_CONFLICT_4() -> None:
    s = position(
        ["bull", "lion"],
        active=1,
        leaders={"H7": (0, "king")},
        hands={0: [0, 3, 3, 0], 1: [0, 3, 3, 0]},
    )
    s, _ = play(s, leader(1, "king", "I6"), support(1, 1), support(0, 2))
    assert s.players[0].hand_size == 4
    s, _ = play(s, Action("pass", 1))
    assert s.players[0].hand_size == 6 and s.players[1].hand_size == 6


# --------------------------------------------------------------------------------- revolts


def test_revolt_roles_T_REVOLT_1_T_REVOLT_2() -> None:
    s = position(
        ["bull", "lion"],
        active=1,
        tiles={"J7": "red", "I8": "red"},
        leaders={"H7": (0, "king")},
        hands={0: [0, 3, 3, 0], 1: [0, 3, 3, 0]},
    )
    s, ev = play(s, leader(1, "king", "J8"))
    c = s.conflict
    assert c is not None and (c.attacker, c.defender, c.attacker_base, c.defender_base) == (
        1,
        0,
        2,
        1,
    )
    assert "tigris.revolt.start" in keys(ev)


def test_revolt_support_is_red_T_REVOLT_3() -> None:
    s = position(
        ["bull", "lion"],
        active=1,
        leaders={"H7": (0, "king")},
        hands={0: [3, 0, 3, 0], 1: [3, 0, 3, 0]},
    )
    s, _ = play(s, leader(1, "king", "I6"))
    assert [a.amount for a in legal_actions(s)] == [0]  # no red tiles: only 0


def test_revolt_result_T_REVOLT_4_T_REVOLT_5() -> None:
    s = position(
        ["bull", "lion"],
        active=1,
        leaders={"H7": (0, "trader")},
        hands={0: [0, 3, 3, 0], 1: [0, 3, 3, 0]},
    )
    board_before = board_tiles(s)
    s, _ = play(s, leader(1, "trader", "I6"), support(1, 1), support(0, 0))
    assert s.players[1].score == [0, 1, 0, 0]  # red, though traders fought
    assert s.players[0].leaders[GREEN] == -1
    assert board_tiles(s) == board_before
    assert s.actions_left == 1  # the action is used up


# ------------------------------------------------------------------------------------ wars


def war_position() -> object:
    lion, pot = 0, 1
    return position(
        ["lion", "pot"],
        tiles={"H3": "green", "J3": "green", "K3": "green", "L3": "red"},
        leaders={
            "F4": (lion, "king"),
            "G3": (lion, "trader"),
            "L4": (pot, "king"),
            "L2": (pot, "trader"),
        },
        hands={lion: [1, 0, 0, 5], pot: [2, 2, 0, 2]},
    )


def test_unification_tile_T_WAR_1_T_WAR_3() -> None:
    s, _ev = play(war_position(), tile(0, "black", "I3"))  # type: ignore[arg-type]
    assert s.unification == sq("I3") and s.wars == [BLACK, GREEN]


def test_war_order_by_active_player_T_WAR_4() -> None:
    s, _ = play(war_position(), tile(0, "black", "I3"))  # type: ignore[arg-type]
    refused(s, Action("war_order", 0, colour=RED), "T-WAR-4")
    s, _ = play(s, Action("war_order", 0, colour=BLACK))
    assert s.conflict is not None and s.conflict.colour == BLACK


def test_war_attacker_is_active_player_T_WAR_5() -> None:
    s, _ = play(war_position(), tile(0, "black", "I3"), Action("war_order", 0, colour=BLACK))  # type: ignore[arg-type]
    assert s.conflict is not None and s.conflict.attacker == 0


def test_war_support_colour_T_WAR_7() -> None:
    s, _ = play(war_position(), tile(0, "black", "I3"), Action("war_order", 0, colour=GREEN))  # type: ignore[arg-type]
    assert [a.amount for a in legal_actions(s)] == list(range(6))
    s, _ = play(s, support(0, 0))
    assert [a.amount for a in legal_actions(s)] == [0, 1, 2]


def test_war_loser_removal_and_vp_T_WAR_8() -> None:
    s, _ = play(
        war_position(),  # type: ignore[arg-type]
        tile(0, "black", "I3"),
        Action("war_order", 0, colour=GREEN),
        support(0, 0),
        support(1, 0),
    )
    # 1 v 2: Pot wins; Lion's trader and H3 go; Pot +2 green
    assert s.players[0].leaders[GREEN] == -1 and cell(s, "H3") == EMPTY
    assert s.players[1].score[GREEN] == 2
    assert cell(s, "I3") == up("black")  # the uniting tile stays


def test_priest_war_protects_temples_T_WAR_9() -> None:
    s = position(
        ["bow", "pot", "bull"],
        active=2,
        tiles={"E10": "red", "G10": "red", "I10": "red", "J10": "red"},
        leaders={"F11": (0, "priest"), "G11": (1, "king"), "J11": (2, "priest")},
        hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0], 2: [2, 2, 2, 0]},
    )
    s, _ = play(s, tile(2, "black", "H10"), support(2, 0), support(0, 0))
    # 3 v 3: Bow (defender) wins; Bull's side I10, J10 removed, K11 (treasure) kept
    assert cell(s, "I10") == EMPTY and cell(s, "J10") == EMPTY and cell(s, "K11") == up("red")
    assert s.players[0].score[RED] == 3


def test_second_war_lapses_after_split_T_WAR_10_T_WAR_11() -> None:
    s, ev = play(
        war_position(),  # type: ignore[arg-type]
        tile(0, "black", "I3"),
        Action("war_order", 0, colour=GREEN),
        support(0, 4),
        support(1, 0),
    )
    assert "tigris.war.lapsed" in keys(ev) and s.unification == -1
    assert keys(ev).index("tigris.war.lapsed") < keys(ev).index("tigris.unify.removed")


def test_no_war_when_no_colour_doubles_T_WAR_2() -> None:
    s = position(
        ["bull", "lion"],
        active=1,
        tiles={"I3": "red"},
        leaders={"G3": (0, "priest"), "I4": (1, "king")},
        hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]},
    )
    s, _ev = play(s, tile(1, "red", "H3"))
    assert s.unification == -1 and s.conflict is None


# ------------------------------------------------------------------------------- monuments


def monument_position() -> object:
    return position(
        ["bull", "bow"],
        tiles={"H4": "red", "I4": "red", "H5": "red"},
        leaders={"I3": (0, "priest")},
        hands={0: [0, 3, 3, 0], 1: [2, 2, 2, 0]},
    )


def test_monument_needs_the_new_tile_T_MONUMENT_1_T_MONUMENT_3() -> None:
    s, _ = play(monument_position(), tile(0, "red", "I5"))  # type: ignore[arg-type]
    assert s.pending[0].kind == "monument"
    s, _ = play(s, Action("pass", 0))
    assert cell(s, "H4") == up("red") and s.monuments == {}
    s, _ = play(s, tile(0, "red", "A11"))
    assert s.pending == []  # the old square never again


def test_monument_choice_of_remaining_T_MONUMENT_2() -> None:
    s = monument_position()
    s.monuments = {"red-blue": sq("A1")}  # type: ignore[attr-defined]
    s, _ = play(s, tile(0, "red", "I5"))  # type: ignore[arg-type]
    names = {MONUMENTS[a.monument] for a in legal_actions(s) if a.kind == "monument"}
    assert names == {"black-red", "red-green"}
    refused(
        s,
        Action("monument", 0, square=sq("H4"), monument=MONUMENTS.index("red-blue")),
        "T-MONUMENT-1",
    )


def test_monument_after_wars_T_MONUMENT_5() -> None:
    bull, bow = 0, 1
    s = position(
        ["bull", "bow"],
        tiles={"H4": "red", "I4": "red", "H5": "red", "J5": "red"},
        leaders={"G4": (bow, "priest"), "K5": (bull, "priest")},
        hands={bull: [0, 4, 2, 0], bow: [2, 0, 2, 2]},
    )
    s, _ev = play(s, tile(bull, "red", "I5"), support(bull, 3), support(bow, 0))
    assert [cell(s, x) for x in ("H4", "I4", "H5")] == [EMPTY] * 3
    assert s.players[bull].score == [0, 4, 0, 0]
    assert s.pending == [] and s.monuments == {}  # the 2 x 2 is gone


def test_monument_permanent_T_MONUMENT_6() -> None:
    s, _ = play(monument_position(), tile(0, "red", "I5"))  # type: ignore[arg-type]
    s, _ = play(s, Action("monument", 0, square=sq("H4"), monument=MONUMENTS.index("red-blue")))
    refused(s, Action("catastrophe", 0, square=sq("I5")), "T-MONUMENT-6")
    refused(s, tile(0, "red", "I5"), "T-TILE-1")


def test_monument_vp_for_active_player_only_T_MONUMENT_7() -> None:
    bull, bow = 0, 1
    s = position(
        ["bull", "bow"],
        tiles={"H4": "red", "I4": "red", "H5": "red", "J4": "red"},
        leaders={"J5": (bull, "priest"), "J3": (bow, "farmer")},
        hands={bull: [0, 3, 3, 0], bow: [2, 2, 2, 0]},
    )
    s, _ = play(s, tile(bull, "red", "I5"))
    assert s.players[bull].score == [0, 1, 0, 0]
    s, _ = play(s, Action("monument", bull, square=sq("H4"), monument=MONUMENTS.index("red-blue")))
    s, _ = play(s, Action("pass", bull))
    assert s.players[bull].score == [0, 2, 0, 0]  # red: its priest; blue: no farmer
    assert s.players[bow].score == [0, 0, 0, 0]  # not active: nothing
    s, _ = play(s, Action("pass", bow))
    assert s.players[bow].score == [0, 0, 1, 0]


# ------------------------------------------------------------------------------- treasures


def test_treasures_start_on_temples_T_TREASURE_1() -> None:
    s = new_game(2, seed=1)
    assert set(s.treasures) == set(BOARD.temples)


def test_trader_collects_all_but_one_T_TREASURE_2() -> None:
    s = position(
        ["bow", "bull"],
        tiles={"H3": "red", "I3": "red", "J3": "red", "K3": "red"},
        leaders={"G3": (0, "trader")},
        hands={0: [2, 2, 2, 0]},
    )
    s, _ = play(s, tile(0, "red", "K2"))  # F3 and K1 now in the trader's kingdom
    assert s.pending[0].kind == "treasure" and s.pending[0].seat == 0
    assert {a.square for a in legal_actions(s)} == {sq("F3"), sq("K1")}
    s, _ = play(s, Action("treasure", 0, square=sq("K1")))
    assert s.players[0].treasures == 1 and sq("F3") in s.treasures and s.pending == []
    # a kingdom without a trader keeps its treasures
    s2 = position(
        ["bow", "bull"],
        tiles={"H3": "red", "I3": "red", "J3": "red", "K3": "red"},
        leaders={"G3": (0, "king")},
        hands={0: [2, 2, 2, 0]},
    )
    s2, _ = play(s2, tile(0, "red", "K2"))
    assert s2.pending == [] and len(s2.treasures) == 10


def test_treasure_choice_and_corner_first_T_TREASURE_3_T_TREASURE_4() -> None:
    s = position(
        ["bow", "bull"],
        tiles={"C2": "red", "D2": "red", "C4": "blue"},
        leaders={"A2": (0, "trader")},
        hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]},
        treasures=["B2", "C2", "D2", "K1", "F3", "N5", "I7", "F10", "K11", "O9"],
    )
    s, _ = play(s, Action("withdraw", 0, colour=GREEN), leader(0, "trader", "B1"))
    # B2 (corner) first, automatically; then a choice between C2 and D2
    assert sq("B2") not in s.treasures
    assert s.pending and s.pending[0].kind == "treasure"
    assert {a.square for a in legal_actions(s)} == {sq("C2"), sq("D2")}
    s, _ = play(s, Action("treasure", 0, square=sq("D2")))
    assert s.players[0].treasures == 2 and sq("C2") in s.treasures


# ---------------------------------------------------------------------------------- refill


def test_refill_active_first_then_others_T_REFILL_1_T_REFILL_2() -> None:
    s = position(
        ["bull", "lion", "pot"],
        active=1,
        leaders={"H7": (0, "king")},
        hands={0: [0, 3, 3, 0], 1: [0, 3, 3, 0], 2: [0, 3, 3, 0]},
    )
    s, _ = play(s, leader(1, "king", "I6"), support(1, 1), support(0, 1))
    s, ev = play(s, Action("pass", 1))
    order = [e.params["player"] for e in ev if e.key == "tigris.draw"]
    assert order == ["@tigris.dynasty.lion", "@tigris.dynasty.bull"]


def test_refill_from_a_short_bag_ends_T_REFILL_3_T_END_2() -> None:
    s = position(["bow", "bull"], hands={0: [3, 3, 0, 0], 1: [3, 3, 0, 0]})
    s.discarded = list(s.bag)
    s.discarded_size = s.bag_size
    s.bag = [0, 0, 0, 0]
    s.bag_size = 0
    s, _ev = play(s, tile(0, "black", "A1"), Action("pass", 0))
    assert is_over(s) and s.end_reason == "bag"
    assert legal_actions(s) == [] and deciders(s) == []


def test_exactly_empty_bag_play_goes_on_T_END_2() -> None:
    s = position(["bow", "bull"], hands={0: [3, 3, 0, 0], 1: [3, 3, 0, 0]})
    s.discarded = list(s.bag)
    s.discarded_size = s.bag_size
    s.bag = [1, 0, 0, 0]
    s.discarded[0] -= 1
    s.discarded_size -= 1
    s.bag_size = 1
    s, _ev = play(s, tile(0, "black", "A1"), Action("pass", 0))
    assert not is_over(s) and s.bag_size == 0


# ------------------------------------------------------------------------------------- end


def test_treasure_end_at_end_of_turn_T_END_1() -> None:
    s = position(
        ["bow", "bull"],
        tiles={"G3": "red", "H5": "red"},
        leaders={"H3": (0, "trader")},
        hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]},
        treasures=["F3", "H5", "K1"],
    )
    s, _ = play(s, tile(0, "black", "A11"), tile(0, "red", "H4"))
    assert s.pending[0].kind == "treasure"
    s, ev = play(s, Action("treasure", 0, square=sq("F3")))
    assert len(s.treasures) == 2 and is_over(s) and s.end_reason == "treasures"
    assert "tigris.turn.end" in keys(ev)  # the turn ran to its end first


def test_tie_shares_the_place_T_FINAL_4() -> None:
    s = position(["bow", "bull", "pot"])
    s.players[0].score = [3, 4, 5, 6]
    s.players[1].score = [6, 5, 4, 3]
    s.players[2].score = [3, 3, 9, 9]
    f = final_scores(s)
    assert [x.rank for x in f] == [1, 1, 3]


# -------------------------------------------------------------------------------- info, var


def test_view_redacts_T_INFO_1_T_INFO_2() -> None:
    s = new_game(3, seed=3)
    s.players[1].score = [1, 2, 3, 4]
    v = view(s, 0)
    assert v.players[0].hand == s.players[0].hand
    assert v.players[1].hand == [0, 0, 0, 0] and v.players[1].hand_size == 6
    assert v.bag == [0, 0, 0, 0] and v.bag_size == s.bag_size and v.rng.seed == 0
    assert v.players[1].score == [0, 0, 0, 0]
    o = new_game(3, seed=3, options={"open_scoring": True})
    o.players[1].score = [1, 2, 3, 4]
    assert view(o, 0).players[1].score == [1, 2, 3, 4]
    assert view(o, None).players[0].hand == [0, 0, 0, 0]
    with pytest.raises(RulesError):
        apply(v, legal_actions(s)[0])


def test_variants_off_T_VAR_1() -> None:
    with pytest.raises(RulesError) as e:
        new_game(2, options={"board": "advanced"})
    assert e.value.rule == "T-VAR-1"
    with pytest.raises(ValueError):
        new_game(2, options={"wonder": True})


def test_illegal_refusals_leave_state_unchanged() -> None:
    # T-TILE-2, T-TILE-4, T-LEADER-2, T-CATASTROPHE-2: state untouched, rule named
    s = new_game(2, seed=9)
    rng = random.Random(1)
    for _ in range(20):
        a = Action("tile", 0, rng.randrange(4), rng.randrange(176))
        try:
            check(s, a)
        except IllegalAction as e:
            assert e.rule.startswith("T-") and e.key.startswith("tigris.error.")
    assert s == new_game(2, seed=9)
