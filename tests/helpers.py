"""Helpers for rules tests: a fixed 2-player position on the test map, and short-hands.

The test data pack (tests/data/pack) adds small maps with stable hex labels: on
``test-duel`` seat 0 has its capital at C3 and seat 1 at H6; fog hexes are F3, E5, C7.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.brazil import actions as A
from rules.brazil.actions import parse_action
from rules.brazil.engine import apply, legal_actions, pending_for
from rules.brazil.events import Event
from rules.brazil.setup import new_game
from rules.brazil.state import Exploration, GameState, Tile
from rules.errors import RulesError

PACK = "pack"  # tests/data/pack, registered as a pack by tests/conftest.py


def start(
    players: int = 2,
    *,
    colours: tuple[str, ...] = ("green", "blue"),
    monarchs: tuple[str, ...] = ("pedro_ii", "queen_victoria"),
    capitals: tuple[str, ...] = ("C3", "H6"),
    seed: int = 1,
    map_id: str = "test-duel",
    clear: bool = True,
) -> GameState:
    """A game on the test map, setup done, seat 0 to play its first action.

    With ``clear`` the capitals' starting resources are removed and the fog tiles taken off,
    so a test starts from an empty, known position.
    """
    st = new_game(players, seed, map_id, data_pack=PACK, colours=list(colours[:players]))
    while st.pending:
        d = st.pending[0]
        if d.kind == "keep_missions":
            a: Any = legal_actions(st, d.seat)[0]
        elif d.kind == "choose_monarch":
            a = A.ChooseMonarch(seat=d.seat, monarch=monarchs[d.seat])
        elif d.kind == "choose_capital":
            a = A.ChooseCapital(seat=d.seat, at=capitals[d.seat])
        else:
            a = legal_actions(st, d.seat)[0]
        st, _ = apply(st, a)
    st.first_player = 0
    st.current = 0
    if clear:
        for p in st.players:
            p.reserve = {}
        st.exploration = {}
    return st


def act(st: GameState, action_type: str, seat: int | None = None, /, **fields: Any) -> GameState:
    """Apply one action given by its type and fields; returns the new state.

    ``seat`` (positional or ``seat=``) defaults to the player whose turn it is. The action
    type is positional-only so that an action's own ``kind`` field can be passed.
    """
    return act_ev(st, action_type, seat, **fields)[0]


def act_ev(
    st: GameState, action_type: str, seat: int | None = None, /, **fields: Any
) -> tuple[GameState, list[Event]]:
    """Like :func:`act`, also returning the events."""
    if "seat" in fields:
        seat = fields.pop("seat")
    if seat is None:
        seat = st.current
    return apply(st, {"type": action_type, "seat": seat, **fields})


def _unpaid(a: Any) -> Any:
    return a.replace(payment=None) if getattr(a, "payment", None) is not None else a


def is_legal(st: GameState, action_type: str, seat: int | None = None, /, **fields: Any) -> bool:
    """Is this action (without payment) in ``legal_actions`` for that seat? An action whose
    cost has no safe default is listed carrying an explicit payment: it counts too."""
    seat = st.current if seat is None else seat
    wanted = parse_action({"type": action_type, "seat": seat, **fields})
    return wanted in [_unpaid(a) for a in legal_actions(st, seat)]


def listed(st: GameState, action_type: str, seat: int | None = None, /, **fields: Any) -> Any:
    """The listed action (with the payment it is listed with, if any) matching the fields."""
    seat = st.current if seat is None else seat
    wanted = parse_action({"type": action_type, "seat": seat, **fields})
    found = [a for a in legal_actions(st, seat) if _unpaid(a) == wanted]
    assert found, f"{wanted!r} is not listed"
    return found[0]


def act_listed(
    st: GameState, action_type: str, seat: int | None = None, /, **fields: Any
) -> tuple[GameState, list[Event]]:
    """Apply the action as ``legal_actions`` lists it (with its explicit payment when the
    cost has no safe default, R-VOC-2)."""
    return apply(st, listed(st, action_type, seat, **fields))


def assert_illegal(
    st: GameState,
    action_type: str,
    rule: str | tuple[str, ...],
    seat: int | None = None,
    /,
    *,
    listed: bool = False,
    **fields: Any,
) -> RulesError:
    """The action raises a RulesError naming ``rule`` (or one of several), leaves ``st``
    unchanged, and — unless ``listed`` (e.g. only its explicit payment is wrong) —
    ``legal_actions`` does not list it."""
    before = st.model_dump()
    if not listed:
        assert not is_legal(st, action_type, seat, **fields)
    with pytest.raises(RulesError) as exc:
        act(st, action_type, seat, **fields)
    allowed = (rule,) if isinstance(rule, str) else rule
    assert exc.value.rule in allowed, exc.value
    assert st.model_dump() == before
    return exc.value


def give(st: GameState, seat: int, **goods: int) -> None:
    res = st.players[seat].reserve
    for g, n in goods.items():
        res[g] = res.get(g, 0) + n


def put(st: GameState, seat: int, side: str, at: str, **goods: int) -> None:
    """Place a building of ``seat`` directly (scenario setup)."""
    from rules.brazil.catalog import get_catalog

    cat = get_catalog(st.data_pack)
    st.tiles[at] = Tile(
        kind="building" if side in cat.sides else "city", id=side, owner=seat, goods=dict(goods)
    )
    if side in cat.sides:
        st.supply[cat.side_tile[side]] -= 1
    else:
        for pile in st.city_piles:
            if side in pile:
                pile.remove(side)


def place_unit(st: GameState, seat: int, unit: str, at: str) -> None:
    st.players[seat].units[unit] = at


def explore(st: GameState, at: str, tile: str, face_up: bool = False) -> None:
    st.exploration[at] = Exploration(tile=tile, face_up=face_up)


def to_movement(st: GameState, arch: str | None = None) -> GameState:
    """Skip to the movement phase of the current turn (the action taken was ``arch``)."""
    st.turn.step = "movement"
    st.turn.arch = arch
    st.turn.action_done = True
    if arch:
        st.players[st.current].token_arch = arch
    return st


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def pending_kind(st: GameState, seat: int) -> str | None:
    d = pending_for(st, seat)
    return d.kind if d else None
