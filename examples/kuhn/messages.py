"""English of Kuhn poker's engine messages (events, refusals, terms): the fallback of every
catalogue (the registration's ``engine_messages``).

The engine builds no sentences: an event or a refusal is a key and parameters, rendered from
these templates in the catalogues' template language (:mod:`rules.text`): ``{name}`` a value,
``{n|chip|chips}`` English's plural by ``n``, ``{x:list}`` a list, a text parameter ``@key``
a term reference rendered in the reader's language. Players are named by the term
references ``@kuhn.seat.0`` and ``@kuhn.seat.1`` (the service puts the seats' names in
their place), cards by ``@kuhn.card.J``/``Q``/``K``.
"""

from __future__ import annotations

from collections.abc import Mapping

from examples.kuhn.state import CARDS
from rules.text import Param as Param
from rules.text import msg as msg
from rules.text import register_english, render_message

COMMANDS: tuple[str, ...] = ("check", "bet", "call", "fold")
"""The notation's command words, in the order the help lists them."""

TERMS: dict[str, str] = {
    "game.kuhn": "Kuhn poker",
    "kuhn.card.J": "Jack",
    "kuhn.card.Q": "Queen",
    "kuhn.card.K": "King",
    "kuhn.seat.0": "Player 1",
    "kuhn.seat.1": "Player 2",
    **{f"kuhn.word.{c}": c for c in COMMANDS},
}

EN: dict[str, str] = {
    # events
    "kuhn.game.start": "A match of Kuhn poker begins: {hands} {hands|hand|hands}, "
    "{chips} chips each.",
    "kuhn.hand.start": "Hand {hand} of {hands}: both players ante {ante}; {player} acts first.",
    "kuhn.deal.private": "You are dealt the {card}.",
    "kuhn.check": "{player} checks.",
    "kuhn.bet": "{player} bets {n} {n|chip|chips}.",
    "kuhn.call": "{player} calls.",
    "kuhn.fold": "{player} folds.",
    "kuhn.show": "{player} shows the {card}.",
    "kuhn.hand.won": "{player} wins the pot of {n} {n|chip|chips}.",
    "kuhn.game.over": "The match is over after {hands} {hands|hand|hands}.",
    # actions described
    "kuhn.describe.check": "Check: bet nothing.",
    "kuhn.describe.bet": "Bet {n} {n|chip|chips}.",
    "kuhn.describe.call": "Call the bet ({n} {n|chip|chips}).",
    "kuhn.describe.fold": "Fold: give up the pot.",
    # refusals (the rule ID goes with the error)
    "kuhn.error.over": "The match is over.",
    "kuhn.error.not_yours": "It is {player}'s decision now, not yours.",
    "kuhn.error.not_now": "You cannot {action} now; you may: {choices:list}.",
    "kuhn.error.players": "Kuhn poker is for exactly {need} players, not {n}.",
    "kuhn.error.hands": "A match has at least one hand, not {n}.",
    "kuhn.error.chips": "For {hands} {hands|hand|hands} each player needs at least {need} "
    "chips, not {n}.",
    "kuhn.error.option": "Unknown option {name}: choose among {choices:list}.",
    "kuhn.error.parse": "Cannot read '{text}': {why}",
    # why a command cannot be read (nested in kuhn.error.parse)
    "kuhn.why.empty": "empty command",
    "kuhn.why.over": "the match is over",
    "kuhn.why.extra": "{command} takes no words after it",
    "kuhn.why.commands": "commands: {commands:list}",
}

CATALOGUE: dict[str, str] = {**TERMS, **EN}
"""Every English template of the game (what ``i18n`` adds to its English catalogue)."""


def card_term(card: int) -> str:
    """A card's term reference (``@kuhn.card.K``)."""
    return "@kuhn.card." + CARDS[card]


def seat_term(seat: int) -> str:
    """A seat's term reference (``@kuhn.seat.0``)."""
    return f"@kuhn.seat.{seat}"


def render(key: str, params: Mapping[str, Param], table: Mapping[str, str] = CATALOGUE) -> str:
    """The English (or ``table``'s) sentence of message ``key`` with ``params``."""
    return render_message(key, params, catalogue=table)


register_english(CATALOGUE)
