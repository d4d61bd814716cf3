"""Tournaments between Brazil: Imperial computer players: win rates, scores, natural ends,
decision times (the report: :mod:`ai.report`)."""

from __future__ import annotations

import time
from functools import partial

from ai.brazil import AGENT_NAMES, Agent, make_agent
from ai.report import Report, check_entries, entry_labels, run_games, seat_agents
from rules.brazil import apply, deciders, final_scores, new_game
from rules.brazil.scoring import CATEGORIES
from rules.brazil.state import GameState


def play_game(
    agents: list[Agent],
    seed: int,
    *,
    max_rounds: int = 60,
    times: dict[str, list[float]] | None = None,
    keys: list[str] | None = None,
) -> GameState:
    """Play one game, seat ``i`` played by ``agents[i]``, until it ends or the round limit
    is passed. Each agent gets the full state and must decide from its own view; ``times``
    collects decision times by ``keys[seat]`` (default: the agent's name)."""
    state = new_game(len(agents), seed)
    while state.phase != "ended" and state.round <= max_rounds:
        who = deciders(state)
        seat = who[0]
        agent = agents[seat]
        t0 = time.perf_counter()
        action = agent.decide(state, seat)
        dt = time.perf_counter() - t0
        if times is not None:
            times[keys[seat] if keys else agent.name].append(dt)
        state, _ = apply(state, action)
    return state


def _report(names: list[str]) -> Report:
    return Report(labels=entry_labels(names), players=len(names), category_names=CATEGORIES)


def one_game(
    names: list[str],
    i: int,
    *,
    seed: int,
    max_rounds: int,
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
        salt="",
    )
    state = play_game(
        agents,
        rng.getrandbits(32),
        max_rounds=max_rounds,
        times=rep.times,
        keys=[names[k] for k in order],
    )
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
    return rep


def run_tournament(
    names: list[str],
    games: int,
    *,
    seed: int = 0,
    max_rounds: int = 60,
    budget: float | None = None,
    iterations: int | None = None,
    workers: int = 1,
    paired: bool = False,
) -> Report:
    """Play ``games`` games of ``len(names)`` players; game ``i`` rotates the line-up by
    ``i`` seats (``paired``: on the same deal within each group of ``len(names)`` games,
    :func:`ai.report.seating`). ``budget``/``iterations`` configure any search agents;
    ``workers``: processes the games are spread over (the figures do not depend on it)."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    check_entries(names, AGENT_NAMES)
    play = partial(
        one_game,
        list(names),
        seed=seed,
        max_rounds=max_rounds,
        budget=budget,
        iterations=iterations,
        paired=paired,
    )
    return run_games(play, games, workers=workers, base=_report(names))
