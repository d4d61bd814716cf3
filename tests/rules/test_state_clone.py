"""GameState.clone: an exact, independent copy (rules.fastcopy), over self-play states."""

from __future__ import annotations

import random

import pytest

from rules.brazil import apply, legal_actions, new_game
from rules.brazil.state import Battle, GameState, Pending, Side


def _states(players: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    st = new_game(players, seed)
    out = [st]
    while st.phase != "ended" and st.round <= 30:
        st, _ = apply(st, rng.choice(legal_actions(st)))
        out.append(st)
    return out


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_clone_is_exact_over_selfplay_states(players: int):
    for st in _states(players, 40 + players):
        c = st.clone()
        assert c == st
        assert c.model_dump_json() == st.model_dump_json()
        assert c.model_fields_set == st.model_fields_set
        assert GameState.model_validate_json(c.model_dump_json()) == st


def _containers(obj: object, path: str = "s") -> list[tuple[str, object]]:
    """Every mutable object inside a model, with its path."""
    from pydantic import BaseModel

    out: list[tuple[str, object]] = []
    if isinstance(obj, BaseModel) and obj.model_config.get("frozen"):
        return out  # an immutable value (Tile, Exploration): shared by design
    if isinstance(obj, BaseModel):
        out.append((path, obj))
        for k, v in obj.__dict__.items():
            out += _containers(v, f"{path}.{k}")
    elif isinstance(obj, dict):
        out.append((path, obj))
        for k, v in obj.items():
            out += _containers(v, f"{path}[{k!r}]")
    elif isinstance(obj, list):
        out.append((path, obj))
        for i, v in enumerate(obj):
            out += _containers(v, f"{path}[{i}]")
    return out


def test_clone_shares_no_mutable_object():
    st = _states(4, 7)[60]
    st.pending.append(Pending(seat=1, kind="choose_good", data={"choices": ["coffee"], "x": {}}))
    st.combat = Battle(kind="move", hex="D4", src="D3", attacker=Side(seat=0, cards=["militia"]))
    st.result = {"scores": [1, 2], "detail": {"a": [1]}}
    c = st.clone()
    mine = {id(o): p for p, o in _containers(st)}
    shared = [p for p, o in _containers(c) if id(o) in mine]
    assert shared == []


def test_mutating_the_clone_never_touches_the_original():
    st = _states(3, 9)[80]
    before = st.model_dump_json()
    c = st.clone()
    c.players[0].reserve["gold"] = 9
    c.players[1].combat_cards.append("militia")
    h, t = next(iter(c.tiles.items()))
    c.tiles[h] = t.model_copy(update={"goods": {**t.goods, "coffee": 4}})
    for h, e in c.exploration.items():
        c.exploration[h] = e.model_copy(update={"face_up": True})
    c.city_piles[0].append("x")
    c.turn.builds = 7
    c.rng.counter += 5
    c.players[2].seen["0"] = ["x"]
    assert st.model_dump_json() == before


def test_tiles_and_explorations_are_immutable_values():
    """Clones share Tile and Exploration objects, so they refuse changes in place."""
    import pydantic

    st = _states(2, 5)[40]
    t = next(iter(st.tiles.values()))
    with pytest.raises(pydantic.ValidationError):
        t.palace = 3
    e = next(iter(st.exploration.values()))
    with pytest.raises(pydantic.ValidationError):
        e.face_up = True


def test_apply_never_changes_its_input_state():
    """apply replaces shared tiles instead of changing them: the given state stays as it was
    (JSON byte-identical) over whole self-play games, 1 to 4 players."""
    for players in (1, 2, 3, 4):
        rng = random.Random(players)
        st = new_game(players, 60 + players)
        while st.phase != "ended" and st.round <= 40:
            before = st.model_dump_json()
            nxt, _ = apply(st, rng.choice(legal_actions(st)))
            assert st.model_dump_json() == before
            st = nxt


def test_replaced_matches_model_copy():
    """rules.fastcopy.replaced is model_copy(update=...) without the deep-copy machinery."""
    from rules.fastcopy import replaced

    st = _states(3, 11)[50]
    for t in st.tiles.values():
        before = t.model_dump_json()
        a = replaced(t, goods={"coffee": 2}, palace=4)
        b = t.model_copy(update={"goods": {"coffee": 2}, "palace": 4})
        assert a == b and a.model_dump_json() == b.model_dump_json()
        assert a.model_fields_set == b.model_fields_set
        assert t.model_dump_json() == before  # the original is unchanged
