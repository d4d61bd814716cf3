"""Turn structure (RULES.md §3: R-TURN-1..6): action phase then movement phase, the action
token's arch, the free and extra moves, gold cards as free actions, revealing missions at any
point of one's turn, and passing.

Test map ``test-duel``: seat 0 (green) has its capital at C3, seat 1 (blue) at H6.
"""

from __future__ import annotations

import pytest

import rules.brazil.engine as engine
import rules.brazil.turn as turn
from rules.brazil import Event, GameState, NotYourDecision, legal_actions
from tests.helpers import act, act_ev, assert_illegal, is_legal, place_unit, put, start


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


ARCH_TYPES = {"recruit", "painting", "build", "renovate", "manufacture", "import", "trade"}


def fresh() -> GameState:
    return start(monarchs=("dom_oba_ii", "queen_victoria"))


def mission_ready() -> GameState:
    """Seat 0 holds the era I mission I-1 (2 sawmills, 1 sugar-cane field) and meets it."""
    st = fresh()
    put(st, 0, "sawmill", "B3")
    put(st, 0, "sawmill", "A2")
    put(st, 0, "sugar_field", "C2")
    st.players[0].missions = ["I-1"]
    return st


# ------------------------------------------------------------------------ R-TURN-1


def test_action_then_movement_then_next_player__R_TURN_1() -> None:
    st = fresh()
    assert st.turn.step == "action"
    listed = {a.type for a in legal_actions(st)}
    assert listed <= ARCH_TYPES
    assert "end_turn" not in listed and "move" not in listed
    assert_illegal(st, "end_turn", "R-TURN-1")
    st, ev = act_ev(st, "import", crop="coffee")
    assert [e.kind for e in ev] == ["action", "gain"]
    assert st.turn.step == "movement"
    listed = {a.type for a in legal_actions(st)}
    assert "end_turn" in listed and not (listed & ARCH_TYPES)
    # no second action in the movement phase
    assert_illegal(st, "trade", "R-TURN-1")
    st, ev = act_ev(st, "end_turn")
    assert of(ev, "turn")[0].seat == 1
    assert (st.current, st.round, st.turn.step, st.turn.arch) == (1, 1, "action", None)
    st = act(st, "import", 1, crop="cotton")
    st = act(st, "end_turn", 1)
    assert (st.current, st.round) == (0, 2)


def test_only_the_current_player_acts__R_TURN_1() -> None:
    st = fresh()
    before = st.model_dump()
    assert legal_actions(st, 1) == []
    with pytest.raises(NotYourDecision) as exc:
        act(st, "import", 1, crop="coffee")
    assert exc.value.rule == "R-TURN-1"
    assert st.model_dump() == before


def test_no_movement_before_the_action__R_TURN_1() -> None:
    st = fresh()
    place_unit(st, 0, "archer1", "D3")
    # R-TURN-3 names the movement phase
    assert_illegal(st, "move", "R-TURN-3", unit="archer1", to="D4", kind="free")


# ------------------------------------------------------------------------ R-TURN-2


def test_token_cannot_stay_on_the_same_arch__R_TURN_2() -> None:
    st = fresh()
    st = act(st, "import", crop="coffee")
    assert st.players[0].token_arch == "import"
    st = act(st, "end_turn")
    st = act(st, "import", 1, crop="coffee")
    st = act(st, "end_turn", 1)
    # seat 0's token still stands on Import
    assert st.players[0].token_arch == "import"
    assert not any(a.type == "import" for a in legal_actions(st))
    err = assert_illegal(st, "import", "R-TURN-2", crop="cotton")
    assert "Import" in err.message
    assert is_legal(st, "trade")
    new = act(st, "trade")
    assert new.players[0].token_arch == "trade"


def test_each_arch_is_blocked_by_the_token_on_it__R_TURN_2() -> None:
    st = fresh()
    st.players[0].reserve = {"coffee": 2, "brazilwood": 2, "sugar_cane": 2}
    put(st, 0, "sugar_field", "C2")
    assert {a.type for a in legal_actions(st)} == ARCH_TYPES
    for arch in ARCH_TYPES:
        st.players[0].token_arch = arch
        assert {a.type for a in legal_actions(st)} == ARCH_TYPES - {arch}


def test_new_era_token_may_go_on_any_arch__R_TURN_2() -> None:
    st = mission_ready()
    st.players[0].token_arch = "import"
    assert_illegal(st, "import", "R-TURN-2", crop="coffee")
    st = act(st, "reveal_mission", mission="I-1")
    assert st.era == 2
    st = act(st, "place_palace")  # no palace
    st = act(st, "place_era_token", arch="build")
    assert st.players[0].token_arch is None
    assert is_legal(st, "import", crop="coffee")
    st = act(st, "import", crop="coffee")
    assert st.players[0].token_arch == "import"


# ------------------------------------------------------------------------ R-TURN-3


def moving(arch: str = "recruit") -> GameState:
    st = fresh()
    place_unit(st, 0, "archer1", "D4")
    place_unit(st, 0, "archer2", "C3")
    st = act(st, "recruit", draw=1) if arch == "recruit" else act(st, "import", crop="coffee")
    return st


def test_free_move_then_extra_move__R_TURN_3() -> None:
    st = moving()
    assert is_legal(st, "move", unit="archer1", to="D5", kind="free")
    st = act(st, "move", unit="archer1", to="D5", kind="free")
    assert st.turn.free_move and not st.turn.extra_move
    assert_illegal(st, "move", "R-TURN-3", unit="archer2", to="D3", kind="free")
    # Recruit's extra move: straight to the capital, by the same unit
    assert is_legal(st, "move", unit="archer1", to="C3", kind="extra")
    st = act(st, "move", unit="archer1", to="C3", kind="extra")
    assert st.players[0].units["archer1"] == "C3"
    assert st.turn.free_move and st.turn.extra_move
    assert not any(a.type == "move" for a in legal_actions(st))
    assert_illegal(st, "move", "R-TURN-3", unit="archer2", to="D3", kind="extra")


def test_extra_move_then_free_move_by_another_unit__R_TURN_3() -> None:
    st = moving()
    st, ev = act_ev(st, "move", unit="archer1", to="C3", kind="extra")
    assert of(ev, "move")[0].data["move"] == "extra"
    st, ev = act_ev(st, "move", unit="archer2", to="D3", kind="free")
    assert of(ev, "move")[0].data["move"] == "free"
    assert st.players[0].units == {
        **st.players[0].units,
        "archer1": "C3",
        "archer2": "D3",
    }
    assert_illegal(st, "move", "R-TURN-3", unit="archer1", to="C4", kind="extra")


def test_both_moves_are_optional__R_TURN_3() -> None:
    st = moving()
    assert is_legal(st, "end_turn")
    st = act(st, "end_turn")
    assert st.current == 1
    assert st.players[0].units["archer1"] == "D4"


def test_no_extra_move_without_an_arch_giving_one__R_TURN_3() -> None:
    st = moving("import")
    assert not any(a.type == "move" and a.kind == "extra" for a in legal_actions(st))
    assert_illegal(st, "move", "R-MOVE-3", unit="archer1", to="C3", kind="extra")
    assert is_legal(st, "move", unit="archer1", to="D5", kind="free")


# ------------------------------------------------------------------------ R-TURN-4


def test_any_number_of_gold_cards_in_ones_own_turn__R_TURN_4() -> None:
    st = fresh()
    st.players[0].gold_cards = ["discovery", "pau_brasil", "commerce"]
    st.players[0].reserve = {"coffee": 1, "brazilwood": 2, "cotton": 2}
    # in the action phase, before the action
    assert is_legal(st, "play_gold_card", card="discovery", give=["coffee"])
    st, ev = act_ev(st, "play_gold_card", card="discovery", give=["coffee"])
    assert of(ev, "gold_card")[0].data == {"card": "discovery"}
    assert st.players[0].reserve == {"brazilwood": 2, "cotton": 2, "science": 1}
    st, ev = act_ev(st, "play_gold_card", card="pau_brasil", give=["brazilwood", "brazilwood"])
    assert st.players[0].reserve == {"cotton": 2, "science": 2, "gold": 1}
    assert st.turn.step == "action" and st.turn.arch is None
    st = act(
        st,
        "recruit",
        deploy=[{"unit": "archer1", "to": "C3"}],
        payment=[{"source": "reserve", "what": "gold"}],
    )
    assert st.turn.step == "movement"
    # and in the movement phase, after the action
    assert is_legal(st, "play_gold_card", card="commerce", give=["cotton", "cotton"])
    st = act(st, "play_gold_card", card="commerce", give=["cotton", "cotton"])
    assert st.players[0].reserve == {"science": 2, "gold": 3}
    assert st.players[0].gold_cards == []
    assert st.gold_discard == ["discovery", "pau_brasil", "commerce"]


def test_gold_cards_not_in_an_opponents_turn__R_TURN_4() -> None:
    st = fresh()
    st.current = 1
    st.players[0].gold_cards = ["discovery"]
    st.players[0].reserve = {"coffee": 1}
    before = st.model_dump()
    assert not is_legal(st, "play_gold_card", 0, card="discovery", give=["coffee"])
    with pytest.raises(NotYourDecision) as exc:
        act(st, "play_gold_card", 0, card="discovery", give=["coffee"])
    assert exc.value.rule == "R-TURN-1"
    assert st.model_dump() == before


def test_end_scoring_and_unheld_gold_cards_cannot_be_played__R_TURN_4() -> None:
    st = fresh()
    st.players[0].gold_cards = ["agriculture", "war"]
    st.players[0].reserve = {"coffee": 1}
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="agriculture")
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="war")
    assert_illegal(st, "play_gold_card", "R-TURN-4", card="discovery", give=["coffee"])


# ------------------------------------------------------------------------ R-TURN-5


def test_reveal_a_mission_before_the_action__R_TURN_5() -> None:
    st = mission_ready()
    assert is_legal(st, "reveal_mission", mission="I-1")
    st, ev = act_ev(st, "reveal_mission", mission="I-1")
    assert of(ev, "mission")[0].data == {"mission": "I-1"}
    assert st.players[0].revealed == ["I-1"]
    assert st.turn.step == "action"  # the action is still to come
    st = act(st, "place_palace")
    st = act(st, "place_era_token", arch="trade")
    st = act(st, "import", crop="coffee")
    assert st.turn.step == "movement"


def test_reveal_at_the_start_to_build_era_three_at_once__R_TURN_5() -> None:
    st = fresh()
    st.era = 2
    st.players[0].missions = ["II-3"]  # 3 products and 1 painting
    st.players[0].upgrades = {"import": "dye", "painting": "cloth", "recruit": "coffee"}
    st.players[0].products = ["sugar", "cocoa", "rubber"]
    st.players[0].paintings = ["guarani"]
    st.players[0].reserve = {"gold": 1, "coffee": 2}
    assert not any(a.type == "build" and a.building == "church" for a in legal_actions(st))
    st = act(st, "reveal_mission", mission="II-3")
    assert st.era == 3
    while st.pending and st.pending[0].seat == 0:
        d = st.pending[0]
        st = (
            act(st, "place_palace")
            if d.kind == "place_palace"
            else act(st, "place_era_token", arch="trade")
        )
    assert is_legal(st, "build", building="church", at="C2")
    st = act(st, "build", building="church", at="C2")
    assert st.tiles["C2"].id == "church"


def test_reveal_a_mission_after_the_action__R_TURN_5() -> None:
    st = mission_ready()
    st = act(st, "import", crop="coffee")
    assert is_legal(st, "reveal_mission", mission="I-1")
    st = act(st, "reveal_mission", mission="I-1")
    assert st.players[0].revealed == ["I-1"]
    st = act(st, "place_palace")
    st = act(st, "place_era_token", arch="trade")
    # still only one action this turn, even with the new era token
    assert st.turn.step == "movement"
    assert not any(a.type in ARCH_TYPES for a in legal_actions(st))
    assert_illegal(st, "trade", "R-TURN-1")
    st = act(st, "end_turn")
    assert st.current == 1


def test_reveal_a_mission_during_a_trade__R_TURN_5() -> None:
    st = mission_ready()
    st = act(st, "trade")
    assert st.turn.step == "trade"
    st = act(st, "reveal_mission", mission="I-1")
    assert st.players[0].revealed == ["I-1"]


def test_no_mission_reveal_in_an_opponents_turn__R_TURN_5() -> None:
    st = mission_ready()
    st.current = 1
    before = st.model_dump()
    assert not is_legal(st, "reveal_mission", 0, mission="I-1")
    with pytest.raises(NotYourDecision):
        act(st, "reveal_mission", 0, mission="I-1")
    assert st.model_dump() == before


# ------------------------------------------------------------------------ R-TURN-6


def test_no_pass_while_an_action_exists__R_TURN_6() -> None:
    st = fresh()
    assert not any(a.type == "pass_action" for a in legal_actions(st))
    assert_illegal(st, "pass_action", "R-TURN-6")


def test_pass_when_no_action_exists_keeps_the_token__R_TURN_6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    st = fresh()
    st.players[0].token_arch = "build"
    # Pretend no action is possible: both the listing and the pass check ask _arch_actions.
    monkeypatch.setattr(turn, "arch_actions", lambda g, seat: iter(()))
    monkeypatch.setattr(engine, "arch_actions", lambda g, seat: iter(()))
    assert [a.type for a in legal_actions(st)] == ["pass_action"]
    new, ev = act_ev(st, "pass_action")
    assert [e.kind for e in ev] == ["pass"]
    assert new.players[0].token_arch == "build"
    assert new.turn.step == "movement" and new.turn.arch is None
    assert_illegal(new, "pass_action", "R-TURN-6")
    new = act(new, "end_turn")
    assert new.current == 1


def test_the_engine_always_lists_an_action__R_TURN_6() -> None:
    # With nothing at all (no goods, no cards, token on Trade), Import is still possible.
    st = fresh()
    st.players[0].token_arch = "trade"
    types = {a.type for a in legal_actions(st)}
    assert "import" in types
    assert "pass_action" not in types
