"""Reading the public state for drawing: names, pieces, whose turn, what changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from render.theme import ROMAN
from render.words import Words, words
from rules.brazil import deciders, get_catalog
from rules.brazil.catalog import Catalog
from rules.brazil.events import Event
from rules.brazil.state import ENEMY, GameState

HIDDEN = "?"


def catalog(v: GameState) -> Catalog:
    return get_catalog(v.data_pack)


def colour_of(v: GameState, seat: int) -> str | None:
    if seat == ENEMY:
        return catalog(v).maps[v.map].enemy_colour
    if 0 <= seat < v.n:
        return v.players[seat].colour
    return None


def seat_name(v: GameState, seat: int, t: Words | None = None, *, short: bool = False) -> str:
    """ "Blue (B)" — colour name and its letter, as players refer to each other (``short``:
    the colour's short name, for narrow boxes)."""
    t = t or words()
    if seat == ENEMY:
        return t("render.seat.enemy")
    c = colour_of(v, seat)
    if c is None:
        return t("render.seat.number", n=seat + 1)
    return t("render.seat.name", colour=t.colour(c, short=short), letter=t.colour_initial(c))


def scenario_name(v: GameState, t: Words) -> str:
    m = catalog(v).maps[v.map]
    return t.term("scenario", v.map, m.name)


@dataclass(frozen=True)
class Piece:
    seat: int
    colour: str | None
    uid: str
    name: str
    fp: int
    glyph: str


UNIT_KINDS = ("basic", "transport", "bombard", "founder")


def unit_glyph(ability: str, fp: int, t: Words) -> str:
    """A unit's mark: its kind's initial in the language (``render.initial.unit.*``: a
    soldier, a transport, a bombard, a monarch) and its force points."""
    kind = ability if ability in UNIT_KINDS else "basic"
    return f"{t.initial('unit', kind)}{fp}"


def pieces_by_hex(v: GameState, t: Words | None = None) -> dict[str, list[Piece]]:
    """Units standing on the map, per hex, in a stable order (marked in ``t``'s language)."""
    t = t or words()
    cat = catalog(v)
    out: dict[str, list[Piece]] = {}
    owners: list[tuple[int, str | None, dict[str, str]]] = [
        (p.seat, p.colour, p.units) for p in v.players
    ]
    if v.enemy_units:
        owners.append((ENEMY, colour_of(v, ENEMY), v.enemy_units))
    for seat, colour, units in owners:
        for uid, loc in sorted(units.items()):
            if loc in ("board", "reserve") or colour is None:
                continue
            u = cat.units.get(f"{colour}.{uid}")
            if u is None:
                continue
            out.setdefault(loc, []).append(
                Piece(seat, colour, uid, u.name, u.vp, unit_glyph(u.ability, u.vp, t))
            )
    return out


def occupier(v: GameState, hex_: str, pieces: dict[str, list[Piece]]) -> int | None:
    """The seat whose units stand on someone else's tile (R-COMBAT-10)."""
    t = v.tiles.get(hex_)
    if t is None:
        return None
    for pc in pieces.get(hex_, []):
        if pc.seat != t.owner:
            return pc.seat
    return None


def to_play(v: GameState) -> list[int]:
    if v.phase == "ended":
        return []
    try:
        return list(deciders(v))
    except Exception:  # a view with masked fields: fall back to the active seat
        return [v.current]


def era_numeral(era: int) -> str:
    return ROMAN[era] if 0 < era < len(ROMAN) else str(era)


def title_line(v: GameState, t: Words | None = None) -> str:
    t = t or words()
    name = scenario_name(v, t)
    if v.phase == "setup":
        return t("render.title.setup", scenario=name)
    return t("render.title.play", scenario=name, era=era_numeral(v.era), round=v.round)


def winners_names(v: GameState, winners: list[int], t: Words) -> str:
    """ "Blue (B) and Red (R)", or "nobody"."""
    names = [seat_name(v, w, t) for w in winners]
    return t.names(names) if names else t("render.nobody")


def status_line(v: GameState, t: Words | None = None) -> str:
    t = t or words()
    if v.phase == "ended":
        winners = list((v.result or {}).get("winners", []))
        return t("render.status.over", names=winners_names(v, winners, t))
    seats = to_play(v)
    if not seats:
        return ""
    return t("render.status.to_play", who=[seat_name(v, s, t) for s in seats])


@dataclass
class Changes:
    """What the last turn changed on the map: arrows (src, to) and marked hexes."""

    moves: list[tuple[str, str]]
    hexes: list[str]
    battles: list[str]


_MARK_KINDS = {
    "build",
    "flip",
    "renovate",
    "capital",
    "palace",
    "deploy",
    "occupy",
    "explore",
    "removed",
    "monarch_power",
    "expedition",
    "expedition_result",
}


def changes(events: list[Event], seat: int | None, valid: set[str]) -> Changes:
    """Read the events a seat may see; keys that are missing or unknown are skipped."""
    moves: list[tuple[str, str]] = []
    hexes: list[str] = []
    battles: list[str] = []

    def label(x: Any) -> str | None:
        return x if isinstance(x, str) and x in valid else None

    for e in events:
        if not e.visible(seat):
            continue
        d = e.data
        if e.kind in ("move", "retreat"):
            a, b = label(d.get("src")), label(d.get("to"))
            if a and b and a != b and (a, b) not in moves:
                moves.append((a, b))
            elif b and b not in hexes:
                hexes.append(b)
        elif e.kind in ("battle", "battle_result"):
            h = label(d.get("hex"))
            if h and h not in battles:
                battles.append(h)
        elif e.kind in _MARK_KINDS:
            h = label(d.get("hex"))
            if h and h not in hexes:
                hexes.append(h)
    return Changes(moves, hexes, battles)
