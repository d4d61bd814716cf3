"""Our side of the peer comparison: seeded games played with our engine, recorded as traces
(actions, draws, states in a neutral form, legal moves) that the Node harness replays in the
peer (cubenations) and that ``tests/tigris/test_peer_agreement.py`` replays without Node.

Neutral forms, shared with ``harness.mjs``:

- a square is its label (``"F4"``); a colour its name (``"red"``); a seat its number;
- ``board``: one character per square, row by row (A1 … P1, A2 …): ``.`` empty, ``k r b g`` a
  face-up tile (black, red, blue, green), ``x`` a catastrophe, ``m`` a monument square,
  ``A``–``P`` a leader (``A`` + 4 * seat + colour index in black, red, blue, green order);
- a legal move: ``tile red F4``, ``leader red F4``, ``withdraw red``, ``catastrophe F4``,
  ``swap`` (any swap at all), ``pass``, ``support 2``, ``war red``, ``monument red-blue F4``,
  ``treasure F4``.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from rules.tigris import Action, TigrisState, apply, legal_actions, new_game, winners
from rules.tigris.data import COLOURS, LABELS, MONUMENTS, NEIGHBOURS, SIZE
from rules.tigris.state import CATASTROPHE, DOWN, EMPTY, LEADER, UP

TILE_CHARS = "krbg"  # black, red, blue, green (our colour order)


def board_string(s: TigrisState) -> str:
    out = []
    for v in s.cells:
        if v == EMPTY:
            out.append(".")
        elif UP <= v < DOWN:
            out.append(TILE_CHARS[v - UP])
        elif DOWN <= v < CATASTROPHE:
            out.append("m")
        elif v == CATASTROPHE:
            out.append("x")
        else:
            out.append(chr(ord("A") + v - LEADER))
    return "".join(out)


def snapshot(s: TigrisState) -> dict[str, Any]:
    """The comparable state (full information)."""
    snap: dict[str, Any] = {
        "board": board_string(s),
        "treasures": [LABELS[t] for t in sorted(s.treasures)],
        "monuments": {m: LABELS[tl] for m, tl in sorted(s.monuments.items())},
        "players": [
            {
                "hand": list(p.hand),
                "score": list(p.score),
                "treasures": p.treasures,
                "catastrophes": p.catastrophes,
            }
            for p in s.players
        ],
        "active": s.active,
        "actions_left": s.actions_left,
        "bag": s.bag_size,
        "over": s.phase == "over",
    }
    if s.phase == "over":
        snap["winners"] = winners(s)
    return snap


def move_text(a: Action) -> str:
    k = a.kind
    if k == "tile":
        return f"tile {COLOURS[a.colour]} {LABELS[a.square]}"
    if k == "leader":
        return f"leader {COLOURS[a.colour]} {LABELS[a.square]}"
    if k == "withdraw":
        return f"withdraw {COLOURS[a.colour]}"
    if k == "catastrophe":
        return f"catastrophe {LABELS[a.square]}"
    if k == "swap":
        return "swap"
    if k == "pass":
        return "pass"
    if k == "support":
        return f"support {a.amount}"
    if k == "war_order":
        return f"war {COLOURS[a.colour]}"
    if k == "monument":
        return f"monument {MONUMENTS[a.monument]} {LABELS[a.square]}"
    return f"treasure {LABELS[a.square]}"


def legal_set(s: TigrisState) -> list[str]:
    return sorted({move_text(a) for a in legal_actions(s)})


def legal_digest(moves: list[str]) -> list[Any]:
    """[count, short hash] of a sorted legal-move list (what the fixture keeps)."""
    h = hashlib.sha1("\n".join(moves).encode()).hexdigest()[:12]
    return [len(moves), h]


def decision(s: TigrisState) -> dict[str, Any]:
    """Who decides now and what kind of decision it is."""
    if s.phase == "over":
        return {"kind": "over"}
    if s.pending:
        p = s.pending[0]
        kind = {"war_order": "war"}.get(p.kind, p.kind)
        return {"kind": kind, "seat": p.seat}
    return {"kind": "play", "seat": s.active}


# ------------------------------------------------------------------------------ the policy


def choose(s: TigrisState, rng: random.Random) -> Action:
    """A biased random policy that builds kingdoms (so revolts, wars, monuments and treasures
    happen): mostly tiles next to something, leaders, now and then a catastrophe, a swap or a
    withdrawal."""
    acts = legal_actions(s)
    if s.pending:
        return rng.choice(acts)
    by: dict[str, list[Action]] = {}
    for a in acts:
        by.setdefault(a.kind, []).append(a)
    weights = {
        "tile": 10.0,
        "leader": 4.0,
        "catastrophe": 0.4,
        "withdraw": 0.3,
        "swap": 0.6,
        "pass": 0.2,
    }
    kinds = [k for k in weights if k in by]
    kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
    pool = by[kind]
    if kind == "tile" and rng.random() < 0.85:
        near = [a for a in pool if any(s.cells[n] != EMPTY for n in NEIGHBOURS[a.square])]
        pool = near or pool
    if kind == "leader" and rng.random() < 0.7:
        # prefer squares inside existing kingdoms (revolts) or next to many tiles
        def busy(a: Action) -> int:
            return sum(1 for n in NEIGHBOURS[a.square] if s.cells[n] != EMPTY)

        best = max(busy(a) for a in pool)
        pool = [a for a in pool if busy(a) == best]
    if kind == "swap":
        pool = [a for a in pool if sum(a.tiles) <= 3] or pool
    return rng.choice(pool)


# ------------------------------------------------------------------------------- the trace


def _draws(events: list[Any]) -> list[dict[str, Any]]:
    """The step's draws as batches: {"kind": "swap"|"refill", "tiles": {seat: [colours]}} in
    the order they happened (seat order within a refill is ours: from the active player)."""
    batches: list[dict[str, Any]] = []
    kind = "swap"
    for e in events:
        if e.key == "tigris.turn.end":
            kind = "refill"
        if e.key == "tigris.draw.private":
            seat = e.visible_to[0]
            colours = [str(t).rsplit(".", 1)[1] for t in e.params["tiles"]]
            if not batches or batches[-1]["kind"] != kind or kind == "swap":
                batches.append({"kind": kind, "tiles": {}})
            batches[-1]["tiles"].setdefault(str(seat), []).extend(colours)
    return batches


def play_trace(players: int, seed: int, max_steps: int = 5000) -> dict[str, Any]:
    """One seeded game with our engine: the initial state and every step (action, draws, the
    state after, the decision after and its legal moves)."""
    s = new_game(players=players, seed=seed)
    rng = random.Random(f"peer:{players}:{seed}")
    trace: dict[str, Any] = {
        "players": players,
        "seed": seed,
        "initial": snapshot(s),
        "initial_hands": [list(p.hand) for p in s.players],
        "initial_legal": legal_set(s),
        "steps": [],
    }
    steps = trace["steps"]
    for _ in range(max_steps):
        if s.phase == "over":
            break
        a = choose(s, rng)
        pre_actions = s.actions_left
        was_pending = bool(s.pending)
        s, events = apply(s, a)
        step: dict[str, Any] = {
            "action": a.to_dict(),
            "move": move_text(a),
            "draws": _draws(events),
            "state": snapshot(s),
            "decision": decision(s),
            "legal": legal_set(s),
        }
        if a.kind == "pass" and not was_pending:
            step["pass_actions"] = pre_actions  # the peer's pass ends one action, not the turn
        if a.kind == "swap":
            step["swap"] = {COLOURS[c]: n for c, n in enumerate(a.tiles) if n}
        steps.append(step)
    trace["final_bag"] = {COLOURS[c]: n for c, n in enumerate(s.bag)}
    return trace


def replay(players: int, seed: int, actions: list[dict[str, Any]]) -> list[TigrisState]:
    """Our states after each recorded action (for the fixture test)."""
    s = new_game(players=players, seed=seed)
    out = []
    for d in actions:
        s, _ = apply(s, Action.from_dict(d))
        out.append(s)
    return out


assert SIZE == 176
