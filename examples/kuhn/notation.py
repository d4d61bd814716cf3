"""Notation: the text a player types, and back.

Four commands, words case-insensitive, nothing after them: ``check``, ``bet``, ``call``,
``fold``; ``pass`` reads as ``check`` when checking is open and as ``fold`` when facing a bet
(the word players of Kuhn poker use for both). ``format_action`` writes the canonical word;
``parse_text(format_action(a), state) == a`` for every legal action ``a`` (the seat is the one
that decides in ``state``). ``parse_text`` reads the grammar only; ``apply`` judges legality.
"""

from __future__ import annotations

from examples.kuhn.actions import Action
from examples.kuhn.engine import deciders, legal_actions, legal_kinds
from examples.kuhn.messages import COMMANDS, Param, msg, render
from examples.kuhn.state import BET, KuhnState
from rules.errors import InvalidAction


def format_action(a: Action) -> str:
    return a.kind


def _fail(text: str, why: dict[str, Param]) -> InvalidAction:
    params: dict[str, Param] = {"text": text, "why": why}
    return InvalidAction(
        "", render("kuhn.error.parse", params), key="kuhn.error.parse", params=params
    )


def parse_text(text: str, state: KuhnState) -> Action:
    """The action ``text`` names, for the seat that decides in ``state``."""
    toks = text.strip().lower().split()
    if not toks:
        raise _fail(text, msg("kuhn.why.empty"))
    who = deciders(state)
    if not who:
        raise _fail(text, msg("kuhn.why.over"))
    head = toks[0]
    if head == "pass":
        head = "check" if "check" in legal_kinds(state) else "fold"
    if head not in COMMANDS:
        raise _fail(text, msg("kuhn.why.commands", commands=["@kuhn.word." + c for c in COMMANDS]))
    if len(toks) > 1:
        raise _fail(text, msg("kuhn.why.extra", command="@kuhn.word." + head))
    return Action(head, who[0])


def legal_texts(state: KuhnState) -> list[str]:
    return [format_action(a) for a in legal_actions(state)]


def complete(prefix: str, state: KuhnState) -> list[str]:
    """The legal commands starting with ``prefix`` (case-insensitive), sorted."""
    p = prefix.strip().lower()
    return sorted(t for t in legal_texts(state) if t.startswith(p))


def describe_msg(a: Action) -> tuple[str, dict[str, Param]]:
    """The action's sentence as a message (``kuhn.describe.<kind>`` and its parameters)."""
    params: dict[str, Param] = {"n": BET} if a.kind in ("bet", "call") else {}
    return "kuhn.describe." + a.kind, params


def describe_action(a: Action) -> str:
    """The action in an English sentence."""
    key, params = describe_msg(a)
    return render(key, params)
