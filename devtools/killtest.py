"""``python -m devtools.loadtest --kill K``: the bot in a subprocess against the fake Discord
server, SIGKILLed K times and restarted, and what was tried and lost.

The parent runs the fake server and the simulated players; the subprocess (``--worker``, a
test-only mode) runs a real :class:`~bot.app.TurnpostBot` over the SQLite file and pulls the
players' interactions from the fake server (``GET /fake/next``: the gateway's part). Kills
alternate between two moments:

- **during a save**: the worker runs with ``TURNPOST_LOADTEST_SAVE_HOOK=1``, a test-only
  store (:class:`PausingStore`) that, inside a save's transaction (before COMMIT), tells the
  parent (``POST /fake/saving``) and waits; the parent kills it there;
- **at a random moment** while several games are playing.

After each restart it checks: every acknowledged action ("Done") is in storage, no turn
post was sent twice, each game's last Take-my-turn button still answers (a step menu, or
"no longer available" when stale), and every game goes on (a new action is done).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, web

from devtools.fakediscord import FakeDiscord, Faults, Request, custom_ids
from devtools.harness import FIRST_CHANNEL, FIRST_USER, duplicate_posts, fake_server
from rules.games import game, game_of
from storage import GameStore, SqliteGameStore

SAVE_HOOK = "TURNPOST_LOADTEST_SAVE_HOOK"
CLOCK_FILE = "TURNPOST_LOADTEST_CLOCK_FILE"
"""Test-only: the worker's pacing clock runs this file's number of seconds ahead of real time
(the parent moves it to make reminders due)."""
IN_SAVE: contextvars.ContextVar[bool] = contextvars.ContextVar("in_save", default=False)

RestartCheck = Callable[["KillRun"], Awaitable[list[str]]]
RESTART_CHECKS: list[RestartCheck] = []
"""Checks run after every restart, each returning what it found wrong (reminders firing once
across a kill are checked by :meth:`KillRun.reminder_run` at the end of the run)."""


# ====================================================================== the worker (child)


class FileClock:
    """Real time plus the offset (seconds) written in a file by the parent."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def now(self) -> datetime:
        try:
            offset = float(self.path.read_text() or 0)
        except (OSError, ValueError):
            offset = 0.0
        return datetime.now(UTC) + timedelta(seconds=offset)


class PausingStore(SqliteGameStore):
    """Test-only: inside every save's transaction, before COMMIT, call ``on_open_save``."""

    on_open_save: Callable[[], Awaitable[None]] | None = None

    async def _append(self, *args: Any, **kwargs: Any) -> Any:
        token = IN_SAVE.set(True)
        try:
            return await super()._append(*args, **kwargs)
        finally:
            IN_SAVE.reset(token)

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[Any]:
        async with super()._write() as db:
            yield db
            if IN_SAVE.get() and self.on_open_save is not None:
                await self.on_open_save()


async def _worker(base: str, db: str) -> None:
    import discord

    from bot.app import TurnpostBot
    from devtools.harness import bot_settings

    discord.http.Route.BASE = base
    store = PausingStore(db, cache_reads=True)  # as the bot opens its own
    await store.open()
    async with ClientSession() as http:
        if os.environ.get(SAVE_HOOK) == "1":

            async def saving() -> None:
                async with http.post(f"{base}/fake/saving") as r:
                    await r.read()
                await asyncio.sleep(30)  # the parent kills us here

            store.on_open_save = saving
        settings = bot_settings(Path(db)).model_copy(update={"pacing_tick_seconds": 0.25})
        bot = TurnpostBot(settings, store=store)
        await bot.login("fake-token")
        if os.environ.get(CLOCK_FILE):
            bot.pacer.clock = FileClock(Path(os.environ[CLOCK_FILE]))
        async with http.post(f"{base}/fake/ready") as r:
            await r.read()
        while True:
            async with http.get(f"{base}/fake/next", params={"pid": str(os.getpid())}) as r:
                if r.status != 200:
                    continue
                payload = await r.json()
            bot._connection.parse_interaction_create(payload)


def worker_main(base: str, db: str) -> int:
    asyncio.run(_worker(base, db))
    return 0


# ====================================================================== the parent


@dataclass
class AfterKill:
    """What one restart's checks found (see :meth:`KillRun.check_games`)."""

    lost: int = 0
    extra: int = 0
    unposted: int = 0
    bad_buttons: int = 0
    stuck: int = 0


class KillRun:
    """The fake server's side of the kill test: the interaction queue, the answers seen."""

    def __init__(self, fake: FakeDiscord, db: Path, rng: random.Random) -> None:
        self.fake, self.db, self.rng = fake, db, rng
        self.clock_file = db.with_suffix(".clock")
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ready = asyncio.Event()
        self.proc: subprocess.Popen[bytes] | None = None
        self.kill_on_save = False
        self.killed_in_save = 0
        self.events: dict[str, asyncio.Event] = {}
        self.acked: dict[int, int] = {}  # channel -> actions acknowledged ("Done")
        self.channel_of: dict[str, int] = {}
        self.done_text: dict[str, str] = {}
        self.answers: dict[str, str] = {}  # token -> the follow-up's text
        self.last_failure = ""
        self.store: GameStore | None = None
        self.games: dict[int, int] = {}  # channel -> game id
        self.users: dict[int, tuple[int, int]] = {}
        fake.on_request.append(self.seen)
        fake.extra_routes += [
            ("GET", r"/fake/next", self.next_payload),
            ("POST", r"/fake/ready", self.on_ready),
            ("POST", r"/fake/saving", self.on_saving),
        ]

    def event(self, key: str) -> asyncio.Event:
        return self.events.setdefault(key, asyncio.Event())

    def seen(self, r: Request) -> None:
        parts = r.path.split("/")
        if r.path.startswith("/interactions/") and r.path.endswith("/callback"):
            self.event(f"cb:{parts[3]}").set()
        elif r.method == "POST" and r.path.startswith("/webhooks/") and len(parts) == 4:
            tok = parts[3]
            text = r.text()
            self.answers[tok] = self.answers.get(tok, "") + text
            if "Done: `" in text and tok in self.channel_of:
                ch = self.channel_of[tok]
                self.acked[ch] = self.acked.get(ch, 0) + 1
                self.done_text[tok] = text
            if "Only you see this" not in text:  # private news comes before the answer
                self.event(f"fu:{tok}").set()
        elif r.method == "POST" and r.path.startswith("/channels/") and "map.png" in r.files:
            self.event(f"map:{parts[2]}").set()

    async def next_payload(self, r: Request, _g: Any) -> web.Response:
        """The next interaction for the running worker. A poll still open from a killed
        worker gets nothing (it would take the interaction to a dead process)."""

        def current() -> bool:
            return self.proc is not None and str(self.proc.pid) == r.query.get("pid")

        if not current():
            return web.Response(status=204)
        try:
            payload = await asyncio.wait_for(self.queue.get(), 1.0)
        except TimeoutError:
            return web.Response(status=204)
        if not current():  # killed while this poll waited: keep it for the next worker
            self.queue.put_nowait(payload)
            return web.Response(status=204)
        return self.fake.reply(payload)

    async def on_ready(self, _r: Request, _g: Any) -> web.Response:
        self.ready.set()
        return web.Response(status=204)

    async def on_saving(self, _r: Request, _g: Any) -> web.Response:
        if self.kill_on_save and self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.killed_in_save += 1
            self.kill_on_save = False
        return web.Response(status=204)

    # ------------------------------------------------------------------ the subprocess

    async def start(self, *, save_hook: bool) -> None:
        self.ready.clear()
        env = dict(
            os.environ,
            **{SAVE_HOOK: "1" if save_hook else "0", CLOCK_FILE: str(self.clock_file)},
        )
        log = open(self.db.with_suffix(".log"), "ab")  # noqa: SIM115 (kept by the child)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "devtools.loadtest",
                "--worker",
                self.fake.base,
                "--db",
                str(self.db),
            ],
            env=env,
            stdout=log,
            stderr=log,
        )
        await asyncio.wait_for(self.ready.wait(), 120)

    async def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            while self.proc.poll() is None:
                await asyncio.sleep(0.02)
        while not self.queue.empty():  # undelivered interactions die with the bot's session
            self.queue.get_nowait()

    # ------------------------------------------------------------------ players

    async def send(
        self,
        kind: int,
        uid: int,
        channel: int,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
    ) -> str:
        payload = self.fake.interaction(kind, uid, channel, data, message)
        self.channel_of[payload["token"]] = channel
        await self.queue.put(payload)
        return str(payload["token"])

    async def wait(self, key: str, timeout: float = 20.0) -> bool:
        """Until the event ``key`` (True), the timeout or the bot's death (False)."""
        ev = self.event(key)
        end = time.monotonic() + timeout
        proc = self.proc
        while time.monotonic() < end:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ev.wait(), 0.1)
            if ev.is_set():
                return True
            if proc is not None and proc.poll() is not None:
                return False
        return False

    async def command(
        self, uid: int, channel: int, name: str, sub: str | None = None, **options: Any
    ) -> str:
        opts = [
            {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
            for k, v in options.items()
        ]
        data: dict[str, Any] = {"id": str(next(self.fake.ids)), "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        return await self.send(2, uid, channel, data)

    async def state(self, channel: int) -> Any:
        """The channel's game's state (read by its game's face)."""
        assert self.store is not None
        rec = await self.store.get_game(self.games[channel])
        return game(rec.game).load(rec.state_json)

    async def play(self, channel: int, timeout: float = 20.0) -> bool:
        """The decider plays a random legal step with /play; True when it was done."""
        st = await self.state(channel)
        g = game_of(st)
        ds = g.deciders(st)
        if not ds or g.is_over(st):
            return True
        seat = self.rng.choice(ds)
        text = g.format_action(st, self.rng.choice(g.legal_actions(st, seat)))
        tok = await self.command(self.users[channel][seat], channel, "play", command=text)
        answered = await self.wait(f"fu:{tok}", timeout)
        if not answered or tok not in self.done_text:
            self.last_failure = f"{text!r}: " + (
                self.answers.get(tok, "?")[:300] if answered else "no answer"
            )
        return answered and tok in self.done_text

    async def open_game(self, k: int) -> None:
        ch, a, b = FIRST_CHANNEL + k, FIRST_USER + 2 * k, FIRST_USER + 2 * k + 1
        self.users[ch] = (a, b)
        tok = await self.command(a, ch, "game", "new", players=2)
        assert await self.wait(f"cb:{tok}"), "no lobby"
        lobby = self.fake.messages[self.fake.originals[tok]]
        gid = int(next(c for c in custom_ids(lobby) if c.startswith("brz:l:")).split(":")[2])
        tok = await self.send(
            3, b, ch, {"custom_id": f"brz:l:{gid}:join", "component_type": 2}, lobby
        )
        assert await self.wait(f"cb:{tok}"), "join not answered"
        self.event(f"map:{ch}").clear()
        await self.send(3, a, ch, {"custom_id": f"brz:l:{gid}:start", "component_type": 2}, lobby)
        assert await self.wait(f"map:{ch}"), "the game did not start"
        assert self.store is not None
        rec = await self.store.get_active_game(ch)
        assert rec is not None
        self.games[ch] = rec.id

    async def logged(self, channel: int) -> int:
        assert self.store is not None
        log = await self.store.get_log(self.games[channel])
        return sum(1 for e in log if e.action_json is not None)

    async def unposted(self, channel: int) -> bool:
        """The game was saved past its last turn post (killed between COMMIT and the post:
        the step is kept, the channel misses its post)."""
        assert self.store is not None
        rec = await self.store.get_game(self.games[channel])
        versions = [
            int(c.split(":")[3])
            for m in self.fake.channel_messages.get(channel, [])
            for c in custom_ids(self.fake.messages[m])
            if c.startswith("brz:t:")
        ]
        return bool(versions) and rec.version > max(versions)

    def reminders(self) -> Counter[tuple[int, int, int]]:
        """Reminder pings posted so far: (game, seat, decision version) -> how many."""
        return Counter(
            (int(g), int(s), int(v))
            for m in self.fake.messages.values()
            for c in custom_ids(m)
            if c.startswith("brz:r:")
            for g, s, v in [c.split(":")[2:5]]
        )

    async def reminder_run(self) -> dict[str, int]:
        """Make the first reminder of every open decision due (the clock 13 h on, past half
        of the default 24 h deadline), SIGKILL the bot while it is pinging, restart it, and
        count: reminders due, sent, sent twice, never sent."""
        due: set[tuple[int, int]] = set()
        for ch, gid in self.games.items():
            st = await self.state(ch)
            due |= {(gid, s) for s in game_of(st).deciders(st)}
        before = self.reminders()
        self.clock_file.write_text(str(13 * 3600))
        end = time.monotonic() + 20
        while self.reminders() == before and time.monotonic() < end:
            await asyncio.sleep(0.005)
        await asyncio.sleep(self.rng.uniform(0.0, 0.05))
        await self.kill()
        killed_after = sum((self.reminders() - before).values())
        await self.start(save_hook=False)
        settled, end = self.reminders(), time.monotonic() + 20
        while time.monotonic() < end:
            await asyncio.sleep(1.5)  # several ticks with nothing new: settled
            now = self.reminders()
            if now == settled and {(g, s) for g, s, _ in now} >= due:
                break
            settled = now
        new = self.reminders() - before
        sent = {(g, s) for g, s, _ in new}
        return {
            "due": len(due),
            "sent_before_kill": killed_after,
            "sent": len(sent & due),
            "twice": sum(n - 1 for n in new.values() if n > 1),
            "never": len(due - sent),
        }

    async def kill_at_random(self) -> None:
        """Play a step in every game and kill the bot at a random moment once it is at work
        (a first answer)."""
        plays = [asyncio.create_task(self.play(ch)) for ch in self.games]
        acked = sum(self.acked.values())
        end = time.monotonic() + 10
        while sum(self.acked.values()) == acked and time.monotonic() < end:
            await asyncio.sleep(0.01)
        await asyncio.sleep(self.rng.uniform(0.0, 0.3))
        await self.kill()
        await asyncio.gather(*plays)

    async def check_games(
        self, i: int, before: dict[int, int], victim: int | None, problems: list[str]
    ) -> AfterKill:
        """After restart ``i``: every game's lost and doubled steps (``before``: the steps
        logged before the kill; ``victim``: the game whose save was open), steps never
        posted, silent old buttons, games that do not go on (``problems`` gets the words)."""
        c = AfterKill()
        for ch in self.games:
            acked, logged = self.acked.get(ch, 0), await self.logged(ch)
            c.lost += max(0, acked - logged)
            # a step saved without its "Done" (killed after COMMIT) is not lost; more than
            # one per game and kill would be a step applied twice
            if logged - before[ch] > 1:
                c.extra += 1
            if ch == victim and logged != before[ch]:  # killed before COMMIT
                problems.append(f"kill {i + 1}: the open save was not rolled back")
            if await self.unposted(ch):
                c.unposted += 1
            if not await self.press_old_button(ch):
                c.bad_buttons += 1
                problems.append(f"kill {i + 1}: game {self.games[ch]}: old button silent")
            if not await self.play(ch):
                c.stuck += 1
                problems.append(
                    f"kill {i + 1}: game {self.games[ch]}: did not go on: {self.last_failure}"
                )
        return c

    async def press_old_button(self, channel: int) -> bool:
        """The last Take-my-turn button of the game, pressed by the decider: it must answer
        (a step menu, or "no longer available" / "not your turn")."""
        posts = [
            self.fake.messages[m]
            for m in self.fake.channel_messages.get(channel, [])
            if any(c.startswith("brz:t:") for c in custom_ids(self.fake.messages[m]))
        ]
        if not posts:
            return True
        st = await self.state(channel)
        ds = game_of(st).deciders(st) or [0]
        post = posts[-1]
        cid = next(c for c in custom_ids(post) if c.startswith("brz:t:"))
        tok = await self.send(
            3, self.users[channel][ds[0]], channel, {"custom_id": cid, "component_type": 2}, post
        )
        if not await self.wait(f"cb:{tok}"):
            return False
        mid = self.fake.originals.get(tok)
        msg = self.fake.messages.get(mid or 0, {})
        text = json.dumps(msg)
        return "brz:s:" in text or "no longer available" in text or "Not your turn" in text


async def kill_run(kills: int, games: int, seed: int, out: Any = sys.stdout) -> dict[str, Any]:
    """K kills and restarts over ``games`` games; the figures (see module doc)."""

    def say(*parts: Any) -> None:
        print(*parts, file=out, flush=True)

    rng = random.Random(seed)
    lost = stuck = bad_buttons = extra = unposted = 0
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="turnpost-kill-") as tmp:
        db = Path(tmp) / "kill.sqlite3"
        async with fake_server(Faults()) as fake:
            k = KillRun(fake, db, rng)
            await k.start(save_hook=False)
            k.store = SqliteGameStore(str(db))
            await k.store.open()
            try:
                for g in range(games):
                    await k.open_game(g)
                for ch in k.games:  # a few steps before the first kill
                    for _ in range(2):
                        await k.play(ch)
                for i in range(kills):
                    in_save = i % 2 == 0
                    before = {ch: await k.logged(ch) for ch in k.games}
                    await k.kill()
                    await k.start(save_hook=in_save)
                    victim = None
                    if in_save:
                        k.kill_on_save = True
                        hit = k.killed_in_save
                        for _ in range(5):  # a step refused or not saved: another one
                            victim = rng.choice(list(k.games))
                            await k.play(victim, timeout=15)
                            if k.killed_in_save > hit:
                                break
                            before[victim] = await k.logged(victim)
                        else:
                            problems.append(f"kill {i + 1}: no save reached: {k.last_failure}")
                    else:
                        await k.kill_at_random()
                    await k.kill()
                    await k.start(save_hook=False)
                    c = await k.check_games(i, before, victim, problems)
                    lost, extra, unposted = lost + c.lost, extra + c.extra, unposted + c.unposted
                    bad_buttons, stuck = bad_buttons + c.bad_buttons, stuck + c.stuck
                    for check in RESTART_CHECKS:
                        problems += await check(k)
                    say(
                        f"kill {i + 1}/{kills} ({'inside a save' if in_save else 'at random'}): "
                        f"restarted; acknowledged {sum(k.acked.values())}, lost {lost}"
                    )
                dups = duplicate_posts(fake)
                acked_total = sum(k.acked.values())
                rem = await k.reminder_run()
            finally:
                await k.kill()
                await k.store.close()
    say(
        f"tried: {kills} kills ({k.killed_in_save} inside a save's transaction), "
        f"{acked_total} acknowledged actions, {games} games"
    )
    say(
        f"lost: {lost} acknowledged actions; duplicate posts: {dups}; steps applied twice: "
        f"{extra}; old buttons silent: {bad_buttons}; games that did not go on: {stuck}"
    )
    say(f"steps saved but never posted (killed between COMMIT and the post): {unposted}")
    say(
        f"reminders: {rem['due']} due, bot killed after {rem['sent_before_kill']} were sent, "
        f"restarted: {rem['sent']} sent, {rem['twice']} twice, {rem['never']} never "
        "(at most once: a kill between a claim and its ping loses that ping)"
    )
    for p in problems[:10]:
        say("  " + p)
    return {
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
        "problems": problems,
    }


def kill_main(args: argparse.Namespace) -> int:
    games = args.games if args.games != 200 else 3
    res = asyncio.run(kill_run(args.kill, games, args.seed))
    bad = res["lost"] or res["duplicates"] or res["extra"] or res["bad_buttons"] or res["stuck"]
    return 1 if bad else 0
