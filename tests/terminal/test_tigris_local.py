"""Tigris & Euphrates in the terminal: ``python -m turnpost local --game tigris`` played from a
script (hot-seat, commands in English and in Hungarian words), ``demo --game tigris`` writing
its pictures (and its timeline), and ``--game chess`` refused in one line."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules.games import names
from service import GameService
from storage import SqliteGameStore
from terminal.local import choices_text

pytestmark = pytest.mark.slow  # games and pictures in child processes (tests/README.md)

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("TURNPOST_DB", None)
    return env


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "turnpost", *args],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )


async def _record(db: Path, seed: int, steps: int, lang: str) -> list[str]:
    """The first ``steps`` commands of Ana and Bo (hot-seat) against an ``ai:random`` seat,
    each the first legal command in ``lang``'s words, prefixed with who types it; the AI seat
    decides as ``python -m turnpost local`` would (the same seeds)."""
    async with SqliteGameStore(str(db)) as store:
        svc = GameService(store)
        res = await svc.new_game(["Ana", "Bo", "ai:random"], game="tigris", seed=seed)
        names = ["Ana", "Bo"]
        lines: list[str] = []
        for _ in range(steps):
            await svc.run_ai_turns(res.game_id)
            s = await svc.peek(res.game_id)
            if s.over:
                break
            seat = s.decisions()[0].seat
            texts = s.legal_texts(seat, lang=lang)
            text = next((t for t in texts if not t.startswith(("swap", "csere"))), texts[0])
            out = await svc.act(res.game_id, seat, text, lang=lang)
            assert out.ok, (text, out.errors)
            lines.append(f"{names[seat]}: {text}")
        return lines


def test_local_tigris_hot_seat_in_english(tmp_path: Path) -> None:
    lines = asyncio.run(_record(tmp_path / "rec.sqlite3", 5, 14, "en"))
    assert any(line.startswith("Ana: tile ") for line in lines)
    script = tmp_path / "game.txt"
    body = ["help", "legal", lines[0], "undo", lines[0], "hand Ana", "score"]
    body += ["rules T-WAR-6", "rules treasure", *lines[1:], "log", "board", "quit"]
    script.write_text("\n".join(body) + "\n", encoding="utf-8")
    db, out = tmp_path / "play.sqlite3", tmp_path / "images"
    proc = _run(
        "local",
        "--game",
        "tigris",
        "--seats",
        "Ana,Bo,ai:random",
        "--seed",
        "5",
        "--db",
        str(db),
        "--out",
        str(out),
        "--script",
        str(script),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout
    assert " ! " not in text, text[-3000:]
    assert "New game #1 of Tigris & Euphrates: Ana (Bow), Bo (Bull), Computer (easy) (Pot)." in text
    assert "tile COLOUR SQUARE" in text  # help: the game's own grammar
    assert "took back" in text  # undo of a placed tile
    assert "tiles behind the screen:" in text  # hand
    assert "Ana (Bow): points behind the screen" in text  # score: hidden (T-INFO-2)
    assert "T-WAR-6" in text and "T-TREASURE-" in text  # the Tigris rules reference
    assert (out / "private" / "hand-Ana.png").exists()
    assert list(out.glob("*-map-public.png")) and list(out.glob("*-boards-public.png"))


def test_local_tigris_in_hungarian_words(tmp_path: Path) -> None:
    lines = asyncio.run(_record(tmp_path / "rec.sqlite3", 9, 8, "hu"))
    assert any(" lapka " in line for line in lines)  # e.g. "Ana: lapka piros F4"
    script = tmp_path / "game.txt"
    script.write_text("\n".join([*lines, "legal", "rules háború 6", "quit"]) + "\n")
    proc = _run(
        "local",
        "--game",
        "tigris",
        "--lang",
        "hu",
        "--seats",
        "Ana,Bo,ai:random",
        "--seed",
        "9",
        "--db",
        str(tmp_path / "play.sqlite3"),
        "--out",
        str(tmp_path / "img"),
        "--script",
        str(script),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert " ! " not in proc.stdout, proc.stdout[-3000:]
    assert "Tigris és Eufrátesz" in proc.stdout and "Ana (Íj)" in proc.stdout
    assert "T-WAR-6" in proc.stdout


def test_demo_tigris_writes_its_pictures(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    proc = _run(
        "demo",
        "--game",
        "tigris",
        "--players",
        "4",
        "--seed",
        "7",
        "--workers",
        "0",
        str(out),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Game over after" in proc.stdout
    table = proc.stdout.split("Game over after", 1)[1]
    assert "black" in table and "treasures" in table and "winner" in table
    turns = sorted(out.glob("turn-*-map.png"))
    assert len(turns) > 20
    assert list(out.glob("turn-*-battle.png"))  # conflict reports
    assert (out / "scores.png").exists() and (out / "final-map.png").exists()
    gif = (out / "timeline.gif").read_bytes()  # the board after every turn, animated
    assert gif[:6] == b"GIF89a"


def test_unknown_game_is_refused_in_one_line(tmp_path: Path) -> None:
    for cmd in (
        ["local", "--game", "chess", "--db", str(tmp_path / "x.sqlite3")],
        ["demo", "--game", "chess", str(tmp_path / "d")],
    ):
        proc = _run(*cmd, cwd=tmp_path)
        assert proc.returncode == 2
        # every registered game, the default first
        expected = f"error: unknown game 'chess': choose {choices_text(names())}"
        assert proc.stderr.strip() == expected
        assert "Traceback" not in proc.stderr
    assert not (tmp_path / "x.sqlite3").exists() and not (tmp_path / "d").exists()
    proc = _run("local", "--game", "tigris", "--players", "1", cwd=tmp_path)
    assert proc.returncode == 2 and "2" in proc.stderr and "4" in proc.stderr
