"""Rewrite a language's catalogue files in its typography (``python -m devtools.typography fr``):
every message value through :func:`i18n.grammar.polish_text` (French: one apostrophe, the
no-break spaces), so the catalogues read as the product shows them. The typed-command words
(``words.toml``) stay as players type them. A test checks the catalogues stay so."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from i18n.grammar import polish_text

ROOT = Path(__file__).resolve().parents[1] / "i18n" / "locales"
_LINE = re.compile(r'^(\s*"[^"]+"\s*=\s*")(.*)("\s*)$')


def rewrite(lang: str) -> list[Path]:
    changed: list[Path] = []
    for p in sorted((ROOT / lang).glob("*.toml")):
        if p.name == "words.toml":
            continue
        src = p.read_text(encoding="utf-8")
        out = []
        for line in src.splitlines(keepends=True):
            m = _LINE.match(line.rstrip("\n"))
            if m:
                value = polish_text(lang, m.group(2).replace("\\n", "\n")).replace("\n", "\\n")
                line = m.group(1) + value + m.group(3) + "\n"
            out.append(line)
        new = "".join(out)
        if new != src:
            tomllib.loads(new)
            p.write_text(new, encoding="utf-8")
            changed.append(p)
    return changed


def main(argv: list[str] | None = None) -> int:
    for lang in argv if argv is not None else sys.argv[1:]:
        for p in rewrite(lang):
            print(f"rewrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
