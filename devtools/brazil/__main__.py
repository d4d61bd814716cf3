"""Brazil: Imperial's developer tools: ``python -m devtools.brazil {selfplay,bench,transcript}``.

The fake Discord server, load and kill tests: ``devtools.fakediscord``, ``python -m
devtools.loadtest``; every image kind and the drawing bench: ``python -m devtools.brazil.render``."""

from __future__ import annotations

import argparse
import sys

from rules.cli import OneLineParser, seed


def positive_int(text: str) -> int:
    """argparse type: a whole number of 1 or more."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not {text!r}")
    return value


def _selfplay(args: argparse.Namespace) -> int:
    from devtools.brazil.selfplay import run_selfplay

    counts = [args.players] if args.players else [1, 2, 3, 4]
    ok = True
    for n in counts:
        s = run_selfplay(n, args.games, args.seed, args.max_rounds, check=not args.no_check)
        for f in s.failures[:5]:
            print(f"INVARIANT FAILED: {f}", file=sys.stderr)
        print(f"players={n} {s.line()}")
        ok = ok and not s.failures
    return 0 if ok else 1


def _bench(args: argparse.Namespace) -> int:
    from devtools.brazil.bench import main as bench_main

    return bench_main(args.seed, args.games)


def _transcript(args: argparse.Namespace) -> int:
    from devtools.brazil.transcript import transcript

    sys.stdout.write(transcript(args.players, args.seed, args.steps))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(
        prog="python -m devtools.brazil",
        description="Brazil: Imperial developer tools: random self-play with invariant "
        "checks, the engine's benchmarks, and seeded transcripts.",
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser(
        "selfplay",
        help="play games with uniformly random legal decisions, checking invariants after every step",
        description="Play games with uniformly random legal decisions for N players, checking "
        "invariants after every step (limits, no negative counts, tile/unit/card consistency, "
        "hidden information, JSON round trip). Prints one summary line per player count; exit "
        "status 0 only if every invariant held.",
    )
    sp.add_argument(
        "--players", type=int, choices=[1, 2, 3, 4], help="player count (default: 1 to 4 in turn)"
    )
    sp.add_argument(
        "--games", type=positive_int, default=10, help="games per player count (default 10)"
    )
    sp.add_argument("--seed", type=seed, default=1, help="seed of the first game (default 1)")
    sp.add_argument(
        "--max-rounds",
        type=positive_int,
        default=60,
        help="stop a game after this round (default 60)",
    )
    sp.add_argument(
        "--no-check", action="store_true", help="skip the invariant checks (speed only)"
    )
    sp.set_defaults(fn=_selfplay)
    bp = sub.add_parser(
        "bench",
        help="median times of legal_actions and apply; self-play actions per second",
        description="Benchmark: median time of legal_actions and of apply on early-, mid- and "
        "late-game states, and self-play actions per second (legal-action listing included). "
        "Targets on a 2-core machine: >= 2,000 actions/s, legal_actions median < 2 ms.",
    )
    bp.add_argument("--seed", type=seed, default=7)
    bp.add_argument(
        "--games", type=positive_int, default=20, help="self-play games for the throughput figure"
    )
    bp.set_defaults(fn=_bench)
    tp = sub.add_parser(
        "transcript",
        help="print every action and event of a seeded random game",
        description="Print a readable transcript of a seeded random game: each action (as its "
        "constructor), how many actions were legal, and every event with who may see it. "
        "Golden transcripts in tests/rules/golden/ are made with this command.",
    )
    tp.add_argument("--players", type=int, choices=[1, 2, 3, 4], default=2)
    tp.add_argument("--seed", type=seed, default=7)
    tp.add_argument("--steps", type=positive_int, default=300, help="stop after this many actions")
    tp.set_defaults(fn=_transcript)
    from rules.__main__ import run

    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
