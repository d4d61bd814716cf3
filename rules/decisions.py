"""Answers to the small pending decisions: discards down to a limit (R-VOC-4/5) and the
choices of a good, a mission era or a painting deck."""

from __future__ import annotations

from collections import Counter

from rules import actions as A
from rules.catalog import CROPS
from rules.errors import IllegalAction
from rules.game import HAND_LIMIT, RESERVE_LIMIT, G, count
from rules.state import Pending


def _discard(g: G, a: A.Discard, pend: Pending) -> None:
    p = g.p(a.seat)
    excess = sum(p.reserve.values()) - RESERVE_LIMIT
    g.require(
        len(a.goods) == excess,
        "R-VOC-4",
        f"discard exactly {count(excess, 'item')} to get down to {RESERVE_LIMIT}",
    )
    have = Counter(p.reserve)
    if any(have[k] < v for k, v in Counter(a.goods).items()):
        raise IllegalAction("R-VOC-4", "you can only discard what is in your reserve")
    for x in a.goods:
        p.reserve[x] -= 1
        if not p.reserve[x]:
            del p.reserve[x]
    g.emit(
        "discard",
        {"who": g.name(a.seat), "goods": list(a.goods), "limit": RESERVE_LIMIT},
        a.seat,
        goods=list(a.goods),
    )


def _discard_cards(g: G, a: A.DiscardCards, pend: Pending) -> None:
    p = g.p(a.seat)
    deck = str(pend.data.get("deck"))
    g.require(a.deck == deck, "R-VOC-5", f"discard {deck} cards first")
    hand = p.gold_cards if deck == "gold" else p.combat_cards
    excess = len(hand) - HAND_LIMIT
    g.require(
        len(a.cards) == excess,
        "R-VOC-5",
        f"discard exactly {count(excess, deck + ' card')} to get down to {HAND_LIMIT}",
    )
    have = Counter(hand)
    if any(have[k] < v for k, v in Counter(a.cards).items()):
        raise IllegalAction("R-VOC-5", "you can only discard cards you hold")
    for c in a.cards:
        hand.remove(c)
        (g.s.gold_discard if deck == "gold" else g.s.combat_discard).append(c)
    g.emit(
        f"discard_cards.{deck}",
        {"who": g.name(a.seat), "n": excess, "limit": HAND_LIMIT},
        a.seat,
        count=excess,
    )


def _choose_good(g: G, a: A.ChooseGood, pend: Pending) -> None:
    choices = list(pend.data.get("choices", CROPS))
    g.require(a.good in choices, "R-VOC-1", f"choose one of {', '.join(choices)}")
    g.gain(a.seat, {a.good: 1}, str(pend.data.get("why", "")))


def _choose_era(g: G, a: A.ChooseEra, pend: Pending) -> None:
    choices = list(pend.data.get("choices", []))
    g.require(a.era in choices, "R-MISSION-4", f"choose an era with missions left: {choices}")
    m = g.s.mission_decks[str(a.era)].pop()
    g.p(a.seat).missions.append(m)
    g.emit(
        "mission_draw",
        {"who": g.name(a.seat), "era": a.era},
        a.seat,
        era=a.era,
    )
    g.emit(
        "mission_draw_private",
        {"mission": g.cat.missions[m].name},
        a.seat,
        visible_to=(a.seat,),
        mission=m,
    )


def _choose_deck(g: G, a: A.ChooseDeck, pend: Pending) -> None:
    choices = list(pend.data.get("choices", []))
    g.require(
        a.frame in choices,
        "R-PAINT-2",
        f"choose a deck that still has paintings: {', '.join(choices)}",
    )
    card = g.s.painting_decks[a.frame].pop()
    g.s.display.append(card)
    g.emit(
        "display.chosen_deck",
        {"painting": g.cat.paintings[card].name, "frame": a.frame},
        painting=card,
    )
