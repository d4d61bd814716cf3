"""Gold cards played as free actions (DATA.md §Gold cards; War is played after a battle,
see rules.brazil.combat)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement
from typing import Any

from rules.brazil import actions as A
from rules.brazil.catalog import CROPS
from rules.brazil.game import Context, parse_hex
from rules.brazil.messages import term_ref, text_ref
from rules.brazil.payment import (
    PayContext,
    can_pay,
    pay_context,
)
from rules.brazil.turn import (
    build_problem,
    card_build_sites,
    check_deploy,
    deploy,
    deploy_targets,
    manufacture_problem,
    pay,
    place_building,
    place_product,
    product_destinations,
    unit_cost,
)
from rules.errors import IllegalAction, InvalidAction, RulesError


def _gold_card_problem(g: Context, a: A.PlayGoldCard) -> RulesError | None:
    p = g.p(a.seat)
    if a.card not in g.cat.gold_cards:
        return InvalidAction.of("R-TURN-4", "error.unknown.gold_card", id=a.card)
    if a.card not in p.gold_cards:
        return IllegalAction.of("R-TURN-4", "error.gold.not_held")
    card = g.cat.gold_cards[a.card]
    ref = term_ref("gold_card", a.card)
    if card.kind == "end":
        return IllegalAction.of("R-TURN-4", "error.gold.end", card=ref)
    if card.kind == "war":
        return IllegalAction.of("R-TURN-4", "error.gold.war", card=ref)
    e = card.effect
    if e == "build":
        if a.at is None:
            return InvalidAction.of("R-TURN-4", "error.gold.say_at")
        return build_problem(g, a.seat, str(card.params["side"]), a.at, by_card=a.card)
    if e == "deploy":
        if a.unit is None or a.to is None:
            return InvalidAction.of("R-TURN-4", "error.gold.say_unit")
        if a.unit not in p.units:
            return InvalidAction.of("R-TURN-4", "error.unit.unknown", unit=a.unit)
        u = g.cat.units[f"{p.colour}.{a.unit}"]
        if card.params.get("basic_only") and not u.basic:
            return IllegalAction.of("R-TURN-4", "error.gold.basic", card=ref)
        if card.params.get("monarch_only") and a.unit != "monarch":
            return IllegalAction.of("R-TURN-4", "error.gold.monarch", card=ref)
        if card.params.get("basic_only") and p.units[a.unit] != "board":
            return IllegalAction.of("R-TURN-4", "error.gold.first", card=ref)
        try:
            check_deploy(g, a.seat, a.unit, a.to)
        except RulesError as err:
            return err
        return None
    if e == "manufacture":
        if a.product is None or a.to is None:
            return InvalidAction.of("R-TURN-4", "error.gold.say_product")
        return manufacture_problem(g, a.seat, a.product, a.to)
    if e == "exchange":
        give = list(card.params.get("give", []))
        if len(a.give) != len(give):
            return InvalidAction.of("R-TURN-4", "error.gold.count", card=ref, n=len(give))
        for want, got in zip(give, a.give, strict=True):
            if got not in CROPS or (want != "any" and got != want):
                return IllegalAction.of(
                    "R-TURN-4", "error.gold.takes", card=ref, goods=[f"@good.{x}" for x in give]
                )
        if not can_pay(g.s, a.seat, list(a.give), PayContext(exact=True)):
            return IllegalAction.of("R-TURN-4", "error.gold.missing")
        return None
    if e == "espionage":
        if a.target is None or not 0 <= a.target < g.s.n or a.target == a.seat:
            return InvalidAction.of("R-TURN-4", "error.gold.target")
        return None
    if e == "veterans":
        if a.unit is None or a.unit not in p.units or p.units[a.unit] in ("board", "reserve"):
            return IllegalAction.of("R-TURN-4", "error.gold.unit")
        return None
    return InvalidAction.of("R-TURN-4", "error.gold.unplayable", card=ref)


def play_gold_card(g: Context, a: A.PlayGoldCard) -> None:
    a = a.replace(
        **{
            "at": parse_hex(g, a.at) if a.at is not None else None,
            "to": parse_hex(g, a.to) if a.to is not None and a.unit is not None else a.to,
        }
    )
    err = _gold_card_problem(g, a) if g.checked else None
    if err:
        raise err
    seat = a.seat
    p = g.p(seat)
    card = g.cat.gold_cards[a.card]
    why = term_ref("gold_card", a.card)
    g.s.discard_card(seat, "gold", a.card)
    g.emit(
        "gold_card",
        {"who": g.name(seat), "card": why, "card_text": text_ref("gold_card", a.card)},
        seat,
        card=a.card,
    )
    e = card.effect
    if e == "build":
        side = str(card.params["side"])
        at = parse_hex(g, a.at or "")
        cost = list(g.cat.sides[side].cost)
        pay(g, seat, cost, a.payment, PayContext(label=card.name, ref=why))
        place_building(g, seat, side, at, why)
    elif e == "deploy":
        to = parse_hex(g, a.to or "")
        assert a.unit is not None
        pay(g, seat, unit_cost(g, seat, a.unit), a.payment, PayContext(label=card.name, ref=why))
        deploy(g, seat, a.unit, to)
    elif e == "manufacture":
        assert a.product is not None and a.to is not None
        pay(
            g,
            seat,
            list(g.cat.products[a.product].cost),
            a.payment,
            PayContext(label=card.name, ref=why),
        )
        place_product(g, seat, a.product, a.to, why)
    elif e == "exchange":
        pay(g, seat, list(a.give), a.payment, PayContext(exact=True, label=card.name, ref=why))
        g.gain(seat, {k: int(v) for k, v in card.params.get("get", {}).items()}, why)
    elif e == "espionage":
        assert a.target is not None
        t = g.p(a.target)
        seen = {
            "gold_cards": list(t.gold_cards),
            "combat_cards": list(t.combat_cards),
            "missions": list(t.missions),
        }
        p.seen[str(a.target)] = seen["gold_cards"] + seen["combat_cards"] + seen["missions"]
        g.emit(
            "espionage",
            {"who": g.name(seat), "target": g.name(a.target)},
            seat,
            target=a.target,
        )
        g.emit(
            "espionage_private",
            {
                "target": g.name(a.target),
                "gold_cards": [term_ref("gold_card", c) for c in seen["gold_cards"]],
                "combat_cards": [term_ref("combat_card", c) for c in seen["combat_cards"]],
                "missions": [term_ref("mission", m) for m in seen["missions"]],
            },
            seat,
            visible_to=(seat,),
            target=a.target,
            **seen,
        )
    elif e == "veterans":
        assert a.unit is not None
        p.units[a.unit] = "reserve"
        unit = term_ref("unit", f"{p.colour}.{a.unit}")
        g.emit("veterans", {"who": g.name(seat), "unit": unit}, seat, unit=a.unit)
        g.gain(seat, {k: int(v) for k, v in card.params.get("get", {}).items()}, why)


_EXACT = pay_context(exact=True)  # an exchange card's crops (R-TRADE-2)

# the listing's constructors of each kind of card play (A.trusted_maker: equal actions)
_CARD_AT = A.trusted_maker(A.PlayGoldCard, "seat", "card", "at")
_CARD_UNIT_TO = A.trusted_maker(A.PlayGoldCard, "seat", "card", "unit", "to")
_CARD_PRODUCT_TO = A.trusted_maker(A.PlayGoldCard, "seat", "card", "product", "to")
_CARD_GIVE = A.trusted_maker(A.PlayGoldCard, "seat", "card", "give")
_CARD_TARGET = A.trusted_maker(A.PlayGoldCard, "seat", "card", "target")
_CARD_UNIT = A.trusted_maker(A.PlayGoldCard, "seat", "card", "unit")


def gold_card_actions(g: Context, seat: int, card_id: str) -> Iterator[Any]:
    s = g.s
    p = g.p(seat)
    card = g.cat.gold_cards[card_id]
    if card.kind != "free":
        return
    e = card.effect

    # A card used in payment is gone, so payments are checked without it: the sources
    # leave one copy of it out of the hand (``spent_card``), on the listing's cache.
    without_card = pay_context(spent_card=card_id)

    def affordable(cost: list[str]) -> bool:
        return g.pay.can_pay(seat, cost, without_card)

    if e == "build":
        side = str(card.params["side"])
        if affordable(list(g.cat.sides[side].cost)):
            # build_problem's checks with the card, made once a hex (as the build listing)
            any_era = bool(card.params.get("any_era"))
            for at in card_build_sites(g, seat, side, any_era):
                yield _CARD_AT(seat, card_id, at)
    elif e == "deploy":
        # The targets are the same for every unit, and a unit's problem does not depend on
        # which of them it goes to (check_deploy asks only that it is one of them): both are
        # worked out once a unit, not once a (unit, target) pair.
        targets: list[str] | None = None
        for u, loc in p.units.items():
            if loc not in ("board", "reserve"):
                continue
            if targets is None:
                targets = deploy_targets(g, seat)
            if not targets:
                break
            first = _CARD_UNIT_TO(seat, card_id, u, targets[0])
            if _gold_card_problem(g, first) is not None or not affordable(unit_cost(g, seat, u)):
                continue
            yield first
            for to in targets[1:]:
                yield _CARD_UNIT_TO(seat, card_id, u, to)
    elif e == "manufacture":
        for pr in p.products:
            if not affordable(list(g.cat.products[pr].cost)):
                continue
            for d in product_destinations(g, seat, pr):
                yield _CARD_PRODUCT_TO(seat, card_id, pr, d)
    elif e == "exchange":
        give = list(card.params.get("give", []))
        options = (
            [tuple(give)]
            if "any" not in give
            else list(combinations_with_replacement(CROPS, len(give)))
        )
        for combo in options:
            if g.pay.can_pay(seat, list(combo), _EXACT):
                yield _CARD_GIVE(seat, card_id, tuple(combo))
    elif e == "espionage":
        for q in s.players:
            if q.seat != seat:
                yield _CARD_TARGET(seat, card_id, q.seat)
    elif e == "veterans":
        for u, loc in p.units.items():
            if loc not in ("board", "reserve"):
                yield _CARD_UNIT(seat, card_id, u)
