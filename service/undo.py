"""The one undo check, for every surface (``/undo``, the Undo button, the terminal).

A player may take back their newest step while the engine allows it (``rules.brazil.undo``: it
revealed nothing, drew nothing at random, nobody else decided since, the turn goes on). A
refusal says why in one sentence ("You cannot take back build sawmill D3: a tile was flipped
since."). :func:`undo_refusal` is the in-memory check of one step (used right after a step,
with no log read); :func:`undo_plan` finds the newest step in the log.

Texts are the catalogue's ``svc.undo.*``: a refusal is a :class:`~service.results.Refused`
carrying an :class:`i18n.Msg` (its reason a nested message), rendered in the asker's language
by ``e.text(lang)``; the step itself stays in the canonical notation (in backticks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from i18n import msg, tr
from service.games import Why, adapter, adapter_of, seat_label
from service.results import Refused, SeatSpec
from storage import GameRecord
from storage.base import GameStore
from storage.models import EntryKind

GameState = Any  # a state of any game (the game's adapter reads it)
Event = Any


@dataclass(frozen=True)
class UndoPlan:
    """What an undo would do: return to ``target`` (the version before the step), taking back
    ``description`` (the step's public description)."""

    target: int
    version: int
    description: str


def _refusal_why(
    before: GameState,
    seat: int,
    after: GameState,
    events: Sequence[Event],
    seats: Sequence[SeatSpec],
    lang: str = "en",
) -> Why | None:
    """Why ``seat``'s step cannot be taken back, by its game's adapter (names in ``lang``)."""
    return adapter_of(before).undo_why(before, seat, after, events, seats, lang=lang)


def undo_refusal(
    before: GameState,
    seat: int,
    after: GameState,
    events: Sequence[Event],
    seats: Sequence[SeatSpec],
    *,
    lang: str = "en",
) -> str | None:
    """Why ``seat``'s step (``before`` -> ``after``) cannot be taken back, in words (in
    ``lang``), or None if it can (the same conditions as :func:`rules.brazil.undo.undoable`)."""
    why = _refusal_why(before, seat, after, events, seats, lang)
    return None if why is None else tr(lang, why[0], **why[1])


def step_events(events_json: str, game: str | None = None) -> list[Event]:
    """The events of a log entry (its ``events_json``) of ``game`` (default Brazil:
    Imperial)."""
    return adapter(game).events_from_json(events_json)


async def undo_plan(
    store: GameStore,
    rec: GameRecord,
    st: GameState,
    seats: Sequence[SeatSpec],
    seat: int,
    *,
    lang: str = "en",
) -> UndoPlan:
    """What ``seat`` would take back with an undo now (``rec``/``st``: the game as loaded);
    :class:`Refused` saying why not (a message, rendered in the asker's language). ``lang``:
    the language of the plan's description where the step has no public description, and of
    the players' names in a refusal (their colours)."""
    if not rec.status.is_active:
        raise Refused(msg("svc.undo.over"))
    game_id = rec.id
    entries = {
        e.version: e for e in await store.get_log(game_id, from_version=max(0, rec.version - 64))
    }
    v = rec.version
    while v in entries and entries[v].kind in (EntryKind.UNDO, EntryKind.ROLLBACK):
        if entries[v].kind is EntryKind.ROLLBACK:
            raise Refused(msg("svc.undo.rolled_back"))
        v = int(entries[v].target_version or 0)
    entry = entries.get(v)
    if entry is None or v == 0 or entry.action_json is None or entry.seat is None:
        raise Refused(msg("svc.undo.no_step"))
    if entry.seat != seat:
        who = seat_label(st, seats, entry.seat, lang)
        raise Refused(msg("svc.undo.decided_since", who=who))
    A = adapter(rec.game)
    before = A.load(await store.state_at(game_id, v - 1))
    after = (  # the game now, unless undos since lead back to an older version
        st if v == rec.version else A.load(await store.state_at(game_id, v))
    )
    action = A.parse_action(entry.action_json)
    events = A.events_from_json(entry.events_json)
    why = A.undo_why(before, seat, after, events, seats, lang=lang)
    if why is None and A.undo_depth(before, action, after, events, seat) < 1:
        why = "svc.undo.why.engine", {}  # a condition the words above do not know
    if why is not None:
        reason = {"key": why[0], "params": why[1]}  # a nested message: the reader's language
        command = A.face.format_action(before, action)
        raise Refused(msg("svc.undo.cannot", action=command, why=reason))
    description = A.describe_in(before, action, lang) or tr(lang, "svc.undo.their_last_step")
    return UndoPlan(v - 1, rec.version, description)
