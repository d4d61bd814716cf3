"""Tournaments between Tigris & Euphrates computer players (the report of
:mod:`ai.report`: win rates with 95% Wilson intervals, average final scores — the weakest
colour, T-FINAL-3 — and per colour, natural ends, decision times)."""

from __future__ import annotations

import time
from functools import partial

from ai.report import Report, check_entries, entry_labels, run_games, seat_agents
from ai.tigris import AGENT_NAMES, Agent, make_agent
from rules.tigris import TigrisState, apply, deciders, final_scores, is_over, new_game

CATEGORIES = ("black", "red", "blue", "green", "treasures", "score")
MAX_STEPS = 5000  # a safety net: every game ends by treasures or an empty bag (T-END)


def play_game(
    agents: list[Agent],
    seed: int,
    *,
    times: dict[str, list[float]] | None = None,
    keys: list[str] | None = None,
    max_steps: int = MAX_STEPS,
) -> TigrisState:
    """Play one game, seat ``i`` played by ``agents[i]``, until it ends. Each agent gets the
    full state and must decide from its own view; ``times`` collects decision times by
    ``keys[seat]`` (default: the agent's name)."""
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
            times[keys[seat] if keys else agent.name].append(dt)
        state, _ = apply(state, action)
    return state


def _report(names: list[str]) -> Report:
    return Report(
        labels=entry_labels(names),
        players=len(names),
        category_names=CATEGORIES,
        score_label="score",
        round_label="turns",
    )


def one_game(
    names: list[str],
    i: int,
    *,
    seed: int,
    budget: float | None,
    iterations: int | None,
    paired: bool,
) -> Report:
    """The report of game ``i`` alone of a tournament (see :func:`run_tournament`)."""
    rep = _report(names)
    labels = rep.labels
    order, agents, rng = seat_agents(
        names,
        i,
        seed=seed,
        paired=paired,
        budget=budget,
        iterations=iterations,
        make=make_agent,
        salt="tigris:",
    )
    state = play_game(agents, rng.getrandbits(32), times=rep.times, keys=[names[k] for k in order])
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
    return rep


def run_tournament(
    names: list[str],
    games: int,
    *,
    seed: int = 0,
    max_rounds: int | None = None,
    budget: float | None = None,
    iterations: int | None = None,
    workers: int = 1,
    paired: bool = False,
) -> Report:
    """Play ``games`` games of ``len(names)`` players (2-4); game ``i`` rotates the line-up
    by ``i`` seats (``paired``: on the same deal within each group of ``len(names)`` games,
    :func:`ai.report.seating`). ``budget``/``iterations`` configure any search agents;
    ``workers``: processes the games are spread over (the figures do not depend on it);
    ``max_rounds`` is not used (every game runs to its natural end)."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    check_entries(names, AGENT_NAMES)
    players = len(names)
    if not 2 <= players <= 4:
        raise ValueError("Tigris & Euphrates is for 2 to 4 players")
    play = partial(
        one_game, list(names), seed=seed, budget=budget, iterations=iterations, paired=paired
    )
    return run_games(play, games, workers=workers, base=_report(names))
