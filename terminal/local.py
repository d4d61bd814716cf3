"""Local play in the terminal: hot-seat for several people plus AI seats, no Discord.

    python -m bot local [--players N] [--seats "Ana,Bo,ai:heuristic"] [--scenario MAP]
                        [--seed S] [--db PATH] [--resume GAME] [--script FILE] [--out DIR]
                        [--web [--web-port N] [--web-host H]]

A thin adapter over :class:`service.GameService`: it reads commands (prompt_toolkit, with
tab completion of the legal commands and history; or a ``--script`` file), prints the public
text after every step and writes the images to a folder. Private news (drawn cards, peeks) is
held per seat and shown by ``hand``, which clears the screen afterwards so hot-seat players
don't see each other's secrets. Every step is saved in the SQLite storage at once: Ctrl-C
or ``quit`` leaves the game resumable with ``--resume GAME``. ``--web`` serves the game's web
page while it is played (:func:`start_web`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ai import AGENT_NAMES
from service import (
    Decision,
    Frame,
    GameService,
    ImageRequest,
    Post,
    Result,
    SeatSpec,
    ServiceError,
    WorkerPool,
)
from service.game import GameSession
from service.workers import WorkerError

if TYPE_CHECKING:
    from storage.base import GameStore
    from web.server import WebServer

HELP = """Commands (type a game command, or one of these):
  help             this text (and the game commands' grammar)
  legal            the commands you may type now
  undo             take back your last step (if it revealed nothing and the turn goes on)
  board            the board as text; the map and player boards written as images
  hand             show one player's secret hand (asks whose; clears the screen after)
  score            public scores (hidden missions and gold cards not counted)
  log              the last steps of the game
  rules <ID|word>  the rules reference: rules R-BUILD-4, rules build 4, rules bombard
  quit             save and leave (resume with --resume GAME)
A line may start with a player's name, e.g. `Ana: build sawmill D3`. Tab completes commands."""

LOCAL_WORDS = ("help", "legal", "undo", "board", "hand", "score", "log", "rules", "quit")


def default_db() -> str:
    return os.environ.get("BRAZIL_DB", "brazil.sqlite3")


MIN_PLAYERS, MAX_PLAYERS = 1, 4


class BadArguments(ValueError):
    """A command-line argument refused before anything is created: one line, exit code 2."""


def _choices(items: Sequence[str]) -> str:
    """``a, b or c``."""
    return f"{', '.join(items[:-1])} or {items[-1]}" if len(items) > 1 else "".join(items)


def check_level(level: str) -> None:
    """An AI level ``ai.make_agent`` knows, or :class:`BadArguments` naming them."""
    if level not in AGENT_NAMES:
        raise BadArguments(f"unknown AI level {level!r}: choose {_choices(AGENT_NAMES)}")


def check_players(n: int, what: str = "players") -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise BadArguments(f"{what} must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not {n}")


def check_scenario(svc: GameService, scenario: str | None) -> None:
    """A map id the service knows (``--scenario``), checked before the database is opened."""
    if scenario is None:
        return
    ids = [mid for mid, _ in svc.scenarios()]
    if scenario not in ids:
        raise BadArguments(f"unknown map {scenario!r}: choose {_choices(ids)}")


def seat_specs(players: int | None, seats: str | None) -> list[SeatSpec]:
    """The seats of a new game: ``--seats`` names (``ai:LEVEL`` for computer players),
    filled up to ``--players`` with heuristic AIs; without ``--seats``: one local player
    and AIs (``--players`` default 2). Raises :class:`BadArguments` (an empty or repeated
    name, an unknown AI level, a player count outside 1-4)."""
    if players is not None:
        check_players(players, "--players")
    specs = []
    for text in seats.split(",") if seats is not None else ["Player 1"]:
        try:
            spec = SeatSpec.parse(text)
        except ValueError as e:
            raise BadArguments(f"--seats {seats!r}: {e} (names are separated by commas)") from e
        if spec.ai is not None:
            check_level(spec.ai)
        specs.append(spec)
    humans = [s.name.lower() for s in specs if not s.ai]
    twice = sorted({n for n in humans if humans.count(n) > 1})
    if twice:
        raise BadArguments(f"--seats: two players named {twice[0]!r}: give each a different name")
    n = players if players is not None else max(len(specs), 2 if not seats else len(specs))
    if len(specs) > n:
        raise BadArguments(f"{len(specs)} seats given for {n} players (--players {n})")
    if players is None and not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise BadArguments(f"{n} seats given: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    while len(specs) < n:
        specs.append(SeatSpec(f"AI heuristic {len(specs) + 1}", ai="heuristic"))
    return specs


def check_db(path: str, *, resume: int | None, label: str = "--db") -> None:
    """``--db`` (or ``BRAZIL_DB``, named by ``label``): a file, not a folder, in a folder
    that exists; to resume, an existing one. A PostgreSQL URL is checked when opened."""
    from storage import InvalidData
    from storage.location import parse_location

    try:
        where = parse_location(path)
    except InvalidData as e:
        raise BadArguments(f"{label}: {e}") from None
    if where.kind == "postgres":
        return
    path = where.target
    p = Path(path)
    if p.is_dir():
        eg = p / "brazil.sqlite3"
        raise BadArguments(f"{label} {path} is a folder: give a database file, e.g. {eg}")
    parent = p.parent
    if not parent.is_dir():
        what = "is a file, not a folder" if parent.exists() else "does not exist"
        raise BadArguments(f"{label} {path}: the folder {parent} {what}")
    if resume is not None and not p.exists():
        raise BadArguments(f"no game #{resume} to resume: there is no database {path} ({label})")


def read_script(path: str) -> list[str]:
    """The commands of a script file: one per line, ``#`` comments and blank lines skipped."""
    out = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else "not a UTF-8 text file"
        raise BadArguments(f"--script {path}: {why}") from e
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if line:
            out.append(line)
    return out


class LineSource:
    """Where commands come from: a script, or the interactive prompt."""

    async def read(self, prompt: str, seat: int | None) -> str | None:  # None: no more input
        raise NotImplementedError

    async def pause(self, prompt: str) -> None:
        """Wait for a key press (interactive only)."""

    def clear(self) -> None:
        """Clear the screen (interactive only)."""

    interactive = False


class ScriptSource(LineSource):
    def __init__(self, lines: Sequence[str], out: TextIO) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.out = out

    async def read(self, prompt: str, seat: int | None) -> str | None:
        line = next(self.lines, None)
        if line is not None:
            print(f"{prompt}{line}", file=self.out)
        return line


class PromptSource(LineSource):
    """prompt_toolkit: history, and tab completion of the legal commands of the seat whose
    turn it is (computed from the current state by the engine's notation)."""

    interactive = True

    def __init__(self, game: LocalGame, *, input: Any = None, output: Any = None) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion
        from prompt_toolkit.history import InMemoryHistory

        self.game = game
        self.seat: int | None = None
        source = self

        class _Completer(Completer):
            def get_completions(self, document: Any, complete_event: Any) -> Iterable[Any]:
                text = document.text_before_cursor
                for c in source.candidates(text):
                    yield Completion(c, start_position=-len(text))

        self.session: Any = PromptSession(
            history=InMemoryHistory(),
            completer=_Completer(),
            complete_while_typing=False,
            input=input,
            output=output,
        )

    def candidates(self, text: str) -> list[str]:
        words = [w for w in LOCAL_WORDS if w.startswith(text.lower())]
        s = self.game.game
        if self.seat is None or s is None:
            return words
        try:
            return words + s.complete(self.seat, text)
        except Exception:  # completion must never break the prompt
            return words

    async def read(self, prompt: str, seat: int | None) -> str | None:
        self.seat = seat
        try:
            return str(await self.session.prompt_async(prompt))
        except EOFError:
            return None

    async def pause(self, prompt: str) -> None:
        with contextlib.suppress(EOFError):
            await self.session.prompt_async(prompt, completer=None)

    def clear(self) -> None:
        from prompt_toolkit.shortcuts import clear

        clear()


class LocalGame:
    """One game played in the terminal through the service."""

    def __init__(
        self,
        service: GameService,
        game_id: int,
        seats: Sequence[SeatSpec],
        out_dir: Path,
        *,
        out: TextIO = sys.stdout,
    ) -> None:
        self.svc = service
        self.game_id = game_id
        self.seats = list(seats)
        self.out_dir = out_dir
        self.out = out
        self.game: GameSession | None = None  # the game as last read (prompt, completion)
        self.source: LineSource | None = None
        self.errors = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    async def draw(self, req: ImageRequest, frame: Frame) -> bytes | None:
        """An image drawn in the service's worker processes; None (and a line saying so)
        when it could not be drawn: the game goes on."""
        try:
            return await self.svc.render(req, frame)
        except WorkerError as e:
            self.say(f"  ! the {req.kind} image could not be drawn ({e}); the game goes on")
            return None

    # ------------------------------------------------------------------ output

    async def show(self, res: Result, *, actor: int | None = None) -> None:
        """Print the public posts, hold the private ones, write the images."""
        for e in res.errors:
            self.errors += 1
            self.say(f"  ! {e.text()}")
        written: list[Path] = []
        for post in res.posts:
            await self._post(post, res, written)
        if written:
            self.say(f"  images: {', '.join(str(p) for p in written)}")
        self.game = await self.svc.peek(self.game_id)

    async def _post(self, post: Post, res: Result, written: list[Path]) -> None:
        if post.audience == "public":
            self.say(post.text)
            for req in post.images:
                data = await self.draw(req, res.frames[req.version])
                if data is not None:
                    self.out_dir.mkdir(parents=True, exist_ok=True)
                    path = self.out_dir / req.filename()
                    path.write_bytes(data)
                    written.append(path)
            return
        seat = int(post.audience)
        if seat < len(self.seats) and self.seats[seat].ai:
            return  # an AI's private news: nobody at this terminal may read it
        await self.svc.hold_news(self.game_id, seat, [post.text])
        self.say(f"  (private news for {self.seats[seat].name}: type `hand` to read it)")

    # ------------------------------------------------------------------ loop

    def humans_deciding(self, decisions: Sequence[Decision]) -> list[Decision]:
        return [d for d in decisions if not d.ai]

    def seat_named(self, name: str) -> int | None:
        n = name.strip().lower()
        for i, s in enumerate(self.seats):
            if not s.ai and s.name.lower() == n:
                return i
        if self.game is not None:
            for p in self.game.state.players:
                if p.colour and p.colour.lower() == n and not self.seats[p.seat].ai:
                    return p.seat
        return None

    async def run(self, source: LineSource) -> int:
        """Play until the game ends, the input ends or ``quit``. Returns the exit code."""
        self.source = source
        await self.run_ai()
        while True:
            g = self.game = await self.svc.peek(self.game_id)
            if g.over:
                self.say(f"Game #{self.game_id} is over. Images in {self.out_dir}")
                return 0
            waiting = [d.seat for d in g.decisions(choices=False) if not d.ai]
            if not waiting:
                await self.run_ai()
                continue
            seat = waiting[0]
            who = g.who(seat)
            line = await source.read(f"{who}> ", seat)
            if line is None:
                self.say(f"Saved. Resume with: python -m bot local --resume {self.game_id}")
                return 0
            line = line.strip()
            m = re.match(r"^([^:]+):\s+(.*)$", line)
            if m and self.seat_named(m.group(1)) is not None:
                seat = self.seat_named(m.group(1)) or 0
                line = m.group(2).strip()
            if not line:
                continue
            if await self.command(line, seat) == "quit":
                self.say(f"Saved. Resume with: python -m bot local --resume {self.game_id}")
                return 0

    async def run_ai(self) -> None:
        async def step(res: Result) -> None:
            await self.show(res)

        res = await self.svc.run_ai_turns(self.game_id, on_step=step)
        self.game = await self.svc.peek(self.game_id)
        if res.applied:
            nxt = ", ".join(d.who for d in res.next)
            if nxt:
                self.say(f"Now: {nxt}")

    async def command(self, line: str, seat: int) -> str | None:
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word == "help":
            self.say(HELP)
            grammar = _grammar()
            if grammar:
                self.say("Game commands:")
                self.say("\n".join(f"  {g}" for g in grammar))
        elif word == "quit" or word == "exit":
            return "quit"
        elif word == "legal" and not rest:
            texts = await self.svc.legal(self.game_id, seat)
            self.say("\n".join(f"  {t}" for t in texts) or "  nothing to decide now")
        elif word == "undo" and not rest:
            await self.show(await self.svc.undo(self.game_id, seat), actor=seat)
        elif word == "board" and not rest:
            await self.show(await self.svc.board(self.game_id))
        elif word == "score" and not rest:
            for r in await self.svc.scores(self.game_id):
                self.say(f"  {r.who}: {r.total} VP{'  (winner)' if r.winner else ''}")
        elif word == "log" and not rest:
            self.say("\n".join(f"  {t}" for t in await self.svc.log(self.game_id)))
        elif word == "hand":
            await self.hand(rest.strip())
        elif word == "rules":
            found = self.svc.rules(rest.strip()) if rest.strip() else []
            self.say("\n\n".join(found) or "  no rule found: try an ID (R-BUILD-4) or a word")
        else:
            res = await self.svc.act(self.game_id, seat, line)
            await self.show(res, actor=seat)
            await self.run_ai()
        return None

    async def hand(self, name: str) -> None:
        """Show one human seat's hand; interactive: confirm first, clear the screen after."""
        src = self.source
        assert src is not None
        humans = [s.name for s in self.seats if not s.ai]
        if not name and src.interactive:
            name = (await src.read(f"Whose hand? ({', '.join(humans)}) ", None)) or ""
        seat = self.seat_named(name) if name else None
        if seat is None and not name and len(humans) == 1:
            seat = self.seat_named(humans[0])
        if seat is None:
            self.say(f"  whose hand? say one of: {', '.join(humans)}")
            return
        who = self.seats[seat].name
        if src.interactive:
            await src.pause(f"Only {who} should look now. Press Enter to show the hand. ")
        res = await self.svc.hand(self.game_id, seat, news=True)
        for post in res.posts:
            self.say(post.text)
            for req in post.images:
                data = await self.draw(req, res.frames[req.version])
                if data is not None:
                    path = self.out_dir / "private" / f"hand-{who}.png"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
                    self.say(f"  hand image: {path}")
        if src.interactive:
            await src.pause("Press Enter to clear the screen. ")
            src.clear()


def _grammar() -> list[str]:
    return [f"{cmd:45} e.g. {ex}" for cmd, _, ex in GameService.grammar()]


# ====================================================================== the game's web page
# ``--web [--web-port N] [--web-host H]`` (local and demo) serve the page of the game being
# played (web.server.WebServer, in the command's own event loop). The port is checked with the
# other arguments and bound before anything is created: a bad or taken port is refused in one
# line (BadArguments, exit 2) and no game, database or folder is left behind.

DEFAULT_PORT = 8080
DEFAULT_HOST = "127.0.0.1"
MAX_PORT = 65535


def add_web_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--web",
        action="store_true",
        help=f"serve the game's web page (http://{DEFAULT_HOST}:{DEFAULT_PORT}/g/…/)",
    )
    p.add_argument(
        "--web-port",
        type=int,
        default=None,
        metavar="N",
        help=f"the page's port (default {DEFAULT_PORT}; 0: any free port; implies --web)",
    )
    p.add_argument(
        "--web-host",
        default=None,
        metavar="H",
        help=f"the address it listens on (default {DEFAULT_HOST}; implies --web)",
    )


def web_wanted(args: argparse.Namespace) -> bool:
    """Whether the command line asks for the page (``--web`` or one of its options)."""
    return bool(args.web) or args.web_port is not None or args.web_host is not None


def check_web(args: argparse.Namespace) -> None:
    """``--web-port`` from 0 to 65535 and a non-empty ``--web-host``: :class:`BadArguments`."""
    if args.web_port is not None and not 0 <= args.web_port <= MAX_PORT:
        raise BadArguments(f"--web-port must be from 0 to {MAX_PORT}, not {args.web_port}")
    if args.web_host is not None and not args.web_host.strip():
        raise BadArguments("--web-host is empty: give an address, e.g. 127.0.0.1 or 0.0.0.0")


async def start_web(svc: GameService, args: argparse.Namespace) -> WebServer | None:
    """The page server over ``svc``, bound and serving, when the command line asks for it
    (None otherwise); :class:`BadArguments` in one line when the address cannot be bound."""
    if not web_wanted(args):
        return None
    check_web(args)
    from web.server import WebServer, bind_error

    host = (args.web_host or DEFAULT_HOST).strip()
    port = DEFAULT_PORT if args.web_port is None else args.web_port
    server = WebServer(svc, host=host, port=port)
    try:
        await server.start()
    except OSError as e:
        raise BadArguments(
            f"--web: cannot serve the game page on {host}:{port} "
            f"({bind_error(e, 'choose another with --web-port')})"
        ) from None
    return server


# ====================================================================== entry point


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=None, help="number of players (1-4)")
    p.add_argument("--seats", default=None, help='e.g. "Ana,Bo,ai:heuristic,ai:search"')
    p.add_argument("--scenario", default=None, help="map id (default: the player count's)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument(
        "--db", default=None, help="SQLite file (default $BRAZIL_DB or ./brazil.sqlite3)"
    )
    p.add_argument("--resume", type=int, default=None, metavar="GAME", help="a saved game id")
    p.add_argument("--script", default=None, metavar="FILE", help="play the commands in FILE")
    p.add_argument("--out", default=None, metavar="DIR", help="image folder")
    add_web_arguments(p)
    add_workers_argument(p)


def add_workers_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes drawing the images and running the computer players "
        "(default: the CPU count; 0: threads of this process)",
    )


def worker_pool(args: argparse.Namespace) -> WorkerPool:
    """The pool ``--workers`` asks for (started at its first job); :class:`BadArguments`."""
    n = getattr(args, "workers", None)
    if n is not None and not 0 <= n <= 64:
        raise BadArguments(f"--workers must be from 0 to 64, not {n}")
    return WorkerPool(n)


async def play(
    args: argparse.Namespace,
    *,
    out: TextIO = sys.stdout,
    make_source: Callable[[LocalGame], LineSource] | None = None,
) -> int:
    """Check the arguments (nothing is created before), then open the database and play.
    Raises :class:`BadArguments`, :class:`ServiceError` or a storage error on refusal."""
    from storage.location import open_store

    db = args.db or default_db()
    label = "--db" if args.db else "BRAZIL_DB" if "BRAZIL_DB" in os.environ else "--db"
    check_db(db, resume=args.resume, label=label)
    seats = seat_specs(args.players, args.seats) if args.resume is None else []
    check_web(args)
    lines = read_script(args.script) if args.script and make_source is None else None
    workers = worker_pool(args)
    store = open_store(db, create=args.resume is None)
    svc = GameService(store, workers=workers)
    check_scenario(svc, args.scenario)
    server = await start_web(svc, args)  # bound before anything is created
    try:
        return await _play(
            args, db, store, svc, seats, lines, server, out=out, make_source=make_source
        )
    finally:
        if server is not None:
            await server.stop()


async def _play(
    args: argparse.Namespace,
    db: str,
    store: GameStore,
    svc: GameService,
    seats: list[SeatSpec],
    lines: list[str] | None,
    server: WebServer | None,
    *,
    out: TextIO,
    make_source: Callable[[LocalGame], LineSource] | None,
) -> int:
    """Open the database, start or resume the game and play it (see :func:`play`)."""
    from storage import GameNotFound

    async with store, svc.workers:
        if args.resume is not None:
            try:
                info = await svc.info(args.resume)
            except GameNotFound:
                ids = [str(g.id) for g in await store.list_games(limit=10)]
                saved = f"saved games: {', '.join(ids)}" if ids else "it holds no saved game"
                raise BadArguments(f"no game #{args.resume} in {db} ({saved})") from None
            gid, seats = info.game_id, list(info.seats)
            print(f"Resuming game #{gid} (version {info.version}).", file=out)
        else:
            res = await svc.new_game(seats, scenario=args.scenario, seed=args.seed)
            gid = res.game_id
            for post in res.public():
                print(post.text, file=out)
        out_dir = Path(args.out) if args.out else Path("brazil-local") / f"game-{gid}"
        print(
            f"Images are written to {out_dir.resolve()}/ - type `help` for the commands.", file=out
        )
        if server is not None:
            print(f"Game page: {await server.page_url(gid)}", file=out, flush=True)
        game = LocalGame(svc, gid, seats, out_dir, out=out)
        if make_source is not None:
            source = make_source(game)
        elif lines is not None:
            source = ScriptSource(lines, out)
        else:
            source = PromptSource(game)
        try:
            return await game.run(source)
        except (KeyboardInterrupt, asyncio.CancelledError):
            print(f"\nSaved. Resume with: python -m bot local --resume {gid}", file=out)
            return 0


def fail(message: object, code: int = 2) -> int:
    """One line on stderr (no traceback) and the exit code: 2 for bad arguments."""
    print(f"error: {message}", file=sys.stderr)
    return code


def os_error_text(e: OSError) -> str:
    """``[Errno 2] No such file...: 'x'`` as ``x: No such file or directory``."""
    if e.strerror and e.filename:
        return f"{e.filename}: {e.strerror}"
    return e.strerror or str(e)


def main(args: argparse.Namespace) -> int:
    from storage import NotAGameDatabase, StorageError

    try:
        return asyncio.run(play(args))
    except KeyboardInterrupt:
        print("\nSaved (every step is saved as it is played).", file=sys.stdout)
        return 0
    except (BadArguments, ServiceError) as e:
        return fail(e)
    except StorageError as e:  # --db names a file that is not one of our databases, ...
        hint = " (choose another file with --db)" if isinstance(e, NotAGameDatabase) else ""
        return fail(f"{e}{hint}")
    except OSError as e:  # the image folder cannot be written, ...
        return fail(os_error_text(e), 1)
