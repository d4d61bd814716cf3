"""A tournament's report, any game's: win rates with 95% Wilson intervals, average final
scores per category, natural ends, decision times (:mod:`ai.brazil.tournament` for Brazil:
Imperial, :mod:`ai.tigris.tournament` for Tigris & Euphrates)."""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def entry_labels(names: list[str]) -> list[str]:
    """One label per line-up entry: a name, numbered when it appears more than once."""
    total = Counter(names)
    seen: Counter[str] = Counter()
    out = []
    for n in names:
        seen[n] += 1
        out.append(n if total[n] == 1 else f"{n}#{seen[n]}")
    return out


@dataclass
class Report:
    labels: list[str]
    players: int
    games: int = 0
    natural_end: int = 0
    rounds: list[int] = field(default_factory=list)
    wins: Counter[str] = field(default_factory=Counter)
    totals: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    categories: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    seconds: float = 0.0
    category_names: tuple[str, ...] = ()  # the game's score categories
    score_label: str = "avg VP"
    round_label: str = "rounds"

    def merge(self, other: Report) -> None:
        """Add ``other``'s games (of the same line-up) to this report."""
        self.games += other.games
        self.natural_end += other.natural_end
        self.rounds.extend(other.rounds)
        self.wins.update(other.wins)
        for lab, vals in other.totals.items():
            self.totals[lab].extend(vals)
        for lab, cats in other.categories.items():
            self.categories[lab].update(cats)
        for name, ts in other.times.items():
            self.times[name].extend(ts)

    def lines(self) -> list[str]:
        out = [
            f"{self.games} games, {self.players} player{'s' if self.players != 1 else ''}, "
            f"line-up {', '.join(self.labels)} (seats rotated); {self.seconds:.1f} s"
        ]
        out.append(f"{'agent':<14}{'win rate':>9}  {'95% interval':<16}{self.score_label:>7}")
        for lab in self.labels:
            n = self.games
            lo, hi = wilson(self.wins[lab], n)
            avg = statistics.fmean(self.totals[lab]) if self.totals[lab] else 0.0
            out.append(
                f"{lab:<14}{self.wins[lab] / n if n else 0:>9.1%}  [{lo:.1%}, {hi:.1%}]".ljust(39)
                + f"{avg:>7.1f}"
            )
        out.append("average final score per category:")
        names = self.category_names
        out.append(f"{'agent':<14}" + "".join(f"{c[:9]:>10}" for c in names))
        for lab in self.labels:
            k = max(1, len(self.totals[lab]))
            out.append(
                f"{lab:<14}" + "".join(f"{self.categories[lab][c] / k:>10.2f}" for c in names)
            )
        share = self.natural_end / self.games if self.games else 0.0
        lo, hi = wilson(self.natural_end, self.games)
        avg_r = statistics.fmean(self.rounds) if self.rounds else 0.0
        out.append(
            f"natural end: {self.natural_end}/{self.games} = {share:.1%} "
            f"[{lo:.1%}, {hi:.1%}]; average {self.round_label} {avg_r:.1f}"
        )
        out.append("decision times (ms):")
        for name in sorted(self.times):
            ts = sorted(self.times[name])
            med = statistics.median(ts) * 1000
            p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))] * 1000
            out.append(f"  {name:<12} n={len(ts):<7} median {med:8.2f}  p95 {p95:8.2f}")
        return out


def entry_agent(
    entry: str, budget: float | None, iterations: int | None
) -> tuple[str, dict[str, object]]:
    """A line-up entry's level and options: ``search@4`` is the search at four times its
    effort (rollouts and cap, ``effort=4``); ``budget``/``iterations`` go to any search."""
    level, _, factor = entry.partition("@")
    opts: dict[str, object] = {}
    if level == "search":
        if budget is not None:
            opts["budget"] = budget
        if iterations is not None:
            opts["iterations"] = iterations
        if factor:
            opts["effort"] = float(factor)
    return level, opts


def check_entries(entries: list[str], levels: tuple[str, ...]) -> None:
    """A ``ValueError`` naming the levels for an entry of no level (or a bad effort)."""
    for entry in entries:
        level, _, factor = entry.partition("@")
        if level not in levels:
            raise ValueError(f"unknown agent {entry!r}: choose from {', '.join(levels)}")
        if factor:
            try:
                ok = level == "search" and 0 < float(factor) <= 1000
            except ValueError:
                ok = False
            if not ok:
                raise ValueError(f"bad effort in {entry!r}: search@F, 0 < F <= 1000")


def seating(i: int, players: int, seed: object, *, paired: bool) -> tuple[list[int], str]:
    """Game ``i``'s seating (seat -> line-up entry: the line-up rotated by ``i`` seats) and
    the text its random numbers are seeded from. ``paired``: the games come in groups of
    ``players`` on one deal and the same agents' seeds, the seats rotated within the group,
    so every entry plays every seat of the same deal (paired seeds, seats swapped)."""
    order = [(j + i) % players for j in range(players)]
    return order, f"{seed}:{i // players}" if paired else f"{seed}:{i}"


def seat_agents(
    names: list[str],
    i: int,
    *,
    seed: object,
    paired: bool,
    budget: float | None,
    iterations: int | None,
    make: Callable[..., Any],
    salt: str = "",
) -> tuple[list[int], list[Any], random.Random]:
    """Game ``i``'s seating (:func:`seating`), its agents (``make(level, seed=…, **options)``,
    a game's ``make_agent``, each seeded in seat order) and the random numbers the game's deal
    is then drawn from (seeded from ``salt`` and the game's key)."""
    order, key = seating(i, len(names), seed, paired=paired)
    rng = random.Random(f"{salt}{key}")
    agents = []
    for seat in range(len(names)):
        level, opts = entry_agent(names[order[seat]], budget, iterations)
        agents.append(make(level, seed=rng.getrandbits(32), **opts))
    return order, agents, rng


def _chunk(play: Callable[[int], Report], indices: list[int]) -> Report:
    reports = [play(i) for i in indices]
    out = reports[0]
    for r in reports[1:]:
        out.merge(r)
    return out


def run_games(
    play: Callable[[int], Report], games: int, *, workers: int = 1, base: Report
) -> Report:
    """Play games ``0 .. games-1`` (``play(i)``: the report of game ``i`` alone, a function
    that can be pickled) into ``base``, over ``workers`` processes (1: in this process).

    Every game's seeds come from its index, so the figures are the same whatever the number
    of workers; only the wall-clock ``seconds`` differ."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if workers < 1:
        raise ValueError("the number of workers must be at least 1")
    t0 = time.perf_counter()
    workers = min(workers, games)
    if workers == 1:
        for i in range(games):
            base.merge(play(i))
    else:
        # every worker a fresh interpreter (spawn): nothing of this process's state is shared
        ctx = multiprocessing.get_context("spawn")
        chunks = [list(range(w, games, workers)) for w in range(workers)]
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            for part in pool.map(_chunk, [play] * workers, chunks):
                base.merge(part)
    base.seconds = time.perf_counter() - t0
    return base
