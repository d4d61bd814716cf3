"""``python -m ai tournament [--game GAME] --games G --players N --agents a,b,…
[--seed S] [--max-rounds R] [--budget SECONDS] [--iterations K] [--workers N] [--paired]``."""

from __future__ import annotations

import argparse
import sys

from ai import AGENT_NAMES, GAMES, run_tournament
from ai.report import check_entries
from rules.cli import OneLineParser, real_number, seed, whole_number
from rules.registry import default_name, registrations

MAX_GAMES = 100_000
MAX_ROUNDS = 1000
MAX_BUDGET = 3600.0
"""The most seconds a search player may think per decision."""
MAX_ITERATIONS = 10_000_000


def parser() -> argparse.ArgumentParser:
    ap = OneLineParser(prog="python -m ai", description="Computer players.")
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help="play games between agents and print statistics")
    t.add_argument(
        "--game", choices=GAMES, default=default_name(), help=f"the game (default {default_name()})"
    )
    t.add_argument("--games", type=whole_number(1, MAX_GAMES), default=20)
    t.add_argument("--players", type=whole_number(1, 99), default=None)
    t.add_argument(
        "--agents",
        required=True,
        help=f"comma-separated line-up, one per seat, from {', '.join(AGENT_NAMES)} "
        "(search@F: the search at F times its effort)",
    )
    t.add_argument("--seed", type=seed, default=0)
    t.add_argument(
        "--max-rounds",
        type=whole_number(1, MAX_ROUNDS),
        default=60,
        help="a round limit per game (where a game has rounds without a natural end)",
    )
    t.add_argument(
        "--budget",
        type=real_number(0.0, MAX_BUDGET),
        default=None,
        help=f"search: seconds per decision (more than 0, at most {MAX_BUDGET:g})",
    )
    t.add_argument(
        "--iterations",
        type=whole_number(1, MAX_ITERATIONS),
        default=None,
        help="search: fixed rollouts",
    )
    t.add_argument(
        "--workers",
        type=whole_number(1, 256),
        default=1,
        help="processes the games are spread over (the figures do not depend on it)",
    )
    t.add_argument(
        "--paired",
        action="store_true",
        help="paired seeds: each deal played once per seat rotation (--games a multiple of "
        "--players)",
    )
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    try:
        check_entries(names, AGENT_NAMES)
    except ValueError as e:
        ap.error(str(e))
    players = args.players if args.players is not None else len(names)
    if len(names) != players:
        ap.error(f"--agents names {len(names)} agent(s) but --players is {players}")
    reg = registrations()[args.game]
    if not reg.min_players <= players <= reg.max_players:
        ap.error(f"{reg.title} is for {reg.min_players} to {reg.max_players} players")
    if args.paired and args.games % players:
        ap.error(f"--paired needs --games to be a multiple of --players ({players})")
    rep = run_tournament(
        names,
        args.games,
        seed=args.seed,
        max_rounds=args.max_rounds,
        budget=args.budget,
        iterations=args.iterations,
        game=args.game,
        workers=args.workers,
        paired=args.paired,
    )
    print("\n".join(rep.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
