"""The documentation is true: its code blocks run and its links lead somewhere.

Pages: ``README.md`` and every ``docs/**/*.md``. The convention (also in
``docs/dev/testing.md``):

- A fenced block whose info string is ``python`` runs as a script (the repository on
  ``sys.path``, a temporary folder as working folder) and must exit 0.
- A fenced block whose info string is ``console`` holds commands, each on a line starting with
  ``$ ``; every command must be ``python -m …`` and runs (the same way) and must exit 0. The
  other lines are what it prints, shown to the reader and not compared.
- ``<!-- norun -->`` on the line before the fence keeps a block from running (it needs Discord,
  the network or minutes); ``<!-- slow -->`` runs it under ``pytest.mark.slow``.
- Any other info string (``text``, ``sh``, ``toml``, none…) is never run.

Every link of those pages (``[text](target)``, images too) that is not a web address is
relative, names a file or folder of the repository that exists and, for an ``#anchor`` into a
Markdown page, a heading (GitHub's anchor of it) or an ``<a id>`` of that page.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
RUNNABLE = ("python", "console")
TIMEOUT = 120  # seconds a block may take (a slow one: 10 times as long)

FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)[^`]*$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # the fence's line, 1-based
    info: str
    code: str
    marks: frozenset[str]  # "norun", "slow"

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a page, with the marks (``<!-- norun -->``) just before."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        fence, start = m["fence"], i
        body: list[str] = []
        i += 1
        while i < len(lines) and not (
            lines[i].strip().startswith(fence) and not lines[i].strip().strip(fence[0])
        ):
            body.append(
                lines[i][len(m["indent"]) :] if lines[i].startswith(m["indent"]) else lines[i]
            )
            i += 1
        i += 1  # past the closing fence
        before = lines[start - 1].strip() if start > 0 else ""
        marks = frozenset(re.findall(r"<!--\s*(norun|slow)\s*-->", before))
        found.append(Block(page, start + 1, m["info"].lower(), "\n".join(body) + "\n", marks))
    return found


ALL_BLOCKS = [b for page in PAGES for b in blocks(page)]
TO_RUN = [b for b in ALL_BLOCKS if b.info in RUNNABLE and "norun" not in b.marks]


Command = tuple[dict[str, str], list[str]]  # settings (NAME=value) and arguments


def commands(block: Block) -> list[Command]:
    """The commands of a ``console`` block: ``[NAME=value ...] python -m …``."""
    found: list[Command] = []
    for line in block.code.splitlines():
        if not line.startswith("$ "):
            continue
        words = shlex.split(line[2:])
        env = {}
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
            name, _, value = words.pop(0).partition("=")
            env[name] = value
        assert words[:2] == ["python", "-m"], (
            f"{block.name}: only `python -m …` commands run here ({line!r}); "
            "put <!-- norun --> before the block if it must not run"
        )
        found.append((env, [sys.executable, *words[1:]]))
    assert found, f"{block.name}: a console block without a `$ ` command"
    return found


def run(
    args: list[str], cwd: Path, timeout: float, settings: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURNPOST_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["TURNPOST_DB"] = str(cwd / "turnpost.sqlite3")  # never the reader's own database
    env.pop("DISCORD_TOKEN", None)
    env.update(settings or {})
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_the_pages_have_runnable_blocks() -> None:
    """The collection works: the README's and the docs' examples are found."""
    assert ROOT / "README.md" in {b.page for b in TO_RUN}
    assert len(TO_RUN) >= 5


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(b, id=b.name, marks=[pytest.mark.slow] if "slow" in b.marks else [])
        for b in TO_RUN
    ],
)
def test_code_block_runs(block: Block, tmp_path: Path) -> None:
    timeout = TIMEOUT * (10 if "slow" in block.marks else 1)
    if block.info == "python":
        script = tmp_path / "example.py"
        script.write_text(block.code, encoding="utf-8")
        todo: list[Command] = [({}, [sys.executable, str(script)])]
    else:
        todo = commands(block)
    for settings, args in todo:
        done = run(args, tmp_path, timeout, settings)
        assert done.returncode == 0, (
            f"{block.name}: {' '.join(args[1:])} exited {done.returncode}\n"
            f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        )


# --- links -------------------------------------------------------------------------------

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def prose(page: Path, *, code: bool = False) -> list[tuple[int, str]]:
    """The page's lines outside fenced code blocks (their inline code removed, unless
    ``code``)."""
    out, fence = [], ""
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if m and not fence:
            fence = m["fence"]
            continue
        if fence:
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = ""
            continue
        out.append((n, line if code else re.sub(r"`+[^`]*`+", "", line)))
    return out


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors a link may name in a page: its headings' (GitHub's, the n-th repeat of a
    heading getting ``-n``) and its ``<a id>``s."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose(page, code=True):
        found.update(ANCHOR.findall(line))
        h = HEADING.match(line)
        if h:
            s = slug(h[2])
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else f"{s}-{n}")
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """The page's links (line number, target), a link's text may run over lines."""
    lines = dict(prose(page))
    text = "\n".join(lines.get(n, "") for n in range(1, max(lines, default=0) + 1))
    return [(text.count("\n", 0, m.start()) + 1, m[1]) for m in LINK.finditer(text)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_are_relative_and_lead_somewhere(page: Path) -> None:
    bad = []
    for n, target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            if "github.com" in target and "/blob/" in target:
                bad.append(f"{n}: {target}: a page of this repository by a relative link")
            continue
        path, _, anchor = target.partition("#")
        if path.startswith("/"):
            bad.append(f"{n}: {target}: absolute; relative links only")
            continue
        dest = (page.parent / unquote(path)).resolve() if path else page
        if not dest.is_relative_to(ROOT) or not dest.exists():
            bad.append(f"{n}: {target}: no such file")
            continue
        if anchor and dest.suffix == ".md" and unquote(anchor) not in anchors(dest):
            bad.append(f"{n}: {target}: no such heading in {dest.relative_to(ROOT)}")
    assert not bad, f"{page.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_link_check_sees_links() -> None:
    readme = ROOT / "README.md"
    assert any(t.startswith("docs/") for _, t in links(readme))
    assert slug("The rules engine (`rules/`)") == "the-rules-engine-rules"
