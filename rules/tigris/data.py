"""The game's data, read from ``rules/data/tigris/*.toml`` (the board and the components).

Squares are numbered ``y * columns + x`` (``A1`` = 0, ``P1`` = 15, ``A2`` = 16 on the standard
board); :data:`LABELS` names them (``"F4"``). Colours are numbered in the data's order: 0 black,
1 red, 2 blue, 3 green. Everything here is immutable and built once at import.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "tigris"


def _load(name: str) -> dict[str, Any]:
    with (DATA_DIR / name).open("rb") as fh:
        return tomllib.load(fh)


def label_of(x: int, y: int) -> str:
    return f"{chr(ord('A') + x)}{y + 1}"


@dataclass(frozen=True)
class Board:
    id: str
    columns: int
    rows: int
    river: frozenset[int]
    temples: tuple[int, ...]  # starting temples with a treasure
    corners: frozenset[int]  # corner treasures
    labels: tuple[str, ...]
    index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return self.columns * self.rows


def _board(rec: dict[str, Any]) -> Board:
    cols, rows = int(rec["columns"]), int(rec["rows"])
    labels = tuple(label_of(i % cols, i // cols) for i in range(cols * rows))
    index = {lab: i for i, lab in enumerate(labels)}

    def sq(lab: str) -> int:
        if lab not in index:
            raise ValueError(f"board {rec['id']}: unknown square {lab!r}")
        return index[lab]

    nbs: list[tuple[int, ...]] = []
    for i in range(cols * rows):
        x, y = i % cols, i // cols
        n = []
        if y > 0:
            n.append(i - cols)
        if x > 0:
            n.append(i - 1)
        if x < cols - 1:
            n.append(i + 1)
        if y < rows - 1:
            n.append(i + cols)
        nbs.append(tuple(n))
    river = frozenset(sq(s) for s in rec["river"])
    temples = tuple(sq(s) for s in rec["temples_with_treasure"])
    corners = frozenset(sq(s) for s in rec["corner_treasures"])
    if river & set(temples) or not corners <= set(temples):
        raise ValueError(f"board {rec['id']}: temples on rivers or corners without temples")
    return Board(rec["id"], cols, rows, river, temples, corners, labels, index, tuple(nbs))


_BOARD_DATA = _load("board.toml")
_COMP = _load("components.toml")

BOARDS: dict[str, Board] = {b["id"]: _board(b) for b in _BOARD_DATA["boards"]}
BOARD: Board = BOARDS["standard"]
LABELS = BOARD.labels
SQUARE = BOARD.index
NEIGHBOURS = BOARD.neighbours
SIZE = BOARD.size

COLOURS: tuple[str, ...] = tuple(c["id"] for c in _COMP["colours"])
TILE_NAMES: tuple[str, ...] = tuple(c["tile"] for c in _COMP["colours"])
LEADERS: tuple[str, ...] = tuple(c["leader"] for c in _COMP["colours"])
TILE_COUNTS: tuple[int, ...] = tuple(int(c["tiles"]) for c in _COMP["colours"])
BLACK, RED, BLUE, GREEN = (COLOURS.index(c) for c in ("black", "red", "blue", "green"))

_GAME = _COMP["game"]
DYNASTIES: tuple[str, ...] = tuple(_GAME["dynasties"])
CATASTROPHES: int = int(_GAME["catastrophes_per_player"])
HAND_SIZE: int = int(_GAME["hand_size"])
ACTIONS_PER_TURN: int = int(_GAME["actions_per_turn"])
TREASURES_END: int = int(_GAME["treasures_end"])
MIN_PLAYERS: int = int(_GAME["min_players"])
MAX_PLAYERS: int = int(_GAME["max_players"])

MONUMENTS: tuple[str, ...] = tuple(m["id"] for m in _COMP["monuments"])
MONUMENT_COLOURS: tuple[tuple[int, int], ...] = tuple(
    (COLOURS.index(m.split("-")[0]), COLOURS.index(m.split("-")[1])) for m in MONUMENTS
)
