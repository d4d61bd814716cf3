"""The one undo check, for every surface (``/undo``, the Undo button, the terminal).

A player may take back their newest step while the engine allows it (``rules.undo``: it
revealed nothing, drew nothing at random, nobody else decided since, the turn goes on). A
refusal says why in one sentence ("You cannot take back build sawmill D3: a tile was flipped
since."). :func:`undo_refusal` is the in-memory check of one step (used right after a step,
with no log read); :func:`undo_plan` finds the newest step in the log.

Texts are the catalogue's ``svc.undo.*``: a refusal is a :class:`~service.results.Refused`
carrying an :class:`i18n.Msg` (its reason a nested message), rendered in the asker's language
by ``e.text(lang)``; the step itself stays in the canonical notation (in backticks).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from i18n import msg, tr
from rules import GameState, format_action, parse_action
from rules import undo as rules_undo
from rules.events import Event
from rules.notation import describe_action
from service.results import Refused, SeatSpec, seat_label
from storage import GameRecord
from storage.base import GameStore
from storage.models import EntryKind


@dataclass(frozen=True)
class UndoPlan:
    """What an undo would do: return to ``target`` (the version before the step), taking back
    ``description`` (the step's public description)."""

    target: int
    version: int
    description: str


_REVEALS: tuple[tuple[str, str], ...] = (
    # (an event key's prefix, the id of its words: svc.undo.reveal.<id>, svc.undo.since.<id>)
    ("explore", "explore"),  # a tile was flipped
    ("peek", "peek"),  # a tile was peeked at
    ("reshuffle", "reshuffle"),  # a deck was reshuffled
    ("draw_", "draw"),  # a card was drawn
    ("mission", "mission"),  # a mission was drawn or shown
    ("display", "display"),  # a painting was turned up
    ("build.city", "city"),  # a city tile was turned up
    ("espionage", "espionage"),  # a hand was spied on
    ("cards_revealed", "cards_revealed"),  # battle cards were revealed
    ("enemy_cards", "enemy_cards"),  # battle cards were drawn
    ("gold_card", "gold_card"),  # a gold card was shown
    ("pay.", "pay"),  # cards were paid face up
    ("discard_cards", "discard"),  # cards were discarded face up
    ("capitals_revealed", "capitals"),  # the capitals were turned up
)


def _reveal_id(events: Sequence[Event]) -> str | None:
    """The id of what the first revealing event showed (``"other"`` when unnamed)."""
    for e in events:
        if not e.reveals:
            continue
        key = e.key or e.kind
        for prefix, rid in _REVEALS:
            if key.startswith(prefix):
                return rid
        return "other"  # something hidden was revealed
    return None


def reveal_reason(events: Sequence[Event], *, lang: str = "en") -> str | None:
    """Why a step's events forbid undo ("a tile was flipped"), in ``lang``, or None if none
    reveals."""
    rid = _reveal_id(events)
    return None if rid is None else tr(lang, f"svc.undo.reveal.{rid}")


Why = tuple[str, dict[str, Any]]
"""A reason as a message: its key and parameters."""


def _refusal_why(
    before: GameState,
    seat: int,
    after: GameState,
    events: Sequence[Event],
    seats: Sequence[SeatSpec],
) -> Why | None:
    if before.phase != "play":
        return "svc.undo.why.setup", {}
    if after.phase == "ended":
        return "svc.undo.why.ended_game", {}
    if after.current != seat or after.round != before.round:
        return "svc.undo.why.ended_turn", {}
    rid = _reveal_id(events)
    if rid is not None:
        return f"svc.undo.since.{rid}", {}
    if after.rng.counter != before.rng.counter:
        return "svc.undo.why.random", {}
    mine_b = [(d.seat, d.kind, d.data) for d in before.pending if d.seat != seat]
    mine_a = [(d.seat, d.kind, d.data) for d in after.pending if d.seat != seat]
    if mine_b != mine_a:
        others = sorted({d.seat for d in (*before.pending, *after.pending) if d.seat != seat})
        if not others:
            return "svc.undo.why.another_decided", {}
        who = [seat_label(after, seats, s) for s in others]
        return "svc.undo.why.others_decided", {"who": who, "n": len(who)}
    if before.current != seat:
        return "svc.undo.why.not_your_turn", {}
    return None


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
    ``lang``), or None if it can (the same conditions as :func:`rules.undo.undoable`)."""
    why = _refusal_why(before, seat, after, events, seats)
    return None if why is None else tr(lang, why[0], **why[1])


def step_events(events_json: str) -> list[Event]:
    """The events of a log entry (its ``events_json``)."""
    return [Event.model_validate(e) for e in json.loads(events_json or "[]")]


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
    the language of the plan's description where the step has no public description."""
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
        raise Refused(msg("svc.undo.decided_since", who=seat_label(st, seats, entry.seat)))
    before = GameState.model_validate_json(await store.state_at(game_id, v - 1))
    after = (  # the game now, unless undos since lead back to an older version
        st if v == rec.version else GameState.model_validate_json(await store.state_at(game_id, v))
    )
    action = parse_action(entry.action_json)
    events = step_events(entry.events_json)
    why = _refusal_why(before, seat, after, events, seats)
    if why is None and rules_undo.undo_depth([(before, action, after, events)], seat) < 1:
        why = "svc.undo.why.engine", {}  # a condition the words above do not know
    if why is not None:
        reason = {"key": why[0], "params": why[1]}  # a nested message: the reader's language
        raise Refused(msg("svc.undo.cannot", action=format_action(before, action), why=reason))
    description = describe_action(before, action, None) or tr(lang, "svc.undo.their_last_step")
    return UndoPlan(v - 1, rec.version, description)
