"""``python -m devtools.webbench``: the game pages' speed, printed as figures (not a test).

    python -m devtools.webbench [--players 3] [--seed 7] [--rounds 40] [--viewers 100]
                                [--idle 20] [--repeat 30]

Plays an all-AI game through the game service into a temporary database, then serves its
page from a separate process (``python -m devtools.webbench --serve DB PORT``, the bot's
page server alone) and measures from this one, over real HTTP on 127.0.0.1:

- the page's first load: the HTML document, its script and style, the live JSON and the
  live map (cold: just after the server started; warm: again);
- a step of the replay: a step's map (the first time it is drawn, then from the cache) and
  the steps' JSON;
- ``--viewers`` live streams open on the game while it is idle for ``--idle`` seconds: the
  server process's CPU time over that window, as a share of one core.

Targets (issue 20): first load < 300 ms, a replay step < 100 ms (images cached per version),
100 spectators of an idle game < 5 % CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from rules.cli import OneLineParser, real_number, seed, whole_number
from service import GameService
from storage.sqlite import SqliteGameStore


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
    return f"median {statistics.median(xs) * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  (n={len(xs)})"


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _serve(db: str, port: int) -> None:
    from web.server import WebServer

    async with SqliteGameStore(db) as store:
        server = WebServer(GameService(store), port=port, rate=10_000, burst=1_000_000)
        await server.start()
        print("ready", flush=True)
        await asyncio.Event().wait()


async def _make_game(db: str, players: int, seed: int, rounds: int) -> tuple[int, str]:
    async with SqliteGameStore(db) as store:
        svc = GameService(store)
        res = await svc.new_game(["Ana"] + ["ai:heuristic"] * (players - 1), seed=seed)
        gid = res.game_id
        # Ana plays her first legal command each time until the round cap: the game stays
        # running (a human decides at the end), as a live page would watch it
        for _ in range(100_000):
            out = await svc.run_ai_turns(gid, until=lambda s: s.round > rounds)
            st = await svc.state(gid)
            if st.round > rounds or st.phase == "ended" or not out.next:
                break
            await svc.act(gid, 0, (await svc.legal(gid, 0))[0])
        return gid, await svc.archive.token(gid)


async def _get(http: aiohttp.ClientSession, url: str) -> tuple[float, bytes]:
    t = time.perf_counter()
    async with http.get(url) as r:
        body = await r.read()
        if r.status != 200:
            raise RuntimeError(f"{url}: {r.status} {body[:200]!r}")
    return time.perf_counter() - t, body


async def _first_load(http: aiohttp.ClientSession, page: str) -> tuple[float, float]:
    """(document + script + style + live JSON, then the live map): seconds each."""
    import json

    t0 = time.perf_counter()
    await _get(http, page)
    parts = await asyncio.gather(
        _get(http, page + "page.js"), _get(http, page + "page.css"), _get(http, page + "live.json")
    )
    t1 = time.perf_counter()
    live = json.loads(parts[2][1])
    await _get(http, page + live["map"])
    return t1 - t0, time.perf_counter() - t0


async def run(args: argparse.Namespace) -> int:
    tmp = tempfile.mkdtemp(prefix="webbench-")
    db = str(Path(tmp) / "bench.sqlite3")
    t = time.perf_counter()
    gid, token = await _make_game(db, args.players, args.seed, args.rounds)
    print(
        f"game #{gid}: {args.players} players, seed {args.seed}, played in {time.perf_counter() - t:.1f} s"
    )
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "devtools.webbench", "--serve", db, str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            print("the page server did not start", file=sys.stderr)
            return 1
        page = f"http://127.0.0.1:{port}/g/{token}/"
        async with aiohttp.ClientSession() as http:
            import json

            doc, full = await _first_load(http, page)
            print(
                f"first load, cold server: document+script+style+live {doc * 1000:.1f} ms, with the map {full * 1000:.1f} ms"
            )
            docs, fulls = [], []
            for _ in range(args.repeat):
                d, f = await _first_load(http, page)
                docs.append(d)
                fulls.append(f)
            print(f"first load, warm:  document+script+style+live {_ms(docs)}")
            print(f"                   with the live map          {_ms(fulls)}")
            steps = json.loads((await _get(http, page + "steps.json"))[1])["steps"]
            print(f"steps: {len(steps)}; steps.json {len(json.dumps(steps)) // 1024} KiB")
            pick = steps[:: max(1, len(steps) // args.repeat)][: args.repeat]
            cold = [(await _get(http, page + s["map"]))[0] for s in pick]
            warm = [(await _get(http, page + s["map"]))[0] for s in pick]
            sj = [(await _get(http, page + "steps.json"))[0] for _ in range(args.repeat)]
            print(f"replay step, map drawn the first time: {_ms(cold)}")
            print(f"replay step, map cached:               {_ms(warm)}")
            print(f"steps.json (all steps, cached archive): {_ms(sj)}")
            streams = [
                await http.get(page + "events", timeout=aiohttp.ClientTimeout(total=None))
                for _ in range(args.viewers)
            ]
            for r in streams:
                await r.content.readline()  # the first event arrived: connected
            await asyncio.sleep(2)
            c0, w0 = _cpu_seconds(proc.pid), time.perf_counter()
            await asyncio.sleep(args.idle)
            c1, w1 = _cpu_seconds(proc.pid), time.perf_counter()
            share = (c1 - c0) / (w1 - w0)
            print(
                f"{args.viewers} live viewers, game idle {w1 - w0:.0f} s: server CPU {share * 100:.2f} % of one core"
            )
            for r in streams:
                r.close()
    finally:
        proc.terminate()
        proc.wait(10)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(
        prog="python -m devtools.webbench",
        description="The game pages' speed: first load, a replay step, idle live viewers' CPU.",
    )
    p.add_argument("--players", type=int, default=3, choices=[2, 3, 4])
    p.add_argument("--seed", type=seed, default=7)
    p.add_argument(
        "--rounds",
        type=whole_number(1, 1000),
        default=40,
        help="play up to this round (default 40)",
    )
    p.add_argument("--viewers", type=whole_number(1, 10_000), default=100)
    p.add_argument(
        "--idle",
        type=real_number(0.0, 3600.0),
        default=20.0,
        help="seconds of idle CPU measured",
    )
    p.add_argument("--repeat", type=whole_number(1, 10_000), default=30)
    p.add_argument("--serve", nargs=2, metavar=("DB", "PORT"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        asyncio.run(_serve(args.serve[0], int(args.serve[1])))
        return 0
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
