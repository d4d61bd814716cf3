"""The public surface of rules is typed without Any; Action is a plain union."""

from __future__ import annotations

import inspect
import typing
from typing import Any, get_args

import rules.brazil as rules
from rules.brazil.actions import ACTION_TYPES, Action, ActionAdapter


def _mentions_any(tp: object) -> bool:
    return tp is Any or any(_mentions_any(a) for a in get_args(tp))


def test_public_functions_have_no_any():
    for name in rules.__all__:
        obj = getattr(rules, name)
        if inspect.isfunction(obj):
            hints = typing.get_type_hints(obj)
            bad = [k for k, v in hints.items() if _mentions_any(v)]
            if name == "parse_action":  # a dict of JSON values in, an Action out
                bad = [k for k in bad if k != "data"]
            assert not bad, f"{name}: {bad} typed with Any"
            assert "return" in hints, f"{name} has no return type"


def test_action_union_covers_every_action_type():
    assert set(get_args(Action)) == set(ACTION_TYPES.values())
    a = ActionAdapter.validate_python({"type": "end_turn", "seat": 0})
    assert isinstance(a, get_args(Action))
