"""A tournament's report, any game's: win rates with 95% Wilson intervals, average final
scores per category, natural ends, decision times (:mod:`ai.brazil.tournament` for Brazil:
Imperial, :mod:`ai.tigris.tournament` for Tigris & Euphrates)."""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field


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
