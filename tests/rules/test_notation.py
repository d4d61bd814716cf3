"""The command language (rules.brazil.notation): format <-> parse round trips over whole seeded
games, errors that say what was meant or what is legal, and descriptions that leak nothing."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rules.brazil import actions as A
from rules.brazil import apply, deciders, get_catalog, legal_actions, new_game, view
from rules.brazil.notation import (
    AmbiguousAction,
    complete,
    describe_action,
    format_action,
    legal_texts,
    parse_text,
)
from rules.brazil.state import GameState
from rules.errors import IllegalAction, InvalidAction, RulesError

SAMPLE = 6  # legal actions round-tripped per sampled decision (all of them are formatted)


def _games(seeds: range, players: tuple[int, ...]) -> Iterator[tuple[GameState, int, list[Any]]]:
    """Every decision of seeded random games: (state, seat, legal actions of that seat)."""
    for n in players:
        for seed in seeds:
            state = new_game(n, seed=seed)
            rng = random.Random(seed)
            steps = 0
            while state.phase != "ended" and steps < 1500:
                for seat in deciders(state):
                    yield state, seat, legal_actions(state.clone(), seat)
                state, _ = apply(state, rng.choice(legal_actions(state.clone())))
                steps += 1


def _permuted(a: Any) -> Any:
    """The same action with every tuple field in reverse order."""
    changes = {
        f.name: tuple(reversed(getattr(a, f.name)))
        for f in dataclasses.fields(a)
        if f.name != "payment" and isinstance(getattr(a, f.name), tuple)
    }
    return dataclasses.replace(a, **changes)


# ============================================================================ round trips


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_legal_action_round_trips_over_whole_games(players: int) -> None:
    # Every decision: all legal commands are distinct. A sample of decisions (and every
    # action type the first time it appears): commands read back as the same action, also
    # with tuple fields in another order and typed in upper case.
    rng = random.Random(players)
    checked = 0
    types: set[str] = set()
    for state, seat, legal in _games(range(4), (players,)):
        before = state.model_dump_json()
        texts = [format_action(state, a) for a in legal]
        # injective: two different legal actions never share a command
        assert len(set(texts)) == len(set(legal)), [t for t in texts if texts.count(t) > 1][:3]
        new = [a for a in legal if a.type not in types]
        picks = new[:SAMPLE] + (
            rng.sample(legal, min(SAMPLE, len(legal))) if rng.random() < 0.05 else []
        )
        for a in picks:
            text = format_action(state, a)
            assert parse_text(state.clone(), seat, text) == a, text
            # tuple fields in any order: the reversed tuples' command reads back the same
            shuffled = format_action(state, _permuted(a))
            if shuffled != text:
                assert parse_text(state.clone(), seat, shuffled) == a, shuffled
            elif rng.random() < 0.2:  # typed loosely: upper case and extra spaces
                assert parse_text(state.clone(), seat, "  " + text.upper() + " ") == a, text
            types.add(a.type)
            checked += 1
        assert state.model_dump_json() == before  # formatting never touches the state
    assert checked > 100
    assert {"build", "move", "recruit", "end_turn", "import"} <= types


def test_explicit_payment_round_trips_and_reaches_apply() -> None:
    for state, seat, legal in _games(range(4), (2,)):
        for a in legal:
            if a.type != "build":
                continue
            p = state.players[seat]
            crops = [g for g, n in sorted(p.reserve.items()) for _ in range(n)]
            if not crops:
                continue
            pay = tuple(A.PayItem(source="reserve", what=g) for g in crops[:1])
            paid = dataclasses.replace(a, payment=pay)
            text = format_action(state, paid)
            assert text.endswith(f" pay {crops[0]}")
            assert parse_text(state, seat, text) == paid
            try:  # apply decides whether this payment pays the cost
                apply(state, paid)
            except RulesError as e:
                assert e.rule or e.message
            return
    pytest.fail("no build with goods in the reserve found")


def test_payment_items_of_every_source_parse() -> None:
    state, seat, a = _find(lambda s, seat, act: act.type == "build")
    text = format_action(state, a) + " pay coffee d4:sugar-cane gold:jesuit combat:MILITIA"
    got = parse_text(state, seat, text)
    assert got.payment == (
        A.PayItem(source="reserve", what="coffee"),
        A.PayItem(source="D4", what="sugar_cane"),
        A.PayItem(source="gold_card", what="jesuits"),
        A.PayItem(source="combat_card", what="militia"),
    )
    assert format_action(state, got).endswith(
        "pay coffee D4:sugar_cane gold:jesuits combat:militia"
    )
    with pytest.raises(InvalidAction, match="takes no payment"):
        parse_text(state, seat, "trade pay coffee")


# ============================================================================ helpers


def _find(
    pred: Callable[[GameState, int, Any], bool], players: tuple[int, ...] = (2, 3, 4)
) -> tuple[GameState, int, Any]:
    for state, seat, legal in _games(range(6), players):
        for a in legal:
            if pred(state, seat, a):
                return state, seat, a
    pytest.fail("no such situation in the seeded games")


# ============================================================================ reading


def test_names_prefixes_case_and_spaces_R_BUILD_1() -> None:
    # R-BUILD-1: a building is named by its side id, its display name or a prefix of them
    state, seat, a = _find(
        lambda s, seat, act: act.type == "build" and act.building == "sugar_field"
    )
    at = a.at
    for text in (
        f"build sugar_field {at}",
        f"build Sugar-cane field {at.lower()}",
        f"BUILD {at} SUGAR FIELD",
        f"build sugar-f {at}",
        f"build {at} sugar_field",
    ):
        assert parse_text(state, seat, text) == a, text


def test_end_means_end_trade_during_the_trade_step_R_TRADE_1() -> None:
    state, seat, a = _find(lambda s, seat, act: act.type == "end_trade")
    assert format_action(state, a) == "end trade"
    assert parse_text(state, seat, "end") == a
    assert parse_text(state, seat, "done") == a


def test_exchange_kind_is_optional_and_trade_with_goods_exchanges_R_TRADE_1() -> None:
    state, seat, a = _find(lambda s, seat, act: act.type == "exchange" and act.kind == "pair")
    goods = "+".join(reversed(a.give))
    assert parse_text(state, seat, f"exchange {goods}") == a
    assert parse_text(state, seat, f"trade {goods}") == a
    assert parse_text(state, seat, f"exchange pair {' '.join(a.give)}") == a


def test_recruit_accepts_unit_then_hex_and_draw_words_R_RECRUIT_1() -> None:
    state, seat, a = _find(
        lambda s, seat, act: act.type == "recruit" and len(act.deploy) == 1 and act.draw == 1
    )
    d = a.deploy[0]
    assert format_action(state, a) == f"recruit {d.unit}@{d.to} +card"
    assert parse_text(state, seat, f"recruit draw {d.unit} {d.to}") == a
    assert parse_text(state, seat, f"recruit +1 card {d.unit}@{d.to}") == a


def test_gold_card_commands_R_GOLD_1() -> None:
    state, seat, a = _find(lambda s, seat, act: act.type == "play_gold_card")
    assert parse_text(state, seat, format_action(state, a)) == a
    assert format_action(state, a).startswith(f"gold {a.card}")


# ============================================================================ errors


def test_unknown_id_suggests_the_near_miss() -> None:
    state, seat, a = _find(lambda s, seat, act: act.type == "build")
    with pytest.raises(InvalidAction, match="did you mean sawmill") as e:
        parse_text(state, seat, f"build sawmils {a.at}")
    assert not isinstance(e.value, AmbiguousAction)
    with pytest.raises(InvalidAction, match="did you mean build"):
        parse_text(state, seat, f"biuld sawmill {a.at}")
    with pytest.raises(InvalidAction, match="type a command"):
        parse_text(state, seat, "   ")


def test_missing_argument_lists_the_legal_commands_of_that_verb() -> None:
    state, seat, a = _find(lambda s, seat, act: act.type == "build")
    with pytest.raises(InvalidAction, match=r"expected a hex.*Legal: .*`build "):
        parse_text(state, seat, f"build {a.building}")


def test_illegal_build_names_the_rule_and_the_legal_places_R_BUILD_4() -> None:
    def far_hex(s: GameState, seat: int, act: Any) -> bool:
        return act.type == "build" and act.building == "sawmill"

    state, seat, _a = _find(far_hex)
    legal_places = [
        b.at
        for b in legal_actions(state.clone(), seat)
        if b.type == "build" and b.building == "sawmill"
    ]
    board = get_catalog().boards[state.map]
    mine = {h for h, t in state.tiles.items() if t.owner == seat}
    near = {n for h in mine for n in board.neighbours[h]} | mine
    far = next(h for h in sorted(board.terrain) if h not in near and not board.is_water(h))
    with pytest.raises(IllegalAction) as e:
        parse_text(state, seat, f"build sawmill {far}")
    assert e.value.rule == "R-BUILD-4"
    assert f"You can't `build sawmill {far}`" in e.value.message
    assert "Legal places for sawmill: " + ", ".join(legal_places) in e.value.message


def test_not_now_lists_what_is_legal_R_TURN_6() -> None:
    # R-TURN-6: passing is allowed only when no action is possible
    state, seat, _a = _find(lambda s, seat, act: act.type == "import")
    with pytest.raises(IllegalAction) as e:
        parse_text(state, seat, "pass")
    assert e.value.rule == "R-TURN-6"
    first = legal_texts(state, seat)[0]
    assert f"Legal now: `{first}`" in e.value.message


def test_ambiguous_prefix_lists_the_readings_R_MOVE_1() -> None:
    def two_same_prefix(s: GameState, seat: int, act: Any) -> bool:
        if act.type != "move" or act.carry or act.kind != "free":
            return False
        u = act.unit
        if not u[-1].isdigit():
            return False
        twin = u[:-1] + ("2" if u.endswith("1") else "1")
        return any(
            b.type == "move"
            and b.unit == twin
            and b.to == act.to
            and not b.carry
            and b.kind == "free"
            for b in legal_actions(s.clone(), seat)
        )

    state, seat, a = _find(two_same_prefix)
    stem = a.unit[:-1]
    with pytest.raises(AmbiguousAction) as e:
        parse_text(state, seat, f"move {stem} {a.to}")
    assert f"`move {stem}1 {a.to}`" in e.value.message
    assert f"`move {stem}2 {a.to}`" in e.value.message


def test_a_prefix_is_settled_by_what_is_legal() -> None:
    # the verb prefix "imp" and the crop prefix "cof" read as the one legal import
    state, seat, a = _find(lambda s, seat, act: act.type == "import" and act.crop == "coffee")
    assert parse_text(state, seat, "imp cof") == a
    assert parse_text(state, seat, "import wood").crop == "brazilwood"


def test_no_seat_and_other_seats_turn() -> None:
    state = new_game(2, seed=1)
    with pytest.raises(InvalidAction):
        parse_text(state, 5, "pass")


# ============================================================================ autocomplete


def test_complete_and_legal_texts() -> None:
    state, seat, _a = _find(lambda s, seat, act: act.type == "build")
    before = state.model_dump_json()
    texts = legal_texts(state, seat)
    assert len(texts) == len(set(texts))
    got = complete(state, seat, "BUILD ")
    assert got == sorted(got) and got
    assert all(t.startswith("build ") for t in got)
    assert set(got) == {t for t in texts if t.startswith("build ")}
    assert complete(state, seat, "zzz") == []
    assert state.model_dump_json() == before


# ============================================================================ descriptions


def test_committed_cards_are_not_described_to_others_R_COMBAT_4() -> None:
    state, seat, a = _find(
        lambda s, seat, act: act.type == "commit_cards" and len(act.cards) >= 1,
        players=(2, 3, 4),
    )
    cat = get_catalog()
    names = [cat.combat_cards[c].name for c in a.cards]
    other = (seat + 1) % state.n
    for reader in (None, other):
        text = describe_action(state, a, reader)
        n = len(a.cards)
        assert f"commits {n} combat card" in text
        assert not any(name in text for name in names)
    own = describe_action(state, a, seat)
    assert all(name in own for name in names)


def test_kept_missions_are_not_described_to_others_R_SETUP_5() -> None:
    state = new_game(3, seed=4)
    while not any(d.kind == "keep_missions" for d in state.pending):
        state, _ = apply(state, legal_actions(state)[0])
    seat = next(d.seat for d in state.pending if d.kind == "keep_missions")
    a = next(b for b in legal_actions(state.clone(), seat) if b.type == "keep_missions")
    cat = get_catalog()
    for reader in (None, (seat + 1) % 3):
        text = describe_action(state, a, reader)
        assert text.endswith("keeps their missions.")
        assert not any(m in text or cat.missions[m].name in text for m in a.keep)
    assert all(m in describe_action(state, a, seat) for m in a.keep)


def _revealed_by(a: Any) -> set[str]:
    """Ids the action itself makes public (played, revealed, discarded, paid)."""
    out: set[str] = set()
    if a.type == "play_gold_card":
        out.add(a.card)
    elif a.type == "reveal_mission":
        out.add(a.mission)
    elif a.type == "discard_cards" or (a.type == "exchange" and a.kind == "cards"):
        out.update(a.cards if a.type == "discard_cards" else a.give)
    elif a.type == "war_card" and a.play:
        out.add("war")
    for it in getattr(a, "payment", None) or ():
        out.add(it.what)
    return out


@pytest.mark.slow
def test_spectator_descriptions_never_name_hidden_cards_or_missions() -> None:
    cat = get_catalog()
    hidden_books = {**cat.gold_cards, **cat.combat_cards, **cat.missions}
    other_names = [
        x.name
        for book in (cat.sides, cat.cities, cat.paintings, cat.products, cat.monarchs)
        for x in book.values()
    ]
    checked = 0
    for state, _seat, legal in _games(range(2), (2, 3, 4)):
        public: set[str] | None = None  # ids the spectator's view shows (built when needed)
        hidden: set[str] = set()
        for p in state.players:
            hidden.update(p.gold_cards, p.combat_cards, p.missions, p.mission_offer)
        if state.combat is not None:
            for side in (state.combat.attacker, state.combat.defender):
                if side is not None:
                    hidden.update(side.cards)
        for a in legal:
            secret = set(hidden)
            if a.type == "commit_cards":
                secret.update(a.cards)
            if a.type == "keep_missions":
                secret.update(a.keep)
            secret -= _revealed_by(a)
            text = describe_action(state, a, None)
            names = {hidden_books[i].name for i in secret if i in hidden_books}
            hits = [n for n in names if n.lower() in text.lower()]
            if hits:
                if public is None:
                    public = set(re.findall(r'"([^"]+)"', view(state, None).model_dump_json()))
                secret -= public
                names = {hidden_books[i].name for i in secret if i in hidden_books}
                names -= set(other_names)  # "Vila Rica" is a mission and a city
                hits = [n for n in names if re.search(rf"\b{re.escape(n)}\b", text, re.I)]
            if hits:  # a public name containing a secret one ("War chest" / the War card)
                for pub in sorted(
                    {x.name for i, x in hidden_books.items() if i not in secret},
                    key=len,
                    reverse=True,
                ):
                    if pub not in hits:
                        text = re.sub(rf"\b{re.escape(pub)}\b", "#", text, flags=re.I)
                for n in hits:
                    assert not re.search(rf"\b{re.escape(n)}\b", text, re.I), (n, text)
            if a.type == "commit_cards" and a.camp:
                assert not any(g.replace("_", " ") in text for g in a.camp), text  # Acampamento
            checked += 1
    assert checked > 1000


def test_descriptions_use_display_names() -> None:
    state, seat, a = _find(
        lambda s, seat, act: act.type == "build" and act.building == "sugar_field"
    )
    who = state.players[seat].colour
    assert who is not None
    assert (
        describe_action(state, a, None)
        == f"{who.capitalize()} builds a sugar-cane field at {a.at}."
    )


def test_every_grammar_example_starts_with_a_known_verb() -> None:
    from rules.brazil.notation import GRAMMAR, parse_verb

    types = {t for _, t, _ in GRAMMAR}
    assert set(A.ACTION_TYPES) <= types  # every action type has a command
    for _, _, example in GRAMMAR:
        parse_verb(example.split()[0])
