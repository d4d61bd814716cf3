"""Actions: small immutable value types, one per kind of decision, tagged by ``type``.

Every action names the ``seat`` taking it. ``parse_action`` reads one from JSON or a dict;
``action.to_json()`` writes it back. Optional ``payment`` fields take explicit payment items;
left out, the engine pays a sensible default and says what it took in an event.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Self, TypeAlias, TypeVar

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, with_config

from rules.errors import InvalidAction

_CONFIG = ConfigDict(extra="forbid")
_T = TypeVar("_T")


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True)
class PayItem:
    """One thing given in payment: a good from the reserve or from a building you control
    (``source`` = its hex label), or a card from your hand (``source`` = ``gold_card`` /
    ``combat_card``, ``what`` = the card id)."""

    source: str  # "reserve", a hex label, "gold_card", "combat_card"
    what: str  # a good, or a card id


@dataclass(frozen=True, slots=True, kw_only=True)
class _A:
    """Base of all actions: frozen, hashable dataclasses tagged by ``type``."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = json.loads(_ADAPTER.dump_json(self))
        return d

    def to_json(self) -> str:
        return _ADAPTER.dump_json(self).decode()

    def replace(self, **changes: Any) -> Self:
        """``dataclasses.replace(self, **changes)``, by a copier generated per class."""
        rep = _REPLACERS.get(type(self))
        if rep is None:
            rep = _REPLACERS[type(self)] = _replacer(type(self))
        out: Self = rep(self, changes)
        return out


Payment = tuple[PayItem, ...] | None

# ---------------------------------------------------------------- setup (R-SETUP)


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseColour(_A):
    type: Literal["choose_colour"] = "choose_colour"
    colour: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class KeepMissions(_A):
    type: Literal["keep_missions"] = "keep_missions"
    keep: tuple[str, ...]  # one mission id per era


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseMonarch(_A):
    type: Literal["choose_monarch"] = "choose_monarch"
    monarch: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseCapital(_A):
    type: Literal["choose_capital"] = "choose_capital"
    at: str


# ---------------------------------------------------------------- the 7 actions (R-TURN-2)


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True)
class Deploy:
    unit: str
    to: str  # hex of your capital or a city you control


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Recruit(_A):
    type: Literal["recruit"] = "recruit"
    deploy: tuple[Deploy, ...] = ()
    draw: int = 0
    payment: Payment = None


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class TakePainting(_A):
    type: Literal["painting"] = "painting"
    painting: str
    payment: Payment = None


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Build(_A):
    type: Literal["build"] = "build"
    building: str  # a building side id, or a city id
    at: str
    payment: Payment = None


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Renovate(_A):
    type: Literal["renovate"] = "renovate"
    at: str
    flip: bool = False
    payment: Payment = None


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Manufacture(_A):
    type: Literal["manufacture"] = "manufacture"
    product: str
    to: str  # an arch id, "victoria" or "factory"
    payment: Payment = None


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Import(_A):
    type: Literal["import"] = "import"
    crop: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Trade(_A):
    type: Literal["trade"] = "trade"


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Exchange(_A):
    """One exchange during Trade (R-TRADE-1). ``give``: crops or combat card ids."""

    type: Literal["exchange"] = "exchange"
    kind: Literal["gold", "pair", "four", "cards"]
    give: tuple[str, ...]
    payment: Payment = None  # where the crops come from (reserve / buildings)


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class EndTrade(_A):
    type: Literal["end_trade"] = "end_trade"


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class PassAction(_A):
    type: Literal["pass_action"] = "pass_action"


# ---------------------------------------------------------------- movement (R-MOVE)


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Move(_A):
    type: Literal["move"] = "move"
    unit: str
    to: str
    kind: Literal["free", "extra"] = "free"
    carry: tuple[str, ...] = ()  # units moving with a transport unit


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Peek(_A):
    type: Literal["peek"] = "peek"
    at: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Bombard(_A):
    """R-MOVE-6: a cannon or grenadier spends the free move to attack an adjacent hex."""

    type: Literal["bombard"] = "bombard"
    unit: str
    at: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Expedition(_A):
    """R-EXPLORE-3: units standing on a revealed Bandeiras spend the free move to fight it."""

    type: Literal["expedition"] = "expedition"
    at: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn(_A):
    type: Literal["end_turn"] = "end_turn"


# ---------------------------------------------------------------- free actions


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class RevealMission(_A):
    type: Literal["reveal_mission"] = "reveal_mission"
    mission: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
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


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Coroados(_A):
    """R-ERA-4: move a flipped previous-era token from under an arch onto Coroados."""

    type: Literal["coroados"] = "coroados"
    token: int


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class IsabelPalace(_A):
    type: Literal["isabel_palace"] = "isabel_palace"
    palace: int
    at: str


# ---------------------------------------------------------------- answers to pending decisions


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class PlacePalace(_A):
    type: Literal["place_palace"] = "place_palace"
    palace: int | None = None  # None: place no palace
    at: str | None = None


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class FreeManufacture(_A):
    """Palace II: manufacture one square product for free."""

    type: Literal["free_manufacture"] = "free_manufacture"
    product: str | None = None  # None: decline
    to: str | None = None


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceEraToken(_A):
    type: Literal["place_era_token"] = "place_era_token"
    arch: str  # an arch id, or "coroados"


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class Discard(_A):
    """Discard goods from the reserve down to the limit (R-VOC-4)."""

    type: Literal["discard"] = "discard"
    goods: tuple[str, ...]


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardCards(_A):
    """Discard cards down to the hand limit (R-VOC-5)."""

    type: Literal["discard_cards"] = "discard_cards"
    deck: Literal["gold", "combat"]
    cards: tuple[str, ...]


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseGood(_A):
    """Answer to 'gain 1 resource of your choice' (Mandioca, Pedro I, Pedro II, Tibiriçá)."""

    type: Literal["choose_good"] = "choose_good"
    good: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseEra(_A):
    """Quilombo: draw a mission of this era."""

    type: Literal["choose_era"] = "choose_era"
    era: int


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseDeck(_A):
    """R-PAINT-2: the taker chooses the deck to refill from when the frame's deck is empty."""

    type: Literal["choose_deck"] = "choose_deck"
    frame: str


# ---------------------------------------------------------------- battles (R-COMBAT)


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class CommitCards(_A):
    """R-COMBAT-4: up to 3 combat cards face down (empty = no cards). ``camp``: the
    resources paid from the reserve if an Acampamento card is among them (+1 FP each)."""

    type: Literal["commit_cards"] = "commit_cards"
    cards: tuple[str, ...] = ()
    camp: tuple[str, ...] = ()


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class KeepUnit(_A):
    """Sepé Tiaraju: the winner chooses the one battle unit it keeps."""

    type: Literal["keep_unit"] = "keep_unit"
    unit: str


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class RetreatTo(_A):
    """Retreat: the loser's units go to this adjacent empty hex instead of the reserve."""

    type: Literal["retreat_to"] = "retreat_to"
    at: str | None = None  # None: go to the reserve after all


@with_config(_CONFIG)
@dataclass(frozen=True, slots=True, kw_only=True)
class WarCard(_A):
    """The War gold card, right after a won battle (play it or not)."""

    type: Literal["war_card"] = "war_card"
    play: bool


# Every action: a plain union for signatures (``def f(a: Action)``, ``isinstance`` checks).
Action: TypeAlias = (
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
    | WarCard
)

# The tagged-union validator for parsing (pydantic), discriminated by ``type``.
ActionAdapter: TypeAdapter[Action] = TypeAdapter(Annotated[Action, Field(discriminator="type")])
_ADAPTER: TypeAdapter[Any] = ActionAdapter  # (actions dump themselves through it)
PAY_ITEMS: TypeAdapter[tuple[PayItem, ...]] = TypeAdapter(tuple[PayItem, ...])


def _plain(value: object) -> Any:
    """JSON form of a value inside an action dict (e.g. a :class:`PayItem`)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    raise TypeError(f"{type(value).__name__} is not allowed in an action")


def parse_action(data: str | bytes | dict[str, Any]) -> Action:
    """Parse an action from JSON text or a dict, strictly: JSON types only, no coercion
    (``"seat": true`` or ``"seat": "0"`` is refused). Raises :class:`InvalidAction` naming
    the field."""
    if isinstance(data, dict):
        try:
            data = json.dumps(data, default=_plain, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InvalidAction.of("", "error.action.malformed", detail=str(e)) from e
    elif not isinstance(data, (str, bytes)):
        raise InvalidAction.of("", "error.action.type", type=type(data).__name__)
    try:
        return ActionAdapter.validate_json(data, strict=True)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        if loc:
            raise InvalidAction.of(
                "", "error.action.field", field=loc, detail=str(err["msg"])
            ) from None
        raise InvalidAction.of("", "error.action.malformed", detail=str(err["msg"])) from None


ACTION_TYPES: dict[str, type[_A]] = {
    str(cls.__dataclass_fields__["type"].default): cls for cls in _A.__subclasses__()
}


def trusted_maker(cls: type[_T], *names: str) -> Callable[..., _T]:
    """A constructor of ``cls`` taking the values of the fields ``names`` positionally, the
    other fields at their defaults: ``trusted_maker(Build, "seat", "building", "at")(0, b, h)``
    equals ``Build(seat=0, building=b, at=h)``, built without the frozen dataclass's
    per-field ``object.__setattr__`` calls. For the listing's own, already valid values."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = [n for n in names if n not in fields]
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    ns: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    o = _new(_cls)"]
    for i, (name, f) in enumerate(fields.items()):
        if name in names:
            value = name
        elif f.default is not dataclasses.MISSING:
            ns[f"_d{i}"] = f.default
            value = f"_d{i}"
        else:
            raise TypeError(f"{cls.__name__}.{name} has no default: name it")
        ns[f"_s{i}"] = getattr(cls, name).__set__  # the slot's own setter
        lines.append(f"    _s{i}(o, {value})")
    lines.append("    return o")
    exec("\n".join(lines), ns)  # source generated from the dataclass fields
    fn: Callable[..., _T] = ns["make"]
    return fn


_REPLACERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _replacer(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A copy of an action with some fields changed: every slot copied, then the changes
    set, without the frozen dataclass's per-field ``object.__setattr__``. A change that
    names no field goes to ``dataclasses.replace`` (which raises as usual)."""
    names = [f.name for f in dataclasses.fields(cls)]
    ns: dict[str, Any] = {
        "_new": object.__new__,
        "_cls": cls,
        "_names": frozenset(names),
        "_replace": dataclasses.replace,
        "_set": {n: getattr(cls, n).__set__ for n in names},
    }
    lines = [
        "def rep(self, changes):",
        "    if not changes.keys() <= _names:",
        "        return _replace(self, **changes)",
        "    o = _new(_cls)",
    ]
    for i, name in enumerate(names):
        ns[f"_s{i}"] = ns["_set"][name]
        lines.append(f"    _s{i}(o, self.{name})")
    lines += ["    for k, v in changes.items():", "        _set[k](o, v)", "    return o"]
    exec("\n".join(lines), ns)  # source generated from the dataclass fields
    fn: Callable[[Any, dict[str, Any]], Any] = ns["rep"]
    return fn
