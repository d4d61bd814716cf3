"""A menu's words, whatever the game: what a guided turn's menu shows for a legal action.

A command of a game's notation is what a player types; a menu shows a :class:`Label` instead
(a short ``text`` and a longer ``description``, each at most :data:`MAX_TEXT` characters:
Discord's limits for a menu option). Each game's adapter (:mod:`service.games`) lists its
legal actions as :class:`Choice` s labelled in the game's own words (Brazil: Imperial's are in
its adapter's folder, ``labels``), the meaning of each word of a command (:class:`Part`) for
the menu's groups. This module names no game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_TEXT = 100  # Discord: an option's label and description


@dataclass(frozen=True)
class Label:
    """An action or a menu group as a menu shows it: ``text`` (the option's label) and
    ``description`` (the line under it), each at most 100 characters."""

    text: str
    description: str = ""


@dataclass(frozen=True)
class Part:
    """One word of a command and what it means: ``name`` (empty: nothing to read, e.g.
    ``trade`` in ``end trade``), put after ``sep`` when the parts are read in a row."""

    word: str
    name: str
    sep: str = " "


@dataclass(frozen=True)
class Choice:
    """One legal action of the decider for a menu: its number in the engine's listing
    (``index``), its command (``command``, what the player may type), its :class:`Label`,
    and the meaning of each word of the command (``parts``: for the menu groups)."""

    index: int
    command: str
    label: Label
    parts: tuple[Part, ...]
    action: Any = field(default=None, compare=False, repr=False)  # the engine's action


def clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
