"""Faults of the Discord side (issue #12, "Load and faults"): the fake server answers 429
(route and global, with ``retry_after``), 500s and slow answers; discord.py retries them and
the bot loses nothing: every action acknowledged ("Done") is in storage, no turn is posted
twice, buttons still work afterwards. (The engine's rules are not the subject here; the
game is a seeded one against a random AI, as in test_game.py.)"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.brazil import deciders, format_action, legal_actions
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Faults, Request, custom_ids
from tests.bot.test_game import ANA, CH, Game, start_against_ai, texts_to


def done_texts(reqs: list[Request]) -> list[str]:
    """The commands the bot acknowledged as played ("Done: `...`")."""
    return [t for t in texts_to(reqs, ANA) if "Done: `" in t]


def turn_post_ids(fake: FakeDiscord) -> list[str]:
    """The Take-my-turn button ids of every public post (one per game version)."""
    return [
        c
        for r in fake.requests
        if r.method == "POST" and r.path == f"/channels/{CH}/messages"
        for c in custom_ids(r.json or {})
        if c.startswith("brz:t:")
    ]


FAULTS = [
    # a route 429 on the first public posts, then a global one on interaction callbacks
    Faults(rate_limit=1.0, match=r"^POST /channels/\d+/messages$", limit=2, retry_after=0.05),
    Faults(global_rate_limit=1.0, match=r"/callback$", limit=2, retry_after=0.05),
    # 500s on the status message's edits and on follow-ups (discord.py waits 1 s, retries)
    Faults(server_error=1.0, match=r"^PATCH /channels/", limit=1),
    Faults(server_error=1.0, match=r"^POST /webhooks/", limit=1),
    # everything at once, at random, with slow answers
    Faults(
        rate_limit=0.08,
        global_rate_limit=0.04,
        server_error=0.02,
        latency=0.01,
        jitter=0.02,
        retry_after=0.02,
        seed=5,
    ),
]


@pytest.mark.slow
async def test_bot_recovers_from_429_500_and_slow_answers(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    await start_against_ai(fake, h)
    g = Game(fake, h)
    rng = random.Random(11)
    acknowledged: list[str] = []
    pressed: list[tuple[int, int]] = []  # per acknowledged press: its step's version, the last
    kinds: Counter[str] = Counter()
    for faults in FAULTS:
        fake.faults = faults
        for _ in range(8):
            gid, st = await g.state()
            if st.phase == "ended" or 0 not in deciders(st):
                break
            text = format_action(st, rng.choice(legal_actions(st, 0)))
            v0 = (await h.client.tables.store.get_game(gid)).version  # type: ignore[attr-defined]
            reqs = await h.command(ANA, CH, "play", command=text)
            assert "did not work" not in " ".join(texts_to(reqs, ANA)), text
            done = done_texts(reqs)
            acknowledged += done
            if done:
                v1 = (await h.client.tables.store.get_game(gid)).version  # type: ignore[attr-defined]
                pressed.append((v0 + 1, v1))
        kinds.update(k for k, _ in fake.faulted)
        fake.faulted.clear()
    fake.faults = Faults()
    assert {"429", "global", "500"} <= set(kinds), kinds
    # every acknowledged action is in storage, in order (Ana's steps of the log)
    gid, st = await g.state()
    log = await h.client.tables.store.get_log(gid)  # type: ignore[attr-defined]
    ana_steps = [e for e in log if e.seat == 0 and e.action_json is not None]
    assert len(acknowledged) == len(pressed) >= 10
    by_version = {e.version: e for e in log}
    assert all(by_version[v].seat == 0 for v, _ in pressed)  # each press saved Ana's step
    # and any other step of Ana's is one the service answered after a press (her turn's end
    # when nothing else was left to do)
    taken = {v for first, last in pressed for v in range(first, last + 1)}
    assert {e.version for e in ana_steps} <= taken
    # no turn posted twice (a retried request had no effect the first time)
    ids = turn_post_ids(fake)
    assert ids and len(ids) == len(set(ids)), Counter(ids).most_common(3)
    # the buttons still work: the guided flow plays a step
    before = len(ana_steps)
    await g.play_guided()
    log = await h.client.tables.store.get_log(gid)  # type: ignore[attr-defined]
    assert len([e for e in log if e.seat == 0 and e.action_json is not None]) == before + 1
    assert not fake.errors and g.leaks == []


def test_faults_parse_and_draw() -> None:
    f = Faults.parse("429=0.5,global=0.25,500=0.25,latency=0.01,seed=3")
    assert (f.rate_limit, f.global_rate_limit, f.server_error, f.latency) == (0.5, 0.25, 0.25, 0.01)
    drawn = Counter(f.draw("POST", "/x") for _ in range(400))
    assert None not in drawn and set(drawn) == {"429", "global", "500"}
    limited = Faults(server_error=1.0, match="^PATCH ", limit=2)
    assert [limited.draw("PATCH", "/a") for _ in range(3)] == ["500", "500", None]
    assert limited.draw("POST", "/a") is None
    for bad in ("429=2", "oops=1", "latency=-1"):
        try:
            Faults.parse(bad)
        except ValueError:
            continue
        raise AssertionError(bad)
