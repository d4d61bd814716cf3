"""Final scoring (T-FINAL-1 … -4): treasures added one at a time to the weakest colour, each
player's four totals sorted from lowest to highest, compared lexicographically; equal vectors
share the place."""

from __future__ import annotations

from dataclasses import dataclass

from rules.tigris.state import TigrisState


@dataclass(frozen=True)
class FinalScore:
    seat: int
    dynasty: str
    points: tuple[int, int, int, int]  # VP per colour before treasures
    treasures: int
    totals: tuple[int, int, int, int]  # per colour, treasures added (T-FINAL-2)
    vector: tuple[int, ...]  # totals sorted from lowest to highest (T-FINAL-3)
    rank: int  # 1 = winner; equal vectors share the rank (T-FINAL-4)

    @property
    def score(self) -> int:
        """The weakest colour: the player's score (T-FINAL-3)."""
        return self.vector[0]


def allocate(points: list[int] | tuple[int, ...], treasures: int) -> tuple[int, int, int, int]:
    """T-FINAL-2 [ruling]: each treasure to the currently weakest colour (lowest index on a
    tie) — the best sorted vector a player can reach."""
    t = list(points)
    for _ in range(treasures):
        i = t.index(min(t))
        t[i] += 1
    return (t[0], t[1], t[2], t[3])


def final_scores(state: TigrisState) -> list[FinalScore]:
    """Every player's final score and rank, in seat order (the state's points as they stand:
    meaningful once the game is over, or on a full state)."""
    rows = []
    for seat, p in enumerate(state.players):
        pts = (p.score[0], p.score[1], p.score[2], p.score[3])
        totals = allocate(pts, p.treasures)
        rows.append((seat, p.dynasty, pts, p.treasures, totals, tuple(sorted(totals))))
    out = []
    for seat, dyn, pts, tr, totals, vec in rows:
        rank = 1 + sum(1 for r in rows if r[5] > vec)
        out.append(FinalScore(seat, dyn, pts, tr, totals, vec, rank))
    return out


def winners(state: TigrisState) -> list[int]:
    """The seats ranked first."""
    return [f.seat for f in final_scores(state) if f.rank == 1]
