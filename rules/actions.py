"""Actions: small immutable value types, one per kind of decision, tagged by ``type``.

Every action names the ``seat`` taking it. ``parse_action`` reads one from JSON or a dict;
``action.to_json()`` writes it back. Optional ``payment`` fields take explicit payment items;
left out, the engine pays a sensible default and says what it took in an event.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class PayItem(BaseModel):
    """One thing given in payment: a good from the reserve or from a building you control
    (``source`` = its hex label), or a card from your hand (``source`` = ``gold_card`` /
    ``combat_card``, ``what`` = the card id)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str  # "reserve", a hex label, "gold_card", "combat_card"
    what: str  # a good, or a card id


class _A(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int

    def to_json(self) -> str:
        return self.model_dump_json(exclude_defaults=False)


Payment = tuple[PayItem, ...] | None

# ---------------------------------------------------------------- setup (R-SETUP)


class ChooseColour(_A):
    type: Literal["choose_colour"] = "choose_colour"
    colour: str


class KeepMissions(_A):
    type: Literal["keep_missions"] = "keep_missions"
    keep: tuple[str, ...]  # one mission id per era


class ChooseMonarch(_A):
    type: Literal["choose_monarch"] = "choose_monarch"
    monarch: str


class ChooseCapital(_A):
    type: Literal["choose_capital"] = "choose_capital"
    at: str


# ---------------------------------------------------------------- the 7 actions (R-TURN-2)


class Deploy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    unit: str
    to: str  # hex of your capital or a city you control


class Recruit(_A):
    type: Literal["recruit"] = "recruit"
    deploy: tuple[Deploy, ...] = ()
    draw: int = 0
    payment: Payment = None


class TakePainting(_A):
    type: Literal["painting"] = "painting"
    painting: str
    payment: Payment = None


class Build(_A):
    type: Literal["build"] = "build"
    building: str  # a building side id, or a city id
    at: str
    payment: Payment = None


class Renovate(_A):
    type: Literal["renovate"] = "renovate"
    at: str
    flip: bool = False
    payment: Payment = None


class Manufacture(_A):
    type: Literal["manufacture"] = "manufacture"
    product: str
    to: str  # an arch id, "victoria" or "factory"
    payment: Payment = None


class Import(_A):
    type: Literal["import"] = "import"
    crop: str


class Trade(_A):
    type: Literal["trade"] = "trade"


class Exchange(_A):
    """One exchange during Trade (R-TRADE-1). ``give``: crops or combat card ids."""

    type: Literal["exchange"] = "exchange"
    kind: Literal["gold", "pair", "four", "cards"]
    give: tuple[str, ...]
    payment: Payment = None  # where the crops come from (reserve / buildings)


class EndTrade(_A):
    type: Literal["end_trade"] = "end_trade"


class PassAction(_A):
    type: Literal["pass_action"] = "pass_action"


# ---------------------------------------------------------------- movement (R-MOVE)


class Move(_A):
    type: Literal["move"] = "move"
    unit: str
    to: str
    kind: Literal["free", "extra"] = "free"
    carry: tuple[str, ...] = ()  # units moving with a transport unit


class Peek(_A):
    type: Literal["peek"] = "peek"
    at: str


class Bombard(_A):
    """R-MOVE-6: a cannon or grenadier spends the free move to attack an adjacent hex."""

    type: Literal["bombard"] = "bombard"
    unit: str
    at: str


class Expedition(_A):
    """R-EXPLORE-3: units standing on a revealed Bandeiras spend the free move to fight it."""

    type: Literal["expedition"] = "expedition"
    at: str


class EndTurn(_A):
    type: Literal["end_turn"] = "end_turn"


# ---------------------------------------------------------------- free actions


class RevealMission(_A):
    type: Literal["reveal_mission"] = "reveal_mission"
    mission: str


class PlayGoldCard(_A):
    type: Literal["play_gold_card"] = "play_gold_card"
    card: str
    at: str | None = None  # Jesuits / Immigration: where to build
    unit: str | None = None  # Mercenaries / Coronation / Veterans
    to: str | None = None  # deploy hex, or manufacture destination
    product: str | None = None  # Industry
    give: tuple[str, ...] = ()  # Discovery / Commerce: crops given
    target: int | None = None  # Espionage: the opponent's seat
    payment: Payment = None


class Coroados(_A):
    """R-ERA-4: move a flipped previous-era token from under an arch onto Coroados."""

    type: Literal["coroados"] = "coroados"
    token: int


class IsabelPalace(_A):
    type: Literal["isabel_palace"] = "isabel_palace"
    palace: int
    at: str


# ---------------------------------------------------------------- answers to pending decisions


class PlacePalace(_A):
    type: Literal["place_palace"] = "place_palace"
    palace: int | None = None  # None: place no palace
    at: str | None = None


class FreeManufacture(_A):
    """Palace II: manufacture one square product for free."""

    type: Literal["free_manufacture"] = "free_manufacture"
    product: str | None = None  # None: decline
    to: str | None = None


class PlaceEraToken(_A):
    type: Literal["place_era_token"] = "place_era_token"
    arch: str  # an arch id, or "coroados"


class Discard(_A):
    """Discard goods from the reserve down to the limit (R-VOC-4)."""

    type: Literal["discard"] = "discard"
    goods: tuple[str, ...]


class DiscardCards(_A):
    """Discard cards down to the hand limit (R-VOC-5)."""

    type: Literal["discard_cards"] = "discard_cards"
    deck: Literal["gold", "combat"]
    cards: tuple[str, ...]


class ChooseGood(_A):
    """Answer to 'gain 1 resource of your choice' (Mandioca, Pedro I, Pedro II, Tibiriçá)."""

    type: Literal["choose_good"] = "choose_good"
    good: str


class ChooseEra(_A):
    """Quilombo: draw a mission of this era."""

    type: Literal["choose_era"] = "choose_era"
    era: int


class ChooseDeck(_A):
    """R-PAINT-2: the taker chooses the deck to refill from when the frame's deck is empty."""

    type: Literal["choose_deck"] = "choose_deck"
    frame: str


# ---------------------------------------------------------------- battles (R-COMBAT)


class CommitCards(_A):
    """R-COMBAT-4: up to 3 combat cards face down (empty = no cards). ``camp``: the
    resources paid from the reserve if an Acampamento card is among them (+1 FP each)."""

    type: Literal["commit_cards"] = "commit_cards"
    cards: tuple[str, ...] = ()
    camp: tuple[str, ...] = ()


class KeepUnit(_A):
    """Sepé Tiaraju: the winner chooses the one battle unit it keeps."""

    type: Literal["keep_unit"] = "keep_unit"
    unit: str


class RetreatTo(_A):
    """Retreat: the loser's units go to this adjacent empty hex instead of the reserve."""

    type: Literal["retreat_to"] = "retreat_to"
    at: str | None = None  # None: go to the reserve after all


class WarCard(_A):
    """The War gold card, right after a won battle (play it or not)."""

    type: Literal["war_card"] = "war_card"
    play: bool


Action = Annotated[
    ChooseColour
    | KeepMissions
    | ChooseMonarch
    | ChooseCapital
    | Recruit
    | TakePainting
    | Build
    | Renovate
    | Manufacture
    | Import
    | Trade
    | Exchange
    | EndTrade
    | PassAction
    | Move
    | Peek
    | EndTurn
    | RevealMission
    | PlayGoldCard
    | Coroados
    | IsabelPalace
    | PlacePalace
    | FreeManufacture
    | PlaceEraToken
    | Discard
    | DiscardCards
    | ChooseGood
    | ChooseEra
    | ChooseDeck
    | Bombard
    | Expedition
    | CommitCards
    | KeepUnit
    | RetreatTo
    | WarCard,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)


def parse_action(data: str | bytes | dict[str, Any]) -> Any:
    """Parse an action from JSON text or a dict (raises ``pydantic.ValidationError``)."""
    if isinstance(data, (str, bytes)):
        return _ADAPTER.validate_json(data)
    return _ADAPTER.validate_python(data)


ACTION_TYPES: dict[str, type[_A]] = {
    cls.model_fields["type"].default: cls for cls in _A.__subclasses__()
}
