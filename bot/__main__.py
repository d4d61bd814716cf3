"""``python -m bot COMMAND``: ``local`` (play in the terminal), ``demo`` (an all-AI game with
its pictures). The Discord bot will be ``python -m bot run`` (and the default)."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    from bot import demo, local

    lp = sub.add_parser("local", help="play in the terminal: hot-seat and AI seats, no Discord")
    local.add_arguments(lp)
    dp = sub.add_parser("demo", help="an all-AI game: each turn's map, boards, scores, timeline")
    demo.add_arguments(dp)
    args = p.parse_args(argv)
    if args.command == "local":
        return local.main(args)
    if args.command == "demo":
        return demo.main(args)
    p.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
