"""Two bot processes on one PostgreSQL database (issue 19, part 3): two real bots, each with
its own store object (as two processes have), one fake Discord server. A step one bot saves
is seen by the other before it posts: its memory of the game (the open turn post it would
edit in place, the turn's events) is dropped when the database says so (``NOTIFY``), and, if
that word is still on its way, the game's stored "posted version" tells it too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from bot.app import TurnpostBot
from bot.settings import BotSettings
from rules.brazil import GameState, apply, deciders, format_action, legal_actions
from storage import PostgresGameStore
from tests.bot.fakediscord import GUILD_ID, FakeDiscord, Harness
from tests.bot.test_mod import ANA, CH, CY, channel_writes, cmd, two_humans
from tests.storage.pg_server import PgServer, start_server

pytestmark = pytest.mark.slow  # PostgreSQL (tests/README.md)

USERS = {0: ANA, 1: CY}


@pytest.fixture(scope="module")
def pg_admin() -> Iterator[PgServer]:
    server = start_server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_db(pg_admin: PgServer) -> Iterator[str]:
    url = pg_admin.create_database()
    try:
        yield url
    finally:
        pg_admin.drop_database(url)


@pytest.fixture
async def two_bots(fake: FakeDiscord, pg_db: str) -> AsyncIterator[tuple[Harness, Harness]]:
    bots: list[TurnpostBot] = []
    try:
        for _ in range(2):
            settings = BotSettings(
                discord_token="fake-token",
                db=pg_db,
                test_guild=GUILD_ID,
                default_ai="random",
                auto_answer_delay=(0.0, 0.0),
                pacing_tick_seconds=0,
                _env_file=None,
            )
            bot = TurnpostBot(settings)
            await bot.login("fake-token")
            bots.append(bot)
        for bot in bots:
            assert isinstance(bot.store, PostgresGameStore)
            await asyncio.wait_for(bot.store.listening.wait(), 10)
        yield Harness(fake, bots[0]), Harness(fake, bots[1])
    finally:
        for bot in bots:
            await bot.close()


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "never happened"
        await asyncio.sleep(0.02)


async def state(h: Harness, gid: int) -> GameState:
    return await h.client.tables.svc.state(gid)  # type: ignore[attr-defined,no-any-return]


def same_turn_step(st: GameState) -> str | None:
    """A step of the decider after which the same seats still decide in the same turn (the
    turn's post would be edited in place), or None."""
    for seat in deciders(st):
        for action in legal_actions(st, seat):
            after, _ = apply(st, action)
            same = (after.current, after.round, after.phase) == (st.current, st.round, st.phase)
            if same and deciders(after) == deciders(st) and after.phase == "play":
                return format_action(st, action)
    return None


async def play_same_turn(h: Harness, gid: int) -> tuple[str, int]:
    """Play a same-turn step through ``h``'s bot (first playing on to a state that has one)."""
    for _ in range(40):
        st = await state(h, gid)
        text = same_turn_step(st)
        seat = deciders(st)[0]
        if text is not None:
            await cmd(h, USERS[seat], "play", command=text)
            return text, seat
        await cmd(h, USERS[seat], "play", command=format_action(st, legal_actions(st, seat)[0]))
    raise AssertionError("no same-turn step found")


def open_post(h: Harness, gid: int) -> Any:
    return h.client.tables.publisher.turn_posts.get(gid)  # type: ignore[attr-defined]


async def test_a_step_of_the_other_process_is_seen_before_posting(
    fake: FakeDiscord, two_bots: tuple[Harness, Harness]
) -> None:
    first, second = two_bots
    gid = await two_humans(fake, first)
    await play_same_turn(first, gid)  # the first bot has the turn's post open ...
    mine = open_post(first, gid)
    assert mine is not None
    # ... a step of the game reaches the second bot (a DM button, a reminder's doing)
    await play_same_turn(second, gid)
    await until(lambda: open_post(first, gid) is None)  # told by the database
    assert gid not in first.client.tables.svc._turn_events  # type: ignore[attr-defined]
    # the first bot's next step is a new post below the second's, not an edit of its old one
    start = len(fake.requests)
    await play_same_turn(first, gid)
    writes = channel_writes(fake, start, CH)
    assert not [r for r in writes if r.method == "PATCH" and str(mine.message_id) in r.path]
    assert [r for r in writes if r.method == "POST" and "map.png" in r.files]


async def test_the_stored_posted_version_catches_a_notice_still_on_its_way(
    fake: FakeDiscord, two_bots: tuple[Harness, Harness]
) -> None:
    first, second = two_bots
    gid = await two_humans(fake, first)
    await play_same_turn(first, gid)
    mine = open_post(first, gid)
    await play_same_turn(second, gid)
    await until(lambda: open_post(first, gid) is None)
    first.client.tables.publisher.turn_posts[gid] = mine  # type: ignore[attr-defined]
    start = len(fake.requests)  # as if the notification had not arrived yet
    await play_same_turn(first, gid)
    writes = channel_writes(fake, start, CH)
    assert not [r for r in writes if r.method == "PATCH" and str(mine.message_id) in r.path]


async def test_one_bot_edits_its_own_turn_post_in_place(
    fake: FakeDiscord, two_bots: tuple[Harness, Harness]
) -> None:
    """Without another process's change, the post is edited in place as before (the checks
    above do not make every step a new post)."""
    first, _second = two_bots
    gid = await two_humans(fake, first)
    await play_same_turn(first, gid)
    mine = open_post(first, gid)
    assert mine is not None
    start = len(fake.requests)
    await play_same_turn(first, gid)
    writes = channel_writes(fake, start, CH)
    assert [r for r in writes if r.method == "PATCH" and str(mine.message_id) in r.path]


async def test_a_step_saved_but_never_posted_is_caught_up_by_the_games_shard(
    fake: FakeDiscord, two_bots: tuple[Harness, Harness], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a process saved a step and was stopped before posting it: the game's own shard posts
    # it at its next tick, without waiting for a restart (not before a grace period)
    from bot import scheduler

    first, second = two_bots
    gid = await two_humans(fake, first)
    st = await state(first, gid)
    seat = deciders(st)[0]
    svc = second.client.tables.svc  # type: ignore[attr-defined]
    out = await svc.act(gid, seat, format_action(st, legal_actions(st, seat)[0]))
    assert out.ok  # saved by the "other process", never posted
    for h in (first, second):
        h.client.settings.shard_count = 1  # type: ignore[attr-defined]
    start = len(fake.requests)
    await first.client.pacer.tick()  # type: ignore[attr-defined]
    assert not channel_writes(fake, start, CH)  # within the grace period: left alone
    monkeypatch.setattr(scheduler, "UNPOSTED_GRACE", 0.0)
    done = await first.client.pacer.tick()  # type: ignore[attr-defined]
    assert "caught up 1 unposted game(s)" in done
    posts = [r for r in channel_writes(fake, start, CH) if r.method == "POST"]
    assert posts and "saved but not shown yet" in posts[0].text()
    start = len(fake.requests)
    assert "caught up" not in " ".join(await second.client.pacer.tick())  # type: ignore[attr-defined]
    assert not [r for r in channel_writes(fake, start, CH) if r.method == "POST"]
