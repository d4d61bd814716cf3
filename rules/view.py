"""Per-seat views: the state as one seat (or a spectator) may see it.

A view is a :class:`GameState` of the same shape with hidden things replaced by ``"?"``:
others' missions and cards, face-down exploration tiles (unless this seat peeked), deck
orders, capital tiles before they are revealed, the RNG seed, and a battle's committed cards.
Counts stay visible (how many cards a player holds is public).
"""

from __future__ import annotations

from rules.state import GameState

HIDDEN = "?"


def _mask(items: list[str]) -> list[str]:
    return [HIDDEN] * len(items)


def view(state: GameState, seat: int | None) -> GameState:
    """What ``seat`` may see; ``None`` is a spectator (public information only)."""
    v = state.clone()
    v.rng.seed = 0
    v.rng.counter = 0
    v.combat_deck = _mask(v.combat_deck)
    v.gold_deck = _mask(v.gold_deck)
    v.mission_decks = {k: _mask(d) for k, d in v.mission_decks.items()}
    v.painting_decks = {k: _mask(d) for k, d in v.painting_decks.items()}
    v.city_piles = [_mask(p[:-1]) + p[-1:] for p in v.city_piles]
    if v.setup_step in ("colour", "missions", "monarch"):
        v.capital_tiles = {h: HIDDEN for h in v.capital_tiles}
    for p in v.players:
        if p.seat == seat:
            continue
        p.missions = _mask(p.missions)
        p.mission_offer = _mask(p.mission_offer)
        p.gold_cards = _mask(p.gold_cards)
        p.combat_cards = _mask(p.combat_cards)
        p.peeks = {h: HIDDEN for h in p.peeks}
        p.seen = {}
    mine = state.players[seat].peeks if seat is not None and 0 <= seat < state.n else {}
    for h, e in v.exploration.items():
        if not e.face_up:
            e.tile = mine.get(h, HIDDEN)
    if v.combat is not None and not v.combat.revealed:
        # R-COMBAT-4: committed cards stay face down until both sides have chosen.
        for side in (v.combat.attacker, v.combat.defender):
            if side is not None and side.seat != seat:
                side.cards = _mask(side.cards)
                side.camp = _mask(side.camp)
    return v
