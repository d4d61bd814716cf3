"""Per-seat views: the state as one seat (or a spectator) may see it.

A view is a :class:`GameState` of the same shape with hidden things replaced by ``"?"``:
others' missions and cards, face-down exploration tiles (unless this seat peeked), deck
orders, capital tiles before they are revealed, the RNG seed, and a battle's committed cards.
Counts stay visible (how many cards a player holds is public), except what would reveal a
committed card before the reveal (the resources put on Acampamento, R-COMBAT-4).

:data:`HIDDEN_FIELDS` is the one table of what is hidden from whom: :func:`view` masks each
entry and :func:`rules.brazil.determinize.determinize` re-deals each entry (a test checks that both
cover the whole table).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from rules.brazil.state import Exploration, GameState
from rules.fastcopy import replaced

HIDDEN = "?"

HiddenFrom = Literal["everyone", "others"]


@dataclass(frozen=True, slots=True)
class HiddenField:
    """One kind of hidden information.

    ``hidden_from``: ``"everyone"`` (nobody may see it, e.g. a deck's order) or ``"others"``
    (only its owner may: a hand, a kept mission, a peek). ``mask`` redacts it in ``v`` (a copy
    of the state) for ``seat`` (``None``: a spectator).
    """

    name: str
    hidden_from: HiddenFrom
    rule: str
    what: str
    mask: Callable[[GameState, int | None], None]


def _mask(items: list[str]) -> list[str]:
    return [HIDDEN] * len(items)


def _others(v: GameState, seat: int | None) -> list[int]:
    return [p.seat for p in v.players if p.seat != seat]


def _m_rng(v: GameState, seat: int | None) -> None:
    v.rng.seed = 0
    v.rng.counter = 0


def _m_combat_deck(v: GameState, seat: int | None) -> None:
    v.combat_deck = _mask(v.combat_deck)


def _m_gold_deck(v: GameState, seat: int | None) -> None:
    v.gold_deck = _mask(v.gold_deck)


def _m_mission_decks(v: GameState, seat: int | None) -> None:
    v.mission_decks = {k: _mask(d) for k, d in v.mission_decks.items()}


def _m_painting_decks(v: GameState, seat: int | None) -> None:
    v.painting_decks = {k: _mask(d) for k, d in v.painting_decks.items()}


def _m_city_piles(v: GameState, seat: int | None) -> None:
    v.city_piles = [_mask(p[:-1]) + p[-1:] for p in v.city_piles]


def capitals_hidden(state: GameState) -> bool:
    """R-SETUP-6: the capital tiles lie face down until the capitals are chosen."""
    return state.setup_step in ("colour", "missions", "monarch")


def _m_capital_tiles(v: GameState, seat: int | None) -> None:
    if capitals_hidden(v):
        v.capital_tiles = {h: HIDDEN for h in v.capital_tiles}


def _m_missions(v: GameState, seat: int | None) -> None:
    for s in _others(v, seat):
        v.players[s].missions = _mask(v.players[s].missions)


def _m_mission_offer(v: GameState, seat: int | None) -> None:
    for s in _others(v, seat):
        v.players[s].mission_offer = _mask(v.players[s].mission_offer)


def _m_gold_cards(v: GameState, seat: int | None) -> None:
    for s in _others(v, seat):
        v.players[s].gold_cards = _mask(v.players[s].gold_cards)


def _m_combat_cards(v: GameState, seat: int | None) -> None:
    for s in _others(v, seat):
        v.players[s].combat_cards = _mask(v.players[s].combat_cards)


def _m_peeks(v: GameState, seat: int | None) -> None:
    for s in _others(v, seat):
        v.players[s].peeks = {h: HIDDEN for h in v.players[s].peeks}


def _m_seen(v: GameState, seat: int | None) -> None:
    for s in _others(v, seat):
        v.players[s].seen = {}


def _m_exploration(v: GameState, seat: int | None) -> None:
    mine = v.players[seat].peeks if seat is not None and 0 <= seat < v.n else {}
    shown: dict[str, Exploration] = {}  # immutable values: one face-down tile per name shown
    for h, e in v.exploration.items():
        if not e.face_up:
            t = mine.get(h, HIDDEN)
            x = shown.get(t)
            if x is None:
                x = shown[t] = replaced(e, tile=t)
            v.exploration[h] = x


def _m_battle_cards(v: GameState, seat: int | None) -> None:
    if v.combat is not None and not v.combat.revealed:
        for side in (v.combat.attacker, v.combat.defender):
            if side is not None and side.seat != seat:
                side.cards = _mask(side.cards)


def _m_battle_camp(v: GameState, seat: int | None) -> None:
    if v.combat is not None and not v.combat.revealed:
        for side in (v.combat.attacker, v.combat.defender):
            if side is not None and side.seat != seat:
                side.camp = []  # not even the count: it would show an Acampamento card


HIDDEN_FIELDS: tuple[HiddenField, ...] = (
    HiddenField("rng", "everyone", "R-SETUP-2", "the RNG seed and counter", _m_rng),
    HiddenField("combat_deck", "everyone", "R-SETUP-2", "the combat deck", _m_combat_deck),
    HiddenField("gold_deck", "everyone", "R-SETUP-2", "the gold deck", _m_gold_deck),
    HiddenField("mission_decks", "everyone", "R-SETUP-5", "the mission decks", _m_mission_decks),
    HiddenField("painting_decks", "everyone", "R-SETUP-3", "the painting decks", _m_painting_decks),
    HiddenField(
        "city_piles", "everyone", "R-SETUP-2", "the city piles below the top", _m_city_piles
    ),
    HiddenField(
        "capital_tiles",
        "everyone",
        "R-SETUP-6",
        "capital tiles before the choice",
        _m_capital_tiles,
    ),
    HiddenField("missions", "others", "R-SETUP-5", "a player's kept missions", _m_missions),
    HiddenField(
        "mission_offer", "others", "R-SETUP-5", "a player's mission offer", _m_mission_offer
    ),
    HiddenField("gold_cards", "others", "R-VOC-5", "a player's gold cards", _m_gold_cards),
    HiddenField("combat_cards", "others", "R-VOC-5", "a player's combat cards", _m_combat_cards),
    HiddenField("peeks", "others", "R-EXPLORE-4", "the tiles a player peeked at", _m_peeks),
    HiddenField("seen", "others", "R-TURN-4", "a player's espionage results", _m_seen),
    HiddenField(
        "exploration", "others", "R-EXPLORE-4", "face-down exploration tiles", _m_exploration
    ),
    HiddenField(
        "battle_cards", "others", "R-COMBAT-4", "a battle's committed cards", _m_battle_cards
    ),
    HiddenField(
        "battle_camp", "others", "R-COMBAT-4", "resources put on Acampamento", _m_battle_camp
    ),
)


def view(state: GameState, seat: int | None) -> GameState:
    """What ``seat`` may see; ``None`` is a spectator (public information only)."""
    v = state.clone()
    for f in HIDDEN_FIELDS:
        f.mask(v, seat)
    return v
