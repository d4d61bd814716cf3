"""Jobs for the worker pool's tests: module-level, so a worker process imports them by name.
Markers are files: a job's first try and its retry run in different processes."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from ai import make_agent
from rules.brazil import GameState
from service.results import Frame, ImageRequest


def announce_then_wait(marker: str) -> int:
    """First try: write this worker's pid to ``marker`` and wait to be killed; retry: this
    worker's pid at once."""
    path = Path(marker)
    if not path.exists():
        path.write_text(str(os.getpid()))
        time.sleep(60)
    return os.getpid()


def exit_once(marker: str) -> str:
    """First try: the worker dies (``os._exit``); retry: done."""
    path = Path(marker)
    if not path.exists():
        path.write_text(str(os.getpid()))
        os._exit(3)
    return "done on the second try"


def always_exit() -> None:
    os._exit(3)


def hang_once(marker: str) -> str:
    """First try: write the pid and hang; retry: done."""
    path = Path(marker)
    if not path.exists():
        path.write_text(str(os.getpid()))
        time.sleep(120)
    return "done after a hang"


def raise_value_error(marker: str) -> None:
    """A job's own error (counted in ``marker``: it must run once, not be retried)."""
    with open(marker, "a") as f:
        f.write("x")
    raise ValueError("a bug in the job")


def pid() -> int:
    return os.getpid()


def sleep_then(seconds: float, value: str) -> str:
    time.sleep(seconds)
    return value


def exit_draw(req: ImageRequest, version: int, state_json: str, events_json: bytes) -> bytes:
    """In place of ``service.workers.draw_job``: the worker dies while drawing."""
    os._exit(4)


class ExitingAgent:
    """A computer player whose worker dies at every decision."""

    def decide(self, state: GameState, seat: int) -> Any:
        os._exit(5)


def exiting_factory(level: str, seed: int) -> Any:
    """``ai:exit`` seats kill their worker; the others are the real agents."""
    return ExitingAgent() if level == "exit" else make_agent(level, seed=seed)


def fixed_search_factory(level: str, seed: int) -> Any:
    """The search at a fixed number of rollouts (deterministic given the seed)."""
    return make_agent(level, seed=seed, **({"iterations": 6} if level == "search" else {}))


# ---------------------------------------------------------------- the image queue's fakes


class FakeExecutor(Executor):
    """An executor whose jobs end when the test says (no process, no clock): each submitted
    job is kept with its arguments (a drawing's first one is its image request)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        self.jobs.append((fn, args, fut))
        return fut

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass

    def reqs(self) -> list[ImageRequest]:
        """The image requests of the drawings submitted, in their order."""
        return [args[0] for _, args, _ in self.jobs]

    def finish(self, k: int) -> None:
        """Job ``k`` ends with its worker's picture (``full <kind> v<version>``)."""
        req = self.jobs[k][1][0]
        self.jobs[k][2].set_result(f"full {req.kind} v{req.version}".encode())

    def crash(self, k: int) -> None:
        """Job ``k``'s worker process dies."""
        self.jobs[k][2].set_exception(BrokenProcessPool("a worker died"))

    def fail(self, k: int, error: Exception) -> None:
        """Job ``k`` raises ``error`` (its own error, a bug)."""
        self.jobs[k][2].set_exception(error)


def fake_fallback(req: ImageRequest, frame: Frame) -> bytes:
    """In place of ``service.workers.render_fallback``: a picture that says it is one."""
    return f"fallback {req.kind} v{req.version}".encode()


def failing_fallback(req: ImageRequest, frame: Frame) -> bytes:
    """In place of ``service.workers.render_fallback``: the fallback fails too."""
    raise RuntimeError("the fallback failed too")
