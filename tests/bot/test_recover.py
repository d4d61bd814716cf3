"""A restart catches up a game saved past its last post (the bot was stopped between a save
and its post): the channel gets the missed steps, the map and the turn buttons once; a
second restart posts nothing more (issue #12: nothing acknowledged lost, no duplicate post)."""

from __future__ import annotations

import pytest

from rules.brazil import format_action, legal_actions
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, custom_ids
from tests.bot.test_mod import channel_writes, game_of, turn_posts, two_humans


@pytest.mark.slow
async def test_restart_posts_the_steps_saved_but_never_posted(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    t = h.client.tables  # type: ignore[attr-defined]
    _, version = await game_of(h)
    assert (await t.store.get_game(gid)).settings.posted_version == version
    # a step saved by the service but never published (as if killed after COMMIT)
    st = await t.svc.state(gid)
    decider = st.current
    text = format_action(st, legal_actions(st, decider)[0])
    res = await t.svc.act(gid, decider, text)
    assert res.ok, res.errors
    saved = (await t.store.get_game(gid)).version
    assert saved > version
    before_posts = len(turn_posts(fake))
    start = len(fake.requests)

    h = await make_bot()  # restart: the catch-up post, once
    t = h.client.tables  # type: ignore[attr-defined]
    writes = channel_writes(fake, start)
    # shown once: in the turn's post when the same players decide, else in a new one
    posts = [r for r in writes if "steps saved but not shown" in r.text()]
    assert len(posts) == 1
    assert "attachment://map.png" in posts[0].text()  # uploaded, or the post's own kept
    now = (await t.store.get_game(gid)).version
    assert before_posts == len(turn_posts(fake)) == 1  # only the newest post has buttons
    newest = turn_posts(fake)[-1]
    assert any(c.startswith(f"brz:t:{gid}:{now}") for c in custom_ids(newest))
    assert (await t.store.get_game(gid)).settings.posted_version == now

    start = len(fake.requests)
    h = await make_bot()  # a second restart: nothing more to post
    assert not [r for r in channel_writes(fake, start) if r.method == "POST"]


@pytest.mark.slow
async def test_restart_after_the_post_but_before_its_mark_posts_nothing_twice(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """Stopped between the turn post and its mark: the history shows the post, so the restart
    only marks it (no duplicate turn post)."""
    h = await make_bot()
    gid = await two_humans(fake, h)
    t = h.client.tables  # type: ignore[attr-defined]
    _, version = await game_of(h)
    assert any(c == f"brz:t:{gid}:{version}" for m in turn_posts(fake) for c in custom_ids(m))
    await t.store.update_settings(gid, posted_version=version - 1)  # the mark never written
    start = len(fake.requests)
    h = await make_bot()
    t = h.client.tables  # type: ignore[attr-defined]
    assert not [r for r in channel_writes(fake, start) if r.method == "POST"]
    assert (await t.store.get_game(gid)).settings.posted_version == version
