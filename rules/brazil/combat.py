"""Battles (RULES.md §8), bombard attacks (R-MOVE-6), expeditions (R-EXPLORE-3) and the solo
army's defence (R-COMBAT-13).

A battle is a :class:`Battle` in the state. Each side's secret card choice is a pending
``combat_cards`` decision of that seat — the defender usually answers hours later — with an
empty choice meaning "no cards". When both have chosen (the solo army draws its cards) all
cards are revealed, attacker's first, and the battle is resolved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from rules.brazil import actions as A
from rules.brazil.catalog import CROPS
from rules.brazil.control import controls, occupier_of
from rules.brazil.exploration import reveal
from rules.brazil.game import Context
from rules.brazil.messages import Param, msg, term_ref, text_ref
from rules.brazil.payment import find_payment, take_payment
from rules.brazil.scoring import tile_vp
from rules.brazil.state import ENEMY, Battle, Pending, Side
from rules.errors import IllegalAction

MAX_CARDS = 3  # R-COMBAT-4


# ============================================================================ who fights


def defender_of(g: Context, seat: int, hex_: str) -> int | None:
    """The seat a unit of ``seat`` would fight on entering ``hex_`` (None: no battle).

    R-MOVE-5 / R-COMBAT-7: units of another seat there, else a building or city (not a
    capital, R-COMBAT-2 — the solo enemy capital excepted) controlled by another seat.
    """
    for s, _ in g.units_at(hex_):
        if s != seat:
            return s
    t = g.s.tiles.get(hex_)
    if t is None:
        return None
    if t.kind == "capital" and not (t.owner == ENEMY and g.s.solo):
        return None
    ctrl = occupier_of(g.s, hex_)
    ctrl = t.owner if ctrl is None else ctrl
    return None if ctrl == seat else ctrl


def _units_of(g: Context, seat: int, hex_: str) -> list[str]:
    return [u for s, u in g.units_at(hex_) if s == seat]


def _colour(g: Context, seat: int) -> str | None:
    return g.board.map.enemy_colour if seat == ENEMY else g.p(seat).colour


def _unit_def(g: Context, seat: int, unit: str) -> Any:
    return g.cat.units[f"{_colour(g, seat)}.{unit}"]


# ============================================================================ starting


def start_move_battle(
    g: Context, seat: int, units: list[str], src: str, to: str, move: str
) -> None:
    d = defender_of(g, seat, to)
    assert d is not None
    g.s.combat = Battle(
        kind="move",
        hex=to,
        src=src,
        move=move,
        attacker=Side(seat=seat, units=list(units)),
        defender=Side(seat=d, units=_units_of(g, d, to)),
    )
    g.emit(
        "battle.move",
        {"who": g.name(seat), "defender": g.name(d), "hex": to, "src": src},
        seat,
        hex=to,
        src=src,
        defender=d,
        battle="move",
    )
    _ask_cards(g, g.s.combat.attacker)


Reason = tuple[str, str, dict[str, Any]]  # (rule, message key, params) of an IllegalAction


def bombard_problem(g: Context, seat: int, unit: str, at: str) -> IllegalAction | None:
    why = bombard_reason(g, seat, unit, at)
    return None if why is None else IllegalAction.of(why[0], why[1], **why[2])


def bombard_reason(g: Context, seat: int, unit: str, at: str) -> Reason | None:
    """What :func:`bombard_problem` raises, as its parts (no message rendered): the
    listing asks only whether there is one."""
    p = g.p(seat)
    if unit not in p.units:
        return ("R-MOVE-6", "error.unit.unknown", dict(unit=unit))
    src = p.units[unit]
    if src in ("board", "reserve"):
        return ("R-MOVE-6", "error.bombard.off_map", {})
    if _unit_def(g, seat, unit).ability != "bombard":
        return ("R-MOVE-6", "error.bombard.unit", {})
    if g.s.turn.free_move:
        return ("R-MOVE-6", "error.bombard.free_done", {})
    if at not in g.board.neighbours[src]:
        return ("R-MOVE-6", "error.hex.not_adjacent", dict(hex=at, src=src))
    ex = g.s.exploration.get(at)
    if ex is not None:
        return ("R-MOVE-6", "error.bombard.exploration", {})
    t = g.s.tiles.get(at)
    # R-COMBAT-2: whether or not units stand on it (the solo enemy capital excepted)
    if (
        t is not None
        and t.kind == "capital"
        and t.owner != seat
        and not (t.owner == ENEMY and g.s.solo)
    ):
        return ("R-COMBAT-2", "error.bombard.capital", {})
    if defender_of(g, seat, at) is None:
        return ("R-MOVE-6", "error.bombard.nothing", dict(hex=at))
    return None


def start_bombard(g: Context, seat: int, unit: str, at: str) -> None:
    """R-MOVE-6 / R-COMBAT-3: every unit on both hexes takes part; nobody moves."""
    src = g.p(seat).units[unit]
    d = defender_of(g, seat, at)
    assert d is not None
    g.s.turn.free_move = True
    g.s.combat = Battle(
        kind="bombard",
        hex=at,
        src=src,
        attacker=Side(seat=seat, units=_units_of(g, seat, src)),
        defender=Side(seat=d, units=_units_of(g, d, at)),
    )
    g.emit(
        "battle.bombard",
        {
            "who": g.name(seat),
            "unit": term_ref("unit", f"{_colour(g, seat)}.{unit}"),
            "defender": g.name(d),
            "hex": at,
            "src": src,
        },
        seat,
        hex=at,
        src=src,
        defender=d,
        battle="bombard",
    )
    _ask_cards(g, g.s.combat.attacker)


def start_expedition(g: Context, seat: int, units: list[str], at: str, src: str) -> None:
    ex = g.s.exploration[at]
    tile = g.cat.exploration[ex.tile]
    g.s.combat = Battle(
        kind="bandeiras",
        hex=at,
        src=src,
        attacker=Side(seat=seat, units=list(units)),
        requirement=tile.fp or 0,
    )
    g.emit(
        "expedition",
        {"who": g.name(seat), "hex": at, "fp": tile.fp or 0},
        seat,
        hex=at,
        requirement=tile.fp,
    )
    _ask_cards(g, g.s.combat.attacker)


def expedition_problem(g: Context, seat: int, at: str) -> IllegalAction | None:
    why = expedition_reason(g, seat, at)
    return None if why is None else IllegalAction.of(why[0], why[1], **why[2])


def expedition_reason(g: Context, seat: int, at: str) -> Reason | None:
    """What :func:`expedition_problem` raises, as its parts (no message rendered)."""
    ex = g.s.exploration.get(at)
    if ex is None or not ex.face_up or g.cat.exploration[ex.tile].kind != "bandeiras":
        return (
            "R-EXPLORE-3",
            "error.expedition.no_tile",
            dict(tile="@term.exploration.bandeiras", hex=at),
        )
    if not expedition_units(g, seat, at):
        if _units_of(g, seat, at):
            return ("R-EXPLORE-3", "error.expedition.new_unit", dict(hex=at))
        return ("R-EXPLORE-3", "error.expedition.no_unit", dict(hex=at))
    if g.s.turn.free_move:
        return ("R-EXPLORE-3", "error.expedition.free_done", {})
    return None


def expedition_units(g: Context, seat: int, at: str) -> list[str]:
    """R-EXPLORE-3 [ruling]: ``seat``'s units on ``at`` that stood there since an earlier
    turn (not moved, placed or retreated this turn): those may fight with the free move."""
    arrived = g.s.turn.arrived if seat == g.s.current else []
    return [u for u in _units_of(g, seat, at) if u not in arrived]


def place_units(g: Context, seat: int, units: list[str], at: str) -> None:
    """Put ``seat``'s ``units`` on hex ``at``, noting which of the active player's arrived
    this turn (R-EXPLORE-3)."""
    p = g.p(seat)
    for u in units:
        p.units[u] = at
        if seat == g.s.current and u not in g.s.turn.arrived:
            g.s.turn.arrived.append(u)


def _ask_cards(g: Context, side: Side) -> None:
    if side.seat == ENEMY:
        _enemy_cards(g)
        return
    role = "attacker" if g.s.combat is not None and side is g.s.combat.attacker else "defender"
    g.push(side.seat, "combat_cards", front=False, role=role)


def _enemy_cards(g: Context) -> None:
    """R-COMBAT-13: one card per orange unit on the hex, drawn from the deck and applied."""
    b = g.s.combat
    assert b is not None and b.defender is not None
    n = len(b.defender.units)
    cards: list[str] = []
    for _ in range(n):
        card = g.take_card("combat")
        if card is not None:
            cards.append(card)
    b.defender.cards = cards
    b.defender.committed = True
    g.emit("enemy_cards", {"n": len(cards)}, ENEMY)
    resolve(g)


# ============================================================================ card choice


def commit_problem(
    g: Context, seat: int, cards: tuple[str, ...], camp: tuple[str, ...], role: str
) -> IllegalAction | None:
    p = g.p(seat)
    if len(cards) > MAX_CARDS:
        return IllegalAction.of("R-COMBAT-4", "error.combat.max_cards", n=MAX_CARDS)
    have = Counter(p.combat_cards)
    if any(have[c] < n for c, n in Counter(cards).items()):
        return IllegalAction.of("R-COMBAT-4", "error.combat.cards_not_held")
    if "parley" in cards and role != "defender":
        return IllegalAction.of(
            "R-COMBAT-4", "error.combat.parley", card=term_ref("combat_card", "parley")
        )
    if camp:
        if "acampamento" not in cards:
            return IllegalAction.of(
                "R-COMBAT-4", "error.combat.camp_card", card=term_ref("combat_card", "acampamento")
            )
        if any(c not in CROPS for c in camp):
            return IllegalAction.of(
                "R-COMBAT-4", "error.combat.camp_crops", card=term_ref("combat_card", "acampamento")
            )
        res = Counter(p.reserve)
        if any(res[c] < n for c, n in Counter(camp).items()):
            return IllegalAction.of("R-COMBAT-4", "error.combat.camp_missing")
    return None


def commit_cards(g: Context, a: A.CommitCards, pend: Pending) -> None:
    b = g.s.combat
    role = str(pend.data.get("role"))
    if b is None:
        raise IllegalAction.of("R-COMBAT-4", "error.combat.no_battle")
    err = commit_problem(g, a.seat, a.cards, a.camp, role)
    if err:
        raise err
    side = b.attacker if role == "attacker" else b.defender
    assert side is not None
    p = g.p(a.seat)
    for c in a.cards:
        p.combat_cards.remove(c)
    # The Acampamento resources stay in the (public) reserve until the reveal (R-COMBAT-4).
    side.cards = list(a.cards)
    side.camp = list(a.camp)
    side.committed = True
    g.emit(
        "cards_committed",
        {"who": g.name(a.seat), "n": len(a.cards)},
        a.seat,
        count=len(a.cards),
    )
    if role == "attacker" and b.defender is not None:
        _ask_cards(g, b.defender)
    else:
        resolve(g)


def commit_options(g: Context, seat: int) -> Iterator[A.CommitCards]:
    b = g.s.combat
    pend = next(d for d in g.s.pending if d.seat == seat and d.kind == "combat_cards")
    role = str(pend.data.get("role"))
    hand = sorted(g.p(seat).combat_cards)
    seen: set[tuple[str, ...]] = set()
    crops = [
        c for c in sorted(g.p(seat).reserve) if c in CROPS for _ in range(g.p(seat).reserve[c])
    ]
    for k in range(0, min(MAX_CARDS, len(hand)) + 1):
        for combo in combinations(hand, k):
            if combo in seen:
                continue
            seen.add(combo)
            if "parley" in combo and (role != "defender" or b is None):
                continue
            if "acampamento" in combo:
                camps = sorted({c for n in range(len(crops) + 1) for c in combinations(crops, n)})
                for camp in camps:
                    yield A.CommitCards(seat=seat, cards=combo, camp=camp)
            else:
                yield A.CommitCards(seat=seat, cards=combo)


# ============================================================================ resolution


def _camarao(g: Context, seat: int, b: Battle) -> int:
    """R-COMBAT-8 [ruling]: 1 when the tile fought over is a building of ``seat``'s (one it
    controls) next to a forest; other buildings next to forests do not count."""
    t = g.s.tiles.get(b.hex)
    if (
        b.kind != "bandeiras"
        and t is not None
        and t.kind == "building"
        and controls(g.s, seat, b.hex)
        and any(g.terrain(nb) == "forest" for nb in g.board.neighbours[b.hex])
    ):
        return 1
    return 0


def side_fp(g: Context, b: Battle, side: Side, role: str) -> list[tuple[str, int]]:
    """The FP of one side, itemised by source (R-COMBAT-3, R-COMBAT-8)."""
    return [(name, v) for name, _ref, v in _side_fp(g, b, side, role)]


def fp_parts(items: list[tuple[str, Param, int]]) -> list[Param]:
    """A side's FP sources as nested messages (``phrase.fp.part``) for the battle's event."""
    return [msg("phrase.fp.part", source=ref, fp=v) for _name, ref, v in items]


def _side_fp(g: Context, b: Battle, side: Side, role: str) -> list[tuple[str, Param, int]]:
    """:func:`side_fp` with each source also as a message parameter (a term reference or a
    ``phrase.fp.*`` message): (English name, parameter, FP)."""
    seat = side.seat
    out: list[tuple[str, Param, int]] = []
    for u in side.units:
        ud = _unit_def(g, seat, u)
        out.append((ud.name, term_ref("unit", f"{_colour(g, seat)}.{u}"), ud.vp))
    # The tile: for whoever controls it, unless it is occupied (then it counts for nobody).
    if b.kind != "bandeiras":
        where = b.hex if role == "defender" or b.kind == "move" else b.src
        t = g.s.tiles.get(where)
        if t is not None and occupier_of(g.s, where) is None and t.owner == seat:
            if t.kind == "capital":
                if seat == ENEMY:
                    fp = g.board.map.enemy_capital_fp
                    out.append(("orange capital", "@phrase.fp.orange_capital", fp))
            else:
                city = t.kind == "city"
                name = g.cat.cities[t.id].name if city else g.cat.sides[t.id].name
                ref = term_ref("city" if city else "building", t.id)
                out.append(
                    (
                        f"{name} at {where}",
                        msg("phrase.fp.tile", tile=ref, hex=where),
                        tile_vp(g.s, where),
                    )
                )
    if seat != ENEMY:
        p = g.p(seat)
        mine = set(p.paintings)
        par = {pid: g.cat.paintings[pid].params for pid in mine}
        attacking = role == "attacker"

        def painting(pid: str, fp: int) -> None:
            out.append((g.cat.paintings[pid].name, term_ref("painting", pid), fp))

        if "duque_de_caxias" in mine:
            d = par["duque_de_caxias"]
            painting("duque_de_caxias", int(d.get("attack" if attacking else "defend", 1)))
        if "maria_quiteria" in mine:
            d = par["maria_quiteria"]
            painting("maria_quiteria", int(d.get("attack" if attacking else "defend", 0)))
        if "temiminos" in mine and not attacking:
            t = g.s.tiles.get(b.hex)
            if t is not None and t.kind == "city" and controls(g.s, seat, b.hex):
                painting("temiminos", int(par["temiminos"].get("defend_city", 2)))
        if "camarao" in mine:
            n = _camarao(g, seat, b) * int(par["camarao"].get("fp_per_building", 1))
            if n:
                painting("camarao", n)
        # Tactical advantage while the token stays on Import or Trade (R-MOVE-3).
        if p.token_arch in ("import", "trade"):
            fp = 1 if attacking else 2
            out.append(("tactical advantage", "@phrase.fp.tactical_advantage", fp))
    for c in side.cards:
        out.append(
            (g.cat.combat_cards[c].name, term_ref("combat_card", c), card_fp(g, b, side, role, c))
        )
    if side.camp:
        out.append(("Acampamento resources", "@phrase.fp.camp", len(side.camp)))
    return [(k, r, v) for k, r, v in out if v]


def card_fp(g: Context, b: Battle, side: Side, role: str, card: str) -> int:
    d = g.cat.combat_cards[card]
    par = d.params
    e = d.effect
    if e in ("fp", "sepe", "war_chest"):
        return int(par.get("fp", 0))
    if e == "conde_deu":
        # [ruling] a unit of this side next to the battle hex and not in the battle
        near = any(
            s == side.seat and u not in side.units
            for nb in g.board.neighbours[b.hex]
            for s, u in g.units_at(nb)
        )
        return int(par.get("fp_adjacent" if near else "fp", 1))
    if e == "ambush":
        return int(par.get("attack" if role == "attacker" else "defend", 0))
    if e == "artillery":
        big = any(_unit_def(g, side.seat, u).ability == "bombard" for u in side.units)
        return int(par.get("fp_bombard" if big else "fp", 1))
    return 0  # camp (counted by resources), parley, retreat


def _discard_battle_cards(g: Context, b: Battle) -> None:
    """R-COMBAT-4 (6): the cards committed to the battle go to the discard pile."""
    for side in (b.attacker, b.defender):
        if side is not None:
            g.s.combat_discard.extend(side.cards)
            side.cards = []


def _to_reserve(g: Context, seat: int, units: list[str]) -> None:
    for u in units:
        if seat == ENEMY:
            g.s.enemy_units[u] = "reserve"
        else:
            g.p(seat).units[u] = "reserve"


def _parley(g: Context, b: Battle) -> bool:
    """Parley: the defender pays the attacker 1 gold; the battle is cancelled."""
    d = b.defender
    if d is None or d.seat == ENEMY or "parley" not in d.cards:
        return False
    amount = int(g.cat.combat_cards["parley"].params.get("gold", 1))
    items = find_payment(g.s, d.seat, ["gold"] * amount)
    if items is None:
        g.emit(
            "parley_failed",
            {"who": g.name(d.seat)},
            d.seat,
        )
        return False
    take_payment(g.s, d.seat, items)
    g.gain(b.attacker.seat, {"gold": amount}, term_ref("combat_card", "parley"))
    g.emit(
        "parley",
        {"who": g.name(d.seat), "attacker": g.name(b.attacker.seat), "amount": amount},
        d.seat,
    )
    return True


def _pay_camp(g: Context, side: Side) -> None:
    """R-COMBAT-4: the resources put on Acampamento leave the reserve at the reveal."""
    if side.seat == ENEMY:
        return
    res = g.p(side.seat).reserve
    for c in side.camp:
        res[c] -= 1
        if not res[c]:
            del res[c]


def resolve(g: Context) -> None:
    """R-COMBAT-4 steps 4–6: reveal, compare, apply the result, discard the cards."""
    b = g.s.combat
    assert b is not None
    b.revealed = True
    att = b.attacker
    for side in (att, b.defender):
        if side is None:
            continue
        _pay_camp(g, side)
        g.emit(
            "cards_revealed",
            {"who": g.name(side.seat), "cards": [term_ref("combat_card", c) for c in side.cards]},
            side.seat,
            cards=list(side.cards),
        )
    if b.kind == "bandeiras":
        _resolve_expedition(g, b)
        return
    dfd = b.defender
    assert dfd is not None
    if _parley(g, b):
        _discard_battle_cards(g, b)
        g.s.combat = None
        return
    a_parts = _side_fp(g, b, att, "attacker")
    d_parts = _side_fp(g, b, dfd, "defender")
    a_fp = [(k, v) for k, _, v in a_parts]
    d_fp = [(k, v) for k, _, v in d_parts]
    a_tot = sum(v for _, v in a_fp)
    d_tot = sum(v for _, v in d_fp)
    attacker_wins = a_tot > d_tot  # R-COMBAT-4 (5): a tie goes to the defender
    winner, loser = (att, dfd) if attacker_wins else (dfd, att)
    b.winner = winner.seat

    g.emit(
        "battle_result" if attacker_wins or a_tot != d_tot else "battle_result.tie",
        {
            "hex": b.hex,
            "attacker": g.name(att.seat),
            "attacker_fp": a_tot,
            "attacker_breakdown": fp_parts(a_parts),
            "defender": g.name(dfd.seat),
            "defender_fp": d_tot,
            "defender_breakdown": fp_parts(d_parts),
            "winner": g.name(winner.seat),
        },
        winner.seat,
        hex=b.hex,
        attacker=att.seat,
        defender=dfd.seat,
        attacker_fp=a_tot,
        defender_fp=d_tot,
        attacker_breakdown=a_fp,
        defender_breakdown=d_fp,
        winner=winner.seat,
    )
    # The loser's participating units are defeated (R-COMBAT-5), unless they Retreat.
    retreat = "retreat" in loser.cards and loser.seat != ENEMY and loser.units
    options = _retreat_hexes(g, b, loser) if retreat else []
    if loser.units:
        if retreat and options:
            g.push(
                loser.seat,
                "retreat",
                front=True,
                units=list(loser.units),
                choices=options,
                hex=b.hex,
            )
        else:
            _to_reserve(g, loser.seat, loser.units)
            g.emit(
                "defeated",
                {"who": g.name(loser.seat), "n": len(loser.units)},
                loser.seat,
                units=list(loser.units),
            )
    # A winning mover enters the hex (R-COMBAT-9); a bombard attacker never moves.
    if attacker_wins and b.kind == "move":
        place_units(g, att.seat, list(att.units), b.hex)
        t = g.s.tiles.get(b.hex)
        if t is not None and t.owner != att.seat:
            g.emit(
                "occupy.capital" if t.kind == "capital" else "occupy.tile",
                {"who": g.name(att.seat), "hex": b.hex},
                att.seat,
                hex=b.hex,
            )
            if t.kind == "capital" and t.owner == ENEMY:
                g.s.solo_captured = True
        # R-EXPLORE-1: entering a face-down tile (a unit may stand on one after a Retreat)
        # reveals it; a Bandeiras tile is fought at once (R-EXPLORE-3), once this battle is over
        ex = g.s.exploration.get(b.hex)
        expedition = ex is not None and not ex.face_up and reveal(g, att.seat, b.hex)
    else:
        expedition = False
    # Sepé Tiaraju: the winner loses all its battle units but one (the winner chooses).
    win_units = list(att.units if attacker_wins else dfd.units)
    if "sepe_tiaraju" in loser.cards and len(win_units) > 1:
        if winner.seat == ENEMY:
            keep = max(win_units, key=lambda u: _unit_def(g, ENEMY, u).vp)
            _sepe(g, ENEMY, win_units, keep)
        else:
            g.push(winner.seat, "sepe_keep", front=True, units=win_units)
    _discard_battle_cards(g, b)
    g.s.combat = None
    if expedition:
        # a new battle: starting it before this one was cleared lost it, leaving the
        # attacker's card decision with no battle (issue 22)
        start_expedition(g, att.seat, list(att.units), b.hex, b.src)
    # The War card may be played now. Any winner holding gold cards is asked, so that the
    # question itself does not tell the table that a War card is in that hand.
    if winner.seat != ENEMY and g.p(winner.seat).gold_cards:
        g.push(winner.seat, "war_card", front=False)


def _sepe(g: Context, seat: int, units: list[str], keep: str) -> None:
    lost = [u for u in units if u != keep]
    _to_reserve(g, seat, lost)
    b = g.s.combat  # an expedition the won battle revealed: the lost units do not fight it
    if b is not None:
        for side in (b.attacker, b.defender):
            if side is not None and side.seat == seat:
                side.units = [u for u in side.units if u not in lost]
    g.emit(
        "sepe",
        {"who": g.name(seat), "n": len(lost)},
        seat,
        kept=keep,
        lost=lost,
    )


def _retreat_hexes(g: Context, b: Battle, side: Side) -> list[str]:
    out = []
    for nb in g.board.neighbours[b.hex]:
        if g.board.is_water(nb):
            continue
        if any(u not in side.units for _, u in g.units_at(nb)) or any(
            s != side.seat for s, _ in g.units_at(nb)
        ):
            continue
        t = g.s.tiles.get(nb)
        if t is not None and t.owner != side.seat:
            continue
        ex = g.s.exploration.get(nb)
        if ex is not None and not ex.face_up:
            continue  # unexplored, not an empty hex (docs/RULINGS.md "Combat cards: Retreat")
        out.append(nb)
    return out


def _resolve_expedition(g: Context, b: Battle) -> None:
    att = b.attacker
    parts = _side_fp(g, b, att, "attacker")
    fp = [(k, v) for k, _, v in parts]
    tot = sum(v for _, v in fp)
    need = b.requirement or 0
    ex = g.s.exploration.get(b.hex)
    tile = g.cat.exploration[ex.tile] if ex is not None else None
    won = tot >= need  # R-EXPLORE-3: equal to or above the requirement
    g.emit(
        "expedition_result.won" if won else "expedition_result.lost",
        {"hex": b.hex, "fp": tot, "breakdown": fp_parts(parts), "requirement": need},
        att.seat,
        hex=b.hex,
        fp=tot,
        requirement=need,
        won=won,
        breakdown=fp,
    )
    if won and ex is not None and tile is not None:
        del g.s.exploration[b.hex]
        goods = {k: v for k, v in tile.reward_goods.items() if k != "any"}
        if goods:
            g.gain(att.seat, goods, term_ref("exploration", ex.tile))
        if tile.reward_vp:
            g.p(att.seat).kept_tiles.append(ex.tile)
            g.emit(
                "keep_tile",
                {
                    "who": g.name(att.seat),
                    "tile": term_ref("exploration", ex.tile),
                    "vp": tile.reward_vp,
                },
                att.seat,
                tile=ex.tile,
            )
        else:
            g.s.removed_exploration.append(ex.tile)
    _discard_battle_cards(g, b)
    g.s.combat = None


# ============================================================================ answers


def keep_unit(g: Context, a: A.KeepUnit, pend: Pending) -> None:
    units = list(pend.data.get("units", []))
    if a.unit not in units:
        raise IllegalAction.of("R-COMBAT-5", "error.combat.keep", units=units)
    _sepe(g, a.seat, units, a.unit)


def retreat_to(g: Context, a: A.RetreatTo, pend: Pending) -> None:
    units = list(pend.data.get("units", []))
    choices = list(pend.data.get("choices", []))
    if a.at is None:
        _to_reserve(g, a.seat, units)
        g.emit(
            "defeated",
            {"who": g.name(a.seat), "n": len(units)},
            a.seat,
            units=units,
        )
        return
    if a.at not in choices:
        raise IllegalAction.of("R-COMBAT-5", "error.combat.retreat", hexes=choices)
    place_units(g, a.seat, list(units), a.at)
    g.emit("retreat", {"who": g.name(a.seat), "hex": a.at}, a.seat, units=units, hex=a.at)


def war_card(g: Context, a: A.WarCard, pend: Pending) -> None:
    if not a.play:
        return
    p = g.p(a.seat)
    if "war" not in p.gold_cards:
        raise IllegalAction.of("R-TURN-4", "error.combat.no_war", card=term_ref("gold_card", "war"))
    card = g.cat.gold_cards["war"]
    g.s.discard_card(a.seat, "gold", "war")
    g.emit(
        "gold_card",
        {
            "who": g.name(a.seat),
            "card": term_ref("gold_card", "war"),
            "card_text": text_ref("gold_card", "war"),
        },
        a.seat,
        card="war",
    )
    why = term_ref("gold_card", "war")
    g.gain(a.seat, {k: int(v) for k, v in card.params.get("get", {}).items()}, why)
    n = int(card.params.get("combat_cards", 0))
    if n:
        g.draw_combat(a.seat, n, why)


def answers(g: Context, seat: int, pend: Pending) -> Iterator[Any]:
    k = pend.kind
    if k == "combat_cards":
        yield from commit_options(g, seat)
    elif k == "sepe_keep":
        for u in pend.data.get("units", []):
            yield A.KeepUnit(seat=seat, unit=u)
    elif k == "retreat":
        yield A.RetreatTo(seat=seat)
        for h in pend.data.get("choices", []):
            yield A.RetreatTo(seat=seat, at=h)
    elif k == "war_card":
        if "war" in g.p(seat).gold_cards:
            yield A.WarCard(seat=seat, play=True)
        yield A.WarCard(seat=seat, play=False)
