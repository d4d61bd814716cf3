"""Discord's limits on interactions (issue #30), end to end through discord.py against the fake
server, which refuses as real Discord does (``FakeDiscord.extra_routes``):

- a press answered after the 3 s deadline (404 10062) or answered twice (400 40060) changes
  nothing, is logged once without a traceback (no ERROR) and counted; the retry works;
- a follow-up after the interaction's token expired (401 50027) is dropped quietly (INFO),
  the step stays saved, and the private news it carried waits for ``/hand``;
- a private place Discord refuses (DMs closed: 403 50007) falls back to the player's answer
  and says so once; ``/hand where:dm`` with DMs closed and ``where:thread`` without the
  permission (403 50013) change nothing and say why;
- a step saved whose post (or answer) Discord refused is answered "Your move was saved" —
  never "nothing was changed", in no language — and is shown once Discord accepts it;
- the Take-my-turn button of an older post, when the game's turn post was deleted, opens the
  decision's guided flow now (and asks the publisher to post the turn again).
"""

from __future__ import annotations

import contextlib
import copy
import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp import web

from i18n import tr
from rules.brazil import format_action, legal_actions
from rules.games import game as rules_game
from service.metrics import REGISTRY
from storage import PrivatePlace
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, components_of, custom_ids
from tests.bot.test_game import ANA, CH, Game, public, start_against_ai, texts_to
from tests.bot.test_mod import MOD, cid_of, click, cmd, newest

LANGS = ("en", "pt-BR", "fr", "de", "hu", "pl")
T = rules_game("tigris")
WEBHOOKS = r"/webhooks/\d+/[^/]+(/messages/[^/]+)?"  # an interaction's follow-ups and edits
CALLBACKS = r"/interactions/\d+/[^/]+/callback"  # an interaction's first answer
CHANNEL_WRITES = rf"/channels/{CH}/messages(/\d+)?"  # the game's posts and their edits


@contextlib.contextmanager
def refusing(
    fake: FakeDiscord, method: str, pattern: str, status: int, code: int, message: str
) -> Iterator[list[Request]]:
    """While in the block, Discord refuses ``method`` requests to paths matching ``pattern``
    with ``status`` and its error ``code``; yields the requests refused."""
    hits: list[Request] = []

    async def refuse(r: Request, _: Any) -> web.Response:
        hits.append(r)
        return FakeDiscord.reply({"message": message, "code": code}, status)

    entry = (method, pattern, refuse)
    fake.extra_routes.append(entry)
    try:
        yield hits
    finally:
        fake.extra_routes.remove(entry)


def counted(kind: str) -> float:
    """How many interactions failed so far, of ``kind`` (the metrics)."""
    return REGISTRY.get_sample_value("turnpost_interaction_errors_total", {"kind": kind}) or 0.0


def assert_quiet(caplog: pytest.LogCaptureFixture) -> None:
    """No ERROR and no traceback in the log."""
    loud = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not loud, [(r.name, r.levelname, r.getMessage()) for r in loud]


def logged(caplog: pytest.LogCaptureFixture, level: int, words: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == level and words in r.getMessage()]


def saying(reqs: list[Request], uid: int = ANA) -> str:
    return " ".join(texts_to(reqs, uid))


def never_nothing_changed(reqs: list[Request]) -> None:
    """The answers never say "nothing was changed" (``bot.error.gone_wrong``), in any
    language."""
    said = saying(reqs)
    for lang in LANGS:
        assert tr(lang, "bot.error.gone_wrong") not in said, (lang, said)


async def version(h: Harness) -> int:
    rec = await h.client.tables.store.get_active_game(CH)  # type: ignore[attr-defined]
    assert rec is not None
    return int(rec.version)


def play_payload(fake: FakeDiscord, uid: int, command: str) -> dict[str, Any]:
    """The interaction of ``/play command:…`` (as :meth:`Harness.command` sends it)."""
    data = {
        "id": str(next(fake.ids)),
        "name": "play",
        "type": 1,
        "options": [{"name": "command", "type": 3, "value": command}],
    }
    return fake.interaction(2, uid, CH, data)


async def a_move(h: Harness) -> str:
    """One of Ana's legal commands now (Brazil: Imperial)."""
    st = await h.client.tables.svc.state((await h.client.tables.store.get_active_game(CH)).id)  # type: ignore[attr-defined]
    return str(format_action(st, random.Random(7).choice(legal_actions(st, 0))))


async def to_confirm(fake: FakeDiscord, h: Harness) -> tuple[dict[str, Any], str]:
    """Take my turn, then the first option of each menu, up to the Confirm button: the
    private message and the button's custom_id."""
    g = Game(fake, h)
    post = g.last_turn_post()
    await h.click(ANA, post, next(c for c in custom_ids(post) if c.startswith("brz:t:")))
    msg = fake.messages[
        max(
            m
            for m, v in fake.messages.items()
            if any(c.startswith("brz:s:") for c in custom_ids(v))
        )
    ]
    for _ in range(10):
        confirm = [c for c in custom_ids(msg) if c.startswith("brz:c:")]
        if confirm:
            return msg, confirm[0]
        sel = next(c for c in components_of(msg) if c.get("custom_id", "").startswith("brz:s:"))
        await h.select(ANA, msg, sel["custom_id"], sel["options"][0]["value"])
    raise AssertionError("the guided flow did not reach Confirm")


# ============================================================================ the 3 s deadline


async def test_a_late_or_second_answer_changes_nothing_and_logs_no_error(
    fake: FakeDiscord, make_bot: BotMaker, caplog: pytest.LogCaptureFixture
) -> None:
    """10062 (answered after the 3 s deadline) and 40060 (already acknowledged) on the
    first answer of ``/play`` and of a Confirm press: nothing applied (the service is called
    only once the press is acknowledged), one WARNING without traceback, counted; the
    player's retry works."""
    h = await make_bot()
    await start_against_ai(fake, h)
    caplog.set_level(logging.INFO)
    v0 = await version(h)
    late, twice = counted("late"), counted("acknowledged")

    with refusing(fake, "POST", CALLBACKS, 404, 10062, "Unknown interaction") as hits:
        await h.feed(play_payload(fake, ANA, await a_move(h)))
    assert hits and await version(h) == v0
    assert counted("late") == late + 1
    assert len(logged(caplog, logging.WARNING, "10062")) == 1
    with refusing(
        fake, "POST", CALLBACKS, 400, 40060, "Interaction has already been acknowledged."
    ) as hits:
        await h.feed(play_payload(fake, ANA, await a_move(h)))
    assert hits and await version(h) == v0
    assert counted("acknowledged") == twice + 1

    # a Confirm press too late: nothing applied; the same press again works
    msg, confirm = await to_confirm(fake, h)
    pressed = fake.interaction(3, ANA, CH, {"custom_id": confirm, "component_type": 2}, msg)
    with refusing(fake, "POST", CALLBACKS, 404, 10062, "Unknown interaction") as hits:
        reqs = await h.feed(pressed)
    assert hits and await version(h) == v0
    assert not [r for r in reqs if r.path.startswith("/webhooks/")], "nobody left to answer"
    assert counted("late") == late + 2
    await h.click(ANA, msg, confirm)
    assert await version(h) > v0
    assert_quiet(caplog)

    # a Confirm whose token expired before its "Done" (or next menu): saved, dropped at INFO
    msg, confirm = await to_confirm(fake, h)
    v1, expired = await version(h), counted("expired")
    with refusing(fake, "*", WEBHOOKS, 401, 50027, "Invalid Webhook Token") as hits:
        await h.click(ANA, msg, confirm)
    assert any(r.method == "PATCH" for r in hits), "the Done / next menu was refused"
    assert await version(h) > v1
    assert counted("expired") > expired
    assert logged(caplog, logging.INFO, "50027")
    assert_quiet(caplog)


# ============================================================================ expired tokens


async def start_tigris(fake: FakeDiscord, h: Harness) -> int:
    """Ana (seat 1) against a computer player in Tigris & Euphrates; the game's id."""
    await h.command(ANA, CH, "game", "new", game="tigris", players=2, ai=1, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    gid = int(next(c for c in custom_ids(lobby) if c.startswith("brz:l:")).split(":")[2])
    h.client.tables.next_seed = 11  # type: ignore[attr-defined]
    await h.click(ANA, lobby, f"brz:l:{gid}:start")
    return gid


async def tigris_turn(h: Harness, gid: int, rng: random.Random) -> list[Request]:
    """Ana plays typed commands until her turn is over (her hand is then refilled: the
    draw's private news; the computer player's turn follows at once); the requests."""
    tables = h.client.tables  # type: ignore[attr-defined]
    out: list[Request] = []
    turn = (await tables.svc.state(gid)).turn
    for _ in range(12):
        st = await tables.svc.state(gid)
        if st.turn != turn or 0 not in T.deciders(st) or st.phase == "over":
            break
        acts = T.legal_actions(st, 0)
        moves = [a for a in acts if a.kind != "pass"] or acts
        out += await h.command(ANA, CH, "play", command=T.format_action(st, rng.choice(moves)))
    return out


async def test_private_news_of_an_expired_interaction_waits_for_hand(
    fake: FakeDiscord, make_bot: BotMaker, caplog: pytest.LogCaptureFixture
) -> None:
    """The token of ``/play`` expired (every follow-up refused, 401 50027): the steps are
    saved, "Done" is dropped at INFO, and the draw's private news ("You draw …") is kept in
    the seat's inbox, read by ``/hand``; no ERROR, no traceback."""
    h = await make_bot()
    gid = await start_tigris(fake, h)
    caplog.set_level(logging.INFO)
    rng = random.Random(3)
    expired = counted("expired")
    v0 = await version(h)
    with refusing(fake, "*", WEBHOOKS, 401, 50027, "Invalid Webhook Token") as hits:
        reqs = await tigris_turn(h, gid, rng)
    assert hits and await version(h) > v0
    assert not any("You draw" in t for t in texts_to(reqs, ANA)), "refused: not delivered"
    assert counted("expired") > expired
    assert logged(caplog, logging.INFO, "50027")
    assert_quiet(caplog)
    hand = await h.command(ANA, CH, "hand")
    assert "You draw" in saying(hand), saying(hand)
    # read once: the next /hand has no news
    assert "You draw" not in saying(await h.command(ANA, CH, "hand"))

    # the channel refuses the turn's posts (the publisher stops before the private news):
    # the draw still reaches Ana, with the word that her move was saved
    with (
        refusing(fake, "POST", CHANNEL_WRITES, 403, 50001, "Missing Access"),
        refusing(fake, "PATCH", CHANNEL_WRITES, 403, 50001, "Missing Access"),
    ):
        reqs = await tigris_turn(h, gid, rng)
    assert "You draw" in saying(reqs), saying(reqs)
    assert tr("en", "bot.error.saved_not_posted") in saying(reqs)
    never_nothing_changed(reqs)
    assert_quiet(caplog)


async def test_a_private_place_that_fails_falls_back_and_says_so_once(
    fake: FakeDiscord, make_bot: BotMaker, caplog: pytest.LogCaptureFixture
) -> None:
    """Ana's news goes to her DMs; then she closes them (403 50007): each draw's news comes
    to her in her answer instead, the first time with a note saying why (once); when that
    answer is refused too (expired), it waits for ``/hand``."""
    h = await make_bot()
    gid = await start_tigris(fake, h)
    await h.command(ANA, CH, "hand", where="dm")
    dm = fake.dms[ANA]
    rng = random.Random(5)
    caplog.set_level(logging.INFO)
    note = tr("en", "bot.private.dm_failed")
    with refusing(fake, "POST", rf"/channels/{dm}/messages", 403, 50007, "Cannot send") as hits:
        first = await tigris_turn(h, gid, rng)
        second = await tigris_turn(h, gid, rng)
        assert hits
        assert "You draw" in saying(first) and note in saying(first)
        assert "You draw" in saying(second) and note not in saying(second)
        with refusing(fake, "*", WEBHOOKS, 401, 50027, "Invalid Webhook Token"):
            third = await tigris_turn(h, gid, rng)
        assert "You draw" not in saying(third)
    assert "You draw" in saying(await h.command(ANA, CH, "hand"))
    rec = await h.client.tables.store.get_game(gid)  # type: ignore[attr-defined]
    assert rec.settings.private_places[ANA] == PrivatePlace(where="dm", channel_id=int(dm))
    assert_quiet(caplog)


# ============================================================================ /hand where:


async def test_hand_where_dm_or_thread_refused_changes_nothing_and_says_why(
    fake: FakeDiscord, make_bot: BotMaker, caplog: pytest.LogCaptureFixture
) -> None:
    """``/hand where:dm`` with Ana's DMs closed (403 50007 on the first message): the choice
    is not saved, the answer says how to open them, the news it read waits again;
    ``where:thread`` without Create Private Threads (403 50013): no thread, the answer names
    the permission."""
    h = await make_bot()
    await start_against_ai(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    gid = (await tables.store.get_active_game(CH)).id
    await tables.svc.reading.hold_news(gid, 0, ["a note kept for Ana"])
    caplog.set_level(logging.INFO)
    fake.dms[ANA] = dm = next(fake.ids)  # her DM channel, as Discord opens it
    with refusing(fake, "POST", rf"/channels/{dm}/messages", 403, 50007, "Cannot send") as hits:
        reqs = await h.command(ANA, CH, "hand", where="dm")
    assert hits, "the bot tried her DMs"
    said = saying(reqs)
    assert "Privacy Settings" in said and "Nothing was changed" in said, said
    assert "From now on" not in said
    assert ANA not in (await tables.store.get_game(gid)).settings.private_places
    assert "a note kept for Ana" in saying(await h.command(ANA, CH, "hand"))

    with refusing(fake, "POST", rf"/channels/{CH}/threads", 403, 50013, "Missing Permissions"):
        reqs = await h.command(ANA, CH, "hand", where="thread")
    assert "Create Private Threads" in saying(reqs), saying(reqs)
    assert not fake.threads
    assert ANA not in (await tables.store.get_game(gid)).settings.private_places
    assert_quiet(caplog)
    # DMs open again: the same command works and is saved
    reqs = await h.command(ANA, CH, "hand", where="dm")
    assert "From now on" in saying(reqs)
    rec = await tables.store.get_game(gid)
    assert rec.settings.private_places[ANA] == PrivatePlace(where="dm", channel_id=dm)


# ============================================================================ after a save


async def test_a_saved_step_whose_post_failed_says_it_was_saved(
    fake: FakeDiscord, make_bot: BotMaker, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refuses every write in the game's channel (403 50001) while Ana plays, in each
    of her six languages: her step is saved, and she is told so in her language — never
    "nothing was changed" —; once Discord accepts again, the catch-up shows it. A refusal of the guided flow's answer after a Confirm
    (400) is answered the same way."""
    h = await make_bot()
    await start_against_ai(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    caplog.set_level(logging.INFO)
    for lang in LANGS:  # in each language Ana reads
        await h.command(ANA, CH, "language", language=lang)
        v0 = await version(h)
        with (
            refusing(fake, "POST", CHANNEL_WRITES, 403, 50001, "Missing Access") as posts,
            refusing(fake, "PATCH", CHANNEL_WRITES, 403, 50001, "Missing Access") as edits,
        ):
            reqs = await h.command(ANA, CH, "play", command=await a_move(h))
        assert posts or edits
        assert await version(h) > v0, "the step is saved"
        assert tr(lang, "bot.error.saved_not_posted") in saying(reqs), (lang, saying(reqs))
        never_nothing_changed(reqs)
    assert_quiet(caplog)
    before = len(fake.requests)
    assert await tables.recover() == 1
    shown = [
        r
        for r in fake.requests[before:]
        if r.path.startswith(f"/channels/{CH}/messages") and r.method in ("POST", "PATCH")
    ]
    assert shown, "shown once Discord accepts it"
    assert (await tables.store.get_active_game(CH)).settings.posted_version == await version(h)

    # the answer of a Confirm refused after the save (not a deadline: a 400)
    msg, confirm = await to_confirm(fake, h)
    v1 = await version(h)
    with refusing(
        fake, "PATCH", r"/webhooks/\d+/[^/]+/messages/@original", 400, 50035, "Invalid Form Body"
    ) as hits:
        reqs = await h.click(ANA, msg, confirm)
    assert hits and await version(h) > v1
    assert tr(LANGS[-1], "bot.error.saved_fault") in saying(reqs), saying(reqs)
    never_nothing_changed(reqs)
    assert_quiet(caplog)


# ============================================================================ a deleted turn post


async def test_take_my_turn_of_an_older_post_when_the_turn_post_was_deleted(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """An older post's Take-my-turn button (its buttons still in sight), pressed by the
    player who decides now: "no longer available" while the game's turn post is there; once
    a moderator deleted it, the decision's guided flow now, and the turn is posted again."""
    h = await make_bot()
    await start_against_ai(fake, h)
    g = Game(fake, h)
    old = copy.deepcopy(g.last_turn_post())
    for _ in range(200):  # until a new turn post (Ana's next turn)
        gid, st = await g.state()
        await g.play_typed(st)
        if g.last_turn_post()["id"] != old["id"]:
            break
    new = g.last_turn_post()
    assert new["id"] != old["id"]
    gid, st = await g.state()
    assert st.phase != "ended"
    now = await version(h)
    button = next(c for c in custom_ids(old) if c.startswith("brz:t:"))
    assert button != f"brz:t:{gid}:{now}"
    stale = await h.click(ANA, old, button)
    assert "no longer available" in saying(stale)

    # a moderator deletes the turn post
    assert fake.delete_by_moderator(int(new["id"]))
    reqs = await h.click(ANA, old, button)
    said = saying(reqs)
    assert "no longer available" not in said
    assert f"brz:s:{gid}:{now}" in said, said
    assert all(r.ephemeral for r in reqs if r.interaction_user == ANA)
    # the turn is posted again, with its buttons
    assert any(f"brz:t:{gid}:{now}" in r.text() for r in public(reqs))


# ============================================================================ a moderator's Confirm


async def test_a_late_moderator_confirm_takes_nothing_and_the_retry_works(
    fake: FakeDiscord, make_bot: BotMaker, caplog: pytest.LogCaptureFixture
) -> None:
    """A rollback's Confirm answered after the 3 s deadline (10062): the request is not
    taken (the game is unchanged and the request still pending), no ERROR; the same press
    again rolls the game back."""
    h = await make_bot()
    await start_against_ai(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    for _ in range(3):
        await h.command(ANA, CH, "play", command=await a_move(h))
    v0 = await version(h)
    await cmd(h, MOD, "mod", "rollback", version=1, reason="a misclick")
    ask = newest(fake, "brz:m:")
    ok = cid_of(ask, "brz:m:")
    pressed = copy.deepcopy(ask)
    caplog.set_level(logging.INFO)
    with refusing(fake, "POST", CALLBACKS, 404, 10062, "Unknown interaction") as hits:
        await click(h, MOD, ask, ok)
    assert hits and await version(h) == v0
    gid = (await tables.store.get_active_game(CH)).id
    assert (await tables.store.get_game(gid)).settings.pending_request is not None
    assert_quiet(caplog)
    reqs = await click(h, MOD, pressed, ok)
    assert any("rolled the game back to v1" in r.text() for r in public(reqs))
