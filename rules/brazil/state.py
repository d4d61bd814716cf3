"""The game state: pydantic models, serialisable to JSON and back losslessly.

Hexes are stored by label (``"D7"``). Goods are ``{good: count}`` with no zero entries.
Randomness comes only from :class:`Rng` (seed + draw counter) kept in the state.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.fastcopy import model_copier

Phase = Literal["setup", "play", "ended"]
SetupStep = Literal["colour", "missions", "monarch", "capital", "done"]
Step = Literal["action", "trade", "movement"]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class _Value(BaseModel):
    """An immutable value: a state holds it until it is replaced by a changed copy
    (``rules.fastcopy.replaced(m, ...)``), never changes it in place (its dict fields included), so
    :meth:`GameState.clone` shares it between the copies instead of copying it."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Rng(_M):
    """A deterministic random source: every draw derives from (seed, counter)."""

    seed: int
    counter: int = 0

    def _next(self) -> random.Random:
        r = random.Random(f"{self.seed}:{self.counter}")
        self.counter += 1
        return r

    def shuffle(self, items: list[Any]) -> None:
        self._next().shuffle(items)

    def choice(self, n: int) -> int:
        return self._next().randrange(n)


class Tile(_Value):
    """A capital, city or building on the map, with the goods lying on it (immutable: replace
    it with a changed copy, e.g. ``s.tiles[h] = replaced(t, goods=goods)``)."""

    kind: Literal["capital", "city", "building"]
    id: str  # capital tile id, city id or building side id
    owner: int  # seat of the builder
    goods: dict[str, int] = Field(default_factory=dict)
    palace: int | None = None
    special: bool = False  # counts among a monarch's "first 3" (R-MONARCH-1)
    on_forest: bool = False


class Exploration(_Value):
    """An exploration tile on a fog hex (immutable, like :class:`Tile`)."""

    tile: str  # exploration tile id
    face_up: bool = False


PendingKind = Literal[
    "choose_colour",
    "keep_missions",
    "choose_monarch",
    "choose_capital",
    "place_palace",
    "free_manufacture",
    "place_era_token",
    "discard",
    "discard_cards",
    "choose_good",
    "choose_era",
    "choose_deck",
    "combat_cards",
    "sepe_keep",
    "retreat",
    "war_card",
]  # described in rules.brazil.decisions.DECISIONS


class Pending(_M):
    """A decision someone must take before play goes on (its kind: ``DECISIONS[kind]``)."""

    seat: int
    kind: PendingKind
    data: dict[str, Any] = Field(default_factory=dict)


ENEMY = -1  # the seat of the solo game's orange army and the owner of its capital (R-SOLO)


class Side(_M):
    """One side of a battle. ``seat`` is -1 for the solo game's orange army."""

    seat: int
    units: list[str] = Field(default_factory=list)  # participating unit ids
    cards: list[str] = Field(default_factory=list)  # committed combat cards (secret until reveal)
    camp: list[str] = Field(default_factory=list)  # resources paid to Acampamento (+1 FP each)
    committed: bool = False


class Battle(_M):
    """A battle or expedition in progress (R-COMBAT-4): cards are chosen as pending decisions."""

    kind: Literal["move", "bombard", "bandeiras"]
    hex: str  # where the battle is fought
    src: str  # where the attackers came from (bombard: where they stand)
    move: str = "free"  # the move that started it ("free" / "extra")
    attacker: Side
    defender: Side | None = None  # None for an expedition
    requirement: int | None = None  # Bandeiras FP
    revealed: bool = False
    winner: int | None = None  # seat, after resolution


class Player(_M):
    seat: int
    colour: str | None = None
    monarch: str | None = None
    capital: str | None = None  # hex label
    reserve: dict[str, int] = Field(default_factory=dict)
    units: dict[str, str] = Field(default_factory=dict)  # unit id -> "board" | "reserve" | hex
    gold_cards: list[str] = Field(default_factory=list)
    combat_cards: list[str] = Field(default_factory=list)
    missions: list[str] = Field(default_factory=list)  # kept, not revealed (secret)
    mission_offer: list[str] = Field(default_factory=list)  # setup: dealt, to choose from
    revealed: list[str] = Field(default_factory=list)
    paintings: list[str] = Field(default_factory=list)
    products: list[str] = Field(default_factory=list)  # still on the board
    upgrades: dict[str, str] = Field(default_factory=dict)  # arch -> product
    victoria: list[str] = Field(default_factory=list)  # products on Queen Victoria's tile
    factory: list[str] = Field(default_factory=list)  # products on the Factory painting
    palaces: list[int] = Field(default_factory=lambda: [1, 2, 3, 4, 5, 6])  # still on board
    token_arch: str | None = None  # where the current era token stands
    under: dict[str, int] = Field(default_factory=dict)  # arch -> flipped era token
    coroados: int | None = None  # flipped era token placed on Coroados
    kept_tiles: list[str] = Field(default_factory=list)  # exploration tiles kept (VP)
    # eras of the missions drawn after setup (Quilombo, R-MISSION-4): public, like the draw
    extra_mission_eras: list[int] = Field(default_factory=list)
    peeks: dict[str, str] = Field(default_factory=dict)  # hex -> tile seen (secret)
    counters: dict[str, int] = Field(default_factory=dict)  # once-only powers, "first N"
    seen: dict[str, list[str]] = Field(default_factory=dict)  # espionage results (secret)


class Turn(_M):
    step: Step = "action"
    arch: str | None = None  # arch chosen this turn (None: passed or not yet)
    free_move: bool = False  # used?
    extra_move: bool = False  # used?
    peek: bool = False  # token I bonus available
    builds: int = 0  # Build actions done this turn (Visconde de Mauá)
    reboucas: bool = False  # André Rebouças discount used this turn
    action_done: bool = False
    revealed_before_action: bool = False
    # units of the player whose turn it is that moved, moved in after a battle or retreated
    # this turn (R-EXPLORE-3: only a unit there since an earlier turn fights with the free move)
    arrived: list[str] = Field(default_factory=list)


class GameState(_M):
    """Everything about one game. ``model_dump_json`` / ``model_validate_json`` round-trip."""

    schema_version: int = 1
    # a data pack's name (never a path; resolved in the application's packs folder) and the
    # content hash of the pack when the game was created
    data_pack: str | None = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    data_pack_hash: str | None = None
    map: str
    solo: bool = False
    city_limit: int | None = None  # R-BUILD-10: default none
    max_rounds: int | None = None  # solo: 20
    rng: Rng
    phase: Phase = "setup"
    setup_step: SetupStep = "colour"
    era: int = 1
    round: int = 1
    first_player: int = 0
    current: int = 0
    capital_chooser: int = 0
    turn: Turn = Field(default_factory=Turn)
    end_triggered: bool = False
    players: list[Player]
    tiles: dict[str, Tile] = Field(default_factory=dict)  # hex -> tile
    exploration: dict[str, Exploration] = Field(default_factory=dict)  # hex -> tile
    # exploration tiles revealed and then taken off the map without a player keeping them
    # (R-EXPLORE-2: Mandioca, Quilombo, a won Bandeiras without VP): public, seen by all
    removed_exploration: list[str] = Field(default_factory=list)
    enemy_units: dict[str, str] = Field(default_factory=dict)  # solo: unit id -> hex/reserve
    supply: dict[str, int] = Field(default_factory=dict)  # building tile id -> count left
    city_piles: list[list[str]] = Field(default_factory=list)  # top = last element
    capital_tiles: dict[str, str] = Field(default_factory=dict)  # site -> capital tile (setup)
    display: list[str] = Field(default_factory=list)  # paintings on display
    painting_decks: dict[str, list[str]] = Field(default_factory=dict)  # frame -> deck
    combat_deck: list[str] = Field(default_factory=list)  # top = last element
    combat_discard: list[str] = Field(default_factory=list)
    gold_deck: list[str] = Field(default_factory=list)
    gold_discard: list[str] = Field(default_factory=list)
    mission_decks: dict[str, list[str]] = Field(default_factory=dict)  # "1".."3" -> deck
    pending: list[Pending] = Field(default_factory=list)
    result: dict[str, Any] | None = None  # final scores, winners
    combat: Battle | None = None  # a battle in progress (R-COMBAT)
    solo_captured: bool = False  # R-SOLO-2: the enemy capital was captured

    def clone(self) -> GameState:
        """An independent, exact copy (a structural copy generated from the annotations, see
        :mod:`rules.fastcopy`; no re-validation)."""
        return _copy_state(self)

    def player(self, seat: int) -> Player:
        return self.players[seat]

    @property
    def n(self) -> int:
        return len(self.players)

    def discard_card(self, seat: int, deck: Literal["gold", "combat"], card: str) -> None:
        """Move ``card`` from ``seat``'s hand of that deck to the deck's discard pile."""
        p = self.players[seat]
        if deck == "gold":
            p.gold_cards.remove(card)
            self.gold_discard.append(card)
        else:
            p.combat_cards.remove(card)
            self.combat_discard.append(card)


_copy_state = model_copier(GameState)
