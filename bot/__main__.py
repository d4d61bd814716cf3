"""``python -m bot COMMAND``: ``local`` (play in the terminal), ``demo`` (an all-AI game with
its pictures), ``export-html`` (a game's web page as static files), ``run`` (the Discord bot).
``python -m bot --check-config`` checks the bot's settings offline."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bot",
        description="Brazil: Imperial. local: play in the terminal (hot-seat and computer "
        "players, no Discord); demo: an all-AI game with its pictures; export-html: a game's "
        "web page as static files; run: the Discord bot. "
        "--check-config checks the bot's settings offline.",
        epilog="Without a command, scripts/run.sh starts 'local'. Each command has its own --help.",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    from terminal import demo, export, local

    lp = sub.add_parser("local", help="play in the terminal: hot-seat and AI seats, no Discord")
    local.add_arguments(lp)
    dp = sub.add_parser("demo", help="an all-AI game: each turn's map, boards, scores, timeline")
    demo.add_arguments(dp)
    ep = sub.add_parser("export-html", help="a game's web page as static files, to keep or host")
    export.add_arguments(ep)
    p.add_argument("--check-config", action="store_true", help="check the bot's settings")
    p.add_argument("--config", default=None, metavar="FILE", help="the bot's TOML settings")
    rp = sub.add_parser("run", help="run the Discord bot (DISCORD_TOKEN from env or .env)")
    rp.add_argument("--config", default=None, metavar="FILE", help="a TOML settings file")
    rp.add_argument("--check-config", action="store_true", help="check settings, do not run")
    args = p.parse_args(argv)
    if args.command == "run" or args.check_config:
        from bot import app

        return app.main(args.config, check_only=args.check_config)
    if args.command == "local":
        return local.main(args)
    if args.command == "demo":
        return demo.main(args)
    if args.command == "export-html":
        return export.main(args)
    p.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
