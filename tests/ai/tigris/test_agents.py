"""The Tigris & Euphrates computer players (``ai.tigris``): legal actions over whole games for
2, 3 and 4 players, decisions from the seat's view only (T-INFO-1, T-INFO-2), determinism for a
seed, a small statistical sanity check and the tournament command for ``--game tigris``."""

from __future__ import annotations

import random

import pytest

import ai
import ai.brazil
from ai.__main__ import main
from ai.tigris import HeuristicAgent, NoDecision, RandomAgent, SearchAgent, make_agent
from ai.tigris.evaluate import at_most, soft_score, support_amount
from ai.tigris.tournament import play_game, run_tournament
from rules.tigris import (
    TigrisState,
    apply,
    deciders,
    determinize,
    is_over,
    legal_actions,
    new_game,
    view,
)

Agent = RandomAgent | HeuristicAgent | SearchAgent


def cheap_search(seed: int) -> SearchAgent:
    return SearchAgent(seed, iterations=2, candidates=2, horizon=2, rollout_width=3)


def line_up(players: int, seed: int) -> list[Agent]:
    kinds: list[Agent] = [HeuristicAgent(seed), cheap_search(seed + 1), RandomAgent(seed + 2)]
    return [kinds[i % 3] if i < 3 else RandomAgent(seed + i) for i in range(players)]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_agent_plays_only_legal_actions_over_a_whole_game(players: int) -> None:
    """T-TURN-5: the decider's action is one of the legal ones, every step to the end."""
    agents = line_up(players, 40 + players)
    state = new_game(players, seed=players)
    kinds: set[str] = set()
    for _ in range(3000):
        if is_over(state):
            break
        seat = deciders(state)[0]
        action = agents[seat].decide(state, seat)
        assert action in legal_actions(state), (agents[seat].name, action)
        if state.pending:
            kinds.add(state.pending[0].kind)
        state, _ = apply(state, action)
    assert is_over(state)  # T-END-1 / T-END-2: a natural end
    assert "support" in kinds  # the agents met a conflict on the way


def mid_game_states(players: int, seed: int, steps: int) -> list[TigrisState]:
    """States of a heuristic-vs-random game, every few steps, with some conflicts among them."""
    agents: list[Agent] = [HeuristicAgent(seed)] + [
        RandomAgent(seed + i) for i in range(1, players)
    ]
    state = new_game(players, seed=seed)
    out = []
    for i in range(steps):
        if is_over(state):
            break
        if i % 7 == 3 or state.pending:
            out.append(state)
        seat = deciders(state)[0]
        state, _ = apply(state, agents[seat].decide(state, seat))
    return out


def hidden_twin(state: TigrisState, seat: int, rng: random.Random) -> TigrisState:
    """The same game as the seat sees it, everything it cannot see dealt anew: the other
    hands, the bag, the swap discards, the random seed and the others' hidden points."""
    twin = determinize(view(state, seat), seat, rng)
    twin.rng.counter = state.rng.counter
    for k, p in enumerate(twin.players):
        if k != seat:
            p.score = [rng.randrange(9) for _ in range(4)]
            p.treasures = rng.randrange(3)
    assert view(twin, seat) == view(state, seat)
    return twin


@pytest.mark.slow
@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_agents_decide_from_the_view_only(name: str) -> None:
    """T-INFO-1, T-INFO-2: states differing only in what the seat cannot see (other hands,
    the bag, hidden points) get the same decision from an agent with the same seed."""
    rng = random.Random(5)
    states = mid_game_states(3, seed=12, steps=80)[::3]
    assert states
    opts = {"iterations": 2, "candidates": 2, "horizon": 2} if name == "search" else {}
    for state in states:
        seat = deciders(state)[0]
        twin = hidden_twin(state, seat, rng)
        assert twin.players != state.players or twin.bag != state.bag
        a = make_agent(name, seed=3, **opts).decide(state, seat)
        b = make_agent(name, seed=3, **opts).decide(twin, seat)
        assert a == b


@pytest.mark.slow
def test_agents_are_deterministic_for_a_seed() -> None:
    for players in (2, 4):
        runs = []
        for _ in range(2):
            agents = line_up(players, 7)
            state = new_game(players, seed=21)
            actions = []
            for _ in range(40):
                seat = deciders(state)[0]
                a = agents[seat].decide(state, seat)
                actions.append(a)
                state, _ = apply(state, a)
            runs.append(actions)
        assert runs[0] == runs[1]


def test_an_agent_with_nothing_to_decide_says_so() -> None:
    state = new_game(2, seed=1)
    for agent in (RandomAgent(), HeuristicAgent(), cheap_search(0)):
        with pytest.raises(NoDecision):
            agent.decide(state, 1)


def test_search_with_a_time_budget_returns_a_legal_action() -> None:
    state = mid_game_states(2, seed=4, steps=30)[-1]
    seat = deciders(state)[0]
    agent = SearchAgent(1, budget=0.05, horizon=2)
    assert agent.decide(state, seat) in legal_actions(state)


@pytest.mark.slow
def test_heuristic_beats_random() -> None:
    """A seeded handful of 2-player games: the heuristic wins them all."""
    rep = run_tournament(["heuristic", "random"], 3, seed=8)
    assert rep.wins["heuristic"] == 3
    assert min(rep.totals["heuristic"]) > max(rep.totals["random"])


@pytest.mark.slow
def test_support_follows_the_odds() -> None:
    """T-CONFLICT-3, T-REVOLT-3: the hypergeometric odds, and a defender commits just what
    holds (ties go to the defender) — or nothing when it cannot hold."""
    assert at_most(-1, 10, 50, 6) == 0.0
    assert at_most(6, 10, 50, 6) == pytest.approx(1.0)
    assert 0.0 < at_most(1, 20, 50, 6) < at_most(2, 20, 50, 6) < 1.0
    checked = 0
    for state in mid_game_states(3, seed=12, steps=200):
        c = state.conflict
        if c is None or c.attacker_commit < 0:
            continue
        seat = c.defender
        have = state.players[seat].hand[c.colour]
        need = c.attacker_base + c.attacker_commit - c.defender_base
        k = support_amount(state, seat)
        assert k in (0, max(0, need))
        if need > have:
            assert k == 0
        checked += 1
    assert checked


def test_soft_score_prefers_the_weakest_colour() -> None:
    """T-FINAL-2, T-FINAL-3: a VP in the weakest colour is worth more; a treasure is as good
    as a VP in the weakest colour."""
    base = soft_score([5, 2, 5, 5], 0)
    assert soft_score([5, 3, 5, 5], 0) - base > soft_score([6, 2, 5, 5], 0) - base > 0
    assert soft_score([5, 2, 5, 5], 1) == pytest.approx(soft_score([5, 3, 5, 5], 0))


def test_make_agent_picks_the_game() -> None:
    assert isinstance(ai.make_agent("heuristic", seed=1, game="tigris"), HeuristicAgent)
    assert isinstance(ai.make_agent("search", game="tigris", iterations=3), SearchAgent)
    assert isinstance(ai.make_agent("heuristic"), ai.brazil.HeuristicAgent)  # Brazil by default
    with pytest.raises(ValueError):
        ai.make_agent("random", game="chess")
    with pytest.raises(ValueError):
        ai.make_agent("oracle", game="tigris")


@pytest.mark.slow
def test_play_game_records_decision_times() -> None:
    times: dict[str, list[float]] = {}
    times.setdefault("random", [])
    state = play_game([RandomAgent(1), RandomAgent(2)], seed=3, times=times)
    assert is_over(state)
    assert len(times["random"]) > 50


@pytest.mark.slow
def test_tournament_cli_for_tigris(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "tournament",
            "--game",
            "tigris",
            "--games",
            "2",
            "--players",
            "2",
            "--agents",
            "random,random",
            "--seed",
            "3",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "2 games, 2 players" in out
    for word in ("random#1", "95% interval", "treasures", "natural end: 2/2", "median", "p95"):
        assert word in out


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "tigris", "--games", "1", "--players", "1", "--agents", "random"],
        ["--game", "chess", "--games", "1", "--players", "2", "--agents", "random,random"],
        ["--game", "tigris", "--games", "1", "--players", "2", "--agents", "random,oracle"],
    ],
)
def test_tigris_tournament_refuses_bad_arguments(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["tournament", *args])
    assert e.value.code == 2
    assert "error" in capsys.readouterr().err
