"""Differential test against the peer sillle14/cubenations (TypeScript, boardgame.io).

    python -m devtools.peer_tigris.compare --prepare --peer DIR [--source SRC]
    python -m devtools.peer_tigris.compare --games N --players P --seed S --peer DIR
        [--mode synced|free|both] [--record tests/tigris/data/peer/games.json] [--show K]

``--prepare`` builds the peer outside the repository: it copies the peer's ``src`` (from SRC, a
checkout or the files of ``git archive`` of the fetched snapshot), installs boardgame.io 0.50.2
and TypeScript 4.9.5 with npm and compiles the game logic to CommonJS in ``DIR/build``.

The comparison plays seeded games with our engine (a biased random policy,
:func:`devtools.peer_tigris.trace.choose`), replays each in the peer with ``harness.mjs`` and
compares, after every step: the decision (who decides what), the legal moves, the board, the
treasures, the monuments, each player's hand, points per colour, treasures and catastrophes, the
bag size, the end and the winners. ``synced`` loads our state into the peer before every action
(each action compared on its own); ``free`` sets the peer up once and then only sends moves.

Known differences (each decided by a rule of ``RULES-TIGRIS.md``) are classified by
:func:`classify`; everything else is reported as unexplained.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from devtools.peer_tigris.trace import legal_digest, play_trace
from rules.tigris.data import MONUMENTS

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "harness.mjs"

# Differences between the peer and the rules, with the rule that decides each (ours follows it).
KNOWN: dict[str, str] = {
    "treasure-timing": (
        "T-TREASURE-2: treasures are taken at the end of each action; the peer collects them "
        "only at the end of the turn (after the refill), so between the action and the end of "
        "the turn the treasures differ, and the peer misses a collection when the kingdom loses "
        "its trader or its second treasure before the turn ends"
    ),
    "treasure-filter": (
        "T-TREASURE-2/-3: after each treasure taken the peer drops from the list of available "
        "treasures every one in the same column or row as the one taken (it filters with "
        "'x !== x && y !== y'), so it can stop early and leave two or more treasures in a "
        "kingdom with a trader"
    ),
    "end-check": (
        "T-END-1: the game ends at the end of a turn with two or fewer treasures on the board; "
        "the peer checks the count only when its treasure stage ends with a single player "
        "taking treasures (seen in synced replays, where the treasures were taken by our engine "
        "earlier in the turn)"
    ),
    "refill-order": (
        "T-REFILL-1/-2: the active player refills first, then the others in turn order; the "
        "peer refills players 0, 1, 2 … whoever is active, which shows when the bag runs out "
        "during the refill (the last tiles go to other players)"
    ),
    "bag-components": (
        "T-SETUP-2/T-COMP-1: 143 tiles in the bag (47 red) after the 10 starting temples; the "
        "peer puts all 57 red tiles in the bag besides the 10 temples (163 tiles in all). "
        "Sidestepped: the harness gives the peer our bag"
    ),
}


# --------------------------------------------------------------------------------- prepare


def prepare(peer: Path, source: Path | None) -> None:
    peer.mkdir(parents=True, exist_ok=True)
    if source is not None:
        if (peer / "src").exists():
            shutil.rmtree(peer / "src")
        shutil.copytree(source / "src", peer / "src")
    if not (peer / "package.json").exists():
        (peer / "package.json").write_text('{"name": "peer-tigris", "private": true}\n')
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "boardgame.io@0.50.2", "typescript@4.9.5"],
        cwd=peer,
        check=True,
    )
    # tsc reports type errors of unrelated @types packages; the JavaScript is emitted anyway
    subprocess.run(
        [
            "npx",
            "tsc",
            "--module",
            "commonjs",
            "--target",
            "es2019",
            "--esModuleInterop",
            "--skipLibCheck",
            "--outDir",
            "build",
            "--rootDir",
            "src",
            "src/Game.ts",
        ],
        cwd=peer,
        check=False,
    )
    if not (peer / "build" / "Game.js").exists():
        raise SystemExit("the peer did not compile")


# ---------------------------------------------------------------------------------- running


def run_peer(
    peer: Path, games: list[dict[str, Any]], mode: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    payload = json.dumps({"mode": mode, "monument_ids": list(MONUMENTS), "games": games})
    out = subprocess.run(
        ["node", str(HARNESS), str(peer)],
        input=payload,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    return lines[0]["static"], lines[1:]


# ---------------------------------------------------------------------------------- compare

PLAYER_FIELDS = ("hand", "score", "treasures", "catastrophes")


def state_diffs(ours: dict[str, Any], peer: dict[str, Any], play: bool) -> list[str]:
    """The fields that differ ("board", "treasures", "p1.score", ...)."""
    out = []
    for k in ("board", "treasures", "monuments", "bag", "over", "winners"):
        if ours.get(k) != peer.get(k):
            out.append(k)
    for i, (a, b) in enumerate(zip(ours["players"], peer["players"], strict=True)):
        for k in PLAYER_FIELDS:
            if a[k] != b[k]:
                out.append(f"p{i}.{k}")
    if play and not ours["over"]:
        for k in ("active", "actions_left"):
            if ours[k] != peer[k]:
                out.append(k)
    return out


def classify(
    diffs: list[str], ours: dict[str, Any], peer: dict[str, Any], notes: list[str]
) -> str | None:
    """The known difference that explains ``diffs`` (None: unexplained)."""
    rest = [d for d in diffs if not (d == "treasures" or d.endswith(".treasures"))]
    moved = set(ours["treasures"]) ^ set(peer["treasures"])
    if "legal" in rest and legal_only_catastrophes_on(ours, peer, moved):
        rest.remove("legal")
    if len(rest) < len(diffs) and not rest:
        return "treasure-timing"
    # the peer refilled the hands before its treasure stage; we collect within the action
    # (T-TURN-3 step 5) and refill at the end of the turn (T-TURN-4)
    if set(rest) <= {"bag", "actions_left"} | {f"p{i}.hand" for i in range(4)} and (
        ours.get("_decision") == "treasure"
    ):
        return "treasure-timing"
    return None


def legal_only_catastrophes_on(
    ours: dict[str, Any], peer: dict[str, Any], squares: set[str]
) -> bool:
    o, p = set(ours.get("_legal", [])), set(peer.get("_legal", []))
    return all(m.startswith("catastrophe ") and m.split()[1] in squares for m in o ^ p)


def compare_game(
    trace: dict[str, Any],
    peer: dict[str, Any],
    stats: Counter[str],
    show: list[Any],
    free: bool = False,
) -> dict[str, Any]:
    """Compare one game step by step; returns a summary."""
    summary: dict[str, Any] = {"seed": trace["seed"], "players": trace["players"], "steps": 0}
    if "error" in peer:
        stats["harness-error"] += 1
        summary["error"] = peer["error"][:500]
        return summary
    prev_ours = trace["initial"]
    pairs = [
        (
            trace["initial"],
            {"kind": "play", "seat": 0},
            trace["initial_legal"],
            peer["initial"],
            None,
        )
    ]
    for st, ps in zip(trace["steps"], peer["steps"], strict=True):
        pairs.append((st["state"], st["decision"], st["legal"], ps, st))
    diverged = False
    treasures_apart = False  # free mode: the peer's treasures went another way (T-TREASURE-2)
    for ours, od, olegal, ps, st in pairs:
        summary["steps"] += 1
        stats["steps"] += 1
        notes = ps.get("notes", [])
        pd = ps["decision"]
        dec_same = (od.get("kind"), od.get("seat")) == (pd.get("kind"), pd.get("seat"))
        play = od.get("kind") == "play" and dec_same
        diffs = state_diffs(ours, ps["state"], play)
        if not dec_same:
            diffs.append("decision")
        if any(n.startswith("peer refused") for n in notes):
            diffs.append("refused")
        if dec_same and od.get("kind") != "over":
            stats["legal-compared"] += 1
            if sorted(olegal) == sorted(ps["legal"]):
                stats["legal-agree"] += 1
            else:
                diffs.append("legal")
        if treasures_apart:
            moved = set(ours["treasures"]) ^ set(ps["state"]["treasures"])
            diffs = [
                d
                for d in diffs
                if not (d == "treasures" or d.endswith(".treasures") or d in ("over", "winners"))
            ]
            if "legal" in diffs and legal_only_catastrophes_on(
                {"_legal": olegal}, {"_legal": ps["legal"]}, moved
            ):
                diffs.remove("legal")
            if "treasure" in (od.get("kind"), pd.get("kind")):
                # the peer's treasure stage comes after its refill (T-TURN-3 step 5, T-TURN-4)
                timing = {"legal", "bag", "decision", "actions_left"} | {
                    f"p{i}.hand" for i in range(4)
                }
                diffs = [d for d in diffs if d not in timing]
            if ours["over"] and ps["state"]["over"]:
                diffs = [d for d in diffs if d not in ("decision", "legal")]
        if not diffs:
            stats["state-agree" if not treasures_apart else "agree-apart-from-treasures"] += 1
            continue
        # the peer's treasure stage comes at the end of the turn, after its monument VP and
        # refill: while either side is collecting, treasures, hands, bag, monument VP differ
        timing = {"decision", "treasures", "legal", "bag", "actions_left", "active"} | {
            f"p{i}.{f}" for i in range(4) for f in ("treasures", "hand", "score")
        }
        kind: str | None
        if set(diffs) <= timing and (
            "treasure" in (od.get("kind"), pd.get("kind"))
            or (st is not None and st["move"].startswith("treasure"))
        ):
            kind = "treasure-timing"
        elif (
            ours["over"]
            and not ps["state"]["over"]
            and len(ours["treasures"]) <= 2
            and len(ps["state"]["treasures"]) <= 2
            and set(diffs) <= {"over", "winners", "decision", "active", "actions_left", "legal"}
        ):
            kind = "end-check"
        elif (
            ours["over"]
            and ps["state"]["over"]
            and ours["bag"] == 0
            and set(diffs) <= {f"p{i}.hand" for i in range(4)}
        ):
            kind = "refill-order"
        else:
            kind = classify(
                diffs,
                {**ours, "_legal": olegal, "_decision": od.get("kind")},
                {**ps["state"], "_legal": ps["legal"]},
                notes,
            )
        if kind:
            stats[f"known:{kind}"] += 1
            at_turn_start = od.get("kind") == "play" and ours["actions_left"] == 2
            if (
                kind == "treasure-timing"
                and (at_turn_start or ours["over"])
                and not treasures_apart
                and free
            ):
                treasures_apart = True
                stats["games-treasures-apart"] += 1
                summary["treasures_apart_from"] = summary["steps"] - 1
            continue
        stats["unexplained"] += 1
        if not diverged:
            diverged = True
            summary["first_divergence"] = {
                "step": summary["steps"] - 1,
                "diffs": diffs,
                "move": st["move"] if st else None,
            }
            if len(show) < 50:
                show.append(
                    (trace, summary["steps"] - 1, ours, od, olegal, ps, st, diffs, prev_ours)
                )
        prev_ours = ours
    return summary


def print_show(item: tuple[Any, ...]) -> None:
    trace, i, ours, od, olegal, ps, st, diffs, _prev = item
    print(
        f"--- players {trace['players']} seed {trace['seed']} step {i}: {st and st['move']} by "
        f"{st and st['action'].get('seat')} diffs {diffs} notes {ps.get('notes')}"
    )
    print(f"    decision ours {od} peer {ps['decision']}")
    for k in ("treasures", "monuments", "bag", "over", "winners", "active", "actions_left"):
        if ours.get(k) != ps["state"].get(k):
            print(f"    {k}: ours {ours.get(k)} peer {ps['state'].get(k)}")
    for j, (a, b) in enumerate(zip(ours["players"], ps["state"]["players"], strict=True)):
        if a != b:
            print(f"    p{j}: ours {a} peer {b}")
    if ours["board"] != ps["state"]["board"]:
        for r in range(11):
            a = ours["board"][r * 16 : r * 16 + 16]
            b = ps["state"]["board"][r * 16 : r * 16 + 16]
            print(f"    {r + 1:2} {a}  {b}{'  <' if a != b else ''}")
    if "legal" in diffs:
        o, p = set(olegal), set(ps["legal"])
        print(f"    legal only ours: {sorted(o - p)[:20]}")
        print(f"    legal only peer: {sorted(p - o)[:20]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m devtools.peer_tigris.compare")
    ap.add_argument("--peer", type=Path, required=True, help="the prepared peer (outside the repo)")
    ap.add_argument("--prepare", action="store_true")
    ap.add_argument("--source", type=Path, help="the peer's sources (with --prepare)")
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--players", type=int, default=0, help="2, 3 or 4 (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=("synced", "free", "both"), default="both")
    ap.add_argument("--show", type=int, default=3, help="print the first K unexplained steps")
    ap.add_argument("--record", type=Path, help="write the fixture for the agreement test")
    args = ap.parse_args(argv)
    if args.prepare:
        prepare(args.peer, args.source)
        return 0
    counts = [args.players] if args.players else [2, 3, 4]
    traces = [play_trace(p, args.seed + g) for p in counts for g in range(args.games)]
    modes = ["synced", "free"] if args.mode == "both" else [args.mode]
    static: dict[str, Any] = {}
    results: dict[str, list[dict[str, Any]]] = {}
    ok = True
    for mode in modes:
        stats: Counter[str] = Counter()
        show: list[Any] = []
        static, peers = run_peer(args.peer, traces, mode)
        results[mode] = peers
        summaries = [
            compare_game(t, p, stats, show, free=mode == "free")
            for t, p in zip(traces, peers, strict=True)
        ]
        print(f"== mode {mode}: {len(traces)} games, {stats['steps']} steps")
        for k, v in sorted(stats.items()):
            print(f"   {k}: {v}")
        diverged = [s for s in summaries if "first_divergence" in s or "error" in s]
        print(f"   games without an unexplained difference: {len(traces) - len(diverged)}")
        for s in diverged[:20]:
            print(f"   {s}")
        for item in show[: args.show]:
            print_show(item)
        ok = ok and not diverged
    print(f"== peer static data: {json.dumps(static)}")
    if args.record:
        record(args.record, traces, results, static)
    return 0 if ok else 1


# ---------------------------------------------------------------------------------- record


def encode_step(ps: dict[str, Any], prev: dict[str, Any], our_legal: list[str]) -> dict[str, Any]:
    """One peer step, compactly: board as changes, treasures and monuments only when they
    changed, players as [hand x4, points x4, treasures, catastrophes], the legal moves as a
    digest (and in full when they differ from ours)."""
    s = ps["state"]
    out: dict[str, Any] = {
        "b": [
            f"{i}{c}"
            for i, (c, d) in enumerate(zip(s["board"], prev["board"], strict=True))
            if c != d
        ],
        "p": [[*q["hand"], *q["score"], q["treasures"], q["catastrophes"]] for q in s["players"]],
        "a": [s["active"], s["actions_left"], s["bag"]],
        "d": [ps["decision"].get("kind"), ps["decision"].get("seat", -1)],
        "l": legal_digest(sorted(ps["legal"])),
    }
    if s["treasures"] != prev["treasures"]:
        out["t"] = s["treasures"]
    if s["monuments"] != prev["monuments"]:
        out["m"] = s["monuments"]
    if s["over"]:
        out["w"] = s.get("winners", [])
    if sorted(ps["legal"]) != sorted(our_legal):
        out["L"] = sorted(ps["legal"])
    if ps.get("notes"):
        out["n"] = ps["notes"]
    return out


def decode_step(e: dict[str, Any], prev: dict[str, Any], our_legal: list[str]) -> dict[str, Any]:
    """The inverse of :func:`encode_step` (``prev``: the previous decoded state)."""
    board = list(prev["board"])
    for ch in e["b"]:
        board[int(ch[:-1])] = ch[-1]
    state: dict[str, Any] = {
        "board": "".join(board),
        "treasures": e.get("t", prev["treasures"]),
        "monuments": e.get("m", prev["monuments"]),
        "players": [
            {"hand": q[0:4], "score": q[4:8], "treasures": q[8], "catastrophes": q[9]}
            for q in e["p"]
        ],
        "active": e["a"][0],
        "actions_left": e["a"][1],
        "bag": e["a"][2],
        "over": "w" in e,
    }
    if "w" in e:
        state["winners"] = e["w"]
    kind, seat = e["d"]
    decision = {"kind": kind} if seat < 0 else {"kind": kind, "seat": seat}
    if "L" in e:
        legal = e["L"]
    elif legal_digest(sorted(our_legal)) == e["l"]:
        legal = our_legal
    else:
        legal = ["<legal moves differ from the recorded digest>"]
    return {"state": state, "decision": decision, "legal": legal, "notes": e.get("n", [])}


def record(
    path: Path,
    traces: list[dict[str, Any]],
    results: dict[str, list[dict[str, Any]]],
    static: dict[str, Any],
) -> None:
    """The fixture: per game the seed and our actions, and per step the peer's state, decision
    and legal moves (encoded by :func:`encode_step`), for each replay mode."""
    games = []
    for g, t in enumerate(traces):
        rec: dict[str, Any] = {
            "players": t["players"],
            "seed": t["seed"],
            "actions": [st["action"] for st in t["steps"]],
            "peer": {},
        }
        ours_legal = [t["initial_legal"]] + [st["legal"] for st in t["steps"]]
        for mode, peers in results.items():
            p = peers[g]
            prev = t["initial"]
            steps = []
            for k, ps in enumerate([p["initial"], *p["steps"]]):
                steps.append(encode_step(ps, prev, ours_legal[k]))
                prev = ps["state"]
            rec["peer"][mode] = steps
        games.append(rec)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"peer": "sillle14/cubenations", "known": KNOWN, "static": static, "games": games}
    path.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"recorded {len(games)} games in {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    sys.exit(main())
