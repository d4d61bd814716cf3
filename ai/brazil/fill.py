"""Placeholders for a view's hidden cards, so that actions can be tried on it.

A view hides decks, others' hands and face-down tiles as ``"?"``; applying an action that
draws (Recruit, a painting's refill, a move onto an exploration tile) on it would fail. The
heuristic's one-ply look-ahead therefore works on a *placeholder fill*: every hidden slot gets
one fixed, ordinary id of its kind (the same whatever the hidden truth is). It is not a
determinization — it reads nothing hidden and samples nothing; it only lets the engine run.
"""

from __future__ import annotations

from ai.brazil.evaluate import catalog_for
from rules.brazil.catalog import CROPS
from rules.brazil.state import GameState
from rules.brazil.view import HIDDEN
from rules.fastcopy import replaced

COMBAT = "militia"  # +1 FP: an average-ish card
GOLD = "jesuits"  # a free-action card that scores nothing at the end
EXPLORATION = "mandioca"  # gain one resource: a modest, ordinary find


def _sub(items: list[str], value: str) -> list[str]:
    return [value if x == HIDDEN else x for x in items]


def placeholder_fill(view_state: GameState, seat: int | None) -> GameState:
    """A copy of ``view_state`` with every ``"?"`` replaced by a fixed placeholder id."""
    s = view_state.clone()
    cat = catalog_for(s.data_pack)
    combat = COMBAT if COMBAT in cat.combat_cards else next(iter(cat.combat_cards))
    gold = GOLD if GOLD in cat.gold_cards else next(iter(cat.gold_cards))
    s.combat_deck = _sub(s.combat_deck, combat)
    s.gold_deck = _sub(s.gold_deck, gold)
    first_mission: dict[int, str] = {}
    for m in cat.missions.values():
        first_mission.setdefault(m.era, m.id)
    s.mission_decks = {
        k: _sub(d, first_mission.get(int(k), "")) for k, d in s.mission_decks.items()
    }
    by_frame: dict[str, str] = {}
    for pa in cat.paintings.values():
        by_frame.setdefault(pa.frame, pa.id)
    s.painting_decks = {k: _sub(d, by_frame.get(k, "")) for k, d in s.painting_decks.items()}
    city = next(iter(cat.cities))
    s.city_piles = [_sub(p, city) for p in s.city_piles]
    capital = next(iter(cat.capitals))
    s.capital_tiles = {h: capital if t == HIDDEN else t for h, t in s.capital_tiles.items()}
    explo = EXPLORATION if EXPLORATION in cat.exploration else next(iter(cat.exploration))
    for h, e in s.exploration.items():
        if e.tile == HIDDEN:
            s.exploration[h] = replaced(e, tile=explo)
    mission = first_mission[min(first_mission)]  # an era I mission: scores nothing unrevealed
    for p in s.players:
        if p.seat == seat:
            continue
        p.missions = _sub(p.missions, mission)
        p.mission_offer = _sub(p.mission_offer, mission)
        p.gold_cards = _sub(p.gold_cards, gold)
        p.combat_cards = _sub(p.combat_cards, combat)
        p.peeks = {h: explo if t == HIDDEN else t for h, t in p.peeks.items()}
    if s.combat is not None:
        for side in (s.combat.attacker, s.combat.defender):
            if side is not None:
                side.cards = _sub(side.cards, combat)
                side.camp = _sub(side.camp, CROPS[0])
    return s
