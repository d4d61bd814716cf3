"""Command-line tool of the rules engines, for any registered game (:mod:`rules.games`):
``python -m rules describe [--game G]`` (the game's component data, where its registration
has a ``describe``), ``python -m rules selfplay [--game G]`` and ``python -m rules bench
[--game G]`` (deeper self-play, benchmarks and transcripts are developer tools:
``python -m devtools.GAME``)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rules.cli import OneLineParser, real_number, seed, whole_number
from rules.errors import DataError

if TYPE_CHECKING:
    from rules.games import Game

MAX_GAMES = 100_000
MAX_SECONDS = 3600.0


def _describe(args: argparse.Namespace) -> int:
    from rules.registry import default_name, registration

    name = args.game or default_name()
    reg = registration(name)
    if reg is None or not reg.describe:
        print(f"error: {name} has no component data to describe", file=sys.stderr)
        return 2
    print(reg.load("describe")(Path(args.data_pack) if args.data_pack else None))
    return 0


def _game(name: str) -> str:
    """argparse type: a game of the registry."""
    from rules.games import UnknownGame, game

    try:
        return game(name).name
    except UnknownGame as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _counts(g: Game, players: int) -> list[int]:
    """The player counts to play: ``players`` (checked by :func:`check_players`), or each."""
    lo, hi = int(g.min_players), int(g.max_players)
    return [players] if players else list(range(lo, hi + 1))


def check_players(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--players`` (0: each) must be a player count of ``--game``: else one line, exit 2."""
    players = getattr(args, "players", 0)
    if not players:
        return
    from rules.games import game

    g = game(args.game)
    lo, hi = int(g.min_players), int(g.max_players)
    if not lo <= players <= hi:
        parser.error(f"argument --players: {lo} to {hi} for {g.name}, not {players}")


def _selfplay(args: argparse.Namespace) -> int:
    from rules.games import game
    from rules.selfplay import InvariantError, play

    g = game(args.game)
    ok = True
    for n in _counts(g, args.players):
        t = time.perf_counter()
        natural = steps = 0
        failures: list[str] = []
        for i in range(args.games):
            try:
                r = play(g, n, args.seed + i, check=not args.no_check)
            except InvariantError as e:
                failures.append(f"seed {args.seed + i}: {e}")
                continue
            natural += r.natural_end
            steps += r.steps
        for f in failures[:5]:
            print(f"INVARIANT FAILED: {f}", file=sys.stderr)
        print(
            f"{g.name} players={n}: {args.games} games, {steps} steps, "
            f"{len(failures)} failures, natural end {natural}/{args.games}, "
            f"{time.perf_counter() - t:.1f} s"
        )
        ok = ok and not failures
    return 0 if ok else 1


def _bench(args: argparse.Namespace) -> int:
    from rules.games import game
    from rules.selfplay import bench

    g = game(args.game)
    for n in _counts(g, args.players):
        count, rate = bench(g, n, args.seconds)
        print(f"{g.name} players={n}: {count} actions in {args.seconds:g} s, {rate:,.0f} actions/s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(
        prog="python -m rules",
        description="The rules engines: a game's component data (describe), and random "
        "self-play with invariant checks and a speed bench for every game (--game; the "
        "deeper tools: python -m devtools.GAME).",
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser(
        "selfplay",
        help="seeded random games with invariant checks after every step",
        description="Play seeded random games through the game's face and check after every "
        "step: listing changes nothing, notation and JSON round trips, the game's own "
        "invariants (for instance tile conservation, one leader of a colour per kingdom, "
        "views that leak nothing), and an exact replay at the end.",
    )
    sp.add_argument("--game", type=_game, default=None, help="the game (default: the default)")
    sp.add_argument(
        "--games", type=whole_number(1, MAX_GAMES), default=20, help="games per player count (20)"
    )
    sp.add_argument(
        "--players", type=whole_number(0), default=0, help="one player count (default: each)"
    )
    sp.add_argument("--seed", type=seed, default=0, help="first seed (0)")
    sp.add_argument("--no-check", action="store_true", help="play without the checks")
    sp.set_defaults(fn=_selfplay)
    bp = sub.add_parser(
        "bench",
        help="actions per second of random self-play",
        description="Random self-play without checks, listing the legal actions at every step.",
    )
    bp.add_argument("--game", type=_game, default=None, help="the game (default: the default)")
    bp.add_argument(
        "--players", type=whole_number(0), default=0, help="one player count (default: each)"
    )
    bp.add_argument(
        "--seconds",
        type=real_number(0.0, MAX_SECONDS),
        default=5.0,
        help=f"seconds per player count, more than 0, at most {MAX_SECONDS:g} (5)",
    )
    bp.set_defaults(fn=_bench)
    dp = sub.add_parser(
        "describe",
        help="print the loaded component data as tables (validates it)",
        description="Load and validate the component data (and a data pack on top, if given) and "
        "print it as readable tables with each value's source.",
    )
    dp.add_argument("--game", type=_game, default=None, help="the game (default: the default)")
    dp.add_argument(
        "--data-pack", default=None, help="folder of a data pack to load on top of the defaults"
    )
    dp.set_defaults(fn=_describe)
    args = parser.parse_args(argv)
    check_players(parser, args)
    return run(args)


def run(args: argparse.Namespace) -> int:
    """Run the parsed command ``args.fn(args)``; a broken data file is said in one line (which
    file, entry and field), exit status 2, never a bare traceback."""
    try:
        return int(args.fn(args))
    except DataError as e:
        print(f"data error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
