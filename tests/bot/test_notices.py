"""Turn notices end to end (issue #30): discord.py's real code against the fake Discord
server, a real SQLite file, a fake pacing clock (the scheduler ticked by hand), and the
registry's small two-player game (:data:`SMALL`: the example game) between two humans, Ana
(seat 0) and Bo (seat 1).

A player with direct-message notices gets exactly one DM per decision over a whole match,
with a link to the turn post that asks them, and is never pinged in the channel; the heads-up
comes when asked for; none in quiet hours, the held one at their end (or none when the
decision is over by then); closed DMs fall back to a channel message mentioning only them,
saying once that their DMs are closed; reminders follow the same choice; ``/notices``
without options tells the current choice."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from aiohttp import web

from bot.app import TurnpostBot
from rules.games import game, names
from service.games import adapter_of
from service.pacing import FakeClock
from tests.bot.conftest import bot_maker
from tests.bot.fakediscord import FakeDiscord, Harness, Request

CH = 555
ANA, BO = 101, 102
USERS = (ANA, BO)
SEED = 3
H = timedelta(hours=1)
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")

Maker = Callable[[], Awaitable[Harness]]

SMALL = next(
    n
    for n in names()
    if game(n).min_players == game(n).max_players == 2 and game(n).next_deciders is not None
)
"""A game of exactly two players whose face says who is next (quick to play whole)."""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 3, 10, 12, 0, tzinfo=UTC))


@pytest.fixture
async def nbot(fake: FakeDiscord, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Maker]:
    """A bot whose scheduler is ticked by hand and whose pacer reads ``clock``; each call is a
    restart over the same database."""

    def set_clock(bot: TurnpostBot) -> None:
        bot.pacer.clock = clock

    async with bot_maker(
        fake, tmp_path / "bot.sqlite3", after_login=set_clock, pacing_tick_seconds=0
    ) as make:
        yield make


async def start(fake: FakeDiscord, h: Harness) -> int:
    """A match of :data:`SMALL` between Ana and Bo (Ana acts first)."""
    await h.command(ANA, CH, "game", "new", game=SMALL, players=2, ai=0)
    lobby = fake.messages[max(fake.messages)]
    await h.click(BO, lobby, "brz:l:1:join")
    h.client.tables.next_seed = SEED  # type: ignore[attr-defined]
    await h.click(ANA, lobby, "brz:l:1:start")
    rec = await h.client.tables.store.get_active_game(CH)  # type: ignore[attr-defined]
    assert rec is not None
    return int(rec.id)


async def deciders(h: Harness, gid: int) -> list[int]:
    """Who decides now (nobody once the match is over)."""
    st = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
    A = adapter_of(st)
    return [] if A.over(st) else list(A.face.deciders(st))


async def play(h: Harness, gid: int, rng: random.Random) -> list[Request]:
    """Whoever decides plays a random legal command (typed ``/play``)."""
    st = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
    face = adapter_of(st).face
    seat = face.deciders(st)[0]
    text = face.format_action(st, rng.choice(face.legal_actions(st, seat)))
    return await h.command(USERS[seat], CH, "play", command=text)


def dms(fake: FakeDiscord, uid: int, reqs: list[Request] | None = None) -> list[str]:
    """The direct messages sent to ``uid`` (in ``reqs``, else all)."""
    dm = fake.dms.get(uid)
    return [
        str(r.json.get("content") or "")
        for r in (fake.requests if reqs is None else reqs)
        if r.method == "POST" and dm is not None and r.path == f"/channels/{dm}/messages"
    ]


def channel_posts(reqs: list[Request]) -> list[Request]:
    return [r for r in reqs if r.method == "POST" and r.path == f"/channels/{CH}/messages"]


def pinged(r: Request) -> list[int]:
    """The users a message may ping (its ``allowed_mentions``)."""
    am = (r.json or {}).get("allowed_mentions") or {}
    return [int(u) for u in am.get("users") or []]


def ping_requests(fake: FakeDiscord) -> list[Request]:
    """Every request that could notify someone in the channel (posts and edits)."""
    return [
        r
        for r in fake.requests
        if r.method in ("POST", "PATCH") and f"/channels/{CH}/" in r.path and r.json
    ]


# ---------------------------------------------------------------------------- a whole match


async def test_one_dm_per_decision_over_a_whole_match(fake: FakeDiscord, nbot: Maker) -> None:
    h = await nbot()
    said = await h.command(ANA, CH, "notices", mode="dm", heads_up=True)
    assert any("direct message" in r.text() and "on" in r.text() for r in said)
    await h.command(BO, CH, "notices", mode="both")
    gid = await start(fake, h)
    rng = random.Random(SEED)
    # Ana "starts to decide" when she decides and did not just before (a new hand that she
    # opens right after her own last answer goes on from it: no new notice, no ping)
    starts = {ANA: 0, BO: 0}
    before: list[int] = []
    while now := await deciders(h, gid):
        for seat in now:
            if seat not in before:
                starts[USERS[seat]] += 1
        before = now
        await play(h, gid, rng)
    assert not await deciders(h, gid)

    ana = dms(fake, ANA)
    turns = [t for t in ana if "it is your turn" in t]
    heads = [t for t in ana if "you are next" in t]
    assert len(turns) == starts[ANA] >= 3, (starts, ana)
    assert len(ana) == len(turns) + len(heads)
    # each links the turn post that asked her: a message of the game's channel naming her
    links = [LINK.search(t) for t in turns]
    assert all(m is not None for m in links)
    posts = {int(m[3]) for m in links if m is not None}
    assert len(posts) == len(turns), "one post per decision"
    for m in links:
        assert m is not None and int(m[2]) == CH
        msg = fake.messages.get(int(m[3]))
        assert msg is None or msg["channel_id"] == str(CH)
    # the heads-up: "you are next, after Bo", at most one per turn of Bo's before hers
    assert heads and all("user102" in t for t in heads)
    assert len(heads) <= starts[ANA]
    # Bo (both): one DM per decision too, no heads-up (he did not ask for it)
    bo = dms(fake, BO)
    assert len(bo) == starts[BO] and all("it is your turn" in t for t in bo)
    # the channel never pings Ana; Bo is pinged at each of his decisions
    pings = [u for r in ping_requests(fake) for u in pinged(r)]
    assert ANA not in pings
    assert pings.count(BO) == starts[BO]


async def test_a_decision_is_told_once_across_a_restart(fake: FakeDiscord, nbot: Maker) -> None:
    h = await nbot()
    await h.command(ANA, CH, "notices", mode="dm")
    gid = await start(fake, h)
    [told] = dms(fake, ANA)  # her first decision, at the start
    assert "it is your turn" in told
    # the same post published again (a restart's catch-up, another process): no second DM
    h = await nbot()
    tables = h.client.tables  # type: ignore[attr-defined]
    s = await tables.svc.peek(gid)
    post = s.rec.settings.open_post
    assert post is not None and str(post.message_id) in told
    await tables.publisher.notices.after_post(s, post, None)
    assert dms(fake, ANA) == [told]
    # the channel's turn post names her without pinging her
    msg = fake.messages[post.message_id]
    assert f"<@{ANA}>" in str(msg["components"])
    first = next(r for r in channel_posts(fake.requests) if "brz:t:" in r.text())
    assert ANA not in pinged(first)


# ---------------------------------------------------------------------------- quiet hours


async def test_no_dm_in_quiet_hours_the_held_one_at_their_end(
    fake: FakeDiscord, nbot: Maker, clock: FakeClock
) -> None:
    h = await nbot()
    zone = "America/Sao_Paulo"  # UTC-3: her quiet hours are São Paulo's wall clock
    local = clock.now().astimezone(ZoneInfo(zone))
    qs, qe = local - H, local + 2 * H
    await h.command(ANA, CH, "timezone", zone=zone)
    await h.command(ANA, CH, "quiet-hours", hours=f"{qs:%H:%M}-{qe:%H:%M}")
    await h.command(ANA, CH, "notices", mode="both", heads_up=True)
    gid = await start(fake, h)
    # the turn post pings her now (the channel's ping is not delayed); no DM
    first = next(r for r in channel_posts(fake.requests) if "brz:t:" in r.text())
    assert pinged(first) == [ANA]
    assert dms(fake, ANA) == []
    pacer = h.client.pacer  # type: ignore[attr-defined]
    clock.advance(hours=1)
    assert not any("notice" in d for d in await pacer.tick())
    assert dms(fake, ANA) == []
    # her quiet hours end: the held DM goes, once
    clock.set(qe.astimezone(UTC) + timedelta(minutes=1))
    done = await pacer.tick()
    assert done == [f"game {gid} seat 0: notice after quiet hours"]
    [told] = dms(fake, ANA)
    assert "it is your turn" in told
    post = (await h.client.tables.store.get_game(gid)).settings.open_post  # type: ignore[attr-defined]
    assert post is not None and told.endswith(f"/{CH}/{post.message_id}")
    assert not any("notice" in d for d in await pacer.tick())
    assert len(dms(fake, ANA)) == 1


async def test_a_held_dm_is_dropped_when_the_decision_is_over(
    fake: FakeDiscord, nbot: Maker, clock: FakeClock
) -> None:
    h = await nbot()
    now = clock.now()
    await h.command(ANA, CH, "timezone", zone="Asia/Tokyo")
    local = now.astimezone(ZoneInfo("Asia/Tokyo"))
    await h.command(ANA, CH, "quiet-hours", hours=f"{local - H:%H:%M}-{local + H:%H:%M}")
    await h.command(ANA, CH, "notices", mode="dm")
    gid = await start(fake, h)
    await play(h, gid, random.Random(1))  # she answers in her quiet hours: Bo decides
    assert await deciders(h, gid) == [1]
    clock.advance(hours=2)
    pacer = h.client.pacer  # type: ignore[attr-defined]
    assert not any("notice" in d for d in await pacer.tick())
    assert dms(fake, ANA) == []
    timers = await h.client.tables.store.timers(gid)  # type: ignore[attr-defined]
    assert [(t.kind, t.outcome) for t in timers if t.kind == "notice_held"] == [
        ("notice_held", "moot")
    ]


# ---------------------------------------------------------------------------- closed DMs


async def test_closed_dms_fall_back_to_a_channel_ping_told_once(
    fake: FakeDiscord, nbot: Maker
) -> None:
    closed = {ANA: 999_000_000_000_000_001, BO: 999_000_000_000_000_002}

    async def refuse(r: Request, m: re.Match[str]) -> web.Response:
        body = {"message": "Cannot send messages to this user", "code": 50007}
        return fake.reply(body, 403)

    for uid, dm in closed.items():  # their DM channels: Discord refuses every message
        fake.dms[uid] = dm
        fake.extra_routes.append(("POST", rf"/channels/{dm}/messages", refuse))
    h = await nbot()
    await h.command(ANA, CH, "notices", mode="dm")
    await h.command(BO, CH, "notices", mode="both")
    gid = await start(fake, h)
    rng = random.Random(2)

    def fallbacks(uid: int) -> list[Request]:
        return [r for r in channel_posts(fake.requests) if f"<@{uid}>, it is your turn" in r.text()]

    def tried(uid: int) -> int:
        return sum(r.path == f"/channels/{closed[uid]}/messages" for r in fake.requests)

    while (len(fallbacks(ANA)) < 2 or tried(BO) < 2) and await deciders(h, gid):
        await play(h, gid, rng)
    ana = fallbacks(ANA)
    assert len(ana) >= 2 and tried(ANA) == len(ana)
    for r in ana:  # a short channel message mentioning only her, with the link
        assert pinged(r) == [ANA]
        assert LINK.search(r.json["content"])
    # told once that her DMs are closed, and how to open them
    assert "DMs are closed" in ana[0].json["content"]
    assert "Privacy Settings" in ana[0].json["content"]
    assert not any("DMs are closed" in r.json["content"] for r in ana[1:])
    # the turn posts themselves never ping her
    turn_posts = [r for r in channel_posts(fake.requests) if "brz:t:" in r.text()]
    assert all(ANA not in pinged(r) for r in turn_posts)
    # Bo (both): the turn post pings him; the channel tells him once, and no more
    assert tried(BO) >= 2
    [bo] = fallbacks(BO)
    assert "DMs are closed" in bo.json["content"] and pinged(bo) == [BO]
    assert any(BO in pinged(r) for r in turn_posts)


# ---------------------------------------------------------------------------- modes


async def test_none_is_named_not_pinged_and_the_command_tells_the_choice(
    fake: FakeDiscord, nbot: Maker
) -> None:
    h = await nbot()
    said = await h.command(ANA, CH, "notices")
    assert any("a ping in the game's channel" in r.text() and "off" in r.text() for r in said)
    await h.command(ANA, CH, "notices", mode="none")
    said = await h.command(ANA, CH, "notices")
    assert any("none (named in the channel" in r.text() for r in said)
    prefs = await h.client.tables.store.get_player_prefs(ANA)  # type: ignore[attr-defined]
    assert (prefs.notices, prefs.heads_up) == ("none", False)
    gid = await start(fake, h)
    rng = random.Random(5)
    for _ in range(6):
        if not await deciders(h, gid):
            break
        await play(h, gid, rng)
    assert dms(fake, ANA) == []
    pings = [u for r in ping_requests(fake) for u in pinged(r)]
    assert ANA not in pings and BO in pings  # Bo keeps the default: pinged


async def test_reminders_follow_the_choice(
    fake: FakeDiscord, nbot: Maker, clock: FakeClock
) -> None:
    h = await nbot()
    await h.command(ANA, CH, "notices", mode="dm")
    gid = await start(fake, h)
    pacer = h.client.pacer  # type: ignore[attr-defined]
    clock.advance(hours=12)
    before = len(fake.requests)
    done = await pacer.tick()
    assert done == [f"game {gid} seat 0: remind1"]
    reqs = fake.requests[before:]
    [reminder] = dms(fake, ANA, reqs)
    assert "reminder" in reminder and LINK.search(reminder)
    assert channel_posts(reqs) == []  # by DM only
    # none: in the channel, without a ping (reminders exist to unstick games)
    await h.command(ANA, CH, "notices", mode="none")
    clock.advance(hours=10)
    before = len(fake.requests)
    assert await pacer.tick() == [f"game {gid} seat 0: remind2"]
    reqs = fake.requests[before:]
    [post] = channel_posts(reqs)
    assert f"<@{ANA}>" in post.json["content"] and pinged(post) == []
    assert dms(fake, ANA, reqs) == []


# ---------------------------------------------------------------------------- last to act


async def test_the_last_to_act_is_told_once(fake: FakeDiscord, nbot: Maker) -> None:
    """Brazil: Imperial's setup has simultaneous choices (both players keep missions): when
    Bo has answered all of his, Ana, still choosing, is told everyone else has moved."""
    h = await nbot()
    await h.command(ANA, CH, "notices", mode="dm")
    await h.command(ANA, CH, "game", "new", players=2, ai=0)
    lobby = fake.messages[max(fake.messages)]
    await h.click(BO, lobby, "brz:l:1:join")
    h.client.tables.next_seed = SEED  # type: ignore[attr-defined]
    await h.click(ANA, lobby, "brz:l:1:start")
    gid = 1
    rng = random.Random(1)
    together = False
    for _ in range(30):
        now = await deciders(h, gid)
        if together and now == [0]:
            break
        together = together or now == [0, 1]
        st = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
        face = adapter_of(st).face
        seat = 1 if 1 in now else now[0]  # Bo answers first; Ana waits when she can
        text = face.format_action(st, rng.choice(face.legal_actions(st, seat)))
        await h.command(USERS[seat], CH, "play", command=text)
    assert together and await deciders(h, gid) == [0]
    last = [t for t in dms(fake, ANA) if "everyone else has moved" in t]
    assert len(last) == 1 and LINK.search(last[0])
    # still the decision she was told of: no second "your turn" for it, one per post
    turns = [LINK.findall(t) for t in dms(fake, ANA) if "it is your turn" in t]
    assert turns and len(turns) == len({str(x) for x in turns})


async def test_a_reminder_whose_dm_is_refused_pings_in_the_channel(
    fake: FakeDiscord, nbot: Maker, clock: FakeClock
) -> None:
    closed = 999_000_000_000_000_003
    fake.dms[ANA] = closed

    async def refuse(r: Request, m: re.Match[str]) -> web.Response:
        return fake.reply({"message": "Cannot send messages to this user", "code": 50007}, 403)

    fake.extra_routes.append(("POST", rf"/channels/{closed}/messages", refuse))
    h = await nbot()
    await h.command(ANA, CH, "notices", mode="dm")
    gid = await start(fake, h)  # her turn's DM is refused: the channel tells her (once)
    clock.advance(hours=12)
    before = len(fake.requests)
    assert await h.client.pacer.tick() == [f"game {gid} seat 0: remind1"]  # type: ignore[attr-defined]
    reqs = fake.requests[before:]
    assert [r.path for r in reqs if r.path == f"/channels/{closed}/messages"]  # tried by DM
    [post] = channel_posts(reqs)
    assert "reminder" in post.json["content"] and pinged(post) == [ANA]
    assert "DMs are closed" not in post.json["content"]  # she was told at the start
