"""Finding a fair table on Discord (issue #31), end to end: discord.py's real code against the
fake Discord server. ``/queue join`` answers privately; the second player makes a table: a
post in the channel, the game's thread started from it, both players added and pinged there,
the game running in the thread and played to its end; ``/queue status`` and ``/queue leave``;
a restart loses nobody's place; computer players fill a table after the wait; the server's
cap keeps a player waiting; channel mode puts the game in the channel.

The example game (``examples/``: two players, a few decisions) is named by its registration
only."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import pytest

from bot.cogs.queue import QueueCog
from bot.threads import game_title
from rules.registry import registrations
from service.games import adapter
from service.queueing import level_ratings
from storage import GameStatus, GuildSettings
from tests.bot.conftest import bot_maker
from tests.bot.fakediscord import EPHEMERAL, GUILD_ID, FakeDiscord, Harness, Request

CH = 555
ANA, BO, CY = 101, 102, 103
GAME = next(n for n, r in registrations().items() if r.face.startswith("examples."))
A = adapter(GAME)
TITLE = game_title(GAME, "en")


def cog(h: Harness) -> QueueCog:
    c = h.client.get_cog("QueueCog")  # type: ignore[attr-defined]
    assert c is not None and type(c).__name__ == "QueueCog"  # (extensions load anew)
    return cast(QueueCog, c)


def tables(h: Harness) -> Any:
    return h.client.tables  # type: ignore[attr-defined]


def private(reqs: list[Request], uid: int) -> str:
    """The private answers to ``uid``'s interaction."""
    out = [r.text() for r in reqs if r.interaction_user == uid]
    assert out and all(r.ephemeral for r in reqs if r.interaction_user == uid)
    return " ".join(out)


def posts_in(reqs: list[Request], channel: int) -> list[Request]:
    return [
        r
        for r in reqs
        if r.method == "POST"
        and r.path == f"/channels/{channel}/messages"
        and 200 <= r.status < 300
        and r.interaction_user is None
    ]


@pytest.fixture
async def h(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    fake.add_channel(CH, "games")
    for uid, name in ((ANA, "Ana"), (BO, "Bo"), (CY, "Cy")):
        fake.users[uid] = name
    async with bot_maker(fake, tmp_path / "bot.sqlite3", game_threads=True) as make:
        harness = await make()

        async def no_sleep(seconds: float) -> None:
            return None

        harness.client.tables.sleep = no_sleep  # type: ignore[attr-defined]
        yield harness


async def join(h: Harness, uid: int, **kw: Any) -> list[Request]:
    return await h.command(uid, CH, "queue", "join", game=GAME, players=2, **kw)


async def play_to_end(h: Harness, channel: int, *, rng: random.Random) -> int:
    """Both players play legal moves (typed ``/play``) until the game is over."""
    svc = tables(h).svc
    for _ in range(200):
        rec = await svc.places.latest_game(channel)
        st = await svc.state(rec.id)
        if A.over(st):
            return int(rec.id)
        (seat,) = A.face.deciders(st)
        user = rec.seat(seat).user_id
        action = rng.choice(A.face.legal_actions(st, seat))
        await h.command(user, channel, "play", command=A.face.format_action(st, action))
    raise AssertionError("the game did not end")


async def test_two_players_make_a_table_in_a_thread_and_play_it(
    h: Harness, fake: FakeDiscord
) -> None:
    reqs = await join(h, ANA)
    text = private(reqs, ANA)
    assert f"table of 2 for {TITLE}" in text and "1 player waits" in text
    assert not posts_in(reqs, CH) and not fake.threads  # alone: no table
    tables(h).next_seed = 5
    before = set(fake.threads)
    reqs = await join(h, BO)
    assert "2 players wait" in private(reqs, BO)
    (tid,) = set(fake.threads) - before
    thread = fake.threads[tid]
    assert thread["parent_id"] == str(CH) and thread["name"] == f"{TITLE} #1"
    assert {ANA, BO} <= set(thread["members"])
    (post,) = posts_in(reqs, CH)
    assert "formed from the queue" in post.text() and "<@" not in post.text()
    rec = await tables(h).store.get_game(1)
    assert rec.channel_id == tid and rec.status is GameStatus.RUNNING
    assert sorted(s.user_id for s in rec.seats) == [ANA, BO]
    ping = posts_in(reqs, tid)[0].json
    assert f"<@{ANA}>" in ping["content"] and f"<@{BO}>" in ping["content"]
    assert "ratings 1000–1000" in ping["content"]
    assert ping["allowed_mentions"]["parse"] == ["users"]
    assert len(posts_in(reqs, tid)) >= 2  # the ping, then the game's first post
    assert await tables(h).store.queue_entries() == []
    gid = await play_to_end(h, tid, rng=random.Random(3))
    assert (await tables(h).store.get_game(gid)).status is GameStatus.FINISHED


async def test_status_and_leave(h: Harness, fake: FakeDiscord) -> None:
    reqs = await h.command(ANA, CH, "queue", "status")
    assert "not waiting in any queue" in private(reqs, ANA)
    await join(h, ANA, ai_fill=True, max_wait="3h")
    reqs = await h.command(ANA, CH, "queue", "status")
    text = private(reqs, ANA)
    assert f"{TITLE}, table of 2: place 1 of 1" in text
    assert "your rating 1000" in text and "±100" in text and "<t:" in text
    reqs = await h.command(ANA, CH, "queue", "leave")
    assert "You left 1 queue." in private(reqs, ANA)
    reqs = await h.command(ANA, CH, "queue", "leave", game=GAME)
    assert "not waiting in any queue here" in private(reqs, ANA)
    reqs = await h.command(ANA, CH, "queue", "join", game=GAME, players=3)
    assert "2 to 2 players" in private(reqs, ANA)
    reqs = await h.command(ANA, CH, "queue", "join", game=GAME, players=2, max_wait="soon")
    assert private(reqs, ANA) and await tables(h).store.queue_entries() == []


async def test_a_restart_loses_nobodys_place(fake: FakeDiscord, tmp_path: Path) -> None:
    fake.add_channel(CH, "games")
    async with bot_maker(fake, tmp_path / "bot.sqlite3", game_threads=True) as make:
        h = await make()
        await join(h, ANA)
        h = await make()  # a restart
        (entry,) = await tables(h).store.queue_entries()
        assert entry.user_id == ANA
        await join(h, BO)
        rec = await tables(h).store.get_game(1)
        assert sorted(s.user_id for s in rec.seats) == [ANA, BO]


async def test_computer_players_fill_a_table_after_the_wait(h: Harness, fake: FakeDiscord) -> None:
    reqs = await join(h, ANA, ai_fill=True, max_wait="1h")
    assert "Computer players fill your table <t:" in private(reqs, ANA)
    assert not fake.threads
    store = tables(h).store
    (entry,) = await store.queue_entries()
    # an hour goes by
    await store.queue_put(
        entry.model_copy(update={"joined_at": entry.joined_at - timedelta(hours=1)})
    )
    tables(h).next_seed = 9
    baseline = set(asyncio.all_tasks())
    (gid,) = await cog(h).match(GUILD_ID)
    await h.settle(baseline)
    rec = await store.get_game(gid)
    assert rec.status in (GameStatus.RUNNING, GameStatus.FINISHED)
    assert [s.user_id for s in rec.seats if s.user_id] == [ANA]
    # the computer level whose calibrated rating is closest to Ana's (a new player's)
    rated = [(lv, r) for lv, r in level_ratings(GAME) if r is not None]
    level = min(rated, key=lambda lr: abs(lr[1] - 1000))[0]
    assert [s.ai_level for s in rec.seats if s.user_id is None] == [level]
    ping = fake.messages[fake.channel_messages[rec.channel_id][0]]
    assert f"<@{ANA}>" in ping["content"] and "1 computer player" in ping["content"]
    assert await store.queue_entries() == []


async def test_the_servers_cap_keeps_a_player_waiting(h: Harness, fake: FakeDiscord) -> None:
    store = tables(h).store
    await store.set_guild_settings(GUILD_ID, GuildSettings(max_running_games=1))
    await h.command(ANA, CH, "game", "new", game=GAME, players=2)  # Ana holds a lobby
    n = len(fake.threads)
    await join(h, ANA)
    await join(h, BO)
    assert len(fake.threads) == n  # no table: Ana is at the cap
    assert len(await store.queue_entries()) == 2
    await join(h, CY)
    rec = await store.get_game(2)
    assert sorted(s.user_id for s in rec.seats) == [BO, CY]
    assert [e.user_id for e in await store.queue_entries()] == [ANA]


async def test_channel_mode_puts_the_game_in_the_channel(fake: FakeDiscord, tmp_path: Path) -> None:
    fake.add_channel(CH, "games")
    async with bot_maker(fake, tmp_path / "bot.sqlite3") as make:  # games take the channel
        h = await make()
        await join(h, ANA)
        reqs = await join(h, BO)
        assert not fake.threads
        rec = await tables(h).store.get_game(1)
        assert rec.channel_id == CH and rec.status is GameStatus.RUNNING
        pings = [r for r in posts_in(reqs, CH) if f"<@{ANA}>" in r.text()]
        assert pings and not int(pings[0].json.get("flags") or 0) & EPHEMERAL


async def test_a_table_that_cannot_open_keeps_its_players_waiting(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Channel mode, the channel busy with another game: the table's lobby is refused, its
    players wait on in their places (and get their table once the channel is free)."""
    fake.add_channel(CH, "games")
    async with bot_maker(fake, tmp_path / "bot.sqlite3") as make:
        h = await make()
        await h.command(CY, CH, "game", "new", game=GAME, players=2)  # the channel's game
        await join(h, ANA)
        await join(h, BO)
        store = tables(h).store
        assert [e.user_id for e in await store.queue_entries()] == [ANA, BO]
        assert (await store.get_active_game(CH)).settings.host_user_id == CY
        _, closed = await tables(h).svc.lobbies.leave(await store.get_game(1), CY)
        assert closed  # the channel is free again
        baseline = set(asyncio.all_tasks())
        (gid,) = await cog(h).match(GUILD_ID)
        await h.settle(baseline)
        rec = await store.get_game(gid)
        assert rec.channel_id == CH and sorted(s.user_id for s in rec.seats) == [ANA, BO]
        assert await store.queue_entries() == []
