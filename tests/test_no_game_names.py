"""Issue 28: the house names no game. A game's folders (the packages its registration names:
``rules.brazil``, ``service.games.brazil``, ``ai.brazil``, ``render.brazil``…) are the only
modules that import a game's modules or name a game; every platform module reaches a game
through the registry (:mod:`rules.registry`).

Until every platform module is free of them, the remaining arrows and names are listed here
as they are: a new one fails the test, and so does a listed one that is gone (shrink the list
with the code). The counts come from the code's own tokens (comments and docstrings aside)."""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from pathlib import Path

from rules.registry import Registration, registrations

ROOT = Path(__file__).resolve().parents[1]
PLATFORM = ("rules", "i18n", "storage", "ai", "service", "web", "bot", "terminal", "devtools")

# platform module -> the game folders it still imports (to be emptied)
KNOWN_ARROWS: dict[str, set[str]] = {}
# 25 (from 305 before issue 28): the frozen names of docs/dev/frozen.md — the PostgreSQL
# migrations' objects, the export and backup format ids, the game of records stored before
# games had names, the deprecated BRAZIL_ settings' prefix
MOST_NAMES = 25


def _folders(reg: Registration) -> set[str]:
    refs = [reg.face, reg.adapter, reg.agents, reg.tournament, reg.engine_messages]
    refs += list(reg.preload)
    out = set()
    for ref in refs:
        if not ref:
            continue
        parts = ref.partition(":")[0].split(".")
        if reg.name in parts:
            out.add(".".join(parts[: parts.index(reg.name) + 1]))
    return out


FOLDERS = {f: name for name, reg in registrations().items() for f in _folders(reg)}


def _in_game(module: str) -> bool:
    """A module of a game's own folder: one its registration names, or any package of a
    platform layer named after the game (``devtools.brazil``, ``devtools.peer_tigris``)."""
    if any(module == f or module.startswith(f + ".") for f in FOLDERS):
        return True
    games = registrations()
    return any(p in games or p.rpartition("_")[2] in games for p in module.split("."))


def _platform_files() -> dict[str, Path]:
    out = {}
    for top in PLATFORM:
        for path in (ROOT / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            if not _in_game(module):
                out[module] = path
    return out


def _arrows() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for module, path in _platform_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            for t in targets:
                for folder in FOLDERS:
                    if t == folder or t.startswith(folder + "."):
                        found.setdefault(module, set()).add(folder)
    return found


def test_the_game_folders_come_from_the_registrations() -> None:
    assert {"rules.brazil", "service.games.brazil", "rules.tigris"} <= set(FOLDERS)


def test_no_platform_module_imports_a_game_but_the_listed_ones() -> None:
    found = _arrows()
    new = {m: f - KNOWN_ARROWS.get(m, set()) for m, f in found.items()}
    assert {m: f for m, f in new.items() if f} == {}, "a platform module imports a game"
    gone = {m: f - found.get(m, set()) for m, f in KNOWN_ARROWS.items()}
    assert {m: f for m, f in gone.items() if f} == {}, "remove these from KNOWN_ARROWS"


def _names(path: Path, games: set[str]) -> Counter[str]:
    """The game names in a file's code: each name or string token that says one, not
    comments or documentation (a string standing as a statement of its own)."""
    text = path.read_text(encoding="utf-8")
    docs = {
        node.value.lineno
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }
    counts: Counter[str] = Counter()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING and tok.start[0] in docs:
            continue
        if tok.type in (tokenize.NAME, tokenize.STRING):
            low = tok.string.lower()
            for g in games:
                if g in low:
                    counts[g] += 1
                    break
    return counts


def test_the_platform_names_the_games_no_more_than_counted() -> None:
    games = set(registrations())
    total: Counter[str] = Counter()
    for path in _platform_files().values():
        total += _names(path, games)
    assert sum(total.values()) <= MOST_NAMES, dict(total)


CODE = (".py", ".toml", ".js", ".css", ".html", ".sh", ".cfg", ".ini", ".mjs")


def _one_folder_games() -> dict[str, Path]:
    """The registered games that live in one folder outside the platform's packages (the
    example game, examples/kuhn): name -> folder."""
    out = {}
    for name, reg in registrations().items():
        top = reg.face.partition(":")[0].split(".")
        if top[0] not in PLATFORM and name in top:
            out[name] = ROOT.joinpath(*top[: top.index(name) + 1])
    return out


def test_a_one_folder_game_is_named_nowhere_but_in_its_folder_and_its_registration() -> None:
    """Adding such a game changed no platform file: no code outside its folder names it,
    except the lines of ``pyproject.toml`` that register and package it."""
    games = _one_folder_games()
    assert games, "the example game is registered"
    for name, folder in games.items():
        assert folder.is_dir()
        found = []
        for path in ROOT.rglob("*"):
            rel = path.relative_to(ROOT)
            if (
                not path.is_file()
                or path.suffix not in CODE
                or rel.parts[0].startswith(".")
                or folder in path.parents
            ):
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if name not in line.lower():
                    continue
                module = ".".join(folder.relative_to(ROOT).parts)
                registering = path.name == "pyproject.toml" and (
                    line.startswith(f"{name} = ") or line.startswith(f'"{module}" = ')
                )
                if not registering and path != Path(__file__):
                    found.append(f"{rel}:{n}: {line.strip()}")
        assert found == [], f"{name} is named outside {folder.relative_to(ROOT)}"
