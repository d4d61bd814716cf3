"""Brazil: Imperial's registration: what the platform needs of the game, by name
(:mod:`rules.registry`; entry point ``brazil`` of ``turnpost.games`` in ``pyproject.toml``)."""

from __future__ import annotations

from rules.registry import Registration

REGISTRATION = Registration(
    name="brazil",
    title="Brazil: Imperial",
    min_players=1,
    max_players=4,
    face="rules.brazil.face:GAME",
    adapter="service.games.brazil.adapter:ADAPTER",
    agents="ai.brazil:make_agent",
    agent_levels=("random", "heuristic", "search"),
    tournament="ai.brazil.tournament:run_tournament",
    engine_messages="rules.brazil.messages:EN",
    words_prefix="word.",
    rulebook="service:data/rules.md",
    describe="rules.brazil.describe:describe",
    preload=("render.brazil.mapimg", "service.games.brazil.adapter"),
    # every game record stored before games had names is Brazil: Imperial's
    default=True,
)
