"""The surfaces reach a game's menu and payment words through its adapter (issue 28): Brazil:
Imperial's adapter gives its own words (``service/games/brazil/labels.py``) and is the one
payment chooser; another game's adapter labels an action by its menu choice and a menu group
by the command's words, in no game's words but its own."""

from __future__ import annotations

from service.games import GameAdapter, PaymentChooser, adapter, names
from service.games.brazil import labels
from service.labels import Choice, Label
from tests.selfplay_steps import recorded


def test_only_brazil_s_adapter_is_a_payment_chooser() -> None:
    assert isinstance(adapter("brazil"), PaymentChooser) and adapter("brazil").has_payments
    for name in set(names()) - {"brazil"}:
        A = adapter(name)
        assert not isinstance(A, PaymentChooser) and not A.has_payments


def test_brazil_s_adapter_speaks_its_labels_words() -> None:
    A = adapter("brazil")
    paid = 0
    for k, (before, action, _, _) in enumerate(recorded(2, 21)):
        if k % 5:
            continue
        seat = int(action.seat)
        assert A.action_label(before, action, "hu") == labels.action_label(
            before, action, lang="hu"
        )
        menu = A.choices(before, seat, A.face.legal_actions(before, seat), "en")
        verb = menu[0].command.split()[0]
        group = [m for m in menu if m.command.startswith(verb)]
        assert A.group_label(group, verb) == labels.group_label(group, verb)
        line = A.cost_line(before, action, "en")
        assert line == labels.cost_line(before, action, lang="en")
        if line:
            paid += 1
            step = A.payment_path(before, action, [])
            assert step is not None
            assert A.cost_text(step.cost, "de") == labels.cost_text(step.cost, lang="de")
            assert A.pay_prompt(step, "de") == labels.pay_prompt(step, lang="de")
            assert A.pay_options(step, "de") == labels.pay_options(step, lang="de")
            for item in step.options[:2]:
                assert A.pay_item_text(before, seat, item.item, "de") == labels.pay_item_text(
                    before, seat, item.item, lang="de"
                )
    assert paid


def test_another_game_s_action_label_is_its_menu_choice_s() -> None:
    A = adapter("tigris")
    st = A.build(3, None, 7, None)
    seat = A.face.deciders(st)[0]
    legal = A.face.legal_actions(st, seat)
    menu = A.choices(st, seat, legal, "de")
    for a, c in list(zip(legal, menu, strict=True))[:5]:
        assert A.action_label(st, a, "de") == c.label


def test_the_base_group_label_reads_the_command_s_words() -> None:
    # the example game keeps the base's neutral words
    plain = [n for n in names() if type(adapter(n)).group_label is GameAdapter.group_label]
    assert plain
    A = adapter(plain[0])
    members = [Choice(i, f"raise {n}", Label(f"Raise {n}"), ()) for i, n in enumerate((10, 15))]
    assert A.group_label(members, "raise") == Label("raise", "2 choices")
    assert A.group_label(members, "raise 1", cut=True) == Label("raise 1: 10, 15", "2 choices")


def _tigris_support(seed_from: int = 1) -> tuple[object, int]:
    """A Tigris state where someone decides a support with a choice (random play)."""
    import random

    A = adapter("tigris")
    for seed in range(seed_from, seed_from + 40):
        st = A.build(2, None, seed, None)
        rng = random.Random(seed)
        for _ in range(400):
            if A.over(st):
                break
            seat = A.face.deciders(st)[0]
            legal = A.face.legal_actions(st, seat)
            if A.pending_kind(st, seat) == "support" and len(legal) > 1:
                return st, seat
            st, _ = A.apply(st, rng.choice(legal))
    raise AssertionError("no support decision found")


def test_tigris_support_menu_names_the_conflict_T_CONFLICT_3() -> None:
    """The support menu says which conflict (revolt or war), its colour, both sides'
    strength so far, and how many tiles of that colour the decider holds (issue #29)."""
    A = adapter("tigris")
    st, seat = _tigris_support()
    c = st.conflict  # type: ignore[attr-defined]
    menu = A.choices(st, seat, A.face.legal_actions(st, seat), "en")
    colour = ("black", "red", "blue", "green")[c.colour]
    a = c.attacker_base + max(c.attacker_commit, 0)
    d = c.defender_base + max(c.defender_commit, 0)
    have = st.players[seat].hand[c.colour]  # type: ignore[attr-defined]
    for choice in menu:
        desc = choice.label.description
        assert desc.startswith(("Revolt, ", "War, ")) and colour in desc, desc
        assert f"attacker {a}, defender {d}" in desc and f"you hold {have} {colour}" in desc
    hu = A.choices(st, seat, A.face.legal_actions(st, seat), "hu")[0].label.description
    assert f"támadó {a}, védekező {d}" in hu


def test_tigris_menu_groups_speak_words_not_notation() -> None:
    A = adapter("tigris")
    members = [
        Choice(0, "tile black A1", Label("x"), ()),
        Choice(1, "tile black A2", Label("y"), ()),
    ]
    assert A.group_label(members, "tile black A", cut=True).text == (
        "Place a black tile in row A: A1, A2"
    )
    assert A.group_label(members, "tile black").text == "Place a black tile"
    assert A.group_label(members, "tile black", lang="hu").text.startswith("Fekete lapka")
    assert A.group_label(members, "leader king").text == "Place or move your king"
