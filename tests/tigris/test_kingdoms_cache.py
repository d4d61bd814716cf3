"""The cached kingdoms (``rules.tigris.kingdoms``, issue 33) agree with walking the board
square by square, over seeded self-play states: the kingdoms themselves (from scratch and
derived from any other position), the listing (against the engine's walking listing, kept as
the reference), a leader's relocations, the kingdoms next to a square, the treasure kingdoms;
and a state whose leaders disagree with its board is listed by the walk."""

from __future__ import annotations

import random

import pytest

from rules.tigris import engine as E
from rules.tigris import kingdoms as K
from rules.tigris.data import NEIGHBOURS, SIZE
from rules.tigris.state import EMPTY, LEADER, TigrisState


def _states(players: int, seed: int) -> list[TigrisState]:
    """Every state of a seeded random game."""
    rng = random.Random(seed)
    st = E.new_game(players, seed)
    out = []
    while not E.is_over(st):
        out.append(st)
        st, _ = E.apply(st, rng.choice(E.legal_actions(st)))
    return out


def _kingdoms_walked(cells: list[int]) -> set[int]:
    """The kingdoms (regions holding a leader) as bitboards, from ``label_regions``."""
    _, regions = E.label_regions(cells)
    return {sum(1 << s for s in r) for r in regions if E.is_kingdom(cells, r)}


def _fresh() -> None:
    K._CACHE.clear()
    K._PARTS.clear()
    K._LAST[0] = None


CASES = [(p, s) for p in (2, 3, 4) for s in (11, 12)]


def test_bitboard_neighbours_are_the_boards() -> None:
    for s in range(SIZE):
        assert K.NEIGHBOUR_MASK[s] == sum(1 << n for n in NEIGHBOURS[s])
        assert K.dilate(1 << s) == (1 << s) | K.NEIGHBOUR_MASK[s]
    assert [K._CONNECTS[c] == ord("1") for c in range(len(E.CONNECTS))] == list(E.CONNECTS)


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_kingdoms_from_scratch_and_from_any_parent(players: int, seed: int) -> None:
    states = _states(players, seed)
    rng = random.Random(seed)
    for i, st in enumerate(states):
        key = bytes(st.cells)
        want = _kingdoms_walked(st.cells)
        assert set(K.Position(key).kingdoms) == want
        for parent in (states[i - 1], rng.choice(states)):
            p = K.Position(bytes(parent.cells))
            got = K.Position(key, p).kingdoms
            assert len(got) == len(want) and set(got) == want


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_listing_is_the_walks(players: int, seed: int) -> None:
    listed = 0
    for st in _states(players, seed):
        if st.pending:
            continue
        _fresh()
        cold = E.legal_actions(st)
        warm = E.legal_actions(st)
        assert cold == warm == E._play_actions_walk(st)
        listed += 1
    assert listed > 50


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_board_questions_are_the_walks(players: int, seed: int) -> None:
    """The kingdoms next to each empty square, each leader's relocations (judged by the
    walk of ``check``'s rule T-LEADER-4/5 on every spot), the treasure kingdoms, the
    leaders of the kingdoms next to a square, a leader's region."""
    for st in _states(players, seed)[::3]:
        cells = st.cells
        pos = K.position(cells)
        assert pos is not None
        spots = pos.leader_spots()
        for s in range(SIZE):
            if cells[s] == EMPTY:
                n = sum(1 for r in _regions_next_to(cells, s) if E.is_kingdom(cells, r))
                assert pos.kingdoms_next_to(s) == n
                walked = sorted(
                    sorted(E.leaders_in(cells, r))
                    for r in _regions_next_to(cells, s)
                    if E.is_kingdom(cells, r)
                )
                assert sorted(sorted(x) for x in E._kingdom_leaders_next_to(cells, s)) == walked
            if cells[s] >= LEADER:
                region = E.region_of(cells, s)
                assert E._region_mask(cells, s) == sum(1 << q for q in region)
                moves = pos.relocations(s)
                spots_to = pos.relocation_spots(s)
                for q in K.squares(spots):
                    legal = E._kingdoms_next_to(cells, q, skip=s) <= 1
                    assert bool(moves >> q & 1) == legal == (q in spots_to)
                    assert E._unites(cells, q, s) == (not legal)
        assert E._treasure_kingdoms(st) == E._treasure_kingdoms_walk(st)


def _regions_next_to(cells: list[int], s: int) -> list[list[int]]:
    out: list[list[int]] = []
    for n in NEIGHBOURS[s]:
        if E.CONNECTS[cells[n]] and not any(n in r for r in out):
            out.append(E.region_of(cells, n))
    return out


def test_leaders_disagreeing_with_the_board_are_listed_by_the_walk() -> None:
    """A hand-made state whose leader list and board disagree: the walk lists it."""
    for st in _states(3, 5)[40:200:10]:
        if st.pending or st.actions_left <= 0:
            continue
        bad = st.clone()
        # a leader on the board that no player has in its list
        for s in range(SIZE):
            if bad.cells[s] >= LEADER:
                v = bad.cells[s] - LEADER
                bad.players[v >> 2].leaders[v & 3] = -1
                break
        else:
            continue
        pos = K.position(bad.cells)
        assert pos is not None and not E._leaders_agree(bad, pos)
        assert E.legal_actions(bad) == E._play_actions_walk(bad)


def test_a_board_the_bitboards_cannot_read_is_walked() -> None:
    st = E.new_game(2, 1)
    assert K.position([*st.cells, 0]) is None  # not the board's size
    odd = list(st.cells)
    odd[0] = 300  # no cell code
    assert K.position(odd) is None


def test_events_made_fast_are_the_dataclass_events() -> None:
    from rules.tigris.events import Event, event

    for args, kw in [
        (("tigris.tile", {"player": "x", "square": "A1"}), {}),
        (("tigris.draw", {"player": "x", "n": 2}), {"reveals": True}),
        (("tigris.draw.private", {"tiles": ["a"]}), {"visible_to": (1,), "reveals": True}),
    ]:
        fast, made = event(*args, **kw), Event(*args, **kw)  # type: ignore[arg-type]
        assert fast == made and repr(fast) == repr(made) and type(fast) is Event
        assert fast.to_dict() == made.to_dict()
