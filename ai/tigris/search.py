"""The Tigris & Euphrates ``search`` player: determinized rollouts guided by the heuristic.

For each decision: the heuristic ranks the candidate actions on a determinization of the
seat's view and keeps the best few, more of them as the rollouts grow past the level's own
(progressive widening, :mod:`ai.widening`: the search grows stronger with time); then, for
:data:`ROLLOUTS` rollouts (the wall-clock budget only a cap), it deals the unseen tiles of
the *view* again at random (:func:`rules.tigris.determinize`), and on that deal plays every
kept candidate, settles the conflict it opens and plays a short rollout in which every seat
follows the heuristic over a few sampled candidates, with the same rollout draws for every
candidate (common random numbers: the candidates are compared on equal luck). The leaf is
scored by :func:`ai.tigris.evaluate.evaluate`; the heuristic's own judgement counts as
``prior_weight`` rollouts. It never looks at the full state.
"""

from __future__ import annotations

import random
import time

from ai import DEFAULT_BUDGET
from ai.tigris.agents import HeuristicAgent, own_legal_actions, settle
from ai.tigris.evaluate import evaluate, support_amount
from ai.widening import width
from rules.tigris import Action, TigrisState, apply, deciders, determinize, legal_actions, view

ROLLOUTS = 96
"""The search level's effort: rollouts a decision (deterministic given the seed), the
wall-clock budget (``ai.DEFAULT_BUDGET`` seconds) only a cap; what a decision costs at it is
printed by ``python -m devtools.aibench decisions``."""


class SearchAgent:
    """Determinized rollouts over the heuristic (see the module docstring).

    ``iterations``: rollouts a decision (default :data:`ROLLOUTS`: deterministic given the
    seed; None: as many as ``budget`` allows); ``budget``: the wall-clock cap of a decision in
    seconds (default 2); ``effort``: a factor on both (4: four times the default search);
    ``candidates``: how many of the heuristic's best
    actions are searched; ``horizon``: decisions played in each rollout after the candidate;
    ``rollout_width``: how many candidate actions the rollout policy looks at per decision."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: float = DEFAULT_BUDGET,
        iterations: int | None = ROLLOUTS,
        effort: float = 1.0,
        candidates: int = 4,
        horizon: int = 8,
        rollout_width: int = 6,
        prior_weight: float = 1.0,
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
        self.prior_weight = prior_weight
        self.ranker = HeuristicAgent(seed ^ 0x7161)
        self.policy = HeuristicAgent(seed ^ 0x5EA5C4, samples=1, max_candidates=rollout_width)
        self.last_iterations = 0
        self.last_candidates = 0

    def decide(self, state: TigrisState, seat: int) -> Action:
        deadline = time.perf_counter() + self.budget
        v = view(state, seat)
        acts = own_legal_actions(v, seat)
        if len(acts) == 1:
            return acts[0]
        if v.pending and v.pending[0].kind == "support":
            return Action("support", seat, amount=support_amount(v, seat))
        world = determinize(v, seat, self.ranker.rng)
        ranked = self.ranker.ranked(world, seat, acts, lambda: determinize(v, seat, self.rng))
        top = ranked[: self.candidates]
        if len(top) == 1:
            return top[0][1]
        cands = [a for _, a in top]
        prior = [val for val, _ in top]
        total = [0.0] * len(cands)
        visits = [0] * len(cands)
        deals = 0
        while True:
            if self.iterations is not None and sum(visits) >= self.iterations:
                break
            if deals and time.perf_counter() >= deadline:
                self.capped += self.iterations is not None
                break
            # progressive widening (:mod:`ai.widening`): the next ranked actions join
            for val, a in ranked[
                len(cands) : width(sum(visits), self.candidates, self.reference, len(ranked))
            ]:
                cands.append(a)
                prior.append(val)
                total.append(0.0)
                visits.append(0)
            deal = determinize(v, seat, self.rng)
            policy_seed = self.rng.getrandbits(32)
            for k, cand in enumerate(cands):
                self.policy.rng.seed(policy_seed)
                total[k] += self._rollout(deal, seat, cand)
                visits[k] += 1
            deals += 1
        self.last_iterations = sum(visits)
        self.last_candidates = len(cands)  # weighed, after widening
        m = self.prior_weight
        shift = sum(total) / max(1, sum(visits)) - sum(prior) / len(prior)
        best = max(
            range(len(cands)),
            key=lambda k: ((total[k] + m * (prior[k] + shift)) / (visits[k] + m), -k),
        )
        return cands[best]

    def _rollout(self, world: TigrisState, seat: int, action: Action) -> float:
        st, _ = apply(world, action)
        st = settle(st)
        for _ in range(self.horizon):
            if st.phase == "over":
                break
            d = deciders(st)[0]
            acts = legal_actions(st)
            a = acts[0] if len(acts) == 1 else self.policy.choose(st, d, acts)
            st, _ = apply(st, a)
        st = settle(st)
        return evaluate(st, seat)
