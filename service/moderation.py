"""Undo and moderation, surface-neutral: plain async functions over a
:class:`~service.GameService` and its store, used by the Discord cogs (``/undo``,
``/mod ...``, ``/game abandon``) and testable without Discord.

- **Who may do what.** :func:`is_moderator` (Manage Channel in the channel, or the configured
  moderator role). Every refusal is a :class:`Refused` with a sentence for the person who
  asked (shown to them privately).
- **Undo** (:func:`undo_check`, :func:`undo`): the active player takes back their own newest
  step while the engine allows it (``rules.brazil.undo``); a refusal says why, specifically ("a tile
  was flipped since", "Bo (red) has decided since").
- **Rollback** (:func:`history_choices`, :func:`rollback`): a moderator returns the game to
  an earlier version picked from its history (public descriptions, newest first), with a
  reason. :func:`request` / :func:`take_request` keep a pending confirmation in the game's
  settings (a random token in the confirm button's id), so nothing changes before "Confirm"
  and the button still works after a restart.
- **Seats** (:func:`replace_seat`, :func:`kick_seat`): a seat to another Discord user or to a
  computer player; the old player's private place (thread/DMs) stops receiving that seat's
  news.
- **Abandon** (:func:`abandon_vote`, :func:`abandon`): a moderator abandons at once; otherwise
  every seated human must ask for it (votes kept in the game's settings).
- **Export / import** (:func:`export_file`, :func:`import_file`): the whole game file (it
  holds hidden information: only ever sent privately to a moderator), and a validated
  import (format, hashes, a replay with the engine) into a channel without an active game.

Texts are the catalogue's ``svc.mod.*``: a refusal carries an :class:`i18n.Msg` (``str(e)`` is
English, ``e.text(lang)`` the asker's language); the functions that write a text for readers
(history labels, the public rollback and seat posts) take ``lang``.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from i18n import msg, tr
from rules.games import replay_step
from service import GameService, Result, SeatSpec
from service.games import adapter
from service.results import (
    AI_LEVEL_IDS,
    Refused,
    ai_id,
    ai_level_of,
    ai_level_word,
    level_words,
    seat_name,
)
from service.undo import UndoPlan, step_events, undo_refusal
from storage import GameRecord, GameStatus, PendingRequest, Seat
from storage.errors import (
    ChannelBusy,
    InvalidExport,
    StorageError,
    VersionConflict,
)
from storage.export import dump_export, load_export
from storage.models import EntryKind

MAX_IMPORT_BYTES = 8 * 1024 * 1024
"""The largest game file :func:`import_file` reads (a long game's export is well under 1 MiB)."""

MAX_REASON = 300
AI_LEVELS = AI_LEVEL_IDS


# ============================================================================ who may


def is_moderator(
    *, manage_channel: bool, role_ids: Collection[int], moderator_role_id: int | None
) -> bool:
    """A moderator of games in a channel: Manage Channel there, or the configured role."""
    return manage_channel or (moderator_role_id is not None and moderator_role_id in role_ids)


NOT_MODERATOR = (
    "Only moderators can do that: members with Manage Channel in this channel"
    " or the moderator role."
)
"""The English refusal of a non-moderator (``svc.mod.not_moderator``; see :func:`not_moderator`)."""


def not_moderator(lang: str = "en") -> str:
    """The refusal of a non-moderator in ``lang``."""
    return tr(lang, "svc.mod.not_moderator")


def human_seats(seats: Sequence[SeatSpec]) -> list[int]:
    """The seat numbers played by Discord users."""
    return [i for i, s in enumerate(seats) if s.ai is None and s.user_id is not None]


# ============================================================================ undo


async def undo_check(svc: GameService, game_id: int, seat: int) -> UndoPlan:
    """What ``seat`` would take back with an undo now; :class:`Refused` saying why not (the
    service's one check: :meth:`service.game.GameService.undo_check`)."""
    return await svc.undo_check(game_id, seat)


async def undo(svc: GameService, game_id: int, seat: int) -> Result:
    """Take back ``seat``'s newest step (see :func:`undo_check`): the service's result, whose
    public post says "Ana (red) took back: build sawmill D3" with the map."""
    res = await svc.undo(game_id, seat)
    if res.errors:
        raise Refused("\n".join(e.message for e in res.errors))
    return res


# ============================================================================ rollback


@dataclass(frozen=True)
class HistoryChoice:
    version: int
    label: str  # <= 100 characters, public


async def _step_sentences(
    svc: GameService, rec: GameRecord, seats: Sequence[SeatSpec], lang: str
) -> dict[int, str]:
    """Each step's first public event as the log says it in ``lang`` (players and colours in
    that language; a long one shortened at a word), by version; none in English (the stored
    descriptions say it)."""
    if lang == "en":
        return {}
    A = adapter(rec.game)
    st = A.load(rec.state_json)
    out: dict[int, str] = {}
    for e in await svc.store.get_log(rec.id, from_version=1):
        evs = A.public(A.events_from_json(e.events_json)) if e.events_json else []
        said = A.log_text(evs[0], st, seats, lang) if evs else ""
        if len(said) > 72:  # room for the version and "taken back" in a 100-character label
            said = said[:72].rsplit(" ", 1)[0] + "…"
        if said:
            out[e.version] = said
    return out


async def history_choices(
    svc: GameService, game_id: int, typed: str = "", *, limit: int = 25, lang: str = "en"
) -> list[HistoryChoice]:
    """The versions a game may be rolled back to, newest first: each with its public
    description (``v16 · Ana: Blue builds a sawmill at D3.``), filtered by ``typed`` (words of the
    label, in ``lang``, or the version number), at most ``limit``."""
    rec = await svc.store.get_game(game_id)
    seats = (await svc.info(game_id)).seats
    sentences = await _step_sentences(svc, rec, seats, lang)
    words = typed.lower().split()
    number = typed.strip().lower().removeprefix("v")
    out: list[HistoryChoice] = []
    for item in reversed(await svc.store.history(game_id, to_version=rec.version)):
        if item.version >= rec.version:
            continue
        if item.kind is EntryKind.CREATED:
            text = tr(lang, "svc.mod.history.start")
        elif item.kind is EntryKind.ACTION:
            seat = item.seat if item.seat is not None else -1
            who = seat_name(seats, seat, lang, "?")
            said = sentences.get(item.version)  # another language: its events' sentences
            # English: the step's public description (the engine's sentence) as it is
            text = said or f"{who}: {item.description or tr(lang, 'svc.mod.history.a_step')}"
        elif item.kind is EntryKind.UNDO:
            text = tr(lang, "svc.mod.history.undo", version=item.target_version)
        else:
            text = tr(
                lang,
                "svc.mod.history.rollback",
                version=item.target_version,
                reason=item.reason or "",
            )
        if item.undone:
            text = tr(lang, "svc.mod.history.taken_back", text=text)
        label = f"v{item.version} · {text}"
        if len(label) > 100:
            label = label[:99] + "…"
        hay = label.lower()
        if number == str(item.version) or (not number.isdigit() and all(w in hay for w in words)):
            out.append(HistoryChoice(item.version, label))
        if len(out) >= limit:
            break
    return out


def _clean_reason(reason: str) -> str:
    r = " ".join(reason.split())
    if not r:
        raise Refused(msg("svc.mod.reason_needed"))
    if len(r) > MAX_REASON:
        raise Refused(msg("svc.mod.reason_too_long", most=MAX_REASON))
    return r


async def rollback(
    svc: GameService,
    game_id: int,
    to_version: int,
    *,
    by: int,
    reason: str,
    expected_version: int | None = None,
    lang: str = "en",
) -> Result:
    """Return the game to ``to_version`` (any earlier version), by moderator ``by`` with a
    ``reason``: a public post (in ``lang``) with the reason and the map, then who decides.
    ``Refused`` for a finished game, a version out of range or a game that changed meanwhile."""
    why = _clean_reason(reason)
    async with svc.lock(game_id):
        rec = await svc.store.get_game(game_id)
        if not rec.status.is_active:
            raise Refused(msg("svc.mod.rollback.over"))
        if expected_version is not None and rec.version != expected_version:
            raise Refused(msg("svc.mod.rollback.changed"))
        if not 0 <= to_version < rec.version:
            raise Refused(msg("svc.mod.rollback.range", last=rec.version - 1))
        try:
            saved = await svc.store.rollback(
                game_id, to_version, by=by, reason=why, expected_version=rec.version
            )
        except VersionConflict as e:
            raise Refused(msg("svc.mod.changed_meanwhile")) from e
        st = adapter(saved.game).load(saved.state_json)
    seats = (await svc.info(game_id)).seats
    svc.forget(game_id)
    text = tr(lang, "svc.mod.rollback.post", by=by, version=to_version, reason=why)
    return svc.announce(game_id, saved.version, st, seats, text)


# ============================================================================ confirmations


async def request(svc: GameService, game_id: int, by: int, op: str, **data: Any) -> str:
    """Keep a moderator's pending request (``op`` and its data) until they confirm it; the
    returned token goes in the Confirm button's id. A newer request replaces an older one."""
    rec = await svc.store.get_game(game_id)
    token = secrets.token_hex(4)
    pending = PendingRequest(token=token, op=op, by=by, version=rec.version, data=data)
    await svc.store.update_settings(game_id, pending_request=pending)
    return token


async def take_request(svc: GameService, game_id: int, token: str, by: int) -> dict[str, Any]:
    """The pending request ``token`` of moderator ``by`` (and forget it); ``Refused`` if it
    is not theirs, was replaced, or the game changed since."""
    rec = await svc.store.get_game(game_id)
    req = rec.settings.pending_request
    if req is None or req.token != token:
        raise Refused(msg("svc.mod.request.gone"))
    if req.by != by:
        raise Refused(msg("svc.mod.request.confirm_not_yours"))
    await svc.store.update_settings(game_id, pending_request=None)
    if req.version != rec.version:
        raise Refused(msg("svc.mod.request.changed"))
    return {**req.data, "token": req.token, "op": req.op, "by": req.by, "version": req.version}


def pending_request(rec: GameRecord) -> PendingRequest | None:
    """The moderator's request waiting for confirmation in this game, if any."""
    return rec.settings.pending_request


async def cancel_request(svc: GameService, game_id: int, token: str, by: int) -> None:
    rec = await svc.store.get_game(game_id)
    req = rec.settings.pending_request
    if req is not None and req.token == token:
        if req.by != by:
            raise Refused(msg("svc.mod.request.cancel_not_yours"))
        await svc.store.update_settings(game_id, pending_request=None)


# ============================================================================ seats


async def _set_seat(
    svc: GameService, rec: GameRecord, seat: int, spec: SeatSpec, stored: Seat
) -> list[SeatSpec]:
    # one transaction: the seat, and the old player's private place (thread / DMs: they no
    # longer get this seat's news) and abandon vote when they hold no other seat
    saved = await svc.store.replace_seat(rec.id, stored)
    svc.forget(rec.id)
    return svc.seat_specs(saved)


async def _seat_game(svc: GameService, game_id: int, seat: int) -> tuple[GameRecord, SeatSpec]:
    rec = await svc.store.get_game(game_id)
    if not rec.status.is_active:
        raise Refused(msg("svc.mod.seat.over"))
    seats = (await svc.info(game_id)).seats
    if not 0 <= seat < len(seats):
        raise Refused(msg("svc.mod.seat.no_such", seat=seat + 1, seats=len(seats)))
    return rec, seats[seat]


def _colour(rec: GameRecord, seat: int) -> str | None:
    old = rec.seat(seat)
    return old.colour if old is not None else None


async def replace_seat(
    svc: GameService,
    game_id: int,
    seat: int,
    user_id: int,
    name: str,
    *,
    by: int,
    lang: str = "en",
) -> Result:
    """Seat ``seat`` (0-based) is played by Discord user ``user_id`` from now on (a human or
    a computer seat before). Public post (in ``lang``) naming the change; the new player's
    hand is theirs through ``/hand``. ``Refused`` if that user already has a seat in this
    game."""
    rec, _ = await _seat_game(svc, game_id, seat)
    seats = (await svc.info(game_id)).seats
    if any(s.user_id == user_id and s.ai is None for s in seats):
        raise Refused(msg("svc.mod.seat.taken", user_id=user_id))
    st = adapter(rec.game).load(rec.state_json)
    before = GameService.who(st, seats, seat, lang)
    new = await _set_seat(
        svc,
        rec,
        seat,
        SeatSpec(name=name, user_id=user_id),
        Seat.discord(seat, user_id, name=name, colour=_colour(rec, seat)),
    )
    text = tr(lang, "svc.mod.seat.replaced", seat=seat + 1, before=before, user_id=user_id, by=by)
    return svc.announce(game_id, rec.version, st, new, text, image=False)


async def kick_seat(
    svc: GameService, game_id: int, seat: int, level: str, *, by: int, lang: str = "en"
) -> Result:
    """Seat ``seat`` is played by a computer player of ``level`` from now on (the public post
    in ``lang``). ``Refused`` for an unknown level, a seat already played by that AI, or the
    last human seat (abandon the game instead)."""
    found = ai_level_of(level)
    if found is None:
        raise Refused(msg("svc.mod.seat.ai_levels", levels=level_words(AI_LEVELS)))
    level = found
    rec, old = await _seat_game(svc, game_id, seat)
    seats = (await svc.info(game_id)).seats
    if old.ai == level:
        raise Refused(msg("svc.mod.seat.same_ai", seat=seat + 1, level=f"@ai.level.word.{level}"))
    if old.ai is None and len(human_seats(seats)) <= 1:
        raise Refused(msg("svc.mod.seat.last_human"))
    st = adapter(rec.game).load(rec.state_json)
    before = GameService.who(st, seats, seat, lang)
    name = ai_id(level)
    new = await _set_seat(
        svc,
        rec,
        seat,
        SeatSpec(name=name, ai=level),
        Seat.ai(seat, level, name=name, colour=_colour(rec, seat)),
    )
    word = ai_level_word(lang, level)
    text = tr(lang, "svc.mod.seat.kicked", seat=seat + 1, before=before, level=word, by=by)
    return svc.announce(game_id, rec.version, st, new, text, image=False)


# ============================================================================ abandon


@dataclass(frozen=True)
class AbandonVote:
    votes: tuple[int, ...]  # user ids who asked
    needed: tuple[int, ...]  # every seated human's user id
    done: bool  # everybody agreed


async def abandon_vote(svc: GameService, game_id: int, user_id: int) -> AbandonVote:
    """A seated human asks to abandon the game; ``done`` once every seated human has asked
    (the caller then confirms and calls :func:`abandon`). ``Refused`` for a non-player."""
    rec = await svc.store.get_game(game_id)
    if not rec.status.is_active:
        raise Refused(msg("svc.mod.abandon.over"))
    seats = (await svc.info(game_id)).seats if rec.status is not GameStatus.LOBBY else []
    if rec.status is GameStatus.LOBBY:
        needed = tuple(s.user_id for s in rec.seats if s.user_id is not None)
    else:
        needed = tuple(dict.fromkeys(seats[i].user_id or 0 for i in human_seats(seats)))
    if user_id not in needed:
        raise Refused(msg("svc.mod.abandon.not_player"))
    votes = list(rec.settings.abandon_votes)
    if user_id not in votes:
        votes.append(user_id)
        await svc.store.update_settings(game_id, abandon_votes=votes)
    got = tuple(v for v in votes if v in needed)
    return AbandonVote(got, needed, set(needed) <= set(got))


async def abandon(svc: GameService, game_id: int) -> GameRecord:
    """Mark the game abandoned (it frees the channel; nothing more can change in it)."""
    rec = await svc.store.get_game(game_id)
    if not rec.status.is_active:
        raise Refused(msg("svc.mod.abandon.over"))
    try:
        return await svc.store.set_status(game_id, GameStatus.ABANDONED)
    except StorageError as e:
        raise Refused(msg("svc.mod.abandon.failed", error=str(e))) from e


# ============================================================================ export, import


def export_name(rec: GameRecord) -> str:
    return f"{rec.game}-game-{rec.id}-v{rec.version}.json"


async def export_file(svc: GameService, game_id: int) -> tuple[str, bytes]:
    """The game file (name, UTF-8 JSON): the whole log with every hidden card — for a
    moderator's eyes only, never a public post."""
    rec = await svc.store.get_game(game_id)
    exp = await svc.store.export_game(game_id)
    return export_name(rec), dump_export(exp).encode("utf-8")


async def import_file(
    svc: GameService, data: bytes, *, channel_id: int, guild_id: int | None
) -> GameRecord:
    """Store a game file in ``channel_id`` under a new id: checked (format, hashes, seats,
    the engine's replay of the whole log). ``Refused`` with the reason for a bad file or a
    channel that has an active game."""
    if await svc.store.get_active_game(channel_id) is not None:
        raise Refused(msg("svc.mod.import.channel_busy"))
    if len(data) > MAX_IMPORT_BYTES:
        raise Refused(msg("svc.mod.import.too_large", most=MAX_IMPORT_BYTES))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Refused(msg("svc.mod.import.not_utf8")) from e
    try:
        exp = load_export(text)
        A = adapter(exp.game.game)
        state = A.load(json.dumps(exp.state))
        if len(exp.seats) != A.seat_count(state):
            raise Refused(msg("svc.mod.import.no_seats"))
        rec = await svc.store.import_game(
            exp,
            channel_id=channel_id,
            guild_id=guild_id,
            replayer=functools.partial(replay_step, A.name),
        )
    except Refused:
        raise
    except ChannelBusy as e:
        raise Refused(msg("svc.mod.import.channel_taken")) from e
    except InvalidExport as e:
        raise Refused(msg("svc.mod.import.refused", error=str(e))) from e
    except (ValueError, StorageError) as e:
        error = str(e).splitlines()[0][:300]
        raise Refused(msg("svc.mod.import.refused", error=error)) from e
    # the exported channel's bookkeeping does not apply here
    return await svc.store.update_settings(
        rec.id,
        status_message_id=None,
        pending_request=None,
        abandon_votes=(),
        private_places={},
    )


__all__ = [
    "AI_LEVELS",
    "NOT_MODERATOR",
    "AbandonVote",
    "HistoryChoice",
    "Refused",
    "UndoPlan",
    "abandon",
    "abandon_vote",
    "cancel_request",
    "export_file",
    "history_choices",
    "human_seats",
    "import_file",
    "is_moderator",
    "kick_seat",
    "not_moderator",
    "replace_seat",
    "request",
    "rollback",
    "step_events",
    "take_request",
    "undo",
    "undo_check",
    "undo_refusal",
]
