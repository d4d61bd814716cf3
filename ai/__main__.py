"""``python -m ai tournament [--game brazil|tigris] --games G --players N --agents a,b,…
[--seed S] [--max-rounds R] [--budget SECONDS] [--iterations K]``."""

from __future__ import annotations

import argparse
import sys

from ai import AGENT_NAMES, GAMES, run_tournament
from rules.registry import default_name, registrations


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (got {n})")
    return n


def _positive_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not x > 0:
        raise argparse.ArgumentTypeError(f"must be positive (got {text})")
    return x


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m ai", description="Computer players.")
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help="play games between agents and print statistics")
    t.add_argument(
        "--game", choices=GAMES, default=default_name(), help=f"the game (default {default_name()})"
    )
    t.add_argument("--games", type=_positive_int, default=20)
    t.add_argument("--players", type=int, choices=[1, 2, 3, 4], default=None)
    t.add_argument(
        "--agents",
        required=True,
        help=f"comma-separated line-up, one per seat, from {', '.join(AGENT_NAMES)}",
    )
    t.add_argument("--seed", type=int, default=0)
    t.add_argument(
        "--max-rounds", type=_positive_int, default=60, help="brazil: round limit per game"
    )
    t.add_argument("--budget", type=_positive_float, default=None, help="search: s/decision")
    t.add_argument("--iterations", type=_positive_int, default=None, help="search: fixed rollouts")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    bad = [n for n in names if n not in AGENT_NAMES]
    if bad:
        ap.error(f"unknown agent(s) {', '.join(bad)}: choose from {', '.join(AGENT_NAMES)}")
    players = args.players if args.players is not None else len(names)
    if len(names) != players:
        ap.error(f"--agents names {len(names)} agent(s) but --players is {players}")
    reg = registrations()[args.game]
    if not reg.min_players <= players <= reg.max_players:
        ap.error(f"{reg.title} is for {reg.min_players} to {reg.max_players} players")
    rep = run_tournament(
        names,
        args.games,
        seed=args.seed,
        max_rounds=args.max_rounds,
        budget=args.budget,
        iterations=args.iterations,
        game=args.game,
    )
    print("\n".join(rep.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
