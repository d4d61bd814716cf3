"""The game state of Tigris & Euphrates: pydantic models, JSON and back losslessly.

The board is ``cells``: one integer per square (``rules.tigris.data``: square ``y * 16 + x``):

- ``0`` empty; ``1..4`` a face-up tile of colour ``code - 1`` (0 black, 1 red, 2 blue,
  3 green); ``5..8`` a face-down tile (under a monument) of colour ``code - 5``;
  ``9`` a catastrophe; ``16 + 4 * seat + colour`` the leader of that colour of that seat.

Treasures lie on the squares of ``treasures``; built monuments are ``monuments``
(monument id -> top-left square of its 2 x 2); the unification tile lies on ``unification``
(-1: beside the board). Tiles are counted per colour (``[black, red, blue, green]``) in hands,
the bag, ``removed`` (out of the game in public: committed, removed by a war, covered by a
catastrophe) and ``discarded`` (out of the game face down by a swap: secret, T-INFO-2).

Randomness comes only from :class:`Rng` (seed + counter). A state made by ``view`` has
``view_of`` set (a seat, or ``None`` for a spectator) and redacted fields; the full state has
``view_of == -1``.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.fastcopy import model_copier

EMPTY = 0
UP = 1  # + colour
DOWN = 5  # + colour
CATASTROPHE = 9
LEADER = 16  # + 4 * seat + colour


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Rng(_M):
    """A deterministic random source: every draw derives from (seed, counter)."""

    seed: int
    counter: int = 0

    def next(self) -> random.Random:
        r = random.Random(f"tigris:{self.seed}:{self.counter}")
        self.counter += 1
        return r


class Options(_M):
    """Game options. ``open_scoring``: every view shows every player's points (T-INFO-2).
    ``start``: the start player's seat (T-SETUP-5). ``dynasties``: each seat's dynasty
    (default bow, bull, pot, lion in seat order; T-SETUP-3). Variants (T-VAR-1) are not
    implemented; ``board`` names the board record (only ``standard``)."""

    open_scoring: bool = False
    start: int = 0
    dynasties: list[str] = Field(default_factory=list)
    board: str = "standard"


class Player(_M):
    dynasty: str
    hand: list[int]  # tiles per colour (secret)
    hand_size: int  # public
    leaders: list[int]  # square per colour; -1 in the supply
    catastrophes: int
    score: list[int]  # VP per colour (secret unless open_scoring)
    treasures: int = 0  # (secret unless open_scoring)
    hidden: bool = False  # True in a view that redacts this player's hand and points


class Conflict(_M):
    """A revolt or a war being resolved. Commitments: -1 until made (made ones are public,
    laid face up beside the board, T-CONFLICT-3)."""

    kind: Literal["revolt", "war"]
    colour: int
    attacker: int
    defender: int
    attacker_square: int
    defender_square: int
    attacker_base: int
    defender_base: int
    attacker_commit: int = -1
    defender_commit: int = -1


PendingKind = Literal["support", "war_order", "monument", "treasure"]


class Pending(_M):
    """A decision the state waits for: ``seat`` must decide ``kind``. ``support``: commit
    tiles in the current conflict; ``war_order``: the active player picks the next war;
    ``monument``: the active player builds one (or passes); ``treasure``: a trader's owner
    takes a treasure of ``kingdom`` (a square of that kingdom)."""

    kind: PendingKind
    seat: int
    square: int = -1


Stage = Literal["", "revolt", "war", "monument", "treasure"]


class TigrisState(_M):
    game: Literal["tigris"] = "tigris"
    options: Options
    rng: Rng
    players: list[Player]
    cells: list[int]
    treasures: list[int]  # squares with a treasure on them, ascending
    monuments: dict[str, int] = Field(default_factory=dict)  # built: id -> top-left square
    unification: int = -1
    bag: list[int]  # per colour (secret)
    bag_size: int
    removed: list[int]  # per colour, out of the game in public
    discarded: list[int]  # per colour, discarded by swaps (secret)
    discarded_size: int = 0
    phase: Literal["play", "over"] = "play"
    end_reason: str = ""  # "treasures" | "bag"
    active: int = 0
    actions_left: int = 2
    turn: int = 1
    # the last turn in which a tile was drawn from the bag or a treasure taken: what moves the
    # game towards its end (T-END); the turns since, ``rules.tigris.engine.idle_turns``
    last_progress: int = 0
    # the action being resolved
    stage: Stage = ""
    placed: int = -1  # the square of the tile placed in this action (monument option)
    wars: list[int] = Field(default_factory=list)  # colours of the wars still to resolve
    conflict: Conflict | None = None
    pending: list[Pending] = Field(default_factory=list)
    committed: list[int] = Field(default_factory=list)  # seats that committed this turn
    view_of: int | None = -1

    def clone(self) -> TigrisState:
        return _copy(self)


_copy = model_copier(TigrisState)
