"""Costs and payments for play surfaces: what an action costs, the safe default, and a
chooser a UI walks one cost token at a time.

- :func:`cost_of` — what a (payment-less) action costs after discounts, upgrades and monarch
  rules, with what widens or narrows the payment.
- :func:`default_payment` — the payment the engine takes when the action is applied without
  one (only goods: docs/RULINGS.md "Default payment"); None when it must be chosen.
- :func:`payment_step` — for the items chosen so far, the next unpaid token and the sources
  that may pay it while still allowing the whole cost to be paid; when complete, the
  ``payment`` that ``apply(state, action.replace(payment=...))`` accepts.
- :func:`with_payments` — used by ``legal_actions``: an action with a cost but no safe
  default is listed carrying the engine's cheapest explicit payment: the fewest VP lost
  first (a gold card scoring at the end is spent last), then the cheapest goods.
- :func:`payment_note` — a sentence saying what VP a payment loses (None when none);
  :func:`payment_note_msg` the same as a message key and parameters.

Every text here is English (rendered with the game's own component names) and also a
nested message (``*_msg``: a ``phrase.pay.*`` key of :mod:`rules.brazil.payment_messages` and its
parameters) that a surface renders in its reader's language.

Nothing here changes the state it is given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.brazil import actions as A
from rules.brazil.actions import PayItem
from rules.brazil.game import Context, is_upgraded, parse_hex
from rules.brazil.messages import Param, catalog_names, english, msg, term_ref
from rules.brazil.payment import (
    PayabilityCache,
    PayContext,
    Solution,
    check_partial,
    check_payment,
    cost_param,
    find_payment,
    gold_card_vp,
    label_param,
    pay_context,
    sort_tokens,
    sources,
    to_items,
    token_accepts,
)
from rules.brazil.state import GameState
from rules.brazil.turn import (
    build_cost,
    manufacture_cost,
    painting_cost,
    reboucas_applies,
    reboucas_discount,
    unit_cost,
)
from rules.errors import IllegalAction, InvalidAction

PAYABLE = (
    A.Recruit,
    A.TakePainting,
    A.Build,
    A.Renovate,
    A.Manufacture,
    A.Exchange,
    A.PlayGoldCard,
)


@dataclass(frozen=True, slots=True)
class Cost:
    """What one action costs its seat now.

    ``tokens`` are the cost tokens, hardest to pay first: a crop id, ``gold``, ``science``,
    ``any`` (any crop) or ``a|b`` (either crop); ``text`` says them in words (English;
    ``text_msg`` the same as a message); ``label`` is what is paid for (English;
    ``label_ref`` the same as a message parameter: a term reference, a ``phrase.for.*``
    one, or the label itself); ``context`` what widens or narrows the sources (Build
    upgrade, exact crops for Trade, a renovated building's own goods excluded, the gold card
    being played); ``notes`` say in words (English) the rules that shaped the cost and the
    sources."""

    seat: int
    tokens: tuple[str, ...]
    text: str
    label: str
    context: PayContext
    text_msg: dict[str, Param] = field(compare=False)
    label_ref: Param = field(compare=False)
    notes: tuple[str, ...] = ()

    @property
    def free(self) -> bool:
        return not self.tokens


@dataclass(frozen=True, slots=True)
class PayOption:
    """One source that may pay the next token: ``item`` to append to the chosen items,
    ``label`` to show (English; ``label_msg`` the same as a message), ``available`` how many
    such units the player has left."""

    item: PayItem
    label: str
    available: int
    label_msg: dict[str, Param] = field(compare=False)


@dataclass(frozen=True, slots=True)
class PaymentStep:
    """Where a step-by-step payment stands.

    ``remaining`` are the tokens the ``chosen`` items do not pay yet (hardest first),
    ``token`` the next one to pay (None when complete), ``prompt`` a sentence for it
    (English; ``prompt_msg`` the same as a message),
    ``options`` the sources that may pay it and still let the whole cost be paid (identical
    units grouped), the engine's suggestion first (taking the first option each time ends
    in the payment that loses the fewest VP, issue 22) and gold cards scoring at the end
    last. When ``complete``, ``payment`` is the explicit payment to apply."""

    cost: Cost
    chosen: tuple[PayItem, ...]
    remaining: tuple[str, ...]
    token: str | None
    prompt: str
    options: tuple[PayOption, ...]
    complete: bool
    payment: tuple[PayItem, ...] | None
    prompt_msg: dict[str, Param] = field(compare=False)


def _say(g: Context, m: Param) -> str:
    """A message's English, with the game's own component names (its data pack's)."""
    return english(m, catalog_names(g.cat))


# --------------------------------------------------------------------------- costs


def raw_cost(
    g: Context, a: Any, cache: PayabilityCache | None = None
) -> tuple[list[str], PayContext, list[str]] | None:
    """(cost tokens, context, notes) of a payment-less action, as ``apply`` computes them.
    ``cache``: the listing's payability answers (for the discounts' trials)."""
    seat = a.seat
    s = g.s
    cat = g.cat
    notes: list[str] = []
    if isinstance(a, A.Recruit):
        cost = [tok for d in a.deploy for tok in unit_cost(g, seat, d.unit)]
        return cost, pay_context(label="the deployment", ref="@phrase.for.deployment"), notes
    if isinstance(a, A.TakePainting):
        if is_upgraded(g, seat, "painting"):
            notes.append("upgraded Painting: 1 resource less (R-PAINT-3)")
        ctx = pay_context(
            label=cat.paintings[a.painting].name, ref=term_ref("painting", a.painting)
        )
        return painting_cost(g, seat, a.painting), ctx, notes
    if isinstance(a, A.Build):
        second = s.turn.step == "movement" and s.turn.arch == "build"
        cost, ctx = build_cost(g, seat, a.building, second=second)
        if second:
            notes.append("second build (Visconde de Mauá): 1 resource more")
        if ctx.any_crop_for_crop:
            notes.append("upgraded Build: any resource pays for a named one (R-BUILD-8)")
        if reboucas_applies(g, seat, cost):
            cost = reboucas_discount(g, seat, cost, ctx, cache=cache)
            notes.append("André Rebouças: 1 resource or 1 gold less")
        return cost, ctx, notes
    if isinstance(a, A.Renovate):
        at = parse_hex(g, a.at)
        up = is_upgraded(g, seat, "renovate")
        cost = [] if up else list(cat.arches["renovate"].cost)
        notes.append(f"not with the goods on the building at {at} (R-RENOV-1)")
        ctx = pay_context(exclude_hex=at, label="renovating", ref="@phrase.for.renovating")
        return cost, ctx, notes
    if isinstance(a, A.Manufacture):
        up = is_upgraded(g, seat, "manufacture")
        if up:
            notes.append("upgraded Manufacture: 1 resource less (R-MANUF-2)")
        cost = manufacture_cost(g, seat, a.product, up, cache=cache)
        ctx = pay_context(label=cat.products[a.product].name, ref=term_ref("product", a.product))
        return cost, ctx, notes
    if isinstance(a, A.Exchange):
        if a.kind == "cards":
            return None  # combat cards are given, not paid (R-TRADE-1)
        notes.append("the resources themselves: nothing stands in for them (R-TRADE-2)")
        ctx = pay_context(exact=True, label="the exchange", ref="@phrase.for.exchange")
        return list(a.give), ctx, notes
    if isinstance(a, A.PlayGoldCard):
        card = cat.gold_cards[a.card]
        ctx = pay_context(label=card.name, spent_card=a.card, ref=term_ref("gold_card", a.card))
        if card.effect == "build":
            side = str(card.params["side"])
            return list(cat.sides[side].cost), ctx, notes
        if card.effect == "deploy":
            if a.unit is None:
                raise InvalidAction.of("R-TURN-4", "error.gold.say_unit")
            return unit_cost(g, seat, a.unit), ctx, notes
        if card.effect == "manufacture":
            if a.product is None:
                raise InvalidAction.of("R-TURN-4", "error.gold.say_product")
            return list(cat.products[a.product].cost), ctx, notes
        if card.effect == "exchange":
            notes.append("the resources themselves: nothing stands in for them")
            ctx = replace(ctx, exact=True)
            return list(a.give), ctx, notes
        return None
    return None


def _source_notes(g: Context, seat: int, ctx: PayContext) -> list[str]:
    if ctx.exact:
        return []
    p = g.p(seat)
    out = []
    if "dragao_do_mar" in p.paintings:
        out.append("Dragão do Mar: cotton pays as gold")
    if p.gold_cards and not ctx.no_cards:
        out.append(
            "gold cards pay as 1 science (Machado de Assis)"
            if "machado_de_assis" in p.paintings
            else "gold cards pay as 1 gold (R-VOC-2)"
        )
    if p.combat_cards and not ctx.no_cards:
        if p.monarch == "afonso_i":
            out.append("Afonso I: 1 combat card = 1 gold, 2 = 2 resources, 3 = 1 science + 1 gold")
        if p.monarch == "napoleon":
            out.append("Napoleon: each combat card = 1 resource, each 2 = 1 science")
        if "war_chest" in p.combat_cards:
            out.append("War chest: pays as 1 gold")
    return out


def _cost(g: Context, a: Any) -> Cost | None:
    if not isinstance(a, PAYABLE):
        return None
    try:
        raw = raw_cost(g, a)
    except KeyError as e:
        raise InvalidAction.of("R-VOC-2", "error.pay.unknown", id=repr(e.args[0])) from e
    if raw is None:
        return None
    cost, ctx, notes = raw
    notes += _source_notes(g, a.seat, ctx) if cost else []
    text = msg("phrase.pay.cost", cost=cost_param(cost))
    return Cost(
        seat=a.seat,
        tokens=tuple(sort_tokens(cost)),
        text=_say(g, text),
        label=ctx.label,
        context=ctx,
        text_msg=text,
        label_ref=label_param(ctx),
        notes=tuple(notes),
    )


def cost_of(state: GameState, action: A.Action) -> Cost | None:
    """What ``action`` costs its seat now, after discounts, upgrades and monarch rules
    (R-VOC-2/3, R-BUILD-8, R-MANUF-2, R-PAINT-3 …). None for an action that takes no
    payment; a :class:`Cost` with no tokens for one that costs nothing now. Any ``payment``
    on the action is ignored (with a discount, the engine's own choice of the token left
    out is shown; an explicit payment may leave out another)."""
    return _cost(Context(state), action)


def default_payment(state: GameState, action: A.Action) -> tuple[PayItem, ...] | None:
    """The payment ``apply`` takes for ``action`` without one: goods only, never a gold
    card, a combat card or science standing in for another token (docs/RULINGS.md
    "Default payment"). ``()`` when the action costs nothing; None when no such default
    exists (the payment must be chosen, e.g. with :func:`payment_step`) or the action
    takes no payment."""
    c = cost_of(state, action)
    if c is None:
        return None
    if c.free:
        return ()
    found = find_payment(state, c.seat, list(c.tokens), c.context, safe=True)
    return None if found is None else tuple(found)


# --------------------------------------------------------------------------- listing


_PAYABLE_TYPES = frozenset(PAYABLE)  # no action class has subclasses: type() decides


def with_payments(g: Context, actions: list[Any]) -> list[Any]:
    """Give every listed action that has a cost but no safe default the engine's cheapest
    explicit payment, so that each listed action applies and shows what it spends."""
    payable = _PAYABLE_TYPES
    risky: dict[int, bool] = {}
    # the usual case first: no seat with a payment-less payable action has a source a
    # default never spends, so every action is listed as it is
    for seat in {a.seat for a in actions if type(a) in payable and a.payment is None}:
        risky[seat] = _has_unsafe_sources(g, seat)
    if not any(risky.values()):
        return list(actions)
    out: list[Any] = []
    memo: dict[Any, Any] = {}
    last_seat: int | None = None
    last_building = ""
    last_pay: Any = None
    for a in actions:
        t = type(a)
        if t not in payable or a.payment is not None:
            out.append(a)
            continue
        seat = a.seat
        unsafe = risky.get(seat)
        if unsafe is None:
            unsafe = risky[seat] = _has_unsafe_sources(g, seat)
        if not unsafe:
            out.append(a)  # only goods, no science: the safe default pays whatever is payable
            continue
        if t is A.Exchange and a.kind != "cards":
            out.append(a)  # exact crops: goods only, always the safe default
            continue
        if t is A.Build and seat == last_seat and a.building == last_building:
            pay = last_pay  # the listing gives a building's sites one after the other
        else:
            key = _cost_key(g, a)
            pay = memo.get(key, memo)
            if pay is memo:
                pay = memo[key] = _listing_payment(g, a)
            if t is A.Build:
                last_seat, last_building, last_pay = seat, a.building, pay
        out.append(a if pay is None else a.replace(payment=pay))
    return out


def _has_unsafe_sources(g: Context, seat: int) -> bool:
    """Could some payment of ``seat`` need what a default never spends?"""
    p = g.p(seat)
    if p.gold_cards:
        return True
    if p.combat_cards and (p.monarch in ("afonso_i", "napoleon") or "war_chest" in p.combat_cards):
        return True
    return any(lot.what == "science" for lot in g.pay.sources(seat, pay_context()).lots)


def _cost_key(g: Context, a: Any) -> Any:
    """What decides an action's listed payment: actions with the same key pay the same."""
    t = type(a)
    cat = g.cat
    # a build, a manufacture or a painting costs what the catalog lists for it, changed by
    # rules that look at the tokens only (discounts, upgrades): the same tokens, the same
    # payment, whichever building, product or painting has them
    if t is A.Build:
        what = cat.cities.get(a.building) or cat.sides.get(a.building)
        return (a.seat, "build", a.building if what is None else tuple(what.cost))
    if t is A.Renovate:
        # the renovated building's goods are excluded (R-RENOV-1); without goods on it
        # (always, for a listed renovation: R-RENOV-3) that excludes nothing
        tile = g.s.tiles.get(a.at)
        return (a.seat, "renovate", a.at if tile is None or tile.goods else None)
    if t is A.Manufacture:
        pr = cat.products.get(a.product)
        return (a.seat, "manufacture", a.product if pr is None else tuple(pr.cost))
    if t is A.TakePainting:
        pa = cat.paintings.get(a.painting)
        return (a.seat, "painting", a.painting if pa is None else tuple(pa.cost))
    if t is A.Recruit:
        return (a.seat, "recruit", tuple(sorted(d.unit for d in a.deploy)))
    if t is A.PlayGoldCard:
        return (a.seat, "gold", a.card, a.unit, a.product, a.give)
    return a  # the action itself


def _listing_payment(g: Context, a: Any) -> tuple[PayItem, ...] | None:
    try:  # what _cost computes, without the notes and the text a listing does not show
        raw = raw_cost(g, a, g.pay)
    except KeyError as e:
        raise InvalidAction.of("R-VOC-2", "error.pay.unknown", id=repr(e.args[0])) from e
    if raw is None or not raw[0]:
        return None
    cost, ctx = sort_tokens(raw[0]), raw[1]
    if g.pay.payable(a.seat, cost, ctx, safe=True):
        return None
    sol = g.pay.solve(a.seat, cost, ctx)  # find_payment's search, on the listing's cache
    return None if sol is None else tuple(to_items(sol))


# --------------------------------------------------------------------------- chooser


def _paid_flags(sol: Solution) -> list[bool]:
    """Which tokens of a completion the chosen items pay (the rest are still to pay)."""
    flags: list[bool] = []
    used: Counter[int] = Counter()
    chosen_cards = sum(sol.src.chosen_cards.values())
    cards = 0
    for li in sol.assign:
        lot = sol.lots[li]
        if lot.source == "combat_card":
            cards += dict(lot.pools).get("cc", 1)
            flags.append(cards <= chosen_cards)
        else:
            used[li] += 1
            flags.append(used[li] <= lot.need)
    return flags


def _tile_label(g: Context, item: PayItem) -> dict[str, Param]:
    """A source on the map: the goods on a building, a city or a capital at a hex."""
    good = f"@good.{item.what}"
    hex_ = item.source
    tile = g.s.tiles.get(hex_)
    if tile is None:
        return msg("phrase.pay.option.at", good=good, hex=hex_)
    if tile.id in g.cat.sides:
        return msg(
            "phrase.pay.option.on", good=good, building=term_ref("building", tile.id), hex=hex_
        )
    if tile.id in g.cat.cities:
        return msg("phrase.pay.option.on", good=good, building=term_ref("city", tile.id), hex=hex_)
    if tile.kind == "capital":
        return msg("phrase.pay.option.capital", good=good, hex=hex_)
    return msg("phrase.pay.option.on", good=good, building=tile.kind, hex=hex_)


def _label_for(g: Context, seat: int, item: PayItem, token: str) -> dict[str, Param]:
    """An option's label as a message (``phrase.pay.option.*``)."""
    if item.source == "reserve":
        return msg("phrase.pay.option.reserve", good=f"@good.{item.what}")
    if item.source == "gold_card":
        key = "phrase.pay.option.gold_card" + ("_science" if token == "science" else "")
        return msg(key, card=term_ref("gold_card", item.what))
    if item.source == "combat_card":
        p = g.p(seat)
        why: Param = (
            term_ref("monarch", p.monarch)
            if p.monarch in ("afonso_i", "napoleon")
            else "@phrase.pay.why.as_gold"
        )
        if item.what == "war_chest" and token != "science":
            why = (
                msg("phrase.pay.why.war_chest", card=term_ref("combat_card", "war_chest"))
                if p.monarch is None
                else msg("phrase.pay.why.or_gold", why=why)
            )
        card = term_ref("combat_card", item.what)
        return msg("phrase.pay.option.combat_card", card=card, why=why)
    return _tile_label(g, item)


def payment_step(state: GameState, action: A.Action, chosen: Sequence[PayItem] = ()) -> PaymentStep:
    """The next step of paying for ``action`` after the items ``chosen`` so far.

    Each option's ``item`` appended to ``chosen`` can still be completed into an exact
    payment; when the action is payable, walking options always ends ``complete``, and
    ``apply(state, action.replace(payment=step.payment))`` accepts the result (R-VOC-2/3,
    R-VOC-6). Raises :class:`InvalidAction` for an action that takes no payment and
    :class:`IllegalAction` when ``chosen`` cannot be completed."""
    c = cost_of(state, action)
    if c is None:
        raise InvalidAction.of("R-VOC-2", "error.pay.no_payment")
    seat = c.seat
    ctx = c.context
    cost = list(c.tokens)
    items = tuple(chosen)
    try:
        check_payment(state, seat, cost, items, ctx)
        exact = True
    except IllegalAction:
        exact = False
    g = Context(state)
    if exact:
        done = msg("phrase.pay.paid", label=c.label_ref)
        return PaymentStep(
            cost=c,
            chosen=items,
            remaining=(),
            token=None,
            prompt=_say(g, done),
            options=(),
            complete=True,
            payment=items,
            prompt_msg=done,
        )
    sol = check_partial(state, seat, cost, items, ctx)
    if sol is None:
        raise IllegalAction.of(
            "R-VOC-2",
            "error.pay.incomplete",
            cost=cost_param(cost),
            label=label_param(ctx) if ctx.label == c.label else c.label,
        )
    flags = _paid_flags(sol)
    remaining = tuple(t for t, paid in zip(sol.tokens, flags, strict=True) if not paid)
    token = remaining[0]
    # the first option is what the least-loss completion pays this token with (issue 22):
    # walking first options ends in the payment losing the fewest VP
    first = sol.lots[sol.assign[flags.index(False)]]
    suggested = None if first.source == "combat_card" else PayItem(first.source, first.what)
    acc = token_accepts(token)
    src = sources(state, seat, ctx)
    have = Counter((it.source, it.what) for it in items)
    options: list[PayOption] = []
    card_provides: frozenset[str] = frozenset()
    for u in src.card_uses:
        card_provides |= u.provides
    if src.afonso:
        card_provides |= frozenset({"gold", "science"}) | token_accepts("any")
    candidates: list[tuple[PayItem, int]] = []
    for lot in src.lots:
        if lot.provides & acc:
            candidates.append((PayItem(lot.source, lot.what), lot.count))
    if card_provides & acc:
        for card, n in sorted(src.hand.items()):
            candidates.append((PayItem("combat_card", card), n))
    lost = {(lot.source, lot.what): lot.vp for lot in src.lots}
    for item, n in candidates:
        left = n - have[(item.source, item.what)]
        if left <= 0:
            continue
        if check_partial(state, seat, cost, (*items, item), ctx) is None:
            continue
        label = _label_for(g, seat, item, token)
        options.append(PayOption(item, _say(g, label), left, label_msg=label))
    # the suggestion first, scoring gold cards last (otherwise in the sources' order)
    options.sort(key=lambda o: (o.item != suggested, lost.get((o.item.source, o.item.what), 0)))
    k = len(c.tokens) - len(remaining) + 1
    prompt = msg(
        "phrase.pay.step",
        token=cost_param([token]),
        label=c.label_ref,
        k=k,
        n=len(c.tokens),
        remaining=cost_param(list(remaining)),
    )
    return PaymentStep(
        cost=c,
        chosen=items,
        remaining=remaining,
        token=token,
        prompt=_say(g, prompt),
        options=tuple(options),
        complete=False,
        payment=None,
        prompt_msg=prompt,
    )


# --------------------------------------------------------------------------- note


def payment_note(state: GameState, action: A.Action) -> str | None:
    """A short sentence when paying for ``action`` spends what loses VP at the end — a gold
    card scoring at the end (R-END-2), e.g. "pays with Agriculture — 3 VP at the end" —
    else None. The payment is the action's own ``payment``, or, without one, the payment
    the engine would take or list for it (the safe default, which never loses VP, else
    its least-loss payment). None for an action that takes no payment or cannot be paid.
    English; :func:`payment_note_msg` gives it as a message."""
    m = payment_note_msg(state, action)
    return None if m is None else _say(Context(state), m)


def payment_note_msg(state: GameState, action: A.Action) -> dict[str, Param] | None:
    """:func:`payment_note` as a message (``phrase.pay.note``) for every language."""
    if not isinstance(action, PAYABLE):
        return None
    items: Sequence[PayItem] | None = action.payment
    if items is None:
        c = cost_of(state, action)
        if c is None or c.free:
            return None
        if find_payment(state, c.seat, list(c.tokens), c.context, safe=True) is not None:
            return None
        items = find_payment(state, c.seat, list(c.tokens), c.context)
        if items is None:
            return None
    g = Context(state)
    card_vp = gold_card_vp(g.cat)
    spent = [it.what for it in items if it.source == "gold_card" and card_vp.get(it.what, 0)]
    if not spent:
        return None
    names: list[Param] = [term_ref("gold_card", c) for c in spent]
    cards = names[0] if len(names) == 1 else msg("phrase.pay.and", head=names[:-1], last=names[-1])
    return msg("phrase.pay.note", cards=cards, vp=sum(card_vp[c] for c in spent))


__all__ = [
    "Cost",
    "PayOption",
    "PaymentStep",
    "cost_of",
    "default_payment",
    "payment_note",
    "payment_note_msg",
    "payment_step",
    "with_payments",
]
