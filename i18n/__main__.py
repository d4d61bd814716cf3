"""python -m i18n check [LANG...] | languages | missing LANG: the catalogues' state."""

from __future__ import annotations

import argparse
import sys

from i18n.catalogue import DEFAULT, catalogue, languages, supported
from i18n.check import problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m i18n", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="list every problem of the catalogues (exit 1 if any)")
    c.add_argument("langs", nargs="*", help="languages to check (default: all)")
    c.add_argument(
        "--prefix", action="append", default=[], help="only keys starting with this (repeatable)"
    )
    sub.add_parser("languages", help="the languages served, with their sizes")
    args = p.parse_args(argv)
    if args.cmd == "languages":
        n = len(catalogue(DEFAULT).messages)
        for code in supported():
            lang = languages()[code]
            have = len(catalogue(code).messages)
            print(f"{code:6} {lang.name:22} {lang.english:20} {have:5}/{n} keys")
        return 0
    prefixes = tuple(args.prefix)
    found = [x for code in (args.langs or supported()) for x in problems(code, prefixes)]
    print("\n".join(found) if found else "every catalogue is whole")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
