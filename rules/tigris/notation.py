"""Notation: the text a player types, and back.

Grammar (words case-insensitive, squares ``A1``–``P11``; canonical form first):

============================  ==============================================================
``tile red F4``               place a tile; colour ``black|red|blue|green`` or the tile's name
                              (``settlement|temple|farm|market``)
``leader king J7``            place a leader from the supply, or move it there; leader
                              ``king|priest|farmer|trader`` or its colour
``withdraw trader``           take a leader back into the supply
``catastrophe C3``            place a catastrophe
``swap red red blue``         discard those tiles and draw as many; also ``swap 2 red blue``,
                              ``swap 2red blue``, ``swap all``
``pass``                      end the turn; in a monument decision: build none
``support 2``                 commit 2 tiles of the conflict's colour (0 allowed)
``war-order green``           resolve the green war next
``monument red-blue H4``      build that monument on the 2 x 2 whose top-left square is H4
                              (colours in either order)
``treasure P2``               take the treasure on P2
============================  ==============================================================

``format_action`` writes the canonical form; ``parse_text(format_action(a), state) == a`` for
every legal action ``a`` (the seat is whoever must decide in ``state``). ``parse_text`` reads
the grammar only; ``apply`` judges legality.
"""

from __future__ import annotations

import re

from rules.errors import InvalidAction
from rules.text import Param
from rules.tigris.actions import NO_TILES, Action
from rules.tigris.data import (
    COLOURS,
    LABELS,
    LEADERS,
    MONUMENT_COLOURS,
    MONUMENTS,
    SQUARE,
    TILE_NAMES,
)
from rules.tigris.engine import deciders, legal_actions
from rules.tigris.messages import COMMANDS, msg, render
from rules.tigris.state import TigrisState

_COLOUR_WORDS: dict[str, int] = {
    **{c: i for i, c in enumerate(COLOURS)},
    **{t: i for i, t in enumerate(TILE_NAMES)},
}
_LEADER_WORDS: dict[str, int] = {
    **{c: i for i, c in enumerate(COLOURS)},
    **{x: i for i, x in enumerate(LEADERS)},
}
_MONUMENT_BY_PAIR = {frozenset(p): m for m, p in enumerate(MONUMENT_COLOURS)}
_COUNT_COLOUR = re.compile(r"^(\d+)x?([a-z]+)$")


def format_action(a: Action) -> str:
    k = a.kind
    if k == "tile":
        return f"tile {COLOURS[a.colour]} {LABELS[a.square]}"
    if k == "leader":
        return f"leader {LEADERS[a.colour]} {LABELS[a.square]}"
    if k == "withdraw":
        return f"withdraw {LEADERS[a.colour]}"
    if k == "catastrophe":
        return f"catastrophe {LABELS[a.square]}"
    if k == "swap":
        return "swap " + " ".join(COLOURS[c] for c in range(4) for _ in range(a.tiles[c]))
    if k == "support":
        return f"support {a.amount}"
    if k == "war_order":
        return f"war-order {COLOURS[a.colour]}"
    if k == "monument":
        return f"monument {MONUMENTS[a.monument]} {LABELS[a.square]}"
    if k == "treasure":
        return f"treasure {LABELS[a.square]}"
    return "pass"


_CHOICES: dict[str, list[Param]] = {
    "colour": [
        *("@tigris.colour." + c for c in COLOURS),
        *("@tigris.tile." + t for t in TILE_NAMES),
    ],
    "leader": [
        *("@tigris.leader." + x for x in LEADERS),
        *("@tigris.colour." + c for c in COLOURS),
    ],
}


def _fail(text: str, why: dict[str, Param]) -> InvalidAction:
    """The refusal of a command that cannot be read; ``why`` a ``tigris.why.*`` message."""
    params: dict[str, Param] = {"text": text, "why": why}
    return InvalidAction(
        "", render("tigris.error.parse", params), key="tigris.error.parse", params=params
    )


def _square(text: str, tok: str) -> int:
    sq = SQUARE.get(tok.upper())
    if sq is None:
        raise _fail(text, msg("tigris.why.square", token=tok))
    return sq


def _word(text: str, tok: str, table: dict[str, int], what: str) -> int:
    if tok not in table:
        raise _fail(text, msg("tigris.why." + what, token=tok, choices=_CHOICES[what]))
    return table[tok]


def _command(head: str) -> str:
    """The term reference of a command's word (``@tigris.word.war-order``)."""
    return "@tigris.word." + ("war-order" if head in ("war", "war_order") else head)


def parse_text(text: str, state: TigrisState) -> Action:
    """The action ``text`` names, for the seat that must decide in ``state``."""
    toks = text.strip().lower().split()
    if not toks:
        raise _fail(text, msg("tigris.why.empty"))
    who = deciders(state)
    if not who:
        raise _fail(text, msg("tigris.why.over"))
    seat = who[0]
    head, args = toks[0], toks[1:]

    def need(n: int) -> None:
        if len(args) != n:
            raise _fail(text, msg("tigris.why.count", command=_command(head), n=n))

    if head == "tile":
        need(2)
        return Action(
            "tile", seat, _word(text, args[0], _COLOUR_WORDS, "colour"), _square(text, args[1])
        )
    if head == "leader":
        need(2)
        return Action(
            "leader", seat, _word(text, args[0], _LEADER_WORDS, "leader"), _square(text, args[1])
        )
    if head == "withdraw":
        need(1)
        return Action("withdraw", seat, _word(text, args[0], _LEADER_WORDS, "leader"))
    if head == "catastrophe":
        need(1)
        return Action("catastrophe", seat, square=_square(text, args[0]))
    if head == "pass":
        need(0)
        return Action("pass", seat)
    if head == "support":
        need(1)
        if not args[0].isdigit():
            raise _fail(text, msg("tigris.why.number", command=_command(head)))
        return Action("support", seat, amount=int(args[0]))
    if head in ("war-order", "war_order", "war"):
        need(1)
        return Action("war_order", seat, colour=_word(text, args[0], _COLOUR_WORDS, "colour"))
    if head == "treasure":
        need(1)
        return Action("treasure", seat, square=_square(text, args[0]))
    if head == "monument":
        need(2)
        parts = args[0].split("-")
        if len(parts) != 2:
            raise _fail(text, msg("tigris.why.monument_pair"))
        pair = frozenset(_word(text, p, _COLOUR_WORDS, "colour") for p in parts)
        if pair not in _MONUMENT_BY_PAIR:
            raise _fail(text, msg("tigris.why.monument_same"))
        return Action(
            "monument", seat, square=_square(text, args[1]), monument=_MONUMENT_BY_PAIR[pair]
        )
    if head == "swap":
        if not args:
            raise _fail(text, msg("tigris.why.swap"))
        tiles = [0, 0, 0, 0]
        if args == ["all"]:
            tiles = list(state.players[seat].hand)
        else:
            i = 0
            while i < len(args):
                tok = args[i]
                m = _COUNT_COLOUR.match(tok)
                if tok.isdigit() and i + 1 < len(args):
                    tiles[_word(text, args[i + 1], _COLOUR_WORDS, "colour")] += int(tok)
                    i += 2
                    continue
                if m and m.group(2) in _COLOUR_WORDS:
                    tiles[_COLOUR_WORDS[m.group(2)]] += int(m.group(1))
                else:
                    tiles[_word(text, tok, _COLOUR_WORDS, "colour")] += 1
                i += 1
        t = (tiles[0], tiles[1], tiles[2], tiles[3])
        return Action("swap", seat, tiles=t if any(t) else NO_TILES)
    raise _fail(text, msg("tigris.why.commands", commands=["@tigris.word." + c for c in COMMANDS]))


def legal_texts(state: TigrisState) -> list[str]:
    return [format_action(a) for a in legal_actions(state)]


def complete(prefix: str, state: TigrisState) -> list[str]:
    """The legal commands starting with ``prefix`` (case-insensitive), sorted."""
    p = " ".join(prefix.lower().split()) + (" " if prefix.endswith(" ") and prefix.strip() else "")
    return sorted(t for t in legal_texts(state) if t.lower().startswith(p))


def describe_action(a: Action) -> str:
    """The action in an English sentence."""
    key, params = describe_msg(a)
    return render(key, params)


def describe_msg(a: Action) -> tuple[str, dict[str, Param]]:
    """The action's sentence as a message: its key (``tigris.describe.<kind>``) and
    parameters (term references: any language's catalogue renders it)."""
    k = a.kind
    params: dict[str, Param] = {}
    if a.colour >= 0:
        params["colour"] = "@tigris.colour." + COLOURS[a.colour]
        params["leader"] = "@tigris.leader." + LEADERS[a.colour]
    if a.square >= 0:
        params["square"] = LABELS[a.square]
    if k == "swap":
        params["tiles"] = [
            msg("tigris.count.colour", n=a.tiles[c], colour="@tigris.colour." + COLOURS[c])
            for c in range(4)
            if a.tiles[c]
        ]
    if k == "support":
        params["n"] = a.amount
    if k == "monument":
        params["monument"] = "@tigris.monument." + MONUMENTS[a.monument]
    return "tigris.describe." + k, params
