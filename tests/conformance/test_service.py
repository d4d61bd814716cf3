"""The game service (:class:`service.game.GameService`, the use case every surface calls) with
every registered game: a whole game of computer players to its end in a temporary SQLite
database, posts per audience that leak nothing, and undo that is refused with a reason or
restores the exact previous state."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from service import GameService, Result
from service.games import adapter
from service.results import Refused
from storage import GameStatus, SqliteGameStore
from storage.replay import default_replayer
from tests.conformance.common import GAMES, SEEDS, two_and_most

WHOLE = [
    (name, seed, two_and_most(name)[i % 2]) for name in GAMES for i, seed in enumerate(SEEDS[:2])
]
"""(game, seed, players): two whole games per game, 2 players and the most."""

LEAK_STEPS = 150
UNDO_STEPS = 50


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    async with SqliteGameStore(str(tmp_path / "games.sqlite3"), snapshot_every=8) as store:
        svc = GameService(store)  # the computer players of each game, in threads
        try:
            yield svc
        finally:
            await svc.aclose()


async def _new(svc: GameService, name: str, players: int, seed: int) -> int:
    res = await svc.new_game(["ai:random"] * players, game=name, seed=seed)
    assert res.ok and res.public() and res.public()[0].text.strip()
    assert [d.seat for d in res.next] == adapter(name).face.deciders(res.frames[0].state)
    return res.game_id


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seed", "players"), WHOLE)
async def test_a_whole_game_of_computer_players_through_the_service(
    service: GameService, game: str, seed: int, players: int
) -> None:
    A = adapter(game)
    gid = await _new(service, game, players, seed)
    steps: list[Result] = []
    out = await service.run_ai_turns(gid, on_step=steps.append)
    assert out.over and out.applied == len(steps) > 0
    assert [s.version for s in steps] == list(range(1, len(steps) + 1))
    final = await service.state(gid)
    assert A.over(final) and A.face.deciders(final) == []
    # the record: its game, finished, the engine's scores and winners
    store = service.store
    rec = await store.get_game(gid)
    assert rec.game == game and rec.status is GameStatus.FINISHED
    assert rec.version == len(steps) and A.load(rec.state_json) == final
    scores = dict(A.face.final_scores(final))
    winners = set(A.face.winners(final))
    assert {s.seat: s.score for s in rec.seats} == scores
    assert {s.seat for s in rec.seats if s.winner} == winners
    rows = await service.reading.scores(gid)
    assert sorted(r.seat for r in rows) == list(range(players))
    assert {r.seat for r in rows if r.winner} == winners
    assert not any(r.hidden for r in rows)
    assert all(r.total == scores[r.seat] for r in rows)
    # each step's posts: a public one, the game's end announced once
    assert all(s.public() and all(p.text.strip() for p in s.posts) for s in steps)
    assert sum(s.over for s in steps) == 1 and steps[-1].over
    assert (await service.peek(gid)).status().over
    assert all(line.strip() for line in await service.reading.log(gid))
    # the log replays to the record by the game's own replayer
    report = await store.replay(gid, default_replayer(rec.game))
    assert report.ok and report.steps == rec.version


def _texts(A: Any, events: Any, state: Any, seats: Any) -> set[str]:
    out = set()
    for e in events:
        out.add(A.event_text(e, "en"))
        out.add(A.log_text(e, state, seats, "en"))
    return {t for t in out if t.strip()}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS[:2])
async def test_public_posts_leak_nothing(service: GameService, game: str, seed: int) -> None:
    """No public post holds what only a seat may know: the sentence of an event some seat
    may not see, or a seat's private post; a public post draws only the spectator's view, a
    private one only its seat's."""
    A = adapter(game)
    players = A.face.max_players
    gid = await _new(service, game, players, seed)
    seats = (await service.peek(gid)).seats
    leaks: list[str] = []
    secrets_seen = 0

    def step(r: Result) -> None:
        nonlocal secrets_seen
        frame = r.frames[r.version]
        public_events = A.public(frame.events)
        secret_events = [e for e in frame.events if e not in public_events]
        secrets_seen += len(secret_events)
        allowed = _texts(A, public_events, frame.state, seats)
        secret = _texts(A, secret_events, frame.state, seats) - allowed
        public = [p for p in r.posts if p.audience == "public"]
        assert public, f"v{r.version}: no public post"
        for post in r.posts:
            if post.audience == "public":
                assert all(q.seat is None for q in post.images), f"v{r.version}: {post}"
                leaks.extend(f"v{r.version}: {t!r}" for t in secret if t in post.text)
            else:
                assert post.audience in range(players), post.audience
                assert all(q.seat in (None, post.audience) for q in post.images), post
                mine = post.text.strip()
                leaks.extend(
                    f"v{r.version}: seat {post.audience}'s {mine!r}"
                    for p in public
                    if mine and mine in p.text
                )

    out = await service.run_ai_turns(gid, on_step=step, max_steps=LEAK_STEPS)
    assert out.applied > 0
    assert leaks == [], f"{secrets_seen} secret events seen"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS[:2])
async def test_undo_of_the_last_step_is_refused_with_a_reason_or_exact(
    service: GameService, game: str, seed: int
) -> None:
    A = adapter(game)
    players = two_and_most(game)[seed % 2]
    gid = await _new(service, game, players, seed)
    store = service.store
    undone = refused = 0
    just_undone = False
    for _ in range(UNDO_STEPS):
        before = A.dump(await service.state(gid))
        res = await service.run_ai_turns(gid, max_steps=1)
        if not res.applied:
            break
        assert res.applied == 1
        if just_undone:  # the game goes on past a step taken back (and decided again)
            just_undone = False
            continue
        entry = (await store.get_log(gid, from_version=res.version))[-1]
        assert entry.version == res.version and entry.seat is not None
        seat = int(entry.seat)
        after = A.dump(await service.state(gid))
        # another seat may not take it back
        other = (seat + 1) % players
        if other != seat:
            with pytest.raises(Refused):
                await service.undo_check(gid, other)
        try:
            await service.undo_check(gid, seat)
            allowed = True
        except Refused as e:
            allowed = False
            assert str(e).strip()
        version = (await store.get_game(gid)).version
        u = await service.undo(gid, seat)
        now = A.dump(await service.state(gid))
        if u.errors:
            refused += 1
            assert not allowed, "the check allowed what the undo refused"
            assert all(e.seat == seat and e.message.strip() for e in u.errors)
            assert "svc.undo.why.engine" not in repr(u.errors[0].params), (
                "the adapter's undo words and the engine's undo depth disagree"
            )
            assert now == after and (await store.get_game(gid)).version == version
        else:
            undone += 1
            just_undone = True
            assert allowed, "the check refused what the undo took back"
            assert now == before, "the undo did not restore the exact previous state"
            assert u.posts and u.posts[0].text.strip()
    assert undone + refused > 0
