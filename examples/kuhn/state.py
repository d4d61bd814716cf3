"""The state of a match of Kuhn poker: pydantic models, JSON and back losslessly.

Cards are integers: ``0`` the Jack, ``1`` the Queen, ``2`` the King (:data:`CARDS`); ``-1``
is no card, or a card this view may not see (K-INFO-1). Each player has a stack of chips and
the card of the hand being played; ``pot`` holds the antes and bets of that hand;
``history`` is the hand's betting so far (``check``, ``bet``, ``call``, ``fold``).

Randomness comes only from :class:`Rng` (seed + counter): each hand's shuffle is one draw. A
state made by ``view`` has ``view_of`` set (a seat, or ``None`` for a spectator) and the
unseen cards and the seed redacted; the full state has ``view_of == -1``.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

CARDS: tuple[str, ...] = ("J", "Q", "K")
"""The deck, weakest first (K-SETUP-1)."""
NO_CARD = -1
PLAYERS = 2
ANTE = 1
BET = 1
DEFAULT_HANDS = 5
DEFAULT_CHIPS = 10


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Rng(_M):
    """A deterministic random source: every draw derives from (seed, counter)."""

    seed: int
    counter: int = 0

    def next(self) -> random.Random:
        r = random.Random(f"kuhn:{self.seed}:{self.counter}")
        self.counter += 1
        return r


class Options(_M):
    """The match's options: ``hands`` played (K-END-1) and each player's starting
    ``chips`` (K-SETUP-2: at least two per hand, so nobody runs out)."""

    hands: int = DEFAULT_HANDS
    chips: int = DEFAULT_CHIPS


class Player(_M):
    chips: int
    card: int = NO_CARD  # secret until a showdown (K-INFO-1)
    hidden: bool = False  # True in a view that redacts this player's card


class Showdown(_M):
    """How the last finished hand ended: its number, who won the pot and how much, and
    the cards shown (``-1``: not shown, the hand ended by a fold, K-FOLD-1)."""

    hand: int
    winner: int
    pot: int
    cards: list[int]
    folded: bool


class KuhnState(_M):
    game: Literal["kuhn"] = "kuhn"
    options: Options
    rng: Rng
    players: list[Player]
    phase: Literal["play", "over"] = "play"
    hand: int = 1  # the hand being played, from 1
    first: int = 0  # the seat that acts first in this hand (K-TURN-1)
    to_act: int = 0
    pot: int = 0
    history: list[str] = Field(default_factory=list)
    last: Showdown | None = None
    view_of: int | None = -1

    def clone(self) -> KuhnState:
        return self.model_copy(deep=True)
