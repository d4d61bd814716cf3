"""The computer players of every registered game: each level its registration names
(``agent_levels``) decides legally, the same way for the same seed, and plays whole games —
two players and the most — to their end (a search with one short rollout a decision:
:data:`tests.conformance.common.TINY_SEARCH`)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.games import game
from tests.conformance.common import Case, agent_cases, make_agent, recorded

CASES = agent_cases()
SAMPLED_STATES = 6
MAX_STEPS = 5_000


def _ids(case: tuple[str, str, int]) -> str:
    name, level, players = case
    return f"{name}-{level}-{players}p"


def _play(name: str, level: str, players: int, seed: int, steps: int) -> tuple[Any, int]:
    """A game of ``players`` computer players of ``level``: the state after at most ``steps``
    decisions, each checked legal, and how many were taken."""
    g = game(name)
    agents = [make_agent(name, level, seed * 10 + n) for n in range(players)]
    state = g.new_game(players, seed=seed)
    taken = 0
    while not g.is_over(state) and taken < steps:
        seat = g.deciders(state)[0]
        legal = g.legal_actions(state, seat)
        before = g.dump(state)
        action = agents[seat].decide(state, seat)
        assert g.dump(state) == before, f"step {taken}: the agent changed the state"
        assert action in legal, f"step {taken}: {level} chose {action!r}, not a legal action"
        state, _ = g.apply(state, action)
        taken += 1
    return state, taken


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_each_level_decides_legally_and_the_same_for_the_same_seed(
    case: tuple[str, str, int],
) -> None:
    """At states spread over a random game (setup, middle, near the end): a legal action,
    the state untouched, the same decision from the same seed on the state read back."""
    name, level, players = case
    g = game(name)
    rec = recorded(Case(name, players, 1))
    decided = 0
    for i in rec.sample(SAMPLED_STATES):
        state = rec.state(i)
        if g.is_over(state):
            continue
        seat = g.deciders(state)[0]
        before = g.dump(state)
        action = make_agent(name, level, i).decide(state, seat)
        assert g.dump(state) == before, f"step {i}: the agent changed the state"
        assert action in g.legal_actions(state, seat), f"step {i}: {action!r} is not legal"
        again = make_agent(name, level, i).decide(g.load(before), seat)
        assert again == action, f"step {i}: the same seed gave another decision"
        decided += 1
    assert decided


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_each_level_plays_whole_games_to_the_end(case: tuple[str, str, int]) -> None:
    name, level, players = case
    g = game(name)
    state, taken = _play(name, level, players, 2, MAX_STEPS)
    assert g.is_over(state), f"not over after {taken} decisions"
    scores = g.final_scores(state)
    assert sorted(seat for seat, _ in scores) == list(range(players))
    assert g.winners(state)
