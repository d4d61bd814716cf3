"""Missions, eras and palaces (RULES.md §6–7): revealing missions, advancing the era,
flipped era tokens and Coroados, palace placement and bonuses, Isabel of Brazil."""

from __future__ import annotations

from rules.brazil import actions as A
from rules.brazil.catalog import ARCHES
from rules.brazil.control import controls
from rules.brazil.game import ROMAN, Context, parse_hex
from rules.brazil.messages import Param, msg, term_ref
from rules.brazil.scoring import mission_complete
from rules.brazil.state import Pending
from rules.brazil.turn import manufacture_problem, place_product, product_destinations
from rules.errors import IllegalAction, InvalidAction, RulesError
from rules.fastcopy import replaced

SQUARE_FOR_PALACE_II = "square"


ERA_I_SIDES = ("sawmill", "trading_post", "sugar_field", "farm")


def reveal_mission(g: Context, a: A.RevealMission) -> None:
    s = g.s
    seat = a.seat
    p = g.p(seat)
    if a.mission not in g.cat.missions:
        raise InvalidAction.of("R-MISSION-1", "error.unknown.mission", id=a.mission)
    g.require(a.mission in p.missions, "R-MISSION-1", "error.mission.not_held")
    m = g.cat.missions[a.mission]
    g.require(
        m.era <= s.era,
        "R-MISSION-2",
        "error.mission.era",
        era=ROMAN[m.era],
        now=ROMAN[s.era],
    )
    g.require(
        mission_complete(s, seat, a.mission),
        "R-MISSION-1",
        "error.mission.incomplete",
        mission=term_ref("mission", a.mission),
    )
    p.missions.remove(a.mission)
    p.revealed.append(a.mission)
    vp = m.vp if m.era < 3 else sum(o.vp for o in m.objectives)
    g.emit(
        "mission",
        {
            "who": g.name(seat),
            "era": ROMAN[m.era],
            "mission": term_ref("mission", a.mission),
            "vp": vp,
        },
        seat,
        mission=a.mission,
    )
    if p.monarch == "dom_oba_ii" and len(p.revealed) <= int(
        g.cat.monarchs["dom_oba_ii"].params.get("missions", 2)
    ):
        g.gain(
            seat,
            {"science": int(g.cat.monarchs["dom_oba_ii"].params.get("science", 1))},
            term_ref("monarch", "dom_oba_ii"),
        )
    if palace_options(g, seat):
        g.push(seat, "place_palace", front=True)
    else:
        g.emit("no_palace.none_left", {"who": g.name(seat)}, seat)
    if m.era == s.era:
        if s.era < 3:
            _advance_era(g, seat)
        elif not s.end_triggered:
            s.end_triggered = True
            g.emit(
                "end_triggered",
                {},
                seat,
            )


def _advance_era(g: Context, revealer: int) -> None:
    """R-ERA-2: every player flips the previous token and puts it under a free arch."""
    s = g.s
    old = s.era
    s.era += 1
    g.emit(
        f"era.{s.era}",
        {"old": ROMAN[old]},
        revealer,
        era=s.era,
    )
    order = [(revealer + i) % s.n for i in range(s.n)]
    for seat in order:
        # The old token leaves its arch (so does an Import/Trade tactical advantage); the
        # first action with the new token may be any arch (R-TURN-2).
        g.p(seat).token_arch = None
        g.push(seat, "place_era_token", blocking=(seat == s.current), token=old)


def era_token_options(g: Context, seat: int) -> list[str]:
    p = g.p(seat)
    out = [arch for arch in ARCHES if arch not in p.under]
    if "coroados" in p.paintings and p.coroados is None:
        out.append("coroados")
    return out


def place_era_token(g: Context, a: A.PlaceEraToken, pend: Pending) -> None:
    tok = int(pend.data.get("token", 1))
    opts = era_token_options(g, a.seat)
    if a.arch not in opts:
        raise IllegalAction.of("R-ERA-2", "error.era.token_arch", arches=list[Param](opts))
    if a.arch == "coroados":
        _to_coroados(g, a.seat, tok)
    else:
        g.p(a.seat).under[a.arch] = tok
        g.emit(
            "era_token",
            {"who": g.name(a.seat), "token": ROMAN[tok], "arch": term_ref("arch", a.arch)},
            a.seat,
            arch=a.arch,
            token=tok,
        )


def _to_coroados(g: Context, seat: int, tok: int) -> None:
    p = g.p(seat)
    p.coroados = tok
    g.emit(
        "coroados",
        {"who": g.name(seat), "token": ROMAN[tok]},
        seat,
        token=tok,
    )
    if tok == 2:
        g.draw_gold(
            seat,
            int(g.cat.paintings["coroados"].params.get("token2_gold_cards", 2)),
            term_ref("painting", "coroados"),
        )


def use_coroados(g: Context, a: A.Coroados) -> None:
    p = g.p(a.seat)
    g.require(
        "coroados" in p.paintings,
        "R-ERA-4",
        "error.era.no_coroados",
        painting=term_ref("painting", "coroados"),
    )
    g.require(
        p.coroados is None,
        "R-ERA-4",
        "error.era.coroados_full",
        painting=term_ref("painting", "coroados"),
    )
    arch = next((k for k, v in p.under.items() if v == a.token), None)
    g.require(arch is not None, "R-ERA-4", "error.era.no_token", token=a.token)
    assert arch is not None
    del p.under[arch]
    _to_coroados(g, a.seat, a.token)


def _palace_problem(g: Context, seat: int, palace: int, at: str) -> RulesError | None:
    why = _palace_reason(g, seat, palace, at)
    return None if why is None else IllegalAction.of(why[0], why[1], **why[2])


def _palace_reason(
    g: Context, seat: int, palace: int, at: str
) -> tuple[str, str, dict[str, Param]] | None:
    """What :func:`_palace_problem` raises, as its parts (rule, key, params; no message
    rendered): the listing asks only whether there is one."""
    p = g.p(seat)
    if palace not in p.palaces or palace == 1:
        return ("R-PALACE-1", "error.palace.not_held", dict(palace=ROMAN.get(palace, palace)))
    t = g.s.tiles.get(at)
    if t is None or t.owner != seat or not controls(g.s, seat, at):
        return ("R-PALACE-1", "error.palace.tile", dict(hex=at))
    if t.palace is not None:
        return ("R-PALACE-1", "error.palace.taken", dict(hex=at))
    ok = {
        2: t.kind == "building" and t.id in ERA_I_SIDES,
        3: t.kind == "city" or (t.kind == "building" and g.cat.building_era(t.id) <= 2),
        4: t.kind == "building" and t.id == "cotton_plantation",
        5: t.kind == "building" and t.id == "farm",
        6: t.kind == "city",
    }[palace]
    if not ok:
        return (
            "R-PALACE-2",
            "error.palace.where",
            dict(palace=ROMAN[palace], need=f"@error.palace_on.{palace}"),
        )
    return None


def palace_options(g: Context, seat: int) -> list[tuple[int, str]]:
    p = g.p(seat)
    return [
        (pal, h)
        for pal in p.palaces
        if pal != 1
        for h, t in g.s.tiles.items()
        if t.owner == seat and _palace_reason(g, seat, pal, h) is None
    ]


def _do_palace(g: Context, seat: int, palace: int, at: str) -> None:
    p = g.p(seat)
    p.palaces.remove(palace)
    g.s.tiles[at] = replaced(g.s.tiles[at], palace=palace)
    g.emit(
        "palace",
        {"who": g.name(seat), "palace": ROMAN[palace], "hex": at},
        seat,
        palace=palace,
        hex=at,
    )
    if palace == 2:
        g.gain(seat, {"sugar_cane": 1}, msg("phrase.why.palace", palace="II"))
        if any(
            g.cat.products[x].shape == "square" and product_destinations(g, seat, x)
            for x in p.products
        ):
            g.push(seat, "free_manufacture", front=True)
    elif palace == 3:
        g.draw_gold(seat, 1, msg("phrase.why.palace", palace="III"))
    elif palace == 4:
        g.gain(seat, {"cotton": 1}, msg("phrase.why.palace", palace="IV"))
    elif palace == 6:
        g.draw_combat(seat, 1, msg("phrase.why.palace", palace="VI"))


def place_palace(g: Context, a: A.PlacePalace, pend: Pending) -> None:
    if a.palace is None:
        g.emit("no_palace.declined", {"who": g.name(a.seat)}, a.seat)
        return
    at = parse_hex(g, a.at or "")
    err = _palace_problem(g, a.seat, a.palace, at)
    if err:
        raise err
    _do_palace(g, a.seat, a.palace, at)


def use_isabel(g: Context, a: A.IsabelPalace) -> None:
    p = g.p(a.seat)
    isabel = term_ref("painting", "isabel_of_brazil")
    g.require(
        "isabel_of_brazil" in p.paintings, "R-PALACE-1", "error.palace.no_isabel", painting=isabel
    )
    g.require(
        not p.counters.get("isabel"), "R-PALACE-1", "error.palace.isabel_used", painting=isabel
    )
    at = parse_hex(g, a.at)
    err = _palace_problem(g, a.seat, a.palace, at)
    if err:
        raise err
    p.counters["isabel"] = 1
    _do_palace(g, a.seat, a.palace, at)


def free_manufacture(g: Context, a: A.FreeManufacture, pend: Pending) -> None:
    if a.product is None:
        g.emit("decline", {"who": g.name(a.seat)}, a.seat)
        return
    err = manufacture_problem(g, a.seat, a.product, a.to or "")
    if err:
        raise err
    g.require(
        g.cat.products[a.product].shape == SQUARE_FOR_PALACE_II,
        "R-PALACE-2",
        "error.palace.square",
    )
    place_product(g, a.seat, a.product, a.to or "", msg("phrase.why.palace_free", palace="II"))
