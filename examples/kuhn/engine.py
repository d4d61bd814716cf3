"""Kuhn poker's rules (H. W. Kuhn, 1950; 2 players): new match, legal actions, apply — pure:
no I/O, no clock, randomness only from the state's seeded RNG.

A match is ``options.hands`` hands (K-END-1). Each hand both players ante one chip, get one
card each of the shuffled J, Q, K (the third is set aside unseen, K-DEAL-1, K-DEAL-2) and bet
once around: the first player checks or bets one chip (K-BET-1); after a check the other
checks (showdown) or bets (K-BET-2); facing a bet a player calls (showdown) or folds
(K-BET-3). The higher card takes the pot at a showdown (K-SHOW-1); a fold gives the pot to
the other player, the cards unseen (K-FOLD-1). The first player alternates (K-TURN-1).

``apply`` checks the action (a :class:`~rules.errors.RulesError` subclass naming the rule,
the state untouched), copies the state and returns the new state and its events.
"""

from __future__ import annotations

from typing import Any

from examples.kuhn.actions import Action, Event
from examples.kuhn.messages import Param, card_term, render, seat_term
from examples.kuhn.state import (
    ANTE,
    BET,
    CARDS,
    NO_CARD,
    PLAYERS,
    KuhnState,
    Options,
    Player,
    Rng,
    Showdown,
)
from rules.errors import IllegalAction, InvalidAction, NotYourDecision, RulesError


def _err(cls: type[RulesError], rule: str, key: str, **params: Param) -> RulesError:
    return cls(rule, render(key, params), key=key, params=params)


def other(seat: int) -> int:
    return 1 - seat


def new_game(
    players: int = PLAYERS, seed: int = 0, options: dict[str, Any] | None = None
) -> KuhnState:
    """A new match, its first hand dealt (K-SETUP, K-DEAL)."""
    if players != PLAYERS:
        raise _err(InvalidAction, "K-SETUP-3", "kuhn.error.players", need=PLAYERS, n=players)
    opts = dict(options or {})
    unknown = sorted(set(opts) - set(Options.model_fields))
    if unknown:
        raise _err(
            InvalidAction,
            "",
            "kuhn.error.option",
            name=unknown[0],
            choices=list(Options.model_fields),
        )
    o = Options.model_validate(opts)
    if o.hands < 1:
        raise _err(InvalidAction, "K-END-1", "kuhn.error.hands", n=o.hands)
    need = (ANTE + BET) * o.hands
    if o.chips < need:
        raise _err(
            InvalidAction, "K-SETUP-2", "kuhn.error.chips", hands=o.hands, need=need, n=o.chips
        )
    state = KuhnState(
        options=o,
        rng=Rng(seed=seed),
        players=[Player(chips=o.chips) for _ in range(PLAYERS)],
    )
    _start_hand(state, 1)
    return state


def start_events(state: KuhnState) -> list[Event]:
    """The events of the match's start and its first hand (what ``new_game`` did)."""
    return [
        Event("kuhn.game.start", {"hands": state.options.hands, "chips": state.options.chips}),
        *_hand_events(state),
    ]


def _hand_events(state: KuhnState) -> list[Event]:
    out = [
        Event(
            "kuhn.hand.start",
            {
                "hand": state.hand,
                "hands": state.options.hands,
                "ante": ANTE,
                "player": seat_term(state.first),
            },
        )
    ]
    for seat, p in enumerate(state.players):
        out.append(
            Event(
                "kuhn.deal.private", {"card": card_term(p.card)}, visible_to=(seat,), reveals=True
            )
        )
    return out


def _start_hand(state: KuhnState, hand: int) -> None:
    """Ante (K-DEAL-1), shuffle and deal (K-DEAL-2); the first player alternates (K-TURN-1)."""
    state.hand = hand
    state.first = (hand - 1) % PLAYERS
    state.to_act = state.first
    state.history = []
    state.pot = 0
    for p in state.players:
        p.chips -= ANTE
        state.pot += ANTE
    deck = list(range(len(CARDS)))
    state.rng.next().shuffle(deck)
    for seat, p in enumerate(state.players):
        p.card = deck[seat]


def deciders(state: KuhnState) -> list[int]:
    """Who decides now: the player to act (K-TURN-2); nobody once the match is over."""
    return [] if state.phase == "over" else [state.to_act]


def next_deciders(state: KuhnState) -> list[int] | None:
    """Who decides after the player to act, whatever they choose, if the match goes on
    (K-TURN-1, K-TURN-2): the other player after the hand's first bet or check; the player
    to act again (the next hand's first) when every answer ends the hand — facing a bet
    after the first player bet; the first player of this hand when they face a bet after
    checking. After a check, a check ends the hand (the other player starts the next one)
    and a bet hands the decision back: unknown (None), except in the last hand, where only
    the bet goes on. Nobody once the match is over."""
    if state.phase == "over":
        return []
    h = state.history
    if not h:
        return [other(state.to_act)]
    if h == ["check"]:
        return [state.first] if state.hand >= state.options.hands else None
    nxt = other(state.first)  # the next hand's first player (K-TURN-1)
    return [nxt]


def is_over(state: KuhnState) -> bool:
    return state.phase == "over"


def legal_kinds(state: KuhnState) -> tuple[str, ...]:
    """The betting decisions open now: K-BET-1 (nothing yet), K-BET-2 (after a check),
    K-BET-3 (facing a bet)."""
    if state.phase == "over":
        return ()
    h = state.history
    if not h or h == ["check"]:
        return ("check", "bet")
    return ("call", "fold")


def rule_now(state: KuhnState) -> str:
    """The rule of the decision open now."""
    h = state.history
    return "K-BET-1" if not h else "K-BET-2" if h == ["check"] else "K-BET-3"


def legal_actions(state: KuhnState) -> list[Action]:
    """The legal actions of the seat that decides now."""
    return [Action(k, state.to_act) for k in legal_kinds(state)]


def check(state: KuhnState, action: Action) -> None:
    """Raise the refusal of ``action`` in ``state`` (nothing when it is legal)."""
    if state.phase == "over":
        raise _err(IllegalAction, "K-END-1", "kuhn.error.over")
    if action.seat != state.to_act:
        raise _err(
            NotYourDecision, "K-TURN-2", "kuhn.error.not_yours", player=seat_term(state.to_act)
        )
    kinds = legal_kinds(state)
    if action.kind not in kinds:
        raise _err(
            IllegalAction,
            rule_now(state),
            "kuhn.error.not_now",
            action="@kuhn.word." + action.kind,
            choices=["@kuhn.word." + k for k in kinds],
        )


def apply(state: KuhnState, action: Action) -> tuple[KuhnState, list[Event]]:
    """The state after ``action`` and what happened (a refusal leaves ``state`` as it was)."""
    check(state, action)
    s = state.clone()
    seat = action.seat
    who = seat_term(seat)
    events: list[Event] = []
    p = s.players[seat]
    s.history.append(action.kind)
    if action.kind == "check":
        events.append(Event("kuhn.check", {"player": who}))
        if len(s.history) == 2:  # check, check: showdown (K-BET-2)
            _showdown(s, events)
        else:
            s.to_act = other(seat)
    elif action.kind == "bet":
        p.chips -= BET
        s.pot += BET
        events.append(Event("kuhn.bet", {"player": who, "n": BET}))
        s.to_act = other(seat)
    elif action.kind == "call":
        p.chips -= BET
        s.pot += BET
        events.append(Event("kuhn.call", {"player": who}))
        _showdown(s, events)
    else:  # fold (K-FOLD-1)
        events.append(Event("kuhn.fold", {"player": who}))
        _award(s, other(seat), [NO_CARD] * PLAYERS, True, events)
    return s, events


def _showdown(s: KuhnState, events: list[Event]) -> None:
    """Both cards are shown; the higher takes the pot (K-SHOW-1)."""
    cards = [p.card for p in s.players]
    for seat, c in enumerate(cards):
        events.append(
            Event("kuhn.show", {"player": seat_term(seat), "card": card_term(c)}, reveals=True)
        )
    winner = max(range(PLAYERS), key=lambda i: cards[i])
    _award(s, winner, cards, False, events)


def _award(s: KuhnState, winner: int, shown: list[int], folded: bool, events: list[Event]) -> None:
    """The pot to ``winner``; the next hand dealt, or the match over (K-END-1)."""
    events.append(Event("kuhn.hand.won", {"player": seat_term(winner), "n": s.pot}))
    s.players[winner].chips += s.pot
    s.last = Showdown(hand=s.hand, winner=winner, pot=s.pot, cards=shown, folded=folded)
    s.pot = 0
    if s.hand >= s.options.hands:
        s.phase = "over"
        s.history = []
        for p in s.players:
            p.card = NO_CARD  # the hand is over: no card is held
        events.append(Event("kuhn.game.over", {"hands": s.options.hands}))
        return
    _start_hand(s, s.hand + 1)
    events.extend(_hand_events(s))


def final_scores(state: KuhnState) -> list[tuple[int, int]]:
    """(seat, chips), most chips first (K-END-2); equal stacks in seat order."""
    return sorted(((i, p.chips) for i, p in enumerate(state.players)), key=lambda t: (-t[1], t[0]))


def winners(state: KuhnState) -> list[int]:
    """The seats with the most chips (K-END-2: equal stacks share the win)."""
    if state.phase != "over":
        return []
    top = max(p.chips for p in state.players)
    return [i for i, p in enumerate(state.players) if p.chips == top]


__all__ = [
    "apply",
    "check",
    "deciders",
    "final_scores",
    "is_over",
    "legal_actions",
    "legal_kinds",
    "new_game",
    "next_deciders",
    "other",
    "start_events",
    "winners",
]
