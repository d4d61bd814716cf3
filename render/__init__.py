"""The images, drawn with Pillow from what a seat may see: one package per game, side by side
— :mod:`render.brazil` (Brazil: Imperial: the hex map, players' boards, hand, battle
report, score sheet, timeline) and :mod:`render.tigris` (Tigris & Euphrates: the board,
hands, the dynasties' panel, conflict reports, final scoring) — over what they share: the
visual language and fonts (:mod:`render.theme`), the text-flow canvas
(:mod:`render.canvas`), anti-aliased sprites (:mod:`render.draw`), the encoding
(:mod:`render.encode`) and the words in the audience's language (:mod:`render.words`).
The service picks a game's images through its per-game adapter (:mod:`service.games`)."""

from __future__ import annotations

from render.theme import RenderOptions

__all__ = ["RenderOptions"]
