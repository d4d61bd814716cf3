"""The game pages: one web page per game, for spectators and players (the live board, and a
replay of the whole game step by step), served by a small aiohttp application over the game
service (:mod:`web.server`), with a static copy for archives (:mod:`web.export`).

A page shows only what a channel post may show: the archive the service hands out is made
of public sentences and maps drawn from the spectator's view.
"""
