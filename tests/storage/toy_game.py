"""A tiny stand-in game for storage tests, until the real rules engine lands.

State: ``{"counter": n, "log": [k1, k2, ...], "padding": "..."}``. Action: ``{"add": k}`` with
k a positive int; anything else is illegal (the replayer raises). ``replay`` has the
:class:`storage.replay.Replayer` signature and is importable as
``tests.storage.toy_game:replay`` for the CLI's ``--replayer``.
"""

from __future__ import annotations

import json
from typing import Any


class IllegalAction(ValueError):
    """The toy rules reject this action."""


def initial_state(padding: int = 0) -> str:
    return json.dumps({"counter": 0, "log": [], "padding": "x" * padding})


def action(add: int) -> str:
    return json.dumps({"add": add})


def apply(state: dict[str, Any], add: int) -> dict[str, Any]:
    return {**state, "counter": state["counter"] + add, "log": [*state["log"], add]}


def replay(state_json: str, action_json: str) -> str:
    """The toy replayer: apply one ``{"add": k}`` action."""
    state = json.loads(state_json)
    move = json.loads(action_json)
    if not isinstance(move, dict) or set(move) != {"add"}:
        raise IllegalAction(f"not a toy action: {action_json}")
    add = move["add"]
    if isinstance(add, bool) or not isinstance(add, int) or add <= 0:
        raise IllegalAction(f"add must be a positive integer, got {add!r}")
    return json.dumps(apply(state, add))


def state_after(adds: list[int], padding: int = 0) -> dict[str, Any]:
    """The state a game reaches from its initial state after these actions."""
    state: dict[str, Any] = json.loads(initial_state(padding))
    for add in adds:
        state = apply(state, add)
    return state


def crash_add(game_id: int, version: int) -> int:
    """The deterministic action the crash worker plays to reach ``version`` of ``game_id``."""
    return (game_id * 31 + version * 7) % 9 + 1


def crash_step(game_id: int, version: int, last_kind: str) -> tuple[str, int]:
    """What the crash worker writes as ``version`` of ``game_id`` after an entry of
    ``last_kind``: ``("add", k)``, ``("undo", target)`` (only right after an action, back two
    versions, so the target is still on the game's line) or ``("rollback", target)``."""
    roll = (game_id * 13 + version * 5) % 10
    if roll in (0, 3) and last_kind == "action" and version >= 2:
        return ("undo", version - 2)
    if roll == 5 and version >= 4:
        return ("rollback", version - 4)
    return ("add", crash_add(game_id, version))


def crash_states(game_id: int, upto: int, padding: int = 0) -> list[dict[str, Any]]:
    """The states of versions 0..``upto`` of a crash-worker game (undo and rollback included)."""
    states: list[dict[str, Any]] = [json.loads(initial_state(padding))]
    last = "created"
    for version in range(1, upto + 1):
        op, value = crash_step(game_id, version, last)
        states.append(apply(states[-1], value) if op == "add" else states[value])
        last = "action" if op == "add" else op
    return states


def replay_v2(state_json: str, action_json: str) -> str:
    """A "newer engine" of the toy game: the same actions add one more (so old logs differ)."""
    state = json.loads(replay(state_json, action_json))
    state["counter"] += 1
    return json.dumps(state)
