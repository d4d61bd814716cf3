"""The rules: new game, legal actions, apply, the resolution of an action's consequences.

``apply`` checks the action (a :class:`~rules.errors.RulesError` subclass naming the rule, and
the state untouched), copies the state, performs the action and then runs the action's
consequences in the order of T-TURN-3 — placement VP, the revolt or the wars, the monument
option, treasure collection — stopping whenever somebody must decide (``state.pending``).
When an action is complete and the turn's actions are used up, the turn ends (T-TURN-4):
monument VP, refill, end checks, next player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import compress

from pydantic import BaseModel

from rules.errors import IllegalAction, InvalidAction, NotYourDecision, RulesError
from rules.tigris.actions import NO_TILES, Action
from rules.tigris.data import (
    ACTIONS_PER_TURN,
    BLACK,
    BLUE,
    BOARD,
    CATASTROPHES,
    COLOURS,
    DYNASTIES,
    GREEN,
    HAND_SIZE,
    LABELS,
    LEADERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MONUMENT_COLOURS,
    MONUMENTS,
    NEIGHBOURS,
    RED,
    SIZE,
    TILE_COUNTS,
    TREASURES_END,
)
from rules.tigris.events import Event, event
from rules.tigris.kingdoms import BIT, NEIGHBOUR_MASK, Position, position, squares
from rules.tigris.messages import Param, msg, render
from rules.tigris.state import (
    CATASTROPHE,
    DOWN,
    EMPTY,
    LEADER,
    UP,
    Conflict,
    Options,
    Pending,
    Player,
    Rng,
    TigrisState,
)

NEIGHBOUR_SETS = tuple(frozenset(n) for n in NEIGHBOURS)
RIVER = tuple(i in BOARD.river for i in range(SIZE))
CORNERS = BOARD.corners
COLUMNS = BOARD.columns
ROWS = BOARD.rows
# which cell codes join regions (tiles face up or down, leaders; T-VOC-5)
CONNECTS = tuple((UP <= c < CATASTROPHE) or c >= LEADER for c in range(LEADER + 4 * MAX_PLAYERS))
TEMPLE = UP + RED


def _err(cls: type[RulesError], rule: str, key: str, **params: Param) -> RulesError:
    return cls(rule, render(key, params), key=key, params=params)


def who(state: TigrisState, seat: int) -> str:
    return "@tigris.dynasty." + state.players[seat].dynasty


# ----------------------------------------------------------------------------------- regions


def label_regions(cells: list[int], skip: int = -1) -> tuple[list[int], list[list[int]]]:
    """Region label per square (-1: not part of one) and each region's squares (T-VOC-5);
    ``skip`` is a square treated as empty (a lifted leader, the unification tile)."""
    lab = [-1] * SIZE
    regions: list[list[int]] = []
    conn = CONNECTS
    nbs = NEIGHBOURS
    for s in range(SIZE):
        if lab[s] != -1 or not conn[cells[s]] or s == skip:
            continue
        rid = len(regions)
        members = [s]
        lab[s] = rid
        for q in members:
            for n in nbs[q]:
                if lab[n] == -1 and conn[cells[n]] and n != skip:
                    lab[n] = rid
                    members.append(n)
        regions.append(members)
    return lab, regions


def region_of(cells: list[int], start: int, skip: int = -1) -> list[int]:
    """The squares of the region holding ``start`` (``skip`` treated as empty)."""
    conn = CONNECTS
    nbs = NEIGHBOURS
    seen = {start, skip}
    members = [start]
    for q in members:
        for n in nbs[q]:
            if n not in seen and conn[cells[n]]:
                seen.add(n)
                members.append(n)
    return members


def leaders_in(cells: list[int], squares: Iterable[int]) -> list[int]:
    """The squares of the leaders among ``squares``."""
    return [s for s in squares if cells[s] >= LEADER]


def is_kingdom(cells: list[int], squares: list[int]) -> bool:
    return any(cells[s] >= LEADER for s in squares)


def has_temple(cells: list[int], square: int) -> bool:
    return any(cells[n] == TEMPLE for n in NEIGHBOURS[square])


def temples_next_to(cells: list[int], square: int) -> int:
    return sum(1 for n in NEIGHBOURS[square] if cells[n] == TEMPLE)


def kingdom_labels(lab: list[int], regions: list[list[int]], cells: list[int]) -> list[bool]:
    return [is_kingdom(cells, r) for r in regions]


def adjacent_kingdoms(lab: list[int], kingdom: list[bool], square: int) -> set[int]:
    out: set[int] = set()
    for n in NEIGHBOURS[square]:
        r = lab[n]
        if r >= 0 and kingdom[r]:
            out.add(r)
    return out


# --------------------------------------------------------------------------------- new game


def new_game(
    players: int = 2, seed: int = 0, options: Options | dict[str, object] | None = None
) -> TigrisState:
    """A new game (T-SETUP-1 … -6): temples with treasures on the board, the rest in the bag,
    6 tiles drawn per player in seat order from the start player."""
    opts = options if isinstance(options, Options) else Options.model_validate(options or {})
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidAction(
            "T-SETUP-6", f"Tigris & Euphrates is for {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    if opts.board != BOARD.id:
        raise InvalidAction("T-VAR-1", f"unknown board {opts.board!r}: only 'standard'")
    dyn = list(opts.dynasties) or list(DYNASTIES[:players])
    if len(dyn) != players or len(set(dyn)) != players or not set(dyn) <= set(DYNASTIES):
        raise InvalidAction("T-SETUP-3", f"one dynasty per player among {', '.join(DYNASTIES)}")
    if not 0 <= opts.start < players:
        raise InvalidAction("T-SETUP-5", "the start player must be one of the seats")
    opts = opts.model_copy(update={"dynasties": dyn})
    cells = [EMPTY] * SIZE
    for t in BOARD.temples:
        cells[t] = TEMPLE
    bag = list(TILE_COUNTS)
    bag[RED] -= len(BOARD.temples)
    state = TigrisState(
        options=opts,
        rng=Rng(seed=seed),
        players=[
            Player(
                dynasty=d,
                hand=[0, 0, 0, 0],
                hand_size=0,
                leaders=[-1, -1, -1, -1],
                catastrophes=CATASTROPHES,
                score=[0, 0, 0, 0],
            )
            for d in dyn
        ],
        cells=cells,
        treasures=sorted(BOARD.temples),
        bag=bag,
        bag_size=sum(bag),
        removed=[0, 0, 0, 0],
        discarded=[0, 0, 0, 0],
        active=opts.start,
        actions_left=ACTIONS_PER_TURN,
    )
    events: list[Event] = []
    for i in range(players):
        _draw(state, (opts.start + i) % players, HAND_SIZE, events)
    state.last_progress = 0  # the setup's draws are no turn's
    return state


# ------------------------------------------------------------------------------ who decides


def deciders(state: TigrisState) -> list[int]:
    """The seats that must decide now (one at most: decisions are taken one at a time)."""
    if state.phase == "over":
        return []
    if state.pending:
        return [state.pending[0].seat]
    return [state.active]


def next_deciders(state: TigrisState) -> list[int]:
    """Who takes the next turn once the active player has finished theirs (T-TURN-4: the
    next seat in order), if the game goes on; a conflict's answers within the turn do not
    count. Nobody once the game is over."""
    if state.phase == "over":
        return []
    return [(state.active + 1) % len(state.players)]


def is_over(state: TigrisState) -> bool:
    return state.phase == "over"


def idle_turns(state: TigrisState) -> int:
    """The whole turns in a row, up to the current one, in which nothing moved the game
    towards its end (T-END): no tile drawn from the bag (none placed, swapped or committed)
    and no treasure taken — typically every player passing. Public: it reads the turn
    counter and :attr:`TigrisState.last_progress` only."""
    if state.phase == "over":
        return 0
    return max(0, state.turn - state.last_progress - 1)


def stalled(state: TigrisState) -> bool:
    """Whether the game stands still: a whole round of turns (one per player) in which
    nothing moved it towards its end (:func:`idle_turns`), and nothing in the current turn
    so far (no tile has left a hand, none was drawn). The rules allow it (a player may pass,
    T-TURN-2); the computer players then place a tile or swap, which draws from the bag by
    the turn's end, so a game of computer players always reaches its end (the bag is
    finite)."""
    return (
        idle_turns(state) >= len(state.players)
        and state.last_progress < state.turn
        and all(p.hand_size >= HAND_SIZE for p in state.players)
    )


# ----------------------------------------------------------------------------------- listing


def legal_actions(state: TigrisState) -> list[Action]:
    """Every legal action of the seat that must decide now (empty when the game is over)."""
    if state.phase == "over":
        return []
    if state.pending:
        return _pending_actions(state, state.pending[0])
    return _play_actions(state)


def _pending_actions(state: TigrisState, p: Pending) -> list[Action]:
    seat = p.seat
    if p.kind == "support":
        c = state.conflict
        assert c is not None
        n = state.players[seat].hand[c.colour]
        return [Action("support", seat, amount=k) for k in range(n + 1)]
    if p.kind == "war_order":
        return [Action("war_order", seat, colour=w) for w in _valid_wars(state)]
    if p.kind == "monument":
        out = [
            Action("monument", seat, square=tl, monument=m) for m, tl in _monument_options(state)
        ]
        out.append(Action("pass", seat))
        return out
    # treasure
    return [Action("treasure", seat, square=t) for t in _treasure_choices(state, p.square)]


_new = tuple.__new__
# every simple action, made once: listing is indexing (seat, colour, square)
_TILE = [
    [[_new(Action, ("tile", p, c, s, NO_TILES, 0, -1)) for s in range(SIZE)] for c in range(4)]
    for p in range(MAX_PLAYERS)
]
_LEADER = [
    [[_new(Action, ("leader", p, c, s, NO_TILES, 0, -1)) for s in range(SIZE)] for c in range(4)]
    for p in range(MAX_PLAYERS)
]
_CATASTROPHE = [
    [_new(Action, ("catastrophe", p, -1, s, NO_TILES, 0, -1)) for s in range(SIZE)]
    for p in range(MAX_PLAYERS)
]
_WITHDRAW = [[Action("withdraw", p, c) for c in range(4)] for p in range(MAX_PLAYERS)]
_PASS = [Action("pass", p) for p in range(MAX_PLAYERS)]
_SWAPS: dict[tuple[int, int, int, int], list[tuple[int, int, int, int]]] = {}
LAND_SQUARES = tuple(s for s in range(SIZE) if not RIVER[s])
RIVER_SQUARES = tuple(s for s in range(SIZE) if RIVER[s])


# cell codes a catastrophe may cover (T-CATASTROPHE-2: empty or a face-up tile)
CAT_OK = tuple(c == EMPTY or UP <= c < DOWN for c in range(LEADER + 4 * MAX_PLAYERS))


def _play_actions(state: TigrisState) -> list[Action]:
    """The active player's actions, from the board's cached kingdoms
    (:mod:`rules.tigris.kingdoms`); exactly what :func:`_play_actions_walk` lists, which
    walks the board square by square and stays the reference (and the way for a state whose
    board the bitboards cannot read, or whose leaders and board disagree)."""
    seat = state.active
    if state.actions_left <= 0:
        return [_PASS[seat]]
    pos = position(state.cells)
    if pos is None or not _leaders_agree(state, pos):
        return _play_actions_walk(state)
    try:
        treasures = bytes(state.treasures)
    except (ValueError, TypeError):
        return _play_actions_walk(state)
    pl = state.players[seat]
    hand = pl.hand
    river, land = pos.selectors()
    tiles = _TILE[seat]
    out: list[Action] = list(compress(tiles[BLUE], river)) if hand[BLUE] > 0 else []
    for c in (BLACK, RED, GREEN):
        if hand[c] > 0:
            out += compress(tiles[c], land)
    leaders = pl.leaders
    rows = _LEADER[seat]
    for c in range(4):
        origin = leaders[c]
        row = rows[c]
        if origin < 0:
            out += [row[s] for s in pos.supply_spots()]
        else:
            out.append(_WITHDRAW[seat][c])
            out += [row[s] for s in pos.relocation_spots(origin)]
    if pl.catastrophes > 0:
        out += compress(_CATASTROPHE[seat], pos.catastrophe_squares(treasures))
    if pl.hand_size > 0:
        out += _swap_actions(seat, hand)
    out.append(_PASS[seat])
    return out


def _leaders_agree(state: TigrisState, pos: Position) -> bool:
    """Whether the players' leaders are exactly the leaders on the board (as in every state
    the engine makes: ``check_conservation``)."""
    cells = state.cells
    n = 0
    for seat, p in enumerate(state.players):
        code = LEADER + 4 * seat
        for q in p.leaders:
            if q >= 0:
                if q >= SIZE or cells[q] != code:
                    return False
                n += 1
            code += 1
    return n == pos.leaders.bit_count()


_SWAP_ACTIONS: dict[tuple[int, int, int, int, int], list[Action]] = {}


def _swap_actions(seat: int, hand: list[int]) -> list[Action]:
    key = (seat, hand[0], hand[1], hand[2], hand[3])
    got = _SWAP_ACTIONS.get(key)
    if got is None:
        got = _SWAP_ACTIONS[key] = [
            _new(Action, ("swap", seat, -1, -1, t, 0, -1)) for t in _sub_multisets(hand)
        ]
    return got


def _play_actions_walk(state: TigrisState) -> list[Action]:
    seat = state.active
    out: list[Action] = []
    if state.actions_left > 0:
        pl = state.players[seat]
        cells = state.cells
        lab, regions = label_regions(cells)
        kingdom = [False] * len(regions)
        for p in state.players:
            for q in p.leaders:
                if q >= 0:
                    kingdom[lab[q]] = True
        nbs = NEIGHBOURS
        nbsets = NEIGHBOUR_SETS
        hand = pl.hand
        # how many kingdoms touch each empty square (T-TILE-4, T-LEADER-4)
        adj: Counter[int] = Counter()
        for r, members in enumerate(regions):
            if kingdom[r]:
                adj.update(set().union(*[nbsets[m] for m in members]))
        bad = [s for s, k in adj.items() if k > 2 and cells[s] == EMPTY]
        tiles = _TILE[seat]
        if hand[BLUE] > 0:
            row = tiles[BLUE]
            out += [row[s] for s in RIVER_SQUARES if cells[s] == EMPTY]
        land = [s for s in LAND_SQUARES if cells[s] == EMPTY]
        for c in (BLACK, RED, GREEN):
            if hand[c] > 0:
                row = tiles[c]
                out += [row[s] for s in land]
        if bad:
            drop = {tiles[c][s] for s in bad for c in range(4)}
            out = [a for a in out if a not in drop]
        # leaders: empty land squares next to a temple
        spots = sorted(
            {n for s in range(SIZE) if cells[s] == TEMPLE for n in nbs[s] if cells[n] == EMPTY}
        )
        spots = [s for s in spots if not RIVER[s]]
        leaders = _LEADER[seat]
        spot_kingdoms: dict[int, set[int]] | None = None
        for c in range(4):
            origin = pl.leaders[c]
            row = leaders[c]
            if origin < 0:
                out += [row[s] for s in spots if adj[s] <= 1]
            else:
                if spot_kingdoms is None:
                    spot_kingdoms = {
                        s: {lab[n] for n in nbs[s] if lab[n] >= 0 and kingdom[lab[n]]}
                        for s in spots
                    }
                out.append(_WITHDRAW[seat][c])
                out += [row[s] for s in _relocations(cells, lab, regions, spot_kingdoms, origin)]
        if pl.catastrophes > 0:
            tr = set(state.treasures)
            row = _CATASTROPHE[seat]
            ok = CAT_OK
            out += [row[s] for s in range(SIZE) if ok[cells[s]] and s not in tr]
        if pl.hand_size > 0:
            out += [_new(Action, ("swap", seat, -1, -1, t, 0, -1)) for t in _sub_multisets(hand)]
    out.append(_PASS[seat])
    return out


def _relocations(
    cells: list[int],
    lab: list[int],
    regions: list[list[int]],
    spot_kingdoms: dict[int, set[int]],
    origin: int,
) -> list[int]:
    """The squares among the spots (empty land next to a temple, with the kingdoms next to
    each) a leader on ``origin`` may move to (T-LEADER-5: judged with it lifted)."""
    home = lab[origin]
    out: list[int] = []
    sub: dict[int, int] | None = None
    sub_kingdom: list[bool] = []
    for s, ks in spot_kingdoms.items():
        if home not in ks:
            if len(ks) <= 1:
                out.append(s)
            continue
        if sub is None:
            # the former region without the leader: its parts, each a kingdom or not
            sub = {}
            saved = cells[origin]
            cells[origin] = EMPTY
            touching = [n for n in NEIGHBOURS[origin] if CONNECTS[cells[n]]]
            if len(touching) == 1:  # lifting splits nothing
                rest = [m for m in regions[home] if m != origin]
                sub = dict.fromkeys(rest, 0)
                sub_kingdom.append(any(cells[m] >= LEADER for m in rest))
            else:
                for t in touching:
                    if t in sub:
                        continue
                    part = region_of(cells, t)
                    k = len(sub_kingdom)
                    for m in part:
                        sub[m] = k
                    sub_kingdom.append(is_kingdom(cells, part))
            cells[origin] = saved
        n_k = len(ks) - 1
        parts = {sub[n] for n in NEIGHBOURS[s] if n in sub and sub_kingdom[sub[n]]}
        if n_k + len(parts) <= 1:
            out.append(s)
    return out


def _sub_multisets(hand: list[int]) -> list[tuple[int, int, int, int]]:
    key = (hand[0], hand[1], hand[2], hand[3])
    if key in _SWAPS:
        return _SWAPS[key]
    out = []
    for a in range(hand[0] + 1):
        for b in range(hand[1] + 1):
            for c in range(hand[2] + 1):
                for d in range(hand[3] + 1):
                    if a + b + c + d:
                        out.append((a, b, c, d))
    _SWAPS[key] = out
    return out


# ------------------------------------------------------------------------------------ apply


def apply(state: TigrisState, action: Action) -> tuple[TigrisState, list[Event]]:
    """The state after ``action`` and the events; an illegal action raises a RulesError
    naming the rule, and ``state`` is never changed."""
    check(state, action)
    g = state.clone()
    events: list[Event] = []
    _perform(g, action, events)
    _advance(g, events)
    return g, events


def check(state: TigrisState, a: Action) -> None:
    """Raise the RulesError that forbids ``a`` in ``state``; return if it is legal."""
    if state.view_of != -1:
        raise InvalidAction("", "a redacted view cannot be played; determinize it first")
    if state.phase == "over":
        raise _err(IllegalAction, "T-END-1", "tigris.error.over")
    if not isinstance(a, Action):
        raise InvalidAction("", f"not an action: {a!r}")
    decider = deciders(state)[0]
    if a.seat != decider:
        raise _err(
            NotYourDecision, "T-TURN-5", "tigris.error.not_yours", player=who(state, decider)
        )
    if state.pending:
        p = state.pending[0]
        expected = {
            "support": ("support",),
            "war_order": ("war_order",),
            "monument": ("monument", "pass"),
            "treasure": ("treasure",),
        }[p.kind]
        if a.kind not in expected:
            raise _err(
                IllegalAction,
                {"support": "T-CONFLICT-3", "war_order": "T-WAR-4"}.get(
                    p.kind, "T-MONUMENT-2" if p.kind == "monument" else "T-TREASURE-2"
                ),
                "tigris.error.wrong_kind",
                expected="@tigris.decision." + p.kind,
            )
        _check_pending(state, p, a)
        return
    if a.kind not in ("tile", "leader", "withdraw", "catastrophe", "swap", "pass"):
        if a.kind in ("support", "war_order", "monument", "treasure"):
            raise _err(
                IllegalAction,
                "T-TURN-1",
                "tigris.error.wrong_kind",
                expected="@tigris.decision.action",
            )
        raise _err(InvalidAction, "", "tigris.error.unknown", kind=str(a.kind))
    if a.kind == "pass":
        return
    if state.actions_left <= 0:
        raise _err(IllegalAction, "T-TURN-1", "tigris.error.no_actions")
    pl = state.players[a.seat]
    if a.kind in ("tile", "leader", "withdraw") and not 0 <= a.colour < 4:
        raise InvalidAction("", f"unknown colour {a.colour}")
    if a.kind in ("tile", "leader", "catastrophe") and not 0 <= a.square < SIZE:
        raise _err(InvalidAction, "", "tigris.error.off_board", square=str(a.square))
    cells = state.cells
    if a.kind == "tile":
        _check_tile(state, a)
    elif a.kind == "leader":
        _check_leader(state, a)
    elif a.kind == "withdraw":
        if pl.leaders[a.colour] < 0:
            raise _err(
                IllegalAction,
                "T-LEADER-6",
                "tigris.error.leader_not_on_board",
                leader="@tigris.leader." + LEADERS[a.colour],
            )
    elif a.kind == "catastrophe":
        s = a.square
        sq = LABELS[s]
        if pl.catastrophes <= 0:
            raise _err(IllegalAction, "T-CATASTROPHE-1", "tigris.error.no_catastrophe")
        v = cells[s]
        if v >= LEADER:
            raise _err(
                IllegalAction, "T-CATASTROPHE-2", "tigris.error.catastrophe_leader", square=sq
            )
        if v == CATASTROPHE:
            raise _err(
                IllegalAction, "T-CATASTROPHE-2", "tigris.error.catastrophe_twice", square=sq
            )
        if DOWN <= v < CATASTROPHE:
            raise _err(
                IllegalAction, "T-MONUMENT-6", "tigris.error.catastrophe_monument", square=sq
            )
        if s in state.treasures:
            raise _err(
                IllegalAction, "T-CATASTROPHE-2", "tigris.error.catastrophe_treasure", square=sq
            )
    elif a.kind == "swap":
        t = a.tiles
        if len(t) != 4 or any(n < 0 for n in t):
            raise _err(InvalidAction, "T-SWAP-1", "tigris.error.swap_hand")
        if sum(t) == 0:
            raise _err(IllegalAction, "T-SWAP-1", "tigris.error.swap_none")
        if any(n > h for n, h in zip(t, pl.hand, strict=True)):
            raise _err(IllegalAction, "T-SWAP-1", "tigris.error.swap_hand")


def _check_tile(state: TigrisState, a: Action) -> None:
    s, c = a.square, a.colour
    sq = LABELS[s]
    if state.players[a.seat].hand[c] <= 0:
        raise _err(
            IllegalAction, "T-TILE-1", "tigris.error.no_tile", colour="@tigris.colour." + COLOURS[c]
        )
    if state.cells[s] != EMPTY:
        raise _err(IllegalAction, "T-TILE-1", "tigris.error.not_empty", square=sq)
    if RIVER[s] and c != BLUE:
        raise _err(IllegalAction, "T-TILE-2", "tigris.error.river_blue", square=sq)
    if not RIVER[s] and c == BLUE:
        raise _err(IllegalAction, "T-TILE-2", "tigris.error.land_not_blue", square=sq)
    n = _kingdoms_next_to(state.cells, s)
    if n > 2:
        raise _err(IllegalAction, "T-TILE-4", "tigris.error.three_kingdoms", square=sq, n=n)


def _kingdoms_next_to(cells: list[int], s: int, skip: int = -1) -> int:
    """How many different kingdoms touch square ``s`` (``skip``: a square treated as empty)."""
    if skip < 0:
        pos = position(cells)
        if pos is not None:
            return pos.kingdoms_next_to(s)
    seen: list[list[int]] = []
    count = 0
    for n in NEIGHBOURS[s]:
        if n == skip or not CONNECTS[cells[n]] or any(n in r for r in seen):
            continue
        r = region_of(cells, n, skip)
        seen.append(r)
        if is_kingdom(cells, r):
            count += 1
    return count


def _check_leader(state: TigrisState, a: Action) -> None:
    s, c = a.square, a.colour
    sq = LABELS[s]
    cells = state.cells
    origin = state.players[a.seat].leaders[c]
    if origin == s:
        raise _err(
            IllegalAction,
            "T-LEADER-5",
            "tigris.error.leader_same",
            leader="@tigris.leader." + LEADERS[c],
            square=sq,
        )
    if cells[s] != EMPTY:
        raise _err(IllegalAction, "T-LEADER-1", "tigris.error.not_empty", square=sq)
    if RIVER[s]:
        raise _err(IllegalAction, "T-LEADER-3", "tigris.error.leader_river", square=sq)
    if not has_temple(cells, s):
        raise _err(IllegalAction, "T-LEADER-2", "tigris.error.leader_temple", square=sq)
    if _unites(cells, s, origin):
        raise _err(IllegalAction, "T-LEADER-4", "tigris.error.leader_unites", square=sq)


def _unites(cells: list[int], s: int, origin: int) -> bool:
    """Whether a leader placed on the spot ``s`` (empty land next to a temple), coming from
    ``origin`` (-1: the supply), would touch two kingdoms (T-LEADER-4, judged with the
    leader lifted: T-LEADER-5): the cached kingdoms' relocations when ``origin`` holds a
    leader, else the walk."""
    if origin < 0:
        return _kingdoms_next_to(cells, s) > 1
    if origin < SIZE and cells[origin] >= LEADER:
        pos = position(cells)
        if pos is not None:
            return s not in pos.relocation_spots(origin)
    return _kingdoms_next_to(cells, s, skip=origin) > 1


def _check_pending(state: TigrisState, p: Pending, a: Action) -> None:
    if p.kind == "support":
        c = state.conflict
        assert c is not None
        n = state.players[a.seat].hand[c.colour]
        if not 0 <= a.amount <= n:
            raise _err(
                IllegalAction,
                "T-REVOLT-3" if c.kind == "revolt" else "T-WAR-7",
                "tigris.error.support_range",
                n=n,
                colour="@tigris.colour." + COLOURS[c.colour],
            )
    elif p.kind == "war_order":
        wars = _valid_wars(state)
        if a.colour not in wars:
            raise _err(
                IllegalAction,
                "T-WAR-4",
                "tigris.error.war_order",
                colour="@tigris.colour." + COLOURS[a.colour]
                if 0 <= a.colour < 4
                else str(a.colour),
                choices=["@tigris.colour." + COLOURS[w] for w in wars],
            )
    elif p.kind == "monument":
        if a.kind == "monument" and (a.monument, a.square) not in _monument_options(state):
            raise _err(
                IllegalAction,
                "T-MONUMENT-1" if 0 <= a.monument < len(MONUMENTS) else "T-COMP-2",
                "tigris.error.monument",
                monument="@tigris.monument." + MONUMENTS[a.monument]
                if 0 <= a.monument < len(MONUMENTS)
                else str(a.monument),
                square=LABELS[a.square] if 0 <= a.square < SIZE else str(a.square),
            )
    elif p.kind == "treasure":
        choices = _treasure_choices(state, p.square)
        if a.square not in choices:
            names: list[Param] = [LABELS[t] for t in choices]
            sq = LABELS[a.square] if 0 <= a.square < SIZE else str(a.square)
            if a.square in state.treasures and a.square in region_of(state.cells, p.square):
                raise _err(
                    IllegalAction, "T-TREASURE-3", "tigris.error.treasure_corner", choices=names
                )
            raise _err(
                IllegalAction, "T-TREASURE-2", "tigris.error.treasure", square=sq, choices=names
            )


# ------------------------------------------------------------------------------- performing


def _perform(g: TigrisState, a: Action, events: list[Event]) -> None:
    kind = a.kind
    if g.pending:
        p = g.pending.pop(0)
        if p.kind == "support":
            _support(g, a, events)
        elif p.kind == "war_order":
            _start_war(g, a.colour, events)
        elif p.kind == "monument":
            if kind == "pass":
                events.append(event("tigris.monument.declined", {"player": who(g, a.seat)}))
            else:
                _build_monument(g, a.monument, a.square, events)
            g.stage = "treasure"
        else:
            _take_treasure(g, a.seat, a.square, events)
        return
    if kind == "pass":
        _end_turn(g, events)
        return
    if kind == "tile":
        _place_tile(g, a, events)
    elif kind == "leader":
        _place_leader(g, a, events)
    elif kind == "withdraw":
        pl = g.players[a.seat]
        s = pl.leaders[a.colour]
        g.cells[s] = EMPTY
        pl.leaders[a.colour] = -1
        events.append(
            event(
                "tigris.leader.withdraw",
                {
                    "player": who(g, a.seat),
                    "leader": "@tigris.leader." + LEADERS[a.colour],
                    "square": LABELS[s],
                },
            )
        )
        g.stage = "treasure"
    elif kind == "catastrophe":
        _catastrophe(g, a, events)
    elif kind == "swap":
        _swap(g, a, events)


def _place_tile(g: TigrisState, a: Action, events: list[Event]) -> None:
    s, c, seat = a.square, a.colour, a.seat
    cells = g.cells
    pl = g.players[seat]
    # the leaders of the kingdoms next to the square, before the tile (T-TILE-4, T-WAR-1)
    kingdoms = _kingdom_leaders_next_to(cells, s)
    pl.hand[c] -= 1
    _put(pl, "hand_size", pl.hand_size - 1)
    cells[s] = UP + c
    _put(g, "placed", s)
    events.append(
        event(
            "tigris.tile",
            {"player": who(g, seat), "colour": "@tigris.colour." + COLOURS[c], "square": LABELS[s]},
        )
    )
    if len(kingdoms) == 2:
        # T-WAR-1: the unification tile; no VP for the tile (T-SCORE-2)
        g.unification = s
        events.append(event("tigris.unify", {"square": LABELS[s]}))
        colours_a = {cells[q] & 3 for q in kingdoms[0]}
        colours_b = {cells[q] & 3 for q in kingdoms[1]}
        g.wars = sorted(colours_a & colours_b)
        g.stage = "war"
        return
    # T-SCORE-1: a leader of the tile's colour in the kingdom, else its king
    if kingdoms:
        leaders = kingdoms[0]
        target = -1
        for q in leaders:
            if (cells[q] - LEADER) & 3 == c:
                target = q
        if target < 0:
            for q in leaders:
                if (cells[q] - LEADER) & 3 == BLACK:
                    target = q
        if target >= 0:
            owner = (cells[target] - LEADER) >> 2
            _gain(g, owner, c, 1, "tigris.score.tile", events, square=LABELS[s])
    g.stage = "monument"


def _kingdom_leaders_next_to(cells: list[int], s: int) -> list[list[int]]:
    """The leaders' squares of each kingdom next to the empty square ``s``, from the cached
    kingdoms; walking the regions (in the order met around ``s``, each region's leaders in
    the order of its walk) when the bitboards cannot say, or when a kingdom holds two
    leaders of one colour (never outside a conflict: then the walk's order would matter)."""
    pos = position(cells)
    if pos is not None:
        nb = NEIGHBOUR_MASK[s]
        out: list[list[int]] = []
        for k in pos.kingdoms:
            if k & nb:
                leaders = squares(k & pos.leaders)
                if len({(cells[q] - LEADER) & 3 for q in leaders}) != len(leaders):
                    break
                out.append(leaders)
        else:
            return out
    kingdoms: list[list[int]] = []
    seen: set[int] = set()
    for n in NEIGHBOURS[s]:
        if n in seen or not CONNECTS[cells[n]]:
            continue
        r = region_of(cells, n)
        seen.update(r)
        if is_kingdom(cells, r):
            kingdoms.append(leaders_in(cells, r))
    return kingdoms


def _region_mask(cells: list[int], s: int) -> int:
    """The squares of ``region_of(cells, s)`` as a bitboard when ``s`` holds a leader (its
    kingdom, cached); 0 when the cached kingdoms cannot say (walk then)."""
    if 0 <= s < SIZE and cells[s] >= LEADER:
        pos = position(cells)
        if pos is not None:
            return pos.kingdom_of(s)
    return 0


def _gain(
    g: TigrisState, seat: int, colour: int, n: int, key: str, events: list[Event], **params: Param
) -> None:
    g.players[seat].score[colour] += n
    events.append(
        event(
            key,
            {
                "player": who(g, seat),
                "colour": "@tigris.colour." + COLOURS[colour],
                "n": n,
                **params,
            },
        )
    )


def _place_leader(g: TigrisState, a: Action, events: list[Event]) -> None:
    s, c, seat = a.square, a.colour, a.seat
    cells = g.cells
    pl = g.players[seat]
    origin = pl.leaders[c]
    if origin >= 0:
        cells[origin] = EMPTY
    cells[s] = LEADER + 4 * seat + c
    pl.leaders[c] = s
    params: dict[str, Param] = {
        "player": who(g, seat),
        "leader": "@tigris.leader." + LEADERS[c],
        "square": LABELS[s],
    }
    if origin >= 0:
        params["origin"] = LABELS[origin]
        events.append(event("tigris.leader.move", params))
    else:
        events.append(event("tigris.leader.place", params))
    g.stage = "treasure"
    # T-REVOLT-1: a leader of the same colour already in the kingdom
    for q in _same_colour_leaders(cells, s, c):
        v = cells[q] - LEADER
        if q != s and v & 3 == c:
            defender = v >> 2
            g.conflict = Conflict(
                kind="revolt",
                colour=RED,
                attacker=seat,
                defender=defender,
                attacker_square=s,
                defender_square=q,
                attacker_base=temples_next_to(cells, s),
                defender_base=temples_next_to(cells, q),
            )
            g.stage = "revolt"
            g.pending = [Pending(kind="support", seat=seat)]
            cf = g.conflict
            events.append(
                event(
                    "tigris.revolt.start",
                    {
                        "colour": "@tigris.colour." + COLOURS[c],
                        "attacker": who(g, seat),
                        "defender": who(g, defender),
                        "abase": cf.attacker_base,
                        "dbase": cf.defender_base,
                    },
                )
            )
            return


def _same_colour_leaders(cells: list[int], s: int, c: int) -> list[int]:
    """The leaders of colour ``c`` in the region of ``s`` (a leader's square) but ``s``, in
    the region's walk order: from the cached kingdoms when there is at most one."""
    pos = position(cells) if 0 <= s < SIZE and cells[s] >= LEADER else None
    if pos is not None:
        k = pos.kingdom_of(s)
        out = [q for q in squares(k & pos.leaders) if q != s and (cells[q] - LEADER) & 3 == c]
        if len(out) <= 1:
            return out
    return [
        q for q in leaders_in(cells, region_of(cells, s)) if q != s and (cells[q] - LEADER) & 3 == c
    ]


def _catastrophe(g: TigrisState, a: Action, events: list[Event]) -> None:
    s = a.square
    cells = g.cells
    pl = g.players[a.seat]
    pl.catastrophes -= 1
    v = cells[s]
    events.append(event("tigris.catastrophe", {"player": who(g, a.seat), "square": LABELS[s]}))
    if UP <= v < DOWN:
        g.removed[v - UP] += 1
        events.append(
            event(
                "tigris.catastrophe.tile",
                {"colour": "@tigris.colour." + COLOURS[v - UP], "square": LABELS[s]},
            )
        )
    cells[s] = CATASTROPHE
    _leaders_without_temple(g, events)
    g.stage = "treasure"


def _swap(g: TigrisState, a: Action, events: list[Event]) -> None:
    pl = g.players[a.seat]
    n = sum(a.tiles)
    for c in range(4):
        pl.hand[c] -= a.tiles[c]
        g.discarded[c] += a.tiles[c]
    pl.hand_size -= n
    g.discarded_size += n
    events.append(event("tigris.swap", {"player": who(g, a.seat), "n": n}))
    if not _draw(g, a.seat, n, events):
        _game_over(g, "bag", events)  # T-SWAP-3, T-END-3: at once
        return
    g.stage = "treasure"


def _draw(g: TigrisState, seat: int, n: int, events: list[Event]) -> bool:
    """Draw ``n`` tiles for ``seat``; False when the bag could not supply them all (the seat
    takes what is left, T-END-2)."""
    if n <= 0:
        return True
    enough = g.bag_size >= n
    take = min(n, g.bag_size)
    got = [0, 0, 0, 0]
    if take:
        r = g.rng.next()
        bag = g.bag
        size = g.bag_size
        for _ in range(take):
            k = r.randrange(size)
            c = 0
            while k >= bag[c]:
                k -= bag[c]
                c += 1
            bag[c] -= 1
            got[c] += 1
            size -= 1
        _put(g, "bag_size", size)
        _put(g, "last_progress", g.turn)
        pl = g.players[seat]
        for c in range(4):
            pl.hand[c] += got[c]
        _put(pl, "hand_size", pl.hand_size + take)
    events.append(event("tigris.draw", {"player": who(g, seat), "n": take}, reveals=take > 0))
    if take:
        tiles: list[Param] = []
        for c in range(4):
            tiles.extend(["@tigris.colour." + COLOURS[c]] * got[c])
        events.append(
            event("tigris.draw.private", {"tiles": tiles}, visible_to=(seat,), reveals=True)
        )
    return enough


def _leaders_without_temple(g: TigrisState, events: list[Event]) -> None:
    """T-LEADER-8: every leader with no temple beside it returns to its owner's supply."""
    cells = g.cells
    for seat, pl in enumerate(g.players):
        for c in range(4):
            s = pl.leaders[c]
            if s >= 0 and not has_temple(cells, s):
                cells[s] = EMPTY
                pl.leaders[c] = -1
                events.append(
                    event(
                        "tigris.leader.no_temple",
                        {
                            "player": who(g, seat),
                            "leader": "@tigris.leader." + LEADERS[c],
                            "square": LABELS[s],
                        },
                    )
                )


# -------------------------------------------------------------------------------- conflicts


def _support(g: TigrisState, a: Action, events: list[Event]) -> None:
    c = g.conflict
    assert c is not None
    pl = g.players[a.seat]
    pl.hand[c.colour] -= a.amount
    pl.hand_size -= a.amount
    g.removed[c.colour] += a.amount
    if a.amount and a.seat not in g.committed:
        g.committed.append(a.seat)
    events.append(
        event(
            "tigris.support",
            {
                "player": who(g, a.seat),
                "n": a.amount,
                "colour": "@tigris.colour." + COLOURS[c.colour],
            },
        )
    )
    if c.attacker_commit < 0:
        c.attacker_commit = a.amount
        g.pending = [Pending(kind="support", seat=c.defender)]
        return
    c.defender_commit = a.amount
    _resolve_conflict(g, events)


def _resolve_conflict(g: TigrisState, events: list[Event]) -> None:
    c = g.conflict
    assert c is not None
    att = c.attacker_base + c.attacker_commit
    dfn = c.defender_base + c.defender_commit
    attacker_wins = att > dfn  # T-CONFLICT-3: ties to the defender
    winner, loser = (c.attacker, c.defender) if attacker_wins else (c.defender, c.attacker)
    lsq = c.defender_square if attacker_wins else c.attacker_square
    events.append(
        event(
            "tigris.conflict.won",
            {"winner": who(g, winner), "wtotal": max(att, dfn), "ltotal": min(att, dfn)},
        )
    )
    cells = g.cells
    lcolour = (cells[lsq] - LEADER) & 3
    if c.kind == "revolt":
        _remove_leader(g, lsq, "tigris.leader.lost", events)
        _gain(g, winner, RED, 1, "tigris.score.revolt", events)  # T-REVOLT-4
        g.conflict = None
        g.stage = "treasure"
        return
    # war: T-WAR-8, T-WAR-9
    side = region_of(cells, lsq, g.unification)
    _remove_leader(g, lsq, "tigris.leader.lost", events)
    w = c.colour
    removed: list[Param] = []
    for s in side:
        if cells[s] != UP + w:
            continue
        if w == RED and (s in g.treasures or any(cells[n] >= LEADER for n in NEIGHBOURS[s])):
            continue
        cells[s] = EMPTY
        g.removed[w] += 1
        removed.append(LABELS[s])
    assert lcolour == w
    if removed:  # no tile of the loser's side removed: nothing to tell (no empty list)
        events.append(
            event(
                "tigris.war.removed",
                {"player": who(g, loser), "n": len(removed), "squares": removed},
            )
        )
    _gain(g, winner, w, len(removed) + 1, "tigris.score.war", events)
    _leaders_without_temple(g, events)
    g.conflict = None
    g.wars = [x for x in g.wars if x != w]


def _remove_leader(g: TigrisState, s: int, key: str, events: list[Event]) -> None:
    v = g.cells[s] - LEADER
    seat, colour = v >> 2, v & 3
    g.cells[s] = EMPTY
    g.players[seat].leaders[colour] = -1
    events.append(
        event(
            key,
            {
                "player": who(g, seat),
                "leader": "@tigris.leader." + LEADERS[colour],
                "square": LABELS[s],
            },
        )
    )


def _war_leaders(g: TigrisState, colour: int) -> list[int]:
    """The squares of the leaders of ``colour`` in the unified kingdom."""
    cells = g.cells
    want = colour
    return [
        q
        for q in region_of(cells, g.unification)
        if cells[q] >= LEADER and (cells[q] - LEADER) & 3 == want
    ]


def _valid_wars(g: TigrisState) -> list[int]:
    """The wars still to fight (T-WAR-10: a war whose leaders no longer face each other lapses)."""
    if g.unification < 0:
        return []
    region = region_of(g.cells, g.unification)
    cells = g.cells
    count = [0, 0, 0, 0]
    for q in region:
        if cells[q] >= LEADER:
            count[(cells[q] - LEADER) & 3] += 1
    return [w for w in g.wars if count[w] == 2]


def _start_war(g: TigrisState, colour: int, events: list[Event]) -> None:
    cells = g.cells
    a_sq, b_sq = _war_leaders(g, colour)
    a_seat, b_seat = (cells[a_sq] - LEADER) >> 2, (cells[b_sq] - LEADER) >> 2
    n = len(g.players)
    # T-WAR-5: the active player, else the first going left from the active player
    order = [(g.active + i) % n for i in range(n)]
    if order.index(b_seat) < order.index(a_seat):
        a_sq, b_sq, a_seat, b_seat = b_sq, a_sq, b_seat, a_seat

    def base(sq: int) -> int:
        return sum(1 for q in region_of(cells, sq, g.unification) if cells[q] == UP + colour)

    g.conflict = Conflict(
        kind="war",
        colour=colour,
        attacker=a_seat,
        defender=b_seat,
        attacker_square=a_sq,
        defender_square=b_sq,
        attacker_base=base(a_sq),
        defender_base=base(b_sq),
    )
    g.pending = [Pending(kind="support", seat=a_seat)]
    events.append(
        event(
            "tigris.war.start",
            {
                "colour": "@tigris.colour." + COLOURS[colour],
                "attacker": who(g, a_seat),
                "defender": who(g, b_seat),
                "abase": g.conflict.attacker_base,
                "dbase": g.conflict.defender_base,
            },
        )
    )


# ------------------------------------------------------------------------ monuments, treasures


# the top-left squares of the 2 x 2 blocks holding each square (T-MONUMENT-1)
_BLOCKS = tuple(
    tuple(
        ty * COLUMNS + tx
        for tx in (s % COLUMNS - 1, s % COLUMNS)
        for ty in (s // COLUMNS - 1, s // COLUMNS)
        if 0 <= tx < COLUMNS - 1 and 0 <= ty < ROWS - 1
    )
    for s in range(SIZE)
)


def _monument_options(g: TigrisState) -> list[tuple[int, int]]:
    """(monument, top-left square) pairs the active player may build now (T-MONUMENT-1, -2)."""
    s = g.placed
    if s < 0:
        return []
    cells = g.cells
    v = cells[s]
    if not UP <= v < DOWN:
        return []
    c = v - UP
    w = COLUMNS
    squares = [
        tl
        for tl in _BLOCKS[s]
        if cells[tl] == v and cells[tl + 1] == v and cells[tl + w] == v and cells[tl + w + 1] == v
    ]
    if not squares:
        return []
    free = [
        m for m, cs in enumerate(MONUMENT_COLOURS) if c in cs and MONUMENTS[m] not in g.monuments
    ]
    return [(m, tl) for tl in sorted(squares) for m in free]


def _build_monument(g: TigrisState, m: int, tl: int, events: list[Event]) -> None:
    cells = g.cells
    for q in (tl, tl + 1, tl + COLUMNS, tl + COLUMNS + 1):
        cells[q] = cells[q] - UP + DOWN
    g.monuments[MONUMENTS[m]] = tl
    events.append(
        event(
            "tigris.monument.built",
            {
                "player": who(g, g.active),
                "monument": "@tigris.monument." + MONUMENTS[m],
                "square": LABELS[tl],
            },
        )
    )
    _leaders_without_temple(g, events)  # T-MONUMENT-4, T-LEADER-8


def _treasure_kingdoms(g: TigrisState) -> list[tuple[int, list[int]]]:
    """(trader's owner, the kingdom's treasures) for each kingdom with a trader and 2+
    treasures (T-TREASURE-2)."""
    cells = g.cells
    traders: list[tuple[int, int]] = []
    pos: Position | None = None
    for seat, pl in enumerate(g.players):
        s = pl.leaders[GREEN]
        if s >= 0:
            if pos is None:
                pos = position(cells)
            if pos is None or s >= SIZE or cells[s] < LEADER:
                return _treasure_kingdoms_walk(g)
            traders.append((seat, s))
    out: list[tuple[int, list[int]]] = []
    if not traders:
        return out
    assert pos is not None
    try:
        treasures = bytes(g.treasures)
    except ValueError:
        return _treasure_kingdoms_walk(g)
    if len(set(treasures)) != len(treasures):  # a square counted twice: walk
        return _treasure_kingdoms_walk(g)
    rich = pos.rich(treasures)
    if not rich:  # no kingdom holds two treasures
        return out
    traders = [(seat, pos.kingdom_of(s)) for seat, s in traders]
    held = 0  # the treasures' squares
    for t in g.treasures:
        if 0 <= t < SIZE:
            held |= BIT[t]
    done = 0
    for seat, k in traders:
        if k & done:
            continue
        done |= k
        if (k & held).bit_count() >= 2:
            out.append((seat, [t for t in g.treasures if 0 <= t < SIZE and k >> t & 1]))
    return out


def _treasure_kingdoms_walk(g: TigrisState) -> list[tuple[int, list[int]]]:
    """:func:`_treasure_kingdoms`, walking each trader's region."""
    cells = g.cells
    out = []
    done: set[int] = set()
    for seat, pl in enumerate(g.players):
        s = pl.leaders[GREEN]
        if s < 0 or s in done:
            continue
        region = region_of(cells, s)
        done.update(region)
        rs = set(region)
        ts = [t for t in g.treasures if t in rs]
        if len(ts) >= 2:
            out.append((seat, ts))
    return out


def _treasure_choices(g: TigrisState, kingdom_square: int) -> list[int]:
    k = _region_mask(g.cells, kingdom_square)
    if k:
        ts = [t for t in g.treasures if 0 <= t < SIZE and k >> t & 1]
    else:
        rs = set(region_of(g.cells, kingdom_square))
        ts = [t for t in g.treasures if t in rs]
    if len(ts) < 2:
        return []
    corners = [t for t in ts if t in CORNERS]
    return corners if corners else ts


def _take_treasure(g: TigrisState, seat: int, s: int, events: list[Event]) -> None:
    g.treasures.remove(s)
    g.players[seat].treasures += 1
    g.last_progress = g.turn
    events.append(event("tigris.treasure", {"player": who(g, seat), "square": LABELS[s]}))


def _collect_treasures(g: TigrisState, events: list[Event]) -> bool:
    """Take every forced treasure; True when a choice waits (a pending decision)."""
    while True:
        progress = False
        for seat, ts in _treasure_kingdoms(g):
            corners = [t for t in ts if t in CORNERS]
            others = [t for t in ts if t not in CORNERS]
            if corners and others:
                for t in corners:  # T-TREASURE-3: corners first, all of them
                    _take_treasure(g, seat, t, events)
                progress = True
                break
            # a choice of which one to leave
            g.pending = [Pending(kind="treasure", seat=seat, square=g.players[seat].leaders[GREEN])]
            return True
        if not progress:
            return False


# --------------------------------------------------------------------------------- the flow


def _advance(g: TigrisState, events: list[Event]) -> None:
    """Run the action's remaining steps until a decision is needed or the action is done."""
    while g.phase == "play" and not g.pending:
        st = g.stage
        if st == "":
            return
        if st == "revolt":
            return  # waits for support (pending), never reached without it
        if st == "war":
            if g.conflict is not None:
                return
            wars = _valid_wars(g)
            for w in g.wars:
                if w not in wars:
                    events.append(
                        event("tigris.war.lapsed", {"colour": "@tigris.colour." + COLOURS[w]})
                    )
            g.wars = wars
            if not wars:
                events.append(event("tigris.unify.removed", {"square": LABELS[g.unification]}))
                g.unification = -1
                g.stage = "monument"
            elif len(wars) == 1:
                _start_war(g, wars[0], events)
            else:
                g.pending = [Pending(kind="war_order", seat=g.active)]
            continue
        if st == "monument":
            if _monument_options(g):
                g.pending = [Pending(kind="monument", seat=g.active)]
                continue
            _put(g, "stage", "treasure")
            continue
        if st == "treasure":
            if _collect_treasures(g, events):
                continue
            d = g.__dict__
            d["stage"] = ""
            d["placed"] = -1
            d["actions_left"] -= 1
            g.__pydantic_fields_set__.update(("stage", "placed", "actions_left"))
            if g.actions_left <= 0:
                _end_turn(g, events)
            return


_TURN_FIELDS = ("active", "actions_left", "turn", "committed", "stage", "placed")


def _put(m: BaseModel, name: str, value: object) -> None:
    """``m.<name> = value`` as pydantic assigns a field (no validation on assignment): the
    value in the instance's dict and the name among the fields set; without its dispatch."""
    m.__dict__[name] = value
    m.__pydantic_fields_set__.add(name)


def _end_turn(g: TigrisState, events: list[Event]) -> None:
    """T-TURN-4: monument VP, refill, end checks, the next player."""
    seat = g.active
    events.append(event("tigris.turn.end", {"player": who(g, seat)}))
    cells = g.cells
    pl = g.players[seat]
    pos: Position | None = None
    for mid, tl in sorted(g.monuments.items(), key=lambda kv: MONUMENTS.index(kv[0])):
        region: list[int] | None = None
        for colour in MONUMENT_COLOURS[MONUMENTS.index(mid)]:
            s = pl.leaders[colour]
            if s < 0:
                continue
            # the monument's region holds the leader (T-MONUMENT-7): the leader's kingdom
            # holds the monument, when the monument's square joins regions; else walk
            if pos is None:
                pos = position(cells)
            k = pos.kingdom_of(s) if pos is not None and s < SIZE and cells[s] >= LEADER else 0
            if k and 0 <= tl < SIZE and CONNECTS[cells[tl]]:
                held = bool(k >> tl & 1)
            else:
                if region is None:
                    region = region_of(cells, tl)
                held = s in region
            if held:
                _gain(
                    g,
                    seat,
                    colour,
                    1,
                    "tigris.score.monument",
                    events,
                    monument="@tigris.monument." + mid,
                )
    n = len(g.players)
    for i in range(n):  # T-REFILL-1, -2
        s = (seat + i) % n
        need = HAND_SIZE - g.players[s].hand_size
        if need > 0 and not _draw(g, s, need, events):
            _game_over(g, "bag", events)  # T-END-2
            return
    if len(g.treasures) <= TREASURES_END:
        _game_over(g, "treasures", events)  # T-END-1
        return
    d = g.__dict__
    d["active"] = (seat + 1) % n
    d["actions_left"] = ACTIONS_PER_TURN
    d["turn"] += 1
    d["committed"] = []
    d["stage"] = ""
    d["placed"] = -1
    g.__pydantic_fields_set__.update(_TURN_FIELDS)
    events.append(event("tigris.turn.start", {"turn": g.turn, "player": who(g, g.active)}))


def _game_over(g: TigrisState, reason: str, events: list[Event]) -> None:
    g.phase = "over"
    g.end_reason = reason
    g.pending = []
    g.stage = ""
    events.append(event("tigris.game.over", {"reason": msg("tigris.reason." + reason)}))


__all__ = [
    "NO_TILES",
    "apply",
    "check",
    "deciders",
    "idle_turns",
    "is_over",
    "label_regions",
    "legal_actions",
    "new_game",
    "next_deciders",
    "region_of",
    "stalled",
]
