"""What a seat may see (K-INFO-1) and dealing the unseen back for an AI.

``view(state, seat)`` (``None``: a spectator) hides the other player's card (a card is shown
only at a showdown, and then it is in ``state.last``), and the RNG's seed (the next shuffles).
The card set aside is never in the state at all (K-DEAL-2).

``determinize(view_state, seat, rng)`` deals the other player a card at random among the two
the seat does not hold, and gives the state a fresh seed from ``rng``: a full state an AI can
play on.
"""

from __future__ import annotations

import random

from examples.kuhn.state import CARDS, NO_CARD, KuhnState, Rng


def view(state: KuhnState, seat: int | None) -> KuhnState:
    v = state.clone()
    v.view_of = seat
    v.rng = Rng(seed=0, counter=state.rng.counter)
    for i, p in enumerate(v.players):
        if i != seat:
            p.card = NO_CARD
            p.hidden = True
    return v


def determinize(view_state: KuhnState, seat: int, rng: random.Random) -> KuhnState:
    """A full state consistent with ``seat``'s view, the other card dealt at random."""
    s = view_state.clone()
    own = s.players[seat].card
    unseen = [c for c in range(len(CARDS)) if c != own]
    for i, p in enumerate(s.players):
        if i == seat:
            continue
        p.hidden = False
        if s.phase == "play":
            p.card = unseen.pop(rng.randrange(len(unseen)))
    s.rng = Rng(seed=rng.randrange(2**62), counter=view_state.rng.counter)  # the seed is unseen
    s.view_of = -1
    return s
