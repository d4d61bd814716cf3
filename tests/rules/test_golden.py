"""Golden playthroughs: a seeded random game's actions and events, diffed against files.

A failing diff means the engine's behaviour or wording changed. If the change is intended,
regenerate with the command in each file's test and review the diff like any other change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from devtools.brazil.transcript import transcript

GOLDEN = Path(__file__).parent / "golden"

CASES = [
    # file, players, seed, steps  (python -m devtools.brazil transcript --players P --seed S --steps K)
    ("playthrough_2p_seed7.txt", 2, 7, 250),
    ("playthrough_solo_seed3.txt", 1, 3, 120),
]


@pytest.mark.parametrize(("name", "players", "seed", "steps"), CASES)
def test_playthrough_matches_golden_file(name: str, players: int, seed: int, steps: int):
    expected = (GOLDEN / name).read_text()
    got = transcript(players, seed, steps)
    if got != expected:
        diff = [
            f"line {i + 1}:\n  golden: {a}\n  now:    {b}"
            for i, (a, b) in enumerate(zip(expected.splitlines(), got.splitlines(), strict=False))
            if a != b
        ][:5]
        pytest.fail(
            f"{name} differs (regenerate: python -m devtools.brazil transcript --players {players} "
            f"--seed {seed} --steps {steps} > tests/golden/{name}):\n" + "\n".join(diff)
        )
