"""A whole game between computer players, with its pictures.

    python -m bot demo [--players 4] [--seed 7] [--agents heuristic] [--web [--web-port N]] OUTDIR

Plays through the game service (saved in ``OUTDIR/demo.sqlite3``), writes each turn's map
(``turn-NNN-map.png``), the battles, the final boards, the score sheet and the timeline
animation (``timeline.gif``); shows a progress bar on stderr and prints the final score table
and the time taken. ``--web`` serves the game's web page from the start (watch it live), and
keeps serving it after the end until Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from service import Frame, GameService, ImageRequest, Result, SeatSpec, ServiceError
from service.workers import WorkerError
from terminal.local import (
    BadArguments,
    add_web_arguments,
    add_workers_argument,
    check_level,
    check_players,
    check_scenario,
    check_web,
    fail,
    os_error_text,
    start_web,
    worker_pool,
)

if TYPE_CHECKING:
    from storage import SqliteGameStore
    from web.server import WebServer


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("outdir", help="folder for the images (created)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument(
        "--agents", default="heuristic", help="AI level(s), comma-separated, one per seat"
    )
    p.add_argument("--scenario", default=None, help="map id")
    p.add_argument("--max-rounds", type=int, default=100, help="stop an unfinished game here")
    p.add_argument("--no-images", action="store_true", help="only the final images")
    add_web_arguments(p)
    add_workers_argument(p)


def _bar(done: float, width: int = 30) -> str:
    k = int(done * width)
    return "[" + "#" * k + "." * (width - k) + "]"


def demo_seats(players: int, agents: str) -> list[SeatSpec]:
    """One AI seat per player, the ``--agents`` levels in turn; raises :class:`BadArguments`."""
    check_players(players, "--players")
    levels = [a.strip().lower() for a in agents.split(",") if a.strip()] or ["heuristic"]
    for level in levels:
        check_level(level)
    return [
        SeatSpec(f"AI {levels[i % len(levels)]} {i + 1}", ai=levels[i % len(levels)])
        for i in range(players)
    ]


async def run_demo(
    args: argparse.Namespace, *, out: TextIO = sys.stdout, err: TextIO = sys.stderr
) -> int:
    """Check the arguments (nothing is created before), then play and draw."""
    from storage import SqliteGameStore

    seats = demo_seats(args.players, args.agents)
    if args.max_rounds < 1:
        raise BadArguments(f"--max-rounds must be 1 or more, not {args.max_rounds}")
    outdir = Path(args.outdir)
    if outdir.exists() and not outdir.is_dir():
        raise BadArguments(f"OUTDIR {outdir} is a file: give a folder (it is created)")
    check_web(args)
    db = outdir / "demo.sqlite3"
    workers = worker_pool(args)
    store = SqliteGameStore(str(db))
    svc = GameService(store, workers=workers)
    check_scenario(svc, args.scenario)
    server = await start_web(svc, args)  # bound before anything is created
    try:
        return await _play(args, outdir, store, svc, seats, server, out=out, err=err)
    finally:
        if server is not None:
            await server.stop()


async def _play(
    args: argparse.Namespace,
    outdir: Path,
    store: SqliteGameStore,
    svc: GameService,
    seats: list[SeatSpec],
    server: WebServer | None,
    *,
    out: TextIO,
    err: TextIO,
) -> int:
    """Play the demo's game and write its pictures (see :func:`run_demo`); with the page
    ``server``, say its address once the game exists and keep serving after the end."""
    db = outdir / "demo.sqlite3"
    outdir.mkdir(parents=True, exist_ok=True)
    if db.exists():
        db.unlink()
    t0 = time.perf_counter()
    turn = 0
    missing: list[str] = []  # pictures that could not be drawn
    async with store, svc.workers:
        res = await svc.new_game(seats, scenario=args.scenario, seed=args.seed)
        gid = res.game_id
        page = await server.page_url(gid) if server is not None else None
        if page is not None:
            print(f"Game page: {page}", file=out, flush=True)
        limit = (await svc.peek(gid)).state.max_rounds or 50

        async def step(r: Result) -> None:
            nonlocal turn
            frame = r.frames[r.version]  # at a turn's end: the whole turn's events
            reqs = [q for p in r.public() for q in p.images]
            maps = [q for q in reqs if q.kind == "map"]
            if maps:
                turn += 1
                if not args.no_images:
                    await _write(svc, outdir / f"turn-{turn:03d}-map.png", maps[0], frame, missing)
            for q in reqs:
                if q.kind == "battle" and not args.no_images:
                    await _write(svc, outdir / f"turn-{turn:03d}-battle.png", q, frame, missing)
            st = frame.state
            where = "setup" if st.phase == "setup" else f"round {st.round:>2}"
            done = min(1.0, st.round / limit) if st.phase != "setup" else 0.0
            print(f"\r{_bar(done)} {where} turn {turn:>3} step {r.version:>4}", end="", file=err)

        cap = args.max_rounds

        res = await svc.run_ai_turns(gid, on_step=step, until=lambda s: s.round > cap)
        print(file=err)
        g = await svc.peek(gid)
        st, v = g.state, g.version
        final = g.frame()
        await _write(
            svc, outdir / "final-boards.png", ImageRequest("boards", None, v), final, missing
        )
        if st.phase == "ended":
            await _write(
                svc, outdir / "scores.png", ImageRequest("scores", None, v), final, missing
            )
        await _write(svc, outdir / "final-map.png", ImageRequest("map", None, v), final, missing)
        try:
            gif = await svc.timeline_image(gid)
        except WorkerError:
            missing.append("timeline.gif")
            gif = None
        if gif is not None:
            (outdir / "timeline.gif").write_bytes(gif)
        rows = await svc.scores(gid)
        took = time.perf_counter() - t0
        if st.phase == "ended":
            print(f"Game over after {st.round} rounds, {turn} turns, {v} steps.", file=out)
        else:
            print(f"Stopped unfinished at the round cap: {turn} turns, {v} steps.", file=out)
        cats = sorted({c for r in rows for c in r.categories})
        head = f"{'player':28} {'total':>5} " + " ".join(f"{c[:9]:>9}" for c in cats)
        print(head, file=out)
        for r in sorted(rows, key=lambda r: -r.total):
            line = f"{r.who[:28]:28} {r.total:>5} " + " ".join(
                f"{r.categories.get(c, 0):>9}" for c in cats
            )
            print(line + ("  winner" if r.winner else ""), file=out)
        pngs = len(list(outdir.glob("*.png")))
        print(f"Images in {outdir.resolve()}/ ({pngs} PNG, timeline.gif)", file=out)
        print(f"Time taken: {took:.1f} s", file=out)
        if missing:
            print(
                f"error: {len(missing)} picture(s) could not be drawn (a worker process failed "
                f"twice): {', '.join(missing[:5])}{', ...' if len(missing) > 5 else ''}; the "
                "game was played and saved",
                file=err,
            )
        if page is not None:
            print(
                f"A copy of the page to keep or host: python -m bot export-html {gid} "
                f"{outdir / 'page'} --db {db}",
                file=out,
            )
            print(f"The game page stays up: {page} — Ctrl-C to stop", file=out, flush=True)
            await serve_until_interrupted()
    return 1 if missing else 0


async def serve_until_interrupted() -> None:
    """Wait until Ctrl-C (``asyncio.run`` cancels the main task): the end of the command, not
    a failure, so the cancellation ends here and the command exits 0."""
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.Event().wait()


async def _write(
    svc: GameService, path: Path, req: ImageRequest, frame: Frame, missing: list[str]
) -> None:
    """Draw ``req`` in the service's worker processes and write it (its name goes to
    ``missing`` instead when it could not be drawn: the demo goes on)."""
    try:
        data = await svc.render(req, frame)
    except WorkerError:
        missing.append(path.name)
        return
    if data is not None:
        path.write_bytes(data)


def main(args: argparse.Namespace) -> int:
    from storage import StorageError

    try:
        return asyncio.run(run_demo(args))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except (BadArguments, ServiceError) as e:
        return fail(e)
    except StorageError as e:
        return fail(e, 1)
    except OSError as e:  # OUTDIR cannot be made or written
        return fail(os_error_text(e))
