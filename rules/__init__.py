"""The rules engines of the platform's games — pure: no I/O, no clock, no Discord, randomness
only from a seeded RNG kept in the state, states serialisable to JSON and back.

One package per game, side by side: :mod:`rules.brazil` (Brazil: Imperial) and
:mod:`rules.tigris` (Tigris & Euphrates), their component data in ``rules/data/brazil/<game>/``.
What every game shares is here: the registry of the games and their one face
(:mod:`rules.games`: ``game("tigris").apply(state, action)``), the errors that name a rule
(:mod:`rules.errors`), the message template language (:mod:`rules.text`), seeded self-play
for any game (:mod:`rules.selfplay`) and fast state copies (:mod:`rules.fastcopy`)::

    from rules.games import game
    g = game("tigris")
    state = g.new_game(3, seed=7)
"""

from __future__ import annotations

from rules.errors import IllegalAction, InvalidAction, NotYourDecision, RulesError
from rules.games import DEFAULT, Game, UnknownGame, game, game_of, load_state, names, replay_step

__all__ = [
    "DEFAULT",
    "Game",
    "IllegalAction",
    "InvalidAction",
    "NotYourDecision",
    "RulesError",
    "UnknownGame",
    "game",
    "game_of",
    "load_state",
    "names",
    "replay_step",
]
