"""``python -m devtools.aibench SECTION [options]``: the computer players' and engines' figures
(issue 33), printed on the machine it runs on, never asserted.

Sections (``all`` runs every one with the options given):

- ``engines [--seconds S] [--against REF] [--rounds R]``: random self-play steps and listed
  actions per CPU second, every registered game at every player count
  (:mod:`devtools.aibench.engine_loop`); with ``--against``, the same loop on the commit REF
  too (a temporary worktree), the two run turn about ``R`` times, and the ratio.
- ``decisions [--states N]``: what a decision costs at each level (CPU ms, median and p95,
  and the search's rollouts) on seeded 2-player states of heuristic games.
- ``ends --games N [--workers W]``: all-AI games of one level per player count, to their
  natural end: how many end, and the time a game.
- ``match --games N [--workers W]``: 2 players, the search against the heuristic, paired
  seeds with the seats swapped: the search's win rate with its 95% Wilson interval.
- ``effort --games N [--factor F] [--workers W]``: the search at F times its effort against
  the default search, paired the same way.

``--game G`` (repeatable) limits a section to some games; ``--seed S`` moves every seed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ai
from ai.report import Report, wilson
from rules.cli import OneLineParser, real_number, seed, whole_number
from rules.games import game, names
from rules.registry import registrations

LOOP = Path(__file__).with_name("engine_loop.py")
ROOT = Path(__file__).resolve().parents[2]
MAX_ROUNDS = 1000
"""A round limit far past any natural end (games with rounds)."""


def _games(selected: list[str] | None, *, tournament: bool) -> list[str]:
    pool = [
        n
        for n in names()
        if not tournament or (registrations()[n].tournament and registrations()[n].agents)
    ]
    return [n for n in pool if not selected or n in selected]


def _counts(name: str) -> range:
    g = game(name)
    return range(g.min_players, g.max_players + 1)


def _loop(pythonpath: Path, name: str, players: int, seconds: float, seed_: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(LOOP), name, str(players), str(seconds), str(seed_)],
        cwd=pythonpath,
        env={"PYTHONPATH": str(pythonpath), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    figures: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return figures


@contextmanager
def _checkout(ref: str) -> Iterator[Path]:
    """A temporary detached worktree of ``ref`` (removed afterwards)."""
    with tempfile.TemporaryDirectory(prefix="aibench-") as tmp:
        path = Path(tmp) / "ref"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(path), ref],
            check=True,
        )
        try:
            yield path
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False
            )


def engines(args: argparse.Namespace) -> None:
    print("== engines: random self-play, every legal action listed each step (CPU time) ==")
    selected = _games(args.game, tournament=False)
    if args.against is None:
        print(f"{'game':<8}{'players':>8}{'steps/s':>11}{'listed/s':>13}")
        for name in selected:
            for p in _counts(name):
                f = _loop(ROOT, name, p, args.seconds, args.seed)
                print(f"{name:<8}{p:>8}{f['steps_per_s']:>11,.0f}{f['listed_per_s']:>13,.0f}")
        return
    with _checkout(args.against) as old:
        print(f"before: {args.against}; after: this tree; {args.rounds} rounds turn about")
        print(f"{'game':<8}{'players':>8}{'before':>10}{'after':>10}{'ratio':>8}")
        for name in selected:
            for p in _counts(name):
                before: list[float] = []
                after: list[float] = []
                for _ in range(args.rounds):
                    before.append(_loop(old, name, p, args.seconds, args.seed)["steps_per_s"])
                    after.append(_loop(ROOT, name, p, args.seconds, args.seed)["steps_per_s"])
                b, a = statistics.median(before), statistics.median(after)
                print(f"{name:<8}{p:>8}{b:>10,.0f}{a:>10,.0f}{a / b:>7.2f}x")


def _states(name: str, count: int, seed_: int) -> list[tuple[Any, int]]:
    """Seeded 2-player decision points with a choice, from heuristic games."""
    g = game(name)
    out: list[tuple[Any, int]] = []
    s = seed_
    while len(out) < count:
        players = [ai.make_agent("heuristic", seed=s * 7 + k, game=name) for k in range(2)]
        state = g.new_game(2, seed=s)
        rng = random.Random(s)
        steps = 0
        while not g.is_over(state) and steps < 600 and len(out) < count:
            seat = g.deciders(state)[0]
            if len(g.legal_actions(state, seat)) > 1 and rng.random() < 0.08:
                out.append((state, seat))
            state, _ = g.apply(state, players[seat].decide(state, seat))
            steps += 1
        s += 1
    return out


def decisions(args: argparse.Namespace) -> None:
    print("== decisions: what a decision costs at each level (CPU ms, 2 players) ==")
    print(f"{'game':<8}{'level':<11}{'median':>9}{'p95':>9}{'max':>9}  rollouts")
    for name in _games(args.game, tournament=True):
        states = _states(name, args.states, args.seed)
        levels = registrations()[name].agent_levels
        for level in levels:
            times: list[float] = []
            rollouts: list[int] = []
            for i, (state, seat) in enumerate(states):
                agent = ai.make_agent(level, seed=args.seed + i, game=name)
                t0 = time.process_time()
                agent.decide(state, seat)
                times.append((time.process_time() - t0) * 1000)
                rollouts.append(getattr(agent, "last_iterations", 0))
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            roll = f"{statistics.median(rollouts):.0f}" if level == "search" else "-"
            print(
                f"{name:<8}{level:<11}{statistics.median(times):>9.1f}{p95:>9.1f}"
                f"{times[-1]:>9.1f}  {roll}"
            )


def _run(name: str, line_up: list[str], args: argparse.Namespace, *, paired: bool) -> Report:
    return ai.run_tournament(
        line_up,
        args.games,
        seed=args.seed,
        max_rounds=MAX_ROUNDS,
        game=name,
        workers=args.workers,
        paired=paired,
    )


def ends(args: argparse.Namespace) -> None:
    print(f"== ends: all-AI games to their natural end, {args.games} per case ==")
    print(f"{'game':<8}{'level':<11}{'players':>8}{'natural ends':>15}{'s a game':>10}")
    for name in _games(args.game, tournament=True):
        for level in args.levels or registrations()[name].agent_levels:
            for p in _counts(name):
                rep = _run(name, [level] * p, args, paired=False)
                each = rep.seconds * args.workers / rep.games
                print(f"{name:<8}{level:<11}{p:>8}{rep.natural_end:>9}/{rep.games:<5}{each:>10.1f}")


def _pairs(title: str, first: str, second: str, args: argparse.Namespace) -> None:
    print(f"== {title}: 2 players, paired seeds with the seats swapped, {args.games} games ==")
    for name in _games(args.game, tournament=True):
        if game(name).min_players > 2:
            continue
        rep = _run(name, [first, second], args, paired=True)
        won = rep.wins[first]
        lo, hi = wilson(won, rep.games)
        ties = rep.wins[first] + rep.wins[second] - rep.games
        print(
            f"{name:<8}{first} won {won}/{rep.games} = {won / rep.games:.1%} "
            f"[{lo:.1%}, {hi:.1%}] against {second} (shared wins {ties}); "
            f"{rep.seconds:.0f} s over {args.workers} worker(s)"
        )


def match(args: argparse.Namespace) -> None:
    _pairs("match", "search", "heuristic", args)


def effort(args: argparse.Namespace) -> None:
    _pairs(f"effort x{args.factor:g}", f"search@{args.factor:g}", "search", args)


SECTIONS = {
    "engines": engines,
    "decisions": decisions,
    "ends": ends,
    "match": match,
    "effort": effort,
}


def parser() -> argparse.ArgumentParser:
    ap = OneLineParser(
        prog="python -m devtools.aibench",
        description="The computer players' and the engines' figures on this machine.",
    )
    ap.add_argument("section", choices=[*SECTIONS, "all"])
    ap.add_argument("--game", action="append", choices=names(), help="limit to a game")
    ap.add_argument("--seed", type=seed, default=1)
    ap.add_argument("--seconds", type=real_number(0.0, 600.0), default=5.0)
    ap.add_argument("--against", default=None, help="engines: a commit to compare with")
    ap.add_argument("--rounds", type=whole_number(1, 100), default=3)
    ap.add_argument("--states", type=whole_number(1, 10_000), default=20)
    ap.add_argument("--games", type=whole_number(1, 100_000), default=8)
    ap.add_argument("--workers", type=whole_number(1, 256), default=1)
    ap.add_argument("--factor", type=real_number(0.0, 1000.0), default=4.0)
    ap.add_argument("--levels", type=lambda t: t.split(","), default=None, help="ends: levels, a,b")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.games % 2 and args.section in ("match", "effort", "all"):
        parser().error("--games must be even: paired games come two by two")
    for section in SECTIONS if args.section == "all" else [args.section]:
        SECTIONS[section](args)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
