"""Exploration tiles (RULES.md §9): revealing a face-down tile and its effect (R-EXPLORE-1/2),
peeking at one (R-ERA-2, R-EXPLORE-4), and what a tile does to a building placed on its hex
(R-BUILD-7). Bandeiras expeditions are battles: :mod:`rules.brazil.combat` runs them; :func:`reveal`
only says when one must start."""

from __future__ import annotations

from rules.brazil import actions as A
from rules.brazil.catalog import CROPS
from rules.brazil.game import Context, parse_hex, require_step
from rules.brazil.messages import msg, term_ref, text_ref
from rules.brazil.scoring import base_production
from rules.brazil.state import Exploration
from rules.fastcopy import replaced


def reveal(g: Context, seat: int, at: str) -> bool:
    """R-EXPLORE-1/2: the face-down tile on ``at`` is revealed to all and takes effect.
    True for Bandeiras: the revealing unit(s) must then fight the expedition at once
    (R-EXPLORE-3) — the caller starts it (:func:`rules.brazil.combat.start_expedition`)."""
    s = g.s
    ex = s.exploration[at] = replaced(s.exploration[at], face_up=True)
    for pl in s.players:
        pl.peeks.pop(at, None)
    tile = g.cat.exploration[ex.tile]
    g.emit(
        "explore",
        {
            "who": g.name(seat),
            "tile": term_ref("exploration", ex.tile),
            "hex": at,
            "tile_text": text_ref("exploration", ex.tile),
        },
        seat,
        hex=at,
        tile=ex.tile,
    )
    if tile.kind == "unknown_species":
        del s.exploration[at]
        g.p(seat).kept_tiles.append(ex.tile)
    elif tile.kind == "mandioca":
        del s.exploration[at]
        s.removed_exploration.append(ex.tile)
        for k, v in tile.reward_goods.items():
            for _ in range(v):
                g.gain_reward(seat, k, term_ref("exploration", ex.tile))
    elif tile.kind == "quilombo":
        del s.exploration[at]
        s.removed_exploration.append(ex.tile)
        eras = [e for e in (1, 2, 3) if s.mission_decks.get(str(e))]
        if eras:
            g.push(seat, "choose_era", front=True, choices=eras)
    elif tile.kind == "river_basin":
        for nb in g.board.neighbours[at]:
            t = s.tiles.get(nb)
            if t is not None and t.kind == "building":
                crops = [c for c, n in base_production(s, t).items() if c in CROPS and n > 0]
                if crops:
                    goods = dict(t.goods)
                    for c in crops:
                        goods[c] = goods.get(c, 0) + 1
                    s.tiles[nb] = replaced(t, goods=goods)
                if crops:
                    g.emit(
                        "produce.river_basin",
                        {"hex": nb, "crops": [f"@good.{c}" for c in crops]},
                        t.owner,
                        hex=nb,
                    )
    elif tile.kind == "bandeiras":
        return True
    return False


def peek(g: Context, a: A.Peek) -> None:
    """R-ERA-2: the era-token-I bonus, a private look at one face-down tile (R-EXPLORE-4)."""
    require_step(g, "movement", "R-ERA-2", "@error.doing.peek")
    g.require(g.s.turn.peek, "R-ERA-2", "error.peek.none")
    at = parse_hex(g, a.at)
    ex = g.s.exploration.get(at)
    g.require(
        ex is not None and not ex.face_up,
        "R-EXPLORE-4",
        "error.peek.no_tile",
        hex=at,
    )
    assert ex is not None
    g.s.turn.peek = False
    g.p(a.seat).peeks[at] = ex.tile
    g.emit("peek", {"who": g.name(a.seat), "hex": at}, a.seat, hex=at)
    g.emit(
        "peek_private",
        {"hex": at, "tile": term_ref("exploration", ex.tile)},
        a.seat,
        visible_to=(a.seat,),
        hex=at,
        tile=ex.tile,
    )


def clear_site(g: Context, seat: int, at: str) -> Exploration | None:
    """Take the exploration tile off a hex being built on: a face-down one is discarded
    unseen (R-BUILD-7). Returns the tile taken, if any (see :func:`reward_builder`)."""
    s = g.s
    ex = s.exploration.pop(at, None)
    if ex is not None and not ex.face_up:
        g.emit(
            "explore_discard",
            {"hex": at},
            seat,
            hex=at,
        )
        for pl in s.players:
            pl.peeks.pop(at, None)
    return ex


def reward_builder(g: Context, seat: int, ex: Exploration) -> None:
    """The first builder's reward of a revealed Minas Gerais or Cultura tile (R-EXPLORE-2)."""
    if not ex.face_up:
        return
    tile = g.cat.exploration[ex.tile]
    if tile.kind == "minas_gerais":
        g.gain(
            seat,
            {k: v for k, v in tile.reward_goods.items() if k != "any"},
            msg("phrase.why.first_builder", tile=term_ref("exploration", ex.tile)),
        )
    elif tile.kind == "cultura":
        g.p(seat).kept_tiles.append(ex.tile)
        g.emit(
            "keep_tile.cultura",
            {"who": g.name(seat), "vp": tile.reward_vp},
            seat,
            tile=ex.tile,
        )
    if tile.kind != "cultura":
        g.s.removed_exploration.append(ex.tile)  # seen by all: it stays accounted for
