"""Tigris & Euphrates: the visual language of its images (colours, sizes, words).

The four tile colours keep the game's own names (black, red, blue, green) but every tile also
carries its icon (a house, a stepped temple, a sheaf over furrows, a market awning), every
leader is a disc in its colour with its dynasty's symbol (bow, bull, pot, lion): shape and
colour together, so colour-blind players and small phone screens can tell them apart. Every
word comes from the ``render.tigris.*`` keys (``i18n/locales/<lang>/tigris_render.toml``).
"""

from __future__ import annotations

from render.theme import RGB
from render.words import Words
from rules.tigris.data import COLOURS, DYNASTIES, LEADERS, MONUMENTS, TILE_NAMES

# tile colours (index = the engine's colour number: 0 black, 1 red, 2 blue, 3 green)
TILE_FILL: tuple[RGB, ...] = ((45, 45, 50), (200, 45, 40), (30, 105, 200), (25, 140, 75))
TILE_FILL_HC: tuple[RGB, ...] = ((0, 0, 0), (215, 0, 0), (0, 70, 220), (0, 120, 40))
TILE_EDGE: tuple[RGB, ...] = ((10, 10, 10), (120, 20, 15), (10, 55, 120), (10, 80, 40))
ICON: RGB = (255, 255, 255)

LAND: RGB = (236, 224, 188)
LAND_HC: RGB = (250, 243, 215)
RIVER: RGB = (150, 196, 238)
RIVER_HC: RGB = (110, 175, 245)
RIVER_WAVE: RGB = (70, 130, 200)
GRID: RGB = (160, 145, 110)
DOWN_FILL: RGB = (150, 130, 100)  # a face-down tile (under a monument)
CATASTROPHE: RGB = (95, 75, 60)
TREASURE: RGB = (250, 200, 30)
TREASURE_EDGE: RGB = (140, 95, 0)
CORNER_FRAME: RGB = (200, 150, 20)
KINGDOM: RGB = (25, 20, 45)  # the outline of a kingdom: a thick near-black line
UNIFY: RGB = (255, 250, 235)


def tile_fill(colour: int, high_contrast: bool = False) -> RGB:
    return (TILE_FILL_HC if high_contrast else TILE_FILL)[colour]


def colour_name(t: Words, colour: int) -> str:
    return t(f"render.tigris.colour.{COLOURS[colour]}")


def tile_name(t: Words, colour: int) -> str:
    return t(f"render.tigris.tile.{TILE_NAMES[colour]}")


def leader_name(t: Words, colour: int) -> str:
    return t(f"render.tigris.leader.{LEADERS[colour]}")


def dynasty_name(t: Words, dynasty: str) -> str:
    if dynasty in DYNASTIES:
        return t(f"render.tigris.dynasty.{dynasty}")
    return dynasty.capitalize()


def monument_name(t: Words, monument: str) -> str:
    if monument in MONUMENTS:
        a, b = monument.split("-")
        return t(
            "render.tigris.monument",
            a=t(f"render.tigris.colour.{a}"),
            b=t(f"render.tigris.colour.{b}"),
        )
    return monument


def ref_name(t: Words, ref: object) -> str:
    """A term reference of an event (``@tigris.colour.red``, ``@tigris.dynasty.lion`` …) in
    the language, by this package's own keys."""
    if not isinstance(ref, str):
        return str(ref)
    if not ref.startswith("@tigris."):
        return ref
    kind, _, id_ = ref[len("@tigris.") :].partition(".")
    if kind == "colour" and id_ in COLOURS:
        return colour_name(t, COLOURS.index(id_))
    if kind == "dynasty":
        return dynasty_name(t, id_)
    if kind == "leader" and id_ in LEADERS:
        return leader_name(t, LEADERS.index(id_))
    if kind == "tile" and id_ in TILE_NAMES:
        return tile_name(t, TILE_NAMES.index(id_))
    if kind == "monument":
        return monument_name(t, id_)
    return id_
