"""``python -m devtools.brazil.render demo OUTDIR [--seed S] [--lang L]`` writes every image kind for a
few states of a self-played game (and the map of all nine scenarios) in a language;
``python -m devtools.brazil.render bench [--lang L]`` prints median drawing and encoding times and
sizes, English and another language (default German) side by side."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PIL import Image

import i18n
from devtools.brazil.render_games import Snapshot, at_round, play, with_event
from render.brazil import render_battle as _render_battle
from render.brazil import render_boards as _render_boards
from render.brazil import render_hand as _render_hand
from render.brazil import render_map as _render_map
from render.brazil import render_map_zoom as _render_map_zoom
from render.brazil import render_panel as _render_panel
from render.brazil import render_scores as _render_scores
from render.brazil import render_timeline as _render_timeline
from render.brazil.mapimg import draw_map, draw_map_indexed
from render.brazil.panels import draw_boards, draw_hand, draw_panel
from render.encode import encode
from render.theme import RenderOptions
from rules.brazil import get_catalog, view
from rules.brazil.events import Event
from rules.brazil.state import GameState
from rules.cli import OneLineParser, refuse, seed, whole_number
from terminal.local import folder_problem


def _write(out: Path, name: str, data: bytes | None) -> None:
    if data is None:
        print(f"  (no {name}: nothing to show)")
        return
    (out / name).write_bytes(data)
    w, h = Image.open(out / name).size
    print(f"  {name:40s} {w}x{h} {len(data) / 1024:7.1f} KiB")


def demo(out: Path, seed: int, lang: str = "en") -> None:
    out.mkdir(parents=True, exist_ok=True)
    snaps = play(4, seed)
    hc = RenderOptions(high_contrast=True)
    print(f"4-player game, seed {seed}: {len(snaps)} turns; language {lang}")
    render_map = partial(_render_map, lang=lang)
    render_map_zoom = partial(_render_map_zoom, lang=lang)
    render_boards = partial(_render_boards, lang=lang)
    render_panel = partial(_render_panel, lang=lang)
    render_hand = partial(_render_hand, lang=lang)
    render_battle = partial(_render_battle, lang=lang)
    render_scores = partial(_render_scores, lang=lang)
    render_timeline = partial(_render_timeline, lang=lang)
    for tag, sn in (
        ("early", at_round(snaps, 3)),
        ("mid", at_round(snaps, 15)),
        ("late", snaps[-2]),
    ):
        v = view(sn.state, None)
        _write(out, f"{tag}-map.png", render_map(v, sn.events))
        _write(out, f"{tag}-map-zoom.png", render_map_zoom(v, sn.events))
        _write(out, f"{tag}-boards.png", render_boards(v))
        _write(out, f"{tag}-panel-seat1.png", render_panel(v, 0))
        _write(out, f"{tag}-hand-seat1.png", render_hand(view(sn.state, 0), 0))
    sn = snaps[-2]
    _write(
        out, "late-map-high-contrast.png", render_map(view(sn.state, None), sn.events, options=hc)
    )
    b = with_event(snaps, "battle_result", len(snaps) // 3) or with_event(snaps, "battle_result")
    if b is not None:
        _write(out, "battle.png", render_battle(view(b.state, None), b.events))
        _write(out, "battle-map.png", render_map(view(b.state, None), b.events))
        _write(out, "battle-map-zoom.png", render_map_zoom(view(b.state, None), b.events))
    ex = with_event(snaps, "expedition_result")
    if ex is not None:
        _write(out, "expedition.png", render_battle(view(ex.state, None), ex.events))
    final = snaps[-1].state
    _write(out, "scores.png", render_scores(view(final, None)))
    frames = [(view(s.state, None), s.events) for s in snaps]
    _write(out, "timeline.gif", render_timeline(frames))
    for mid, m in sorted(get_catalog().maps.items()):
        s2 = play(m.players, seed, map_id=mid, max_steps=400)
        sn2 = at_round(s2, 6)
        _write(out, f"scenario-{mid}.png", render_map(view(sn2.state, None), sn2.events))


def _median_ms(fn: Callable[[], object], n: int) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds of ``fn`` (the CPU time is what the work costs
    when the machine is shared: wall time grows with the load average)."""
    fn()  # warm caches (static layer, palette, sprites, text)
    wall, cpu = [], []
    for _ in range(n):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def bench(seed: int, n: int, lang: str = "de") -> None:
    snaps = play(4, seed)
    opts = RenderOptions()
    states: list[tuple[str, Snapshot]] = [("early", at_round(snaps, 3)), ("late", snaps[-2])]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"4-player game, seed {seed}; median of {n} runs; load average {load:.2f} on "
        f"{os.cpu_count()} CPUs; palette PNG, zlib level 1"
    )
    print("draw: drawing (the map: and mapping its changed bands to the scenario's palette)")
    print("encode: the rest (boards: palette + PNG; map: PNG); cpu: process time of both")
    print(f"English (en) and {lang} side by side: total ms and cpu ms of each, {lang} / en")
    print(
        f"{'image':14s} {'draw ms':>8s} {'encode ms':>10s} {'total ms':>9s} {'cpu ms':>7s}"
        f" {'KiB':>7s}  {'size':9s} | {lang + ' total':>10s} {lang + ' cpu':>9s}"
        f" {'cpu ' + lang + '/en':>10s}"
    )
    ratios: list[float] = []
    for tag, sn in states:
        v: GameState = view(sn.state, None)
        own = view(sn.state, 0)
        evs = sn.events

        def kinds(
            lg: str, v: GameState = v, own: GameState = own, evs: list[Event] = evs
        ) -> list[tuple[str, Callable[[], Image.Image]]]:
            return [
                ("map", partial(draw_map_indexed, v, evs, None, opts, lg)),
                ("boards", partial(draw_boards, v, None, opts, lg)),
                ("panel", partial(draw_panel, v, 0, opts, lg)),
                ("hand", partial(draw_hand, own, 0, opts, lg)),
            ]

        for (name, fn), (_, fn2) in zip(kinds("en"), kinds(lang), strict=True):
            img = fn()
            dms, dcpu = _median_ms(fn, n)
            ems, ecpu = _median_ms(partial(encode, img, opts), n)
            size = len(encode(img, opts)) / 1024
            img2 = fn2()
            dms2, dcpu2 = _median_ms(fn2, n)
            ems2, ecpu2 = _median_ms(partial(encode, img2, opts), n)
            ratio = (dcpu2 + ecpu2) / max(1e-9, dcpu + ecpu)
            ratios.append(ratio)
            print(
                f"{tag + ' ' + name:14s} {dms:8.1f} {ems:10.1f} {dms + ems:9.1f}"
                f" {dcpu + ecpu:7.1f} {size:7.1f}  {f'{img.width}x{img.height}':9s} |"
                f" {dms2 + ems2:10.1f} {dcpu2 + ecpu2:9.1f} {ratio:10.2f}"
            )
    print(f"{lang} / en cpu time, median over the images: {statistics.median(ratios):.2f}")
    # the encodings compared on the late map
    v = view(states[-1][1].state, None)
    img = draw_map(v, states[-1][1].events, None, opts)[0]
    print("encodings of the late map (drawn in RGB), wall ms:")
    encodings: list[tuple[str, Callable[[], bytes]]] = [
        ("RGB PNG level 1", lambda: encode(img, opts, mode="rgb", level=1)),
        ("palette PNG level 1", lambda: encode(img, opts, level=1)),
        ("palette PNG level 6", lambda: encode(img, opts, level=6)),
        ("WebP lossless m0", lambda: encode(img, RenderOptions(format="webp"))),
    ]
    for label, enc in encodings:
        ms, _ = _median_ms(enc, n)
        print(f"  {label:24s} {ms:7.1f} ms {len(enc()) / 1024:8.1f} KiB")


GOLDEN = Path(__file__).resolve().parents[2] / "docs" / "images" / "languages"
GOLDEN_SEED, GOLDEN_ROUND = 7, 15


def golden_images(lang: str) -> dict[str, bytes]:
    """One mid-game state (4 players, seed 7, round 15) in ``lang``: the public map and boards
    and seat 1's hand — the golden images of docs/images/languages/."""
    sn = at_round(play(4, GOLDEN_SEED), GOLDEN_ROUND)
    v = view(sn.state, None)
    out = {
        "map": _render_map(v, sn.events, lang=lang),
        "boards": _render_boards(v, lang=lang),
        "hand": _render_hand(view(sn.state, 0), 0, lang=lang),
    }
    return {k: b for k, b in out.items() if b is not None}


def golden(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for lang in i18n.supported():
        for kind, data in golden_images(lang).items():
            _write(out, f"{lang}-{kind}.png", data)


def language(code: str) -> str:
    """argparse type: a language the catalogues serve (an unknown one: the list of them)."""
    try:
        return i18n.require(code)
    except i18n.UnknownLanguage as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m devtools.brazil.render")
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("demo", help="write every image kind to OUTDIR")
    d.add_argument("outdir", type=Path)
    d.add_argument("--seed", type=seed, default=1)
    d.add_argument(
        "--lang", type=language, default="en", help="the language of the images (default en)"
    )
    g = sub.add_parser(
        "golden", help="write one mid-game state in every language (docs/images/languages/)"
    )
    g.add_argument("outdir", type=Path, nargs="?", default=GOLDEN)
    b = sub.add_parser("bench", help="median drawing and encoding times and sizes")
    b.add_argument("--seed", type=seed, default=1)
    b.add_argument("--runs", type=whole_number(1, 1000), default=9)
    b.add_argument(
        "--lang",
        type=language,
        default="de",
        help="the language timed beside English (default de)",
    )
    a = ap.parse_args(argv)
    if a.cmd in ("demo", "golden"):  # OUTDIR: a folder this user can make and write
        problem = folder_problem(a.outdir)
        if problem is not None:
            refuse(ap.prog, f"OUTDIR {a.outdir}: {problem}")
    if a.cmd == "golden":
        golden(a.outdir)
        return 0
    lang = a.lang
    if a.cmd == "demo":
        demo(a.outdir, a.seed, lang)
    else:
        bench(a.seed, a.runs, lang)
    return 0


if __name__ == "__main__":
    sys.exit(main())
