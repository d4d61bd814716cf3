"""The local terminal mode: a whole game played from a --script file, and the interactive
prompt driven through a pseudo-terminal."""

from __future__ import annotations

import asyncio
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules.brazil import format_action
from service import GameService
from storage import GameStatus, SqliteGameStore
from terminal.local import read_script, seat_specs
from tests.service.conftest import UniformAgent

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("TURNPOST_DB", None)
    return env


async def _record(db: Path, seed: int, max_steps: int = 4000) -> list[str] | None:
    """Play Ana's seat with a uniform agent against the service's own `ai:random` seat and
    return her commands as typed text, or None if the game did not end within max_steps."""
    async with SqliteGameStore(str(db)) as store:
        svc = GameService(store)  # the same AI factory as `python -m turnpost local`
        res = await svc.new_game(["Ana", "ai:random"], seed=seed)
        ana = UniformAgent(seed)
        lines: list[str] = []
        for _ in range(max_steps):
            await svc.run_ai_turns(res.game_id)
            st = await svc.state(res.game_id)
            if st.phase == "ended":
                return lines
            action = ana.decide(st, 0)
            text = format_action(st, action)
            out = await svc.act(res.game_id, 0, text)
            assert out.ok, (text, out.errors)
            lines.append(text)
    return None


@pytest.mark.slow
def test_script_plays_a_whole_game(tmp_path: Path) -> None:
    lines = None
    seed = 0
    for seed in range(1, 6):  # the first seed whose random game ends in a few hundred steps
        lines = asyncio.run(_record(tmp_path / f"rec{seed}.sqlite3", seed))
        if lines is not None:
            break
    assert lines is not None, "no random 2-player game ended"
    script = tmp_path / "game.txt"
    body = ["# a whole game: Ana types, the AI seat plays itself", "help", "legal"]
    body += [f"Ana: {lines[0]}", "board", "hand Ana", "rules R-BUILD-4", "score"]
    body += [*lines[1:], "log"]
    script.write_text("\n".join(body) + "\n", encoding="utf-8")
    assert read_script(str(script))[0] == "help"
    db, out = tmp_path / "play.sqlite3", tmp_path / "images"
    args = ["--seats", "Ana,ai:random", "--seed", str(seed), "--db", str(db), "--out", str(out)]
    proc = subprocess.run(
        [PY, "-m", "turnpost", "local", *args, "--script", str(script)],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert " ! " not in proc.stdout, "a scripted command was refused"
    assert "is over" in proc.stdout and "Final scores:" in proc.stdout
    assert "R-BUILD-4" in proc.stdout and "Hand of Ana" in proc.stdout
    assert "Legal" not in proc.stderr
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert any(n.endswith("-map-public.png") for n in pngs)
    assert any("-scores-" in n for n in pngs) and any("-boards-" in n for n in pngs)

    async def status() -> GameStatus:
        async with SqliteGameStore(str(db)) as store:
            return (await store.get_game(1)).status

    assert asyncio.run(status()) is GameStatus.FINISHED


class Pty:
    """A child process on a pseudo-terminal; read until a text appears."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.master, slave = os.openpty()
        env = _env() | {"TERM": "xterm", "COLUMNS": "120", "LINES": "40"}
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, close_fds=True
        )
        os.close(slave)
        self.buf = b""

    def plain(self) -> str:
        return ANSI.sub("", self.buf.decode(errors="replace"))

    def expect(self, text: str, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while text not in self.plain():
            left = end - time.monotonic()
            assert left > 0, f"{text!r} not seen; got: {self.buf[-1500:]!r}"
            r, _, _ = select.select([self.master], [], [], left)
            if r:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    assert text in self.plain(), f"{text!r} not seen: {self.buf[-1500:]!r}"
                self.buf += chunk
                if b"\x1b[6n" in chunk:  # answer prompt_toolkit's cursor-position request
                    os.write(self.master, b"\x1b[1;1R")
        out = self.plain()
        self.buf = b""
        return out

    def send(self, text: str) -> None:
        os.write(self.master, text.encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


@pytest.mark.slow
@pytest.mark.requires("prompt_toolkit")
def test_interactive_prompt_in_a_pty(tmp_path: Path) -> None:
    db, out = tmp_path / "pty.sqlite3", tmp_path / "images"
    base = [PY, "-m", "turnpost", "local", "--db", str(db), "--out", str(out)]
    t = Pty([*base, "--seats", "Ana,Bo", "--seed", "1"], tmp_path)
    t.expect("Ana>")
    t.send("legal\r")
    t.expect("colour blue")
    t.expect("Ana>")
    t.send("colour bl\t")  # tab completes the only legal command starting so
    time.sleep(0.5)
    t.send("\r")
    t.expect("Ana plays blue.")  # issue 22: the player by name, no credit prefix
    t.expect("Bo>")
    t.send("rules R-SETUP-4\r")
    t.expect("R-SETUP-4")
    t.expect("Bo>")
    t.send("hand\r")
    t.expect("Whose hand?")
    t.send("Ana\r")
    t.expect("Press Enter to show")
    t.send("\r")
    t.expect("Hand of Ana")
    t.expect("Press Enter to clear")
    t.send("\r")
    t.expect("Bo>")
    t.send("\x03")  # Ctrl-C: saved, clean exit
    t.expect("Resume with")
    assert t.close() == 0
    # resumed: Ana's colour stands, Bo decides
    t = Pty([*base, "--resume", "1"], tmp_path)
    t.expect("version 1")
    t.expect("Bo>")
    t.send("quit\r")
    t.expect("Resume with")
    assert t.close() == 0


def test_seat_specs_fill_with_ai() -> None:
    assert [s.ai for s in seat_specs(3, "Ana")] == [None, "heuristic", "heuristic"]
    assert [s.name for s in seat_specs(None, "Ana,Bo")] == ["Ana", "Bo"]
    assert seat_specs(None, None)[1].ai == "heuristic"
