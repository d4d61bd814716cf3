"""Seeded random self-play with invariant checks after every step, and a benchmark.

``play_game(players, seed, check=True)`` plays one game with uniformly random legal actions and,
after every step, checks: tile conservation (board + hands + bag + discards + removed = the
component counts, T-COMP-1); no kingdom holds two leaders of one colour outside conflict
resolution (T-VOC-6, T-CONFLICT-2); listing the actions changes nothing; every view leaks
nothing (its redacted fields are blank, and dealing the unseen back gives the same view); the
JSON round trip; the notation round trip of (a sample of) the legal actions. At the end the
game is replayed from its seed and actions and must give the same state.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from rules.tigris.actions import Action
from rules.tigris.data import TILE_COUNTS
from rules.tigris.engine import apply, is_over, label_regions, legal_actions, new_game
from rules.tigris.notation import format_action, parse_text
from rules.tigris.state import LEADER, TigrisState
from rules.tigris.view import board_tiles, determinize, view


class InvariantError(AssertionError):
    pass


@dataclass
class GameResult:
    players: int
    seed: int
    steps: int
    natural_end: bool
    end_reason: str
    actions: list[Action] = field(default_factory=list)


def check_conservation(s: TigrisState) -> None:
    on_board = board_tiles(s)
    for c in range(4):
        total = (
            on_board[c]
            + sum(p.hand[c] for p in s.players)
            + s.bag[c]
            + s.discarded[c]
            + s.removed[c]
        )
        if total != TILE_COUNTS[c]:
            raise InvariantError(f"colour {c}: {total} tiles, not {TILE_COUNTS[c]}")
    if s.bag_size != sum(s.bag) or s.discarded_size != sum(s.discarded):
        raise InvariantError("bag or discard size out of step")
    for i, p in enumerate(s.players):
        if p.hand_size != sum(p.hand) or min(p.hand) < 0:
            raise InvariantError(f"seat {i}: hand size out of step")
        for c, q in enumerate(p.leaders):
            if q >= 0 and s.cells[q] != LEADER + 4 * i + c:
                raise InvariantError(f"seat {i}: leader {c} not on its square")


def check_leaders(s: TigrisState) -> None:
    """T-VOC-6: outside conflict resolution no kingdom holds two leaders of one colour."""
    if s.stage in ("war", "revolt"):
        return
    lab, _regions = label_regions(s.cells)
    seen: set[tuple[int, int]] = set()
    for q, v in enumerate(s.cells):
        if v >= LEADER:
            key = (lab[q], (v - LEADER) & 3)
            if key in seen:
                raise InvariantError(f"two leaders of colour {key[1]} in one kingdom")
            seen.add(key)


def check_view(s: TigrisState, seat: int | None, rng: random.Random) -> None:
    v = view(s, seat)
    if v.rng.seed != 0 or any(v.bag) or any(v.discarded):
        raise InvariantError("the view shows the bag, the discards or the seed")
    for i, p in enumerate(v.players):
        if i != seat and (any(p.hand) or not p.hidden):
            raise InvariantError(f"the view of {seat} shows seat {i}'s hand")
        if i != seat and not s.options.open_scoring and (any(p.score) or p.treasures):
            raise InvariantError(f"the view of {seat} shows seat {i}'s points")
    if seat is not None:
        d = determinize(v, seat, rng)
        check_conservation(d)
        again = view(d, seat)
        again.rng = v.rng
        if again != v:
            raise InvariantError("dealing the unseen back changed what the seat sees")


def play_game(
    players: int, seed: int, check: bool = True, notation_sample: int = 12, max_steps: int = 5000
) -> GameResult:
    rng = random.Random(seed * 7919 + players)
    s = new_game(players=players, seed=seed)
    actions: list[Action] = []
    while not is_over(s) and len(actions) < max_steps:
        if check:
            before = s.model_dump_json()
        acts = legal_actions(s)
        if check:
            if s.model_dump_json() != before:
                raise InvariantError("listing the actions changed the state")
            sample = acts if len(acts) <= notation_sample else rng.sample(acts, notation_sample)
            for a in sample:
                if parse_text(format_action(a), s) != a:
                    raise InvariantError(f"notation round trip: {a}")
        a = rng.choice(acts)
        s, _ = apply(s, a)
        actions.append(a)
        if check:
            check_conservation(s)
            check_leaders(s)
            if TigrisState.model_validate_json(s.model_dump_json()) != s:
                raise InvariantError("JSON round trip")
            for seat in [*range(players), None]:
                check_view(s, seat, rng)
    if check:
        r = new_game(players=players, seed=seed)
        for a in actions:
            r, _ = apply(r, a)
        if r != s:
            raise InvariantError("replay differs")
    return GameResult(players, seed, len(actions), is_over(s), s.end_reason, actions)


def bench(seconds: float = 5.0, players: int = 3, seed: int = 1) -> tuple[int, float]:
    """Random self-play (listing + choosing + applying) for about ``seconds``: (actions,
    actions per second)."""
    n = 0
    start = time.perf_counter()
    g = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed + g)
        s = new_game(players=players, seed=seed + g)
        while not is_over(s):
            s, _ = apply(s, rng.choice(legal_actions(s)))
            n += 1
        g += 1
    elapsed = time.perf_counter() - start
    return n, n / elapsed
