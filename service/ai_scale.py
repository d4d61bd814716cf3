"""The computer players on the players' rating scale (issue #31): each level of each game is a
rated player (``ai:<level>``, :func:`service.rating.ai_key`) whose rating comes from a
calibration, shipped as ``service/data/ai_ratings.json`` ([docs/ratings-ai.md]).

- :func:`ai_rating` ``(game, level)``: the level's calibrated :class:`~service.rating.Rating`
  (a new player's, :data:`~service.rating.NEW`, when the data lacks it);
  :func:`ai_shown` the number players see, or None when the data lacks the game.
- :func:`calibrate` plays a calibration (:mod:`ai.calibrate`) and rates its games with
  :func:`service.rating.rate` in the games' order, so the same seed gives the same table;
  then the whole table is shifted so that the ``random`` level's mean is a new player's
  (:data:`ANCHOR_MU`): the model depends on differences of means only, so the shift changes
  no prediction and pins the scale to a fixed point.
- ``python -m service.ai_scale --game GAME --games N [--players P] [--budget S]
  [--iterations K] [--workers W] [--seed S] [--out PATH]`` runs one and writes the game's
  entry of the JSON (the other games' entries are kept).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import i18n
from ai.calibrate import Match, Plan, levels_of, play_matches, player_counts
from rules.cli import OneLineParser, real_number, seed, whole_number
from rules.registry import default_name, registrations
from service.rating import NEW, Rating, places_of, rate, shown
from service.results import SeatSpec, ai_level_word, ai_name
from storage import GameStore
from storage.location import open_store
from storage.ratings import RatingChange

DATA = Path(__file__).resolve().parent / "data" / "ai_ratings.json"
"""The shipped calibration."""
ANCHOR_LEVEL = "random"
"""The level pinned on the scale."""
ANCHOR_MU = NEW.mu
"""The anchor level's mean after the shift: a new player's (25)."""
FORMAT = 1


@dataclass(frozen=True)
class LevelRating:
    """A level's calibrated rating: ``mu``, ``sigma``, the rated games it played, and the
    number shown (:func:`service.rating.shown`)."""

    mu: float
    sigma: float
    games: int
    shown: int

    @property
    def rating(self) -> Rating:
        return Rating(self.mu, self.sigma)


def rate_matches(levels: Sequence[str], matches: Sequence[Match]) -> dict[str, LevelRating]:
    """Every level's rating after the finished ``matches``, rated in order from a new
    player's rating with :func:`service.rating.rate`, then shifted so that
    :data:`ANCHOR_LEVEL` reads :data:`ANCHOR_MU`.

    A level's ``mu`` is the mean of its means after each of its games in the second half of
    the finished games (its last mean when it played none there), its ``sigma`` the last:
    the model's drift (``tau``) keeps a rating movable, so one game's snapshot wanders by
    about a sigma around the level's strength, which does not change; the average does not.

    A level seated more than once in a game (four seats, three levels) plays each seat from
    its rating before the game; its new mean and sigma are the means of its seats' results
    (one game counted once)."""
    now = dict.fromkeys(levels, NEW)
    played = dict.fromkeys(levels, 0)
    late: dict[str, list[float]] = {lv: [] for lv in levels}
    finished = [m for m in matches if m.finished]
    for n, m in enumerate(finished):
        places = places_of(dict(enumerate(m.scores)), frozenset(m.winners))
        after = rate([now[lv] for lv in m.levels], [places[s] for s in range(len(m.levels))])
        for lv in dict.fromkeys(m.levels):
            mine = [after[s] for s, x in enumerate(m.levels) if x == lv]
            now[lv] = Rating(
                sum(r.mu for r in mine) / len(mine), sum(r.sigma for r in mine) / len(mine)
            )
            played[lv] += 1
            if 2 * n >= len(finished):
                late[lv].append(now[lv].mu)
    mean = {lv: sum(late[lv]) / len(late[lv]) if late[lv] else now[lv].mu for lv in levels}
    shift = ANCHOR_MU - mean[ANCHOR_LEVEL] if ANCHOR_LEVEL in mean else 0.0
    out = {}
    for lv in levels:
        r = Rating(mean[lv] + shift, now[lv].sigma)
        out[lv] = LevelRating(round(r.mu, 4), round(r.sigma, 4), played[lv], shown(r))
    return out


def _commit() -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def calibrate(plan: Plan, workers: int = 1) -> dict[str, Any]:
    """Play the plan and rate it: the game's entry of the JSON (its parameters, the games it
    rests on, the table by level)."""
    levels = levels_of(plan.game)
    matches = play_matches(plan, workers=workers)
    table = rate_matches(levels, matches)
    return {
        "params": {
            "games": plan.games,
            "players": list(plan.players),
            "seed": plan.seed,
            "budget": plan.budget,
            "iterations": plan.iterations,
            "commit": _commit(),
        },
        "finished": sum(m.finished for m in matches),
        "unfinished": sum(not m.finished for m in matches),
        "lineups": _lineup_counts(matches),
        "levels": {
            lv: {"mu": r.mu, "sigma": r.sigma, "games": r.games, "shown": r.shown}
            for lv, r in table.items()
        },
    }


def with_humans(
    levels: Mapping[str, LevelRating], changes: Sequence[RatingChange]
) -> dict[str, LevelRating]:
    """The levels' ratings carried on through the rated games they played against humans:
    each game (its all-time changes, in the order the games were rated) is rated again with
    its computer seats as players at the levels' ratings so far and its humans at the
    ratings they had then (their changes' ``before``), and only the levels move (two seats
    of one level: the mean of their updates). Games without a human or without a computer
    seat change nothing; a level no such game played keeps its rating. The anchor is not
    applied again: the humans' ratings were measured against the levels as they stood."""
    table = dict(levels)
    games: dict[int, list[RatingChange]] = {}
    for c in changes:
        if c.season == 0:
            games.setdefault(c.game_id, []).append(c)
    for seats in games.values():
        computer = [c for c in seats if c.fixed and c.player.startswith("ai:")]
        if not computer or len(computer) == len(seats):
            continue
        ratings = [
            _level(table, c.player).rating if c in computer else Rating(c.mu_before, c.sigma_before)
            for c in seats
        ]
        new = rate(ratings, [c.place for c in seats])
        moved: dict[str, list[Rating]] = {}
        for c, r in zip(seats, new, strict=True):
            if c in computer:
                moved.setdefault(c.player.removeprefix("ai:"), []).append(r)
        for lv, rs in moved.items():
            mu = sum(r.mu for r in rs) / len(rs)
            sigma = sum(r.sigma for r in rs) / len(rs)
            old = table.get(lv)
            games_played = (old.games if old is not None else 0) + 1
            table[lv] = LevelRating(mu, sigma, games_played, shown(Rating(mu, sigma)))
    return table


def _level(table: Mapping[str, LevelRating], player: str) -> LevelRating:
    found = table.get(player.removeprefix("ai:"))
    return found if found is not None else LevelRating(NEW.mu, NEW.sigma, 0, shown(NEW))


async def human_games(store: GameStore, game: str) -> list[RatingChange]:
    """Every server's all-time rating changes of ``game`` in the store, in the order the
    games were rated (their finish, then game id and seat)."""
    guilds = sorted({r.guild_id for r in (await store.rating_tables()).ratings if r.game == game})
    out: list[RatingChange] = []
    for guild in guilds:
        out += await store.rating_changes(guild, game, season=0)
    far = datetime.max.replace(tzinfo=UTC)
    return sorted(out, key=lambda c: (c.finished_at or far, c.game_id, c.seat))


def _lineup_counts(matches: Sequence[Match]) -> dict[str, dict[str, int]]:
    """Per line-up (sorted levels joined by ``+``): its finished games and each level's wins
    (a shared win counts for each winner)."""
    out: dict[str, dict[str, int]] = {}
    for m in matches:
        if not m.finished:
            continue
        key = "+".join(sorted(m.levels))
        row = out.setdefault(key, {"games": 0} | {f"won_{lv}": 0 for lv in sorted(set(m.levels))})
        row["games"] += 1
        for s in m.winners:
            row[f"won_{m.levels[s]}"] += 1
    return out


RUNS = "_calibration"
"""The JSON's key of the runs' records (a game's name never starts with ``_``)."""


def write(path: Path, game: str, entry: dict[str, Any]) -> None:
    """Put ``game``'s calibration (:func:`calibrate`'s entry) into the JSON at ``path``, the
    other games' kept. The file is ``{game: {level: {"mu", "sigma", "games", "shown"}}}``
    (what :func:`ai_rating` reads), with the runs' records under :data:`RUNS`: the model, the
    anchor, and per game its parameters and the games it rests on."""
    data: dict[str, Any] = {}
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
    runs = data.pop(RUNS, {})
    data[game] = entry["levels"]
    runs["format"] = FORMAT
    runs["model"] = "openskill BradleyTerryFull (service.rating)"
    runs["anchor"] = {"level": ANCHOR_LEVEL, "mu": ANCHOR_MU}
    runs.setdefault("runs", {})[game] = {k: v for k, v in entry.items() if k != "levels"}
    runs["runs"] = dict(sorted(runs["runs"].items()))
    out = dict(sorted(data.items())) | {RUNS: runs}
    path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


@cache
def _table() -> dict[str, dict[str, LevelRating]]:
    try:
        data = json.loads(DATA.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {
        game: {
            lv: LevelRating(float(r["mu"]), float(r["sigma"]), int(r["games"]), int(r["shown"]))
            for lv, r in levels.items()
        }
        for game, levels in data.items()
        if not game.startswith("_")
    }


def calibrated(game: str, level: str) -> LevelRating | None:
    """The shipped calibration of ``game``'s ``level`` (None: the data lacks it)."""
    return _table().get(game, {}).get(level)


def ai_rating(game: str, level: str) -> Rating:
    """The rating of ``game``'s computer ``level`` on the players' scale: its calibration, or
    a new player's rating when the data lacks it."""
    found = calibrated(game, level)
    return NEW if found is None else found.rating


def ai_shown(game: str | None, level: str) -> int | None:
    """The number players see for ``game``'s ``level`` (None: not calibrated)."""
    found = None if game is None else calibrated(game, level)
    return None if found is None else found.shown


def level_label(lang: str, game: str | None, level: str) -> str:
    """A computer level as players read it: ``search (≈ 1,650)`` (the number in ``lang``'s
    format), or the level alone when the game's levels are not calibrated."""
    n = ai_shown(game, level)
    return level if n is None else i18n.tr(lang, "ai.level.rated", level=level, rating=n)


def seat_text(lang: str, game: str | None, name: str, level: str, number: int | None = None) -> str:
    """A computer seat as the lobby lists it, in ``lang``: ``Computer (strong, ≈ 1,650)``
    (``number``: its number among the seats of its level, ``Computer (strong) 2 (≈ 1,650)``),
    or ``Computer (strong)`` when the game's levels are not calibrated; a seat someone named
    (``name`` not the platform's default): ``Robô (strong, ≈ 1,650)``."""
    n = ai_shown(game, level)
    if SeatSpec(name, ai=level).named_by_level:
        return ai_name(lang, level, number, rating=n)
    word = ai_level_word(lang, level)
    if n is None:
        return f"{name} ({word})"
    return i18n.tr(lang, "ai.seat.rated", name=name, level=word, rating=n)


def level_choice(lang: str, game: str | None, level: str) -> str:
    """A level offered in a menu or a command's choices, in ``lang``: its word, the one
    computer seats are named by (``ai.level.word.<level>``), with the id one types, and its
    rating where calibrated (``stark (search) — Wertung ≈ 1.650``)."""
    word = ai_level_word(lang, level)
    word = word if word == level else f"{word} ({level})"
    n = ai_shown(game, level)
    return word if n is None else i18n.tr(lang, "ai.level.choice", level=word, rating=n)


def level_choices(lang: str, game: str | None) -> list[tuple[str, str]]:
    """``game``'s computer levels (None: the default game's), weakest first, each as
    (level, :func:`level_choice` in ``lang``)."""
    reg = registrations().get(game or default_name())
    levels = reg.agent_levels if reg is not None else ()
    return [(lv, level_choice(lang, reg.name if reg else game, lv)) for lv in levels]


def _current(path: Path, game: str) -> dict[str, Any] | None:
    """The game's entry of the calibration file as written (None: the file or game lacks
    it): its table and the parameters of the run it came from."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    if game not in data:
        return None
    entry = dict(data.get(RUNS, {}).get("runs", {}).get(game, {}))
    entry["levels"] = data[game]
    return entry


async def _carry_on(entry: dict[str, Any], game: str, location: str) -> dict[str, Any]:
    """``entry`` with its table carried on through the store's rated games against humans
    (:func:`with_humans`), and how many it rests on."""
    levels = {
        lv: LevelRating(float(r["mu"]), float(r["sigma"]), int(r["games"]), int(r["shown"]))
        for lv, r in entry["levels"].items()
    }
    async with open_store(location) as store:
        changes = await human_games(store, game)
    table = with_humans(levels, changes)
    mixed = {
        c.game_id
        for c in changes
        if c.fixed and any(o.game_id == c.game_id and not o.fixed for o in changes)
    }
    out = dict(entry)
    out["human_games"] = len(mixed)
    out["levels"] = {
        lv: {"mu": r.mu, "sigma": r.sigma, "games": r.games, "shown": r.shown}
        for lv, r in table.items()
    }
    return out


def parser() -> argparse.ArgumentParser:
    games = tuple(n for n, reg in registrations().items() if reg.agents)
    ap = OneLineParser(
        prog="python -m service.ai_scale",
        description="Calibrate a game's computer levels on the rating scale.",
    )
    ap.add_argument("--game", choices=games, required=True)
    ap.add_argument(
        "--games",
        type=whole_number(0, 100_000),
        default=60,
        help="games between the levels (0: none, carry the --out file's table on with --with-store)",
    )
    ap.add_argument("--players", type=whole_number(2, 99), default=None)
    ap.add_argument("--budget", type=real_number(0.0, 3600.0), default=None)
    ap.add_argument("--iterations", type=whole_number(1, 10_000_000), default=None)
    ap.add_argument("--workers", type=whole_number(1, 64), default=1)
    ap.add_argument("--seed", type=seed, default=0)
    ap.add_argument("--out", type=Path, default=DATA)
    ap.add_argument(
        "--with-store",
        metavar="LOCATION",
        default=None,
        help="a store (SQLite file or PostgreSQL URL): carry the table on through its rated "
        "games between humans and the levels",
    )
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    try:
        counts = player_counts(args.game, args.players)
    except ValueError as e:
        ap.error(str(e))
    if args.games:
        plan = Plan(args.game, args.games, counts, args.seed, args.budget, args.iterations)
        entry = calibrate(plan, workers=args.workers)
    elif args.with_store is None:
        ap.error("--games 0 plays no game: give --with-store to carry the table on")
    else:
        current = _current(args.out, args.game)
        if current is None:
            ap.error(f"{args.out} has no table of {args.game} to carry on")
        entry = current
    if args.with_store is not None:
        entry = asyncio.run(_carry_on(entry, args.game, args.with_store))
    write(args.out, args.game, entry)
    print(
        f"{args.game}: {entry.get('finished', 0)} rated games between the levels "
        f"({entry.get('unfinished', 0)} unfinished), {entry.get('human_games', 0)} against humans"
    )
    for lv, r in entry["levels"].items():
        print(f"  {lv:<10} mu {r['mu']:7.3f}  sigma {r['sigma']:6.3f}  shown {r['shown']:>5}")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
