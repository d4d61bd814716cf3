"""Issue 22, defect 2: every action ``legal_actions`` lists applies (``apply`` raises nothing),
on real states and on the worlds the search player re-deals from a seat's view
(:func:`rules.brazil.determinize`), along the search's own rollouts (:mod:`ai.brazil.search`: the
heuristic policy on a few candidates, or a random choice).

The crash seen (2 players, heuristic against search, seed 7013) was a rollout's
``commit_cards`` refused with "there is no battle (R-COMBAT-4)": a pending battle-card
decision without a battle. Skirmishes around the fog hexes of the test map, with units
standing on face-down exploration tiles (where a Retreat could leave them) and combat cards
in hand, reach that transition in a few seeds; whole seeded games check the rest."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.brazil.agents import HeuristicAgent
from rules.brazil import apply, deciders, legal_actions, new_game, view
from rules.brazil.catalog import get_catalog
from rules.brazil.determinize import determinize
from rules.brazil.state import Exploration, GameState
from rules.errors import RulesError
from tests.helpers import start, to_movement

pytestmark = pytest.mark.slow  # whole games and their rollouts (tests/README.md)

FOG = ("F3", "E5", "C7")  # the test map's fog hexes


def _no_card_decision_without_a_battle(st: GameState, where: str) -> None:
    # R-COMBAT-4: cards are chosen for a battle; no battle, no card decision
    for d in st.pending:
        assert d.kind != "combat_cards" or st.combat is not None, (where, st.pending)


def _all_listed_apply(st: GameState, seat: int, where: str) -> list[Any]:
    acts = legal_actions(st.clone(), seat)
    for a in acts:
        try:
            apply(st, a)
        except RulesError as e:  # pragma: no cover - the failure itself
            raise AssertionError(f"{where}: listed {a!r} refused: {e}") from e
    return acts


def _step(
    st: GameState, policy: HeuristicAgent, rng: random.Random, where: str
) -> GameState | None:
    """One decision: check every listed action, then play the policy's or a random one."""
    if st.phase == "ended":
        return None
    who = deciders(st)
    if not who:
        return None
    d = who[0]
    acts = _all_listed_apply(st, d, where)
    if not acts:
        return None
    if len(acts) == 1:
        a = acts[0]
    elif rng.random() < 0.6:
        a = policy.choose(st, d, acts)  # the search's rollout policy
    else:
        a = rng.choice(acts)
    new, _ = apply(st, a)
    _no_card_decision_without_a_battle(new, f"{where}, after {a!r}")
    return new


def _rollouts(st: GameState, policy: HeuristicAgent, rng: random.Random, where: str) -> None:
    """A world re-dealt from the decider's view and a short rollout on it (ai.brazil.search)."""
    who = deciders(st)
    if not who:
        return
    world: GameState | None = determinize(view(st, who[0]), who[0], rng)
    for j in range(8):
        if world is None:
            return
        world = _step(world, policy, rng, f"{where}, rollout step {j}")


def _skirmish(seed: int) -> GameState:
    """Seat 0's movement phase on the test map: both seats' units around the fog hexes
    (some standing on a face-down tile), face-down tiles on the fog, combat cards in hand."""
    rng = random.Random(seed)
    st = start()
    cat = get_catalog(st.data_pack)
    board = cat.boards[st.map]
    tiles = sorted(cat.exploration)
    rng.shuffle(tiles)
    bandeiras = [t for t in tiles if cat.exploration[t].kind == "bandeiras"]
    for h in FOG:
        st.exploration[h] = Exploration(tile=bandeiras.pop() if rng.random() < 0.6 else tiles.pop())
    st.exploration = {h: e for h, e in st.exploration.items()}
    used = {e.tile for e in st.exploration.values()}
    st.removed_exploration = [t for t in cat.exploration if t not in used]  # out of the game
    capitals = {p.capital for p in st.players}
    near = sorted({n for h in FOG for n in board.neighbours[h]} - capitals - set(FOG))
    for seat in (0, 1):
        p = st.players[seat]
        units = sorted(p.units)
        rng.shuffle(units)
        for u in units[: rng.randint(1, 3)]:
            on_fog = rng.random() < 0.25 and seat == 1
            p.units[u] = rng.choice(FOG) if on_fog else rng.choice(near)
        for _ in range(rng.randint(0, 3)):
            if st.combat_deck:
                p.combat_cards.append(st.combat_deck.pop(rng.randrange(len(st.combat_deck))))
    # seat 1's units on one hex each side only: no hex holds both seats' units
    for u, at in list(st.players[1].units.items()):
        if at in st.players[0].units.values():
            st.players[1].units[u] = "board"
    return to_movement(st, rng.choice(["build", "import", "painting", "recruit"]))


def test_listed_actions_apply_in_skirmishes_and_their_rollouts__R_COMBAT_4_R_EXPLORE_3() -> None:
    played = 0
    for seed in range(60):
        rng = random.Random(seed)
        policy = HeuristicAgent(seed, max_candidates=4)
        st: GameState | None = _skirmish(seed)
        for i in range(30):
            assert st is not None
            if i % 2 == 0:
                _rollouts(st, policy, rng, f"skirmish {seed} step {i}")
            st = _step(st, policy, rng, f"skirmish {seed} step {i}")
            if st is None:
                break
            played += 1
    assert played > 600


def test_listed_actions_apply_in_games_and_their_rollouts__R_TURN_6() -> None:
    # R-TURN-6: the engine always enumerates legal actions, and each one applies
    played = 0
    for seed in (7013, 7014, 7015):
        rng = random.Random(seed)
        policy = HeuristicAgent(seed, max_candidates=4)
        st: GameState | None = new_game(2, seed)
        for i in range(400):
            if st is None:
                break
            if i % 10 == 0:
                _rollouts(st, policy, rng, f"game {seed} step {i}")
            st = _step(st, policy, rng, f"game {seed} step {i}")
            played += 1
    assert played > 600
