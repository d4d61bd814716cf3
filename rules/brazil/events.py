"""Events: what happened, as data plus a message (key + parameters) rendered as English.

An event is built from its ``kind``, a message ``key`` (``kind`` or ``kind.variant``) and its
``params``; the constructor fills ``text`` from the English catalogue in
:mod:`rules.brazil.messages` and ``reveals`` from the one table :data:`rules.brazil.messages.REVEALS`, so
neither can be forgotten or disagree with the key. Both are ordinary fields: they are written
to JSON with the event (consumers read ``text`` as before; the game service reads
``reveals`` from its log) and read back as stored. Another language renders the same
``key`` and ``params`` with :func:`rules.brazil.messages.render_message` and its own catalogue.

``visible_to`` is ``None`` for public events; otherwise the seats allowed to see it (a drawn
card, a peeked tile, espionage). Secret events are always paired with a public one that
says only what everybody may know ("Green drew a combat card").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.brazil.messages import (
    REVEALS,
    Param,
    PluralRule,
    TermNames,
    english_text,
    plural_en,
    render_message,
)
from rules.fastcopy import trusted


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: str
    text: str = ""
    key: str = ""
    params: dict[str, Param] = Field(default_factory=dict)
    seat: int | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    visible_to: tuple[int, ...] | None = None
    reveals: bool = False

    @model_validator(mode="before")
    @classmethod
    def _from_key(cls, values: Any) -> Any:
        """Fill ``text`` and ``reveals`` from the key when built fresh (not when read back)."""
        if isinstance(values, dict) and values.get("key") and "text" not in values:
            key = values["key"]
            if key.split(".", 1)[0] != values.get("kind"):
                raise ValueError(
                    f"message key {key!r} does not belong to kind {values.get('kind')!r}"
                )
            values = dict(values)
            values["text"] = render_message(key, values.get("params") or {})
            values["reveals"] = REVEALS[key]
        return values

    @classmethod
    def make(
        cls,
        key: str,
        params: dict[str, Param],
        seat: int | None = None,
        visible_to: tuple[int, ...] | None = None,
        data: dict[str, Any] | None = None,
        names: TermNames | None = None,
    ) -> Event:
        """The engine's fast path: an event of kind ``key``'s first part, its text rendered
        (component terms named by ``names``: the game's catalog) and ``reveals`` looked up,
        built without re-validating the engine's own values."""
        return trusted(
            cls,
            {
                "kind": key.split(".", 1)[0],
                "text": english_text(key, params, names),
                "key": key,
                "params": params,
                "seat": seat,
                "data": data if data is not None else {},
                "visible_to": visible_to,
                "reveals": REVEALS[key],
            },
        )

    def visible(self, seat: int | None) -> bool:
        """May ``seat`` (None = spectator) see this event?"""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def render(
        self,
        catalogue: Mapping[str, str] | None = None,
        plural: PluralRule = plural_en,
        names: TermNames | None = None,
    ) -> str:
        """This event's sentence in ``catalogue`` with its ``plural`` rule (default: the
        stored English ``text``)."""
        if catalogue is None or not self.key:
            return self.text
        return render_message(self.key, self.params, catalogue, plural, names)


def for_seat(events: list[Event], seat: int | None) -> list[Event]:
    """The events a seat (None: a spectator) may see."""
    return [e for e in events if e.visible(seat)]
