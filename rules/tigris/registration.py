"""Tigris & Euphrates' registration: what the platform needs of the game, by name
(:mod:`rules.registry`; entry point ``tigris`` of ``turnpost.games`` in ``pyproject.toml``)."""

from __future__ import annotations

from rules.registry import Registration

REGISTRATION = Registration(
    name="tigris",
    title="Tigris & Euphrates",
    min_players=2,
    max_players=4,
    face="rules.tigris.game:GAME",
    adapter="service.games.tigris.adapter:ADAPTER",
    agents="ai.tigris:make_agent",
    agent_levels=("random", "heuristic", "search"),
    tournament="ai.tigris.tournament:run_tournament",
    engine_messages="rules.tigris.messages:CATALOGUE",
    words_prefix="tigris.word.",
    compound_words=True,
    rulebook="service:data/tigris/rules.md",
    preload=("service.games.tigris.adapter", "render.tigris"),
)
