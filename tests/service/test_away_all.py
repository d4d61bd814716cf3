"""``/away all`` in the service (:meth:`service.pace.Pacing.away_all`), without Discord: a fake
clock, a real SQLite file. A player's running games on several servers, each with its own
limits: the games that allow it are set, a game that refuses says why and is unchanged; one
call per game under the game's lock, its write its own transaction (a game whose write fails
leaves the others set); ``end`` ends them all; a date reads in the player's time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from i18n import Msg, tr
from service import GameService, SeatSpec
from service.pacing import FakeClock, PacingSettings
from service.results import Refused
from storage import GameStatus

ANA, BO = 101, 102
T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
G1, G2 = 800_000_000_000_000_001, 800_000_000_000_000_002


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


async def game(
    svc: GameService,
    clock: FakeClock,
    channel: int,
    guild: int,
    *,
    away_max: float | None = None,
    away_total: float | None = None,
    name: str = "brazil",
) -> int:
    """A running game of Ana and Bo in ``channel`` on ``guild``, with its own away limits."""
    res = await svc.new_game(
        [SeatSpec("Ana", user_id=ANA), SeatSpec("Bo", user_id=BO)],
        seed=3,
        channel_id=channel,
        guild_id=guild,
        game=name,
    )
    svc.pacing.clock = clock
    limits: dict[str, float] = {}
    if away_max is not None:
        limits["away_max_hours"] = away_max
    if away_total is not None:
        limits["away_total_hours"] = away_total
    if limits:
        await svc.pacing.save_settings(res.game_id, PacingSettings(deadline_hours=24, **limits))
    return res.game_id


def why(m: Msg | str | None) -> str:
    assert m is not None
    return Refused(m).text("en")


async def test_away_all_sets_each_game_with_its_own_limits(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = await game(service, clock, 501, G1)  # the defaults: 7 d at a time, 14 d in all
    b = await game(service, clock, 502, G2, away_max=48)  # 2 d at a time
    c = await game(service, clock, 503, G2, away_total=24 * 10, name="tigris")  # 10 d in all
    d = await game(service, clock, 504, G1)
    await service.pacing.away(d, 0, "1d", by_user=ANA)  # already away there
    lobby = await service.lobbies.open(
        505, G1, ANA, scenario=None, players=2, ai_seats=0, ai_level="random", deadline_hours=24
    )
    locks = {g: service.lock(g).acquisitions for g in (a, b, c, d)}
    writes: list[int] = []
    add_break = service.store.add_break

    async def counted(game_id: int, *args: Any, **kw: Any) -> Any:
        writes.append(game_id)
        return await add_break(game_id, *args, **kw)

    monkeypatch.setattr(service.store, "add_break", counted)

    done = await service.pacing.away_all(ANA, "3d")
    by_game = {o.game.id: o for o in done}
    assert set(by_game) == {a, b, c, d}  # every running game, on both servers; no lobby
    assert lobby.id not in by_game
    end = T0 + timedelta(days=3)
    assert by_game[a].end == end and by_game[a].refused is None
    assert by_game[c].end == end and by_game[c].refused is None  # 3 d of its 10
    assert by_game[b].end is None and "at most 2d away at a time" in why(by_game[b].refused)
    assert by_game[d].end is None and "already away" in why(by_game[d].refused)
    assert all(o.seat == 0 for o in done)
    # one write per game set, each its own call; every game's lock taken once
    assert sorted(writes) == sorted([a, c])
    assert {g: service.lock(g).acquisitions - n for g, n in locks.items()} == {
        a: 1,
        b: 1,
        c: 1,
        d: 1,
    }
    # the store: away in a and c, nothing new in b, d's own away untouched
    assert [(x.seat, x.end) for x in await service.store.breaks(a)] == [(0, end)]
    assert [(x.seat, x.end) for x in await service.store.breaks(c)] == [(0, end)]
    assert await service.store.breaks(b) == []
    assert [x.end for x in await service.store.breaks(d)] == [T0 + timedelta(days=1)]
    # Bo's games are his own: nothing of Ana's changed his seats
    for g in (a, c, d):
        assert {x.seat for x in await service.store.breaks(g)} == {0}

    # four days later, all back: 8 d is more than any game allows at a time
    clock.advance(hours=96)
    done = await service.pacing.away_all(ANA, "8d")
    assert all(o.end is None and o.refused is not None for o in done)
    assert "at most 7d" in why(next(o for o in done if o.game.id == a).refused)
    # their away periods are over: "end" finds nothing to end, and each game says so
    done = await service.pacing.away_all(ANA, "end")
    assert {o.game.id for o in done} == {a, b, c, d}
    assert all("not away" in why(o.refused) for o in done)


async def test_end_all_ends_every_away_and_a_failing_game_leaves_the_others(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = await game(service, clock, 501, G1)
    b = await game(service, clock, 502, G2)
    c = await game(service, clock, 503, G2)
    add_break = service.store.add_break

    async def failing(game_id: int, *args: Any, **kw: Any) -> Any:
        if game_id == b:
            raise OSError("the disk is full")
        return await add_break(game_id, *args, **kw)

    monkeypatch.setattr(service.store, "add_break", failing)
    done = await service.pacing.away_all(ANA, "2d")
    by_game = {o.game.id: o for o in done}
    assert by_game[a].end is not None and by_game[c].end is not None
    assert by_game[b].end is None and "went wrong" in why(by_game[b].refused)
    assert await service.store.breaks(b) == []
    clock.advance(hours=5)
    done = await service.pacing.away_all(ANA, "end")
    by_game = {o.game.id: o for o in done}
    assert by_game[a].refused is None and by_game[a].end is None
    assert by_game[c].refused is None and by_game[c].end is None
    assert "not away" in why(by_game[b].refused)
    for g in (a, c):
        [x] = await service.store.breaks(g)
        assert x.end == T0 + timedelta(hours=5)


async def test_away_until_a_date_in_the_players_time_zone(
    service: GameService, clock: FakeClock
) -> None:
    a = await game(service, clock, 501, G1)
    b = await game(service, clock, 502, G2)
    # UTC without a time zone of her own: until the day begins
    done = await service.pacing.away_all(ANA, "2026-03-05")
    assert [o.end for o in done] == [datetime(2026, 3, 5, tzinfo=UTC)] * 2
    await service.pacing.away_all(ANA, "end")
    await service.pacing.set_timezone(ANA, "America/New_York")
    done = await service.pacing.away_all(ANA, "2026-03-05 18:00")
    ny = datetime(2026, 3, 5, 18, 0, tzinfo=ZoneInfo("America/New_York"))
    assert {o.game.id: o.end for o in done} == {a: ny, b: ny}
    # a date that does not read, or passed: refused before any game changes
    for text, said in (("2026-02-30", "not a date"), ("2026-03-01", "already passed")):
        with pytest.raises(Refused, match=said):
            await service.pacing.away_all(ANA, text)
    with pytest.raises(Refused, match="not a duration"):
        await service.pacing.away_all(BO, "soon")
    # the single game's /away reads a date too
    await service.pacing.away(a, 1, "2026-03-04", by_user=BO)
    assert [x.end for x in await service.store.breaks(a) if x.seat == 1] == [
        datetime(2026, 3, 4, tzinfo=UTC)
    ]


async def test_no_running_game_no_outcome(service: GameService, clock: FakeClock) -> None:
    a = await game(service, clock, 501, G1)
    await service.store.set_status(a, GameStatus.ABANDONED)
    assert await service.pacing.away_all(ANA, "3d") == []
    assert tr("en", "svc.pace.away_failed")
