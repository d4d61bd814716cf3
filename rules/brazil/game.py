"""The mutable working context of one apply or listing.

:class:`Context` wraps the state (a *copy* when an action is applied) with the catalog, the
board, the event list and a payability cache, and offers the small operations every rule
uses: gains with the reserve limit, card draws with reshuffles, production, control and
adjacency tests. Every rule function takes it as its first parameter, ``g``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.brazil.catalog import CROPS, Board, Catalog, get_catalog
from rules.brazil.control import occupier_of
from rules.brazil.error_messages import ERRORS
from rules.brazil.events import Event
from rules.brazil.messages import Param, catalog_names, term_ref
from rules.brazil.payment import PayabilityCache
from rules.brazil.scoring import base_production
from rules.brazil.state import ENEMY, GameState, Pending, PendingKind, Player
from rules.errors import IllegalAction, InvalidAction
from rules.fastcopy import replaced

RESERVE_LIMIT = 5  # R-VOC-4
HAND_LIMIT = 3  # R-VOC-5


def count(n: int, word: str, plural: str | None = None) -> str:
    """``count(1, "card")`` -> "1 card", ``count(2, "card")`` -> "2 cards"."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


class Context:
    """The mutable working context of one apply or listing (``g`` in the rule modules)."""

    def __init__(self, state: GameState) -> None:
        self.s = state
        self.cat: Catalog = get_catalog(state.data_pack, state.data_pack_hash)
        self.board: Board = self.cat.boards[state.map]
        self.events: list[Event] = []
        self.pay = PayabilityCache(state)
        # False in a trusted apply (``apply(..., checked=False)``): the action was listed by
        # ``legal_actions`` of this very state, so the handlers skip the checks that only
        # find problems (``*_problem``, ``check_payment``) and cannot fail on such an action.
        self.checked = True
        self.names = catalog_names(self.cat)  # the English of the events' component terms

    # ------------------------------------------------------------------ naming
    def name(self, seat: int) -> str:
        if seat == ENEMY:
            return "@phrase.orange_army"
        c = self.s.players[seat].colour
        return c.capitalize() if c else f"Seat {seat + 1}"

    def who(self, seat: int) -> Param:
        """:meth:`name` as a message parameter (a refusal's player, named in the reader's
        language): ``@error.who.<colour>`` or ``Seat N``."""
        c = self.s.players[seat].colour if seat != ENEMY else ""
        if c and f"error.who.{c}" in ERRORS:
            return f"@error.who.{c}"
        if not c and seat != ENEMY:
            return {"key": "error.who.seat", "params": {"n": seat + 1}}
        return self.name(seat)

    def emit(
        self,
        key: str,
        params: dict[str, Param],
        seat: int | None = None,
        visible_to: tuple[int, ...] | None = None,
        **data: Any,
    ) -> None:
        """Record an event: its message ``key`` (``kind`` or ``kind.variant``, a template in
        :mod:`rules.brazil.messages`) with ``params``; ``data`` is the event's machine-readable part."""
        self.events.append(Event.make(key, params, seat, visible_to, data, self.names))

    def p(self, seat: int) -> Player:
        return self.s.players[seat]

    # ------------------------------------------------------------------ goods
    def gain(self, seat: int, goods: dict[str, int], why: Param = "") -> None:
        """Put goods into the reserve. The limit is enforced by a pending discard (R-VOC-4)."""
        if not goods:
            return
        res = self.p(seat).reserve
        for g, n in goods.items():
            if n > 0:
                res[g] = res.get(g, 0) + n
        params: dict[str, Param] = {"who": self.name(seat), "goods": dict(goods)}
        if why:
            params["why"] = why
        self.emit("gain.why" if why else "gain", params, seat, goods=dict(goods))

    def gain_reward(self, seat: int, reward: str, why: Param) -> None:
        """Gain one reward token: a good, a gold card, or ``any`` = a crop of the player's
        choice (a pending decision)."""
        if reward == "any":
            self.push(seat, "choose_good", front=True, choices=list(CROPS), why=why)
        elif reward == "gold_card":
            self.draw_gold(seat, 1, why)
        else:
            self.gain(seat, {reward: 1}, why)

    def reserve_total(self, seat: int) -> int:
        return sum(self.p(seat).reserve.values())

    # ------------------------------------------------------------------ cards
    def take_card(self, deck: str) -> str | None:
        """The top card of the ``gold`` or ``combat`` deck; an empty deck is refilled by
        shuffling its discard pile [seed HU p. 16]. None if both are empty."""
        s = self.s
        pile: list[str] = getattr(s, f"{deck}_deck")
        if not pile:
            discard: list[str] = getattr(s, f"{deck}_discard")
            if not discard:
                return None
            pile = list(discard)
            s.rng.shuffle(pile)
            setattr(s, f"{deck}_deck", pile)
            setattr(s, f"{deck}_discard", [])
            self.emit(f"reshuffle.{deck}", {})
        return pile.pop()

    def draw_combat(self, seat: int, n: int = 1, why: Param = "") -> list[str]:
        return self._draw(seat, n, why, "combat")

    def draw_gold(self, seat: int, n: int = 1, why: Param = "") -> list[str]:
        return self._draw(seat, n, why, "gold")

    def _draw(self, seat: int, n: int, why: Param, deck: str) -> list[str]:
        hand = self.p(seat).combat_cards if deck == "combat" else self.p(seat).gold_cards
        got = []
        for _ in range(n):
            card = self.take_card(deck)
            if card is None:
                self.emit(f"deck_empty.{deck}", {}, seat)
                break
            hand.append(card)
            got.append(card)
        if got:
            params: dict[str, Param] = {"who": self.name(seat), "n": len(got)}
            if why:
                params["why"] = why
            self.emit(f"draw_{deck}.why" if why else f"draw_{deck}", params, seat, count=len(got))
            self.emit(
                f"draw_{deck}_private",
                {"cards": [term_ref(f"{deck}_card", c) for c in got]},
                seat,
                visible_to=(seat,),
                cards=got,
            )
        return got

    # ------------------------------------------------------------------ pending decisions
    def push(
        self, seat: int, kind: PendingKind, front: bool = False, blocking: bool = True, **data: Any
    ) -> None:
        data["blocking"] = blocking
        pd = Pending(seat=seat, kind=kind, data=data)
        if front:
            self.s.pending.insert(0, pd)
        else:
            self.s.pending.append(pd)

    def enforce_limits(self) -> None:
        """R-VOC-4/5: whoever is over a limit must discard before anything else happens."""
        for pl in self.s.players:
            over_reserve = sum(pl.reserve.values()) > RESERVE_LIMIT
            over_gold = len(pl.gold_cards) > HAND_LIMIT
            over_combat = len(pl.combat_cards) > HAND_LIMIT
            if not (over_reserve or over_gold or over_combat):
                continue  # nothing to discard: the pending decisions need not be looked at
            kinds = {(d.seat, d.kind, d.data.get("deck")) for d in self.s.pending}
            if over_reserve and (pl.seat, "discard", None) not in kinds:
                self.push(pl.seat, "discard", front=True)
            if over_gold and (pl.seat, "discard_cards", "gold") not in kinds:
                self.push(pl.seat, "discard_cards", front=True, deck="gold")
            if over_combat and (pl.seat, "discard_cards", "combat") not in kinds:
                self.push(pl.seat, "discard_cards", front=True, deck="combat")

    # ------------------------------------------------------------------ map
    def units_at(self, hex_: str) -> list[tuple[int, str]]:
        out = [(pl.seat, u) for pl in self.s.players for u, loc in pl.units.items() if loc == hex_]
        out.extend((ENEMY, u) for u, loc in self.s.enemy_units.items() if loc == hex_)
        return out

    def enemy_units_at(self, seat: int, hex_: str) -> bool:
        return any(s != seat for s, _ in self.units_at(hex_))

    def terrain(self, hex_: str) -> str:
        """Current terrain: 'building' once built on (R-BUILD-9); fog counts as plain."""
        if hex_ in self.s.tiles:
            return "building"
        return self.board.terrain[hex_]

    def opponent_adjacent(self, seat: int, hex_: str) -> bool:
        """Is ``hex_`` next to (or on) an opponent's capital, city or building (R-BUILD-4)?"""
        for nb in (hex_, *self.board.neighbours[hex_]):
            t = self.s.tiles.get(nb)
            if t is not None and t.owner != seat:
                return True
        return False

    def own_adjacent(self, seat: int, hex_: str) -> bool:
        return any(
            (t := self.s.tiles.get(nb)) is not None and t.owner == seat
            for nb in self.board.neighbours[hex_]
        )

    # ------------------------------------------------------------------ production
    def production_of(self, hex_: str) -> dict[str, int]:
        """What the building on ``hex_`` produces: the side's values (or a monarch's
        override), plus painting and river-basin bonuses (DATA.md: they stack)."""
        t = self.s.tiles[hex_]
        out: Counter[str] = Counter(base_production(self.s, t))
        ctrl = occupier_of(self.s, hex_)
        who = self.p(ctrl if ctrl is not None else t.owner) if t.owner >= 0 else None
        if who is not None:
            for pa in who.paintings:
                d = self.cat.paintings[pa]
                if d.effect == "production" and d.params.get("side") == t.id:
                    out.update(d.params.get("goods", {}))
        # River basin: +1 of each crop the building produces (R-EXPLORE-2).
        basins = sum(
            1
            for nb in self.board.neighbours[hex_]
            if (e := self.s.exploration.get(nb)) is not None
            and e.face_up
            and self.cat.exploration[e.tile].kind == "river_basin"
        )
        if basins:
            for c in [c for c in out if c in CROPS and out[c] > 0]:
                out[c] += basins
        return {g: n for g, n in out.items() if n > 0}

    def produce(self, hex_: str, why: Param) -> None:
        t = self.s.tiles[hex_]
        prod = self.production_of(hex_)
        if prod:
            goods = dict(t.goods)
            for g, n in prod.items():
                goods[g] = goods.get(g, 0) + n
            self.s.tiles[hex_] = replaced(t, goods=goods)
        if prod:
            self.emit(
                "produce",
                {"hex": hex_, "goods": dict(prod), "why": why},
                t.owner,
                hex=hex_,
                goods=prod,
            )

    def mark_special(self, seat: int, hex_: str) -> None:
        """R-MONARCH-1: the first N buildings of a monarch's type (built or flipped)."""
        t = self.s.tiles[hex_]
        mon = self.p(seat).monarch
        if not mon:
            return
        ov = self.cat.monarchs[mon].building_override
        if ov is None or ov.side != t.id:
            return
        key = f"override:{ov.side}"
        done = self.p(seat).counters.get(key, 0)
        if done < ov.first:
            self.s.tiles[hex_] = replaced(t, special=True)
            self.p(seat).counters[key] = done + 1
            self.emit(
                "monarch_power",
                {
                    "monarch": term_ref("monarch", mon),
                    "building": term_ref("building", t.id),
                    "first": ov.first,
                    "nth": done + 1,
                },
                seat,
                hex=hex_,
            )

    def require(self, cond: bool, rule: str, key: str, /, **params: Param) -> None:
        """An :class:`IllegalAction` of message ``key`` (``error.*``) unless ``cond``."""
        if not cond:
            raise IllegalAction.of(rule, key, **params)


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}


def parse_hex(g: Context, label: str) -> str:
    from rules.brazil.hexgrid import normalise_label

    try:
        lab = normalise_label(label)
    except ValueError as e:
        key = "error.hex.rows" if "rows start" in str(e) else "error.hex.label"
        raise InvalidAction.of("", key, label=label) from e
    if lab not in g.board.terrain:
        raise InvalidAction.of("", "error.hex.off_map", hex=lab)
    return lab


def require_step(g: Context, step: str, rule: str, what: Param) -> None:
    """``what`` (a nested ``error.doing.*`` message) is possible in ``step`` only."""
    if g.s.turn.step != step:
        raise IllegalAction.of(rule, "error.step", what=what, phase=f"@error.phase.{g.s.turn.step}")


def is_upgraded(g: Context, seat: int, arch: str) -> bool:
    return arch in g.p(seat).upgrades
