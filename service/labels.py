"""The game's words for menus and buttons: a legal action as a person reads it.

A command of the notation (``keep I-3 II-7 III-4``, ``monarch queen_victoria``,
``build sawmill D3``) is what a player types; a menu shows names instead: the catalog's names
of missions, monarchs, buildings, cards, units, colours and goods, hexes with what stands
there. :func:`action_label` gives one :class:`Label` (a short ``text`` and a longer
``description``, each at most 100 characters: Discord's limits for a menu option), and
:func:`group_label` one for a menu group (the guided turn groups commands by their first
words: ``build sawmill`` … reads "Build: Sawmill").

Pure: a function of a state and an action. Everything is read from ``view(state, seat)``,
the seat that decides: a label never names what that seat may not see (others' cards and
missions, face-down exploration tiles it did not peek at, the capital tiles before the
reveal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import (
    GameState,
    cost_of,
    default_payment,
    format_action,
    get_catalog,
    legal_actions,
    payment_note,
    view,
)
from rules.catalog import Catalog, Objective

MAX_TEXT = 100  # Discord: an option's label and description

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}

# A command's first word as a menu reads it (a group of commands that start with it).
VERBS: dict[str, str] = {
    "colour": "Colour",
    "keep": "Keep missions",
    "monarch": "Monarch",
    "capital": "Capital at",
    "recruit": "Recruit",
    "painting": "Painting",
    "build": "Build",
    "renovate": "Renovate",
    "manufacture": "Manufacture",
    "import": "Import",
    "trade": "Trade",
    "exchange": "Exchange",
    "end": "End",
    "pass": "Pass the action",
    "move": "Move",
    "peek": "Peek at",
    "bombard": "Bombard with",
    "expedition": "Expedition at",
    "mission": "Reveal mission",
    "gold": "Gold card",
    "coroados": "Coroados",
    "isabel": "Isabel's palace",
    "palace": "Palace",
    "free": "Free manufacture",
    "token": "Era token",
    "discard": "Discard",
    "good": "Good",
    "era": "Mission of era",
    "deck": "Painting deck",
    "cards": "Commit combat cards",
    "keep-unit": "Keep unit",
    "retreat": "Retreat",
    "war": "War card",
}
# Verbs whose head reads on into the first argument ("Peek at D7"): no colon.
_RUN_ON = frozenset({"capital", "peek", "bombard", "expedition", "era"})

_EXCHANGE = {  # R-TRADE-1: what is given and what it brings
    "gold": "1 crop → 1 gold",
    "pair": "2 crops → 2 gold + a gold card",
    "four": "4 crops → gold + science + a gold card",
    "cards": "2 combat cards → gold + a gold card",
}


@dataclass(frozen=True)
class Label:
    """An action or a menu group as a menu shows it: ``text`` (the option's label) and
    ``description`` (the line under it), each at most 100 characters."""

    text: str
    description: str = ""


@dataclass(frozen=True)
class Part:
    """One word of a command and what it means: ``name`` (empty: nothing to read, e.g.
    ``trade`` in ``end trade``), put after ``sep`` when the parts are read in a row."""

    word: str
    name: str
    sep: str = " "


@dataclass(frozen=True)
class Choice:
    """One legal action of the decider for a menu: its number in the engine's listing
    (``index``), its command (``command``, what the player may type), its :class:`Label`,
    and the meaning of each word of the command (``parts``: for the menu groups)."""

    index: int
    command: str
    label: Label
    parts: tuple[Part, ...]
    action: Any = field(default=None, compare=False, repr=False)  # the engine's action


def clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plural(n: int, word: str, many: str | None = None) -> str:
    if many is None:
        many = (
            word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
        )
    return f"{n} {word if n == 1 else many}"


def _good(g: str) -> str:
    return "any resource" if g == "any" else g.replace("_", " ").replace("|", " or ")


def _goods(items: Sequence[str]) -> str:
    return " + ".join(_good(g) for g in items)


def _goods_map(d: dict[str, int]) -> str:
    return ", ".join(f"{n} {_good(g)}" for g, n in d.items() if n)


def objective_text(cat: Catalog, o: Objective) -> str:
    """One mission objective in a few words (``2 sawmills``, ``1 octagon product``)."""
    n = o.count
    if o.kind == "buildings":
        what = cat.sides[o.type].name.lower() if o.type in cat.sides else "building"
        s = _plural(n, what)
        if o.era is not None:
            s += f" of era {ROMAN[o.era]}"
    elif o.kind == "cities":
        s = _plural(n, "city", "cities")
    elif o.kind == "products":
        s = _plural(n, f"{o.shape} product" if o.shape else "product")
    elif o.kind == "paintings":
        s = _plural(n, f"{o.frame} painting" if o.frame else "painting")
    elif o.kind == "units_deployed":
        s = _plural(n, "unit") + " deployed"
    elif o.kind == "units_on_map":
        s = _plural(n, "unit") + " on the map"
    elif o.kind == "building_types":
        s = _plural(n, "building type")
    elif o.kind == "upgraded_arches":
        s = _plural(n, "upgraded arch", "upgraded arches")
    elif o.kind == "palaces":
        s = _plural(n, "palace")
    elif o.kind == "occupied":
        s = _plural(n, "occupied tile")
    else:
        s = f"{n} science"
    return s + (f" ({o.vp} VP)" if o.vp else "")


class _Namer:
    """Names of the things a command's words stand for, as ``seat`` sees the game."""

    def __init__(self, v: GameState, seat: int) -> None:
        self.v = v
        self.seat = seat
        self.cat = get_catalog(v.data_pack)

    # ------------------------------------------------------------ components

    def colour(self, c: str | None) -> str:
        if c is None:
            return "?"
        col = self.cat.colours.get(c)
        return col.name.split(" (")[0] if col is not None else c.replace("_", " ").capitalize()

    def seat_name(self, seat: int) -> str:
        if seat < 0:
            return "the orange army"
        p = self.v.players[seat]
        return self.colour(p.colour) if p.colour else f"Seat {seat + 1}"

    def unit(self, u: str, seat: int | None = None) -> str:
        p = self.v.players[self.seat if seat is None else seat]
        spec = self.cat.units.get(f"{p.colour}.{u}")
        if spec is None:
            return u.replace("_", " ").capitalize()
        digit = u[len(u.rstrip("0123456789")) :]
        return f"{spec.name} {digit}" if digit and not spec.name.endswith(digit) else spec.name

    def unit_info(self, u: str) -> str:
        p = self.v.players[self.seat]
        spec = self.cat.units.get(f"{p.colour}.{u}")
        if spec is None:
            return self.unit(u)
        ability = "" if spec.ability == "none" else f", {spec.ability}"
        return f"{self.unit(u)} ({spec.vp} FP{ability})"

    def mission(self, m: str) -> str:
        mis = self.cat.missions.get(m)
        return mis.name if mis is not None else "a mission"

    def mission_info(self, m: str) -> str:
        mis = self.cat.missions.get(m)
        if mis is None:
            return ""
        objs = ", ".join(objective_text(self.cat, o) for o in mis.objectives)
        return f"era {ROMAN[mis.era]}, {mis.vp} VP: {objs}"

    def building(self, b: str) -> str:
        if b in self.cat.sides:
            return self.cat.sides[b].name
        if b in self.cat.cities:
            return self.cat.cities[b].name
        if b in self.cat.capitals:
            return "Capital"
        return b.replace("_", " ").capitalize()

    def building_info(self, b: str) -> str:
        if b in self.cat.sides:
            s = self.cat.sides[b]
            made = _goods_map(s.production)
            return f"{s.vp} VP" + (f", produces {made}" if made else "")
        if b in self.cat.cities:
            return f"city, {self.cat.cities[b].vp} VP"
        return ""

    def product(self, p: str) -> str:
        prod = self.cat.products.get(p)
        return prod.name if prod is not None else _good(p)

    def dest(self, d: str | None) -> str:
        if d == "victoria":
            return "onto Queen Victoria's tile"
        if d == "factory":
            return "onto the Factory"
        if d in self.cat.arches:
            return f"onto the {self.cat.arches[d].name} arch"
        return f"onto {d}"

    def gold_card(self, c: str) -> str:
        card = self.cat.gold_cards.get(c)
        return card.name if card is not None else "a gold card"

    def combat_card(self, c: str) -> str:
        card = self.cat.combat_cards.get(c)
        return card.name if card is not None else "a combat card"

    # ------------------------------------------------------------ the map

    def hex_info(self, h: str | None) -> str:
        """What stands at ``h`` as this seat sees it: terrain, tile, face-down tile, units."""
        if h is None:
            return ""
        v, cat = self.v, self.cat
        board = cat.boards.get(v.map)
        bits = [board.terrain.get(h, "").replace("_", " ") if board is not None else ""]
        tile = v.tiles.get(h)
        if tile is not None:
            owner = self.seat_name(tile.owner)
            if tile.kind == "capital":
                bits.append(f"{owner} capital")
            elif tile.kind == "city":
                bits.append(f"city of {self.building(tile.id)} ({owner})")
            else:
                bits.append(f"{self.building(tile.id)} ({owner})")
            if tile.palace:
                bits.append(f"palace {ROMAN.get(tile.palace, str(tile.palace))}")
        ex = v.exploration.get(h)
        if ex is not None:
            known = cat.exploration.get(ex.tile)
            if ex.face_up and known is not None:
                bits.append(known.name)
            elif known is not None:
                bits.append(f"face-down tile: {known.name} (you peeked)")
            else:
                bits.append("face-down exploration tile")
        for p in v.players:
            here = [self.unit(u, p.seat) for u, at in p.units.items() if at == h]
            if here:
                bits.append(f"{self.seat_name(p.seat)} units: {', '.join(here)}")
        enemy = [u for u, at in v.enemy_units.items() if at == h]
        if enemy:
            bits.append(f"orange army: {_plural(len(enemy), 'unit')}")
        return "; ".join(b for b in bits if b)

    # ------------------------------------------------------------ words of a command

    def parts(self, a: Any) -> list[Part]:
        """Each word of ``format_action(a)`` with its meaning (in the same order)."""
        t = a.type
        P = Part
        out: list[Part]
        if t == "choose_colour":
            out = [P("colour", "Colour"), P(a.colour, self.colour(a.colour))]
        elif t == "keep_missions":
            out = [P("keep", "Keep missions")]
            out += [P(m, self.mission(m), " · " if i else " ") for i, m in enumerate(a.keep)]
        elif t == "choose_monarch":
            m = self.cat.monarchs.get(a.monarch)
            out = [P("monarch", "Monarch"), P(a.monarch, m.name if m else "a monarch")]
        elif t == "choose_capital":
            out = [P("capital", "Capital at"), P(a.at, a.at)]
        elif t == "recruit":
            out = [P("recruit", "Recruit")]
            out += [
                P(f"{d.unit}@{d.to}", f"{self.unit(d.unit)} at {d.to}", ", " if i else " ")
                for i, d in enumerate(a.deploy)
            ]
            sep = ", " if a.deploy else " "
            if a.draw == 1:
                out.append(P("+card", "draw a combat card", sep))
            elif a.draw > 1:
                out.append(P(f"+{a.draw}cards", f"draw {a.draw} combat cards", sep))
        elif t == "painting":
            p = self.cat.paintings.get(a.painting)
            out = [P("painting", "Painting"), P(a.painting, p.name if p else "a painting")]
        elif t == "build":
            verb = "Found the city" if a.building in self.cat.cities else "Build"
            out = [
                P("build", verb),
                P(a.building, self.building(a.building)),
                P(a.at, f"at {a.at}"),
            ]
        elif t == "renovate":
            tile = self.v.tiles.get(a.at)
            what = self.building(tile.id) if tile is not None else "building"
            out = [P("renovate", "Renovate"), P(a.at, f"{what} at {a.at}")]
            if a.flip and tile is not None and tile.id in self.cat.sides:
                other = self.building(self.cat.other_side(tile.id))
                out.append(P("flip", f"flipping it to {other}", ", "))
            elif a.flip:
                out.append(P("flip", "flipping it", ", "))
        elif t == "manufacture":
            out = [
                P("manufacture", "Manufacture"),
                P(a.product, self.product(a.product)),
                P(a.to, self.dest(a.to)),
            ]
        elif t == "import":
            out = [P("import", "Import"), P(a.crop, _good(a.crop))]
        elif t == "trade":
            out = [P("trade", "Trade")]
        elif t == "exchange":
            out = [P("exchange", "Exchange"), P(a.kind, _EXCHANGE.get(a.kind, a.kind))]
            if a.kind == "cards":
                out += [
                    P(c, self.combat_card(c), ", " if i else ": ") for i, c in enumerate(a.give)
                ]
            else:
                out.append(P("+".join(a.give), _goods(a.give), ": "))
        elif t == "end_trade":
            out = [P("end", "End trading"), P("trade", "")]
        elif t == "pass_action":
            out = [P("pass", "Pass the action")]
        elif t == "move":
            out = [P("move", "Move"), P(a.unit, self.unit(a.unit)), P(a.to, f"to {a.to}")]
            if a.kind == "extra":
                out.append(P("extra", "(extra move)"))
            if a.carry:
                out.append(P("carry", "carrying", ", " if a.kind != "extra" else " "))
                out += [P(u, self.unit(u), ", " if i else " ") for i, u in enumerate(a.carry)]
        elif t == "peek":
            out = [P("peek", "Peek at"), P(a.at, a.at)]
        elif t == "bombard":
            out = [P("bombard", "Bombard with"), P(a.unit, self.unit(a.unit)), P(a.at, a.at, ": ")]
        elif t == "expedition":
            out = [P("expedition", "Expedition at"), P(a.at, a.at)]
        elif t == "end_turn":
            out = [P("end", "End turn")]
        elif t == "reveal_mission":
            out = [P("mission", "Reveal mission"), P(a.mission, self.mission(a.mission))]
        elif t == "play_gold_card":
            out = self._gold_parts(a)
        elif t == "coroados":
            out = [P("coroados", "Coroados"), P(str(a.token), f"era token {a.token}")]
        elif t == "isabel_palace":
            out = [
                P("isabel", "Isabel's palace"),
                P(str(a.palace), f"palace {ROMAN.get(a.palace, a.palace)}"),
                P(a.at, f"at {a.at}"),
            ]
        elif t == "place_palace":
            if a.palace is None:
                out = [P("palace", "Palace"), P("none", "place none")]
            else:
                out = [
                    P("palace", "Palace"),
                    P(str(a.palace), ROMAN.get(a.palace, str(a.palace))),
                    P(a.at or "", f"at {a.at}"),
                ]
        elif t == "free_manufacture":
            if a.product is None:
                out = [P("free", "Free manufacture"), P("none", "decline")]
            else:
                out = [
                    P("free", "Free manufacture"),
                    P(a.product, self.product(a.product)),
                    P(a.to or "", self.dest(a.to)),
                ]
        elif t == "place_era_token":
            where = (
                "on Coroados"
                if a.arch == "coroados"
                else f"under the {self.cat.arches[a.arch].name} arch"
                if a.arch in self.cat.arches
                else a.arch
            )
            out = [P("token", "Era token"), P(a.arch, where)]
        elif t == "discard":
            out = [P("discard", "Discard"), P("+".join(a.goods), _goods(a.goods))]
        elif t == "discard_cards":
            name = self.gold_card if a.deck == "gold" else self.combat_card
            out = [P("discard", f"Discard {a.deck} cards")]
            out += [P(c, name(c), ", " if i else " ") for i, c in enumerate(a.cards)]
        elif t == "choose_good":
            out = [P("good", "Good"), P(a.good, _good(a.good))]
        elif t == "choose_era":
            out = [P("era", "Mission of era"), P(str(a.era), ROMAN.get(a.era, str(a.era)))]
        elif t == "choose_deck":
            out = [P("deck", "Painting deck"), P(a.frame, a.frame.capitalize())]
        elif t == "commit_cards":
            out = [P("cards", "Commit combat cards")]
            if a.cards:
                out += [
                    P(c, self.combat_card(c), ", " if i else " ") for i, c in enumerate(a.cards)
                ]
            else:
                out.append(P("none", "none"))
            if a.camp:
                out += [P("camp", "paying the camp", ", "), P("+".join(a.camp), _goods(a.camp))]
        elif t == "keep_unit":
            out = [P("keep-unit", "Keep unit"), P(a.unit, self.unit(a.unit))]
        elif t == "retreat_to":
            where = f"to {a.at}" if a.at is not None else "to the reserve"
            out = [P("retreat", "Retreat"), P(a.at if a.at is not None else "none", where)]
        elif t == "war_card":
            out = [
                P("war", "War card"),
                P("yes" if a.play else "no", "play it" if a.play else "no"),
            ]
        else:  # pragma: no cover - every action type is named above
            out = [P(w, w) for w in format_action(self.v, a).split(" ")]
        pay = getattr(a, "payment", None)
        if pay is not None:
            if not pay:
                out += [P("pay", "paying", ", "), P("nothing", "nothing")]
            else:
                out.append(P("pay", "paying", ", "))
                out += [
                    P(self._pay_word(it), self._pay_name(it), ", " if i else " ")
                    for i, it in enumerate(pay)
                ]
        return [p for p in out if p.word]

    def _gold_parts(self, a: Any) -> list[Part]:
        P = Part
        out = [P("gold", "Gold card"), P(a.card, self.gold_card(a.card))]
        if a.at is not None:
            out.append(P(a.at, f"at {a.at}"))
        dests = ("victoria", "factory", *self.cat.arches)
        to_is_hex = a.to is not None and a.unit is not None and a.to not in dests
        if a.unit is not None:
            if to_is_hex:
                out.append(P(f"{a.unit}@{a.to}", f"{self.unit(a.unit)} at {a.to}", ", "))
            else:
                out.append(P(a.unit, self.unit(a.unit), ", "))
        if a.product is not None:
            out.append(P(a.product, self.product(a.product), ", "))
        if a.to is not None and not to_is_hex:
            out.append(P(a.to, self.dest(a.to)))
        if a.give:
            out.append(P("+".join(a.give), f"giving {_goods(a.give)}", ", "))
        if a.target is not None:
            c = self.v.players[a.target].colour
            out.append(P(c or f"seat{a.target + 1}", f"on {self.seat_name(a.target)}", ", "))
        return out

    @staticmethod
    def _pay_word(it: Any) -> str:
        if it.source == "reserve":
            return str(it.what)
        if it.source == "gold_card":
            return f"gold:{it.what}"
        if it.source == "combat_card":
            return f"combat:{it.what}"
        return f"{it.source}:{it.what}"

    def _pay_name(self, it: Any) -> str:
        if it.source == "gold_card":
            return f"gold card {self.gold_card(it.what)}"
        if it.source == "combat_card":
            return f"combat card {self.combat_card(it.what)}"
        if it.source == "reserve":
            return f"{_good(it.what)} from your reserve"
        tile = self.v.tiles.get(it.source)
        where = f"the {self.building(tile.id)} at {it.source}" if tile else str(it.source)
        return f"{_good(it.what)} from {where}"

    # ------------------------------------------------------------ descriptions

    def description(self, a: Any) -> str:
        """The line under an option: what the chosen things are worth or do."""
        t, cat = a.type, self.cat
        if t == "choose_colour":
            col = cat.colours.get(a.colour)
            if col is None:
                return ""
            monarchs = [
                cat.monarchs[s].name
                for m in col.monarch_tiles
                for s in m.sides
                if s in cat.monarchs
            ]
            units = list(dict.fromkeys(u.name for u in col.units))
            return f"Monarchs: {', '.join(monarchs)}. Units: {', '.join(units)}"
        if t == "keep_missions":
            return " · ".join(self.mission_info(m) for m in a.keep)
        if t == "choose_monarch":
            m = cat.monarchs.get(a.monarch)
            return m.text if m is not None else ""
        if t == "choose_capital":
            cap = self.v.capital_tiles.get(a.at)
            known = cat.capitals.get(cap) if cap else None
            head = f"{known.name}, {_good(known.resource)}" if known is not None else ""
            return "; ".join(b for b in (head, self.hex_info(a.at)) if b)
        if t == "recruit":
            bits = [self.unit_info(d.unit) for d in a.deploy]
            if a.draw:
                bits.append(_plural(a.draw, "combat card") + " drawn")
            return ", ".join(bits)
        if t == "painting":
            p = cat.paintings.get(a.painting)
            return f"{p.vp} VP, {p.frame} frame: {p.text}" if p is not None else ""
        if t == "build":
            return "; ".join(b for b in (self.building_info(a.building), self.hex_info(a.at)) if b)
        if t in ("renovate", "peek", "expedition", "isabel_palace", "place_palace"):
            return self.hex_info(a.at)
        if t in ("manufacture", "free_manufacture"):
            prod = cat.products.get(a.product or "")
            return f"{prod.vp} VP, {prod.shape}" if prod is not None else ""
        if t == "exchange":
            return f"Trade: {_EXCHANGE.get(a.kind, a.kind)}"
        if t == "move":
            return self.hex_info(a.to)
        if t == "bombard":
            return self.hex_info(a.at)
        if t == "retreat_to":
            return self.hex_info(a.at)
        if t == "reveal_mission":
            return self.mission_info(a.mission)
        if t == "play_gold_card":
            card = cat.gold_cards.get(a.card)
            return card.text if card is not None else ""
        if t == "commit_cards":
            return " · ".join(
                f"{c.name}: {c.text}" for c in (cat.combat_cards.get(i) for i in a.cards) if c
            )
        if t == "discard_cards":
            book: dict[str, Any] = cat.gold_cards if a.deck == "gold" else cat.combat_cards
            return " · ".join(f"{book[c].name}: {book[c].text}" for c in a.cards if c in book)
        if t == "keep_unit":
            return self.unit_info(a.unit)
        if t == "end_turn":
            return "Nothing more this turn"
        return ""


def read_parts(parts: Sequence[Part], *, head: bool = True) -> str:
    """The parts read in a row: ``Build: Sawmill at D3``."""
    if not parts:
        return ""
    first, rest = parts[0], [p for p in parts[1:] if p.name]
    if not rest:
        return first.name
    body = rest[0].name + "".join(p.sep + p.name for p in rest[1:])
    if not head:
        return body
    verb = first.word
    return f"{first.name}{' ' if verb in _RUN_ON else ': '}{body}"


def _label_of(n: _Namer, a: Any) -> tuple[Label, tuple[Part, ...]]:
    parts = tuple(n.parts(a))
    return Label(clip(read_parts(parts)), clip(n.description(a))), parts


def action_label(state: GameState, action: Any, seat: int | None = None) -> Label:
    """``action`` as a menu names it for ``seat`` (default: the action's own seat, the one
    who decides it), from what that seat sees."""
    who = int(action.seat) if seat is None else seat
    return _label_of(_Namer(view(state, who), who), action)[0]


def choices(state: GameState, seat: int, actions: Sequence[Any] | None = None) -> list[Choice]:
    """The legal actions of ``seat`` (``actions``: that listing when already made) as menu
    choices, in the engine's order: each with its command and its label."""
    acts = legal_actions(state, seat) if actions is None else actions
    if not acts:
        return []
    n = _Namer(view(state, seat), seat)
    out = []
    for i, a in enumerate(acts):
        label, parts = _label_of(n, a)
        out.append(Choice(i, format_action(state, a), label, parts, a))
    return out


def group_label(members: Sequence[Choice], prefix: str, *, cut: bool = False) -> Label:
    """The label of a menu group: the choices ``members``, whose commands start with
    ``prefix`` (whole words; ``cut``: its last word is only the first letter of the next
    word, e.g. ``peek D``). ``build sawmill`` reads "Build: Sawmill"; a cut word lists the
    names it stands for ("Peek at D3, D4, D7")."""
    words = prefix.strip().split()
    if not members or not words:
        return Label(clip(prefix.strip()))
    verb = words[0]
    k = len(words) - (1 if cut else 0)  # the whole words of the prefix
    if k == 0:
        verbs = dict.fromkeys(m.parts[0].word for m in members if m.parts)
        text = ", ".join(VERBS.get(w, w.capitalize()) for w in verbs)
    else:
        first = members[0]
        named = [Part(verb, VERBS.get(verb, verb.capitalize())), *first.parts[1:k]]
        text = read_parts(named)
        if cut:
            nxt = dict.fromkeys(
                m.parts[k].name for m in members if len(m.parts) > k and m.parts[k].name
            )
            sep = " " if k > 1 or verb in _RUN_ON else ": "
            text += sep + ", ".join(nxt)
    return Label(clip(text or prefix.strip()), _plural(len(members), "choice"))


def pay_item_text(state: GameState, seat: int, item: Any) -> str:
    """One item of a payment in words (``sugar cane from your reserve``)."""
    return _Namer(view(state, seat), seat)._pay_name(item)


def cost_line(state: GameState, action: Any) -> str:
    """``Costs …. Default payment: ….`` (a line) for an action that costs something, in
    the game's words, saying when the payment costs points at the end (issue 22); "" when
    it is free (or the cost cannot be told: the engine checks again on confirm)."""
    try:
        cost = cost_of(state, action)
        if cost is None or cost.free:
            return ""
        # the payment the engine lists (the one losing the fewest VP), else its safe default
        pay = getattr(action, "payment", None) or default_payment(state, action)
        note = payment_note(state, action)  # "pays with Agriculture — 3 VP at the end"
    except Exception:  # the engine checks again on confirm
        return ""
    seat = int(action.seat)
    n = _Namer(view(state, seat), seat)
    paid = ", ".join(n._pay_name(p) for p in pay) if pay else "no safe default"
    loss = f" It {note}." if note else ""
    return f"Costs {cost.text}. Default payment: {paid}.{loss} (Another: *Change payment*.)\n"
