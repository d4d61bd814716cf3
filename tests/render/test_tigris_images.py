"""Tigris & Euphrates images (issue 18): pixel checks on the board (tile colours, river,
highlight, leaders), hidden information kept out of the public images, private panels per
seat, every image in every language and the pseudo-language with no text out of its box."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

import i18n
from render.theme import HIGHLIGHT, RenderOptions
from render.tigris import board as B
from render.tigris import (
    changed_squares,
    render_board,
    render_conflict,
    render_hand,
    render_players,
    render_scores,
)
from render.tigris.bench import Snapshot, play, with_event
from render.words import Drawn, english_words, recording
from rules import tigris as T
from rules.tigris.data import BLUE, RED, SQUARE
from rules.tigris.state import LEADER, UP, TigrisState

LANGS = ["en", "pt-BR", "fr", "de", "hu", "pl", i18n.PSEUDO]


@pytest.fixture(scope="module")
def game() -> list[Snapshot]:
    """A seeded, self-played 4-player game: one snapshot per turn."""
    return play(4, 1)


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    b = img.tobytes()
    return [(b[i], b[i + 1], b[i + 2]) for i in range(0, len(b), 3)]


def px(img: Image.Image, at: tuple[int, int]) -> tuple[int, int, int]:
    p = img.getpixel(at)
    assert isinstance(p, tuple)
    return (int(p[0]), int(p[1]), int(p[2]))


def square_px(label: str, fx: float, fy: float) -> tuple[int, int]:
    """A point of a square (fx, fy: its fraction across and down) on the default board."""
    g = B.geometry(1.0)
    x0, y0, x1, y1 = g.box(SQUARE[label])
    return (round(x0 + (x1 - x0) * fx), round(y0 + (y1 - y0) * fy))


def fresh() -> TigrisState:
    return T.new_game(players=3, seed=11)


# ------------------------------------------------------------------------------ the board


def test_a_red_tile_on_f4_makes_the_square_red() -> None:
    s = fresh()
    before = png(render_board(T.view(s, None)))
    s.cells[SQUARE["F4"]] = UP + RED
    img = png(render_board(T.view(s, None)))
    r, g, b = px(img, square_px("F4", 0.2, 0.5))  # beside the white icon
    assert r > 150 and g < 90 and b < 90, (r, g, b)
    r0, g0, _b0 = px(before, square_px("F4", 0.2, 0.5))
    assert r0 > 200 and g0 > 190  # empty land before: sand


def test_a_blue_tile_shows_its_icon_in_white() -> None:
    s = fresh()
    s.cells[SQUARE["E1"]] = UP + BLUE
    img = png(render_board(T.view(s, None)))
    r, _g, b = px(img, square_px("E1", 0.2, 0.5))
    assert b > 150 and r < 80
    # the icon: white pixels in the middle of the tile (shape, not only colour)
    g_ = B.geometry(1.0)
    x0, y0, x1, y1 = g_.box(SQUARE["E1"])
    crop = img.crop((x0 + 20, y0 + 20, x1 - 20, y1 - 20))
    assert sum(1 for p in pixels(crop) if min(p) > 230) > 50


def test_river_squares_are_blue_tinted_and_land_is_not() -> None:
    img = png(render_board(T.view(fresh(), None)))
    r, g, b = px(img, square_px("G1", 0.85, 0.25))  # a river square, empty
    assert b > r + 50 and b > 200, (r, g, b)
    r, g, b = px(img, square_px("G2", 0.85, 0.25))  # land
    assert r > b + 30, (r, g, b)


def test_a_changed_square_has_the_highlight_colour_at_its_edge() -> None:
    s = fresh()
    plain = png(render_board(T.view(s, None)))
    img = png(render_board(T.view(s, None), ["F4"]))
    for fx, fy in ((0.03, 0.5), (0.5, 0.03), (0.97, 0.5), (0.5, 0.97)):
        got = px(img, square_px("F4", fx, fy))
        assert max(abs(a - b) for a, b in zip(got, HIGHLIGHT, strict=True)) < 40, got
        assert px(plain, square_px("F4", fx, fy)) != got
    # numbers work too, and a neighbour is not ringed
    assert render_board(T.view(s, None), [SQUARE["F4"]]) == render_board(T.view(s, None), ["F4"])
    n = px(img, square_px("G4", 0.5, 0.5))
    assert max(abs(a - b) for a, b in zip(n, HIGHLIGHT, strict=True)) > 80


def test_a_leader_is_a_disc_of_its_colour() -> None:
    s = fresh()
    s.cells[SQUARE["G3"]] = LEADER + 4 * 1 + BLUE  # seat 1's farmer next to the F3 temple
    s.players[1].leaders[BLUE] = SQUARE["G3"]
    img = png(render_board(T.view(s, None)))
    r, g, b = px(img, square_px("G3", 0.5, 0.17))  # inside the disc, above the symbol
    assert b > 150 and r < 80, (r, g, b)
    r, g, b = px(img, square_px("G3", 0.06, 0.06))  # the square's corner stays land
    assert r > 200


def test_changed_squares_come_from_the_events(game: list[Snapshot]) -> None:
    sn = game[len(game) // 2]
    sqs = changed_squares(sn.events)
    tiles = [e.params["square"] for e in sn.events if e.key == "tigris.tile"]
    assert all(SQUARE[str(x)] in sqs for x in tiles)
    assert sqs


def test_monuments_unification_and_conflicts_draw() -> None:
    """A state in a war with monuments built (seeded self-play) draws its board and the
    conflict being fought."""
    import random

    rng = random.Random(14)
    s = T.new_game(players=4, seed=14)
    while not (s.unification >= 0 and s.conflict is not None and s.monuments):
        s, _ = T.apply(s, rng.choice(T.legal_actions(s)))
    img = png(render_board(T.view(s, None)))
    assert img.size[0] > 1200
    data = render_conflict(T.view(s, None), [])
    assert data is not None and png(data).height > 300


# ------------------------------------------------------------------------ hidden information


def _other_hand(s: TigrisState, seat: int) -> TigrisState:
    """The same state with one tile of ``seat``'s hand exchanged with the bag (and its
    hidden points changed): what ``seat``'s opponents may not tell apart."""
    t = s.clone()
    p = t.players[seat]
    a = next(c for c in range(4) if p.hand[c] > 0)
    b = next(c for c in range(4) if c != a and t.bag[c] > 0)
    p.hand[a] -= 1
    p.hand[b] += 1
    t.bag[b] -= 1
    t.bag[a] += 1
    p.score = [x + 3 for x in p.score]
    p.treasures += 1
    return t


def test_public_images_do_not_change_with_hidden_hands(game: list[Snapshot]) -> None:
    s = game[len(game) // 2].state
    t = _other_hand(s, 1)
    assert s.players[1].hand != t.players[1].hand
    for a, b in ((s, t),):
        assert render_board(T.view(a, None)) == render_board(T.view(b, None))
        assert render_players(T.view(a, None)) == render_players(T.view(b, None))
        # seat 0's own images do not show seat 1's hand either
        assert render_hand(T.view(a, 0), 0) == render_hand(T.view(b, 0), 0)
        assert render_board(T.view(a, 0)) == render_board(T.view(b, 0))
    # but seat 1's own panel shows its hand
    assert render_hand(T.view(s, 1), 1) != render_hand(T.view(t, 1), 1)


def test_the_public_panel_shows_no_hand_whatever_view_it_is_given(game: list[Snapshot]) -> None:
    s = game[len(game) // 2].state
    public = render_players(T.view(s, None))
    for seat in range(len(s.players)):
        assert render_players(T.view(s, seat)) == public


def test_private_panels_differ_per_seat(game: list[Snapshot]) -> None:
    s = game[len(game) // 2].state
    hands = [render_hand(T.view(s, seat), seat) for seat in range(len(s.players))]
    assert len(set(hands)) == len(hands)


def test_open_scoring_shows_everyones_points(game: list[Snapshot]) -> None:
    s = game[len(game) // 2].state.clone()
    closed = png(render_players(T.view(s, None)))
    s.options.open_scoring = True
    opened = png(render_players(T.view(s, None)))
    assert opened.height > closed.height
    t = _other_hand(s, 1)  # with open scoring the points are public: they show
    assert render_players(T.view(s, None)) != render_players(T.view(t, None))


def test_the_screens_are_lifted_at_the_end_T_FINAL_1(game: list[Snapshot]) -> None:
    """Once the game is over everybody's points and treasures show on the public panel."""
    s = game[len(game) // 2].state.clone()
    s.players[1].score = [3, 1, 4, 1]
    closed = render_players(T.view(s, None))
    s.phase = "over"
    ended = png(render_players(T.view(s, None)))
    assert ended.height > png(closed).height
    other = s.clone()
    other.players[1].score = [5, 9, 2, 6]  # other points: another picture
    assert render_players(T.view(other, None)) != render_players(T.view(s, None))


# --------------------------------------------------------------------------------- reports


def test_conflict_report_from_events(game: list[Snapshot]) -> None:
    for key in ("tigris.war.start", "tigris.revolt.start"):
        sn = with_event(game, key)
        if sn is None:
            continue
        data = render_conflict(T.view(sn.state, None), sn.events)
        assert data is not None
        assert png(data).width == 600
    quiet = next(
        sn
        for sn in game
        if not any(e.key in ("tigris.war.start", "tigris.revolt.start") for e in sn.events)
        and sn.state.conflict is None
    )
    assert render_conflict(T.view(quiet.state, None), quiet.events) is None


def test_final_scoring_ranks_by_the_weakest_colour(game: list[Snapshot]) -> None:
    end = game[-1].state
    assert T.is_over(end)
    img = png(render_scores(end))
    assert img.width == 600
    # the weakest colour of each row is outlined in the highlight colour
    assert (
        sum(
            1
            for p in pixels(img)
            if max(abs(a - b) for a, b in zip(p, HIGHLIGHT, strict=True)) < 30
        )
        > 200
    )


# ------------------------------------------------------------------------------- languages


def every_image(game: list[Snapshot], lang: str) -> dict[str, bytes]:
    mid = game[len(game) // 2]
    end = game[-1]
    war = with_event(game, "tigris.war.start")
    revolt = with_event(game, "tigris.revolt.start")
    out: dict[str, bytes | None] = {
        "board": render_board(T.view(mid.state, None), changed_squares(mid.events), lang=lang),
        "board end": render_board(T.view(end.state, None), lang=lang),
        "players": render_players(T.view(mid.state, None), lang=lang),
        "scores": render_scores(end.state, lang=lang),
    }
    open_ = mid.state.clone()
    open_.options.open_scoring = True
    out["players open"] = render_players(T.view(open_, None), lang=lang)
    for seat in range(len(mid.state.players)):
        out[f"hand {seat}"] = render_hand(T.view(mid.state, seat), seat, lang=lang)
    for name, sn in (("war", war), ("revolt", revolt)):
        if sn is not None:
            out[name] = render_conflict(T.view(sn.state, None), sn.events, lang=lang)
    assert all(d is not None for d in out.values())
    return {k: d for k, d in out.items() if d is not None}


@pytest.fixture(scope="module")
def drawn(game: list[Snapshot]) -> dict[str, tuple[dict[str, bytes], list[Drawn]]]:
    out = {}
    for lang in LANGS:
        B.static_layer.cache_clear()  # the legend's texts are recorded when first drawn
        with recording() as texts:
            images = every_image(game, lang)
        out[lang] = (images, list(texts))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_image_renders_in_every_language(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]], lang: str
) -> None:
    images, texts = drawn[lang]
    assert len(images) >= 9
    en = drawn["en"][0]
    for name, data in images.items():
        img = png(data)
        assert img.width == png(en[name]).width, (lang, name)  # pages grow downwards only
    assert texts


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_leaves_its_box_or_the_page(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]], lang: str
) -> None:
    bad = []
    for d in drawn[lang][1]:
        if d.ink is None:
            continue
        x0, y0, x1, y1 = d.ink
        w, h = d.page
        if x0 < 1 or y0 < 1 or x1 > w - 1 or y1 > h - 1:
            bad.append(f"{d.text!r} {d.ink} leaves the {w}x{h} page")
        if d.limit is not None:
            lx0, ly0, lx1, ly1 = d.limit
            if x0 < lx0 - 4 or x1 > lx1 + 1 or y0 < ly0 - 1 or y1 > ly1 + 1:
                bad.append(f"{d.text!r} {d.ink} leaves its box {d.limit}")
    assert not bad, bad[:10]


def test_the_pseudo_language_images_hold_no_english(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]],
) -> None:
    assert sum(len(english_words(d.text)) for d in drawn["en"][1]) > 50  # English is seen
    found = {d.text: english_words(d.text) for d in drawn[i18n.PSEUDO][1] if english_words(d.text)}
    assert not found


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "hu",
            {"Templom", "Lakóépület", "Kereskedő", "Belső konfliktus", "Külső konfliktus", "kincs"},
        ),
        ("de", {"Siedlung", "Händler", "Schätze"}),
    ],
)
def test_each_language_draws_its_own_words(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]], lang: str, words: set[str]
) -> None:
    text = "\n".join(d.text for d in drawn[lang][1])
    assert all(w in text for w in words), [w for w in words if w not in text]


def test_the_board_draws_within_its_time_budget(game: list[Snapshot]) -> None:
    """Under 100 ms on this machine with the encoding (``python -m render.tigris.bench``);
    here a generous bound, since the tests share the CPU."""
    sn = game[len(game) // 2]
    v = T.view(sn.state, None)
    ch = changed_squares(sn.events)
    render_board(v, ch)
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        render_board(v, ch)
        times.append(time.perf_counter() - t0)
    assert min(times) < 0.3, times


def test_scale_and_high_contrast(game: list[Snapshot]) -> None:
    v = T.view(game[len(game) // 2].state, None)
    small = png(render_board(v, options=RenderOptions(scale=0.5)))
    assert 600 < small.width < 720
    assert render_board(v, options=RenderOptions(high_contrast=True)) != render_board(v)
