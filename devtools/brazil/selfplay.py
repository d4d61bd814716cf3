"""Seeded random self-play and the invariants checked after every step."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from devtools.brazil.scramble import scramble_hidden
from rules.brazil.catalog import get_catalog
from rules.brazil.determinize import determinize
from rules.brazil.engine import apply, deciders, legal_actions
from rules.brazil.game import HAND_LIMIT, RESERVE_LIMIT
from rules.brazil.scoring import final_scores, score
from rules.brazil.setup import new_game
from rules.brazil.state import GameState
from rules.brazil.view import HIDDEN, view


class InvariantError(AssertionError):
    """An invariant of the game state does not hold."""


def _readers(state: GameState) -> list[tuple[str, Callable[[], object]]]:
    out: list[tuple[str, Callable[[], object]]] = [
        ("legal_actions(state)", partial(legal_actions, state)),
        ("deciders(state)", partial(deciders, state)),
        ("view(state, None)", partial(view, state, None)),
    ]
    for p in state.players:
        out.append((f"legal_actions(state, {p.seat})", partial(legal_actions, state, p.seat)))
        out.append((f"view(state, {p.seat})", partial(view, state, p.seat)))
        out.append((f"score(state, {p.seat})", partial(score, state, p.seat)))
    if state.phase == "ended":
        out.append(("final_scores(state)", partial(final_scores, state)))
    return out


def check_readers_pure(state: GameState) -> dict[str, object]:
    """Raise :class:`InvariantError` if listing, viewing or scoring changes the state.

    ``legal_actions`` (with and without a seat), ``view`` (every seat and the spectator),
    ``deciders``, ``score`` and ``final_scores`` only read: the state's JSON must be
    byte-identical afterwards, or a game played list-then-apply cannot be replayed from its
    log (issue 7, defect 1). Returns what each reader returned, by name (e.g.
    ``"view(state, 0)"``), so further checks need not call them again.
    """
    before = state.model_dump_json()
    results: dict[str, object] = {name: read() for name, read in _readers(state)}
    if state.model_dump_json() == before:
        results["json"] = before  # the state's JSON, for the round-trip check
        return results
    # Something changed it: find which reader, each on a fresh copy of the state as it was.
    for name, _ in _readers(state):
        fresh = GameState.model_validate_json(before)
        dict(_readers(fresh))[name]()
        if fresh.model_dump_json() != before:
            raise InvariantError(f"{name} changed the state")
    raise InvariantError("listing, viewing or scoring changed the state")


def check_invariants(
    state: GameState, *, round_trip: bool = True, redeal: bool = True, views: bool = True
) -> dict[str, object]:
    """Raise :class:`InvariantError` if the state breaks a rule it must always keep.
    Returns what the readers returned (see :func:`check_readers_pure`; empty without
    ``views``), e.g. ``"legal_actions(state)"``, so a caller need not list again."""
    read = check_readers_pure(state) if views else {}
    cat = get_catalog(state.data_pack, state.data_pack_hash)
    board = cat.boards[state.map]

    def fail(msg: str) -> None:
        raise InvariantError(msg)

    pending_kinds = {(d.seat, d.kind, d.data.get("deck")) for d in state.pending}
    for p in state.players:
        for g, n in p.reserve.items():
            if n <= 0:
                fail(f"seat {p.seat}: reserve holds {n} {g}")
        if (
            sum(p.reserve.values()) > RESERVE_LIMIT
            and (p.seat, "discard", None) not in pending_kinds
        ):
            fail(f"seat {p.seat}: reserve over the limit with no discard pending")
        for deck, hand in (("gold", p.gold_cards), ("combat", p.combat_cards)):
            if len(hand) > HAND_LIMIT and (p.seat, "discard_cards", deck) not in pending_kinds:
                fail(f"seat {p.seat}: {deck} hand over the limit with no discard pending")
        for u, loc in p.units.items():
            if loc not in ("board", "reserve") and loc not in board.terrain:
                fail(f"seat {p.seat}: unit {u} at unknown place {loc}")
        if p.colour is not None:
            if len(p.products) + len(p.upgrades) + len(p.victoria) + len(p.factory) != len(
                cat.products
            ):
                fail(f"seat {p.seat}: products are not conserved")
            placed = sum(1 for t in state.tiles.values() if t.owner == p.seat and t.palace)
            if placed + len(p.palaces) != 6:
                fail(f"seat {p.seat}: palaces are not conserved")
    for h, t in state.tiles.items():
        if h not in board.terrain or board.terrain[h] == "water":
            fail(f"tile on {h}, which is off the map or water")
        for g, n in t.goods.items():
            if n <= 0:
                fail(f"tile {h} holds {n} {g}")
        if t.kind != "building" and t.goods:
            fail(f"{t.kind} at {h} holds goods")
        if h in state.exploration:
            fail(f"exploration tile under a building at {h}")
    for h in state.exploration:
        if h not in board.fog:
            fail(f"exploration tile on {h}, not a fog hex")
    # exploration tiles on the map, kept or recorded as removed: never more than the box
    # holds (the others lie out of the game or were discarded unseen under a building)
    box = Counter({t.id: t.count for t in cat.exploration.values()})
    dealt = [e.tile for e in state.exploration.values()] + list(state.removed_exploration)
    dealt += [t for p in state.players for t in p.kept_tiles]
    if len(dealt) > min(len(board.fog), box.total()) or Counter(dealt) - box:
        fail("exploration tiles are not conserved")
    for tid, tile in cat.buildings.items():
        on_map = sum(
            1 for t in state.tiles.values() if t.kind == "building" and cat.side_tile[t.id] == tid
        )
        if state.supply.get(tid, 0) < 0 or on_map + state.supply.get(tid, 0) > tile.count:
            fail(f"building tiles {tid} are not conserved")
    hands_c = sum(len(p.combat_cards) for p in state.players)
    in_battle = 0
    if state.combat:
        for side in (state.combat.attacker, state.combat.defender):
            in_battle += len(side.cards) if side is not None else 0
    total_c = sum(c.count for c in cat.combat_cards.values())
    if len(state.combat_deck) + len(state.combat_discard) + hands_c + in_battle != total_c:
        fail("combat cards are not conserved")
    hands_g = sum(len(p.gold_cards) for p in state.players)
    if len(state.gold_deck) + len(state.gold_discard) + hands_g != sum(
        c.count for c in cat.gold_cards.values()
    ):
        fail("gold cards are not conserved")
    ms = sum(len(d) for d in state.mission_decks.values()) + sum(
        len(p.missions) + len(p.revealed) + len(p.mission_offer) for p in state.players
    )
    if ms != len(cat.missions):
        fail(f"missions are not conserved ({ms} of {len(cat.missions)})")
    pa = (
        len(state.display)
        + sum(len(d) for d in state.painting_decks.values())
        + sum(len(p.paintings) for p in state.players)
    )
    if pa != len(cat.paintings):
        fail("paintings are not conserved")
    if state.phase != "ended" and not deciders(state):
        fail("nobody can act but the game is not over")
    # Hidden information: a view never shows another seat's secrets.
    for p in state.players if views else []:
        v = read[f"view(state, {p.seat})"]
        assert isinstance(v, GameState)
        for other in v.players:
            if other.seat != p.seat and any(
                x != HIDDEN for x in other.missions + other.gold_cards + other.combat_cards
            ):
                fail(f"seat {p.seat} can see seat {other.seat}'s cards")
    if round_trip:
        dumped = read.get("json")  # the state's JSON, already dumped (and unchanged) above
        again = GameState.model_validate_json(
            dumped if isinstance(dumped, str) else state.model_dump_json()
        )
        if again != state:
            fail("JSON round trip changed the state")
    if redeal:
        # the spectator every step, and one seat in turn (all of them over a game)
        seats: list[int | None] = [None, (state.rng.counter + state.round) % state.n]
        check_views_leak_nothing(state, seats, read)
    return read


def check_views_leak_nothing(
    state: GameState,
    seats: list[int | None] | None = None,
    read: dict[str, object] | None = None,
) -> None:
    """Views leak nothing: the hidden parts of the full state scrambled from a seat's (or a
    spectator's) point of view (:func:`devtools.brazil.scramble.scramble_hidden`, driven by the table of
    hidden fields but not by the masks) leave that seat's view unchanged; and a state dealt
    from the view (:func:`rules.brazil.determinize.determinize`) shows the same view and, for the
    spectator, keeps every invariant. ``seats``: whose views to check (default: the
    spectator and every seat). ``read``: the readers' results of :func:`check_readers_pure`
    for this state, whose views are reused."""
    rng = random.Random(f"{state.rng.seed}:{state.rng.counter}:redeal")
    read = read or {}
    for seat in [None, *range(state.n)] if seats is None else seats:
        who = "a spectator" if seat is None else f"seat {seat}"
        mine = read.get(f"view(state, {seat})")
        seen = mine if isinstance(mine, GameState) else view(state, seat)
        if view(scramble_hidden(state, seat, rng), seat) != seen:
            raise InvariantError(f"{who}'s view shows something a re-deal changes")
        det = determinize(state, seat, rng)
        if view(det, seat) != seen:
            raise InvariantError(f"{who}'s view is not kept by determinize")
        if seat is None:
            try:
                check_invariants(det, round_trip=False, redeal=False, views=False)
            except InvariantError as e:
                raise InvariantError(f"re-dealt state: {e}") from e


@dataclass
class Summary:
    games: int = 0
    finished: int = 0
    rounds: list[int] = field(default_factory=list)
    actions: int = 0
    seconds: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        avg = sum(self.rounds) / len(self.rounds) if self.rounds else 0.0
        rate = self.actions / self.seconds if self.seconds else 0.0
        return (
            f"games={self.games} natural_end={self.finished} avg_rounds={avg:.1f} "
            f"actions={self.actions} actions_per_s={rate:.0f} invariant_failures={len(self.failures)}"
        )


def play_random_game(
    players: int,
    seed: int,
    *,
    max_rounds: int = 60,
    check: bool = True,
    summary: Summary | None = None,
    map_id: str | None = None,
) -> GameState:
    """Play one game with uniformly random legal decisions. Returns the last state."""
    rng = random.Random(seed)
    state = new_game(players, seed, map_id)
    read = check_invariants(state) if check else {}
    steps = 0
    while state.phase != "ended" and state.round <= max_rounds:
        # listed once: the checks' own listing of this state (pure, checked) when it ran
        listed = read.get("legal_actions(state)")
        acts = listed if isinstance(listed, list) else legal_actions(state)
        if not acts:
            raise InvariantError(f"no legal action (game seed {seed}, step {steps})")
        action = rng.choice(acts)
        # a listed action of this very state: the trusted apply when no checks run (the
        # benchmark); with the checks, the checked one, which also proves the listing legal
        state, _events = apply(state, action, checked=check)
        steps += 1
        if summary is not None:
            summary.kinds[action.type] += 1
        if check:
            try:
                read = check_invariants(state)
            except InvariantError as e:
                raise InvariantError(
                    f"game seed {seed}, step {steps}, after {action!r}: {e}"
                ) from e
    if summary is not None:
        summary.games += 1
        summary.actions += steps
        summary.rounds.append(state.round)
        if state.phase == "ended":
            summary.finished += 1
    return state


def run_selfplay(
    players: int, games: int, seed: int, max_rounds: int = 60, check: bool = True
) -> Summary:
    summary = Summary()
    t0 = time.perf_counter()
    for i in range(games):
        n = players
        try:
            play_random_game(n, seed + i, max_rounds=max_rounds, check=check, summary=summary)
        except InvariantError as e:
            summary.failures.append(str(e))
            summary.games += 1
    summary.seconds = time.perf_counter() - t0
    return summary
