"""The English of Kuhn poker's words in the service, the terminal and its pictures
(:mod:`examples.kuhn.adapter`, :mod:`examples.kuhn.render`) and, in :data:`ENGLISH`, the
engine's own messages (:mod:`examples.kuhn.messages`): the registration's
``engine_messages``, the fallback of every catalogue.

Why not a ``locales`` folder (``locales/en/kuhn.toml``): :mod:`i18n.catalogue` serves a
game's folder *instead of* the platform's for a language both have (``load_all`` makes one
catalogue per folder and language, and the later folder's replaces the earlier's), so a
game's ``en`` catalogue would hide every platform message. The engine messages are merged
key by key into English instead."""

from __future__ import annotations

from examples.kuhn.messages import CATALOGUE

SERVICE: dict[str, str] = {
    "svc.kuhn.new_game": "New game #{id} of Kuhn poker: {names}.",
    "svc.kuhn.where": "hand {hand} of {hands}, {who} to act (pot: {pot})",
    "svc.kuhn.hand.card": "  your card: {card}",
    "svc.kuhn.hand.chips": "  your chips: {n}; in the pot: {pot}",
    "svc.kuhn.kind.check": "bet nothing; the hand goes on or to the showdown",
    "svc.kuhn.kind.bet": "put one chip in; the other player calls or folds",
    "svc.kuhn.kind.call": "match the bet; the cards are shown",
    "svc.kuhn.kind.fold": "give up the pot; no card is shown",
    "svc.kuhn.undo.never": "every decision of Kuhn poker is seen by the other player at once",
    "svc.kuhn.page.turn": "Hand {hand} · {who}",
    "svc.kuhn.page.where": "Hand {hand}",
    "svc.kuhn.page.over": "Match over · hand {hand}",
    "terminal.score.category.chips": "chips",
    "render.kuhn.title": "Kuhn poker · hand {hand} of {hands}",
    "render.kuhn.over": "Kuhn poker · the match is over ({hands} {hands|hand|hands})",
    "render.kuhn.to_act": "to act",
    "render.kuhn.chips": "{n} {n|chip|chips}",
    "render.kuhn.pot": "pot: {n}",
    "render.kuhn.last": "Hand {hand}: {who} won {n}",
    "render.kuhn.folded": "(a fold: no card shown)",
    "render.kuhn.hand.title": "{who}: your card",
    "render.kuhn.scores.title": "Final chips",
    "render.kuhn.winner": "winner",
    "render.kuhn.initial.J": "J",
    "render.kuhn.initial.Q": "Q",
    "render.kuhn.initial.K": "K",
}
"""The adapter's, the terminal's and the pictures' words."""

ENGLISH: dict[str, str] = {**CATALOGUE, **SERVICE}
"""Every English template of the game (what ``i18n`` adds to its English catalogue)."""
