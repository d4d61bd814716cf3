"""Undo points: ``reveals`` on every event and ``undoable`` / ``undo_depth`` (rules/brazil/undo.py).

Checked over seeded self-play games of 1-4 players (tests/selfplay_steps.py).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules.brazil import GameState, apply, legal_actions, undo_depth, undoable, view
from rules.brazil.catalog import get_catalog
from rules.brazil.undo import Step
from tests.helpers import start
from tests.selfplay_steps import all_steps, play


def _hidden_kind_ids() -> set[str]:
    """Ids of things that can be hidden (cards, missions, tiles, paintings, cities, capitals)
    and are never used for anything else in a state."""
    cat = get_catalog(None)
    secret = (
        set(cat.gold_cards)
        | set(cat.combat_cards)
        | set(cat.missions)
        | set(cat.exploration)
        | set(cat.paintings)
        | set(cat.cities)
        | set(cat.capitals)
    )
    other = (
        set(cat.arches) | set(cat.sides) | set(cat.monarchs) | set(cat.products) | set(cat.units)
    )
    other |= {u.split(".", 1)[-1] for u in cat.units}
    other |= {"gold", "coffee", "cotton", "sugar_cane", "brazilwood", "science", "any"}
    return secret - other


SECRET_IDS = _hidden_kind_ids()
CAPITALS = set(get_catalog(None).capitals)  # listed twice once chosen: count presence only


def _visible_secret_ids(state: GameState) -> Counter[str]:
    out: Counter[str] = Counter()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if x in SECRET_IDS:
                out[x] = 1 if x in CAPITALS else out[x] + 1
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(state.model_dump())
    return out


@pytest.mark.slow
def test_every_step_that_uses_the_rng_or_shows_something_hidden_has_a_revealing_event():
    """For every observer (each seat and a spectator): if a card, mission, tile, painting,
    city or capital id becomes visible that was not before, or the RNG was used, one of the
    step's events has reveals=True."""
    revealing = quiet = 0
    seen: dict[tuple[int, int | None], Counter[str]] = {}

    def ids(state: GameState, o: int | None) -> Counter[str]:
        key = (id(state), o)
        if key not in seen:
            seen[key] = _visible_secret_ids(view(state, o))
        return seen[key]

    for players, seed, (before, action, after, events) in all_steps():
        shown = after.rng.counter != before.rng.counter
        for o in [None, *range(players)]:
            if shown:
                break
            shown = bool(ids(after, o) - ids(before, o))
        for o in [None, *range(players)]:
            seen.pop((id(before), o), None)
        if shown:
            revealing += 1
            assert any(e.reveals for e in events), (players, seed, action, [e.key for e in events])
        else:
            quiet += 1
    assert revealing > 100 and quiet > 1000


def _redeal(state: GameState, rnd: random.Random) -> GameState:
    """The same position for every seat's view, with everything no seat can see re-dealt:
    deck orders, the city piles under their top, unpeeked face-down tiles, the RNG seed."""
    s = state.clone()
    s.rng.seed = rnd.randrange(2**62)
    for deck in (s.gold_deck, s.combat_deck, *s.mission_decks.values()):
        rnd.shuffle(deck)
    for deck in s.painting_decks.values():
        rnd.shuffle(deck)
    for pile in s.city_piles:
        below = pile[:-1]
        rnd.shuffle(below)
        pile[:-1] = below
    peeked = {h for p in s.players for h in p.peeks}
    hexes = [h for h, e in s.exploration.items() if not e.face_up and h not in peeked]
    tiles = [s.exploration[h].tile for h in hexes]
    rnd.shuffle(tiles)
    for h, t in zip(hexes, tiles, strict=True):
        s.exploration[h] = s.exploration[h].model_copy(update={"tile": t})
    return s


def _views(state: GameState) -> list[str]:
    return [view(state, o).model_dump_json() for o in [None, *range(state.n)]]


@pytest.mark.slow
def test_undoable_steps_replay_exactly_and_depend_on_nothing_hidden():
    """An undoable step: restoring ``before`` and re-applying the action gives ``after``
    again; and with everything hidden from all seats re-dealt, every seat sees the same
    result — so nobody learnt anything from it but the action itself."""
    rnd = random.Random(5)
    undoables = sensitive = 0
    for _players, _seed, (before, action, after, events) in all_steps():
        ok = undoable(before, action, after, events)
        if not ok and sensitive >= 3:
            continue
        again, ev2 = apply(before, action)
        if ok:
            assert again.model_dump_json() == after.model_dump_json()
            assert ev2 == events
        other = _redeal(before, rnd)
        assert _views(other) == _views(before)
        other_after, _ = apply(other, action)
        if ok:
            undoables += 1
            assert _views(other_after) == _views(after), action
            assert after.rng.counter == before.rng.counter
        elif _views(other_after) != _views(after):
            sensitive += 1  # the check can fail: a drawing step differs after a re-deal
    assert undoables > 300 and sensitive >= 3


def test_undoable_steps_are_the_current_players_and_leave_others_pending_alone():
    for _players, _seed, (before, action, after, events) in all_steps():
        if not undoable(before, action, after, events):
            continue
        assert before.phase == after.phase == "play"
        assert action.seat == before.current == after.current
        assert not any(e.reveals for e in events)
        others = [(d.seat, d.kind) for d in before.pending if d.seat != action.seat]
        assert others == [(d.seat, d.kind) for d in after.pending if d.seat != action.seat]
        assert not any(e.kind in ("turn", "game_over") for e in events)


def test_undo_depth_counts_the_newest_undoable_steps_of_the_seat_within_its_turn():
    for players, seed in [(2, 21), (3, 31), (1, 11)]:
        history: list[Step] = []
        for step in play(players, seed, 400):
            history.append(step)
            after = step[2]
            if after.phase != "play":
                continue
            seat = after.current
            d = undo_depth(history, seat)
            newest = history[len(history) - d :] if d else []
            assert all(a.seat == seat and undoable(b, a, af, ev) for b, a, af, ev in newest)
            # Never reaches past the start of this turn: all counted steps share its round.
            assert all(b.round == after.round and b.current == seat for b, _, _, _ in newest)
            if d < len(history):
                b, a, af, ev = history[len(history) - 1 - d]
                assert a.seat != seat or not undoable(b, a, af, ev)
            for other in range(players):
                if other != seat:
                    assert undo_depth(history, other) == 0 or history[-1][1].seat == other


def test_build_then_move_may_be_undone_but_not_a_card_draw():
    """Seat 0 builds (nothing hidden, no RNG): depth 1; a Recruit that draws a combat card
    from the deck is final: depth 0."""
    st = start()
    st.players[0].reserve = {"cotton": 2, "coffee": 2, "sugar_cane": 2, "brazilwood": 2}
    builds = [a for a in legal_actions(st, 0) if a.type == "build"]
    assert builds
    after, events = apply(st, builds[0])
    history: list[Step] = [(st, builds[0], after, events)]
    assert undoable(st, builds[0], after, events)
    assert undo_depth(history, 0) == 1 and undo_depth(history, 1) == 0
    st2 = start()
    st2.players[0].reserve = {"gold": 3, "brazilwood": 3}
    draws = [a for a in legal_actions(st2, 0) if a.type == "recruit" and a.draw > 0]
    assert draws
    after2, events2 = apply(st2, draws[0])
    assert any(e.reveals and e.kind == "draw_combat" for e in events2)
    assert not undoable(st2, draws[0], after2, events2)
    assert undo_depth([*history, (st2, draws[0], after2, events2)], 0) == 0
