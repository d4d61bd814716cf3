"""The CPU work of the game service in worker processes, out of the event loop's process.

Drawing the images, the timeline animation and the computer players' decisions are pure CPU
work; in threads of the process that also answers Discord they hold the GIL and slow every
acknowledgement. :class:`WorkerPool` runs them in a :class:`concurrent.futures.
ProcessPoolExecutor` (started at the first job, ``workers`` processes: the CPU count by
default; 0 keeps the old way, a thread of this process). A job's payload is what the worker
needs, never the service: the image request with the frame's state and events as JSON; the
AI's level, decision seed, seat and state as JSON (the action comes back as JSON); the log
entries of the timeline.

Robustness: every job has a time limit (an image :data:`IMAGE_TIMEOUT`, a decision the
search's budget + :data:`AI_MARGIN`, the timeline :data:`TIMELINE_TIMEOUT`). A worker that
dies (``BrokenProcessPool``: the standard library then fails every job of that executor) or
a job past its limit (its worker is stuck: the executor's processes are killed) gets the
pool a new executor, and each job caught in it is tried once more; a job that fails again
raises :class:`WorkerError` (one clear sentence), which the callers report: a computer
player falls back to the heuristic in this process (``GameCore.ai_failed``). A job that
raises an ordinary exception (a bug, a refused request) is not retried.

Pictures are never dropped (issue 29 item 7): their time is bounded by design, not by a
limit that gives up. They wait in a queue with one line per game, taken in turn
(:mod:`service.imagequeue`): a busy game does not starve the others, and a game's picture
superseded while it waits (a newer version of the same kind asked for) leaves the queue
undrawn. A picture whose worker failed, that raised, that was superseded or that is not
back within :data:`IMAGE_WAIT` seconds (it leaves the queue; a running one is left to
finish unheeded) is drawn at once by the cheaper fallback in this process
(:func:`service.images.render_fallback`: by default the same picture at a smaller scale),
so a post always carries its picture; only a fallback that fails too raises (the job's own
error as it is, else :class:`WorkerError`), and the post says the picture is missing.

At most ``workers`` jobs run at once (the others wait here, so a job's time limit counts from
its start, not from its queueing), and with two workers or more the computer players use at
most all but one: a turn's map is never queued behind a row of 2-second searches.

    pool = WorkerPool()                      # or WorkerPool(0): threads
    png = await pool.draw(req, frame, game_id=7)  # the game: its line in the queue
    action_json = await pool.decide(None, "search", seed, seat, state)
    await pool.aclose()                      # with the surface
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rules.games import DEFAULT as DEFAULT_GAME
from rules.registry import registrations
from service import logctx, metrics
from service.games import adapter
from service.imagequeue import ImageQueue, Ticket
from service.images import render_fallback, render_image
from service.results import Frame, ImageRequest

if TYPE_CHECKING:
    from storage.models import LogEntry

log = logging.getLogger("service.workers")

T = TypeVar("T")

IMAGE_TIMEOUT = 10.0
"""Seconds an image may take in a worker (a map takes about 0.07 s of CPU): past it the
worker is stuck and replaced (its post has long had the fallback: :data:`IMAGE_WAIT`)."""
IMAGE_WAIT = 2.0
"""Seconds a post waits for its picture from the workers (queued and drawn) before drawing
the cheaper fallback itself (the load test's target for a map's post is 2 s at p95)."""
AI_MARGIN = 8.0
"""Seconds a decision may take past the search's budget (``ai.DEFAULT_BUDGET``)."""
TIMELINE_TIMEOUT = 120.0
"""Seconds the timeline animation of a whole game may take (replay and drawing)."""
SHUTDOWN_GRACE = 5.0
"""Seconds :meth:`WorkerPool.aclose` lets running jobs finish before killing the workers."""
PRELOAD = [
    "service.workers",
    "rules",
    "ai",
    "render",
    *(m for reg in registrations().values() for m in reg.preload),
]
"""Imported once by the fork server the workers are forked from: a new worker starts warm
(the platform's modules, then each registered game's ``preload``)."""


class Agent(Protocol):
    def decide(self, state: Any, seat: int) -> Any: ...


AgentFactory = Callable[..., Agent]


class WorkerError(RuntimeError):
    """A job failed twice in the worker pool: its worker process stopped or got stuck (a
    picture: and its fallback failed too)."""


class _NotWanted(WorkerError):
    """A picture's job not started: its caller stopped waiting."""


def default_workers() -> int:
    """The CPU count this process may use (at least 1)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def decision_seed(game_seed: int, seat: int, version: int) -> int:
    """The seed of a computer player's decision: one agent per decision, seeded from the
    game's seed, the seat and the version it decides at — the same decision in a thread or
    in any worker, before or after a restart (agents keep no state between decisions but
    their random numbers, and a fresh agent with the same seed at every decision would
    repeat its draws)."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}:{version}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def make_agent(level: str, seed: int, game: str = DEFAULT_GAME) -> Agent:
    """A computer player of ``level`` for ``game`` (``ai.make_agent``: random, heuristic or
    search, each game's own)."""
    import ai

    agent: Agent = ai.make_agent(level, seed=seed, game=game)
    return agent


def picklable(obj: object) -> bool:
    """Whether ``obj`` can be sent to a worker (a module-level function or class can, a
    lambda or a local function cannot)."""
    try:
        pickle.dumps(obj)
    except Exception:
        return False
    return True


# ============================================================================ the jobs
# Module-level functions (a worker imports them by name); plain data in, plain data out.


def _ready() -> bool:
    """A worker's answer to :meth:`WorkerPool.warm` (it has started and imported its
    modules)."""
    return True


def draw_job(
    req: ImageRequest, version: int, state_json: str, events_json: str | bytes
) -> bytes | None:
    """An image drawn from a frame sent as JSON (see :func:`service.images.render_image`);
    the state and events are read by the request's game (``req.game``)."""
    game = adapter(req.game)
    state = game.load(state_json)
    events = tuple(game.events_from_json(events_json))
    return render_image(req, Frame(version, state, events))


def decide_job(
    factory: AgentFactory | None,
    level: str,
    seed: int,
    seat: int,
    state_json: str,
    game: str = DEFAULT_GAME,
) -> str:
    """A computer player's decision as the action's JSON (``factory``: None for
    :func:`make_agent`; a factory is called ``(level, seed)``); the state is read by
    ``game``'s engine."""
    A = adapter(game)
    state = A.load(state_json)
    if factory is None:
        agent = make_agent(level, seed, game)
    elif game == DEFAULT_GAME:
        agent = factory(level, seed)
    else:  # a factory that takes the game's name (GameCore.decide checks it)
        agent = factory(level, seed, game=game)
    action = agent.decide(state, seat)
    return A.action_json(action)


def timeline_job(
    entries: Sequence[LogEntry], lang: str = "en", game: str = DEFAULT_GAME
) -> bytes | None:
    """The game's timeline animation (an animated GIF) from its log, None for no turn; its
    texts in ``lang``; drawn by ``game``'s adapter."""
    from service.games import adapter
    from service.timeline import timeline_frames

    frames = timeline_frames(entries, game)
    return adapter(game).render_timeline(frames, lang) if frames else None


def _init_worker(packs: dict[str, str | None]) -> None:
    """In each new worker: Ctrl-C is the parent's to handle, each game's data packs folder
    is the parent's, and the worker ends when the parent does, even SIGKILLed (a worker
    waiting for jobs would wait forever, and keep the fork server alive)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name, folder in packs.items():
        adapter(name).use_data_packs(folder)
    parent = multiprocessing.parent_process()
    if parent is not None:
        watch = threading.Thread(
            target=_exit_with, args=(parent.sentinel,), name="parent-watch", daemon=True
        )
        watch.start()


def _exit_with(sentinel: int) -> None:
    """End this worker when ``sentinel`` (its parent's) is ready: the parent is gone."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _release_soon(loop: asyncio.AbstractEventLoop, sem: asyncio.Semaphore) -> None:
    """Release ``sem`` in ``loop`` (from the executor's thread, when a job ended)."""
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        loop.call_soon_threadsafe(sem.release)


def _stop(processes: Sequence[BaseProcess], grace: float) -> None:
    """Join ``processes`` for up to ``grace`` seconds in all, then kill those still alive."""
    end = time.monotonic() + grace
    for p in processes:
        p.join(max(0.0, end - time.monotonic()))
    for p in processes:
        if p.is_alive():
            p.kill()
            p.join(1.0)


# ============================================================================ the pool


class WorkerPool:
    """The CPU work's process pool (see module doc). ``workers``: processes (None: the CPU
    count; 0: run every job in a thread of this process instead)."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        image_timeout: float = IMAGE_TIMEOUT,
        image_wait: float = IMAGE_WAIT,
        ai_margin: float = AI_MARGIN,
        timeline_timeout: float = TIMELINE_TIMEOUT,
    ) -> None:
        if workers is not None and workers < 0:
            raise ValueError(f"workers must be 0 or more, not {workers}")
        self.workers = default_workers() if workers is None else workers
        self.image_timeout = image_timeout
        self.image_wait = image_wait
        self.ai_margin = ai_margin
        self.timeline_timeout = timeline_timeout
        self.replaced = 0  # executors replaced after a crash or a stuck job
        self.jobs = 0  # jobs started in worker processes
        self.fallbacks = 0  # pictures drawn by the fallback in this process
        self.fallback_why: collections.Counter[str] = collections.Counter()  # failed, late, …
        self.superseded = 0  # pictures left undrawn in the queue for a newer version
        self._executor: ProcessPoolExecutor | None = None
        self._generation = 0
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._slots = asyncio.Semaphore(1)
        self._ai_slots = asyncio.Semaphore(1)
        self._queue = ImageQueue()
        self._dispatcher: asyncio.Task[None] | None = None
        self._drawing: set[asyncio.Task[None]] = set()

    @property
    def enabled(self) -> bool:
        """Jobs run in worker processes (else in threads of this process)."""
        return self.workers > 0 and not self._closed

    def describe(self) -> str:
        if self.workers == 0:
            return "off (threads of this process)"
        return f"{self.workers} worker process{'es' if self.workers > 1 else ''}"

    def pids(self) -> list[int]:
        """The running workers' process ids (tests, the load test's CPU figures)."""
        ex = self._executor
        procs = getattr(ex, "_processes", None) if ex is not None else None
        return sorted(procs or {})

    # ------------------------------------------------------------------ jobs

    async def draw(
        self, req: ImageRequest, frame: Frame, *, game_id: int | None = None
    ) -> bytes | None:
        """``req`` drawn from ``frame`` (see :func:`service.images.render_image`), queued in
        the line of game ``game_id`` (None: the game the service loaded in this task,
        :mod:`service.logctx`); drawn by the fallback when the worker's drawing fails, is
        superseded or is late (see module doc)."""
        what = f"drawing the {req.kind} image"
        if not self.enabled:
            try:
                return await asyncio.to_thread(render_image, req, frame)
            except Exception as e:
                return await self._fallback(what, req, frame, "failed", repr(e), e)
        if game_id is None:
            game_id = logctx.current().get("game")
        try:
            game = adapter(req.game)
            state_json = game.dump(frame.state)
            events_json = game.events_json(list(frame.events))
        except Exception as e:
            return await self._fallback(what, req, frame, "failed", repr(e), e)
        loop = asyncio.get_running_loop()
        ticket = Ticket(req, game_id, (req, frame.version, state_json, events_json))
        ticket.outcome = loop.create_future()
        self._limits()  # this loop's queue
        for old in self._queue.put(ticket):  # ticket itself when a newer version waits
            self._settle(old, error=_NotWanted("superseded"))
        if not ticket.outcome.done():
            self._pump()
        try:
            done, _ = await asyncio.wait({ticket.outcome}, timeout=self.image_wait)
        finally:
            if not ticket.outcome.done():  # late, or our caller was cancelled
                self._drop(ticket)
        if not done:
            why = f"not drawn within {self.image_wait:g} s"
            return await self._fallback(what, req, frame, "late", why, None)
        error = ticket.outcome.exception()
        if error is None:
            return ticket.outcome.result()
        if isinstance(error, _NotWanted):
            self.superseded += 1
            why = "superseded by a newer version"
            return await self._fallback(what, req, frame, "superseded", why, None)
        return await self._fallback(what, req, frame, "failed", str(error), error)

    async def _fallback(
        self,
        what: str,
        req: ImageRequest,
        frame: Frame,
        reason: str,
        why: str,
        error: BaseException | None,
    ) -> bytes | None:
        """``req`` drawn by the cheaper fallback in this process (a thread), the worker's
        drawing having ``reason`` (failed, late, superseded: ``why``); when the fallback
        fails too: ``error`` as it is (a job's own error), else :class:`WorkerError`."""
        self.fallbacks += 1
        self.fallback_why[reason] += 1
        metrics.IMAGE_FALLBACKS.labels(reason).inc()
        level = logging.INFO if reason == "superseded" else logging.WARNING
        log.log(level, "worker pool: %s (v%s) %s: the fallback draws it", what, req.version, why)
        try:
            return await asyncio.to_thread(render_fallback, req, frame)
        except Exception as e:
            log.error("worker pool: the fallback of %s (v%s) failed too: %r", what, req.version, e)
            if error is not None and not isinstance(error, WorkerError):
                raise error from e
            raise WorkerError(f"{what} {why}; its fallback failed too ({e})") from e

    # ------------------------------------------------------------------ the pictures' queue

    def queued(self) -> int:
        """Pictures waiting for a worker."""
        return len(self._queue)

    def _pump(self) -> None:
        """Make sure the queue's dispatcher runs (it ends when the queue is empty)."""
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.get_running_loop().create_task(self._dispatch())

    async def _dispatch(self) -> None:
        """Hand each free slot to the next game's picture (taken when the slot is free:
        what is superseded or late meanwhile is not drawn)."""
        slots, _ = self._limits()
        queue = self._queue
        while queue:
            await slots.acquire()
            ticket = queue.take()
            if ticket is None or not self.enabled:  # every picture left, or the pool stopped
                slots.release()
                for t in [*([ticket] if ticket else []), *queue.drain()]:
                    self._settle(t, error=WorkerError("the worker pool stopped"))
                return
            task = asyncio.get_running_loop().create_task(self._draw_ticket(ticket, slots))
            self._drawing.add(task)
            task.add_done_callback(self._drawing.discard)

    async def _draw_ticket(self, ticket: Ticket, slots: asyncio.Semaphore) -> None:
        """Draw ``ticket`` in a worker (``slots``: one held for it), tried once more as any
        job; its outcome is settled unless its caller stopped waiting."""
        what = f"drawing the {ticket.req.kind} image"
        try:
            png = await self._attempts(
                what,
                self.image_timeout,
                draw_job,
                ticket.payload,
                slots,
                held=True,
                wanted=lambda: ticket.wanted,
            )
        except Exception as e:
            self._settle(ticket, error=e)
        else:
            self._settle(ticket, png)

    def _settle(
        self, ticket: Ticket, png: bytes | None = None, *, error: BaseException | None = None
    ) -> None:
        """Give ``ticket``'s caller its picture (or ``error``), if it still waits."""
        fut = ticket.outcome
        if fut is None or fut.done() or not ticket.wanted:
            return
        if error is not None:
            ticket.wanted = False
            fut.set_exception(error)
        else:
            fut.set_result(png)

    def _drop(self, ticket: Ticket) -> None:
        """``ticket``'s caller stopped waiting: out of the queue, its outcome unheeded."""
        ticket.wanted = False
        self._queue.remove(ticket)
        if ticket.outcome is not None and not ticket.outcome.done():
            ticket.outcome.cancel()

    async def decide(
        self,
        factory: AgentFactory | None,
        level: str,
        seed: int,
        seat: int,
        state: Any,
        *,
        game: str = DEFAULT_GAME,
    ) -> str:
        """The decision of a computer player of ``level`` (made by ``factory``, None:
        :func:`make_agent`) seeded ``seed`` for ``seat`` in ``state`` of ``game``: the action
        as JSON. A factory that cannot be sent to a worker decides in a thread."""
        state_json = adapter(game).dump(state)
        if not self.enabled or (factory is not None and not picklable(factory)):
            return await asyncio.to_thread(decide_job, factory, level, seed, seat, state_json, game)
        from ai import DEFAULT_BUDGET

        what = f"the {level} computer player's decision"
        timeout = DEFAULT_BUDGET + self.ai_margin
        return await self.run(
            what, timeout, decide_job, factory, level, seed, seat, state_json, game, ai=True
        )

    async def timeline(
        self, entries: Sequence[LogEntry], lang: str = "en", game: str = DEFAULT_GAME
    ) -> bytes | None:
        """The timeline animation of ``game`` from its log (None: no turn was played), its
        texts in ``lang``."""
        if not self.enabled:
            return await asyncio.to_thread(timeline_job, entries, lang, game)
        return await self.run(
            "drawing the timeline", self.timeline_timeout, timeline_job, list(entries), lang, game
        )

    # ------------------------------------------------------------------ running

    async def run(
        self, what: str, timeout: float, fn: Callable[..., T], *args: Any, ai: bool = False
    ) -> T:
        """``fn(*args)`` in a worker within ``timeout`` seconds of its start (in a thread when
        the pool is off); tried once more on a new executor when its worker stopped or got
        stuck, then :class:`WorkerError` naming ``what`` failed. ``ai``: a computer player's
        job (they use all workers but one)."""
        if not self.enabled:
            return await asyncio.to_thread(fn, *args)
        slots, ai_slots = self._limits()
        if not ai:
            return await self._attempts(what, timeout, fn, args, slots)
        async with ai_slots:
            return await self._attempts(what, timeout, fn, args, slots)

    async def _attempts(
        self,
        what: str,
        timeout: float,
        fn: Callable[..., T],
        args: tuple[Any, ...],
        slots: asyncio.Semaphore,
        *,
        held: bool = False,
        wanted: Callable[[], bool] | None = None,
    ) -> T:
        """``held``: the first try's slot is held already; ``wanted``: whether the job is
        still wanted, asked before each try (no: :class:`_NotWanted`)."""
        why = ""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if not (held and attempt == 1):
                await slots.acquire()  # released when the job ends, even if nobody awaits
            if wanted is not None and not wanted():
                slots.release()
                raise _NotWanted(f"{what}: no longer wanted")
            executor, gen = self._current()
            try:
                fut = executor.submit(fn, *args)
            except (BrokenProcessPool, RuntimeError) as e:  # broken or shut down meanwhile
                slots.release()
                why = f"the pool could not take it ({e})"
                self._replace(gen)
                continue
            fut.add_done_callback(lambda _f: _release_soon(loop, slots))
            self.jobs += 1
            try:
                return await asyncio.wait_for(asyncio.wrap_future(fut), timeout)
            except TimeoutError:
                why = f"it took more than {timeout:g} s"
            except BrokenProcessPool:
                why = "its worker process stopped"
            renewed = self._replace(gen)
            log.warning(
                "worker pool: %s failed (try %d of 2): %s%s",
                what,
                attempt,
                why,
                "; new worker processes replace the old ones" if renewed else "",
            )
        raise WorkerError(f"{what} failed twice: {why}")

    async def warm(self, timeout: float = 60.0) -> int:
        """Start the worker processes now and wait (at most ``timeout`` s) until each has
        answered once, so the first pictures after a start are the workers' own rather than
        the fallback's; how many answered (0 with the pool off, or when starting failed)."""
        if not self.enabled:
            return 0
        try:
            ex, _ = self._current()
            loop = asyncio.get_running_loop()
            jobs = [loop.run_in_executor(ex, _ready) for _ in range(self.workers)]
            done = await asyncio.wait_for(asyncio.gather(*jobs), timeout)
        except Exception as e:  # a cold pool still draws (the fallback meanwhile)
            log.warning("worker pool: not warmed (%r)", e)
            return 0
        return sum(1 for d in done if d)

    def _limits(self) -> tuple[asyncio.Semaphore, asyncio.Semaphore]:
        """The running loop's limits: ``workers`` jobs at once, the computer players' all
        but one of them (with two workers or more)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop = loop
            self._slots = asyncio.Semaphore(self.workers)
            self._ai_slots = asyncio.Semaphore(max(1, self.workers - 1))
            self._queue, self._dispatcher = ImageQueue(), None
        return self._slots, self._ai_slots

    def _current(self) -> tuple[ProcessPoolExecutor, int]:
        """The executor (started now if there is none) and its generation."""
        if self._executor is None:
            self._executor = self._start()
        return self._executor, self._generation

    def _start(self) -> ProcessPoolExecutor:
        ctx: BaseContext
        if "forkserver" in multiprocessing.get_all_start_methods():
            # forked from a small server process, not from this one (its threads, its open
            # database); the server imports the drawing and the rules once
            server = multiprocessing.get_context("forkserver")
            server.set_forkserver_preload(PRELOAD)
            ctx = server
        else:
            ctx = multiprocessing.get_context("spawn")
        packs = {name: adapter(name).data_packs() for name in registrations()}
        log.info("worker pool: starting %s", self.describe())
        return ProcessPoolExecutor(
            self.workers,
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(packs,),
        )

    def _replace(self, gen: int) -> bool:
        """Drop the executor of generation ``gen``, killing its processes (the next job
        starts a new one); False when it was dropped already (every job caught in a broken
        executor sees it broken)."""
        if gen != self._generation or self._executor is None:
            return False
        old, self._executor = self._executor, None
        self._generation += 1
        self.replaced += 1
        procs = list((getattr(old, "_processes", None) or {}).values())
        for p in procs:
            with contextlib.suppress(Exception):
                p.kill()
        old.shutdown(wait=False, cancel_futures=True)
        return True

    # ------------------------------------------------------------------ shutdown

    async def __aenter__(self) -> WorkerPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Stop the workers: jobs not started are cancelled, running ones get ``grace``
        seconds, then their processes are killed. Jobs after this run in threads (the
        pictures still queued get the fallback)."""
        if self._loop is asyncio.get_running_loop():
            for ticket in self._queue.drain():
                self._settle(ticket, error=WorkerError("the worker pool stopped"))
        await asyncio.to_thread(self.close, grace)

    def close(self, grace: float = SHUTDOWN_GRACE) -> None:
        """:meth:`aclose` for code without an event loop (it blocks up to ``grace`` s)."""
        self._closed = True
        old, self._executor = self._executor, None
        if old is None:
            return
        procs = list((getattr(old, "_processes", None) or {}).values())
        old.shutdown(wait=False, cancel_futures=True)
        _stop(procs, grace)
        log.info("worker pool: stopped")
