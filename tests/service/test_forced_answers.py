"""Brazil: Imperial's steps with one legal answer, answered by the service (issue #29): a turn
whose only step left is ending it ends by itself (R-TURN-1: then the next player), so the player
is not asked to confirm it and the next decider is asked at once — unless the player chose to
end their turns themselves."""

from __future__ import annotations

import random
from pathlib import Path

from rules.brazil.actions import EndTurn
from service import GameService, SeatSpec
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


async def test_a_player_who_ends_turns_themselves_is_asked__R_TURN_1(tmp_path: Path) -> None:
    """The player's preference (``/end-turn mode: manual``, for all their games): their turn
    with only its end left waits for them; the other player's still ends by itself."""
    A = adapter("brazil")
    waited = ended = 0
    async with SqliteGameStore(str(tmp_path / "g.sqlite3")) as store:
        svc = GameService(store)
        try:
            await svc.pacing.set_manual_end(101, True)
            seats = [SeatSpec("Ana", user_id=101), SeatSpec("Bo", user_id=102)]
            res = await svc.new_game(seats, game="brazil", seed=3)
            played = await svc.turns.announce(res)
            rng = random.Random(3)
            for _ in range(200):
                s = played.game
                if s.over or (waited and ended):
                    break
                seat = A.face.deciders(s.state)[0]
                acts = A.face.legal_actions(s.state, seat)
                k = rng.randrange(len(acts))
                if isinstance(acts[k], EndTurn) and len(acts) > 1:
                    continue
                played = await svc.turns.press(
                    s.game_id, seat, index=k, version=s.version, action=acts[k]
                )
                after = played.command.frames[s.version + 1].state
                left = A.face.legal_actions(after, seat)
                if seat not in A.face.deciders(after) or len(left) != 1:
                    continue
                if seat == 0:  # Ana: asked to end it herself
                    assert not played.steps and played.game.decides(0)
                    waited += 1
                else:
                    assert played.steps
                    ended += 1
        finally:
            await svc.aclose()
    assert waited and ended
