"""Actions: small immutable tuples. ``seat`` is the deciding seat.

Kinds and the fields they use:

- ``tile`` (colour, square) — place a tile from the hand (T-TILE)
- ``leader`` (colour, square) — place a leader from the supply, or relocate it (T-LEADER)
- ``withdraw`` (colour) — take a leader back into the supply (T-LEADER-6)
- ``catastrophe`` (square) — T-CATASTROPHE
- ``swap`` (tiles: count per colour) — T-SWAP
- ``pass`` — end the turn (T-TURN-2), or build no monument (T-MONUMENT-2)
- ``support`` (amount) — commit tiles in the current conflict (T-CONFLICT-3)
- ``war_order`` (colour) — the war resolved next (T-WAR-4)
- ``monument`` (monument, square = top-left of the 2 x 2) — T-MONUMENT-2
- ``treasure`` (square) — take that treasure (T-TREASURE-3)
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rules.errors import InvalidAction
from rules.tigris.data import COLOURS, LABELS, MONUMENTS, SQUARE

KINDS = (
    "tile",
    "leader",
    "withdraw",
    "catastrophe",
    "swap",
    "pass",
    "support",
    "war_order",
    "monument",
    "treasure",
)

NO_TILES: tuple[int, int, int, int] = (0, 0, 0, 0)


class Action(NamedTuple):
    kind: str
    seat: int
    colour: int = -1
    square: int = -1
    tiles: tuple[int, int, int, int] = NO_TILES
    amount: int = 0
    monument: int = -1

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, with names (``"red"``, ``"F4"``, ``"red-blue"``)."""
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.colour >= 0:
            d["colour"] = COLOURS[self.colour]
        if self.square >= 0:
            d["square"] = LABELS[self.square]
        if self.tiles != NO_TILES:
            d["tiles"] = {COLOURS[c]: n for c, n in enumerate(self.tiles) if n}
        if self.kind == "support":
            d["amount"] = self.amount
        if self.monument >= 0:
            d["monument"] = MONUMENTS[self.monument]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Action:
        try:
            kind = str(d["kind"])
            if kind not in KINDS:
                raise KeyError(kind)
            tiles = [0, 0, 0, 0]
            for name, n in dict(d.get("tiles") or {}).items():
                tiles[COLOURS.index(name)] = int(n)
            return cls(
                kind,
                int(d["seat"]),
                COLOURS.index(d["colour"]) if "colour" in d else -1,
                SQUARE[d["square"]] if "square" in d else -1,
                (tiles[0], tiles[1], tiles[2], tiles[3]),
                int(d.get("amount", 0)),
                MONUMENTS.index(d["monument"]) if "monument" in d else -1,
            )
        except (KeyError, ValueError, TypeError) as e:
            raise InvalidAction("", f"not an action: {d!r} ({e})") from e
