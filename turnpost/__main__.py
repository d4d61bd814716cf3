"""The front door of every surface, ``python -m turnpost COMMAND`` (the console script
``turnpost``): ``local`` (play in the terminal), ``demo`` (an all-AI game with its pictures),
``export-html`` (a game's web page as static files), ``run`` (the Discord bot),
``invite-url`` (the URL that adds the bot to a server, offline).
``python -m turnpost --check-config`` checks the bot's settings offline."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m turnpost",
        description="Slow board games by chat. local: play in the terminal (hot-seat and computer "
        "players, no Discord); demo: an all-AI game with its pictures; export-html: a game's "
        "web page as static files; run: the Discord bot; invite-url: the URL that adds it to a "
        "server. "
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
    ip = sub.add_parser(
        "invite-url",
        help="print the URL that adds the bot to a server (its scopes and permissions; offline)",
    )
    ip.add_argument(
        "--client-id",
        type=int,
        default=None,
        metavar="ID",
        help="the application's id (default: read from DISCORD_TOKEN)",
    )
    ip.add_argument("--config", default=None, metavar="FILE", help="a TOML settings file")
    args = p.parse_args(argv)
    if args.check_config:
        from bot import app

        return app.main(args.config, check_only=True)
    if args.command == "run":
        return run(args.config)
    if args.command == "invite-url":
        return invite_url(args.client_id, args.config)
    if args.command == "local":
        return local.main(args)
    if args.command == "demo":
        return demo.main(args)
    if args.command == "export-html":
        return export.main(args)
    p.print_help()
    return 2


def run(config: str | None) -> int:
    """``python -m turnpost run``: the bot (:func:`bot.app.main`). Its SQLite database must be
    writable (file and folder: one line, exit 2, before anything is made); one it creates is
    removed again when the bot stops before any game was saved in it (Discord out of reach,
    the token refused): a refused start leaves nothing behind."""
    from bot import app
    from terminal.local import BadArguments, check_db

    db = _sqlite_path(config)
    new = _new_database(db)
    if db is not None:
        try:
            check_db(str(db), resume=None, label="TURNPOST_DB", write=True)
        except BadArguments as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    code = app.main(config)
    if code != 0 and new is not None:
        _remove_if_unused(new)
    return code


def invite_url(client_id: int | None, config: str | None) -> int:
    """``python -m turnpost invite-url``: the bot's invite URL (scopes ``bot`` and
    ``applications.commands``, the permissions of :data:`bot.permissions.REQUIRED`), without
    the network. The application's id: ``--client-id``, else the settings' application id
    when they have one, else the one the token names."""
    from bot.permissions import NoClientId
    from bot.permissions import invite_url as url

    if client_id is None:
        try:
            client_id = _settings_client_id(config)
        except NoClientId as e:
            print(
                f"error: cannot tell the application's id ({e}): give --client-id "
                "(the developer portal's General Information → Application ID)",
                file=sys.stderr,
            )
            return 2
    if client_id <= 0:
        print("error: --client-id must be a positive number", file=sys.stderr)
        return 2
    print(url(client_id))
    return 0


def _settings_client_id(config: str | None) -> int:
    """The application's id from the bot's settings: an ``application_id`` setting if there
    is one, else the id DISCORD_TOKEN names (:class:`bot.permissions.NoClientId` if none)."""
    from pydantic import ValidationError

    from bot.permissions import NoClientId, client_id_of_token
    from bot.settings import explain, load_settings

    try:
        settings = load_settings(config)
    except ValidationError as e:
        raise NoClientId(f"the settings: {explain(e)}") from None
    except (ValueError, OSError) as e:
        raise NoClientId(f"the settings: {e}") from None
    app_id = getattr(settings, "application_id", None)
    if isinstance(app_id, int) and app_id > 0:
        return app_id
    if settings.discord_token is None:
        raise NoClientId("DISCORD_TOKEN is not set")
    return client_id_of_token(settings.discord_token.get_secret_value())


def _sqlite_path(config: str | None) -> Path | None:
    """The bot's SQLite file (``TURNPOST_DB``), None for PostgreSQL or settings that do not load
    (:func:`bot.app.main` says why)."""
    from bot.settings import load_settings
    from storage.location import parse_location

    try:
        where = parse_location(load_settings(config).db)
    except Exception:  # the settings or the location are refused by app.main, in one line
        return None
    return Path(where.target) if where.kind == "sqlite" else None


def _new_database(db: Path | None) -> list[Path] | None:
    """The files a new SQLite database ``db`` is made of (the file, its -wal and -shm) when
    none of them exists yet, else None."""
    if db is None:
        return None
    files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
    return None if any(f.exists() or f.is_symlink() for f in files) else files


def _remove_if_unused(files: list[Path]) -> None:
    """Remove a database this run made when no game was saved in it."""
    db = files[0]
    if not db.is_file():
        return
    try:
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as c:
            tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master")}
            games = (
                c.execute("SELECT count(*) FROM games").fetchone()[0] if "games" in tables else 0
            )
        c.close()
    except sqlite3.Error:
        return  # not what this run made: left alone
    if games == 0:
        for f in files:
            f.unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
