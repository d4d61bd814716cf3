"""The ``search`` player: determinized rollouts guided by the heuristic.

For each decision: the heuristic ranks the legal actions (on a placeholder fill of the seat's
view) and keeps the best few, more of them as the rollouts grow past the level's own
(progressive widening, :mod:`ai.widening`: the search grows stronger with time); then, for
:data:`ROLLOUTS` rollouts (the wall-clock budget only a cap), it picks a candidate by UCB1,
re-deals the hidden information of the *view* at random (:func:`redeal`, from
:mod:`rules.brazil.determinize`), plays the candidate and a short rollout in which every
seat follows a cheap heuristic policy, and scores the leaf with
:func:`ai.brazil.evaluate.evaluate`. The candidate with the best mean wins.

It never looks at the full state: the caller's state is turned into ``view(state, seat)``
first, and all sampling starts from that view.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ai import DEFAULT_BUDGET
from ai.brazil.agents import HeuristicAgent, action_value, ending_reveal, own_legal_actions
from ai.brazil.evaluate import evaluate
from ai.brazil.fill import placeholder_fill
from ai.widening import width
from rules.brazil import view
from rules.brazil.determinize import determinize
from rules.brazil.engine import apply, deciders, legal_actions
from rules.brazil.state import GameState

ROLLOUTS = 96
"""The search level's effort: rollouts a decision (deterministic given the seed), the
wall-clock budget (``ai.DEFAULT_BUDGET`` seconds) only a cap; what a decision costs at it is
printed by ``python -m devtools.aibench decisions``."""


def redeal(view_state: GameState, seat: int, rng: random.Random) -> GameState:
    """A full game state consistent with ``view_state`` (what ``seat`` sees), its hidden
    parts dealt at random with ``rng`` from what the seat cannot account for
    (:func:`rules.brazil.determinize.determinize`, which works from the seat's view only)."""
    return determinize(view_state, seat, rng)


class SearchAgent:
    """Determinized rollouts over the heuristic (see the module docstring).

    ``iterations``: rollouts a decision (default :data:`ROLLOUTS`: deterministic given the
    seed; None: as many as ``budget`` allows); ``budget``: the wall-clock cap of a decision in
    seconds (default 2); ``effort``: a factor on both (4: four times the default search);
    ``candidates``: how many of the heuristic's best
    actions are searched; ``horizon``: decisions played in each rollout; ``rollout_width``
    (``solo_rollout_width`` in the solo game): how many legal actions the rollout policy
    (the heuristic) looks at per decision; ``solo_candidates`` and ``solo_prior_weight``:
    the candidates and the prior weight of the solo game, where the heuristic's plan
    (:mod:`ai.brazil.solo`) is trusted more (measured at 4 iterations on the same 26 seeds: 16/26
    won against 12/26 with the multi-player 5 and 2.0). In the solo game every candidate is
    rolled out on the same deals with the same rollout draws (common random numbers:
    measured 40/80 won against 34/80 on the same seeds at 4 iterations)."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: float = DEFAULT_BUDGET,
        iterations: int | None = ROLLOUTS,
        effort: float = 1.0,
        candidates: int = 5,
        horizon: int = 10,
        rollout_width: int = 4,
        solo_rollout_width: int = 12,
        exploration: float = 3.0,
        prior_weight: float = 2.0,
        solo_candidates: int = 3,
        solo_prior_weight: float = 6.0,
    ) -> None:
        if budget <= 0:
            raise ValueError("the search budget must be positive")
        if effort <= 0:
            raise ValueError("the search effort must be positive")
        self.rng = random.Random(seed)
        # ``effort`` scales both the rollouts and the cap (4: four times the default search)
        self.budget = budget * effort
        self.iterations = None if iterations is None else max(1, round(iterations * effort))
        # the rollouts past which the candidates widen: the level's own (its effort at 1)
        self.reference = ROLLOUTS if iterations is None else max(1, iterations)
        self.capped = 0  # decisions the wall-clock cap cut short
        self.candidates = candidates
        self.horizon = horizon
        self.exploration = exploration
        self.prior_weight = prior_weight
        self.solo_candidates = solo_candidates
        self.solo_prior_weight = solo_prior_weight
        self.policy = HeuristicAgent(seed ^ 0x5EA5C4, max_candidates=rollout_width)
        # Solo (R-SOLO-2): few actions lead to the goals (a stack's move, the right recruit),
        # so rollouts look at more of them (measured: 5/8 wins against 3/8 with 4).
        self.solo_policy = HeuristicAgent(seed ^ 0x5010, max_candidates=solo_rollout_width)
        self.last_iterations = 0
        self.last_candidates = 0
        self.last_visits: list[int] = []

    def decide(self, state: GameState, seat: int) -> Any:
        deadline = time.perf_counter() + self.budget
        v = view(state, seat)
        acts = own_legal_actions(v, seat)
        if len(acts) == 1:
            return acts[0]
        ending = ending_reveal(v, acts)
        if ending is not None:
            return ending
        filled = placeholder_fill(v, seat)
        base = evaluate(filled, seat)
        ranked = sorted(
            ((action_value(filled, seat, a, base), i) for i, a in enumerate(acts)),
            key=lambda t: (-t[0], t[1]),
        )
        solo = v.solo
        base = self.solo_candidates if solo else self.candidates
        cands = [acts[i] for _, i in ranked[:base]]
        prior = [val for val, _ in ranked[:base]]
        if len(cands) == 1:
            return cands[0]
        total = [0.0] * len(cands)
        visits = [0] * len(cands)

        def widen() -> None:
            # progressive widening (:mod:`ai.widening`): the next ranked actions join
            for val, i in ranked[len(cands) : width(sum(visits), base, self.reference, len(acts))]:
                cands.append(acts[i])
                prior.append(val)
                total.append(0.0)
                visits.append(0)

        it = 0
        while solo:
            # The solo game: every candidate on the same deals with the same rollout policy
            # draws (common random numbers), so candidates are compared on equal luck; the
            # iterations (or the budget) count deals.
            if self.iterations is not None and sum(visits) >= self.iterations:
                break
            if it and time.perf_counter() >= deadline:
                self.capped += self.iterations is not None
                break
            widen()
            world = redeal(v, seat, self.rng)
            policy_seed = self.rng.getrandbits(32)
            for k, cand in enumerate(cands):
                self.solo_policy.rng.seed(policy_seed)
                total[k] += self._rollout(world, seat, cand)
                visits[k] += 1
            it += 1
        while not solo:
            if self.iterations is not None and it >= self.iterations:
                break
            if time.perf_counter() >= deadline:
                self.capped += self.iterations is not None
                break  # the cap: the ranking and any rollouts so far decide
            widen()
            k = self._select(total, visits, it)
            world = redeal(v, seat, self.rng)
            total[k] += self._rollout(world, seat, cands[k])
            visits[k] += 1
            it += 1
        self.last_iterations = sum(visits)  # rollouts played
        self.last_candidates = len(cands)  # weighed, after widening
        self.last_visits = visits
        # The heuristic's judgement counts as ``prior_weight`` rollouts: few samples refine
        # it rather than overrule it.
        # Priors are shifted onto the rollouts' scale (their mean onto the rollouts' mean).
        m = self.solo_prior_weight if solo else self.prior_weight
        shift = sum(total) / max(1, sum(visits)) - sum(prior) / len(prior)
        best = max(
            range(len(cands)),
            key=lambda k: ((total[k] + m * (prior[k] + shift)) / (visits[k] + m), -k),
        )
        return cands[best]

    def _select(self, total: list[float], visits: list[int], it: int) -> int:
        for k, n in enumerate(visits):
            if n == 0:
                return k
        logn = math.log(it)
        return max(
            range(len(total)),
            key=lambda k: total[k] / visits[k] + self.exploration * math.sqrt(logn / visits[k]),
        )

    def _rollout(self, world: GameState, seat: int, action: Any) -> float:
        try:
            st, _ = apply(world, action)
        except Exception:  # not playable in this deal (should not happen): a poor score
            return evaluate(world, seat) - 5.0
        for _ in range(self.horizon):
            if st.phase == "ended":
                break
            who = deciders(st)
            if not who:
                break
            d = who[0]
            acts = legal_actions(st, d)
            if not acts:
                break
            policy = self.solo_policy if st.solo else self.policy
            a = acts[0] if len(acts) == 1 else policy.choose(st, d, acts)
            st, _ = apply(st, a)
        return evaluate(st, seat)
