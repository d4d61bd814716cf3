"""The images, drawn with Pillow from what a seat may see: one package per game, side by side
— :mod:`bot.render.brazil` (Brazil: Imperial: the hex map, players' boards, hand, battle
report, score sheet, timeline) and :mod:`bot.render.tigris` (Tigris & Euphrates: the board,
hands, the dynasties' panel, conflict reports, final scoring) — over what they share: the
visual language and fonts (:mod:`bot.render.theme`), the text-flow canvas
(:mod:`bot.render.canvas`), anti-aliased sprites (:mod:`bot.render.draw`), the encoding
(:mod:`bot.render.encode`) and the words in the audience's language (:mod:`bot.render.words`).
The service picks a game's images through its per-game adapter (:mod:`service.games`)."""

from __future__ import annotations

from bot.render.theme import RenderOptions

__all__ = ["RenderOptions"]
