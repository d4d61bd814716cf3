"""The one undo check, for every surface (``/undo``, the Undo button, the terminal).

A player may take back their newest step while the engine allows it (``rules.undo``: it
revealed nothing, drew nothing at random, nobody else decided since, the turn goes on). A
refusal says why in one sentence ("You cannot take back build sawmill D3: a tile was flipped
since."). :func:`undo_refusal` is the in-memory check of one step (used right after a step,
with no log read); :func:`undo_plan` finds the newest step in the log.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

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


_REVEAL_WORDS: tuple[tuple[str, str], ...] = (
    ("explore", "a tile was flipped"),
    ("peek", "a tile was peeked at"),
    ("reshuffle", "a deck was reshuffled"),
    ("draw_", "a card was drawn"),
    ("mission", "a mission was drawn or shown"),
    ("display", "a painting was turned up"),
    ("build.city", "a city tile was turned up"),
    ("espionage", "a hand was spied on"),
    ("cards_revealed", "battle cards were revealed"),
    ("enemy_cards", "battle cards were drawn"),
    ("gold_card", "a gold card was shown"),
    ("pay.", "cards were paid face up"),
    ("discard_cards", "cards were discarded face up"),
    ("capitals_revealed", "the capitals were turned up"),
)


def reveal_reason(events: Sequence[Event]) -> str | None:
    """Why a step's events forbid undo ("a tile was flipped"), or None if none reveals."""
    for e in events:
        if not e.reveals:
            continue
        key = e.key or e.kind
        for prefix, words in _REVEAL_WORDS:
            if key.startswith(prefix):
                return words
        return "something hidden was revealed"
    return None


def undo_refusal(
    before: GameState,
    seat: int,
    after: GameState,
    events: Sequence[Event],
    seats: Sequence[SeatSpec],
) -> str | None:
    """Why ``seat``'s step (``before`` -> ``after``) cannot be taken back, in words, or None
    if it can (the same conditions as :func:`rules.undo.undoable`)."""
    if before.phase != "play":
        return "setup choices cannot be taken back"
    if after.phase == "ended":
        return "that step ended the game"
    if after.current != seat or after.round != before.round:
        return "that step ended your turn"
    why = reveal_reason(events)
    if why is not None:
        return f"{why} since"
    if after.rng.counter != before.rng.counter:
        return "something was drawn at random since"
    mine_b = [(d.seat, d.kind, d.data) for d in before.pending if d.seat != seat]
    mine_a = [(d.seat, d.kind, d.data) for d in after.pending if d.seat != seat]
    if mine_b != mine_a:
        others = sorted({d.seat for d in (*before.pending, *after.pending) if d.seat != seat})
        who = ", ".join(seat_label(after, seats, s) for s in others) or "another player"
        return f"{who} had to decide on it"
    if before.current != seat:
        return "it was not your turn"
    return None


def step_events(events_json: str) -> list[Event]:
    """The events of a log entry (its ``events_json``)."""
    return [Event.model_validate(e) for e in json.loads(events_json or "[]")]


async def undo_plan(
    store: GameStore,
    rec: GameRecord,
    st: GameState,
    seats: Sequence[SeatSpec],
    seat: int,
) -> UndoPlan:
    """What ``seat`` would take back with an undo now (``rec``/``st``: the game as loaded);
    :class:`Refused` saying why not."""
    if not rec.status.is_active:
        raise Refused("This game is over: nothing can be taken back.")
    game_id = rec.id
    entries = {
        e.version: e for e in await store.get_log(game_id, from_version=max(0, rec.version - 64))
    }
    v = rec.version
    while v in entries and entries[v].kind in (EntryKind.UNDO, EntryKind.ROLLBACK):
        if entries[v].kind is EntryKind.ROLLBACK:
            raise Refused("A moderator rolled the game back since: nothing to take back.")
        v = int(entries[v].target_version or 0)
    entry = entries.get(v)
    if entry is None or v == 0 or entry.action_json is None or entry.seat is None:
        raise Refused("You have no step of your own to take back.")
    if entry.seat != seat:
        raise Refused(
            f"You cannot take that back: {seat_label(st, seats, entry.seat)} has decided since."
        )
    before = GameState.model_validate_json(await store.state_at(game_id, v - 1))
    after = (  # the game now, unless undos since lead back to an older version
        st if v == rec.version else GameState.model_validate_json(await store.state_at(game_id, v))
    )
    action = parse_action(entry.action_json)
    events = step_events(entry.events_json)
    why = undo_refusal(before, seat, after, events, seats)
    if why is None and rules_undo.undo_depth([(before, action, after, events)], seat) < 1:
        why = "the engine does not allow it"  # a condition the words above do not know
    if why is not None:
        raise Refused(f"You cannot take back `{format_action(before, action)}`: {why}.")
    return UndoPlan(v - 1, rec.version, describe_action(before, action, None) or "their last step")
