"""The evaluation of a Tigris & Euphrates position for one seat, and the support policy.

Everything here reads a *full* state (a determinization of the seat's view, see
:func:`rules.tigris.determinize`) but uses only what the seat may know there: its own hand
and points, the board and the public counts. Other players' points are 0 in a view (hidden,
T-INFO-2), so what counts of theirs is what they gain from the position judged onwards.

Units are victory points (VP) of the final score. The own score is a *soft minimum* of the
four colours after the treasures are added where they help most (T-FINAL-2, -3): a point in
the weakest colour is worth nearly a whole VP, one in the strongest very little. On top:

- leaders on the board, worth more in the colours the seat is weakest in; safer next to
  temples (revolt strength, T-REVOLT-2) and in kingdoms rich in tiles of their colour (war
  strength, T-WAR-6); monuments in the kingdom of a leader of their colours (T-MONUMENT-7);
  a trader in a kingdom with a treasure (T-TREASURE-2);
- the opponents' leaders and points gained, against the seat;
- the hand: tiles of the colours of the own leaders on the board and temples (support in
  conflicts, T-CONFLICT-3); the catastrophes still in hand.

A state in the middle of the seat's own turn is judged as at the turn's end (T-TURN-4): the
monument points it will score then are counted (T-MONUMENT-7) and its hand as refilled (the
tiles to draw at the odds of the unseen ones). The state after a pass already has both: without
this, every action would look worse than passing by what the pass collects at once.
"""

from __future__ import annotations

import math

from rules.tigris.data import HAND_SIZE, MONUMENT_COLOURS, MONUMENTS, NEIGHBOURS, TILE_COUNTS
from rules.tigris.engine import label_regions, region_of
from rules.tigris.scoring import allocate
from rules.tigris.state import CATASTROPHE, DOWN, LEADER, UP, TigrisState
from rules.tigris.view import board_tiles

BLACK, RED, BLUE, GREEN = 0, 1, 2, 3
TEMPLE = UP + RED

SOFTNESS = 2.0  # the soft minimum's temperature, in VP
LEADER_BASE = 1.0  # a leader on the board, before the colour's need
LEADER_NEED = 3.0  # ... times the colour's weight in the soft minimum (weights sum to 1)
TEMPLE_SAFETY = 0.35  # per temple next to a leader (up to 3)
WAR_SAFETY = 0.06  # per tile of the leader's colour in its kingdom (up to 12)
MONUMENT_VALUE = 1.6  # a monument colour matched by an own leader in its kingdom
TREASURE_NEAR = 0.4  # a trader in a kingdom holding one treasure
CATASTROPHE_KEPT = 0.6
HAND_TILE = 0.1
HAND_SUPPORT = 0.12  # a tile of an own leader's colour (up to 3) or a temple (up to 4)
OPPONENT_POINTS = {2: 0.45, 3: 0.3, 4: 0.25}  # per VP an opponent gains
OPPONENT_POSITION = {2: 0.5, 3: 0.3, 4: 0.25}  # per unit of an opponent's position


def weights(totals: tuple[int, ...] | list[int]) -> list[float]:
    """How much a VP of each colour adds to the soft minimum (they sum to 1)."""
    lo = min(totals)
    e = [math.exp(-(x - lo) / SOFTNESS) for x in totals]
    s = sum(e)
    return [x / s for x in e]


def soft_score(points: list[int], treasures: int) -> float:
    """The soft minimum of the four colours with the treasures added (T-FINAL-2), plus a
    little of the total (every VP may still be needed)."""
    t = allocate(points, treasures)
    lo = min(t)
    s = sum(math.exp(-(x - lo) / SOFTNESS) for x in t)
    return lo - SOFTNESS * math.log(s) + 0.08 * sum(t)


def colour_weights(state: TigrisState, seat: int) -> list[float]:
    p = state.players[seat]
    return weights(allocate(p.score, p.treasures))


def position(
    state: TigrisState,
    seat: int,
    w: list[float],
    lab: list[int],
    regions: list[list[int]],
) -> float:
    """The value of ``seat``'s leaders on the board (see the module docstring)."""
    cells = state.cells
    pl = state.players[seat]
    v = 0.0
    for c in range(4):
        q = pl.leaders[c]
        if q < 0:
            continue
        val = LEADER_BASE + LEADER_NEED * w[c]
        temples = sum(1 for n in NEIGHBOURS[q] if cells[n] == TEMPLE)
        val += TEMPLE_SAFETY * min(temples, 3)
        region = regions[lab[q]]
        want = UP + c
        support = sum(1 for s in region if cells[s] == want)
        val += WAR_SAFETY * min(support, 12)
        if c == GREEN:
            tr = state.treasures
            held = sum(1 for t in tr if lab[t] == lab[q])
            if held == 1:
                val += TREASURE_NEAR
        for mid, tl in state.monuments.items():
            if lab[tl] == lab[q] and c in MONUMENT_COLOURS[MONUMENTS.index(mid)]:
                val += MONUMENT_VALUE
        v += val
    return v


def turn_end_points(state: TigrisState, seat: int, lab: list[int]) -> list[int]:
    """``seat``'s points per colour with the monument points the end of its turn gives
    (T-MONUMENT-7: a point per colour of a monument in the kingdom of its leader of that
    colour) when it is the seat's own turn; its points as they are otherwise."""
    me = state.players[seat]
    if state.phase != "play" or state.active != seat or not state.monuments:
        return me.score
    pts = list(me.score)
    for mid, tl in state.monuments.items():
        for c in MONUMENT_COLOURS[MONUMENTS.index(mid)]:
            q = me.leaders[c]
            if q >= 0 and lab[q] == lab[tl]:
                pts[c] += 1
    return pts


def hand_value(state: TigrisState, seat: int) -> float:
    """The hand: support for the own leaders' conflicts, temples against revolts; in the
    seat's own turn the tiles still to draw (T-REFILL-1) at the odds of the unseen tiles."""
    me = state.players[seat]
    hand = me.hand
    caps = [0, 4, 0, 0]
    for c in (BLACK, BLUE, GREEN):
        if me.leaders[c] >= 0:
            caps[c] = 3
    draw = HAND_SIZE - me.hand_size if state.phase == "play" and state.active == seat else 0
    v = HAND_TILE * (me.hand_size + max(0, draw))
    odds = [0.0] * 4
    if draw > 0:
        u = unseen(state, seat)
        total = sum(u)
        if total > 0:
            odds = [draw * x / total for x in u]
    for c in range(4):
        if caps[c]:
            v += HAND_SUPPORT * min(hand[c] + odds[c], caps[c])
    return v


def evaluate(state: TigrisState, seat: int) -> float:
    """The value of ``state`` for ``seat`` in VP-like units (higher is better)."""
    lab, regions = label_regions(state.cells)
    n = len(state.players)
    me = state.players[seat]
    points = turn_end_points(state, seat, lab)
    w = weights(allocate(points, me.treasures))
    v = soft_score(points, me.treasures)
    v += position(state, seat, w, lab, regions)
    v += hand_value(state, seat)
    v += CATASTROPHE_KEPT * me.catastrophes
    op = OPPONENT_POINTS.get(n, 0.25)
    opos = OPPONENT_POSITION.get(n, 0.25)
    flat = [0.25, 0.25, 0.25, 0.25]
    for k, p in enumerate(state.players):
        if k == seat:
            continue
        v -= op * (sum(p.score) + p.treasures)
        v -= opos * position(state, k, flat, lab, regions)
    return v


# ------------------------------------------------------------------------------ conflicts


def unseen(state: TigrisState, seat: int) -> list[int]:
    """Tiles per colour ``seat`` cannot locate: in other hands, the bag or the discards."""
    on_board = board_tiles(state)
    own = state.players[seat].hand
    return [TILE_COUNTS[c] - on_board[c] - own[c] - state.removed[c] for c in range(4)]


def at_most(k: int, colour_left: int, total_left: int, hand: int) -> float:
    """P(a hand of ``hand`` tiles dealt from ``total_left`` unseen tiles, ``colour_left`` of the
    colour, holds at most ``k`` of it) — hypergeometric."""
    if k < 0:
        return 0.0
    if total_left <= 0 or hand <= 0:
        return 1.0
    hand = min(hand, total_left)
    den = math.comb(total_left, hand)
    p = 0.0
    for x in range(0, min(k, hand, colour_left) + 1):
        p += math.comb(colour_left, x) * math.comb(total_left - colour_left, hand - x) / den
    return min(1.0, p)


def _stakes(state: TigrisState, seat: int) -> tuple[float, float]:
    """(gain if ``seat`` wins the current conflict, loss if it loses), in VP-like units."""
    c = state.conflict
    assert c is not None
    me_att = c.attacker == seat
    leader = 2.5  # a leader sent back to the supply (its kingdom, its place)
    if c.kind == "revolt":
        return 1.0 + leader * 0.6, leader
    cells = state.cells
    mine_sq = c.attacker_square if me_att else c.defender_square
    their_sq = c.defender_square if me_att else c.attacker_square
    want = UP + c.colour
    mine = sum(1 for s in region_of(cells, mine_sq, state.unification) if cells[s] == want)
    theirs = sum(1 for s in region_of(cells, their_sq, state.unification) if cells[s] == want)
    gain = 1.0 + theirs + leader * 0.6
    loss = leader + 0.5 * (1 + mine) + 0.1 * mine
    return gain, loss


SUPPORT_COST = 0.35  # a committed tile: it leaves the game (T-CONFLICT-3)


def support_amount(state: TigrisState, seat: int) -> int:
    """How many tiles ``seat`` commits in the current conflict, from its own hand and the
    public counts only. The defender commits just enough to hold if that is worth it; the
    attacker weighs each amount by the odds of the defender's hand (hypergeometric over the
    unseen tiles) against the tiles it costs."""
    c = state.conflict
    assert c is not None
    have = state.players[seat].hand[c.colour]
    gain, loss = _stakes(state, seat)
    if c.attacker_commit >= 0:  # defending, the attacker's commitment known
        need = c.attacker_base + c.attacker_commit - c.defender_base
        if need <= 0:
            return 0
        if need <= have and gain + loss > SUPPORT_COST * need:
            return need
        return 0
    u = unseen(state, seat)
    total = sum(u)
    hand = state.players[c.defender].hand_size
    best, best_v = 0, -math.inf
    for k in range(have + 1):
        # the defender holds if base + its tiles >= ours
        p = at_most(c.attacker_base + k - c.defender_base - 1, u[c.colour], total, hand)
        val = p * gain - (1 - p) * loss - SUPPORT_COST * k
        if val > best_v + 1e-9:
            best, best_v = k, val
    return best


def is_face_up(v: int) -> bool:
    return UP <= v < DOWN


def is_tile(v: int) -> bool:
    return UP <= v < CATASTROPHE


def is_leader(v: int) -> bool:
    return v >= LEADER
