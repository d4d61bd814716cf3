"""The computer levels' ratings carried on through their rated games against humans (issue
#31: "their ratings come from a documented calibration — tournaments between the levels, and
against humans as games accumulate"): ``service.ai_scale.with_humans`` and
``python -m service.ai_scale --games 0 --with-store …``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from service import GameService
from service.ai_scale import LevelRating, human_games, main, with_humans
from service.rating import NEW, Rating, ai_key, rate, shown, user_key
from service.results import SeatSpec
from storage import SqliteGameStore
from storage.ratings import RatingChange
from tests.service.test_ratings import GAME, game, human
from tests.service.test_ratings import svc as svc  # the fixture: a service over SQLite

ANA, BO = 101, 102


def level(mu: float, sigma: float, games: int = 10) -> LevelRating:
    return LevelRating(mu, sigma, games, shown(Rating(mu, sigma)))


def change(
    gid: int, seat: int, player: str, place: int, before: Rating, *, fixed: bool
) -> RatingChange:
    return RatingChange(
        game_id=gid, season=0, seat=seat, player=player, place=place, fixed=fixed,
        mu_before=before.mu, sigma_before=before.sigma, mu_after=before.mu,
        sigma_after=before.sigma,
    )  # fmt: skip


def test_a_level_beaten_by_humans_goes_down_and_one_unplayed_stays() -> None:
    table = {"random": level(25.0, 2.0), "search": level(32.0, 2.5)}
    ana = Rating(28.0, 4.0)
    changes = [
        c
        for gid in (1, 2, 3)
        for c in (
            change(gid, 0, user_key(ANA), 1, ana, fixed=False),
            change(gid, 1, ai_key("random"), 2, table["random"].rating, fixed=True),
        )
    ]
    # a game between two computer seats only, and a season's change: nothing to carry on
    changes += [
        change(4, 0, ai_key("random"), 1, NEW, fixed=True),
        change(4, 1, ai_key("search"), 2, NEW, fixed=True),
    ]
    changes.append(change(5, 0, user_key(BO), 1, NEW, fixed=False).model_copy(update={"season": 1}))
    out = with_humans(table, changes)
    assert out["search"] == table["search"]
    assert out["random"].games == 13 and out["random"].mu < 25.0
    # the first game's update is exactly the model's, the human at their rating then
    first = rate([ana, table["random"].rating], [1, 2])[1]
    again = with_humans(table, changes[:2])["random"]
    assert (again.mu, again.sigma) == (first.mu, first.sigma)


def test_two_seats_of_one_level_move_it_by_their_mean() -> None:
    table = {"heuristic": level(27.0, 3.0)}
    bo = Rating(25.0, 3.0)
    seats = [
        change(1, 0, ai_key("heuristic"), 1, table["heuristic"].rating, fixed=True),
        change(1, 1, user_key(BO), 2, bo, fixed=False),
        change(1, 2, ai_key("heuristic"), 3, table["heuristic"].rating, fixed=True),
    ]
    new = rate([table["heuristic"].rating, bo, table["heuristic"].rating], [1, 2, 3])
    got = with_humans(table, seats)["heuristic"]
    assert got.mu == (new[0].mu + new[2].mu) / 2 and got.games == 11


async def test_the_command_carries_the_table_on_through_a_stores_games(
    svc: GameService, tmp_path: Path
) -> None:
    """Real rated games of a server (a human against the random level) in a store; the
    command with ``--games 0`` reads the calibration file's table, carries it on through
    them and writes it back with how many games against humans it rests on."""
    for seed in range(3):
        await game(svc, [human(ANA), SeatSpec("AI random", ai="random")], seed=seed)
    changes = await human_games(svc.store, GAME)
    assert {c.game_id for c in changes} and all(c.season == 0 for c in changes)
    path = tmp_path / "ai.json"
    start = {"random": {"mu": 25.0, "sigma": 2.0, "games": 50, "shown": 850}}
    path.write_text(json.dumps({GAME: start}))
    store = svc.store
    assert isinstance(store, SqliteGameStore)
    code = await asyncio.to_thread(
        main, ["--game", GAME, "--games", "0", "--out", str(path), "--with-store", str(store.path)]
    )
    assert code == 0
    written = json.loads(path.read_text())
    expected = with_humans(
        {"random": LevelRating(25.0, 2.0, 50, 850)}, await human_games(svc.store, GAME)
    )["random"]
    assert written[GAME]["random"]["mu"] == expected.mu
    assert written[GAME]["random"]["games"] == 53
    assert written["_calibration"]["runs"][GAME]["human_games"] == 3
