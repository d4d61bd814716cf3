"""Games in threads and forum posts (issue #30), end to end: discord.py's real code against the
fake Discord server (its "threads and forum posts" section models Discord's documented
behaviour: a thread started from a message has its id, a message sent to an archived thread
unarchives it, an edit there answers 400 code 50083, a locked thread refuses the bot 403
without Manage Threads, a forum's tags need Manage Channels).

Whole games of the example game (``examples/``: a few decisions; named by its registration
only) against a computer player: in the thread of a lobby post, several at once in one channel, in a forum post whose
tags follow the game; the thread archived mid-game (the next turn still posted), locked (the
host told once, the steps posted when it is unlocked); the end (the final post in the thread,
the thread archived, the forum tag "finished"); and channel mode as before.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.threads import game_title
from devtools.fakediscord import ChannelRef
from rules.games import names
from rules.registry import registrations
from service.games import adapter
from service.pacing import FakeClock
from storage import GameStatus, GuildSettings
from tests.bot.conftest import bot_maker
from tests.bot.fakediscord import EPHEMERAL, GUILD_ID, FakeDiscord, Harness, Request, custom_ids

CH, FORUM = 555, 777
ANA, BO, CY = 101, 102, 103
GAME = next(n for n, r in registrations().items() if r.face.startswith("examples."))
"""The example game (a few decisions a game)."""
A = adapter(GAME)
TITLE = game_title(GAME, "en")


@pytest.fixture
async def h(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    """A bot with games in threads (the server's default), a text channel and a forum."""
    fake.add_channel(CH, "games")
    fake.add_channel(FORUM, "game-forum", forum=True, tags=[TITLE])
    for uid, name in ((ANA, "Ana"), (BO, "Bo"), (CY, "Cy")):
        fake.users[uid] = name
    async with bot_maker(fake, tmp_path / "bot.sqlite3", game_threads=True) as make:
        harness = await make()

        async def no_sleep(seconds: float) -> None:
            return None

        harness.client.tables.sleep = no_sleep  # type: ignore[attr-defined]
        yield harness


def tables(h: Harness) -> Any:
    return h.client.tables  # type: ignore[attr-defined]


def posts_in(reqs: list[Request], channel: int) -> list[Request]:
    """The posts Discord took in the channel (not those it refused)."""
    return [
        r
        for r in reqs
        if r.method == "POST"
        and r.path == f"/channels/{channel}/messages"
        and 200 <= r.status < 300
    ]


def writes_in(reqs: list[Request], channel: int) -> list[Request]:
    """Posts and edits of messages in the channel (a turn's post is edited while the same
    players decide)."""
    return [
        r
        for r in reqs
        if r.method in ("POST", "PATCH")
        and r.path.startswith(f"/channels/{channel}/messages")
        and 200 <= r.status < 300
    ]


async def gateway(h: Harness, thread_id: int) -> list[Request]:
    """The gateway's THREAD_UPDATE of the thread as it is; the requests the bot made."""
    n, baseline = len(h.fake.requests), set(asyncio.all_tasks())
    h.fake.thread_update(h.client, thread_id)
    await h.settle(baseline)
    return h.fake.requests[n:]


def texts(reqs: list[Request], uid: int) -> str:
    return " ".join(r.text() for r in reqs if r.interaction_user == uid)


def newest_thread(fake: FakeDiscord) -> int:
    return max(fake.threads)


async def open_thread_game(h: Harness, uid: int = ANA) -> tuple[int, dict[str, Any]]:
    """``/game new game:<the example> ai:1`` in the text channel: the game's thread and lobby post."""
    fake = h.fake
    before = set(fake.threads)
    reqs = await h.command(uid, CH, "game", "new", game=GAME, players=2, ai=1)
    (tid,) = set(fake.threads) - before
    assert [r for r in reqs if r.path == f"/channels/{CH}/messages/{tid}/threads"]
    return tid, fake.messages[tid]


async def play_to_end(h: Harness, tid: int, *, rng: random.Random, steps: int = 1000) -> int:
    """Ana plays her legal moves (typed ``/play`` in the thread) until the game is over."""
    svc = tables(h).svc
    for _ in range(steps):
        rec = await svc.places.latest_game(tid)
        st = await svc.state(rec.id)
        if A.over(st):
            return int(rec.id)
        assert A.face.deciders(st) == [0], "the computer player plays by itself"
        action = rng.choice(A.face.legal_actions(st, 0))
        reqs = await h.command(ANA, tid, "play", command=A.face.format_action(st, action))
        assert writes_in(reqs, tid), "every step is shown in the game's thread"
        assert not writes_in(reqs, CH), "nothing of the game goes to the channel"
    raise AssertionError("the game did not end")


async def test_a_whole_game_in_its_thread(h: Harness, fake: FakeDiscord) -> None:
    """The lobby is a post of the channel with the game's thread started from it (named by
    the game's title and number, a week's inactivity before archiving); the lobby's buttons
    work from the channel's post, the host and the players joining are in the thread, a
    spectator follows it; every post of the game goes to the thread; at the end the final
    post (scores and timeline) is in the thread, which is then archived."""
    tid, lobby = await open_thread_game(h)
    thread = fake.threads[tid]
    assert thread["name"] == f"{TITLE} #1" and thread["auto_archive_duration"] == 10080
    assert thread["parent_id"] == str(CH) and lobby["channel_id"] == str(CH)
    assert ANA in thread["members"]
    rec = await tables(h).store.get_active_game(tid)
    assert rec is not None and rec.status is GameStatus.LOBBY and rec.channel_id == tid
    assert await tables(h).store.get_active_game(CH) is None  # the channel stays free
    assert {"brz:l:1:start", "brz:f:1"} <= set(custom_ids(lobby))
    # a spectator follows the game from the channel's post
    reqs = await h.click(CY, lobby, "brz:f:1")
    assert CY in thread["members"] and f"<#{tid}>" in texts(reqs, CY)
    assert all(r.ephemeral for r in reqs if r.interaction_user == CY)
    # Start, pressed on the channel's post: the game's posts go to its thread
    tables(h).next_seed = 3
    reqs = await h.click(ANA, lobby, "brz:l:1:start")
    assert posts_in(reqs, tid) and not posts_in(reqs, CH)
    assert f"<#{tid}>" in str(lobby["components"]) and "brz:f:1" in custom_ids(lobby)
    gid = await play_to_end(h, tid, rng=random.Random(1))
    rec = await tables(h).store.get_game(gid)
    assert rec.status is GameStatus.FINISHED and rec.channel_id == tid
    public = [fake.messages[m] for m in fake.channel_messages[tid] if m in fake.messages]
    public = [m for m in public if not int(m["flags"]) & EPHEMERAL]
    final = public[-1]
    assert {"timeline.gif", "scores.png"} <= {a["filename"] for a in final["attachments"]}
    assert thread["archived"] is True
    last = [r for r in fake.requests if r.path == f"/channels/{tid}"][-1]
    assert last.method == "PATCH" and last.json == {"archived": True}
    # the final post came before the archiving
    final_post = max(
        i
        for i, r in enumerate(fake.requests)
        if r.method == "POST" and r.path.startswith(f"/channels/{tid}/messages")
    )
    assert final_post < fake.requests.index(last)


async def test_several_games_in_one_channel_at_once(h: Harness, fake: FakeDiscord) -> None:
    """Three lobbies in one channel, each its own thread and game; a player joins one from
    the channel's post (and its thread); the games are played interleaved, each posting only
    in its own thread, all to the end."""
    games = [await open_thread_game(h, uid) for uid in (ANA, ANA, BO)]
    tids = [t for t, _ in games]
    assert len(set(tids)) == 3
    assert [fake.threads[t]["name"] for t in tids] == [
        f"{TITLE} #1",
        f"{TITLE} #2",
        f"{TITLE} #3",
    ]
    for n, (tid, lobby) in enumerate(games, 1):
        tables(h).next_seed = 10 + n
        host = BO if n == 3 else ANA
        reqs = await h.click(host, lobby, f"brz:l:{n}:start")
        assert posts_in(reqs, tid) and not [r for t in tids if t != tid for r in posts_in(reqs, t)]
    svc = tables(h).svc
    rng = random.Random(2)
    done: set[int] = set()
    for _ in range(500):
        if len(done) == 3:
            break
        for n, tid in enumerate(tids, 1):
            if tid in done:
                continue
            st = await svc.state(n)
            if A.over(st):
                done.add(tid)
                continue
            player = BO if n == 3 else ANA
            action = rng.choice(A.face.legal_actions(st, 0))
            reqs = await h.command(player, tid, "play", command=A.face.format_action(st, action))
            assert writes_in(reqs, tid)
            for other in tids:
                if other != tid:
                    assert not writes_in(reqs, other)
            for r in writes_in(reqs, tid):
                assert all(
                    f":{n}:" in c or c.startswith("brz:f")
                    for c in custom_ids(r.json)
                    if c.startswith("brz:t")
                )
    assert len(done) == 3
    for tid in tids:
        assert fake.threads[tid]["archived"] is True


async def test_joining_the_lobby_joins_the_thread(h: Harness, fake: FakeDiscord) -> None:
    """Bo joins Ana's lobby from the channel's post: he is seated and in the thread; when
    everyone has left, the lobby closes and its thread is archived."""
    before = set(fake.threads)
    await h.command(ANA, CH, "game", "new", game=GAME, players=2)
    (tid,) = set(fake.threads) - before
    await h.click(BO, fake.messages[tid], "brz:l:1:join")
    assert BO in fake.threads[tid]["members"]
    rec = await tables(h).store.get_active_game(tid)
    assert rec.seats_of(BO)
    assert "brz:f:1" in custom_ids(fake.messages[tid])
    # everyone leaves: the lobby closes, and its thread is archived
    await h.click(ANA, fake.messages[tid], "brz:l:1:leave")
    assert fake.threads[tid]["archived"] is False
    await h.click(BO, fake.messages[tid], "brz:l:1:leave")
    assert await tables(h).store.get_active_game(tid) is None
    assert fake.threads[tid]["archived"] is True


@pytest.mark.parametrize("game", [g for g in names() if g != GAME])
async def test_a_real_game_starts_in_its_thread(h: Harness, fake: FakeDiscord, game: str) -> None:
    """A real game (each registered one besides the example) in a thread: its first turn post
    with the board, its status message (pinned) and Ana's typed moves go to the thread;
    ``/game status`` typed in the thread answers about its game."""
    before = set(fake.threads)
    await h.command(ANA, CH, "game", "new", game=game, players=2, ai=1, ai_level="random")
    (tid,) = set(fake.threads) - before
    title = game_title(game, "en")
    assert fake.threads[tid]["name"] == f"{title} #1"
    tables(h).next_seed = 5
    reqs = await h.click(ANA, fake.messages[tid], "brz:l:1:start")
    first = posts_in(reqs, tid)
    assert first and not posts_in(reqs, CH)
    assert any(r.files for r in first)  # the board's picture
    status = (await tables(h).svc.peek(1)).rec.settings.status_message_id
    assert status is not None and fake.messages[status]["channel_id"] == str(tid)
    assert fake.messages[status]["pinned"] is True
    reqs = await h.command(BO, tid, "game", "status")
    assert "#1" in texts(reqs, BO)
    G = adapter(game)
    rng = random.Random(6)
    for _ in range(3):
        st = await tables(h).svc.state(1)
        if 0 not in G.face.deciders(st):
            break
        action = rng.choice(G.face.legal_actions(st, 0))
        reqs = await h.command(ANA, tid, "play", command=G.face.format_action(st, action))
        assert writes_in(reqs, tid) and not writes_in(reqs, CH)


async def test_a_whole_game_in_a_forum_post(h: Harness, fake: FakeDiscord) -> None:
    """``/game new forum:#game-forum``: the lobby is a forum post tagged with the game and
    "Open" (the missing state tags created), the user told where privately; the tag follows
    the game: "Running" at the start, "Finished" at the end, and the post is archived."""
    reqs = await h.command(
        ANA, CH, "game", "new", game=GAME, players=2, ai=1, forum=ChannelRef(FORUM)
    )
    tid = newest_thread(fake)
    post = fake.threads[tid]
    assert post["parent_id"] == str(FORUM) and post["name"] == f"{TITLE} #1"
    assert f"<#{tid}>" in texts(reqs, ANA) and all(
        r.ephemeral for r in reqs if r.interaction_user == ANA
    )
    assert not posts_in(reqs, CH)
    forum_tags = [t["name"] for t in fake.channels[FORUM]["available_tags"]]
    assert forum_tags == [TITLE, "Open"]  # the game's tag was there, "Open" made
    assert fake.tag_names(tid) == [TITLE, "Open"]
    starter = fake.messages[tid]  # the post's starter message: the lobby
    assert starter["channel_id"] == str(tid) and "brz:l:1:start" in custom_ids(starter)
    assert await tables(h).store.get_active_game(tid) is not None
    tables(h).next_seed = 5
    reqs = await h.click(ANA, starter, "brz:l:1:start")
    assert posts_in(reqs, tid)
    assert fake.tag_names(tid) == [TITLE, "Running"]
    await play_to_end(h, tid, rng=random.Random(3))
    assert fake.tag_names(tid) == [TITLE, "Finished"]
    assert post["archived"] is True
    names = [t["name"] for t in fake.channels[FORUM]["available_tags"]]
    assert names == [TITLE, "Open", "Running", "Finished"]  # each tag made once


async def test_the_servers_forum_without_manage_channels(
    h: Harness, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """The server names its games' forum: ``/game new`` typed in a text channel posts the
    lobby there; the bot may not create the missing tags (no Manage Channels): the post goes
    without them and the log says what to give the bot. A forum that is not one, and a
    refused lobby (its empty post deleted), are answered privately."""
    store = tables(h).store
    await store.set_guild_settings(GUILD_ID, GuildSettings(forum_id=CH))  # not a forum
    reqs = await h.command(ANA, CH, "game", "new", game=GAME, players=2, ai=1)
    assert "is not a forum channel" in texts(reqs, ANA) and not fake.threads
    other = 778
    fake.add_channel(other, "bare-forum", forum=True)
    fake.manage_channels = False
    await store.set_guild_settings(GUILD_ID, GuildSettings(forum_id=other))
    # an unknown game: refused privately, the empty post deleted
    reqs = await h.command(ANA, CH, "game", "new", game="chess")
    assert "chess" in texts(reqs, ANA) and not fake.threads
    assert [r for r in reqs if r.method == "DELETE" and r.path.startswith("/channels/")]
    caplog.set_level(logging.WARNING, "bot.threads")
    reqs = await h.command(ANA, CH, "game", "new", game=GAME, players=2, ai=1)
    tid = newest_thread(fake)
    assert fake.threads[tid]["parent_id"] == str(other) and fake.tag_names(tid) == []
    assert f"<#{tid}>" in texts(reqs, ANA)
    assert fake.channels[other]["available_tags"] == []
    assert "Manage Channels" in caplog.text


async def test_an_archived_thread_is_reopened(h: Harness, fake: FakeDiscord) -> None:
    """Discord archives the game's thread mid-game: the gateway's THREAD_UPDATE has the bot
    unarchive it at once; archived without a word (no event), the next turn is posted all
    the same, and an edit refused "Thread is archived" unarchives the thread and is sent
    again: no turn lost."""
    tid, lobby = await open_thread_game(h)
    tables(h).next_seed = 7
    await h.click(ANA, lobby, "brz:l:1:start")
    # the gateway says it was archived: reopened at once
    fake.archive(tid)
    reqs = await gateway(h, tid)
    assert fake.threads[tid]["archived"] is False
    assert any(
        r.method == "PATCH" and r.path == f"/channels/{tid}" and r.json == {"archived": False}
        for r in reqs
    )
    # archived silently: Ana plays, the turn is posted in the thread
    fake.archive(tid)
    svc = tables(h).svc
    st = await svc.state(1)
    action = A.face.legal_actions(st, 0)[0]
    reqs = await h.command(ANA, tid, "play", command=A.face.format_action(st, action))
    assert posts_in(reqs, tid)
    s = await svc.peek(1)
    assert s.rec.settings.posted_version == s.version
    # an edit only (the status message) into the archived thread: reopened and edited
    fake.archive(tid)
    n = len(fake.requests)
    await tables(h).publisher.update_status(await svc.peek(1))
    mine = fake.requests[n:]
    patches = [r for r in mine if r.method == "PATCH"]
    status = s.rec.settings.status_message_id
    assert [r.path for r in patches] == [
        f"/channels/{tid}/messages/{status}",  # refused: archived
        f"/channels/{tid}",  # unarchived
        f"/channels/{tid}/messages/{status}",  # sent again
    ]
    assert fake.threads[tid]["archived"] is False


async def test_a_locked_thread(h: Harness, fake: FakeDiscord) -> None:
    """A moderator locks the game's thread: the bot (without Manage Threads) may not post;
    the game's host is told once, privately; the steps are kept and posted when the thread
    is unlocked. With Manage Threads the bot posts in the locked thread."""
    tid, lobby = await open_thread_game(h)
    tables(h).next_seed = 9
    await h.click(ANA, lobby, "brz:l:1:start")
    svc = tables(h).svc
    fake.lock(tid)
    told: list[Request] = []
    rng = random.Random(4)
    for _ in range(2):
        st = await svc.state(1)
        if A.over(st):
            break
        action = rng.choice(A.face.legal_actions(st, 0))
        reqs = await h.command(ANA, tid, "play", command=A.face.format_action(st, action))
        assert not posts_in(reqs, tid)
        told += [
            r
            for r in reqs
            if r.method == "POST" and r.path == f"/channels/{fake.dms.get(ANA)}/messages"
        ]
    assert len(told) == 1, [r.text()[:300] for r in told]
    assert "is locked" in told[0].text() and f"<#{tid}>" in told[0].text()
    s = await svc.peek(1)
    assert (s.rec.settings.posted_version or 0) < s.version  # kept, not posted
    # unlocked: the gateway says so, the steps are posted
    fake.lock(tid, False)
    assert writes_in(await gateway(h, tid), tid)
    s = await svc.peek(1)
    assert s.rec.settings.posted_version == s.version
    # locked and archived: the host is told again (a new lock); unlocked, it is reopened and
    # the steps are posted
    fake.lock(tid)
    fake.archive(tid)
    st = await svc.state(1)
    if not A.over(st):
        action = rng.choice(A.face.legal_actions(st, 0))
        reqs = await h.command(ANA, tid, "play", command=A.face.format_action(st, action))
        dm = fake.dms[ANA]
        s = await svc.peek(1)
        assert (s.rec.settings.posted_version or 0) < s.version  # refused: kept
        assert [r for r in posts_in(reqs, dm) if "is locked" in r.text()]
        fake.lock(tid, False)  # still archived
        reqs = await gateway(h, tid)
        assert fake.threads[tid]["archived"] is False and writes_in(reqs, tid)
        s = await svc.peek(1)
        assert s.rec.settings.posted_version == s.version
    # with Manage Threads, a locked thread takes the bot's posts
    fake.manage_threads = True
    fake.lock(tid)
    st = await svc.state(1)
    if not A.over(st):
        action = rng.choice(A.face.legal_actions(st, 0))
        reqs = await h.command(ANA, tid, "play", command=A.face.format_action(st, action))
        assert writes_in(reqs, tid)


async def test_channel_mode_unchanged(h: Harness, fake: FakeDiscord) -> None:
    """The server's ``game_place`` "channel": the lobby and the game take the channel, no
    thread; ``/game new`` typed in a thread takes that thread; a refused lobby leaves no post
    and no thread behind; where no thread may be started, the game takes the channel."""
    await tables(h).store.set_guild_settings(GUILD_ID, GuildSettings(game_place="channel"))
    reqs = await h.command(ANA, CH, "game", "new", game=GAME, players=2, ai=1)
    assert not fake.threads
    rec = await tables(h).store.get_active_game(CH)
    assert rec is not None and rec.channel_id == CH
    cb = [r for r in reqs if r.path.endswith("/callback")]
    assert (
        cb
        and "brz:l:1:start" in custom_ids(cb[0].json["data"])
        and "brz:f:1" not in custom_ids(cb[0].json["data"])
    )
    # back to threads: a refusal (an unknown game) leaves nothing
    await tables(h).store.set_guild_settings(GUILD_ID, GuildSettings())
    other = 556
    fake.add_channel(other, "more-games")
    reqs = await h.command(ANA, other, "game", "new", game="chess")
    assert not fake.threads and "chess" in texts(reqs, ANA)
    placeholder = [r for r in reqs if r.path.endswith("/callback") and not r.ephemeral]
    withdrawn = [r for r in reqs if r.method == "DELETE" and r.path.endswith("/@original")]
    assert placeholder and withdrawn  # the lobby's post went again
    assert all(
        r.ephemeral
        for r in reqs
        if r.interaction_user == ANA and r.method == "POST" and r not in placeholder
    )
    # typed in a thread: the game takes the thread
    before = set(fake.threads)
    await h.command(BO, other, "game", "new", game=GAME, players=2, ai=1)
    (tid,) = set(fake.threads) - before
    await tables(h).svc.lobbies.leave(
        await tables(h).store.get_active_game(tid), BO
    )  # its lobby closed
    before = set(fake.threads)
    reqs = await h.command(BO, tid, "game", "new", game=GAME, players=2, ai=1)
    assert set(fake.threads) == before
    rec = await tables(h).store.get_active_game(tid)
    assert rec is not None and rec.id == 3 and rec.settings.host_user_id == BO
    # no thread may be started (no Create Public Threads): the game takes the channel
    fake.create_threads = False
    third = 557
    fake.add_channel(third, "no-threads")
    reqs = await h.command(CY, third, "game", "new", game=GAME, players=2, ai=1)
    rec = await tables(h).store.get_active_game(third)
    assert rec is not None and rec.settings.host_user_id == CY and set(fake.threads) == before
    assert "Create Public Threads" in texts(reqs, CY)
    lobby = fake.messages[fake.channel_messages[third][0]]  # the post: now the lobby
    assert f"brz:l:{rec.id}:start" in custom_ids(lobby) and lobby["channel_id"] == str(third)


async def test_after_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    """The bot restarts mid-game: it knows the game's thread again from the gateway's guild
    (its active threads), goes on posting there, tells the host when it is locked, and
    archives it at the end."""
    fake.add_channel(CH, "games")
    fake.users[ANA] = "Ana"
    async with bot_maker(fake, tmp_path / "bot.sqlite3", game_threads=True) as make:
        h = await make()
        tid, lobby = await open_thread_game(h)
        tables(h).next_seed = 8
        await h.click(ANA, lobby, "brz:l:1:start")
        h = await make()  # a new process: nothing of the old one's memory
        assert h.client.get_channel(tid) is not None
        fake.lock(tid)
        st = await tables(h).svc.state(1)
        action = A.face.legal_actions(st, 0)[0]
        reqs = await h.command(ANA, tid, "play", command=A.face.format_action(st, action))
        dm = fake.dms.get(ANA)
        assert dm is not None and any("is locked" in r.text() for r in posts_in(reqs, dm))
        fake.lock(tid, False)
        assert writes_in(await gateway(h, tid), tid)
        await play_to_end(h, tid, rng=random.Random(5))
        assert fake.threads[tid]["archived"] is True


async def test_an_abandoned_lobby_archives_its_thread(h: Harness, fake: FakeDiscord) -> None:
    """``/game abandon`` in the game's thread (the lobby's creator, after the confirmation):
    the thread is archived as a finished game's is."""
    tid, _ = await open_thread_game(h)
    await h.command(ANA, tid, "game", "abandon")
    ask = next(
        fake.messages[m]
        for m in reversed(fake.channel_messages[tid])
        if m in fake.messages and any(c.startswith("brz:m:") for c in custom_ids(fake.messages[m]))
    )
    confirm = next(c for c in custom_ids(ask) if c.startswith("brz:m:") and not c.endswith(":no"))
    await h.click(ANA, ask, confirm)
    rec = await tables(h).svc.places.latest_game(tid)
    assert rec is not None and rec.status is GameStatus.ABANDONED
    assert fake.threads[tid]["archived"] is True


async def test_a_stale_game_archives_its_thread(h: Harness, fake: FakeDiscord) -> None:
    """A game left without a move for its stale days (the default 30) is archived by the
    pacing tick, and its thread with it (the default, an int, once broke the tick's notice)."""
    tid, lobby = await open_thread_game(h)
    await h.click(ANA, lobby, "brz:l:1:start")
    rec = await tables(h).svc.places.latest_game(tid)
    pacer = tables(h).pacer
    clock = FakeClock(rec.updated_at + timedelta(days=400))
    pacer.clock = clock
    tables(h).store._clock = clock.now  # the store's clock: the game's last move is old
    await pacer.tick()
    assert (await tables(h).store.get_game(rec.id)).status is GameStatus.ABANDONED
    assert fake.threads[tid]["archived"] is True


async def test_the_server_setting_names_the_games_forum(h: Harness, fake: FakeDiscord) -> None:
    """``/server settings forum:#game-forum`` (Manage Server): ``/game new`` typed in a text
    channel opens its lobby as a post of that forum; ``place:`` ends it."""
    reqs = await h.command(ANA, CH, "server", "settings", forum=ChannelRef(FORUM))
    assert f"<#{FORUM}>" in texts(reqs, ANA)
    assert (await tables(h).store.get_guild_settings(GUILD_ID)).forum_id == FORUM
    await h.command(ANA, CH, "game", "new", game=GAME, players=2, ai=1)
    assert fake.threads[newest_thread(fake)]["parent_id"] == str(FORUM)
    await h.command(BO, CH, "server", "settings", place="thread")
    assert (await tables(h).store.get_guild_settings(GUILD_ID)) == GuildSettings()
    before = set(fake.threads)
    await h.command(BO, CH, "game", "new", game=GAME, players=2, ai=1)
    (tid,) = set(fake.threads) - before
    assert fake.threads[tid]["parent_id"] == str(CH)
