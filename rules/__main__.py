"""Command-line tool of the rules engine: ``python -m rules describe`` (self-play, benchmarks and
transcripts are developer tools: ``python -m devtools``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _describe(args: argparse.Namespace) -> int:
    from rules.describe import describe

    print(describe(Path(args.data_pack) if args.data_pack else None))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Brazil: Imperial rules engine: a readable dump of the component data "
        "(validated). Self-play, benchmarks, transcripts: python -m devtools.",
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    dp = sub.add_parser(
        "describe",
        help="print the loaded component data as tables (validates it)",
        description="Load and validate the component data (and a data pack on top, if given) and "
        "print it as readable tables with each value's source.",
    )
    dp.add_argument(
        "--data-pack", default=None, help="folder of a data pack to load on top of the defaults"
    )
    dp.set_defaults(fn=_describe)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """Run the parsed command ``args.fn(args)``; a broken data file is said in one line (which
    file, entry and field), exit status 2, never a bare traceback."""
    try:
        return int(args.fn(args))
    except Exception as e:
        from rules.catalog import DataError

        if isinstance(e, DataError):
            print(f"data error: {e}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
