"""Issue 33: no computer player stalls a Tigris & Euphrates game.

- The cause: the heuristic judged the state after a pass (the turn over: its monument points
  scored) against the states after other actions (the turn under way: those points not yet
  scored, a tile short in hand), so a player holding a monument passed for ever and, in a
  2-player game, the other too. The evaluation now judges a state in the seat's own turn as
  at the turn's end: passing by itself adds nothing.
- The guarantee: ``rules.tigris.stalled`` (the face's ``stalled`` hook) is true after a whole
  round of turns without a tile drawn or a treasure taken; every level then places a tile or
  swaps, which draws from the bag (finite), so an all-AI game always ends.

The figures over many games (``slow``): ``tests/ai/test_natural_end.py`` and
``docs/measurements/README.md``.
"""

from __future__ import annotations

import pytest

from ai.tigris import HeuristicAgent, make_agent
from ai.tigris.evaluate import evaluate
from rules.games import game
from rules.tigris import (
    Action,
    TigrisState,
    apply,
    deciders,
    idle_turns,
    legal_actions,
    new_game,
    stalled,
    view,
)
from rules.tigris.data import MONUMENT_COLOURS, MONUMENTS, NEIGHBOURS
from rules.tigris.engine import RIVER
from rules.tigris.state import DOWN, EMPTY, LEADER

SEEDS = (4, 5, 7)  # the stalled 2-player demo seeds
TINY = {"search": {"iterations": 2, "horizon": 2}}


def pass_round(state: TigrisState) -> TigrisState:
    """Every player passes once."""
    for _ in state.players:
        state, _ = apply(state, Action("pass", deciders(state)[0]))
    return state


@pytest.mark.parametrize("seed", SEEDS)
def test_a_round_of_passes_stalls_the_game_and_a_tile_ends_the_stall(seed: int) -> None:
    state = new_game(2, seed=seed)
    assert idle_turns(state) == 0 and not stalled(state)
    state, _ = apply(state, Action("pass", 0))
    assert idle_turns(state) == 1 and not stalled(state)  # one player has not played yet
    state, _ = apply(state, Action("pass", 1))
    assert idle_turns(state) == 2 and stalled(state)
    face = game("tigris")
    assert face.stalled is not None and face.stalled(state)
    assert all(stalled(view(state, s)) for s in (0, 1, None))  # public: every view knows
    tile = next(a for a in legal_actions(state) if a.kind == "tile")
    state, _ = apply(state, tile)
    assert not stalled(state)  # a tile left the hand: the turn's refill will draw
    state, _ = apply(state, Action("pass", tile.seat))
    assert idle_turns(state) == 0 and not stalled(state)


@pytest.mark.parametrize("level", ["random", "heuristic", "search"])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_level_progresses_when_the_game_stands_still(seed: int, level: str) -> None:
    """Told by the state that the game stands still, no level passes: a tile or a swap."""
    state = pass_round(pass_round(new_game(2, seed=seed)))
    assert stalled(state)
    seat = deciders(state)[0]
    action = make_agent(level, seed=seed, **TINY.get(level, {})).decide(state, seat)
    assert action.kind in ("tile", "swap"), action


def monument_state(seed: int) -> TigrisState:
    """A new 2-player game with a black-blue monument next to a temple and seat 0's king
    (black) beside that temple: its kingdom holds the monument (T-MONUMENT-7)."""
    state = new_game(2, seed=seed)
    cells = state.cells
    mid = next(m for m, cs in zip(MONUMENTS, MONUMENT_COLOURS, strict=True) if cs == (0, 2))
    for temple in state.treasures:
        for tl in range(len(cells)):
            block = [tl, tl + 1, tl + 16, tl + 17]
            if tl % 16 == 15 or tl + 17 >= len(cells):
                continue
            if any(cells[q] != EMPTY or RIVER[q] for q in block):
                continue
            if not any(temple in NEIGHBOURS[q] for q in block):
                continue
            spots = [q for q in NEIGHBOURS[temple] if cells[q] == EMPTY and q not in block]
            if not spots:
                continue
            for q in block:
                cells[q] = DOWN
            state.monuments[mid] = tl
            cells[spots[0]] = LEADER  # seat 0's black leader (the king)
            state.players[0].leaders[0] = spots[0]
            return state
    raise AssertionError("no room for a monument")


@pytest.mark.parametrize("seed", SEEDS)
def test_passing_by_itself_is_worth_nothing_to_the_evaluation(seed: int) -> None:
    """The state before a pass and after it are judged alike: the monument points the pass
    scores (T-TURN-4) were counted in the turn already."""
    state = monument_state(seed)
    after, _ = apply(state, Action("pass", 0))
    assert after.players[0].score == [1, 0, 0, 0]  # the monument scored black (the king)
    assert evaluate(after, 0) == pytest.approx(evaluate(state, 0))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_heuristic_passes_only_when_passing_beats_every_action(seed: int) -> None:
    """On the monument position, the heuristic's ranking (the candidates first, every other
    action when passing comes first) never puts passing above an action it judges better."""
    state = monument_state(seed)
    agent = HeuristicAgent(seed)
    ranked = agent.ranked(state, 0, legal_actions(state))
    assert ranked[0][1].kind != "pass"
    values = [v for v, _ in ranked]
    assert values == sorted(values, reverse=True)
