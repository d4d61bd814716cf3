"""Pixel, secrecy, determinism and golden-image tests of the renderer (issue 9)."""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import render.brazil.mapimg as M
import render.canvas as C
import render.draw as D
from devtools.brazil.render import main as cli
from devtools.brazil.render_games import Snapshot, at_round, play, with_event
from render.brazil import (
    RenderOptions,
    render_battle,
    render_boards,
    render_hand,
    render_map,
    render_map_zoom,
    render_panel,
    render_scores,
    render_timeline,
)
from render.brazil.common import changes, colour_of, pieces_by_hex
from render.theme import HIGHLIGHT, font, player_fill
from rules.brazil import get_catalog, view
from rules.brazil.state import GameState

GOLDEN = Path(__file__).parent / "golden"
OPTS = RenderOptions()


def rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 24) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def share(
    img: Image.Image,
    box: tuple[float, float, float, float],
    colour: tuple[int, int, int],
    tol: int = 24,
) -> float:
    """Fraction of the pixels in ``box`` that are ``colour`` (± a small tolerance)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    px = [img.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]
    return sum(1 for p in px if close(p, colour, tol)) / max(1, len(px))  # type: ignore[arg-type,misc]


def late(game4: list[Snapshot]) -> Snapshot:
    return game4[-2]


@pytest.mark.slow
def test_building_owner_colour_at_its_hex(game4: list[Snapshot]) -> None:
    sn = late(game4)
    v = view(sn.state, None)
    img = rgb(render_map(v, sn.events))
    g = M.geometry(v.map, v.data_pack, 1.0)
    pieces = pieces_by_hex(v)
    checked = 0
    for hx, t in sorted(v.tiles.items()):
        if t.kind != "building" or hx in pieces:
            continue
        cx, cy = g.layout.centre(hx)
        r = g.layout.size
        want = player_fill(colour_of(v, t.owner), OPTS)
        assert share(img, (cx - 0.5 * r, cy - 0.55 * r, cx + 0.5 * r, cy + 0.1 * r), want) > 0.35, (
            hx
        )
        # and not the colour of any other player
        for p in v.players:
            if p.seat != t.owner:
                other = player_fill(p.colour, OPTS)
                assert (
                    share(img, (cx - 0.5 * r, cy - 0.55 * r, cx + 0.5 * r, cy + 0.1 * r), other)
                    < 0.05
                )
        checked += 1
    assert checked >= 5


def test_unit_glyph_where_it_stands(game4: list[Snapshot], monkeypatch: pytest.MonkeyPatch) -> None:
    sn = late(game4)
    v = view(sn.state, None)
    pieces = pieces_by_hex(v)
    lone = [(h, ps[0]) for h, ps in sorted(pieces.items()) if len(ps) == 1 and h not in v.tiles]
    assert lone
    hx, pc = lone[0]
    drawn = _probe(monkeypatch)
    img = rgb(render_map(v, sn.events))
    assert pc.glyph in drawn  # the type letter + FP is written on the piece
    g = M.geometry(v.map, v.data_pack, 1.0)
    cx, cy = g.layout.centre(hx)
    r = g.layout.size
    assert (
        share(
            img,
            (cx - 0.3 * r, cy - 0.3 * r, cx + 0.3 * r, cy + 0.3 * r),
            player_fill(pc.colour, OPTS),
        )
        > 0.3
    )


def _ring_share(img: Image.Image, g: M.Geometry, hx: str) -> float:
    """The share of the hex's six sides along which the highlight ring runs (a move arrow
    may cross one side, so callers ask for most sides, not all)."""
    cx, cy = g.layout.centre(hx)
    r = g.layout.size
    sides = 0
    for i in range(6):
        a = math.radians(60 * i)  # the normals of a pointy-top hex's sides
        x, y = cx + 0.74 * r * math.cos(a), cy + 0.74 * r * math.sin(a)
        if share(img, (x - 3, y - 3, x + 3, y + 3), HIGHLIGHT, 60) > 0.5:
            sides += 1
    return sides / 6


def test_last_move_is_highlighted(game4: list[Snapshot]) -> None:
    sn = next(s for s in game4[20:] if any(e.kind == "move" for e in s.events))
    mv = next(e for e in sn.events if e.kind == "move")
    v = view(sn.state, None)
    g = M.geometry(v.map, v.data_pack, 1.0)
    with_events = rgb(render_map(v, sn.events))
    without = rgb(render_map(v, []))
    assert _ring_share(with_events, g, mv.data["to"]) > 0.5
    assert _ring_share(without, g, mv.data["to"]) == 0.0
    # the arrow crosses the midpoint between the two hexes
    (ax, ay), (bx, by) = g.layout.centre(mv.data["src"]), g.layout.centre(mv.data["to"])
    mx, my = (ax + bx) / 2, (ay + by) / 2
    assert share(with_events, (mx - 3, my - 3, mx + 3, my + 3), HIGHLIGHT, 60) > 0.3


def test_built_and_battle_hexes_are_highlighted(game4: list[Snapshot]) -> None:
    for kind in ("build", "battle_result"):
        sn = with_event(game4, kind, 10)
        assert sn is not None
        ev = next(e for e in sn.events if e.kind == kind)
        v = view(sn.state, None)
        g = M.geometry(v.map, v.data_pack, 1.0)
        assert _ring_share(rgb(render_map(v, sn.events)), g, ev.data["hex"]) > 0.5, kind


def _clear_caches() -> None:
    """Empty the renderer's caches, so that cached sprites and layers are drawn again."""
    for f in (
        D.piece_sprite,
        D.hex_sprite,
        D.text_sprite,
        M.badge_sprite,
        M.static_layer,
        C.text_mask,
    ):
        f.cache_clear()


def _probe(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every string drawn (caches cleared so cached sprites are drawn again)."""
    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, text: str, *a: object, **k: object) -> None:
        drawn.append(str(text))
        real(self, xy, text, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    _clear_caches()
    return drawn


def _secret_names(state: GameState) -> set[str]:
    cat = get_catalog(state.data_pack)
    names: set[str] = set()
    for p in state.players:
        names |= {cat.combat_cards[c].name for c in p.combat_cards}
        names |= {cat.gold_cards[c].name for c in p.gold_cards}
        names |= {cat.missions[m].name for m in p.missions}
    for ex in state.exploration.values():
        if not ex.face_up:
            names.add(cat.exploration[ex.tile].name)
    # names that are also public for another reason are not secrets
    public = {cat.paintings[x].name for p in state.players for x in p.paintings}
    public |= {cat.missions[m].name for p in state.players for m in p.revealed}
    public |= {cat.exploration[t].name for p in state.players for t in p.kept_tiles}
    public |= {cat.exploration[e.tile].name for e in state.exploration.values() if e.face_up}
    return names - public


@pytest.mark.slow
def test_hidden_cards_never_drawn_for_a_spectator(
    game4: list[Snapshot], monkeypatch: pytest.MonkeyPatch
) -> None:
    for sn in (at_round(game4, 10), late(game4)):
        secrets = _secret_names(sn.state)
        assert secrets  # the state really holds secrets
        drawn = _probe(monkeypatch)
        v = view(sn.state, None)
        render_map(v, sn.events)
        render_boards(v)
        for p in v.players:
            render_panel(v, p.seat)
        text = "\n".join(drawn)
        leaked = sorted(s for s in secrets if s in text)
        assert not leaked
        # the probe works: the owner's own hand names its cards
        drawn.clear()
        render_hand(view(sn.state, 0), 0)
        own = _secret_names(sn.state) & {
            get_catalog().combat_cards[c].name for c in sn.state.players[0].combat_cards
        } | {get_catalog().missions[m].name for m in sn.state.players[0].missions}
        assert own and all(any(name in t for t in drawn) for name in own)


def test_same_view_same_bytes(game4: list[Snapshot]) -> None:
    sn = late(game4)
    v = view(sn.state, None)

    def draw() -> list[bytes]:
        return [
            render_map(v, sn.events),
            render_boards(v),
            render_panel(v, 1),
            render_hand(view(sn.state, 1), 1),
        ]

    a = draw()
    _clear_caches()
    b = draw()
    assert a == b


@pytest.mark.slow
def test_every_image_kind_exists_and_is_small(game4: list[Snapshot]) -> None:
    sn = late(game4)
    v = view(sn.state, None)
    battle = with_event(game4, "battle_result")
    assert battle is not None
    images = {
        "map": render_map(v, sn.events),
        "map high contrast": render_map(v, sn.events, options=RenderOptions(high_contrast=True)),
        "zoom": render_map_zoom(v, battle.events)
        if False
        else render_map_zoom(view(battle.state, None), battle.events),
        "boards": render_boards(v),
        "panel": render_panel(v, 2),
        "hand": render_hand(view(sn.state, 2), 2),
        "battle": render_battle(view(battle.state, None), battle.events),
        "scores": render_scores(view(game4[-1].state, None)),  # R-END-2
        "webp": render_map(v, sn.events, options=RenderOptions(format="webp")),
    }
    for name, data in images.items():
        assert data is not None, name
        assert len(data) < 1_500_000, name
        im = Image.open(io.BytesIO(data))
        assert min(im.size) >= 300, name
    assert render_battle(v, []) is None
    with pytest.raises(ValueError):
        render_scores(view(game4[5].state, None))


def test_indexed_map_maps_every_drawn_pixel(game4: list[Snapshot]) -> None:
    """The fast path re-maps only the bands drawn over the static layer: it must give the
    same pixels as mapping the whole RGB map to the scenario's palette."""
    for sn in (game4[5], game4[100], late(game4)):
        v = view(sn.state, None)
        for opts in (OPTS, RenderOptions(high_contrast=True)):
            rgb_map = M.draw_map(v, sn.events, None, opts)[0]
            pal, _ = M.map_palette(v.map, v.data_pack, opts.high_contrast, opts.scale)
            full = rgb_map.quantize(palette=pal, dither=Image.Dither.NONE)
            fast = M.draw_map_indexed(v, sn.events, None, opts)
            assert ImageChops.difference(full.convert("RGB"), fast.convert("RGB")).getbbox() is None
            # and the palette is close to every colour drawn (anti-aliased edges included)
            err = ImageChops.difference(rgb_map, fast.convert("RGB")).convert("L")
            lo_hi = err.getextrema()
            assert isinstance(lo_hi[1], int) and lo_hi[1] <= 64
            assert err.point(lambda x: 255 if x > 32 else 0).histogram()[255] < 50


def _sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Record (text, px size) of every string drawn on a page (not inside supersampled
    sprites, whose text is drawn at 2–4× and downscaled)."""
    seen: list[tuple[str, int]] = []
    real_mask, real_sprite = C.text_mask, D.text_sprite

    def mask(text: str, size: int, *a: Any) -> Any:
        seen.append((text, size))
        return real_mask(text, size, *a)

    def sprite(text: str, size: int, *a: Any) -> Any:
        seen.append((text, size))
        return real_sprite(text, size, *a)

    monkeypatch.setattr(C, "text_mask", mask)
    monkeypatch.setattr(D, "text_sprite", sprite)
    return seen


def test_text_is_readable_on_a_phone(
    game4: list[Snapshot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At full size no text is under 14 px; pages are narrow enough that in a 400 px wide
    preview the body text stays ≥ 12 px; the map's edge coordinates are ~3 % of its width."""
    sn = late(game4)
    v = view(sn.state, None)
    seen = _sizes(monkeypatch)
    battle = with_event(game4, "battle_result")
    assert battle is not None
    pages = {
        "boards": render_boards(v),
        "panel": render_panel(v, 1),
        "hand": render_hand(view(sn.state, 1), 1),
        "battle": render_battle(view(battle.state, None), battle.events),
        "scores": render_scores(view(game4[-1].state, None)),
    }
    assert seen and min(size for _, size in seen) >= 15
    for name, data in pages.items():
        assert data is not None
        w = Image.open(io.BytesIO(data)).width
        assert w <= 620, name  # 20 px body text → ≥ 12.9 px in a 400 px preview
    seen.clear()
    img = rgb(render_map(v, sn.events))
    assert seen and min(size for _, size in seen) >= 14  # hex labels, title, players
    assert M.EDGE_FS / img.width >= 0.025 and M.TITLE_FS / img.width >= 0.028


def test_zoom_is_a_close_up_of_the_last_action(game4: list[Snapshot]) -> None:
    """About five hexes wide (at 1.5×), so labels and pieces read in a 400 px preview, and
    the hex the last move went to is inside it."""
    sn = next(s for s in game4[100:] if any(e.kind == "move" for e in s.events))
    v = view(sn.state, None)
    data = render_map_zoom(v, sn.events)
    assert data is not None
    zoom = rgb(data)
    g = M.geometry(v.map, v.data_pack, 1.5)
    assert 5 * g.layout.width <= zoom.width <= 7 * g.layout.width
    box = M.focus_box(g, changes(sn.events, None, set(g_labels(v))), v)
    assert box is not None
    last = [e for e in sn.events if e.kind == "move"][-1].data["to"]
    cx, cy = g.layout.centre(last)
    assert box[0] < cx < box[2] and box[1] < cy < box[3]


def g_labels(v: GameState) -> list[str]:
    return list(get_catalog(v.data_pack).boards[v.map].terrain)


def test_timeline_is_an_animation() -> None:
    snaps = play(2, 3, max_steps=120)
    data = render_timeline([(view(s.state, None), s.events) for s in snaps])
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF" and getattr(im, "n_frames", 1) == len(snaps)
    assert len(data) < 8_000_000
    # frames store only what changed (the rest is transparent over the previous frame):
    # every decoded frame must still be the whole map after that turn
    from render.brazil import TIMELINE_WIDTH

    for i in (1, len(snaps) // 2, len(snaps) - 1):
        im.seek(i)
        got = im.convert("RGB")
        v, ev = view(snaps[i].state, None), snaps[i].events
        scale = TIMELINE_WIDTH / M.geometry(v.map, v.data_pack, 1.0).width
        want = M.draw_map(v, ev, None, RenderOptions(scale=scale))[0]
        assert got.size == want.size
        diff = ImageChops.difference(got, want).convert("L")
        assert sum(diff.histogram()[40:]) < 0.002 * got.width * got.height, i


@pytest.mark.slow
def test_long_timeline_is_small(game4: list[Snapshot]) -> None:
    frames = [(view(s.state, None), s.events) for s in game4]
    data = render_timeline(frames)
    assert len(data) < 2_000_000  # ~230 turns; whole frames took 7 MB


def test_font_has_portuguese_letters() -> None:
    f = font(28)

    def mask(ch: str) -> bytes:
        im = Image.new("L", (40, 50))
        ImageDraw.Draw(im).text((5, 5), ch, font=f, fill=255)
        return im.tobytes()

    missing = mask("\u2713")  # a glyph Open Sans lacks: drawn as the .notdef box
    for ch in "ãçéóõÃÇÉÓÕ":
        assert mask(ch) != missing, ch
        assert mask(ch) != mask(ch[0].encode("ascii", "ignore").decode() or "a"), ch


def test_layout_round_trips_every_hex() -> None:
    cat = get_catalog()
    for mid in cat.maps:
        lay = M.geometry(mid, None, 1.0).layout
        for lab in cat.boards[mid].order:
            x, y = lay.centre(lab)
            assert lay.pixel_to_label(x + 0.3 * lay.size, y - 0.2 * lay.size) == lab


@pytest.mark.slow
def test_bench_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["bench", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "late map" in out and "palette PNG" in out
    assert "de / en" in out  # English and another language side by side (issue 17)


@pytest.mark.slow
def test_bench_times_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["bench", "--runs", "1", "--lang", "hu"]) == 0
    out = capsys.readouterr().out
    assert "hu / en cpu time" in out and "late hand" in out


# ---------------------------------------------------------------------------- golden images


def _golden_cases() -> Iterator[tuple[str, bytes]]:
    small = RenderOptions(scale=0.5)
    snaps = play(2, 7, map_id="cisplatine-war", max_steps=300)
    sn = at_round(snaps, 6)
    v = view(sn.state, None)
    yield "cisplatine-map.png", render_map(v, sn.events, options=small)
    yield "cisplatine-panel.png", render_panel(v, 0, options=small)


@pytest.mark.parametrize("name", ["cisplatine-map.png", "cisplatine-panel.png"])
def test_golden_images(name: str) -> None:
    """Regenerate with ``RENDER_UPDATE_GOLDEN=1 pytest tests/render``."""
    data = dict(_golden_cases())[name]
    path = GOLDEN / name
    if os.environ.get("RENDER_UPDATE_GOLDEN"):
        path.write_bytes(data)
    want = Image.open(path).convert("RGB")
    got = rgb(data)
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L")
    hist = diff.histogram()
    differing = sum(hist[24:]) / (got.width * got.height)
    assert differing < 0.005, f"{differing:.2%} of the pixels differ"


def test_pixel_off_the_map_has_no_label() -> None:
    cat = get_catalog()
    lay = M.geometry(next(iter(cat.maps)), None, 1.0).layout
    x, y = lay.centre("A1")
    assert lay.pixel_to_label(x, y - 3 * lay.size) is None  # above row 1


def test_palace_on_the_top_row_renders(game4: list[Snapshot]) -> None:
    # R-PALACE-1: a palace may stand on any of your cities or buildings, top row included;
    # its disc reaches towards the (missing) hex above, which must not crash the map.
    v = game4[-1].state.clone()
    board = get_catalog(v.data_pack).boards[v.map]
    top = min(board.order, key=lambda lab: (int(lab[1:]), lab))
    land = [lab for lab in board.order if lab[1:] == top[1:] and board.terrain[lab] != "water"]
    tile = next(t for t in v.tiles.values() if t.kind == "building")
    v.tiles[land[0]] = tile.model_copy(update={"palace": 2})
    png = render_map(view(v, None))
    assert Image.open(io.BytesIO(png)).size[0] > 0
