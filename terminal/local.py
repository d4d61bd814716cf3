"""Local play in the terminal: hot-seat for several people plus AI seats, no Discord.

    python -m turnpost local [--players N] [--seats "Ana,Bo,ai:heuristic"] [--scenario MAP]
                        [--seed S] [--db PATH] [--resume GAME] [--script FILE] [--out DIR]
                        [--lang LANG] [--web [--web-port N] [--web-host H]]

A thin adapter over :class:`service.GameService`: it reads commands (prompt_toolkit, with
tab completion of the legal commands and history; or a ``--script`` file), prints the public
text after every step and writes the images to a folder. Private news (drawn cards, peeks) is
held per seat and shown by ``hand``, which clears the screen afterwards so hot-seat players
don't see each other's secrets. Every step is saved in the SQLite storage at once: Ctrl-C
or ``quit`` leaves the game resumable with ``--resume GAME``. ``--web`` serves the game's web
page while it is played (:func:`start_web`). ``--lang`` chooses the language (default: the
system locale's, :func:`i18n.system_language`): every text the terminal itself prints (the
``help``, prompts, status lines, score rows, its errors) is a ``terminal.*`` message of the
catalogue rendered in it (:attr:`LocalGame.lang`), and the ``rules`` command reads the rules
reference in it. Texts that come from the service (the game's posts, the hand, the log, the
legal commands) are printed as the service gives them (:meth:`LocalGame.relay`); typed
commands keep the canonical notation (``build sawmill D3``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shlex
import sys
import tempfile
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import i18n
from ai import AGENT_NAMES
from i18n.notation import localize, localize_usage
from service import (
    Decision,
    Frame,
    GameService,
    ImageRequest,
    Post,
    Refused,
    Result,
    SeatSpec,
    WorkerPool,
    ai_scale,
    catalog,
)
from service.game import GameSession
from service.games import DEFAULT as DEFAULT_GAME
from service.games import seat_label
from service.labels import Choice
from service.results import ai_level_of, ai_level_word, seat_name
from service.rulebook import format_entry, lookup
from service.workers import WorkerError
from storage.environ import env

if TYPE_CHECKING:
    from storage.base import GameStore
    from web.server import WebServer

LOCAL_WORDS = ("help", "legal", "undo", "board", "hand", "score", "log", "rules", "quit")
"""The terminal's own commands, by their English words; typed and shown in the language's
words (``terminal.word.<word>``, :func:`local_words`) or in English; ``help`` explains each
with the catalogue's ``terminal.help.<word>``."""


def local_words(lang: str) -> dict[str, str]:
    """The terminal's own commands in ``lang``'s words (``terminal.word.<word>``): canonical
    word -> the word ``help`` shows (``board`` -> ``állás`` in Hungarian)."""
    L = i18n.translator(lang)
    return {w: L.term(f"terminal.word.{w}") for w in LOCAL_WORDS}


def fold(word: str) -> str:
    """A word as typed words are compared: lower case, accents left out."""
    return "".join(
        c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c)
    )


def local_word(lang: str, typed: str) -> str | None:
    """The terminal's own command a typed word names, in ``lang``'s words or the English
    ones (any case, with or without accents): ``Állás`` -> ``board``; None if it names none."""
    folded = fold(typed)
    if folded == "exit":
        return "quit"
    for w, shown in local_words(lang).items():
        if folded in (w, fold(shown)):
            return w
    return None


HELP_ARGS = {"rules": "terminal.help.rules_args"}
"""The arguments a command of the terminal takes, as ``help`` shows them (``<ID|word>``)."""


def help_text(lang: str = i18n.DEFAULT, game: str = DEFAULT_GAME) -> str:
    """The ``help`` command's list of the terminal's commands, in ``lang``, in the words of
    ``game``: a line the game's adapter has its own key for (``help_keys``: its scores, its
    rules reference's IDs) is the game's, the others the terminal's generic ones; the footer's
    example is a command of the game (its ``help_example``) in ``lang``'s words."""
    L = i18n.translator(lang)
    own = catalog.help_keys(game)
    shown = local_words(lang)
    usages = [
        (w, f"{shown[w]} {L(HELP_ARGS[w])}" if w in HELP_ARGS else shown[w]) for w in LOCAL_WORDS
    ]
    width = max(16, *(len(u) + 1 for _, u in usages))
    lines = [L("terminal.help.title")]
    lines += [f"  {u:<{width}} {L(own.get(w, f'terminal.help.{w}'))}" for w, u in usages]
    example = catalog.help_example(game)
    if "footer" in own:
        lines.append(L(own["footer"]))
    elif example:
        lines.append(L("terminal.help.footer", example=localize_usage(example, lang, game)))
    else:
        lines.append(L("terminal.help.footer_plain"))
    return "\n".join(lines)


def default_db() -> str:
    return env("DB") or "turnpost.sqlite3"


MIN_PLAYERS, MAX_PLAYERS = 1, 4


class BadArguments(ValueError):
    """A command-line argument refused before anything is created: one line, exit code 2."""


def choices_text(items: Sequence[str], lang: str = i18n.DEFAULT) -> str:
    """``a, b or c`` in ``lang``: the CLDR "or" list of the language (Babel); English keeps
    the terminal's form without the serial comma (``random, heuristic or search``)."""
    if lang != i18n.DEFAULT:
        return i18n.fmt_list(lang, list(items), "or")
    return f"{', '.join(items[:-1])} or {items[-1]}" if len(items) > 1 else "".join(items)


def check_level(level: str, *, lang: str = i18n.DEFAULT) -> str:
    """The AI level ``level`` names (its id, or its word in any language: ``strong``,
    ``erős`` → ``search``), or :class:`BadArguments` naming the levels in ``lang``'s words."""
    found = ai_level_of(level)
    if found is None or found not in AGENT_NAMES:
        words = [ai_level_word(lang, name) for name in AGENT_NAMES]
        raise BadArguments(
            i18n.tr(
                lang, "terminal.error.ai_level", level=repr(level), levels=choices_text(words, lang)
            )
        )
    return found


def check_game(game: str | None, *, lang: str = i18n.DEFAULT) -> str:
    """``--game``: a game the service plays (its name, lower case), else
    :class:`BadArguments` naming the known ones."""
    name = (game or DEFAULT_GAME).strip().lower()
    known = catalog.games()
    if name not in known:
        raise BadArguments(
            i18n.tr(lang, "terminal.error.game", game=repr(name), games=choices_text(known, lang))
        )
    return name


def check_players(
    n: int, what: str = "--players", *, lang: str = i18n.DEFAULT, game: str = DEFAULT_GAME
) -> None:
    """A player count the game is for (Brazil: Imperial 1 to 4, Tigris & Euphrates 2 to 4;
    ``what``: the option that gave it)."""
    low, high = catalog.player_range(game)
    if not low <= n <= high:
        raise BadArguments(
            i18n.tr(lang, "terminal.error.count", what=what, low=low, high=high, n=n)
        )


def check_scenario(
    scenario: str | None, *, lang: str = i18n.DEFAULT, game: str | None = None
) -> None:
    """A map id of ``game`` the service knows (``--scenario``), checked before the database is
    opened (a game played on one board has none to check)."""
    ids = [mid for mid, _ in catalog.scenarios(game)]
    if scenario is None or not ids:
        return
    if scenario not in ids:
        raise BadArguments(
            i18n.tr(lang, "terminal.error.map", map=scenario, maps=choices_text(ids, lang))
        )


def seat_specs(
    players: int | None, seats: str | None, *, lang: str = i18n.DEFAULT, game: str = DEFAULT_GAME
) -> list[SeatSpec]:
    """The seats of a new game: ``--seats`` names (``ai:LEVEL`` for computer players),
    filled up to ``--players`` with heuristic AIs; without ``--seats``: one local player
    and AIs (``--players`` default 2). Raises :class:`BadArguments` in ``lang`` (an empty or
    repeated name, an unknown AI level, a player count outside 1-4)."""
    L = i18n.translator(lang)
    low, high = catalog.player_range(game)
    if players is not None:
        check_players(players, "--players", lang=lang, game=game)
    specs = []
    for text in seats.split(",") if seats is not None else ["Player 1"]:
        try:
            spec = SeatSpec.parse(text)
        except Refused as e:
            why = e.text(lang)
            raise BadArguments(L("terminal.error.seats_parse", seats=repr(seats), why=why)) from e
        if spec.ai is not None:
            spec = replace(spec, ai=check_level(spec.ai, lang=lang))
        specs.append(spec)
    humans = [s.name.lower() for s in specs if not s.ai]
    twice = sorted({n for n in humans if humans.count(n) > 1})
    if twice:
        raise BadArguments(L("terminal.error.seats_twice", name=repr(twice[0])))
    n = players if players is not None else max(len(specs), 2 if not seats else len(specs))
    if len(specs) > n:
        raise BadArguments(L("terminal.error.seats_more", seats=len(specs), players=n))
    if players is None and not low <= n <= high:
        raise BadArguments(L("terminal.error.seats_range", seats=n, low=low, high=high))
    while len(specs) < n:
        specs.append(SeatSpec.computer("heuristic"))
    return specs


def check_db(
    path: str,
    *,
    resume: int | None,
    label: str = "--db",
    lang: str = i18n.DEFAULT,
    write: bool = False,
) -> None:
    """``--db`` (or ``TURNPOST_DB``, named by ``label``): a file, not a folder, in a folder
    that exists; to resume, an existing one; to play (``write``), a file and a folder this
    user can write. A PostgreSQL URL is checked when opened."""
    from storage import InvalidData
    from storage.location import parse_location

    L = i18n.translator(lang)
    try:
        where = parse_location(path)
    except InvalidData as e:
        raise BadArguments(f"{label}: {e.text(lang)}") from None
    if where.kind == "postgres":
        return
    path = where.target
    p = Path(path)
    if p.is_dir():
        eg = p / "turnpost.sqlite3"
        raise BadArguments(L("terminal.error.db_folder", label=label, path=path, example=eg))
    parent = p.parent
    if not parent.is_dir():
        key = "terminal.error.db_parent_file" if parent.exists() else "terminal.error.db_parent"
        raise BadArguments(L(key, label=label, path=path, folder=parent))
    if resume is not None and not p.exists():
        raise BadArguments(L("terminal.error.resume_no_db", game=resume, path=path, label=label))
    if write:
        # SQLite writes the file and, beside it, its journal (-wal, -shm): both must be
        # writable before anything is created (else it fails half-way, after the checks)
        problem = folder_problem(parent)
        if problem is None and p.exists() and not os.access(p, os.W_OK):
            problem = "the file is read-only for this user"
        if problem is not None:
            raise BadArguments(f"{label} {path}: {problem}")


def folder_problem(folder: Path) -> str | None:
    """Why files cannot be written in ``folder`` (made, with its parents, when missing), or
    None: a file where a folder is wanted, or a folder this user cannot write in (tried by
    making and removing an empty file in the nearest existing one)."""
    folder = Path(folder)
    existing = folder
    while not existing.is_dir():
        if existing.exists() or existing.is_symlink():
            if existing == folder:
                return "a file is there, not a folder"
            return f"{existing} is a file, not a folder"
        if existing.parent == existing:
            break
        existing = existing.parent
    try:
        fd, probe = tempfile.mkstemp(dir=existing, prefix=".write-check-")
    except OSError as e:
        return f"cannot write in the folder {existing} ({e.strerror or e})"
    os.close(fd)
    os.unlink(probe)
    return None


def check_out(path: Path, label: str = "--out") -> None:
    """``--out`` (or the default image folder): a folder that can be made and written,
    checked before anything is played; :class:`BadArguments` naming what is wrong."""
    problem = folder_problem(path)
    if problem is not None:
        raise BadArguments(f"{label} {path}: {problem}")


def read_script(path: str, *, lang: str = i18n.DEFAULT) -> list[str]:
    """The commands of a script file: one per line, ``#`` comments and blank lines skipped."""
    out = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        if isinstance(e, OSError) and e.strerror:
            why = e.strerror
        else:
            why = i18n.tr(lang, "terminal.error.not_utf8")
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
        # the language's words, then the English ones (typed in every language)
        shown = dict.fromkeys([*local_words(self.game.lang).values(), *LOCAL_WORDS])
        words = [w for w in shown if fold(w).startswith(fold(text))]
        s = self.game.game
        if self.seat is None or s is None:
            return words
        try:
            # the legal commands in the canonical notation or the language's words
            return words + s.complete(self.seat, text, lang=self.game.lang)
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


class PlainSource(LineSource):
    """Plain lines from standard input (``input()``), when prompt_toolkit is not installed
    (the ``terminal`` extra): no tab completion, no history."""

    interactive = True

    async def read(self, prompt: str, seat: int | None) -> str | None:
        try:
            return await read_line(prompt)
        except EOFError:
            return None

    async def pause(self, prompt: str) -> None:
        with contextlib.suppress(EOFError):
            await read_line(prompt)

    def clear(self) -> None:
        if sys.stdout.isatty():
            print("\033[2J\033[H", end="", flush=True)


async def read_line(prompt: str) -> str:
    """``input(prompt)`` in a daemon thread: the event loop goes on meanwhile, and Ctrl-C or
    the end of the game does not wait for a line that never comes."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, error: BaseException | None) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(line or "")

    def work() -> None:
        try:
            line, error = input(prompt), None
        except (EOFError, OSError, ValueError) as e:  # the end of input, a closed stdin
            line, error = None, EOFError(str(e))
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(settle, line, error)

    threading.Thread(target=work, name="plain-input", daemon=True).start()
    return await done


def prompt_source(game: LocalGame) -> LineSource:
    """The interactive source: prompt_toolkit's (:class:`PromptSource`) when it is
    installed, else plain lines (:class:`PlainSource`, said in one line on stderr)."""
    try:
        return PromptSource(game)
    except ImportError:
        print(
            "note: prompt_toolkit is not installed (the 'terminal' extra): reading plain "
            "lines, without tab completion or history",
            file=sys.stderr,
        )
        return PlainSource()


class LocalGame:
    """One game played in the terminal through the service."""

    def __init__(
        self,
        service: GameService,
        game_id: int,
        seats: Sequence[SeatSpec],
        out_dir: Path,
        *,
        out: TextIO | None = None,
        lang: str = i18n.DEFAULT,
    ) -> None:
        out = sys.stdout if out is None else out  # the streams of the moment (a test's)
        self.svc = service
        self.lang = lang  # the language of this terminal: every text it prints itself
        self.L = i18n.translator(lang)
        self.game_id = game_id
        self.seats = list(seats)
        self.out_dir = out_dir
        self.out = out
        self.game: GameSession | None = None  # the game as last read (prompt, completion)
        self.game_name = DEFAULT_GAME  # which game (rules.games), set from the record
        self.source: LineSource | None = None
        self.errors = 0
        self.db: str | None = None  # the database (--db), for the resume command
        self.hinted: tuple[int, int] | None = None  # (version, seat) the last hint was for
        self.actor: tuple[int, int] | None = None  # (seat, version) of the last typed step

    def resume_command(self) -> str:
        """The command that goes on with this game (:func:`resume_command`)."""
        return resume_command(self.game_id, self.db, self.out_dir, self.game_name)

    def say(self, text: str = "") -> None:
        """Print a text of the terminal's own (made from its ``terminal.*`` messages), in its
        language's typography."""
        print(i18n.typeset(self.lang, text), file=self.out, flush=True)

    def relay(self, text: str) -> None:
        """Print a text the service made (a post, the hand, the log, a legal command, a
        refusal of a typed command) as it is, in its language's typography."""
        print(i18n.typeset(self.lang, text), file=self.out, flush=True)

    def tell(self, key: str, /, indent: str = "", **params: Any) -> None:
        """Print the terminal's message ``key`` in its language."""
        self.say(indent + self.L(key, **params))

    async def draw(self, req: ImageRequest, frame: Frame) -> bytes | None:
        """An image drawn in the service's worker processes; None (and a line saying so)
        when it could not be drawn: the game goes on."""
        try:
            return await self.svc.render(req, frame)
        except WorkerError as e:
            self.tell("terminal.image_failed", indent="  ", kind=req.kind, error=str(e))
            return None

    # ------------------------------------------------------------------ output

    async def show(self, res: Result, *, actor: int | None = None) -> None:
        """Print the public posts, hold the private ones, write the images (the game as it
        stands, :attr:`game`, is the caller's to keep)."""
        for e in res.errors:
            self.errors += 1
            self.relay(f"  ! {e.text_in(self.lang)}")
        written: list[Path] = []
        for post in res.posts:
            await self._post(post, res, written)
        if written:
            self.tell("terminal.images", "  ", paths=[str(p) for p in written])

    async def _post(self, post: Post, res: Result, written: list[Path]) -> None:
        if post.audience == "public":
            self.relay(post.text)
            for req in post.images:  # drawn in the language the request carries
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
        await self.svc.reading.hold_news(self.game_id, seat, [post.text])
        self.tell("terminal.private_news", "  ", who=seat_name(self.seats, seat, self.lang))

    async def greet(self, last: int = 5) -> None:
        """A resumed game's greeting: its last steps (the log's, players named) and whose
        turn it is."""
        g = self.game = await self.svc.peek(self.game_id)
        steps = await self.svc.reading.log(self.game_id, last=last, lang=self.lang)
        if steps:
            self.tell("terminal.resume.last")
            self.relay("\n".join(f"  {t}" for t in steps))
        if g.over:
            return
        names = [
            seat_label(g.state, g.seats, d.seat, self.lang) for d in g.decisions(choices=False)
        ]
        if names:
            self.tell("terminal.resume.turn", names=names)

    async def first_picture(self) -> None:
        """A new game that is played from its first step (no setting up: Tigris &
        Euphrates) has the picture of its board written at once, as a game that sets up
        first has when its play begins (the map its first turn posts)."""
        g = self.game = await self.svc.peek(self.game_id)
        if not g.A.playing(g.state):
            return
        written = []
        for req in g.A.board_images(g.version, self.lang)[:1]:
            data = await self.draw(req, g.frame())
            if data is not None:
                self.out_dir.mkdir(parents=True, exist_ok=True)
                path = self.out_dir / req.filename()
                path.write_bytes(data)
                written.append(str(path))
        if written:
            self.tell("terminal.images", "  ", paths=written)

    # ------------------------------------------------------------------ loop

    def humans_deciding(self, decisions: Sequence[Decision]) -> list[Decision]:
        return [d for d in decisions if not d.ai]

    def seat_named(self, name: str) -> int | None:
        n = name.strip().lower()
        for i, s in enumerate(self.seats):
            if not s.ai and s.name.lower() == n:
                return i
        if self.game is not None:
            for i, p in enumerate(self.game.state.players):
                colour = getattr(p, "colour", None)  # Brazil: Imperial's players' colours
                if colour and colour.lower() == n and not self.seats[i].ai:
                    return i
        return None

    async def run(self, source: LineSource) -> int:
        """Play until the game ends, the input ends or ``quit``. Returns the exit code."""
        self.source = source
        await self.run_ai()
        while True:
            g = self.game  # as the last command left it: one load per command
            assert g is not None
            if g.over:
                self.tell("terminal.over", game=self.game_id, folder=self.out_dir)
                return 0
            waiting = [d.seat for d in g.decisions(choices=False) if not d.ai]
            if not waiting:
                await self.run_ai()
                continue
            seat = waiting[0]
            if self.hinted != (g.version, seat):
                self.hinted = (g.version, seat)
                self.hint(g, seat)
            who = seat_label(g.state, g.seats, seat, self.lang)
            line = await source.read(f"{who}> ", seat)
            if line is None:
                self.tell("terminal.saved", command=self.resume_command())
                return 0
            line = line.strip()
            m = re.match(r"^([^:]+):\s+(.*)$", line)
            if m and self.seat_named(m.group(1)) is not None:
                seat = self.seat_named(m.group(1)) or 0
                line = m.group(2).strip()
            if not line:
                continue
            if await self.command(line, seat) == "quit":
                self.tell("terminal.saved", command=self.resume_command())
                return 0

    async def run_ai(self) -> None:
        async def step(res: Result) -> None:
            await self.show(res)

        res = await self.svc.run_ai_turns(self.game_id, on_step=step)
        g = self.game = await self.svc.peek(self.game_id)
        if res.applied:
            nxt = [seat_label(g.state, g.seats, d.seat, self.lang) for d in res.next]
            if nxt:
                self.tell("terminal.now", names=nxt)

    async def command(self, line: str, seat: int) -> str | None:
        typed, _, rest = line.partition(" ")
        word = local_word(self.lang, typed) or typed.lower()  # the terminal's own, any words
        if word == "help":
            self.say(help_text(self.lang, self.game_name))
            grammar = grammar_lines(self.lang, self.game_name)
            if grammar:
                self.tell("terminal.help.game_commands")
                self.say("\n".join(f"  {g}" for g in grammar))
        elif word == "quit":
            return "quit"
        elif word == "legal" and not rest:
            g = self.game = await self.svc.peek(self.game_id)
            texts = g.legal_texts(seat, lang=self.lang)  # in the words of its language
            if texts:
                self.relay("\n".join(f"  {t}" for t in texts))
                for note in self.notes(g, seat):
                    self.relay(f"  {note}")
            else:
                self.tell("terminal.legal.none", "  ")
        elif word == "undo" and not rest:
            await self.undo(seat)
        elif word == "board" and not rest:
            await self.show(await self.svc.reading.board(self.game_id, lang=self.lang))
        elif word == "score" and not rest:
            await self.score()
        elif word == "log" and not rest:
            log = await self.svc.reading.log(self.game_id, lang=self.lang)
            self.relay("\n".join(f"  {t}" for t in log))
        elif word == "hand":
            await self.hand(rest.strip())
        elif word == "rules":
            found = self.rules(rest.strip()) if rest.strip() else []
            if found:
                self.relay("\n\n".join(found))
            else:
                example = self.svc.reading.rule_example(self.game_name)
                self.tell("terminal.rules.none", "  ", example=example)
        else:
            # typed in the canonical notation or in the words of the terminal's language: the
            # command and the computer players after it, the game loaded once
            played = await self.svc.turns.play(
                self.game_id, seat, line, lang=self.lang, on_step=self.show
            )
            g = self.game = played.game
            if not played.refused and not played.ai.applied:  # nobody played after it
                self.actor = (seat, g.version)
            if played.ai.applied:
                nxt = [seat_label(g.state, g.seats, d.seat, self.lang) for d in played.ai.next]
                if nxt:
                    self.tell("terminal.now", names=nxt)
        return None

    def notes(self, g: GameSession, seat: int) -> list[str]:
        """What ``seat`` should know of its options to choose now, in the game's words
        (Brazil: Imperial's missions it may keep or reveal, with their objectives)."""
        if not g.decides(seat):
            return []
        return g.A.notes(g.state, seat, g.legal(seat), self.lang)

    def hint(self, g: GameSession, seat: int) -> None:
        """Say what ``seat`` may do now, before its prompt: the kinds of its legal steps in
        the game's words (the labels of the guided menu's groups: one group per command
        word) and the step that finishes its turn (the game's "nothing more" answer,
        ``default_answer``); after a step of its own, what it may still do. A decision that
        begins shows the notes on its options too (:meth:`notes`) when one person plays at
        this terminal (they may be secret)."""
        choices = g.choices(seat, lang=self.lang)
        if not choices:
            return
        A = g.A
        turn = A.pending_kind(g.state, seat) == "turn"
        done = A.default_answer(g.state, seat) if turn else None
        finish = g.describe(done) if done is not None else None
        groups: dict[str, list[Choice]] = {}
        for c in choices:
            if c.command != finish and c.command.split():
                groups.setdefault(c.command.split()[0], []).append(c)
        kinds = [A.group_label(m, w, lang=self.lang).text for w, m in groups.items()]
        still = self.actor == (seat, g.version)  # its own step was the last one
        said = localize(finish, self.lang, self.game_name) if finish is not None else None
        if kinds and said is not None:
            key = "terminal.hint.still_or_end" if still else "terminal.hint.may_or_end"
            self.tell(key, "  ", kinds=kinds, command=said)
        elif kinds:
            self.tell("terminal.hint.still" if still else "terminal.hint.may", "  ", kinds=kinds)
        elif said is not None:
            self.tell("terminal.hint.end", "  ", command=said)
        if not still and sum(1 for s in self.seats if not s.ai) == 1:
            for note in A.notes(g.state, seat, g.legal(seat), self.lang):
                self.relay(f"  {note}")

    async def undo(self, seat: int) -> None:
        """Take back ``seat``'s last step, or say why not (the service's refusal, in this
        terminal's language)."""
        played = await self.svc.turns.undo(self.game_id, seat, lang=self.lang)
        self.game = played.game
        if played.refused:
            self.errors += 1
            for e in played.command.errors:
                self.say(f"  ! {e.text_in(self.lang)}")
            return
        await self.show(played.command, actor=seat)

    async def score(self) -> None:
        """The public scores, one line per player (named as :func:`seat_label` names them in
        this terminal's language)."""
        g = self.game = await self.svc.peek(self.game_id)
        rows = self.svc.reading.score_rows(g.state, g.seats)
        for r in rows:
            who = seat_label(g.state, g.seats, r.seat, self.lang)
            if r.hidden:  # behind the player's screen (Tigris & Euphrates)
                self.tell("terminal.score.hidden", "  ", who=who)
                continue
            key = "terminal.score.row_winner" if r.winner else "terminal.score.row"
            self.tell(key, "  ", who=who, score=g.A.score_text(r.total, self.lang))

    def rules(self, query: str, limit: int = 3) -> list[str]:
        """What ``rules`` answers for an ID or words, in this terminal's language: the game's
        components the query names (Brazil: Imperial's missions by id or name, with their
        objectives: :func:`service.catalog.lookup`), else the rules-reference entries of
        this game."""
        named = catalog.lookup(query, self.game_name, self.lang)
        if named:
            return named[:limit]
        found = lookup(query, limit, lang=self.lang, game=self.game_name)
        return [format_entry(e, markdown=False, lang=self.lang) for e in found]

    async def hand(self, name: str) -> None:
        """Show one human seat's hand; interactive: confirm first, clear the screen after."""
        src = self.source
        assert src is not None
        humans = [s.name for s in self.seats if not s.ai]
        L = self.L
        if not name and src.interactive:
            name = (await src.read(L("terminal.hand.whose", names=humans) + " ", None)) or ""
        seat = self.seat_named(name) if name else None
        if seat is None and not name and len(humans) == 1:
            seat = self.seat_named(humans[0])
        if seat is None:
            self.tell("terminal.hand.say_one", "  ", names=humans)
            return
        who = self.seats[seat].name
        if src.interactive:
            await src.pause(L("terminal.hand.only", who=who) + " ")
        res = await self.svc.reading.hand(self.game_id, seat, news=True, lang=self.lang)
        for post in res.posts:
            self.relay(post.text)
            for req in post.images:
                data = await self.draw(req, res.frames[req.version])
                if data is not None:
                    path = self.out_dir / "private" / f"hand-{who}.png"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
                    self.tell("terminal.hand.image", "  ", path=path)
        if src.interactive:
            await src.pause(L("terminal.hand.clear") + " ")
            src.clear()


PROJECT = Path(__file__).resolve().parents[1]
RUN_SH = PROJECT / "scripts" / "run.sh"
"""Starts the project's own interpreter (.venv) from the repo root: ``bash scripts/run.sh``."""


def resume_command(
    game_id: int,
    db: str | None = None,
    out_dir: Path | None = None,
    game: str = DEFAULT_GAME,
) -> str:
    """The command line that goes on with a saved game, as it works when typed in the current
    folder: ``bash scripts/run.sh local --resume N`` (run.sh starts the project's
    interpreter, which need not be on PATH, in the repo root), with ``--db`` (an absolute
    path) unless ``db`` is what run.sh opens by default, and ``--out`` unless ``out_dir`` is
    the folder it writes to by default. Without run.sh (the package installed elsewhere):
    this interpreter's ``-m bot``."""
    if RUN_SH.is_file():
        here = Path.cwd().resolve()
        run_sh = RUN_SH.relative_to(here) if RUN_SH.is_relative_to(here) else RUN_SH
        argv, base = ["bash", str(run_sh)], PROJECT
    else:
        argv, base = [sys.executable, "-m", "turnpost"], Path.cwd()
    argv += ["local", "--resume", str(game_id)]
    if db is not None:
        from storage.location import parse_location

        where = parse_location(db)
        if where.kind == "postgres":
            argv += ["--db", db]
        else:
            path = Path(where.target).resolve()
            default = env("DB") is None and path == base / "turnpost.sqlite3"
            if not default:
                argv += ["--db", str(path)]
    if out_dir is not None:
        out = out_dir.resolve()
        if out != base / f"{game}-local" / f"game-{game_id}":
            argv += ["--out", str(out)]
    return shlex.join(argv)


def grammar_lines(lang: str = i18n.DEFAULT, game: str = DEFAULT_GAME) -> list[str]:
    """The game commands' grammar for ``help``: each command and an example, written with
    ``lang``'s words for the game's commands and placeholders
    (:func:`i18n.notation.localize_usage`; the canonical notation is read in every language
    too)."""
    L = i18n.translator(lang)
    args = catalog.help_args(game)
    rows = [
        (localize_usage(cmd, lang, game, args), localize_usage(ex, lang, game))
        for cmd, _, ex in catalog.grammar(game)
    ]
    return [f"{cmd:45} {L('terminal.help.example', example=ex)}" for cmd, ex in rows]


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


def check_web(args: argparse.Namespace, *, lang: str = i18n.DEFAULT) -> None:
    """``--web-port`` from 0 to 65535 and a non-empty ``--web-host``: :class:`BadArguments`."""
    if args.web_port is not None and not 0 <= args.web_port <= MAX_PORT:
        raise BadArguments(
            i18n.tr(lang, "terminal.error.web_port", high=MAX_PORT, port=args.web_port)
        )
    if args.web_host is not None and not args.web_host.strip():
        raise BadArguments(i18n.tr(lang, "terminal.error.web_host"))


async def start_web(
    svc: GameService, args: argparse.Namespace, *, lang: str = i18n.DEFAULT
) -> WebServer | None:
    """The page server over ``svc``, bound and serving, when the command line asks for it
    (None otherwise); :class:`BadArguments` in one line when the address cannot be bound."""
    if not web_wanted(args):
        return None
    check_web(args, lang=lang)
    from web.server import WebServer, bind_error

    host = (args.web_host or DEFAULT_HOST).strip()
    port = DEFAULT_PORT if args.web_port is None else args.web_port
    server = WebServer(svc, host=host, port=port)
    try:
        await server.start()
    except OSError as e:
        why = bind_error(e, i18n.tr(lang, "terminal.error.web_port_hint"), lang)
        raise BadArguments(
            i18n.tr(lang, "terminal.error.web_bind", host=host, port=port, why=why)
        ) from None
    return server


# ====================================================================== entry point


def add_game_argument(p: argparse.ArgumentParser) -> None:
    """``--game NAME`` (local and demo): checked by :func:`check_game` (one line, exit 2)."""
    p.add_argument(
        "--game",
        default=None,
        metavar="NAME",
        help=f"the game: {', '.join(catalog.games())} (default {DEFAULT_GAME})",
    )


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_game_argument(p)
    p.add_argument("--players", type=int, default=None, help="number of players (1-4)")
    p.add_argument("--seats", default=None, help='e.g. "Ana,Bo,ai:heuristic,ai:search"')
    p.add_argument("--scenario", default=None, help="map id (default: the player count's)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument(
        "--db", default=None, help="SQLite file (default $TURNPOST_DB or ./turnpost.sqlite3)"
    )
    p.add_argument("--resume", type=int, default=None, metavar="GAME", help="a saved game id")
    p.add_argument("--script", default=None, metavar="FILE", help="play the commands in FILE")
    p.add_argument("--out", default=None, metavar="DIR", help="image folder")
    add_lang_argument(p)
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


def language(code: str) -> str:
    """``--lang``'s type: a served language for a code as people write it (``pt_BR``,
    ``de-DE``, ``Magyar``); an unknown one is refused with the list of supported languages
    (argparse prints it after ``error:`` and exits 2, no traceback)."""
    try:
        return i18n.require(code)
    except i18n.UnknownLanguage as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_lang_argument(p: argparse.ArgumentParser) -> None:
    """``--lang LANG`` (local and demo); the default is the system locale's language."""
    default = i18n.system_language()
    p.add_argument(
        "--lang",
        type=language,
        default=default,
        metavar="LANG",
        help=f"language: {', '.join(i18n.supported())} (default: the system locale's, "
        f"now {default})",
    )


def chosen_language(args: argparse.Namespace) -> str:
    """The language of ``args.lang`` (the system locale's when it is missing or empty);
    raises :class:`BadArguments` listing the supported languages for an unknown one."""
    lang = getattr(args, "lang", None)
    if not lang:
        return i18n.system_language()
    try:
        return i18n.require(lang)
    except i18n.UnknownLanguage as e:
        raise BadArguments(str(e)) from None


async def play(
    args: argparse.Namespace,
    *,
    out: TextIO | None = None,
    make_source: Callable[[LocalGame], LineSource] | None = None,
) -> int:
    """Check the arguments (nothing is created before), then open the database and play.
    Raises :class:`BadArguments`, :class:`Refused` or a storage error on refusal."""
    out = sys.stdout if out is None else out  # the streams of the moment (a test's)
    from storage.location import open_store

    lang = chosen_language(args)
    db = args.db or default_db()
    label = "--db" if args.db else "TURNPOST_DB" if env("DB") is not None else "--db"
    check_db(db, resume=args.resume, label=label, lang=lang, write=True)
    game = check_game(getattr(args, "game", None), lang=lang)
    if args.resume is None:
        seats = seat_specs(args.players, args.seats, lang=lang, game=game)
    else:
        seats = []
    check_web(args, lang=lang)
    lines = read_script(args.script, lang=lang) if args.script and make_source is None else None
    check_out(Path(args.out) if args.out else Path(f"{game}-local"))
    workers = worker_pool(args)
    store = open_store(db, create=args.resume is None)
    svc = GameService(store, workers=workers)
    check_scenario(args.scenario, lang=lang, game=game)
    if args.resume is None:  # a map for another player count, ...: before the database
        catalog.build_game(len(seats), args.scenario, args.seed, game=game)
    server = await start_web(svc, args, lang=lang)  # bound before anything is created
    try:
        return await _play(
            args,
            db,
            store,
            svc,
            seats,
            lines,
            server,
            out=out,
            make_source=make_source,
            lang=lang,
            game=game,
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
    lang: str = i18n.DEFAULT,
    game: str = DEFAULT_GAME,
) -> int:
    """Open the database, start or resume the game and play it (see :func:`play`)."""
    from storage import GameNotFound

    async with store, svc.workers:
        posts: list[str] = []
        resumed: int | None = None  # the version of a resumed game
        if args.resume is not None:
            try:
                info = await svc.info(args.resume)
            except GameNotFound:
                raise BadArguments(
                    await no_game_text(store, args.resume, db, "terminal.error.no_game", lang)
                ) from None
            gid, seats, resumed = info.game_id, list(info.seats), info.version
            game = info.game
        else:
            # the game's language (its public posts and images): the terminal's
            res = await svc.new_game(
                seats, scenario=args.scenario, seed=args.seed, language=lang, game=game
            )
            gid = res.game_id
            posts = [post.text for post in res.public()]
        out_dir = Path(args.out) if args.out else Path(f"{game}-local") / f"game-{gid}"
        local = LocalGame(svc, gid, seats, out_dir, out=out, lang=lang)
        local.game_name = game
        local.db = db
        if resumed is not None:
            local.tell("terminal.resuming", game=gid, version=resumed)
        for text in posts:
            local.relay(text)
        for i, spec in enumerate(seats):  # the computer players' strength on the rating scale
            rating = ai_scale.ai_shown(game, spec.ai) if spec.ai else None
            if spec.ai and rating is not None:
                name, level = seat_name(seats, i, lang), ai_level_word(lang, spec.ai)
                if spec.named_by_level:  # its name says its level
                    local.tell("terminal.ai.seat_rated", name=name, rating=rating)
                else:
                    local.tell("terminal.ai.rated", name=name, level=level, rating=rating)
        local.tell("terminal.images_folder", folder=out_dir.resolve())
        if resumed is not None:
            await local.greet()
        else:
            await local.first_picture()
        if server is not None:
            local.tell("terminal.page", url=await server.page_url(gid))
        if make_source is not None:
            source = make_source(local)
        elif lines is not None:
            source = ScriptSource(lines, out)
        else:
            source = prompt_source(local)
        try:
            return await local.run(source)
        except (KeyboardInterrupt, asyncio.CancelledError):
            local.say()
            local.tell("terminal.saved", command=local.resume_command())
            return 0


async def no_game_text(store: GameStore, game: int, db: str, key: str, lang: str) -> str:
    """``no game #N in DB (saved games: 1, 2)``: the message ``key`` naming the saved games."""
    ids = [str(g.id) for g in await store.list_games(limit=10)]
    L = i18n.translator(lang)
    saved = L("terminal.error.saved_games", ids=ids) if ids else L("terminal.error.no_saved")
    return L(key, game=game, db=db, saved=saved)


def fail(message: object, code: int = 2, *, lang: str = i18n.DEFAULT) -> int:
    """One line on stderr (no traceback) and the exit code: 2 for bad arguments."""
    print(i18n.tr(lang, "terminal.error", message=message), file=sys.stderr)
    return code


def language_of(args: argparse.Namespace) -> str:
    """The language of a command line for its last words (:func:`chosen_language`, English
    when it names none the catalogues serve)."""
    try:
        return chosen_language(args)
    except BadArguments:
        return i18n.DEFAULT


def store_error_text(e: Exception, lang: str = i18n.DEFAULT) -> str:
    """A storage refusal in ``lang`` (``e.text(lang)``: the English text of an error that has
    no message key) with the hint for a file that is not one of our databases."""
    from storage import NotAGameDatabase, StorageError

    text = e.text(lang) if isinstance(e, StorageError) else str(e)
    if isinstance(e, NotAGameDatabase):
        return f"{text} ({i18n.tr(lang, 'terminal.error.choose_db')})"
    return text


def os_error_text(e: OSError) -> str:
    """``[Errno 2] No such file...: 'x'`` as ``x: No such file or directory``."""
    if e.strerror and e.filename:
        return f"{e.filename}: {e.strerror}"
    return e.strerror or str(e)


def main(args: argparse.Namespace) -> int:
    from storage import StorageError

    lang = language_of(args)
    try:
        return asyncio.run(play(args))
    except KeyboardInterrupt:
        print("\n" + i18n.tr(lang, "terminal.saved_every_step"), file=sys.stdout)
        return 0
    except BadArguments as e:
        return fail(e, lang=lang)
    except Refused as e:  # e.g. a map for another player count: why, in the language
        return fail(e.text(lang), lang=lang)
    except StorageError as e:  # --db names a file that is not one of our databases, ...
        return fail(store_error_text(e, lang), lang=lang)
    except OSError as e:  # the image folder cannot be written, ...
        return fail(os_error_text(e), 1, lang=lang)
