"""Kuhn poker's rules: one test per rule ID of ``examples/kuhn/rules.md`` (named after it),
then the notation, the views, the face and the computer players."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from examples.kuhn.actions import Action, Event
from examples.kuhn.agents import action_values, make_agent, policy
from examples.kuhn.engine import apply, deciders, final_scores, legal_actions, new_game, winners
from examples.kuhn.game import GAME
from examples.kuhn.messages import CATALOGUE
from examples.kuhn.notation import complete, describe_action, format_action, parse_text
from examples.kuhn.state import CARDS, NO_CARD, KuhnState
from examples.kuhn.view import determinize, view
from rules.errors import IllegalAction, InvalidAction, NotYourDecision, RulesError
from rules.text import placeholders

J, Q, K = 0, 1, 2
RULES_MD = Path(__file__).resolve().parents[1] / "rules.md"


def dealt(first: int, second: int, **options: int) -> KuhnState:
    """A new match whose first hand gives seat 0 ``first`` and seat 1 ``second``."""
    s = new_game(2, 3, dict(options) or None)
    s.players[0].card, s.players[1].card = first, second
    return s


def play(s: KuhnState, *kinds: str) -> tuple[KuhnState, list[Event]]:
    """``kinds`` played in turn by whoever decides; every event."""
    out: list[Event] = []
    for kind in kinds:
        s, events = apply(s, Action(kind, deciders(s)[0]))
        out += events
    return s, out


def refused(s: KuhnState, action: Action) -> RulesError:
    before = s.model_dump_json()
    with pytest.raises(RulesError) as e:
        apply(s, action)
    assert s.model_dump_json() == before  # a refusal leaves the state as it was
    return e.value


def test_every_rule_id_has_its_test() -> None:
    ids = re.findall(r"^### (K-[A-Z]+-\d+) — ", RULES_MD.read_text(encoding="utf-8"), re.M)
    source = Path(__file__).read_text(encoding="utf-8")
    assert len(ids) == 15
    for rule in ids:
        assert f"_{rule.replace('-', '_')}(" in source, rule


# ------------------------------------------------------------------------------ rules


def test_three_cards_jack_queen_king_K_SETUP_1() -> None:
    assert CARDS == ("J", "Q", "K")
    seen: set[int] = set()
    for seed in range(30):
        s = new_game(2, seed)
        cards = [p.card for p in s.players]
        assert len(set(cards)) == 2 and set(cards) <= {J, Q, K}
        seen |= set(cards)
    assert seen == {J, Q, K}


def test_chips_and_hands_K_SETUP_2() -> None:
    s = new_game(2, 1)
    assert (s.options.hands, s.options.chips) == (5, 10)
    with pytest.raises(InvalidAction) as e:
        new_game(2, 1, {"hands": 6, "chips": 11})
    assert e.value.rule == "K-SETUP-2" and "at least 12 chips" in e.value.message
    s = new_game(2, 1, {"hands": 6, "chips": 12})  # the least: nobody can run out
    rng = random.Random(4)
    while s.phase == "play":
        s, _ = apply(s, rng.choice(legal_actions(s)))
        assert all(p.chips >= 0 for p in s.players)
    with pytest.raises(InvalidAction) as e2:
        new_game(2, 1, {"rounds": 3})
    assert "Unknown option rounds" in e2.value.message


def test_exactly_two_players_K_SETUP_3() -> None:
    for n in (1, 3):
        with pytest.raises(InvalidAction) as e:
            new_game(n, 1)
        assert e.value.rule == "K-SETUP-3"
    assert (GAME.min_players, GAME.max_players) == (2, 2)


def test_each_hand_both_ante_one_K_DEAL_1() -> None:
    s = dealt(K, J)
    assert [p.chips for p in s.players] == [9, 9] and s.pot == 2
    s, events = play(s, "check", "check")  # K takes 2; hand 2 antes again
    assert [p.chips for p in s.players] == [10, 8] and s.pot == 2 and s.hand == 2
    assert any(e.key == "kuhn.hand.start" and e.params["ante"] == 1 for e in events)


def test_one_card_each_from_the_seeded_shuffle_K_DEAL_2() -> None:
    a, b = new_game(2, 42), new_game(2, 42)
    assert a == b  # the same seed deals the same cards
    deals = {tuple(p.card for p in new_game(2, seed).players) for seed in range(40)}
    assert len(deals) == 6  # every ordered pair of the three cards comes up
    counter = a.rng.counter
    a, events = play(a, "check", "check")
    assert a.rng.counter == counter + 1  # one draw per hand
    private = [e for e in events if e.key == "kuhn.deal.private"]
    assert [e.visible_to for e in private] == [(0,), (1,)]
    assert all(e.reveals for e in private)
    assert private[0].params["card"] == "@kuhn.card." + CARDS[a.players[0].card]


def test_the_first_player_alternates_K_TURN_1() -> None:
    s = new_game(2, 9)
    firsts = []
    while s.phase == "play":
        firsts.append((s.hand, s.first, deciders(s)))
        s, _ = play(s, "check", "check")
    assert firsts == [(1, 0, [0]), (2, 1, [1]), (3, 0, [0]), (4, 1, [1]), (5, 0, [0])]


def test_one_decision_at_a_time_K_TURN_2() -> None:
    s = dealt(Q, K)
    e = refused(s, Action("bet", 1))
    assert isinstance(e, NotYourDecision) and e.rule == "K-TURN-2"
    assert e.message == "It is Player 1's decision now, not yours."
    assert GAME.legal_actions(s, 1) == [] and GAME.legal_actions(s, 0)


def test_the_first_decision_check_or_bet_K_BET_1() -> None:
    s = dealt(Q, K)
    assert [a.kind for a in legal_actions(s)] == ["check", "bet"]
    for kind in ("call", "fold"):
        e = refused(s, Action(kind, 0))
        assert isinstance(e, IllegalAction) and e.rule == "K-BET-1"
    after, events = play(s, "bet")
    assert after.players[0].chips == 8 and after.pot == 3 and after.to_act == 1
    assert [e.text for e in events] == ["Player 1 bets 1 chip."]


def test_after_a_check_check_or_bet_K_BET_2() -> None:
    s, _ = play(dealt(Q, K), "check")
    assert s.to_act == 1 and [a.kind for a in legal_actions(s)] == ["check", "bet"]
    e = refused(s, Action("call", 1))
    assert e.rule == "K-BET-2"
    bet, _ = play(s, "bet")  # the first player now faces a bet (K-BET-3)
    assert bet.to_act == 0 and [a.kind for a in legal_actions(bet)] == ["call", "fold"]
    shown, events = play(s, "check")  # two checks: the showdown
    assert any(e.key == "kuhn.show" for e in events) and shown.hand == 2


def test_facing_a_bet_call_or_fold_no_raise_K_BET_3() -> None:
    for history in (["bet"], ["check", "bet"]):
        s, _ = play(dealt(Q, K), *history)
        assert [a.kind for a in legal_actions(s)] == ["call", "fold"]
        for kind in ("check", "bet"):  # no raise: one bet at most
            e = refused(s, Action(kind, s.to_act))
            assert e.rule == "K-BET-3" and "you may: call, fold" in e.message


def test_the_higher_card_takes_the_pot_K_SHOW_1() -> None:
    for mine, theirs, delta in ((K, Q, 2), (J, Q, -2)):
        s, events = play(dealt(mine, theirs), "bet", "call")
        assert s.last is not None and s.last.pot == 4 and not s.last.folded
        assert s.last.cards == [mine, theirs]
        assert s.last.winner == (0 if mine > theirs else 1)
        # the stacks after the pot, before hand 2's ante: 10 + delta each way
        assert s.players[0].chips + 1 == 10 + delta and s.players[1].chips + 1 == 10 - delta
        texts = [e.text for e in events]
        name = {J: "Jack", Q: "Queen", K: "King"}
        winner = "Player 1" if delta > 0 else "Player 2"
        assert texts[:5] == [
            "Player 1 bets 1 chip.",
            "Player 2 calls.",
            f"Player 1 shows the {name[mine]}.",
            f"Player 2 shows the {name[theirs]}.",
            f"{winner} wins the pot of 4 chips.",
        ]
    s, _ = play(dealt(Q, J), "check", "check")  # two checks: a pot of 2
    assert s.last is not None and s.last.pot == 2 and s.last.winner == 0


def test_a_fold_gives_the_pot_unseen_K_FOLD_1() -> None:
    s, events = play(dealt(K, J), "bet", "fold")
    assert s.last is not None and s.last.folded and s.last.pot == 3
    assert s.last.cards == [NO_CARD, NO_CARD] and s.last.winner == 0
    assert not any(e.key == "kuhn.show" for e in events)
    assert s.players[0].chips + 1 == 11 and s.players[1].chips + 1 == 9


def test_the_match_ends_after_its_last_hand_K_END_1() -> None:
    s = new_game(2, 5, {"hands": 2})
    s, _ = play(s, "check", "check")
    assert s.phase == "play" and s.hand == 2
    s, events = play(s, "check", "check")
    assert s.phase == "over" and deciders(s) == [] and legal_actions(s) == []
    assert events[-1].text == "The match is over after 2 hands."
    assert [p.card for p in s.players] == [NO_CARD, NO_CARD] and s.pot == 0
    e = refused(s, Action("check", 0))
    assert isinstance(e, IllegalAction) and e.rule == "K-END-1"
    with pytest.raises(InvalidAction) as e2:
        new_game(2, 5, {"hands": 0})
    assert e2.value.rule == "K-END-1"


def test_most_chips_wins_equal_stacks_share_K_END_2() -> None:
    s, _ = play(dealt(K, J, hands=1), "bet", "call")
    assert [p.chips for p in s.players] == [12, 8]
    assert winners(s) == [0] and final_scores(s) == [(0, 12), (1, 8)]
    assert GAME.final_scores(s) == [(0, 12), (1, 8)] and GAME.winners(s) == [0]
    s2 = new_game(2, 1, {"hands": 2})
    s2.players[0].card, s2.players[1].card = K, J
    s2, _ = play(s2, "check", "check")  # seat 0 +1
    s2.players[0].card, s2.players[1].card = J, K
    s2, _ = play(s2, "check", "check")  # seat 1 +1: even
    assert [p.chips for p in s2.players] == [10, 10] and winners(s2) == [0, 1]
    assert winners(new_game(2, 1)) == []  # nobody has won a match in play


def test_a_player_sees_only_their_own_card_K_INFO_1() -> None:
    s = dealt(Q, K)
    for seat in (0, 1):
        v = view(s, seat)
        assert v.players[seat].card == s.players[seat].card
        assert v.players[1 - seat].card == NO_CARD and v.players[1 - seat].hidden
        assert v.rng.seed == 0 and v.view_of == seat
    spectator = view(s, None)
    assert [p.card for p in spectator.players] == [NO_CARD, NO_CARD]
    # the cards shown at a showdown are public; a fold's are not
    shown, _ = play(s, "check", "check")
    assert view(shown, None).last is not None and view(shown, None).last.cards == [Q, K]  # type: ignore[union-attr]
    folded, _ = play(dealt(Q, K), "bet", "fold")
    assert view(folded, None).last.cards == [NO_CARD, NO_CARD]  # type: ignore[union-attr]
    # the computer players decide from the view: the same decision whatever the hidden card
    for level in ("random", "heuristic", "search"):
        for seed in range(5):
            other = s.clone()
            other.players[1].card = J  # the card set aside instead
            a = make_agent(level, seed).decide(s, 0)
            b = make_agent(level, seed).decide(other, 0)
            assert a == b, level


# ------------------------------------------------------------------------------ notation


def test_notation_round_trips_and_pass_reads_by_situation() -> None:
    s = dealt(Q, K)
    for a in legal_actions(s):
        assert parse_text(format_action(a), s) == a
        assert GAME.parse_text(s, 0, "  " + format_action(a).upper() + " ") == a
    assert parse_text("pass", s) == Action("check", 0)
    bet, _ = play(s, "bet")
    assert parse_text("pass", bet) == Action("fold", 1)
    assert complete("c", bet) == ["call"] and complete("", s) == ["bet", "check"]
    assert describe_action(Action("bet", 0)) == "Bet 1 chip."
    for text, why in (
        ("", "empty command"),
        ("raise", "commands: check, bet, call, fold"),
        ("bet 2", "bet takes no words after it"),
    ):
        with pytest.raises(InvalidAction) as e:
            parse_text(text, s)
        assert e.value.message == f"Cannot read '{text}': {why}"
    over = new_game(2, 1, {"hands": 1})
    over, _ = play(over, "check", "check")
    with pytest.raises(InvalidAction, match="the match is over"):
        parse_text("check", over)


def test_actions_and_events_to_json_and_back() -> None:
    a = Action("call", 1)
    assert GAME.action_from_json(GAME.action_to_json(a)) == a
    with pytest.raises(InvalidAction):
        Action.from_dict({"kind": "raise", "seat": 0})
    _, events = play(dealt(Q, K), "bet", "call")
    for e in events:
        assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_every_template_renders_with_its_parameters() -> None:
    assert all(isinstance(v, str) and v for v in CATALOGUE.values())
    assert placeholders(CATALOGUE["kuhn.hand.won"]) == {"player", "n"}


# ------------------------------------------------------------------------------ the face


def test_self_play_keeps_the_invariants_and_reloads_exactly() -> None:
    rng = random.Random(0)
    for seed in range(40):
        s = GAME.new_game(2, seed=seed, hands=3)
        assert GAME.check is not None
        while not GAME.is_over(s):
            seat = GAME.deciders(s)[0]
            s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s, seat)))
            GAME.check(s, rng)
            assert GAME.load(GAME.dump(s)) == s
        assert sum(score for _, score in GAME.final_scores(s)) == 20


def test_the_invariant_check_can_fail() -> None:
    s = dealt(Q, K)
    assert GAME.check is not None
    s.players[0].chips += 1
    with pytest.raises(AssertionError, match="chips not conserved"):
        GAME.check(s, random.Random(0))


def test_determinize_deals_the_other_card_among_the_unseen() -> None:
    s = dealt(Q, K)
    v = view(s, 0)
    seen = set()
    for k in range(20):
        d = determinize(v, 0, random.Random(k))
        assert d.players[0].card == Q and d.players[1].card in (J, K)
        assert d.view_of == -1 and not d.players[1].hidden
        seen.add(d.players[1].card)
        d2, _ = play(d, "check", "check")  # a full state the engine plays on
        assert d2.hand == 2
    assert seen == {J, K}


def test_no_step_may_be_taken_back() -> None:
    s = dealt(Q, K)
    after, events = play(s, "check")
    assert GAME.undo_depth([(s, Action("check", 0), after, events)], 0) == 0


# ------------------------------------------------------------------------------ the agents


def test_the_heuristic_bets_with_the_king_and_checks_or_folds_with_the_jack() -> None:
    agent = make_agent("heuristic", 1)
    assert agent.decide(dealt(K, Q), 0) == Action("bet", 0)
    assert agent.decide(dealt(J, Q), 0) == Action("check", 0)
    facing, _ = play(dealt(K, J), "check", "bet")
    assert agent.decide(facing, 0) == Action("call", 0)
    facing_j, _ = play(dealt(J, K), "bet")
    assert agent.decide(facing_j, 1) == Action("call", 1)  # seat 1 holds the King
    folds, _ = play(dealt(K, J), "bet")
    assert agent.decide(folds, 1) == Action("fold", 1)
    assert policy(dealt(Q, K), 0) == {"check": 1.0, "bet": 0.0}


def test_the_search_values_its_decisions_from_its_view() -> None:
    # facing a bet with the Queen from a player who bets only with the King: fold
    s, _ = play(dealt(K, Q), "bet")
    values = action_values(s, 1)
    assert values == {"call": -1.0, "fold": 0.0}  # chips won or lost from now on
    assert make_agent("search", 0).decide(s, 1) == Action("fold", 1)
    # with the King after a check: betting wins more than checking
    k, _ = play(dealt(Q, K), "check")
    kv = action_values(k, 1)
    assert kv["bet"] > kv["check"] > 0


def _match(a: str, b: str, seed: int) -> int:
    s = new_game(2, seed, {"hands": 10, "chips": 20})
    agents = [make_agent(a, seed), make_agent(b, seed + 1)]
    while s.phase == "play":
        seat = deciders(s)[0]
        s, _ = apply(s, agents[seat].decide(s, seat))
    return s.players[0].chips - 20


def test_the_levels_are_ordered() -> None:
    seeds = range(40)
    assert sum(_match("heuristic", "random", k) for k in seeds) > 0
    assert sum(_match("search", "heuristic", k) for k in seeds) > 0
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("expert")
    with pytest.raises(TypeError):
        make_agent("search", budget=1.0)
