"""Pending decisions: the public registry of their kinds (:data:`DECISIONS`), and the
answers to the small ones: discards down to a limit (R-VOC-4/5) and the choices of a good,
a mission era or a painting deck.

A pending decision (:class:`rules.brazil.state.Pending`) is a question put to one seat before play
goes on; ``DECISIONS[pending.kind]`` says what to ask (``prompt``), which action types
answer it, the rule it comes from, and whether it holds up the current player's turn.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import get_args

from rules.brazil import actions as A
from rules.brazil.catalog import CROPS
from rules.brazil.game import HAND_LIMIT, RESERVE_LIMIT, ROMAN, Context
from rules.brazil.messages import term_ref
from rules.brazil.state import Pending, PendingKind
from rules.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class DecisionKind:
    """One kind of pending decision.

    ``prompt`` completes "<player> must …"; ``answers`` are the action ``type`` tags that
    answer it; ``blocking``: the current player's turn waits for it (by default — the
    engine may ask a non-blocking question of a seat other than the current one, see
    ``place_era_token``).
    """

    kind: PendingKind
    prompt: str
    answers: tuple[str, ...]
    rule: str
    blocking: bool = True


def _k(
    kind: PendingKind, prompt: str, answer: str, rule: str, blocking: bool = True
) -> DecisionKind:
    return DecisionKind(kind, prompt, (answer,), rule, blocking)


DECISIONS: dict[str, DecisionKind] = {
    d.kind: d
    for d in (
        _k("choose_colour", "choose a colour", "choose_colour", "R-SETUP-4"),
        _k("keep_missions", "keep one mission of each era", "keep_missions", "R-SETUP-5"),
        _k("choose_monarch", "choose a monarch", "choose_monarch", "R-SETUP-5"),
        _k("choose_capital", "choose a capital", "choose_capital", "R-SETUP-6"),
        _k("place_palace", "place a palace (or none)", "place_palace", "R-PALACE-1"),
        _k(
            "free_manufacture",
            "choose the free square product of palace II",
            "free_manufacture",
            "R-PALACE-2",
        ),
        # Blocking only when it is the current player's own token (others place theirs
        # while play goes on).
        _k(
            "place_era_token",
            "put the flipped era token under an arch",
            "place_era_token",
            "R-ERA-2",
            blocking=False,
        ),
        _k("discard", "discard down to 5 resources and elements", "discard", "R-VOC-4"),
        _k("discard_cards", "discard down to 3 cards", "discard_cards", "R-VOC-5"),
        _k("choose_good", "choose a resource", "choose_good", "R-VOC-1"),
        _k("choose_era", "choose the era of the extra mission", "choose_era", "R-MISSION-4"),
        _k("choose_deck", "choose the painting deck to refill from", "choose_deck", "R-PAINT-2"),
        _k(
            "combat_cards",
            "choose combat cards for the battle (or none)",
            "commit_cards",
            "R-COMBAT-4",
        ),
        _k(
            "sepe_keep",
            "choose the one battle unit to keep (Sepé Tiaraju)",
            "keep_unit",
            "R-COMBAT-5",
        ),
        _k("retreat", "choose where the units retreat", "retreat_to", "R-COMBAT-5"),
        _k("war_card", "decide whether to play the War card", "war_card", "R-TURN-4"),
    )
}

assert set(DECISIONS) == set(get_args(PendingKind)), "PendingKind and DECISIONS disagree"


def discard_goods(g: Context, a: A.Discard, pend: Pending) -> None:
    p = g.p(a.seat)
    excess = sum(p.reserve.values()) - RESERVE_LIMIT
    g.require(
        len(a.goods) == excess,
        "R-VOC-4",
        "error.discard.goods",
        n=excess,
        limit=RESERVE_LIMIT,
    )
    have = Counter(p.reserve)
    if any(have[k] < v for k, v in Counter(a.goods).items()):
        raise IllegalAction.of("R-VOC-4", "error.discard.goods_held")
    for x in a.goods:
        p.reserve[x] -= 1
        if not p.reserve[x]:
            del p.reserve[x]
    g.emit(
        "discard",
        {"who": g.name(a.seat), "goods": [f"@good.{x}" for x in a.goods], "limit": RESERVE_LIMIT},
        a.seat,
        goods=list(a.goods),
    )


def discard_cards(g: Context, a: A.DiscardCards, pend: Pending) -> None:
    p = g.p(a.seat)
    deck = str(pend.data.get("deck"))
    g.require(a.deck == deck, "R-VOC-5", "error.discard.deck", deck=f"@error.deck.{deck}")
    hand = p.gold_cards if deck == "gold" else p.combat_cards
    excess = len(hand) - HAND_LIMIT
    g.require(
        len(a.cards) == excess,
        "R-VOC-5",
        f"error.discard.cards_{deck}",
        n=excess,
        limit=HAND_LIMIT,
    )
    have = Counter(hand)
    if any(have[k] < v for k, v in Counter(a.cards).items()):
        raise IllegalAction.of("R-VOC-5", "error.discard.cards_held")
    for c in a.cards:
        g.s.discard_card(a.seat, a.deck, c)
    g.emit(
        f"discard_cards.{deck}",
        {"who": g.name(a.seat), "n": excess, "limit": HAND_LIMIT},
        a.seat,
        count=excess,
    )


def choose_good(g: Context, a: A.ChooseGood, pend: Pending) -> None:
    choices = list(pend.data.get("choices", CROPS))
    g.require(
        a.good in choices, "R-VOC-1", "error.choose.good", goods=[f"@good.{c}" for c in choices]
    )
    g.gain(a.seat, {a.good: 1}, pend.data.get("why", ""))


def choose_era(g: Context, a: A.ChooseEra, pend: Pending) -> None:
    choices = list(pend.data.get("choices", []))
    g.require(a.era in choices, "R-MISSION-4", "error.choose.era", eras=str(choices))
    m = g.s.mission_decks[str(a.era)].pop()
    g.p(a.seat).missions.append(m)
    g.p(a.seat).extra_mission_eras.append(a.era)
    g.emit(
        "mission_draw",
        {"who": g.name(a.seat), "era": ROMAN[a.era]},  # "era II", as every era is written
        a.seat,
        era=a.era,
    )
    g.emit(
        "mission_draw_private",
        {"mission": term_ref("mission", m)},
        a.seat,
        visible_to=(a.seat,),
        mission=m,
    )


def choose_deck(g: Context, a: A.ChooseDeck, pend: Pending) -> None:
    choices = list(pend.data.get("choices", []))
    g.require(
        a.frame in choices,
        "R-PAINT-2",
        "error.choose.deck",
        frames=[f"@term.frame.{c}" for c in choices],
    )
    card = g.s.painting_decks[a.frame].pop()
    g.s.display.append(card)
    g.emit(
        "display.chosen_deck",
        {"painting": term_ref("painting", card), "frame": f"@phrase.frame.{a.frame}"},
        painting=card,
    )
