"""When Discord refuses (issue #30): the fake server refuses the bot's posts as Discord does —
the edit quota of a message older than an hour (400, code 30046), a media gallery refused in
an edit (400, 50035), a deleted turn post (404), no Attach Files or no Send Messages (403,
50013), an upload too large (413, 40005), a server error — and every step stays saved, the
channel gets the turn (or it is kept and posted with the next step), the player is never told
"nothing was changed", the host is told once which permission is missing, the status message
is posted again (pinned, the old one unpinned) when its edit is refused, and the game plays on.

The refusals are the fake's ``extra_routes`` (a handler answering as Discord would, else
handing the request to the fake's own routes)."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web

from bot.errors import GONE_WRONG
from rules.brazil import GameState, apply, deciders, format_action, legal_actions
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, custom_ids
from tests.bot.test_game import texts_to
from tests.bot.test_mod import ANA, CH, CY, turn_posts, two_humans
from tests.bot.test_processes import same_turn_step

USERS = {0: ANA, 1: CY}
ALL = 0x7FFFFFFFFFFF
ATTACH_FILES = 1 << 15
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
BOARD_WORDS = "The board in words"

Handler = Callable[[Request, re.Match[str]], Awaitable[web.Response]]


def refuse(status: int, code: int, message: str) -> dict[str, Any]:
    return {"message": message, "code": code, "status": status}


def answer(fake: FakeDiscord, how: dict[str, Any]) -> web.Response:
    return fake.reply({"message": how["message"], "code": how["code"]}, how["status"])


async def through(fake: FakeDiscord, r: Request) -> web.Response:
    """The fake's own answer to ``r`` (past the refusals)."""
    saved, fake.extra_routes = fake.extra_routes, []
    try:
        return await fake.route(r)
    finally:
        fake.extra_routes = saved


def on(
    fake: FakeDiscord, method: str, path: str, when: Callable[[Request], bool], how: Any
) -> None:
    """Refuse ``method path`` requests for which ``when`` holds (``how``: a refusal), the
    others answered by the fake as usual."""

    async def handler(r: Request, _: re.Match[str]) -> web.Response:
        return answer(fake, how) if when(r) else await through(fake, r)

    fake.extra_routes.append((method, path, handler))


QUOTA = refuse(400, 30046, "Maximum number of edits to messages older than 1 hour reached.")
QUOTA_429 = refuse(429, 30046, "Maximum number of edits to messages older than 1 hour reached.")
"""The edit quota as Discord has also answered it: a 429 that is no rate limit (no ``Via``
header, no ``retry_after``: discord.py raises at once); the load test found the status
message left stale when a 429 was taken for a server's hiccup."""
GALLERY = refuse(400, 50035, "Invalid Form Body: components: media gallery refused in an edit")
NO_PERMISSION = refuse(403, 50013, "Missing Permissions")
TOO_LARGE = refuse(413, 40005, "Request entity too large")
UNAVAILABLE = refuse(503, 0, "503: Service Unavailable")
CLOSED_DMS = refuse(403, 50007, "Cannot send messages to this user")


# ============================================================================ helpers


async def play(h: Harness, uid: int, text: str, *, app_permissions: int = ALL) -> list[Request]:
    """``/play text`` by ``uid``, the bot's permissions in the channel ``app_permissions``."""
    data: dict[str, Any] = {"id": str(next(h.fake.ids)), "name": "play", "type": 1}
    data["options"] = [{"name": "command", "type": 3, "value": text}]
    payload = h.fake.interaction(2, uid, CH, data)
    payload["member"]["permissions"] = "0"
    payload["app_permissions"] = str(app_permissions)
    return await h.feed(payload)


async def record(h: Harness, gid: int) -> Any:
    return await h.client.tables.svc.places.record(gid)  # type: ignore[attr-defined]


async def game_state(h: Harness, gid: int) -> GameState:
    st: GameState = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
    return st


def new_post_step(st: GameState) -> tuple[int, str] | None:
    """A step after which others decide (a new turn post for them), or None."""
    for seat in deciders(st):
        for action in legal_actions(st, seat):
            after, _ = apply(st, action)
            if after.phase == "play" and deciders(after) and deciders(after) != deciders(st):
                return seat, format_action(st, action)
    return None


async def to_a(
    h: Harness, gid: int, find: Callable[[GameState], Any], app_permissions: int = ALL
) -> Any:
    """Play the first legal step of whoever decides until ``find`` finds a step."""
    for _ in range(60):
        st = await game_state(h, gid)
        found = find(st)
        if found is not None:
            return found
        seat = deciders(st)[0]
        await play(h, USERS[seat], format_action(st, legal_actions(st, seat)[0]))
    raise AssertionError("no such step found")


def saved_not_failed(reqs: list[Request], uid: int) -> None:
    """The player heard their move was done, never that "nothing was changed"."""
    said = " ".join(texts_to(reqs, uid))
    assert "Done: `" in said, said[:500]
    assert GONE_WRONG not in said and "nothing was changed" not in said, said[:500]


def dms_to(fake: FakeDiscord, uid: int) -> list[str]:
    """The texts the bot sent to ``uid``'s DMs."""
    dm = fake.dms.get(uid)
    return [
        str((r.json or {}).get("content") or "")
        for r in fake.requests
        if dm is not None and r.method == "POST" and r.path == f"/channels/{dm}/messages"
    ]


def text_of(msg: dict[str, Any]) -> str:
    return json.dumps(msg.get("components") or [], ensure_ascii=False)


def the_turn_post(fake: FakeDiscord) -> dict[str, Any]:
    posts = turn_posts(fake)
    assert len(posts) == 1, [m["id"] for m in posts]
    return posts[0]


async def plays_on(h: Harness, gid: int) -> None:
    """The game goes on: the decider's next step is saved and its post carries the buttons
    at the game's version."""
    st = await game_state(h, gid)
    seat = deciders(st)[0]
    before = (await record(h, gid)).version
    reqs = await play(h, USERS[seat], format_action(st, legal_actions(st, seat)[0]))
    saved_not_failed(reqs, USERS[seat])
    rec = await record(h, gid)
    assert rec.version > before
    assert rec.settings.posted_version == rec.version
    post = the_turn_post(h.fake)
    assert f"brz:t:{gid}:{rec.version}" in custom_ids(post)


# ============================================================================ the turn post


@pytest.mark.slow
@pytest.mark.parametrize(
    "how", [QUOTA, QUOTA_429, GALLERY], ids=["edit-quota-30046", "edit-quota-429", "gallery-50035"]
)
async def test_a_refused_edit_moves_the_turn_to_a_new_post(
    fake: FakeDiscord, make_bot: BotMaker, how: dict[str, Any]
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    seat_text = await to_a(h, gid, lambda st: same_turn_step(st))
    old = the_turn_post(fake)
    old_lines = (await record(h, gid)).settings.open_post.lines
    on(fake, "PATCH", rf"/channels/{CH}/messages/{old['id']}", lambda r: True, how)
    st = await game_state(h, gid)
    seat = deciders(st)[0]
    before = (await record(h, gid)).version
    reqs = await play(h, USERS[seat], seat_text)
    saved_not_failed(reqs, USERS[seat])
    rec = await record(h, gid)
    assert rec.version > before  # saved
    assert rec.settings.posted_version == rec.version  # and announced
    new = the_turn_post(fake)
    assert new["id"] != old["id"] and int(old["id"]) not in fake.messages  # the old one gone
    assert rec.settings.open_post.message_id == int(new["id"])
    # the whole turn so far, the board's picture, the buttons and the ping
    shown = text_of(new)
    assert all(line[:40] in shown for line in old_lines if "<" not in line)
    assert "attachment://map.png" in shown
    decider = USERS[deciders(await game_state(h, gid))[0]]
    assert f"<@{decider}>" in shown  # who decides, named with their buttons
    await plays_on(h, gid)


@pytest.mark.slow
async def test_a_deleted_turn_post_is_replaced_at_the_next_step_and_by_repost(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    text = await to_a(h, gid, lambda st: same_turn_step(st))
    old = the_turn_post(fake)
    del fake.messages[int(old["id"])]  # a moderator deleted it
    st = await game_state(h, gid)
    seat = deciders(st)[0]
    reqs = await play(h, USERS[seat], text)
    saved_not_failed(reqs, USERS[seat])
    new = the_turn_post(fake)
    rec = await record(h, gid)
    assert new["id"] != old["id"] and rec.settings.open_post.message_id == int(new["id"])
    assert rec.settings.posted_version == rec.version
    # the publisher's repost: nothing while the post stands; a new post once it is gone
    publisher = h.client.tables.publisher  # type: ignore[attr-defined]
    assert await publisher.repost(gid) is False
    assert the_turn_post(fake)["id"] == new["id"]
    del fake.messages[int(new["id"])]
    start = len(fake.requests)
    assert await publisher.repost(gid) is True
    again = the_turn_post(fake)
    assert again["id"] != new["id"]
    rec = await record(h, gid)
    assert rec.settings.open_post.message_id == int(again["id"])
    assert f"brz:t:{gid}:{rec.version}" in custom_ids(again)
    posts = [r for r in fake.requests[start:] if r.method == "POST" and "map.png" in r.files]
    decider = USERS[deciders(await game_state(h, gid))[0]]
    mentions = posts[0].json["allowed_mentions"]["users"] if posts else []
    assert [str(u) for u in mentions] == [str(decider)]  # the ping
    await plays_on(h, gid)


# ============================================================================ permissions


@pytest.mark.slow
@pytest.mark.parametrize("known", [True, False], ids=["app-permissions", "learnt-from-403"])
async def test_no_attach_files_posts_the_board_in_words_and_tells_the_host_once(
    fake: FakeDiscord, make_bot: BotMaker, known: bool
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    perms = ALL & ~ATTACH_FILES if known else ALL
    if not known:  # Discord refuses every upload in the channel
        on(fake, "POST", rf"/channels/{CH}/messages", lambda r: bool(r.files), NO_PERMISSION)
    for _ in range(2):
        seat, text = await to_a(h, gid, new_post_step)
        start = len(fake.requests)
        before = (await record(h, gid)).version
        reqs = await play(h, USERS[seat], text, app_permissions=perms)
        saved_not_failed(reqs, USERS[seat])
        rec = await record(h, gid)
        assert rec.version > before and rec.settings.posted_version == rec.version
        post = the_turn_post(fake)
        assert BOARD_WORDS in text_of(post) and "attachment://" not in text_of(post)
        assert not post["attachments"]
        uploads = [
            r
            for r in fake.requests[start:]
            if r.path == f"/channels/{CH}/messages" and r.method == "POST" and r.files
        ]
        # known: never tried; learnt: tried once and refused (the interaction's permissions
        # said it may: they are trusted over an earlier refusal), then posted without them
        assert len(uploads) == (0 if known else 1), len(uploads)
    told = dms_to(fake, ANA)  # Ana opened the game: its host
    assert len(told) == 1 and "Attach Files" in told[0] and f"<#{CH}>" in told[0], told
    assert (await record(h, gid)).settings.told_missing == ("attach_files",)
    await plays_on(h, gid)


@pytest.mark.slow
@pytest.mark.parametrize("dms", [True, False], ids=["host-dm", "dms-closed"])
async def test_no_send_messages_keeps_the_step_and_posts_it_with_the_next(
    fake: FakeDiscord, make_bot: BotMaker, dms: bool
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    seat, text = await to_a(h, gid, new_post_step)
    on(fake, "POST", rf"/channels/{CH}/messages", lambda r: True, NO_PERMISSION)
    if not dms:
        on(fake, "POST", r"/users/@me/channels", lambda r: True, CLOSED_DMS)
    rec = await record(h, gid)
    posted, before = rec.settings.posted_version, rec.version
    reqs = await play(h, USERS[seat], text)
    saved_not_failed(reqs, USERS[seat])
    rec = await record(h, gid)
    assert rec.version > before  # saved
    assert rec.settings.posted_version == posted  # not announced: kept to post
    missed = [e for e in await h.client.tables.store.get_log(gid, from_version=before + 1)]  # type: ignore[attr-defined]
    assert missed
    said = " ".join(texts_to(reqs, USERS[seat]))
    if dms:
        assert any("Send Messages" in t for t in dms_to(fake, ANA))
    else:  # no DMs: the player whose press it was hears it
        assert "Send Messages" in said
    assert (await record(h, gid)).settings.told_missing == ("send_messages",)
    # Discord lets the bot post again: the next step's post has the missed step too
    fake.extra_routes.clear()
    st = await game_state(h, gid)
    seat = deciders(st)[0]
    start = len(fake.requests)
    reqs = await play(h, USERS[seat], format_action(st, legal_actions(st, seat)[0]))
    saved_not_failed(reqs, USERS[seat])
    rec = await record(h, gid)
    assert rec.settings.posted_version == rec.version
    post = the_turn_post(fake)
    assert f"brz:t:{gid}:{rec.version}" in custom_ids(post)
    wrote = " ".join(
        r.text() for r in fake.requests[start:] if r.path.startswith(f"/channels/{CH}/messages")
    )
    log_text = await h.client.tables.svc.reading.log(gid, last=rec.version - posted)  # type: ignore[attr-defined]
    first_missed = log_text[0].split(": ", 1)[1][:30]  # "v12: Ana (blue) …"
    assert first_missed in wrote, (first_missed, wrote[:800])
    # told once: a second refusal in the same game says nothing more
    n = len(dms_to(fake, ANA))
    seat, text = await to_a(h, gid, new_post_step)
    on(fake, "POST", rf"/channels/{CH}/messages", lambda r: True, NO_PERMISSION)
    reqs = await play(h, USERS[seat], text)
    saved_not_failed(reqs, USERS[seat])
    assert len(dms_to(fake, ANA)) == n and "Send Messages" not in " ".join(
        texts_to(reqs, USERS[seat])
    )
    fake.extra_routes.clear()
    await plays_on(h, gid)


@pytest.mark.slow
async def test_no_send_messages_known_from_the_interaction_posts_nothing(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    seat, text = await to_a(h, gid, new_post_step)
    posted = (await record(h, gid)).settings.posted_version
    start = len(fake.requests)
    reqs = await play(h, USERS[seat], text, app_permissions=ALL & ~SEND_MESSAGES)
    saved_not_failed(reqs, USERS[seat])
    tried = [
        r
        for r in fake.requests[start:]
        if r.method == "POST" and r.path == f"/channels/{CH}/messages"
    ]
    assert not tried  # not even tried: the permissions said no
    assert (await record(h, gid)).settings.posted_version == posted
    assert any("Send Messages" in t for t in dms_to(fake, ANA))
    await plays_on(h, gid)


# ============================================================================ size, servers


@pytest.mark.slow
@pytest.mark.parametrize("smallest", [True, False], ids=["drawn-smaller", "text-only"])
async def test_an_upload_too_large_is_drawn_smaller_else_posted_in_words(
    fake: FakeDiscord, make_bot: BotMaker, smallest: bool
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    sizes = [len(d) for r in fake.requests for n, d in r.files.items() if n == "map.png"]
    assert sizes
    seat, text = await to_a(h, gid, new_post_step)
    cap = sizes[-1] * 2 // 3 if smallest else 300  # the channel's limit, in bytes
    on(
        fake,
        "POST",
        rf"/channels/{CH}/messages",
        lambda r: sum(map(len, r.files.values())) > cap,
        TOO_LARGE,
    )
    on(
        fake,
        "PATCH",
        rf"/channels/{CH}/messages/\d+",
        lambda r: sum(map(len, r.files.values())) > cap,
        TOO_LARGE,
    )
    before = (await record(h, gid)).version
    reqs = await play(h, USERS[seat], text)
    saved_not_failed(reqs, USERS[seat])
    rec = await record(h, gid)
    assert rec.version > before and rec.settings.posted_version == rec.version
    post = the_turn_post(fake)
    if smallest:
        assert [a["filename"] for a in post["attachments"]] == ["map.png"]
        assert post["attachments"][0]["size"] <= cap
        assert "attachment://map.png" in text_of(post)
    else:
        assert not post["attachments"] and BOARD_WORDS in text_of(post)
    assert not dms_to(fake, ANA)  # no permission is missing: the host is told nothing
    await plays_on(h, gid)


@pytest.mark.slow
@pytest.mark.parametrize("then", ["next-step", "restart"])
async def test_a_server_error_keeps_the_step_for_the_next_post_or_the_restart(
    fake: FakeDiscord, make_bot: BotMaker, then: str
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    seat, text = await to_a(h, gid, new_post_step)
    on(fake, "POST", rf"/channels/{CH}/messages", lambda r: True, UNAVAILABLE)
    rec = await record(h, gid)
    posted, before = rec.settings.posted_version, rec.version
    reqs = await play(h, USERS[seat], text)
    saved_not_failed(reqs, USERS[seat])
    rec = await record(h, gid)
    assert rec.version > before and rec.settings.posted_version == posted
    assert not dms_to(fake, ANA)  # no permission is missing: nobody is told anything
    fake.extra_routes.clear()
    if then == "restart":  # the restart's catch-up posts what was kept
        h = await make_bot()
        rec = await record(h, gid)
        assert rec.settings.posted_version == rec.version
        post = the_turn_post(fake)
        assert f"brz:t:{gid}:{rec.version}" in custom_ids(post)
    await plays_on(h, gid)


# ============================================================================ the status


def status_messages(fake: FakeDiscord) -> list[dict[str, Any]]:
    return [
        m
        for m in fake.messages.values()
        if m["channel_id"] == str(CH) and "### Game #" in text_of(m)
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("how", "perms"),
    [(QUOTA, ALL), (QUOTA_429, ALL), (None, ALL), (QUOTA, ALL & ~MANAGE_MESSAGES)],
    ids=["edit-quota-30046", "edit-quota-429", "deleted", "no-manage-messages"],
)
async def test_the_status_message_is_posted_again_when_its_edit_is_refused(
    fake: FakeDiscord, make_bot: BotMaker, how: dict[str, Any] | None, perms: int
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    seat, text = await to_a(h, gid, new_post_step)
    rec = await record(h, gid)
    old = rec.settings.status_message_id
    assert old is not None and fake.messages[old]["pinned"]
    if how is None:
        del fake.messages[old]
    else:
        on(fake, "PATCH", rf"/channels/{CH}/messages/{old}", lambda r: True, how)
    start = len(fake.requests)
    reqs = await play(h, USERS[seat], text, app_permissions=perms)
    saved_not_failed(reqs, USERS[seat])
    rec = await record(h, gid)
    new = rec.settings.status_message_id
    assert new is not None and new != old
    if perms != ALL:  # the bot may not pin here: it does not try
        assert not fake.messages[new]["pinned"]
        assert not [r for r in fake.requests[start:] if "/pins/" in r.path]
        return
    assert fake.messages[new]["pinned"]
    if how is not None:
        assert not fake.messages[old]["pinned"]  # the old one unpinned
    # it names who decides now
    decider = USERS[deciders(await game_state(h, gid))[0]]
    assert f"<@{decider}>" in text_of(fake.messages[new])
    assert [m["id"] for m in status_messages(fake) if m["pinned"]] == [str(new)]
    await plays_on(h, gid)
    assert (await record(h, gid)).settings.status_message_id == new  # edited in place again
