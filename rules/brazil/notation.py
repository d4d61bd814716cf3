"""Notation: the short command language players type, and public sentences about actions.

The python-chess idea of ``Move.uci()`` / ``parse_uci``: every legal action has one short
command (:func:`format_action`) and :func:`parse_text` reads it back, checked against
:func:`rules.brazil.engine.legal_actions`. The text a player reads is the text they can type:
hexes as labels (``D7``), buildings, units and cards by their catalog ids (``sawmill``,
``brawler2``, ``militia``).

Grammar: a verb, then its arguments, separated by spaces (``,`` and ``+`` also separate).
Ids may be typed in any case, with spaces or hyphens for underscores, by their display name
(``"sugar-cane field"``) or by an unambiguous prefix (``saw``); a prefix that several ids
share is settled by what is legal now. Tuple fields (carried units, goods, cards, missions,
deployments) may come in any order. An optional payment clause ends any paid action:
``pay coffee D4:coffee gold:immigration combat:militia`` (a good from the reserve, a good on
the building at D4, a gold card, a combat card). :data:`GRAMMAR` lists every command.

:func:`describe_action` writes one English sentence about an action for a given reader and
never names what that reader may not see (committed combat cards, kept missions, the goods
paid to Acampamento).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Literal, cast

from rules.brazil import actions as A
from rules.brazil.catalog import CROPS, FRAMES, GOODS, Catalog, get_catalog
from rules.brazil.engine import apply, legal_actions
from rules.brazil.messages import Param, msg
from rules.brazil.state import GameState
from rules.errors import IllegalAction, InvalidAction, NotYourDecision, RulesError, or_list

Action = A.Action


class AmbiguousAction(InvalidAction):
    """The text could mean several different actions (the message lists them)."""


# ============================================================================ the grammar

GRAMMAR: tuple[tuple[str, str, str], ...] = (
    # (command, action type, example)
    ("colour <colour>", "choose_colour", "colour blue"),
    ("keep <mission> <mission> <mission>", "keep_missions", "keep I-6 II-7 III-3"),
    ("monarch <monarch>", "choose_monarch", "monarch pedro_ii"),
    ("capital <hex>", "choose_capital", "capital D7"),
    (
        "recruit [<unit>@<hex> ...] [+card | +2cards]",
        "recruit",
        "recruit brawler2@D4 +card",
    ),
    ("painting <painting>", "painting", "painting oca"),
    ("build <building|city> <hex>", "build", "build sawmill D3"),
    ("renovate <hex> [flip]", "renovate", "renovate D3 flip"),
    ("manufacture <product> <arch|victoria|factory>", "manufacture", "manufacture dye import"),
    ("import <crop>", "import", "import coffee"),
    ("trade", "trade", "trade"),
    (
        "exchange gold|pair|four|cards <good+good...|card card>",
        "exchange",
        "exchange pair coffee+cotton",
    ),
    ("end trade", "end_trade", "end trade"),
    ("pass", "pass_action", "pass"),
    (
        "move <unit> <hex> [extra] [carry <unit> ...]",
        "move",
        "move hussar E5 carry brawler1 brawler2",
    ),
    ("peek <hex>", "peek", "peek D7"),
    ("bombard <unit> <hex>", "bombard", "bombard cannon D7"),
    ("expedition <hex>", "expedition", "expedition D7"),
    ("end", "end_turn", "end"),
    ("mission <mission>", "reveal_mission", "mission I-2"),
    (
        "gold <card> [<hex>] [<unit>[@<hex>]] [<product> <arch>] [<crop+crop>] [<colour>]",
        "play_gold_card",
        "gold mercenaries brawler1@D4",
    ),
    ("coroados <era token>", "coroados", "coroados 1"),
    ("isabel <palace> <hex>", "isabel_palace", "isabel 2 D7"),
    ("palace <palace> <hex> | palace none", "place_palace", "palace 2 D7"),
    ("free <product> <arch|victoria|factory> | free none", "free_manufacture", "free sugar import"),
    ("token <arch|coroados>", "place_era_token", "token build"),
    ("discard <good+good...>", "discard", "discard coffee+cotton"),
    ("discard <card> ...", "discard_cards", "discard militia retreat"),
    ("good <good>", "choose_good", "good coffee"),
    ("era <1|2|3>", "choose_era", "era 2"),
    ("deck <frame>", "choose_deck", "deck pink"),
    ("cards <card> ... [camp <crop+crop...>] | cards none", "commit_cards", "cards militia"),
    ("keep-unit <unit>", "keep_unit", "keep-unit brawler2"),
    ("retreat <hex> | retreat none", "retreat_to", "retreat D6"),
    ("war yes|no", "war_card", "war yes"),
    ("... pay <item> ...", "(payment)", "build farm D3 pay D4:brazilwood sugar_cane"),
)

_PAYMENT_SOURCES = {"gold": "gold_card", "combat": "combat_card", "reserve": "reserve"}


def norm(text: str) -> str:
    """Lower case, accents and apostrophes dropped, other separators as ``_``."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c))
    t = t.lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[^a-z0-9]+", "_", t).strip("_")


def _seat_name(state: GameState, seat: int) -> str:
    if seat < 0:
        return "The orange army"
    c = state.players[seat].colour
    return c.capitalize() if c else f"Seat {seat + 1}"


def _seat_word(state: GameState, seat: int) -> str:
    """How a seat is typed: its colour, or ``seatN`` before colours are chosen."""
    c = state.players[seat].colour
    return c if c else f"seat{seat + 1}"


# ============================================================================ format


def _goods(items: Sequence[str]) -> str:
    return "+".join(items)


def _pay_item(it: A.PayItem) -> str:
    if it.source == "reserve":
        return it.what
    if it.source == "gold_card":
        return f"gold:{it.what}"
    if it.source == "combat_card":
        return f"combat:{it.what}"
    return f"{it.source}:{it.what}"


def format_action(state: GameState, action: Action) -> str:
    """The short command for ``action`` (see :data:`GRAMMAR`); :func:`parse_text` reads it back."""
    a: Any = action
    t = a.type
    words: list[str]
    if t == "choose_colour":
        words = ["colour", a.colour]
    elif t == "keep_missions":
        words = ["keep", *a.keep]
    elif t == "choose_monarch":
        words = ["monarch", a.monarch]
    elif t == "choose_capital":
        words = ["capital", a.at]
    elif t == "recruit":
        words = ["recruit", *(f"{d.unit}@{d.to}" for d in a.deploy)]
        if a.draw == 1:
            words.append("+card")
        elif a.draw > 1:
            words.append(f"+{a.draw}cards")
    elif t == "painting":
        words = ["painting", a.painting]
    elif t == "build":
        words = ["build", a.building, a.at]
    elif t == "renovate":
        words = ["renovate", a.at] + (["flip"] if a.flip else [])
    elif t == "manufacture":
        words = ["manufacture", a.product, a.to]
    elif t == "import":
        words = ["import", a.crop]
    elif t == "trade":
        words = ["trade"]
    elif t == "exchange":
        give = " ".join(a.give) if a.kind == "cards" else _goods(a.give)
        words = ["exchange", a.kind, give]
    elif t == "end_trade":
        words = ["end", "trade"]
    elif t == "pass_action":
        words = ["pass"]
    elif t == "move":
        words = ["move", a.unit, a.to]
        if a.kind == "extra":
            words.append("extra")
        if a.carry:
            words += ["carry", *a.carry]
    elif t == "peek":
        words = ["peek", a.at]
    elif t == "bombard":
        words = ["bombard", a.unit, a.at]
    elif t == "expedition":
        words = ["expedition", a.at]
    elif t == "end_turn":
        words = ["end"]
    elif t == "reveal_mission":
        words = ["mission", a.mission]
    elif t == "play_gold_card":
        words = ["gold", a.card]
        if a.at is not None:
            words.append(a.at)
        to_is_hex = a.to is not None and a.unit is not None and a.to not in _DESTS
        if a.unit is not None:
            words.append(f"{a.unit}@{a.to}" if to_is_hex else a.unit)
        if a.product is not None:
            words.append(a.product)
        if a.to is not None and not to_is_hex:
            words.append(a.to)
        if a.give:
            words.append(_goods(a.give))
        if a.target is not None:
            words.append(_seat_word(state, a.target))
    elif t == "coroados":
        words = ["coroados", str(a.token)]
    elif t == "isabel_palace":
        words = ["isabel", str(a.palace), a.at]
    elif t == "place_palace":
        words = ["palace", "none"] if a.palace is None else ["palace", str(a.palace), a.at or ""]
    elif t == "free_manufacture":
        words = ["free", "none"] if a.product is None else ["free", a.product, a.to or ""]
    elif t == "place_era_token":
        words = ["token", a.arch]
    elif t == "discard":
        words = ["discard", _goods(a.goods)]
    elif t == "discard_cards":
        words = ["discard", *a.cards]
    elif t == "choose_good":
        words = ["good", a.good]
    elif t == "choose_era":
        words = ["era", str(a.era)]
    elif t == "choose_deck":
        words = ["deck", a.frame]
    elif t == "commit_cards":
        words = ["cards", *a.cards] if a.cards else ["cards", "none"]
        if a.camp:
            words += ["camp", _goods(a.camp)]
    elif t == "keep_unit":
        words = ["keep-unit", a.unit]
    elif t == "retreat_to":
        words = ["retreat", a.at if a.at is not None else "none"]
    elif t == "war_card":
        words = ["war", "yes" if a.play else "no"]
    else:  # pragma: no cover - every action type is listed above
        raise InvalidAction.of("", "error.parse.no_notation", type=t)
    pay = getattr(a, "payment", None)
    if pay is not None:
        words += ["pay", *(_pay_item(it) for it in pay)] if pay else ["pay", "nothing"]
    return " ".join(w for w in words if w)


_DESTS = frozenset(("victoria", "factory")) | frozenset(
    ("recruit", "painting", "build", "renovate", "manufacture", "import", "trade")
)


# ============================================================================ parse: vocabulary


class _Ctx:
    """What a typed word may mean for one seat in one state: id classes, built lazily."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.cat: Catalog = get_catalog(state.data_pack)
        self._vocab: dict[str, dict[str, str]] = {}

    # class name -> what to call it in messages
    LABELS: ClassVar[dict[str, str]] = {
        "hex": "hex",
        "unit": "unit",
        "building": "building",
        "product": "product",
        "dest": "arch (or victoria / factory)",
        "token_arch": "arch (or coroados)",
        "crop": "crop",
        "good": "good",
        "painting": "painting",
        "monarch": "monarch",
        "colour": "colour",
        "seat": "player",
        "mission": "mission",
        "gold_card": "gold card",
        "combat_card": "combat card",
        "frame": "frame",
        "int": "number",
    }

    def vocab(self, cls: str) -> dict[str, str]:
        v = self._vocab.get(cls)
        if v is None:
            if cls in ("unit", "seat"):
                v = self._build(cls)
            else:
                v = _static_vocab(self.state.data_pack, self.state.map, cls)
            self._vocab[cls] = v
        return v

    def _build(self, cls: str) -> dict[str, str]:
        named: list[tuple[str, str]] = []  # (id, display name)
        if cls == "unit":
            named = [(u, u) for u in self.state.players[self.seat].units]
        elif cls == "seat":
            for q in self.state.players:
                named.append((str(q.seat), f"seat{q.seat + 1}"))
                if q.colour:
                    named.append((str(q.seat), q.colour))
        return _keys(named)

    def resolve(self, token: str, classes: Sequence[str]) -> list[tuple[str, str]]:
        """Every (class, id) the token may mean; raises for an unknown word."""
        n = norm(token)
        if not n:
            raise InvalidAction.of("", "error.parse.unreadable", token=token)
        out: list[tuple[str, str]] = []
        for cls in classes:
            if cls == "int":
                val = _ROMAN.get(n, n)
                if val.isdigit():
                    out.append(("int", str(int(val))))
                continue
            v = self.vocab(cls)
            if n in v:
                out.append((cls, v[n]))
        if out:
            return _unique(out)
        for cls in classes:
            if cls in ("int", "hex", "seat"):
                continue
            for key, ident in self.vocab(cls).items():
                if key.startswith(n):
                    out.append((cls, ident))
        if out:
            return _unique(out)
        if len(n) >= 3:  # a word inside a longer id: "wood" for brazilwood
            for cls in classes:
                if cls in ("int", "hex", "seat"):
                    continue
                for key, ident in self.vocab(cls).items():
                    if n in key.split("_") or (n in key and len(n) >= 4):
                        out.append((cls, ident))
        if out:
            return _unique(out)
        what = _alternatives([f"@error.class.{c}" for c in dict.fromkeys(classes)])
        words = sorted({k for c in classes if c != "int" for k in self.vocab(c)})
        close = difflib.get_close_matches(n, words, n=3, cutoff=0.6)
        shown = [
            self.vocab(c)[k] for k in close for c in classes if c != "int" and k in self.vocab(c)
        ]
        hint: Param = ""
        if shown:
            hint = msg("error.hint.did_you_mean", options=or_list(list(dict.fromkeys(shown))))
        raise InvalidAction.of("", "error.parse.unknown_word", token=token, what=what, hint=hint)

    def known(self, token: str, classes: Sequence[str]) -> bool:
        n = norm(token)
        return any(n in self.vocab(c) for c in classes if c != "int")


@functools.lru_cache(maxsize=256)
def _static_vocab(pack: str | None, board: str, cls: str) -> dict[str, str]:
    """Word -> id for the classes that depend only on the catalog (and the map)."""
    cat = get_catalog(pack)
    named: list[tuple[str, str]] = []  # (id, display name)
    if cls == "hex":
        return {norm(h): h for h in cat.boards[board].terrain}
    if cls == "building":
        named = [(s.id, s.name) for s in cat.sides.values()]
        named += [(c.id, c.name) for c in cat.cities.values()]
    elif cls == "product":
        named = [(p.id, p.name) for p in cat.products.values()]
    elif cls in ("dest", "token_arch"):
        named = [(x.id, x.name) for x in cat.arches.values()]
        extra = ("victoria", "factory") if cls == "dest" else ("coroados",)
        named += [(x, x) for x in extra]
    elif cls == "crop":
        named = [(c, c) for c in CROPS]
    elif cls == "good":
        named = [(c, c) for c in GOODS]
    elif cls == "painting":
        named = [(p.id, p.name) for p in cat.paintings.values()]
    elif cls == "monarch":
        named = [(m.id, m.name) for m in cat.monarchs.values()]
    elif cls == "colour":
        named = [(c.id, c.name) for c in cat.colours.values()]
    elif cls == "mission":
        named = [(m.id, m.id) for m in cat.missions.values()]
        named += [(m.id, m.name) for m in cat.missions.values()]
    elif cls == "gold_card":
        named = [(c.id, c.name) for c in cat.gold_cards.values()]
    elif cls == "combat_card":
        named = [(c.id, c.name) for c in cat.combat_cards.values()]
    elif cls == "frame":
        named = [(f, f) for f in FRAMES]
    return _keys(named)


def _keys(named: Iterable[tuple[str, str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for ident, name in named:
        for key in (ident, name, re.sub(r"\(.*?\)", "", name)):
            k = norm(key)
            if k:
                out.setdefault(k, ident)
    return out


_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6"}


def _unique(items: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return list(dict.fromkeys(items))


_MAX_READINGS = 256


def _readings(alts: Sequence[Sequence[tuple[str, str]]]) -> list[tuple[tuple[str, str], ...]]:
    """Every combination of token meanings (capped: beyond it, ask for a longer prefix)."""
    total = 1
    for a in alts:
        total *= len(a)
    if total > _MAX_READINGS:
        raise AmbiguousAction.of("", "error.parse.too_many")
    return list(itertools.product(*alts))


# ============================================================================ parse: verbs


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for raw in text.replace(",", " ").split():
        if raw.startswith("+"):
            out.append(raw)
            continue
        out.extend(p for p in raw.split("+") if p)
    return out


def _merge(ctx: _Ctx, toks: list[str], classes: Sequence[str]) -> list[str]:
    """Join words that together spell one id or name (``sugar cane field`` -> one token)."""
    out: list[str] = []
    i = 0
    while i < len(toks):
        for j in range(min(len(toks), i + 5), i + 1, -1):
            joined = "_".join(toks[i:j])
            if "@" not in joined and ctx.known(joined, classes):
                out.append(joined)
                i = j
                break
        else:
            out.append(toks[i])
            i += 1
    return out


Builder = Callable[[_Ctx, list[str]], list[Any]]


def _bag(ctx: _Ctx, toks: list[str], classes: Sequence[str]) -> list[dict[str, list[str]]]:
    """Each reading of the tokens as {class: [ids in typed order]}."""
    toks = _merge(ctx, toks, classes)
    alts = [ctx.resolve(t, classes) for t in toks]
    out = []
    for combo in _readings(alts):
        d: dict[str, list[str]] = {}
        for cls, val in combo:
            d.setdefault(cls, []).append(val)
        out.append(d)
    return out


def _alternatives(items: list[Param]) -> Param:
    """``a``, ``a or b``, ``a or b or c``."""
    if len(items) == 1:
        return items[0]
    return msg("error.part.or2", a=items[0], b=_alternatives(items[1:]))


def _usage_or(a: str, b: str) -> Param:
    return msg("error.usage.or", a=a, b=b)


def _one(d: dict[str, list[str]], cls: str, usage: Param, optional: bool = False) -> str | None:
    vals = d.get(cls, [])
    if len(vals) == 1:
        return vals[0]
    if not vals and optional:
        return None
    key = "error.parse.expected_one" if vals else "error.parse.expected"
    raise InvalidAction.of("", key, what=f"@error.class.{cls}", usage=usage)


def _only(d: dict[str, list[str]], allowed: Iterable[str], usage: Param) -> None:
    extra = set(d) - set(allowed)
    if extra:
        what: list[Param] = [
            msg("error.part.class_values", what=f"@error.class.{c}", values=" ".join(d[c]))
            for c in sorted(extra)
        ]
        raise InvalidAction.of("", "error.parse.unexpected", what=what, usage=usage)


def _none_word(toks: list[str]) -> bool:
    return len(toks) == 1 and norm(toks[0]) in ("none", "no", "nothing", "skip", "decline")


def _b_keep(ctx: _Ctx, toks: list[str]) -> list[Any]:
    if len(toks) == 1 and ctx.known(toks[0], ["unit"]) and not ctx.known(toks[0], ["mission"]):
        return _b_keep_unit(ctx, toks)
    out = []
    for d in _bag(ctx, toks, ["mission"]):
        out.append(A.KeepMissions(seat=ctx.seat, keep=tuple(d.get("mission", []))))
    return out


def _b_keep_unit(ctx: _Ctx, toks: list[str]) -> list[Any]:
    usage = "`keep-unit <unit>`"
    return [
        A.KeepUnit(seat=ctx.seat, unit=_one(d, "unit", usage) or "")
        for d in _bag(ctx, toks, ["unit"])
    ]


_DRAW = re.compile(r"^\+?(\d*)\s*cards?$")


def _b_recruit(ctx: _Ctx, toks: list[str]) -> list[Any]:
    usage = "`recruit <unit>@<hex> [+card]`"
    draw = 0
    rest: list[str] = []
    i = 0
    while i < len(toks):
        t = toks[i].lower()
        m = _DRAW.match(t)
        if t.startswith("+") or (m and t in ("card", "cards")):
            num = t.lstrip("+")
            if num.isdigit() and i + 1 < len(toks) and toks[i + 1].lower() in ("card", "cards"):
                draw += int(num)
                i += 2
                continue
            if not m:
                raise InvalidAction.of("", "error.parse.draw", token=toks[i])
            draw += int(m.group(1) or 1)
        elif t == "draw":
            if i + 1 < len(toks) and toks[i + 1].isdigit():
                draw += int(toks[i + 1])
                i += 1
            else:
                draw += 1
        else:
            rest.append(toks[i])
        i += 1
    # deployments: unit@hex, or a unit followed by a hex
    flat: list[str] = []
    for t in rest:
        if "@" in t:
            u, _, h = t.partition("@")
            flat += [u, "@", h]
        else:
            flat.append(t)
    flat = [t for t in flat if t]
    alts: list[list[tuple[str, str]]] = []
    for t in _merge(ctx, [t for t in flat if t != "@"], ["unit", "hex"]):
        alts.append(ctx.resolve(t, ["unit", "hex"]))
    out = []
    for combo in _readings(alts):
        deploy: list[A.Deploy] = []
        pending_unit: str | None = None
        for cls, val in combo:
            if cls == "unit":
                if pending_unit is not None:
                    raise InvalidAction.of(
                        "", "error.parse.where_unit", unit=pending_unit, usage=usage
                    )
                pending_unit = val
            else:
                if pending_unit is None:
                    raise InvalidAction.of("", "error.parse.which_unit_to", hex=val, usage=usage)
                deploy.append(A.Deploy(unit=pending_unit, to=val))
                pending_unit = None
        if pending_unit is not None:
            raise InvalidAction.of("", "error.parse.where_unit", unit=pending_unit, usage=usage)
        out.append(A.Recruit(seat=ctx.seat, deploy=tuple(deploy), draw=draw))
    return out


def _b_renovate(ctx: _Ctx, toks: list[str]) -> list[Any]:
    flip = any(norm(t) == "flip" for t in toks)
    toks = [t for t in toks if norm(t) != "flip"]
    usage = "`renovate <hex> [flip]`"
    out = []
    for d in _bag(ctx, toks, ["hex"]):
        out.append(A.Renovate(seat=ctx.seat, at=_one(d, "hex", usage) or "", flip=flip))
    return out


def _b_trade(ctx: _Ctx, toks: list[str]) -> list[Any]:
    if not toks:
        return [A.Trade(seat=ctx.seat)]
    return _b_exchange(ctx, toks)


_KINDS = ("gold", "pair", "four", "cards")


def _b_exchange(ctx: _Ctx, toks: list[str]) -> list[Any]:
    usage = "`exchange gold|pair|four|cards <goods or cards>`"
    kind: str | None = None
    if toks and norm(toks[0]) in _KINDS and len(toks) > 1:
        kind = norm(toks[0])
        toks = toks[1:]
    out = []
    for d in _bag(ctx, toks, ["crop", "combat_card"]):
        crops, cards = d.get("crop", []), d.get("combat_card", [])
        if crops and cards:
            raise InvalidAction.of("", "error.parse.exchange_mix", usage=usage)
        give = crops or cards
        k = kind or ("cards" if cards else {1: "gold", 2: "pair", 4: "four"}.get(len(crops), ""))
        if k not in _KINDS:
            raise InvalidAction.of("", "error.parse.exchange_count", usage=usage)
        out.append(A.Exchange(seat=ctx.seat, kind=k, give=tuple(give)))  # type: ignore[arg-type]
    return out


def _b_end(ctx: _Ctx, toks: list[str]) -> list[Any]:
    words = [norm(t) for t in toks]
    if not words:  # `end` ends trading during the trade step, else the turn
        if ctx.state.phase == "play" and ctx.state.turn.step == "trade":
            return [A.EndTrade(seat=ctx.seat)]
        return [A.EndTurn(seat=ctx.seat)]
    if words in (["turn"], ["movement"]):
        return [A.EndTurn(seat=ctx.seat)]
    if words in (["trade"], ["trading"]):
        return [A.EndTrade(seat=ctx.seat)]
    raise InvalidAction.of("", "error.parse.end")


def _b_move(ctx: _Ctx, toks: list[str]) -> list[Any]:
    usage = "`move <unit> <hex> [extra] [carry <unit> ...]`"
    kind = "free"
    main: list[str] = []
    carried: list[str] = []
    in_carry = False
    for t in toks:
        n = norm(t)
        if n == "extra":
            kind = "extra"
        elif n == "free":
            kind = "free"
        elif n in ("carry", "carrying", "with"):
            in_carry = True
        elif n in ("to", "at"):
            continue
        elif in_carry:
            carried.append(t)
        else:
            main.append(t)
    out = []
    carry_alts = [ctx.resolve(t, ["unit"]) for t in _merge(ctx, carried, ["unit"])]
    for d in _bag(ctx, main, ["unit", "hex"]):
        _only(d, ("unit", "hex"), usage)
        units = d.get("unit", [])
        if not units:
            raise InvalidAction.of("", "error.parse.which_unit", usage=usage)
        to = _one(d, "hex", usage) or ""
        for cc in _readings(carry_alts):
            carry = tuple(units[1:]) + tuple(v for _, v in cc)
            out.append(A.Move(seat=ctx.seat, unit=units[0], to=to, kind=kind, carry=carry))  # type: ignore[arg-type]
    return out


def _b_gold(ctx: _Ctx, toks: list[str]) -> list[Any]:
    usage = "@error.usage.gold"
    if not toks:
        raise InvalidAction.of("", "error.parse.which_gold", usage=usage)
    toks = _merge(ctx, toks, ["gold_card"])
    cards = ctx.resolve(toks[0], ["gold_card"])
    rest = toks[1:]
    out: list[Any] = []
    for _, card in cards:
        effect = ctx.cat.gold_cards[card].effect
        if effect == "build":
            for d in _bag(ctx, rest, ["hex"]):
                out.append(A.PlayGoldCard(seat=ctx.seat, card=card, at=_one(d, "hex", usage) or ""))
        elif effect == "deploy":
            for r in _b_recruit(ctx, rest):
                if len(r.deploy) != 1 or r.draw:
                    raise InvalidAction.of(
                        "", "error.parse.usage", usage=f"`gold {card} <unit>@<hex>`"
                    )
                dep = r.deploy[0]
                out.append(A.PlayGoldCard(seat=ctx.seat, card=card, unit=dep.unit, to=dep.to))
        elif effect == "manufacture":
            for d in _bag(ctx, rest, ["product", "dest"]):
                _only(d, ("product", "dest"), f"`gold {card} <product> <arch>`")
                out.append(
                    A.PlayGoldCard(
                        seat=ctx.seat,
                        card=card,
                        product=_one(d, "product", usage),
                        to=_one(d, "dest", usage),
                    )
                )
        elif effect == "exchange":
            for d in _bag(ctx, rest, ["crop"]):
                out.append(A.PlayGoldCard(seat=ctx.seat, card=card, give=tuple(d.get("crop", []))))
        elif effect == "espionage":
            for d in _bag(ctx, rest, ["seat"]):
                target = _one(d, "seat", f"`gold {card} <colour>`")
                out.append(A.PlayGoldCard(seat=ctx.seat, card=card, target=int(target or 0)))
        elif effect == "veterans":
            for d in _bag(ctx, rest, ["unit"]):
                out.append(A.PlayGoldCard(seat=ctx.seat, card=card, unit=_one(d, "unit", usage)))
        else:
            if rest:
                raise InvalidAction.of(
                    "", "error.parse.card_no_args", card=f"@term.gold_card.{card}"
                )
            out.append(A.PlayGoldCard(seat=ctx.seat, card=card))
    return out


def _palace_like(make: Callable[[int, int | None, str | None], Any], verb: str) -> Builder:
    def build(ctx: _Ctx, toks: list[str]) -> list[Any]:
        if verb == "palace" and _none_word(toks):
            return [make(ctx.seat, None, None)]
        usage = f"`{verb} <palace number> <hex>`"
        out = []
        for d in _bag(ctx, toks, ["int", "hex"]):
            _only(d, ("int", "hex"), usage)
            out.append(make(ctx.seat, int(_one(d, "int", usage) or 0), _one(d, "hex", usage)))
        return out

    return build


def _b_free(ctx: _Ctx, toks: list[str]) -> list[Any]:
    if _none_word(toks):
        return [A.FreeManufacture(seat=ctx.seat)]
    usage = _usage_or("`free <product> <arch>`", "`free none`")
    out = []
    for d in _bag(ctx, toks, ["product", "dest"]):
        _only(d, ("product", "dest"), usage)
        out.append(
            A.FreeManufacture(
                seat=ctx.seat, product=_one(d, "product", usage), to=_one(d, "dest", usage)
            )
        )
    return out


def _b_discard(ctx: _Ctx, toks: list[str]) -> list[Any]:
    usage = _usage_or("`discard <good+good>`", "`discard <card> <card>`")
    out: list[Any] = []
    for d in _bag(ctx, toks, ["good", "gold_card", "combat_card"]):
        kinds = [k for k in ("good", "gold_card", "combat_card") if d.get(k)]
        if len(kinds) != 1:
            raise InvalidAction.of("", "error.parse.discard", usage=usage)
        k = kinds[0]
        if k == "good":
            out.append(A.Discard(seat=ctx.seat, goods=tuple(d[k])))
        else:
            deck: Literal["gold", "combat"] = "gold" if k == "gold_card" else "combat"
            out.append(A.DiscardCards(seat=ctx.seat, deck=deck, cards=tuple(d[k])))
    return out


def _b_cards(ctx: _Ctx, toks: list[str]) -> list[Any]:
    if _none_word(toks) or not toks:
        return [A.CommitCards(seat=ctx.seat)]
    toks = [t for t in toks if norm(t) not in ("camp", "paying")]
    out = []
    for d in _bag(ctx, toks, ["combat_card", "crop"]):
        out.append(
            A.CommitCards(
                seat=ctx.seat,
                cards=tuple(d.get("combat_card", [])),
                camp=tuple(d.get("crop", [])),
            )
        )
    return out


def _b_retreat(ctx: _Ctx, toks: list[str]) -> list[Any]:
    if _none_word(toks) or norm(" ".join(toks)) in ("reserve", "to_reserve", "to_the_reserve"):
        return [A.RetreatTo(seat=ctx.seat)]
    usage = _usage_or("`retreat <hex>`", "`retreat none`")
    return [A.RetreatTo(seat=ctx.seat, at=_one(d, "hex", usage)) for d in _bag(ctx, toks, ["hex"])]


def _b_war(ctx: _Ctx, toks: list[str]) -> list[Any]:
    w = norm(" ".join(toks))
    if w in ("yes", "y", "play", "true"):
        return [A.WarCard(seat=ctx.seat, play=True)]
    if w in ("no", "n", "pass", "false", "none", ""):
        return [A.WarCard(seat=ctx.seat, play=False)]
    raise InvalidAction.of("", "error.parse.war")


def _no_args(make: Callable[[int], Any], verb: str) -> Builder:
    def build(ctx: _Ctx, toks: list[str]) -> list[Any]:
        if toks:
            raise InvalidAction.of("", "error.parse.no_args", verb=verb)
        return [make(ctx.seat)]

    return build


def _simple_verb(verb: str, cls_map: dict[str, str], action: type) -> Builder:
    usage = f"`{verb} " + " ".join(f"<{_Ctx.LABELS[c]}>" for c in cls_map) + "`"

    def build(ctx: _Ctx, toks: list[str]) -> list[Any]:
        toks = [t for t in toks if norm(t) not in ("at", "to", "on")]
        out = []
        for d in _bag(ctx, toks, list(cls_map)):
            _only(d, cls_map, usage)
            vals: dict[str, Any] = {}
            for c, f in cls_map.items():
                v = _one(d, c, usage) or ""
                vals[f] = int(v) if c == "int" else v
            out.append(action(seat=ctx.seat, **vals))
        return out

    return build


_VERBS: dict[str, Builder] = {
    "colour": _simple_verb("colour", {"colour": "colour"}, A.ChooseColour),
    "keep": _b_keep,
    "monarch": _simple_verb("monarch", {"monarch": "monarch"}, A.ChooseMonarch),
    "capital": _simple_verb("capital", {"hex": "at"}, A.ChooseCapital),
    "recruit": _b_recruit,
    "painting": _simple_verb("painting", {"painting": "painting"}, A.TakePainting),
    "build": _simple_verb("build", {"building": "building", "hex": "at"}, A.Build),
    "renovate": _b_renovate,
    "manufacture": _simple_verb("manufacture", {"product": "product", "dest": "to"}, A.Manufacture),
    "import": _simple_verb("import", {"crop": "crop"}, A.Import),
    "trade": _b_trade,
    "exchange": _b_exchange,
    "end": _b_end,
    "pass": _no_args(lambda s: A.PassAction(seat=s), "pass"),
    "move": _b_move,
    "peek": _simple_verb("peek", {"hex": "at"}, A.Peek),
    "bombard": _simple_verb("bombard", {"unit": "unit", "hex": "at"}, A.Bombard),
    "expedition": _simple_verb("expedition", {"hex": "at"}, A.Expedition),
    "mission": _simple_verb("mission", {"mission": "mission"}, A.RevealMission),
    "gold": _b_gold,
    "coroados": _simple_verb("coroados", {"int": "token"}, A.Coroados),
    "isabel": _palace_like(
        lambda s, p, h: A.IsabelPalace(seat=s, palace=p or 0, at=h or ""), "isabel"
    ),
    "palace": _palace_like(lambda s, p, h: A.PlacePalace(seat=s, palace=p, at=h), "palace"),
    "free": _b_free,
    "token": _simple_verb("token", {"token_arch": "arch"}, A.PlaceEraToken),
    "discard": _b_discard,
    "good": _simple_verb("good", {"good": "good"}, A.ChooseGood),
    "era": _simple_verb("era", {"int": "era"}, A.ChooseEra),
    "deck": _simple_verb("deck", {"frame": "frame"}, A.ChooseDeck),
    "cards": _b_cards,
    "keep_unit": _b_keep_unit,
    "retreat": _b_retreat,
    "war": _b_war,
}

_ALIASES = {
    "color": "colour",
    "paint": "painting",
    "reveal": "mission",
    "play": "gold",
    "commit": "cards",
    "done": "end",
    "bandeiras": "expedition",
    "isabel_palace": "isabel",
    "place_palace": "palace",
    "free_manufacture": "free",
    "era_token": "token",
    "resource": "good",
    "choose_good": "good",
    "sepe": "keep_unit",
}


def parse_verb(word: str) -> str:
    n = norm(word)
    if n in _VERBS:
        return n
    if n in _ALIASES:
        return _ALIASES[n]
    starts = sorted(
        {v for v in _VERBS if v.startswith(n)} | {_ALIASES[a] for a in _ALIASES if a.startswith(n)}
    )
    if len(starts) == 1 and n:
        return starts[0]
    if len(starts) > 1:
        raise AmbiguousAction.of(
            "", "error.parse.could_be", word=word, options=or_list(list(starts))
        )
    close = difflib.get_close_matches(n, list(_VERBS) + list(_ALIASES), n=3, cutoff=0.6)
    hint: Param = ""
    if close:
        options = or_list([_ALIASES.get(c, c) for c in close])
        hint = msg("error.hint.did_you_mean", options=options)
    raise InvalidAction.of("", "error.parse.not_a_command", word=word, hint=hint)


def _parse_payment(ctx: _Ctx, toks: list[str]) -> tuple[A.PayItem, ...]:
    items: list[A.PayItem] = []
    if len(toks) == 1 and norm(toks[0]) in ("nothing", "none"):
        return ()
    for t in toks:
        src, sep, what = t.partition(":")
        if not sep:
            src, what = "reserve", t
        s = norm(src)
        if s in _PAYMENT_SOURCES:
            source = _PAYMENT_SOURCES[s]
            cls = {"gold_card": "gold_card", "combat_card": "combat_card"}.get(source, "good")
        else:
            ((_, source),) = ctx.resolve(src, ["hex"])
            cls = "good"
        found = ctx.resolve(what, [cls])
        if len(found) > 1:
            raise AmbiguousAction.of(
                "", "error.parse.could_be", word=what, options=or_list([v for _, v in found])
            )
        items.append(A.PayItem(source=source, what=found[0][1]))
    return tuple(items)


# ============================================================================ parse: checking


def _canon(a: Any) -> Any:
    """The action with its tuple fields sorted and no payment: equal iff the same choice."""
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(a):
        v = getattr(a, f.name)
        if f.name == "payment":
            changes[f.name] = None
        elif isinstance(v, tuple):
            changes[f.name] = tuple(sorted(v, key=repr))
    return dataclasses.replace(a, **changes) if changes else a


def _with_payment(a: Any, payment: tuple[A.PayItem, ...] | None) -> Any:
    if payment is None:
        return a
    return dataclasses.replace(a, payment=payment)


def _has_payment(a: Any) -> bool:
    return any(f.name == "payment" for f in dataclasses.fields(a))


def parse_text(state: GameState, seat: int, text: str) -> Action:
    """Read a typed command for ``seat`` (see :data:`GRAMMAR`) as one legal action.

    Raises :class:`InvalidAction` for text that does not read as a command (with a "did you
    mean"), :class:`AmbiguousAction` when it reads as several legal actions, and
    :class:`IllegalAction` (or :class:`NotYourDecision`) with the engine's rule when it reads
    as an action that is not legal now; the message lists what is legal. An explicit
    ``pay ...`` clause is kept on the action and checked by :func:`rules.apply`.
    """
    if not 0 <= seat < state.n:
        raise InvalidAction.of("", "error.seat.none", seat=repr(seat), n=state.n)
    words = text.strip().split()
    if not words:
        raise InvalidAction.of("", "error.parse.empty", hint=_legal_hint(state, seat, None))
    low = [w.lower() for w in words]
    pay_toks: list[str] | None = None
    if "pay" in low:
        i = low.index("pay")
        pay_toks = _tokens(" ".join(words[i + 1 :]))
        words = words[:i]
        if not words:
            raise InvalidAction.of("", "error.parse.pay_alone")
    ctx = _Ctx(state, seat)
    verb = parse_verb(words[0])
    try:
        candidates = _VERBS[verb](ctx, _tokens(" ".join(words[1:])))
    except AmbiguousAction:
        raise
    except InvalidAction as e:
        raise InvalidAction.of(
            e.rule, "error.parse.with_hint", error=e.msg(), hint=_verb_hint(state, seat, verb)
        ) from None
    payment = _parse_payment(ctx, pay_toks) if pay_toks is not None else None
    if payment is not None:
        candidates = [c for c in candidates if _has_payment(c)]
        if not candidates:
            raise InvalidAction.of("", "error.parse.no_payment", verb=verb)
    legal = legal_actions(state, seat)
    by_canon: dict[Any, Any] = {}
    for b in legal:
        by_canon.setdefault(_canon(b), b)
    matches = list(dict.fromkeys(by_canon[k] for c in candidates if (k := _canon(c)) in by_canon))
    if len(matches) == 1:
        return _with_payment(matches[0], payment)  # type: ignore[no-any-return]
    if len(matches) > 1:
        shown: list[Param] = [f"`{format_action(state, m)}`" for m in matches[:10]]
        raise AmbiguousAction.of("", "error.parse.could_mean", text=text.strip(), options=shown)
    uniq = list(dict.fromkeys(_canon(c) for c in candidates))
    if len(uniq) > 1:
        shown = [f"`{format_action(state, c)}`" for c in uniq[:10]]
        raise AmbiguousAction.of(
            "",
            "error.parse.could_mean_none",
            text=text.strip(),
            options=shown,
            hint=_legal_hint(state, seat, uniq[0], legal),
        )
    _explain(state, seat, _with_payment(candidates[0], payment), legal)
    raise AssertionError("unreachable")  # pragma: no cover


_FORMAT_VERBS = {
    "keep": ("keep", "keep-unit"),
    "keep_unit": ("keep-unit",),
    "trade": ("trade", "exchange"),
    "exchange": ("exchange",),
}


def _verb_hint(state: GameState, seat: int, verb: str) -> Param:
    """The legal commands starting with ``verb`` (or all legal commands if none do)."""
    heads = _FORMAT_VERBS.get(verb, (verb,))
    texts = legal_texts(state, seat)
    mine = [t for t in texts if t.split()[0] in heads]
    if mine:
        return msg("error.hint.legal", commands=_short(mine))
    if texts:
        return msg("error.hint.verb_not_now", verb=verb, commands=_short(texts))
    return "."


def _explain(state: GameState, seat: int, a: Any, legal: list[Any]) -> None:
    """Raise the most specific error for an action that is not in the legal list."""
    cmd = format_action(state, a)
    rule, reason = "", cast(Param, "@error.parse.not_legal")
    cls: type[RulesError] = IllegalAction
    try:
        apply(state, a)
    except NotYourDecision as e:
        rule, reason, cls = e.rule, e.msg(), NotYourDecision
    except RulesError as e:
        rule, reason = e.rule, e.msg()
    raise cls.of(
        rule,
        "error.parse.cannot",
        command=cmd,
        reason=reason,
        hint=_legal_hint(state, seat, a, legal),
    )


_KEY_FIELD = {
    "build": "building",
    "move": "unit",
    "bombard": "unit",
    "manufacture": "product",
    "play_gold_card": "card",
    "painting": "",
}


def _legal_hint(state: GameState, seat: int, a: Any, legal: list[Any] | None = None) -> Param:
    """What is legal instead of ``a``: a nested ``error.hint.*`` message."""
    if legal is None:
        legal = legal_actions(state, seat)
    if not legal:
        return "@error.hint.nothing"
    same = [b for b in legal if a is not None and b.type == a.type]
    if same:
        key = _KEY_FIELD.get(a.type, "")
        if key:
            mine = [b for b in same if getattr(b, key) == getattr(a, key)]
            if mine and a.type == "build":
                places: list[Param] = list(dict.fromkeys(str(getattr(b, "at", "")) for b in mine))
                return msg("error.hint.places", building=a.building, hexes=places)
            if mine:
                same = mine
                texts = _short([format_action(state, b) for b in same])
                return msg(f"error.hint.legal_for.{a.type}", what=getattr(a, key), commands=texts)
        return msg("error.hint.legal_now", commands=_short([format_action(state, b) for b in same]))
    return msg("error.hint.legal_now", commands=_short(legal_texts(state, seat, legal)))


def _short(texts: list[str], limit: int = 12) -> Param:
    """Commands as a parameter: ```a`, `b``, with `` … (N more)`` past ``limit``."""
    texts = list(dict.fromkeys(texts))
    head: list[Param] = [f"`{t}`" for t in texts[:limit]]
    if len(texts) > limit:
        return msg("error.part.more", commands=head, more=len(texts) - limit)
    return head


def legal_texts(state: GameState, seat: int, legal: list[Action] | None = None) -> list[str]:
    """The commands of every legal action of ``seat``, in the engine's listing order."""
    if legal is None:
        legal = legal_actions(state, seat)
    return list(dict.fromkeys(format_action(state, a) for a in legal))


def complete(state: GameState, seat: int, prefix: str) -> list[str]:
    """Legal commands of ``seat`` that start with ``prefix`` (case-insensitive), sorted."""
    p = " ".join(prefix.lower().split())
    trailing = prefix.endswith(" ") and p != ""
    if trailing:
        p += " "
    return sorted({t for t in legal_texts(state, seat) if t.lower().startswith(p)})


# ============================================================================ describe


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _good(g: str) -> str:
    return g.replace("_", " ")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe_action(state: GameState, action: Action, for_seat: int | None) -> str:
    """One plain sentence about ``action`` taken in ``state`` (before it is applied), as
    ``for_seat`` (``None``: a spectator) may read it: nothing that seat may not see."""
    a: Any = action
    cat = get_catalog(state.data_pack)
    who = _seat_name(state, a.seat)
    own = for_seat == a.seat
    t = a.type

    def unit(u: str) -> str:
        return u

    def side(sid: str) -> str:
        if sid in cat.sides:
            return cat.sides[sid].name.lower()
        if sid in cat.cities:
            return cat.cities[sid].name
        return sid

    def tile_at(h: str) -> str:
        tl = state.tiles.get(h)
        return side(tl.id) if tl is not None else "building"

    def dest(d: str | None) -> str:
        if d == "victoria":
            return "Queen Victoria's tile"
        if d == "factory":
            return "the Factory"
        return f"the {d} arch"

    if t == "choose_colour":
        s = f"{who} chooses {cat.colours[a.colour].name}."
    elif t == "keep_missions":
        if own:
            names = [f"{m} ({cat.missions[m].name})" for m in a.keep]
            s = f"{who} keeps missions {_list(names)}."
        else:
            s = f"{who} keeps their missions."
    elif t == "choose_monarch":
        s = f"{who} chooses {cat.monarchs[a.monarch].name} as monarch."
    elif t == "choose_capital":
        s = f"{who} places their capital at {a.at}."
    elif t == "recruit":
        parts = [f"{d.unit} at {d.to}" for d in a.deploy]
        drawn = "a combat card" if a.draw == 1 else f"{a.draw} combat cards"
        if parts and a.draw:
            s = f"{who} recruits {_list(parts)} and draws {drawn}."
        elif parts:
            s = f"{who} recruits {_list(parts)}."
        else:
            s = f"{who} recruits: draws {drawn}."
    elif t == "painting":
        s = f"{who} takes the painting {cat.paintings[a.painting].name}."
    elif t == "build":
        if a.building in cat.cities:
            s = f"{who} founds the city of {cat.cities[a.building].name} at {a.at}."
        else:
            s = f"{who} builds {_a(side(a.building))} at {a.at}."
    elif t == "renovate":
        old = tile_at(a.at)
        if a.flip and a.at in state.tiles and state.tiles[a.at].id in cat.sides:
            new = side(cat.other_side(state.tiles[a.at].id))
            s = f"{who} renovates the {old} at {a.at}, flipping it to {_a(new)}."
        else:
            s = f"{who} renovates the {old} at {a.at}."
    elif t == "manufacture":
        s = f"{who} manufactures {cat.products[a.product].name.lower()} onto {dest(a.to)}."
    elif t == "import":
        s = f"{who} imports {_good(a.crop)}."
    elif t == "trade":
        s = f"{who} trades."
    elif t == "exchange":
        if a.kind == "cards":
            names = [cat.combat_cards[c].name for c in a.give]
            s = f"{who} exchanges the combat cards {_list(names)}."
        else:
            s = f"{who} exchanges {_list([_good(g) for g in a.give])}."
    elif t == "end_trade":
        s = f"{who} ends trading."
    elif t == "pass_action":
        s = f"{who} passes the action."
    elif t == "move":
        s = f"{who} moves {unit(a.unit)} to {a.to}"
        if a.carry:
            s += f" carrying {_list(list(a.carry))}"
        s += " (extra move)." if a.kind == "extra" else "."
    elif t == "peek":
        s = f"{who} looks at the face-down exploration tile at {a.at}."
    elif t == "bombard":
        s = f"{who} bombards {a.at} with {unit(a.unit)}."
    elif t == "expedition":
        s = f"{who} sets out on an expedition at {a.at}."
    elif t == "end_turn":
        s = f"{who} ends their turn."
    elif t == "reveal_mission":
        m = cat.missions[a.mission]
        s = f"{who} reveals the completed mission {m.id} ({m.name})."
    elif t == "play_gold_card":
        s = f"{who} plays the gold card {cat.gold_cards[a.card].name}"
        bits: list[str] = []
        if a.at is not None:
            bits.append(f"at {a.at}")
        if a.unit is not None:
            bits.append(f"for {a.unit}" + (f" at {a.to}" if a.to and a.to not in _DESTS else ""))
        if a.product is not None:
            bits.append(f"manufacturing {cat.products[a.product].name.lower()} onto {dest(a.to)}")
        if a.give:
            bits.append(f"giving {_list([_good(g) for g in a.give])}")
        if a.target is not None:
            bits.append(f"on {_seat_name(state, a.target)}")
        s += (" " + ", ".join(bits) if bits else "") + "."
    elif t == "coroados":
        s = f"{who} moves era token {a.token} onto Coroados."
    elif t == "isabel_palace":
        s = f"{who} places palace {a.palace} at {a.at} (Isabel of Brazil)."
    elif t == "place_palace":
        if a.palace is None:
            s = f"{who} places no palace."
        else:
            s = f"{who} places palace {a.palace} at {a.at}."
    elif t == "free_manufacture":
        if a.product is None:
            s = f"{who} declines the free manufacture."
        else:
            name = cat.products[a.product].name.lower()
            s = f"{who} manufactures {name} for free onto {dest(a.to)}."
    elif t == "place_era_token":
        where = "Coroados" if a.arch == "coroados" else f"the {a.arch} arch"
        s = f"{who} puts the era token under {where}."
    elif t == "discard":
        s = f"{who} discards {_list([_good(g) for g in a.goods])}."
    elif t == "discard_cards":
        book = cat.gold_cards if a.deck == "gold" else cat.combat_cards
        s = f"{who} discards the {a.deck} cards {_list([book[c].name for c in a.cards])}."
    elif t == "choose_good":
        s = f"{who} chooses {_good(a.good)}."
    elif t == "choose_era":
        s = f"{who} draws a mission of era {a.era}."
    elif t == "choose_deck":
        s = f"{who} refills the paintings from the {a.frame} deck."
    elif t == "commit_cards":
        if not a.cards:
            s = f"{who} commits no combat cards."
        elif own:
            names = [cat.combat_cards[c].name for c in a.cards]
            s = f"{who} commits {_list(names)}"
            if a.camp:
                s += f", paying {_list([_good(g) for g in a.camp])} to the camp"
            s += "."
        else:
            s = f"{who} commits {_count(len(a.cards), 'combat card')}."
    elif t == "keep_unit":
        s = f"{who} keeps {a.unit} (Sepé Tiaraju)."
    elif t == "retreat_to":
        if a.at is None:
            s = f"{who} sends the defeated units to the reserve."
        else:
            s = f"{who} retreats to {a.at}."
    elif t == "war_card":
        s = f"{who} plays the War card." if a.play else f"{who} plays no card after the battle."
    else:  # pragma: no cover
        s = f"{who} acts ({t})."
    return s


__all__ = [
    "GRAMMAR",
    "AmbiguousAction",
    "complete",
    "describe_action",
    "format_action",
    "legal_texts",
    "norm",
    "parse_text",
]
