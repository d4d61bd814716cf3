"""Pacing maths (service/pacing.py): deadlines with away time and pauses, reminders out of quiet
hours (time zones, midnight, DST), durations, the engine's default answers."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.games.brazil.adapter import default_answer
from service.pacing import (
    FakeClock,
    PacingSettings,
    QuietHours,
    advance,
    deadline,
    in_quiet,
    out_of_quiet,
    overdue_times,
    parse_duration,
    parse_quiet_hours,
    reminder_times,
    timezones,
)

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)
DAY = PacingSettings(deadline_hours=24)


def test_fake_clock_moves_only_when_told() -> None:
    c = FakeClock(T0)
    assert c.now() == T0 == c.now()
    assert c.advance(hours=2) == T0 + 2 * H
    with pytest.raises(ValueError):
        FakeClock(datetime(2026, 1, 1))


def test_durations() -> None:
    assert parse_duration("3d") == timedelta(days=3)
    assert parse_duration("12h") == 12 * H
    assert parse_duration("1d12h") == timedelta(hours=36)
    assert parse_duration("90m") == timedelta(minutes=90)
    assert parse_duration("2w") == timedelta(days=14)
    assert parse_duration("6") == 6 * H
    for bad in ("", "3x", "d3", "-1d", "0h", "3d garbage"):
        with pytest.raises(ValueError):
            parse_duration(bad)


def test_quiet_hours_text() -> None:
    assert parse_quiet_hours("22:00-08:00") == (time(22), time(8))
    assert parse_quiet_hours("22-8") == (time(22), time(8))
    assert parse_quiet_hours("23:30 - 07:15") == (time(23, 30), time(7, 15))
    for bad in ("25:00-08:00", "night", "22:00"):
        with pytest.raises(ValueError):
            parse_quiet_hours(bad)


def test_timezone_autocomplete() -> None:
    assert "Europe/Lisbon" in timezones("lisb")
    assert timezones("america/sao")[0] == "America/Sao_Paulo"
    assert len(timezones("")) == 25


def test_deadline_plain_away_and_pause() -> None:
    assert deadline(T0, DAY) == T0 + 24 * H
    # away 6 h inside the window: the clock stops for them
    away = [(T0 + 2 * H, T0 + 8 * H)]
    assert deadline(T0, DAY, away=away) == T0 + 30 * H
    # an away period longer than the game's limit counts only up to the limit
    s = PacingSettings(deadline_hours=24, away_max_hours=10)
    assert deadline(T0, s, away=[(T0 + H, T0 + 100 * H)]) == T0 + 34 * H
    # a pause overlapping the away period is not counted twice
    assert deadline(T0, DAY, away=away, pauses=[(T0 + 4 * H, T0 + 10 * H)]) == T0 + 32 * H
    # an open pause: no deadline at all
    assert deadline(T0, DAY, pauses=[(T0 + H, None)]) is None
    # away before the decision began changes nothing
    assert deadline(T0, DAY, away=[(T0 - 10 * H, T0 - H)]) == T0 + 24 * H


def test_reminders_at_half_and_ninety_percent() -> None:
    r = reminder_times(T0, DAY)
    assert [(x.kind, x.at) for x in r] == [
        ("remind1", T0 + 12 * H),
        ("remind2", T0 + timedelta(hours=21.6)),
    ]


def test_reminder_moved_out_of_quiet_hours_spanning_midnight() -> None:
    # Lisbon is UTC+0 in March before the DST change: 12 h after 12:00 is midnight, quiet
    q = QuietHours("Europe/Lisbon", time(22), time(8))
    r = reminder_times(T0, DAY, quiet=q)
    assert r[0].at == datetime(2026, 3, 3, 8, 0, tzinfo=UTC)  # the end of the night
    assert r[1].at == datetime(2026, 3, 3, 9, 36, tzinfo=UTC)  # 90 %: already awake


def test_reminder_moved_back_when_the_night_outlasts_the_deadline() -> None:
    # deadline 00:00 local; 90 % = 21:36 not quiet; 50 % (18:00) fine; a quiet 20:00-10:00
    q = QuietHours("UTC", time(20), time(10))
    r = reminder_times(T0, DAY, quiet=q)
    due = T0 + 24 * H
    assert all(not in_quiet(x.at, q) and T0 <= x.at <= due for x in r)
    # 50 % = 00:00 in the night (ends 10:00, before the 12:00 deadline): moved forward
    assert r[0].at == datetime(2026, 3, 3, 10, 0, tzinfo=UTC)
    # a short deadline entirely at night: the reminder goes before the night or not at all
    s = PacingSettings(deadline_hours=4)
    start = datetime(2026, 3, 2, 19, 0, tzinfo=UTC)  # deadline 23:00, night from 20:00
    r = reminder_times(start, s, quiet=q)
    assert [x.at for x in r] == [datetime(2026, 3, 2, 19, 59, tzinfo=UTC)] * 2


def test_dst_spring_forward_quiet_end_in_the_gap() -> None:
    # Europe/Berlin jumps 02:00 -> 03:00 on 2026-03-29; quiet 23:00-02:30 (02:30 does not exist)
    q = QuietHours("Europe/Berlin", time(23), time(2, 30))
    t = datetime(2026, 3, 28, 23, 30, tzinfo=UTC)  # 00:30 CET on the 29th: quiet
    assert in_quiet(t, q)
    moved = out_of_quiet(t, q, earliest=t, latest=t + 24 * H)
    assert moved is not None and not in_quiet(moved, q)
    assert moved == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)  # 03:00 CEST, right after the jump


def test_overdue_reminders() -> None:
    due = T0 + 24 * H
    assert overdue_times(due, DAY, due + 23 * H) == []
    got = overdue_times(due, DAY, due + 50 * H)
    assert [x.kind for x in got] == ["overdue1", "overdue2"]


ZONES = [
    "UTC",
    "Europe/Lisbon",
    "Europe/Berlin",
    "America/New_York",
    "America/Sao_Paulo",
    "Australia/Lord_Howe",  # a 30-minute DST shift
    "Asia/Kolkata",
    "Pacific/Chatham",
]

times = st.builds(time, st.integers(0, 23), st.sampled_from([0, 15, 30, 45]))
starts = st.datetimes(
    min_value=datetime(2025, 1, 1), max_value=datetime(2027, 12, 31), timezones=st.just(UTC)
)


@settings(max_examples=300, deadline=None)
@given(
    start=starts,
    hours=st.floats(min_value=0.5, max_value=24 * 10),
    tz=st.sampled_from(ZONES),
    qs=times,
    qe=times,
    away=st.lists(st.tuples(st.floats(-48, 24 * 10), st.floats(0.5, 24 * 8)), max_size=3),
)
def test_reminders_never_in_quiet_hours_nor_after_the_deadline(
    start: datetime,
    hours: float,
    tz: str,
    qs: time,
    qe: time,
    away: list[tuple[float, float]],
) -> None:
    s = PacingSettings(deadline_hours=hours)
    q = QuietHours(tz, qs, qe)
    periods = [(start + timedelta(hours=a), start + timedelta(hours=a + n)) for a, n in away]
    due = deadline(start, s, away=periods)
    assert due is not None and due >= start + s.length
    for r in reminder_times(start, s, quiet=q, away=periods):
        assert not in_quiet(r.at, q)
        assert start <= r.at <= due
        assert not any(a <= r.at < b for a, b in periods)  # not while away either


@settings(max_examples=200, deadline=None)
@given(
    start=starts,
    run=st.floats(min_value=0, max_value=500),
    stops=st.lists(st.tuples(st.floats(-100, 500), st.floats(0, 200)), max_size=4),
)
def test_advance_counts_only_running_time(
    start: datetime, run: float, stops: list[tuple[float, float]]
) -> None:
    """The running time between start and the result, outside every stop, is exactly
    ``run`` (checked by sampling the timeline minute by minute is too slow: by intervals)."""
    ivs = [(start + timedelta(hours=a), start + timedelta(hours=a + n)) for a, n in stops]
    end = advance(start, timedelta(hours=run), ivs)
    assert end is not None
    # measure: the length of [start, end) minus the union of stops inside it
    cuts = sorted((max(a, start), min(b, end)) for a, b in ivs if b > start and a < end)
    stopped = timedelta()
    cur = start
    for a, b in cuts:
        a = max(a, cur)
        if b > a:
            stopped += b - a
            cur = b
    running = (end - start) - stopped
    assert abs(running - timedelta(hours=run)) < timedelta(seconds=1)


def test_default_answers_come_from_the_engine() -> None:
    from rules.brazil import apply, deciders, legal_actions, new_game, pending_for

    st_ = new_game(2, seed=5)
    # setup decisions (colours): no default answer, a choice only the player can make
    s = deciders(st_)[0]
    assert pending_for(st_, s) is not None
    assert default_answer(st_, s) is None
    # play the setup at random until a turn: then "pass" / "end turn" is a legal action
    import random

    rng = random.Random(1)
    for _ in range(400):
        if st_.phase == "play":
            break
        st_, _ = apply(st_, rng.choice(legal_actions(st_)))
    # the start of a turn: one of the actions must be taken, the engine offers no pass
    seat = deciders(st_)[0]
    assert "end_turn" not in {a.type for a in legal_actions(st_, seat)}
    assert default_answer(st_, seat) is None
    for _ in range(40):
        seat = deciders(st_)[0]
        if "end_turn" in {a.type for a in legal_actions(st_, seat)}:
            break
        st_, _ = apply(st_, rng.choice(legal_actions(st_)))
    a = default_answer(st_, seat)
    assert a is not None and a in legal_actions(st_, seat) and a.type == "end_turn"


def test_default_answer_to_a_battle_is_no_cards_R_COMBAT_4() -> None:
    """Self-play until a combat_cards decision: the default is the empty commitment."""
    import random

    from rules.brazil import apply, deciders, legal_actions, new_game, pending_for

    for seed in range(30):
        st_ = new_game(2, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if st_.phase == "ended":
                break
            for s in deciders(st_):
                p = pending_for(st_, s)
                if p is not None and p.kind == "combat_cards":
                    a = default_answer(st_, s)
                    assert a is not None and a.type == "commit_cards" and a.cards == ()
                    assert a in legal_actions(st_, s)
                    return
            st_, _ = apply(st_, rng.choice(legal_actions(st_)))
    raise AssertionError("no battle in 30 random games")
