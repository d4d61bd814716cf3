"""What a seat may see (T-INFO-1, T-INFO-2) and dealing the unseen back for an AI.

``view(state, seat)`` (``None``: a spectator) redacts: every other player's hand (the hand size
stays), the bag's contents (its size stays), the swap discards' colours (their number stays),
the RNG's seed, and — unless the ``open_scoring`` option — every other player's VP and
treasures (until the game is over: then the screens are lifted, T-FINAL-1). Committed
conflict tiles are public (laid face up, T-CONFLICT-3).

``determinize(view_state, seat, rng)`` deals the unseen tiles at random among the other hands,
the discards and the bag, consistent with what the seat sees, and gives the state a fresh
seed from ``rng``: a full state an AI can play on. Hidden points stay 0 (unknown).
"""

from __future__ import annotations

import random

from rules.tigris.data import TILE_COUNTS
from rules.tigris.state import CATASTROPHE, UP, Rng, TigrisState


def view(state: TigrisState, seat: int | None) -> TigrisState:
    v = state.clone()
    v.view_of = seat
    v.rng = Rng(seed=0, counter=state.rng.counter)
    v.bag = [0, 0, 0, 0]
    v.discarded = [0, 0, 0, 0]
    for i, p in enumerate(v.players):
        if i == seat:
            continue
        p.hand = [0, 0, 0, 0]
        p.hidden = True
        if not state.options.open_scoring and state.phase != "over":  # T-FINAL-1: screens lifted
            p.score = [0, 0, 0, 0]
            p.treasures = 0
    return v


def board_tiles(state: TigrisState) -> list[int]:
    """Tiles on the board per colour (face up or down)."""
    out = [0, 0, 0, 0]
    for v in state.cells:
        if UP <= v < CATASTROPHE:
            out[(v - UP) % 4] += 1
    return out


def determinize(view_state: TigrisState, seat: int, rng: random.Random) -> TigrisState:
    """A full state consistent with ``seat``'s view, the unseen tiles dealt at random. Given a
    full state, it deals from that state's view of ``seat`` (nothing hidden from the seat is
    kept); the dealt state's RNG has a fresh seed and the view's counter."""
    s = view(view_state, seat)
    on_board = board_tiles(s)
    own = s.players[seat].hand
    pool: list[int] = []
    for c in range(4):
        n = TILE_COUNTS[c] - on_board[c] - own[c] - s.removed[c]
        pool.extend([c] * n)
    rng.shuffle(pool)
    i = 0
    for k, p in enumerate(s.players):
        if k == seat:
            continue
        p.hand = [0, 0, 0, 0]
        for c in pool[i : i + p.hand_size]:
            p.hand[c] += 1
        i += p.hand_size
        p.hidden = False
    s.discarded = [0, 0, 0, 0]
    for c in pool[i : i + s.discarded_size]:
        s.discarded[c] += 1
    i += s.discarded_size
    s.bag = [0, 0, 0, 0]
    for c in pool[i:]:
        s.bag[c] += 1
    if len(pool) - i != s.bag_size:
        raise ValueError("the view's counts do not add up to the components")
    s.rng = Rng(seed=rng.randrange(2**62), counter=view_state.rng.counter)
    s.view_of = -1
    return s
