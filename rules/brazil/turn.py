"""The seven actions (RULES.md §4) — Recruit, Painting, Build, Renovate, Manufacture,
Import, Trade — with their upgrades, payments and the listing of their legal forms."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, combinations_with_replacement
from typing import Any

from rules.brazil import actions as A
from rules.brazil.catalog import ARCHES, CROPS, FRAMES, Catalog
from rules.brazil.control import controls, occupier_of
from rules.brazil.exploration import clear_site, reward_builder
from rules.brazil.game import Context, is_upgraded, parse_hex, require_step
from rules.brazil.messages import Param, msg, term_ref, text_ref
from rules.brazil.payment import (
    PayabilityCache,
    PayContext,
    Sources,
    can_pay,
    check_payment,
    default_items,
    item_refs,
    pay_context,
    solve,
    solve_least_loss,
    sources,
    take_payment,
    vp_lost,
)
from rules.brazil.state import Tile
from rules.errors import IllegalAction, InvalidAction, RulesError, or_list
from rules.fastcopy import replaced


def _begin_arch(g: Context, seat: int, arch: str) -> None:
    """R-TURN-2: place the era token on a free arch, never the one it already stands on."""
    require_step(g, "action", "R-TURN-1", msg("error.doing.action", arch=term_ref("arch", arch)))
    p = g.p(seat)
    g.require(
        p.token_arch != arch, "R-TURN-2", "error.turn.token_there", arch=term_ref("arch", arch)
    )
    p.token_arch = arch
    g.s.turn.arch = arch
    g.s.turn.action_done = True
    g.emit("action", {"who": g.name(seat), "arch": term_ref("arch", arch)}, seat, arch=arch)


def _to_movement(g: Context, seat: int) -> None:
    t = g.s.turn
    t.step = "movement"
    arch = t.arch
    if arch is None:
        return
    tok = g.p(seat).under.get(arch)
    if tok == 1 and any(not e.face_up for e in g.s.exploration.values()):
        t.peek = True  # R-ERA-2: token I bonus, look at one face-down tile
    elif tok == 2:
        g.draw_combat(seat, 1, "@phrase.why.era_token_2")


def pay(g: Context, seat: int, cost: list[str], payment: A.Payment, ctx: PayContext) -> None:
    if payment is not None:
        items = list(payment)
        if g.checked:
            check_payment(g.s, seat, cost, items, ctx)
    else:
        items = default_items(g.s, seat, cost, ctx)
    take_payment(g.s, seat, items)
    if cost:
        cards = any(i.source in ("gold_card", "combat_card") for i in items)
        g.emit(
            "pay.cards" if cards else "pay",
            {
                "who": g.name(seat),
                "items": item_refs(items),
                "what": ctx.label if ctx.ref is None else ctx.ref,
            },
            seat,
            items=[{"source": i.source, "what": i.what} for i in items],
        )


def deploy_targets(g: Context, seat: int) -> list[str]:
    """R-RECRUIT-2: your capital or a city of yours that you control."""
    p = g.p(seat)
    out = [p.capital] if p.capital else []
    out += [
        h
        for h, t in g.s.tiles.items()
        if t.kind == "city" and t.owner == seat and controls(g.s, seat, h)
    ]
    return out


def check_deploy(g: Context, seat: int, unit: str, to: str, rule: str = "R-RECRUIT-2") -> None:
    p = g.p(seat)
    if unit not in p.units:
        raise InvalidAction.of(rule, "error.unit.unknown_of", unit=unit, units=list(p.units))
    loc = p.units[unit]
    g.require(loc in ("board", "reserve"), rule, "error.deploy.on_map", unit=unit, hex=loc)
    g.require(to in deploy_targets(g, seat), rule, "error.deploy.target", hex=to)


def unit_cost(g: Context, seat: int, unit: str) -> list[str]:
    p = g.p(seat)
    if p.units[unit] == "reserve":
        return []  # R-RECRUIT-3: redeployment is free
    return list(g.cat.units[f"{p.colour}.{unit}"].cost)


def deploy(g: Context, seat: int, unit: str, to: str) -> None:
    p = g.p(seat)
    first = p.units[unit] == "board"
    p.units[unit] = to
    name = term_ref("unit", f"{p.colour}.{unit}")
    if first:
        vp = g.cat.units[f"{p.colour}.{unit}"].vp
        g.emit(
            "deploy.first",
            {"who": g.name(seat), "unit": name, "vp": vp, "hex": to},
            seat,
            unit=unit,
            hex=to,
            first=True,
        )
        if p.monarch == "pedro_i":
            reward = g.cat.monarchs["pedro_i"].params.get(unit)
            if reward == "resource":
                g.gain_reward(seat, "any", term_ref("monarch", "pedro_i"))
            elif reward == "gold_card":
                g.draw_gold(seat, 1, term_ref("monarch", "pedro_i"))
    else:
        g.emit(
            "deploy.again",
            {"who": g.name(seat), "unit": name, "hex": to},
            seat,
            unit=unit,
            hex=to,
            first=False,
        )


def recruit(g: Context, a: A.Recruit) -> None:
    seat = a.seat
    up = is_upgraded(g, seat, "recruit")
    limit = 2 if up else 1  # R-RECRUIT-4
    g.require(len(a.deploy) <= limit, "R-RECRUIT-4", "error.recruit.deploy_max", n=limit)
    g.require(0 <= a.draw <= limit, "R-RECRUIT-4", "error.recruit.draw_max", n=limit)
    g.require(bool(a.deploy) or a.draw > 0, "R-RECRUIT-1", "error.recruit.nothing")
    g.require(
        a.draw == 0 or bool(g.s.combat_deck or g.s.combat_discard),
        "R-RECRUIT-1",
        "error.recruit.no_cards",
    )
    units = [d.unit for d in a.deploy]
    g.require(len(set(units)) == len(units), "R-RECRUIT-1", "error.recruit.twice")
    deploys = [(d.unit, parse_hex(g, d.to)) for d in a.deploy]
    if g.checked:
        for u, to in deploys:
            check_deploy(g, seat, u, to)
    _begin_arch(g, seat, "recruit")
    cost = [tok for u, _ in deploys for tok in unit_cost(g, seat, u)]
    # R-RECRUIT-5: deployments are paid before the cards of this action are drawn.
    pay(g, seat, cost, a.payment, PayContext(label="the deployment", ref="@phrase.for.deployment"))
    for u, to in deploys:
        deploy(g, seat, u, to)
    n = a.draw
    p = g.p(seat)
    if p.monarch == "napoleon" and not p.counters.get("napoleon_recruit"):
        p.counters["napoleon_recruit"] = 1
        n += int(g.cat.monarchs["napoleon"].params.get("first_recruit_cards", 1))
    if n:
        g.draw_combat(seat, n, term_ref("arch", "recruit"))
    _to_movement(g, seat)


def painting_cost(g: Context, seat: int, painting: str) -> list[str]:
    cost = list(g.cat.paintings[painting].cost)
    if is_upgraded(g, seat, "painting"):  # R-PAINT-3
        if cost == ["any"]:
            return []
        if cost == ["gold"]:
            return ["any"]  # a resource instead (gold still pays for a resource)
    return cost


def take_painting(g: Context, a: A.TakePainting) -> None:
    seat = a.seat
    s = g.s
    if a.painting not in g.cat.paintings:
        raise InvalidAction.of("R-PAINT-1", "error.unknown.painting", id=a.painting)
    g.require(
        a.painting in s.display,
        "R-PAINT-1",
        "error.painting.not_displayed",
        painting=term_ref("painting", a.painting),
    )
    _begin_arch(g, seat, "painting")
    pa = g.cat.paintings[a.painting]
    pay(
        g,
        seat,
        painting_cost(g, seat, a.painting),
        a.payment,
        PayContext(label=pa.name, ref=term_ref("painting", a.painting)),
    )
    s.display.remove(a.painting)
    p = g.p(seat)
    p.paintings.append(a.painting)
    g.emit(
        "painting",
        {
            "who": g.name(seat),
            "painting": term_ref("painting", a.painting),
            "vp": pa.vp,
            "painting_text": text_ref("painting", a.painting),
        },
        seat,
        painting=a.painting,
    )
    _refill_display(g, seat, pa.frame)
    _painting_effects(g, seat, a.painting)
    _to_movement(g, seat)


def _refill_display(g: Context, seat: int, frame: str) -> None:
    """R-PAINT-2: refill from the same frame's deck, else the taker chooses another deck."""
    s = g.s
    deck = s.painting_decks.get(frame, [])
    if deck:
        card = deck.pop()
        s.display.append(card)
        g.emit("display", {"painting": term_ref("painting", card)}, painting=card)
        return
    others = [f for f in FRAMES if f != frame and s.painting_decks.get(f)]
    if len(others) == 1:
        card = s.painting_decks[others[0]].pop()
        s.display.append(card)
        g.emit(
            "display.other_deck",
            {
                "frame": f"@phrase.frame.{frame}",
                "painting": term_ref("painting", card),
                "other": f"@phrase.frame.{others[0]}",
            },
            painting=card,
        )
    elif others:
        g.push(seat, "choose_deck", front=True, choices=others)


def _painting_effects(g: Context, seat: int, painting: str) -> None:
    pa = g.cat.paintings[painting]
    p = g.p(seat)
    if pa.effect == "production":  # R-PAINT-4: existing buildings produce the extra now
        extra = {k: int(v) for k, v in pa.params.get("goods", {}).items()}
        for h, t in g.s.tiles.items():
            if t.kind == "building" and t.id == pa.params.get("side") and controls(g.s, seat, h):
                goods = dict(t.goods)
                for k, v in extra.items():
                    goods[k] = goods.get(k, 0) + v
                g.s.tiles[h] = replaced(t, goods=goods)
                g.emit(
                    "produce.painting",
                    {"hex": h, "painting": term_ref("painting", painting)},
                    seat,
                    hex=h,
                    goods=extra,
                )
    elif pa.effect == "once_goods":
        g.gain(
            seat,
            {k: int(v) for k, v in pa.params.get("goods", {}).items()},
            term_ref("painting", painting),
        )
    if p.monarch == "pedro_ii":
        key = f"pedro_ii:{pa.frame}"
        if not p.counters.get(key):
            p.counters[key] = 1
            reward = str(g.cat.monarchs["pedro_ii"].params.get(pa.frame, ""))
            if reward:
                g.gain_reward(
                    seat,
                    reward,
                    msg(
                        "phrase.why.first_painting",
                        monarch=term_ref("monarch", "pedro_ii"),
                        frame=f"@phrase.frame.{pa.frame}",
                    ),
                )


_NO_BUILD = ("river_basin", "bandeiras")  # revealed exploration tiles not built on (R-BUILD-7)

# the listing's constructors of its most frequent actions (A.trusted_maker: no per-field
# __setattr__ of a frozen dataclass)
_BUILD = A.trusted_maker(A.Build, "seat", "building", "at")
_RENOVATE = A.trusted_maker(A.Renovate, "seat", "at", "flip")
_IMPORT = A.trusted_maker(A.Import, "seat", "crop")
_PAINTING = A.trusted_maker(A.TakePainting, "seat", "painting")
_RECRUIT = A.trusted_maker(A.Recruit, "seat", "deploy", "draw")
_MANUFACTURE = A.trusted_maker(A.Manufacture, "seat", "product", "to")
_TRADE = A.trusted_maker(A.Trade, "seat")
_EXCHANGE = A.trusted_maker(A.Exchange, "seat", "kind", "give")
_DEPLOY = A.trusted_maker(A.Deploy, "unit", "to")


def is_city(g: Context, what: str) -> bool:
    return what in g.cat.cities


def build_problem(
    g: Context,
    seat: int,
    what: str,
    at: str,
    *,
    by_card: str | None = None,
) -> RulesError | None:
    """Why ``seat`` may not build ``what`` at ``at`` now (None if it may). Payment aside.
    The listing (:func:`build_actions`) makes the same checks once a hex or a building."""
    s = g.s
    cat = g.cat
    p = g.p(seat)
    leop = "maria_leopoldina" in p.paintings
    city = is_city(g, what)
    if not city and what not in cat.sides:
        return InvalidAction.of("R-BUILD-1", "error.unknown.building", id=what)
    if g.board.terrain[at] == "water":
        return IllegalAction.of("R-BUILD-3", "error.build.water", hex=at)
    if city:
        if s.era < 2:
            return IllegalAction.of("R-BUILD-1", "error.build.city_era")
        if not any(pile and pile[-1] == what for pile in s.city_piles):
            return IllegalAction.of(
                "R-BUILD-6", "error.build.city_hidden", city=term_ref("city", what)
            )
        if (
            s.city_limit is not None
            and sum(1 for t in s.tiles.values() if t.kind == "city" and t.owner == seat)
            >= s.city_limit
        ):
            return IllegalAction.of("R-BUILD-10", "error.build.city_limit", n=s.city_limit)
        founders = {"monarch"} if "arariboia" not in p.paintings else set(p.units)
        if not any(p.units.get(u) == at for u in founders):
            key = (
                "error.build.founder" if "arariboia" not in p.paintings else "error.build.founders"
            )
            return IllegalAction.of("R-BUILD-6", key, hex=at)
    else:
        tile_id = cat.side_tile[what]
        era = cat.buildings[tile_id].era
        if era > s.era and not (by_card and cat.gold_cards[by_card].params.get("any_era")):
            return IllegalAction.of(
                "R-BUILD-2",
                "error.build.era",
                building=term_ref("building", what),
                era=era,
                now=s.era,
            )
        if s.supply.get(tile_id, 0) <= 0:
            return IllegalAction.of(
                "R-BUILD-1", "error.build.none_left", building=term_ref("building", what)
            )
    existing = s.tiles.get(at)
    if existing is not None:
        if existing.kind == "capital":
            return IllegalAction.of("R-BUILD-4", "error.build.capital")
        if existing.owner != seat or existing.kind != "building":
            return IllegalAction.of("R-BUILD-3", "error.build.taken", hex=at)
        if occupier_of(g.s, at) is not None:
            return IllegalAction.of("R-COMBAT-11", "error.build.occupied", hex=at)
        if existing.palace is not None:
            return IllegalAction.of("R-PALACE-3", "error.build.palace", hex=at)
        old_era = cat.building_era(existing.id)
        new_era3 = city or cat.buildings[cat.side_tile[what]].era == 3
        if not leop and not (new_era3 and old_era < 3):
            return IllegalAction.of("R-BUILD-3", "error.build.over", hex=at)
    if g.enemy_units_at(seat, at):
        return IllegalAction.of("R-BUILD-4", "error.build.enemy_unit", hex=at)
    elif g.opponent_adjacent(seat, at):
        return IllegalAction.of("R-BUILD-4", "error.build.next_to_opponent", hex=at)
    elif not city and not g.own_adjacent(seat, at):
        return IllegalAction.of("R-BUILD-4", "error.build.not_next_to_own", hex=at)
    ex = s.exploration.get(at)
    if ex is not None and ex.face_up:
        kind = cat.exploration[ex.tile].kind
        if kind in _NO_BUILD:
            return IllegalAction.of(
                "R-BUILD-7",
                "error.build.exploration",
                tile=term_ref("exploration", ex.tile),
                hex=at,
            )
    if not city and existing is None and not leop:
        need = cat.buildings[cat.side_tile[what]].terrain
        if "any" not in need:
            here = g.board.terrain[at]
            if (
                ex is not None
                and ex.face_up
                and cat.exploration[ex.tile].kind in ("minas_gerais", "cultura")
            ):
                here = "every"
            if here != "every" and here not in need:
                return IllegalAction.of(
                    "R-BUILD-3",
                    "error.build.terrain",
                    building=term_ref("building", what),
                    need=or_list([f"@term.terrain.{n}" for n in need]),
                    hex=at,
                    terrain=f"@term.terrain.{here}",
                )
    return None


def build_cost(g: Context, seat: int, what: str, *, second: bool) -> tuple[list[str], PayContext]:
    cost = list(g.cat.cities[what].cost if is_city(g, what) else g.cat.sides[what].cost)
    if second:
        cost += list(g.cat.paintings["visconde_de_maua"].params.get("extra_cost", ["any"]))
    name = g.cat.cities[what].name if is_city(g, what) else g.cat.sides[what].name
    ref = term_ref("city", what) if is_city(g, what) else term_ref("building", what)
    ctx = pay_context(any_crop_for_crop=is_upgraded(g, seat, "build"), label=name, ref=ref)
    return cost, ctx


def _token_kind(t: str) -> str:
    return t if t in ("gold", "science", "any") else "crop"


def discount(
    g: Context,
    seat: int,
    cost: list[str],
    kinds: tuple[str, ...],
    ctx: PayContext | None = None,
    payment: A.Payment = None,
    *,
    cache: PayabilityCache | None = None,
) -> list[str]:
    """Take one token off ``cost`` ("1 resource less" and the like). With an explicit
    payment, the token that payment leaves out; otherwise the first token, in the order of
    ``kinds`` (``gold``, ``crop`` = a named crop, ``any``), whose removal leaves a cost the
    safe default can pay (docs/RULINGS.md), else the first whose removal leaves it payable
    losing the fewest VP (scoring gold cards spent, issue 22) — the one hardest to pay goes
    first. ``cache``: the listing's payability answers for
    this unchanged state (the same verdicts, :func:`rules.brazil.payment.quick_payable` first)."""
    order = [i for k in kinds for i, t in enumerate(cost) if _token_kind(t) == k]
    # the sources are built once for all the trials (find_payment / can_pay would rebuild
    # them each time; the state does not change meanwhile)
    safe_src: Sources | None = None
    for i in order:
        trial = cost[:i] + cost[i + 1 :]
        if payment is not None:
            try:
                check_payment(g.s, seat, trial, list(payment), ctx)
            except RulesError:
                continue
            return trial
        if not trial:
            return trial
        if cache is not None:
            if cache.payable(seat, trial, ctx, safe=True):
                return trial
            continue
        if safe_src is None:
            safe_src = sources(g.s, seat, ctx or PayContext(), safe=True)
        if solve(safe_src, trial) is not None:
            return trial
    if payment is None:
        # no removal leaves a safe default: the one whose payment loses the fewest VP (a
        # scoring gold card, issue 22), the first such
        full_src: Sources | None = None
        best: list[str] | None = None
        best_lost = 0
        for i in order:
            trial = cost[:i] + cost[i + 1 :]
            if not trial:
                return trial
            if cache is not None:
                sol = cache.solve(seat, trial, ctx) if cache.payable(seat, trial, ctx) else None
            else:
                if full_src is None:
                    full_src = sources(g.s, seat, ctx or PayContext())
                sol = solve_least_loss(full_src, trial)
            if sol is None:
                continue
            lost = vp_lost(sol)
            if not lost:
                return trial
            if best is None or lost < best_lost:
                best, best_lost = trial, lost
        if best is not None:
            return best
    return cost[: order[0]] + cost[order[0] + 1 :] if order else cost


REBOUCAS_KINDS = ("gold", "crop", "any")  # André Rebouças: 1 resource or 1 gold less


def reboucas_applies(g: Context, seat: int, cost: list[str]) -> bool:
    """André Rebouças: the first build of a turn costs 1 resource or 1 gold less."""
    return "andre_reboucas" in g.p(seat).paintings and not g.s.turn.reboucas and bool(cost)


def reboucas_discount(
    g: Context,
    seat: int,
    cost: list[str],
    ctx: PayContext,
    payment: A.Payment = None,
    *,
    use: bool = False,
    cache: PayabilityCache | None = None,
) -> list[str]:
    """A build's ``cost`` after André Rebouças' discount, if it applies (see
    :func:`discount` for which token goes); ``use`` spends the discount for this turn."""
    if not reboucas_applies(g, seat, cost):
        return cost
    if use:
        g.s.turn.reboucas = True
    return discount(g, seat, cost, REBOUCAS_KINDS, ctx, payment, cache=cache)


MANUFACTURE_KINDS = ("crop", "any")  # R-MANUF-2: 1 resource less


def build(g: Context, a: A.Build) -> None:
    seat = a.seat
    s = g.s
    at = parse_hex(g, a.at)
    second = s.turn.step == "movement" and s.turn.arch == "build"
    if second:
        g.require("visconde_de_maua" in g.p(seat).paintings, "R-TURN-2", "error.build.once")
        g.require(
            s.turn.builds == 1,
            "R-TURN-2",
            "error.build.second",
            painting=term_ref("painting", "visconde_de_maua"),
        )
    if a.building not in g.cat.sides and a.building not in g.cat.cities:
        raise InvalidAction.of("R-BUILD-1", "error.unknown.building_or_city", id=a.building)
    err = build_problem(g, seat, a.building, at) if g.checked else None
    if err:
        raise err
    if not second:
        _begin_arch(g, seat, "build")
    cost, ctx = build_cost(g, seat, a.building, second=second)
    cost = reboucas_discount(g, seat, cost, ctx, a.payment, use=True)
    pay(g, seat, cost, a.payment, ctx)
    place_building(g, seat, a.building, at)
    s.turn.builds += 1
    if not second:
        _to_movement(g, seat)


def _with_why(params: dict[str, Param], why: Param, **more: Param) -> dict[str, Param]:
    """Message parameters with the reason ``why`` (for a ``*_why`` key) when there is one."""
    out = {**params, **more}
    if why:
        out["why"] = why
    return out


def place_building(g: Context, seat: int, what: str, at: str, why: Param = "") -> None:
    s = g.s
    cat = g.cat
    p = g.p(seat)
    city = is_city(g, what)
    old = s.tiles.get(at)
    if old is not None:
        g.emit(
            "removed",
            {"building": term_ref("building", old.id), "hex": at},
            seat,
            hex=at,
        )
        del s.tiles[at]
    on_forest = old is None and g.board.terrain[at] == "forest"
    ex = clear_site(g, seat, at)
    if city:
        for pile in s.city_piles:
            if pile and pile[-1] == what:
                pile.pop()
                break
        s.tiles[at] = Tile(kind="city", id=what, owner=seat, on_forest=on_forest)
        g.emit(
            "build.city_why" if why else "build.city",
            _with_why(
                {"who": g.name(seat), "city": term_ref("city", what), "hex": at},
                why,
                vp=cat.cities[what].vp,
            ),
            seat,
            hex=at,
            building=what,
        )
    else:
        tile_id = cat.side_tile[what]
        s.supply[tile_id] -= 1
        s.tiles[at] = Tile(kind="building", id=what, owner=seat, on_forest=on_forest)
        g.emit(
            "build.building_why" if why else "build.building",
            _with_why(
                {"who": g.name(seat), "building": term_ref("building", what), "hex": at}, why
            ),
            seat,
            hex=at,
            building=what,
        )
        g.mark_special(seat, at)
        g.produce(at, "@phrase.why.new_building")  # R-BUILD-5
    if ex is not None:
        reward_builder(g, seat, ex)
    if on_forest and p.monarch == "tibirica":
        n = p.counters.get("tibirica", 0)
        rewards = list(cat.monarchs["tibirica"].params.get("rewards", []))
        if n < len(rewards):
            p.counters["tibirica"] = n + 1
            why = msg("phrase.why.built_on_forest", monarch=term_ref("monarch", "tibirica"))
            g.gain_reward(seat, str(rewards[n]), why)


def renovate_problem(g: Context, seat: int, at: str, flip: bool) -> RulesError | None:
    t = g.s.tiles.get(at)
    if t is None or t.owner != seat:
        return IllegalAction.of("R-RENOV-1", "error.renovate.none", hex=at)
    if t.kind != "building":
        return IllegalAction.of("R-RENOV-4", "error.renovate.city")
    if occupier_of(g.s, at) is not None:
        return IllegalAction.of("R-RENOV-1", "error.renovate.occupied", hex=at)
    if t.goods:
        return IllegalAction.of("R-RENOV-3", "error.renovate.goods", hex=at)
    if g.cat.building_era(t.id) > g.s.era:
        return IllegalAction.of("R-RENOV-1", "error.renovate.era", era=g.cat.building_era(t.id))
    if flip and t.palace is not None:
        return IllegalAction.of("R-RENOV-2", "error.renovate.palace", hex=at)
    return None


def renovate(g: Context, a: A.Renovate) -> None:
    seat = a.seat
    at = parse_hex(g, a.at)
    err = renovate_problem(g, seat, at, a.flip) if g.checked else None
    if err:
        raise err
    _begin_arch(g, seat, "renovate")
    cost = [] if is_upgraded(g, seat, "renovate") else list(g.cat.arches["renovate"].cost)
    pay(
        g,
        seat,
        cost,
        a.payment,
        PayContext(exclude_hex=at, label="renovating", ref="@phrase.for.renovating"),
    )
    t = g.s.tiles[at]
    if a.flip:
        old = t.id
        t = g.s.tiles[at] = replaced(t, id=g.cat.other_side(old), special=False)
        g.emit(
            "flip",
            {
                "who": g.name(seat),
                "old": term_ref("building", old),
                "hex": at,
                "new": term_ref("building", t.id),
            },
            seat,
            hex=at,
            building=t.id,
        )
        g.mark_special(seat, at)
    else:
        g.emit(
            "renovate",
            {"who": g.name(seat), "building": term_ref("building", t.id), "hex": at},
            seat,
            hex=at,
        )
    g.produce(at, "@phrase.why.renovated")
    _to_movement(g, seat)


def product_destinations(g: Context, seat: int, product: str) -> list[str]:
    """R-MANUF-1/3: a free slot of the same shape, or Immigrants / Victoria / Factory."""
    p = g.p(seat)
    shape = g.cat.products[product].shape
    out = []
    imm = "immigrants" in p.paintings
    for arch in ARCHES:
        slot = g.cat.arches[arch].slot
        if slot is None or arch in p.upgrades:
            continue
        if slot == shape or imm:
            out.append(arch)
    if p.monarch == "queen_victoria" and len(p.victoria) < int(
        g.cat.monarchs["queen_victoria"].params.get("max", 3)
    ):
        out.append("victoria")
    factory_shapes = g.cat.paintings["factory"].params.get("shapes", [])
    if (
        "factory" in p.paintings
        and shape in factory_shapes
        and not any(g.cat.products[x].shape == shape for x in p.factory)
    ):
        out.append("factory")
    return out


def manufacture_problem(g: Context, seat: int, product: str, to: str) -> RulesError | None:
    p = g.p(seat)
    if product not in g.cat.products:
        return InvalidAction.of("R-MANUF-1", "error.unknown.product", id=product)
    if product not in p.products:
        return IllegalAction.of(
            "R-MANUF-1", "error.manufacture.done", product=term_ref("product", product)
        )
    dests = product_destinations(g, seat, product)
    if to not in dests:
        shape = g.cat.products[product].shape
        return IllegalAction.of(
            "R-MANUF-3",
            "error.manufacture.place",
            product=term_ref("product", product),
            shape=f"@term.shape.{shape}",
            to=to,
            places=list(dests),
        )
    return None


def manufacture_cost(
    g: Context,
    seat: int,
    product: str,
    upgraded: bool,
    payment: A.Payment = None,
    *,
    cache: PayabilityCache | None = None,
) -> list[str]:
    """``cache``: see :func:`discount` (listing only: the state must not have changed)."""
    cost = list(g.cat.products[product].cost)
    if not upgraded:
        return cost
    return discount(g, seat, cost, MANUFACTURE_KINDS, payment=payment, cache=cache)


def place_product(g: Context, seat: int, product: str, to: str, why: Param) -> None:
    p = g.p(seat)
    pr = g.cat.products[product]
    p.products.remove(product)
    params = _with_why(
        {"who": g.name(seat), "product": term_ref("product", product)}, why, vp=pr.vp
    )
    if to == "victoria":
        p.victoria.append(product)
        where = "victoria"
    elif to == "factory":
        p.factory.append(product)
        where = "factory"
    else:
        p.upgrades[to] = product
        where = "arch"
        params["arch"] = term_ref("arch", to)
    g.emit(
        f"manufacture.{where}_why" if why else f"manufacture.{where}",
        params,
        seat,
        product=product,
        to=to,
    )
    if to == "victoria":
        g.gain(
            seat,
            {"science": int(g.cat.monarchs["queen_victoria"].params.get("science", 1))},
            term_ref("monarch", "queen_victoria"),
        )


def manufacture(g: Context, a: A.Manufacture) -> None:
    seat = a.seat
    err = manufacture_problem(g, seat, a.product, a.to) if g.checked else None
    if err:
        raise err
    _begin_arch(g, seat, "manufacture")
    cost = manufacture_cost(g, seat, a.product, is_upgraded(g, seat, "manufacture"), a.payment)
    label = g.cat.products[a.product].name
    pay(g, seat, cost, a.payment, PayContext(label=label, ref=term_ref("product", a.product)))
    place_product(g, seat, a.product, a.to, "")
    _to_movement(g, seat)


def import_goods(g: Context, a: A.Import) -> None:
    if a.crop not in CROPS:
        raise InvalidAction.of(
            "R-IMPORT-1", "error.import.crop", crop=a.crop, crops=[f"@good.{c}" for c in CROPS]
        )
    _begin_arch(g, a.seat, "import")
    g.gain(a.seat, {a.crop: 1}, term_ref("arch", "import"))
    if is_upgraded(g, a.seat, "import"):
        g.draw_gold(a.seat, 1, msg("phrase.why.upgraded", arch=term_ref("arch", "import")))
    _to_movement(g, a.seat)


def trade(g: Context, a: A.Trade) -> None:
    _begin_arch(g, a.seat, "trade")
    g.s.turn.step = "trade"


_EXCHANGES: dict[str, tuple[int, dict[str, int], int]] = {
    # kind: (items given, goods received, gold cards received) — R-TRADE-1
    "gold": (1, {"gold": 1}, 0),
    "pair": (2, {"gold": 2}, 1),
    "four": (4, {"gold": 1, "science": 1}, 1),
    "cards": (2, {"gold": 1}, 1),
}


def _exchange_problem(g: Context, seat: int, kind: str, give: tuple[str, ...]) -> RulesError | None:
    n, _, _ = _EXCHANGES[kind]
    if len(give) != n:
        return InvalidAction.of("R-TRADE-1", "error.trade.count", n=n, given=len(give))
    if kind == "cards":
        have = Counter(g.p(seat).combat_cards)
        if any(have[c] < k for c, k in Counter(give).items()):
            return IllegalAction.of("R-TRADE-1", "error.combat.cards_not_held")
        return None
    if any(x not in CROPS for x in give):
        return IllegalAction.of("R-TRADE-2", "error.trade.crops")
    if kind == "pair" and any(x not in ("cotton", "coffee") for x in give):
        return IllegalAction.of("R-TRADE-2", "error.trade.pair")
    if not can_pay(g.s, seat, list(give), PayContext(exact=True)):
        return IllegalAction.of("R-TRADE-3", "error.trade.missing")
    return None


def exchange(g: Context, a: A.Exchange) -> None:
    seat = a.seat
    require_step(g, "trade", "R-TRADE-1", "@error.doing.exchange")
    err = _exchange_problem(g, seat, a.kind, a.give)
    if err:
        raise err
    _, goods, cards = _EXCHANGES[a.kind]
    if a.kind == "cards":
        for c in a.give:
            g.s.discard_card(seat, "combat", c)
        g.emit("pay.combat_cards", {"who": g.name(seat)}, seat)
    else:
        ctx = PayContext(exact=True, label="the exchange", ref="@phrase.for.exchange")
        pay(g, seat, list(a.give), a.payment, ctx)
    g.gain(seat, goods, term_ref("arch", "trade"))
    if cards:
        g.draw_gold(seat, cards, term_ref("arch", "trade"))


def end_trade(g: Context, a: A.EndTrade) -> None:
    require_step(g, "trade", "R-TRADE-1", "@error.doing.end_trade")
    _to_movement(g, a.seat)


def pass_action(g: Context, a: A.PassAction) -> None:
    require_step(g, "action", "R-TURN-6", "@error.doing.pass")
    if g.checked and any(True for _ in arch_actions(g, a.seat)):
        raise IllegalAction.of("R-TURN-6", "error.turn.pass")
    g.emit("pass", {"who": g.name(a.seat)}, a.seat)
    g.s.turn.action_done = True
    _to_movement(g, a.seat)


def arch_actions(g: Context, seat: int) -> Iterator[Any]:
    """The legal actions of the action step (the arches but the one the era token stands
    on), in listing order: made into one list, not produced through generators."""
    p = g.p(seat)
    cur = p.token_arch
    out: list[Any] = []
    if cur != "recruit":
        out += _recruit_actions(g, seat)
    if cur != "painting":
        # once a catalog cost: the upgrade looks at the tokens only
        painting_paid: dict[tuple[str, ...], bool] = {}
        for pa in g.s.display:
            key = tuple(g.cat.paintings[pa].cost)
            ok = painting_paid.get(key)
            if ok is None:
                ok = painting_paid[key] = g.pay.can_pay(seat, painting_cost(g, seat, pa))
            if ok:
                out.append(_PAINTING(seat, pa))
    if cur != "build":
        out += build_actions(g, seat, second=False)
    if cur != "renovate":
        cost = [] if is_upgraded(g, seat, "renovate") else list(g.cat.arches["renovate"].cost)
        s = g.s
        # renovate_problem's checks, the flip aside, once a building: where other seats'
        # units stand (an occupied building, R-RENOV-1), goods on it (R-RENOV-3), its era
        others: set[str] | None = None
        # payable once: excluding a building without goods (R-RENOV-1) excludes nothing
        renovation_paid: bool | None = None
        for h, t in s.tiles.items():
            if t.owner != seat or t.kind != "building":
                continue
            if others is None:
                others = {loc for q in s.players if q.seat != seat for loc in q.units.values()}
            if h in others or t.goods or g.cat.building_era(t.id) > s.era:
                continue
            if renovation_paid is None:
                renovation_paid = g.pay.can_pay(seat, cost, pay_context(exclude_hex=h))
            if renovation_paid:
                out.append(_RENOVATE(seat, h, False))
                if t.palace is None:  # R-RENOV-2: a building with a palace is not flipped
                    out.append(_RENOVATE(seat, h, True))
    if cur != "manufacture":
        up = is_upgraded(g, seat, "manufacture")
        # where a product goes depends on its shape, whether it is paid on its cost: each
        # worked out once a listing
        dests_of: dict[str, list[str]] = {}
        paid: dict[tuple[str, ...], bool] = {}
        for pr in p.products:
            pdef = g.cat.products[pr]
            dests = dests_of.get(pdef.shape)
            if dests is None:
                dests = dests_of[pdef.shape] = product_destinations(g, seat, pr)
            if not dests:
                continue
            key = tuple(pdef.cost)
            ok = paid.get(key)
            if ok is None:
                cost = manufacture_cost(g, seat, pr, up, cache=g.pay)
                ok = paid[key] = g.pay.can_pay(seat, cost)
            if ok:
                out += [_MANUFACTURE(seat, pr, d) for d in dests]
    if cur != "import":
        out += [_IMPORT(seat, c) for c in CROPS]
    if cur != "trade":
        out.append(_TRADE(seat))
    return iter(out)


def _recruit_actions(g: Context, seat: int) -> Iterator[Any]:
    p = g.p(seat)
    limit = 2 if is_upgraded(g, seat, "recruit") else 1
    targets = deploy_targets(g, seat)
    ready = [u for u, loc in p.units.items() if loc in ("board", "reserve")]
    can_draw = bool(g.s.combat_deck or g.s.combat_discard)
    draws = list(range(0, limit + 1)) if can_draw else [0]
    # once a unit, not once a group
    costs = {u: tuple(unit_cost(g, seat, u)) for u in ready}
    # whether a group's tokens can be paid, once per tokens (many groups cost the same)
    paid: dict[tuple[str, ...], bool] = {}
    for k in range(0, limit + 1 if targets else 1):  # no target: no unit is deployed
        for group in combinations(ready, k):
            # the group's tokens, unit after unit (a group is of two units at most)
            if k == 1:
                cost = costs[group[0]]
            elif k == 2:
                cost = costs[group[0]] + costs[group[1]]
            else:
                cost = tuple([tok for u in group for tok in costs[u]])
            if cost:
                ok = paid.get(cost)
                if ok is None:
                    ok = paid[cost] = g.pay.can_pay(seat, list(cost))
                if not ok:
                    continue
            for places in _placements(targets, k):
                deploy = tuple(_DEPLOY(u, h) for u, h in zip(group, places, strict=True))
                for d in draws:
                    if k == 0 and d == 0:
                        continue
                    yield _RECRUIT(seat, deploy, d)


def _placements(targets: list[str], k: int) -> Iterator[tuple[str, ...]]:
    if k == 0:
        yield ()
        return
    if k == 1:
        for t in targets:
            yield (t,)
        return
    for t1 in targets:
        for t2 in targets:
            yield (t1, t2)


def build_sites(g: Context, seat: int) -> set[str]:
    """Candidate hexes for buildings: next to your empire (cheap pre-filter)."""
    out: set[str] = set()
    for h, t in g.s.tiles.items():
        if t.owner == seat:
            out.update(g.board.neighbours[h])
            if t.kind == "building":
                out.add(h)
    return out


_SideRow = tuple[str, str, int, tuple[str, ...] | None, tuple[str, ...]]
_SIDE_TABLES: dict[int, tuple[Catalog, list[_SideRow]]] = {}


def _side_table(cat: Catalog) -> list[_SideRow]:
    """Per building side, in catalog order: (side, tile, era, terrain needed — None for any —,
    cost), what the build listing reads for every side (made once per catalog)."""
    got = _SIDE_TABLES.get(id(cat))
    if got is not None and got[0] is cat:
        return got[1]
    rows: list[_SideRow] = []
    for side, sdef in cat.sides.items():
        tile = cat.buildings[cat.side_tile[side]]
        need = None if "any" in tile.terrain else tuple(tile.terrain)
        rows.append((side, tile.id, tile.era, need, tuple(sdef.cost)))
    _SIDE_TABLES[id(cat)] = (cat, rows)
    return rows


def site_check(
    g: Context, seat: int, occupied: set[str] | None = None
) -> Callable[[str, bool], bool]:
    """``open(at, city)``: whether a building (``city``: a city) of ``seat`` passes
    build_problem's hex checks at ``at`` — not water, no unit of another seat or of the
    orange army there, no opponent's tile on or next to it, and (a building) next to one of
    ``seat``'s tiles (R-BUILD-3/4) — in one pass over the hex and its neighbours.
    ``occupied``: the hexes where units of the other seats stand, if known."""
    s = g.s
    if occupied is None:
        occupied = {loc for q in s.players if q.seat != seat for loc in q.units.values()}
    others_at = occupied | set(s.enemy_units.values())
    tiles = s.tiles
    terrain = g.board.terrain
    neighbours = g.board.neighbours

    def site_open(at: str, city: bool) -> bool:
        if terrain[at] == "water" or at in others_at:
            return False
        t = tiles.get(at)
        if t is not None and t.owner != seat:
            return False  # on an opponent's tile
        own = False
        for nb in neighbours[at]:
            t = tiles.get(nb)
            if t is not None:
                if t.owner != seat:
                    return False  # next to an opponent's tile
                own = True
        return city or own

    return site_open


def build_actions(g: Context, seat: int, second: bool) -> Iterator[Any]:
    """The legal builds of ``seat`` now, in listing order (sides in catalog order, then
    the visible cities; each on its sites in label order)."""
    s = g.s
    cat = g.cat
    p = g.p(seat)
    supply = s.supply
    era = s.era
    # the sides with tiles left (R-BUILD-1) of this era or before (R-BUILD-2)
    side_rows = [r for r in _side_table(cat) if r[2] <= era and supply.get(r[1], 0) > 0]
    cities: list[str] = []
    city_sites: list[str] = []
    if s.era >= 2:
        cities = [pile[-1] for pile in s.city_piles if pile]
        founders = {"monarch"} if "arariboia" not in p.paintings else set(p.units)
        city_sites = sorted(
            {
                p.units[u]
                for u in founders
                if u in p.units and p.units[u] not in ("board", "reserve")
            }
        )
    cover_sites, city_sites, here = site_survey(g, seat, city_sites)
    terrain_free = "maria_leopoldina" in p.paintings
    # the sites of a building, by (era III, terrain needed): the same for many buildings
    site_lists: dict[tuple[bool, tuple[str, ...] | None], list[str]] = {}
    # whether a cost (as the catalog gives it) can be paid: build_cost, the discount and
    # the payability depend on the tokens only, not on which building or city has them
    paid: dict[tuple[str, ...], bool] = {}

    def payable(what: str, listed_cost: tuple[str, ...]) -> bool:
        ok = paid.get(listed_cost)
        if ok is None:
            cost, ctx = build_cost(g, seat, what, second=second)
            cost = reboucas_discount(g, seat, cost, ctx, cache=g.pay)
            ok = paid[listed_cost] = g.pay.can_pay(seat, cost, ctx)
        return ok

    out: list[A.Build] = []
    make = _BUILD
    for what, _tile, b_era, need, listed_cost in side_rows:
        era3 = b_era == 3
        if terrain_free:
            need = None
        at_list = site_lists.get((era3, need))
        if at_list is None:
            at_list = cover_sites[era3]
            if need is not None:
                at_list = [at for at in at_list if not here[at] or here[at] in need]
            site_lists[(era3, need)] = at_list
        # every check of build_problem is made above, once a hex or once a building
        if at_list and payable(what, listed_cost):
            out += [make(seat, what, at) for at in at_list]
    # R-BUILD-10: the city limit, the same for every city
    if not cities or not city_sites:
        return iter(out)
    if (
        s.city_limit is not None
        and sum(1 for t in s.tiles.values() if t.kind == "city" and t.owner == seat) >= s.city_limit
    ):
        return iter(out)
    for what in cities:
        if payable(what, tuple(cat.cities[what].cost)):
            out += [make(seat, what, at) for at in city_sites]
    return iter(out)


def card_build_sites(g: Context, seat: int, side: str, any_era: bool) -> list[str]:
    """The hexes where a gold card builds ``side`` for ``seat`` (``any_era``: whatever the
    building's era), in label order: exactly those where :func:`build_problem` with the card
    finds nothing, checked as :func:`build_actions` does (once a hex). Payment aside."""
    cat = g.cat
    tile_id = cat.side_tile[side]
    tile = cat.buildings[tile_id]
    if (tile.era > g.s.era and not any_era) or g.s.supply.get(tile_id, 0) <= 0:
        return []  # R-BUILD-2, R-BUILD-1
    cover_sites, _, here = site_survey(g, seat, [])
    at_list = cover_sites[tile.era == 3]
    if "any" in tile.terrain or "maria_leopoldina" in g.p(seat).paintings:
        return at_list
    need = tile.terrain
    return [at for at in at_list if not here[at] or here[at] in need]


def site_survey(
    g: Context, seat: int, city_sites: list[str]
) -> tuple[dict[bool, list[str]], list[str], dict[str, str]]:
    """What :func:`build_problem` checks of a hex, once a hex, over ``seat``'s candidate
    building sites (:func:`build_sites`, in label order) and the given ``city_sites``: the
    sites a building of era I/II (``False``) or III (``True``) may be built on, the city
    sites a city may be built on, and the terrain each building site offers (``""``: any,
    as on a tile or a face-up Minas Gerais or Cultura) — all but a building's terrain."""
    s = g.s
    cat = g.cat
    p = g.p(seat)
    # The hex-only checks, once a hex (not once per building and hex).
    occupied = {loc for q in s.players if q.seat != seat for loc in q.units.values()}
    site_open = site_check(g, seat, occupied)
    tiles = s.tiles
    terrain = g.board.terrain
    neighbours = g.board.neighbours
    others_at = occupied | set(s.enemy_units.values())

    # site_open(at, False) of the candidate sites (build_sites), by sets: a building needs
    # one of the seat's tiles next to it (so a building's own hex is a candidate only then),
    # and neither on nor next to it an opponent's tile; a hex is a neighbour of its
    # neighbours, so both sets are the tiles' neighbourhoods, made in one pass
    own_near: set[str] = set()
    bad: set[str] = set()
    for h, t in tiles.items():
        if t.owner == seat:
            own_near.update(neighbours[h])
        else:
            bad.add(h)
            bad.update(neighbours[h])
    sites = sorted(at for at in own_near - bad - others_at if terrain[at] != "water")
    city_sites = [at for at in city_sites if site_open(at, True)]
    exploration = s.exploration
    explore = cat.exploration
    leop = "maria_leopoldina" in p.paintings

    def over(at: str, existing: Tile | None, face_up: str | None) -> int | None:
        """What stands on a hex (R-BUILD-3/4/7, R-PALACE-3; checks of build_problem): the
        era of the own building that would be built over, 0 for nothing, None if closed."""
        if face_up in _NO_BUILD:
            return None
        if existing is None:
            return 0
        if existing.owner != seat or existing.kind != "building" or existing.palace is not None:
            return None  # a capital, a city, another's tile (or one with a palace)
        if at in occupied:
            return None  # R-COMBAT-11: an occupied building is not built over
        return cat.building_era(existing.id)

    # the sites a building of era I/II (False) or III (True) may cover, and (R-BUILD-3; the
    # last check of build_problem: combinations that fail it are skipped before the full
    # checks) the terrain each offers, "" for any — once a site
    def face_up(at: str) -> str | None:
        """The kind of the face-up exploration tile on ``at``, if any."""
        ex = exploration.get(at)
        return explore[ex.tile].kind if ex is not None and ex.face_up else None

    cover_low: list[str] = []
    cover_high: list[str] = []
    here: dict[str, str] = {}
    for at in sites:
        existing = tiles.get(at)
        kind = face_up(at)
        here[at] = (
            "" if existing is not None or kind in ("minas_gerais", "cultura") else terrain[at]
        )
        old = over(at, existing, kind)
        if old is None:
            continue
        if old == 0 or leop:
            cover_low.append(at)
            cover_high.append(at)
        elif old < 3:
            cover_high.append(at)
    cover_sites = {False: cover_low, True: cover_high}
    # a city covers what an era III building may (0, nothing, is below 3)
    city_sites = [
        at
        for at in city_sites
        if (old := over(at, tiles.get(at), face_up(at))) is not None and (leop or old < 3)
    ]
    return cover_sites, city_sites, here


def exchange_actions(g: Context, seat: int) -> Iterator[Any]:
    s = g.s
    avail: Counter[str] = Counter()
    p = g.p(seat)
    for c, n in p.reserve.items():
        if c in CROPS:
            avail[c] += n
    for h, t in s.tiles.items():
        if t.goods and controls(g.s, seat, h):
            for c, n in t.goods.items():
                if c in CROPS:
                    avail[c] += n

    def have(combo: tuple[str, ...]) -> bool:
        need = Counter(combo)
        return all(avail[c] >= n for c, n in need.items())

    for c in CROPS:
        if avail[c]:
            yield _EXCHANGE(seat, "gold", (c,))
    pairs: list[tuple[str, ...]] = [
        ("coffee", "coffee"),
        ("coffee", "cotton"),
        ("cotton", "cotton"),
    ]
    for pair in pairs:
        if have(pair):
            yield _EXCHANGE(seat, "pair", pair)
    if sum(avail.values()) >= 4:
        for four in combinations_with_replacement(CROPS, 4):
            if have(four):
                yield _EXCHANGE(seat, "four", four)
    if len(p.combat_cards) >= 2:
        for combo in sorted(set(combinations(sorted(p.combat_cards), 2))):
            yield _EXCHANGE(seat, "cards", combo)
