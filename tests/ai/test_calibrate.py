"""The calibration of the computer levels on the rating scale (issue #31): the same seed gives
the same matches and table whatever the worker processes, the anchor, the shipped table
(service/data/ai_ratings.json) covering every registered game with agents and every level,
and the levels' order where the games say one is stronger."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from ai.calibrate import Match, Plan, lineups, play_matches, player_counts, seated
from rules.registry import registrations
from service import ai_scale
from service.ai_scale import (
    ANCHOR_LEVEL,
    ANCHOR_MU,
    DATA,
    RUNS,
    calibrate,
    rate_matches,
    write,
)
from service.rating import NEW, Rating, places_of, rate, shown

SHIPPED = json.loads(DATA.read_text(encoding="utf-8"))


def shipped(game: str) -> dict[str, Any]:
    """The shipped calibration of ``game``: its run's record and its levels."""
    run: dict[str, Any] = SHIPPED[RUNS]["runs"][game]
    return run | {"levels": SHIPPED[game]}


WITH_AGENTS = sorted(name for name, reg in registrations().items() if reg.agents)
EXAMPLE = next(name for name, reg in registrations().items() if reg.face.startswith("examples."))
"""The example game (a two-player game of chance, quick to play): named by its folder only."""


def test_lineups_cover_every_count_and_seat_every_level() -> None:
    levels = ("random", "heuristic", "search")
    ups = lineups(levels, (2, 3, 4))
    assert ups[:3] == [("random", "heuristic"), ("random", "search"), ("heuristic", "search")]
    assert ("random", "heuristic", "search") in ups
    fours = [u for u in ups if len(u) == 4]
    assert len(fours) == 3 and all(set(u) == set(levels) for u in fours)
    assert player_counts("tigris") == (2, 3, 4)
    assert player_counts("brazil") == (2, 3, 4)  # a solo game is not rated
    with pytest.raises(ValueError):
        player_counts(EXAMPLE, 3)
    plan = Plan(EXAMPLE, 6, (2,))
    assert [seated(plan, i) for i in (0, 3)] == [("random", "heuristic"), ("heuristic", "random")]


def test_same_seed_same_matches_and_table_whatever_the_workers() -> None:
    plan = Plan(EXAMPLE, 24, player_counts(EXAMPLE), seed=3)
    one = play_matches(plan, workers=1)
    two = play_matches(plan, workers=2)
    assert one == two and [m.index for m in one] == list(range(24))
    assert calibrate(plan)["levels"] == calibrate(plan, workers=2)["levels"]
    other = play_matches(Plan(EXAMPLE, 24, (2,), seed=4))
    assert other != one  # the seed matters


@pytest.mark.slow
def test_a_real_game_is_deterministic_with_fixed_iterations() -> None:
    plan = Plan("tigris", 3, (2,), seed=1, iterations=1)
    first = calibrate(plan)
    again = calibrate(plan, workers=2)
    assert first["levels"] == again["levels"] and first["lineups"] == again["lineups"]
    assert first["finished"] == 3 and set(first["levels"]) == {"random", "heuristic", "search"}


def test_the_anchor_pins_random_and_keeps_the_differences() -> None:
    matches = [
        Match(0, ("random", "heuristic"), (3, 9), (1,), True),
        Match(1, ("heuristic", "search", "random"), (5, 8, 1), (1,), True),
        Match(2, ("search", "random"), (4, 4), (0, 1), True),  # a shared win
        Match(3, ("random", "search"), (), (), False),  # unfinished: not rated
        Match(4, ("random", "heuristic", "search", "search"), (1, 2, 7, 7), (2, 3), True),
    ]
    table = rate_matches(("random", "heuristic", "search"), matches)
    assert table[ANCHOR_LEVEL].mu == ANCHOR_MU == NEW.mu
    assert [table[lv].games for lv in ("random", "heuristic", "search")] == [4, 3, 3]
    # the same games rated by hand, without the shift: each level's mean over its games in
    # the second half (the last two of the four finished games), its last sigma
    now = {"random": NEW, "heuristic": NEW, "search": NEW}
    late: dict[str, list[float]] = {lv: [] for lv in now}
    for n, m in enumerate(m for m in matches if m.finished):
        places = places_of(dict(enumerate(m.scores)), frozenset(m.winners))
        after = rate([now[lv] for lv in m.levels], [places[s] for s in range(len(m.levels))])
        for lv in set(m.levels):
            mine = [after[s] for s, x in enumerate(m.levels) if x == lv]
            now[lv] = Rating(
                sum(r.mu for r in mine) / len(mine), sum(r.sigma for r in mine) / len(mine)
            )
            if n >= 2:
                late[lv].append(now[lv].mu)
    mean = {lv: sum(v) / len(v) for lv, v in late.items()}
    shift = ANCHOR_MU - mean["random"]
    assert shift != 0  # random lost more than it won: the shift is no no-op here
    for lv, r in now.items():
        assert table[lv].mu == pytest.approx(mean[lv] + shift, abs=1e-4)
        assert table[lv].sigma == pytest.approx(r.sigma, abs=1e-4)
        assert table[lv].shown == shown(Rating(mean[lv] + shift, r.sigma))
    assert table["search"].mu - table["heuristic"].mu == pytest.approx(
        mean["search"] - mean["heuristic"], abs=1e-3
    )
    assert table["search"].mu > table["heuristic"].mu > table["random"].mu


def test_write_keeps_the_other_games(tmp_path: Path) -> None:
    out = tmp_path / "ai.json"
    write(out, "tigris", {"levels": {"random": {"mu": 25.0}}, "finished": 3})
    write(out, "brazil", {"levels": {"random": {"mu": 24.0}}, "finished": 4})
    data = json.loads(out.read_text())
    assert list(data) == ["brazil", "tigris", RUNS]
    assert data["tigris"] == {"random": {"mu": 25.0}}
    assert data[RUNS]["runs"]["brazil"] == {"finished": 4}
    assert data[RUNS]["anchor"]["level"] == "random"


@pytest.mark.parametrize("game", WITH_AGENTS)
def test_the_shipped_table_has_every_game_and_level(game: str) -> None:
    assert game in SHIPPED and game in SHIPPED[RUNS]["runs"], f"{game} is not in {DATA.name}"
    entry = shipped(game)
    levels = registrations()[game].agent_levels
    assert set(entry["levels"]) == set(levels)
    assert entry["finished"] >= 1 and entry["params"]["games"] >= entry["finished"]
    for lv, r in entry["levels"].items():
        assert r["games"] >= 1 and r["sigma"] > 0
        assert r["shown"] == shown(Rating(r["mu"], r["sigma"]))
        assert ai_scale.ai_rating(game, lv) == Rating(r["mu"], r["sigma"])
        assert ai_scale.ai_shown(game, lv) == r["shown"]
    assert entry["levels"][ANCHOR_LEVEL]["mu"] == ANCHOR_MU


def clearly_better(lineups: dict[str, dict[str, int]], a: str, b: str) -> bool:
    """Whether the games say ``a`` is stronger than ``b``: in their two-player games a wins
    margin over two standard deviations of a fair coin, or, over every line-up seating both,
    ``b`` never won while ``a`` won five times or more."""
    duel = lineups.get("+".join(sorted((a, b))))
    if duel is not None and duel[f"won_{a}"] - duel[f"won_{b}"] > 2 * math.sqrt(duel["games"]):
        return True
    both = [row for row in lineups.values() if f"won_{a}" in row and f"won_{b}" in row]
    return sum(r[f"won_{b}"] for r in both) == 0 and sum(r[f"won_{a}"] for r in both) >= 5


@pytest.mark.parametrize("game", WITH_AGENTS)
def test_levels_are_ordered_where_their_games_say_so(game: str) -> None:
    """Where the games say one level is stronger than another (:func:`clearly_better`), the
    table rates it higher; the random level below the others in the real games."""
    entry = shipped(game)
    levels = registrations()[game].agent_levels
    checked = 0
    for a in levels:
        for b in levels:
            if a != b and clearly_better(entry["lineups"], a, b):
                assert entry["levels"][a]["mu"] > entry["levels"][b]["mu"], (game, a, b)
                checked += 1
    if game != EXAMPLE:  # the example game is nearly a coin toss between its levels
        assert checked >= 2, f"{game}: no level beat another clearly"
        assert all(entry["levels"][lv]["mu"] > ANCHOR_MU for lv in levels if lv != "random")


def test_an_uncalibrated_game_shows_no_number() -> None:
    assert ai_scale.ai_rating("chess", "search") == NEW
    assert ai_scale.ai_shown("chess", "search") is None
    assert ai_scale.level_label("en", "chess", "search") == "search"
    assert ai_scale.seat_text("en", "chess", "AI search", "search") == "Computer (strong)"


@pytest.mark.parametrize(
    ("lang", "sep"), [("en", ","), ("de", "."), ("pt-BR", "."), ("fr", "\u202f"), ("pl", "\xa0")]
)
def test_a_level_reads_with_its_rating_in_the_language(lang: str, sep: str) -> None:
    n = ai_scale.ai_shown("tigris", "search")
    assert n is not None and n >= 1000
    number = f"{n // 1000}{sep}{n % 1000:03d}"
    assert ai_scale.level_label(lang, "tigris", "search") == f"search (≈ {number})"
    assert number in ai_scale.level_choice(lang, "tigris", "search")
