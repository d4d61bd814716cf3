"""The rules: who decides, what is legal, and what an action does.

``apply(state, action)`` validates and applies one action on a copy of the state and returns
``(new_state, events)``; an illegal action raises a :class:`RulesError` naming the rule and
leaves the given state untouched. ``legal_actions(state)`` lists every legal action for
whoever must decide now (payments are never enumerated: a listed action carries no payment
and the engine pays a safe default, or, when there is none, the engine's cheapest payment).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any, Literal

from rules import actions as A
from rules import combat as C
from rules.catalog import CROPS
from rules.decisions import (
    DECISIONS,
    _choose_deck,
    _choose_era,
    _choose_good,
    _discard,
    _discard_cards,
)
from rules.errors import IllegalAction, InvalidAction, NotYourDecision
from rules.events import Event
from rules.game import ENEMY, HAND_LIMIT, RESERVE_LIMIT, G
from rules.gold_cards import _gold_card_actions, _play_gold_card
from rules.missions import (
    _coroados,
    _era_token_options,
    _free_manufacture,
    _isabel,
    _palace_options,
    _place_era_token,
    _place_palace,
    _reveal_mission,
)
from rules.movement import (
    _attack_actions,
    _bombard,
    _end_turn,
    _expedition,
    _finish,
    _move,
    _move_actions,
    _peek,
    solo_won,
)
from rules.paying import with_payments
from rules.scoring import mission_complete
from rules.setup import (
    _choose_capital,
    _choose_colour,
    _choose_monarch,
    _keep_missions,
    monarch_options,
)
from rules.state import GameState, Pending
from rules.turn import (
    _arch_actions,
    _build,
    _build_actions,
    _destinations,
    _end_trade,
    _exchange,
    _exchange_actions,
    _import,
    _manufacture,
    _pass_action,
    _recruit,
    _renovate,
    _take_painting,
    _trade,
)


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


ActionData = str | bytes | dict[str, object]  # an action's JSON text or dict form


def apply(state: GameState, action: A.Action | ActionData) -> tuple[GameState, list[Event]]:
    """Apply ``action`` to a copy of ``state``; an action's JSON or dict form is parsed
    strictly first (:func:`rules.actions.parse_action`, :class:`InvalidAction` if malformed)."""
    if isinstance(action, (str, bytes, dict)):
        action = A.parse_action(action)
    if state.phase == "ended":
        raise IllegalAction("R-END-1", "the game is over")
    g = G(state.clone())
    _dispatch(g, action)
    g.enforce_limits()
    if g.s.solo and g.s.phase == "play" and not g.s.pending and solo_won(g.s):
        _finish(g)  # R-SOLO-2: the game is won as soon as the conditions hold
    return g.s, g.events


def _dispatch(g: G, a: A.Action) -> None:
    s = g.s
    seat = a.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
        raise InvalidAction("R-SETUP-7", f"there is no seat {seat!r} in this {s.n}-player game")
    pend = pending_for(s, seat)
    if pend is not None and pend.kind in _ANY_ORDER and a.type not in DECISIONS[pend.kind].answers:
        # R-SETUP-5: a seat's simultaneous setup choices may be answered in either order.
        pend = next(
            (
                d
                for d in s.pending
                if d.seat == seat and d.kind in _ANY_ORDER and a.type in DECISIONS[d.kind].answers
            ),
            pend,
        )
    if pend is not None:
        kind = DECISIONS[pend.kind]
        if a.type not in kind.answers:
            raise NotYourDecision(kind.rule, f"{g.name(seat)} must first {kind.prompt}")
        s.pending.remove(pend)
        _HANDLERS[pend.kind](g, a, pend)
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


# The handler of each pending decision kind (what it asks and which actions answer it:
# rules.decisions.DECISIONS).
_HANDLERS: dict[str, Callable[[G, Any, Pending], None]] = {
    "choose_colour": _choose_colour,
    "keep_missions": _keep_missions,
    "choose_monarch": _choose_monarch,
    "choose_capital": _choose_capital,
    "place_palace": _place_palace,
    "free_manufacture": _free_manufacture,
    "place_era_token": _place_era_token,
    "discard": _discard,
    "discard_cards": _discard_cards,
    "choose_good": _choose_good,
    "choose_era": _choose_era,
    "choose_deck": _choose_deck,
    "combat_cards": C.commit_cards,
    "sepe_keep": C.keep_unit,
    "retreat": C.retreat_to,
    "war_card": C.war_card,
}
assert set(_HANDLERS) == set(DECISIONS), "every decision kind needs a handler"


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


def legal_actions(state: GameState, seat: int | None = None) -> list[A.Action]:
    """Every legal action of ``seat`` now (empty if it has nothing to decide).

    A UI always passes the seat of the person it serves: ``legal_actions(state, seat)``
    lists only that seat's choices (its hand, its missions). Without a seat, the actions of
    every seat that may decide now are listed together (several during simultaneous setup
    choices or a defender's card choice) — for AI players, fuzzing and self-play, which
    know every seat's secrets anyway; never show that list to one person.
    """
    if state.phase == "ended":
        return []
    g = G(state)  # its PayabilityCache serves the whole listing (the state does not change)
    who = deciders(state)
    seats = who if seat is None else [seat]
    out: list[A.Action] = []
    for st in seats:
        if st not in who:
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
    return with_payments(g, out)  # a cost with no safe default: listed with its payment


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
