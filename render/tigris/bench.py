"""Timings of the Tigris & Euphrates images: ``python -m render.tigris.bench``.

Plays a seeded random 4-player game (rules only) and prints, per image kind, the median
time to draw and encode it (PNG), the image's size and bytes. The board must stay under
100 ms including the encoding (issue 18)."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from rules import tigris as T
from rules.tigris.events import Event
from rules.tigris.state import TigrisState


@dataclass
class Snapshot:
    """The full state after a turn and the events of that turn (or of the step, for a
    conflict: see :func:`play`)."""

    state: TigrisState
    events: list[Event]
    step: int


def play(players: int = 4, seed: int = 1, max_steps: int = 5000) -> list[Snapshot]:
    """A seeded random game: one snapshot per turn, its events accumulated over the turn."""
    rng = random.Random(seed)
    s = T.new_game(players=players, seed=seed)
    out: list[Snapshot] = []
    turn: list[Event] = []
    for step in range(max_steps):
        if T.is_over(s):
            break
        s, evs = T.apply(s, rng.choice(T.legal_actions(s)))
        turn.extend(evs)
        if any(e.key in ("tigris.turn.start", "tigris.game.over") for e in evs):
            out.append(Snapshot(s, turn, step))
            turn = []
    if turn:
        out.append(Snapshot(s, turn, max_steps))
    return out


def with_event(snaps: list[Snapshot], key: str, after: int = 0) -> Snapshot | None:
    for sn in snaps[after:]:
        if any(e.key == key for e in sn.events):
            return sn
    return None


def _time(f: Callable[[], bytes | None], n: int) -> tuple[float, bytes]:
    out = f()
    ts = []
    for _ in range(n):
        t0 = time.perf_counter()
        out = f()
        ts.append(time.perf_counter() - t0)
    assert out is not None
    return statistics.median(ts) * 1000, out


def main(argv: list[str] | None = None) -> None:
    from render.tigris import (
        changed_squares,
        render_board,
        render_conflict,
        render_hand,
        render_players,
        render_scores,
    )

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lang", default="en")
    a = ap.parse_args(argv)
    snaps = play(4, a.seed)
    mid = snaps[len(snaps) // 2]
    end = snaps[-1]
    war = with_event(snaps, "tigris.war.start") or with_event(snaps, "tigris.revolt.start")
    lang = a.lang
    cases: list[tuple[str, Callable[[], bytes | None]]] = [
        (
            "board (mid-game)",
            lambda: render_board(T.view(mid.state, None), changed_squares(mid.events), lang=lang),
        ),
        (
            "board (end)",
            lambda: render_board(T.view(end.state, None), changed_squares(end.events), lang=lang),
        ),
        ("hand (seat 0)", lambda: render_hand(T.view(mid.state, 0), 0, lang=lang)),
        ("players (public)", lambda: render_players(T.view(mid.state, None), lang=lang)),
        ("scores", lambda: render_scores(end.state, lang=lang)),
    ]
    if war is not None:
        cases.append(
            ("conflict", lambda: render_conflict(T.view(war.state, None), war.events, lang=lang))
        )
    print(f"{'image':<20} {'ms':>7} {'size':>11} {'bytes':>8}")
    import io

    for name, f in cases:
        ms, data = _time(f, a.runs)
        w, h = Image.open(io.BytesIO(data)).size
        print(f"{name:<20} {ms:7.1f} {f'{w}x{h}':>11} {len(data):8d}")


if __name__ == "__main__":
    main()
