"""Issue 22, a quiet channel: a whole game through interactions (typed commands and guided
turns, against a computer player) makes at most 1.2 public posts and 1 ping per turn on
average — a turn's post is edited in place while its player decides — and a ping never goes
to the player who just acted unless they must decide again after someone else did."""

from __future__ import annotations

import json
import os

import pytest

from storage.models import EntryKind
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Request
from tests.bot.test_game import ANA, CH, Game, public, start_against_ai

# The game and Ana's random choices. Not test_game's seed: with it the computer player's line
# of play (one agent per decision, seeded from the game's seed, the seat and the version) ends
# the game right after one of Ana's guided turns, where a second press of its Confirm is
# answered "This game is over." and not the "no longer available" the guided flow checks.
SEED = 5


def pinged(r: Request) -> list[int]:
    users = (r.json or {}).get("allowed_mentions", {}).get("users") or []
    return [int(u) for u in users]


@pytest.mark.slow
async def test_a_whole_game_makes_about_one_post_and_one_ping_per_turn(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    g = Game(fake, h, SEED)
    await start_against_ai(fake, h, SEED)
    store = h.client.tables.store  # type: ignore[attr-defined]
    posts = pings = edits = 0
    for step in range(3000):
        gid, st = await g.state()
        if st.phase == "ended":
            break
        before = (await store.get_game(gid)).version
        start = len(fake.requests)
        if step % 5 == 2:
            await g.play_guided()
        else:
            await g.play_typed(st)
        reqs = fake.requests[start:]
        shown = public(reqs)
        posts += len(shown)
        pings += sum(len(pinged(r)) for r in shown)
        edits += sum(
            1
            for r in reqs
            if r.method == "PATCH" and r.path.startswith(f"/channels/{CH}/messages/")
        )
        if any(ANA in pinged(r) for r in shown):
            # Ana just acted: pinged again only when the computer player decided meanwhile
            log = await store.get_log(gid, from_version=before + 1)
            assert any(e.seat == 1 for e in log if e.kind is EntryKind.ACTION), step
    gid, st = await g.state()
    assert st.phase == "ended"
    log = await store.get_log(gid)
    turns = 1 + sum(
        1 for e in log for ev in json.loads(e.events_json or "[]") if ev.get("kind") == "turn"
    )
    assert g.leaks == []
    per_turn = (posts / turns, pings / turns)
    if os.environ.get("COUNTS_PRINT"):
        print(f"\n{turns} turns: {posts} posts, {pings} pings, {edits} edits; per turn {per_turn}")
    assert per_turn[0] <= 1.2, (posts, turns)
    assert per_turn[1] <= 1.0, (pings, turns)
