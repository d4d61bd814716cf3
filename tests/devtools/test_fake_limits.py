"""The fake Discord server refuses what Discord refuses (issue #30, "Discord's real limits,
modelled"): each limit answers with Discord's status, JSON error code and message, and what
the limit allows still passes. Through discord.py's real HTTP client where the bot would meet
the refusal as an exception, through raw aiohttp for the interaction endpoints."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord
import pytest

from devtools.fakediscord import (
    BOT_ID,
    EPHEMERAL,
    ERRORS,
    FAULT_KINDS,
    Buckets,
    FakeDiscord,
    Faults,
)
from service.pacing import FakeClock

CH = 4242
USER = 5151


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    f = FakeDiscord()
    base = await f.start()
    old = discord.http.Route.BASE
    discord.http.Route.BASE = base
    try:
        yield f
    finally:
        discord.http.Route.BASE = old
        await f.stop()


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    c = discord.Client(intents=discord.Intents.none())
    await c.login("fake-token")
    try:
        yield c
    finally:
        await c.close()


@pytest.fixture
async def raw(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as s:
        yield s


async def call(
    s: aiohttp.ClientSession,
    fake: FakeDiscord,
    method: str,
    path: str,
    body: Any = None,
    files: dict[str, bytes] | None = None,
) -> tuple[int, Any, Any]:
    """(status, JSON body or None, headers) of one raw request."""
    kw: dict[str, Any] = {}
    if files:
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps(body or {}), content_type="application/json")
        for k, (name, data) in enumerate(files.items()):
            form.add_field(f"files[{k}]", data, filename=name)
        kw["data"] = form
    elif body is not None:
        kw["json"] = body
    async with s.request(method, fake.base + path, **kw) as r:
        text = await r.text()
        return r.status, (json.loads(text) if text else None), r.headers


def refused(e: discord.HTTPException, kind: str) -> bool:
    status, code, message = ERRORS[kind]
    return (e.status, e.code, e.text) == (status, code, message)


def channel(c: discord.Client, cid: int = CH) -> discord.PartialMessageable:
    return c.get_partial_messageable(cid)


def png(n: int) -> discord.File:
    return discord.File(io.BytesIO(b"x" * n), "map.png")


def command(fake: FakeDiscord, cid: int = CH) -> dict[str, Any]:
    return fake.interaction(2, USER, cid, {"id": "1", "name": "x", "type": 1})


def callback_path(payload: dict[str, Any]) -> str:
    return f"/interactions/{payload['id']}/{payload['token']}/callback"


def hook_path(payload: dict[str, Any], tail: str = "") -> str:
    return f"/webhooks/{payload['application_id']}/{payload['token']}{tail}"


# ---------------------------------------------------------------- 1. the virtual clock


async def test_the_clock_starts_fixed_follows_real_time_advances_and_ties_to_a_fakeclock(
    fake: FakeDiscord, client: discord.Client
) -> None:
    t0 = fake.now()
    assert t0.tzinfo is not None and datetime(2025, 1, 1, tzinfo=UTC) <= t0
    assert t0 - datetime(2025, 1, 1, tzinfo=UTC) < timedelta(hours=1)
    assert fake.now() >= t0  # it follows the real time
    assert fake.advance(3600) - t0 >= timedelta(hours=1)
    msg = await channel(client).send("hello")
    assert msg.created_at is not None and msg.edited_at is None
    stored = fake.messages[msg.id]
    assert datetime.fromisoformat(stored["timestamp"]) - t0 >= timedelta(hours=1)
    clock = FakeClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    fake.clock_from(clock)
    assert fake.now() - datetime(2026, 3, 1, 10, 0, tzinfo=UTC) == timedelta(0)  # + the hour
    clock.advance(hours=2)
    edited = await msg.edit(content="later")
    assert edited.edited_at == datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    fake.clock_from(clock.now)  # a callable works as well
    assert fake.now() == datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


# ---------------------------------------------------------------- 2. old-message edits


async def test_messages_older_than_an_hour_have_an_edit_quota(
    fake: FakeDiscord, client: discord.Client
) -> None:
    old = await channel(client).send("old")
    fake.advance(fake.old_edit_age + 1)
    young = await channel(client).send("young")
    for k in range(fake.old_edit_quota):
        await old.edit(content=f"edit {k}")
    with pytest.raises(discord.HTTPException) as e:
        await old.edit(content="one too many")
    assert refused(e.value, "edit_quota") and e.value.status == 429
    assert fake.messages[old.id]["content"] == f"edit {fake.old_edit_quota - 1}"  # no effect
    assert [k for k, _ in fake.refused] == ["edit_quota"]
    for k in range(2 * fake.old_edit_quota):  # a young message: no quota
        await young.edit(content=f"young {k}")
    fake.advance(fake.old_edit_window)  # the window passed
    await old.edit(content="again")
    assert fake.messages[old.id]["content"] == "again"


async def test_the_edit_quota_applies_to_webhook_edits_not_to_ephemeral_messages(
    fake: FakeDiscord, raw: aiohttp.ClientSession
) -> None:
    fake.old_edit_quota = 1
    fake.token_lifetime = 10 * 3600  # this test is about the quota, not the token's age
    public, private = command(fake), command(fake)
    assert (await call(raw, fake, "POST", callback_path(public), {"type": 4, "data": {"content": "a"}}))[0] == 204  # fmt: skip
    body = {"type": 4, "data": {"content": "b", "flags": EPHEMERAL}}
    assert (await call(raw, fake, "POST", callback_path(private), body))[0] == 204
    fake.advance(2 * 3600)
    for payload, allowed in ((public, 1), (private, 5)):
        for k in range(allowed):
            path = hook_path(payload, "/messages/@original")
            status, _, _ = await call(raw, fake, "PATCH", path, {"content": f"e{k}"})
            assert status == 200
    status, data, _ = await call(
        raw, fake, "PATCH", hook_path(public, "/messages/@original"), {"content": "no"}
    )
    assert (status, data["code"]) == (429, 30046), data


# ---------------------------------------------------------------- 3. interaction deadlines


async def test_interaction_callbacks_in_time_once_and_follow_ups_for_15_minutes(
    fake: FakeDiscord, raw: aiohttp.ClientSession
) -> None:
    ok = command(fake)
    answer = {"type": 5}
    assert (await call(raw, fake, "POST", callback_path(ok), answer))[0] == 204
    status, data, _ = await call(raw, fake, "POST", callback_path(ok), answer)
    assert (status, data) == (400, {"code": 40060, "message": "Interaction has already been acknowledged."})  # fmt: skip
    late = command(fake)
    fake.advance(4)
    status, data, _ = await call(raw, fake, "POST", callback_path(late), answer)
    assert (status, data) == (404, {"code": 10062, "message": "Unknown interaction"})
    assert late["token"] not in fake.acknowledged and ok["token"] in fake.acknowledged
    # the follow-ups of the one answered in time: 15 minutes
    status, msg, _ = await call(raw, fake, "POST", hook_path(ok) + "?wait=1", {"content": "f"})
    assert status == 200 and msg["content"] == "f"
    fake.advance(15 * 60)
    for method, tail, body in (
        ("POST", "", {"content": "too late"}),
        ("PATCH", "/messages/@original", {"content": "too late"}),
        ("PATCH", f"/messages/{msg['id']}", {"content": "too late"}),
    ):
        status, data, _ = await call(raw, fake, method, hook_path(ok, tail), body)
        assert (status, data) == (401, {"code": 50027, "message": "Invalid Webhook Token"})
    assert [k for k, _ in fake.refused] == ["acknowledged", "late", "expired", "expired", "expired"]  # fmt: skip


async def test_a_fakeclock_adds_the_real_time_to_the_deadline(
    fake: FakeDiscord, raw: aiohttp.ClientSession
) -> None:
    fake.clock_from(FakeClock())
    fake.interaction_deadline = 0.05  # the real time elapsed counts though the clock stands
    payload = command(fake)
    await asyncio.sleep(0.1)
    status, data, _ = await call(raw, fake, "POST", callback_path(payload), {"type": 5})
    assert (status, data["code"]) == (404, 10062)


# ---------------------------------------------------------------- 4. closed DMs


async def test_closed_dms_refuse_the_message_not_the_channel(
    fake: FakeDiscord, client: discord.Client
) -> None:
    fake.closed_dms.add(USER)
    fake.users[USER], fake.users[USER + 1] = "Ana", "Bo"
    closed = await client.fetch_user(USER)
    dm = await closed.create_dm()  # opening the DM channel works, as in Discord
    assert dm.id == fake.dms[USER]
    with pytest.raises(discord.Forbidden) as e:
        await closed.send("psst")
    assert refused(e.value, "dm_closed")
    assert fake.channel_messages.get(dm.id, []) == []
    other = await client.fetch_user(USER + 1)
    assert (await other.send("hello")).content == "hello"


# ---------------------------------------------------------------- 5. permissions


async def test_denied_permissions_refuse_what_needs_them(
    fake: FakeDiscord, client: discord.Client
) -> None:
    ch = channel(client)
    posted = await ch.send("before")
    fake.deny(CH, "attach_files", "embed_links", "manage_messages")
    assert not discord.Permissions(fake.permissions_of(CH)).attach_files
    assert discord.Permissions(fake.permissions_of(CH)).send_messages
    assert fake.permissions_of(CH + 1) == discord.Permissions.all().value
    payload = fake.interaction(2, USER, CH, {"id": "1", "name": "x", "type": 1})
    perms = discord.Permissions(int(payload["app_permissions"]))
    assert not perms.attach_files and not perms.administrator and perms.send_messages
    await ch.send("text still works")
    for attempt in (
        ch.send("a map", file=png(10)),
        ch.send(embed=discord.Embed(title="x")),
        posted.pin(),
    ):
        with pytest.raises(discord.Forbidden) as e:
            await attempt
        assert refused(e.value, "no_permission")
    fake.deny(CH, "view_channel")
    with pytest.raises(discord.Forbidden) as e:
        await ch.send("anything")
    assert refused(e.value, "no_access")
    fake.allow(CH, "view_channel", "attach_files")
    await ch.send("a map", file=png(10))
    with pytest.raises(discord.Forbidden):
        await posted.pin()
    fake.allow(CH)
    await posted.pin()
    assert fake.permissions_of(CH) == discord.Permissions.all().value
    with pytest.raises(ValueError):
        fake.deny(CH, "no_such_permission")


async def test_send_and_history_permissions(fake: FakeDiscord, client: discord.Client) -> None:
    ch = channel(client)
    first = await ch.send("one")
    fake.deny(CH, "read_message_history")
    assert [m async for m in ch.history(limit=5)] == []  # Discord answers an empty history
    with pytest.raises(discord.Forbidden) as e:
        await ch.fetch_message(first.id)
    assert refused(e.value, "no_permission")
    fake.deny(CH, "send_messages")
    with pytest.raises(discord.Forbidden):
        await ch.send("two")
    await first.edit(content="own message: editing needs no Send Messages")
    await first.delete()  # its own: no Manage Messages needed


async def test_thread_permissions(fake: FakeDiscord, raw: aiohttp.ClientSession) -> None:
    status, thread, _ = await call(raw, fake, "POST", f"/channels/{CH}/threads", {"name": "t"})
    assert status == 200
    tid = int(thread["id"])
    fake.deny(CH, "send_messages")  # the channel's: posting in its thread needs another one
    assert (await call(raw, fake, "POST", f"/channels/{tid}/messages", {"content": "x"}))[0] == 200  # fmt: skip
    fake.deny(CH, "send_messages_in_threads", "create_public_threads", "create_private_threads")
    status, data, _ = await call(raw, fake, "POST", f"/channels/{tid}/messages", {"content": "y"})
    assert (status, data["code"]) == (403, 50013)
    for body in ({"name": "u"}, {"name": "p", "type": 12}):
        status, data, _ = await call(raw, fake, "POST", f"/channels/{CH}/threads", body)
        assert (status, data["code"]) == (403, 50013)
    assert not discord.Permissions(fake.permissions_of(tid)).send_messages_in_threads


# ---------------------------------------------------------------- 6. upload size


async def test_the_upload_limit(fake: FakeDiscord, client: discord.Client) -> None:
    fake.upload_limit = 1000
    assert fake.interaction(2, USER, CH, {"id": "1"})["attachment_size_limit"] == 1000
    ch = channel(client)
    msg = await ch.send("fits", file=png(1000))
    with pytest.raises(discord.HTTPException) as e:
        await ch.send("too big", files=[png(600), discord.File(io.BytesIO(b"y" * 401), "b.png")])
    assert refused(e.value, "too_large") and e.value.status == 413
    with pytest.raises(discord.HTTPException) as e:
        await msg.edit(attachments=[png(1001)])
    assert refused(e.value, "too_large")
    assert [a["size"] for a in fake.messages[msg.id]["attachments"]] == [1000]


# ---------------------------------------------------------------- 7. moderators delete


async def test_a_moderator_deletes_a_message(fake: FakeDiscord, client: discord.Client) -> None:
    ch = channel(client)
    msg = await ch.send("soon gone")
    assert fake.delete_by_moderator(msg.id)
    assert msg.id not in fake.messages and msg.id not in fake.channel_messages[CH]
    with pytest.raises(discord.NotFound) as e:
        await msg.edit(content="where is it?")
    assert refused(e.value, "deleted")
    assert not fake.delete_by_moderator(msg.id)


# ---------------------------------------------------------------- 8. the gallery edit (#7529)


def gallery(name: str) -> list[dict[str, Any]]:
    return [{"type": 12, "items": [{"media": {"url": f"attachment://{name}"}}]}]


async def test_the_gallery_edit_refusal_of_discord_api_docs_7529(
    fake: FakeDiscord, raw: aiohttp.ClientSession
) -> None:
    v2 = 1 << 15
    text = {"flags": v2, "components": [{"type": 10, "content": "hi"}]}
    status, plain, _ = await call(raw, fake, "POST", f"/channels/{CH}/messages", text)
    edit = {"components": gallery("map.png"), "attachments": [{"id": "0", "filename": "map.png"}]}
    path = f"/channels/{CH}/messages/{plain['id']}"
    fake.refuse_gallery_edits = True
    status, data, _ = await call(raw, fake, "PATCH", path, edit, {"map.png": b"png"})
    assert (status, data["code"], data["message"]) == (400, 50035, "Invalid Form Body")
    # a new post with the gallery works, and so does editing a message that had one
    post = dict(text, components=gallery("map.png"))
    status, with_gallery, _ = await call(
        raw, fake, "POST", f"/channels/{CH}/messages", post, {"map.png": b"png"}
    )
    assert status == 200
    again = f"/channels/{CH}/messages/{with_gallery['id']}"
    assert (await call(raw, fake, "PATCH", again, edit, {"map.png": b"png2"}))[0] == 200
    fake.refuse_gallery_edits = False  # the default: Discord as documented
    assert (await call(raw, fake, "PATCH", path, edit, {"map.png": b"png"}))[0] == 200


# ---------------------------------------------------------------- 9. rate-limit buckets


async def test_buckets_answer_headers_and_429_with_retry_after(
    fake: FakeDiscord, raw: aiohttp.ClientSession
) -> None:
    fake.buckets = Buckets(scale=20.0)  # 5 per 100 s: the sixth is refused whatever the pace
    answers = [
        await call(raw, fake, "POST", f"/channels/{CH}/messages", {"content": str(k)})
        for k in range(6)
    ]
    assert [s for s, _, _ in answers] == [200] * 5 + [429]
    assert [h["X-RateLimit-Remaining"] for _, _, h in answers[:5]] == ["4", "3", "2", "1", "0"]
    for _, _, h in answers:
        assert h["X-RateLimit-Limit"] == "5" and h["X-RateLimit-Bucket"]
        assert float(h["X-RateLimit-Reset-After"]) > 0 and float(h["X-RateLimit-Reset"]) > 0
    _, body, headers = answers[-1]
    assert body["retry_after"] > 0 and body["global"] is False and headers["Via"]
    assert len(fake.channel_messages[CH]) == 5  # the refused one had no effect
    # another channel is another bucket (the channel is the major parameter)
    assert (await call(raw, fake, "POST", f"/channels/{CH + 1}/messages", {"content": "x"}))[0] == 200  # fmt: skip
    assert fake.buckets.limited == 1 and fake.refusals() == {"rate_limit": 1}


async def test_discord_py_waits_on_the_buckets_and_drops_nothing(
    fake: FakeDiscord, client: discord.Client, raw: aiohttp.ClientSession
) -> None:
    fake.buckets = Buckets(scale=0.04)  # the real counts, windows of 0.2 s
    # the bucket exhausted behind discord.py's back: its first request meets a 429
    for k in range(5):
        await call(raw, fake, "POST", f"/channels/{CH}/messages", {"content": f"raw {k}"})
    ch = channel(client)
    sent = await asyncio.gather(*(ch.send(f"msg {k}") for k in range(12)))
    assert len(sent) == 12 and fake.buckets.limited >= 1
    contents = [fake.messages[m]["content"] for m in fake.channel_messages[CH]]
    assert sorted(contents[5:]) == sorted(f"msg {k}" for k in range(12))  # none dropped


# ---------------------------------------------------------------- 10. faults of these kinds


def test_faults_parse_and_describe_the_new_kinds() -> None:
    spec = "edit_quota=0.02,late=0.01,expired=0.01,dm_closed=0.1,no_permission=0.01,too_large=0.01,deleted=0.01"  # fmt: skip
    f = Faults.parse(spec)
    assert (f.edit_quota, f.late, f.dm_closed, f.deleted) == (0.02, 0.01, 0.1, 0.01)
    text = f.describe()
    for kind in ("edit_quota 2.0%", "late 1.0%", "dm_closed 10.0%", "too_large 1.0%"):
        assert kind in text
    assert set(FAULT_KINDS) >= {"edit_quota", "late", "expired", "dm_closed", "no_permission"}
    with pytest.raises(ValueError):
        Faults.parse("late=2")
    # a refusal is drawn only on the requests it can answer
    only = Faults(late=1.0)
    assert only.draw("POST", "/channels/1/messages", lambda kind: False) is None
    assert only.draw("POST", "/interactions/1/t/callback", lambda kind: kind == "late") == "late"
    assert only.draw("POST", "/x") is None  # nothing tells it applies


async def test_injected_refusals_answer_as_discord(
    fake: FakeDiscord, client: discord.Client, raw: aiohttp.ClientSession
) -> None:
    ch = channel(client)
    msg = await ch.send("text")
    fake.faults = Faults(edit_quota=1.0, limit=1)
    with pytest.raises(discord.HTTPException) as e:
        await msg.edit(content="x")
    assert refused(e.value, "edit_quota")
    fake.faults = Faults(no_permission=1.0, limit=1)
    with pytest.raises(discord.Forbidden) as e:
        await ch.send("x", file=png(3))
    assert refused(e.value, "no_permission")
    fake.faults = Faults(too_large=1.0, limit=1)
    await ch.send("no file: not drawn")
    with pytest.raises(discord.HTTPException) as e:
        await ch.send("x", file=png(3))
    assert refused(e.value, "too_large")
    fake.faults = Faults(dm_closed=1.0, limit=1)
    await ch.send("a guild channel: not drawn")
    with pytest.raises(discord.Forbidden) as e:
        await (await client.fetch_user(USER)).send("x")
    assert refused(e.value, "dm_closed")
    fake.faults = Faults(deleted=1.0, limit=1)
    with pytest.raises(discord.NotFound) as e:
        await msg.edit(content="gone?")
    assert refused(e.value, "deleted") and msg.id not in fake.messages  # really deleted
    fake.faults = Faults(late=1.0, expired=1.0, limit=2)
    payload = command(fake)
    status, data, _ = await call(raw, fake, "POST", callback_path(payload), {"type": 5})
    assert (status, data["code"]) == (404, 10062)
    status, data, _ = await call(raw, fake, "POST", hook_path(payload), {"content": "f"})
    assert (status, data["code"]) == (401, 50027)
    assert [k for k, _ in fake.faulted] == [
        "edit_quota", "no_permission", "too_large", "dm_closed", "deleted", "late", "expired"
    ]  # fmt: skip
    assert fake.refusals()["late"] == 1
    assert all(int(m["author"]["id"]) == BOT_ID for m in fake.messages.values())


async def test_discord_py_reads_the_channels_permissions_and_upload_limit(
    fake: FakeDiscord, client: discord.Client
) -> None:
    """``interaction.app_permissions`` and ``interaction.filesize_limit`` (what the bot
    reads) are true to the channel."""
    seen: list[discord.Interaction] = []

    async def on_interaction(i: discord.Interaction) -> None:
        seen.append(i)

    client.event(on_interaction)
    fake.deny(CH, "attach_files")
    fake.upload_limit = 8 * 1024 * 1024
    for cid in (CH, CH + 1):
        client._connection.parse_interaction_create(command(fake, cid))  # type: ignore[arg-type]
    for _ in range(100):
        if len(seen) == 2:
            break
        await asyncio.sleep(0.01)
    by_channel = {i.channel_id: i for i in seen}
    assert not by_channel[CH].app_permissions.attach_files
    assert by_channel[CH].app_permissions.send_messages
    assert by_channel[CH + 1].app_permissions.attach_files
    assert by_channel[CH].filesize_limit == 8 * 1024 * 1024
