"""Events for translation: every event is a message key + parameters rendered from the
catalogue in rules/brazil/messages.py; the English text is unchanged (see test_golden.py)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.brazil import Event, render_message
from rules.brazil.game import Context
from rules.brazil.messages import (
    EN,
    NOT_EVENTS,
    REVEALS,
    MessageError,
    msg,
    placeholders,
    plural_en,
)
from rules.brazil.setup import new_game
from tests.selfplay_steps import all_steps

RULES = Path(__file__).resolve().parents[2] / "rules" / "brazil"
EVENT_KEYS = {k for k in EN if not k.startswith(NOT_EVENTS)}


def _emitted_key_patterns() -> list[re.Pattern[str]]:
    """The first argument of every ``.emit(...)`` call in rules/, as a regex (an f-string's
    fields match anything; a conditional contributes both branches)."""
    out: list[re.Pattern[str]] = []

    def add(node: ast.expr) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(re.compile(re.escape(node.value)))
        elif isinstance(node, ast.IfExp):
            add(node.body)
            add(node.orelse)
        elif isinstance(node, ast.JoinedStr):
            rx = "".join(
                re.escape(v.value) if isinstance(v, ast.Constant) else "[a-z0-9_]+"
                for v in node.values
            )
            out.append(re.compile(rx))
        else:  # pragma: no cover - a key the test cannot see statically
            raise AssertionError(f"emit key not a literal: {ast.dump(node)}")

    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "emit"
                and node.args
            ):
                add(node.args[0])
    return out


def test_every_emitted_key_has_a_template_and_every_template_is_emitted():
    patterns = _emitted_key_patterns()
    assert len(patterns) > 70
    for p in patterns:
        assert any(p.fullmatch(k) for k in EVENT_KEYS), f"no template for emitted key {p.pattern}"
    unused = {k for k in EVENT_KEYS if not any(p.fullmatch(k) for p in patterns)}
    assert unused == set(), f"templates no emit uses: {sorted(unused)}"


def test_every_key_is_classified_for_undo_and_belongs_to_its_kind():
    assert set(REVEALS) == EVENT_KEYS
    for k in EVENT_KEYS:
        assert re.fullmatch(r"[a-z_]+(\.[a-z0-9_]+)?", k), k


def test_selfplay_events_render_from_key_and_params():
    """Over seeded games of 1-4 players: every event has a key of its kind, its stored text is
    its rendering, it gives exactly the template's placeholders, and it survives JSON."""
    seen: set[str] = set()
    n = 0
    for _players, _seed, (_b, _a, _after, events) in all_steps():
        for e in events:
            n += 1
            assert e.key in EVENT_KEYS and e.key.split(".")[0] == e.kind, e
            assert render_message(e.key, e.params) == e.text
            assert set(e.params) == placeholders(EN[e.key]), e.key
            assert e.reveals == REVEALS[e.key]
            js = e.model_dump_json()  # the fast constructor made valid fields:
            assert Event.model_validate_json(js).model_dump_json() == js
            seen.add(e.key)
    assert n > 2000
    assert len(seen) > 40, sorted(EVENT_KEYS - seen)


def test_event_json_round_trip_keeps_key_params_text_reveals():
    e = Event(
        kind="draw_gold", key="draw_gold.why", params={"who": "Green", "n": 2, "why": "Trade"}
    )
    assert e.text == "Green draws 2 gold cards (Trade)." and e.reveals
    again = Event.model_validate_json(e.model_dump_json())
    assert again == e
    # Old stored events (text only) still read.
    old = Event.model_validate({"kind": "gain", "text": "Green gains 1 coffee."})
    assert old.text == "Green gains 1 coffee." and old.key == "" and not old.reveals


def test_kind_and_key_must_agree():
    with pytest.raises(ValueError, match="does not belong"):
        Event(kind="gain", key="draw_gold", params={"who": "Green", "n": 1})


def test_missing_parameter_and_unknown_key_are_errors():
    with pytest.raises(MessageError, match="needs parameter 'n'"):
        render_message("draw_gold", {"who": "Green"})
    with pytest.raises(MessageError, match="no template"):
        render_message("nosuch", {})


def test_template_syntax_plural_lists_goods():
    assert render_message("defeated", {"who": "Red", "n": 1}) == "Red loses 1 unit to the reserve."
    assert render_message("defeated", {"who": "Red", "n": 0}) == "Red loses 0 units to the reserve."
    assert (
        render_message("game_over", {"winners": ["Red", "Blue"], "n": 2})
        == "The game is over. Red and Blue win."
    )
    assert render_message("game_over", {"winners": [], "n": 0}) == "The game is over. Nobody win."
    assert render_message("cards_revealed", {"who": "Red", "cards": []}) == "Red reveals no cards."
    assert (
        render_message("gain", {"who": "Red", "goods": {"sugar_cane": 2, "gold": 0, "any": 1}})
        == "Red gains 2 sugar cane, 1 any resource."
    )
    assert plural_en(1) == 0 and plural_en(0) == plural_en(2) == 1


def test_another_catalogue_renders_the_same_event_without_touching_rules():
    """A language is a catalogue of the same keys plus its plural rule (here a made-up one
    with three forms), used on the key + params an event already carries."""
    xx = {**EN, "defeated": "{who} perd {n} {n|unité|unités|unitéz}."}

    def plural_xx(n: int) -> int:
        return 0 if n == 1 else 1 if n < 5 else 2

    assert render_message("defeated", {"who": "R", "n": 7}, xx, plural_xx) == "R perd 7 unitéz."
    e = Event(kind="defeated", key="defeated", params={"who": "R", "n": 3})
    assert e.render(xx, plural_xx) == "R perd 3 unités." and e.render() == e.text


def test_the_engines_fast_constructor_equals_the_validated_one():
    fast = Event.make("gain.why", {"who": "Green", "goods": {"coffee": 1}, "why": "Trade"}, 0)
    slow = Event(
        kind="gain",
        key="gain.why",
        params={"who": "Green", "goods": {"coffee": 1}, "why": "Trade"},
        seat=0,
    )
    assert fast == slow and fast.model_dump_json() == slow.model_dump_json()
    assert Event.model_validate_json(fast.model_dump_json()) == fast


def test_nested_phrases_and_term_references_render_as_the_engine_always_wrote():
    """Events name components by term references and nest their phrases (why, items, what,
    breakdowns) as ``phrase.*`` messages, so that other languages can render them; English
    reads as it always did: names from the component data (building names in lower case
    mid-sentence, after their article), the phrases' English from this catalogue — names,
    never ids (``War chest``, ``sugar cane``: issue #29)."""
    why = "@term.gold_card.frontier"
    params = {"who": "Red", "building": "@term.building.sawmill", "hex": "D3", "why": why}
    assert render_message("build.building_why", params) == "Red builds a sawmill at D3 (Frontier)."
    items = [
        msg("phrase.item.reserve", n=2, good="@good.coffee"),
        msg("phrase.item.card", n=1, card="@term.combat_card.war_chest"),
        msg("phrase.item.tile", n=1, good="@good.gold", hex="E5"),
    ]
    assert render_message(
        "pay.cards", {"who": "Red", "items": items, "what": "@phrase.for.deployment"}
    ) == (
        "Red pays 2 coffee from the reserve, 1 War chest card, 1 gold from E5 for the deployment."
    )
    parts = [
        msg("phrase.fp.part", source="@term.unit.green.cannon", fp=4),
        msg(
            "phrase.fp.part", source=msg("phrase.fp.tile", tile="@term.city.recife", hex="D4"), fp=3
        ),
    ]
    assert (
        render_message(
            "expedition_result.won", {"hex": "D4", "fp": 7, "breakdown": parts, "requirement": 6}
        )
        == "Expedition at D4: 7 FP (Cannon 4 + Recife at D4 3) against 6: success!"
    )
    assert render_message(
        "discard", {"who": "Red", "goods": ["@good.sugar_cane", "@good.coffee"], "limit": 5}
    ) == ("Red discards sugar cane and coffee (reserve limit 5).")
    params = {"who": "Red", "building": "@term.building.academy", "hex": "D3"}
    assert render_message("build.building", params) == "Red builds an academy at D3."
    # events stored before: English phrases and names as text render as they are
    old = {"who": "Red", "items": "1 gold from the reserve", "what": "Sugar"}
    assert render_message("pay", old) == "Red pays 1 gold from the reserve for Sugar."
    assert render_message("flip", {"who": "R", "old": "farm", "hex": "A1", "new": "sawmill"}) == (
        "R flips the farm at A1 to a sawmill."
    )
    assert NOT_EVENTS == ("good.", "phrase.", "error.")
    assert {k for k in EN if k.startswith("phrase.")} == set(EN) - EVENT_KEYS - {
        k for k in EN if k.startswith(("good.", "error."))
    }


@pytest.fixture
def renamed_pack(tmp_path: Path) -> Iterator[Path]:
    from rules.brazil.catalog import packs_folder, set_packs_folder

    before = packs_folder()
    (tmp_path / "renamed").mkdir()
    (tmp_path / "renamed" / "cities.toml").write_text(
        '[[cities]]\nid = "recife"\nname = "Mauricéia"\n'
    )
    set_packs_folder(tmp_path)
    yield tmp_path
    set_packs_folder(before)


def test_a_data_packs_names_are_the_english_of_its_games_terms(renamed_pack: Path):
    """A term reference's English is the name in the game's own data (its data pack)."""
    g = Context(new_game(2, 1, data_pack="renamed"))
    g.emit("build.city", {"who": "Red", "city": "@term.city.recife", "hex": "D3", "vp": 3})
    assert g.events[-1].text == "Red founds the city of Mauricéia at D3 (3 VP)."
    assert render_message("build.city", g.events[-1].params) == (
        "Red founds the city of Recife at D3 (3 VP)."
    )
