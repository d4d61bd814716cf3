"""Issue 33: a search's effort is a number of rollouts (deterministic given the seed), the
wall-clock budget only a cap; ``effort`` scales both; line-ups name an effort as ``search@F``.
For every registered game whose computer players have a search level."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ai
from ai.report import check_entries, entry_agent
from ai.widening import width
from rules.games import game
from rules.registry import registrations

SEARCH_GAMES = [
    n for n, r in registrations().items() if "search" in r.agent_levels and r.tournament
]


def _decision_point(name: str, seed: int) -> tuple[object, int]:
    """A seeded state a few random steps in where the deciding seat has several choices."""
    g = game(name)
    rng = random.Random(seed)
    state = g.new_game(2, seed=seed)
    for _ in range(400):
        seat = g.deciders(state)[0]
        acts = g.legal_actions(state, seat)
        if len(acts) > 3 and rng.random() < 0.2:
            return state, seat
        state, _ = g.apply(state, rng.choice(acts))
    raise AssertionError("no decision point")


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_effort_scales_the_rollouts_and_the_same_seed_decides_the_same(name: str) -> None:
    state, seat = _decision_point(name, 5)
    one = ai.make_agent("search", seed=3, game=name, iterations=4, budget=600)
    four = ai.make_agent("search", seed=3, game=name, iterations=4, budget=600, effort=4)
    again = ai.make_agent("search", seed=3, game=name, iterations=4, budget=600, effort=4)
    a = one.decide(state, seat)
    b = four.decide(state, seat)
    assert b == again.decide(state, seat)  # rollouts, not seconds: reproducible
    assert a in game(name).legal_actions(state, seat) and b in game(name).legal_actions(state, seat)
    n1, n4 = one.last_iterations, four.last_iterations  # type: ignore[attr-defined]
    if n1:  # a decision with one candidate plays no rollouts
        assert 3 * n1 <= n4 <= 5 * n1
    assert one.capped == four.capped == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_the_budget_is_a_cap(name: str) -> None:
    """A millisecond's cap on a hundred thousand rollouts: the decision comes back legal,
    cut short, and the cut is counted (a decision with one candidate plays none)."""
    agent = ai.make_agent("search", seed=1, game=name, iterations=100_000, budget=0.001)
    for seed in (6, 7, 8):
        state, seat = _decision_point(name, seed)
        assert agent.decide(state, seat) in game(name).legal_actions(state, seat)
        assert agent.last_iterations < 100_000  # type: ignore[attr-defined]
    assert 1 <= agent.capped <= 3  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_the_default_effort_is_a_number_of_rollouts(name: str) -> None:
    agent = ai.make_agent("search", seed=0, game=name)
    assert isinstance(agent.iterations, int) and agent.iterations > 0  # type: ignore[attr-defined]
    assert agent.budget == ai.DEFAULT_BUDGET  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="effort"):
        ai.make_agent("search", seed=0, game=name, effort=0)


def test_line_up_entries_name_an_effort() -> None:
    assert entry_agent("search@4", None, 8) == ("search", {"iterations": 8, "effort": 4.0})
    assert entry_agent("heuristic", 1.0, 8) == ("heuristic", {})
    check_entries(["search@0.5", "search", "random"], ("random", "heuristic", "search"))
    for bad in ("search@x", "search@0", "heuristic@2", "oracle"):
        with pytest.raises(ValueError):
            check_entries([bad], ("random", "heuristic", "search"))


@given(
    rollouts=st.integers(0, 100_000),
    more=st.integers(0, 100_000),
    base=st.integers(1, 12),
    reference=st.integers(1, 1_000),
    available=st.integers(1, 200),
)
def test_the_candidates_widen_with_the_rollouts_and_only_past_the_level(
    rollouts: int, more: int, base: int, reference: int, available: int
) -> None:
    """Progressive widening (:mod:`ai.widening`): the level's own candidates up to its own
    rollouts, never fewer later, never more than there are, about ``base * sqrt(n / ref)``."""
    w = width(rollouts, base, reference, available)
    assert 1 <= w <= available
    assert width(rollouts + more, base, reference, available) >= w
    if rollouts <= reference:
        assert w == min(base, available)
    else:
        assert w == min(available, math.floor(base * math.sqrt(rollouts / reference)))
    assert width(16 * reference, base, reference, available) == min(available, 4 * base)


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_more_effort_weighs_more_candidates(name: str) -> None:
    """At four times its effort a search weighs more of its ranked actions than at its own
    (twice as many where there are enough), at its own exactly its ``candidates``; every
    decision is legal and reproducible from the seed."""
    widened = 0
    for seed in range(10, 22):
        state, seat = _decision_point(name, seed)
        one = ai.make_agent("search", seed=seed, game=name, iterations=8, budget=600)
        four = ai.make_agent("search", seed=seed, game=name, iterations=8, budget=600, effort=4)
        again = ai.make_agent("search", seed=seed, game=name, iterations=8, budget=600, effort=4)
        legal = game(name).legal_actions(state, seat)
        assert one.decide(state, seat) in legal
        choice = four.decide(state, seat)
        assert choice in legal and again.decide(state, seat) == choice
        n1, n4 = one.last_candidates, four.last_candidates  # type: ignore[attr-defined]
        if one.last_iterations == 0:  # type: ignore[attr-defined]
            continue  # one candidate: no search
        assert n1 <= one.candidates  # type: ignore[attr-defined]
        assert n1 <= n4 <= 2 * one.candidates  # type: ignore[attr-defined]
        widened += n4 > n1
    assert widened >= 3
