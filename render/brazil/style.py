"""Brazil: Imperial's colours and codes on its pictures: the terrains, the goods, the
buildings' short codes (the shared palette, fonts and player colours: :mod:`render.theme`)."""

from __future__ import annotations

from render.theme import RGB, RenderOptions

TERRAIN: dict[str, RGB] = {
    "plain": (233, 222, 170),
    "forest": (118, 170, 96),
    "gold_mine": (214, 170, 70),
    "water": (120, 175, 225),
}
TERRAIN_HC: dict[str, RGB] = {
    "plain": (255, 250, 215),
    "forest": (80, 150, 60),
    "gold_mine": (235, 180, 40),
    "water": (90, 160, 240),
}
FOG: RGB = (150, 150, 160)

GOOD_FILL: dict[str, RGB] = {
    "sugar_cane": (170, 220, 120),
    "coffee": (110, 65, 30),
    "brazilwood": (170, 40, 40),
    "cotton": (245, 245, 245),
    "gold": (255, 205, 0),
    "science": (120, 80, 200),
}
# Building side id -> short code drawn on the map (the legend spells them out).
BUILDING_CODE: dict[str, str] = {
    "sawmill": "SAW",
    "trading_post": "TP",
    "sugar_field": "SUG",
    "farm": "FRM",
    "foundry": "FND",
    "cotton_plantation": "COT",
    "church": "CH",
    "academy": "AC",
}


def terrain_fill(terrain: str, opts: RenderOptions) -> RGB:
    table = TERRAIN_HC if opts.high_contrast else TERRAIN
    return table.get(terrain, FOG)
