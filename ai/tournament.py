"""Tournaments between computer players: win rates, scores, natural ends, decision times."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from ai import AGENT_NAMES, GAMES, Agent, make_agent
from rules.brazil import apply, deciders, final_scores, new_game
from rules.brazil.scoring import CATEGORIES
from rules.brazil.state import GameState


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
    category_names: tuple[str, ...] = CATEGORIES
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


def play_game(
    agents: list[Agent],
    seed: int,
    *,
    max_rounds: int = 60,
    times: dict[str, list[float]] | None = None,
) -> GameState:
    """Play one game, seat ``i`` played by ``agents[i]``, until it ends or the round limit
    is passed. Each agent gets the full state and must decide from its own view."""
    state = new_game(len(agents), seed)
    while state.phase != "ended" and state.round <= max_rounds:
        who = deciders(state)
        seat = who[0]
        agent = agents[seat]
        t0 = time.perf_counter()
        action = agent.decide(state, seat)
        dt = time.perf_counter() - t0
        if times is not None:
            times[agent.name].append(dt)
        state, _ = apply(state, action)
    return state


def run_tournament(
    names: list[str],
    games: int,
    *,
    seed: int = 0,
    max_rounds: int = 60,
    budget: float | None = None,
    iterations: int | None = None,
    game: str = "brazil",
) -> Report:
    """Play ``games`` games of ``len(names)`` players; game ``i`` rotates the line-up by
    ``i`` seats. ``budget``/``iterations`` configure any search agents. ``game``: ``brazil``
    (Brazil: Imperial, the default) or ``tigris`` (:func:`ai.tigris.tournament.run_tournament`;
    ``max_rounds`` is then not used: every game runs to its natural end)."""
    if game == "tigris":
        from ai.tigris.tournament import run_tournament as run_tigris

        return run_tigris(names, games, seed=seed, budget=budget, iterations=iterations)
    if game != "brazil":
        raise ValueError(f"unknown game {game!r}: choose from {', '.join(GAMES)}")
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    for n in names:
        if n not in AGENT_NAMES:
            raise ValueError(f"unknown agent {n!r}: choose from {', '.join(AGENT_NAMES)}")
    players = len(names)
    labels = entry_labels(names)
    rep = Report(labels=labels, players=players)
    t0 = time.perf_counter()
    for i in range(games):
        order = [(j + i) % players for j in range(players)]  # seat -> line-up entry
        rng = random.Random(f"{seed}:{i}")
        agents = []
        for seat in range(players):
            opts: dict[str, Any] = {}
            if names[order[seat]] == "search":
                if budget is not None:
                    opts["budget"] = budget
                if iterations is not None:
                    opts["iterations"] = iterations
            agents.append(make_agent(names[order[seat]], seed=rng.getrandbits(32), **opts))
        state = play_game(agents, rng.getrandbits(32), max_rounds=max_rounds, times=rep.times)
        rep.games += 1
        rep.rounds.append(min(state.round, max_rounds))
        natural = state.phase == "ended"
        rep.natural_end += natural
        res = state.result if natural and state.result is not None else final_scores(state)
        winners = set(res["winners"])
        if state.solo and not natural:
            winners = set()
        for row in res["scores"]:
            lab = labels[order[row["seat"]]]
            rep.totals[lab].append(row["total"])
            rep.categories[lab].update(row["categories"])
            if row["seat"] in winners:
                rep.wins[lab] += 1
    rep.seconds = time.perf_counter() - t0
    return rep
