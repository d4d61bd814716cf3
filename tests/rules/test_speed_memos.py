"""The speed-ups of issue 33 agree with a recomputation from scratch, over seeded self-play:
the listing's refusal parts (``*_reason``) with the full refusals (``*_problem``), and the
memoised English of the events and terms with a rendering made with empty memos."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest

from rules.brazil import apply, legal_actions, missions, new_game
from rules.brazil import combat as C
from rules.brazil import messages as M
from rules.brazil.events import Event
from rules.brazil.game import Context
from rules.brazil.payment import PayabilityCache, PayContext, pay_context, sources
from rules.brazil.state import GameState
from rules.errors import RulesError


def _selfplay(players: int, seed: int, steps: int = 500) -> Iterator[tuple[GameState, list[Event]]]:
    """Each state of a seeded random self-play with the events that led to it."""
    rng = random.Random(f"memos:{players}:{seed}")
    state = new_game(players, seed)
    events: list[Event] = []
    for _ in range(steps):
        yield state, events
        if state.phase == "ended":
            return
        state, events = apply(state, rng.choice(legal_actions(state)))


def _same(why: tuple[str, str, Mapping[str, object]] | None, err: RulesError | None) -> None:
    assert (why is None) == (err is None)
    if why is not None and err is not None:
        assert (err.rule, err.key, err.params) == (why[0], why[1], why[2])
        assert err.message  # the refusal is still rendered in full when it is raised


@pytest.mark.parametrize(("players", "seed"), [(1, 0), (2, 1), (3, 2), (4, 3)])
def test_reasons_agree_with_problems(players: int, seed: int) -> None:
    checked = {"bombard": 0, "expedition": 0, "palace": 0}
    for state, _ in _selfplay(players, seed):
        if state.phase != "play":
            continue
        g = Context(state)
        for seat in range(state.n):
            p = g.p(seat)
            for u, src in p.units.items():
                hexes = [src, *g.board.neighbours.get(src, ())] if src in g.board.terrain else []
                for at in [*hexes, "A1"]:
                    _same(C.bombard_reason(g, seat, u, at), C.bombard_problem(g, seat, u, at))
                    _same(C.expedition_reason(g, seat, at), C.expedition_problem(g, seat, at))
                    checked["bombard"] += 1
                    checked["expedition"] += 1
            for pal in (1, 2, 3, 4, 5, 6, 7):
                for h in state.tiles:
                    _same(
                        missions._palace_reason(g, seat, pal, h),
                        missions._palace_problem(g, seat, pal, h),
                    )
                    checked["palace"] += 1
    assert all(checked.values()), checked


@pytest.mark.parametrize(("players", "seed"), [(1, 4), (2, 5), (4, 6)])
def test_event_texts_agree_with_a_fresh_rendering(players: int, seed: int) -> None:
    """Every event's text (rendered through the warm terms' memo and the kept renderer)
    equals the one rendered with an empty memo, and it is rendered again alike."""
    seen = 0
    for state, events in _selfplay(players, seed, steps=400):
        g = Context(state)
        for e in events:
            memo_text = M.english_text(e.key, e.params, g.names)
            assert memo_text == e.text
            M._TERM_MEMO.clear()
            assert M.render_message(e.key, e.params, names=g.names) == e.text
            assert M.english_text(e.key, e.params, g.names) == e.text
            seen += 1
    assert seen > 100


def test_memo_renders_by_type_and_names() -> None:
    """The same key with parameters equal in Python but rendered differently, or with
    other component names, gets its own sentence."""
    key = "gain"
    a = M.english_text(key, {"who": "Green", "goods": {"coffee": 1}})
    b = M.english_text(key, {"who": "Green", "goods": {"coffee": True}})
    assert a == M.render_message(key, {"who": "Green", "goods": {"coffee": 1}})
    assert b == M.render_message(key, {"who": "Green", "goods": {"coffee": True}})
    names = {"term.unit.x": "Other"}.get
    ref = "@term.unit.x"
    plain = M.english(ref)
    assert M.english_text("move.free", {"who": "Green", "units": [ref], "src": "A1", "to": "A2"})
    other = M.english_text(
        "move.free", {"who": "Green", "units": [ref], "src": "A1", "to": "A2"}, names
    )
    assert "Other" in other
    assert M.english(ref) == plain


@pytest.mark.parametrize(("players", "seed"), [(1, 7), (2, 8), (4, 9)])
def test_spent_card_sources_agree_with_a_fresh_scan(players: int, seed: int) -> None:
    """The listing's sources of a gold card being played, made from the same sources
    without the card, equal :func:`sources` computed from the state."""
    seen = 0
    for state, _ in _selfplay(players, seed, steps=400):
        if state.phase != "play":
            continue
        for seat in range(state.n):
            p = state.players[seat]
            for card in sorted(set(p.gold_cards)):
                for base in (PayContext(), PayContext(any_crop_for_crop=True)):
                    cache = PayabilityCache(state)
                    cache.sources(seat, base)  # the base is known: the card's is derived
                    ctx = replace(base, spent_card=card)
                    derived = cache.sources(seat, ctx)
                    assert derived == sources(state, seat, ctx)
                    seen += 1
    assert seen


def test_pay_context_is_the_context_of_its_fields() -> None:
    cases: list[dict[str, Any]] = [
        {},
        {"exact": True},
        {"exclude_hex": "D3", "label": "renovating", "ref": "@phrase.for.renovating"},
        {"any_crop_for_crop": True, "label": "Sawmill", "ref": "@term.building.sawmill"},
        {"spent_card": "loan"},
        {"label": "x", "ref": {"key": "phrase.why.card", "params": {}}},  # unhashable ref
    ]
    for kw in cases:
        ctx = pay_context(**kw)
        assert ctx == PayContext(**kw)
        assert repr(ctx) == repr(PayContext(**kw))
    assert pay_context(exact=True) is pay_context(exact=True)
    assert pay_context(exact=True) != pay_context()
