"""The face's optional ``next_deciders`` hook (:class:`rules.games.Game`), for every
registered game that has it: who decides once the seats deciding now have finished their
turn, if the game goes on — the platform's heads-up ("you are next after Bo") trusts it.

Checked along seeded random games (:func:`tests.conformance.common.recorded`): whenever the
hook names seats ``L`` at a state whose deciders are ``cur``, then, following the game, at the
first later state where no seat of ``cur`` decides and the hook says something else (a new
turn; an answer asked of another seat within the turn — a defender's cards, a war's support
— leaves the turn's order as it was, so the hook says the same), the seats deciding are among
``L``. A hook that always said the same would never hand over: every case must check
something (a solo game aside). The hook reads the state only: a view of it says the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.common import Case, cases, recorded

CASES = [c for c in cases() if c.face.next_deciders is not None]


def _handed_over(deciders: list[list[int]], said: list[Any], i: int) -> int | None:
    """The first state after ``i`` in which none of the seats deciding at ``i`` decides and
    the hook says something else than at ``i`` (a new turn: an answer asked within the turn
    — a defender's cards, a war's support — leaves the turn's order as it was); None: the
    game ended (or the record stopped) first."""
    cur = set(deciders[i])
    for j in range(i + 1, len(deciders)):
        if not cur & set(deciders[j]) and said[j] != said[i]:
            return j
    return None


@pytest.mark.parametrize("case", CASES, ids=str)
def test_next_deciders_names_who_takes_over(case: Case) -> None:
    g = case.face
    hook: Any = g.next_deciders
    rec = recorded(case)
    states = [rec.state(i) for i in range(len(rec.states))]
    deciders = [list(g.deciders(s)) for s in states]
    says = [hook(s) for s in states]
    named = checked = ended = 0
    for i, st in enumerate(states):
        said = says[i]
        if said is None or not deciders[i]:
            continue
        named += 1
        assert hook(g.view(st, None)) == said, f"step {i}: the spectator's view says otherwise"
        if set(said) <= set(deciders[i]):
            continue  # the same seat(s) again: nothing to follow
        j = _handed_over(deciders, says, i)
        if j is None:
            ended += 1
            continue  # the game ended (or the record stopped) first
        checked += 1
        assert set(deciders[j]) <= set(said), (
            f"step {i}: said {said} after {deciders[i]}, but {deciders[j]} decided at {j}"
        )
    assert named, "the hook never named anyone"
    assert checked or ended or case.players == 1, "nothing was checked"
