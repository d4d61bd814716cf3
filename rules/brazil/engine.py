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

from rules.brazil import actions as A
from rules.brazil import combat as C
from rules.brazil.catalog import CROPS
from rules.brazil.decisions import (
    DECISIONS,
    choose_deck,
    choose_era,
    choose_good,
    discard_cards,
    discard_goods,
)
from rules.brazil.events import Event
from rules.brazil.exploration import peek
from rules.brazil.game import HAND_LIMIT, RESERVE_LIMIT, Context
from rules.brazil.gold_cards import gold_card_actions, play_gold_card
from rules.brazil.missions import (
    era_token_options,
    free_manufacture,
    palace_options,
    place_era_token,
    place_palace,
    reveal_mission,
    use_coroados,
    use_isabel,
)
from rules.brazil.movement import (
    attack_actions,
    bombard,
    end_turn,
    expedition,
    finish_game,
    move,
    move_actions,
    solo_won,
)
from rules.brazil.paying import with_payments
from rules.brazil.scoring import MissionCheck
from rules.brazil.setup import (
    choose_capital,
    choose_colour,
    choose_monarch,
    keep_missions,
    monarch_options,
)
from rules.brazil.state import ENEMY, GameState, Pending
from rules.brazil.turn import (
    arch_actions,
    build,
    build_actions,
    end_trade,
    exchange,
    exchange_actions,
    import_goods,
    manufacture,
    pass_action,
    product_destinations,
    recruit,
    renovate,
    take_painting,
    trade,
)
from rules.errors import IllegalAction, InvalidAction, NotYourDecision


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


def apply(
    state: GameState, action: A.Action | ActionData, *, checked: bool = True
) -> tuple[GameState, list[Event]]:
    """Apply ``action`` to a copy of ``state``; an action's JSON or dict form is parsed
    strictly first (:func:`rules.brazil.actions.parse_action`, :class:`InvalidAction` if malformed).

    ``checked=False`` is a trusted apply (as python-chess's ``Board.push`` beside
    ``push_san``): only for an action the caller took from ``legal_actions(state)`` of this
    very state (e.g. self-play, an AI's search). It skips re-validating the action (the
    handlers' problem checks and a given payment's check), so it gives exactly the state and
    events of the checked apply for such an action; for any other action the result is
    undefined (no error need be raised). The default stays checked: anything from a person,
    a file or the network goes through the checks."""
    if isinstance(action, (str, bytes, dict)):
        action = A.parse_action(action)
    if state.phase == "ended":
        raise IllegalAction.of("R-END-1", "error.game_over")
    g = Context(state.clone())
    g.checked = checked
    _dispatch(g, action)
    g.enforce_limits()
    if g.s.solo and g.s.phase == "play" and not g.s.pending and solo_won(g.s):
        finish_game(g)  # R-SOLO-2: the game is won as soon as the conditions hold
    return g.s, g.events


def _dispatch(g: Context, a: A.Action) -> None:
    s = g.s
    seat = a.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
        raise InvalidAction.of("R-SETUP-7", "error.seat.none", seat=repr(seat), n=s.n)
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
            raise NotYourDecision.of(
                kind.rule,
                "error.seat.must_first",
                who=g.who(seat),
                what=f"@error.prompt.{pend.kind}",
            )
        s.pending.remove(pend)
        DECISION_HANDLERS[pend.kind](g, a, pend)
        return
    if s.phase != "play":
        raise NotYourDecision.of("R-SETUP-6", "error.seat.nothing", who=g.who(seat))
    if seat != s.current:
        raise NotYourDecision.of(
            "R-TURN-1", "error.seat.not_turn", current=g.who(s.current), who=g.who(seat)
        )
    if _blocking(s):
        names = {g.name(d.seat): g.who(d.seat) for d in s.pending}
        who = [names[n] for n in sorted(names)]
        raise NotYourDecision.of("", "error.seat.waiting", who=who)
    fn = _TURN.get(a.type)
    if fn is None:
        raise IllegalAction.of("", "error.not_now", type=a.type)
    fn(g, a)


# The handler of each pending decision kind (what it asks and which actions answer it:
# rules.brazil.decisions.DECISIONS).
DECISION_HANDLERS: dict[str, Callable[[Context, Any, Pending], None]] = {
    "choose_colour": choose_colour,
    "keep_missions": keep_missions,
    "choose_monarch": choose_monarch,
    "choose_capital": choose_capital,
    "place_palace": place_palace,
    "free_manufacture": free_manufacture,
    "place_era_token": place_era_token,
    "discard": discard_goods,
    "discard_cards": discard_cards,
    "choose_good": choose_good,
    "choose_era": choose_era,
    "choose_deck": choose_deck,
    "combat_cards": C.commit_cards,
    "sepe_keep": C.keep_unit,
    "retreat": C.retreat_to,
    "war_card": C.war_card,
}
assert set(DECISION_HANDLERS) == set(DECISIONS), "every decision kind needs a handler"


_ANY_ORDER = {"keep_missions", "choose_monarch"}  # simultaneous choices of one seat


_TURN: dict[str, Callable[[Context, Any], None]] = {
    "recruit": recruit,
    "painting": take_painting,
    "build": build,
    "renovate": renovate,
    "manufacture": manufacture,
    "import": import_goods,
    "trade": trade,
    "exchange": exchange,
    "end_trade": end_trade,
    "pass_action": pass_action,
    "move": move,
    "bombard": bombard,
    "expedition": expedition,
    "peek": peek,
    "end_turn": end_turn,
    "reveal_mission": reveal_mission,
    "play_gold_card": play_gold_card,
    "coroados": use_coroados,
    "isabel_palace": use_isabel,
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
    g = Context(state)  # its PayabilityCache serves the whole listing (the state does not change)
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


def _answers(g: Context, seat: int, pend: Pending) -> Iterator[Any]:
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
        for pal, h in palace_options(g, seat):
            yield A.PlacePalace(seat=seat, palace=pal, at=h)
    elif k == "free_manufacture":
        yield A.FreeManufacture(seat=seat)
        for pr in p.products:
            if g.cat.products[pr].shape == "square":
                for d in product_destinations(g, seat, pr):
                    yield A.FreeManufacture(seat=seat, product=pr, to=d)
    elif k == "place_era_token":
        for arch in era_token_options(g, seat):
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


# the listing's constructors (A.trusted_maker: equal actions, without the frozen
# dataclass's per-field __setattr__)
_PASS = A.trusted_maker(A.PassAction, "seat")
_END_TRADE = A.trusted_maker(A.EndTrade, "seat")
_PEEK = A.trusted_maker(A.Peek, "seat", "at")
_END_TURN = A.trusted_maker(A.EndTurn, "seat")
_REVEAL = A.trusted_maker(A.RevealMission, "seat", "mission")
_COROADOS = A.trusted_maker(A.Coroados, "seat", "token")
_ISABEL = A.trusted_maker(A.IsabelPalace, "seat", "palace", "at")


def _turn_actions(g: Context, seat: int) -> list[Any]:
    """The turn's actions in listing order, made into one list (no generator resumed per
    action)."""
    s = g.s
    step = s.turn.step
    out: list[Any]
    if step == "action":
        out = list(arch_actions(g, seat))
        if not out:
            out.append(_PASS(seat))
    elif step == "trade":
        out = list(exchange_actions(g, seat))
        out.append(_END_TRADE(seat))
    else:
        out = list(move_actions(g, seat))
        if not s.turn.free_move:
            out += attack_actions(g, seat)
        if s.turn.peek:
            for h, e in s.exploration.items():
                if not e.face_up:
                    out.append(_PEEK(seat, h))
        if (
            s.turn.arch == "build"
            and s.turn.builds == 1
            and "visconde_de_maua" in g.p(seat).paintings
        ):
            out += build_actions(g, seat, second=True)
        out.append(_END_TURN(seat))
    _free_actions(g, seat, out)
    return out


def _free_actions(g: Context, seat: int, out: list[Any]) -> None:
    """Append the free actions of ``seat`` to ``out``, in listing order."""
    s = g.s
    p = g.p(seat)
    check: MissionCheck | None = None  # the map's counts, made once for every mission
    for m in p.missions:
        if g.cat.missions[m].era <= s.era:
            if check is None:
                check = MissionCheck(s, seat, g.pay.where())
            if check.complete(m):
                out.append(_REVEAL(seat, m))
    if "coroados" in p.paintings and p.coroados is None:
        for tok in sorted(set(p.under.values())):
            out.append(_COROADOS(seat, tok))
    if "isabel_of_brazil" in p.paintings and not p.counters.get("isabel"):
        for pal, h in palace_options(g, seat):
            out.append(_ISABEL(seat, pal, h))
    for card in sorted(set(p.gold_cards)):
        out += gold_card_actions(g, seat, card)


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
