"""English rendering of the engine's message keys (events and refusals), for logs and tests.

The engine builds no sentences: an event or a refusal is a key and parameters, and the
templates here are the English of the i18n catalogues (``i18n`` registers :data:`CATALOGUE`
in its English catalogue; ``i18n/locales/<lang>/tigris.toml`` holds the other languages). The
template syntax is the catalogues' (``i18n.render``): ``{name}`` a value (a list joined by
commas), ``{name:list}`` / ``{name:and}`` a list, ``{n|tile|tiles}`` English's one/other plural
form by the integer ``n``, ``{@key}`` a term.

Parameters are numbers, square labels (``F4``) and the typed text, never an English phrase:

- a text ``@key`` is a *term reference*, shown in the reader's language: the players
  ``@tigris.dynasty.lion``, ``@tigris.colour.red``, ``@tigris.leader.king``,
  ``@tigris.monument.red-blue``, ``@tigris.tile.farm`` (:data:`TERMS`), what is being decided
  ``@tigris.decision.support``, a word of the typed notation ``@tigris.word.swap``
  (:data:`WORDS`);
- a mapping ``{"key": ..., "params": {...}}`` (:func:`rules.messages.msg`) is a nested message
  rendered in its place: why a command cannot be read (``tigris.why.*``), why the game ended
  (``tigris.reason.*``), a count of tiles of a colour (``tigris.count.colour``).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.text import Param as Param
from rules.text import msg as msg
from rules.text import register_english, render_message
from rules.tigris.data import COLOURS, DYNASTIES, LEADERS, MONUMENTS, TILE_NAMES

TERMS: dict[str, str] = {
    **{f"tigris.dynasty.{d}": d.capitalize() for d in DYNASTIES},
    **{f"tigris.colour.{c}": c for c in COLOURS},
    **{f"tigris.leader.{x}": x for x in LEADERS},
    **{f"tigris.tile.{x}": x for x in TILE_NAMES},
    **{f"tigris.monument.{m}": f"{m} monument" for m in MONUMENTS},
    # what is being decided (tigris.error.wrong_kind)
    "tigris.decision.action": "action",
    "tigris.decision.support": "support",
    "tigris.decision.war_order": "war order",
    "tigris.decision.monument": "monument",
    "tigris.decision.treasure": "treasure",
}

COMMANDS: tuple[str, ...] = (
    "tile",
    "leader",
    "withdraw",
    "catastrophe",
    "swap",
    "pass",
    "support",
    "war-order",
    "monument",
    "treasure",
)
"""The notation's command words (canonical tokens), in the order the help lists them."""

WORDS: dict[str, str] = {
    f"tigris.word.{t}": t for t in (*COMMANDS, "all", *COLOURS, *TILE_NAMES, *LEADERS)
}
"""The typed notation's tokens (``tigris.word.<token>``; English's word is the token): each
language's catalogue gives its own words for them (``i18n.notation``, game ``tigris``). A
monument is written with its colours' words joined by ``-`` (``piros-kék``)."""

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
    "tigris.draw.private": "You draw: {tiles:list}.",
    "tigris.unify": "The tile on {square} unites two kingdoms: the unification tile goes on it.",
    "tigris.unify.removed": "The unification tile is removed from {square}.",
    "tigris.revolt.start": "Revolt of the {colour} leaders: {attacker} attacks with {abase} "
    "adjacent {abase|temple|temples}, {defender} defends with {dbase}.",
    "tigris.war.start": "War of the {colour} leaders: {attacker} attacks with {abase} "
    "{abase|supporter|supporters}, {defender} defends with {dbase}.",
    "tigris.war.lapsed": "The {colour} war lapses: the two leaders no longer face each other.",
    "tigris.war.removed": "{n} {n|tile|tiles} of {player}'s side removed: {squares:list}.",
    "tigris.support": "{player} commits {n} {colour} {n|tile|tiles}.",
    "tigris.conflict.won": "{winner} wins {wtotal} to {ltotal}.",
    "tigris.monument.built": "{player} builds the {monument} on {square}.",
    "tigris.monument.declined": "{player} builds no monument.",
    "tigris.treasure": "{player} takes the treasure on {square}.",
    "tigris.game.over": "The game is over ({reason}).",
    "tigris.reason.treasures": "two or fewer treasures are left on the board",
    "tigris.reason.bag": "the bag cannot refill the hands",
    "tigris.count.colour": "{n} {colour}",
    # actions described
    "tigris.describe.tile": "Place a {colour} tile on {square}.",
    "tigris.describe.leader": "Place or move the {leader} to {square}.",
    "tigris.describe.withdraw": "Withdraw the {leader} into the supply.",
    "tigris.describe.catastrophe": "Place a catastrophe on {square}.",
    "tigris.describe.swap": "Swap tiles: {tiles:list}.",
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
    "tigris.error.war_order": "There is no {colour} war to resolve; choose among: {choices:list}.",
    "tigris.error.monument": "No {monument} can be built on {square} now.",
    "tigris.error.treasure": "You cannot take the treasure on {square}; take one of: {choices:list}.",
    "tigris.error.treasure_corner": "Corner treasures must be taken first: {choices:list}.",
    "tigris.error.parse": "Cannot read '{text}': {why}",
    "tigris.error.unknown": "Unknown action {kind}.",
    # why a command cannot be read (nested in tigris.error.parse)
    "tigris.why.empty": "empty command",
    "tigris.why.over": "the game is over",
    "tigris.why.square": "'{token}' is not a square (A1 to P11)",
    "tigris.why.colour": "'{token}' is not a colour ({choices:list})",
    "tigris.why.leader": "'{token}' is not a leader ({choices:list})",
    "tigris.why.count": "{command} takes {n} {n|word|words} after it",
    "tigris.why.number": "{command} takes a number",
    "tigris.why.monument_pair": "a monument is two colours joined by '-', like red-blue",
    "tigris.why.monument_same": "a monument has two different colours",
    "tigris.why.swap": "swap which tiles? e.g. swap red blue, swap 2 red, swap all",
    "tigris.why.commands": "commands: {commands:list}",
}

CATALOGUE: dict[str, str] = {**TERMS, **WORDS, **EN}
"""Every English template of the game: terms, typed words, events, refusals (what ``i18n``
adds to its English catalogue)."""


def term(ref: str, table: Mapping[str, str] = CATALOGUE) -> str:
    """The English of a term reference (``"@tigris.colour.red"`` -> ``red``)."""
    key = ref[1:] if ref.startswith("@") else ref
    return table.get(key) or CATALOGUE.get(key) or ref


def render(key: str, params: Mapping[str, Param], table: Mapping[str, str] = CATALOGUE) -> str:
    """The English (or ``table``'s) sentence of message ``key`` with ``params``: term
    references and nested messages rendered from the same table."""
    return render_message(key, params, catalogue=table)


register_english(CATALOGUE)
