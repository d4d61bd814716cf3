"""Determinization for AI players: deal what one seat cannot see.

``determinize(state, seat, rng)`` returns a full, legal state that agrees with everything
``seat`` knows — its own hand and missions, its peeks, what its espionage showed, everything
public (discards, counts of others' hands, tiles on the map) — with every hidden part dealt at
random from the components that seat cannot account for.

It works from the seat's view only: it first takes ``view(state, seat)`` (which changes
nothing when ``state`` already is that seat's view), then fills every hidden slot (``"?"``)
from the *unseen multiset* of its kind: the catalog's totals (cards by their count, missions
per era, paintings per frame, city tiles, exploration tiles, capital tiles) minus everything
the view shows. Each pool is sorted before it is shuffled with ``rng``, so the result depends
only on what the seat knows and on ``rng``::

    determinize(state, seat, Random(k)) == determinize(view(state, seat), seat, Random(k))
    view(determinize(state, seat, rng), seat) == view(state, seat)

It walks the same table of hidden fields as :func:`rules.brazil.view.view`
(:data:`rules.brazil.view.HIDDEN_FIELDS`): each entry has a re-dealer here, keyed by its name.
What this needs of the public record is kept in the state: exploration tiles revealed and
taken off the map (``GameState.removed_exploration``) and the eras of missions drawn after
setup (``Player.extra_mission_eras``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from rules.brazil.catalog import CROPS, Catalog, get_catalog
from rules.brazil.state import GameState, Player, Side
from rules.brazil.view import HIDDEN, HIDDEN_FIELDS, capitals_hidden, view
from rules.fastcopy import replaced

Seat = int | None


class DealError(ValueError):
    """The view shows more hidden slots than there are unseen components to fill them."""


@dataclass(frozen=True)
class _Totals:
    """The catalog's components, counted (cached per catalog)."""

    combat: Counter[str]
    gold: Counter[str]
    missions: dict[int, Counter[str]]  # era -> missions
    mission_era: dict[str, int]
    eras: tuple[int, ...]  # the eras missions have
    paintings: dict[str, Counter[str]]  # frame -> paintings
    cities: Counter[str]
    exploration: Counter[str]
    capitals: tuple[str, ...]  # the first player's capital first, then by id


_TOTALS: dict[int, tuple[Catalog, _Totals]] = {}


def _totals(cat: Catalog) -> _Totals:
    hit = _TOTALS.get(id(cat))
    if hit is not None and hit[0] is cat:
        return hit[1]
    missions: dict[int, Counter[str]] = {}
    for m in cat.missions.values():
        missions.setdefault(m.era, Counter())[m.id] += 1
    paintings: dict[str, Counter[str]] = {}
    for p in cat.paintings.values():
        paintings.setdefault(p.frame, Counter())[p.id] += 1
    caps = sorted(cat.capitals.values(), key=lambda c: (not c.first_player, c.id))
    t = _Totals(
        combat=Counter({c.id: c.count for c in cat.combat_cards.values()}),
        gold=Counter({c.id: c.count for c in cat.gold_cards.values()}),
        missions=missions,
        mission_era={m.id: m.era for m in cat.missions.values()},
        eras=tuple(sorted(missions)),
        paintings=paintings,
        cities=Counter(list(cat.cities)),
        exploration=Counter({t.id: t.count for t in cat.exploration.values()}),
        capitals=tuple(c.id for c in caps),
    )
    _TOTALS[id(cat)] = (cat, t)
    return t


@dataclass
class _Deal:
    """The seat's view being filled in place."""

    state: GameState
    seat: Seat
    rng: random.Random
    tot: _Totals

    def others(self) -> Iterator[Player]:
        return (p for p in self.state.players if p.seat != self.seat)

    def seen(self) -> list[tuple[Player, list[str]]]:
        """(target, cards this seat saw in its hands by espionage), by target seat."""
        if self.seat is None:
            return []
        mine = self.state.players[self.seat].seen
        return [(self.state.players[int(t)], sorted(mine[t])) for t in sorted(mine, key=int)]


Slot = tuple[list[str], int]  # (a list in the state, an index in it)


def _hidden(lst: list[str]) -> list[Slot]:
    return [(lst, i) for i, x in enumerate(lst) if x == HIDDEN]


def _unseen(total: dict[str, int], visible: Iterable[str]) -> dict[str, int]:
    """``total`` minus what the view shows (never below zero)."""
    pool = dict(total)
    for x in visible:
        n = pool.get(x, 0)
        if n > 0:
            pool[x] = n - 1
    return pool


def _deal(rng: random.Random, slots: list[Slot], pool: dict[str, int], what: str) -> None:
    """Fill ``slots`` from ``pool`` (sorted, then shuffled with ``rng``); ``pool`` keeps what
    is left. Extra components stay unseen (out of the game, e.g. spare exploration tiles)."""
    if not slots:
        return
    cards = [c for c in sorted(pool) for _ in range(pool[c])]  # sorted: independent of order
    if len(cards) < len(slots):
        raise DealError(
            f"{len(slots)} hidden {what} but only {len(cards)} unaccounted for in the catalog"
        )
    rnd = rng.random
    cards.sort(key=lambda _: rnd())  # a uniform shuffle (random keys), faster than shuffle()
    for (lst, i), c in zip(slots, cards, strict=False):
        lst[i] = c
        pool[c] -= 1


def _place_seen(
    slots: list[Slot], cards: list[str], pool: dict[str, int], fits: Callable[[str], bool]
) -> None:
    """Espionage: cards the seat saw in a hand go back into that hand's hidden slots first
    (as far as they are still unaccounted for); used slots are removed from ``slots``."""
    for c in cards:
        if not slots or not fits(c) or pool.get(c, 0) <= 0:
            continue
        lst, i = slots.pop(0)
        lst[i] = c
        pool[c] -= 1


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
    visible = list(s.combat_discard)
    for p in s.players:
        visible += p.combat_cards
    b = s.combat
    for side in (b.attacker, b.defender) if b is not None else ():
        if side is not None:
            visible += side.cards
    pool = _unseen(d.tot.combat, visible)
    hands = {p.seat: _hidden(p.combat_cards) for p in d.others()}
    for target, cards in d.seen():
        _place_seen(hands[target.seat], cards, pool, lambda c: c in d.tot.combat)
    # R-COMBAT-4: an attacker never commits Parley: its hidden cards come first, without it.
    if b is not None and any(sd is b.attacker for sd in _hidden_sides(d)):
        parleys = pool.pop("parley", 0)
        _deal(d.rng, _hidden(b.attacker.cards), pool, "attacker's battle cards")
        if parleys:
            pool["parley"] = parleys
    slots = _hidden(s.combat_deck)
    for p in d.others():
        slots += hands[p.seat]
    for side in _hidden_sides(d):
        slots += _hidden(side.cards)
    _deal(d.rng, slots, pool, "combat cards")


def _r_gold(d: _Deal) -> None:
    s = d.state
    visible = list(s.gold_discard)
    for p in s.players:
        visible += p.gold_cards
    pool = _unseen(d.tot.gold, visible)
    hands = {p.seat: _hidden(p.gold_cards) for p in d.others()}
    for target, cards in d.seen():
        _place_seen(hands[target.seat], cards, pool, lambda c: c in d.tot.gold)
    slots = _hidden(s.gold_deck)
    for p in d.others():
        slots += hands[p.seat]
    _deal(d.rng, slots, pool, "gold cards")


def _offer_eras(tot: _Totals, n: int) -> list[int] | None:
    """R-SETUP-5: an offer is dealt 2 missions of each era, in era order."""
    return [e for e in tot.eras for _ in range(2)] if n == 2 * len(tot.eras) else None


def _hand_eras(tot: _Totals, p: Player) -> list[int] | None:
    """The eras of ``p``'s kept missions, from public information: one of each era kept at
    setup, plus the extra draws (Quilombo), minus the revealed ones. ``None`` when that does
    not add up (a hand set up otherwise, e.g. in a test)."""
    held = [*tot.eras, *p.extra_mission_eras]
    for m in p.revealed:
        e = tot.mission_era.get(m)
        if e not in held:
            return None
        held.remove(e)
    if len(held) != len(p.missions):
        return None
    return sorted(held)


def _r_missions(d: _Deal) -> None:
    """Missions are dealt within their era: the decks by their era, a kept hand by the eras
    public information gives it (unknown eras last, from what is left of every era)."""
    s, tot = d.state, d.tot
    era_of = tot.mission_era
    pools: dict[int, dict[str, int]] = {e: dict(c) for e, c in tot.missions.items()}
    for p in s.players:
        for m in (*p.missions, *p.mission_offer, *p.revealed):
            e = era_of.get(m)
            if e is not None and pools[e][m] > 0:
                pools[e][m] -= 1
    by_era: dict[int, list[Slot]] = {e: [] for e in pools}
    unknown: list[Slot] = []
    for key, deck in s.mission_decks.items():
        if HIDDEN in deck:
            by_era.setdefault(int(key), []).extend(_hidden(deck))
    seen = dict((t.seat, cards) for t, cards in d.seen())
    for p in d.others():
        if p.missions:
            slots = _hidden(p.missions)
            eras = _hand_eras(tot, p)
            if eras is None or len(eras) != len(slots):
                unknown += slots
            else:
                for c in seen.get(p.seat, ()):  # a seen mission goes back in its era's slot
                    e = era_of.get(c)
                    if e is not None and e in eras and pools[e].get(c, 0) > 0:
                        k = eras.index(e)
                        lst, i = slots.pop(k)
                        eras.pop(k)
                        lst[i] = c
                        pools[e][c] -= 1
                for sl, e in zip(slots, eras, strict=True):
                    by_era[e].append(sl)
        if p.mission_offer:
            slots = _hidden(p.mission_offer)
            eras = _offer_eras(tot, len(slots))
            if eras is None:
                unknown += slots
            else:
                for sl, e in zip(slots, eras, strict=True):
                    by_era[e].append(sl)
    for e in sorted(by_era):
        _deal(d.rng, by_era[e], pools.setdefault(e, {}), f"era {e} missions")
    if unknown:
        rest: dict[str, int] = {}
        for e in sorted(pools):
            rest.update(pools[e])  # (mission ids are unique)
        _deal(d.rng, unknown, rest, "missions")


def _r_paintings(d: _Deal) -> None:
    s = d.state
    shown = Counter(s.display)
    for p in s.players:
        shown.update(p.paintings)
    for frame, deck in s.painting_decks.items():
        if HIDDEN in deck:
            pool = dict(d.tot.paintings.get(frame, {}))
            for c, n in shown.items():
                if c in pool:
                    pool[c] = max(0, pool[c] - n)
            _deal(d.rng, _hidden(deck), pool, f"{frame} paintings")


def _r_cities(d: _Deal) -> None:
    s = d.state
    visible = [x for pile in s.city_piles for x in pile]
    visible += [t.id for t in s.tiles.values() if t.kind == "city"]
    pool = _unseen(d.tot.cities, visible)
    slots = [sl for pile in s.city_piles for sl in _hidden(pile)]
    _deal(d.rng, slots, pool, "city tiles")


def _r_capitals(d: _Deal) -> None:
    """R-SETUP-1: the first player's capital tile is always among them, the others at random."""
    s = d.state
    if not capitals_hidden(s) or HIDDEN not in s.capital_tiles.values():
        return
    first, *rest = d.tot.capitals
    chosen = [first, *d.rng.sample(rest, len(s.capital_tiles) - 1)]
    d.rng.shuffle(chosen)
    s.capital_tiles = dict(zip(s.capital_tiles, chosen, strict=True))


def _r_exploration(d: _Deal) -> None:
    """Face-down tiles the seat has not peeked at, from the whole box minus what was seen:
    tiles on the map face up (or peeked), kept by players, or removed after their reveal."""
    s = d.state
    visible = [e.tile for e in s.exploration.values()]
    visible += s.removed_exploration
    for p in s.players:
        visible += p.kept_tiles
    pool = _unseen(d.tot.exploration, visible)
    slots: list[Slot] = []
    spots = []
    for h in sorted(s.exploration):
        if s.exploration[h].tile == HIDDEN:
            spots.append(h)
            slots.append(([HIDDEN], 0))
    _deal(d.rng, slots, pool, "exploration tiles")
    for h, (lst, _) in zip(spots, slots, strict=True):
        s.exploration[h] = replaced(s.exploration[h], tile=lst[0])


def _r_peeks(d: _Deal) -> None:
    """Others' peeks show the dealt tiles (run after the exploration deal)."""
    for p in d.others():
        for h in p.peeks:
            e = d.state.exploration.get(h)
            if e is not None:
                p.peeks[h] = e.tile


def _r_seen(d: _Deal) -> None:
    """Others' espionage results are not known to this seat: they stay empty."""


def random_camp(state: GameState, side: Side, rng: random.Random) -> list[str]:
    """The goods of a dealt (or re-dealt) Acampamento: a random set of the side's crops, still
    in its reserve (none without the card)."""
    if side.seat < 0 or "acampamento" not in side.cards:
        return []
    res = state.players[side.seat].reserve
    crops = [c for c in sorted(res) if c in CROPS for _ in range(res[c])]
    return sorted(rng.sample(crops, rng.randint(0, len(crops))))


def _r_camp(d: _Deal) -> None:
    """A dealt Acampamento gets a random set of the side's crops (still in its reserve)."""
    for side in _hidden_sides(d):
        side.camp = random_camp(d.state, side, d.rng)


def _r_done(d: _Deal) -> None:
    """Done by another re-dealer (listed in :data:`REDEALERS` under the owning one)."""


# One re-dealer per entry of HIDDEN_FIELDS, run in this order.
REDEALERS: dict[str, Callable[[_Deal], None]] = {
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

assert set(REDEALERS) == {f.name for f in HIDDEN_FIELDS}, "a hidden field has no re-dealer"


def determinize(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """A full state consistent with what ``seat`` (``None``: a spectator) knows, its hidden
    parts dealt at random with ``rng`` from what that seat cannot account for.

    ``state`` may be the full state or ``view(state, seat)``: both give the same result for
    the same ``rng``. A view for another seat (or a spectator's view given with a seat) is
    refused: it lacks what the seat knows. The given state is not changed."""
    if seat is not None and not 0 <= seat < state.n:
        raise ValueError(f"there is no seat {seat} in this {state.n}-player game")
    if seat is not None:
        me = state.players[seat]
        if HIDDEN in me.missions + me.mission_offer + me.gold_cards + me.combat_cards:
            raise ValueError(f"this is not seat {seat}'s view: its own cards are hidden in it")
    v = view(state, seat)  # a copy; the view of a view for the same seat is that view
    d = _Deal(v, seat, rng, _totals(get_catalog(state.data_pack)))
    for fn in REDEALERS.values():
        fn(d)
    return v
