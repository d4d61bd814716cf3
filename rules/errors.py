"""Errors raised by the rules engine. All are ``ValueError`` subclasses.

Layers, as in python-chess: :class:`InvalidAction` (malformed input: unknown ids, bad labels),
:class:`NotYourDecision` (someone else must decide now), :class:`IllegalAction` (well formed
but forbidden here by a rule). Each carries the ID of the rule that forbids it and a plain
sentence suitable for a chat reply.

Like an event, an error is a message ``key`` (``error.*``, English templates in
:data:`rules.brazil.error_messages.ERRORS` for Brazil: Imperial, the game's English table, registered
with :func:`rules.text.register_english`) and its ``params``
(component names as term references ``@term.<kind>.<id>``, nested messages for the parts of
a sentence, commands as canonical text): ``message`` is its English, rendered from them, and
another language renders the same key and parameters from its own catalogue.

    raise IllegalAction.of("R-BUILD-3", "error.build.water", hex="D3")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from rules.text import Param, english_message


class RulesError(ValueError):
    """An action was rejected. ``rule`` is a RULES.md ID (e.g. ``R-BUILD-4``) or ``""``;
    ``key`` and ``params`` the message for every language (``message`` its English; an
    error made without a key has only its English ``message``)."""

    def __init__(
        self,
        rule: str,
        message: str = "",
        *,
        key: str = "",
        params: Mapping[str, Param] | None = None,
    ) -> None:
        self.rule = rule
        self.key = key
        self.params: dict[str, Param] = dict(params or {})
        if key and not message:
            message = english_message(key, self.params)
        self.message = message
        super().__init__(f"{message} ({rule})" if rule else message)

    @classmethod
    def of(cls, rule: str, key: str, /, **params: Param) -> Self:
        """The error of message ``key`` with ``params`` (its English rendered from them)."""
        return cls(rule, key=key, params=params)

    def msg(self) -> Param:
        """This error's message as a parameter of another message (a nested message, or
        the English text of an error without a key)."""
        return {"key": self.key, "params": self.params} if self.key else self.message

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.rule, self.message, self.key, self.params))


def _rebuild(
    cls: type[RulesError], rule: str, message: str, key: str, params: dict[str, Param]
) -> RulesError:
    return cls(rule, message, key=key, params=params)


class InvalidAction(RulesError):
    """The action is malformed: unknown ids, wrong fields, impossible values."""


class NotYourDecision(RulesError):
    """The seat named in the action is not the one (or one of those) that must decide now."""


class IllegalAction(RulesError):
    """The action is well formed but a rule forbids it in this state."""


def or_list(items: list[Param]) -> Param:
    """Alternatives as one parameter: ``a``, ``a or b``, ``a, b or c`` in English (a nested
    ``error.part.or`` message: each language joins them its own way)."""
    if len(items) <= 1:
        return items[0] if items else ""
    return {"key": "error.part.or", "params": {"head": list(items[:-1]), "last": items[-1]}}


class DataError(ValueError):
    """A game's component data (a data file, a data pack) is missing, unreadable or invalid.
    The message names the file, the entry and the field."""
