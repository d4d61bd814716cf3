"""Message catalogue: every event's sentence as a template keyed by a message key.

An :class:`~rules.brazil.events.Event` carries ``key`` and ``params``; its English ``text`` is
``render_message(key, params)``. Another language is another catalogue of the same keys
(a ``dict[str, str]`` plus its plural rule) passed to :func:`render_message` — the rules code
does not change. Tests check that every key the engine emits has a template here, that every
placeholder is given by every emit, and that every template is used.

Template syntax (a deliberately small subset of ICU MessageFormat ideas):

``{name}``
    the parameter's value; a list is joined with ``", "``.
``{name:JOIN}`` / ``{name:JOIN:EMPTY}``
    a list joined by ``JOIN`` — ``list`` (", "), ``and`` (" and "), ``plus`` (" + "),
    ``semi`` ("; ") — or the literal ``EMPTY`` text when the list is empty. ``goods`` formats a
    ``{good: count}`` mapping as "2 coffee, 1 gold" (names from the ``good.*`` terms; zero
    and negative counts are left out).
``{n|form|form...}``
    the plural form of a word chosen by the integer parameter ``n`` through the catalogue's
    plural rule (English: ``{n|card|cards}`` — form 0 for exactly one, form 1 otherwise).

``{name:lower}``
    the value in lower case (English writes building names in lower case mid-sentence).
``{name:a}``
    English only: the value in lower case after its indefinite article (``a sawmill``,
    ``an academy``); the catalogues' renderer (:mod:`i18n`) shows the name alone.
``{name:id}`` / ``{name:idwords}``
    the *id* of a term reference (its last dotted part), as is or with ``_`` as spaces: the
    engine's English showed ids there before names became term references.

Keys are ``kind`` or ``kind.variant``: the part before the first dot is always the event's
``kind``. Keys starting with ``good.`` are terms (names of goods) and keys starting with
``phrase.`` are the phrases events nest in their parameters (:data:`NOT_EVENTS`), not event
sentences.

Parameters hold numbers, hex labels and ids, the names of players, and — so that a sentence
shows names in its reader's language — *term references* and *nested messages*:

- a text ``"@term.<kind>.<id>"`` names a component (kinds as in :mod:`rules.brazil.catalog`:
  ``building`` (a side), ``unit`` (``colour.unit``), ``monarch``, ``mission``, ``painting``,
  ``gold_card``, ``combat_card``, ``exploration``, ``capital``, ``city``, ``colour``,
  ``product``, ``arch``); its English is the name in the component data (a data pack's name
  when the game has one). ``"@good.coffee"``, ``"@phrase.frame.red"``: a term of this
  catalogue.
- a mapping ``{"key": ..., "params": {...}}`` is another message of this catalogue (a
  ``phrase.*`` key) rendered in its place: the parameters that were English phrases built by
  the engine — ``why`` (a reason such as "Trade" or a card name), ``items`` and ``what`` (a
  payment and what it pays for) and the ``*breakdown`` of battles (fighting-power sources),
  :data:`PHRASE_PARAMS` — are such messages or term references now. Events stored before
  hold English texts there, which render as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.brazil.error_messages import ERRORS
from rules.brazil.payment_messages import PAYMENT
from rules.text import JOINS as JOINS
from rules.text import MessageError as MessageError
from rules.text import Param as Param
from rules.text import PluralRule as PluralRule
from rules.text import Renderer, register_english
from rules.text import TermNames as TermNames
from rules.text import msg as msg
from rules.text import placeholders as placeholders
from rules.text import plural_en as plural_en

NOT_EVENTS = ("good.", "phrase.", "error.")
"""Prefixes of the catalogue keys that are not event sentences (terms, nested phrases and
the refusals of :mod:`rules.errors`)."""

PHRASE_PARAMS = frozenset(
    {"why", "items", "what", "breakdown", "attacker_breakdown", "defender_breakdown"}
)


def term_ref(kind: str, id_: str) -> str:
    """A term reference to a component: ``term_ref("building", "sawmill")``."""
    return f"@term.{kind}.{id_}"


def text_ref(kind: str, id_: str) -> str:
    """A reference to the rules text printed on a component (``text_ref("painting", "oca")``):
    the component data's English text, the catalogues' ``text.<kind>.<id>`` in another
    language."""
    return f"@text.{kind}.{id_}"


EN: dict[str, str] = {
    # ---------------------------------------------------------------- terms
    "good.sugar_cane": "sugar cane",
    "good.coffee": "coffee",
    "good.brazilwood": "brazilwood",
    "good.cotton": "cotton",
    "good.gold": "gold",
    "good.science": "science",
    "good.any": "any resource",
    # ---------------------------------------------------------------- goods and cards (game.py)
    "gain": "{who} gains {goods:goods}.",
    "gain.why": "{who} gains {goods:goods} ({why}).",
    "reshuffle.gold": "The gold discard pile is shuffled into a new deck.",
    "reshuffle.combat": "The combat discard pile is shuffled into a new deck.",
    "deck_empty.gold": "The gold deck is empty: no card drawn.",
    "deck_empty.combat": "The combat deck is empty: no card drawn.",
    "draw_gold": "{who} draws {n} {n|gold card|gold cards}.",
    "draw_gold.why": "{who} draws {n} {n|gold card|gold cards} ({why}).",
    "draw_combat": "{who} draws {n} {n|combat card|combat cards}.",
    "draw_combat.why": "{who} draws {n} {n|combat card|combat cards} ({why}).",
    "draw_gold_private": "You draw {cards}.",
    "draw_combat_private": "You draw {cards}.",
    "produce": "{hex} produces {goods:goods} ({why}).",
    "produce.river_basin": "{hex} produces +1 {crops:and} (river basin).",
    "produce.painting": "{hex} produces its extra at once ({painting}).",
    "monarch_power": "{monarch}: this {building:lower} is one of the first {first} ({nth}).",
    # ---------------------------------------------------------------- setup
    "colour": "Seat {number} plays {colour:id}.",
    "missions_dealt": "Each player is dealt 2 missions of each era and keeps 1 of each.",
    "missions_kept": "{who} keeps one mission of each era.",
    "monarch": "{who} chooses {monarch}.",
    "capitals_revealed": "The capital tiles are revealed. {capitals}. {chooser} chooses first.",
    "capital": "{who} takes the capital at {hex} and puts palace I there.",
    "start": "The game begins. {who} has the first-player tile and starts.",
    # ---------------------------------------------------------------- actions (turn.py)
    "action": "{who} takes the {arch} action.",
    "pay": "{who} pays {items:list:nothing} for {what}.",
    "pay.cards": "{who} pays {items:list:nothing} for {what}.",
    "pay.combat_cards": "{who} gives 2 combat cards.",
    "deploy.first": "{who} deploys the {unit} ({vp} VP) at {hex}.",
    "deploy.again": "{who} redeploys the {unit} at {hex}.",
    "painting": "{who} takes the painting {painting} ({vp} VP): {painting_text}",
    "display": "{painting} joins the display.",
    "display.other_deck": "The {frame} deck is empty: {painting} joins the display from the {other} deck.",
    "display.chosen_deck": "{painting} joins the display from the {frame} deck.",
    "removed": "The {building:lower} at {hex} is removed from the game (its VP are lost).",
    "explore_discard": "The face-down exploration tile at {hex} is discarded unseen.",
    "build.city": "{who} founds the city of {city} at {hex} ({vp} VP).",
    "build.city_why": "{who} founds the city of {city} at {hex} ({vp} VP) ({why}).",
    "build.building": "{who} builds {building:a} at {hex}.",
    "build.building_why": "{who} builds {building:a} at {hex} ({why}).",
    "keep_tile": "{who} keeps {tile} ({vp} VP).",
    "keep_tile.cultura": "{who} keeps the Cultura tile ({vp} VP).",
    "flip": "{who} flips the {old:lower} at {hex} to {new:a}.",
    "renovate": "{who} renovates the {building:lower} at {hex}.",
    "manufacture.victoria": "{who} manufactures {product} ({vp} VP) onto Queen Victoria's tile.",
    "manufacture.victoria_why": (
        "{who} manufactures {product} ({vp} VP) onto Queen Victoria's tile ({why})."
    ),
    "manufacture.factory": "{who} manufactures {product} ({vp} VP) onto the Factory.",
    "manufacture.factory_why": "{who} manufactures {product} ({vp} VP) onto the Factory ({why}).",
    "manufacture.arch": "{who} manufactures {product} ({vp} VP) onto the {arch} arch, upgrading it.",
    "manufacture.arch_why": (
        "{who} manufactures {product} ({vp} VP) onto the {arch} arch, upgrading it ({why})."
    ),
    "pass": "{who} can take no action and passes (the token stays).",
    # ---------------------------------------------------------------- gold cards
    "gold_card": "{who} plays {card}: {card_text}",
    "espionage": "{who} looks at all the cards in {target}'s hands.",
    "espionage_private": (
        "{target} holds gold cards: {gold_cards:list:none}; combat cards: "
        "{combat_cards:list:none}; missions: {missions:list:none}."
    ),
    "veterans": "{who}'s {unit:lower} returns to the reserve.",
    # ---------------------------------------------------------------- decisions
    "discard": "{who} discards {goods:and} (reserve limit {limit}).",
    "discard_cards.gold": "{who} discards {n} {n|gold card|gold cards} (hand limit {limit}).",
    "discard_cards.combat": "{who} discards {n} {n|combat card|combat cards} (hand limit {limit}).",
    "mission_draw": "{who} draws an extra era {era} mission (Quilombo).",
    "mission_draw_private": "Your extra mission is {mission}.",
    # ---------------------------------------------------------------- missions, eras, palaces
    "mission": "{who} reveals the era {era} mission {mission} ({vp} VP).",
    "no_palace.none_left": "{who} can place no palace (the mission still scores).",
    "no_palace.declined": "{who} places no palace.",
    "end_triggered": "An era III mission is revealed: the current round is the last.",
    "era.2": "Era II Navigation begins. Every player places the flipped era {old} token under an arch.",
    "era.3": "Era III Railway begins. Every player places the flipped era {old} token under an arch.",
    "era_token": "{who} puts the era {token} token under {arch}.",
    "coroados": "{who} places the era {token} token on Coroados.",
    "palace": "{who} places palace {palace} at {hex}.",
    "decline": "{who} manufactures nothing.",
    # ---------------------------------------------------------------- movement, turns, end
    "move.free": "{who} moves {units} from {src} to {to} (free move).",
    "move.extra": "{who} moves {units} from {src} to {to} (extra move).",
    "explore": "{who} reveals {tile} at {hex}: {tile_text}",
    "peek": "{who} secretly looks at the exploration tile at {hex}.",
    "peek_private": "The tile at {hex} is {tile}.",
    "turn": "Round {round}: {who}'s turn.",
    "solo_result.won": "Victory at Guararapes! Era III, all five units on the map and the enemy capital taken.",
    "solo_result.lost": "Defeat: the {rounds} rounds are over and the conditions of victory were not all met.",
    "score": "{who} scores {vp} VP.",
    "game_over": "The game is over. {winners:and:Nobody} {n|wins|win}.",
    # ---------------------------------------------------------------- combat
    "battle.move": "{who} attacks {defender} at {hex} from {src}.",
    "battle.bombard": "{who}'s {unit} bombards {defender} at {hex} from {src}.",
    "expedition": "{who} sets out on the expedition at {hex}: FP {fp} or more wins.",
    "enemy_cards": "The orange army draws {n} {n|combat card|combat cards}.",
    "cards_committed": "{who} commits {n} {n|combat card|combat cards} face down.",
    "cards_revealed": "{who} reveals {cards:list:no cards}.",
    "parley_failed": "{who} cannot pay for the Parley: it has no effect.",
    "parley": (
        "Parley: {who} pays {attacker} {amount} gold and the attack is called off; "
        "the attackers stay where they came from."
    ),
    "battle_result": (
        "Battle at {hex}: {attacker} {attacker_fp} FP ({attacker_breakdown:plus:nothing}) against "
        "{defender} {defender_fp} FP ({defender_breakdown:plus:nothing}). {winner} wins."
    ),
    "battle_result.tie": (
        "Battle at {hex}: {attacker} {attacker_fp} FP ({attacker_breakdown:plus:nothing}) against "
        "{defender} {defender_fp} FP ({defender_breakdown:plus:nothing}). {winner} wins "
        "(a tie goes to the defender)."
    ),
    "defeated": "{who} loses {n} {n|unit|units} to the reserve.",
    "occupy.capital": "{who} occupies the orange capital and controls it.",
    "occupy.tile": "{who} occupies the tile at {hex} and controls it.",
    "sepe": (
        "Sepé Tiaraju: {who} keeps only one battle unit; the other {n} {n|unit goes|units go} "
        "to the reserve."
    ),
    "expedition_result.won": (
        "Expedition at {hex}: {fp} FP ({breakdown:plus:nothing}) against {requirement}: success!"
    ),
    "expedition_result.lost": (
        "Expedition at {hex}: {fp} FP ({breakdown:plus:nothing}) against {requirement}: "
        "it fails (nothing else happens)."
    ),
    "retreat": "{who}'s units retreat to {hex}.",
    # ---------------------------------------------------------------- phrases nested in events
    "phrase.orange_army": "The orange army",
    "phrase.plays_colour": "{who} plays {colour:id}.",
    "phrase.capital_at": "{hex}: {capital}",
    "phrase.frame.red": "red",
    "phrase.frame.pink": "pink",
    "phrase.frame.blue": "blue",
    # why: the reason of a gain, a draw, a production, a build or a manufacture
    "phrase.why.capital": "capital",
    "phrase.why.new_building": "new building",
    "phrase.why.renovated": "renovated",
    "phrase.why.era_token_2": "era token II under the arch",
    "phrase.why.upgraded": "upgraded {arch}",
    "phrase.why.palace": "palace {palace}",
    "phrase.why.palace_free": "palace {palace}, free",
    "phrase.why.first_painting": "{monarch}, first {frame} painting",
    "phrase.why.built_on_forest": "{monarch}, built on forest",
    "phrase.why.first_builder": "{tile}, first builder",
    # items: what a payment spends; what: what it pays for
    "phrase.item.reserve": "{n} {good} from the reserve",
    "phrase.item.tile": "{n} {good} from {hex}",
    "phrase.item.card": "{n} {card} {n|card|cards}",
    "phrase.for.deployment": "the deployment",
    "phrase.for.renovating": "renovating",
    "phrase.for.exchange": "the exchange",
    # breakdown: the sources of a side's fighting power
    "phrase.fp.part": "{source} {fp}",
    "phrase.fp.tile": "{tile} at {hex}",
    "phrase.fp.orange_capital": "orange capital",
    "phrase.fp.tactical_advantage": "tactical advantage",
    "phrase.fp.camp": "Acampamento resources",
    # what a player did when the action made no public event (the game service's sentence)
    "phrase.did.end_trade": "{who} ends trading.",
    "phrase.did.war_card": "{who} plays no card after the battle.",
    "phrase.did.other": "{who} decided.",
}

EN.update(ERRORS)  # the refusals (error.*): rules/brazil/error_messages.py
EN.update(PAYMENT)  # the payment chooser's texts (phrase.pay.*): rules/brazil/payment_messages.py

REVEALS: dict[str, bool] = {
    # True: the step that emits it showed someone something hidden, or used the state's RNG,
    # so it can never be taken back (see rules/brazil/undo.py). Every event key must be listed.
    "gain": False,
    "gain.why": False,
    "reshuffle.gold": True,  # RNG
    "reshuffle.combat": True,
    "deck_empty.gold": False,
    "deck_empty.combat": False,
    "draw_gold": True,  # a hidden card enters a hand
    "draw_gold.why": True,
    "draw_combat": True,
    "draw_combat.why": True,
    "draw_gold_private": True,
    "draw_combat_private": True,
    "produce": False,
    "produce.river_basin": False,
    "produce.painting": False,
    "monarch_power": False,
    "colour": False,
    "missions_dealt": True,  # hidden missions dealt
    "missions_kept": False,
    "monarch": False,
    "capitals_revealed": True,  # the capital tiles are turned face up
    "capital": False,
    "start": False,
    "action": False,
    "pay": False,
    "pay.cards": True,  # the gold or combat cards paid go face up to the discard
    "pay.combat_cards": True,  # the given combat cards go face up to the discard
    "deploy.first": False,
    "deploy.again": False,
    "painting": False,
    "display": True,  # a painting drawn from a face-down deck
    "display.other_deck": True,
    "display.chosen_deck": True,
    "removed": False,
    "explore_discard": False,
    "build.city": True,  # the next city of the pile is turned up
    "build.city_why": True,
    "build.building": False,
    "build.building_why": False,
    "keep_tile": False,
    "keep_tile.cultura": False,
    "flip": False,
    "renovate": False,
    "manufacture.victoria": False,
    "manufacture.victoria_why": False,
    "manufacture.factory": False,
    "manufacture.factory_why": False,
    "manufacture.arch": False,
    "manufacture.arch_why": False,
    "pass": False,
    "gold_card": True,  # a card from a secret hand is shown
    "espionage": True,
    "espionage_private": True,
    "veterans": False,
    "discard": False,
    "discard_cards.gold": True,  # discarded face up from a secret hand
    "discard_cards.combat": True,
    "mission_draw": True,
    "mission_draw_private": True,
    "mission": True,  # a kept (secret) mission is shown
    "no_palace.none_left": False,
    "no_palace.declined": False,
    "end_triggered": False,
    "era.2": False,
    "era.3": False,
    "era_token": False,
    "coroados": False,
    "palace": False,
    "decline": False,
    "move.free": False,
    "move.extra": False,
    "explore": True,  # a face-down tile is flipped
    "peek": True,
    "peek_private": True,
    "turn": False,
    "solo_result.won": False,
    "solo_result.lost": False,
    "score": False,
    "game_over": False,
    "battle.move": False,
    "battle.bombard": False,
    "expedition": False,
    "enemy_cards": True,  # the solo army draws from the combat deck
    "cards_committed": False,
    "cards_revealed": True,
    "parley_failed": False,
    "parley": False,
    "battle_result": False,
    "battle_result.tie": False,
    "defeated": False,
    "occupy.capital": False,
    "occupy.tile": False,
    "sepe": False,
    "expedition_result.won": False,
    "expedition_result.lost": False,
    "retreat": False,
}


def term(key: str, catalogue: Mapping[str, str] = EN) -> str:
    """A term such as ``good.coffee``; unknown ones fall back to the id with spaces."""
    return catalogue.get(key) or key.split(".", 1)[-1].replace("_", " ")


_NAME_BOOKS = {
    "building": "sides",
    "unit": "units",
    "monarch": "monarchs",
    "mission": "missions",
    "painting": "paintings",
    "gold_card": "gold_cards",
    "combat_card": "combat_cards",
    "exploration": "exploration",
    "capital": "capitals",
    "city": "cities",
    "colour": "colours",
    "product": "products",
    "arch": "arches",
    "scenario": "maps",
}
"""The term kind of a component -> the :class:`rules.brazil.catalog.Catalog` table of its names."""


_NAMES: dict[int, tuple[Any, dict[str, str]]] = {}


def catalog_names(cat: Any) -> TermNames:
    """The English names of a :class:`rules.brazil.catalog.Catalog`'s components, by term key
    (``term.<kind>.<id>``): one table per catalog, built on first use."""
    got = _NAMES.get(id(cat))
    if got is None or got[0] is not cat:
        table = {
            f"term.{kind}.{id_}": str(entry.name)
            for kind, book in _NAME_BOOKS.items()
            for id_, entry in getattr(cat, book).items()
        }
        # the rules texts printed on components (``text.<kind>.<id>``, :func:`text_ref`)
        table |= {
            f"text.{kind}.{id_}": str(entry.text)
            for kind, book in _NAME_BOOKS.items()
            for id_, entry in getattr(cat, book).items()
            if isinstance(getattr(entry, "text", None), str)
        }
        got = _NAMES[id(cat)] = (cat, table)
    return got[1].get


def default_names(key: str) -> str | None:
    """The English names of the default component data (no data pack)."""
    from rules.brazil.catalog import get_catalog  # the data is read on first use only

    return catalog_names(get_catalog())(key)


def a_or_an(word: str) -> str:
    """English's indefinite article before ``word``: ``a sawmill``, ``an academy``,
    ``a unit``, ``an hour``."""
    w = word.lower()
    vowel = w[:1] in ("a", "e", "i", "o", "u") and not w.startswith(
        ("uni", "use", "usu", "eu", "one")
    )
    return ("an " if vowel or w.startswith(("hour", "honest", "heir")) else "a ") + word


class _Renderer(Renderer):
    """The engine's renderer with English's ``{name:a}`` (the name in lower case after its
    indefinite article)."""

    def value(self, v: Any, how: str, args: tuple[str, ...]) -> str:
        if how == "join" and args[:1] == ("a",):
            return a_or_an(self.scalar(v).lower())
        return super().value(v, how, args)

    def term(self, key: str) -> str:
        """A term's English, memoised per component names (English only: the table
        :data:`EN` and its plural rule, which never change)."""
        if self.catalogue is not EN or self.plural is not plural_en:
            return super().term(key)
        mk = (self.names, key)
        text = _TERM_MEMO.get(mk)
        if text is None:
            text = super().term(key)
            if len(_TERM_MEMO) >= _ENGLISH_MEMO_MAX:
                _TERM_MEMO.clear()
            _TERM_MEMO[mk] = text
        return text


_TERM_MEMO: dict[tuple[TermNames | None, str], str] = {}


_Render = _Renderer


def english(value: Param, names: TermNames | None = None) -> str:
    """A parameter's English text: a term reference's name, a nested message's sentence,
    a plain text as it is."""
    return _Renderer(EN, plural_en, names or default_names).scalar(value)


def render_message(
    key: str,
    params: Mapping[str, Param],
    catalogue: Mapping[str, str] = EN,
    plural: PluralRule = plural_en,
    names: TermNames | None = None,
) -> str:
    """The sentence for ``key`` with ``params`` in ``catalogue`` (English by default).
    Nested messages render from the same catalogue, term references ``@key`` from it too,
    component terms ``@term.<kind>.<id>`` by ``names`` (default: the names of the default
    component data)."""
    return _Renderer(catalogue, plural, names or default_names).message(key, params)


register_english(EN, default_names)

# ---------------------------------------------------------------------------- the events' English

_ENGLISH_MEMO_MAX = 10_000  # the terms' memo is emptied when full: a memo, never another answer


def english_text(key: str, params: Mapping[str, Param], names: TermNames | None = None) -> str:
    """``render_message(key, params, names=names)`` (English): the events' sentences.

    Rendered directly, not memoised by the sentence's inputs: with the terms' memo
    (:meth:`_Renderer.term`), a render costs less than building a memo key of the parameters
    and a lookup, and most events' parameters (hexes, units, goods) are seldom repeated. The
    renderer (it holds nothing but the table, the plural rule and ``names``) is made once
    per ``names``."""
    try:
        r = _EN_RENDERERS.get(names)
    except TypeError:  # names that cannot be hashed: a renderer of their own
        return _Renderer(EN, plural_en, names or default_names).message(key, params)
    if r is None:
        if len(_EN_RENDERERS) >= 64:
            _EN_RENDERERS.clear()
        r = _EN_RENDERERS[names] = _Renderer(EN, plural_en, names or default_names)
    return r.message(key, params)


_EN_RENDERERS: dict[TermNames | None, _Renderer] = {}
