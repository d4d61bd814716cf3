"""End-to-end through the fake Discord server: ``/undo`` posted publicly with the buttons
re-posted, moderation (``/mod rollback`` with autocomplete and confirmation, ``replace``,
``kick``, ``export``, ``import``, ``/game abandon``) and the permission checks: every kind of
button and command pressed by the wrong user is refused privately and changes nothing."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from aiohttp import web

from rules.brazil import deciders, format_action, legal_actions
from rules.brazil.undo import undoable
from service.moderation import Refused, step_events, undo_check
from storage import GameStatus
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import GUILD_ID, FakeDiscord, Harness, Request, custom_ids
from tests.bot.test_alt_text import check_alt_texts
from tests.bot.test_game import public, start_against_ai, status_writes, texts_to, turn_writes

CH, CH2 = 555, 556
ANA, BO, CY = 101, 102, 103  # players (no moderator rights)
MOD, MOD2 = 900, 901  # moderators (Manage Channel)
NONE = "0"
MANAGE_CHANNELS = str(1 << 4)


async def send(
    h: Harness,
    kind: int,
    uid: int,
    channel: int,
    data: dict[str, Any],
    message: dict[str, Any] | None = None,
    *,
    perms: str | None = None,
    roles: tuple[int, ...] = (),
) -> list[Request]:
    """An interaction from ``uid`` with the given channel permissions (default: a moderator
    for MOD/MOD2, none for everybody else) and roles."""
    payload = h.fake.interaction(kind, uid, channel, data, message)
    if perms is None:
        perms = MANAGE_CHANNELS if uid in (MOD, MOD2) else NONE
    payload["member"]["permissions"] = perms
    payload["member"]["roles"] = [str(r) for r in roles]
    return await h.feed(payload)


def _opt(name: str, value: Any) -> dict[str, Any]:
    kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3
    return {"name": name, "type": kind, "value": value}


async def cmd(
    h: Harness,
    uid: int,
    name: str,
    sub: str | None = None,
    *,
    channel: int = CH,
    options: list[dict[str, Any]] | None = None,
    resolved: dict[str, Any] | None = None,
    **kw: Any,
) -> list[Request]:
    opts = (options or []) + [_opt(k, v) for k, v in kw.items() if k not in ("perms", "roles")]
    data: dict[str, Any] = {"id": str(next(h.fake.ids)), "name": name, "type": 1}
    data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
    if resolved:
        data["resolved"] = resolved
    return await send(h, 2, uid, channel, data, perms=kw.get("perms"), roles=kw.get("roles", ()))


async def click(h: Harness, uid: int, message: dict[str, Any], cid: str) -> list[Request]:
    data = {"custom_id": cid, "component_type": 2}
    return await send(h, 3, uid, int(message["channel_id"]), data, message)


async def select(
    h: Harness, uid: int, message: dict[str, Any], cid: str, value: str
) -> list[Request]:
    data = {"custom_id": cid, "component_type": 3, "values": [value]}
    return await send(h, 3, uid, int(message["channel_id"]), data, message)


def user_option(name: str, uid: int) -> tuple[dict[str, Any], dict[str, Any]]:
    u = {
        "id": str(uid),
        "username": f"user{uid}",
        "global_name": f"User{uid}",
        "discriminator": "0",
        "avatar": None,
    }
    member = {"roles": [], "joined_at": "2025-01-01T00:00:00+00:00", "flags": 0, "permissions": "0"}
    opt = {"name": name, "type": 6, "value": str(uid)}
    return opt, {"users": {str(uid): u}, "members": {str(uid): member}}


def channel_writes(fake: FakeDiscord, start: int, channel: int = CH) -> list[Request]:
    """Posts and edits of channel messages (not interaction answers) since ``start``."""
    return [
        r
        for r in fake.requests[start:]
        if r.path.startswith(f"/channels/{channel}/messages") and r.method in ("POST", "PATCH")
    ]


def turn_posts(fake: FakeDiscord, channel: int = CH) -> list[dict[str, Any]]:
    return [
        m
        for m in fake.messages.values()
        if m["channel_id"] == str(channel) and any(c.startswith("brz:t:") for c in custom_ids(m))
    ]


def newest(fake: FakeDiscord, prefix: str) -> dict[str, Any]:
    return [m for m in fake.messages.values() if any(c.startswith(prefix) for c in custom_ids(m))][
        -1
    ]


def cid_of(msg: dict[str, Any], prefix: str) -> str:
    return next(c for c in custom_ids(msg) if c.startswith(prefix))


async def game_of(h: Harness) -> tuple[int, int]:
    t = h.client.tables  # type: ignore[attr-defined]
    rec = await t.store.get_active_game(CH)
    return rec.id, rec.version


async def two_humans(fake: FakeDiscord, h: Harness) -> int:
    """Ana opens a 2-player lobby, Cy joins, Ana starts; both choose colours."""
    await cmd(h, ANA, "game", "new", players=2, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    await click(h, CY, lobby, "brz:l:1:join")
    h.client.tables.next_seed = 3  # type: ignore[attr-defined]
    await click(h, ANA, lobby, "brz:l:1:start")
    await cmd(h, ANA, "play", command="colour blue")
    await cmd(h, CY, "play", command="colour red")
    return (await game_of(h))[0]


# ============================================================================ undo


@pytest.mark.slow
async def test_undo_is_posted_and_the_buttons_reposted_R_TURN_1(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """R-TURN-1: Ana takes back a step that revealed nothing: a public post "… took back:
    <public description>" with the map in the turn's post, edited in place (issue 22: one post
    per turn), the status message edited, the post's button at the new version working while
    the button as it was answers "no longer available"; a refused undo says why, privately,
    and changes nothing."""
    h = await make_bot()
    await start_against_ai(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    rng = random.Random(5)
    refused_seen = False
    for _ in range(400):
        gid, version = await game_of(h)
        st = await tables.svc.state(gid)
        assert st.phase != "ended"
        acts = legal_actions(st, 0)
        moves = [a for a in acts if a.type == "move"] if st.current == 0 else []
        action = rng.choice(moves or acts)
        await cmd(h, ANA, "play", command=format_action(st, action))
        gid, version = await game_of(h)
        after = await tables.svc.state(gid)
        log = await tables.store.get_log(gid, from_version=version)
        events = step_events(log[-1].events_json) if log[-1].seat == 0 else []
        ok = log[-1].seat == 0 and undoable(st, action, after, events)
        old_post = copy.deepcopy(turn_posts(fake)[-1])  # as the players saw it
        start = len(fake.requests)
        reqs = await cmd(h, ANA, "undo")
        answers = " ".join(texts_to(reqs, ANA))
        if not ok:
            assert "You cannot take" in answers or "no step of your own" in answers
            assert all(r.ephemeral for r in reqs if r.interaction_user == ANA)
            assert not channel_writes(fake, start)
            assert (await game_of(h))[1] == version
            refused_seen = True
            continue
        assert "Taken back" in answers, answers
        writes = turn_writes(reqs)
        assert writes and "took back:" in writes[0].text() and "map.png" in writes[0].text()
        assert not public(reqs), "issue 22: the turn's post is edited, nobody is pinged anew"
        assert status_writes(reqs) and all(r.method == "PATCH" for r in status_writes(reqs))
        new_post = turn_posts(fake)[-1]
        assert new_post["id"] == old_post["id"]
        new_version = (await game_of(h))[1]
        assert cid_of(new_post, "brz:t:") == f"brz:t:{gid}:{new_version}"
        stale = await click(h, ANA, old_post, cid_of(old_post, "brz:t:"))
        assert any("no longer available" in t for t in texts_to(stale, ANA))
        fresh = await click(h, ANA, new_post, cid_of(new_post, "brz:t:"))
        assert any("brz:s:" in t for t in texts_to(fresh, ANA))
        assert (await tables.svc.state(gid)).model_dump() == st.model_dump()
        assert refused_seen
        return
    pytest.fail("no undoable step in 400 steps")


# ============================================================================ rollback


@pytest.mark.slow
async def test_rollback_with_autocomplete_reason_and_confirmation(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    await start_against_ai(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    rng = random.Random(1)
    for _ in range(8):
        gid, _ = await game_of(h)
        st = await tables.svc.state(gid)
        await cmd(h, ANA, "play", command=format_action(st, rng.choice(legal_actions(st, 0))))
    gid, version = await game_of(h)
    # autocomplete: the history, newest first, filtered; nothing for a non-moderator
    focus = [{"name": "version", "type": 4, "value": "", "focused": True}]
    data = {"id": "1", "name": "mod", "type": 1}
    reqs = await send(
        h, 4, MOD, CH, dict(data, options=[{"name": "rollback", "type": 1, "options": focus}])
    )
    choices = next(r for r in reqs if r.path.endswith("/callback")).json["data"]["choices"]
    assert [c["value"] for c in choices] == list(range(version - 1, max(-1, version - 26), -1))
    assert all(c["name"].startswith(f"v{c['value']} ") for c in choices)
    reqs = await send(
        h, 4, ANA, CH, dict(data, options=[{"name": "rollback", "type": 1, "options": focus}])
    )
    assert next(r for r in reqs if r.path.endswith("/callback")).json["data"]["choices"] == []
    # the request: private, with a confirmation; nothing changes yet
    start = len(fake.requests)
    reqs = await cmd(h, MOD, "mod", "rollback", version=3, reason="misclick by Ana")
    assert all(r.ephemeral for r in reqs if r.interaction_user == MOD)
    assert any("Nothing changes until you confirm" in t for t in texts_to(reqs, MOD))
    assert not channel_writes(fake, start) and (await game_of(h))[1] == version
    ask = newest(fake, "brz:m:")
    ok = cid_of(ask, "brz:m:")
    assert ok.endswith(":ok")
    # another moderator cannot confirm it; a player cannot either
    other = await click(h, MOD2, ask, ok)
    assert any("Only the moderator who asked" in t for t in texts_to(other, MOD2))
    player = await click(h, ANA, ask, ok)
    assert any("Only moderators" in t for t in texts_to(player, ANA))
    assert (await game_of(h))[1] == version and not channel_writes(fake, start)
    pressed = copy.deepcopy(ask)  # a second press sends the message as it was
    reqs = await click(h, MOD, ask, ok)
    posts = public(reqs)
    assert posts and "rolled the game back to v3" in posts[0].text()
    assert "misclick by Ana" in posts[0].text() and "map.png" in posts[0].files
    assert status_writes(reqs)
    hist = await tables.store.history(gid)
    done = [x for x in hist if x.kind.value == "rollback"]
    assert [(x.target_version, x.reason, x.actor_id) for x in done] == [(3, "misclick by Ana", MOD)]
    want = await tables.store.state_at(gid, 3)
    assert (await tables.svc.state(gid)).model_dump_json() == want or (
        # the AI seat may have played on from v3 if it decides there
        (await game_of(h))[1] > version + 1
    )
    again = await click(h, MOD, pressed, ok)  # used once
    assert any("no longer pending" in t for t in texts_to(again, MOD)), [
        (r.method, r.path, r.text()[:300]) for r in again
    ]


# ============================================================================ seats, files


@pytest.mark.slow
async def test_replace_kick_export_import(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    opt, resolved = user_option("user", BO)
    reqs = await cmd(h, MOD, "mod", "replace", options=[opt], resolved=resolved, seat=2)
    assert any("<@102>" in r.text() and "Seat 2" in r.text() for r in public(reqs))
    assert await tables.seat_of(gid, BO) == 1 and await tables.seat_of(gid, CY) is None
    nope = await cmd(h, CY, "play", command="pass")
    assert any("no seat" in t for t in texts_to(nope, CY))
    # kick Bo: an AI plays seat 2 now; kicking Ana too is refused (the last human)
    reqs = await cmd(h, MOD, "mod", "kick", seat=2, level="random")
    assert any("computer player (easy)" in r.text() for r in public(reqs))
    assert (await tables.svc.info(gid)).seats[1].ai == "random"
    last = await cmd(h, MOD, "mod", "kick", seat=1, level="random")
    assert any("last human player" in t for t in texts_to(last, MOD))
    # export: the file privately to the moderator, never in the channel
    start = len(fake.requests)
    reqs = await cmd(h, MOD, "mod", "export")
    files = [r for r in reqs if r.files]
    assert len(files) == 1 and files[0].ephemeral and not channel_writes(fake, start)
    name, data = next(iter(files[0].files.items()))
    assert name.startswith(f"brazil-game-{gid}-") and json.loads(data)["game"]["id"] == gid
    assert check_alt_texts(files, "en") == []  # the file's description said (a private file)
    # import: into another channel (the file served over HTTP as an attachment would be)
    async with serve({"game.json": data, "bad.json": b"{}"}) as base:

        def attachment(fname: str) -> tuple[dict[str, Any], dict[str, Any]]:
            att = {
                "id": "77",
                "filename": fname,
                "size": len(data),
                "url": f"{base}/{fname}",
                "proxy_url": f"{base}/{fname}",
            }
            return {"name": "file", "type": 11, "value": "77"}, {"attachments": {"77": att}}

        o, res = attachment("game.json")
        busy = await cmd(h, MOD, "mod", "import", options=[o], resolved=res)
        assert any("already has a game" in t for t in texts_to(busy, MOD))
        o, res = attachment("bad.json")
        bad = await cmd(h, MOD, "mod", "import", channel=CH2, options=[o], resolved=res)
        assert any("not a game export" in t for t in texts_to(bad, MOD))
        o, res = attachment("game.json")
        refused = await cmd(h, ANA, "mod", "import", channel=CH2, options=[o], resolved=res)
        assert any("Only moderators" in t for t in texts_to(refused, ANA))
        reqs = await cmd(h, MOD, "mod", "import", channel=CH2, options=[o], resolved=res)
    rec = await tables.store.get_active_game(CH2)
    assert rec is not None and rec.id != gid
    assert (await tables.svc.state(rec.id)).model_dump() == (
        await tables.svc.state(gid)
    ).model_dump()
    assert any("imported a game here" in r.text() for r in public_in(reqs, CH2))


def public_in(reqs: list[Request], channel: int) -> list[Request]:
    return [r for r in reqs if r.method == "POST" and r.path == f"/channels/{channel}/messages"]


class serve:
    """A tiny HTTP server for attachment downloads (Discord's CDN)."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.runner: web.AppRunner | None = None

    async def __aenter__(self) -> str:
        async def get(req: web.Request) -> web.Response:
            return web.Response(body=self.files[req.match_info["name"]])

        app = web.Application()
        app.router.add_get("/{name}", get)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"http://127.0.0.1:{port}"

    async def __aexit__(self, *exc: object) -> None:
        assert self.runner is not None
        await self.runner.cleanup()


# ============================================================================ abandon


@pytest.mark.slow
async def test_abandon_by_all_players_or_a_moderator(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    stranger = await cmd(h, BO, "game", "abandon")
    assert any("Only the seated players" in t for t in texts_to(stranger, BO))
    reqs = await cmd(h, ANA, "game", "abandon")
    assert any("asks to abandon" in r.text() and "1 of 2" in r.text() for r in reqs)
    assert (await tables.store.get_game(gid)).status is GameStatus.RUNNING
    reqs = await cmd(h, CY, "game", "abandon")
    assert any("Abandon it for good?" in t for t in texts_to(reqs, CY))
    ask = newest(fake, "brz:m:")
    refused = await click(h, ANA, ask, cid_of(ask, "brz:m:"))
    assert any("Only the moderator who asked" in t or "Only" in t for t in texts_to(refused, ANA))
    reqs = await click(h, CY, ask, cid_of(ask, "brz:m:"))
    assert any("abandoned by agreement of all players" in r.text() for r in public(reqs))
    assert (await tables.store.get_game(gid)).status is GameStatus.ABANDONED
    # a moderator: at once, after a confirmation (and Cancel cancels)
    await start_against_ai(fake, h)
    gid2, _ = await game_of(h)
    await cmd(h, MOD, "game", "abandon")
    ask = newest(fake, "brz:m:")
    await click(h, MOD, ask, next(c for c in custom_ids(ask) if c.endswith(":no")))
    assert (await tables.store.get_game(gid2)).status.is_active
    await cmd(h, MOD, "game", "abandon")
    ask = newest(fake, "brz:m:")
    reqs = await click(h, MOD, ask, cid_of(ask, "brz:m:"))
    assert any(f"abandoned by <@{MOD}>" in r.text() for r in public(reqs))
    assert (await tables.store.get_game(gid2)).status is GameStatus.ABANDONED


# ============================================================================ permissions


def holding(msg: dict[str, Any], component: dict[str, Any]) -> dict[str, Any]:
    """``msg`` with ``component`` in an action row (a press must come from a message that
    shows the component: e.g. Ana's private guided flow, as a stranger would replay it)."""
    out = copy.deepcopy(msg)
    out["components"] = [{"type": 1, "components": [component]}]
    out["flags"] = 0
    return out


CASES: list[tuple[str, int, str]] = [
    # (what is pressed or typed, by whom, the private refusal)
    ("turn_button", BO, "no seat"),  # a spectator (issue 22)
    ("hand_button", BO, "no seat"),
    ("choice_select", BO, "no seat"),  # a spectator (issue 22)
    ("confirm_button", BO, "no seat"),  # a spectator (issue 22)
    ("pay_button", BO, "no seat"),  # a spectator (issue 22)
    ("back_button", BO, "no seat"),  # a spectator (issue 22)
    ("play", BO, "no seat"),
    ("undo", BO, "no seat"),
    ("hand_thread", BO, "no seat"),
    ("abandon", BO, "Only the seated players"),
    ("mod_rollback", ANA, "Only moderators"),
    ("mod_kick", ANA, "Only moderators"),
    ("mod_replace", ANA, "Only moderators"),
    ("mod_export", ANA, "Only moderators"),
    ("mod_confirm", ANA, "Only moderators"),
    ("mod_confirm", MOD2, "Only the moderator who asked"),
    ("mod_role_wrong", ANA, "Only moderators"),
    ("lobby_ai", BO, "creator or a moderator"),
    ("lobby_start", BO, "creator or a moderator"),
    ("lobby_colour", BO, "Join the game first"),
    ("lobby_leave", BO, "not in this game"),
]


@pytest.mark.slow
async def test_the_moderator_role_is_read_from_the_guild_the_gateway_delivered(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """The configured moderator role is recognised through discord.py's public API: the
    guild as the gateway delivers it (GUILD_CREATE with its roles, the harness feeds it to
    the client) and :meth:`discord.Member.get_role`. A member without the role is refused;
    with no guild in the cache (before the gateway delivered it) a role id in the member
    payload is not trusted, and Manage Channel still decides."""
    h = await make_bot()
    await start_against_ai(fake, h)
    h.add_role(4242, "Game moderators")
    h.add_role(4343, "Players")
    guild = h.client.get_guild(GUILD_ID)
    assert guild is not None and guild.get_role(4242) is not None
    assert guild.default_role.id == GUILD_ID
    h.client.tables.settings.moderator_role_id = 4242  # type: ignore[attr-defined]
    ok = await cmd(h, ANA, "mod", "export", roles=(4242,))
    assert any(r.files for r in ok), "the configured role moderates"
    no = await cmd(h, ANA, "mod", "export", roles=(4343,))
    assert any("Only moderators" in t for t in texts_to(no, ANA))
    assert not any(r.files for r in no)
    h.remove_guild()  # no guild cached: the member payload's role ids are not read
    assert h.client.get_guild(GUILD_ID) is None
    no = await cmd(h, ANA, "mod", "export", roles=(4242,))
    assert any("Only moderators" in t for t in texts_to(no, ANA))
    assert any(r.files for r in await cmd(h, MOD, "mod", "export")), "Manage Channel"


@pytest.mark.slow
@pytest.mark.parametrize(("what", "who", "refusal"), CASES)
async def test_the_wrong_user_is_refused_privately(
    fake: FakeDiscord, make_bot: BotMaker, what: str, who: int, refusal: str
) -> None:
    """Every kind of button and command used by the wrong person: a private, specific
    refusal; no channel post or edit; the game's version unchanged."""
    h = await make_bot()
    if what.startswith("lobby_"):
        await cmd(h, ANA, "game", "new", players=3, ai_level="random")
        lobby = fake.messages[max(fake.messages)]
        start = len(fake.requests)
        op = what.removeprefix("lobby_")
        if op == "colour":
            reqs = await select(h, who, lobby, "brz:k:1", "red")
        else:
            reqs = await click(h, who, lobby, f"brz:l:1:{op}")
        rec = await h.client.tables.store.get_game(1)  # type: ignore[attr-defined]
        assert rec.status is GameStatus.LOBBY and len(rec.seats) == 1
    else:
        await start_against_ai(fake, h)
        gid, version = await game_of(h)
        post = turn_posts(fake)[-1]
        if what == "mod_confirm":
            await cmd(h, MOD, "game", "abandon")  # a pending request, confirmed below
            version = (await game_of(h))[1]
        start = len(fake.requests)
        v = version
        presses = {
            "turn_button": f"brz:t:{gid}:{v}",
            "hand_button": f"brz:h:{gid}",
            "confirm_button": f"brz:c:{gid}:{v}:0",
            "pay_button": f"brz:p:{gid}:{v}:0:",
            "back_button": f"brz:b:{gid}:{v}",
        }
        if what in presses:
            button = {"type": 2, "style": 1, "label": "x", "custom_id": presses[what]}
            reqs = await click(h, who, holding(post, button), presses[what])
        elif what == "choice_select":
            menu = {
                "type": 3,
                "custom_id": f"brz:s:{gid}:{v}",
                "options": [{"label": "a", "value": "i:0"}],
            }
            reqs = await select(h, who, holding(post, menu), f"brz:s:{gid}:{v}", "i:0")
        elif what == "mod_confirm":
            ask = newest(fake, "brz:m:")
            reqs = await click(h, who, ask, cid_of(ask, "brz:m:"))
        elif what == "play":
            st = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
            reqs = await cmd(h, who, "play", command=format_action(st, legal_actions(st, 0)[0]))
        elif what == "hand_thread":
            reqs = await cmd(h, who, "hand", where="thread")
            assert not fake.threads
        elif what == "abandon":
            reqs = await cmd(h, who, "game", "abandon")
        elif what == "mod_replace":
            opt, resolved = user_option("user", BO)
            reqs = await cmd(h, who, "mod", "replace", options=[opt], resolved=resolved, seat=1)
        elif what == "mod_role_wrong":  # a role, but not the configured moderator role
            h.add_role(4242, "Game moderators")  # the guild's roles, as the gateway has them
            h.add_role(4343, "Players")
            h.client.tables.settings.moderator_role_id = 4242  # type: ignore[attr-defined]
            reqs = await cmd(h, who, "mod", "kick", seat=1, roles=(4343,))
            ok = await cmd(h, who, "mod", "export", roles=(4242,))
            assert any(r.files for r in ok), "the configured role moderates"
        elif what == "undo":
            reqs = await cmd(h, who, "undo")
        else:
            sub = what.removeprefix("mod_")
            kw: dict[str, Any] = {"rollback": {"version": 0, "reason": "x"}, "kick": {"seat": 1}}
            reqs = await cmd(h, who, "mod", sub, **kw.get(sub, {}))
        assert (await game_of(h)) == (gid, version), "the game changed"
        st = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
        assert deciders(st)
    answers = texts_to(reqs, who)
    assert any(refusal in t for t in answers), answers
    assert all(r.ephemeral for r in reqs if r.interaction_user == who and r.json)
    assert not channel_writes(fake, start), "a refusal posted or edited in the channel"


@pytest.mark.slow
async def test_undo_button_on_the_turn_post_R_TURN_1(fake: FakeDiscord, make_bot: BotMaker) -> None:
    """UX: "an Undo while the engine allows it" — the turn post carries an Undo button exactly
    when the decider may take back their last step; pressing it takes the step back (public
    post, new turn post); someone else's press or a stale one is refused privately."""
    h = await make_bot()
    await start_against_ai(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    rng = random.Random(7)
    shown = hidden = 0
    for _ in range(400):
        gid, version = await game_of(h)
        st = await tables.svc.state(gid)
        acts = legal_actions(st, 0)
        moves = [a for a in acts if a.type == "move"] if st.current == 0 else []
        await cmd(h, ANA, "play", command=format_action(st, rng.choice(moves or acts)))
        gid, version = await game_of(h)
        post = copy.deepcopy(turn_posts(fake)[-1])  # as the player saw it (edits change it)
        may = True
        try:
            await undo_check(tables.svc, gid, 0)
        except Refused:
            may = False
        may = may and deciders(await tables.svc.state(gid)) == [0]
        has = any(c.startswith("brz:u:") for c in custom_ids(post))
        assert has == may, (may, custom_ids(post))
        if not has:
            hidden += 1
            continue
        shown += 1
        cid = cid_of(post, "brz:u:")
        assert cid == f"brz:u:{gid}:{version}"
        start = len(fake.requests)
        other = await click(h, CY, post, cid)
        assert any("no seat" in t for t in texts_to(other, CY))
        assert not channel_writes(fake, start) and (await game_of(h))[1] == version
        reqs = await click(h, ANA, post, cid)
        assert any("Taken back" in t for t in texts_to(reqs, ANA))
        # issue 22: the turn's post is edited in place (no new post, no ping)
        assert any("took back:" in r.text() for r in turn_writes(reqs))
        assert (await game_of(h))[1] > version
        stale = await click(h, ANA, post, cid)
        assert any("no longer available" in t for t in texts_to(stale, ANA))
        if shown >= 2 and hidden >= 1:
            return
    pytest.fail(f"Undo shown {shown}, hidden {hidden} times in 400 steps")
