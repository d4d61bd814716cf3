"""The kingdoms of a board position, as bitboards, computed once per position and cached by
its content (issue 33: the listing and ``apply`` read them instead of walking the board).

A :class:`Position` is a pure function of the ``cells`` of a state (the board: tiles, leaders,
catastrophes; ``rules.tigris.state``): the squares that are empty, that join regions
(T-VOC-5), the temples, the leaders, and the kingdoms (regions holding a leader, T-VOC-6),
each a bitboard (an ``int``, bit ``s`` for square ``s``). What the listing needs beyond that
(which squares kingdoms touch, the leader spots, a leader's relocations) is computed on first
use and kept in the position. Positions are cached by the cells' bytes (:func:`position`), so
two states with the same board (the state before an action and the listing after it, the many
listings of a search) share the work; a state changed in place simply has another key.

Nothing here reads anything but the cells (and, for catastrophes, the treasures given), so a
cached answer is the answer for any state with that board.
"""

from __future__ import annotations

from itertools import compress

from rules.tigris.data import BOARD, MAX_PLAYERS, NEIGHBOURS, RED, SIZE
from rules.tigris.state import CATASTROPHE, DOWN, EMPTY, LEADER, UP

TEMPLE = UP + RED
CODES = LEADER + 4 * MAX_PLAYERS  # cell codes are 0 .. CODES - 1
COLUMNS = BOARD.columns

FULL = (1 << SIZE) - 1
# squares that have a neighbour on their left (x > 0), on their right (x < columns - 1)
NOT_FIRST = sum(1 << s for s in range(SIZE) if s % COLUMNS != 0)
NOT_LAST = sum(1 << s for s in range(SIZE) if s % COLUMNS != COLUMNS - 1)
RIVER_MASK = sum(1 << s for s in BOARD.river)
LAND_MASK = FULL & ~RIVER_MASK
BIT = tuple(1 << s for s in range(SIZE))
SQUARES = tuple(range(SIZE))
# the neighbours of each square, as a bitboard
NEIGHBOUR_MASK = tuple(sum(1 << n for n in NEIGHBOURS[s]) for s in range(SIZE))


def dilate(r: int) -> int:
    """``r`` and every square next to one of it (T-VOC-4: sides, not corners)."""
    return (
        r | ((r << 1) & NOT_FIRST) | ((r >> 1) & NOT_LAST) | (r << COLUMNS) | (r >> COLUMNS)
    ) & FULL


def flood(seed: int, within: int) -> int:
    """The squares of ``within`` connected to ``seed`` (a subset of ``within``)."""
    r = seed
    while True:
        n = (
            r | ((r << 1) & NOT_FIRST) | ((r >> 1) & NOT_LAST) | (r << COLUMNS) | (r >> COLUMNS)
        ) & within
        if n == r:
            return r
        r = n


def squares(m: int) -> list[int]:
    """The squares of a bitboard, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


_BITS = f"0{SIZE}b"
_ONE_ZERO = bytes.maketrans(b"01", b"\x00\x01")


def selector(m: int) -> bytes:
    """One byte per square, 1 where ``m`` has the square: for ``itertools.compress`` over a
    row of per-square values (the squares' order kept)."""
    return format(m, _BITS)[::-1].encode().translate(_ONE_ZERO)


def _table(pred: object) -> bytes:
    assert callable(pred)
    return bytes(ord("1") if c < CODES and pred(c) else ord("0") for c in range(256))


_IS_EMPTY = _table(lambda c: c == EMPTY)
_CONNECTS = _table(lambda c: (UP <= c < CATASTROPHE) or c >= LEADER)  # T-VOC-5
_IS_LEADER = _table(lambda c: c >= LEADER)
_IS_TEMPLE = _table(lambda c: c == TEMPLE)
# T-CATASTROPHE-2, a selector: 1 for the cell codes a catastrophe may cover
_CATASTROPHE_OK = bytes(c < CODES and (c == EMPTY or UP <= c < DOWN) for c in range(256))
_CODES = bytes(range(CODES))


class Position:
    """The kingdoms of one board (see the module's docstring). Read-only once made."""

    __slots__ = (
        "_borders",
        "_catastrophes",
        "_relocations",
        "_rich",
        "_spots",
        "_supply",
        "_supply_mask",
        "_tiles",
        "_touch",
        "connects",
        "empty",
        "key",
        "kingdoms",
        "leaders",
        "temples",
    )

    def __init__(self, key: bytes, parent: Position | None = None) -> None:
        """The position of the board ``key`` (the cells' bytes); ``parent``, any other
        position (typically the board before the action), spares the flooding of the kingdoms
        no change reaches."""
        self.key = key
        rev = key[::-1]  # square 0 last: the lowest bit
        self.empty = int(rev.translate(_IS_EMPTY), 2)
        self.connects = conn = int(rev.translate(_CONNECTS), 2)
        self.leaders = leaders = int(rev.translate(_IS_LEADER), 2)
        self.temples = int(rev.translate(_IS_TEMPLE), 2)
        # the kingdoms, in no particular order
        kingdoms: list[int] = []
        todo = leaders
        if parent is not None:
            # kingdoms are the regions of ``conn`` holding a bit of ``leaders``: a kingdom of
            # the parent no changed square lies in or next to is one here too; one with no
            # changed square in it is still connected, and its region here holds it
            delta = (conn ^ parent.connects) | (leaders ^ parent.leaders)
            near = dilate(delta)
            for k in parent.kingdoms:
                if not k & near:
                    kingdoms.append(k)
                    todo &= ~k
            for k in parent.kingdoms:
                if k & near and not k & delta and k & todo:
                    k = flood(k, conn)
                    kingdoms.append(k)
                    todo &= ~k
        while todo:
            k = flood(todo & -todo, conn)
            kingdoms.append(k)
            todo &= ~k
        self.kingdoms: list[int] = kingdoms
        self._spots = -1
        self._touch: tuple[int, int, int] | None = None
        self._borders: list[int] | None = None
        self._tiles: tuple[bytes, bytes] | None = None
        self._catastrophes: tuple[bytes, bytes] | None = None
        self._rich: tuple[bytes, int] | None = None
        self._relocations: dict[int, list[int]] = {}
        self._supply: list[int] | None = None
        self._supply_mask = 0

    def kingdom_of(self, s: int) -> int:
        """The kingdom holding square ``s`` (0: none)."""
        b = BIT[s]
        for k in self.kingdoms:
            if k & b:
                return k
        return 0

    def kingdoms_next_to(self, s: int) -> int:
        """How many kingdoms touch square ``s``."""
        nb = NEIGHBOUR_MASK[s]
        return sum(1 for k in self.kingdoms if k & nb)

    def touch(self) -> tuple[int, int, int]:
        """The empty squares touched by at least one, two, three kingdoms."""
        t = self._touch
        if t is None:
            one = two = three = 0
            for d in self.borders():
                three |= two & d
                two |= one & d
                one |= d
            t = self._touch = (one, two, three)
        return t

    def borders(self) -> list[int]:
        """The empty squares next to each kingdom (in the order of :attr:`kingdoms`)."""
        b = self._borders
        if b is None:
            empty = self.empty
            b = self._borders = [dilate(k) & empty for k in self.kingdoms]
        return b

    def selectors(self) -> tuple[bytes, bytes]:
        """Selectors of the squares a tile may go to, river and land: empty, touched by at
        most two kingdoms (T-TILE-2, -4)."""
        t = self._tiles
        if t is None:
            ok = self.empty & ~self.touch()[2]
            t = self._tiles = (selector(ok & RIVER_MASK), selector(ok & LAND_MASK))
        return t

    def supply_spots(self) -> list[int]:
        """The spots a leader from the supply may go to, ascending: touched by at most one
        kingdom (T-LEADER-4)."""
        got = self._supply
        if got is None:
            m = self._supply_mask = self.leader_spots() & ~self.touch()[1]
            got = self._supply = list(compress(SQUARES, selector(m)))
        return got

    def leader_spots(self) -> int:
        """The empty land squares next to a temple (T-LEADER-2, -3)."""
        s = self._spots
        if s < 0:
            s = self._spots = dilate(self.temples) & self.empty & LAND_MASK
        return s

    def relocations(self, origin: int) -> int:
        """The leader spots a leader on ``origin`` may move to: touched by at most one kingdom
        once it is lifted (T-LEADER-4, -5). ``origin`` must hold a leader."""
        b = BIT[origin]
        borders = self.borders()
        one = two = 0
        home = 0
        for k, d in zip(self.kingdoms, borders, strict=True):
            if k & b:
                home = k
            else:
                two |= one & d
                one |= d
        mine = home & self.leaders
        if mine != b:  # other leaders stay: the parts of the kingdom holding one
            empty = self.empty
            for part in _leader_parts(home, mine, origin):
                d = dilate(part) & empty
                two |= one & d
                one |= d
        return self.leader_spots() & ~two

    def relocation_spots(self, origin: int) -> list[int]:
        """The squares of :meth:`relocations`, ascending (cached). A leader alone in its
        kingdom leaves no kingdom behind when lifted: how many kingdoms touch a square only
        drops, and only next to its kingdom; so every spot the supply's leaders may take stays
        open, and one opens only if its kingdom and another touch it. None such: the supply's
        spots; likewise when its kingdom touches no spot. (A leader with others may split its
        kingdom in two: computed.)"""
        got = self._relocations.get(origin)
        if got is None:
            b = BIT[origin]
            spots = self.leader_spots()
            reopen = -1
            for k, d in zip(self.kingdoms, self.borders(), strict=True):
                if k & b:
                    if not d & spots:  # nothing changes on a spot
                        reopen = 0
                    elif k & self.leaders == b:
                        reopen = spots & self.touch()[1] & d
                    break
            got = self.supply_spots()
            if reopen:
                m = self.relocations(origin)
                if m != self._supply_mask:
                    got = list(compress(SQUARES, selector(m)))
            self._relocations[origin] = got
        return got

    def rich(self, treasures: bytes) -> int:
        """The squares of the kingdoms holding two treasures or more (T-TREASURE-2;
        ``treasures``: their squares as bytes), cached for the last treasures asked."""
        r = self._rich
        if r is not None and r[0] == treasures:
            return r[1]
        held = 0
        for t in treasures:
            if t < SIZE:
                held |= BIT[t]
        m = 0
        if held & (held - 1):  # two treasures at least on the board
            for k in self.kingdoms:
                if (k & held).bit_count() >= 2:
                    m |= k
        self._rich = (treasures, m)
        return m

    def catastrophe_squares(self, treasures: bytes) -> bytes:
        """The selector of the squares a catastrophe may cover (T-CATASTROPHE-2): empty or a
        face-up tile, no treasure (``treasures``: their squares as bytes)."""
        c = self._catastrophes
        if c is not None and c[0] == treasures:
            return c[1]
        sel = self.key.translate(_CATASTROPHE_OK)
        if treasures:
            without = bytearray(sel)
            for t in treasures:
                if t < SIZE:
                    without[t] = 0
            sel = bytes(without)
        self._catastrophes = (treasures, sel)
        return sel


_CACHE: dict[bytes, Position] = {}
_CACHE_SIZE = 256
# the position last asked for: the parent of the next new one (the board before the action)
_LAST: list[Position | None] = [None]
_PARTS: dict[tuple[int, int, int], list[int]] = {}


def _leader_parts(kingdom: int, leaders: int, origin: int) -> list[int]:
    """The parts of ``kingdom`` without the square ``origin`` that hold one of ``leaders``
    (cached: a kingdom often stays as it is from one action to the next)."""
    key = (kingdom, leaders, origin)
    got = _PARTS.get(key)
    if got is None:
        lifted = kingdom & ~BIT[origin]
        got = []
        seen = 0
        for n in NEIGHBOURS[origin]:
            b = BIT[n]
            if lifted & b and not seen & b:
                part = flood(b, lifted)
                seen |= part
                if part & leaders:
                    got.append(part)
        if len(_PARTS) >= _CACHE_SIZE:
            _PARTS.clear()
        _PARTS[key] = got
    return got


def position(cells: list[int]) -> Position | None:
    """The position of ``cells`` (cached), or None for a board this module cannot read (not
    the standard board's size, or a cell code out of range): the caller then walks the
    board square by square."""
    try:
        key = bytes(cells)
    except (ValueError, TypeError):
        return None
    p = _CACHE.get(key)
    if p is None:
        if len(key) != SIZE or key.translate(None, _CODES):  # a code out of range
            return None
        p = Position(key, _LAST[0])
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = p
    _LAST[0] = p
    return p
