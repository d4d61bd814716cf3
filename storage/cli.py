"""Command line of the storage layer: ``python -m storage --help``.

Exit codes: 0 success; 1 a real problem was found in the database (``check`` found an
integrity or replay mismatch, or the file is corrupt: ``backup`` then writes nothing); 2 the
command could not run (bad arguments, no database, not a game database, schema too new,
invalid export, channel busy, output file exists...). A replay skipped because the rules engine
is not importable is *not* a problem: ``check`` says so clearly and still exits 0 if the
integrity check passed; neither is a game recorded under an older engine that no longer
replays (its line says so).

No command ever damages a file: outputs are written to a new temporary name and renamed into
place once complete (and, for backups, verified); a file that is not a game database is only
ever opened read-only.

``--db`` (default ``$TURNPOST_DB``, else ``./turnpost.sqlite3``) is an SQLite file or a
``postgresql://`` URL (:func:`storage.open_store`): every command but ``bench`` works on
both. ``copy SRC DEST`` moves every game from one to the other (:mod:`storage.copy`).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from storage.base import GameRecords
from storage.bench import RESTORE_STEPS_BACK, RestoreGame, run_bench, synthetic_late_game_state
from storage.check import check_store
from storage.copy import BackupSource, CopyRefused, CopySource, copy_store
from storage.dump import BACKUP_FORMAT, BackupFile
from storage.environ import env
from storage.errors import DatabaseCorrupt, ReplayerUnavailable, StorageError
from storage.export import dump_export, load_export
from storage.location import Location, open_readable, open_store, parse_location
from storage.migrations import LATEST
from storage.models import DEFAULT_GAME
from storage.replay import DEFAULT_REPLAYER, Replayer, default_replayer, load_replayer

__all__ = ["amain", "default_db_path", "main"]

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_ERROR = 2


def default_db_path() -> str:
    """``$TURNPOST_DB`` if set, else ``./turnpost.sqlite3``."""
    return env("DB") or "turnpost.sqlite3"


def _count(text: str) -> int:
    """argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    db_help = (
        "the database: an SQLite file or a postgresql://user:password@host/database URL "
        "(default: $TURNPOST_DB or ./turnpost.sqlite3)"
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar="PATH|URL", default=argparse.SUPPRESS, help=db_help)

    parser = argparse.ArgumentParser(
        prog="python -m storage",
        description="Maintenance tools for the bot's game database "
        f"(SQLite or PostgreSQL, schema version {LATEST}).",
        epilog="Exit codes: 0 success, 1 problems found (check) or the database is corrupt, "
        "2 the command could not run.",
    )
    parser.add_argument("--db", metavar="PATH|URL", default=None, help=db_help)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    backup = sub.add_parser(
        "backup",
        parents=[common],
        help="copy the live database to PATH (online backup API)",
        description="Write a consistent copy of the database to PATH, safely while the bot is "
        "running. SQLite: the online backup API, a single self-contained SQLite file. "
        "PostgreSQL: a dump file of every game (JSON Lines, read in one snapshot); load it "
        "into an empty database with 'copy PATH URL'.",
    )
    backup.add_argument("path", metavar="PATH", help="where to write the backup")
    backup.add_argument("--force", action="store_true", help="overwrite PATH if it exists")

    check = sub.add_parser(
        "check",
        parents=[common],
        help="integrity check + replay of every game's log",
        description="Run SQLite's integrity check and the log checks, then replay every "
        "game's log from its initial state with the rules engine and compare each step with "
        "the recorded state hashes and the final result with the stored state. Prints one "
        "line per game (OK or what differs). If the rules engine (each game's replay_step) is not "
        "importable, the replay is skipped with a clear message and only the integrity check "
        "counts. Exit code 1 if anything is wrong.",
    )
    replay_group = check.add_mutually_exclusive_group()
    replay_group.add_argument(
        "--replayer",
        metavar="MODULE:FUNC",
        default=None,
        help=f"replay with this function instead of {DEFAULT_REPLAYER}",
    )
    replay_group.add_argument("--no-replay", action="store_true", help="integrity check only")

    bench = sub.add_parser(
        "bench",
        help="time saves and loads on a temporary database",
        description="Benchmark on a temporary database (the --db file is not touched): median "
        "and p95 save/load time of a late-game 4-player state, the time to restore a version "
        f"{RESTORE_STEPS_BACK} steps back (nearest snapshot + replay, as undo and rollback "
        "do), then the throughput of saves with the database filled to --games games.",
    )
    bench.add_argument(
        "--state-file",
        metavar="PATH",
        type=Path,
        default=None,
        help="a state JSON to save (default: a late-game 4-player state from seeded rules "
        "self-play, or a synthetic one if the rules engine is not importable)",
    )
    bench.add_argument(
        "--synthetic",
        action="store_true",
        help="use the synthetic late-game state instead of one from the rules engine",
    )
    bench.add_argument("--games", type=_count, default=1000, help="games in the database (1000)")
    bench.add_argument("--saves", type=_count, default=300, help="timed saves of one game (300)")
    bench.add_argument("--loads", type=_count, default=300, help="timed loads (300)")
    bench.add_argument(
        "--restores", type=_count, default=32, help="timed restores of an old version (32)"
    )
    bench.add_argument(
        "--throughput-saves",
        type=_count,
        default=2000,
        help="saves spread over all games for the throughput figure (2000)",
    )
    bench.add_argument(
        "--synchronous",
        choices=["NORMAL", "FULL"],
        default="NORMAL",
        help="SQLite synchronous setting (NORMAL, as the bot uses)",
    )

    export = sub.add_parser(
        "export",
        parents=[common],
        help="write one game (state, log, settings) to a JSON file",
        description="Export one game as a single JSON file: settings, seats and scores, status, "
        "current state and the full action log including the initial state.",
    )
    export.add_argument(
        "game",
        metavar="GAME_ID_OR_CHANNEL",
        help="a game id or a channel id (its active game, else its latest); "
        "write game:N or channel:N when a number could be both",
    )
    export.add_argument("path", metavar="PATH", help="output file ('-' for standard output)")
    export.add_argument("--force", action="store_true", help="overwrite PATH if it exists")

    copy = sub.add_parser(
        "copy",
        help="copy every game from one database to another (SQLite <-> PostgreSQL)",
        description="Copy every game (log, seats, settings, state, news, pacing rows, web "
        "page token; each under its own id) and every player's preferences from SRC to DEST, "
        "each game in one transaction, verified by reading it back (every log entry's state "
        "hash and the state's hash equal on both sides). SRC and DEST are SQLite files or "
        "postgresql:// URLs; SRC may also be a PostgreSQL backup file. Run it again after an "
        "interruption: games already copied are skipped. Stop the bot first.",
    )
    copy.add_argument("source", metavar="SRC", help="the database to copy from (or a backup file)")
    copy.add_argument("dest", metavar="DEST", help="the database to copy into (created if new)")
    copy.add_argument(
        "--force",
        action="store_true",
        help="copy into a destination that already holds other games (none is overwritten)",
    )

    imp = sub.add_parser(
        "import",
        parents=[common],
        help="add a game from an export file",
        description="Import a game exported with 'export' (gets a new game id). Refuses if the "
        "game is active and its channel already has an active game: give --channel.",
    )
    imp.add_argument("path", metavar="PATH", help="the export file ('-' for standard input)")
    imp.add_argument("--channel", type=int, default=None, help="put the game in this channel")
    imp.add_argument("--guild", type=int, default=None, help="put the game in this guild")
    imp.add_argument(
        "--replayer",
        metavar="MODULE:FUNC",
        default=None,
        help="also replay the log with this function before importing",
    )
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code."""
    return asyncio.run(amain(argv, out=out))


async def amain(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """:func:`main` for callers already inside an event loop."""
    stream = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        if args.command == "copy":
            return await _copy(args.source, args.dest, args.force, stream)
        db = parse_location(args.db or default_db_path())
        return await _run(args, db, stream)
    except CopyRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except DatabaseCorrupt as exc:
        print(f"problem: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    except sqlite3.DatabaseError as exc:
        print(
            f"problem: {args.db or default_db_path()}: the database is corrupt ({exc})",
            file=sys.stderr,
        )
        return EXIT_PROBLEMS
    except (StorageError, OSError, sqlite3.Error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR


async def _run(args: argparse.Namespace, db: Location, out: TextIO) -> int:
    command: str = args.command
    if command == "bench":
        return await _bench(args, out)
    if command == "backup":
        return await _backup(db, Path(args.path), args.force, out)
    if command == "check":
        return await _check(db, args, out)
    if command == "export":
        return await _export(db, args.game, args.path, args.force, out)
    if command == "import":
        return await _import(db, args, out)
    raise AssertionError(command)


async def _backup(db: Location, target: Path, force: bool, out: TextIO) -> int:
    if target.exists() and not force:
        print(f"error: {target} exists (use --force to overwrite)", file=sys.stderr)
        return EXIT_ERROR
    if db.kind == "sqlite" and target.resolve() == Path(db.target).resolve():
        print("error: the backup cannot overwrite the database itself", file=sys.stderr)
        return EXIT_ERROR
    async with open_readable(db.target) as (store, _copied):  # a read-only one: in a copy
        await store.backup(target)  # verified before it replaces anything (DatabaseCorrupt)
    if db.kind == "postgres":
        written = BackupFile(target)
        print(
            f"backed up {len(written.game_ids())} game(s) to {target} ({target.stat().st_size:,} "
            f"bytes, a dump file; load it with: python -m storage copy {target} URL)",
            file=out,
        )
        return EXIT_OK
    with sqlite3.connect(f"file:{target}?mode=ro", uri=True) as copy:
        status = copy.execute("PRAGMA quick_check").fetchone()[0]
        games = copy.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    copy.close()
    print(
        f"backed up {games} game(s) to {target} ({target.stat().st_size:,} bytes, "
        f"quick_check: {status})",
        file=out,
    )
    return EXIT_OK if status == "ok" else EXIT_PROBLEMS


def _by_game(default: Replayer) -> Callable[[str], Replayer]:
    """Each record's replayer by its game: ``default`` for the default game, the rules
    registry's engine of the record's game for another (:func:`default_replayer`)."""

    def pick(game: str) -> Replayer:
        return default if game == DEFAULT_GAME else default_replayer(game)

    return pick


async def _check(db: Location, args: argparse.Namespace, out: TextIO) -> int:
    replayer: Replayer | None = None
    replayer_for: Callable[[str], Replayer] | None = None
    skipped: str | None = None
    if args.no_replay:
        skipped = "--no-replay given"
    elif args.replayer is not None:
        replayer = load_replayer(args.replayer)  # an explicit replayer must load (exit 2)
    else:
        try:
            # each game is replayed by its record's game's engine (default_replayer(game))
            replayer = load_replayer(DEFAULT_REPLAYER)
            replayer_for = _by_game(replayer)
        except ReplayerUnavailable as exc:
            skipped = (
                f"the rules engine is not available ({exc}); only the integrity check ran, "
                "so game states were not verified against their logs"
            )
    # a check only reads: a read-only database is checked in a copy (open_readable)
    async with open_readable(db.target) as (store, copied):
        note = "; read-only here, so a copy of it was checked" if copied else ""
        print(f"database: {db.describe()} (schema version {LATEST}){note}", file=out)
        if replayer is not None:
            print(f"replay: with {args.replayer or DEFAULT_REPLAYER}", file=out)
        try:
            report = await check_store(
                store, replayer, skipped_reason=skipped, replayer_for=replayer_for
            )
        except DatabaseCorrupt as exc:
            print(f"integrity: DATABASE CORRUPT: {exc}", file=out)
            print("PROBLEMS FOUND: restore the latest good backup", file=out)
            return EXIT_PROBLEMS
    for line in report.lines():
        print(line, file=out)
    return EXIT_OK if report.ok else EXIT_PROBLEMS


async def _resolve(store: GameRecords, ref: str) -> int:
    kind, sep, value = ref.partition(":")
    if not sep:
        kind, value = "", ref
    if kind not in ("", "game", "channel") or not value.isascii() or not value.isdigit():
        raise StorageError(
            f"{ref!r} is not a game: give a game id or a channel id (game:N or channel:N)"
        )
    number = int(value)
    if number >= 2**63:
        raise StorageError(f"no game with id {number} and no game in channel {number}")
    as_game: int | None = None
    if kind in ("", "game"):
        try:
            as_game = (await store.get_game(number)).id
        except StorageError:
            if kind == "game":
                raise
    as_channel: int | None = None
    if kind in ("", "channel"):
        active = await store.get_active_game(number)
        if active is not None:
            as_channel = active.id
        else:
            latest = await store.list_games(channel_id=number, limit=1)
            as_channel = latest[0].id if latest else None
        if as_channel is None and kind == "channel":
            raise StorageError(f"no game in channel {number}")
    if as_game is not None and as_channel is not None and as_game != as_channel:
        raise StorageError(
            f"{number} is both a game id and a channel id: write game:{number} or channel:{number}"
        )
    found = as_game if as_game is not None else as_channel
    if found is None:
        raise StorageError(f"no game with id {number} and no game in channel {number}")
    return found


def write_new_file(target: Path, text: str, *, force: bool) -> None:
    """Write ``text`` to ``target`` via a new temporary file renamed into place, so ``target``
    is never left half-written; refuses an existing ``target`` unless ``force``."""
    if target.exists() and not force:
        raise FileExistsError(f"{target} exists (use --force to overwrite)")
    if target.is_dir():
        raise IsADirectoryError(f"{target} is a directory")
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(name, target)
    finally:
        Path(name).unlink(missing_ok=True)


async def _export(db: Location, ref: str, path: str, force: bool, out: TextIO) -> int:
    if path != "-" and Path(path).exists() and not force:
        print(f"error: {path} exists (use --force to overwrite)", file=sys.stderr)
        return EXIT_ERROR
    async with open_readable(db.target) as (store, _copied):  # a read-only one: in a copy
        game_id = await _resolve(store, ref)
        export = await store.export_game(game_id)
    text = dump_export(export)
    if path == "-":
        out.write(text)
    else:
        write_new_file(Path(path), text, force=force)
        print(
            f"exported game {game_id} (version {export.game.version}, "
            f"{len(export.log)} log entries) to {path}",
            file=out,
        )
    return EXIT_OK


def _read_text(path: str, what: str) -> str:
    """A UTF-8 text file ('-': standard input); :class:`StorageError` if it is not one."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StorageError(f"{path} is not a UTF-8 text file, so not {what}") from exc
    except IsADirectoryError as exc:
        raise StorageError(f"{path} is a directory, not {what}") from exc


async def _import(db: Location, args: argparse.Namespace, out: TextIO) -> int:
    text = _read_text(args.path, "a game export")
    export = load_export(text)
    replayer = load_replayer(args.replayer) if args.replayer else None
    async with open_store(db.target) as store:
        record = await store.import_game(
            export, channel_id=args.channel, guild_id=args.guild, replayer=replayer
        )
    print(
        f"imported game {export.game.id} as game {record.id} in channel {record.channel_id} "
        f"({record.status}, version {record.version})",
        file=out,
    )
    return EXIT_OK


def _is_backup_file(text: str) -> bool:
    """True when ``text`` names an existing file that starts like a backup dump file."""
    path = Path(text)
    try:
        with path.open("rb") as handle:
            start = handle.read(64)
    except OSError:
        return False
    return start.startswith(b'{"format":"' + BACKUP_FORMAT.encode() + b'"')


async def _copy(source: str, dest: str, force: bool, out: TextIO) -> int:
    to = parse_location(dest)
    if _is_backup_file(source):
        origin: CopySource = BackupSource(Path(source))
        return await _copy_into(origin, source, to, force, out)
    src = parse_location(source)
    if src.kind == to.kind and (
        src.target == to.target
        or (src.kind == "sqlite" and Path(src.target).resolve() == Path(to.target).resolve())
    ):
        print("error: SRC and DEST are the same database", file=sys.stderr)
        return EXIT_ERROR
    async with open_readable(src.target) as (store, _copied):  # a read-only one: in a copy
        return await _copy_into(store, src.describe(), to, force, out)


async def _copy_into(source: CopySource, name: str, to: Location, force: bool, out: TextIO) -> int:
    async with open_store(to.target) as dest:
        print(f"copying {name} -> {to.describe()}", file=out)
        report = await copy_store(
            source, dest, force=force, progress=lambda line: print(line, file=out, flush=True)
        )
    for line in [*report.refused, *report.differ]:
        print(f"problem: {line}", file=sys.stderr)
    print(report.summary(), file=out)
    if report.differ:
        return EXIT_PROBLEMS
    return EXIT_OK if report.ok else EXIT_ERROR


def _rules_late_game_state(seed: int = 11) -> tuple[str, str, RestoreGame] | None:
    """A real late state of the default game with its most players (seeded random self-play
    through the rules registry, over 500 steps), and the self-played game, to time restores
    with the game's replayer (:func:`rules.games.replay_step`)."""
    try:
        import random

        from rules.games import game, replay_step
    except ImportError:
        return None
    g = game()
    rng = random.Random(seed)
    state = g.new_game(g.max_players, seed=seed)
    initial = g.dump(state)
    steps: list[tuple[str, str]] = []
    while not g.is_over(state) and len(steps) < RESTORE_STEPS_BACK + 40:
        action = rng.choice(g.legal_actions(state, None))
        state, _ = g.apply(state, action)
        steps.append((g.action_to_json(action), g.dump(state)))
    late = (
        steps[-1][1],
        f"{g.max_players}-player {g.name} state after {len(steps)} steps of rules self-play "
        f"(seed {seed})",
    )
    restore = RestoreGame(
        f"real game from rules self-play, replayed by its engine ({len(steps)} steps)",
        initial,
        steps,
        functools.partial(replay_step, g.name),
    )
    return (*late, restore)


async def _bench(args: argparse.Namespace, out: TextIO) -> int:
    restore_game: RestoreGame | None = None
    if args.state_file is not None:
        state_json = _read_text(str(args.state_file), "a JSON state")
        try:
            parsed = json.loads(state_json)
        except ValueError as exc:
            raise StorageError(f"{args.state_file} is not a JSON state: {exc}") from exc
        if not isinstance(parsed, dict):
            raise StorageError(f"{args.state_file} is not a JSON object (a game state)")
        source = f"real state from {args.state_file}"
    else:
        real = None if args.synthetic else _rules_late_game_state()
        if real is not None:
            state_json, source, restore_game = real
        else:
            state_json = json.dumps(synthetic_late_game_state())
            source = "SYNTHETIC late-game 4-player state"
    with tempfile.TemporaryDirectory(prefix="turnpost-bench-") as tmp:
        result = await run_bench(
            Path(tmp) / "bench.sqlite3",
            state_json=state_json,
            state_source=source,
            saves=args.saves,
            loads=args.loads,
            games=args.games,
            throughput_saves=args.throughput_saves,
            synchronous=args.synchronous,
            progress=lambda message: print(f"... {message}", file=sys.stderr),
            restore_game=restore_game,
            restores=args.restores,
        )
    for line in result.lines():
        print(line, file=out)
    return EXIT_OK
