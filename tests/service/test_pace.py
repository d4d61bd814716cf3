"""The pacing service (service/pace.py) without Discord: a fake clock, a real SQLite file, the
notices a tick returns. A deadline under the ``default`` policy plays the engine's default
answer, and where there is none (a turn's first step) an AI stands in when the game allows
it, else the game waits; a reminder is due once (not again at the next tick, nor after a restart); away time,
pause votes and the players' preferences refuse with a sentence; a stale game is archived."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from rules.brazil import deciders, format_action, legal_actions, pending_for
from service import GameService, SeatSpec
from service.games.brazil.adapter import default_answer
from service.pace import GAME, Notice, Tick
from service.pacing import FakeClock
from service.results import Refused
from storage import GameStatus, SqliteGameStore
from tests.service.conftest import uniform_factory

ANA, BO = 101, 102
CH = 555
T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


async def new_game(svc: GameService, clock: FakeClock, *, bo: bool = False) -> int:
    """Ana against a random AI (or, ``bo``, against Bo); the clocks started now."""
    other = SeatSpec("Bo", user_id=BO) if bo else SeatSpec.parse("ai:random")
    res = await svc.new_game([SeatSpec("Ana", user_id=ANA), other], seed=3, channel_id=CH)
    svc.pacing.clock = clock
    await svc.run_ai_turns(res.game_id)
    await svc.pacing.refresh(res.game_id)
    return res.game_id


async def tick(svc: GameService, gid: int, *, deliver: bool = True) -> Tick:
    """One tick of the game, its notices reported delivered (as a surface does)."""
    assert gid in await svc.pacing.tick_games()
    async with svc.lock(gid):
        t = await svc.pacing.tick_game(gid)
        if deliver:
            for n in t.notices:
                await svc.pacing.delivered(n)
    return t


async def to_end_turn(svc: GameService, gid: int) -> None:
    """Ana plays random legal steps until "end turn" is hers to choose."""
    rng = random.Random(7)
    for _ in range(300):
        await svc.run_ai_turns(gid)
        st = await svc.state(gid)
        if 0 in deciders(st):
            acts = legal_actions(st, 0)
            if any(a.type == "end_turn" for a in acts):
                return
            assert (await svc.act(gid, 0, format_action(st, rng.choice(acts)))).ok
    raise AssertionError("never reached the end of a turn")


async def test_default_policy_plays_the_engines_answer_at_the_deadline(
    service: GameService, clock: FakeClock
) -> None:
    gid = await new_game(service, clock)
    await service.pacing.set_policy(gid, "default")
    await to_end_turn(service, gid)
    sched = await service.pacing.refresh(gid)
    assert sched.deadlines() == {0: int((T0 + timedelta(hours=24)).timestamp())}
    assert "play the default answer" in sched.notes[-1]
    before = await service.store.get_game(gid)
    clock.advance(hours=25)
    t = await tick(service, gid, deliver=False)
    assert f"game {gid} seat 0: deadline, default answer x1" in t.done
    [post] = [n for n in t.notices if n.kind == "post"]
    assert post.result is not None and post.channel_id == CH
    assert post.result.posts[0].text.startswith("⌛ Time is up: the default answer for Ana")
    # the engine's own "end turn", saved for seat 0 through the game service
    log = await service.store.get_log(gid, from_version=before.version + 1)
    assert log[0].seat == 0 and '"end_turn"' in str(log[0].action_json)
    # the deadline's action is finished once the surface delivered it (at least once)
    key = post.timer
    assert key == (gid, before.version, 0, "deadline")
    assert [t.kind for t in await service.store.timers(unfinished=True)] == ["deadline"]
    await service.pacing.delivered(post)
    assert await service.store.timers(unfinished=True) == []
    done = [x for x in await service.store.timers(gid) if x.kind == "deadline"]
    assert [x.outcome for x in done] == ["default answer x1"]


async def to_turn_start(svc: GameService, gid: int) -> None:
    """Ana plays random legal steps until the first step of one of her turns is hers (the
    play phase, her turn, no "pass" or "end turn" to answer with)."""
    rng = random.Random(7)
    for _ in range(300):
        await svc.run_ai_turns(gid)
        st = await svc.state(gid)
        if 0 in deciders(st):
            if st.phase == "play" and pending_for(st, 0) is None and default_answer(st, 0) is None:
                return
            acts = legal_actions(st, 0)
            assert (await svc.act(gid, 0, format_action(st, rng.choice(acts)))).ok
    raise AssertionError("never reached the start of a turn")


@pytest.mark.slow
async def test_default_policy_at_the_start_of_a_turn_falls_through_to_an_ai(
    service: GameService, clock: FakeClock
) -> None:
    """A turn's first step has no "pass" / "no cards" answer: under ``default`` the game's
    AI stand-in (allowed by default, at the game's level) plays the seat until
    ``/seat back``; said in the policy text and the post."""
    gid = await new_game(service, clock)
    s = await service.pacing.set_policy(gid, "default")
    assert s.stand_ins and s.stand_in_level == "heuristic"
    await to_turn_start(service, gid)
    sched = await service.pacing.refresh(gid)
    assert "where there is none (a turn's first step), an AI stands in" in sched.notes[-1]
    before = await service.store.get_game(gid)
    deadline = sched.seats[0].deadline
    assert deadline is not None  # the game is not paused
    clock.set(deadline + timedelta(hours=1))
    t = await tick(service, gid, deliver=False)
    assert f"game {gid} seat 0: deadline, stand-in heuristic" in t.done, t.done
    [post] = [n for n in t.notices if n.kind == "post"]
    assert post.result is not None and post.force and post.channel_id == CH
    text = post.result.posts[0].text
    assert "time is up" in text and "no default answer" in text
    assert "an AI (normal) plays for them" in text and "/seat back" in text  # the level in words
    assert [x.seat for x in await service.store.stand_ins(gid)] == [0]
    await service.pacing.delivered(post)
    # the AI plays Ana's seat through the game service, like any AI seat
    info = await service.info(gid)
    assert info.seats[0].ai == "heuristic" and info.seats[0].user_id == ANA
    await service.run_ai_turns(gid)
    log = await service.store.get_log(gid, from_version=before.version + 1)
    assert any(e.seat == 0 and e.action_json is not None for e in log)


async def test_default_policy_without_stand_ins_waits_at_the_start_of_a_turn(
    service: GameService, clock: FakeClock
) -> None:
    gid = await new_game(service, clock)
    s = await service.pacing.set_policy(gid, "default", stand_ins=False)
    assert not s.stand_ins
    await to_turn_start(service, gid)
    sched = await service.pacing.refresh(gid)
    assert "AI" not in sched.notes[-1]
    deadline = sched.seats[0].deadline
    assert deadline is not None  # the game is not paused
    clock.set(deadline + timedelta(hours=1))
    t = await tick(service, gid)
    assert f"game {gid} seat 0: deadline, flagged (no default)" in t.done, t.done
    [flag] = t.notices
    assert flag.kind == "flag" and "the game waits for them" in flag.text
    assert await service.store.stand_ins(gid) == []


async def test_a_reminder_is_due_once(
    service: GameService, store: SqliteGameStore, clock: FakeClock
) -> None:
    gid = await new_game(service, clock)
    assert (await tick(service, gid)).notices == []  # nothing due yet
    clock.advance(hours=12)
    t = await tick(service, gid)
    assert t.done == [f"game {gid} seat 0: remind1"]
    [n] = t.notices
    assert isinstance(n, Notice) and n.kind == "reminder" and n.channel_id == CH
    assert n.user_id == ANA and n.mute and (n.seat, n.since) == (0, 0)
    assert "<@101>" in n.text and "reminder" in n.text
    assert f"<t:{int((T0 + timedelta(hours=24)).timestamp())}:R>" in n.text
    assert not n.mods and n.result is None
    # a second tick: nothing more
    again = await tick(service, gid)
    assert again.notices == [] and again.done == []
    # a restart (a new service over the same store): still nothing
    other = GameService(store, agent_factory=uniform_factory)
    other.pacing.clock = clock
    assert gid in await other.pacing.tick_games()
    assert (await other.pacing.tick_game(gid)).notices == []
    timers = [x for x in await store.timers(gid) if x.kind == "remind1"]
    assert [x.outcome for x in timers] == ["sent"]


async def test_muted_or_quiet_players_are_not_reminded(
    service: GameService, clock: FakeClock
) -> None:
    gid = await new_game(service, clock)
    with pytest.raises(Refused, match="another player"):
        await service.pacing.mute(gid, 0, 0, BO)
    assert await service.pacing.mute(gid, 0, 0, ANA)
    clock.advance(hours=12)
    assert (await tick(service, gid)).notices == []
    # quiet hours: a refusal for nonsense, then the next decision's reminder is held back
    with pytest.raises(Refused, match="not a range"):
        await service.pacing.set_quiet_hours(ANA, "night")
    with pytest.raises(Refused, match="the same"):
        await service.pacing.set_quiet_hours(ANA, "10:00-10:00")
    with pytest.raises(Refused, match="not a time zone"):
        await service.pacing.set_timezone(ANA, "Mars/Olympus")
    prefs = await service.pacing.set_timezone(ANA, "UTC")
    assert prefs.tz == "UTC"
    assert await service.pacing.set_quiet_hours(ANA, "off") is None


async def test_wait_policy_flags_then_stalled_goes_to_the_moderators(
    service: GameService, clock: FakeClock
) -> None:
    gid = await new_game(service, clock)
    clock.advance(hours=12)
    await tick(service, gid)
    clock.advance(hours=10)
    await tick(service, gid)
    clock.advance(hours=3)
    t = await tick(service, gid)
    [flag] = t.notices
    assert flag.kind == "flag" and "time is up" in flag.text and flag.user_id is None
    clock.advance(hours=24)
    t = await tick(service, gid)
    assert [n.kind for n in t.notices] == ["reminder", "stalled"]
    assert t.notices[1].mods and "looks stalled: 3 reminders" in t.notices[1].text
    clock.advance(hours=24)
    assert "stalled" not in [n.kind for n in (await tick(service, gid)).notices]


async def test_away_and_pause_votes(service: GameService, clock: FakeClock) -> None:
    gid = await new_game(service, clock, bo=True)
    with pytest.raises(Refused, match="at most 7d"):
        await service.pacing.away(gid, 0, "30d", by_user=ANA)
    with pytest.raises(Refused, match="not away"):
        await service.pacing.away(gid, 0, "end", by_user=ANA)
    end = await service.pacing.away(gid, 0, "6h", by_user=ANA)
    assert end == T0 + timedelta(hours=6)
    with pytest.raises(Refused, match="already away"):
        await service.pacing.away(gid, 0, "1h", by_user=ANA)
    sched = await service.pacing.refresh(gid)
    assert sched.deadlines()[0] == int((T0 + timedelta(hours=30)).timestamp())
    assert any("is away until" in line for line in sched.notes)
    assert await service.pacing.away(gid, 0, "end", by_user=ANA) is None
    # two humans: one vote is not a majority, two are
    vote = await service.pacing.vote_pause(gid, ANA, True)
    assert (vote.done, vote.votes, vote.need) == (False, 1, 2)
    assert not await service.pacing.paused(gid)
    assert (await service.pacing.vote_pause(gid, BO, True)).done
    assert await service.pacing.paused(gid)
    with pytest.raises(Refused, match="already paused"):
        await service.pacing.vote_pause(gid, ANA, True, at_once=True)
    assert (await service.pacing.refresh(gid)).deadlines()[0] is None
    assert (await service.pacing.vote_pause(gid, ANA, False, at_once=True)).done
    assert not await service.pacing.paused(gid)
    with pytest.raises(Refused, match="not paused"):
        await service.pacing.vote_pause(gid, ANA, False, at_once=True)


async def test_a_stale_game_is_archived_once(service: GameService, clock: FakeClock) -> None:
    gid = await new_game(service, clock)
    s = await service.pacing.settings(gid)
    await service.pacing.save_settings(gid, s.model_copy(update={"stale_days": 2.0}))
    clock.set(datetime.now(UTC) + timedelta(days=3))  # the game's last save is real time
    t = await tick(service, gid)
    [n] = t.notices
    assert n.kind == "archived" and n.mods and n.timer is not None and n.timer[2] == GAME
    assert t.done == [f"game {gid} archived"] and t.schedule is None
    assert (await service.store.get_game(gid)).status is GameStatus.ABANDONED
    assert gid not in await service.pacing.tick_games()


async def test_deadline_and_policy_settings(service: GameService, clock: FakeClock) -> None:
    gid = await new_game(service, clock)
    with pytest.raises(Refused, match="between 1 hour and 28 days"):
        await service.pacing.set_deadline(gid, "5m")
    with pytest.raises(Refused, match="not a duration"):
        await service.pacing.set_deadline(gid, "soon")
    assert await service.pacing.set_deadline(gid, "2d") == timedelta(days=2)
    s = await service.pacing.set_policy(gid, "ai", "random")
    assert (s.deadline_hours, s.policy, s.stand_in_level) == (48.0, "ai", "random")
    # AI stand-ins: allowed by default; the `ai` policy needs (and so allows) them
    with pytest.raises(Refused, match="needs AI stand-ins allowed"):
        await service.pacing.set_policy(gid, "ai", stand_ins=False)
    s = await service.pacing.set_policy(gid, "default", stand_ins=False)
    assert not s.stand_ins and s.policy_text().endswith("wait and flag")
    s = await service.pacing.set_policy(gid, "ai")
    assert s.stand_ins and s.policy_text().endswith("(AI level easy)")  # the level's word
