"""Brazil: Imperial's steps with one legal answer, answered by the service (issue #29): a turn
whose only step left is ending it ends by itself (R-TURN-1: then the next player), so the player
is not asked to confirm it and the next decider is asked at once."""

from __future__ import annotations

import random
from pathlib import Path

from rules.brazil.actions import EndTurn
from service import GameService
from service.games import adapter
from storage import SqliteGameStore


async def test_a_turn_with_only_ending_left_ends_by_itself__R_TURN_1(tmp_path: Path) -> None:
    A = adapter("brazil")
    ended = 0
    async with SqliteGameStore(str(tmp_path / "g.sqlite3")) as store:
        svc = GameService(store)
        try:
            res = await svc.new_game(["Ana", "Bo"], game="brazil", seed=3)
            played = await svc.turns.announce(res)
            rng = random.Random(3)
            for _ in range(150):
                s = played.game
                if s.over or ended >= 3:
                    break
                seat = A.face.deciders(s.state)[0]
                acts = A.face.legal_actions(s.state, seat)
                k = rng.randrange(len(acts))
                if isinstance(acts[k], EndTurn):
                    continue  # ending by hand is still allowed; look for the forced ones
                played = await svc.turns.press(
                    s.game_id, seat, index=k, version=s.version, action=acts[k]
                )
                after = played.command.frames[s.version + 1].state
                left = A.face.legal_actions(after, seat)
                if seat in A.face.deciders(after) and len(left) == 1:
                    assert isinstance(left[0], EndTurn)
                    assert played.steps, "the turn waits for a confirmation"
                    first = played.steps[0].frames[s.version + 2].state
                    assert A.turn_key(first) != A.turn_key(after)  # the next player's turn
                    assert played.game.status().waiting[0].seat != seat or first.round > after.round
                    ended += 1
        finally:
            await svc.aclose()
    assert ended > 0
