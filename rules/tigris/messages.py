"""English rendering of the engine's message keys (events and refusals), for logs and tests.

The engine builds no sentences: an event or a refusal is a key and parameters. A parameter that
is a text starting with ``@`` is a term reference (``@tigris.dynasty.lion``,
``@tigris.colour.red``, ``@tigris.leader.king``, ``@tigris.monument.red-blue``), named by this
table's ``tigris.<kind>.*`` entries, so another
language's catalogue of the same keys renders the same event its own way. Templates use
``{name}``; ``{n|one|other}`` picks the English plural form by the integer parameter ``n``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rules.messages import Param as Param
from rules.tigris.data import COLOURS, DYNASTIES, LEADERS, MONUMENTS, TILE_NAMES

TERMS: dict[str, str] = {
    **{f"tigris.dynasty.{d}": d.capitalize() for d in DYNASTIES},
    **{f"tigris.colour.{c}": c for c in COLOURS},
    **{f"tigris.leader.{x}": x for x in LEADERS},
    **{f"tigris.tile.{x}": x for x in TILE_NAMES},
    **{f"tigris.monument.{m}": f"{m} monument" for m in MONUMENTS},
}

EN: dict[str, str] = {
    # events
    "tigris.game.start": "A game of Tigris & Euphrates for {n} players begins; {player} starts.",
    "tigris.turn.start": "Turn {turn}: {player} is the active player.",
    "tigris.turn.end": "{player} ends the turn.",
    "tigris.tile": "{player} places a {colour} tile on {square}.",
    "tigris.score.tile": "{player} gains 1 {colour} VP for the tile on {square}.",
    "tigris.score.revolt": "{player} gains 1 red VP for winning the revolt.",
    "tigris.score.war": "{player} gains {n} {colour} VP for winning the war.",
    "tigris.score.monument": "{player} gains 1 {colour} VP from the {monument}.",
    "tigris.leader.place": "{player} places the {leader} on {square}.",
    "tigris.leader.move": "{player} moves the {leader} from {origin} to {square}.",
    "tigris.leader.withdraw": "{player} withdraws the {leader} from {square}.",
    "tigris.leader.no_temple": "{player}'s {leader} on {square} has no temple left and returns "
    "to the supply.",
    "tigris.leader.lost": "{player}'s {leader} on {square} loses and returns to the supply.",
    "tigris.catastrophe": "{player} places a catastrophe on {square}.",
    "tigris.catastrophe.tile": "The {colour} tile on {square} leaves the game.",
    "tigris.swap": "{player} swaps {n} {n|tile|tiles}.",
    "tigris.draw": "{player} draws {n} {n|tile|tiles}.",
    "tigris.draw.private": "You draw: {tiles}.",
    "tigris.unify": "The tile on {square} unites two kingdoms: the unification tile goes on it.",
    "tigris.unify.removed": "The unification tile is removed from {square}.",
    "tigris.revolt.start": "Revolt of the {colour} leaders: {attacker} attacks with {abase} "
    "adjacent {abase|temple|temples}, {defender} defends with {dbase}.",
    "tigris.war.start": "War of the {colour} leaders: {attacker} attacks with {abase} "
    "{abase|supporter|supporters}, {defender} defends with {dbase}.",
    "tigris.war.lapsed": "The {colour} war lapses: the two leaders no longer face each other.",
    "tigris.war.removed": "{n} {n|tile|tiles} of {player}'s side removed: {squares}.",
    "tigris.support": "{player} commits {n} {colour} {n|tile|tiles}.",
    "tigris.conflict.won": "{winner} wins {wtotal} to {ltotal}.",
    "tigris.monument.built": "{player} builds the {monument} on {square}.",
    "tigris.monument.declined": "{player} builds no monument.",
    "tigris.treasure": "{player} takes the treasure on {square}.",
    "tigris.game.over": "The game is over ({reason}).",
    "tigris.reason.treasures": "two or fewer treasures are left on the board",
    "tigris.reason.bag": "the bag cannot refill the hands",
    # actions described
    "tigris.describe.tile": "Place a {colour} tile on {square}.",
    "tigris.describe.leader": "Place or move the {leader} to {square}.",
    "tigris.describe.withdraw": "Withdraw the {leader} into the supply.",
    "tigris.describe.catastrophe": "Place a catastrophe on {square}.",
    "tigris.describe.swap": "Swap tiles: {tiles}.",
    "tigris.describe.pass": "Pass (end the turn, or build no monument).",
    "tigris.describe.support": "Commit {n} {n|tile|tiles} to the conflict.",
    "tigris.describe.war_order": "Resolve the {colour} war next.",
    "tigris.describe.monument": "Build the {monument} with its top-left corner on {square}.",
    "tigris.describe.treasure": "Take the treasure on {square}.",
    # refusals (the rule ID goes with the error)
    "tigris.error.over": "The game is over.",
    "tigris.error.not_yours": "It is {player}'s decision now, not yours.",
    "tigris.error.wrong_kind": "That is not what is being decided now: {expected}.",
    "tigris.error.no_actions": "You have no action left this turn: pass.",
    "tigris.error.no_tile": "You hold no {colour} tile.",
    "tigris.error.not_empty": "{square} is not empty.",
    "tigris.error.off_board": "There is no square {square}.",
    "tigris.error.river_blue": "Only blue tiles may go on a river square; {square} is a river.",
    "tigris.error.land_not_blue": "Blue tiles go only on river squares; {square} is land.",
    "tigris.error.three_kingdoms": "A tile on {square} would unite {n} kingdoms; at most two.",
    "tigris.error.leader_river": "A leader may not stand on a river square ({square}).",
    "tigris.error.leader_temple": "A leader must stand next to a temple; {square} has none "
    "beside it.",
    "tigris.error.leader_unites": "A leader on {square} would unite two kingdoms.",
    "tigris.error.leader_same": "The {leader} already stands on {square}.",
    "tigris.error.leader_not_on_board": "Your {leader} is not on the board.",
    "tigris.error.no_catastrophe": "You have no catastrophe tile left.",
    "tigris.error.catastrophe_treasure": "A catastrophe may not cover a treasure ({square}).",
    "tigris.error.catastrophe_leader": "A catastrophe may not cover a leader ({square}).",
    "tigris.error.catastrophe_monument": "A catastrophe may not go on a monument ({square}).",
    "tigris.error.catastrophe_twice": "{square} already holds a catastrophe.",
    "tigris.error.swap_none": "Swap at least one tile.",
    "tigris.error.swap_hand": "You do not hold those tiles.",
    "tigris.error.support_range": "You may commit 0 to {n} {colour} tiles.",
    "tigris.error.war_order": "There is no {colour} war to resolve; choose among: {choices}.",
    "tigris.error.monument": "No {monument} can be built on {square} now.",
    "tigris.error.treasure": "You cannot take the treasure on {square}; take one of: {choices}.",
    "tigris.error.treasure_corner": "Corner treasures must be taken first: {choices}.",
    "tigris.error.parse": "Cannot read {text!r}: {why}",
    "tigris.error.unknown": "Unknown action {kind}.",
}

_FIELD = re.compile(r"\{(\w+)(?:\|([^}|]*)\|([^}]*))?(!r)?\}")


def term(ref: str, table: Mapping[str, str] = EN) -> str:
    key = ref[1:]
    return TERMS.get(key) or table.get(key) or ref


def _value(v: Param) -> str:
    if isinstance(v, list):
        return ", ".join(_value(x) for x in v) if v else "-"
    if isinstance(v, dict):
        return str(v)
    if isinstance(v, str) and v.startswith("@"):
        return term(v)
    if isinstance(v, str) and v in EN:
        return EN[v]
    return str(v)


def render(key: str, params: Mapping[str, Param], table: Mapping[str, str] = EN) -> str:
    """The English (or ``table``'s) sentence of message ``key`` with ``params``."""
    template = table[key]

    def sub(m: re.Match[str]) -> str:
        name, one, other, rep = m.group(1), m.group(2), m.group(3), m.group(4)
        v = params[name]
        if one is not None:
            n = int(v) if isinstance(v, int) else 0
            return one if n == 1 else other
        return repr(_value(v)) if rep else _value(v)

    return _FIELD.sub(sub, template)
