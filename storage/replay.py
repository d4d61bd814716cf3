"""Replaying a game's action log from its initial state, and checking the result.

Storage never imports the rules engine at import time. A *replayer* is any callable
``(state_json, action_json) -> new_state_json`` that raises when the action is illegal; the
default one, :func:`default_replayer`, is ``rules.replay_step``, imported lazily.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from typing import Any, Protocol, cast

from storage.errors import InvalidData, ReplayerUnavailable
from storage.jsonutil import json_diff, state_hash
from storage.models import LogEntry, ReplayReport

__all__ = [
    "DEFAULT_REPLAYER",
    "Replayer",
    "default_replayer",
    "load_replayer",
    "replay_log",
]

DEFAULT_REPLAYER = "rules:replay_step"
"""Where the default replayer lives, as ``module:attribute``."""


class Replayer(Protocol):
    """Applies one logged action to a state: ``(state_json, action_json) -> new state_json``.

    Must be deterministic and raise (any exception) if the action is illegal in that state.
    """

    def __call__(self, state_json: str, action_json: str, /) -> str: ...


def load_replayer(spec: str) -> Replayer:
    """Import a replayer from ``"package.module:function"``.

    Raises :class:`ReplayerUnavailable` (with the reason) if it cannot be imported.
    """
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ReplayerUnavailable(f"replayer {spec!r} must look like 'package.module:function'")
    try:
        module = importlib.import_module(module_name)
        function: object = getattr(module, attribute)
    except (ImportError, AttributeError) as exc:
        raise ReplayerUnavailable(f"cannot load replayer {spec!r}: {exc}") from exc
    if not callable(function):
        raise ReplayerUnavailable(f"replayer {spec!r} is not callable")
    return cast(Replayer, function)


def default_replayer() -> Replayer:
    """``rules.replay_step``, imported now; :class:`ReplayerUnavailable` if it is not there."""
    return load_replayer(DEFAULT_REPLAYER)


def replay_log(
    *,
    game_id: int,
    entries: Sequence[LogEntry],
    stored_version: int,
    stored_state_json: str,
    replayer: Replayer,
    to_version: int | None = None,
) -> ReplayReport:
    """Recompute a game's state from its log entries 0..``to_version`` (default: all).

    Every recomputed state is checked against the hash recorded with its log entry; when the
    replay reaches the current version, the result is also compared (semantically) with the
    stored state and the differing JSON paths are listed. Backend-independent: it only needs
    the entries, which :meth:`storage.base.GameStore.replay` fetches.
    """
    target = stored_version if to_version is None else to_version
    if not 0 <= target <= stored_version:
        raise InvalidData(
            f"game {game_id}: cannot replay to version {target} (the game is at {stored_version})"
        )

    def report(**fields: Any) -> ReplayReport:
        base: dict[str, Any] = {
            "game_id": game_id,
            "to_version": target,
            "stored_version": stored_version,
            "ok": False,
            "state_json": None,
            "steps": 0,
            "verified_steps": 0,
        }
        base.update(fields)
        return ReplayReport(**base)

    wanted = [entry for entry in entries if entry.version <= target]
    for position, entry in enumerate(wanted):
        if entry.version != position:
            return report(
                error=f"the log is not contiguous: expected version {position}, "
                f"found {entry.version}"
            )
    if len(wanted) != target + 1:
        return report(error=f"the log stops at version {len(wanted) - 1}, expected {target}")

    first = wanted[0]
    if first.snapshot_json is None:
        return report(error="the log has no initial state (version 0)")
    state_json = first.snapshot_json
    try:
        state = json.loads(state_json)
    except ValueError as exc:
        return report(error=f"the initial state is not valid JSON: {exc}")
    first_mismatch: int | None = None
    verified = 0
    if first.state_hash is not None and state_hash(state) != first.state_hash:
        first_mismatch = 0

    steps = 0
    for entry in wanted[1:]:
        if entry.action_json is None:
            return report(error=f"version {entry.version} has no action", steps=steps)
        try:
            state_json = replayer(state_json, entry.action_json)
            state = json.loads(state_json)
        except Exception as exc:
            return report(
                error=f"version {entry.version}: replaying the action failed: "
                f"{type(exc).__name__}: {exc}",
                steps=steps,
                verified_steps=verified,
                first_mismatch_version=first_mismatch,
            )
        steps += 1
        if entry.state_hash is not None:
            verified += 1
            if first_mismatch is None and state_hash(state) != entry.state_hash:
                first_mismatch = entry.version
        if (
            entry.snapshot_json is not None
            and first_mismatch is None
            and state_hash(state) != state_hash(json.loads(entry.snapshot_json))
        ):
            first_mismatch = entry.version

    differences: list[str] = []
    if target == stored_version:
        differences = json_diff(json.loads(stored_state_json), state, labels=("stored", "replayed"))
        if differences and first_mismatch is None:
            first_mismatch = target
    return report(
        ok=first_mismatch is None,
        state_json=state_json,
        steps=steps,
        verified_steps=verified,
        first_mismatch_version=first_mismatch,
        differences=tuple(differences),
    )
