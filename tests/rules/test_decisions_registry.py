"""The public registry of pending decision kinds (rules.brazil.decisions.DECISIONS)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest
from pydantic import ValidationError

from devtools.brazil.selfplay import play_random_game
from rules.brazil import DECISIONS, DecisionKind
from rules.brazil.actions import ACTION_TYPES
from rules.brazil.engine import DECISION_HANDLERS
from rules.brazil.state import Pending, PendingKind

RULES = Path(__file__).resolve().parents[2] / "rules" / "brazil"


def test_registry_entries_are_complete():
    assert set(DECISIONS) == set(get_args(PendingKind)) == set(DECISION_HANDLERS)
    for kind, d in DECISIONS.items():
        assert isinstance(d, DecisionKind) and d.kind == kind
        assert d.prompt and d.answers and all(a in ACTION_TYPES for a in d.answers)
        assert re.fullmatch(r"R-[A-Z]+-\d+", d.rule)


def test_every_kind_the_engine_creates_is_registered_in_the_source():
    # every literal kind passed to push(...) / _pending(...) in rules/
    made: set[str] = set()
    for f in RULES.glob("*.py"):
        src = f.read_text()
        made |= set(re.findall(r"(?:\.push|_pending)\(\s*[\w.\[\]]+,\s*\"(\w+)\"", src))
    assert made and made <= set(DECISIONS)
    assert len(made) >= 14


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_kind_seen_in_selfplay_is_registered(players: int, monkeypatch):
    seen: set[str] = set()
    from rules.brazil import engine

    real = engine.pending_for

    def spy(state, seat):  # type: ignore[no-untyped-def]
        seen.update(d.kind for d in state.pending)
        return real(state, seat)

    monkeypatch.setattr(engine, "pending_for", spy)
    for seed in range(3):
        play_random_game(players, 300 + seed, check=False, max_rounds=30)
    assert seen and seen <= set(DECISIONS)


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValidationError):
        Pending(seat=0, kind="no_such_decision")  # type: ignore[arg-type]
