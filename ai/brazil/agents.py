"""The computer players: ``random`` and ``heuristic`` (``search`` is in :mod:`ai.brazil.search`).

Every agent is given the full state by its caller but decides only from ``view(state,
seat)``: nothing it computes can depend on what that seat may not see.
"""

from __future__ import annotations

import random
from typing import Any

from ai.brazil.evaluate import (
    battle_margin,
    catalog_for,
    combat_card_value,
    evaluate,
    gold_card_value,
    opponent_scores,
    overdue,
    win_probability,
)
from ai.brazil.fill import placeholder_fill
from rules.brazil import actions as A
from rules.brazil import legal_actions, view
from rules.brazil.engine import apply
from rules.brazil.state import GameState
from rules.errors import RulesError


class NoDecision(RuntimeError):
    """The seat has nothing to decide in this state."""


def own_legal_actions(view_state: GameState, seat: int) -> list[Any]:
    """The seat's legal actions, listed from its view (on a copy: the listing must not touch
    the caller's object)."""
    acts = legal_actions(view_state.clone(), seat)
    if not acts:
        raise NoDecision(f"seat {seat} has nothing to decide now")
    return acts


def ending_reveal(state: GameState, acts: list[Any]) -> Any | None:
    """In an overdue game (:func:`ai.brazil.evaluate.overdue`), the reveal of a completed era
    III mission among ``acts``, which every level then plays at once (R-END-1: it ends the
    game). Before, a player behind may hold a completed mission back to catch up; past round
    60 of era III, all-AI games where the one who could end it trailed played on for ever
    (issue 33: 4 of the first 13 seeded 2-player games of the normal level)."""
    if not overdue(state):
        return None
    cat = catalog_for(state.data_pack)
    for a in acts:
        if isinstance(a, A.RevealMission) and cat.missions[a.mission].era == 3:
            return a
    return None


class RandomAgent:
    """Uniformly random legal choices, from the seat's view, seeded — except that a completed
    mission is revealed as soon as it may be (R-TURN-5, R-MISSION-1): the game ends only when
    an era III mission is revealed (R-END-1), and players who never chose to reveal one played
    on for ever (7 of 800 seeded all-random games before this, issue 33)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.progress = HeuristicAgent(seed ^ 0x9E0)

    def decide(self, state: GameState, seat: int) -> Any:
        v = view(state, seat)
        acts = own_legal_actions(v, seat)
        for a in acts:
            if isinstance(a, A.RevealMission):
                return a
        if len(acts) > 1 and overdue(v):
            return self.progress.decide(v, seat)
        return acts[self.rng.randrange(len(acts))]


class HeuristicAgent:
    """One-ply look-ahead: apply each legal action to a placeholder-filled copy of the
    seat's view and keep the one whose result :func:`ai.brazil.evaluate.evaluate` likes best;
    battles are judged by their FP odds, card choices by the FP they add."""

    name = "heuristic"

    def __init__(self, seed: int = 0, *, max_candidates: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.max_candidates = max_candidates

    def decide(self, state: GameState, seat: int) -> Any:
        v = view(state, seat)
        acts = own_legal_actions(v, seat)
        if len(acts) == 1:
            return acts[0]
        return self.choose(placeholder_fill(v, seat), seat, acts)

    def choose(self, state: GameState, seat: int, acts: list[Any]) -> Any:
        """The best of ``acts`` for ``seat`` on ``state`` (a filled view or a sample); in an
        overdue game the ending reveal first (:func:`ending_reveal`)."""
        ending = ending_reveal(state, acts)
        if ending is not None:
            return ending
        if self.max_candidates is not None and len(acts) > self.max_candidates:
            keep = [a for a in acts if a.type in _ALWAYS_CONSIDER]
            rest = [a for a in acts if a.type not in _ALWAYS_CONSIDER]
            k = max(0, self.max_candidates - len(keep))
            acts = keep + self.rng.sample(rest, min(k, len(rest)))
        others = None if state.solo else opponent_scores(state, seat)
        base = evaluate(state, seat, others)
        best: Any = None
        best_v = float("-inf")
        for a in acts:
            val = action_value(state, seat, a, base, others) + 1e-3 * self.rng.random()
            if val > best_v:
                best, best_v = a, val
        return best


_ALWAYS_CONSIDER = {"reveal_mission", "end_turn", "end_trade", "pass_action"}


# Actions after which the opponents' public scores may change (battles, occupation).
_MAY_HURT_OTHERS = {"move", "bombard", "expedition", "commit_cards", "retreat_to", "keep_unit"}


def action_value(
    state: GameState, seat: int, a: Any, base: float, others: list[float] | None = None
) -> float:
    """The heuristic value of taking ``a`` now (VP-like units). ``others``: the
    opponents' public scores in ``state``, reused when ``a`` cannot change them."""
    cat = catalog_for(state.data_pack)
    if isinstance(a, A.CommitCards):
        return base + _commit_value(state, seat, a)
    if isinstance(a, A.KeepMissions):
        # Prefer missions with fewer things to gather (all progress is zero at setup). Solo
        # (R-SOLO-2): units on the map are needed anyway, so unit objectives come cheap, and
        # only the era I and II missions must be completed.
        need = 0.0
        for m in a.keep:
            mission = cat.missions[m]
            if state.solo and mission.era == 3:
                continue
            for ob in mission.objectives:
                cheap = state.solo and ob.kind in ("units_deployed", "units_on_map")
                need += ob.count * (0.15 if cheap else 1.0)
        return base - 0.3 * need
    if isinstance(a, A.DiscardCards):
        worth = gold_card_value if a.deck == "gold" else combat_card_value
        return base - sum(worth(cat, c) for c in a.cards)
    if isinstance(a, A.WarCard):
        return base + (0.5 if a.play else 0.0)
    try:
        new, _ = apply(state, a)
    except (RulesError, KeyError):  # not playable on the filled view: judge it neutral
        return base - 0.5
    reuse = others if a.type not in _MAY_HURT_OTHERS and new.combat is None else None
    v = evaluate(new, seat, reuse)
    b = new.combat
    if b is not None and (state.combat is None or b.hex != state.combat.hex):
        v += _battle_outlook(new, seat)
    if isinstance(a, A.RevealMission):
        v += 2.0  # reveal when possible: eras advance and the game reaches its end
    return v


def _stake(state: GameState, seat: int) -> tuple[float, float]:
    """(gain if ``seat`` wins, loss if it loses) in the battle of ``state``."""
    b = state.combat
    assert b is not None
    from ai.brazil.evaluate import OPPONENT_WEIGHT
    from rules.brazil.scoring import tile_vp

    if b.kind == "bandeiras":
        return 3.0, 0.2
    t = state.tiles.get(b.hex)
    tile = float(tile_vp(state, b.hex)) if t is not None and t.kind != "capital" else 0.0
    mine = b.attacker if b.attacker.seat == seat else b.defender
    units = float(len(mine.units)) if mine is not None else 0.0
    if b.attacker.seat != seat:  # defending: losing gives the tile away
        return 0.5, (1 + OPPONENT_WEIGHT) * tile + 0.8 * units + 0.5
    gain = (1 + OPPONENT_WEIGHT) * tile + 1.0
    if state.solo and b.defender is not None and b.defender.seat < 0:
        gain += 3.0 * len(b.defender.units)  # R-SOLO-2: the army guarding the capital
        if b.kind == "move" and t is not None and t.kind == "capital":
            gain += 15.0
        return gain, 3.0 * units + 1.0  # a lost unit must be recruited again
    return gain, 0.8 * units + 0.5


def _battle_outlook(state: GameState, seat: int) -> float:
    """Value of having started the battle in ``state`` (before the card choices)."""
    margin = battle_margin(state, seat)
    if margin is None:
        return 0.0
    hand = state.players[seat].combat_cards
    margin += 1.2 * min(3, len(hand))
    p = win_probability(margin)
    gain, loss = _stake(state, seat)
    return p * gain - (1 - p) * loss - 0.4 * min(3, len(hand)) * (1 if p > 0.5 else 0.5)


def _commit_value(state: GameState, seat: int, a: A.CommitCards) -> float:
    b = state.combat
    if b is None:
        return 0.0
    side = b.attacker if b.attacker.seat == seat else b.defender
    if side is None:
        return 0.0
    from ai.brazil.evaluate import card_fp

    role = "attacker" if side is b.attacker else "defender"
    margin = battle_margin(state, seat)
    if margin is None:
        return 0.0
    cat = catalog_for(state.data_pack)
    fp = sum(card_fp(state, b, side, role, c) for c in a.cards) + len(a.camp)
    special = 0.0
    for c in a.cards:
        eff = cat.combat_cards[c].effect if c in cat.combat_cards else ""
        if eff == "parley" and role == "defender":
            special += 1.5  # ends the battle with nobody losing
        if eff == "retreat":
            special += 0.5
    p = win_probability(margin + fp)
    gain, loss = _stake(state, seat)
    cost = sum(combat_card_value(cat, c) for c in a.cards) + 0.7 * len(a.camp)
    return p * gain - (1 - p) * loss - cost + special * (1 - p)
