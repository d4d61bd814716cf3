"""Turns that keep moving on Discord (issue #29): at any moment exactly one public post of a
game carries buttons — a post the game moved past (the deciders changed, a moderator's or the
clock's new post, the game's end) loses them — and the turn's post is kept with the game, so a
restart mid-turn goes on editing it (no orphan post with buttons, no extra post)."""

from __future__ import annotations

import random

import pytest

from rules.brazil import deciders, format_action, legal_actions
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Harness
from tests.bot.test_mod import ANA, CY, channel_writes, cmd, game_of, turn_posts, two_humans
from tests.bot.test_processes import same_turn_step

USERS = {0: ANA, 1: CY}


async def _step(h: Harness, rng: random.Random, *, same_turn: bool = False) -> bool:
    """One random command of whoever decides (not ending the turn when ``same_turn``);
    False when the game is over."""
    t = h.client.tables  # type: ignore[attr-defined]
    gid, _ = await game_of(h)
    st = await t.svc.state(gid)
    if st.phase == "ended":
        return False
    seat = deciders(st)[0]
    acts = legal_actions(st, seat)
    texts = [format_action(st, a) for a in acts]
    if same_turn:
        texts = [x for x in texts if not x.startswith(("end", "pass"))] or texts
    await cmd(h, USERS[seat], "play", command=rng.choice(texts))
    return True


@pytest.mark.slow
async def test_only_the_newest_post_of_a_game_has_buttons(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    await two_humans(fake, h)
    rng = random.Random(7)
    for _ in range(60):
        if not await _step(h, rng):
            break
        with_buttons = turn_posts(fake)
        assert len(with_buttons) == 1, [m["id"] for m in with_buttons]
        gid, version = await game_of(h)
        rec = await h.client.tables.store.get_game(gid)  # type: ignore[attr-defined]
        kept = rec.settings.open_post
        assert kept is not None and str(kept.message_id) == with_buttons[0]["id"]
        assert kept.version == version


async def _same_turn(h: Harness, rng: random.Random) -> None:
    t = h.client.tables  # type: ignore[attr-defined]
    for _ in range(40):
        gid, _ = await game_of(h)
        st = await t.svc.state(gid)
        text = same_turn_step(st)
        if text is not None:
            await cmd(h, USERS[deciders(st)[0]], "play", command=text)
            return
        await _step(h, rng)
    raise AssertionError("no same-turn step found")


@pytest.mark.slow
async def test_a_restart_mid_turn_goes_on_in_the_same_post(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    rng = random.Random(3)
    t = h.client.tables  # type: ignore[attr-defined]
    for _ in range(20):  # a same-turn step, after which the turn still goes on
        await _same_turn(h, rng)
        if same_turn_step(await t.svc.state(gid)) is not None:
            break
    before = turn_posts(fake)
    assert len(before) == 1
    h = await make_bot()  # a restart: the turn's post is the game's, not the process's
    t = h.client.tables  # type: ignore[attr-defined]
    st = await t.svc.state(gid)
    text = same_turn_step(st)
    assert text is not None, "the turn goes on"
    start = len(fake.requests)
    await cmd(h, USERS[deciders(st)[0]], "play", command=text)
    writes = channel_writes(fake, start)
    after = turn_posts(fake)
    assert [m["id"] for m in after] == [m["id"] for m in before]  # the same post, edited
    assert not [r for r in writes if r.method == "POST" and "map.png" in r.files]
    assert [r for r in writes if r.method == "PATCH" and before[0]["id"] in r.path]
    rec = await t.store.get_game(gid)
    assert rec.settings.open_post is not None
    assert str(rec.settings.open_post.message_id) == before[0]["id"]
    assert rec.settings.open_post.version == rec.version
