"""The rating model (service/rating.py, issue #31): places from scores and winners, updates
that reward the better place, ties, and the number players see."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rating import NEW, Rating, places_of, rate, shown


def test_places_winners_first_then_by_score_ties_shared() -> None:
    assert places_of({0: 10, 1: 12, 2: 7}, frozenset({1})) == {1: 1, 0: 2, 2: 3}
    # the game's tie-break chose seat 0 among equal scores
    assert places_of({0: 9, 1: 9, 2: 3}, frozenset({0})) == {0: 1, 1: 2, 2: 3}
    # a shared win, and two seats tied behind
    assert places_of({0: 9, 1: 9, 2: 3, 3: 3}, frozenset({0, 1})) == {0: 1, 1: 1, 2: 3, 3: 3}
    # nobody won (a lost game): by score
    assert places_of({0: 4, 1: 6}, frozenset()) == {1: 1, 0: 2}


def test_the_better_place_gains_and_a_tie_moves_both_alike() -> None:
    a, b, c = rate([NEW, NEW, NEW], [1, 2, 3])
    assert a.mu > NEW.mu > c.mu and a.mu > b.mu > c.mu
    assert all(r.sigma < NEW.sigma for r in (a, b, c))
    x, y = rate([NEW, NEW], [1, 1])
    assert x == y and x.mu == pytest.approx(NEW.mu)


def test_shown_starts_at_1000_and_follows_the_conservative_estimate() -> None:
    assert shown(NEW) == 1000
    assert shown(Rating(30.0, 2.0)) == 1000 + 25 * 24


@given(st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=4))
def test_a_better_place_gains_more_and_tied_places_alike(places: list[int]) -> None:
    """Whatever the places of 2-4 players starting equal: a player placed strictly better
    than another ends higher, tied players end equal."""
    new = rate([NEW] * len(places), places)
    for i, p in enumerate(places):
        for j, q in enumerate(places):
            if p < q:
                assert new[i].mu > new[j].mu
            elif p == q:
                assert new[i].mu == pytest.approx(new[j].mu)


def test_a_game_needs_two_players() -> None:
    with pytest.raises(ValueError):
        rate([NEW], [1])
