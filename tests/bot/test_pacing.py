"""Pacing end to end: discord.py's real code against the fake Discord server, a real SQLite
file, and a fake clock (the scheduler is ticked by hand, never by real time).

Reminders ping only the decider (allowed_mentions limited to them), once, never after they
acted, never in quiet hours, muted by the button; they survive a restart (new bot, new store,
same file) and fire once in total; away time and pauses move the deadline; each timeout
policy (wait, default answers, AI stand-in + ``/seat back``); stalled games are flagged."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import TurnpostBot
from rules.brazil import deciders, format_action, legal_actions
from service.pacing import FakeClock
from storage import GameSettings
from tests.bot.conftest import bot_maker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, custom_ids

CH = 555
ANA, BO = 101, 102
SEED = 3
H = timedelta(hours=1)

Maker = Callable[[], Awaitable[Harness]]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
async def pbot(fake: FakeDiscord, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Maker]:
    """A bot whose scheduler does not loop (ticked by hand) and whose pacer reads ``clock``;
    each call is a restart over the same database."""

    def set_clock(bot: TurnpostBot) -> None:
        bot.pacer.clock = clock

    async with bot_maker(
        fake,
        tmp_path / "bot.sqlite3",
        after_login=set_clock,
        pacing_tick_seconds=0,
        mod_log_channel=777,
        moderator_role_id=888,
    ) as make:
        yield make


async def start(fake: FakeDiscord, h: Harness, *, bo: bool = False) -> int:
    """Ana's game against a random AI, or (``bo``) against Bo, another human."""
    await h.command(ANA, CH, "game", "new", players=2, ai=0 if bo else 1, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    if bo:
        await h.click(BO, lobby, "brz:l:1:join")
    h.client.tables.next_seed = SEED  # type: ignore[attr-defined]
    await h.click(ANA, lobby, "brz:l:1:start")
    rec = await h.client.tables.store.get_active_game(CH)  # type: ignore[attr-defined]
    assert rec is not None
    return int(rec.id)


async def tick(h: Harness) -> tuple[list[str], list[Request]]:
    before = len(h.fake.requests)
    done = await h.client.pacer.tick()  # type: ignore[attr-defined]
    return done, h.fake.requests[before:]


def posts(reqs: list[Request]) -> list[Request]:
    return [r for r in reqs if r.method == "POST" and r.path.endswith("/messages")]


def status_of(fake: FakeDiscord, h: Harness, settings: GameSettings) -> str:
    return str(fake.messages[int(settings.status_message_id or 0)]["components"])


async def test_reminders_ping_only_the_decider_once_and_escalate(
    fake: FakeDiscord, pbot: Maker, clock: FakeClock
) -> None:
    h = await pbot()
    gid = await start(fake, h)
    t0 = clock.now()
    assert (await tick(h))[0] == []  # nothing due yet
    clock.advance(hours=12)
    done, reqs = await tick(h)
    assert done == [f"game {gid} seat 0: remind1"]
    [ping] = posts(reqs)
    assert ping.path == f"/channels/{CH}/messages"
    assert "<@101>" in ping.json["content"] and "reminder" in ping.json["content"]
    # only Ana may be pinged: her user id, no parse of anything else, no roles, no everyone
    am = ping.json["allowed_mentions"]
    assert [int(u) for u in am["users"]] == [ANA] and am["parse"] == [] and not am.get("roles")
    # the deadline as a Discord timestamp (24 h from when her decision began)
    due = int((t0 + 24 * H).timestamp())
    assert f"<t:{due}:R>" in ping.json["content"]
    # the mute button names game, seat and version only
    assert [c for c in custom_ids(ping.json) if c.startswith("brz:r:")] == [f"brz:r:{gid}:0:0"]
    # ticking again fires nothing more
    assert (await tick(h))[0] == []
    clock.advance(hours=10)  # 22 h: past 90 %
    done, reqs = await tick(h)
    assert done == [f"game {gid} seat 0: remind2"]
    assert "still waiting" in posts(reqs)[0].json["content"]
    # the turn post and the status message show the pacer's deadline
    rec = await h.client.tables.store.get_game(gid)  # type: ignore[attr-defined]
    assert f"<t:{due}:R>" in status_of(fake, h, rec.settings)


@pytest.mark.slow
async def test_no_reminder_after_acting_in_quiet_hours_or_when_muted(
    fake: FakeDiscord, pbot: Maker, clock: FakeClock
) -> None:
    h = await pbot()
    gid = await start(fake, h)
    t0 = clock.now()
    # quiet hours (UTC) around the 50 % moment: held back until they end
    qs, qe = t0 + 11 * H, t0 + 14 * H
    await h.command(ANA, CH, "timezone", zone="UTC")
    await h.command(ANA, CH, "quiet-hours", hours=f"{qs:%H:%M}-{qe:%H:%M}")
    clock.advance(hours=12)
    assert (await tick(h))[0] == []
    clock.set(qe.replace(second=0) + timedelta(minutes=1))
    done, reqs = await tick(h)
    assert done == [f"game {gid} seat 0: remind1"]
    # the button mutes the rest of this decision; someone else may not press it
    ping = posts(reqs)[0]
    msg = fake.messages[max(m for m, v in fake.messages.items() if "brz:r:" in str(v))]
    other = await h.click(202, msg, f"brz:r:{gid}:0:0")
    assert any("another player" in r.text() for r in other)
    assert ping.json["content"]
    muted = await h.click(ANA, msg, f"brz:r:{gid}:0:0")
    assert any("muted" in r.text() for r in muted)
    clock.advance(hours=8)  # past the 90 % mark, before the deadline
    assert (await tick(h))[0] == []

    # Ana answers; the muted decision's reminders never come. She is asked again (setup goes
    # on): a new decision with its own clock, reminded at its own 50 % mark
    st = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
    rng = random.Random(1)
    text = format_action(st, rng.choice(legal_actions(st, 0)))
    await h.command(ANA, CH, "play", command=text)
    st = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
    assert 0 in deciders(st)  # still hers (setup goes on)
    version = (await h.client.tables.store.get_game(gid)).version  # type: ignore[attr-defined]
    await h.command(ANA, CH, "quiet-hours", hours="off")
    clock.advance(hours=11)  # before the new decision's 50 % mark
    assert not any("remind" in d for d in (await tick(h))[0])
    clock.advance(hours=2)
    done, reqs = await tick(h)
    assert done == [f"game {gid} seat 0: remind1"]
    assert f"brz:r:{gid}:0:{version}" in custom_ids(posts(reqs)[0].json)


@pytest.mark.slow
async def test_reminder_fires_once_across_a_restart(
    fake: FakeDiscord, pbot: Maker, clock: FakeClock
) -> None:
    h = await pbot()
    gid = await start(fake, h)
    clock.advance(hours=12)
    assert (await tick(h))[0] == [f"game {gid} seat 0: remind1"]
    h = await pbot()  # a restart: new client, new store object, same file
    assert (await tick(h))[0] == []
    clock.advance(hours=1)
    h = await pbot()
    assert (await tick(h))[0] == []
    reminders = [r for r in fake.requests if "reminder" in str(r.json) and r.method == "POST"]
    assert len(reminders) == 1


@pytest.mark.slow
async def test_away_extends_the_deadline_and_pause_stops_the_clock(
    fake: FakeDiscord, pbot: Maker, clock: FakeClock
) -> None:
    h = await pbot()
    gid = await start(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    t0 = clock.now()
    assert tables.due[(gid, 0)] == int((t0 + 24 * H).timestamp())
    clock.advance(hours=2)
    too_long = await h.command(ANA, CH, "away", duration="30d")
    assert any("at most 7d" in r.text() for r in too_long)
    reqs = await h.command(ANA, CH, "away", duration="6h")
    said = next(r for r in reqs if "/callback" in r.path)
    assert "is away until" in said.text() and not said.ephemeral
    assert tables.due[(gid, 0)] == int((t0 + 30 * H).timestamp())
    rec = await tables.store.get_game(gid)
    assert "is away until" in status_of(fake, h, rec.settings)
    # no reminder while away, even at the (moved) 50 % mark
    clock.advance(hours=5)
    assert (await tick(h))[0] == []
    await h.command(ANA, CH, "away", duration="end")
    # pause (Ana is the only human: her vote is a majority)
    reqs = await h.command(ANA, CH, "pause")
    assert any("paused" in r.text() for r in reqs)
    assert tables.due[(gid, 0)] is None
    clock.advance(hours=100)
    assert (await tick(h))[0] == []  # paused: nothing fires
    await h.command(ANA, CH, "resume")
    # 2 h ran before the away, 5 h of away (ended at 7 h), then 100 h paused: 22 h remain
    assert tables.due[(gid, 0)] == int((t0 + 129 * H).timestamp())


@pytest.mark.slow
async def test_policy_wait_flags_once_then_overdue_and_stalled(
    fake: FakeDiscord, pbot: Maker, clock: FakeClock
) -> None:
    h = await pbot()
    gid = await start(fake, h)
    clock.advance(hours=12)
    await tick(h)
    clock.advance(hours=10)
    assert (await tick(h))[0] == [f"game {gid} seat 0: remind2"]  # 2 reminders unanswered
    clock.advance(hours=3)
    done, reqs = await tick(h)
    assert f"game {gid} seat 0: deadline, flagged" in done
    assert sum("time is up" in r.text() for r in posts(reqs)) == 1
    clock.advance(hours=1)
    done, reqs = await tick(h)
    assert not any("deadline" in d for d in done)
    # a day later: an overdue reminder, the third unanswered one: the game is stalled
    clock.advance(hours=24)
    done, reqs = await tick(h)
    assert f"game {gid} seat 0: overdue1" in done
    assert f"game {gid}: stalled" in done
    stalled = [r for r in posts(reqs) if "stalled" in r.text()]
    assert {r.path for r in stalled} == {f"/channels/{CH}/messages", "/channels/777/messages"}
    mod = next(r for r in stalled if "777" in r.path)
    assert "<@&888>" in mod.json["content"] and [
        int(x) for x in mod.json["allowed_mentions"]["roles"]
    ] == [888]
    clock.advance(hours=24)
    done, _ = await tick(h)
    assert f"game {gid}: stalled" not in done  # flagged once


async def _to_end_turn(h: Harness, gid: int) -> None:
    """Ana plays random legal steps (typed) until "end turn" is hers to choose."""
    tables = h.client.tables  # type: ignore[attr-defined]
    rng = random.Random(7)
    for _ in range(300):
        st = await tables.svc.state(gid)
        if 0 in deciders(st):
            acts = legal_actions(st, 0)
            if any(a.type == "end_turn" for a in acts):
                return
            await h.command(ANA, CH, "play", command=format_action(st, rng.choice(acts)))
    raise AssertionError("never reached the end of a turn")


@pytest.mark.slow
async def test_policy_default_plays_the_engines_pass(
    fake: FakeDiscord, pbot: Maker, clock: FakeClock
) -> None:
    h = await pbot()
    gid = await start(fake, h)
    tables = h.client.tables  # type: ignore[attr-defined]
    reqs = await h.command(ANA, CH, "game", "policy", policy="default")
    said = " ".join(r.text() for r in reqs)
    assert "play the default answer" in said and "where there is none" in said
    assert "an AI stands in" in said and "AI level normal" in said  # the level in words
    await _to_end_turn(h, gid)
    before = await tables.store.get_game(gid)
    clock.advance(hours=25)
    done, reqs = await tick(h)
    assert any("deadline, default answer" in d for d in done), done
    log = await tables.store.get_log(gid, from_version=before.version + 1)
    assert log[0].seat == 0 and '"end_turn"' in str(log[0].action_json)
    assert any("default answer" in r.text() for r in posts(reqs))


@pytest.mark.slow
async def test_policy_ai_stands_in_until_seat_back(
    fake: FakeDiscord, pbot: Maker, clock: FakeClock
) -> None:
    h = await pbot()
    gid = await start(fake, h, bo=True)
    tables = h.client.tables  # type: ignore[attr-defined]
    reqs = await h.command(ANA, CH, "game", "policy", policy="ai", level="random")
    assert any("AI" in r.text() for r in reqs)
    v0 = (await tables.store.get_game(gid)).version
    clock.advance(hours=25)
    done, reqs = await tick(h)
    assert f"game {gid} seat 0: deadline, stand-in random" in done
    # the AI played Ana's seat through the service (log entries of seat 0)
    log = await tables.store.get_log(gid, from_version=v0 + 1)
    assert any(e.seat == 0 for e in log)
    assert [s.seat for s in await tables.store.stand_ins(gid)] == [0]
    rec = await tables.store.get_game(gid)
    assert "plays for" in status_of(fake, h, rec.settings)
    st = await tables.svc.state(gid)
    assert st.phase != "ended" and 1 in deciders(st)  # now Bo's decision
    # Ana may not play while the AI stands in; /seat back returns her seat
    nope = await h.command(ANA, CH, "play", command="pass")
    assert any("seat" in r.text().lower() for r in nope)
    reqs = await h.command(ANA, CH, "seat", "back")
    assert any("is back" in r.text() for r in reqs)
    assert await tables.store.stand_ins(gid) == []
    info = await tables.svc.info(gid)
    assert info.seats[0].ai is None and info.seats[0].user_id == ANA
    again = await h.command(ANA, CH, "seat", "back")
    assert any("No AI is playing" in r.text() for r in again)


@pytest.mark.slow
async def test_refusals_are_private_and_specific(fake: FakeDiscord, pbot: Maker) -> None:
    h = await pbot()
    await start(fake, h)
    for name, sub, opts, words in (
        ("away", None, {"duration": "soon"}, "not a duration"),
        ("away", None, {"duration": "end"}, "not away"),
        ("resume", None, {}, "not paused"),
        ("timezone", None, {"zone": "Mars/Olympus"}, "not a time zone"),
        ("quiet-hours", None, {"hours": "night"}, "not a range"),
        ("game", "deadline", {"duration": "5m"}, "between 1 hour and 28 days"),
        ("seat", "back", {}, "No AI is playing"),
    ):
        reqs = await h.command(ANA, CH, name, sub, **opts)
        cb = [r for r in reqs if "/callback" in r.path]
        assert cb and cb[0].ephemeral and words in cb[0].text(), (name, cb[0].text())
    # a spectator may not go away from a game they do not play
    reqs = await h.command(303, CH, "away", duration="1d")
    assert next(r for r in reqs if "/callback" in r.path).ephemeral
