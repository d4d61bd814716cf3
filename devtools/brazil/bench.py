"""Benchmarks (figures printed, never asserted): ``python -m devtools.brazil bench``."""

from __future__ import annotations

import random
import statistics
import time

from devtools.brazil.selfplay import play_random_game
from rules.brazil.determinize import determinize
from rules.brazil.engine import apply, legal_actions
from rules.brazil.setup import new_game
from rules.brazil.state import GameState

_clock = time.process_time
"""Figures are CPU time of this process, not wall time: on a machine shared with other
work they stay comparable from run to run."""


def _sample_states(seed: int, players: int = 4) -> dict[str, list[GameState]]:
    """States from seeded random games, grouped by stage (early: era I, mid: II, late: III)."""
    out: dict[str, list[GameState]] = {"early": [], "mid": [], "late": []}
    for k in range(6):
        rng = random.Random(seed + k)
        st = new_game(players, seed + k)
        while st.phase != "ended" and st.round <= 60:
            acts = legal_actions(st)
            st, _ = apply(st, rng.choice(acts))
            if st.phase == "play" and rng.random() < 0.2:
                stage = {1: "early", 2: "mid", 3: "late"}[st.era]
                out[stage].append(st)
    return out


def _median_ms(fn: object, states: list[GameState], repeat: int = 3) -> tuple[float, int]:
    times = []
    for st in states:
        for _ in range(repeat):
            t0 = _clock()
            fn(st)  # type: ignore[operator]
            times.append((_clock() - t0) * 1000)
    return (statistics.median(times) if times else float("nan")), len(states)


def main(seed: int = 7, games: int = 20) -> int:
    stages = _sample_states(seed)
    print(
        "Brazil: Imperial rules engine benchmark (4 players, seeded random games; "
        "CPU time of this process)"
    )
    for stage, states in stages.items():
        rng = random.Random(seed)
        pairs = [(st, rng.choice(legal_actions(st))) for st in states]
        la, n = _median_ms(legal_actions, states)
        times = []
        for st, a in pairs:
            for _ in range(3):
                t0 = _clock()
                apply(st, a)
                times.append((_clock() - t0) * 1000)
        ap = statistics.median(times) if times else float("nan")
        print(
            f"  {stage:5s} states={n:4d}  legal_actions median {la:.3f} ms   apply median {ap:.3f} ms"
            f" ({1000 / ap:,.0f}/s)"
        )
    mid = stages["mid"]
    if mid:
        n = 0
        t0 = _clock()
        while _clock() - t0 < 1.0:
            for st in mid:
                st.clone()
            n += len(mid)
        dt = _clock() - t0
        print(f"  clone (mid-game states): {n / dt:,.0f}/s")
        rng = random.Random(seed)
        n = 0
        t0 = _clock()
        while _clock() - t0 < 1.0:
            for st in mid:
                determinize(st, st.current, rng)
            n += len(mid)
        dt = _clock() - t0
        print(f"  determinize (mid-game states, current seat): {n / dt:,.0f}/s")
    for players in (2, 4):
        t0 = _clock()
        actions = 0
        finished = 0
        from devtools.brazil.selfplay import Summary

        s = Summary()
        for i in range(games):
            play_random_game(players, seed + 1000 + i, check=False, summary=s)
        actions = s.actions
        finished = s.finished
        dt = _clock() - t0
        print(
            f"  self-play {players} players: {games} games, {actions} actions in {dt:.2f} s = "
            f"{actions / dt:.0f} actions/s (legal-action listing included); natural end {finished}/{games}"
        )
    return 0
