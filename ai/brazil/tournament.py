"""Tournaments between Brazil: Imperial computer players: win rates, scores, natural ends,
decision times (the report: :mod:`ai.report`)."""

from __future__ import annotations

import random
import time
from typing import Any

from ai.brazil import AGENT_NAMES, Agent, make_agent
from ai.report import Report, entry_labels
from rules.brazil import apply, deciders, final_scores, new_game
from rules.brazil.scoring import CATEGORIES
from rules.brazil.state import GameState


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
) -> Report:
    """Play ``games`` games of ``len(names)`` players; game ``i`` rotates the line-up by
    ``i`` seats. ``budget``/``iterations`` configure any search agents."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    for n in names:
        if n not in AGENT_NAMES:
            raise ValueError(f"unknown agent {n!r}: choose from {', '.join(AGENT_NAMES)}")
    players = len(names)
    labels = entry_labels(names)
    rep = Report(labels=labels, players=players, category_names=CATEGORIES)
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
