"""Tournaments between Tigris & Euphrates computer players (the report of
:mod:`ai.report`: win rates with 95% Wilson intervals, average final scores — the weakest
colour, T-FINAL-3 — and per colour, natural ends, decision times)."""

from __future__ import annotations

import random
import time
from typing import Any

from ai.report import Report, entry_labels
from ai.tigris import AGENT_NAMES, Agent, make_agent
from rules.tigris import TigrisState, apply, deciders, final_scores, is_over, new_game

CATEGORIES = ("black", "red", "blue", "green", "treasures", "score")
MAX_STEPS = 5000  # a safety net: every game ends by treasures or an empty bag (T-END)


def play_game(
    agents: list[Agent],
    seed: int,
    *,
    times: dict[str, list[float]] | None = None,
    max_steps: int = MAX_STEPS,
) -> TigrisState:
    """Play one game, seat ``i`` played by ``agents[i]``, until it ends. Each agent gets the
    full state and must decide from its own view."""
    state = new_game(len(agents), seed)
    for _ in range(max_steps):
        if is_over(state):
            break
        seat = deciders(state)[0]
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
    max_rounds: int | None = None,
    budget: float | None = None,
    iterations: int | None = None,
) -> Report:
    """Play ``games`` games of ``len(names)`` players (2-4); game ``i`` rotates the line-up
    by ``i`` seats. ``budget``/``iterations`` configure any search agents; ``max_rounds`` is
    not used (every game runs to its natural end)."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    for n in names:
        if n not in AGENT_NAMES:
            raise ValueError(f"unknown agent {n!r}: choose from {', '.join(AGENT_NAMES)}")
    players = len(names)
    if not 2 <= players <= 4:
        raise ValueError("Tigris & Euphrates is for 2 to 4 players")
    labels = entry_labels(names)
    rep = Report(
        labels=labels,
        players=players,
        category_names=CATEGORIES,
        score_label="score",
        round_label="turns",
    )
    t0 = time.perf_counter()
    for i in range(games):
        order = [(j + i) % players for j in range(players)]  # seat -> line-up entry
        rng = random.Random(f"tigris:{seed}:{i}")
        agents = []
        for seat in range(players):
            opts: dict[str, Any] = {}
            if names[order[seat]] == "search":
                if budget is not None:
                    opts["budget"] = budget
                if iterations is not None:
                    opts["iterations"] = iterations
            agents.append(make_agent(names[order[seat]], seed=rng.getrandbits(32), **opts))
        state = play_game(agents, rng.getrandbits(32), times=rep.times)
        rep.games += 1
        rep.rounds.append(state.turn)
        rep.natural_end += is_over(state)
        for row in final_scores(state):
            lab = labels[order[row.seat]]
            rep.totals[lab].append(row.score)
            cats = dict(zip(CATEGORIES[:4], row.points, strict=True))
            cats["treasures"] = row.treasures
            cats["score"] = row.score
            rep.categories[lab].update(cats)
            if row.rank == 1:
                rep.wins[lab] += 1
    rep.seconds = time.perf_counter() - t0
    return rep
