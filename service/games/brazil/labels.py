"""Brazil: Imperial's words for menus and buttons: a legal action as a person reads it.

A command of the notation (``keep I-3 II-7 III-4``, ``monarch queen_victoria``,
``build sawmill D3``) is what a player types; a menu shows names instead: the catalog's names
of missions, monarchs, buildings, cards, units, colours and goods, hexes with what stands
there, in the reader's language (``lang``: the catalogue's ``svc.label.*`` texts and the
terms' names). :func:`action_label` gives one :class:`service.labels.Label` (a short ``text``
and a longer ``description``, each at most 100 characters: Discord's limits for a menu
option), and :func:`group_label` one for a menu group (the guided turn groups commands by
their first words: ``build sawmill`` … reads "Build: Sawmill"). The payment chooser's texts
(:func:`cost_text`, :func:`pay_prompt`, :func:`pay_options`, :func:`cost_line`…) are here
too; the surfaces reach all of them through the game's adapter (:mod:`service.games`).

Pure: a function of a state and an action. Everything is read from ``view(state, seat)``,
the seat that decides: a label never names what that seat may not see (others' cards and
missions, face-down exploration tiles it did not peek at, the capital tiles before the
reveal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from i18n import Translator, translator, typeset
from rules.brazil import (
    Cost,
    GameState,
    PaymentStep,
    cost_of,
    default_payment,
    format_action,
    get_catalog,
    legal_actions,
    payment_note_msg,
    view,
)
from rules.brazil.catalog import OBJECTIVE_KINDS, Catalog, Objective
from rules.brazil.messages import catalog_names, english
from service.labels import Choice, Label, Part, clip

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}

# A command's first word as a menu reads it (a group of commands that start with it): the
# catalogue's ``svc.verb.<word>`` (``build`` reads "Build").
VERBS = [
    "colour",
    "keep",
    "monarch",
    "capital",
    "recruit",
    "painting",
    "build",
    "renovate",
    "manufacture",
    "import",
    "trade",
    "exchange",
    "end",
    "pass",
    "move",
    "peek",
    "bombard",
    "expedition",
    "mission",
    "gold",
    "coroados",
    "isabel",
    "palace",
    "free",
    "token",
    "discard",
    "good",
    "era",
    "deck",
    "cards",
    "keep-unit",
    "retreat",
    "war",
]


def verb_name(L: Translator, word: str) -> str:
    return L(f"svc.verb.{word}") if word in VERBS else word.capitalize()


# Verbs whose head reads on into the first argument ("Peek at D7"): no colon.
_RUN_ON = frozenset({"capital", "peek", "bombard", "expedition", "era"})

EXCHANGES = ("gold", "pair", "four", "cards")  # R-TRADE-1: svc.exchange.<kind>


def exchange_name(L: Translator, kind: str) -> str:
    return L(f"svc.exchange.{kind}") if kind in EXCHANGES else kind


def _plural(n: int, word: str, many: str | None = None) -> str:
    """English: ``2 sawmills`` (a component's name made plural by English's rule)."""
    if many is None:
        many = (
            word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
        )
    return f"{n} {word if n == 1 else many}"


def _good(L: Translator, g: str) -> str:
    if "|" in g:
        return L.list([_good(L, x) for x in g.split("|")], "or")
    return L.name(f"good.{g}", g.replace("_", " "))


def _goods(L: Translator, items: Sequence[str]) -> str:
    return " + ".join(_good(L, g) for g in items)


def _goods_map(L: Translator, d: dict[str, int]) -> str:
    return ", ".join(L("fmt.goods_item", n=n, good=_good(L, g)) for g, n in d.items() if n)


def objective_text(cat: Catalog, o: Objective, lang: str = "en") -> str:
    """One mission objective in a few words (``2 sawmills``, ``1 octagon product``)."""
    L = translator(lang)
    n = o.count
    if o.kind == "buildings":
        side = cat.sides.get(o.type) if o.type else None
        if side is None:
            s = L("svc.objective.buildings_any", n=n)
        else:
            # English reads "2 sawmills" (the name made plural by English's rule); another
            # language reads the term as it stands ("Fűrésztelep: 2")
            what = (
                _plural(n, side.name.lower()).split(" ", 1)[1]
                if L.lang == "en"
                else L.name(f"term.building.{o.type}", side.name)
            )
            s = L("svc.objective.buildings", n=n, what=what)
        if o.era is not None:
            s = L("svc.objective.of_era", what=s, era=ROMAN[o.era])
    elif o.kind == "products" and o.shape:
        s = L("svc.objective.products_shape", n=n, shape=L(f"svc.shape.{o.shape}"))
    elif o.kind == "paintings" and o.frame:
        s = L("svc.objective.paintings_frame", n=n, frame=L(f"svc.frame.{o.frame}"))
    elif o.kind in OBJECTIVES:
        s = L(f"svc.objective.{o.kind}", n=n)
    else:
        s = L("svc.objective.science", n=n)
    return L("svc.objective.vp", what=s, vp=o.vp) if o.vp else s


# the kinds named by a word and a count (svc.objective.<kind>); buildings and science apart
OBJECTIVES = [k for k in OBJECTIVE_KINDS if k not in ("buildings", "science")]


def board_lines(st: GameState, label: Callable[[int], str], lang: str = "en") -> list[str]:
    """The public board in words: one line per hex that holds a tile, a face-up exploration
    tile or units ("D3: forest; Sawmill (Ana (blue)); Ana (blue) units: archer"), players
    named by ``label(seat)``, in the map's reading order (row letters, then numbers)."""
    from rules.brazil import view

    class Named(_Namer):
        def seat_name(self, seat: int) -> str:
            return super().seat_name(seat) if seat < 0 else label(seat)

    v = view(st, None)
    namer = Named(v, 0, lang)

    def on_map(at: str) -> bool:
        return at[:1].isalpha() and at[1:].isdigit()

    hexes = set(v.tiles) | {h for h, e in v.exploration.items() if e.face_up}
    hexes |= {at for p in v.players for at in p.units.values() if on_map(at)}
    hexes |= {at for at in v.enemy_units.values() if on_map(at)}
    return [
        typeset(lang, f"{h}: {namer.hex_info(h)}")
        for h in sorted(hexes, key=lambda h: (h[:1], int(h[1:])))
    ]


class _Namer:
    """Names of the things a command's words stand for, as ``seat`` sees the game."""

    def __init__(self, v: GameState, seat: int, lang: str = "en") -> None:
        self.v = v
        self.seat = seat
        self.cat = get_catalog(v.data_pack)
        self.L = translator(lang)
        self.lang = lang

    # ------------------------------------------------------------ components

    def colour(self, c: str | None) -> str:
        if c is None:
            return "?"
        col = self.cat.colours.get(c)
        if col is None:
            return c.replace("_", " ").capitalize()
        return self.L.name(f"term.colour.{c}", col.name).split(" (")[0]

    def seat_name(self, seat: int) -> str:
        if seat < 0:
            return self.L("svc.orange_army")
        p = self.v.players[seat]
        return self.colour(p.colour) if p.colour else self.L("svc.seat", n=seat + 1)

    def unit(self, u: str, seat: int | None = None) -> str:
        p = self.v.players[self.seat if seat is None else seat]
        spec = self.cat.units.get(f"{p.colour}.{u}")
        if spec is None:
            return u.replace("_", " ").capitalize()
        name = self.L.name(f"term.unit.{p.colour}.{u}", spec.name)
        digit = u[len(u.rstrip("0123456789")) :]
        return f"{name} {digit}" if digit and not name.endswith(digit) else name

    def unit_info(self, u: str) -> str:
        p = self.v.players[self.seat]
        spec = self.cat.units.get(f"{p.colour}.{u}")
        if spec is None:
            return self.unit(u)
        if spec.ability == "none":
            return self.L("svc.unit_info", unit=self.unit(u), fp=spec.vp)
        ability = self.L.name(f"svc.ability.{spec.ability}", spec.ability)
        return self.L("svc.unit_info.ability", unit=self.unit(u), fp=spec.vp, ability=ability)

    def mission(self, m: str) -> str:
        mis = self.cat.missions.get(m)
        if mis is None:
            return self.L("svc.a_mission")
        return self.L.name(f"term.mission.{m}", mis.name)

    def mission_info(self, m: str) -> str:
        mis = self.cat.missions.get(m)
        if mis is None:
            return ""
        objs = ", ".join(objective_text(self.cat, o, self.lang) for o in mis.objectives)
        return self.L("svc.mission_info", era=ROMAN[mis.era], vp=mis.vp, objectives=objs)

    def building(self, b: str) -> str:
        if b in self.cat.sides:
            return self.L.name(f"term.building.{b}", self.cat.sides[b].name)
        if b in self.cat.cities:
            return self.L.name(f"term.city.{b}", self.cat.cities[b].name)
        if b in self.cat.capitals:
            return self.L("svc.capital")
        return b.replace("_", " ").capitalize()

    def building_info(self, b: str) -> str:
        if b in self.cat.sides:
            s = self.cat.sides[b]
            made = _goods_map(self.L, s.production)
            if made:
                return self.L("svc.building_info.produces", vp=s.vp, goods=made)
            return self.L("svc.vp", vp=s.vp)
        if b in self.cat.cities:
            return self.L("svc.city_info", vp=self.cat.cities[b].vp)
        return ""

    def product(self, p: str) -> str:
        prod = self.cat.products.get(p)
        if prod is None:
            return _good(self.L, p)
        return self.L.name(f"term.product.{p}", prod.name)

    def dest(self, d: str | None) -> str:
        if d == "victoria":
            return self.L("svc.dest.victoria")
        if d == "factory":
            return self.L("svc.dest.factory")
        if d in self.cat.arches:
            arch = self.L.name(f"term.arch.{d}", self.cat.arches[d].name)
            return self.L("svc.dest.arch", arch=arch)
        return self.L("svc.dest.other", where=d or "")

    def gold_card(self, c: str) -> str:
        card = self.cat.gold_cards.get(c)
        if card is None:
            return self.L("svc.a_gold_card")
        return self.L.name(f"term.gold_card.{c}", card.name)

    def combat_card(self, c: str) -> str:
        card = self.cat.combat_cards.get(c)
        if card is None:
            return self.L("svc.a_combat_card")
        return self.L.name(f"term.combat_card.{c}", card.name)

    # ------------------------------------------------------------ the map

    def hex_info(self, h: str | None) -> str:
        """What stands at ``h`` as this seat sees it: terrain, tile, face-down tile, units."""
        if h is None:
            return ""
        v, cat = self.v, self.cat
        board = cat.boards.get(v.map)
        L = self.L
        terrain = board.terrain.get(h, "") if board is not None else ""
        bits = [L.name(f"term.terrain.{terrain}", terrain.replace("_", " ")) if terrain else ""]
        tile = v.tiles.get(h)
        if tile is not None:
            owner = self.seat_name(tile.owner)
            if tile.kind == "capital":
                bits.append(L("svc.hex.capital", owner=owner))
            elif tile.kind == "city":
                bits.append(L("svc.hex.city", city=self.building(tile.id), owner=owner))
            else:
                bits.append(L("svc.hex.building", building=self.building(tile.id), owner=owner))
            if tile.palace:
                bits.append(L("svc.hex.palace", palace=ROMAN.get(tile.palace, str(tile.palace))))
        ex = v.exploration.get(h)
        if ex is not None:
            known = cat.exploration.get(ex.tile)
            if known is not None:
                name = L.name(f"term.exploration.{ex.tile}", known.name)
                bits.append(name if ex.face_up else L("svc.hex.peeked", tile=name))
            else:
                bits.append(L("svc.hex.face_down"))
        for p in v.players:
            here = [self.unit(u, p.seat) for u, at in p.units.items() if at == h]
            if here:
                bits.append(L("svc.hex.units", who=self.seat_name(p.seat), units=", ".join(here)))
        enemy = [u for u, at in v.enemy_units.items() if at == h]
        if enemy:
            bits.append(L("svc.hex.orange_units", n=len(enemy)))
        return "; ".join(b for b in bits if b)

    # ------------------------------------------------------------ words of a command

    def parts(self, a: Any) -> list[Part]:
        """Each word of ``format_action(a)`` with its meaning (in the same order)."""
        t = a.type
        P = Part
        L = self.L

        def V(word: str) -> str:
            return verb_name(L, word)

        out: list[Part]
        if t == "choose_colour":
            out = [P("colour", V("colour")), P(a.colour, self.colour(a.colour))]
        elif t == "keep_missions":
            out = [P("keep", V("keep"))]
            out += [P(m, self.mission(m), " · " if i else " ") for i, m in enumerate(a.keep)]
        elif t == "choose_monarch":
            m = self.cat.monarchs.get(a.monarch)
            name = L.name(f"term.monarch.{a.monarch}", m.name) if m else L("svc.a_monarch")
            out = [P("monarch", V("monarch")), P(a.monarch, name)]
        elif t == "choose_capital":
            out = [P("capital", V("capital")), P(a.at, a.at)]
        elif t == "recruit":
            out = [P("recruit", V("recruit"))]
            out += [
                P(
                    f"{d.unit}@{d.to}",
                    L("svc.at", what=self.unit(d.unit), at=d.to),
                    ", " if i else " ",
                )
                for i, d in enumerate(a.deploy)
            ]
            sep = ", " if a.deploy else " "
            if a.draw == 1:
                out.append(P("+card", L("svc.draw_combat", n=1), sep))
            elif a.draw > 1:
                out.append(P(f"+{a.draw}cards", L("svc.draw_combat", n=a.draw), sep))
        elif t == "painting":
            p = self.cat.paintings.get(a.painting)
            name = L.name(f"term.painting.{a.painting}", p.name) if p else L("svc.a_painting")
            out = [P("painting", V("painting")), P(a.painting, name)]
        elif t == "build":
            verb = L("svc.verb.found") if a.building in self.cat.cities else V("build")
            out = [
                P("build", verb),
                P(a.building, self.building(a.building)),
                P(a.at, L("svc.at_hex", at=a.at)),
            ]
        elif t == "renovate":
            tile = self.v.tiles.get(a.at)
            what = self.building(tile.id) if tile is not None else L("svc.a_building")
            out = [P("renovate", V("renovate")), P(a.at, L("svc.at", what=what, at=a.at))]
            if a.flip and tile is not None and tile.id in self.cat.sides:
                other = self.building(self.cat.other_side(tile.id))
                out.append(P("flip", L("svc.flip_to", other=other), ", "))
            elif a.flip:
                out.append(P("flip", L("svc.flip"), ", "))
        elif t == "manufacture":
            out = [
                P("manufacture", V("manufacture")),
                P(a.product, self.product(a.product)),
                P(a.to, self.dest(a.to)),
            ]
        elif t == "import":
            out = [P("import", V("import")), P(a.crop, _good(L, a.crop))]
        elif t == "trade":
            out = [P("trade", V("trade"))]
        elif t == "exchange":
            out = [P("exchange", V("exchange")), P(a.kind, exchange_name(L, a.kind))]
            if a.kind == "cards":
                out += [
                    P(c, self.combat_card(c), ", " if i else ": ") for i, c in enumerate(a.give)
                ]
            else:
                out.append(P("+".join(a.give), _goods(L, a.give), ": "))
        elif t == "end_trade":
            out = [P("end", L("svc.verb.end_trade")), P("trade", "")]
        elif t == "pass_action":
            out = [P("pass", V("pass"))]
        elif t == "move":
            out = [
                P("move", V("move")),
                P(a.unit, self.unit(a.unit)),
                P(a.to, L("svc.to", at=a.to)),
            ]
            if a.kind == "extra":
                out.append(P("extra", L("svc.extra_move")))
            if a.carry:
                out.append(P("carry", L("svc.carrying"), ", " if a.kind != "extra" else " "))
                out += [P(u, self.unit(u), ", " if i else " ") for i, u in enumerate(a.carry)]
        elif t == "peek":
            out = [P("peek", V("peek")), P(a.at, a.at)]
        elif t == "bombard":
            out = [P("bombard", V("bombard")), P(a.unit, self.unit(a.unit)), P(a.at, a.at, ": ")]
        elif t == "expedition":
            out = [P("expedition", V("expedition")), P(a.at, a.at)]
        elif t == "end_turn":
            out = [P("end", L("svc.verb.end_turn"))]
        elif t == "reveal_mission":
            out = [P("mission", V("mission")), P(a.mission, self.mission(a.mission))]
        elif t == "play_gold_card":
            out = self._gold_parts(a)
        elif t == "coroados":
            out = [P("coroados", V("coroados")), P(str(a.token), L("svc.era_token", n=a.token))]
        elif t == "isabel_palace":
            out = [
                P("isabel", V("isabel")),
                P(str(a.palace), L("svc.palace", palace=ROMAN.get(a.palace, a.palace))),
                P(a.at, L("svc.at_hex", at=a.at)),
            ]
        elif t == "place_palace":
            if a.palace is None:
                out = [P("palace", V("palace")), P("none", L("svc.place_none"))]
            else:
                out = [
                    P("palace", V("palace")),
                    P(str(a.palace), ROMAN.get(a.palace, str(a.palace))),
                    P(a.at or "", L("svc.at_hex", at=a.at)),
                ]
        elif t == "free_manufacture":
            if a.product is None:
                out = [P("free", V("free")), P("none", L("svc.decline"))]
            else:
                out = [
                    P("free", V("free")),
                    P(a.product, self.product(a.product)),
                    P(a.to or "", self.dest(a.to)),
                ]
        elif t == "place_era_token":
            where = (
                L("svc.on_coroados")
                if a.arch == "coroados"
                else L(
                    "svc.under_arch",
                    arch=L.name(f"term.arch.{a.arch}", self.cat.arches[a.arch].name),
                )
                if a.arch in self.cat.arches
                else a.arch
            )
            out = [P("token", V("token")), P(a.arch, where)]
        elif t == "discard":
            out = [P("discard", V("discard")), P("+".join(a.goods), _goods(L, a.goods))]
        elif t == "discard_cards":
            card_name = self.gold_card if a.deck == "gold" else self.combat_card
            out = [P("discard", L(f"svc.discard_cards.{a.deck}"))]
            out += [P(c, card_name(c), ", " if i else " ") for i, c in enumerate(a.cards)]
        elif t == "choose_good":
            out = [P("good", V("good")), P(a.good, _good(L, a.good))]
        elif t == "choose_era":
            out = [P("era", V("era")), P(str(a.era), ROMAN.get(a.era, str(a.era)))]
        elif t == "choose_deck":
            out = [P("deck", V("deck")), P(a.frame, L(f"svc.frame.{a.frame}").capitalize())]
        elif t == "commit_cards":
            out = [P("cards", V("cards"))]
            if a.cards:
                out += [
                    P(c, self.combat_card(c), ", " if i else " ") for i, c in enumerate(a.cards)
                ]
            else:
                out.append(P("none", L("svc.none")))
            if a.camp:
                out += [
                    P("camp", L("svc.paying_camp"), ", "),
                    P("+".join(a.camp), _goods(L, a.camp)),
                ]
        elif t == "keep_unit":
            out = [P("keep-unit", V("keep-unit")), P(a.unit, self.unit(a.unit))]
        elif t == "retreat_to":
            where = L("svc.to", at=a.at) if a.at is not None else L("svc.to_reserve")
            out = [P("retreat", V("retreat")), P(a.at if a.at is not None else "none", where)]
        elif t == "war_card":
            out = [
                P("war", V("war")),
                P("yes" if a.play else "no", L("svc.play_it") if a.play else L("svc.no")),
            ]
        else:  # pragma: no cover - every action type is named above
            out = [P(w, w) for w in format_action(self.v, a).split(" ")]
        pay = getattr(a, "payment", None)
        if pay is not None:
            if not pay:
                out += [P("pay", L("svc.paying"), ", "), P("nothing", L("svc.nothing"))]
            else:
                out.append(P("pay", L("svc.paying"), ", "))
                out += [
                    P(self._pay_word(it), self._pay_name(it), ", " if i else " ")
                    for i, it in enumerate(pay)
                ]
        return [p for p in out if p.word]

    def _gold_parts(self, a: Any) -> list[Part]:
        P = Part
        L = self.L
        out = [P("gold", verb_name(L, "gold")), P(a.card, self.gold_card(a.card))]
        if a.at is not None:
            out.append(P(a.at, L("svc.at_hex", at=a.at)))
        dests = ("victoria", "factory", *self.cat.arches)
        to_is_hex = a.to is not None and a.unit is not None and a.to not in dests
        if a.unit is not None:
            if to_is_hex:
                out.append(
                    P(f"{a.unit}@{a.to}", L("svc.at", what=self.unit(a.unit), at=a.to), ", ")
                )
            else:
                out.append(P(a.unit, self.unit(a.unit), ", "))
        if a.product is not None:
            out.append(P(a.product, self.product(a.product), ", "))
        if a.to is not None and not to_is_hex:
            out.append(P(a.to, self.dest(a.to)))
        if a.give:
            out.append(P("+".join(a.give), L("svc.giving", goods=_goods(L, a.give)), ", "))
        if a.target is not None:
            c = self.v.players[a.target].colour
            out.append(
                P(c or f"seat{a.target + 1}", L("svc.on", who=self.seat_name(a.target)), ", ")
            )
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
        L = self.L
        if it.source == "gold_card":
            return L("svc.pay.gold_card", card=self.gold_card(it.what))
        if it.source == "combat_card":
            return L("svc.pay.combat_card", card=self.combat_card(it.what))
        if it.source == "reserve":
            return L("svc.pay.reserve", good=_good(L, it.what))
        tile = self.v.tiles.get(it.source)
        if tile is None:
            return L("svc.pay.from", good=_good(L, it.what), where=str(it.source))
        return L(
            "svc.pay.from_building",
            good=_good(L, it.what),
            building=self.building(tile.id),
            at=it.source,
        )

    # ------------------------------------------------------------ descriptions

    def _card_text(self, kind: str, c: str) -> str:
        book: dict[str, Any] = self.cat.gold_cards if kind == "gold_card" else self.cat.combat_cards
        card = book.get(c)
        if card is None:
            return ""
        name = self.L.name(f"term.{kind}.{c}", card.name)
        return f"{name}: {self.L.name(f'text.{kind}.{c}', card.text)}"

    def description(self, a: Any) -> str:
        """The line under an option: what the chosen things are worth or do."""
        t, cat, L = a.type, self.cat, self.L
        if t == "choose_colour":
            col = cat.colours.get(a.colour)
            if col is None:
                return ""
            monarchs = [
                L.name(f"term.monarch.{s}", cat.monarchs[s].name)
                for m in col.monarch_tiles
                for s in m.sides
                if s in cat.monarchs
            ]
            units = list(
                dict.fromkeys(
                    self.L.name(f"term.unit.{a.colour}.{u.id}", u.name) for u in col.units
                )
            )
            return L("svc.colour_info", monarchs=", ".join(monarchs), units=", ".join(units))
        if t == "keep_missions":
            return " · ".join(self.mission_info(m) for m in a.keep)
        if t == "choose_monarch":
            m = cat.monarchs.get(a.monarch)
            return L.name(f"text.monarch.{a.monarch}", m.text) if m is not None else ""
        if t == "choose_capital":
            cap = self.v.capital_tiles.get(a.at)
            known = cat.capitals.get(cap) if cap else None
            head = ""
            if known is not None and cap is not None:
                name = L.name(f"term.capital.{cap}", known.name)
                head = f"{name}, {_good(L, known.resource)}"
            return "; ".join(b for b in (head, self.hex_info(a.at)) if b)
        if t == "recruit":
            bits = [self.unit_info(d.unit) for d in a.deploy]
            if a.draw:
                bits.append(L("svc.combat_drawn", n=a.draw))
            return ", ".join(bits)
        if t == "painting":
            p = cat.paintings.get(a.painting)
            if p is None:
                return ""
            text = L.name(f"text.painting.{a.painting}", p.text)
            frame = L(f"svc.frame.{p.frame}")
            return L("svc.painting_info", vp=p.vp, frame=frame, text=text)
        if t == "build":
            return "; ".join(b for b in (self.building_info(a.building), self.hex_info(a.at)) if b)
        if t in ("renovate", "peek", "expedition", "isabel_palace", "place_palace"):
            return self.hex_info(a.at)
        if t in ("manufacture", "free_manufacture"):
            prod = cat.products.get(a.product or "")
            if prod is None:
                return ""
            return L("svc.product_info", vp=prod.vp, shape=L(f"svc.shape.{prod.shape}"))
        if t == "exchange":
            return L("svc.exchange_info", what=exchange_name(L, a.kind))
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
            return L.name(f"text.gold_card.{a.card}", card.text) if card is not None else ""
        if t == "commit_cards":
            return " · ".join(self._card_text("combat_card", c) for c in a.cards)
        if t == "discard_cards":
            kind = "gold_card" if a.deck == "gold" else "combat_card"
            return " · ".join(self._card_text(kind, c) for c in a.cards)
        if t == "keep_unit":
            return self.unit_info(a.unit)
        if t == "end_turn":
            return L("svc.nothing_more")
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


def action_label(
    state: GameState, action: Any, seat: int | None = None, *, lang: str = "en"
) -> Label:
    """``action`` as a menu names it for ``seat`` (default: the action's own seat, the one
    who decides it), from what that seat sees, in ``lang``."""
    who = int(action.seat) if seat is None else seat
    return _label_of(_Namer(view(state, who), who, lang), action)[0]


def choices(
    state: GameState, seat: int, actions: Sequence[Any] | None = None, *, lang: str = "en"
) -> list[Choice]:
    """The legal actions of ``seat`` (``actions``: that listing when already made) as menu
    choices, in the engine's order: each with its command and its label (in ``lang``)."""
    acts = legal_actions(state, seat) if actions is None else actions
    if not acts:
        return []
    n = _Namer(view(state, seat), seat, lang)
    out = []
    for i, a in enumerate(acts):
        label, parts = _label_of(n, a)
        out.append(Choice(i, format_action(state, a), label, parts, a))
    return out


def group_label(
    members: Sequence[Choice], prefix: str, *, cut: bool = False, lang: str = "en"
) -> Label:
    """The label of a menu group: the choices ``members``, whose commands start with
    ``prefix`` (whole words; ``cut``: its last word is only the first letter of the next
    word, e.g. ``peek D``). ``build sawmill`` reads "Build: Sawmill"; a cut word lists the
    names it stands for ("Peek at D3, D4, D7")."""
    L = translator(lang)
    words = prefix.strip().split()
    if not members or not words:
        return Label(clip(prefix.strip()))
    verb = words[0]
    k = len(words) - (1 if cut else 0)  # the whole words of the prefix
    if k == 0:
        verbs = dict.fromkeys(m.parts[0].word for m in members if m.parts)
        text = ", ".join(verb_name(L, w) for w in verbs)
    else:
        first = members[0]
        named = [Part(verb, verb_name(L, verb)), *first.parts[1:k]]
        text = read_parts(named)
        if cut:
            nxt = dict.fromkeys(
                m.parts[k].name for m in members if len(m.parts) > k and m.parts[k].name
            )
            sep = " " if k > 1 or verb in _RUN_ON else ": "
            text += sep + ", ".join(nxt)
    return Label(clip(text or prefix.strip()), L("svc.choices", n=len(members)))


def pay_item_text(state: GameState, seat: int, item: Any, *, lang: str = "en") -> str:
    """One item of a payment in words (``sugar cane from your reserve``)."""
    return _Namer(view(state, seat), seat, lang)._pay_name(item)


def _engine_text(m: Mapping[str, Any], text: str, lang: str) -> str:
    """A text of the engine's payment chooser in ``lang``: in English the engine's own
    ``text`` (the game's component names), else its message ``m`` (a ``phrase.pay.*`` key
    and its parameters) rendered from the language's catalogue."""
    if lang == "en" or not m:
        return text
    return translator(lang)(str(m["key"]), **dict(m.get("params") or {}))


def cost_text(cost: Cost, *, lang: str = "en") -> str:
    """What an action costs in words (``1 gold + 2 coffee``), in ``lang``."""
    return _engine_text(cost.text_msg, cost.text, lang)


def pay_prompt(step: PaymentStep, *, lang: str = "en") -> str:
    """The payment chooser's sentence for its next token ("Pay 1 gold for Sawmill (token 1
    of 2; …)."; "Paid in full for …." when complete), in ``lang``."""
    return _engine_text(step.prompt_msg, step.prompt, lang)


def pay_options(step: PaymentStep, *, lang: str = "en") -> list[str]:
    """The labels of the sources that may pay the next token ("coffee from your reserve",
    "gold card Agriculture (as 1 gold)"), in ``lang``."""
    return [_engine_text(o.label_msg, o.label, lang) for o in step.options]


def payment_note(state: GameState, action: Any, *, lang: str = "en") -> str | None:
    """What VP paying for ``action`` loses at the end ("pays with Agriculture — 3 VP at the
    end", ``rules.payment_note``) in ``lang``; None when it loses none."""
    m = payment_note_msg(state, action)
    if m is None:
        return None
    return _engine_text(m, english(m, catalog_names(get_catalog(state.data_pack))), lang)


def cost_line(state: GameState, action: Any, *, lang: str = "en") -> str:
    """``Costs …. Default payment: ….`` (a line) for an action that costs something, in
    the game's words, saying when the payment costs points at the end (issue 22); "" when
    it is free (or the cost cannot be told: the engine checks again on confirm)."""
    try:
        cost = cost_of(state, action)
        if cost is None or cost.free:
            return ""
        # the payment the engine lists (the one losing the fewest VP), else its safe default
        pay = getattr(action, "payment", None) or default_payment(state, action)
        note = payment_note(state, action, lang=lang)  # "pays with Agriculture — 3 VP at the end"
    except Exception:  # the engine checks again on confirm
        return ""
    seat = int(action.seat)
    n = _Namer(view(state, seat), seat, lang)
    L = n.L
    paid = ", ".join(n._pay_name(p) for p in pay) if pay else L("svc.no_safe_default")
    loss = L("svc.cost.loss", note=note) if note else ""
    return L("svc.cost", cost=cost_text(cost, lang=lang), paid=paid, loss=loss) + "\n"


# ---------------------------------------------------------------- missions looked up by a reader


def mission_line(cat: Catalog, m: str, lang: str = "en") -> str:
    """A mission as a reader looks it up: ``I-1 The Brazilwood Coast — era I, 1 VP: 2
    sawmills, …`` (its id, its name in ``lang`` and its objectives); "" for no such mission."""
    mis = cat.missions.get(m)
    if mis is None:
        return ""
    L = translator(lang)
    name = L.name(f"term.mission.{m}", mis.name)
    objs = ", ".join(objective_text(cat, o, lang) for o in mis.objectives)
    info = L("svc.mission_info", era=ROMAN[mis.era], vp=mis.vp, objectives=objs)
    return f"{m} {name} — {info}"


def _folded_words(text: str) -> list[str]:
    import re
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.findall(r"[^\W_]+", plain)


_ID_SHAPE = r"^(i{1,3})[\s_-]*([0-9]+)$"
_SMALL_WORDS = frozenset(
    [
        "the",
        "of",
        "a",
        "an",
        "de",
        "da",
        "do",
        "das",
        "dos",
        "la",
        "le",
        "les",
        "des",
        "die",
        "der",
        "az",
    ]
)


def _says(token: str, word: str) -> bool:
    """A query's word says a name's word: the same, or (4 letters or more) its start."""
    return word == token or (len(token) >= 4 and word.startswith(token))


def find_missions(cat: Catalog, query: str, lang: str = "en") -> list[str]:
    """The ids of the missions a reader's ``query`` names: an id in any spelling (``I-1``,
    ``i 1``, ``III_2``), or its name in ``lang`` or English, accents and case aside, every
    word of the query a word of the name (4 letters or more: the start of one) and the
    query saying most of the name (``brazilwood coast``, not ``coast``)."""
    import re

    q = query.strip().lower()
    m = re.match(_ID_SHAPE, q)
    if m:
        key = f"{m.group(1).upper()}-{int(m.group(2))}"
        return [key] if key in cat.missions else []
    tokens = _folded_words(q)
    if not tokens:
        return []
    L = translator(lang)
    found = []
    for mid, mis in cat.missions.items():
        for name in dict.fromkeys((L.name(f"term.mission.{mid}", mis.name), mis.name)):
            words = _folded_words(name)
            content = [w for w in words if w not in _SMALL_WORDS] or words
            if all(any(_says(t, w) for w in words) for t in tokens) and 2 * sum(
                1 for w in content if any(_says(t, w) for t in tokens)
            ) > len(content):
                found.append(mid)
                break
    return found
