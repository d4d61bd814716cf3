"""Scrambling a full state's hidden parts: the independent check that views leak nothing.

``scramble_hidden(state, seat, rng)`` permutes, *in the full state*, everything ``seat`` may not
see (deck orders, others' hands among themselves and the decks, unpeeked face-down tiles,
committed battle cards, the RNG seed), keeping what the seat knows. It is driven by the names
of :data:`rules.brazil.view.HIDDEN_FIELDS` but not by the masks, so a view that fails to hide a
field shows a difference between ``view(state, seat)`` and ``view(scrambled, seat)``: the
self-play invariant "views leak nothing" (:func:`devtools.brazil.selfplay.check_views_leak_nothing`).

It reads hidden data (it permutes it), so it is for checks only: an AI uses
:func:`rules.brazil.determinize.determinize`, which deals from the seat's view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rules.brazil.catalog import Catalog, get_catalog
from rules.brazil.determinize import random_camp
from rules.brazil.state import GameState, Player, Side
from rules.brazil.view import HIDDEN_FIELDS, capitals_hidden
from rules.fastcopy import replaced

Seat = int | None


@dataclass
class _Deal:
    """Slots whose content is unknown to the seat, per pool, filled back after a shuffle."""

    state: GameState
    seat: Seat
    rng: random.Random
    cat: Catalog
    known: dict[int, Counter[str]] = field(default_factory=dict)  # espionage: target -> cards

    def mine(self, p: Player) -> bool:
        return p.seat == self.seat

    def others(self) -> Iterator[Player]:
        return (p for p in self.state.players if p.seat != self.seat)


def _redeal(rng: random.Random, slots: list[list[str]], keep: list[Counter[str]]) -> None:
    """Shuffle the cards in ``slots`` (lists changed in place) among themselves; in slot ``i``
    the cards counted in ``keep[i]`` stay (the seat knows them)."""
    pool: list[str] = []
    free: list[int] = []  # per slot: how many cards it gets from the pool
    fixed: list[list[str]] = []
    for sl, kp in zip(slots, keep, strict=True):
        if not kp:  # nothing known in this slot: all of it goes to the pool
            pool.extend(sl)
            fixed.append([])
            free.append(len(sl))
            continue
        left = Counter(kp)
        stay: list[str] = []
        for c in sl:
            if left[c] > 0:
                left[c] -= 1
                stay.append(c)
            else:
                pool.append(c)
        fixed.append(stay)
        free.append(len(sl) - len(stay))
    rng.shuffle(pool)
    i = 0
    for sl, stay, k in zip(slots, fixed, free, strict=True):
        sl[:] = stay + pool[i : i + k]
        i += k


_NONE: Counter[str] = Counter()  # nothing known (never changed)


def _no_keep(n: int) -> list[Counter[str]]:
    return [_NONE] * n


def _hidden_sides(d: _Deal) -> list[Side]:
    b = d.state.combat
    if b is None or b.revealed:
        return []
    return [s for s in (b.attacker, b.defender) if s is not None and s.seat != d.seat]


def _r_rng(d: _Deal) -> None:
    d.state.rng.seed = d.rng.getrandbits(64)
    d.state.rng.counter = 0


def _r_combat(d: _Deal) -> None:
    """The combat deck, others' combat hands and others' committed battle cards: one pool."""
    s = d.state
    slots = [s.combat_deck]
    keep = [_NONE]
    for p in d.others():
        slots.append(p.combat_cards)
        keep.append(d.known.get(p.seat, _NONE))
    for side in _hidden_sides(d):
        slots.append(side.cards)
        keep.append(_NONE)
    _redeal(d.rng, slots, keep)
    b = s.combat
    if b is not None and b.attacker in _hidden_sides(d) and "parley" in b.attacker.cards:
        _no_parley(d, b.attacker.cards)


def _no_parley(d: _Deal, cards: list[str]) -> None:
    """R-COMBAT-4: an attacker never commits Parley: swap it for a card from another slot."""
    s = d.state
    for i, c in enumerate(cards):
        if c != "parley":
            continue
        hands = [s.combat_deck] + [p.combat_cards for p in d.others()]
        spots = [(h, j) for h in hands for j, x in enumerate(h) if x != "parley"]
        if not spots:
            raise ValueError("no card to put in place of a re-dealt Parley")
        h, j = d.rng.choice(spots)
        cards[i], h[j] = h[j], cards[i]


def _r_gold(d: _Deal) -> None:
    slots = [d.state.gold_deck]
    keep = [_NONE]
    for p in d.others():
        slots.append(p.gold_cards)
        keep.append(d.known.get(p.seat, _NONE))
    _redeal(d.rng, slots, keep)


_ERAS: dict[int, dict[str, int]] = {}


def _mission_eras(cat: Catalog) -> dict[str, int]:
    era = _ERAS.get(id(cat))
    if era is None:
        era = _ERAS[id(cat)] = {m: d.era for m, d in cat.missions.items()}
    return era


def _r_missions(d: _Deal) -> None:
    """Missions are re-dealt within their era (a hand keeps one mission of each era)."""
    era = _mission_eras(d.cat)
    for e in sorted(set(era.values())):
        slots: list[list[str]] = []
        keep: list[Counter[str]] = []
        parts: list[tuple[list[str], list[str]]] = []  # (original list, its era-e part)
        lists = [d.state.mission_decks.get(str(e), [])]
        kinds: list[Counter[str]] = [_NONE]
        for p in d.others():
            lists += [p.missions, p.mission_offer]
            kinds += [d.known.get(p.seat, _NONE), _NONE]
        for lst, kp in zip(lists, kinds, strict=True):
            part = [m for m in lst if era[m] == e]
            parts.append((lst, part))
            slots.append(part)
            keep.append(kp)
        _redeal(d.rng, slots, keep)
        for lst, part in parts:
            it = iter(part)
            lst[:] = [next(it) if era[m] == e else m for m in lst]


def _r_paintings(d: _Deal) -> None:
    for deck in d.state.painting_decks.values():
        d.rng.shuffle(deck)


def _r_cities(d: _Deal) -> None:
    piles = d.state.city_piles
    below = [p[:-1] for p in piles]
    _redeal(d.rng, below, _no_keep(len(below)))
    for p, b in zip(piles, below, strict=True):
        p[:-1] = b


def _r_capitals(d: _Deal) -> None:
    s = d.state
    if not capitals_hidden(s) or not s.capital_tiles:
        return
    caps = sorted(d.cat.capitals.values(), key=lambda c: (not c.first_player, c.id))
    rest = [c.id for c in caps[1:]]
    chosen = [caps[0].id, *d.rng.sample(rest, len(s.capital_tiles) - 1)]
    d.rng.shuffle(chosen)
    s.capital_tiles = dict(zip(s.capital_tiles, chosen, strict=True))


def _r_exploration(d: _Deal) -> None:
    s = d.state
    mine = s.players[d.seat].peeks if d.seat is not None else {}
    hexes = [h for h, e in s.exploration.items() if not e.face_up and h not in mine]
    tiles = [s.exploration[h].tile for h in hexes]
    d.rng.shuffle(tiles)
    for h, t in zip(hexes, tiles, strict=True):
        s.exploration[h] = replaced(s.exploration[h], tile=t)


def _r_peeks(d: _Deal) -> None:
    """Others' peeks follow the re-dealt tiles (run after the exploration re-deal)."""
    for p in d.others():
        for h in p.peeks:
            e = d.state.exploration.get(h)
            if e is not None and not e.face_up:
                p.peeks[h] = e.tile


def _r_seen(d: _Deal) -> None:
    """Others keep only what their espionage showed of this seat's hands (known to it)."""
    for p in d.others():
        p.seen = {t: v for t, v in p.seen.items() if d.seat is not None and t == str(d.seat)}


def _r_camp(d: _Deal) -> None:
    """A re-dealt Acampamento gets a random set of the side's crops (still in its reserve)."""
    for side in _hidden_sides(d):
        side.camp = random_camp(d.state, side, d.rng)


def _r_done(d: _Deal) -> None:
    """Done by another re-dealer (listed in :data:`SCRAMBLERS` under the owning one)."""


# One re-dealer per entry of HIDDEN_FIELDS, run in this order.
SCRAMBLERS: dict[str, Callable[[_Deal], None]] = {
    "rng": _r_rng,
    "combat_deck": _r_combat,  # with "combat_cards" and "battle_cards"
    "combat_cards": _r_done,
    "battle_cards": _r_done,
    "gold_deck": _r_gold,  # with "gold_cards"
    "gold_cards": _r_done,
    "mission_decks": _r_missions,  # with "missions" and "mission_offer"
    "missions": _r_done,
    "mission_offer": _r_done,
    "painting_decks": _r_paintings,
    "city_piles": _r_cities,
    "capital_tiles": _r_capitals,
    "exploration": _r_exploration,
    "peeks": _r_peeks,
    "seen": _r_seen,
    "battle_camp": _r_camp,
}

assert set(SCRAMBLERS) == {f.name for f in HIDDEN_FIELDS}, "a hidden field has no re-dealer"


def _espionage(state: GameState, seat: Seat) -> dict[int, Counter[str]]:
    """Cards ``seat`` saw by espionage that the target still holds (they stay in place)."""
    if seat is None:
        return {}
    out: dict[int, Counter[str]] = {}
    for t, cards in state.players[seat].seen.items():
        target = state.players[int(t)]
        held = Counter(target.gold_cards + target.combat_cards + target.missions)
        out[int(t)] = Counter(cards) & held
    return out


def scramble_hidden(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """A copy of ``state`` with what ``seat`` (``None``: a spectator) may not see permuted
    at random with ``rng`` (see the module docstring). The given state is not changed."""
    if seat is not None and not 0 <= seat < state.n:
        raise ValueError(f"there is no seat {seat} in this {state.n}-player game")
    d = _Deal(state.clone(), seat, rng, get_catalog(state.data_pack), _espionage(state, seat))
    for fn in SCRAMBLERS.values():
        fn(d)
    return d.state
