"""Kuhn poker's computer players: ``make_agent(level, seed=0, **options)`` — ``random``,
``heuristic`` and ``search`` — whose ``decide(state, seat)`` returns a legal action for
``seat``, decided from ``view(state, seat)`` only (the caller passes the full state).

- ``random``: a uniformly random legal action, seeded.
- ``heuristic``: bets and calls with the King; with the Jack checks and folds to a bet; with
  the Queen checks and calls a bet one time in three (:func:`policy`).
- ``search``: the exact expected chips of each legal action over the other player's two
  possible cards (weighted by how likely its decisions so far are with each), that player
  following :func:`policy` and this one choosing its best later decision (a hand has at most
  three decisions: the whole tree is a few dozen states).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from examples.kuhn.actions import Action
from examples.kuhn.engine import apply, deciders, legal_actions, legal_kinds
from examples.kuhn.state import CARDS, KuhnState, Rng
from examples.kuhn.view import view

JACK, QUEEN, KING = range(len(CARDS))
QUEEN_CALLS = 1 / 3
"""How often the heuristic's Queen calls a bet."""
LEVELS: tuple[str, ...] = ("random", "heuristic", "search")


class NoDecision(RuntimeError):
    """The seat has nothing to decide in this state."""


class Agent(Protocol):
    name: str

    def decide(self, state: KuhnState, seat: int) -> Action: ...


def own_legal_actions(v: KuhnState, seat: int) -> list[Action]:
    if deciders(v) != [seat]:
        raise NoDecision(f"seat {seat} has nothing to decide now")
    return legal_actions(v)


def card_policy(card: int, kinds: tuple[str, ...]) -> dict[str, float]:
    """The heuristic's probability of each decision in ``kinds`` holding ``card``."""
    if "check" in kinds:  # K-BET-1, K-BET-2
        return {"bet": 1.0, "check": 0.0} if card == KING else {"check": 1.0, "bet": 0.0}
    if card == KING:  # K-BET-3
        return {"call": 1.0, "fold": 0.0}
    if card == QUEEN:
        return {"call": QUEEN_CALLS, "fold": 1.0 - QUEEN_CALLS}
    return {"fold": 1.0, "call": 0.0}


def policy(state: KuhnState, seat: int) -> dict[str, float]:
    """The heuristic's probability of each legal decision of ``seat`` holding its card."""
    return card_policy(state.players[seat].card, legal_kinds(state))


def likelihood(state: KuhnState, seat: int, card: int) -> float:
    """How likely ``seat``'s decisions so far in this hand are, were it holding ``card`` and
    following :func:`policy` (the search's belief about the other player's card)."""
    p = 1.0
    for i, kind in enumerate(state.history):
        actor = state.first if i % 2 == 0 else 1 - state.first
        if actor == seat:
            kinds = ("check", "bet") if state.history[:i] in ([], ["check"]) else ("call", "fold")
            p *= card_policy(card, kinds).get(kind, 0.0)
    return p


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, state: KuhnState, seat: int) -> Action:
        acts = own_legal_actions(view(state, seat), seat)
        return acts[self.rng.randrange(len(acts))]


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, state: KuhnState, seat: int) -> Action:
        v = view(state, seat)
        acts = own_legal_actions(v, seat)
        probs = policy(v, seat)
        weights = [probs.get(a.kind, 0.0) for a in acts]
        return self.rng.choices(acts, weights=weights)[0]


def _result(after: KuhnState, seat: int, start_chips: int, hand: int) -> float | None:
    """``seat``'s chips won or lost in hand ``hand`` once it is over in ``after`` (None: it
    goes on). The next hand's ante (K-DEAL-1) is not this hand's: it is added back."""
    if after.phase == "over":
        return float(after.players[seat].chips - start_chips)
    if after.hand != hand:
        return float(after.players[seat].chips + 1 - start_chips)
    return None


def hand_value(state: KuhnState, seat: int, start_chips: int) -> float:
    """``seat``'s expected chips won or lost in the hand being played, from ``state`` (a
    full state, the hand not over), ``start_chips`` its stack when it decided: the other
    player follows :func:`policy`, ``seat`` plays its best."""
    values: dict[str, float] = {}
    for a in legal_actions(state):
        after, _ = apply(state, a)
        done = _result(after, seat, start_chips, state.hand)
        values[a.kind] = hand_value(after, seat, start_chips) if done is None else done
    if state.to_act == seat:
        return max(values.values())
    probs = policy(state, state.to_act)
    return sum(probs.get(k, 0.0) * x for k, x in values.items())


def action_values(state: KuhnState, seat: int) -> dict[str, float]:
    """The expected chips won or lost in this hand by each legal decision of ``seat``, from
    its view, averaged over the other player's possible cards weighted by how likely that
    player's decisions so far are with each (:func:`likelihood`; equal weights when no
    card explains them)."""
    v = view(state, seat)
    acts = own_legal_actions(v, seat)
    own = v.players[seat].card
    unseen = [c for c in range(len(CARDS)) if c != own]
    start = v.players[seat].chips
    weights = [likelihood(v, 1 - seat, c) for c in unseen]
    if sum(weights) <= 0.0:
        weights = [1.0] * len(unseen)
    out: dict[str, float] = {}
    for a in acts:
        total = 0.0
        for c, w in zip(unseen, weights, strict=True):
            full = v.clone()
            full.players[1 - seat].card = c
            full.players[1 - seat].hidden = False
            full.rng = Rng(seed=0)  # the next hand's deal does not count here
            full.view_of = -1
            after, _ = apply(full, a)
            done = _result(after, seat, start, v.hand)
            total += w * (hand_value(after, seat, start) if done is None else done)
        out[a.kind] = total / sum(weights)
    return out


class SearchAgent:
    name = "search"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, state: KuhnState, seat: int) -> Action:
        values = action_values(state, seat)
        best = max(values.values())
        kinds = [k for k, x in values.items() if abs(x - best) < 1e-9]
        return Action(kinds[self.rng.randrange(len(kinds))], seat)


def make_agent(level: str, seed: int = 0, **options: Any) -> Agent:
    """A computer player of ``level`` (:data:`LEVELS`); no options are taken."""
    if options:
        raise TypeError(f"Kuhn poker's agents take no options: {', '.join(sorted(options))}")
    if level == "random":
        return RandomAgent(seed)
    if level == "heuristic":
        return HeuristicAgent(seed)
    if level == "search":
        return SearchAgent(seed)
    raise ValueError(f"unknown agent {level!r}: choose from {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "Agent",
    "HeuristicAgent",
    "NoDecision",
    "RandomAgent",
    "SearchAgent",
    "action_values",
    "make_agent",
    "policy",
]
