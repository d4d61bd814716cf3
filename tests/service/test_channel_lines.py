"""Issue 22: public lines name who did what (players by name, announcements credited to
nobody), one clear sentence when an undo is refused, and a computer player's failure never
stalls a game."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rules.brazil import GameState, legal_actions
from service import GameService, Result
from storage import SqliteGameStore
from tests.service.conftest import uniform_factory


async def _play(service: GameService, gid: int, steps: int, seed: int) -> list[Result]:
    """Random legal steps by whoever decides (all seats human here); their results."""
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        st = await service.state(gid)
        if st.phase == "ended":
            break
        seat = (await service.peek(gid)).decisions(choices=False)[0].seat
        out.append(await service.choose(gid, seat, rng.choice(legal_actions(st, seat))))
    return out


async def test_public_lines_name_the_players_R_SETUP_4(service: GameService) -> None:
    res = await service.new_game(["Ana", "Bo"], seed=1)
    gid = res.game_id
    out = await service.act(gid, 0, "colour blue")
    assert [p.text for p in out.public()] == ["Ana plays blue."]  # not "Seat 1 plays blue."
    results = await _play(service, gid, 80, seed=3)
    lines = [p.text for r in results for p in r.public()]
    turns = [t for t in lines if "Round " in t and "'s turn" in t]
    assert turns, "a turn changed hands"
    for t in turns:  # an announcement, credited to nobody, naming the next player
        assert t.startswith("Round "), t
        assert "Ana (blue)'s turn" in t or "Bo (" in t, t
    # no line names a player by colour alone where the table knows their name
    assert not any(re.search(r"\b(Blue|Seat \d)\b", t) for t in lines), lines


async def test_undo_refusal_is_one_clear_sentence_R_TURN_1(service: GameService) -> None:
    res = await service.new_game(["Ana", "Bo"], seed=5)
    gid = res.game_id
    refusals: list[str] = []
    rng = random.Random(9)
    for _ in range(160):
        st = await service.state(gid)
        if st.phase == "ended":
            break
        seat = (await service.peek(gid)).decisions(choices=False)[0].seat
        await service.choose(gid, seat, rng.choice(legal_actions(st, seat)))
        undone = await service.undo(gid, seat)
        if undone.errors:
            refusals.append(undone.errors[0].message)
        else:  # taken back: play on from there
            continue
    assert refusals
    for text in refusals:
        assert ".:" not in text and text.count(":") <= 2, text
        assert text.endswith(".") and "\n" not in text, text
    assert any(re.fullmatch(r"You cannot take back `[^`]+`: [^:`]+\.", t) for t in refusals)


class Broken:
    def decide(self, state: GameState, seat: int) -> Any:
        raise RuntimeError("the search fell over")


def broken_factory(level: str, seed: int) -> Any:
    return Broken() if level == "broken" else uniform_factory(level, seed)


async def test_a_failing_computer_player_never_stalls_a_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with SqliteGameStore(str(tmp_path / "ai.sqlite3")) as store:
        service = GameService(store, agent_factory=broken_factory)
        res = await service.new_game(["ai:broken", "ai:random"], seed=2)
        with caplog.at_level(logging.ERROR, logger="service"):
            out = await service.run_ai_turns(res.game_id, until=lambda s: s.round > 3)
        assert out.applied > 10, "the game went on: the heuristic decided for the broken seat"
        failures = [r for r in caplog.records if "computer player of seat 1 failed" in r.message]
        assert len(failures) == 1, "logged once"


async def test_a_turns_map_after_a_restart_shows_the_whole_turn(tmp_path: Path) -> None:
    """The map of a turn highlights the turn's every step: after a restart (a new service
    over the same database, nothing in memory) the steps played before it are read back
    from the log, so the frame's events equal those of a service that never stopped."""
    rng = random.Random(4)
    db = str(tmp_path / "restart.sqlite3")
    async with SqliteGameStore(db) as store:
        steady = GameService(store, agent_factory=uniform_factory)
        gid = (await steady.new_game(["Ana", "Bo"], seed=11)).game_id
        compared = 0
        for _ in range(300):
            st = await steady.state(gid)
            if st.phase == "ended" or compared >= 5:
                break
            seat = (await steady.peek(gid)).decisions(choices=False)[0].seat
            action = rng.choice(legal_actions(st, seat))
            mid_turn = st.phase == "play" and any(
                a.type != "end_turn" for a in legal_actions(st, seat)
            )
            if mid_turn and rng.random() < 0.3:
                # the same step through a service that has just started (a restart) on a
                # copy of the database
                copy = str(tmp_path / f"copy{compared}.sqlite3")
                await store.backup(copy)
                async with SqliteGameStore(copy) as other:
                    restarted = GameService(other, agent_factory=uniform_factory)
                    fresh = await restarted.choose(gid, seat, action)
                kept = await steady.choose(gid, seat, action)
                assert [e.text for e in fresh.frames[fresh.version].events] == [
                    e.text for e in kept.frames[kept.version].events
                ]
                compared += 1
            else:
                await steady.choose(gid, seat, action)
        assert compared >= 3


async def test_the_confirmation_says_what_a_payment_costs_in_points_R_END_2(
    service: GameService,
) -> None:
    """Issue 22: the listed payment of an action with no safe default spends what loses the
    fewest VP, and the guided turn's confirmation says when it loses some."""
    from rules.brazil import PayItem
    from service.games.brazil.labels import cost_line
    from tests.helpers import listed, start

    gid = (await service.new_game(["Ana", "Bo"], seed=1)).game_id
    s = await service.peek(gid)
    s.state = start(monarchs=("dom_oba_ii", "queen_victoria"))
    s.state.players[0].gold_cards = ["agriculture"]
    action = listed(s.state, "build", building="sawmill", at="B3")
    assert action.payment == (PayItem("gold_card", "agriculture"),)
    text = cost_line(s.state, action)
    assert "Default payment: gold card Agriculture" in text, text
    assert "It pays with Agriculture — 3 VP at the end." in text
    s.state.players[0].reserve = {"coffee": 1}  # a safe default now: nothing lost
    assert "VP at the end" not in cost_line(s.state, action.replace(payment=None))
