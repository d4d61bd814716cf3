"""The movement phase (RULES.md §5): free and extra moves, transport, water, battles
started by moving or bombarding, expeditions, and the end of a turn and of the game (§10,
solo §12). Reveals and peeks are in :mod:`rules.brazil.exploration`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any, Literal

from rules.brazil import actions as A
from rules.brazil import combat as C
from rules.brazil.control import controller, controls
from rules.brazil.exploration import reveal
from rules.brazil.game import Context, parse_hex, require_step
from rules.brazil.messages import Param, term_ref
from rules.brazil.scoring import final_scores
from rules.brazil.state import ENEMY, GameState, Turn
from rules.brazil.turn import deploy_targets
from rules.errors import IllegalAction, InvalidAction, RulesError


def _transport(g: Context, seat: int, unit: str) -> bool:
    p = g.p(seat)
    ability = g.cat.units[f"{p.colour}.{unit}"].ability
    return ability == "transport" or (unit == "monarch" and "guaicurus" in p.paintings)


def move_problem(
    g: Context, seat: int, unit: str, to: str, kind: str, carry: tuple[str, ...]
) -> RulesError | None:
    """Why ``seat`` may not move ``unit`` to ``to`` now (None if it may), R-MOVE-1..4."""
    s = g.s
    p = g.p(seat)
    t = s.turn
    if unit not in p.units:
        return InvalidAction.of("R-MOVE-1", "error.unit.unknown", unit=unit)
    src = p.units[unit]
    if src in ("board", "reserve"):
        return IllegalAction.of("R-MOVE-1", "error.move.off_map")
    if kind == "free" and t.free_move:
        return IllegalAction.of("R-TURN-3", "error.move.free_done")
    extra = g.cat.arches[t.arch].extra_move if t.arch else None
    if kind == "extra":
        if t.extra_move:
            return IllegalAction.of("R-TURN-3", "error.move.extra_done")
        if extra is None or extra == "tactical":
            return IllegalAction.of("R-MOVE-3", "error.move.no_extra")
    if to == src:
        return IllegalAction.of("R-MOVE-1", "error.move.same_hex")
    adjacent = to in g.board.neighbours[src]
    if (kind == "free" or extra != "capital") and not adjacent:
        return IllegalAction.of("R-MOVE-1", "error.hex.not_adjacent", hex=to, src=src)
    water = g.board.is_water(src) or g.board.is_water(to)
    if water and not (kind == "free" or extra == "edge"):
        return IllegalAction.of("R-MOVE-4", "error.move.water")
    if kind == "extra":
        if extra == "capital":
            if to not in deploy_targets(g, seat):
                return IllegalAction.of("R-MOVE-3", "error.move.extra_recruit", hex=to)
        elif extra == "forest":
            if g.terrain(to) != "forest":
                return IllegalAction.of("R-MOVE-3", "error.move.extra_painting", hex=to)
        elif extra == "own_tile":
            tile = s.tiles.get(to)
            # a capital counts as a city except in combat [seed FR p. 6]
            if tile is None or not controls(g.s, seat, to):
                return IllegalAction.of("R-MOVE-3", "error.move.extra_build", hex=to)
        elif extra == "edge":
            if src not in g.board.edge or to not in g.board.edge:
                return IllegalAction.of("R-MOVE-3", "error.move.extra_renovate")
        elif extra == "gold_mine" and g.terrain(to) != "gold_mine":
            return IllegalAction.of("R-MOVE-3", "error.move.extra_manufacture", hex=to)
    dest = s.tiles.get(to)
    if (
        dest is not None
        and dest.kind == "capital"
        and dest.owner != seat
        and not (s.solo and dest.owner == ENEMY)
    ):
        return IllegalAction.of("R-MOVE-1", "error.move.capital")
    if carry:
        if not _transport(g, seat, unit):
            return IllegalAction.of("R-MOVE-2", "error.move.transport")
        for c in carry:
            if c == unit or c not in p.units or p.units[c] != src:
                return IllegalAction.of("R-MOVE-2", "error.move.carry", unit=c, hex=src)
        if len(set(carry)) != len(carry):
            return InvalidAction.of("R-MOVE-2", "error.move.twice")
    return None


def move(g: Context, a: A.Move) -> None:
    seat = a.seat
    require_step(g, "movement", "R-TURN-3", "@error.doing.move")
    to = parse_hex(g, a.to)
    err = move_problem(g, seat, a.unit, to, a.kind, a.carry) if g.checked else None
    if err:
        raise err
    p = g.p(seat)
    src = p.units[a.unit]
    units = [a.unit, *a.carry]
    if a.kind == "free":
        g.s.turn.free_move = True
    else:
        g.s.turn.extra_move = True
    names: list[Param] = [term_ref("unit", f"{p.colour}.{u}") for u in units]
    if C.defender_of(g, seat, to) is not None:
        # R-MOVE-5: entering an opponent's unit, building or city starts a battle at once.
        C.start_move_battle(g, seat, units, src, to, a.kind)
        return
    C.place_units(g, seat, units, to)
    g.emit(
        f"move.{a.kind}",
        {"who": g.name(seat), "units": names, "src": src, "to": to},
        seat,
        units=units,
        src=src,
        to=to,
        move=a.kind,
    )
    ex = g.s.exploration.get(to)
    if ex is not None and not ex.face_up and reveal(g, seat, to):
        # R-EXPLORE-3: the revealing unit(s) must fight the expedition at once.
        C.start_expedition(g, seat, units, to, src)


def bombard(g: Context, a: A.Bombard) -> None:
    require_step(g, "movement", "R-MOVE-6", "@error.doing.bombard")
    at = parse_hex(g, a.at)
    err = C.bombard_problem(g, a.seat, a.unit, at)
    if err:
        raise err
    C.start_bombard(g, a.seat, a.unit, at)


def expedition(g: Context, a: A.Expedition) -> None:
    require_step(g, "movement", "R-EXPLORE-3", "@error.doing.expedition")
    at = parse_hex(g, a.at)
    err = C.expedition_problem(g, a.seat, at)
    if err:
        raise err
    g.s.turn.free_move = True
    C.start_expedition(g, a.seat, C.expedition_units(g, a.seat, at), at, at)


def end_turn(g: Context, a: A.EndTurn) -> None:
    s = g.s
    require_step(g, "movement", "R-TURN-1", "ending the turn")
    last = (s.first_player - 1) % s.n
    rounds_over = s.max_rounds is not None and s.round >= s.max_rounds
    if s.current == last and (s.end_triggered or rounds_over):
        finish_game(g)
        return
    s.current = (s.current + 1) % s.n
    if s.current == s.first_player:
        s.round += 1
    s.turn = Turn()
    g.emit("turn", {"round": s.round, "who": g.name(s.current)}, s.current, round=s.round)


def solo_won(state: GameState) -> bool:
    """R-SOLO-2: era III reached, all 5 units on the map, the enemy capital captured."""
    if not state.solo:
        return False
    p = state.players[0]
    on_map = all(loc not in ("board", "reserve") for loc in p.units.values())
    return state.era >= 3 and on_map and bool(p.units) and state.solo_captured


def finish_game(g: Context) -> None:
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
            "solo_result.won" if won else "solo_result.lost",
            {"rounds": s.round},
            0,
            won=won,
        )
    s.result = dict(res)
    for row in res["scores"]:
        g.emit(
            "score", {"who": g.name(row["seat"]), "vp": row["total"]}, row["seat"], breakdown=row
        )
    g.emit(
        "game_over",
        {"winners": [g.name(w) for w in res["winners"]], "n": len(res["winners"])},
        winners=res["winners"],
    )


# the listing's constructor of moves (A.trusted_maker: no per-field __setattr__)
_MOVE = A.trusted_maker(A.Move, "seat", "unit", "to", "kind", "carry")


def move_actions(g: Context, seat: int) -> Iterator[Any]:
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
        return iter(())
    tiles = s.tiles
    board = g.board
    terrain = board.terrain
    solo = s.solo
    targets = deploy_targets(g, seat) if "extra" in kinds and extra == "capital" else []

    def enterable(to: str) -> bool:
        # R-MOVE-1: no unit enters an opponent's capital (the solo game's enemy capital aside)
        dest = tiles.get(to)
        return (
            dest is None
            or dest.kind != "capital"
            or dest.owner == seat
            or (solo and dest.owner == ENEMY)
        )

    def extra_ok(src: str, to: str, src_water: bool) -> bool:
        # move_problem's checks of an extra move without carried units that the listing's
        # destinations do not already meet (R-MOVE-3/4)
        if (src_water or terrain.get(to) == "water") and extra != "edge":
            return False
        if extra == "forest" or extra == "gold_mine":
            if (terrain[to] if to not in tiles else "building") != extra:
                return False
        elif extra == "own_tile":
            tile = tiles.get(to)
            if tile is None or controller(tile, g.pay.where().get(to)) != seat:
                return False
        elif extra == "edge" and (src not in board.edge or to not in board.edge):
            return False
        return enterable(to)

    # the destinations a unit may move to from a hex by a kind of move: the checks look at
    # the hexes only, not at the unit, so they are made once a (hex, kind), not once a unit
    open_from: dict[tuple[str, str], list[str]] = {}
    out: list[A.Move] = []
    for u, src in p.units.items():
        if src in ("board", "reserve"):
            continue
        carries: list[tuple[str, ...]] = [()]
        if _transport(g, seat, u):
            others = [o for o, loc in p.units.items() if loc == src and o != u]
            carries = [c for k in range(len(others) + 1) for c in combinations(others, k)]
        for kind in kinds:
            dests = open_from.get((src, kind))
            if dests is None:
                if kind == "free":
                    # a free move to a neighbour, water allowed: of move_problem's checks only
                    # the opponent's capital is left to fail (R-MOVE-1)
                    dests = [to for to in board.neighbours[src] if enterable(to)]
                else:
                    src_water = terrain.get(src) == "water"
                    cands = (
                        [h for h in targets if h != src]
                        if extra == "capital"
                        else board.neighbours[src]
                    )
                    dests = [to for to in cands if extra_ok(src, to, src_water)]
                open_from[(src, kind)] = dests
            if len(carries) == 1:
                out += [_MOVE(seat, u, to, kind, ()) for to in dests]
            else:
                for to in dests:
                    for c in carries:
                        out.append(_MOVE(seat, u, to, kind, c))
    return iter(out)


_EXPEDITION = A.trusted_maker(A.Expedition, "seat", "at")
_BOMBARD = A.trusted_maker(A.Bombard, "seat", "unit", "at")


def attack_actions(g: Context, seat: int) -> Iterator[Any]:
    p = g.p(seat)
    exploration = g.s.exploration
    done: set[str] = set()
    for u, src in p.units.items():
        if src in ("board", "reserve"):
            continue
        # an expedition is fought on a face-up tile only: expedition_reason's first check,
        # made without building its refusal for every other hex
        ex = exploration.get(src)
        if (
            ex is not None
            and ex.face_up
            and src not in done
            and C.expedition_reason(g, seat, src) is None
        ):
            done.add(src)
            yield _EXPEDITION(seat, src)
        if g.cat.units[f"{p.colour}.{u}"].ability == "bombard":
            for nb in g.board.neighbours[src]:
                if C.bombard_reason(g, seat, u, nb) is None:
                    yield _BOMBARD(seat, u, nb)
