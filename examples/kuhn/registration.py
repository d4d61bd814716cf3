"""Kuhn poker's registration: what the platform needs of the game, by name
(:mod:`rules.registry`; entry point ``kuhn`` of ``turnpost.games`` in ``pyproject.toml``).

Its English texts are one table, ``texts.ENGLISH`` (the engine's messages and the service's
words); its other languages are catalogues in its own folder, ``locales/<lang>/kuhn.toml``,
added to the platform's."""

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
    locales="examples.kuhn:locales",
    rulebook="examples.kuhn:rules.md",
    preload=("examples.kuhn.adapter", "examples.kuhn.render"),
    options={"image_samples": "examples.kuhn.render:sample_images"},
)
