"""``python -m devtools.loadtest``: many concurrent games through the fake Discord server, with
discord.py's real code, real storage (SQLite in a temporary folder) and real rendering.

    python -m devtools.loadtest [--games 200] [--rate 5] [--duration 60] [--seed 1]
                           [--faults 429=0.02,500=0.01,latency=0.02] [--no-images]
                           [--buckets]
                           [--ramp 5,8,12,16,20,25] [--ramp-duration 20] [--no-ramp]
                           [--ai-games 20] [--no-pool | --workers N | --compare-pool]
    python -m devtools.loadtest --kill 10 [--games 3]

N games are opened in N channels through the lobby (``/game new``, Join, Start), each
between two simulated players. Player actions arrive as a Poisson process at ``--rate``
actions per second in all; each arrival is one step of a random game that is not busy: its
decider picks a random legal action and plays it with ``/play`` or, one time in four, with
the buttons (Take my turn → menus → Confirm). Every step ends in a public post with a fresh
map, so a step is a "turn" in the figures. An arrival finding every game busy waits (the
backlog).

Printed: the interaction acknowledgement latency p50/p95/p99 (from the dispatch of the
interaction to the fake server receiving its first response or defer), the share
acknowledged within 3 s, the time from the action to the map's post p50/p95, the pictures the
workers did not draw (drawn by the fallback in the bot's process: failed, late, superseded),
errors, the requests Discord refused by kind (the faults injected, Discord's limits), the
steps saved but never announced (a game's stored version past the newest version its public
posts showed: a step the channel never heard of), and a
ramp: rates tried one after another on the same games; a rate is sustained when the backlog
does not grow and the map p95 stays under 2 s. The highest sustained rate is printed.

``--ai-games N`` adds N games between two computer players (``search`` at the default 2 s
budget) that think during the main run (they are stopped before the ramp): their steps go
through the bot's own path (the publisher runs the AI seats and posts every turn with its
map). The images and the computer players run in the bot's worker processes (``--workers
N``, default the CPU count); ``--no-pool`` runs them in threads of the bot's process (the
old way); ``--compare-pool`` runs the whole test twice in one run, threads then the pool,
each with a new bot and the same games, and prints their figures side by side.

``--kill K`` runs the bot in a subprocess instead and SIGKILLs it K times (alternately while
a save's transaction is open — a test-only hook pauses there — and at a random moment),
restarting it each time, and prints what was tried and lost: acknowledged actions missing
from storage, turns posted twice, old buttons that failed, games that did not go on.

``--processes N --store postgres`` runs N bot processes on one PostgreSQL database, one shard
each, and kills them in turn (:mod:`devtools.multiproc`).

The simulated players keep their own copy of each game (they apply their own actions, and
the answers the service gives by itself: a decision with one legal answer), and
at the end every game's stored state must equal the players' copy (printed as mismatches).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import discord

from devtools.fakediscord import (
    Buckets,
    FakeDiscord,
    Faults,
    Request,
    custom_ids,
    walk_components,
)
from devtools.harness import FIRST_CHANNEL, FIRST_USER, bot_settings, duplicate_posts, fake_server
from rules.cli import OneLineParser, finite_number, finite_numbers, out_of_range, seed
from rules.games import game, game_of

log = logging.getLogger("devtools.loadtest")

ACK_LIMIT = 3.0  # Discord fails an interaction not answered within 3 s
AI_WARMUP = 5.0  # seconds the AI games think before the main run starts
AI_SETTLE = 5.0  # seconds between stopping the AI games and the ramp
MAP_TARGET = 2.0  # map posted p95 for a rate to count as sustained


def percentile(xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method; NaN for no data."""
    if not xs:
        return math.nan
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


@dataclass
class Table:
    """One simulated game: its channel, players, and the players' copy of the state."""

    channel: int
    users: tuple[int, int]
    game_id: int = 0
    state: Any = None  # the game's state (the registry's face reads it)
    busy: bool = False
    steps: int = 0


@dataclass
class Window:
    """Figures of one stretch of time (the main run or one ramp step)."""

    rate: float
    started: float
    acks: list[float] = field(default_factory=list)
    maps: list[float] = field(default_factory=list)
    arrivals: int = 0
    done: int = 0
    backlog: list[int] = field(default_factory=list)  # sampled once a second
    ended: float = 0.0
    cpu: tuple[float, float] = (0.0, 0.0)  # CPU seconds: the bot's process, its workers

    def cpu_per_turn(self) -> str:
        """CPU time per turn: the bot's process (with the fake server and the players: all
        in one process) + its worker processes."""
        if not self.done:
            return "-"
        main, workers = (1000 * c / self.done for c in self.cpu)
        return f"{main:.0f}+{workers:.0f} ms"

    def sustained(self) -> bool:
        if not self.maps or len(self.backlog) < 4:
            return False
        half = len(self.backlog) // 2
        growing = max(self.backlog[half:]) > max(self.backlog[:half]) + self.rate / 2
        behind = self.backlog[-1] > max(5.0, self.rate)  # over a second of work waiting
        return not growing and not behind and percentile(self.maps, 0.95) < MAP_TARGET

    def line(self) -> str:
        secs = max(1e-9, (self.ended or time.monotonic()) - self.started)
        return (
            f"rate {self.rate:5.1f}/s: {self.done / secs:5.1f} turns/s done, "
            f"ack p95 {percentile(self.acks, 0.95) * 1000:6.0f} ms, "
            f"map p50 {percentile(self.maps, 0.5) * 1000:6.0f} ms "
            f"p95 {percentile(self.maps, 0.95) * 1000:6.0f} ms, "
            f"backlog max {max(self.backlog, default=0)} end {self.backlog[-1] if self.backlog else 0}"
            f", CPU/turn {self.cpu_per_turn()}"
            f" -> {'sustained' if self.sustained() else 'NOT sustained'}"
        )


class Driver:
    """Feeds interactions to an in-process bot and measures the fake server's view of them."""

    def __init__(self, fake: FakeDiscord, client: discord.Client, rng: random.Random) -> None:
        self.fake = fake
        self.client = client
        self.rng = rng
        self.dispatched: dict[str, float] = {}  # interaction token -> dispatch time
        self.acked: set[str] = set()
        self.pending_map: dict[int, float] = {}  # channel -> dispatch time of its action
        self.window: Window | None = None
        self.all_acks: list[float] = []
        self.all_maps: list[float] = []
        self.errors: list[str] = []
        self.refused: int = 0  # "that did not work" / "no longer available" answers
        self.by_token: dict[str, list[Request]] = {}  # the answers to each interaction
        self.unacknowledged = 0  # steps saved although the player was not told "Done"
        self.no_images = False  # then the post without its map is what is timed
        self.refused_tokens: set[str] = set()  # interactions Discord refused something of
        self.not_done_refused = 0  # steps not done where Discord refused the answer
        self.saved_not_shown = 0  # "your move was saved; the post will follow" answers
        self.told_nothing = False  # the last answer said "nothing was changed"
        self.false_nothing = 0  # ... and the step had been saved: a false answer
        fake.on_request.append(self.seen)
        fake.on_refused.append(self.seen_refused)

    def seen_refused(self, kind: str, r: Request) -> None:
        """A request Discord refused (a fault, a limit): the interaction it answers is
        marked, its missing answer is Discord's doing, not the bot's."""
        if r.path.startswith(("/interactions/", "/webhooks/")):
            parts = r.path.split("/")
            if len(parts) > 3 and parts[3] in self.dispatched:
                self.refused_tokens.add(parts[3])

    def seen(self, r: Request) -> None:
        if r.path.startswith(("/interactions/", "/webhooks/")):
            parts = r.path.split("/")
            if len(parts) > 3 and parts[3] in self.dispatched:
                self.by_token.setdefault(parts[3], []).append(r)
        if r.path.endswith("/callback"):
            token = r.path.split("/")[3]
            t0 = self.dispatched.get(token)
            if t0 is not None and token not in self.acked:
                self.acked.add(token)
                self.all_acks.append(r.at - t0)
                if self.window is not None:
                    self.window.acks.append(r.at - t0)
        elif (  # the map shown: a new turn post, or the turn's post edited in place
            r.method in ("POST", "PATCH")
            and r.path.startswith("/channels/")
            and ("map.png" in r.files or (self.no_images and "brz:" in r.text()))
        ):
            ch = int(r.path.split("/")[2])
            t0 = self.pending_map.pop(ch, None)
            if t0 is not None:
                self.all_maps.append(r.at - t0)
                if self.window is not None:
                    self.window.maps.append(r.at - t0)

    async def feed(self, payload: dict[str, Any], *, action: bool = False) -> list[Request]:
        """Dispatch one INTERACTION_CREATE, wait for the bot's handler; the requests it made
        (those of this interaction's token)."""
        token = payload["token"]
        before = asyncio.all_tasks()
        now = time.monotonic()
        self.dispatched[token] = now
        if action:
            self.pending_map[int(payload["channel_id"])] = now
        self.client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        new = asyncio.all_tasks() - before
        if new:
            await asyncio.wait(new)
        for t in new:
            if not t.cancelled() and t.exception() is not None:
                self.errors.append(repr(t.exception()))
        if token not in self.acked and token not in self.refused_tokens:
            self.errors.append(f"interaction {token} never acknowledged")
        del self.dispatched[token]
        self.acked.discard(token)
        self.last_refused = token in self.refused_tokens
        self.refused_tokens.discard(token)
        return self.by_token.pop(token, [])

    last_refused = False  # whether Discord refused a request of the last interaction fed

    async def command(
        self, uid: int, channel: int, name: str, sub: str | None = None, **options: Any
    ) -> list[Request]:
        opts = [
            {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
            for k, v in options.items()
        ]
        data: dict[str, Any] = {"id": str(next(self.fake.ids)), "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        return await self.feed(self.fake.interaction(2, uid, channel, data), action=name == "play")

    async def press(
        self,
        uid: int,
        message: dict[str, Any],
        custom_id: str,
        value: str | None = None,
        *,
        action: bool = False,
    ) -> list[Request]:
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if value is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        payload = self.fake.interaction(3, uid, int(message["channel_id"]), data, message)
        return await self.feed(payload, action=action)

    def last_message(self, channel: int, prefix: str) -> dict[str, Any] | None:
        for mid in reversed(self.fake.channel_messages.get(channel, [])[-20:]):
            msg = self.fake.messages[mid]
            if any(c.startswith(prefix) for c in custom_ids(msg)):
                return msg
        return None


def answer_text(reqs: Sequence[Request]) -> str:
    return " ".join(r.text() for r in reqs)


async def open_games(d: Driver, n: int, seed: int) -> list[Table]:
    """``/game new`` by the first player, Join by the second, Start: n games."""
    tables: list[Table] = []
    bot_tables = d.client.tables  # type: ignore[attr-defined]
    for k in range(n):
        ch, a, b = FIRST_CHANNEL + k, FIRST_USER + 2 * k, FIRST_USER + 2 * k + 1
        d.fake.users[a], d.fake.users[b] = f"Ana{k}", f"Bo{k}"
        await d.command(a, ch, "game", "new", players=2)
        lobby = d.last_message(ch, "brz:l:")
        assert lobby is not None, "no lobby posted"
        gid = int(next(c for c in custom_ids(lobby) if c.startswith("brz:l:")).split(":")[2])
        await d.press(b, lobby, f"brz:l:{gid}:join")
        bot_tables.next_seed = seed * 100_003 + k
        await d.press(a, lobby, f"brz:l:{gid}:start")
        rec = await bot_tables.store.get_active_game(ch)
        st = game(rec.game).load(rec.state_json)
        tables.append(Table(ch, (a, b), rec.id, st))
    return tables


AI_LEVEL = "search"  # at its default budget (ai.DEFAULT_BUDGET, 2 s)


@dataclass
class AiGames:
    """Games between two computer players, thinking in the background."""

    game_ids: list[int] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    async def steps(self, client: discord.Client) -> int:
        """The steps saved in these games so far (each one a decision)."""
        store = client.tables.store  # type: ignore[attr-defined]
        return sum([(await store.get_game(g)).version for g in self.game_ids])

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        for t in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        self.tasks.clear()


async def start_ai_games(client: discord.Client, n: int, first_channel: int, seed: int) -> AiGames:
    """``n`` games of two ``search`` players, each published (and so played) by the bot as
    a game whose seats are all computers: the publisher runs the AI seats, one post per
    turn with its map, until the game ends or :meth:`AiGames.stop`."""
    from devtools.fakediscord import GUILD_ID
    from service import SeatSpec

    tables = client.tables  # type: ignore[attr-defined]
    out = AiGames()
    seats = [SeatSpec.computer(AI_LEVEL) for _ in range(2)]
    for k in range(n):
        res = await tables.svc.new_game(
            seats, channel_id=first_channel + k, guild_id=GUILD_ID, seed=seed * 7919 + k
        )
        out.game_ids.append(res.game_id)

        async def play_ai(channel: int = first_channel + k, res: Any = res) -> None:
            try:
                await tables.publish(res, force=True)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # counted as an error of the run
                out.errors.append(f"AI game in channel {channel}: {e!r}")

        out.tasks.append(asyncio.create_task(play_ai()))
    return out


async def step(d: Driver, t: Table, rng: random.Random) -> None:
    """The decider of ``t`` plays one random legal step (typed, or with the buttons)."""
    st = t.state
    assert st is not None
    g = game_of(st)
    ds = g.deciders(st)
    if g.is_over(st) or not ds:
        return
    seat = rng.choice(ds)
    uid = t.users[seat]
    acts = g.legal_actions(st, seat)
    post = d.last_message(t.channel, "brz:t:")
    if rng.random() < 0.25 and post is not None:
        index = await guided(d, t, uid, post, rng)
        if index is None:
            await resync(d, t)
            return
        action = acts[index]
    else:
        action = rng.choice(acts)
        reqs = await d.command(uid, t.channel, "play", command=g.format_action(st, action))
        if saved_answer(d, reqs):
            await resync(d, t)
            return
        if "Done:" not in answer_text(reqs):
            d.refused += 1
            if d.last_refused:  # Discord refused its answer (a fault, a limit): counted
                d.not_done_refused += 1
            else:
                d.errors.append(f"game {t.game_id}: {g.format_action(st, action)!r} not done")
            await resync(d, t)
            return
    after, _ = g.apply(st, action)
    t.state = answered(after)
    t.steps += 1


def answered(st: Any) -> Any:
    """``st`` after the answers the service gives by itself (every seat here is a human who
    lets a turn with only its end left end by itself): a decision of a kind the game's
    adapter answers (``forced_answers``) with one legal answer is taken, as
    :meth:`service.session.GameSession.ai_seat` takes it."""
    from service.games import adapter_of

    A = adapter_of(st)
    for _ in range(1000):
        if A.over(st):
            return st
        for seat in A.face.deciders(st):
            legal = A.face.legal_actions(st, seat)
            if A.pending_kind(st, seat) in A.forced_answers and len(legal) == 1:
                st, _ = A.apply(st, legal[0])
                break
        else:
            return st
    return st


SAVED = "Your move was saved."
"""How the bot's answer begins when a step was saved but what follows it failed (its post
refused by Discord: shown at the next tick)."""
NOTHING = "nothing was changed"
"""What the bot's answer says when a press failed before anything was saved."""


def saved_answer(d: Driver, reqs: Sequence[Request]) -> bool:
    """Whether the answer says the step was saved though its post is still to come (counted;
    the player's copy is then taken from the store); notes a "nothing was changed"."""
    text = answer_text(reqs)
    d.told_nothing = NOTHING in text
    if SAVED in text:
        d.saved_not_shown += 1
        return True
    return False


async def resync(d: Driver, t: Table) -> None:
    """After a step the player was not told was done: take the stored game as it is (a step
    saved without its acknowledgement is counted, not lost)."""
    rec = await d.client.tables.store.get_game(t.game_id)  # type: ignore[attr-defined]
    stored = game(rec.game).load(rec.state_json)
    if stored != t.state:
        d.unacknowledged += 1
        d.false_nothing += d.told_nothing  # "nothing was changed", and it had been
        t.state = stored
    d.told_nothing = False


async def guided(
    d: Driver, t: Table, uid: int, post: dict[str, Any], rng: random.Random
) -> int | None:
    """Take my turn → a random option in each menu → Confirm: the index confirmed."""
    turn = next(c for c in custom_ids(post) if c.startswith("brz:t:"))
    reqs = await d.press(uid, post, turn)
    cb = next((r for r in reqs if r.path.endswith("/callback")), None)
    token = cb.path.split("/")[3] if cb else ""
    mid = d.fake.originals.get(token)
    if mid is None:
        d.refused += 1
        return None
    msg = d.fake.messages[mid]
    for _ in range(12):
        ids = custom_ids(msg)
        confirm = next((c for c in ids if c.startswith("brz:c:")), None)
        if confirm is not None:
            reqs = await d.press(uid, msg, confirm, action=True)
            if saved_answer(d, reqs):
                return None  # resynced by the caller
            if "Done." not in answer_text(reqs):  # the confirm's answer on success
                d.refused += 1
                if d.last_refused:
                    d.not_done_refused += 1
                else:
                    d.errors.append(f"game {t.game_id}: guided confirm refused")
                return None
            return int(confirm.split(":")[4])
        sel = next(
            (
                c
                for c in walk_components(msg.get("components") or [])
                if str(c.get("custom_id", "")).startswith("brz:s:")
            ),
            None,
        )
        if sel is None:
            d.refused += 1
            return None
        await d.press(uid, msg, sel["custom_id"], rng.choice([o["value"] for o in sel["options"]]))
    return None


def cpu_seconds(client: discord.Client) -> tuple[float, dict[int, float]]:
    """CPU seconds used so far by this process (the bot, the fake server, the players) and
    by each of the bot's worker processes (Linux: ``/proc``)."""
    pool = client.tables.svc.workers  # type: ignore[attr-defined]
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    workers: dict[int, float] = {}
    for pid in pool.pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        workers[pid] = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return time.process_time(), workers


async def play(
    d: Driver, tables: list[Table], rate: float, seconds: float, rng: random.Random
) -> Window:
    """Poisson arrivals at ``rate`` per second for ``seconds``; then wait for the last ones."""
    cpu0 = cpu_seconds(d.client)
    w = Window(rate, time.monotonic())
    d.window = w
    queue = 0
    running: set[asyncio.Task[None]] = set()
    end = w.started + seconds
    next_arrival = w.started + rng.expovariate(rate)
    next_sample = w.started + 1.0

    async def one(t: Table) -> None:
        try:
            await step(d, t, rng)
            w.done += 1
        except Exception as e:  # a crash of the driver is an error of the run, not a hang
            d.errors.append(f"game {t.game_id}: {e!r}")
        finally:
            t.busy = False

    while True:
        now = time.monotonic()
        if now >= end:
            break
        while next_arrival <= now:
            w.arrivals += 1
            queue += 1
            next_arrival += rng.expovariate(rate)
        idle = [
            t for t in tables if not t.busy and t.state is not None and t.state.phase != "ended"
        ]
        while queue and idle:
            t = idle.pop(rng.randrange(len(idle)))
            t.busy = True
            queue -= 1
            task = asyncio.create_task(one(t))
            running.add(task)
            task.add_done_callback(running.discard)
        if now >= next_sample:
            w.backlog.append(queue + len(running))
            next_sample += 1.0
        await asyncio.sleep(min(0.01, max(0.0, next_arrival - now)))
    if running:
        await asyncio.wait(running)
    w.ended = time.monotonic()
    cpu1 = cpu_seconds(d.client)
    w.cpu = (
        cpu1[0] - cpu0[0],
        sum(max(0.0, t - cpu0[1].get(pid, 0.0)) for pid, t in cpu1[1].items()),
    )
    d.window = None
    return w


async def check_states(d: Driver, tables: list[Table]) -> list[str]:
    """Every stored game equals the players' copy (nothing lost, nothing applied twice)."""
    store = d.client.tables.store  # type: ignore[attr-defined]
    bad = []
    for t in tables:
        rec = await store.get_game(t.game_id)
        if t.state is None or game(rec.game).load(rec.state_json) != t.state:
            bad.append(f"game {t.game_id}")
    return bad


def refusal_line(counts: dict[str, int]) -> str:
    """``edit_quota 3, late 1, 429 5``: the requests refused, by kind (faults injected and
    Discord's limits), the most frequent first; "none"."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{kind} {n}" for kind, n in ranked) or "none"


def announced_versions(fake: FakeDiscord) -> dict[int, int]:
    """Each game's newest version whose public post reached the fake channel: the
    Take-my-turn button (``brz:t:GAME:VERSION``) of a public post or edit Discord accepted
    (a later post tells every step since the one before)."""
    out: dict[int, int] = {}
    for r in fake.requests:
        if (
            r.method in ("POST", "PATCH")
            and r.path.startswith("/channels/")
            and 200 <= r.status < 300
            and r.json
        ):
            for c in custom_ids(r.json):
                if c.startswith("brz:t:"):
                    _, _, gid, version = c.split(":")[:4]
                    out[int(gid)] = max(out.get(int(gid), 0), int(version))
    return out


def end_posted(fake: FakeDiscord, channel: int, after: int) -> bool:
    """A public post without a turn's buttons (the game's end) reached ``channel`` after
    its last turn post of version ``after``."""
    seen_last = False
    for r in fake.requests:
        if not (r.path.startswith(f"/channels/{channel}/messages") and 200 <= r.status < 300):
            continue
        ids = [c for c in custom_ids(r.json or {}) if c.startswith("brz:t:")]
        if any(int(c.split(":")[3]) == after for c in ids):
            seen_last = True
        elif seen_last and r.method == "POST" and r.path.endswith("/messages") and not ids:
            return True
    return False


async def never_announced(d: Driver, tables: Sequence[Table]) -> tuple[int, int]:
    """(versions saved, steps saved but never announced) in the players' games: a game's stored
    version against the newest version its public posts showed (an ended game's last steps
    are announced by its end post)."""
    store = d.client.tables.store  # type: ignore[attr-defined]
    shown = announced_versions(d.fake)
    saved = missing = 0
    for t in tables:
        rec = await store.get_game(t.game_id)
        saved += rec.version
        last = shown.get(t.game_id, 0)
        if rec.version > last:
            st = game(rec.game).load(rec.state_json)
            if not (game_of(st).is_over(st) and end_posted(d.fake, t.channel, last)):
                missing += rec.version - last
    return saved, missing


def last_touched(fake: FakeDiscord, mid: int | None) -> datetime | None:
    """When the fake's message ``mid`` was last posted or edited (virtual clock; None: gone)."""
    msg = fake.messages.get(mid or 0)
    if msg is None:
        return None
    return datetime.fromisoformat(msg.get("edited_timestamp") or msg["timestamp"])


async def stale_statuses(d: Driver, tables: Sequence[Table]) -> int:
    """The players' games whose status message is missing or older than the game's turn post
    (the status is edited, or re-posted, after every published turn)."""
    store = d.client.tables.store  # type: ignore[attr-defined]
    stale = 0
    for t in tables:
        rec = await store.get_game(t.game_id)
        turn = rec.settings.open_post
        shown = last_touched(d.fake, turn.message_id) if turn is not None else None
        status = last_touched(d.fake, rec.settings.status_message_id)
        if status is None or (shown is not None and status < shown):
            stale += 1
    return stale


def picture_line(client: discord.Client) -> str:
    """The worker pool's pictures drawn by the fallback (failed, late, superseded) and still
    queued: every post carries its map, these are the ones the workers did not draw ("" when
    the pool is off)."""
    pool = client.tables.svc.workers  # type: ignore[attr-defined]
    if not pool.workers:
        return ""
    why = ", ".join(f"{k} {n}" for k, n in sorted(pool.fallback_why.items())) or "none"
    return (
        f"pictures drawn by the fallback in the bot's process: {pool.fallbacks} ({why}); "
        f"still queued: {pool.queued()}"
    )


class ErrorCounter(logging.Handler):
    """The bot's ERROR records, and how many carried a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []
        self.tracebacks = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}"[:300])
        self.tracebacks += record.exc_info is not None


async def run(args: argparse.Namespace, out: Any = sys.stdout) -> dict[str, Any]:
    """The load test (see module doc); prints the figures and returns them (with
    ``--compare-pool``: the pool's, and both under ``"compare"``)."""
    if not args.compare_pool:
        return await run_once(args, out, 0 if args.no_pool else args.workers)
    figures = []
    for workers in (0, args.workers):
        kind = pool_name(workers)
        print(f"=== {kind} ===", file=out, flush=True)
        figures.append(await run_once(args, out, workers))
    print(compare_table(args, figures), file=out, flush=True)
    both = dict(figures[-1])
    both["errors"] = figures[0]["errors"] + figures[1]["errors"]
    both["duplicates"] = figures[0]["duplicates"] + figures[1]["duplicates"]
    both["mismatched"] = figures[0]["mismatched"] + figures[1]["mismatched"]
    both["compare"] = figures
    return both


def pool_name(workers: int | None) -> str:
    from service.workers import WorkerPool

    if workers == 0:
        return "threads (--no-pool)"
    return f"process pool ({WorkerPool(workers).describe()})"


def compare_table(args: argparse.Namespace, figures: Sequence[dict[str, Any]]) -> str:
    """The two runs side by side (threads first, then the pool)."""

    def ms(x: float) -> str:
        return "-" if math.isnan(x) else f"{x * 1000:.0f} ms"

    heads = [pool_name(f["workers"]) for f in figures]
    ai = f" ({args.ai_games} AI games thinking)" if args.ai_games else ""
    rows = [
        (
            f"ack p50 / p95 / p99{ai}",
            [f"{ms(f['ack_p50'])} / {ms(f['ack_p95'])} / {ms(f['ack_p99'])}" for f in figures],
        ),
        ("acknowledged within 3 s", [f"{f['within_3s']:.1%}" for f in figures]),
        (
            f"map posted p50 / p95{ai}",
            [f"{ms(f['map_p50'])} / {ms(f['map_p95'])}" for f in figures],
        ),
        ("turns played in the main run", [str(f["done"]) for f in figures]),
        ("CPU per turn, bot process + workers", [f["cpu_per_turn"] for f in figures]),
    ]
    if args.ai_games:
        rows.append(
            (
                "AI steps saved per second (main run)",
                [
                    f"{f['ai_rate']:.2f} ({f['ai_steps']} in {f['main_seconds']:.0f} s)"
                    for f in figures
                ],
            )
        )
    if not args.no_ramp:
        rows.append(
            (
                "highest sustained rate",
                [f"{f['sustained']:g} turns/s" if f["sustained"] else "none" for f in figures],
            )
        )
    rows.append(
        (
            "errors / duplicates / mismatched",
            [f"{len(f['errors'])} / {f['duplicates']} / {len(f['mismatched'])}" for f in figures],
        )
    )
    width = max(len(r[0]) for r in rows) + 2
    cols = [max(len(h), *(len(r[1][k]) for r in rows)) + 2 for k, h in enumerate(heads)]
    lines = ["side by side (same run, same games and seeds):"]
    lines.append(" " * width + "".join(h.ljust(c) for h, c in zip(heads, cols, strict=True)))
    for name, vals in rows:
        lines.append(
            name.ljust(width) + "".join(v.ljust(c) for v, c in zip(vals, cols, strict=True))
        )
    return "\n".join(line.rstrip() for line in lines)


async def run_once(args: argparse.Namespace, out: Any, workers: int | None) -> dict[str, Any]:
    """One load test with the bot's worker pool of ``workers`` processes (0: threads;
    None: the CPU count)."""
    from bot.app import TurnpostBot

    def say(*parts: Any) -> None:
        print(*parts, file=out, flush=True)

    rng = random.Random(args.seed)
    errors = ErrorCounter()
    logging.getLogger().addHandler(errors)
    logging.getLogger("discord").setLevel(logging.ERROR)
    faults = Faults.parse(args.faults) if args.faults else Faults()
    with tempfile.TemporaryDirectory(prefix="turnpost-load-") as tmp:
        async with fake_server(faults) as fake:
            settings = bot_settings(Path(tmp) / "load.sqlite3")
            bot = TurnpostBot(settings.model_copy(update={"workers": workers}))
            await bot.login("fake-token")
            if args.no_images:

                async def no_images(*_: Any, **__: Any) -> list[discord.File]:
                    return []

                bot.tables.publisher.images = no_images
            if args.buckets:  # Discord's per-route rate limits, from the first request
                fake.buckets = Buckets()
            d = Driver(fake, bot, rng)
            d.no_images = args.no_images
            from bot.app import SWITCH_INTERVAL

            old_interval = sys.getswitchinterval()
            sys.setswitchinterval(args.switch_interval or SWITCH_INTERVAL)  # as the bot runs
            ai_games = AiGames()
            try:
                t0 = time.monotonic()
                fake.faults = Faults()  # the games open without faults
                tables = await open_games(d, args.games, args.seed)
                say(
                    f"opened {len(tables)} games in {time.monotonic() - t0:.1f} s "
                    f"(images {'off' if args.no_images else 'on'}, faults {faults.describe()}, "
                    f"CPU work: {pool_name(workers)})"
                )
                ai_games = await start_ai_games(
                    bot, args.ai_games, FIRST_CHANNEL + args.games, args.seed
                )
                if args.ai_games:
                    await asyncio.sleep(min(AI_WARMUP, args.duration / 2))  # all thinking
                    say(f"{args.ai_games} games of two {AI_LEVEL} players thinking")
                ai_before = await ai_games.steps(bot)
                fake.faults = faults
                d.all_acks.clear()
                d.all_maps.clear()
                main = await play(d, tables, args.rate, args.duration, rng)
                ai_steps = await ai_games.steps(bot) - ai_before
                await ai_games.stop()
                main_seconds = main.ended - main.started  # its arrivals, then its last steps
                if args.ai_games:
                    say(
                        f"AI games: {ai_steps} steps saved during the main run "
                        f"({main_seconds:.0f} s: {ai_steps / main_seconds:.2f}/s)"
                    )
                    if not args.no_ramp:  # the decisions under way end (in <= the budget)
                        await asyncio.sleep(AI_SETTLE)
                acks, maps = d.all_acks, d.all_maps
                within = sum(1 for a in acks if a <= ACK_LIMIT) / len(acks) if acks else math.nan
                say(
                    f"{args.games} games, {args.rate}/s for {args.duration:g} s: {main.arrivals} arrivals, "
                    f"{main.done} steps played, {len(maps)} maps posted"
                )
                say(
                    f"ack latency: p50 {percentile(acks, 0.5) * 1000:.0f} ms, p95 "
                    f"{percentile(acks, 0.95) * 1000:.0f} ms, p99 {percentile(acks, 0.99) * 1000:.0f} ms; "
                    f"acknowledged within 3 s: {within:.1%} of {len(acks)}"
                )
                say(
                    f"action to map posted: p50 {percentile(maps, 0.5) * 1000:.0f} ms, "
                    f"p95 {percentile(maps, 0.95) * 1000:.0f} ms"
                )
                say("main: " + main.line())
                ramp: list[Window] = []
                best = 0.0
                for rate in [] if args.no_ramp else args.ramp:
                    w = await play(d, tables, rate, args.ramp_duration, rng)
                    ramp.append(w)
                    say("ramp " + w.line())
                    if not w.sustained():
                        break
                    best = max(best, rate)
                if ramp:
                    top = "none" if not best else f"{best:g} turns/s"
                    say(f"highest sustained rate: {top} with a fresh map each (of {args.ramp})")
                mismatched = await check_states(d, tables)
                dups = duplicate_posts(fake)
                faulted = len(fake.faulted)
                say(
                    f"faults injected: {faulted}; duplicate posts: {dups}; stored games not equal "
                    f"to the players' copy: {len(mismatched)}"
                )
                say(f"steps saved without their acknowledgement (not lost): {d.unacknowledged}")
                refusals = fake.refusals()
                say(f"refusals by kind: {refusal_line(refusals)}")
                if d.not_done_refused:
                    say(f"steps whose answer Discord refused: {d.not_done_refused}")
                saved, waiting = await never_announced(d, tables)
                caught = await bot.tables.recover()
                saved, unannounced = await never_announced(d, tables)
                say(
                    f"steps saved but never announced: {unannounced} "
                    f"(of {saved} game versions saved; {waiting} waited for the next tick's "
                    f"catch-up, which showed {caught} game(s))"
                )
                stale = await stale_statuses(d, tables)
                say(
                    f"answers: {d.saved_not_shown} 'saved, the post will follow', "
                    f"{d.false_nothing} false 'nothing was changed'; status messages older "
                    f"than their game's turn post: {stale} of {len(tables)}"
                )
                pictures = picture_line(bot)
                if pictures:
                    say(pictures)
                errs = d.errors + fake.errors + errors.records + ai_games.errors
                say(
                    f"errors: {len(errs)} ({errors.tracebacks} logged with a traceback)"
                    + "".join(f"\n  {e}" for e in errs[:10])
                )
            finally:
                sys.setswitchinterval(old_interval)
                await ai_games.stop()
                await bot.close()
                logging.getLogger().removeHandler(errors)
    # the main run's figures (the ramp's are printed with each rate)
    return {
        "workers": workers,
        "ack_p50": percentile(main.acks, 0.5),
        "ack_p95": percentile(main.acks, 0.95),
        "ack_p99": percentile(main.acks, 0.99),
        "map_p50": percentile(main.maps, 0.5),
        "done": main.done,
        "cpu_per_turn": main.cpu_per_turn(),
        "ai_steps": ai_steps,
        "ai_rate": ai_steps / main_seconds,
        "main_seconds": main_seconds,
        "within_3s": within,
        "map_p95": percentile(main.maps, 0.95),
        "maps": len(maps),
        "errors": errs,
        "duplicates": dups,
        "mismatched": mismatched,
        "sustained": best,
        "faulted": faulted,
        "refusals": refusals,
        "unannounced": unannounced,
        "false_nothing": d.false_nothing,
        "stale_statuses": stale,
        "tracebacks": errors.tracebacks,
    }


MAX_GAMES = 100_000
MAX_RATE = 10_000.0
MAX_SECONDS = 86_400.0
MAX_PROCESSES = 64


def parser() -> argparse.ArgumentParser:
    """The command line: its numbers are finite (else one line, exit 2); their ranges are
    checked by :func:`range_problem` (:func:`main` returns 2)."""
    p = OneLineParser(
        prog="python -m devtools.loadtest",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Targets (issue #12, 2 cores): at 200 games and 5 turns/s ack p95 < 300 ms,\n"
        "100% acknowledged within 3 s, map posted p95 < 2 s; sustained >= 12 turns/s.\n"
        "Faults: NAME=VALUE,... with 429 (share of requests answered 429 on the route),\n"
        "global (429 global), 500, drop (connection closed), latency and jitter (seconds\n"
        "added), retry_after (seconds a 429 asks), seed; and Discord's refusals, each a share\n"
        "of the requests it can answer: edit_quota (an edit refused 30046), late (an\n"
        "interaction callback refused 10062, as after 3 s), expired (a follow-up refused\n"
        "50027), dm_closed (a DM refused 50007), no_permission (a post refused 50013),\n"
        "too_large (an upload refused 40005), deleted (a GET/PATCH of a bot message: 10008,\n"
        "the message deleted as by a moderator). The report counts the refusals by kind and\n"
        "the steps saved but never announced (stored versions no public post showed).",
    )
    p.add_argument(
        "--games",
        type=int,
        default=200,
        help="concurrent games (default 200)",
    )
    p.add_argument(
        "--rate",
        type=finite_number,
        default=5.0,
        help="player actions per second in all (5)",
    )
    p.add_argument(
        "--duration",
        type=finite_number,
        default=60.0,
        help="seconds of the main run (60)",
    )
    p.add_argument("--seed", type=seed, default=1, help="seeds the games and the players (1)")
    p.add_argument(
        "--faults",
        default="",
        metavar="SPEC",
        help="e.g. 429=0.02,500=0.01,latency=0.05,edit_quota=0.02,late=0.01 (see below)",
    )
    p.add_argument("--no-images", action="store_true", help="post without drawing the images")
    p.add_argument(
        "--buckets",
        action="store_true",
        help="Discord's per-route rate limits (5 posts per 5 s per channel...): "
        "X-RateLimit-* headers and 429s (counted as rate_limit refusals)",
    )
    p.add_argument(
        "--ramp",
        type=finite_numbers,
        default=[5.0, 8.0, 12.0, 16.0, 20.0, 25.0],
        help="rates tried after the main run, until one is not sustained (5,8,12,16,20,25)",
    )
    p.add_argument(
        "--ramp-duration",
        type=finite_number,
        default=20.0,
        help="seconds per ramp rate (20)",
    )
    p.add_argument("--no-ramp", action="store_true", help="skip the ramp")
    p.add_argument(
        "--switch-interval",
        type=finite_number,
        default=0.0,
        help="sys.setswitchinterval for the run (seconds; default: the bot's, 0.001)",
    )
    p.add_argument(
        "--ai-games",
        type=int,
        default=0,
        metavar="N",
        help="N games of two search players (2 s budget) thinking during the main run (0)",
    )
    pool = p.add_mutually_exclusive_group()
    pool.add_argument(
        "--no-pool", action="store_true", help="images and AI in threads of the bot's process"
    )
    pool.add_argument(
        "--compare-pool",
        action="store_true",
        help="run twice in one run, threads then the process pool, and compare",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="the process pool's size (default: the CPU count)",
    )
    p.add_argument(
        "--kill",
        type=int,
        default=0,
        metavar="K",
        help="kill/restart test: K kills",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="N bot processes on one database, one shard each (needs --store postgres)",
    )
    p.add_argument(
        "--store", choices=("sqlite", "postgres"), default="sqlite", help="the database (sqlite)"
    )
    p.add_argument("--worker", default=None, help=argparse.SUPPRESS)  # the --kill subprocess
    p.add_argument("--db", default=None, help=argparse.SUPPRESS)
    return p


def range_problem(args: argparse.Namespace) -> str | None:
    """The first number of the command line outside its range (one line), else None."""
    checks: list[tuple[str, float | None, float, float | None, bool]] = [
        ("--games", args.games, 1, MAX_GAMES, False),
        ("--rate", args.rate, 0, MAX_RATE, True),
        ("--duration", args.duration, 0, MAX_SECONDS, True),
        ("--ramp-duration", args.ramp_duration, 0, MAX_SECONDS, True),
        ("--switch-interval", args.switch_interval, 0, 1, False),
        ("--ai-games", args.ai_games, 0, MAX_GAMES, False),
        ("--workers", args.workers, 1, 64, False),
        ("--kill", args.kill, 0, 1000, False),
        ("--processes", args.processes, 1, MAX_PROCESSES, False),
        *(("--ramp", rate, 0, MAX_RATE, True) for rate in args.ramp),
    ]
    for option, value, low, high, above in checks:
        if value is not None and (why := out_of_range(option, value, low, high, above=above)):
            return why
    return None


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    problem = range_problem(args)
    if problem is not None:
        print(f"{p.prog}: error: {problem} (--help shows the options)", file=sys.stderr)
        return 2
    if args.worker:
        from devtools.killtest import worker_main

        return worker_main(args.worker, args.db)
    if args.processes > 1 or args.store == "postgres":
        from devtools.multiproc import multi_main

        return multi_main(args)
    if args.kill:
        from devtools.killtest import kill_main

        return kill_main(args)
    figures = asyncio.run(run(args))
    bad = figures["errors"] or figures["duplicates"] or figures["mismatched"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
