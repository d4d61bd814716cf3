"""What every backend checks the same way, without SQL: argument checks, the seat rules, the
guards of a write, and the per-game integrity checks of ``check``. The backends
(:mod:`storage.sqlite`, :mod:`storage.postgres`) read their rows and call these, so both
refuse, and report, exactly the same things."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from storage.errors import GameNotActive, InvalidData, VersionConflict
from storage.jsonutil import state_hash
from storage.models import (
    ACTIVE_STATUSES,
    GameResult,
    GameSettings,
    GameStatus,
    Seat,
    SeatKind,
    is_game_name,
    is_pack_name,
)

__all__ = [
    "MAX_ID",
    "check_game_name",
    "check_id",
    "check_result",
    "check_seat_no",
    "check_text",
    "check_version",
    "game_problems",
    "guard",
    "parse_seats",
    "scored",
    "seat_list",
]

MAX_ID = 2**63
"""Ids and versions are integers in ``[0, MAX_ID)`` (64-bit signed, as both databases)."""


def check_id(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_ID:
        raise InvalidData(f"{what} must be an integer in [0, 2**63), got {value!r}")
    return value


def check_version(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_ID:
        raise InvalidData(f"{what} must be a version number (an int >= 0), got {value!r}")
    return value


def check_game_name(value: str) -> str:
    """``value`` if it is a game name (``"brazil"``, ``"tigris"``: a lower-case identifier,
    at most 40 characters), else ``InvalidData``. Storage records the name, never reads the
    state by it."""
    if not is_game_name(value):
        raise InvalidData(
            f"game {str(value)[:80]!r} is not a game name (a lower-case identifier: a-z, 0-9, "
            "'_', starting with a letter, at most 40 characters)"
        )
    return value


def parse_seats(seats_json: str | None) -> tuple[Seat, ...]:
    """The seats of a game row: a JSON array of ``[seat, kind, user_id, name, ai_level,
    colour, score, winner]`` arrays (as both backends aggregate them), by seat number."""
    rows = json.loads(seats_json) if seats_json else []
    seats = [
        Seat(
            seat=number,
            kind=SeatKind(kind),
            user_id=user_id,
            name=name,
            ai_level=ai_level,
            colour=colour,
            score=score,
            winner=bool(winner),
        )
        for number, kind, user_id, name, ai_level, colour, score, winner in rows
    ]
    return tuple(sorted(seats, key=lambda seat: seat.seat))


def seat_list(seats: Collection[Seat]) -> list[Seat]:
    """``seats`` as a list, checked: Seat values, each number and each colour once."""
    found = list(seats)
    if not all(isinstance(seat, Seat) for seat in found):
        raise InvalidData("seats must be Seat values (Seat.discord/local/ai)")
    numbers = [seat.seat for seat in found]
    if len(set(numbers)) != len(numbers):
        raise InvalidData(f"a seat number appears twice: {sorted(numbers)}")
    colours = [seat.colour for seat in found if seat.colour is not None]
    if len(set(colours)) != len(colours):
        raise InvalidData(f"a colour is taken by two seats: {sorted(colours)}")
    return found


def guard(fields: dict[str, Any], expected_version: int | None) -> None:
    """Refuse a write to a game that is no longer active or no longer at the version the
    caller computed from."""
    status: GameStatus = fields["status"]
    if status not in ACTIVE_STATUSES:
        raise GameNotActive(fields["id"], status=status.value)
    if expected_version is not None and fields["version"] != expected_version:
        raise VersionConflict(fields["id"], expected=expected_version, actual=fields["version"])


def check_result(game_id: int, result: GameResult, seats: Sequence[Seat]) -> None:
    numbers = {seat.seat for seat in seats}
    unknown = set(result.scores) - numbers
    if unknown:
        raise InvalidData(f"game {game_id}: scores for empty seats: {sorted(unknown)}")


def check_seat_no(seat: int | None, what: str = "seat") -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 8:
        raise InvalidData(f"{what} must be a seat number 0..7 (or None), got {seat!r}")
    return seat


def check_text(text: str | None, what: str, *, limit: int = 2000) -> str | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise InvalidData(f"{what} must be a string, not {type(text).__name__}")
    if len(text) > limit:
        raise InvalidData(f"{what} is longer than {limit} characters")
    return text


def scored(seats: Sequence[Seat], result: GameResult) -> tuple[Seat, ...]:
    """The seats with the result's scores and winners."""
    return tuple(
        seat.model_copy(
            update={"score": result.scores.get(seat.seat), "winner": seat.seat in result.winners}
        )
        for seat in seats
    )


def game_problems(
    *,
    version: int,
    settings_json: str,
    state: str | None,
    count: int,
    low: int | None,
    high: int | None,
    last_hash: str | None,
    initial: str | None,
    pack: str | None,
    snapshots: Iterable[tuple[int, str, str | None]],
    jumps: Iterable[tuple[int, int, str | None, str | None]],
) -> list[str]:
    """What ``check`` finds wrong with one game, from what its backend read: the game row
    (``version``, settings, data ``pack``), its stored ``state``, the log's entry ``count``
    and ``low``/``high`` versions, the hash logged for the current version, the ``initial``
    state (entry 0's snapshot), every ``(version, snapshot, hash)`` and every undo/rollback
    ``(version, target, hash, the target's hash)``."""
    found: list[str] = []
    try:
        GameSettings.model_validate_json(settings_json)
    except ValidationError as exc:
        found.append(f"invalid settings: {exc.errors()[0]['msg']}")
    if pack is not None and not is_pack_name(pack):
        found.append(f"data pack {pack!r} is not a plain pack name")
    if (count, low, high) != (version + 1, 0, version):
        found.append(
            f"the log has {count} entries (versions {low}..{high}) "
            f"but the game is at version {version}"
        )
    if state is None:
        found.append("no stored state")
    else:
        try:
            current_hash = state_hash(json.loads(state))
        except ValueError as exc:
            found.append(f"the stored state is not valid JSON: {exc}")
        else:
            if last_hash is not None and last_hash != current_hash:
                found.append(
                    f"the stored state does not match the hash logged for version {version}"
                )
    if initial is None:
        found.append("no initial state (log entry 0)")
    for at, snapshot, digest in snapshots:
        what = "the initial state" if at == 0 else f"the snapshot of version {at}"
        try:
            if digest is not None and state_hash(json.loads(snapshot)) != digest:
                found.append(f"{what} does not match its logged hash")
        except ValueError as exc:
            found.append(f"{what} is not valid JSON: {exc}")
    for at, target, digest, target_digest in jumps:
        if digest is not None and target_digest is not None and digest != target_digest:
            found.append(f"version {at} returns to version {target} but its state is not that one")
    return found
