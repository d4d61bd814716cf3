"""``python -m rules.tigris selfplay --games N --players P [--seed S] [--no-check]`` and
``python -m rules.tigris bench [--seconds T] [--players P]``."""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    from rules.tigris.selfplay import bench, play_game

    parser = argparse.ArgumentParser(prog="python -m rules.tigris")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("selfplay", help="random self-play with invariant checks")
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--players", type=int, default=0, help="2, 3 or 4 (0: each in turn)")
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--no-check", action="store_true")
    bp = sub.add_parser("bench", help="actions per second of random self-play")
    bp.add_argument("--seconds", type=float, default=5.0)
    bp.add_argument("--players", type=int, default=3)
    args = parser.parse_args(argv)
    if args.cmd == "bench":
        n, rate = bench(args.seconds, args.players)
        print(f"{n} actions, {rate:,.0f} actions/s ({args.players} players, random self-play)")
        return 0
    t = time.perf_counter()
    natural = steps = 0
    reasons: dict[str, int] = {}
    for i in range(args.games):
        p = args.players or 2 + i % 3
        r = play_game(p, args.seed + i, check=not args.no_check)
        natural += r.natural_end
        steps += r.steps
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
    el = time.perf_counter() - t
    print(
        f"{args.games} games, {steps} steps, 0 failures, natural end {natural}/{args.games} "
        f"({', '.join(f'{k}: {v}' for k, v in sorted(reasons.items()))}), {el:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
