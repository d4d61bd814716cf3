"""Turn notices' decisions (:mod:`service.notices`): who is told what, by which way, when —
pure, and the ledger's claims over a real store (once per decision, across a restart)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from service.game import GameService
from service.notices import (
    HEADS_UP,
    LAST,
    TURN,
    Asked,
    Held,
    Ledger,
    Route,
    channel_pings,
    heads_up,
    last_notice,
    last_to_act,
    mode_of,
    next_seats,
    release,
    reminder_route,
    turn_notices,
)
from service.pacing import QuietHours
from service.results import SeatSpec
from storage.models import NOTICE_MODES, PlayerPrefs

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
ZONES = (
    "UTC",
    "Europe/Lisbon",
    "Europe/Budapest",
    "America/Sao_Paulo",
    "America/New_York",
    "Asia/Tokyo",
    "Australia/Adelaide",
    "Pacific/Chatham",
)


def prefs(uid: int, notices: str = "ping", heads: bool = False) -> PlayerPrefs:
    return PlayerPrefs(uid, None, None, None, notices=notices, heads_up=heads)


def quiet_around(t: datetime, tz: str = "UTC") -> QuietHours:
    """Quiet hours from an hour before ``t`` to two hours after it (wall clock of ``tz``)."""
    local = t.astimezone(ZoneInfo(tz))
    start, end = local - timedelta(hours=1), local + timedelta(hours=2)
    return QuietHours(tz, time(start.hour, start.minute), time(end.hour, end.minute))


# ---------------------------------------------------------------------------- modes


def test_modes_route_the_turn_post_and_the_dm() -> None:
    users = [1, 2, 3, 4, 5]
    p = {1: prefs(1, "ping"), 2: prefs(2, "dm"), 3: prefs(3, "both"), 4: prefs(4, "none")}
    # the post pings who chose a ping (and whoever never chose: the default)
    assert channel_pings(users, p) == [1, 3, 5]
    asked = [Asked(i - 1, u, 7) for i, u in enumerate(users, 1)]
    plans = turn_notices(asked, p, {}, NOW)
    assert [(x.kind, x.user_id, x.version, x.held) for x in plans] == [
        (TURN, 2, 7, False),
        (TURN, 3, 7, False),
    ]
    assert mode_of(None) == "ping" and mode_of(prefs(1, "dm")) == "dm"


def test_reminders_never_go_nowhere() -> None:
    assert reminder_route("ping") == Route(channel=True, ping=True, dm=False)
    assert reminder_route("dm") == Route(channel=False, ping=False, dm=True)
    assert reminder_route("both") == Route(channel=True, ping=True, dm=True)
    assert reminder_route("none") == Route(channel=True, ping=False, dm=False)
    for mode in NOTICE_MODES:
        r = reminder_route(mode)
        assert r.channel or r.dm


# ---------------------------------------------------------------------------- quiet hours


def test_no_dm_in_quiet_hours_held_then_released() -> None:
    q = {2: quiet_around(NOW, "America/Sao_Paulo")}
    [plan] = turn_notices([Asked(0, 2, 4)], {2: prefs(2, "dm")}, q, NOW)
    assert plan.held
    held = [Held(0, 4)]
    # still quiet: it waits; still deciding after they end: it goes
    assert release(held, {0: 4}, {0: q[2]}, NOW + timedelta(hours=1)) == ([], [])
    assert release(held, {0: 4}, {0: q[2]}, NOW + timedelta(hours=2, minutes=1)) == (held, [])
    # the decision is over (answered: a new one began, or someone else decides): moot
    assert release(held, {0: 9}, {0: q[2]}, NOW + timedelta(hours=3)) == ([], held)
    assert release(held, {1: 4}, {0: None}, NOW) == ([], held)


def _local_quiet(t: datetime, tz: str, start: time, end: time) -> bool:
    """Whether ``t`` is in ``[start, end)`` of ``tz``'s wall clock (spanning midnight when
    ``start > end``): written here again, independently of :mod:`service.pacing`."""
    local = t.astimezone(ZoneInfo(tz)).time().replace(second=0, microsecond=0)
    if start < end:
        return start <= local < end
    return local >= start or local < end


@settings(max_examples=300, deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    start=st.times().map(lambda t: t.replace(second=0, microsecond=0)),
    end=st.times().map(lambda t: t.replace(second=0, microsecond=0)),
    at=st.datetimes(
        min_value=datetime(2026, 1, 1), max_value=datetime(2027, 12, 31), timezones=st.just(UTC)
    ),
    mode=st.sampled_from(NOTICE_MODES),
)
def test_a_dm_waits_exactly_for_the_quiet_hours(
    zone: str, start: time, end: time, at: datetime, mode: str
) -> None:
    """In every time zone (DST included), a decision's DM is held exactly when its moment
    falls in the player's quiet hours by their wall clock, and released by the tick exactly
    when it does not; the channel's ping never waits."""
    at = at.replace(second=0, microsecond=0)
    q = QuietHours(zone, start, end) if start != end else None
    p = {5: prefs(5, mode)}
    plans = turn_notices([Asked(1, 5, 3)], p, {5: q}, at)
    quiet = q is not None and _local_quiet(at, zone, start, end)
    if mode in ("dm", "both"):
        [plan] = plans
        assert plan.held == quiet
        send, moot = release([Held(1, 3)], {1: 3}, {1: q}, at)
        assert (send == [Held(1, 3)]) == (not quiet) and moot == []
    else:
        assert plans == []
    assert channel_pings([5], p) == ([5] if mode in ("ping", "both") else [])


# ---------------------------------------------------------------------------- heads-up, last


def test_heads_up_goes_to_who_asked_and_is_next() -> None:
    users = {0: 10, 1: 11, 2: 12}  # seat 3 is a computer player (no user)
    p = {
        10: prefs(10, "ping", heads=True),
        11: prefs(11, "dm", heads=True),
        12: prefs(12, "none", heads=True),
    }
    # seat 0 decides; the face says seat 1 is next: Bo gets it, with who decides before him
    [plan] = heads_up([0], [1], users, p, {}, NOW, 8)
    assert (plan.kind, plan.seat, plan.user_id, plan.version, plan.after) == (
        HEADS_UP,
        1,
        11,
        8,
        (0,),
    )
    # whatever the mode but none, and only if asked for
    assert [x.user_id for x in heads_up([1], [0], users, p, {}, NOW, 8)] == [10]
    assert heads_up([0], [2], users, p, {}, NOW, 8) == []  # mode none
    p[11] = prefs(11, "dm", heads=False)
    assert heads_up([0], [1], users, p, {}, NOW, 8) == []  # not asked for
    p[11] = prefs(11, "dm", heads=True)
    assert heads_up([0], None, users, p, {}, NOW, 8) == []  # the game cannot tell
    assert heads_up([0], [3], users, p, {}, NOW, 8) == []  # a computer player
    assert heads_up([1], [1], users, p, {}, NOW, 8) == []  # deciding already
    assert heads_up([0], [1], users, p, {11: quiet_around(NOW, "Asia/Tokyo")}, NOW, 8) == []
    assert len(heads_up([0], [1, 1], users, p, {}, NOW, 8)) == 1  # at most one each


def test_last_to_act_when_all_others_answered() -> None:
    assert last_to_act([0, 1, 2], [2]) == 2
    assert last_to_act([0, 1, 2], [1, 2]) is None  # two still decide
    assert last_to_act([0], [0]) is None  # one alone from the start: no "everyone else"
    assert last_to_act([0, 1], [3]) is None  # a new decider, not the last of them
    assert last_to_act([], [1]) is None
    plan = last_notice(2, 12, 5, prefs(12, "both"), None, NOW)
    assert plan is not None and (plan.kind, plan.version) == (LAST, 5)
    assert last_notice(2, 12, 5, prefs(12, "ping"), None, NOW) is None  # the post pings
    assert last_notice(2, 12, 5, prefs(12, "dm"), quiet_around(NOW), NOW) is None


def test_next_seats_reads_the_games_face() -> None:
    from rules.games import game

    tigris = game("tigris")
    state = tigris.new_game(3, seed=1)
    assert next_seats(state) == [(tigris.deciders(state)[0] + 1) % 3]


# ---------------------------------------------------------------------------- once


async def test_once_per_decision_across_a_restart(service: GameService) -> None:
    seats = [SeatSpec("Ana", user_id=10), SeatSpec("Bo", user_id=11)]
    res = await service.new_game(seats, seed=3, channel_id=555, game="tigris")
    assert res.game_id == 1
    ledger = Ledger(service)
    assert await ledger.claim(1, 4, 0, TURN)
    assert not await ledger.claim(1, 4, 0, TURN)  # the same decision: never twice
    assert await ledger.claim(1, 6, 0, TURN)  # her next decision
    assert await ledger.claim(1, 4, 0, HEADS_UP)  # another kind of notice
    again = Ledger(service)  # a restart (a new ledger over the same store)
    assert not await again.claim(1, 4, 0, TURN)
    await again.claim(1, 4, 1, "notice_held")
    assert await again.held(1) == [Held(1, 4)]
    await again.finish(1, 4, 1, "notice_held", "sent")
    assert await again.held(1) == []
    p = await ledger.set_mode(7, "both", True)
    assert (p.notices, p.heads_up) == ("both", True)
    assert (await ledger.set_mode(7, None, None)).notices == "both"
