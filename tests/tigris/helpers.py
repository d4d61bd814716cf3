"""Building positions for the Tigris & Euphrates tests (squares by label)."""

from __future__ import annotations

from rules.tigris import Action, TigrisState, apply, new_game
from rules.tigris.data import COLOURS, LEADERS, SQUARE, TILE_COUNTS
from rules.tigris.events import Event
from rules.tigris.state import CATASTROPHE, DOWN, EMPTY, LEADER, UP
from rules.tigris.view import board_tiles

C = {c: i for i, c in enumerate(COLOURS)}
L = {x: i for i, x in enumerate(LEADERS)}


def sq(label: str) -> int:
    return SQUARE[label]


def position(
    dynasties: list[str],
    active: int = 0,
    tiles: dict[str, str] | None = None,
    leaders: dict[str, tuple[int, str]] | None = None,
    hands: dict[int, list[int]] | None = None,
    empty: list[str] | None = None,
    treasures: list[str] | None = None,
    seed: int = 0,
    options: dict[str, object] | None = None,
) -> TigrisState:
    """A game of ``len(dynasties)`` players with extra ``tiles`` (label -> colour, ``"x"`` a
    catastrophe, ``"red-down"`` face down), ``leaders`` (label -> (seat, leader name)),
    ``hands`` (seat -> counts black, red, blue, green); ``empty`` squares cleared. The bag holds
    the rest, so tiles are conserved."""
    s = new_game(
        players=len(dynasties), seed=seed, options={"dynasties": dynasties, **(options or {})}
    )
    s.active = active
    for lab in empty or []:
        s.cells[sq(lab)] = EMPTY
        if sq(lab) in s.treasures:
            s.treasures.remove(sq(lab))
    for lab, col in (tiles or {}).items():
        if col == "x":
            s.cells[sq(lab)] = CATASTROPHE
        elif col.endswith("-down"):
            s.cells[sq(lab)] = DOWN + C[col[:-5]]
        else:
            s.cells[sq(lab)] = UP + C[col]
    for lab, (seat, name) in (leaders or {}).items():
        s.cells[sq(lab)] = LEADER + 4 * seat + L[name]
        s.players[seat].leaders[L[name]] = sq(lab)
    if treasures is not None:
        s.treasures = sorted(sq(t) for t in treasures)
    for seat, hand in (hands or {}).items():
        s.players[seat].hand = list(hand)
        s.players[seat].hand_size = sum(hand)
    on_board = board_tiles(s)
    for c in range(4):
        s.bag[c] = TILE_COUNTS[c] - on_board[c] - sum(p.hand[c] for p in s.players)
        assert s.bag[c] >= 0
    s.bag_size = sum(s.bag)
    return s


def play(s: TigrisState, *actions: Action) -> tuple[TigrisState, list[Event]]:
    events: list[Event] = []
    for a in actions:
        s, ev = apply(s, a)
        events += ev
    return s, events


def keys(events: list[Event]) -> list[str]:
    return [e.key for e in events]


def tile(seat: int, colour: str, label: str) -> Action:
    return Action("tile", seat, C[colour], sq(label))


def leader(seat: int, name: str, label: str) -> Action:
    return Action("leader", seat, L[name], sq(label))


def support(seat: int, n: int) -> Action:
    return Action("support", seat, amount=n)


def cell(s: TigrisState, label: str) -> int:
    return s.cells[sq(label)]


def up(colour: str) -> int:
    return UP + C[colour]


def lead(seat: int, name: str) -> int:
    return LEADER + 4 * seat + L[name]
