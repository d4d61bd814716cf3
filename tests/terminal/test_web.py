"""The game's web page from the terminal: ``local --web`` prints the page's address once the
game exists and the page answers while the game is played (and no longer after); ``demo
--web`` keeps serving after the end until interrupted; ``export-html`` writes the page as
static files with the map of every step."""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from pathlib import Path

import aiohttp
import pytest

from service import GameService
from storage import SqliteGameStore
from terminal import demo, export, local

PNG = b"\x89PNG\r\n\x1a\n"
ADDRESS = re.compile(r"^Game page: (http://127\.0\.0\.1:\d+/g/[\w-]+/)$", re.M)


def parse(add: object, argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add(p)  # type: ignore[operator]
    return p.parse_args(argv)


async def status_of(url: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        return r.status


class PageCheckingSource(local.LineSource):
    """A script that, before its first line, opens the page whose address was printed."""

    def __init__(self, out: io.StringIO, lines: list[str]) -> None:
        self.out = out
        self.lines = iter(lines)
        self.seen: list[tuple[str, int]] = []

    async def read(self, prompt: str, seat: int | None) -> str | None:
        if not self.seen:
            found = ADDRESS.search(self.out.getvalue())
            assert found, self.out.getvalue()
            self.seen.append((found[1], await status_of(found[1])))
        return next(self.lines, None)


async def play_with_page(argv: list[str]) -> tuple[str, str, int]:
    """``local ARGV`` whose script opens the printed page before its first line: the
    output, the page's address and its HTTP status then."""
    out = io.StringIO()
    sources: list[PageCheckingSource] = []

    def source(game: local.LocalGame) -> local.LineSource:
        sources.append(PageCheckingSource(out, ["colour blue", "quit"]))
        return sources[0]

    code = await local.play(parse(local.add_arguments, argv), out=out, make_source=source)
    assert code == 0, out.getvalue()
    [(url, status)] = sources[0].seen
    return out.getvalue(), url, status


async def test_local_web_prints_the_address_and_serves_the_page(tmp_path: Path) -> None:
    db, img = str(tmp_path / "g.sqlite3"), str(tmp_path / "img")
    argv = ["--db", db, "--out", img, "--seats", "Ana,ai:random", "--seed", "3"]
    text, url, status = await play_with_page([*argv, "--web", "--web-port", "0"])
    assert status == 200
    assert text.count("Game page: ") == 1
    with pytest.raises(aiohttp.ClientConnectionError):  # stopped with the game
        await status_of(url)
    # resumed, the game is served at the same address (its token is kept with the game)
    resume = ["--db", db, "--out", img, "--resume", "1", "--web-port", "0"]  # implies --web
    _, again, status = await play_with_page(resume)
    assert status == 200 and again.split("/g/")[1] == url.split("/g/")[1]


async def test_demo_web_keeps_serving_after_the_end_until_interrupted(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = [str(tmp_path / "d"), "--players", "2", "--max-rounds", "1", "--no-images"]
    args = parse(demo.add_arguments, [*argv, "--web", "--web-port", "0"])
    task = asyncio.ensure_future(demo.run_demo(args, out=out, err=err))
    for _ in range(1200):
        if "stays up" in out.getvalue() or task.done():
            break
        await asyncio.sleep(0.05)
    text = out.getvalue()
    assert not task.done(), (text, err.getvalue())
    [url] = ADDRESS.findall(text)
    assert f"The game page stays up: {url} — Ctrl-C to stop" in text
    assert f"export-html 1 {tmp_path / 'd' / 'page'}" in text
    assert await status_of(url) == 200
    task.cancel()  # what Ctrl-C does to asyncio.run's task
    assert await task == 0
    with pytest.raises(aiohttp.ClientConnectionError):
        await status_of(url)


async def test_export_html_writes_the_page_with_every_map(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    async with SqliteGameStore(str(db)) as store:
        svc = GameService(store)
        gid = (await svc.new_game(["ai:random", "ai:random"], seed=5)).game_id
        await svc.run_ai_turns(gid, until=lambda st: st.round > 1)
        version = (await svc.peek(gid)).version
    outdir = tmp_path / "page"
    out = io.StringIO()
    args = parse(export.add_arguments, [str(gid), str(outdir), "--db", str(db)])
    assert await export.export(args, out=out, err=io.StringIO()) == 0
    index = outdir / "index.html"
    assert out.getvalue().strip() == f"Game #{gid}'s page: {index.resolve()}"
    html = index.read_text(encoding="utf-8")
    assert "<html" in html.lower() and f"Game #{gid}" in html
    assert (outdir / "page.js").is_file() and (outdir / "page.css").is_file()
    maps = sorted(int(p.stem) for p in (outdir / "map").glob("*.png"))
    assert maps and maps[0] == 0 and maps[-1] == version, maps
    assert all(p.read_bytes().startswith(PNG) for p in (outdir / "map").glob("*.png"))
