"""A readable transcript of a seeded random game: every action and the events it caused.

Golden transcripts in ``tests/rules/golden/`` are regenerated with
``python -m devtools.brazil transcript --players N --seed S --steps K > tests/rules/golden/FILE`` and
diffed by a test, so any change in behaviour shows up as a reviewable text diff.
"""

from __future__ import annotations

import random

from rules.brazil.engine import apply, legal_actions
from rules.brazil.setup import new_game


def transcript(players: int, seed: int, steps: int) -> str:
    rng = random.Random(seed)
    state = new_game(players, seed)
    lines = [f"# Brazil: Imperial, {players} players, map {state.map}, seed {seed}"]
    i = 0
    for i in range(1, steps + 1):
        if state.phase == "ended":
            break
        acts = legal_actions(state)
        action = rng.choice(acts)
        state, events = apply(state, action)
        lines.append(f"{i:4d} {action!r}   [{len(acts)} legal]")
        for e in events:
            who = "all" if e.visible_to is None else "seat " + ",".join(map(str, e.visible_to))
            lines.append(f"       {who:>7}: {e.text}")
    lines.append(f"# after {i} steps: phase {state.phase}, era {state.era}, round {state.round}")
    return "\n".join(lines) + "\n"
