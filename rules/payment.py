"""Paying costs: substitution (R-VOC-2/3), goods on buildings (R-VOC-6, R-TRADE-3),
gold cards, and the powers that widen what may be paid (Build upgrade R-BUILD-8, Dragão do
Mar, Machado de Assis, Afonso I, Napoleon, War chest).

A cost is a list of tokens: a crop, ``gold``, ``science``, ``any`` (any crop) or ``a|b``.
A payment is a list of :class:`PayItem`. The search finds a one-to-one matching between the
tokens and the units given; it never enumerates payment combinations for the legal-action
list: it only answers "can this be paid" and "what is a sensible default".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.actions import PayItem
from rules.catalog import CROPS
from rules.errors import IllegalAction, InvalidAction
from rules.state import GameState

_ALL_CROPS = frozenset(CROPS)
_GOLD = frozenset({"gold"}) | _ALL_CROPS
_SCIENCE = frozenset({"science", "gold"}) | _ALL_CROPS


def token_accepts(token: str) -> frozenset[str]:
    if token == "any":
        return _ALL_CROPS
    if token in ("gold", "science"):
        return frozenset({token})
    return frozenset(token.split("|"))


@dataclass
class PayContext:
    """What widens or narrows payment for one cost."""

    any_crop_for_crop: bool = False  # Build upgrade (R-BUILD-8)
    exact: bool = False  # Trade: the crops themselves (R-TRADE-2)
    exclude_hex: str | None = None  # Renovate: not from that building (R-RENOV-1)
    no_cards: bool = False
    label: str = "this"


@dataclass
class Lot:
    source: str
    what: str
    provides: frozenset[str]
    count: int
    value: float
    pools: tuple[tuple[str, int], ...] = ()
    group: str | None = None  # Afonso option: all of the group's units or none


@dataclass
class _Search:
    tokens: list[frozenset[str]]
    lots: list[Lot]
    pools: dict[str, int]
    must_use_all: bool
    used: list[int] = field(default_factory=list)


def controls(state: GameState, seat: int, hex_: str) -> bool:
    """Does ``seat`` control the tile on ``hex_`` (R-COMBAT-10/11)?"""
    tile = state.tiles.get(hex_)
    if tile is None:
        return False
    occupier = occupier_of(state, hex_)
    if occupier is not None:
        return occupier == seat
    return tile.owner == seat


def occupier_of(state: GameState, hex_: str) -> int | None:
    """The seat whose units stand on someone else's tile, if any."""
    tile = state.tiles.get(hex_)
    if tile is None:
        return None
    for p in state.players:
        if p.seat != tile.owner and hex_ in p.units.values():
            return p.seat
    return None


def unit_seats(state: GameState) -> dict[str, int]:
    """Hex -> seat of the units standing there (a hex holds one seat's units at most)."""
    out: dict[str, int] = {}
    for p in state.players:
        for loc in p.units.values():
            out[loc] = p.seat
    return out


def _lots(state: GameState, seat: int, ctx: PayContext) -> tuple[list[Lot], dict[str, int]]:
    p = state.players[seat]
    lots: list[Lot] = []
    pools: dict[str, int] = {}
    crop_subst = ctx.any_crop_for_crop
    has = set(p.paintings)
    dragao = "dragao_do_mar" in has and not ctx.exact
    machado = "machado_de_assis" in has

    def crop_provides(c: str) -> frozenset[str]:
        if ctx.exact:
            return frozenset({c})
        base = _ALL_CROPS if crop_subst else frozenset({c})
        if dragao and c == "cotton":
            return _GOLD
        return base

    # Goods on controlled buildings first (they can only be spent), then the reserve.
    where = unit_seats(state)
    for hex_, tile in state.tiles.items():
        if not tile.goods or hex_ == ctx.exclude_hex:
            continue
        here = where.get(hex_)
        controller = here if here is not None and here != tile.owner else tile.owner
        if controller != seat:
            continue
        for g, n in tile.goods.items():
            if n <= 0:
                continue
            if g in CROPS:
                lots.append(Lot(hex_, g, crop_provides(g), n, 1.0 - n / 100))
            elif not ctx.exact:
                lots.append(
                    Lot(hex_, g, _GOLD if g == "gold" else _SCIENCE, n, 3 if g == "gold" else 6)
                )
    for g, n in p.reserve.items():
        if n <= 0:
            continue
        if g in CROPS:
            lots.append(Lot("reserve", g, crop_provides(g), n, 2.0 - n / 100))
        elif not ctx.exact:
            lots.append(
                Lot("reserve", g, _GOLD if g == "gold" else _SCIENCE, n, 4 if g == "gold" else 7)
            )
    if ctx.exact or ctx.no_cards:
        return lots, pools
    for card, n in Counter(p.gold_cards).items():
        lots.append(Lot("gold_card", card, _SCIENCE if machado else _GOLD, n, 5.0))
    cc = p.combat_cards
    if cc:
        pools["cc"] = len(cc)
        wc = cc.count("war_chest")
        if wc:
            pools["wc"] = wc
            lots.append(Lot("combat_card", "war_chest", _GOLD, wc, 5.2, (("cc", 1), ("wc", 1))))
        if p.monarch == "napoleon":
            lots.append(Lot("combat_card", "*", _ALL_CROPS, len(cc), 5.5, (("cc", 1),)))
            lots.append(Lot("combat_card", "*2", _SCIENCE, len(cc) // 2, 8.0, (("cc", 2),)))
    return lots, pools


def _afonso_options(p_cards: int) -> list[list[Lot]]:
    opts: list[list[Lot]] = []
    if p_cards >= 1:
        opts.append([Lot("combat_card", "*", _GOLD, 1, 9.0, (("cc", 1),), "afonso1")])
    if p_cards >= 2:
        opts.append([Lot("combat_card", "*", _ALL_CROPS, 2, 9.0, (("cc", 1),), "afonso2")])
    if p_cards >= 3:
        opts.append(
            [
                Lot("combat_card", "*", _SCIENCE, 1, 9.0, (("cc", 2),), "afonso3"),
                Lot("combat_card", "*", _GOLD, 1, 9.0, (("cc", 1),), "afonso3"),
            ]
        )
    return opts


def _sort_tokens(cost: list[str]) -> list[frozenset[str]]:
    def rank(t: str) -> tuple[int, str]:
        if t == "science":
            return (0, t)
        if t == "gold":
            return (1, t)
        if t == "any":
            return (4, t)
        if "|" in t:
            return (3, t)
        return (2, t)

    return [token_accepts(t) for t in sorted(cost, key=rank)]


def _solutions(s: _Search) -> Iterator[list[int]]:
    """Yield assignments (lot index per token), cheapest-first greedy with backtracking."""
    n = len(s.tokens)
    remaining = [lot.count for lot in s.lots]
    pools = dict(s.pools)
    order = sorted(range(len(s.lots)), key=lambda i: s.lots[i].value)
    assign: list[int] = []
    failed: set[tuple[int, tuple[int, ...], tuple[tuple[str, int], ...]]] = set()

    def pool_ok(lot: Lot) -> bool:
        return all(pools.get(k, 0) >= m for k, m in lot.pools)

    def rec(i: int) -> Iterator[list[int]]:
        if i == n:
            yield list(assign)
            return
        key = (i, tuple(remaining), tuple(sorted(pools.items())))
        if key in failed:
            return
        acc = s.tokens[i]
        found = False
        for li in order:
            lot = s.lots[li]
            if remaining[li] <= 0 or not (lot.provides & acc) or not pool_ok(lot):
                continue
            remaining[li] -= 1
            for k, m in lot.pools:
                pools[k] -= m
            assign.append(li)
            for sol in rec(i + 1):
                found = True
                yield sol
            assign.pop()
            for k, m in lot.pools:
                pools[k] += m
            remaining[li] += 1
        if not found:
            failed.add(key)

    yield from rec(0)


def _acceptable(s: _Search, sol: list[int]) -> bool:
    used = Counter(sol)
    groups: dict[str, list[int]] = {}
    for i, lot in enumerate(s.lots):
        if lot.group:
            groups.setdefault(lot.group, []).append(i)
    for idxs in groups.values():
        total = sum(used.get(i, 0) for i in idxs)
        full = sum(s.lots[i].count for i in idxs)
        if total not in (0, full):
            return False
    if s.must_use_all:
        for i, lot in enumerate(s.lots):
            if lot.group is None and lot.what not in ("*", "*2") and used.get(i, 0) != lot.count:
                return False
    return True


def _first(s: _Search, limit: int = 2000) -> list[int] | None:
    for k, sol in enumerate(_solutions(s)):
        if _acceptable(s, sol):
            return sol
        if k > limit:
            break
    return None


def _to_items(state: GameState, seat: int, lots: list[Lot], sol: list[int]) -> list[PayItem]:
    p = state.players[seat]
    items: list[PayItem] = []
    cc_needed = 0
    for li in sol:
        lot = lots[li]
        if lot.source == "combat_card" and lot.what != "war_chest":
            cc_needed += dict(lot.pools).get("cc", 1)
        elif lot.source == "combat_card":
            items.append(PayItem(source="combat_card", what="war_chest"))
        else:
            items.append(PayItem(source=lot.source, what=lot.what))
    if cc_needed:
        hand = list(p.combat_cards)
        for it in items:
            if it.source == "combat_card":
                hand.remove(it.what)
        # Give away the cards least useful in battle first: plain +1 cards.
        pref = {"militia": 0, "war_chest": 1, "conde_deu": 2}
        hand.sort(key=lambda c: pref.get(c, 5))
        items.extend(PayItem(source="combat_card", what=c) for c in hand[:cc_needed])
    return items


def _search(
    state: GameState,
    seat: int,
    cost: list[str],
    ctx: PayContext,
    pool: tuple[list[Lot], dict[str, int]] | None = None,
) -> tuple[list[Lot], list[int]] | None:
    lots, pools = pool if pool is not None else _lots(state, seat, ctx)
    tokens = _sort_tokens(cost)
    total = sum(lot.count for lot in lots)
    p = state.players[seat]
    if total >= len(tokens):
        sol = _first(_Search(tokens, lots, pools, False))
        if sol is not None:
            return lots, sol
    if p.monarch == "afonso_i" and not ctx.exact and not ctx.no_cards and p.combat_cards:
        for opt in _afonso_options(len(p.combat_cards)):
            lots2 = lots + opt
            pools2 = dict(pools)
            pools2["cc"] = len(p.combat_cards)
            sol = _first(_Search(tokens, lots2, pools2, False))
            if sol is not None:
                return lots2, sol
    return None


def find_payment(
    state: GameState, seat: int, cost: list[str], ctx: PayContext | None = None
) -> list[PayItem] | None:
    """A sensible default payment of ``cost`` for ``seat``, or None if it cannot be paid."""
    if not cost:
        return []
    found = _search(state, seat, cost, ctx or PayContext())
    if found is None:
        return None
    return _to_items(state, seat, found[0], found[1])


def can_pay(state: GameState, seat: int, cost: list[str], ctx: PayContext | None = None) -> bool:
    """Can ``seat`` pay ``cost`` at all? (No payment items are built.)"""
    return not cost or _search(state, seat, cost, ctx or PayContext()) is not None


class PayabilityCache:
    """Answers "can this be paid" many times for one unchanging state (legal-action listing)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._pools: dict[
            tuple[int, bool, bool, str | None, bool], tuple[list[Lot], dict[str, int]]
        ] = {}
        self._answers: dict[tuple[object, ...], bool] = {}  # (pool key, *sorted cost) -> payable

    def can_pay(self, seat: int, cost: list[str], ctx: PayContext | None = None) -> bool:
        if not cost:
            return True
        ctx = ctx or PayContext()
        key = (seat, ctx.any_crop_for_crop, ctx.exact, ctx.exclude_hex, ctx.no_cards)
        known = self._answers.get((key, *sorted(cost)))
        if known is not None:
            return known  # the search sorts the tokens: the order of ``cost`` is irrelevant
        pool = self._pools.get(key)
        if pool is None:
            pool = self._pools[key] = _lots(self.state, seat, ctx)
        lots, pools = pool
        ok = _search(self.state, seat, cost, ctx, (lots, dict(pools))) is not None
        self._answers[(key, *sorted(cost))] = ok
        return ok


def check_payment(
    state: GameState,
    seat: int,
    cost: list[str],
    items: list[PayItem],
    ctx: PayContext | None = None,
) -> None:
    """Raise unless ``items`` pay exactly ``cost`` (each item used, nothing missing)."""
    ctx = ctx or PayContext()
    all_lots, _ = _lots(state, seat, ctx)
    p = state.players[seat]
    given = Counter((it.source, it.what) for it in items)
    lots: list[Lot] = []
    pools: dict[str, int] = {}
    cards_given: Counter[str] = Counter()
    for (src, what), n in given.items():
        if src == "combat_card":
            if Counter(p.combat_cards)[what] < n:
                raise InvalidAction("R-VOC-2", f"you do not hold {n} '{what}' combat card(s)")
            cards_given[what] += n
            continue
        match = [lot for lot in all_lots if lot.source == src and lot.what == what]
        if not match:
            where = "your reserve" if src == "reserve" else f"a building you control at {src}"
            if src == "gold_card":
                where = "your hand of gold cards"
            raise IllegalAction("R-VOC-6", f"{what} is not available from {where} for {ctx.label}")
        lot = match[0]
        if lot.count < n:
            raise IllegalAction("R-VOC-6", f"only {lot.count} {what} at {src}, not {n}")
        lots.append(Lot(src, what, lot.provides, n, lot.value))
    ncards = sum(cards_given.values())
    option_sets: list[list[Lot]] = [[]]
    if ncards:
        pools["cc"] = ncards
        wc = cards_given.get("war_chest", 0)
        if wc:
            pools["wc"] = wc
            lots.append(Lot("combat_card", "war_chest", _GOLD, wc, 5.2, (("cc", 1), ("wc", 1))))
        if p.monarch == "napoleon":
            lots.append(Lot("combat_card", "*", _ALL_CROPS, ncards, 5.5, (("cc", 1),)))
            lots.append(Lot("combat_card", "*2", _SCIENCE, ncards // 2, 8.0, (("cc", 2),)))
        if p.monarch == "afonso_i":
            option_sets = [[], *_afonso_options(ncards)]
    tokens = _sort_tokens(cost)
    for opt in option_sets:
        s = _Search(tokens, lots + opt, dict(pools), True)
        for k, sol in enumerate(_solutions(s)):
            if _acceptable(s, sol) and _cards_all_used(s, sol, ncards):
                return
            if k > 2000:
                break
    raise IllegalAction(
        "R-VOC-2",
        f"that payment does not pay exactly {describe_cost(cost)} for {ctx.label}",
    )


def _cards_all_used(s: _Search, sol: list[int], ncards: int) -> bool:
    used = 0
    for li in sol:
        lot = s.lots[li]
        if lot.source == "combat_card":
            used += dict(lot.pools).get("cc", 1)
    return used == ncards


def take_payment(state: GameState, seat: int, items: list[PayItem]) -> None:
    """Remove the paid items (already checked) from reserve, buildings and hands."""
    p = state.players[seat]
    for it in items:
        if it.source == "reserve":
            _dec(p.reserve, it.what)
        elif it.source == "gold_card":
            p.gold_cards.remove(it.what)
            state.gold_discard.append(it.what)
        elif it.source == "combat_card":
            p.combat_cards.remove(it.what)
            state.combat_discard.append(it.what)
        else:
            _dec(state.tiles[it.source].goods, it.what)


def _dec(goods: dict[str, int], g: str) -> None:
    n = goods.get(g, 0) - 1
    if n < 0:
        raise IllegalAction("R-VOC-2", f"no {g} left to pay with")
    if n == 0:
        del goods[g]
    else:
        goods[g] = n


_NAMES = {
    "sugar_cane": "sugar cane",
    "coffee": "coffee",
    "brazilwood": "brazilwood",
    "cotton": "cotton",
    "gold": "gold",
    "science": "science",
    "any": "any resource",
}


def good_name(g: str) -> str:
    return _NAMES.get(g, g.replace("_", " "))


def describe_cost(cost: list[str]) -> str:
    if not cost:
        return "nothing"
    c = Counter(cost)
    parts = []
    for tok, n in c.items():
        name = " or ".join(good_name(x) for x in tok.split("|"))
        parts.append(f"{n} {name}")
    return " + ".join(parts)


def describe_items(items: list[PayItem]) -> str:
    if not items:
        return "nothing"
    c = Counter(items)
    parts = []
    for it, n in c.items():
        if it.source == "reserve":
            parts.append(f"{n} {good_name(it.what)} from the reserve")
        elif it.source in ("gold_card", "combat_card"):
            parts.append(f"{n} {it.what.replace('_', ' ')} card" + ("s" if n > 1 else ""))
        else:
            parts.append(f"{n} {good_name(it.what)} from {it.source}")
    return ", ".join(parts)
