"""A game's web page as a folder of static files, to keep or to host anywhere.

    python -m bot export-html GAME OUTDIR [--db PATH]

Reads the game from the database (the same default as ``local``: ``$BRAZIL_DB`` or
``./brazil.sqlite3``) and writes its page (:func:`web.export.export_html`): ``index.html``
(open it from disk), ``page.js``, ``page.css`` and the map of every step in ``map/``. Only
public things, as on the live page. A missing database, an unknown game or an OUTDIR that is
a file are refused in one line (exit 2), before anything is written.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import TextIO

from service import GameService, ServiceError
from terminal.local import BadArguments, check_db, default_db, fail, os_error_text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", type=int, metavar="GAME", help="the game's number")
    p.add_argument("outdir", metavar="OUTDIR", help="the folder to write the page into (created)")
    p.add_argument(
        "--db", default=None, help="SQLite file (default $BRAZIL_DB or ./brazil.sqlite3)"
    )


async def export(
    args: argparse.Namespace, *, out: TextIO = sys.stdout, err: TextIO = sys.stderr
) -> int:
    """Check the arguments, then write the page; prints where ``index.html`` is."""
    from storage import GameNotFound, GameStatus
    from storage.location import open_store, parse_location
    from web.export import export_html

    db = args.db or default_db()
    label = "--db" if args.db else "BRAZIL_DB" if "BRAZIL_DB" in os.environ else "--db"
    check_db(db, resume=None, label=label)
    sqlite = parse_location(db)
    if sqlite.kind == "sqlite" and not Path(sqlite.target).exists():
        raise BadArguments(f"no game #{args.game} to export: there is no database {db} ({label})")
    outdir = Path(args.outdir)
    if outdir.exists() and not outdir.is_dir():
        raise BadArguments(f"OUTDIR {outdir} is a file: give a folder (it is created)")
    store = open_store(db, create=False)
    svc = GameService(store)
    async with store:
        try:
            rec = await store.get_game(args.game)
        except GameNotFound:
            ids = [str(g.id) for g in await store.list_games(limit=10)]
            saved = f"saved games: {', '.join(ids)}" if ids else "it holds no saved game"
            raise BadArguments(f"no game #{args.game} in {db} ({saved})") from None
        if rec.status is GameStatus.LOBBY:
            raise BadArguments(f"game #{args.game} is still a lobby: it has no page yet")

        def progress(done: int, total: int) -> None:
            print(f"\rdrawing the maps: {done}/{total}", end="", file=err, flush=True)

        shown = err.isatty()
        index = await export_html(svc, args.game, outdir, progress=progress if shown else None)
        if shown:
            print(file=err)
    print(f"Game #{args.game}'s page: {index.resolve()}", file=out)
    return 0


def main(args: argparse.Namespace) -> int:
    from storage import NotAGameDatabase, StorageError

    try:
        return asyncio.run(export(args))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except (BadArguments, ServiceError) as e:
        return fail(e)
    except StorageError as e:  # --db names a file that is not one of our databases, ...
        hint = " (choose another file with --db)" if isinstance(e, NotAGameDatabase) else ""
        return fail(f"{e}{hint}")
    except OSError as e:  # OUTDIR cannot be made or written
        return fail(os_error_text(e), 1)
