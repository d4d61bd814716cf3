"""The worker pool (issue 19, "CPU work out of the event loop's process"): jobs run in worker
processes and give what the in-thread path gives; a worker killed mid-job or stuck is
replaced and the job tried once more, then reported (WorkerError; a computer player falls
back to the heuristic and the game goes on); the pool shuts down cleanly.

Its pictures (issue 29 item 7, "a turn without its picture is a turn players can't
follow"): queued per game and taken in turn, one game's at a time, so a busy game does not
starve the others; a game's picture superseded by a newer version of the same kind leaves
the queue undrawn; a picture whose worker fails, or that is not drawn in time, is drawn by
the cheaper fallback in this process — a post always carries its picture, and only a
fallback that fails too leaves it out. These tests finish the jobs themselves (a fake
executor, no clock)."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import service.workers
from devtools.brazil.render_games import Snapshot, play, with_event
from rules.brazil import legal_actions, new_game, parse_action, view
from rules.registry import registrations
from service import Frame, GameService, ImageRequest, logctx, metrics, render_image
from service.games import adapter
from service.imagequeue import ImageQueue, Ticket
from service.images import render_fallback
from service.workers import WorkerError, WorkerPool, decision_seed, make_agent
from storage import SqliteGameStore
from tests.service import pool_jobs


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def gone(pid: int, seconds: float = 5.0) -> bool:
    """Whether process ``pid`` ends within ``seconds`` (reaped by its parent)."""
    for _ in range(int(seconds * 20)):
        if not alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


async def read_pid(marker: Path, seconds: float = 20.0) -> int:
    for _ in range(int(seconds * 20)):
        if marker.exists() and marker.read_text():
            return int(marker.read_text())
        await asyncio.sleep(0.05)
    raise AssertionError("the job never started")


@pytest.fixture(scope="module")
def game4() -> list[Snapshot]:
    return play(4, 1)


# ---------------------------------------------------------------- crashes and hangs


async def test_a_worker_killed_mid_job_is_replaced_and_the_job_retried(tmp_path: Path) -> None:
    """A job announces its worker's pid, the test SIGKILLs that process: the pool gets a
    new executor and the job runs again (in another process) and succeeds."""
    marker = tmp_path / "pid"
    async with WorkerPool(1) as pool:
        job = asyncio.create_task(
            pool.run("the job", 30, pool_jobs.announce_then_wait, str(marker))
        )
        killed = await read_pid(marker)
        os.kill(killed, signal.SIGKILL)
        second = await asyncio.wait_for(job, 30)
        assert second != killed and await gone(killed)
        assert pool.replaced == 1 and pool.jobs == 2
        assert pool.pids() == [second]  # the new worker serves the next jobs
        assert await pool.run("next", 30, pool_jobs.pid) == second


async def test_a_job_whose_worker_dies_twice_is_reported_and_the_pool_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with WorkerPool(2) as pool:
        assert await pool.run("once", 30, pool_jobs.exit_once, str(tmp_path / "m")) == (
            "done on the second try"
        )
        assert pool.replaced == 1
        caplog.clear()
        with (
            caplog.at_level(logging.WARNING, logger="service.workers"),
            pytest.raises(WorkerError) as e,
        ):
            await pool.run("drawing the map image", 30, pool_jobs.always_exit)
        assert str(e.value) == ("drawing the map image failed twice: its worker process stopped")
        assert pool.replaced == 3
        assert [r.getMessage() for r in caplog.records] == [
            f"worker pool: drawing the map image failed (try {k} of 2): its worker process "
            "stopped; new worker processes replace the old ones"
            for k in (1, 2)
        ]
        # and the next job is served by new workers
        assert isinstance(await pool.run("after", 30, pool_jobs.pid), int)


async def test_a_stuck_job_times_out_its_worker_is_killed_and_the_job_retried(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "hang"
    async with WorkerPool(1) as pool:
        out = await pool.run("the stuck job", 1.0, pool_jobs.hang_once, str(marker))
        assert out == "done after a hang"
        assert pool.replaced == 1
        assert await gone(int(marker.read_text())), "the stuck worker was killed"


async def test_a_job_stuck_twice_is_reported(tmp_path: Path) -> None:
    async with WorkerPool(1) as pool:
        with pytest.raises(WorkerError, match=r"^slow failed twice: it took more than 0.5 s"):
            await pool.run("slow", 0.5, pool_jobs.sleep_then, 30, "never")
        assert pool.replaced == 2


@pytest.mark.slow
async def test_the_time_limit_counts_from_the_jobs_start_not_its_queueing() -> None:
    """Six 0.4 s jobs on one worker with a 1 s limit: each waits its turn, none times out."""
    async with WorkerPool(1) as pool:
        outs = await asyncio.gather(
            *(pool.run("queued", 1.0, pool_jobs.sleep_then, 0.4, str(k)) for k in range(6))
        )
        assert outs == [str(k) for k in range(6)] and pool.replaced == 0


async def test_a_jobs_own_error_comes_back_as_it_is_and_is_not_retried(tmp_path: Path) -> None:
    marker = tmp_path / "count"
    async with WorkerPool(1) as pool:
        with pytest.raises(ValueError, match="a bug in the job"):
            await pool.run("buggy", 30, pool_jobs.raise_value_error, str(marker))
        assert marker.read_text() == "x" and pool.replaced == 0


async def test_aclose_stops_the_workers_and_later_jobs_run_in_threads() -> None:
    pool = WorkerPool(2)
    worker = await pool.run("pid", 30, pool_jobs.pid)
    assert worker != os.getpid() and pool.enabled
    await pool.aclose()
    assert await gone(worker)
    assert not pool.enabled and pool.pids() == []
    assert await pool.run("pid", 30, pool_jobs.pid) == os.getpid()


SIGKILLED_PARENT = """
import asyncio, sys, time
from service.workers import WorkerPool
from tests.service import pool_jobs

async def main():
    pool = WorkerPool(2)
    print(await pool.run("pid", 30, pool_jobs.pid), flush=True)
    time.sleep(60)

if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.mark.slow
async def test_the_workers_end_when_their_parent_is_sigkilled(tmp_path: Path) -> None:
    """A bot process SIGKILLed (the kill test does it) leaves no worker behind: each worker
    watches its parent."""
    script, out = tmp_path / "parent.py", tmp_path / "out.txt"
    script.write_text(SIGKILLED_PARENT)
    root = str(Path(__file__).resolve().parents[2])
    with out.open("wb") as f:  # a file, not a pipe: a worker left behind must not hang us
        proc = subprocess.Popen(
            [sys.executable, str(script)],
            stdout=f,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": root},
        )
    try:
        for _ in range(1200):
            if out.read_text().strip():
                break
            await asyncio.sleep(0.05)
        worker = int(out.read_text())
        assert alive(worker) and worker != proc.pid
    finally:
        proc.kill()
        proc.wait(10)
    try:
        assert await gone(worker, 10), "the worker outlived its SIGKILLed parent"
    finally:
        if alive(worker):
            os.kill(worker, signal.SIGKILL)


async def test_workers_zero_is_the_in_thread_way() -> None:
    pool = WorkerPool(0)
    assert not pool.enabled and pool.describe().startswith("off")
    assert await pool.run("pid", 30, pool_jobs.pid) == os.getpid()
    with pytest.raises(ValueError):
        WorkerPool(-1)
    assert WorkerPool().workers >= 1  # the CPU count


# ---------------------------------------------------------------- the same results


@pytest.mark.slow
async def test_images_drawn_in_a_worker_are_the_same_bytes(game4: list[Snapshot]) -> None:
    battle = with_event(game4, "battle_result")
    assert battle is not None
    mid, last = game4[len(game4) // 2], game4[-1]
    cases = [
        (ImageRequest("map", None, 1), Frame(1, mid.state, tuple(mid.events))),
        (ImageRequest("map", 2, 1), Frame(1, mid.state, tuple(mid.events))),
        (ImageRequest("boards", None, 2), Frame(2, last.state)),
        (ImageRequest("hand", 1, 3), Frame(3, mid.state)),
        (ImageRequest("battle", None, 4), Frame(4, battle.state, tuple(battle.events))),
        (ImageRequest("scores", None, 5), Frame(5, last.state)),
    ]
    async with WorkerPool(2, image_wait=600.0) as pool:  # the workers' own, not fallbacks
        drawn = await asyncio.gather(*(pool.draw(req, frame) for req, frame in cases))
        assert pool.jobs == len(cases)
    for (req, frame), png in zip(cases, drawn, strict=True):
        assert png is not None and png == render_image(req, frame), req


@pytest.mark.slow
@pytest.mark.parametrize("level", ["random", "heuristic", "search"])
async def test_a_decision_in_a_worker_is_the_threads_decision(
    game4: list[Snapshot], level: str
) -> None:
    """Same level, seed, seat and state: the same action, in a worker or a thread (the
    search at a fixed number of rollouts, deterministic given its seed)."""
    factory = pool_jobs.fixed_search_factory
    states = [sn.state for sn in game4[2:40:6] if sn.state.phase != "ended"]
    async with WorkerPool(2) as pool:
        for k, st in enumerate(states):
            seat = next(p.seat for p in st.players if legal_actions(st, p.seat))
            seed = decision_seed(99, seat, k)
            in_worker = await pool.decide(factory, level, seed, seat, st)
            in_thread = await WorkerPool(0).decide(factory, level, seed, seat, st)
            assert in_worker == in_thread
            assert parse_action(in_worker) == factory(level, seed).decide(view(st, seat), seat)


async def test_the_timeline_drawn_in_a_worker_is_the_same(
    service: GameService, store: SqliteGameStore
) -> None:
    gid = (await service.new_game(["ai:random", "ai:random"], seed=5)).game_id
    await service.run_ai_turns(gid, until=lambda s: s.round > 2)
    entries = await store.get_log(gid)
    async with WorkerPool(1) as pool:
        gif = await pool.timeline(entries)
    assert gif is not None and gif[:6] == b"GIF89a"
    assert gif == await WorkerPool(0).timeline(entries)


def test_decision_seeds_are_stable_and_differ_by_seat_and_version() -> None:
    seeds = {decision_seed(7, seat, version) for seat in range(4) for version in range(50)}
    assert len(seeds) == 200
    assert decision_seed(7, 1, 9) == decision_seed(7, 1, 9) == 4622350785797114430


# ---------------------------------------------------------------- through the service


async def test_a_computer_players_decisions_are_the_same_with_or_without_the_pool(
    tmp_path: Path,
) -> None:
    """A seeded all-AI game plays the same steps through a worker pool as in threads."""
    logs = []
    for workers in (0, 2):
        db = str(tmp_path / f"w{workers}.sqlite3")
        async with SqliteGameStore(db) as store, WorkerPool(workers) as pool:
            svc = GameService(store, workers=pool)
            gid = (await svc.new_game(["ai:heuristic", "ai:random"], seed=3)).game_id
            res = await svc.run_ai_turns(gid, until=lambda s: s.round > 2)
            assert res.applied > 10
            logs.append([e.action_json for e in await store.get_log(gid)])
    assert logs[0] == logs[1]


def test_a_forced_decision_is_what_every_agent_plays() -> None:
    """The service plays a seat's only legal action itself (no worker): every agent, which
    lists from the seat's view, would have played the same."""
    import random

    from rules.brazil import apply, deciders, new_game

    rng, forced = random.Random(8), 0
    for players in (2, 3):
        st = new_game(players, seed=players)
        for _ in range(400):
            if st.phase == "ended":
                break
            for seat in deciders(st):
                acts = legal_actions(st, seat)
                if len(acts) == 1:
                    forced += 1
                    for level in ("random", "heuristic", "search"):
                        assert make_agent(level, forced).decide(st, seat) == acts[0]
            st, _ = apply(st, rng.choice(legal_actions(st)), checked=False)
    assert forced > 20


async def test_forced_decisions_take_no_worker(tmp_path: Path) -> None:
    async with (
        SqliteGameStore(str(tmp_path / "f.sqlite3")) as store,
        WorkerPool(1) as pool,
    ):
        svc = GameService(store, workers=pool)
        gid = (await svc.new_game(["ai:random", "ai:random"], seed=6)).game_id
        res = await svc.run_ai_turns(gid, until=lambda s: s.round > 2)
        assert 0 < pool.jobs < res.applied


async def test_a_worker_killed_at_every_decision_falls_back_to_the_heuristic(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The ``ai:exit`` seat's agent kills its worker: tried twice, then the heuristic decides
    in this process (logged once) and the game goes on."""
    async with SqliteGameStore(str(tmp_path / "exit.sqlite3")) as store, WorkerPool(1) as pool:
        svc = GameService(store, agent_factory=pool_jobs.exiting_factory, workers=pool)
        gid = (await svc.new_game(["ai:exit", "ai:random"], seed=2)).game_id
        with caplog.at_level(logging.ERROR, logger="service"):
            out = await svc.run_ai_turns(gid, max_steps=4)
        assert out.applied == 4, "the game went on"
        failed = [r for r in caplog.records if "computer player of seat 1 failed" in r.message]
        assert len(failed) == 1 and "failed twice" in failed[0].getMessage()
        assert pool.replaced >= 2  # each decision of the seat: two workers died
        assert (await store.get_game(gid)).version == 4


def drawn_maps() -> float:
    """The maps whose drawing time /metrics observed (turnpost_render_seconds)."""
    n = metrics.REGISTRY.get_sample_value("turnpost_render_seconds_count", {"kind": "map"})
    return n or 0.0


@pytest.mark.slow
async def test_the_service_draws_through_its_pool(game4: list[Snapshot], tmp_path: Path) -> None:
    sn = game4[5]
    frame = Frame(3, sn.state, tuple(sn.events))
    req = ImageRequest("map", None, 3)
    async with SqliteGameStore(str(tmp_path / "d.sqlite3")) as store:
        async with WorkerPool(1, image_wait=600.0) as pool:
            svc = GameService(store, workers=pool)
            before = drawn_maps()
            assert await svc.render(req, frame) == render_image(req, frame)
            assert pool.jobs == 1
            assert drawn_maps() == before + 1  # /metrics: the render time, in the pool too
        assert await GameService(store).render(req, frame) == render_image(req, frame)


async def test_an_agent_factory_that_cannot_go_to_a_worker_decides_in_a_thread(
    game4: list[Snapshot],
) -> None:
    st = game4[3].state
    seat = next(p.seat for p in st.players if legal_actions(st, p.seat))
    async with WorkerPool(1) as pool:
        local = await pool.decide(lambda lv, sd: make_agent(lv, sd), "heuristic", 1, seat, st)
        assert pool.jobs == 0
        assert local == await pool.decide(None, "heuristic", 1, seat, st)
        assert pool.jobs == 1


# ---------------------------------------------------------------- the pictures' queue


def ticket(game: int | None, kind: str, version: int, seat: int | None = None) -> Ticket:
    return Ticket(ImageRequest(kind, seat, version), game)  # type: ignore[arg-type]


def test_the_queue_takes_the_games_in_turn_and_drops_superseded_pictures() -> None:
    q = ImageQueue()
    a1, a2, b1 = ticket(1, "map", 1), ticket(1, "hand", 1, seat=0), ticket(2, "map", 1)
    for t in (a1, a2, b1):
        assert q.put(t) == []
    a3 = ticket(1, "map", 3)
    assert q.put(a3) == [a1], "game 1's map v1 is superseded by its v3"
    assert q.put(ticket(1, "map", 2)) != [], "an older map arriving after a newer is dropped"
    c = ticket(None, "map", 9)  # no game known: never superseded
    assert q.put(c) == [] and q.put(ticket(None, "map", 10)) == []
    assert len(q) == 5
    # one picture of each game in turn: game 1, game 2, the unknown, game 1 again
    assert [q.take() for _ in range(3)] == [a2, b1, c]
    assert q.take() is a3
    assert q.remove(q.take()) is False  # taken already: nothing to remove  # type: ignore[arg-type]
    assert q.take() is None and len(q) == 0


def still_picture(version: int) -> Frame:
    return Frame(version, new_game(2, seed=1))


async def settled(cond: Callable[[], bool]) -> None:
    """Let the event loop run until ``cond`` holds (no clock: a bounded number of turns)."""
    for _ in range(10_000):
        if cond():
            return
        await asyncio.sleep(0)
    raise AssertionError("the pool never got there")


@pytest.fixture
def fake_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[WorkerPool, pool_jobs.FakeExecutor]]:
    """A one-worker pool whose jobs the test finishes, and whose fallback says it is one."""
    pool = WorkerPool(1, image_wait=600.0)
    ex = pool_jobs.FakeExecutor()
    monkeypatch.setattr(pool, "_start", lambda: ex)
    monkeypatch.setattr(service.workers, "render_fallback", pool_jobs.fake_fallback)
    yield pool, ex
    pool.close(0)


def draw(
    pool: WorkerPool, kind: str, version: int, game: int | None, seat: int | None = None
) -> asyncio.Task[bytes | None]:
    req = ImageRequest(kind, seat, version)  # type: ignore[arg-type]
    return asyncio.create_task(pool.draw(req, still_picture(version), game_id=game))


async def test_a_superseded_picture_is_not_drawn_and_its_post_gets_the_fallback(
    fake_pool: tuple[WorkerPool, pool_jobs.FakeExecutor],
) -> None:
    pool, ex = fake_pool
    v1 = draw(pool, "map", 1, 7)
    await settled(lambda: len(ex.jobs) == 1)  # the worker draws v1
    v2, other = draw(pool, "map", 2, 7), draw(pool, "boards", 2, 8)
    await settled(lambda: pool.queued() == 2)
    v3 = draw(pool, "map", 3, 7)
    assert await v2 == b"fallback map v2", "superseded by v3: not drawn late, its post has one"
    assert not v3.done() and not other.done()
    for k in range(3):
        await settled(lambda k=k: len(ex.jobs) == k + 1)  # type: ignore[misc]
        ex.finish(k)
    assert (await v1, await v3, await other) == (b"full map v1", b"full map v3", b"full boards v2")
    drawn = sorted((r.kind, r.version) for r in ex.reqs())
    assert drawn == [("boards", 2), ("map", 1), ("map", 3)]  # game 7's v2 went to no worker
    assert pool.superseded == 1 and pool.fallbacks == 1


async def test_the_game_is_known_from_the_log_context(
    fake_pool: tuple[WorkerPool, pool_jobs.FakeExecutor],
) -> None:
    """The service binds the game it loaded (``logctx``): a surface's drawing needs no id."""
    pool, ex = fake_pool
    logctx.bind(game=4)
    try:
        first = draw(pool, "boards", 1, None)
        await settled(lambda: len(ex.jobs) == 1)
        old, new = draw(pool, "map", 1, None), draw(pool, "map", 2, None)
        assert await old == b"fallback map v1"
    finally:
        logctx.bind(game=None)
    ex.finish(0)
    await settled(lambda: len(ex.jobs) == 2)
    ex.finish(1)
    assert (await first, await new) == (b"full boards v1", b"full map v2")


async def test_one_busy_game_does_not_starve_another_games_picture(
    fake_pool: tuple[WorkerPool, pool_jobs.FakeExecutor],
) -> None:
    pool, ex = fake_pool
    tasks = [draw(pool, "map", 1, 1)]
    await settled(lambda: len(ex.jobs) == 1)
    tasks += [draw(pool, "hand", 1, 1, seat=s) for s in range(4)]  # game 1 asks for a lot
    await settled(lambda: pool.queued() == 4)
    tasks.append(draw(pool, "map", 5, 2))  # then game 2 for its map
    await settled(lambda: pool.queued() == 5)
    for k in range(6):
        await settled(lambda k=k: len(ex.jobs) == k + 1)  # type: ignore[misc]
        ex.finish(k)
    kinds = [(r.kind, r.version) for r in ex.reqs()]
    assert kinds[2] == ("map", 5), f"game 2's map waited behind game 1's pictures: {kinds}"
    assert [r.seat for r in ex.reqs() if r.kind == "hand"] == [0, 1, 2, 3]  # a game's in order
    drawn = [await t for t in tasks]
    assert all(png is not None and png.startswith(b"full") for png in drawn)
    assert pool.fallbacks == 0


async def test_a_picture_whose_worker_dies_twice_gets_the_fallback(
    fake_pool: tuple[WorkerPool, pool_jobs.FakeExecutor],
) -> None:
    pool, ex = fake_pool
    t = draw(pool, "map", 3, 1)
    await settled(lambda: len(ex.jobs) == 1)
    ex.crash(0)
    await settled(lambda: len(ex.jobs) == 2)  # tried once more on a new executor
    ex.crash(1)
    assert await t == b"fallback map v3"
    assert pool.replaced == 2 and pool.fallbacks == 1


async def test_a_picture_whose_drawing_raises_gets_the_fallback(
    fake_pool: tuple[WorkerPool, pool_jobs.FakeExecutor],
) -> None:
    pool, ex = fake_pool
    t = draw(pool, "map", 3, 1)
    await settled(lambda: len(ex.jobs) == 1)
    ex.fail(0, ValueError("a bug in the full drawing"))
    assert await t == b"fallback map v3"
    assert len(ex.jobs) == 1 and pool.replaced == 0  # a job's own error is not retried


async def test_a_late_picture_gets_the_fallback_and_leaves_the_queue(
    fake_pool: tuple[WorkerPool, pool_jobs.FakeExecutor],
) -> None:
    """The worker is busy beyond the post's wait: both posts get the fallback, and the
    queued picture is never drawn afterwards (nobody wants it any more)."""
    pool, ex = fake_pool
    pool.image_wait = 0.01
    running, queued = draw(pool, "map", 1, 1), draw(pool, "map", 1, 2)
    assert (await running, await queued) == (b"fallback map v1", b"fallback map v1")
    assert pool.queued() == 0 and len(ex.jobs) == 1
    ex.finish(0)  # the late picture comes: nobody waits for it
    after = draw(pool, "boards", 2, 1)
    await settled(lambda: len(ex.jobs) == 2)
    assert ex.reqs()[1].kind == "boards"  # game 2's late map was not drawn
    ex.finish(1)
    pool.image_wait = 600.0
    assert await after == b"full boards v2"
    assert pool.fallbacks == 2


async def test_only_a_fallback_that_fails_too_leaves_the_picture_out(
    fake_pool: tuple[WorkerPool, pool_jobs.FakeExecutor], monkeypatch: pytest.MonkeyPatch
) -> None:
    pool, ex = fake_pool
    monkeypatch.setattr(service.workers, "render_fallback", pool_jobs.failing_fallback)
    t = draw(pool, "map", 3, 1)
    await settled(lambda: len(ex.jobs) == 1)
    ex.crash(0)
    await settled(lambda: len(ex.jobs) == 2)
    ex.crash(1)
    with pytest.raises(WorkerError, match=r"failed twice.*fallback failed too"):
        await t
    bug = draw(pool, "map", 4, 1)
    await settled(lambda: len(ex.jobs) == 3)
    ex.fail(2, ValueError("a bug in the drawing"))
    with pytest.raises(ValueError, match="a bug in the drawing"):  # as it is
        await bug


async def test_in_threads_a_failed_drawing_gets_the_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(req: ImageRequest, frame: Frame) -> bytes:
        raise MemoryError("the full drawing failed")

    monkeypatch.setattr(service.workers, "render_image", broken)
    monkeypatch.setattr(service.workers, "render_fallback", pool_jobs.fake_fallback)
    pool = WorkerPool(0)
    assert await pool.draw(ImageRequest("map", None, 2), still_picture(2)) == b"fallback map v2"
    assert pool.fallbacks == 1


@pytest.mark.parametrize("game", sorted(registrations()))
@pytest.mark.parametrize("kind", ["map", "boards"])
def test_every_games_fallback_is_a_smaller_drawing_of_the_same_picture(
    game: str, kind: str
) -> None:
    from PIL import Image

    A = adapter(game)
    st = A.build(2, None, 3, None)
    req = ImageRequest(kind, None, 0, game=game)  # type: ignore[arg-type]
    full, small = render_image(req, Frame(0, st)), render_fallback(req, Frame(0, st))
    assert full is not None and small is not None
    w_full = Image.open(io.BytesIO(full)).width
    w_small = Image.open(io.BytesIO(small)).width
    assert w_small < w_full


async def test_warming_starts_every_worker_before_the_first_picture() -> None:
    """The bot warms its pool at start (issue #29): each worker answers once, so the first
    pictures after a restart are the workers' own, not the fallback's; a pool that is off
    has nothing to warm."""
    async with WorkerPool(2) as pool:
        assert pool.pids() == []
        assert await pool.warm() == 2
        assert len(pool.pids()) == 2
    assert await WorkerPool(0).warm() == 0
