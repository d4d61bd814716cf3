"""Two bot processes on one PostgreSQL database (issue 19, part 3): two real bots, each with
its own store object (as two processes have), one fake Discord server. A step one bot saves
is seen by the other before it posts: its memory of the game (the turn's events) is dropped
when the database says so (``NOTIFY``); the open turn post is kept with the game, so either
process goes on with it.
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
                game_threads=False,  # each game takes its channel (threads: test_game_threads)
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
    """A step of the decider after which the same seats still decide in the same turn, with
    more than one thing left to do (the turn's post is edited in place; with only the end
    left, the service would end the turn by itself), or None."""
    for seat in deciders(st):
        for action in legal_actions(st, seat):
            after, _ = apply(st, action)
            same = (after.current, after.round, after.phase) == (st.current, st.round, st.phase)
            goes_on = len(legal_actions(after, seat)) > 1  # else the turn ends by itself
            if same and goes_on and deciders(after) == deciders(st) and after.phase == "play":
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


async def open_post(h: Harness, gid: int) -> Any:
    """The game's open turn post as the database keeps it (issue #29: with the game)."""
    rec = await h.client.tables.svc.places.record(gid)  # type: ignore[attr-defined]
    return rec.settings.open_post


async def test_a_step_of_the_other_process_goes_on_in_the_same_turn_post(
    fake: FakeDiscord, two_bots: tuple[Harness, Harness]
) -> None:
    """The turn's post is kept with the game: a step the other process posts (a DM button, a
    reminder's doing, a restart) edits the same post in place — no second post, no second
    ping — and only that post has buttons."""
    first, second = two_bots
    gid = await two_humans(fake, first)
    for _ in range(20):  # the first bot opens the turn's post, and the turn goes on ...
        await play_same_turn(first, gid)
        st = await state(first, gid)
        text = same_turn_step(st)
        if text is not None:
            break
    assert text is not None
    mine = await open_post(first, gid)
    assert mine is not None
    start = len(fake.requests)  # ... a step of the game reaches the second bot
    await cmd(second, USERS[deciders(st)[0]], "play", command=text)
    writes = channel_writes(fake, start, CH)
    assert [r for r in writes if r.method == "PATCH" and str(mine.message_id) in r.path]
    assert not [r for r in writes if r.method == "POST" and "map.png" in r.files]
    after = await open_post(second, gid)
    assert after is not None and after.message_id == mine.message_id
    assert len(after.lines) > len(mine.lines)  # the turn's summary goes on growing
    # and back on the first bot, once the database told it (NOTIFY): the same post again
    for _ in range(500):
        seen = await open_post(first, gid)
        if seen is not None and seen.version == after.version:
            break
        await asyncio.sleep(0.02)
    st = await state(first, gid)
    text = same_turn_step(st)
    if text is not None:  # the turn still goes on (else the next post is rightly a new one)
        start = len(fake.requests)
        await cmd(first, USERS[deciders(st)[0]], "play", command=text)
        writes = channel_writes(fake, start, CH)
        assert [r for r in writes if r.method == "PATCH" and str(mine.message_id) in r.path]
        assert not [r for r in writes if r.method == "POST" and "map.png" in r.files]


async def test_one_bot_edits_its_own_turn_post_in_place(
    fake: FakeDiscord, two_bots: tuple[Harness, Harness]
) -> None:
    """Without another process's change, the post is edited in place as before (the checks
    above do not make every step a new post)."""
    first, _second = two_bots
    gid = await two_humans(fake, first)
    await play_same_turn(first, gid)
    mine = await open_post(first, gid)
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
    shown = [r for r in channel_writes(fake, start, CH) if "saved but not shown yet" in r.text()]
    assert len(shown) == 1  # a new post, or the turn's post edited when it goes on
    start = len(fake.requests)
    assert "caught up" not in " ".join(await second.client.pacer.tick())  # type: ignore[attr-defined]
    assert not [r for r in channel_writes(fake, start, CH) if r.method == "POST"]
