"""Replaying a game's action log from its initial state, and checking the result.

Storage never imports the rules engine at import time. A *replayer* is any callable
``(state_json, action_json) -> new_state_json`` that raises when the action is illegal; the
default one, :func:`default_replayer`, is ``rules.brazil.replay_step``, imported lazily.
"""

from __future__ import annotations

import bisect
import functools
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, cast

from storage.errors import InvalidData, ReplayerUnavailable
from storage.jsonutil import json_diff, state_hash
from storage.models import DEFAULT_GAME, EntryKind, LogEntry, ReplayReport, is_pack_name

__all__ = [
    "DEFAULT_REPLAYER",
    "GAME_REPLAYER",
    "Replayer",
    "check_pack",
    "default_replayer",
    "line_of",
    "load_replayer",
    "replay_log",
]

DEFAULT_REPLAYER = "rules.brazil:replay_step"
"""Where the default replayer of Brazil: Imperial (:data:`~storage.models.DEFAULT_GAME`, every
record that names no other game) lives, as ``module:attribute``."""
GAME_REPLAYER = "rules.games:replay_step"
"""The rules registry's replayer, ``(game, state_json, action_json) -> state_json``: a
record's game is replayed by the engine its name picks (never by importing a game's package
here)."""


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


def default_replayer(game: str | None = None) -> Replayer:
    """The replayer of ``game`` (a record's :attr:`~storage.models.GameSummary.game`),
    imported now: ``rules.brazil.replay_step`` for Brazil: Imperial (``None``, the default game),
    else the rules registry's ``replay_step`` bound to that game's name;
    :class:`ReplayerUnavailable` if it is not there."""
    if game is None or game == DEFAULT_GAME:
        return load_replayer(DEFAULT_REPLAYER)
    by_game = load_replayer(GAME_REPLAYER)
    return cast(Replayer, functools.partial(by_game, game))


def check_pack(state: Any) -> None:
    """Refuse a state whose ``data_pack`` is not a plain pack name (e.g. a path such as
    ``../../etc`` put there by an edited export): the engine would read files from there.
    Raises :class:`InvalidData`; storage never follows a path that came from a file."""
    # game: reads the one key ``data_pack`` of any state, whatever its game (not by game): a
    # game whose states use that key for something else than a pack name would be refused.
    if isinstance(state, dict):
        pack = state.get("data_pack")
        if pack is not None and not is_pack_name(pack):
            raise InvalidData(
                f"the state names data pack {str(pack)[:80]!r}, which is not a plain pack name "
                "(letters, digits, '_', '.', '-'; no path): refusing to replay it"
            )


def line_of(current: int, jumps: Mapping[int, int]) -> Callable[[int], bool]:
    """Which versions the game at ``current`` still stands on.

    ``jumps`` maps each undo/rollback entry's version to the version it returned to. Walking
    back from ``current``: versions down to the latest jump entry count, then the line
    continues from that jump's target. A version off the line was undone (by an undo or a
    rollback). Returns a predicate ``version -> bool``.
    """
    ordered = sorted(jumps)
    ranges: list[tuple[int, int]] = []
    top = current
    while top >= 0:
        index = bisect.bisect_right(ordered, top) - 1
        if index < 0:
            ranges.append((0, top))
            break
        jump = ordered[index]
        ranges.append((jump, top))
        top = jumps[jump]
        if top >= jump:  # malformed (a target must be earlier): stop rather than loop
            break

    def on_line(version: int) -> bool:
        return any(low <= version <= high for low, high in ranges)

    return on_line


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

    An action entry applies its action with ``replayer``; an undo or rollback entry returns to
    the state recomputed for its target version. Every recomputed state is checked against the
    hash recorded with its entry and against the entry's snapshot, if any; when the replay
    reaches the current version, the result is also compared (semantically) with the stored
    state and the differing JSON paths are listed. The initial state's ``data_pack`` must be a
    plain name (:func:`check_pack`). Backend-independent: it only needs the entries, which
    :meth:`storage.base.GameStore.replay` fetches.
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
        check_pack(state)
    except ValueError as exc:
        return report(error=f"the initial state is not valid JSON: {exc}")
    except InvalidData as exc:
        return report(error=str(exc))
    first_mismatch: int | None = None
    verified = 0
    if first.state_hash is not None and state_hash(state) != first.state_hash:
        first_mismatch = 0
    targets = {
        entry.target_version
        for entry in wanted
        if entry.kind in (EntryKind.UNDO, EntryKind.ROLLBACK) and entry.target_version is not None
    }
    kept: dict[int, str] = {0: state_json} if 0 in targets else {}

    steps = 0
    for entry in wanted[1:]:
        if entry.kind in (EntryKind.UNDO, EntryKind.ROLLBACK):
            back_to = entry.target_version
            if back_to is None or back_to not in kept:
                return report(
                    error=f"version {entry.version} ({entry.kind}) names no earlier version",
                    steps=steps,
                    verified_steps=verified,
                    first_mismatch_version=first_mismatch,
                )
            state_json = kept[back_to]
            state = json.loads(state_json)
        else:
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
        if entry.version in targets:
            kept[entry.version] = state_json
        digest = state_hash(state)
        if entry.state_hash is not None:
            verified += entry.kind is EntryKind.ACTION
            if first_mismatch is None and digest != entry.state_hash:
                first_mismatch = entry.version
        if (
            entry.snapshot_json is not None
            and first_mismatch is None
            and digest != state_hash(json.loads(entry.snapshot_json))
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
