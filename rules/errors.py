"""Errors raised by the rules engine. All are ``ValueError`` subclasses.

Layers, as in python-chess: :class:`InvalidAction` (malformed input: unknown ids, bad labels),
:class:`NotYourDecision` (someone else must decide now), :class:`IllegalAction` (well formed
but forbidden here by a rule). Each carries the ID of the rule that forbids it and a plain
sentence suitable for a chat reply.
"""

from __future__ import annotations


class RulesError(ValueError):
    """An action was rejected. ``rule`` is a RULES.md ID (e.g. ``R-BUILD-4``) or ``""``."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{message} ({rule})" if rule else message)


class InvalidAction(RulesError):
    """The action is malformed: unknown ids, wrong fields, impossible values."""


class NotYourDecision(RulesError):
    """The seat named in the action is not the one (or one of those) that must decide now."""


class IllegalAction(RulesError):
    """The action is well formed but a rule forbids it in this state."""
