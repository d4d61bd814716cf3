"""The rulebook's worked examples (RULES-TIGRIS §20, EX-1 … EX-6) and the derived examples
(DX-1 … DX-4) as end-to-end scenarios."""

from __future__ import annotations

from rules.tigris import Action, final_scores, legal_actions
from rules.tigris.data import BLACK, BLUE, GREEN, RED
from rules.tigris.state import EMPTY, LEADER, TigrisState
from tests.tigris.helpers import (
    C,
    cell,
    keys,
    lead,
    leader,
    play,
    position,
    sq,
    support,
    tile,
    up,
)

PASS = "pass"


def test_ex1_revolt_tie_goes_to_the_defender_T_REVOLT_1_T_REVOLT_4_T_REFILL_2() -> None:
    # T-REVOLT-1, T-REVOLT-2, T-REVOLT-3, T-REVOLT-4, T-CONFLICT-3, T-REFILL-1, T-REFILL-2
    bull, lion = 0, 1
    s = position(
        ["bull", "lion"],
        active=lion,
        tiles={"J7": "red", "I8": "red"},
        leaders={"H7": (bull, "king")},
        hands={bull: [0, 3, 3, 0], lion: [0, 2, 2, 2]},
    )
    s, ev = play(s, leader(lion, "king", "J8"))
    c = s.conflict
    assert c is not None and c.kind == "revolt"
    assert (c.attacker, c.defender, c.attacker_base, c.defender_base) == (lion, bull, 2, 1)
    assert s.pending[0].seat == lion  # attacker first
    s, _ = play(s, support(lion, 2))
    assert s.pending[0].seat == bull
    s, ev = play(s, support(bull, 3))
    assert s.players[lion].leaders[C["black"]] == -1
    assert cell(s, "J8") == EMPTY
    assert cell(s, "H7") == lead(bull, "king")
    assert s.players[bull].score == [0, 1, 0, 0]  # red, not black
    assert s.removed[RED] == 5  # out of the game, not in the bag
    assert [cell(s, x) for x in ("I7", "J7", "I8")] == [up("red")] * 3
    s, ev = play(s, Action("pass", lion))
    draws = [e.params["player"] for e in ev if e.key == "tigris.draw"]
    assert draws == ["@tigris.dynasty.lion", "@tigris.dynasty.bull"]
    n = {e.params["player"]: e.params["n"] for e in ev if e.key == "tigris.draw"}
    assert n == {"@tigris.dynasty.lion": 2, "@tigris.dynasty.bull": 3}


def ex2() -> TigrisState:
    lion, pot = 0, 1
    return position(
        ["lion", "pot"],
        active=lion,
        tiles={"H3": "green", "J3": "green", "K3": "green", "L3": "red"},
        leaders={
            "F4": (lion, "king"),
            "G3": (lion, "trader"),
            "L4": (pot, "king"),
            "L2": (pot, "trader"),
        },
        hands={lion: [1, 0, 0, 5], pot: [2, 2, 0, 2]},
    )


def test_ex2_wars_order_supporters_split_T_WAR_1_to_T_WAR_11() -> None:
    # T-WAR-1, T-WAR-3, T-WAR-4, T-WAR-5, T-WAR-6, T-WAR-7, T-WAR-8, T-WAR-10, T-WAR-11,
    # T-SCORE-2, T-CONFLICT-4
    lion, pot = 0, 1
    s, ev = play(ex2(), tile(lion, "black", "I3"))
    assert s.unification == sq("I3")
    assert "tigris.score.tile" not in keys(ev)
    assert s.pending[0].kind == "war_order" and s.pending[0].seat == lion
    assert {a.colour for a in legal_actions(s)} == {BLACK, GREEN}
    s, ev = play(s, Action("war_order", lion, colour=GREEN))
    c = s.conflict
    assert c is not None and (c.attacker, c.defender) == (lion, pot)
    assert (c.attacker_base, c.defender_base) == (1, 2)  # I3 counts for nobody
    s, _ = play(s, support(lion, 4))
    s, ev = play(s, support(pot, 1))
    assert s.players[pot].leaders[GREEN] == -1
    assert cell(s, "J3") == EMPTY and cell(s, "K3") == EMPTY
    assert s.players[lion].score[GREEN] == 3
    assert s.removed[GREEN] == 7
    assert "tigris.war.lapsed" in keys(ev)  # the kings' war
    assert s.unification == -1 and cell(s, "I3") == up("black")
    assert s.players[pot].leaders[BLACK] == sq("L4")
    assert s.players[lion].score[BLACK] == 0
    assert s.pending == [] and s.actions_left == 1
    s, ev = play(s, Action("pass", lion))
    n = [(e.params["player"], e.params["n"]) for e in ev if e.key == "tigris.draw"]
    assert n == [("@tigris.dynasty.lion", 5), ("@tigris.dynasty.pot", 1)]


def test_ex3_monument_removes_a_leader_monument_vp_T_MONUMENT_1_to_7_T_LEADER_8() -> None:
    # T-MONUMENT-1, T-MONUMENT-2, T-MONUMENT-4, T-MONUMENT-7, T-LEADER-8, T-SCORE-1, T-SCORE-4
    bull, bow = 0, 1
    s = position(
        ["bull", "bow"],
        active=bull,
        tiles={"H4": "red", "I4": "red", "H5": "red", "J3": "red"},
        leaders={"G4": (bow, "farmer"), "I3": (bull, "king"), "K3": (bow, "priest")},
        hands={bull: [0, 2, 2, 2], bow: [2, 0, 2, 2]},
    )
    s, _ = play(s, tile(bull, "red", "I5"))
    assert s.players[bow].score == [0, 1, 0, 0]
    assert s.pending[0].kind == "monument"
    opts = [a for a in legal_actions(s) if a.kind == "monument"]
    assert {a.square for a in opts} == {sq("H4")}
    assert len(opts) == 3  # red-black, red-blue, red-green
    mon = next(a for a in opts if a.monument == 0)  # black-red
    s, _ = play(s, mon)
    assert s.players[bow].leaders[BLUE] == -1 and cell(s, "G4") == EMPTY
    assert s.players[bull].leaders[BLACK] == sq("I3")
    assert s.players[bow].leaders[RED] == sq("K3")
    assert s.monuments == {"black-red": sq("H4")}
    s, _ = play(s, Action("pass", bull))
    assert s.players[bull].score == [1, 0, 0, 0]
    assert s.players[bow].score == [0, 1, 0, 0]
    s, _ev = play(s, Action("pass", bow))
    assert s.players[bow].score == [0, 2, 0, 0]
    assert s.players[bull].score == [1, 0, 0, 0]
    assert len(s.monuments) == 1  # 5 left


def test_ex4_placement_vp_then_corner_treasure_T_SCORE_1_T_TREASURE_2_T_TREASURE_3() -> None:
    # T-SCORE-1, T-TREASURE-2, T-TREASURE-3, T-TURN-3, T-VOC-13
    bull, lion = 0, 1
    s = position(
        ["bull", "lion"],
        active=lion,
        tiles={"P3": "black", "P4": "blue", "P5": "blue"},
        leaders={"M5": (bull, "farmer"), "N6": (lion, "trader")},
        hands={bull: [2, 2, 2, 0], lion: [2, 2, 2, 0]},
    )
    s, ev = play(s, tile(lion, "blue", "O5"))
    assert keys(ev).index("tigris.score.tile") < keys(ev).index("tigris.treasure")
    assert s.players[bull].score == [0, 0, 1, 0]
    assert s.players[lion].treasures == 1
    assert sq("P2") not in s.treasures and sq("N5") in s.treasures
    assert len(s.treasures) == 9


def test_ex5_final_scoring_weakest_colour_treasures_tie_break_T_FINAL_1_to_3() -> None:
    # T-FINAL-1, T-FINAL-2, T-FINAL-3, T-VOC-9
    s = position(["pot", "lion", "bull", "bow"])
    for seat, (pts, tr) in enumerate(
        [([13, 9, 11, 12], 2), ([12, 9, 10, 14], 1), ([10, 10, 11, 15], 0), ([22, 6, 12, 13], 3)]
    ):
        s.players[seat].score = pts
        s.players[seat].treasures = tr
    f = final_scores(s)
    assert [x.vector for x in f] == [
        (11, 11, 12, 13),
        (10, 10, 12, 14),
        (10, 10, 11, 15),
        (9, 12, 13, 22),
    ]
    assert [x.rank for x in f] == [1, 2, 3, 4]
    assert f[3].score == 9 and sum(f[3].points) == max(sum(x.points) for x in f)


def test_ex6_opening_of_the_sample_game_T_LEADER_T_SCORE_1_T_REVOLT_T_REFILL_1() -> None:
    # T-LEADER-1, T-LEADER-2, T-SCORE-1, T-REVOLT-1, T-REVOLT-3, T-REVOLT-4, T-REFILL-1,
    # T-TURN-1
    jeno, eva, mark, anita = 0, 1, 2, 3
    s = position(
        ["bow", "bull", "pot", "lion"],
        active=jeno,
        hands={jeno: [2, 2, 1, 1], eva: [2, 0, 2, 2], mark: [2, 2, 1, 1], anita: [0, 4, 1, 1]},
    )
    s, ev = play(s, leader(jeno, "king", "L1"), leader(jeno, "priest", "H7"))
    assert "tigris.draw" not in keys(ev)  # a full hand draws nothing
    assert s.active == eva
    s, ev = play(s, leader(eva, "farmer", "J1"), tile(eva, "blue", "I1"))
    assert s.players[eva].score == [0, 0, 1, 0]
    s, ev = play(s, leader(mark, "king", "G3"), tile(mark, "red", "G2"))
    assert s.players[mark].score == [0, 1, 0, 0]
    s, ev = play(s, leader(anita, "priest", "I6"))
    c = s.conflict
    assert c is not None and (c.attacker_base, c.defender_base) == (1, 1)
    s, ev = play(s, support(anita, 3), support(jeno, 0))
    assert s.players[jeno].leaders[RED] == -1
    assert s.players[anita].score == [0, 1, 0, 0]
    s, ev = play(s, tile(anita, "red", "J7"))
    assert s.players[anita].score == [0, 2, 0, 0]
    assert next((e.params["player"], e.params["n"]) for e in ev if e.key == "tigris.draw") == (
        "@tigris.dynasty.lion",
        4,
    )
    assert [p.score for p in s.players] == [[0, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 2, 0, 0]]
    assert len(s.treasures) == 10
    assert s.active == jeno


def test_dx1_priests_war_keeps_protected_temples_T_WAR_8_T_WAR_9() -> None:
    # T-WAR-8, T-WAR-9, T-TREASURE-2 (no trader: treasures stay)
    bow, pot, bull = 0, 1, 2
    s = position(
        ["bow", "pot", "bull"],
        active=bull,
        tiles={"E10": "red", "G10": "red", "I10": "red", "J10": "red"},
        leaders={"F11": (bow, "priest"), "G11": (pot, "king"), "J11": (bull, "priest")},
        hands={bow: [2, 2, 2, 0], pot: [2, 2, 2, 0], bull: [2, 2, 2, 0]},
    )
    s, _ = play(s, tile(bull, "black", "H10"))
    c = s.conflict
    assert c is not None and c.colour == RED
    assert (c.attacker, c.defender, c.attacker_base, c.defender_base) == (bull, bow, 3, 3)
    s, _ev = play(s, support(bull, 1), support(bow, 0))
    assert s.players[bow].leaders[RED] == -1
    assert cell(s, "E10") == EMPTY
    assert cell(s, "F10") == up("red") and cell(s, "G10") == up("red")
    assert s.players[bull].score == [0, 2, 0, 0]
    assert sq("F10") in s.treasures and sq("K11") in s.treasures


def test_dx2_catastrophe_T_CATASTROPHE_2_to_5() -> None:
    # T-CATASTROPHE-2, T-CATASTROPHE-3, T-CATASTROPHE-4, T-CATASTROPHE-5, T-LEADER-8
    from rules.tigris.engine import label_regions

    lion = 0
    s = position(
        ["lion", "bull"],
        tiles={"G4": "black", "H4": "red", "I4": "black"},
        leaders={"H5": (lion, "king")},
        hands={0: [2, 2, 2, 0], 1: [2, 2, 2, 0]},
    )
    s, _ev = play(s, Action("catastrophe", lion, square=sq("H4")))
    assert s.removed[RED] == 1 and s.players[lion].leaders[BLACK] == -1
    lab, _ = label_regions(s.cells)
    assert lab[sq("G4")] != lab[sq("I4")]
    assert s.players[lion].catastrophes == 1


def test_dx3_joining_two_kingdoms_without_conflict_scores_nothing_T_WAR_2_T_SCORE_2() -> None:
    bull, lion = 0, 1
    s = position(
        ["bull", "lion"],
        active=lion,
        tiles={"I3": "red"},
        leaders={"G3": (bull, "priest"), "I4": (lion, "king")},
        hands={bull: [2, 2, 2, 0], lion: [2, 2, 2, 0]},
    )
    s, ev = play(s, tile(lion, "red", "H3"))
    assert keys(ev)[:3] == ["tigris.tile", "tigris.unify", "tigris.unify.removed"]
    assert s.unification == -1 and s.pending == []
    assert all(p.score == [0, 0, 0, 0] for p in s.players)


def test_dx4_attacker_when_the_active_player_is_not_involved_T_WAR_4_T_WAR_5() -> None:
    a, b, c = 0, 1, 2
    s = position(
        ["bow", "bull", "pot"],
        active=c,
        tiles={"I3": "red"},
        leaders={"G3": (a, "king"), "I4": (b, "king")},
        hands={a: [2, 2, 2, 0], b: [2, 2, 2, 0], c: [2, 2, 2, 0]},
    )
    s, _ev = play(s, tile(c, "black", "H3"))
    cf = s.conflict
    assert cf is not None and (cf.attacker, cf.defender) == (a, b)
    assert s.pending[0].seat == a
    assert s.cells[sq("G3")] >= LEADER
