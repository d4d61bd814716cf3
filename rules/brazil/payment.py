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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product

from rules.brazil.actions import PayItem
from rules.brazil.catalog import CROPS, Catalog, get_catalog
from rules.brazil.control import unit_seats
from rules.brazil.messages import Param, english, msg
from rules.brazil.state import GameState
from rules.errors import IllegalAction
from rules.fastcopy import replaced

_ALL_CROPS = frozenset(CROPS)
_GOLD = frozenset({"gold"}) | _ALL_CROPS
_SCIENCE = frozenset({"science", "gold"}) | _ALL_CROPS


def token_accepts(token: str) -> frozenset[str]:
    """What may pay one cost token (computed once per token text)."""
    got = _ACCEPTS.get(token)
    if got is None:
        if token == "any":
            got = _ALL_CROPS
        elif token in ("gold", "science"):
            got = frozenset({token})
        else:
            got = frozenset(token.split("|"))
        _ACCEPTS[token] = got
    return got


_ACCEPTS: dict[str, frozenset[str]] = {}

_BIT: dict[str, int] = {}
_MASKS: dict[frozenset[str], int] = {}


def _mask(what: frozenset[str]) -> int:
    """``what`` as a bit set (one bit per good, computed once per set): Hall's count
    intersects and unites these instead of frozensets."""
    m = _MASKS.get(what)
    if m is None:
        m = 0
        for x in sorted(what):
            b = _BIT.get(x)
            if b is None:
                b = _BIT[x] = 1 << len(_BIT)
            m |= b
        _MASKS[what] = m
    return m


_TOKEN_MASK: dict[str, int] = {}


def _token_mask(token: str) -> int:
    m = _TOKEN_MASK.get(token)
    if m is None:
        m = _TOKEN_MASK[token] = _mask(token_accepts(token))
    return m


@dataclass(frozen=True, slots=True)
class PayContext:
    """What widens or narrows payment for one cost."""

    any_crop_for_crop: bool = False  # Build upgrade (R-BUILD-8)
    exact: bool = False  # Trade: the crops themselves (R-TRADE-2)
    exclude_hex: str | None = None  # Renovate: not from that building (R-RENOV-1)
    no_cards: bool = False
    label: str = "this"
    # A gold card being played: it cannot pay for its own effect (it is discarded first).
    spent_card: str | None = None
    # What is paid for as a message parameter (a term reference or a ``phrase.for.*`` one),
    # for the payment's event in every language; None: the label.
    ref: Param | None = None

    def key(self) -> tuple[bool, bool, str | None, bool, str | None]:
        """Everything but the label: what decides which sources may pay."""
        return (
            self.any_crop_for_crop,
            self.exact,
            self.exclude_hex,
            self.no_cards,
            self.spent_card,
        )


_CONTEXTS: dict[tuple[object, ...], PayContext] = {}


def pay_context(
    *,
    any_crop_for_crop: bool = False,
    exact: bool = False,
    exclude_hex: str | None = None,
    no_cards: bool = False,
    label: str = "this",
    spent_card: str | None = None,
    ref: Param | None = None,
) -> PayContext:
    """``PayContext(...)`` of these fields, made once (a frozen value: equal contexts are
    interchangeable) — the listing asks for the same few contexts again and again. A
    ``ref`` that cannot be hashed (a nested message) gets a new context."""
    key: tuple[object, ...] = (
        type(any_crop_for_crop),
        any_crop_for_crop,
        type(exact),
        exact,
        exclude_hex,
        type(no_cards),
        no_cards,
        label,
        spent_card,
        type(ref),
        ref,
    )
    try:
        got = _CONTEXTS.get(key)
    except TypeError:
        got = None
        key = ()
    if got is None:
        got = PayContext(
            any_crop_for_crop=any_crop_for_crop,
            exact=exact,
            exclude_hex=exclude_hex,
            no_cards=no_cards,
            label=label,
            spent_card=spent_card,
            ref=ref,
        )
        if key:
            if len(_CONTEXTS) >= 4096:
                _CONTEXTS.clear()
            _CONTEXTS[key] = got
    return got


_empty_counter = Counter.__new__
"""``_empty_counter(Counter)``: an empty ``Counter()``, without its ``__init__`` (which only
updates it from nothing): the lot builder makes two for every answer."""


@dataclass(slots=True)
class Lot:
    """Units of one source that can pay cost tokens.

    ``source``/``what`` name the :class:`PayItem` one unit is (for combat cards used as
    Napoleon's or Afonso I's stand-ins, ``what`` is ``*`` / ``*2`` and the cards are named
    when the payment is written out). ``pools`` are shared counters a unit draws from
    (``cc`` combat cards, ``wc`` War chest cards). ``need`` units must be used (an explicit
    payment's items)."""

    source: str
    what: str
    provides: frozenset[str]
    count: int
    value: float
    pools: tuple[tuple[str, int], ...] = ()
    group: str | None = None  # Afonso option: all of the group's units or none
    need: int = 0
    vp: int = 0  # VP lost at the end per unit spent (a gold card scoring at the end)


@dataclass(slots=True)
class Sources:
    """Everything ``seat`` could pay with under one context: goods and gold-card lots, the
    combat-card lots and the hand they draw from. Built once by :func:`sources` and narrowed
    by :func:`restrict` — the default search, the explicit check and the step-by-step
    chooser all read the same lots."""

    lots: list[Lot]
    hand: Counter[str]  # combat cards that may be used
    card_uses: list[Lot]  # War chest / Napoleon lots (pools cc, wc)
    afonso: bool
    chosen_cards: Counter[str] = field(default_factory=lambda: _empty_counter(Counter))
    _supply: list[tuple[int, int]] | None = field(default=None, repr=False, compare=False)
    _have: dict[int, int] = field(default_factory=dict, repr=False, compare=False)

    def have(self, acc: int) -> int:
        """Units of the goods and gold-card lots that may pay one of the goods in the bit
        set ``acc`` (computed once per set)."""
        n = self._have.get(acc)
        if n is None:
            n = 0
            for provides, k in self.supply():
                if provides & acc:
                    n += k
            self._have[acc] = n
        return n

    def supply(self) -> list[tuple[int, int]]:
        """Units of the goods and gold-card lots, by what they may pay (a bit set of goods,
        see :func:`_mask`) -> how many such units (computed once)."""
        if self._supply is None:
            out: dict[int, int] = {}
            for lot in self.lots:
                m = _mask(lot.provides)
                out[m] = out.get(m, 0) + lot.count
            self._supply = list(out.items())
        return self._supply


def sources(
    state: GameState,
    seat: int,
    ctx: PayContext,
    *,
    safe: bool = False,
    where: dict[str, int] | None = None,
) -> Sources:
    """The one lot builder. ``safe``: only what a default may spend without asking
    (goods in the reserve and on controlled buildings; science only for a science token) —
    see docs/RULINGS.md "Default payment". ``where``: :func:`unit_seats` of ``state``, when
    the caller already has it."""
    p = state.players[seat]
    lots: list[Lot] = []
    exact = ctx.exact
    crop_subst = ctx.any_crop_for_crop
    dragao = not exact and "dragao_do_mar" in p.paintings
    science_provides = frozenset({"science"}) if safe else _SCIENCE
    # what a crop pays: itself (exact), any crop (Build upgrade), gold too (Dragão do Mar)
    crop_provides: dict[str, frozenset[str]] = {}
    for c in CROPS:
        if exact:
            crop_provides[c] = token_accepts(c)  # frozenset({c}), shared
        elif dragao and c == "cotton":
            crop_provides[c] = _GOLD
        else:
            crop_provides[c] = _ALL_CROPS if crop_subst else token_accepts(c)

    # Goods on controlled buildings first (they can only be spent), then the reserve.
    if where is None:
        where = unit_seats(state)
    exclude = ctx.exclude_hex
    for hex_, tile in state.tiles.items():
        goods = tile.goods
        if not goods or hex_ == exclude:
            continue
        # controller(tile, where.get(hex_)), without the call
        if where.get(hex_, tile.owner) != seat:
            continue
        for g, n in goods.items():
            if n <= 0:
                continue
            provides = crop_provides.get(g)
            if provides is not None:
                lots.append(Lot(hex_, g, provides, n, 1.0 - n / 100))
            elif not exact:
                if g == "gold":
                    lots.append(Lot(hex_, g, _GOLD, n, 3))
                else:
                    lots.append(Lot(hex_, g, science_provides, n, 6))
    for g, n in p.reserve.items():
        if n <= 0:
            continue
        provides = crop_provides.get(g)
        if provides is not None:
            lots.append(Lot("reserve", g, provides, n, 2.0 - n / 100))
        elif not exact:
            if g == "gold":
                lots.append(Lot("reserve", g, _GOLD, n, 4))
            else:
                lots.append(Lot("reserve", g, science_provides, n, 7))
    src = Sources(lots, _empty_counter(Counter), [], False)
    if exact or ctx.no_cards or safe:
        return src
    _add_cards(src, state, seat, ctx)
    return src


def _add_cards(src: Sources, state: GameState, seat: int, ctx: PayContext) -> None:
    """The card part of :func:`sources` (neither exact nor safe nor without cards): the
    gold-card lots after the goods, the combat cards' hand and uses."""
    p = state.players[seat]
    lots = src.lots
    machado = "machado_de_assis" in p.paintings
    hand = Counter(p.gold_cards)
    if ctx.spent_card is not None and hand[ctx.spent_card] > 0:
        hand[ctx.spent_card] -= 1
    if hand:
        card_vp = gold_card_vp(get_catalog(state.data_pack))
        for card, n in hand.items():
            if n > 0:
                vp = card_vp.get(card, 0)
                # a card scoring at the end is spent after everything else (issue 22)
                value = 5.0 if not vp else _VP_CARD_VALUE + vp
                lots.append(Lot("gold_card", card, _SCIENCE if machado else _GOLD, n, value, vp=vp))
    cc = Counter(p.combat_cards)
    if cc:
        src.hand = cc
        if cc["war_chest"]:
            src.card_uses.append(
                Lot("combat_card", "war_chest", _GOLD, cc["war_chest"], 5.2, (("cc", 1), ("wc", 1)))
            )
        if p.monarch == "napoleon":
            n = sum(cc.values())
            src.card_uses.append(Lot("combat_card", "*", _ALL_CROPS, n, 5.5, (("cc", 1),)))
            src.card_uses.append(Lot("combat_card", "*2", _SCIENCE, n // 2, 8.0, (("cc", 2),)))
        src.afonso = p.monarch == "afonso_i"


def _spent_from(full: Sources, state: GameState, seat: int, ctx: PayContext) -> Sources:
    """:func:`sources` of a context naming a ``spent_card`` (neither exact nor safe nor
    without cards) from the answer of the same context without it: the goods lots are the
    same (the spent card changes only the hand of gold cards), in their order, before the
    card part made again."""
    lots = [
        Lot(lot.source, lot.what, lot.provides, lot.count, lot.value)
        for lot in full.lots
        if lot.source != "gold_card"
    ]
    src = Sources(lots, _empty_counter(Counter), [], False)
    _add_cards(src, state, seat, ctx)
    return src


_SAFE_SCIENCE = frozenset({"science"})
_VP_CARD_VALUE = 20.0  # above every other source (Afonso I's options are 9)

_CARD_VP: dict[int, tuple[Catalog, dict[str, int]]] = {}


def gold_card_vp(cat: Catalog) -> dict[str, int]:
    """The VP each gold card scores at the end if kept (R-END-2: ``end`` cards, at their
    face value, conditions aside), 0 for the others; what spending it in a payment loses.
    (Computed once per catalog.)"""
    got = _CARD_VP.get(id(cat))
    if got is None or got[0] is not cat:
        vp = {
            c.id: int(c.params.get("vp", 0)) if c.kind == "end" else 0
            for c in cat.gold_cards.values()
        }
        got = _CARD_VP[id(cat)] = (cat, vp)
    return got[1]


def _safe_from(full: Sources) -> Sources:
    """:func:`sources` with ``safe`` from the same call's unsafe answer: the goods lots in
    their order, science paying only science, no gold cards (they come after the goods)
    and no combat cards."""
    lots = [
        Lot(
            lot.source,
            lot.what,
            _SAFE_SCIENCE if lot.provides == _SCIENCE else lot.provides,
            lot.count,
            lot.value,
        )
        for lot in full.lots
        if lot.source != "gold_card"
    ]
    return Sources(lots, _empty_counter(Counter), [], False)


def restrict(src: Sources, items: Sequence[PayItem], ctx: PayContext, *, exact: bool) -> Sources:
    """Narrow ``src`` to a payment's items: every item must be used. ``exact``: nothing
    else may be used (checking an explicit payment); otherwise the other sources stay
    available (the chooser: can these items still be completed?)."""
    given = Counter((it.source, it.what) for it in items)
    lots: list[Lot] = []
    cards: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()
    for (s, w), n in given.items():
        if s == "combat_card":
            if src.hand[w] < n:
                raise IllegalAction.of(
                    "R-VOC-2", "error.pay.combat_cards", n=n, card=f"@term.combat_card.{w}"
                )
            cards[w] += n
            continue
        match = [lot for lot in src.lots if lot.source == s and lot.what == w]
        if not match:
            if s == "gold_card":
                where: Param = "@error.from.hand"
                ref = f"@term.gold_card.{w}"
            else:
                where = "@error.from.reserve" if s == "reserve" else msg("error.from.tile", hex=s)
                ref = f"@good.{w}"
            raise IllegalAction.of(
                "R-VOC-6", "error.pay.unavailable", what=ref, where=where, label=label_param(ctx)
            )
        lot = match[0]
        if lot.count < n:
            if s == "gold_card":
                raise IllegalAction.of("R-VOC-6", "error.pay.only_cards", have=lot.count, n=n)
            key = "error.pay.only_reserve" if s == "reserve" else "error.pay.only_goods"
            raise IllegalAction.of("R-VOC-6", key, have=lot.count, good=f"@good.{w}", hex=s, n=n)
        seen.add((s, w))
        lots.append(
            Lot(s, w, lot.provides, n if exact else lot.count, lot.value - 0.5, need=n, vp=lot.vp)
        )
    if not exact:
        lots += [
            Lot(lot.source, lot.what, lot.provides, lot.count, lot.value, vp=lot.vp)
            for lot in src.lots
            if (lot.source, lot.what) not in seen
        ]
    hand = cards if exact else src.hand
    uses: list[Lot] = []
    for u in src.card_uses:
        if u.what == "war_chest":
            n = hand["war_chest"]
        elif u.what == "*":
            n = sum(hand.values())
        else:
            n = sum(hand.values()) // 2
        if n:
            uses.append(Lot(u.source, u.what, u.provides, n, u.value, u.pools))
    return Sources(lots, Counter(hand), uses, src.afonso and bool(hand), cards)


def _afonso_options(n_cards: int) -> list[list[Lot]]:
    """R-MONARCH Afonso I: 1 card = 1 gold, 2 = 2 resources, 3 = 1 science + 1 gold."""
    opts: list[list[Lot]] = []
    if n_cards >= 1:
        opts.append([Lot("combat_card", "*", _GOLD, 1, 9.0, (("cc", 1),), "afonso1")])
    if n_cards >= 2:
        opts.append([Lot("combat_card", "*", _ALL_CROPS, 2, 9.0, (("cc", 1),), "afonso2")])
    if n_cards >= 3:
        opts.append(
            [
                Lot("combat_card", "*", _SCIENCE, 1, 9.0, (("cc", 2),), "afonso3"),
                Lot("combat_card", "*", _GOLD, 1, 9.0, (("cc", 1),), "afonso3"),
            ]
        )
    return opts


_RANK = {"science": 0, "gold": 1}


def _rank(t: str) -> tuple[int, str]:
    if t in _RANK:
        return (_RANK[t], t)
    if t == "any":
        return (4, t)
    return (3 if "|" in t else 2, t)


_SORTED: dict[tuple[str, ...], tuple[str, ...]] = {}


def sort_tokens(cost: Sequence[str]) -> list[str]:
    """Cost tokens, the hardest to pay first (science, gold, a crop, an either-or, any).
    (Sorted once per cost: a pure function of the tokens.)"""
    key = tuple(cost)
    got = _SORTED.get(key)
    if got is None:
        if len(_SORTED) > 4096:
            _SORTED.clear()
        got = _SORTED[key] = tuple(sorted(key, key=_rank))
    return list(got)


def _variants(src: Sources) -> Iterator[list[Lot]]:
    """The lot lists to search in turn: without Afonso I's option, then with each option
    (one option per payment)."""
    base = src.lots + src.card_uses
    yield base
    if src.afonso:
        for opt in _afonso_options(sum(src.hand.values())):
            yield base + opt


def _solve(tokens: list[str], lots: list[Lot], src: Sources) -> list[int] | None:
    """A lot index per token (cheapest-first depth-first search with a failure memo), such
    that every lot's ``need`` is met, Afonso groups are all-or-none and the combat cards
    consumed can be named from the hand, including every chosen card. None if impossible."""
    if not src.chosen_cards and src.hand["war_chest"] >= 0 and _plain(lots):
        return _solve_plain(tokens, lots)
    n = len(tokens)
    accepts = [token_accepts(t) for t in tokens]
    hand_n = sum(src.hand.values())
    wc_hand = src.hand["war_chest"]
    chosen_n = sum(src.chosen_cards.values())
    wc_chosen = src.chosen_cards["war_chest"]
    pools0 = {"cc": hand_n, "wc": wc_hand}
    remaining = [lot.count for lot in lots]
    pools = dict(pools0)
    order = sorted(range(len(lots)), key=lambda i: lots[i].value)
    groups: dict[str, list[int]] = {}
    for i, lot in enumerate(lots):
        if lot.group:
            groups.setdefault(lot.group, []).append(i)
    outstanding = sum(lot.need for lot in lots)
    assign: list[int] = []
    failed: set[tuple[int, tuple[int, ...], int, int]] = set()

    def accept() -> bool:
        for i, lot in enumerate(lots):
            if lot.count - remaining[i] < lot.need:
                return False
        for idxs in groups.values():
            used = sum(lots[i].count - remaining[i] for i in idxs)
            if used not in (0, sum(lots[i].count for i in idxs)):
                return False
        used_cc = hand_n - pools["cc"]
        w = wc_hand - pools["wc"]
        if used_cc < chosen_n:
            return False
        return w <= wc_chosen + min(wc_hand - wc_chosen, used_cc - chosen_n)

    def rec(i: int, unmet: int) -> bool:
        if unmet > n - i:
            return False
        if i == n:
            return accept()
        key = (i, tuple(remaining), pools["cc"], pools["wc"])
        if key in failed:
            return False
        acc = accepts[i]
        for li in order:
            lot = lots[li]
            if remaining[li] <= 0 or not (lot.provides & acc):
                continue
            if any(pools[k] < m for k, m in lot.pools):
                continue
            met = 1 if lot.count - remaining[li] < lot.need else 0
            remaining[li] -= 1
            for k, m in lot.pools:
                pools[k] -= m
            assign.append(li)
            if rec(i + 1, unmet - met):
                return True
            assign.pop()
            for k, m in lot.pools:
                pools[k] += m
            remaining[li] += 1
        failed.add(key)
        return False

    if rec(0, outstanding):
        return list(assign)
    return None


def _plain(lots: list[Lot]) -> bool:
    """No lot draws from a pool (combat cards), is in a group (Afonso I) or must be used
    (an explicit payment's items): :func:`_solve`'s search is then a plain matching."""
    return not any(lot.pools or lot.group or lot.need > 0 for lot in lots)


def _solve_plain(tokens: list[str], lots: list[Lot]) -> list[int] | None:
    """:func:`_solve` for :func:`_plain` lots and no chosen cards: the same search in the
    same order (tokens as given, lots cheapest first, the first fit taken, a failure memo),
    without what those lots cannot need (pools, groups, required items; every complete
    assignment is then accepted) — so the same answer."""
    n = len(tokens)
    accepts = [token_accepts(t) for t in tokens]
    remaining = [lot.count for lot in lots]
    order = sorted(range(len(lots)), key=lambda i: lots[i].value)
    cands = [(li, lots[li].provides) for li in order]
    assign: list[int] = []
    failed: set[tuple[int, tuple[int, ...]]] = set()

    def rec(i: int) -> bool:
        if i == n:
            return True
        key = (i, tuple(remaining))
        if key in failed:
            return False
        acc = accepts[i]
        for li, provides in cands:
            if remaining[li] <= 0 or provides.isdisjoint(acc):
                continue
            remaining[li] -= 1
            assign.append(li)
            if rec(i + 1):
                return True
            assign.pop()
            remaining[li] += 1
        failed.add(key)
        return False

    if rec(0):
        return assign
    return None


_HALL_PLANS: dict[tuple[str, ...], tuple[tuple[int, int], ...]] = {}


def _hall_plan(cost: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """Hall's conditions for the sorted tokens ``cost``: for every set of token kinds, the
    goods any of them accepts (a bit set, see :func:`_mask`) and how many tokens they are
    (the largest such count per bit set: the others are implied). Made once per cost."""
    plan = _HALL_PLANS.get(cost)
    if plan is None:
        kinds: dict[int, int] = {}
        for t in cost:
            m = _token_mask(t)
            kinds[m] = kinds.get(m, 0) + 1
        accepts = list(kinds)
        counts = list(kinds.values())
        need: dict[int, int] = {}
        # the union and demand of each set of kinds, from the set without its lowest kind
        unions = [0]
        demands = [0]
        for mask in range(1, 1 << len(accepts)):
            low = (mask & -mask).bit_length() - 1
            rest = mask & (mask - 1)
            acc = unions[rest] | accepts[low]
            demand = demands[rest] + counts[low]
            unions.append(acc)
            demands.append(demand)
            need[acc] = max(need.get(acc, 0), demand)
        plan = _HALL_PLANS[cost] = tuple(need.items())
    return plan


def _hall_payable(cost: Sequence[str], src: Sources) -> bool:
    """Can the tokens of ``cost`` be matched one-to-one to the units of ``src``'s goods and
    gold-card lots (:meth:`Sources.supply`)? Hall's theorem for this bipartite matching: for
    every set of token kinds, the tokens of those kinds are at most the units that accept
    one of them (:meth:`Sources.have`). Exact when no unit draws from a shared pool (combat
    cards) and no lot is all-or-none (Afonso I) or required (an explicit payment's items)."""
    key = cost if type(cost) is tuple else tuple(sorted(cost))
    plan = _HALL_PLANS.get(key)
    if plan is None:
        plan = _hall_plan(key)
    known = src._have
    supply = src._supply
    for acc, demand in plan:
        have = known.get(acc)
        if have is None:
            # Sources.have(acc), inlined (the listing asks this tens of thousands of times)
            if supply is None:
                supply = src.supply()
            have = 0
            for provides, k in supply:
                if provides & acc:
                    have += k
            known[acc] = have
        if have < demand:
            return False
    return True


def quick_payable(src: Sources, cost: Sequence[str]) -> bool | None:
    """``solve(src, cost) is not None`` without the search where a count decides it: the
    goods and gold cards alone pay ``cost`` (then it is payable, combat cards unused), or
    fail to and there are no combat-card uses to add (then it is not). None: search.
    Only for sources straight from :func:`sources` (no :func:`restrict`)."""
    if _hall_payable(cost, src):
        return True
    if src.card_uses or (src.afonso and src.hand):
        return None
    return False


@dataclass(slots=True)
class Solution:
    """A way to pay: the sorted tokens, the lots and the lot index paying each token."""

    tokens: list[str]
    lots: list[Lot]
    assign: list[int]
    src: Sources


def solve(src: Sources, cost: Sequence[str]) -> Solution | None:
    """The cheapest-first way to pay ``cost`` from ``src`` (None if there is none)."""
    tokens = sort_tokens(cost)
    total = sum(lot.count for lot in src.lots) + sum(src.hand.values())
    if total < len(tokens):  # a unit (a card too) pays one token at most
        return None
    for lots in _variants(src):
        sol = _solve(tokens, lots, src)
        if sol is not None:
            return Solution(tokens, lots, sol, src)
    return None


def vp_lost(sol: Solution) -> int:
    """The VP a solution's payment loses at the end (the scoring gold cards it spends)."""
    lots = sol.lots
    return sum(lots[li].vp for li in sol.assign)


def solve_least_loss(src: Sources, cost: Sequence[str]) -> Solution | None:
    """A way to pay ``cost`` from ``src`` that loses the fewest VP (issue 22): no scoring
    gold card is spent when a payment without one exists, the fewest points' worth
    otherwise; among those, :func:`solve`'s cheapest-first choice. None if ``cost`` cannot
    be paid. (:func:`solve` alone picks the cheapest source token by token, which can leave
    a later token to a scoring card another assignment would not need.)"""
    sol = solve(src, cost)
    if sol is None:
        return None
    lost = vp_lost(sol)
    if not lost:
        return sol
    scoring = [i for i, lot in enumerate(src.lots) if lot.vp]
    # every way to cap the scoring cards' lots, fewest VP first: the first payable is least
    caps = sorted(
        product(*(range(src.lots[i].count + 1) for i in scoring)),
        key=lambda ns: (sum(n * src.lots[i].vp for n, i in zip(ns, scoring, strict=True)), ns),
    )
    for ns in caps:
        if sum(n * src.lots[i].vp for n, i in zip(ns, scoring, strict=True)) >= lost:
            break
        if any(n < src.lots[i].need for n, i in zip(ns, scoring, strict=True)):
            continue
        lots = list(src.lots)
        for n, i in zip(ns, scoring, strict=True):
            lot = lots[i]
            lots[i] = Lot(
                lot.source,
                lot.what,
                lot.provides,
                n,
                lot.value,
                lot.pools,
                lot.group,
                lot.need,
                lot.vp,
            )
        narrowed = Sources(
            [lot for lot in lots if lot.count],
            src.hand,
            src.card_uses,
            src.afonso,
            src.chosen_cards,
        )
        found = solve(narrowed, cost)
        if found is not None:
            return found
    return sol


_CARD_PREF = {"militia": 0, "war_chest": 1, "conde_deu": 2}


def to_items(sol: Solution) -> list[PayItem]:
    """Write a solution out as payment items, naming the combat cards it consumes: the
    chosen ones, War chests where a War chest use needs one, then the cards least useful
    in battle (plain +1 cards first)."""
    items: list[PayItem] = []
    used_cc = 0
    w = 0
    for li in sol.assign:
        lot = sol.lots[li]
        if lot.source == "combat_card":
            used_cc += dict(lot.pools).get("cc", 1)
            w += dict(lot.pools).get("wc", 0)
        else:
            items.append(PayItem(source=lot.source, what=lot.what))
    if used_cc:
        chosen = list(sol.src.chosen_cards.elements())
        rest = sol.src.hand - sol.src.chosen_cards
        more_wc = max(0, w - sol.src.chosen_cards["war_chest"])
        chosen += ["war_chest"] * more_wc
        rest["war_chest"] -= more_wc
        pool = sorted(rest.elements(), key=lambda c: (_CARD_PREF.get(c, 5), c))
        chosen += pool[: used_cc - len(chosen)]
        items.extend(PayItem(source="combat_card", what=c) for c in chosen)
    return items


def find_payment(
    state: GameState,
    seat: int,
    cost: list[str],
    ctx: PayContext | None = None,
    *,
    safe: bool = False,
) -> list[PayItem] | None:
    """The engine's cheapest payment of ``cost`` for ``seat`` — the fewest VP lost first
    (:func:`solve_least_loss`), then cheapest-first — or None if it cannot be paid.
    ``safe``: only from sources a default may spend without asking (docs/RULINGS.md)."""
    if not cost:
        return []
    sol = solve_least_loss(sources(state, seat, ctx or PayContext(), safe=safe), cost)
    return None if sol is None else to_items(sol)


def default_items(
    state: GameState, seat: int, cost: list[str], ctx: PayContext | None = None
) -> list[PayItem]:
    """The safe default payment of ``cost`` (docs/RULINGS.md "Default payment").

    Raises :class:`IllegalAction` (R-VOC-2) when ``cost`` cannot be paid, or when it can be
    paid only by spending what a default never spends (a gold card, a combat card, science
    standing in for gold or a resource): the message names the engine's cheapest payment,
    to be given explicitly."""
    ctx = ctx or PayContext()
    if not cost:
        return []
    found = find_payment(state, seat, cost, ctx, safe=True)
    if found is not None:
        return found
    full = find_payment(state, seat, cost, ctx)
    if full is None:
        raise IllegalAction.of(
            "R-VOC-2", "error.pay.cannot", cost=cost_param(cost), label=label_param(ctx)
        )
    raise IllegalAction.of(
        "R-VOC-2",
        "error.pay.choose",
        cost=cost_param(cost),
        label=label_param(ctx),
        kinds=_unsafe_kinds(full),
        items=item_refs(list(full)),
    )


def _unsafe_kinds(items: Sequence[PayItem]) -> str:
    gold = any(it.source == "gold_card" for it in items)
    combat = any(it.source == "combat_card" for it in items)
    kind = "both" if gold and combat else "gold" if gold else "combat" if combat else "science"
    return f"@error.unsafe.{kind}"


def _alternatives(items: list[Param]) -> Param:
    """``a``, ``a or b``, ``a or b or c`` (a cost token's alternatives)."""
    if len(items) == 1:
        return items[0]
    return msg("error.part.or2", a=items[0], b=_alternatives(items[1:]))


def cost_param(cost: list[str]) -> list[Param]:
    """:func:`describe_cost` as a message parameter (``{cost:plus:nothing}``): nested
    ``error.part.cost`` messages naming the goods by their terms."""
    return [
        msg("error.part.cost", n=n, good=_alternatives([f"@good.{x}" for x in tok.split("|")]))
        for tok, n in Counter(cost).items()
    ]


def label_param(ctx: PayContext) -> Param:
    """What is paid for, as a message parameter: the context's reference when it says the
    label in English (so every language names it), else the label itself."""
    if ctx.ref is not None and english(ctx.ref) == ctx.label:
        return ctx.ref
    return ctx.label


def can_pay(state: GameState, seat: int, cost: list[str], ctx: PayContext | None = None) -> bool:
    """Can ``seat`` pay ``cost`` at all? (No payment items are built.)"""
    return not cost or solve(sources(state, seat, ctx or PayContext()), cost) is not None


class PayabilityCache:
    """Answers "can this be paid" many times for one unchanging state (legal-action listing)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._where: dict[str, int] | None = None
        self._src: dict[tuple[int, bool, tuple[object, ...]], Sources] = {}
        self._ok: dict[tuple[int, bool, tuple[object, ...], tuple[str, ...]], bool] = {}
        self._found: dict[
            tuple[int, bool, tuple[object, ...], tuple[str, ...]], Solution | None
        ] = {}

    def where(self) -> dict[str, int]:
        """:func:`unit_seats` of the state, computed once."""
        if self._where is None:
            self._where = unit_seats(self.state)
        return self._where

    def _ctx_key(self, ctx: PayContext) -> tuple[object, ...]:
        """``ctx.key()``, with an excluded hex that holds no goods dropped: excluding it
        changes no source (the renovation of every empty building shares one search)."""
        key = ctx.key()
        if ctx.exclude_hex is not None:
            tile = self.state.tiles.get(ctx.exclude_hex)
            if tile is None or not tile.goods:
                return (*key[:2], None, *key[3:])
        return key

    def sources(
        self, seat: int, ctx: PayContext, safe: bool = False, ckey: tuple[object, ...] | None = None
    ) -> Sources:
        """``ckey``: ``self._ctx_key(ctx)``, when the caller has it."""
        key = (seat, safe, self._ctx_key(ctx) if ckey is None else ckey)
        src = self._src.get(key)
        if src is None:
            full = self._src.get((seat, False, key[2])) if safe else None
            if full is not None:
                src = _safe_from(full)  # what sources(..., safe=True) builds, without the scan
            elif not safe and ctx.spent_card is not None and not ctx.exact and not ctx.no_cards:
                # a gold card's listing: the same sources without the card, if known
                ck = key[2]
                base = self._src.get((seat, False, (*ck[:4], None)))
                if base is not None:
                    src = _spent_from(base, self.state, seat, ctx)
                else:
                    src = sources(self.state, seat, ctx, safe=safe, where=self.where())
            else:
                src = sources(self.state, seat, ctx, safe=safe, where=self.where())
            self._src[key] = src
        return src

    def solve(
        self, seat: int, cost: list[str], ctx: PayContext | None = None, safe: bool = False
    ) -> Solution | None:
        ctx = ctx or PayContext()
        key = (seat, safe, self._ctx_key(ctx), tuple(sort_tokens(cost)))
        if key not in self._found:
            self._found[key] = solve_least_loss(self.sources(seat, ctx, safe), cost)
        return self._found[key]

    def payable(
        self, seat: int, cost: Sequence[str], ctx: PayContext | None = None, safe: bool = False
    ) -> bool:
        """``solve(...) is not None``, by :func:`quick_payable` where a count decides it."""
        if not cost:
            return True
        ckey: tuple[object, ...]
        if ctx is None:
            ctx, ckey = _NO_CONTEXT, _NO_CONTEXT_KEY
        else:
            ckey = self._ctx_key(ctx)
        tokens = tuple(cost) if len(cost) == 1 else tuple(sorted(cost))
        key = (seat, safe, ckey, tokens)
        ok = self._ok.get(key)
        if ok is None:
            src = self.sources(seat, ctx, safe, ckey)
            ok = quick_payable(src, tokens)
            if ok is None:
                ok = solve(src, cost) is not None
            self._ok[key] = ok
        return ok

    def can_pay(self, seat: int, cost: list[str], ctx: PayContext | None = None) -> bool:
        return self.payable(seat, cost, ctx)


_NO_CONTEXT = PayContext()  # (frozen: shared)
_NO_CONTEXT_KEY = _NO_CONTEXT.key()


def check_payment(
    state: GameState,
    seat: int,
    cost: list[str],
    items: Sequence[PayItem],
    ctx: PayContext | None = None,
) -> None:
    """Raise unless ``items`` pay exactly ``cost`` (each item used, nothing missing)."""
    ctx = ctx or PayContext()
    src = restrict(sources(state, seat, ctx), items, ctx, exact=True)
    if (cost or items) and solve(src, cost) is None:
        raise IllegalAction.of(
            "R-VOC-2", "error.pay.inexact", cost=cost_param(cost), label=label_param(ctx)
        )


def check_partial(
    state: GameState, seat: int, cost: list[str], items: Sequence[PayItem], ctx: PayContext
) -> Solution | None:
    """Can ``items`` be completed (with more sources) into an exact payment of ``cost``?
    The solution found (chosen items first), or None. Raises on items not held."""
    src = restrict(sources(state, seat, ctx), items, ctx, exact=False)
    return solve_least_loss(src, cost)


def take_payment(state: GameState, seat: int, items: Sequence[PayItem]) -> None:
    """Remove the paid items (already checked) from reserve, buildings and hands."""
    p = state.players[seat]
    for it in items:
        if it.source == "reserve":
            _dec(p.reserve, it.what)
        elif it.source == "gold_card":
            state.discard_card(seat, "gold", it.what)
        elif it.source == "combat_card":
            state.discard_card(seat, "combat", it.what)
        else:
            t = state.tiles[it.source]
            goods = dict(t.goods)
            _dec(goods, it.what)
            state.tiles[it.source] = replaced(t, goods=goods)


def _dec(goods: dict[str, int], g: str) -> None:
    n = goods.get(g, 0) - 1
    if n < 0:
        raise IllegalAction.of("R-VOC-2", "error.pay.none_left", good=f"@good.{g}")
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


def item_refs(items: list[PayItem]) -> list[Param]:
    """:func:`describe_items` as nested messages (``phrase.item.*``), for the payment's event
    in every language: one per kind of item, in the same order."""
    out: list[Param] = []
    for it, n in Counter(items).items():
        if it.source == "reserve":
            out.append(msg("phrase.item.reserve", n=n, good=f"@good.{it.what}"))
        elif it.source in ("gold_card", "combat_card"):
            out.append(msg("phrase.item.card", n=n, card=f"@term.{it.source}.{it.what}"))
        else:
            out.append(msg("phrase.item.tile", n=n, good=f"@good.{it.what}", hex=it.source))
    return out
