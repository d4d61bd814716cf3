"""Strict input (issue 7, defect 6): malformed actions and game options are refused with a
RulesError / ValueError that says what is wrong, never a pydantic traceback or a coercion."""

from __future__ import annotations

import ast
import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rules.brazil import InvalidAction, RulesError, apply, new_game, parse_action
from rules.brazil.actions import ACTION_TYPES

# A valid value for each field annotation, and values of the wrong JSON type for it.
GOOD: dict[str, Any] = {
    "int": 0,
    "int | None": None,
    "str": "x",
    "str | None": None,
    "bool": False,
    "tuple[str, ...]": [],
    "tuple[Deploy, ...]": [],
    "Payment": None,
}
BAD: dict[str, list[Any]] = {
    "int": [True, False, "0", "1", 1.5, None, [0]],
    "int | None": [True, "0", 1.5, [0]],
    "str": [1, True, None, ["x"], {"a": 1}],
    "str | None": [1, True, ["x"]],
    "bool": [1, 0, "true", "false", None],
    "tuple[str, ...]": ["abc", [1], [True], [None], {"a": "b"}],
    "tuple[Deploy, ...]": ["abc", [1], [{"unit": 1, "to": "D4"}], [{"unit": "u"}]],
    "Payment": ["abc", [1], [{"source": "reserve", "what": 1}], [{"source": True, "what": "x"}]],
}


def valid(kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    for f in dataclasses.fields(ACTION_TYPES[kind]):
        if f.name == "type":
            continue
        ann = str(f.type)
        if ann.startswith("Literal"):
            choices = ast.literal_eval("(" + ann[len("Literal[") : -1] + ",)")
            out[f.name] = f.default if f.default is not dataclasses.MISSING else choices[0]
        else:
            out[f.name] = GOOD[ann]
    return out


def field_cases() -> list[tuple[str, str, Any]]:
    cases = []
    for kind, cls in sorted(ACTION_TYPES.items()):
        for f in dataclasses.fields(cls):
            ann = str(f.type)
            for bad in BAD.get(ann, ["zzz", 1, True] if ann.startswith("Literal") else []):
                cases.append((kind, f.name, bad))
    return cases


@pytest.mark.parametrize("kind", sorted(ACTION_TYPES))
def test_every_action_type_parses_from_its_valid_form(kind: str) -> None:
    assert parse_action(valid(kind)).type == kind


@pytest.mark.parametrize(("kind", "name", "bad"), field_cases())
def test_every_field_is_strictly_typed(kind: str, name: str, bad: Any) -> None:
    data = valid(kind)
    data[name] = bad
    for given_ in (data, json.dumps(data)):
        with pytest.raises(InvalidAction) as e:
            parse_action(given_)
        assert not isinstance(e.value, ValidationError)
        assert name in e.value.message  # names the field


def test_seat_true_and_string_seat_refused() -> None:
    for bad in (True, "0", 0.0):
        with pytest.raises(InvalidAction):
            parse_action({"type": "end_turn", "seat": bad})


@pytest.mark.parametrize("data", [None, 5, [], "not json", b"\xff", '{"type": "nosuch"}', "{}"])
def test_non_action_input_is_an_invalid_action(data: Any) -> None:
    with pytest.raises(InvalidAction):
        parse_action(data)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["type", "seat", "at", "unit", "cards", "payment", "flip", "era"]),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
            max_leaves=5,
        ),
    )
)
def test_parse_action_raises_only_invalid_action(data: dict[str, Any]) -> None:
    try:
        parse_action(data)
    except InvalidAction as e:
        assert e.message
    except ValidationError as e:  # pragma: no cover - the defect
        raise AssertionError(f"pydantic error leaked: {e}") from e


def test_apply_with_a_bad_seat_names_a_rule() -> None:
    state = new_game(2, 1)
    for seat in (2, -1, 99):
        with pytest.raises(InvalidAction) as e:
            apply(state, {"type": "choose_colour", "seat": seat, "colour": "green"})
        assert e.value.rule.startswith("R-")


def test_apply_refuses_a_bool_seat_on_a_constructed_action() -> None:
    from rules.brazil.actions import ChooseColour

    state = new_game(2, 1)
    with pytest.raises(InvalidAction) as e:
        apply(state, ChooseColour(seat=True, colour="green"))
    assert e.value.rule.startswith("R-")


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"players": True}, "players"),
        ({"players": "2"}, "players"),
        ({"players": 0}, "players"),
        ({"players": 5}, "players"),
        ({"players": 2, "city_limit": -3}, "city_limit"),
        ({"players": 2, "city_limit": True}, "city_limit"),
        ({"players": 2, "seed": True}, "seed"),
        ({"players": 2, "seed": "7"}, "seed"),
    ],
)
def test_new_game_refuses_bad_arguments_naming_them(kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(ValueError) as e:
        new_game(**kwargs)
    assert name in str(e.value)
    assert isinstance(e.value, RulesError) or not isinstance(e.value, ValidationError)


def test_new_game_without_seed_draws_64_bits_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 7, defect 7: a time-like seed can be brute-forced back from a public display.
    import rules.brazil.setup

    asked: list[int] = []
    real = rules.brazil.setup.secrets.randbits

    def spy(k: int) -> int:
        asked.append(k)
        return real(k)

    monkeypatch.setattr(rules.brazil.setup.secrets, "randbits", spy)
    a, b = new_game(2), new_game(2)
    assert asked and min(asked) >= 64
    assert a.rng.seed != b.rng.seed
    assert 0 <= a.rng.seed < 2**64
    # An explicit seed keeps working and is reproducible.
    assert new_game(2, 7).model_dump_json() == new_game(2, seed=7).model_dump_json()
    assert new_game(2, 7).rng.seed == 7
