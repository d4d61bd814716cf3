"""What the command lines of the engines and the developer tools share (``python -m rules``,
``python -m ai``, ``python -m devtools...``): a parser whose refusals are one line, and the
argparse types of their numbers, checked before anything runs (finite, in range).

A refused command line is one line on stderr (``prog: error: argument --seconds: must be
more than 0 and at most 3600, not 'nan'``) and exit status 2: no usage block, no traceback."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import NoReturn

MAX_SEED = 2**63 - 1
"""The largest seed: a signed 64-bit integer (what the game records store)."""


class OneLineParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose refusal is one line on stderr and exit
    status 2 (its sub-commands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (--help shows the options)\n")


def refuse(prog: str, message: str) -> NoReturn:
    """A refusal found after parsing, said as the parser says its own: one line, exit 2."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _bounds(low: float, high: float | None, *, above: bool) -> str:
    first = f"more than {low:g}" if above else f"at least {low:g}"
    return first if high is None else f"{first} and at most {high:g}"


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """argparse type: a whole number from ``low`` to ``high`` (no upper bound: None)."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                f"must be {_bounds(low, high, above=False)}, not {value}"
            )
        return value

    return whole


def seed(text: str) -> int:
    """argparse type: a seed, a whole number from 0 to 2**63 - 1."""
    return whole_number(0, MAX_SEED)(text)


def real_number(low: float, high: float, *, above: bool = True) -> Callable[[str], float]:
    """argparse type: a finite number more than ``low`` (``above``; else at least ``low``)
    and at most ``high``: ``nan`` and ``inf`` are refused."""

    def real(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        low_ok = value > low if above else value >= low
        if not math.isfinite(value) or not low_ok or value > high:
            raise argparse.ArgumentTypeError(
                f"must be {_bounds(low, high, above=above)}, not {text.strip()!r}"
            )
        return value

    return real


def finite_number(text: str) -> float:
    """argparse type: a finite number (``nan`` and ``inf`` refused); its range is checked
    after parsing (:func:`out_of_range`)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, not {text.strip()!r}")
    return value


def finite_numbers(text: str) -> list[float]:
    """argparse type: comma-separated finite numbers (at least one)."""
    values = [finite_number(part) for part in text.split(",") if part.strip()]
    if not values:
        raise argparse.ArgumentTypeError(f"no number in {text!r}")
    return values


def out_of_range(
    option: str, value: float, low: float, high: float | None, *, above: bool = False
) -> str | None:
    """``argument OPTION: must be ..., not VALUE`` when ``value`` is outside its range, else
    None (for the checks made after parsing)."""
    low_ok = value > low if above else value >= low
    if low_ok and (high is None or value <= high):
        return None
    return f"argument {option}: must be {_bounds(low, high, above=above)}, not {value:g}"
