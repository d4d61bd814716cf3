"""Who stands where and who controls a tile (R-COMBAT-10/11): a tile is controlled by its
owner unless another seat's units stand on it, which then control it. The one rule is
:func:`controller`; the other functions are its views. Pure functions of the state."""

from __future__ import annotations

from rules.brazil.state import GameState, Tile


def controller(tile: Tile, here: int | None) -> int:
    """The seat controlling ``tile`` when ``here`` (or nobody, None) has units on it."""
    return here if here is not None and here != tile.owner else tile.owner


def unit_seats(state: GameState) -> dict[str, int]:
    """Hex -> seat of the units standing there (a hex holds one seat's units at most)."""
    out: dict[str, int] = {}
    for p in state.players:
        out.update(dict.fromkeys(p.units.values(), p.seat))  # (later seats overwrite)
    return out


def occupier_of(state: GameState, hex_: str) -> int | None:
    """The seat whose units stand on someone else's tile, if any."""
    tile = state.tiles.get(hex_)
    if tile is None:
        return None
    for p in state.players:
        if p.seat != tile.owner and hex_ in p.units.values():
            return p.seat
    return None


def controller_of(state: GameState, hex_: str) -> int | None:
    """The seat controlling the tile on ``hex_``; None where there is no tile."""
    tile = state.tiles.get(hex_)
    if tile is None:
        return None
    return controller(tile, occupier_of(state, hex_))


def controls(state: GameState, seat: int, hex_: str) -> bool:
    """Does ``seat`` control the tile on ``hex_`` (R-COMBAT-10/11)?"""
    return controller_of(state, hex_) == seat


def controlled_tiles(
    state: GameState, seat: int, kind: str | None = None, where: dict[str, int] | None = None
) -> list[str]:
    """Hexes of buildings/cities ``seat`` controls (own unoccupied + occupied enemy ones);
    capitals are not counted. ``where``: :func:`unit_seats` of ``state`` if known."""
    if where is None:
        where = unit_seats(state)
    # where.get(hex_, t.owner) is controller(t, where.get(hex_)), without the call a tile
    if kind is None:
        return [
            hex_
            for hex_, t in state.tiles.items()
            if t.kind != "capital" and where.get(hex_, t.owner) == seat
        ]
    if kind == "capital":
        return []
    return [
        hex_
        for hex_, t in state.tiles.items()
        if t.kind == kind and where.get(hex_, t.owner) == seat
    ]
