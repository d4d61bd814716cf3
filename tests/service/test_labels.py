"""Menus speak the game's words (issue 22): :mod:`service.games.brazil.labels` names a legal action and a
menu group with the catalog's names, within Discord's 100 characters, and from what the
deciding seat sees only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest

from rules.brazil import GameState, apply, deciders, get_catalog, legal_actions, new_game, view
from service.games.brazil.labels import action_label, choices, cost_line, group_label
from service.labels import Choice, clip
from tests.selfplay_steps import GAMES, recorded

STRIDE = 7  # every 7th recorded state of each game (and its setup): all action kinds


@cache
def _menus() -> tuple[tuple[GameState, int, tuple[Choice, ...]], ...]:
    out = []
    for players, seed in GAMES:
        for k, (before, _, _, _) in enumerate(recorded(players, seed)):
            if k % STRIDE and before.phase != "setup":
                continue
            for seat in deciders(before):
                out.append((before, seat, tuple(choices(before, seat))))
    return tuple(out)


def _all_choices() -> Iterator[tuple[GameState, int, Choice]]:
    for st, seat, menu in _menus():
        for c in menu:
            yield st, seat, c


@pytest.mark.slow
def test_every_word_of_a_command_is_named_and_fits_a_menu() -> None:
    kinds = set()
    for _, _, c in _all_choices():
        assert " ".join(p.word for p in c.parts) == c.command
        assert c.label.text and len(c.label.text) <= 100, c.label
        assert len(c.label.description) <= 100, c.label
        kinds.add(c.action.type)
    assert {"keep_missions", "choose_monarch", "build", "move", "commit_cards"} <= kinds


def test_no_notation_id_in_a_label() -> None:
    """Ids with an underscore (``queen_victoria``, ``sugar_cane``), mission ids (``I-3``) and
    unit ids (``brawler2``) never reach a label: their names do."""
    cat = get_catalog(None)
    ids = set(cat.missions) | {u.id for u in cat.units.values()}
    ids |= {
        i
        for table in (
            cat.monarchs,
            cat.sides,
            cat.gold_cards,
            cat.combat_cards,
            cat.paintings,
            cat.cities,
            cat.exploration,
        )
        for i in table
    }
    ids = {i for i in ids if not i.isalpha() or "_" in i} | {
        s.id for s in cat.sides.values() if s.id != s.name
    }
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids))) + r")(?![\w-])")
    for _, _, c in _all_choices():
        found = pattern.search(c.label.text)
        assert found is None, (c.command, c.label.text)


def _until(kind: str) -> tuple[GameState, int]:
    """A 2-player game (first choices) until seat who decides may take a ``kind`` action."""
    st = new_game(2, seed=5)
    for _ in range(50):
        seat = deciders(st)[0]
        acts = legal_actions(st, seat)
        if any(a.type == kind for a in acts):
            return st, seat
        st, _ = apply(st, acts[0])
    raise AssertionError(f"no {kind} in the setup")


def test_kept_missions_read_as_their_names() -> None:
    st, seat = _until("keep_missions")
    cat = get_catalog(st.data_pack)
    keep = legal_actions(st, seat)[0]
    label = action_label(st, keep)
    assert label.text.startswith("Keep missions: ")
    for m in keep.keep:
        assert cat.missions[m].name in label.text
        assert m not in label.text
    assert "VP" in label.description


def test_monarch_and_groups() -> None:
    st, seat = _until("choose_monarch")
    menu = [c for c in choices(st, seat) if c.action.type == "choose_monarch"]
    assert menu
    for c in menu:
        m = get_catalog(None).monarchs[c.action.monarch]
        assert c.label.text == f"Monarch: {m.name}"
        assert c.label.description == clip(m.text)
    group = group_label(menu, "monarch")
    assert group.text == "Monarch" and group.description == f"{len(menu)} choices"


def test_build_group_and_cost_line() -> None:
    for st, _, menu in _menus():
        builds = [c for c in menu if c.command.startswith("build sawmill ")]
        if len(builds) > 1:
            assert group_label(builds, "build sawmill").text == "Build: Sawmill"
            at = builds[0].action.at
            assert builds[0].label.text == f"Build: Sawmill at {at}"
            assert "VP" in builds[0].label.description
            line = cost_line(st, builds[0].action)
            assert line.startswith("Costs ") and "_" not in line
            break
    else:
        raise AssertionError("no state with two sawmills to build")
    peeks = [c for _, _, menu in _menus() for c in menu if c.action.type == "peek"]
    assert peeks
    column = peeks[0].command.split(" ")[1][0]
    same = [c for c in peeks if c.command.startswith(f"peek {column}")]
    label = group_label(same, f"peek {column}", cut=True).text
    assert label.startswith("Peek at ") and peeks[0].action.at in label


def test_a_label_names_only_what_its_seat_sees() -> None:
    """Others' cards and missions and face-down tiles not peeked at: never in a label."""
    cat = get_catalog(None)
    checked = 0
    for st, seat, menu in _menus():
        seen = view(st, seat).model_dump_json()
        secret: set[str] = set()
        for p in st.players:
            if p.seat == seat:
                continue
            for m in p.missions + p.mission_offer:
                if f'"{m}"' not in seen:
                    secret.add(cat.missions[m].name)
            for table, ids in ((cat.combat_cards, p.combat_cards), (cat.gold_cards, p.gold_cards)):
                secret |= {table[c].name for c in ids if f'"{c}"' not in seen}
        me = st.players[seat]
        own = {cat.missions[m].name for m in me.missions + me.mission_offer + me.revealed}
        own |= {cat.combat_cards[c].name for c in me.combat_cards}
        own |= {cat.gold_cards[c].name for c in me.gold_cards}
        for ex in st.exploration.values():
            if f'"{ex.tile}"' not in seen:
                secret.add(cat.exploration[ex.tile].name)
        for c in menu:
            text = c.label.text + " " + c.label.description
            for name in own:  # a name of one's own may hold a secret's ("Minas Gerais")
                text = text.replace(name, "")
            for name in secret:
                hit = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
                assert hit is None, (name, c.command, text)
            checked += 1
    assert checked > 1000
