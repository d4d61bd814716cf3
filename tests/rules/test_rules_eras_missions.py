"""Eras, era tokens and missions (RULES.md §6–7: R-ERA-1..3, R-MISSION-1..3; R-ERA-4
Coroados is in test_rules_paintings.py, R-MISSION-4 Quilombo in test_rules_exploration.py).

Seat 0 (green, capital C3) completes mission I-1 "2 sawmills and 1 sugar-cane field" with
buildings at B3, A2 (sawmills) and D3 (sugar-cane field).
"""

from __future__ import annotations

import pytest

from rules.brazil import (
    GameState,
    NotYourDecision,
    deciders,
    legal_actions,
    view,
)
from rules.brazil.catalog import get_catalog
from rules.brazil.scoring import mission_complete, objective_met, score
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


def era1_ready() -> GameState:
    """Seat 0 holds I-1, II-1, III-1 and meets I-1's objectives."""
    st = start()
    put(st, 0, "sawmill", "B3")
    put(st, 0, "sawmill", "A2")
    put(st, 0, "sugar_field", "D3")
    st.players[0].missions = ["I-1", "II-1", "III-1"]
    return st


def pending_of(st: GameState) -> list[tuple[int, str]]:
    return [(d.seat, d.kind) for d in st.pending]


# ------------------------------------------------------------------------ R-MISSION-1


def test_mission_objectives_are_counted_on_controlled_empire__R_MISSION_1() -> None:
    st = era1_ready()
    assert mission_complete(st, 0, "I-1")
    del st.tiles["A2"]
    assert not mission_complete(st, 0, "I-1")  # only one sawmill
    st = era1_ready()
    place_unit(st, 1, "brawler1", "A2")  # a sawmill occupied by the opponent does not count
    assert not mission_complete(st, 0, "I-1")


def test_incomplete_mission_cannot_be_revealed__R_MISSION_1() -> None:
    st = era1_ready()
    del st.tiles["D3"]
    st.supply["B"] += 1
    assert_illegal(st, "reveal_mission", "R-MISSION-1", mission="I-1")


def test_mission_not_in_hand_cannot_be_revealed__R_MISSION_1() -> None:
    st = era1_ready()
    st.players[0].missions = ["II-1", "III-1"]
    assert_illegal(st, "reveal_mission", "R-MISSION-1", mission="I-1")


def test_missions_are_revealed_only_in_your_own_turn__R_MISSION_1() -> None:
    st = start()
    put(st, 1, "sawmill", "I5")
    put(st, 1, "sawmill", "J6")
    put(st, 1, "sugar_field", "G6")
    st.players[1].missions = ["I-1"]
    assert mission_complete(st, 1, "I-1")
    before = st.model_dump()
    assert not is_legal(st, "reveal_mission", 1, mission="I-1")
    with pytest.raises(NotYourDecision):
        act(st, "reveal_mission", 1, mission="I-1")
    assert st.model_dump() == before


def test_revealed_mission_scores_its_vp__R_MISSION_1() -> None:
    st = era1_ready()
    assert score(st, 0)["categories"]["missions"] == 0
    new, ev = act_ev(st, "reveal_mission", mission="I-1")
    assert new.players[0].revealed == ["I-1"]
    assert "I-1" not in new.players[0].missions
    assert [e.data for e in ev if e.kind == "mission"] == [{"mission": "I-1"}]
    assert score(new, 0)["categories"]["missions"] == 1


def test_mission_may_be_revealed_after_the_action__R_MISSION_1() -> None:
    # R-TURN-5: any point of your own turn, here in the movement phase.
    st = to_movement(era1_ready(), "import")
    assert is_legal(st, "reveal_mission", mission="I-1")
    new = act(st, "reveal_mission", mission="I-1")
    assert new.players[0].revealed == ["I-1"] and new.era == 2


# ------------------------------------------------------------------------ R-MISSION-2


def test_future_era_mission_cannot_be_revealed__R_MISSION_2() -> None:
    st = start()
    p = st.players[0]
    p.missions = ["II-3"]
    p.upgrades = {"import": "dye", "painting": "cloth", "recruit": "coffee"}
    p.paintings = ["guarani"]
    assert mission_complete(st, 0, "II-3")
    assert_illegal(st, "reveal_mission", "R-MISSION-2", mission="II-3")


def test_past_era_mission_only_scores_and_gives_a_palace__R_MISSION_2() -> None:
    st = era1_ready()
    st.era = 2
    new, ev = act_ev(st, "reveal_mission", mission="I-1")
    assert new.era == 2
    assert "era" not in kinds(ev)
    assert pending_of(new) == [(0, "place_palace")]
    assert new.players[0].revealed == ["I-1"]
    assert score(new, 0)["categories"]["missions"] == 1


def test_only_the_first_reveal_of_the_era_advances_it__R_MISSION_2() -> None:
    st = era1_ready()
    st = act(st, "reveal_mission", mission="I-1")
    st = act(st, "place_palace", palace=None)
    st = act(st, "place_era_token", arch="trade")
    assert st.era == 2
    # the opponent later reveals an era I mission: it is now a past era's mission
    st = to_movement(st, "import")
    st = act(st, "end_turn")
    st = act(st, "place_era_token", 1, arch="trade")
    put(st, 1, "sawmill", "I5")
    put(st, 1, "sawmill", "J6")
    put(st, 1, "sugar_field", "G6")
    st.players[1].missions = ["I-1"]
    new, ev = act_ev(st, "reveal_mission", 1, mission="I-1")
    assert new.era == 2
    assert "era" not in kinds(ev)
    assert not [d for d in new.pending if d.kind == "place_era_token"]
    assert new.players[1].revealed == ["I-1"]


# ------------------------------------------------------------------------ R-ERA-1..3


def test_reveal_before_action_advances_era_for_everyone__R_ERA_1_R_ERA_2() -> None:
    st = era1_ready()
    st.players[0].token_arch = "import"
    st.players[1].token_arch = "trade"
    new, ev = act_ev(st, "reveal_mission", mission="I-1")
    assert kinds(ev) == ["mission", "era"]
    assert [e.data for e in ev if e.kind == "era"] == [{"era": 2}]
    assert new.era == 2
    # R-PALACE-1 first, then every player places the flipped era I token
    assert pending_of(new) == [(0, "place_palace"), (0, "place_era_token"), (1, "place_era_token")]
    assert [d.data["token"] for d in new.pending if d.kind == "place_era_token"] == [1, 1]
    # R-ERA-1: both players now use the era II token: neither token stands on an arch
    assert [p.token_arch for p in new.players] == [None, None]
    # the opponent's decision does not hold up the current player's turn
    new = act(new, "place_palace", palace=None)
    new = act(new, "place_era_token", arch="recruit")
    assert deciders(new) == [1, 0]
    assert is_legal(new, "import", 0, crop="coffee")


def test_era_token_goes_under_an_arch_without_one__R_ERA_2() -> None:
    st = era1_ready()
    st = act(st, "reveal_mission", mission="I-1")
    st = act(st, "place_palace", palace=None)
    opts = {a.arch for a in legal_actions(st, 0) if a.type == "place_era_token"}
    assert opts == {"recruit", "painting", "build", "renovate", "manufacture", "import", "trade"}
    new, ev = act_ev(st, "place_era_token", arch="build")
    assert new.players[0].under == {"build": 1}
    assert [e.data for e in ev if e.kind == "era_token"] == [{"arch": "build", "token": 1}]
    assert_illegal(st, "place_era_token", "R-ERA-2", arch="coroados")  # no Coroados painting


def test_era_II_token_not_under_the_arch_of_token_I__R_ERA_2() -> None:
    st = start()
    st.era = 2
    p = st.players[0]
    p.under = {"import": 1}
    p.missions = ["II-3"]
    p.upgrades = {"import": "dye", "painting": "cloth", "recruit": "coffee"}
    p.paintings = ["guarani"]
    st = act(st, "reveal_mission", mission="II-3")
    assert st.era == 3  # (no building: no palace can be placed, R-PALACE-4)
    assert [(d.seat, d.kind, d.data["token"]) for d in st.pending] == [
        (0, "place_era_token", 2),
        (1, "place_era_token", 2),
    ]
    assert_illegal(st, "place_era_token", "R-ERA-2", arch="import")
    new = act(st, "place_era_token", arch="recruit")
    assert new.players[0].under == {"import": 1, "recruit": 2}


def test_revealing_before_the_action_frees_the_arch_of_the_old_token__R_ERA_3() -> None:
    st = era1_ready()
    st.players[0].token_arch = "import"
    # without a new token the same arch twice in a row is refused (R-TURN-2)
    assert_illegal(st, "import", "R-TURN-2", crop="coffee")
    st = act(st, "reveal_mission", mission="I-1")
    st = act(st, "place_palace", palace=None)
    st = act(st, "place_era_token", arch="trade")
    assert is_legal(st, "import", crop="coffee")
    new = act(st, "import", crop="coffee")
    assert new.players[0].token_arch == "import"
    assert new.players[0].reserve == {"coffee": 1}


def test_token_I_under_the_chosen_arch_gives_a_peek_this_turn__R_ERA_3() -> None:
    # The revealer uses the new token at once: choosing the arch of token I gives the peek.
    st = era1_ready()
    explore(st, "F3", "mandioca")
    explore(st, "E5", "quilombo")
    st = act(st, "reveal_mission", mission="I-1")
    st = act(st, "place_palace", palace=None)
    st = act(st, "place_era_token", arch="import")
    st = act(st, "import", crop="coffee")
    assert st.turn.step == "movement" and st.turn.peek is True
    peeks = {a.at for a in legal_actions(st, 0) if a.type == "peek"}
    assert peeks == {"F3", "E5"}
    new, ev = act_ev(st, "peek", at="F3")
    assert kinds(ev) == ["peek", "peek_private"]
    public, private = ev
    assert public.visible_to is None and "tile" not in public.data
    assert private.visible_to == (0,) and private.data == {"hex": "F3", "tile": "mandioca"}
    assert new.players[0].peeks == {"F3": "mandioca"}
    assert new.exploration["F3"].face_up is False  # put back face down
    assert new.turn.peek is False
    # R-EXPLORE-4: one peek only
    assert_illegal(new, "peek", "R-ERA-2", at="E5")


def test_reveal_after_the_action_uses_the_new_token_from_the_next_turn__R_ERA_3() -> None:
    st = era1_ready()
    explore(st, "F3", "mandioca")
    st = act(st, "import", crop="coffee")
    st = act(st, "reveal_mission", mission="I-1")
    st = act(st, "place_palace", palace=None)
    st = act(st, "place_era_token", arch="import")
    # the era I token was used this turn: no bonus of the new arrangement now
    assert st.era == 2 and st.turn.peek is False
    assert not any(a.type == "peek" for a in legal_actions(st, 0))
    st = act(st, "end_turn")
    # the opponent must place its token before anything else
    before = st.model_dump()
    with pytest.raises(NotYourDecision) as exc:
        act(st, "import", 1, crop="coffee")
    assert exc.value.rule == "R-ERA-2"
    assert st.model_dump() == before
    st = act(st, "place_era_token", 1, arch="trade")
    st = act(st, "trade", 1)
    st = act(st, "end_trade", 1)
    st = act(st, "end_turn", 1)
    # next turn: the new token may go on any arch, even the one just used; token I peek
    assert st.current == 0 and st.players[0].token_arch is None
    st = act(st, "import", crop="sugar_cane")
    assert st.turn.peek is True


def test_no_peek_without_a_face_down_tile__R_ERA_2() -> None:
    st = start()
    st.era = 2
    st.players[0].under = {"import": 1}
    explore(st, "F3", "minas_gerais", face_up=True)
    new = act(st, "import", crop="coffee")
    assert new.turn.peek is False
    assert_illegal(new, "peek", "R-ERA-2", at="F3")


def test_peek_needs_token_I_under_the_chosen_arch__R_ERA_2() -> None:
    st = start()
    st.era = 2
    st.players[0].under = {"trade": 1}
    explore(st, "F3", "mandioca")
    new = act(st, "import", crop="coffee")
    assert new.turn.peek is False
    assert_illegal(new, "peek", "R-ERA-2", at="F3")


def test_token_II_under_the_chosen_arch_draws_a_combat_card__R_ERA_2() -> None:
    st = start()
    st.era = 3
    st.players[0].under = {"import": 2, "trade": 1}
    deck = list(st.combat_deck)
    new, ev = act_ev(st, "import", crop="coffee")
    assert new.players[0].combat_cards == [deck[-1]]
    assert new.combat_deck == deck[:-1]
    draws = [e for e in ev if e.kind == "draw_combat"]
    assert len(draws) == 1 and draws[0].data == {"count": 1}
    # token II under another arch: no card
    st2 = start()
    st2.era = 3
    st2.players[0].under = {"trade": 2}
    assert act(st2, "import", crop="coffee").players[0].combat_cards == []


def test_era_II_token_comes_with_era_III__R_ERA_1() -> None:
    st = start()
    st.era = 2
    p = st.players[0]
    p.missions = ["II-3"]
    p.upgrades = {"import": "dye", "painting": "cloth", "recruit": "coffee"}
    p.paintings = ["guarani"]
    new, ev = act_ev(st, "reveal_mission", mission="II-3")
    assert new.era == 3
    assert [e.data for e in ev if e.kind == "era"] == [{"era": 3}]
    assert not new.end_triggered


# ------------------------------------------------------------------------ R-MISSION-3


def test_era_III_mission_reveal_needs_every_objective__R_MISSION_3() -> None:
    st = start()
    st.era = 3
    st.players[0].missions = ["III-1"]
    put(st, 0, "church", "D3")  # objective 1 of 3 (1 VP)
    m = get_catalog(PACK).missions["III-1"]
    assert [objective_met(st, 0, o) for o in m.objectives] == [True, False, False]
    assert_illegal(st, "reveal_mission", "R-MISSION-1", mission="III-1")
    # achieved objectives score even though the card is never revealed
    assert score(st, 0)["categories"]["missions"] == 1


def test_era_III_mission_reveal_triggers_the_end__R_MISSION_3() -> None:
    st = start()
    st.era = 3
    st.players[0].missions = ["III-1"]
    put(st, 0, "church", "D3")
    put(st, 0, "academy", "C4")
    put(st, 0, "vila_rica", "B7")
    put(st, 0, "olinda", "E7")
    new, ev = act_ev(st, "reveal_mission", mission="III-1")
    assert "end_triggered" in kinds(ev)
    assert new.end_triggered is True
    assert new.era == 3
    assert new.players[0].revealed == ["III-1"]
    assert score(new, 0)["categories"]["missions"] == 6
    assert not [d for d in new.pending if d.kind == "place_era_token"]


def test_era_III_mission_cannot_be_revealed_before_era_III__R_MISSION_3() -> None:
    st = start()
    st.era = 2
    st.players[0].missions = ["III-1"]
    put(st, 0, "church", "D3")
    put(st, 0, "academy", "C4")
    put(st, 0, "vila_rica", "B7")
    put(st, 0, "olinda", "E7")
    assert mission_complete(st, 0, "III-1")
    assert_illegal(st, "reveal_mission", "R-MISSION-2", mission="III-1")


def test_view_hides_an_opponents_missions() -> None:
    # R-MISSION-1: missions are kept secretly until revealed.
    st = era1_ready()
    assert view(st, 1).players[0].missions == ["?", "?", "?"]
    assert view(st, 0).players[0].missions == ["I-1", "II-1", "III-1"]
