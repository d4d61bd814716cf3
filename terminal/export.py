"""A game's web page as a folder of static files, to keep or to host anywhere.

    python -m turnpost export-html GAME OUTDIR [--db PATH] [--lang LANG]

Reads the game from the database (the same default as ``local``: ``$TURNPOST_DB`` or
``./turnpost.sqlite3``) and writes its page (:func:`web.export.export_html`): ``index.html``
(open it from disk), ``page.js``, ``page.css`` and the map of every step in ``map/``. Only
public things, as on the live page. A missing database, an unknown game or an OUTDIR that is
a file are refused in one line (exit 2), before anything is written. ``--lang`` is the
language of the page (default: the game's stored language) and of what the command prints
(``terminal.*`` messages; without ``--lang``: the system locale's language).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TextIO

import i18n
from service import GameService, Refused
from storage.environ import env
from terminal.local import (
    BadArguments,
    check_db,
    chosen_language,
    default_db,
    fail,
    folder_problem,
    language,
    language_of,
    no_game_text,
    os_error_text,
    store_error_text,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", type=int, metavar="GAME", help="the game's number")
    p.add_argument("outdir", metavar="OUTDIR", help="the folder to write the page into (created)")
    p.add_argument(
        "--db", default=None, help="SQLite file (default $TURNPOST_DB or ./turnpost.sqlite3)"
    )
    p.add_argument(
        "--lang",
        type=language,
        default=None,
        metavar="LANG",
        help=f"the page's language: {', '.join(i18n.supported())} (default: the game's); "
        "what the command prints too (default: the system locale's)",
    )


async def export(
    args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Check the arguments, then write the page; prints where ``index.html`` is."""
    out = sys.stdout if out is None else out  # the streams of the moment (a test's)
    err = sys.stderr if err is None else err
    from storage import GameNotFound, GameStatus
    from storage.location import open_readable, parse_location
    from web.export import export_html

    lang = chosen_language(args)  # what the command prints (the system's without --lang)
    page_lang: str | None = lang if args.lang else None  # None: the game's language
    L = i18n.translator(lang)
    db = args.db or default_db()
    label = "--db" if args.db else "TURNPOST_DB" if env("DB") is not None else "--db"
    check_db(db, resume=None, label=label, lang=lang)
    sqlite = parse_location(db)
    if sqlite.kind == "sqlite" and not Path(sqlite.target).exists():
        raise BadArguments(L("terminal.error.export_no_db", game=args.game, db=db, label=label))
    outdir = Path(args.outdir)
    if outdir.exists() and not outdir.is_dir():
        raise BadArguments(L("terminal.error.outdir_file", path=outdir))
    problem = folder_problem(outdir)  # made and written before the page is drawn
    if problem is not None:
        raise BadArguments(f"OUTDIR {outdir}: {problem}")
    # export only reads: a database this user may not write is read in a copy
    async with open_readable(db) as (store, _copied):
        svc = GameService(store)
        try:
            rec = await store.get_game(args.game)
        except GameNotFound:
            raise BadArguments(
                await no_game_text(store, args.game, db, "terminal.error.no_game", lang)
            ) from None
        if rec.status is GameStatus.LOBBY:
            raise BadArguments(L("terminal.error.lobby", game=args.game))

        def progress(done: int, total: int) -> None:
            text = L("terminal.export.drawing", done=done, total=total)
            print(f"\r{text}", end="", file=err, flush=True)

        shown = err.isatty()
        index = await export_html(
            svc, args.game, outdir, progress=progress if shown else None, lang=page_lang
        )
        if shown:
            print(file=err)
    print(L("terminal.export.page", game=args.game, path=index.resolve()), file=out)
    return 0


def main(args: argparse.Namespace) -> int:
    from storage import StorageError

    lang = language_of(args)
    try:
        return asyncio.run(export(args))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BadArguments as e:
        return fail(e, lang=lang)
    except Refused as e:  # the engine cannot set the game up: why, in the language
        return fail(e.text(lang), lang=lang)
    except StorageError as e:  # --db names a file that is not one of our databases, ...
        return fail(store_error_text(e, lang), lang=lang)
    except OSError as e:  # OUTDIR cannot be made or written
        return fail(os_error_text(e), 1, lang=lang)
