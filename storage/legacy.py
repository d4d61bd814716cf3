"""Reading the settings of older releases: the schemaless ``settings.extra`` bag.

Before schema version 5 (and export format 3) a game's surface bookkeeping lived in
``GameSettings.extra``, a free JSON object. :func:`upgrade_legacy_settings` turns such a
settings object into the typed fields of :class:`storage.models.GameSettings`. It is pure
(plain JSON in, plain JSON out, no models): the model's ``mode="before"`` validator uses it so
old export files still load, and migration 5 uses it to rewrite every stored game.

Legacy keys and where they go (anything else in ``extra`` is dropped):

==================  ==========================================================
``seed``            ``seed``
``host``            ``host_user_id``
``ai_level``        ``ai_level``
``colour_wishes``   ``colour_wishes`` (``{"0": "blue"}`` -> ``{0: "blue"}``)
``status_message``  ``status_message_id`` (a message id, was text)
``posted_version``  ``posted_version``
``hand:<user id>``  ``private_places[user id]`` (``{"where", "channel"}`` -> ``{"where", "channel_id"}``)
``mod_confirm``     ``pending_request`` (``token``, ``op``, ``by``, ``version``; the rest in ``data``)
``abandon_votes``   ``abandon_votes``
``lobby``           dropped (the status says it)
``seats``           dropped (the ``seats`` table holds the seats; names: :func:`legacy_seat_names`)
==================  ==========================================================

Bookkeeping values that are malformed are dropped rather than refused: a game must never
become unreadable because of a surface's stale note.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["legacy_seat_names", "legacy_stand_ins", "upgrade_legacy_settings"]

_MAX_ID = 2**63
_INT = re.compile(r"-?[0-9]{1,20}")
_MAX_SEATS = 8
_NAME_LIMIT = 100

JsonObject = dict[str, object]


def _as_int(value: object) -> int | None:
    """An int, or the text of one (ids were sometimes kept as text); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INT.fullmatch(value.strip()):
        return int(value.strip())
    return None


def _as_id(value: object) -> int | None:
    number = _as_int(value)
    return number if number is not None and 0 <= number < _MAX_ID else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def upgrade_legacy_settings(raw: Mapping[str, object]) -> JsonObject:
    """``raw`` (settings JSON with an ``extra`` object) with ``extra`` turned into the typed
    fields. The other keys are kept as they are; a settings object without ``extra`` comes
    back unchanged (as a new dict)."""
    out: JsonObject = {key: value for key, value in raw.items() if key != "extra"}
    extra = raw.get("extra")
    if not isinstance(extra, Mapping):
        return out
    seed = _as_int(extra.get("seed"))
    if seed is not None:
        out["seed"] = seed
    host = _as_id(extra.get("host"))
    if host is not None:
        out["host_user_id"] = host
    level = _text(extra.get("ai_level"))
    if level is not None and len(level) <= 40:
        out["ai_level"] = level
    wishes = extra.get("colour_wishes")
    if isinstance(wishes, Mapping):
        typed_wishes: dict[int, str] = {}
        for key, colour in wishes.items():
            seat = _as_int(key)
            if seat is not None and 0 <= seat < _MAX_SEATS and _text(colour) is not None:
                typed_wishes[seat] = str(colour)
        if typed_wishes:
            out["colour_wishes"] = typed_wishes
    message = _as_id(extra.get("status_message"))
    if message is not None:
        out["status_message_id"] = message
    posted = _as_int(extra.get("posted_version"))
    if posted is not None and posted >= 0:
        out["posted_version"] = posted
    places: dict[int, JsonObject] = {}
    for key, value in extra.items():
        if not key.startswith("hand:") or not isinstance(value, Mapping):
            continue
        user = _as_id(key.removeprefix("hand:"))
        channel = _as_id(value.get("channel", value.get("channel_id")))
        where = value.get("where")
        if user is not None and channel is not None and where in ("thread", "dm"):
            places[user] = {"where": where, "channel_id": channel}
    if places:
        out["private_places"] = places
    confirm = extra.get("mod_confirm")
    if isinstance(confirm, Mapping):
        token, op = _text(confirm.get("token")), _text(confirm.get("op"))
        by, version = _as_int(confirm.get("by")), _as_int(confirm.get("version"))
        if token is not None and op is not None and by is not None and version is not None:
            out["pending_request"] = {
                "token": token,
                "op": op,
                "by": by,
                "version": max(0, version),
                "data": {
                    key: value
                    for key, value in confirm.items()
                    if key not in ("token", "op", "by", "version")
                },
            }
    votes = extra.get("abandon_votes")
    if isinstance(votes, list):
        typed_votes: list[int] = []
        for vote in votes:
            user = _as_id(vote)
            if user is not None and user not in typed_votes:
                typed_votes.append(user)
        if typed_votes:
            out["abandon_votes"] = typed_votes
    return out


def legacy_seat_names(raw: Mapping[str, object]) -> dict[int, str]:
    """Seat number -> player name from a legacy settings object's ``extra["seats"]`` (the
    bot's seat list: ``[{"name", "ai", "user_id"}, ...]``, indexed by seat number)."""
    extra = raw.get("extra")
    seats = extra.get("seats") if isinstance(extra, Mapping) else None
    if not isinstance(seats, list):
        return {}
    names: dict[int, str] = {}
    for number, spec in enumerate(seats[:_MAX_SEATS]):
        name = spec.get("name") if isinstance(spec, Mapping) else None
        if isinstance(name, str) and name.strip():
            names[number] = name.strip()[:_NAME_LIMIT]
    return names


def legacy_stand_ins(raw: Mapping[str, object]) -> dict[int, str]:
    """Seat number -> AI level of the Discord seats an AI played for their owner (a timeout's
    stand-in) in a legacy settings object's ``extra["seats"]``."""
    extra = raw.get("extra")
    seats = extra.get("seats") if isinstance(extra, Mapping) else None
    if not isinstance(seats, list):
        return {}
    out: dict[int, str] = {}
    for number, spec in enumerate(seats[:_MAX_SEATS]):
        if not isinstance(spec, Mapping):
            continue
        level, user = spec.get("ai"), spec.get("user_id")
        if isinstance(level, str) and level and isinstance(user, int):
            out[number] = level[:40]
    return out
