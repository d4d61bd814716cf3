"""The engines' speed loop: seeded random self-play through the games' face, every step
listing every legal action of the seat that decides, then applying one of them (the checked
apply). Figures are CPU time of this process (:func:`time.process_time`), so they stay
comparable on a machine shared with other work.

This file imports nothing of the project but :mod:`rules.games`, which every commit since the
face has: ``python -m devtools.aibench engines --against REF`` runs this very file against an
older checkout (``PYTHONPATH`` pointing at it), so before and after are measured in one run,
turn about.
"""

from __future__ import annotations

import json
import random
import sys
import time


def selfplay_rate(name: str, players: int, seconds: float, seed: int = 1) -> dict[str, float]:
    """Random self-play of ``name`` at ``players`` for at least ``seconds`` of CPU time, games
    after games from ``seed``: steps (actions applied) and listed actions per CPU second."""
    from rules.games import game

    g = game(name)
    steps = listed = games = 0
    spent = 0.0
    s = seed
    while spent < seconds:
        rng = random.Random(s)
        t0 = time.process_time()
        state = g.new_game(players, seed=s)
        n = 0
        while not g.is_over(state) and n < 3000:
            seat = g.deciders(state)[0]
            acts = g.legal_actions(state, seat)
            listed += len(acts)
            state, _ = g.apply(state, rng.choice(acts))
            n += 1
        spent += time.process_time() - t0
        steps += n
        games += 1
        s += 1
    return {"steps_per_s": steps / spent, "listed_per_s": listed / spent, "games": games}


if __name__ == "__main__":
    # ``python engine_loop.py GAME PLAYERS SECONDS [SEED]``: one JSON line of figures
    out = selfplay_rate(
        sys.argv[1],
        int(sys.argv[2]),
        float(sys.argv[3]),
        int(sys.argv[4]) if len(sys.argv) > 4 else 1,
    )
    print(json.dumps(out))
