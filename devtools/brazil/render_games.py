"""Seeded self-played games for the demo, the bench and the tests (random legal actions)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.brazil import apply, legal_actions, new_game
from rules.brazil.events import Event
from rules.brazil.state import GameState


@dataclass
class Snapshot:
    """The full state after one turn's actions and the events of that turn."""

    state: GameState
    events: list[Event]
    step: int


def play(
    players: int, seed: int, map_id: str | None = None, max_steps: int = 5000
) -> list[Snapshot]:
    """Play a random game; one snapshot per turn (events accumulate until the turn changes)."""
    rng = random.Random(seed)
    s = new_game(players=players, seed=seed, map_id=map_id)
    out: list[Snapshot] = []
    turn_events: list[Event] = []
    for step in range(max_steps):
        if s.phase == "ended":
            break
        acts = legal_actions(s)
        s, evs = apply(s, rng.choice(acts))
        turn_events.extend(evs)
        if any(e.kind in ("turn", "game_over") for e in evs):
            out.append(Snapshot(s, turn_events, step))
            turn_events = []
    if turn_events:
        out.append(Snapshot(s, turn_events, max_steps))
    return out


def at_round(snaps: list[Snapshot], rnd: int) -> Snapshot:
    """The first snapshot in round ``rnd`` (or the last one)."""
    for sn in snaps:
        if sn.state.phase == "play" and sn.state.round >= rnd:
            return sn
    return snaps[-1]


def with_event(snaps: list[Snapshot], kind: str, after: int = 0) -> Snapshot | None:
    for sn in snaps[after:]:
        if any(e.kind == kind for e in sn.events):
            return sn
    return None
