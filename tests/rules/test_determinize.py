"""Determinization (AI support): hidden information re-dealt, what a seat knows unchanged."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from rules.brazil import apply, determinize, legal_actions, new_game, view
from rules.brazil.determinize import REDEALERS
from rules.brazil.state import GameState
from rules.brazil.view import HIDDEN_FIELDS


def _states(players: int, seed: int, every: float = 0.08) -> list[GameState]:
    """States of one seeded random game (setup included), sampled along the way."""
    rng = random.Random(seed)
    st = new_game(players, seed)
    out = [st]
    while st.phase != "ended" and st.round <= 25:
        st, _ = apply(st, rng.choice(legal_actions(st)))
        if rng.random() < every:
            out.append(st)
    return out


def test_every_hidden_field_has_a_redealer():
    assert set(REDEALERS) == {f.name for f in HIDDEN_FIELDS}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_determinized_state_looks_the_same_and_plays_on(players: int, seed: int):
    # R-COMBAT-4, R-EXPLORE-4, R-SETUP-5: what a seat knows is kept, the rest re-dealt.
    rng = random.Random(seed * 7 + players)
    for st in _states(players, seed):
        before = st.model_dump_json()
        for seat in [None, *range(players)]:
            det = determinize(st, seat, rng)
            assert view(det, seat).model_dump_json() == view(st, seat).model_dump_json()
            assert GameState.model_validate_json(det.model_dump_json()) == det
            # play continues from the re-dealt state
            cur = det
            for _ in range(6):
                acts = legal_actions(cur)
                if cur.phase == "ended":
                    break
                assert acts
                cur, _ = apply(cur, rng.choice(acts))
        assert st.model_dump_json() == before  # the given state is untouched


def test_hidden_parts_are_actually_redealt():
    st = _states(3, 5)[-1]
    rng = random.Random(1)
    dets = [determinize(st, 0, rng) for _ in range(20)]
    # seat 0's own hands stay; the others' hands and the decks vary
    assert all(d.players[0].combat_cards == st.players[0].combat_cards for d in dets)
    assert all(d.players[0].missions == st.players[0].missions for d in dets)
    assert len({tuple(d.gold_deck) for d in dets}) > 1
    assert len({tuple(d.players[1].missions) for d in dets}) > 1
    assert len({d.rng.seed for d in dets}) == 20

    # the multiset of all combat cards is kept
    def all_combat(s: GameState) -> list[str]:
        return sorted(
            s.combat_deck + s.combat_discard + [c for p in s.players for c in p.combat_cards]
        )

    assert all(all_combat(d) == all_combat(st) for d in dets)


def test_espionage_results_are_kept():
    st = _states(2, 8)[-1]
    if st.phase == "ended":
        st.phase = "play"
    st.players[0].seen = {"1": list(st.players[1].gold_cards + st.players[1].missions)}
    rng = random.Random(2)
    for _ in range(10):
        d = determinize(st, 0, rng)
        assert sorted(d.players[1].gold_cards) == sorted(st.players[1].gold_cards)
        assert sorted(d.players[1].missions) == sorted(st.players[1].missions)


def test_peeked_tiles_stay_for_the_peeker__R_EXPLORE_4():
    rng = random.Random(3)
    st = new_game(2, 4)
    hexes = [h for h, e in st.exploration.items() if not e.face_up]
    st.players[0].peeks = {hexes[0]: st.exploration[hexes[0]].tile}
    st.players[1].peeks = {hexes[1]: st.exploration[hexes[1]].tile}
    for _ in range(10):
        d = determinize(st, 0, rng)
        assert d.exploration[hexes[0]].tile == st.exploration[hexes[0]].tile
        assert d.players[1].peeks[hexes[1]] == d.exploration[hexes[1]].tile


def test_committed_cards_redealt_for_the_defender__R_COMBAT_4():
    from tests.helpers import act, give, place_unit, start, to_movement

    st = to_movement(start(), "build")
    place_unit(st, 0, "archer1", "E4")
    place_unit(st, 1, "brawler1", "F4")
    # the cards come from the deck (the catalog's totals stay right: determinize deals from them)
    st.combat_deck += st.players[0].combat_cards
    for c in ("acampamento", "militia"):
        st.combat_deck.remove(c)
    st.players[0].combat_cards = ["acampamento", "militia"]
    give(st, 0, coffee=2, cotton=1)
    st = act(st, "move", 0, unit="archer1", to="F4", kind="free")
    st = act(st, "commit_cards", 0, cards=["acampamento"], camp=["coffee", "coffee"])
    rng = random.Random(4)
    cards = set()
    for _ in range(30):
        d = determinize(st, 1, rng)
        assert view(d, 1).model_dump_json() == view(st, 1).model_dump_json()
        assert d.combat is not None and len(d.combat.attacker.cards) == 1
        assert "parley" not in d.combat.attacker.cards  # an attacker cannot play Parley
        cards.add(d.combat.attacker.cards[0])
        _, ev = apply(d, legal_actions(d, 1)[0])  # the defender answers, the battle resolves
        assert any(e.kind == "battle_result" for e in ev)
        same = determinize(st, 0, rng)  # the attacker knows its own cards
        assert same.combat.attacker.cards == ["acampamento"]
        assert same.combat.attacker.camp == ["coffee", "coffee"]
    assert len(cards) > 1


def test_selfplay_invariant_catches_a_leaky_view(monkeypatch: pytest.MonkeyPatch):
    # The "views leak nothing" invariant must fail if a view stops hiding something.
    import sys

    view_module = sys.modules[
        "rules.brazil.view"
    ]  # (rules.brazil.view is also the function's name)
    from devtools.brazil.selfplay import InvariantError, check_views_leak_nothing

    st = _states(2, 3)[-1]
    check_views_leak_nothing(st)
    leaky = tuple(f for f in HIDDEN_FIELDS if f.name != "gold_deck")
    monkeypatch.setattr(view_module, "HIDDEN_FIELDS", leaky)
    with pytest.raises(InvariantError):
        check_views_leak_nothing(st)


def _random_game(players: int, seed: int, steps: int, rng: random.Random) -> GameState:
    """A seeded game after up to ``steps`` uniformly random legal actions (fewer if it ends)."""
    s = new_game(players, seed)
    for _ in range(steps):
        if s.phase == "ended":
            break
        s, _ = apply(s, rng.choice(legal_actions(s)))
    return s


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=hs.integers(1, 4),
    seed=hs.integers(0, 2**32),
    steps=hs.integers(0, 400),
    seat_pick=hs.integers(0, 4),
)
def test_determinize_property(players: int, seed: int, steps: int, seat_pick: int):
    # any seed, any point of a random game, any viewer: same view, and play goes on
    rng = random.Random(seed)
    s = _random_game(players, seed, steps, rng)
    seat = None if seat_pick >= players else seat_pick
    det = determinize(s, seat, rng)
    assert view(det, seat) == view(s, seat)
    for _ in range(5):
        if det.phase == "ended":
            break
        det, _ = apply(det, rng.choice(legal_actions(det)))


# ------------------------------------------------------------------ from the seat's view only


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=hs.integers(1, 4),
    seed=hs.integers(0, 2**32),
    steps=hs.integers(0, 500),
    seat_pick=hs.integers(0, 4),
    k=hs.integers(0, 2**32),
)
def test_determinize_depends_only_on_the_view_R_COMBAT_4_R_EXPLORE_4(
    players: int, seed: int, steps: int, seat_pick: int, k: int
):
    # The deal is a function of what the seat knows (and the rng): the full state and the
    # seat's view give the same result, so an AI cannot learn hidden information from it.
    rng = random.Random(seed)
    s = _random_game(players, seed, steps, rng)
    seat = None if seat_pick >= players else seat_pick
    v = view(s, seat)
    a = determinize(s, seat, random.Random(k))
    b = determinize(v, seat, random.Random(k))
    assert a == b
    assert view(a, seat) == v
    assert v == view(s, seat)  # the view given is untouched


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_determinize_of_state_and_view_agree_over_many_seeds(players: int):
    for seed in range(6):
        for st in _states(players, 100 + seed, every=0.05):
            for seat in [None, *range(players)]:
                v = view(st, seat)
                k = seed * 31 + (seat or 0)
                det = determinize(st, seat, random.Random(k))
                assert det == determinize(v, seat, random.Random(k))
                assert '"?"' not in det.model_dump_json()  # every hidden slot is dealt


def test_twins_differing_only_in_hidden_information_determinize_alike():
    # Two states with the same view for seat 0 but other hidden deals: same result.
    st = _states(3, 21)[-1]
    twin = st.clone()
    twin.gold_deck.reverse()
    twin.combat_deck.reverse()
    for d in twin.mission_decks.values():
        d.reverse()
    twin.rng.seed += 1
    assert view(twin, 0) == view(st, 0) and twin != st
    assert determinize(st, 0, random.Random(5)) == determinize(twin, 0, random.Random(5))


def test_a_view_for_another_seat_is_refused():
    st = _states(2, 4)[-1]
    with pytest.raises(ValueError, match="not seat 0's view"):
        determinize(view(st, 1), 0, random.Random(1))


@pytest.mark.slow
def test_removed_exploration_tiles_are_recorded_R_EXPLORE_2():
    # A tile seen by all (revealed) and then taken off the map without a player keeping it
    # is recorded in the public state, so the unseen tiles are computed from the box without
    # reading hidden data. Only a face-down tile discarded unseen (built over) is not.
    recorded = 0
    for seed in range(30):
        rng = random.Random(400 + seed)
        st = new_game(2 + seed % 3, 400 + seed)
        while st.phase != "ended" and st.round <= 25:
            nxt, events = apply(st, rng.choice(legal_actions(st)))
            unseen = {e.data.get("hex") for e in events if e.kind == "explore_discard"}
            gone = Counter(
                e.tile
                for h, e in st.exploration.items()
                if h not in nxt.exploration and h not in unseen
            )

            def accounted(s: GameState) -> Counter[str]:
                return Counter(s.removed_exploration + [t for p in s.players for t in p.kept_tiles])

            assert accounted(nxt) - accounted(st) == gone
            recorded += len(nxt.removed_exploration) - len(st.removed_exploration)
            st = nxt
        assert GameState.model_validate_json(st.model_dump_json()) == st
    assert recorded > 0
