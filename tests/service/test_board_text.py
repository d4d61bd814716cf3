"""The board in words (issue #29, accessibility): every game's text board — what a screen
reader reads instead of the map, on ``/board text:`` and the terminal's ``board`` — names the
public things on the board, in the reader's language, and nothing hidden."""

from __future__ import annotations

import random

import pytest

from rules.games import names
from service.games import adapter
from service.results import SeatSpec


def _mid_game(game: str, seed: int, steps: int = 150) -> object:
    A = adapter(game)
    lo, _ = A.face.min_players, A.face.max_players
    st = A.build(max(2, lo), None, seed, None)
    rng = random.Random(seed)
    for _ in range(steps):
        if A.over(st):
            break
        seat = A.face.deciders(st)[0]
        st, _ = A.apply(st, rng.choice(A.face.legal_actions(st, seat)))
    return st


@pytest.mark.parametrize("game", names())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_text_board_is_public_and_in_the_readers_language(game: str, seed: int) -> None:
    A = adapter(game)
    st = _mid_game(game, seed)
    seats = [SeatSpec(f"P{i + 1}") for i in range(len(st.players))]  # type: ignore[attr-defined]
    en = A.board_text(st, seats, "en")
    assert en == A.board_text(A.face.view(st, None), seats, "en")  # what a spectator sees
    hu = A.board_text(st, seats, "hu")
    assert len(hu) == len(en) and all(line.strip() for line in en + hu)
    if en:
        assert hu != en  # written in the reader's language


def test_brazil_s_text_board_names_each_hex_and_its_owner() -> None:
    A = adapter("brazil")
    st = _mid_game("brazil", 4, 200)
    seats = [SeatSpec("Ana"), SeatSpec("Bo")]
    lines = A.board_text(st, seats, "en")
    assert lines and all(line[:1].isalpha() and ": " in line for line in lines)
    capital = st.players[0].capital  # type: ignore[attr-defined]
    assert any(line.startswith(f"{capital}: ") and "Ana" in line for line in lines)
    # a face-down exploration tile is never named (the names of those lying face down)
    from rules.brazil.catalog import get_catalog

    cat = get_catalog(None)
    down = {e.tile for e in st.exploration.values() if not e.face_up}  # type: ignore[attr-defined]
    up = {e.tile for e in st.exploration.values() if e.face_up}  # type: ignore[attr-defined]
    secret = {cat.exploration[t].name for t in down - up if t in cat.exploration}
    text = "\n".join(lines)
    assert secret and not any(name in text for name in secret), secret


def test_tigris_s_text_board_names_leaders_and_tiles() -> None:
    A = adapter("tigris")
    st = _mid_game("tigris", 5, 60)
    seats = [SeatSpec("Ana"), SeatSpec("Bo")]
    lines = A.board_text(st, seats, "en")
    assert lines[0].startswith("Tiles on the board: ")
    assert any(line.startswith("Ana") for line in lines) and any(
        line.startswith("Bo") for line in lines
    )
    assert any(line.startswith("Treasures on the board: ") for line in lines)
