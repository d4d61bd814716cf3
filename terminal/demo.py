"""A whole game between computer players, with its pictures.

    python -m turnpost demo [--players 4] [--seed 7] [--agents heuristic] [--lang LANG]
                       [--web [--web-port N]] OUTDIR

Plays through the game service (saved in ``OUTDIR/demo.sqlite3``), writes each turn's map
(``turn-NNN-map.png``), the battles, the final boards, the score sheet and the timeline
animation (``timeline.gif``); shows a progress bar on stderr and prints the final score table
and the time taken. ``--web`` serves the game's web page from the start (watch it live), and
keeps serving it after the end until Ctrl-C. ``--lang`` chooses the demo's language (default:
the system locale's; an unknown one is refused with the list of supported languages): its
progress line, summaries, score table and refusals are ``terminal.*`` messages in it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import i18n
from service import (
    Frame,
    GameService,
    ImageRequest,
    Refused,
    Result,
    ScoreRow,
    SeatSpec,
    catalog,
)
from service.games import DEFAULT as DEFAULT_GAME
from service.games import seat_label
from service.workers import WorkerError
from terminal.local import (
    BadArguments,
    add_game_argument,
    add_lang_argument,
    add_web_arguments,
    add_workers_argument,
    check_game,
    check_level,
    check_players,
    check_scenario,
    check_web,
    chosen_language,
    fail,
    folder_problem,
    language_of,
    os_error_text,
    start_web,
    worker_pool,
)

if TYPE_CHECKING:
    from storage import SqliteGameStore
    from web.server import WebServer


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("outdir", help="folder for the images (created)")
    add_game_argument(p)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument(
        "--agents", default="heuristic", help="AI level(s), comma-separated, one per seat"
    )
    p.add_argument("--scenario", default=None, help="map id")
    p.add_argument("--max-rounds", type=int, default=100, help="stop an unfinished game here")
    p.add_argument("--no-images", action="store_true", help="only the final images")
    add_lang_argument(p)
    add_web_arguments(p)
    add_workers_argument(p)


def _bar(done: float, width: int = 30) -> str:
    k = int(done * width)
    return "[" + "#" * k + "." * (width - k) + "]"


def demo_seats(
    players: int, agents: str, *, lang: str = i18n.DEFAULT, game: str = DEFAULT_GAME
) -> list[SeatSpec]:
    """One AI seat per player, the ``--agents`` levels in turn; raises :class:`BadArguments`."""
    check_players(players, "--players", lang=lang, game=game)
    typed = [a.strip() for a in agents.split(",") if a.strip()] or ["heuristic"]
    levels = [check_level(level, lang=lang) for level in typed]
    return [SeatSpec.computer(levels[i % len(levels)]) for i in range(players)]


async def run_demo(
    args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Check the arguments (nothing is created before), then play and draw."""
    out = sys.stdout if out is None else out  # the streams of the moment (a test's)
    err = sys.stderr if err is None else err
    from storage import SqliteGameStore

    lang = chosen_language(args)
    game = check_game(getattr(args, "game", None), lang=lang)
    seats = demo_seats(args.players, args.agents, lang=lang, game=game)
    if args.max_rounds < 1:
        raise BadArguments(i18n.tr(lang, "terminal.error.max_rounds", n=args.max_rounds))
    outdir = Path(args.outdir)
    if outdir.exists() and not outdir.is_dir():
        raise BadArguments(i18n.tr(lang, "terminal.error.outdir_file", path=outdir))
    problem = folder_problem(outdir)  # made and written (its database too) before playing
    if problem is not None:
        raise BadArguments(f"OUTDIR {outdir}: {problem}")
    check_web(args, lang=lang)
    db = outdir / "demo.sqlite3"
    workers = worker_pool(args)
    store = SqliteGameStore(str(db))
    svc = GameService(store, workers=workers)
    check_scenario(args.scenario, lang=lang, game=game)
    # a map for another player count, ...: refused before OUTDIR is made
    catalog.build_game(len(seats), args.scenario, args.seed, game=game)
    server = await start_web(svc, args, lang=lang)  # bound before anything is created
    try:
        return await _play(
            args, outdir, store, svc, seats, server, out=out, err=err, lang=lang, game=game
        )
    finally:
        if server is not None:
            await server.stop()


async def _play(
    args: argparse.Namespace,
    outdir: Path,
    store: SqliteGameStore,
    svc: GameService,
    seats: list[SeatSpec],
    server: WebServer | None,
    *,
    out: TextIO,
    err: TextIO,
    lang: str = "en",
    game: str = DEFAULT_GAME,
) -> int:
    """Play the demo's game and write its pictures (see :func:`run_demo`); with the page
    ``server``, say its address once the game exists and keep serving after the end.
    ``lang``: the demo's language: the game's (its posts and pictures) and of every text it
    prints."""
    L = i18n.translator(lang)

    def own(key: str) -> str:
        """The game's own words for a counter where it has them (``<key>.<game>``: a round
        and a turn are not the same things in every game)."""
        return f"{key}.{game}" if L.has(f"{key}.{game}") else key

    db = outdir / "demo.sqlite3"
    outdir.mkdir(parents=True, exist_ok=True)
    if db.exists():
        db.unlink()
    t0 = time.perf_counter()
    turn = 0
    missing: list[str] = []  # pictures that could not be drawn
    async with store, svc.workers:
        res = await svc.new_game(
            seats, scenario=args.scenario, seed=args.seed, language=lang, game=game
        )
        gid = res.game_id
        page = await server.page_url(gid) if server is not None else None
        if page is not None:
            print(L("terminal.page", url=page), file=out, flush=True)

        async def step(r: Result) -> None:
            nonlocal turn
            frame = r.frames[r.version]  # at a turn's end: the whole turn's events
            reqs = [q for p in r.public() for q in p.images]
            maps = [q for q in reqs if q.kind == "map"]
            if maps:
                turn += 1
                if not args.no_images:
                    await _write(svc, outdir / f"turn-{turn:03d}-map.png", maps[0], frame, missing)
            for q in reqs:
                if q.kind == "battle" and not args.no_images:
                    await _write(svc, outdir / f"turn-{turn:03d}-battle.png", q, frame, missing)
            st = frame.state
            rnd = svc.round_of(st)
            if rnd == 0:
                where = L("terminal.demo.setup")
            else:
                where = L(own("terminal.demo.round"), round=f"{rnd:>2}")
            done = svc.progress(st)
            line = L(
                own("terminal.demo.progress"),
                where=where,
                turn=f"{turn:>3}",
                step=f"{r.version:>4}",
            )
            print(f"\r{_bar(done)} {line}", end="", file=err)

        cap = args.max_rounds

        res = await svc.run_ai_turns(gid, on_step=step, until=lambda s: svc.round_of(s) > cap)
        print(file=err)
        g = await svc.peek(gid)
        st, v = g.state, g.version
        final = g.frame()
        await _write(
            svc,
            outdir / "final-boards.png",
            ImageRequest("boards", None, v, lang=lang, game=game),
            final,
            missing,
        )
        if g.over:
            await _write(
                svc,
                outdir / "scores.png",
                ImageRequest("scores", None, v, lang=lang, game=game),
                final,
                missing,
            )
        final_map = ImageRequest("map", None, v, lang=lang, game=game)
        await _write(svc, outdir / "final-map.png", final_map, final, missing)
        try:
            gif = await svc.reading.timeline_image(gid, lang)
        except WorkerError:
            missing.append("timeline.gif")
            gif = None
        if gif is not None:
            (outdir / "timeline.gif").write_bytes(gif)
        # the players named in the demo's language (scores() names them in English)
        rows = [
            replace(r, who=seat_label(st, g.seats, r.seat, lang))
            for r in await svc.reading.scores(gid)
        ]
        took = time.perf_counter() - t0
        if g.over:
            print(L("terminal.demo.over", rounds=svc.round_of(st), turns=turn, steps=v), file=out)
        else:
            print(L("terminal.demo.stopped", turns=turn, steps=v), file=out)
        print("\n".join(score_table(rows, lang)), file=out)
        pngs = len(list(outdir.glob("*.png")))
        key = "terminal.demo.images" if gif is not None else "terminal.demo.images_only"
        print(L(key, folder=outdir.resolve(), pngs=pngs), file=out)
        print(L("terminal.demo.time", seconds=L.number(round(took, 1))), file=out)
        if missing:
            print(
                L("terminal.demo.missing", n=len(missing), names=", ".join(missing[:5])), file=err
            )
        if page is not None:
            command = f"python -m turnpost export-html {gid} {outdir / 'page'} --db {db}"
            print(L("terminal.demo.copy", command=command), file=out)
            print(L("terminal.demo.stays_up", url=page), file=out, flush=True)
            await serve_until_interrupted()
    return 1 if missing else 0


def score_table(rows: list[ScoreRow], lang: str = i18n.DEFAULT) -> list[str]:
    """The score table's lines in ``lang``: a heading (player, total, each category of the
    final score sheet) and a row per player, best first, the winners marked."""
    L = i18n.translator(lang)
    cats = sorted({c for r in rows for c in r.categories})
    heads = [
        L(f"terminal.score.category.{c}") if L.has(f"terminal.score.category.{c}") else c
        for c in cats
    ]
    widths = [max(9, len(h)) for h in heads]
    total = L("terminal.demo.total")
    tw = max(5, len(total))
    player = L("terminal.demo.player")
    nw = max(28, len(player))
    cells = " ".join(f"{h:>{w}}" for h, w in zip(heads, widths, strict=True))
    lines = [f"{player:{nw}} {total:>{tw}} " + cells]
    winner = L("terminal.demo.winner")
    for r in sorted(rows, key=lambda r: -r.total):
        cells = " ".join(
            f"{r.categories.get(c, 0):>{w}}" for c, w in zip(cats, widths, strict=True)
        )
        line = f"{r.who[:nw]:{nw}} {r.total:>{tw}} " + cells
        lines.append(line + (f"  {winner}" if r.winner else ""))
    return lines


async def serve_until_interrupted() -> None:
    """Wait until Ctrl-C (``asyncio.run`` cancels the main task): the end of the command, not
    a failure, so the cancellation ends here and the command exits 0."""
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.Event().wait()


async def _write(
    svc: GameService, path: Path, req: ImageRequest, frame: Frame, missing: list[str]
) -> None:
    """Draw ``req`` in the service's worker processes and write it (its name goes to
    ``missing`` instead when it could not be drawn: the demo goes on)."""
    try:
        data = await svc.render(req, frame)
    except WorkerError:
        missing.append(path.name)
        return
    if data is not None:
        path.write_bytes(data)


def main(args: argparse.Namespace) -> int:
    from storage import StorageError

    lang = language_of(args)
    try:
        return asyncio.run(run_demo(args))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BadArguments as e:
        return fail(e, lang=lang)
    except Refused as e:  # the engine cannot set the game up: why, in the language
        return fail(e.text(lang), lang=lang)
    except StorageError as e:
        return fail(e.text(lang), 1, lang=lang)
    except OSError as e:  # OUTDIR cannot be made or written
        return fail(os_error_text(e), lang=lang)
