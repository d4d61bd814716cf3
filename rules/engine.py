"""The rules: who decides, what is legal, and what an action does.

``apply(state, action)`` validates and applies one action on a copy of the state and returns
``(new_state, events)``; an illegal action raises a :class:`RulesError` naming the rule and
leaves the given state untouched. ``legal_actions(state)`` lists every legal action for
whoever must decide now (payments are never enumerated: listed actions carry no payment and
the engine pays a default).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, combinations_with_replacement
from typing import Any, Literal

from pydantic import ValidationError

from rules import actions as A
from rules import combat as C
from rules.catalog import ARCHES, CROPS, FRAMES
from rules.errors import IllegalAction, InvalidAction, NotYourDecision, RulesError
from rules.events import Event
from rules.game import ENEMY, HAND_LIMIT, RESERVE_LIMIT, G, count
from rules.payment import (
    PayabilityCache,
    PayContext,
    can_pay,
    check_payment,
    describe_items,
    find_payment,
    take_payment,
)
from rules.scoring import final_scores, mission_complete
from rules.setup import deal_missions, monarch_options, start_capitals, take_colour
from rules.state import GameState, Pending, Tile, Turn

SQUARE_FOR_PALACE_II = "square"
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}
ERA_I_SIDES = ("sawmill", "trading_post", "sugar_field", "farm")


# =============================================================================== deciders


def deciders(state: GameState) -> list[int]:
    """Seats that may act now, in order (several during simultaneous setup choices)."""
    if state.phase == "ended":
        return []
    out: list[int] = []
    for d in state.pending:
        if d.seat not in out and d.seat >= 0:
            out.append(d.seat)
    if state.phase == "play" and state.current not in out and not _blocking(state):
        out.append(state.current)
    return out


def _blocking(state: GameState) -> bool:
    return any(d.data.get("blocking", True) for d in state.pending)


def pending_for(state: GameState, seat: int) -> Pending | None:
    for d in state.pending:
        if d.seat == seat:
            return d
    return None


# =============================================================================== apply


def apply(state: GameState, action: Any) -> tuple[GameState, list[Event]]:
    """Apply ``action`` (an action model, dict or JSON) to a copy of ``state``."""
    if not hasattr(action, "type"):
        try:
            action = A.parse_action(action)
        except ValidationError as e:
            err = e.errors()[0]
            loc = ".".join(str(x) for x in err["loc"])
            raise InvalidAction("", f"malformed action: field '{loc}': {err['msg']}") from e
    if state.phase == "ended":
        raise IllegalAction("R-END-1", "the game is over")
    g = G(state.clone())
    _dispatch(g, action)
    g.enforce_limits()
    if g.s.solo and g.s.phase == "play" and not g.s.pending and solo_won(g.s):
        _finish(g)  # R-SOLO-2: the game is won as soon as the conditions hold
    return g.s, g.events


def _dispatch(g: G, a: Any) -> None:
    s = g.s
    seat = a.seat
    if not 0 <= seat < s.n:
        raise InvalidAction("", f"there is no seat {seat} in this {s.n}-player game")
    pend = pending_for(s, seat)
    if pend is not None and pend.kind in _ANY_ORDER and a.type not in _ANSWERS[pend.kind][0]:
        # R-SETUP-5: a seat's simultaneous setup choices may be answered in either order.
        pend = next(
            (
                d
                for d in s.pending
                if d.seat == seat and d.kind in _ANY_ORDER and a.type in _ANSWERS[d.kind][0]
            ),
            pend,
        )
    if pend is not None:
        handler = _ANSWERS.get(pend.kind)
        if handler is None or a.type not in handler[0]:
            raise NotYourDecision(
                _PENDING_RULE.get(pend.kind, ""),
                f"{g.name(seat)} must first {_PENDING_TEXT.get(pend.kind, pend.kind)}",
            )
        s.pending.remove(pend)
        handler[1](g, a, pend)
        return
    if s.phase != "play":
        raise NotYourDecision("R-SETUP-6", f"{g.name(seat)} has nothing to decide now")
    if seat != s.current:
        raise NotYourDecision("R-TURN-1", f"it is {g.name(s.current)}'s turn, not {g.name(seat)}'s")
    if _blocking(s):
        who = ", ".join(sorted({g.name(d.seat) for d in s.pending}))
        raise NotYourDecision("", f"waiting for {who} to decide first")
    fn = _TURN.get(a.type)
    if fn is None:
        raise IllegalAction("", f"'{a.type}' is not something to do now")
    fn(g, a)


# =============================================================================== setup


def _choose_colour(g: G, a: A.ChooseColour, pend: Pending) -> None:
    s = g.s
    if a.colour not in g.cat.colours:
        raise InvalidAction(
            "R-SETUP-4", f"unknown colour '{a.colour}'; colours: {', '.join(g.cat.colours)}"
        )
    taken = {p.colour for p in s.players}
    g.require(a.colour not in taken, "R-SETUP-4", f"{a.colour} is already taken")
    take_colour(s, a.seat, a.colour)
    g.emit("colour", f"Seat {a.seat + 1} plays {a.colour}.", a.seat, colour=a.colour)
    nxt = a.seat + 1
    if nxt < s.n:
        g.push(nxt, "choose_colour")
    else:
        deal_missions(s)
        g.emit("missions_dealt", "Each player is dealt 2 missions of each era and keeps 1 of each.")


def _keep_missions(g: G, a: A.KeepMissions, pend: Pending) -> None:
    p = g.p(a.seat)
    keep = list(a.keep)
    eras = sorted(g.cat.missions[m].era for m in keep if m in g.cat.missions)
    for m in keep:
        g.require(m in p.mission_offer, "R-SETUP-5", f"mission '{m}' was not dealt to you")
    offered_eras = sorted({g.cat.missions[m].era for m in p.mission_offer})
    g.require(
        eras == offered_eras and len(set(keep)) == len(keep),
        "R-SETUP-5",
        "keep exactly one mission of each era",
    )
    for m in p.mission_offer:
        if m not in keep:
            g.s.mission_decks[str(g.cat.missions[m].era)].insert(0, m)  # bottom of its deck
    p.missions = keep
    p.mission_offer = []
    g.emit("missions_kept", f"{g.name(a.seat)} keeps one mission of each era.", a.seat)
    _maybe_capitals(g)


def _choose_monarch(g: G, a: A.ChooseMonarch, pend: Pending) -> None:
    opts = monarch_options(g.s, a.seat)
    g.require(a.monarch in opts, "R-SETUP-5", f"choose one of your monarchs: {', '.join(opts)}")
    g.p(a.seat).monarch = a.monarch
    g.emit(
        "monarch",
        f"{g.name(a.seat)} chooses {g.cat.monarchs[a.monarch].name}.",
        a.seat,
        monarch=a.monarch,
    )
    _maybe_capitals(g)


def _maybe_capitals(g: G) -> None:
    if not any(d.kind in ("keep_missions", "choose_monarch") for d in g.s.pending):
        start_capitals(g.s)
        g.emit(
            "capitals_revealed",
            "The capital tiles are revealed. "
            + ", ".join(
                f"{h}: {g.cat.capitals[c].name}" for h, c in sorted(g.s.capital_tiles.items())
            )
            + f". {g.name(g.s.capital_chooser)} chooses first.",
        )


def _choose_capital(g: G, a: A.ChooseCapital, pend: Pending) -> None:
    s = g.s
    at = _label(g, a.at)
    g.require(at in s.capital_tiles, "R-SETUP-6", f"{at} is not a capital site")
    g.require(at not in s.tiles, "R-SETUP-6", f"the capital at {at} is already taken")
    cap = g.cat.capitals[s.capital_tiles[at]]
    p = g.p(a.seat)
    p.capital = at
    s.tiles[at] = Tile(kind="capital", id=cap.id, owner=a.seat, palace=1)
    p.palaces.remove(1)
    g.emit(
        "capital",
        f"{g.name(a.seat)} takes the capital at {at} and puts palace I there.",
        a.seat,
        hex=at,
    )
    g.gain(a.seat, {cap.resource: 1}, "capital")
    if cap.first_player:
        s.first_player = a.seat
    nxt = (a.seat + 1) % s.n
    if s.players[nxt].capital is None:
        g.push(nxt, "choose_capital")
        return
    s.phase = "play"
    s.setup_step = "done"
    s.current = s.first_player
    s.round = 1
    s.turn = Turn()
    g.emit(
        "start",
        f"The game begins. {g.name(s.current)} has the first-player tile and starts.",
        s.current,
    )


# =============================================================================== turn: helpers


def _label(g: G, label: str) -> str:
    from rules.hexgrid import normalise_label

    try:
        lab = normalise_label(label)
    except ValueError as e:
        raise InvalidAction("", str(e)) from e
    if lab not in g.board.terrain:
        raise InvalidAction("", f"{lab} is not on the map")
    return lab


def _need_step(g: G, step: str, rule: str, what: str) -> None:
    if g.s.turn.step != step:
        raise IllegalAction(rule, f"{what} is not possible now (this is the {g.s.turn.step} phase)")


def _begin_arch(g: G, seat: int, arch: str) -> None:
    """R-TURN-2: place the era token on a free arch, never the one it already stands on."""
    _need_step(g, "action", "R-TURN-1", f"choosing the {arch} action")
    p = g.p(seat)
    g.require(
        p.token_arch != arch,
        "R-TURN-2",
        f"your action token already stands on {g.cat.arches[arch].name}: choose another action",
    )
    p.token_arch = arch
    g.s.turn.arch = arch
    g.s.turn.action_done = True
    g.emit("action", f"{g.name(seat)} takes the {g.cat.arches[arch].name} action.", seat, arch=arch)


def _to_movement(g: G, seat: int) -> None:
    t = g.s.turn
    t.step = "movement"
    arch = t.arch
    if arch is None:
        return
    tok = g.p(seat).under.get(arch)
    if tok == 1 and any(not e.face_up for e in g.s.exploration.values()):
        t.peek = True  # R-ERA-2: token I bonus, look at one face-down tile
    elif tok == 2:
        g.draw_combat(seat, 1, "era token II under the arch")


def _upgraded(g: G, seat: int, arch: str) -> bool:
    return arch in g.p(seat).upgrades


def _pay(g: G, seat: int, cost: list[str], payment: A.Payment, ctx: PayContext) -> None:
    if payment is not None:
        items = list(payment)
        check_payment(g.s, seat, cost, items, ctx)
    else:
        found = find_payment(g.s, seat, cost, ctx)
        if found is None:
            from rules.payment import describe_cost

            raise IllegalAction("R-VOC-2", f"you cannot pay {describe_cost(cost)} for {ctx.label}")
        items = found
    take_payment(g.s, seat, items)
    if cost:
        g.emit(
            "pay",
            f"{g.name(seat)} pays {describe_items(items)} for {ctx.label}.",
            seat,
            items=[{"source": i.source, "what": i.what} for i in items],
        )


def _choice_of_good(g: G, seat: int, reward: str, why: str) -> None:
    """Gain a reward token: a good, or 'any' = a crop of the player's choice (pending)."""
    if reward == "any":
        g.push(seat, "choose_good", front=True, choices=list(CROPS), why=why)
    elif reward == "gold_card":
        g.draw_gold(seat, 1, why)
    else:
        g.gain(seat, {reward: 1}, why)


# =============================================================================== recruit


def _deploy_targets(g: G, seat: int) -> list[str]:
    """R-RECRUIT-2: your capital or a city of yours that you control."""
    p = g.p(seat)
    out = [p.capital] if p.capital else []
    out += [
        h
        for h, t in g.s.tiles.items()
        if t.kind == "city" and t.owner == seat and g.controls(seat, h)
    ]
    return out


def _check_deploy(g: G, seat: int, unit: str, to: str, rule: str = "R-RECRUIT-2") -> None:
    p = g.p(seat)
    if unit not in p.units:
        raise InvalidAction(rule, f"you have no unit '{unit}' (units: {', '.join(p.units)})")
    loc = p.units[unit]
    g.require(loc in ("board", "reserve"), rule, f"your {unit} is already on the map at {loc}")
    g.require(
        to in _deploy_targets(g, seat), rule, f"{to} is not your capital or a city you control"
    )


def _unit_cost(g: G, seat: int, unit: str) -> list[str]:
    p = g.p(seat)
    if p.units[unit] == "reserve":
        return []  # R-RECRUIT-3: redeployment is free
    return list(g.cat.units[f"{p.colour}.{unit}"].cost)


def _deploy(g: G, seat: int, unit: str, to: str) -> None:
    p = g.p(seat)
    first = p.units[unit] == "board"
    p.units[unit] = to
    name = g.cat.units[f"{p.colour}.{unit}"].name
    if first:
        vp = g.cat.units[f"{p.colour}.{unit}"].vp
        g.emit(
            "deploy",
            f"{g.name(seat)} deploys the {name} ({vp} VP) at {to}.",
            seat,
            unit=unit,
            hex=to,
            first=True,
        )
        if p.monarch == "pedro_i":
            reward = g.cat.monarchs["pedro_i"].params.get(unit)
            if reward == "resource":
                _choice_of_good(g, seat, "any", "Pedro I")
            elif reward == "gold_card":
                g.draw_gold(seat, 1, "Pedro I")
    else:
        g.emit(
            "deploy",
            f"{g.name(seat)} redeploys the {name} at {to}.",
            seat,
            unit=unit,
            hex=to,
            first=False,
        )


def _recruit(g: G, a: A.Recruit) -> None:
    seat = a.seat
    up = _upgraded(g, seat, "recruit")
    limit = 2 if up else 1  # R-RECRUIT-4
    g.require(
        len(a.deploy) <= limit, "R-RECRUIT-4", f"you may deploy at most {count(limit, 'unit')}"
    )
    g.require(
        0 <= a.draw <= limit, "R-RECRUIT-4", f"you may draw at most {count(limit, 'combat card')}"
    )
    g.require(
        bool(a.deploy) or a.draw > 0, "R-RECRUIT-1", "deploy a unit or draw a combat card (or both)"
    )
    g.require(
        a.draw == 0 or bool(g.s.combat_deck or g.s.combat_discard),
        "R-RECRUIT-1",
        "the combat deck and its discard pile are empty: there is no card to draw",
    )
    units = [d.unit for d in a.deploy]
    g.require(len(set(units)) == len(units), "R-RECRUIT-1", "each unit can be deployed once")
    deploys = [(d.unit, _label(g, d.to)) for d in a.deploy]
    for u, to in deploys:
        _check_deploy(g, seat, u, to)
    _begin_arch(g, seat, "recruit")
    cost = [tok for u, _ in deploys for tok in _unit_cost(g, seat, u)]
    # R-RECRUIT-5: deployments are paid before the cards of this action are drawn.
    _pay(g, seat, cost, a.payment, PayContext(label="the deployment"))
    for u, to in deploys:
        _deploy(g, seat, u, to)
    n = a.draw
    p = g.p(seat)
    if p.monarch == "napoleon" and not p.counters.get("napoleon_recruit"):
        p.counters["napoleon_recruit"] = 1
        n += int(g.cat.monarchs["napoleon"].params.get("first_recruit_cards", 1))
    if n:
        g.draw_combat(seat, n, "Recruit")
    _to_movement(g, seat)


# =============================================================================== painting


def _painting_cost(g: G, seat: int, painting: str) -> list[str]:
    cost = list(g.cat.paintings[painting].cost)
    if _upgraded(g, seat, "painting"):  # R-PAINT-3
        if cost == ["any"]:
            return []
        if cost == ["gold"]:
            return ["any"]  # a resource instead (gold still pays for a resource)
    return cost


def _take_painting(g: G, a: A.TakePainting) -> None:
    seat = a.seat
    s = g.s
    if a.painting not in g.cat.paintings:
        raise InvalidAction("R-PAINT-1", f"unknown painting '{a.painting}'")
    g.require(
        a.painting in s.display,
        "R-PAINT-1",
        f"{g.cat.paintings[a.painting].name} is not on display",
    )
    _begin_arch(g, seat, "painting")
    pa = g.cat.paintings[a.painting]
    _pay(g, seat, _painting_cost(g, seat, a.painting), a.payment, PayContext(label=pa.name))
    s.display.remove(a.painting)
    p = g.p(seat)
    p.paintings.append(a.painting)
    g.emit(
        "painting",
        f"{g.name(seat)} takes the painting {pa.name} ({pa.vp} VP): {pa.text}",
        seat,
        painting=a.painting,
    )
    _refill_display(g, seat, pa.frame)
    _painting_effects(g, seat, a.painting)
    _to_movement(g, seat)


def _refill_display(g: G, seat: int, frame: str) -> None:
    """R-PAINT-2: refill from the same frame's deck, else the taker chooses another deck."""
    s = g.s
    deck = s.painting_decks.get(frame, [])
    if deck:
        card = deck.pop()
        s.display.append(card)
        g.emit("display", f"{g.cat.paintings[card].name} joins the display.", painting=card)
        return
    others = [f for f in FRAMES if f != frame and s.painting_decks.get(f)]
    if len(others) == 1:
        card = s.painting_decks[others[0]].pop()
        s.display.append(card)
        g.emit(
            "display",
            f"The {frame} deck is empty: {g.cat.paintings[card].name} joins the display from the {others[0]} deck.",
            painting=card,
        )
    elif others:
        g.push(seat, "choose_deck", front=True, choices=others)


def _painting_effects(g: G, seat: int, painting: str) -> None:
    pa = g.cat.paintings[painting]
    p = g.p(seat)
    if pa.effect == "production":  # R-PAINT-4: existing buildings produce the extra now
        extra = {k: int(v) for k, v in pa.params.get("goods", {}).items()}
        for h, t in g.s.tiles.items():
            if t.kind == "building" and t.id == pa.params.get("side") and g.controls(seat, h):
                for k, v in extra.items():
                    t.goods[k] = t.goods.get(k, 0) + v
                g.emit(
                    "produce",
                    f"{h} produces its extra at once ({pa.name}).",
                    seat,
                    hex=h,
                    goods=extra,
                )
    elif pa.effect == "once_goods":
        g.gain(seat, {k: int(v) for k, v in pa.params.get("goods", {}).items()}, pa.name)
    if p.monarch == "pedro_ii":
        key = f"pedro_ii:{pa.frame}"
        if not p.counters.get(key):
            p.counters[key] = 1
            reward = str(g.cat.monarchs["pedro_ii"].params.get(pa.frame, ""))
            if reward:
                _choice_of_good(g, seat, reward, f"Pedro II, first {pa.frame} painting")


# =============================================================================== build


def _is_city(g: G, what: str) -> bool:
    return what in g.cat.cities


def _build_problem(
    g: G, seat: int, what: str, at: str, *, by_card: str | None = None
) -> RulesError | None:
    """Why ``seat`` may not build ``what`` at ``at`` now (None if it may). Payment aside."""
    s = g.s
    cat = g.cat
    p = g.p(seat)
    leop = "maria_leopoldina" in p.paintings
    city = _is_city(g, what)
    if not city and what not in cat.sides:
        return InvalidAction("R-BUILD-1", f"unknown building '{what}'")
    if g.board.terrain[at] == "water":
        return IllegalAction("R-BUILD-3", f"{at} is water: nothing can be built there")
    if city:
        if s.era < 2:
            return IllegalAction("R-BUILD-1", "cities can be built from era II on")
        if not any(pile and pile[-1] == what for pile in s.city_piles):
            return IllegalAction(
                "R-BUILD-6", f"{cat.cities[what].name} is not one of the two visible city tiles"
            )
        if (
            s.city_limit is not None
            and sum(1 for t in s.tiles.values() if t.kind == "city" and t.owner == seat)
            >= s.city_limit
        ):
            return IllegalAction(
                "R-BUILD-10", f"this game allows at most {s.city_limit} cities per player"
            )
        founders = {"monarch"} if "arariboia" not in p.paintings else set(p.units)
        if not any(p.units.get(u) == at for u in founders):
            who = "your monarch" if "arariboia" not in p.paintings else "one of your units"
            return IllegalAction("R-BUILD-6", f"a city is founded where {who} stands, not at {at}")
    else:
        tile_id = cat.side_tile[what]
        era = cat.buildings[tile_id].era
        if era > s.era and not (by_card and cat.gold_cards[by_card].params.get("any_era")):
            return IllegalAction(
                "R-BUILD-2", f"{cat.sides[what].name} is an era {era} building; this is era {s.era}"
            )
        if s.supply.get(tile_id, 0) <= 0:
            return IllegalAction("R-BUILD-1", f"no {cat.sides[what].name.lower()} tiles are left")
    existing = s.tiles.get(at)
    if existing is not None:
        if existing.kind == "capital":
            return IllegalAction("R-BUILD-4", "nothing can be built on a capital")
        if existing.owner != seat or existing.kind != "building":
            return IllegalAction(
                "R-BUILD-3", f"{at} already holds a tile that is not your building"
            )
        if g.occupier(at) is not None:
            return IllegalAction(
                "R-COMBAT-11", f"your building at {at} is occupied: it cannot be built over"
            )
        if existing.palace is not None:
            return IllegalAction(
                "R-PALACE-3", f"the building at {at} has a palace: it cannot be built over"
            )
        old_era = cat.building_era(existing.id)
        new_era3 = city or cat.buildings[cat.side_tile[what]].era == 3
        if not leop and not (new_era3 and old_era < 3):
            return IllegalAction(
                "R-BUILD-3",
                f"only era III buildings and cities may be built over your era I/II buildings (at {at})",
            )
    if g.enemy_units_at(seat, at):
        return IllegalAction("R-BUILD-4", f"an enemy unit stands at {at}")
    if g.opponent_adjacent(seat, at):
        return IllegalAction(
            "R-BUILD-4", f"{at} is next to an opponent's capital, city or building"
        )
    if not city and not g.own_adjacent(seat, at):
        return IllegalAction(
            "R-BUILD-4", f"{at} is not next to your capital, a city or a building of yours"
        )
    ex = s.exploration.get(at)
    if ex is not None and ex.face_up:
        kind = cat.exploration[ex.tile].kind
        if kind in ("river_basin", "bandeiras"):
            return IllegalAction(
                "R-BUILD-7",
                f"a revealed {cat.exploration[ex.tile].name} at {at} cannot be built on",
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
                names = " or ".join(n.replace("_", " ") for n in need)
                return IllegalAction(
                    "R-BUILD-3",
                    f"a {cat.sides[what].name.lower()} needs {names}; {at} is {here.replace('_', ' ')}",
                )
    return None


def _build_cost(g: G, seat: int, what: str, *, second: bool) -> tuple[list[str], PayContext]:
    cost = list(g.cat.cities[what].cost if _is_city(g, what) else g.cat.sides[what].cost)
    if second:
        cost += list(g.cat.paintings["visconde_de_maua"].params.get("extra_cost", ["any"]))
    name = g.cat.cities[what].name if _is_city(g, what) else g.cat.sides[what].name
    ctx = PayContext(any_crop_for_crop=_upgraded(g, seat, "build"), label=name)
    return cost, ctx


def _token_kind(t: str) -> str:
    return t if t in ("gold", "science", "any") else "crop"


def _discount(
    g: G,
    seat: int,
    cost: list[str],
    kinds: tuple[str, ...],
    ctx: PayContext | None = None,
    payment: A.Payment = None,
) -> list[str]:
    """Take one token off ``cost`` ("1 resource less" and the like). With an explicit
    payment, the token that payment leaves out; otherwise the first token, in the order of
    ``kinds`` (``gold``, ``crop`` = a named crop, ``any``), whose removal leaves the cost
    payable — the one hardest to pay goes first."""
    order = [i for k in kinds for i, t in enumerate(cost) if _token_kind(t) == k]
    for i in order:
        trial = cost[:i] + cost[i + 1 :]
        if payment is not None:
            try:
                check_payment(g.s, seat, trial, list(payment), ctx)
            except RulesError:
                continue
            return trial
        if can_pay(g.s, seat, trial, ctx):
            return trial
    return cost[: order[0]] + cost[order[0] + 1 :] if order else cost


REBOUCAS_KINDS = ("gold", "crop", "any")  # André Rebouças: 1 resource or 1 gold less
MANUFACTURE_KINDS = ("crop", "any")  # R-MANUF-2: 1 resource less


def _build(g: G, a: A.Build) -> None:
    seat = a.seat
    s = g.s
    at = _label(g, a.at)
    second = s.turn.step == "movement" and s.turn.arch == "build"
    if second:
        g.require(
            "visconde_de_maua" in g.p(seat).paintings,
            "R-TURN-2",
            "you may build only once per turn",
        )
        g.require(s.turn.builds == 1, "R-TURN-2", "Visconde de Mauá allows one second build only")
    if a.building not in g.cat.sides and a.building not in g.cat.cities:
        raise InvalidAction("R-BUILD-1", f"unknown building or city '{a.building}'")
    err = _build_problem(g, seat, a.building, at)
    if err:
        raise err
    if not second:
        _begin_arch(g, seat, "build")
    cost, ctx = _build_cost(g, seat, a.building, second=second)
    if "andre_reboucas" in g.p(seat).paintings and not s.turn.reboucas and cost:
        s.turn.reboucas = True
        cost = (
            _discount(g, seat, cost, REBOUCAS_KINDS, ctx)
            if a.payment is None
            else _discount(g, seat, cost, REBOUCAS_KINDS, ctx, a.payment)
        )
    _pay(g, seat, cost, a.payment, ctx)
    _place_building(g, seat, a.building, at)
    s.turn.builds += 1
    if not second:
        _to_movement(g, seat)


def _place_building(g: G, seat: int, what: str, at: str, why: str = "") -> None:
    s = g.s
    cat = g.cat
    p = g.p(seat)
    city = _is_city(g, what)
    old = s.tiles.get(at)
    if old is not None:
        g.emit(
            "removed",
            f"The {cat.sides[old.id].name.lower()} at {at} is removed from the game (its VP are lost).",
            seat,
            hex=at,
        )
        del s.tiles[at]
    on_forest = old is None and g.board.terrain[at] == "forest"
    ex = s.exploration.pop(at, None)
    if ex is not None and not ex.face_up:
        g.emit(
            "explore_discard",
            f"The face-down exploration tile at {at} is discarded unseen.",
            seat,
            hex=at,
        )
        for pl in s.players:
            pl.peeks.pop(at, None)
    if city:
        for pile in s.city_piles:
            if pile and pile[-1] == what:
                pile.pop()
                break
        s.tiles[at] = Tile(kind="city", id=what, owner=seat, on_forest=on_forest)
        g.emit(
            "build",
            f"{g.name(seat)} founds the city of {cat.cities[what].name} at {at} ({cat.cities[what].vp} VP){why}.",
            seat,
            hex=at,
            building=what,
        )
    else:
        tile_id = cat.side_tile[what]
        s.supply[tile_id] -= 1
        s.tiles[at] = Tile(kind="building", id=what, owner=seat, on_forest=on_forest)
        g.emit(
            "build",
            f"{g.name(seat)} builds a {cat.sides[what].name.lower()} at {at}{why}.",
            seat,
            hex=at,
            building=what,
        )
        g.mark_special(seat, at)
        g.produce(at, "new building")  # R-BUILD-5
    if ex is not None and ex.face_up:
        tile = cat.exploration[ex.tile]
        if tile.kind == "minas_gerais":
            g.gain(
                seat,
                {k: v for k, v in tile.reward_goods.items() if k != "any"},
                "Minas Gerais, first builder",
            )
        elif tile.kind == "cultura":
            p.kept_tiles.append(ex.tile)
            g.emit(
                "keep_tile",
                f"{g.name(seat)} keeps the Cultura tile ({tile.reward_vp} VP).",
                seat,
                tile=ex.tile,
            )
    if on_forest and p.monarch == "tibirica":
        n = p.counters.get("tibirica", 0)
        rewards = list(cat.monarchs["tibirica"].params.get("rewards", []))
        if n < len(rewards):
            p.counters["tibirica"] = n + 1
            _choice_of_good(g, seat, str(rewards[n]), "Tibiriçá, built on forest")


# =============================================================================== renovate


def _renovate_problem(g: G, seat: int, at: str, flip: bool) -> RulesError | None:
    t = g.s.tiles.get(at)
    if t is None or t.owner != seat:
        return IllegalAction("R-RENOV-1", f"you have no building at {at}")
    if t.kind != "building":
        return IllegalAction(
            "R-RENOV-4", "capitals and cities have no production and cannot be renovated"
        )
    if g.occupier(at) is not None:
        return IllegalAction("R-RENOV-1", f"your building at {at} is occupied by an opponent")
    if t.goods:
        return IllegalAction("R-RENOV-3", f"the building at {at} still has goods on it")
    if g.cat.building_era(t.id) > g.s.era:
        return IllegalAction(
            "R-RENOV-1",
            f"an era {g.cat.building_era(t.id)} building can be renovated only from that era",
        )
    if flip and t.palace is not None:
        return IllegalAction(
            "R-RENOV-2", f"the building at {at} has a palace: it cannot be flipped"
        )
    return None


def _renovate(g: G, a: A.Renovate) -> None:
    seat = a.seat
    at = _label(g, a.at)
    err = _renovate_problem(g, seat, at, a.flip)
    if err:
        raise err
    _begin_arch(g, seat, "renovate")
    cost = [] if _upgraded(g, seat, "renovate") else list(g.cat.arches["renovate"].cost)
    _pay(g, seat, cost, a.payment, PayContext(exclude_hex=at, label="renovating"))
    t = g.s.tiles[at]
    if a.flip:
        old = t.id
        t.id = g.cat.other_side(old)
        t.special = False
        g.emit(
            "flip",
            f"{g.name(seat)} flips the {g.cat.sides[old].name.lower()} at {at} to a {g.cat.sides[t.id].name.lower()}.",
            seat,
            hex=at,
            building=t.id,
        )
        g.mark_special(seat, at)
    else:
        g.emit(
            "renovate",
            f"{g.name(seat)} renovates the {g.cat.sides[t.id].name.lower()} at {at}.",
            seat,
            hex=at,
        )
    g.produce(at, "renovated")
    _to_movement(g, seat)


# =============================================================================== manufacture


def _destinations(g: G, seat: int, product: str) -> list[str]:
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


def _manufacture_problem(g: G, seat: int, product: str, to: str) -> RulesError | None:
    p = g.p(seat)
    if product not in g.cat.products:
        return InvalidAction("R-MANUF-1", f"unknown product '{product}'")
    if product not in p.products:
        return IllegalAction(
            "R-MANUF-1", f"you have already manufactured {g.cat.products[product].name}"
        )
    dests = _destinations(g, seat, product)
    if to not in dests:
        shape = g.cat.products[product].shape
        return IllegalAction(
            "R-MANUF-3",
            f"{g.cat.products[product].name} ({shape}) cannot go on '{to}'; free places: {', '.join(dests) or 'none'}",
        )
    return None


def _manufacture_cost(
    g: G, seat: int, product: str, upgraded: bool, payment: A.Payment = None
) -> list[str]:
    cost = list(g.cat.products[product].cost)
    return _discount(g, seat, cost, MANUFACTURE_KINDS, payment=payment) if upgraded else cost


def _do_manufacture(g: G, seat: int, product: str, to: str, why: str) -> None:
    p = g.p(seat)
    pr = g.cat.products[product]
    p.products.remove(product)
    if to == "victoria":
        p.victoria.append(product)
        where = "Queen Victoria's tile"
    elif to == "factory":
        p.factory.append(product)
        where = "the Factory"
    else:
        p.upgrades[to] = product
        where = f"the {g.cat.arches[to].name} arch, upgrading it"
    g.emit(
        "manufacture",
        f"{g.name(seat)} manufactures {pr.name} ({pr.vp} VP) onto {where}{why}.",
        seat,
        product=product,
        to=to,
    )
    if to == "victoria":
        g.gain(
            seat,
            {"science": int(g.cat.monarchs["queen_victoria"].params.get("science", 1))},
            "Queen Victoria",
        )


def _manufacture(g: G, a: A.Manufacture) -> None:
    seat = a.seat
    err = _manufacture_problem(g, seat, a.product, a.to)
    if err:
        raise err
    _begin_arch(g, seat, "manufacture")
    cost = _manufacture_cost(g, seat, a.product, _upgraded(g, seat, "manufacture"), a.payment)
    _pay(g, seat, cost, a.payment, PayContext(label=g.cat.products[a.product].name))
    _do_manufacture(g, seat, a.product, a.to, "")
    _to_movement(g, seat)


# =============================================================================== import / trade


def _import(g: G, a: A.Import) -> None:
    if a.crop not in CROPS:
        raise InvalidAction(
            "R-IMPORT-1", f"'{a.crop}' is not a resource; choose one of {', '.join(CROPS)}"
        )
    _begin_arch(g, a.seat, "import")
    g.gain(a.seat, {a.crop: 1}, "Import")
    if _upgraded(g, a.seat, "import"):
        g.draw_gold(a.seat, 1, "upgraded Import")
    _to_movement(g, a.seat)


def _trade(g: G, a: A.Trade) -> None:
    _begin_arch(g, a.seat, "trade")
    g.s.turn.step = "trade"


_EXCHANGES: dict[str, tuple[int, dict[str, int], int]] = {
    # kind: (items given, goods received, gold cards received) — R-TRADE-1
    "gold": (1, {"gold": 1}, 0),
    "pair": (2, {"gold": 2}, 1),
    "four": (4, {"gold": 1, "science": 1}, 1),
    "cards": (2, {"gold": 1}, 1),
}


def _exchange_problem(g: G, seat: int, kind: str, give: tuple[str, ...]) -> RulesError | None:
    n, _, _ = _EXCHANGES[kind]
    if len(give) != n:
        return InvalidAction(
            "R-TRADE-1", f"this exchange takes {count(n, 'item')}, not {len(give)}"
        )
    if kind == "cards":
        have = Counter(g.p(seat).combat_cards)
        if any(have[c] < k for c, k in Counter(give).items()):
            return IllegalAction("R-TRADE-1", "you do not hold those combat cards")
        return None
    if any(x not in CROPS for x in give):
        return IllegalAction(
            "R-TRADE-2", "give resources (crops): gold and science cannot stand in here"
        )
    if kind == "pair" and any(x not in ("cotton", "coffee") for x in give):
        return IllegalAction("R-TRADE-2", "this exchange takes cotton and/or coffee")
    if not can_pay(g.s, seat, list(give), PayContext(exact=True)):
        return IllegalAction(
            "R-TRADE-3",
            "you do not have those resources in your reserve or on buildings you control",
        )
    return None


def _exchange(g: G, a: A.Exchange) -> None:
    seat = a.seat
    _need_step(g, "trade", "R-TRADE-1", "an exchange")
    err = _exchange_problem(g, seat, a.kind, a.give)
    if err:
        raise err
    _, goods, cards = _EXCHANGES[a.kind]
    if a.kind == "cards":
        for c in a.give:
            g.p(seat).combat_cards.remove(c)
            g.s.combat_discard.append(c)
        g.emit("pay", f"{g.name(seat)} gives 2 combat cards.", seat)
    else:
        _pay(g, seat, list(a.give), a.payment, PayContext(exact=True, label="the exchange"))
    g.gain(seat, goods, "Trade")
    if cards:
        g.draw_gold(seat, cards, "Trade")


def _end_trade(g: G, a: A.EndTrade) -> None:
    _need_step(g, "trade", "R-TRADE-1", "ending the trade")
    _to_movement(g, a.seat)


def _pass_action(g: G, a: A.PassAction) -> None:
    _need_step(g, "action", "R-TURN-6", "passing")
    if any(True for _ in _arch_actions(g, a.seat)):
        raise IllegalAction("R-TURN-6", "you may pass only when no action is possible")
    g.emit("pass", f"{g.name(a.seat)} can take no action and passes (the token stays).", a.seat)
    g.s.turn.action_done = True
    _to_movement(g, a.seat)


# =============================================================================== movement


def _transport(g: G, seat: int, unit: str) -> bool:
    p = g.p(seat)
    ability = g.cat.units[f"{p.colour}.{unit}"].ability
    return ability == "transport" or (unit == "monarch" and "guaicurus" in p.paintings)


def _move_problem(
    g: G, seat: int, unit: str, to: str, kind: str, carry: tuple[str, ...]
) -> RulesError | None:
    s = g.s
    p = g.p(seat)
    t = s.turn
    if unit not in p.units:
        return InvalidAction("R-MOVE-1", f"you have no unit '{unit}'")
    src = p.units[unit]
    if src in ("board", "reserve"):
        return IllegalAction("R-MOVE-1", "only units on the map move")
    if kind == "free" and t.free_move:
        return IllegalAction("R-TURN-3", "you have already made your free move this turn")
    extra = g.cat.arches[t.arch].extra_move if t.arch else None
    if kind == "extra":
        if t.extra_move:
            return IllegalAction("R-TURN-3", "you have already made your extra move this turn")
        if extra is None or extra == "tactical":
            return IllegalAction("R-MOVE-3", "the arch you chose gives no extra move")
    if to == src:
        return IllegalAction("R-MOVE-1", "a move must change hex")
    adjacent = to in g.board.neighbours[src]
    if (kind == "free" or extra != "capital") and not adjacent:
        return IllegalAction("R-MOVE-1", f"{to} is not adjacent to {src}")
    water = g.board.is_water(src) or g.board.is_water(to)
    if water and not (kind == "free" or extra == "edge"):
        return IllegalAction(
            "R-MOVE-4", "entering or leaving water needs the free move or the Renovate extra move"
        )
    if kind == "extra":
        if extra == "capital":
            if to not in _deploy_targets(g, seat):
                return IllegalAction(
                    "R-MOVE-3",
                    f"the Recruit move goes to your capital or a city you control, not {to}",
                )
        elif extra == "forest":
            if g.terrain(to) != "forest":
                return IllegalAction(
                    "R-MOVE-3", f"the Painting move goes to an adjacent forest; {to} is not one"
                )
        elif extra == "own_tile":
            tile = s.tiles.get(to)
            # a capital counts as a city except in combat [seed FR p. 6]
            if tile is None or not g.controls(seat, to):
                return IllegalAction(
                    "R-MOVE-3",
                    f"the Build move goes to an adjacent building or city of yours; {to} is not one",
                )
        elif extra == "edge":
            if src not in g.board.edge or to not in g.board.edge:
                return IllegalAction(
                    "R-MOVE-3", "the Renovate move goes from an edge hex to an adjacent edge hex"
                )
        elif extra == "gold_mine" and g.terrain(to) != "gold_mine":
            return IllegalAction(
                "R-MOVE-3",
                f"the Manufacture move goes to an adjacent gold mine; {to} is not one",
            )
    dest = s.tiles.get(to)
    if (
        dest is not None
        and dest.kind == "capital"
        and dest.owner != seat
        and not (s.solo and dest.owner == ENEMY)
    ):
        return IllegalAction("R-MOVE-1", "no unit may enter an opponent's capital")
    if carry:
        if not _transport(g, seat, unit):
            return IllegalAction("R-MOVE-2", "only a unit with transport can carry others")
        for c in carry:
            if c == unit or c not in p.units or p.units[c] != src:
                return IllegalAction("R-MOVE-2", f"{c} is not one of your units on {src}")
        if len(set(carry)) != len(carry):
            return InvalidAction("R-MOVE-2", "a unit is listed twice")
    return None


def _move(g: G, a: A.Move) -> None:
    seat = a.seat
    _need_step(g, "movement", "R-TURN-3", "moving")
    to = _label(g, a.to)
    err = _move_problem(g, seat, a.unit, to, a.kind, a.carry)
    if err:
        raise err
    p = g.p(seat)
    src = p.units[a.unit]
    units = [a.unit, *a.carry]
    if a.kind == "free":
        g.s.turn.free_move = True
    else:
        g.s.turn.extra_move = True
    names = ", ".join(g.cat.units[f"{p.colour}.{u}"].name for u in units)
    if C.defender_of(g, seat, to) is not None:
        # R-MOVE-5: entering an opponent's unit, building or city starts a battle at once.
        C.start_move_battle(g, seat, units, src, to, a.kind)
        return
    for u in units:
        p.units[u] = to
    g.emit(
        "move",
        f"{g.name(seat)} moves {names} from {src} to {to} ({a.kind} move).",
        seat,
        units=units,
        src=src,
        to=to,
        move=a.kind,
    )
    ex = g.s.exploration.get(to)
    if ex is not None and not ex.face_up:
        _reveal(g, seat, to, units, src)


def _bombard(g: G, a: A.Bombard) -> None:
    _need_step(g, "movement", "R-MOVE-6", "an adjacent attack")
    at = _label(g, a.at)
    err = C.bombard_problem(g, a.seat, a.unit, at)
    if err:
        raise err
    C.start_bombard(g, a.seat, a.unit, at)


def _expedition(g: G, a: A.Expedition) -> None:
    _need_step(g, "movement", "R-EXPLORE-3", "fighting an expedition")
    at = _label(g, a.at)
    err = C.expedition_problem(g, a.seat, at)
    if err:
        raise err
    g.s.turn.free_move = True
    units = [u for u, loc in g.p(a.seat).units.items() if loc == at]
    C.start_expedition(g, a.seat, units, at, at)


def _reveal(g: G, seat: int, at: str, units: list[str], src: str) -> None:
    """R-EXPLORE-1/2: the tile is revealed to all and takes effect."""
    s = g.s
    ex = s.exploration[at]
    ex.face_up = True
    for pl in s.players:
        pl.peeks.pop(at, None)
    tile = g.cat.exploration[ex.tile]
    g.emit(
        "explore",
        f"{g.name(seat)} reveals {tile.name} at {at}: {tile.text}",
        seat,
        hex=at,
        tile=ex.tile,
    )
    if tile.kind == "unknown_species":
        del s.exploration[at]
        g.p(seat).kept_tiles.append(ex.tile)
    elif tile.kind == "mandioca":
        del s.exploration[at]
        for k, v in tile.reward_goods.items():
            for _ in range(v):
                _choice_of_good(g, seat, k, tile.name)
    elif tile.kind == "quilombo":
        del s.exploration[at]
        eras = [e for e in (1, 2, 3) if s.mission_decks.get(str(e))]
        if eras:
            g.push(seat, "choose_era", front=True, choices=eras)
    elif tile.kind == "river_basin":
        for nb in g.board.neighbours[at]:
            t = s.tiles.get(nb)
            if t is not None and t.kind == "building":
                crops = [c for c, n in g.cat.sides[t.id].production.items() if c in CROPS and n > 0]
                if t.special and t.owner >= 0 and (mon := g.p(t.owner).monarch):
                    ov = g.cat.monarchs[mon].building_override
                    if ov is not None and ov.side == t.id:
                        crops = [c for c, n in ov.production.items() if c in CROPS and n > 0]
                for c in crops:
                    t.goods[c] = t.goods.get(c, 0) + 1
                if crops:
                    g.emit(
                        "produce",
                        f"{nb} produces +1 {', '.join(crops)} (river basin).",
                        t.owner,
                        hex=nb,
                    )
    elif tile.kind == "bandeiras":
        # R-EXPLORE-3: the revealing unit(s) must fight the expedition at once.
        C.start_expedition(g, seat, units, at, src)
    # minas_gerais, cultura and bandeiras stay face up on the map.


def _peek(g: G, a: A.Peek) -> None:
    _need_step(g, "movement", "R-ERA-2", "peeking")
    g.require(g.s.turn.peek, "R-ERA-2", "you have no peek now (token I under the chosen arch)")
    at = _label(g, a.at)
    ex = g.s.exploration.get(at)
    g.require(
        ex is not None and not ex.face_up,
        "R-EXPLORE-4",
        f"there is no face-down exploration tile at {at}",
    )
    assert ex is not None
    g.s.turn.peek = False
    g.p(a.seat).peeks[at] = ex.tile
    g.emit(
        "peek", f"{g.name(a.seat)} secretly looks at the exploration tile at {at}.", a.seat, hex=at
    )
    g.emit(
        "peek_private",
        f"The tile at {at} is {g.cat.exploration[ex.tile].name}.",
        a.seat,
        visible_to=(a.seat,),
        hex=at,
        tile=ex.tile,
    )


def _end_turn(g: G, a: A.EndTurn) -> None:
    s = g.s
    _need_step(g, "movement", "R-TURN-1", "ending the turn")
    last = (s.first_player - 1) % s.n
    rounds_over = s.max_rounds is not None and s.round >= s.max_rounds
    if s.current == last and (s.end_triggered or rounds_over):
        _finish(g)
        return
    s.current = (s.current + 1) % s.n
    if s.current == s.first_player:
        s.round += 1
    s.turn = Turn()
    g.emit("turn", f"Round {s.round}: {g.name(s.current)}'s turn.", s.current, round=s.round)


def solo_won(state: GameState) -> bool:
    """R-SOLO-2: era III reached, all 5 units on the map, the enemy capital captured."""
    if not state.solo:
        return False
    p = state.players[0]
    on_map = all(loc not in ("board", "reserve") for loc in p.units.values())
    return state.era >= 3 and on_map and bool(p.units) and state.solo_captured


def _finish(g: G) -> None:
    s = g.s
    s.phase = "ended"
    s.pending = []
    s.combat = None
    res = final_scores(s)
    if s.solo:
        won = solo_won(s)
        res["solo_won"] = won
        res["winners"] = [0] if won else []
        g.emit(
            "solo_result",
            "Victory at Guararapes! Era III, all five units on the map and the enemy capital taken."
            if won
            else f"Defeat: the {s.round} rounds are over and the conditions of victory were not all met.",
            0,
            won=won,
        )
    s.result = res
    for row in res["scores"]:
        g.emit(
            "score", f"{g.name(row['seat'])} scores {row['total']} VP.", row["seat"], breakdown=row
        )
    names = " and ".join(g.name(w) for w in res["winners"]) or "Nobody"
    g.emit(
        "game_over",
        f"The game is over. {names} win{'s' if len(res['winners']) == 1 else ''}.",
        winners=res["winners"],
    )


# =============================================================================== missions, eras, palaces


def _reveal_mission(g: G, a: A.RevealMission) -> None:
    s = g.s
    seat = a.seat
    p = g.p(seat)
    if a.mission not in g.cat.missions:
        raise InvalidAction("R-MISSION-1", f"unknown mission '{a.mission}'")
    g.require(a.mission in p.missions, "R-MISSION-1", "that mission is not in your hand")
    m = g.cat.missions[a.mission]
    g.require(
        m.era <= s.era,
        "R-MISSION-2",
        f"an era {ROMAN[m.era]} mission cannot be revealed in era {ROMAN[s.era]}",
    )
    g.require(
        mission_complete(s, seat, a.mission),
        "R-MISSION-1",
        f"{m.name}: not every objective is met yet",
    )
    p.missions.remove(a.mission)
    p.revealed.append(a.mission)
    vp = m.vp if m.era < 3 else sum(o.vp for o in m.objectives)
    g.emit(
        "mission",
        f"{g.name(seat)} reveals the era {ROMAN[m.era]} mission {m.name} ({vp} VP).",
        seat,
        mission=a.mission,
    )
    if p.monarch == "dom_oba_ii" and len(p.revealed) <= int(
        g.cat.monarchs["dom_oba_ii"].params.get("missions", 2)
    ):
        g.gain(
            seat,
            {"science": int(g.cat.monarchs["dom_oba_ii"].params.get("science", 1))},
            "Dom Obá II",
        )
    if _palace_options(g, seat):
        g.push(seat, "place_palace", front=True)
    else:
        g.emit("no_palace", f"{g.name(seat)} can place no palace (the mission still scores).", seat)
    if m.era == s.era:
        if s.era < 3:
            _advance_era(g, seat)
        elif not s.end_triggered:
            s.end_triggered = True
            g.emit(
                "end_triggered",
                "An era III mission is revealed: the current round is the last.",
                seat,
            )


def _advance_era(g: G, revealer: int) -> None:
    """R-ERA-2: every player flips the previous token and puts it under a free arch."""
    s = g.s
    old = s.era
    s.era += 1
    names = {2: "II Navigation", 3: "III Railway"}
    g.emit(
        "era",
        f"Era {names[s.era]} begins. Every player places the flipped era {ROMAN[old]} token under an arch.",
        revealer,
        era=s.era,
    )
    order = [(revealer + i) % s.n for i in range(s.n)]
    for seat in order:
        p = g.p(seat)
        p.token_arch = None  # the first action with the new token may be any arch (R-TURN-2)
        g.push(seat, "place_era_token", blocking=(seat == s.current), token=old)
    if s.turn.arch in ("import", "trade") and s.current == revealer:
        pass  # the token left the arch: its tactical advantage ends with it


def _era_token_options(g: G, seat: int) -> list[str]:
    p = g.p(seat)
    out = [arch for arch in ARCHES if arch not in p.under]
    if "coroados" in p.paintings and p.coroados is None:
        out.append("coroados")
    return out


def _place_era_token(g: G, a: A.PlaceEraToken, pend: Pending) -> None:
    tok = int(pend.data.get("token", 1))
    opts = _era_token_options(g, a.seat)
    if a.arch not in opts:
        raise IllegalAction(
            "R-ERA-2", f"put the token under an arch without one: {', '.join(opts)}"
        )
    if a.arch == "coroados":
        _to_coroados(g, a.seat, tok)
    else:
        g.p(a.seat).under[a.arch] = tok
        g.emit(
            "era_token",
            f"{g.name(a.seat)} puts the era {ROMAN[tok]} token under {g.cat.arches[a.arch].name}.",
            a.seat,
            arch=a.arch,
            token=tok,
        )


def _to_coroados(g: G, seat: int, tok: int) -> None:
    p = g.p(seat)
    p.coroados = tok
    g.emit(
        "coroados",
        f"{g.name(seat)} places the era {ROMAN[tok]} token on Coroados.",
        seat,
        token=tok,
    )
    if tok == 2:
        g.draw_gold(
            seat, int(g.cat.paintings["coroados"].params.get("token2_gold_cards", 2)), "Coroados"
        )


def _coroados(g: G, a: A.Coroados) -> None:
    p = g.p(a.seat)
    g.require("coroados" in p.paintings, "R-ERA-4", "you do not have the Coroados painting")
    g.require(p.coroados is None, "R-ERA-4", "Coroados already holds a token")
    arch = next((k for k, v in p.under.items() if v == a.token), None)
    g.require(arch is not None, "R-ERA-4", f"you have no flipped era {a.token} token under an arch")
    assert arch is not None
    del p.under[arch]
    _to_coroados(g, a.seat, a.token)


def _palace_problem(g: G, seat: int, palace: int, at: str) -> RulesError | None:
    p = g.p(seat)
    if palace not in p.palaces or palace == 1:
        return IllegalAction(
            "R-PALACE-1", f"palace {ROMAN.get(palace, palace)} is not on your board"
        )
    t = g.s.tiles.get(at)
    if t is None or t.owner != seat or not g.controls(seat, at):
        return IllegalAction("R-PALACE-1", f"{at} is not a tile of your empire that you control")
    if t.palace is not None:
        return IllegalAction("R-PALACE-1", f"{at} already has a palace")
    ok = {
        2: t.kind == "building" and t.id in ERA_I_SIDES,
        3: t.kind == "city" or (t.kind == "building" and g.cat.building_era(t.id) <= 2),
        4: t.kind == "building" and t.id == "cotton_plantation",
        5: t.kind == "building" and t.id == "farm",
        6: t.kind == "city",
    }[palace]
    if not ok:
        need = {
            2: "an era I building",
            3: "an era I or II building or a city",
            4: "a cotton plantation",
            5: "a farm",
            6: "a city (not the capital)",
        }[palace]
        return IllegalAction("R-PALACE-2", f"palace {ROMAN[palace]} goes on {need}")
    return None


def _palace_options(g: G, seat: int) -> list[tuple[int, str]]:
    p = g.p(seat)
    return [
        (pal, h)
        for pal in p.palaces
        if pal != 1
        for h, t in g.s.tiles.items()
        if t.owner == seat and _palace_problem(g, seat, pal, h) is None
    ]


def _do_palace(g: G, seat: int, palace: int, at: str) -> None:
    p = g.p(seat)
    p.palaces.remove(palace)
    g.s.tiles[at].palace = palace
    g.emit(
        "palace",
        f"{g.name(seat)} places palace {ROMAN[palace]} at {at}.",
        seat,
        palace=palace,
        hex=at,
    )
    if palace == 2:
        g.gain(seat, {"sugar_cane": 1}, "palace II")
        if any(
            g.cat.products[x].shape == "square" and _destinations(g, seat, x) for x in p.products
        ):
            g.push(seat, "free_manufacture", front=True)
    elif palace == 3:
        g.draw_gold(seat, 1, "palace III")
    elif palace == 4:
        g.gain(seat, {"cotton": 1}, "palace IV")
    elif palace == 6:
        g.draw_combat(seat, 1, "palace VI")


def _place_palace(g: G, a: A.PlacePalace, pend: Pending) -> None:
    if a.palace is None:
        g.emit("no_palace", f"{g.name(a.seat)} places no palace.", a.seat)
        return
    at = _label(g, a.at or "")
    err = _palace_problem(g, a.seat, a.palace, at)
    if err:
        raise err
    _do_palace(g, a.seat, a.palace, at)


def _isabel(g: G, a: A.IsabelPalace) -> None:
    p = g.p(a.seat)
    g.require("isabel_of_brazil" in p.paintings, "R-PALACE-1", "you do not have Isabel of Brazil")
    g.require(not p.counters.get("isabel"), "R-PALACE-1", "Isabel of Brazil has already been used")
    at = _label(g, a.at)
    err = _palace_problem(g, a.seat, a.palace, at)
    if err:
        raise err
    p.counters["isabel"] = 1
    _do_palace(g, a.seat, a.palace, at)


def _free_manufacture(g: G, a: A.FreeManufacture, pend: Pending) -> None:
    if a.product is None:
        g.emit("decline", f"{g.name(a.seat)} manufactures nothing.", a.seat)
        return
    err = _manufacture_problem(g, a.seat, a.product, a.to or "")
    if err:
        raise err
    g.require(
        g.cat.products[a.product].shape == SQUARE_FOR_PALACE_II,
        "R-PALACE-2",
        "palace II manufactures a square product (dye or sugar)",
    )
    _do_manufacture(g, a.seat, a.product, a.to or "", " (palace II, free)")


# =============================================================================== gold cards


def _gold_card_problem(g: G, a: A.PlayGoldCard) -> RulesError | None:
    p = g.p(a.seat)
    if a.card not in g.cat.gold_cards:
        return InvalidAction("R-TURN-4", f"unknown gold card '{a.card}'")
    if a.card not in p.gold_cards:
        return IllegalAction("R-TURN-4", "you do not hold that gold card")
    card = g.cat.gold_cards[a.card]
    if card.kind == "end":
        return IllegalAction(
            "R-TURN-4", f"{card.name} scores at the end of the game; it is not played"
        )
    if card.kind == "war":
        return IllegalAction("R-TURN-4", f"{card.name} is played right after you win a battle")
    e = card.effect
    if e == "build":
        if a.at is None:
            return InvalidAction("R-TURN-4", "say where to build (at)")
        return _build_problem(g, a.seat, str(card.params["side"]), a.at, by_card=a.card)
    if e == "deploy":
        if a.unit is None or a.to is None:
            return InvalidAction("R-TURN-4", "say which unit and where (unit, to)")
        if a.unit not in p.units:
            return InvalidAction("R-TURN-4", f"you have no unit '{a.unit}'")
        u = g.cat.units[f"{p.colour}.{a.unit}"]
        if card.params.get("basic_only") and not u.basic:
            return IllegalAction("R-TURN-4", f"{card.name} deploys a basic unit only")
        if card.params.get("monarch_only") and a.unit != "monarch":
            return IllegalAction("R-TURN-4", f"{card.name} deploys your monarch only")
        if card.params.get("basic_only") and p.units[a.unit] != "board":
            return IllegalAction("R-TURN-4", f"{card.name} is for a unit's first deployment")
        try:
            _check_deploy(g, a.seat, a.unit, a.to)
        except RulesError as err:
            return err
        return None
    if e == "manufacture":
        if a.product is None or a.to is None:
            return InvalidAction("R-TURN-4", "say which product and where (product, to)")
        return _manufacture_problem(g, a.seat, a.product, a.to)
    if e == "exchange":
        give = list(card.params.get("give", []))
        if len(a.give) != len(give):
            return InvalidAction("R-TURN-4", f"{card.name} takes {count(len(give), 'resource')}")
        for want, got in zip(give, a.give, strict=True):
            if got not in CROPS or (want != "any" and got != want):
                return IllegalAction("R-TURN-4", f"{card.name} takes {', '.join(give)}")
        if not can_pay(g.s, a.seat, list(a.give), PayContext(exact=True)):
            return IllegalAction("R-TURN-4", "you do not have those resources")
        return None
    if e == "espionage":
        if a.target is None or not 0 <= a.target < g.s.n or a.target == a.seat:
            return InvalidAction("R-TURN-4", "name an opponent's seat (target)")
        return None
    if e == "veterans":
        if a.unit is None or a.unit not in p.units or p.units[a.unit] in ("board", "reserve"):
            return IllegalAction("R-TURN-4", "name one of your units on the map (unit)")
        return None
    return InvalidAction("R-TURN-4", f"{card.name} cannot be played")


def _play_gold_card(g: G, a: A.PlayGoldCard) -> None:
    a = a.replace(
        **{
            "at": _label(g, a.at) if a.at is not None else None,
            "to": _label(g, a.to) if a.to is not None and a.unit is not None else a.to,
        }
    )
    err = _gold_card_problem(g, a)
    if err:
        raise err
    seat = a.seat
    p = g.p(seat)
    card = g.cat.gold_cards[a.card]
    p.gold_cards.remove(a.card)
    g.s.gold_discard.append(a.card)
    g.emit("gold_card", f"{g.name(seat)} plays {card.name}: {card.text}", seat, card=a.card)
    e = card.effect
    if e == "build":
        side = str(card.params["side"])
        at = _label(g, a.at or "")
        cost = list(g.cat.sides[side].cost)
        _pay(g, seat, cost, a.payment, PayContext(label=card.name))
        _place_building(g, seat, side, at, f" ({card.name})")
    elif e == "deploy":
        to = _label(g, a.to or "")
        assert a.unit is not None
        _pay(g, seat, _unit_cost(g, seat, a.unit), a.payment, PayContext(label=card.name))
        _deploy(g, seat, a.unit, to)
    elif e == "manufacture":
        assert a.product is not None and a.to is not None
        _pay(g, seat, list(g.cat.products[a.product].cost), a.payment, PayContext(label=card.name))
        _do_manufacture(g, seat, a.product, a.to, f" ({card.name})")
    elif e == "exchange":
        _pay(g, seat, list(a.give), a.payment, PayContext(exact=True, label=card.name))
        g.gain(seat, {k: int(v) for k, v in card.params.get("get", {}).items()}, card.name)
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
            f"{g.name(seat)} looks at all the cards in {g.name(a.target)}'s hands.",
            seat,
            target=a.target,
        )
        text = "; ".join(
            f"{k.replace('_', ' ')}: " + (", ".join(v) or "none") for k, v in seen.items()
        )
        g.emit(
            "espionage_private",
            f"{g.name(a.target)} holds {text}.",
            seat,
            visible_to=(seat,),
            target=a.target,
            **seen,
        )
    elif e == "veterans":
        assert a.unit is not None
        p.units[a.unit] = "reserve"
        g.emit("veterans", f"{g.name(seat)}'s {a.unit} returns to the reserve.", seat, unit=a.unit)
        g.gain(seat, {k: int(v) for k, v in card.params.get("get", {}).items()}, card.name)


# =============================================================================== pending answers


def _discard(g: G, a: A.Discard, pend: Pending) -> None:
    p = g.p(a.seat)
    excess = sum(p.reserve.values()) - RESERVE_LIMIT
    g.require(
        len(a.goods) == excess,
        "R-VOC-4",
        f"discard exactly {count(excess, 'item')} to get down to {RESERVE_LIMIT}",
    )
    have = Counter(p.reserve)
    if any(have[k] < v for k, v in Counter(a.goods).items()):
        raise IllegalAction("R-VOC-4", "you can only discard what is in your reserve")
    for x in a.goods:
        p.reserve[x] -= 1
        if not p.reserve[x]:
            del p.reserve[x]
    g.emit(
        "discard",
        f"{g.name(a.seat)} discards {', '.join(a.goods)} (reserve limit {RESERVE_LIMIT}).",
        a.seat,
        goods=list(a.goods),
    )


def _discard_cards(g: G, a: A.DiscardCards, pend: Pending) -> None:
    p = g.p(a.seat)
    deck = str(pend.data.get("deck"))
    g.require(a.deck == deck, "R-VOC-5", f"discard {deck} cards first")
    hand = p.gold_cards if deck == "gold" else p.combat_cards
    excess = len(hand) - HAND_LIMIT
    g.require(
        len(a.cards) == excess,
        "R-VOC-5",
        f"discard exactly {count(excess, deck + ' card')} to get down to {HAND_LIMIT}",
    )
    have = Counter(hand)
    if any(have[k] < v for k, v in Counter(a.cards).items()):
        raise IllegalAction("R-VOC-5", "you can only discard cards you hold")
    for c in a.cards:
        hand.remove(c)
        (g.s.gold_discard if deck == "gold" else g.s.combat_discard).append(c)
    g.emit(
        "discard_cards",
        f"{g.name(a.seat)} discards {count(excess, deck + ' card')} (hand limit {HAND_LIMIT}).",
        a.seat,
        count=excess,
    )


def _choose_good(g: G, a: A.ChooseGood, pend: Pending) -> None:
    choices = list(pend.data.get("choices", CROPS))
    g.require(a.good in choices, "R-VOC-1", f"choose one of {', '.join(choices)}")
    g.gain(a.seat, {a.good: 1}, str(pend.data.get("why", "")))


def _choose_era(g: G, a: A.ChooseEra, pend: Pending) -> None:
    choices = list(pend.data.get("choices", []))
    g.require(a.era in choices, "R-MISSION-4", f"choose an era with missions left: {choices}")
    m = g.s.mission_decks[str(a.era)].pop()
    g.p(a.seat).missions.append(m)
    g.emit(
        "mission_draw",
        f"{g.name(a.seat)} draws an extra era {a.era} mission (Quilombo).",
        a.seat,
        era=a.era,
    )
    g.emit(
        "mission_draw_private",
        f"Your extra mission is {g.cat.missions[m].name}.",
        a.seat,
        visible_to=(a.seat,),
        mission=m,
    )


def _choose_deck(g: G, a: A.ChooseDeck, pend: Pending) -> None:
    choices = list(pend.data.get("choices", []))
    g.require(
        a.frame in choices,
        "R-PAINT-2",
        f"choose a deck that still has paintings: {', '.join(choices)}",
    )
    card = g.s.painting_decks[a.frame].pop()
    g.s.display.append(card)
    g.emit(
        "display",
        f"{g.cat.paintings[card].name} joins the display from the {a.frame} deck.",
        painting=card,
    )


_ANSWERS: dict[str, tuple[tuple[str, ...], Callable[[G, Any, Pending], None]]] = {
    "choose_colour": (("choose_colour",), _choose_colour),
    "keep_missions": (("keep_missions",), _keep_missions),
    "choose_monarch": (("choose_monarch",), _choose_monarch),
    "choose_capital": (("choose_capital",), _choose_capital),
    "place_palace": (("place_palace",), _place_palace),
    "free_manufacture": (("free_manufacture",), _free_manufacture),
    "place_era_token": (("place_era_token",), _place_era_token),
    "discard": (("discard",), _discard),
    "discard_cards": (("discard_cards",), _discard_cards),
    "choose_good": (("choose_good",), _choose_good),
    "choose_era": (("choose_era",), _choose_era),
    "choose_deck": (("choose_deck",), _choose_deck),
    "combat_cards": (("commit_cards",), C.commit_cards),
    "sepe_keep": (("keep_unit",), C.keep_unit),
    "retreat": (("retreat_to",), C.retreat_to),
    "war_card": (("war_card",), C.war_card),
}
_PENDING_TEXT = {
    "choose_colour": "choose a colour",
    "keep_missions": "keep one mission of each era",
    "choose_monarch": "choose a monarch",
    "choose_capital": "choose a capital",
    "place_palace": "place a palace (or none)",
    "free_manufacture": "choose the free square product of palace II",
    "place_era_token": "put the flipped era token under an arch",
    "discard": "discard down to 5 resources and elements",
    "discard_cards": "discard down to 3 cards",
    "choose_good": "choose a resource",
    "choose_era": "choose the era of the extra mission",
    "choose_deck": "choose the painting deck to refill from",
    "combat_cards": "choose combat cards for the battle (or none)",
    "sepe_keep": "choose the one battle unit to keep (Sepé Tiaraju)",
    "retreat": "choose where the units retreat",
    "war_card": "decide whether to play the War card",
}
_PENDING_RULE = {
    "choose_colour": "R-SETUP-4",
    "keep_missions": "R-SETUP-5",
    "choose_monarch": "R-SETUP-5",
    "choose_capital": "R-SETUP-6",
    "place_palace": "R-PALACE-1",
    "free_manufacture": "R-PALACE-2",
    "place_era_token": "R-ERA-2",
    "discard": "R-VOC-4",
    "discard_cards": "R-VOC-5",
    "choose_good": "R-VOC-1",
    "choose_era": "R-MISSION-4",
    "choose_deck": "R-PAINT-2",
    "combat_cards": "R-COMBAT-4",
    "sepe_keep": "R-COMBAT-5",
    "retreat": "R-COMBAT-5",
    "war_card": "R-TURN-4",
}


_ANY_ORDER = {"keep_missions", "choose_monarch"}  # simultaneous choices of one seat
_TURN: dict[str, Callable[[G, Any], None]] = {
    "recruit": _recruit,
    "painting": _take_painting,
    "build": _build,
    "renovate": _renovate,
    "manufacture": _manufacture,
    "import": _import,
    "trade": _trade,
    "exchange": _exchange,
    "end_trade": _end_trade,
    "pass_action": _pass_action,
    "move": _move,
    "bombard": _bombard,
    "expedition": _expedition,
    "peek": _peek,
    "end_turn": _end_turn,
    "reveal_mission": _reveal_mission,
    "play_gold_card": _play_gold_card,
    "coroados": _coroados,
    "isabel_palace": _isabel,
}


# =============================================================================== legal actions


def legal_actions(state: GameState, seat: int | None = None) -> list[Any]:
    """Every legal action for the seats that must decide now (or for ``seat`` only)."""
    if state.phase == "ended":
        return []
    g = G(state)
    g.pay = PayabilityCache(state)
    seats = deciders(state) if seat is None else [seat]
    out: list[Any] = []
    for st in seats:
        if st not in deciders(state):
            continue
        pend = pending_for(state, st)
        if pend is not None and pend.kind in _ANY_ORDER:
            for d in state.pending:
                if d.seat == st and d.kind in _ANY_ORDER:
                    out.extend(_answers(g, st, d))
        elif pend is not None:
            out.extend(_answers(g, st, pend))
        elif state.phase == "play" and st == state.current:
            out.extend(_turn_actions(g, st))
    return out


def _answers(g: G, seat: int, pend: Pending) -> Iterator[Any]:
    s = g.s
    p = g.p(seat)
    k = pend.kind
    if k == "choose_colour":
        taken = {q.colour for q in s.players}
        for c in g.cat.colours:
            if c not in taken:
                yield A.ChooseColour(seat=seat, colour=c)
    elif k == "keep_missions":
        by_era: dict[int, list[str]] = {}
        for m in p.mission_offer:
            by_era.setdefault(g.cat.missions[m].era, []).append(m)
        eras = sorted(by_era)
        from itertools import product

        for combo in product(*(by_era[e] for e in eras)):
            yield A.KeepMissions(seat=seat, keep=tuple(combo))
    elif k == "choose_monarch":
        for m in monarch_options(s, seat):
            yield A.ChooseMonarch(seat=seat, monarch=m)
    elif k == "choose_capital":
        for h in s.capital_tiles:
            if h not in s.tiles:
                yield A.ChooseCapital(seat=seat, at=h)
    elif k == "place_palace":
        yield A.PlacePalace(seat=seat)
        for pal, h in _palace_options(g, seat):
            yield A.PlacePalace(seat=seat, palace=pal, at=h)
    elif k == "free_manufacture":
        yield A.FreeManufacture(seat=seat)
        for pr in p.products:
            if g.cat.products[pr].shape == "square":
                for d in _destinations(g, seat, pr):
                    yield A.FreeManufacture(seat=seat, product=pr, to=d)
    elif k == "place_era_token":
        for arch in _era_token_options(g, seat):
            yield A.PlaceEraToken(seat=seat, arch=arch)
    elif k == "discard":
        excess = sum(p.reserve.values()) - RESERVE_LIMIT
        pool = [x for x, n in sorted(p.reserve.items()) for _ in range(n)]
        for combo in sorted(set(combinations(pool, excess))):
            yield A.Discard(seat=seat, goods=combo)
    elif k == "discard_cards":
        deck: Literal["gold", "combat"] = "gold" if pend.data.get("deck") == "gold" else "combat"
        hand = sorted(p.gold_cards if deck == "gold" else p.combat_cards)
        excess = len(hand) - HAND_LIMIT
        for combo in sorted(set(combinations(hand, excess))):
            yield A.DiscardCards(seat=seat, deck=deck, cards=combo)
    elif k == "choose_good":
        for c in pend.data.get("choices", CROPS):
            yield A.ChooseGood(seat=seat, good=c)
    elif k == "choose_era":
        for e in pend.data.get("choices", []):
            yield A.ChooseEra(seat=seat, era=e)
    elif k == "choose_deck":
        for f in pend.data.get("choices", []):
            yield A.ChooseDeck(seat=seat, frame=f)
    else:
        yield from C.answers(g, seat, pend)


def _turn_actions(g: G, seat: int) -> Iterator[Any]:
    s = g.s
    step = s.turn.step
    if step == "action":
        any_arch = False
        for act in _arch_actions(g, seat):
            any_arch = True
            yield act
        if not any_arch:
            yield A.PassAction(seat=seat)
    elif step == "trade":
        yield from _exchange_actions(g, seat)
        yield A.EndTrade(seat=seat)
    else:
        yield from _move_actions(g, seat)
        if not s.turn.free_move:
            yield from _attack_actions(g, seat)
        if s.turn.peek:
            for h, e in s.exploration.items():
                if not e.face_up:
                    yield A.Peek(seat=seat, at=h)
        if (
            s.turn.arch == "build"
            and s.turn.builds == 1
            and "visconde_de_maua" in g.p(seat).paintings
        ):
            yield from _build_actions(g, seat, second=True)
        yield A.EndTurn(seat=seat)
    yield from _free_actions(g, seat)


def _arch_actions(g: G, seat: int) -> Iterator[Any]:
    p = g.p(seat)
    cur = p.token_arch
    if cur != "recruit":
        yield from _recruit_actions(g, seat)
    if cur != "painting":
        for pa in g.s.display:
            if g.pay.can_pay(seat, _painting_cost(g, seat, pa)):
                yield A.TakePainting(seat=seat, painting=pa)
    if cur != "build":
        yield from _build_actions(g, seat, second=False)
    if cur != "renovate":
        cost = [] if _upgraded(g, seat, "renovate") else list(g.cat.arches["renovate"].cost)
        for h, t in g.s.tiles.items():
            if t.owner != seat or t.kind != "building":
                continue
            for flip in (False, True):
                if _renovate_problem(g, seat, h, flip) is None and can_pay(
                    g.s, seat, cost, PayContext(exclude_hex=h)
                ):
                    yield A.Renovate(seat=seat, at=h, flip=flip)
    if cur != "manufacture":
        up = _upgraded(g, seat, "manufacture")
        for pr in p.products:
            dests = _destinations(g, seat, pr)
            if dests and g.pay.can_pay(seat, _manufacture_cost(g, seat, pr, up)):
                for d in dests:
                    yield A.Manufacture(seat=seat, product=pr, to=d)
    if cur != "import":
        for c in CROPS:
            yield A.Import(seat=seat, crop=c)
    if cur != "trade":
        yield A.Trade(seat=seat)


def _recruit_actions(g: G, seat: int) -> Iterator[Any]:
    p = g.p(seat)
    limit = 2 if _upgraded(g, seat, "recruit") else 1
    targets = _deploy_targets(g, seat)
    ready = [u for u, loc in p.units.items() if loc in ("board", "reserve")]
    can_draw = bool(g.s.combat_deck or g.s.combat_discard)
    draws = list(range(0, limit + 1)) if can_draw else [0]
    for k in range(0, limit + 1):
        for group in combinations(ready, k):
            cost = [tok for u in group for tok in _unit_cost(g, seat, u)]
            if cost and not g.pay.can_pay(seat, cost):
                continue
            for places in _placements(targets, k):
                deploy = tuple(A.Deploy(unit=u, to=h) for u, h in zip(group, places, strict=True))
                for d in draws:
                    if k == 0 and d == 0:
                        continue
                    yield A.Recruit(seat=seat, deploy=deploy, draw=d)


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


def _build_sites(g: G, seat: int) -> set[str]:
    """Candidate hexes for buildings: next to your empire (cheap pre-filter)."""
    out: set[str] = set()
    for h, t in g.s.tiles.items():
        if t.owner == seat:
            out.update(g.board.neighbours[h])
            if t.kind == "building":
                out.add(h)
    return out


def _build_actions(g: G, seat: int, second: bool) -> Iterator[Any]:
    s = g.s
    cat = g.cat
    p = g.p(seat)
    sites = sorted(_build_sites(g, seat))
    whats: list[str] = [side for side in cat.sides if s.supply.get(cat.side_tile[side], 0) > 0]
    city_sites: list[str] = []
    if s.era >= 2:
        whats += [pile[-1] for pile in s.city_piles if pile]
        founders = {"monarch"} if "arariboia" not in p.paintings else set(p.units)
        city_sites = sorted(
            {
                p.units[u]
                for u in founders
                if u in p.units and p.units[u] not in ("board", "reserve")
            }
        )
    for what in whats:
        cost, ctx = _build_cost(g, seat, what, second=second)
        if "andre_reboucas" in p.paintings and not s.turn.reboucas:
            cost = _discount(g, seat, cost, REBOUCAS_KINDS, ctx)
        if not g.pay.can_pay(seat, cost, ctx):
            continue
        for at in city_sites if _is_city(g, what) else sites:
            if _build_problem(g, seat, what, at) is None:
                yield A.Build(seat=seat, building=what, at=at)


def _exchange_actions(g: G, seat: int) -> Iterator[Any]:
    s = g.s
    avail: Counter[str] = Counter()
    p = g.p(seat)
    for c, n in p.reserve.items():
        if c in CROPS:
            avail[c] += n
    for h, t in s.tiles.items():
        if t.goods and g.controls(seat, h):
            for c, n in t.goods.items():
                if c in CROPS:
                    avail[c] += n

    def have(combo: tuple[str, ...]) -> bool:
        need = Counter(combo)
        return all(avail[c] >= n for c, n in need.items())

    for c in CROPS:
        if avail[c]:
            yield A.Exchange(seat=seat, kind="gold", give=(c,))
    pairs: list[tuple[str, ...]] = [
        ("coffee", "coffee"),
        ("coffee", "cotton"),
        ("cotton", "cotton"),
    ]
    for pair in pairs:
        if have(pair):
            yield A.Exchange(seat=seat, kind="pair", give=pair)
    if sum(avail.values()) >= 4:
        for four in combinations_with_replacement(CROPS, 4):
            if have(four):
                yield A.Exchange(seat=seat, kind="four", give=four)
    if len(p.combat_cards) >= 2:
        for combo in sorted(set(combinations(sorted(p.combat_cards), 2))):
            yield A.Exchange(seat=seat, kind="cards", give=combo)


def _move_actions(g: G, seat: int) -> Iterator[Any]:
    s = g.s
    t = s.turn
    p = g.p(seat)
    kinds: list[Literal["free", "extra"]] = []
    if not t.free_move:
        kinds.append("free")
    extra = g.cat.arches[t.arch].extra_move if t.arch else None
    if not t.extra_move and extra not in (None, "tactical"):
        kinds.append("extra")
    if not kinds:
        return
    for u, src in p.units.items():
        if src in ("board", "reserve"):
            continue
        carries: list[tuple[str, ...]] = [()]
        if _transport(g, seat, u):
            others = [o for o, loc in p.units.items() if loc == src and o != u]
            carries = [c for k in range(len(others) + 1) for c in combinations(others, k)]
        for kind in kinds:
            if kind == "extra" and extra == "capital":
                dests = [h for h in _deploy_targets(g, seat) if h != src]
            else:
                dests = list(g.board.neighbours[src])
            for to in dests:
                if _move_problem(g, seat, u, to, kind, ()) is None:
                    for c in carries:
                        yield A.Move(seat=seat, unit=u, to=to, kind=kind, carry=c)


def _attack_actions(g: G, seat: int) -> Iterator[Any]:
    p = g.p(seat)
    done: set[str] = set()
    for u, src in p.units.items():
        if src in ("board", "reserve"):
            continue
        if src not in done and C.expedition_problem(g, seat, src) is None:
            done.add(src)
            yield A.Expedition(seat=seat, at=src)
        if g.cat.units[f"{p.colour}.{u}"].ability == "bombard":
            for nb in g.board.neighbours[src]:
                if C.bombard_problem(g, seat, u, nb) is None:
                    yield A.Bombard(seat=seat, unit=u, at=nb)


def _free_actions(g: G, seat: int) -> Iterator[Any]:
    s = g.s
    p = g.p(seat)
    for m in p.missions:
        if g.cat.missions[m].era <= s.era and mission_complete(s, seat, m):
            yield A.RevealMission(seat=seat, mission=m)
    if "coroados" in p.paintings and p.coroados is None:
        for tok in sorted(set(p.under.values())):
            yield A.Coroados(seat=seat, token=tok)
    if "isabel_of_brazil" in p.paintings and not p.counters.get("isabel"):
        for pal, h in _palace_options(g, seat):
            yield A.IsabelPalace(seat=seat, palace=pal, at=h)
    for card in sorted(set(p.gold_cards)):
        yield from _gold_card_actions(g, seat, card)


def _gold_card_actions(g: G, seat: int, card_id: str) -> Iterator[Any]:
    s = g.s
    p = g.p(seat)
    card = g.cat.gold_cards[card_id]
    if card.kind != "free":
        return
    e = card.effect

    # A card used in payment is gone, so check payments without it.
    def affordable(cost: list[str], ctx: PayContext | None = None) -> bool:
        p.gold_cards.remove(card_id)
        try:
            return can_pay(s, seat, cost, ctx)
        finally:
            p.gold_cards.append(card_id)

    if e == "build":
        side = str(card.params["side"])
        if affordable(list(g.cat.sides[side].cost)):
            for at in sorted(_build_sites(g, seat)):
                if _build_problem(g, seat, side, at, by_card=card_id) is None:
                    yield A.PlayGoldCard(seat=seat, card=card_id, at=at)
    elif e == "deploy":
        for u, loc in p.units.items():
            if loc not in ("board", "reserve"):
                continue
            for to in _deploy_targets(g, seat):
                a = A.PlayGoldCard(seat=seat, card=card_id, unit=u, to=to)
                if _gold_card_problem(g, a) is None and affordable(_unit_cost(g, seat, u)):
                    yield a
    elif e == "manufacture":
        for pr in p.products:
            if not affordable(list(g.cat.products[pr].cost)):
                continue
            for d in _destinations(g, seat, pr):
                yield A.PlayGoldCard(seat=seat, card=card_id, product=pr, to=d)
    elif e == "exchange":
        give = list(card.params.get("give", []))
        options = (
            [tuple(give)]
            if "any" not in give
            else list(combinations_with_replacement(CROPS, len(give)))
        )
        for combo in options:
            if g.pay.can_pay(seat, list(combo), PayContext(exact=True)):
                yield A.PlayGoldCard(seat=seat, card=card_id, give=tuple(combo))
    elif e == "espionage":
        for q in s.players:
            if q.seat != seat:
                yield A.PlayGoldCard(seat=seat, card=card_id, target=q.seat)
    elif e == "veterans":
        for u, loc in p.units.items():
            if loc not in ("board", "reserve"):
                yield A.PlayGoldCard(seat=seat, card=card_id, unit=u)


# =============================================================================== misc


def is_over(state: GameState) -> bool:
    return state.phase == "ended"


__all__ = [
    "ENEMY",
    "apply",
    "deciders",
    "is_over",
    "legal_actions",
    "pending_for",
]
