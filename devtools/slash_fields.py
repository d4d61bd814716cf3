"""Rewrite the slash commands the catalogues name literally as ``{/…}`` fields (issue #32).

    python -m devtools.slash_fields            # list what would change
    python -m devtools.slash_fields --write    # rewrite the files

A message names a slash command only through the field ``{/game status}`` (:mod:`i18n.render`),
which renders the names the bot registers with Discord for the reader's language. This tool
finds, in every ``i18n/locales/<lang>/*.toml``, a ``/`` that starts a command's name in English
or in that language (``/seat back``, ``/kéz``, ``/{@cmd.game.name} {@cmd.game.new.name}``) and
writes the field instead; an option with a choice after it (``/kéz hol:privát szál``) becomes
the option's and choice's term references. It changes nothing twice; what it cannot read stays
for ``tests/i18n/test_command_names.py`` to report.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from i18n.catalogue import DEFAULT, LOCALES, load_all

LINE = re.compile(r'^("[^"]+"\s*=\s*")(.*)("\s*)$')
ATREF = re.compile(r"/\{@cmd\.([a-z_.]+)\.name\}((?: \{@cmd\.[a-z_.]+\.name\})*)")
OPTIONS = (("hand", "where", "where"), ("notices", "mode", "notices"))
"""(command, option, choice set) of the options written with a choice in the texts."""


def _paths() -> list[list[str]]:
    en = load_all()[DEFAULT].messages
    out = []
    for k in en:
        m = re.fullmatch(r"cmd\.([a-z_]+(?:\.[a-z_]+)*)\.name", k)
        if m and ".opt." not in k and not k.startswith("cmd.choice."):
            out.append(m.group(1).split("."))
    return out


class Converter:
    """One language's command names, and the rewriting of one text."""

    def __init__(self, lang: str) -> None:
        cats = load_all()
        self.lang = lang
        self.en = cats[DEFAULT].messages
        self.mine = cats[lang].messages
        self.paths = _paths()

    def names(self, path: list[str]) -> set[str]:
        key = "cmd." + ".".join(path) + ".name"
        return {n for n in (self.en.get(key), self.mine.get(key)) if n}

    def children(self, prefix: list[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for p in self.paths:
            if len(p) == len(prefix) + 1 and p[: len(prefix)] == prefix:
                for n in self.names(p):
                    found[n] = p
        return found

    @staticmethod
    def _ends(text: str, j: int) -> bool:
        return j == len(text) or not (text[j].isalnum() or text[j] in "_-")

    def _longest(self, text: str, j: int, prefix: list[str]) -> tuple[str, list[str]] | None:
        best: tuple[str, list[str]] | None = None
        for n, p in self.children(prefix).items():
            fits = text.startswith(n, j) and self._ends(text, j + len(n))
            if fits and (best is None or len(n) > len(best[0])):
                best = (n, p)
        return best

    def _atref(self, m: re.Match[str]) -> str:
        segs = m.group(1).split(".")
        for sub in re.findall(r"\{@cmd\.([a-z_.]+)\.name\}", m.group(2)):
            s = sub.split(".")
            if s[:-1] != segs or ".opt." in sub:
                rest = m.group(2)[m.group(2).index("{@cmd." + sub) - 1 :]
                return "{/" + " ".join(segs) + "}" + rest
            segs = s
        return "{/" + " ".join(segs) + "}"

    def commands(self, text: str) -> str:
        """``text`` with each literal slash command written as a ``{/…}`` field."""
        text = ATREF.sub(self._atref, text)
        out: list[str] = []
        i = 0
        while i < len(text):
            if text[i] == "/" and (i == 0 or text[i - 1] in ' `("'):
                prefix: list[str] = []
                j = i + 1
                while (found := self._longest(text, j, prefix)) is not None:
                    prefix, j = found[1], j + len(found[0])
                    if not (text.startswith(" ", j) and self._longest(text, j + 1, prefix)):
                        break
                    j += 1
                if prefix:
                    out.append("{/" + " ".join(prefix) + "}")
                    i = j
                    continue
            out.append(text[i])
            i += 1
        return "".join(out)

    def options(self, text: str) -> str:
        """``{/hand} hol:privát szál`` -> the option's and the choice's term references."""
        for cmd, opt, kind in OPTIONS:
            pattern = re.compile(r"\{/" + cmd + r"\} ([^\s:`]+): ?([^`]+)`")
            out: list[str] = []
            pos = 0
            for m in pattern.finditer(text):
                out += [text[pos : m.start()], self._option(m, cmd, opt, kind)]
                pos = m.end()
            text = "".join(out) + text[pos:]
        return text

    def _option(self, m: re.Match[str], cmd: str, opt: str, kind: str) -> str:
        key = f"cmd.{cmd}.opt.{opt}.name"
        if m.group(1) not in {n for n in (self.en.get(key), self.mine.get(key)) if n}:
            return m.group(0)
        for k, v in self.en.items():
            if k.startswith(f"cmd.choice.{kind}.") and m.group(2) in {v, self.mine.get(k, v)}:
                choice = k.rsplit(".", 1)[1]
                return f"{{/{cmd}}} {{@cmd.{cmd}.opt.{opt}.name}}: {{@cmd.choice.{kind}.{choice}}}`"
        return m.group(0)

    def convert(self, text: str) -> str:
        return self.options(self.commands(text))


def convert_file(path: Path, lang: str) -> list[tuple[str, str]]:
    """The lines of ``path`` that change: (before, after)."""
    conv = Converter(lang)
    out: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        m = LINE.match(line)
        if m:
            new = m.group(1) + conv.convert(m.group(2)) + m.group(3)
            if new != line:
                out.append((line, new))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m devtools.slash_fields", description=__doc__)
    p.add_argument("--write", action="store_true", help="rewrite the files")
    p.add_argument("--dir", type=Path, default=LOCALES, help="the locale folder")
    args = p.parse_args(argv)
    changed = 0
    for folder in sorted(d for d in args.dir.iterdir() if d.is_dir()):
        for path in sorted(folder.glob("*.toml")):
            lines = convert_file(path, folder.name)
            changed += len(lines)
            if not lines:
                continue
            if args.write:
                text = path.read_text(encoding="utf-8")
                for before, after in lines:
                    text = text.replace(before, after, 1)
                path.write_text(text, encoding="utf-8")
            for before, after in lines:
                print(f"{path}:\n  - {before}\n  + {after}")
    print(f"{changed} line(s) {'rewritten' if args.write else 'to rewrite'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
