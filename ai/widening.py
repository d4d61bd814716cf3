"""Progressive widening: how many of its ranked candidates a search weighs after so many
rollouts, in every game's search (:mod:`ai.brazil.search`, :mod:`ai.tigris.search`).

A search ranks its legal actions by its heuristic and rolls out the best few. With only a
fixed few, more time buys more rollouts of the same candidates and nothing else: an action
the heuristic ranks sixth is never tried, however long the search runs. Widening lets the
candidate list grow with the rollouts played: up to the level's own rollouts (its effort at
``effort=1``) the search weighs its ``base`` candidates, exactly as before; past them the
list grows as the square root of the rollouts, so four times the rollouts weigh twice the
candidates (each still with about twice the rollouts), sixteen times four times as many.
The schedule depends only on the rollouts played, so a decision stays reproducible from its
seed; a search on the clock alone (no fixed rollouts) widens as its rollouts accumulate —
the longer it thinks, the more it weighs.
"""

from __future__ import annotations

import math


def width(rollouts: int, base: int, reference: int, available: int) -> int:
    """How many of ``available`` ranked candidates to weigh after ``rollouts`` rollouts:
    ``base`` up to ``reference`` rollouts (the level's own effort), then
    ``base * sqrt(rollouts / reference)``, never more than ``available`` nor fewer than one.

    >>> [width(n, 4, 96, 20) for n in (0, 96, 200, 384, 1536)]
    [4, 4, 5, 8, 16]
    """
    if rollouts <= reference or reference <= 0:
        return max(1, min(base, available))
    return max(1, min(available, math.floor(base * math.sqrt(rollouts / reference))))
