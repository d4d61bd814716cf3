"""The rules face (:class:`rules.games.Game`) of every registered game: listing changes
nothing, views leak nothing, replay is exact, notation and JSON read back, a random game
ends with consistent scores. Seeded random games (:func:`tests.conformance.common.recorded`),
each game × its player counts × several seeds."""

from __future__ import annotations

import json
import random

import pytest

from tests.conformance.common import MAX_STEPS, Case, cases, recorded, walk

CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=str)
def test_listing_legal_actions_changes_nothing(case: Case) -> None:
    g = case.face
    rec = recorded(case)
    for i, before, _action, _after, _events in walk(rec):
        if i % 3:
            continue  # every third step (and the states in memory, as applied)
        dumped = g.dump(before)
        assert dumped == rec.states[i], f"step {i}: the game is not the recorded one"
        for seat in [*g.deciders(before), None]:
            listed = g.legal_actions(before, seat)
            assert g.dump(before) == dumped, f"step {i}: listing for {seat} changed the state"
            if seat is not None:
                assert listed, f"step {i}: seat {seat} decides but has no legal action"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_views_leak_nothing(case: Case) -> None:
    """Two full states dealt at random from what a seat sees differ only in what it cannot
    see: its view (and a spectator's) of both is the same."""
    g = case.face
    rec = recorded(case)
    dealt_differently = 0
    for i in rec.sample():
        state = rec.state(i)
        for seat in range(case.players):
            one = g.determinize(state, seat, random.Random(i * 31 + seat))
            two = g.determinize(state, seat, random.Random(i * 31 + seat + 1))
            dealt_differently += g.dump(one) != g.dump(two)
            for who in (seat, None):
                assert g.dump(g.view(one, who)) == g.dump(g.view(two, who)), (
                    f"step {i}: the view of {who} shows what seat {seat} cannot see"
                )
    if not dealt_differently:
        pytest.skip("no hidden information was dealt differently (nothing to hide?)")


@pytest.mark.parametrize("case", CASES, ids=str)
def test_determinize_agrees_with_the_view(case: Case) -> None:
    """A state dealt from a seat's view looks the same to that seat as the game itself."""
    g = case.face
    rec = recorded(case)
    for i in rec.sample():
        state = rec.state(i)
        for seat in range(case.players):
            dealt = g.determinize(state, seat, random.Random(i))
            assert g.dump(g.view(dealt, seat)) == g.dump(g.view(state, seat)), (
                f"step {i}: seat {seat} sees the dealt state differently"
            )


@pytest.mark.parametrize("case", CASES, ids=str)
def test_determinize_depends_only_on_the_view(case: Case) -> None:
    """Dealing from the full state or from the seat's view gives the same state: the full
    state holds nothing more that the deal could use (the view holds all the seat knows)."""
    g = case.face
    rec = recorded(case)
    for i in rec.sample():
        state = rec.state(i)
        for seat in range(case.players):
            from_state = g.determinize(state, seat, random.Random(i))
            from_view = g.determinize(g.view(state, seat), seat, random.Random(i))
            assert g.dump(from_state) == g.dump(from_view), f"step {i}, seat {seat}"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_replay_is_exact(case: Case) -> None:
    """The recorded actions replayed from the seed — in memory, and from each state read
    back from its JSON with each action read back from its JSON (as storage replays) —
    give byte-identical JSON at every step."""
    g = case.face
    rec = recorded(case)
    for i, _before, _action, after, _events in walk(rec):
        assert g.dump(after) == rec.states[i + 1], f"step {i}: replay in memory differs"
    for i, action in enumerate(rec.actions):
        loaded = g.load(rec.states[i])
        again, _ = g.apply(loaded, g.action_from_json(g.action_to_json(action)))
        assert g.dump(again) == rec.states[i + 1], f"step {i}: replay from JSON differs"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_notation_reads_back_every_legal_action(case: Case) -> None:
    g = case.face
    rec = recorded(case)
    for i in rec.sample():
        state = rec.state(i)
        for seat in g.deciders(state):
            texts = g.legal_texts(state, seat)
            for action in g.legal_actions(state, seat):
                text = g.format_action(state, action)
                assert text in texts
                assert g.parse_text(state, seat, text) == action, f"step {i}: {text!r}"
                assert g.describe_action(state, action).strip(), f"step {i}: {text!r}"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_json_reads_back_states_and_actions(case: Case) -> None:
    g = case.face
    rec = recorded(case)
    for i, dumped in enumerate(rec.states):
        state = g.load(dumped)
        assert g.dump(state) == dumped, f"state {i}"
        assert isinstance(json.loads(dumped), dict)
    for i, action in enumerate(rec.actions):
        text = g.action_to_json(action)
        json.loads(text)
        back = g.action_from_json(text)
        assert back == action, f"step {i}: {text}"
        assert g.action_to_json(back) == text
        assert g.action_from_json(json.loads(text)) == action  # a dict reads too


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_random_game_ends_with_consistent_scores(case: Case) -> None:
    g = case.face
    rec = recorded(case)
    assert rec.over, f"not over after {MAX_STEPS} steps"
    final = rec.state(len(rec.actions))
    assert g.is_over(final)
    assert g.deciders(final) == []
    assert all(g.legal_actions(final, seat) == [] for seat in range(case.players))
    scores = g.final_scores(final)
    assert sorted(seat for seat, _ in scores) == list(range(case.players))
    totals = [score for _, score in scores]
    assert totals == sorted(totals, reverse=True), "final scores are best first"
    winners = g.winners(final)
    assert winners and len(set(winners)) == len(winners)
    assert set(winners) <= set(range(case.players))
    best = dict(scores)
    assert all(best[w] == totals[0] for w in winners), "a winner has less than the best"
    # every step was taken by a seat that decided then
    for i, seat in enumerate(rec.seats):
        assert seat in g.deciders(rec.state(i)), f"step {i}"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_games_own_invariants_hold(case: Case) -> None:
    """The game's own checks after every step (:attr:`rules.games.Game.check`), if any."""
    g = case.face
    if g.check is None:
        pytest.skip("the game declares no invariants of its own")
    rec = recorded(case)
    rng = random.Random(case.seed)
    for i in rec.sample(25):
        g.check(rec.state(i), rng)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_undo_depth_is_a_count_of_own_steps(case: Case) -> None:
    """``undo_depth`` of one step is 0 or 1, and 0 for every seat but the one who took it."""
    g = case.face
    rec = recorded(case)
    for i, before, action, after, events in walk(rec):
        if i % 7:
            continue
        step = [(before, action, after, events)]
        depth = g.undo_depth(step, rec.seats[i])
        assert depth in (0, 1), f"step {i}: {depth}"
        for seat in range(case.players):
            if seat != rec.seats[i]:
                assert g.undo_depth(step, seat) == 0, f"step {i}: seat {seat}"
