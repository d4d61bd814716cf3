"""The Tigris & Euphrates computer players ``random`` and ``heuristic`` (``search`` is in
:mod:`ai.tigris.search`).

Every agent is given the full state by its caller but decides only from ``view(state,
seat)``: the heuristic plays its candidate actions on a determinization of that view (the
unseen tiles dealt at random by :func:`rules.tigris.determinize` with the agent's own seeded
random numbers), so nothing it computes depends on what the seat may not see.

No agent stalls a game. The heuristic judges every action as at the end of the turn (the
evaluation counts the monument points and the refill still due in the seat's own turn, which
the state after a pass already has), so it passes only when ending the turn now beats every
legal action by its own evaluation, the actions its candidate list leaves out included. And when the game stands
still (:func:`rules.tigris.stalled`: a whole round of turns without a tile drawn or a
treasure taken, which a player who wins by passing may cause), every agent places a tile or
swaps (:func:`progressing`): that draws from the bag, so a game of computer players always
reaches its natural end.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ai.tigris.evaluate import evaluate, support_amount
from rules.tigris import (
    Action,
    TigrisState,
    apply,
    deciders,
    determinize,
    legal_actions,
    stalled,
    view,
)
from rules.tigris.data import NEIGHBOURS
from rules.tigris.engine import label_regions
from rules.tigris.state import CATASTROPHE, DOWN, LEADER, UP


class NoDecision(RuntimeError):
    """The seat has nothing to decide in this state."""


def own_legal_actions(view_state: TigrisState, seat: int) -> list[Action]:
    """The seat's legal actions, listed from its view (the listing reads the board, the
    seat's own hand and the public counts only)."""
    who = deciders(view_state)
    if not who or who[0] != seat:
        raise NoDecision(f"seat {seat} has nothing to decide now")
    acts = legal_actions(view_state)
    if not acts:
        raise NoDecision(f"seat {seat} has nothing to decide now")
    return acts


PROGRESS = ("tile", "swap")
"""The main actions that draw from the bag (a placed tile is replaced at the turn's end)."""


def progressing(state: TigrisState, acts: list[Action]) -> list[Action]:
    """``acts``, or only those that move the game towards its end when it stands still
    (:func:`rules.tigris.stalled`, read from the view: public): a tile or a swap (all of
    ``acts`` if there is none)."""
    if state.pending or not stalled(state):
        return acts
    return [a for a in acts if a.kind in PROGRESS] or acts


class RandomAgent:
    """Uniformly random legal choices, from the seat's view, seeded."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, state: TigrisState, seat: int) -> Action:
        v = view(state, seat)
        acts = progressing(v, own_legal_actions(v, seat))
        return acts[self.rng.randrange(len(acts))]


def candidates(state: TigrisState, acts: list[Action]) -> list[Action]:
    """The main actions worth a look: tiles next to something on the board (a tile far from
    everything scores nothing and strengthens nobody), catastrophes on face-up tiles in or
    next to a kingdom (breaking one, T-CATASTROPHE-4, -5), a few swaps (the whole hand, one
    colour, all but the temples), every leader action and the pass."""
    cells = state.cells
    lab, regions = label_regions(cells)
    ruled = [any(cells[q] >= LEADER for q in r) for r in regions]
    attached = [
        any(UP <= cells[n] < CATASTROPHE or cells[n] >= LEADER for n in NEIGHBOURS[s])
        for s in range(len(cells))
    ]
    hand = state.players[state.active].hand
    swaps = {(hand[0], hand[1], hand[2], hand[3]), (hand[0], 0, hand[2], hand[3])}
    for c in range(4):
        t = [0, 0, 0, 0]
        t[c] = hand[c]
        swaps.add((t[0], t[1], t[2], t[3]))
    out = []
    for a in acts:
        k = a.kind
        if k == "tile":
            if attached[a.square]:
                out.append(a)
        elif k == "catastrophe":
            s = a.square
            v = cells[s]
            if UP <= v < DOWN and (
                (lab[s] >= 0 and ruled[lab[s]]) or any(cells[n] >= LEADER for n in NEIGHBOURS[s])
            ):
                out.append(a)
        elif k == "swap":
            if a.tiles in swaps:
                out.append(a)
        else:
            out.append(a)
    return out


def settle(state: TigrisState, max_steps: int = 16) -> TigrisState:
    """Play the decisions the last action left open (support in conflicts, the war order,
    the monument, the treasure) with simple policies: support by :func:`support_amount`,
    the first war, the first monument, the first treasure."""
    st = state
    for _ in range(max_steps):
        if st.phase == "over" or not st.pending:
            break
        p = st.pending[0]
        if p.kind == "support":
            a = Action("support", p.seat, amount=support_amount(st, p.seat))
        else:
            a = legal_actions(st)[0]
        st, _ = apply(st, a)
    return st


def outcome(world: TigrisState, seat: int, a: Action) -> tuple[float, bool]:
    """(value for ``seat`` of playing ``a`` on ``world`` and settling what follows, whether
    it started a conflict or a choice). A state in the seat's own turn is judged as at the
    turn's end (:func:`ai.tigris.evaluate.evaluate`), as the state after a pass is."""
    st, _ = apply(world, a)
    opened = bool(st.pending)
    if opened:
        st = settle(st)
    return evaluate(st, seat), opened


class HeuristicAgent:
    """One-ply look-ahead on a determinization of the seat's view: each candidate action
    (:func:`candidates`) is played, the conflict or choice it opens is settled, and the
    result judged by :func:`ai.tigris.evaluate.evaluate`; an action that opens a conflict is
    judged on ``samples`` deals (the defender's hidden tiles decide it). Support is committed
    by :func:`support_amount` (hypergeometric odds, from the view)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, *, samples: int = 3, max_candidates: int | None = None):
        self.rng = random.Random(seed)
        self.samples = samples
        self.max_candidates = max_candidates

    def decide(self, state: TigrisState, seat: int) -> Action:
        v = view(state, seat)
        acts = own_legal_actions(v, seat)
        if len(acts) == 1:
            return acts[0]
        p = v.pending[0] if v.pending else None
        if p is not None and p.kind == "support":
            return Action("support", seat, amount=support_amount(v, seat))
        world = determinize(v, seat, self.rng)
        return self.choose(world, seat, acts, lambda: determinize(v, seat, self.rng))

    def ranked(
        self,
        world: TigrisState,
        seat: int,
        acts: list[Action],
        redeal: Callable[[], TigrisState] | None = None,
    ) -> list[tuple[float, Action]]:
        """The candidates with their values, best first (``redeal()``: another deal for the
        actions that open a conflict). When the game stands still only actions that progress
        are ranked (:func:`progressing`). When passing comes first, the actions the
        candidate list left out are judged too: it stays first only if it beats them all
        (not for a rollout policy, ``max_candidates``, which looks at a sample)."""
        acts = progressing(world, acts)
        shortlist = acts
        if not world.pending:
            shortlist = candidates(world, acts) or acts
            if self.max_candidates is not None and len(shortlist) > self.max_candidates:
                shortlist = self.rng.sample(shortlist, self.max_candidates)
        out = self._judge(world, seat, shortlist, redeal)
        if out[0][1].kind == "pass" and self.max_candidates is None and len(shortlist) < len(acts):
            seen = set(shortlist)
            out += self._judge(world, seat, [a for a in acts if a not in seen], redeal)
            out.sort(key=lambda t: -t[0])
        return out

    def _judge(
        self,
        world: TigrisState,
        seat: int,
        acts: list[Action],
        redeal: Callable[[], TigrisState] | None,
    ) -> list[tuple[float, Action]]:
        out = []
        for a in acts:
            val, opened = outcome(world, seat, a)
            if opened and a.kind in ("tile", "leader") and redeal is not None:
                vals = [val]
                for _ in range(self.samples - 1):
                    vals.append(outcome(redeal(), seat, a)[0])
                val = sum(vals) / len(vals)
            out.append((val + 1e-6 * self.rng.random(), a))
        out.sort(key=lambda t: -t[0])
        return out

    def choose(
        self,
        world: TigrisState,
        seat: int,
        acts: list[Action],
        redeal: Callable[[], TigrisState] | None = None,
    ) -> Action:
        """The best of ``acts`` for ``seat`` on ``world`` (a full state: a deal)."""
        if world.pending and world.pending[0].kind == "support":
            return Action("support", seat, amount=support_amount(world, seat))
        return self.ranked(world, seat, acts, redeal)[0][1]
