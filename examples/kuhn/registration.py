"""Kuhn poker's registration: what the platform needs of the game, by name
(:mod:`rules.registry`; entry point ``kuhn`` of ``turnpost.games`` in ``pyproject.toml``).

Its English texts are one table, ``texts.ENGLISH`` (the engine's messages and the service's
words): a ``locales`` folder with an ``en`` catalogue would replace the platform's English
(see :mod:`examples.kuhn.texts`)."""

from __future__ import annotations

from rules.registry import Registration

REGISTRATION = Registration(
    name="kuhn",
    title="Kuhn poker",
    min_players=2,
    max_players=2,
    face="examples.kuhn.game:GAME",
    adapter="examples.kuhn.adapter:ADAPTER",
    agents="examples.kuhn.agents:make_agent",
    agent_levels=("random", "heuristic", "search"),
    engine_messages="examples.kuhn.texts:ENGLISH",
    rulebook="examples.kuhn:rules.md",
    preload=("examples.kuhn.adapter", "examples.kuhn.render"),
)
