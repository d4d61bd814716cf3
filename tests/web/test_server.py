"""The game pages' server without a browser (aiohttp's test client): public only, over whole
games; bad input answered plainly; live streams; the static export."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from rules.brazil import GameState
from service import Frame, GameService, ImageRequest, Result, render_image
from storage.sqlite import SqliteGameStore
from tests.service.test_service import _mentions, hidden_names
from web.export import export_html
from web.server import WebServer


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[GameService]:
    async with SqliteGameStore(str(tmp_path / "pages.sqlite3")) as store:
        yield GameService(store)


async def _client(server: WebServer) -> TestClient[Any, Any]:
    client: TestClient[Any, Any] = TestClient(TestServer(server.app))
    await client.start_server()
    return client


def _catalog_names(state: GameState) -> set[str]:
    from rules.brazil.catalog import get_catalog

    cat = get_catalog(state.data_pack)
    tables = (cat.gold_cards, cat.combat_cards, cat.missions)
    return {item.name for table in tables for item in table.values()}


def _leaks(body: str, state: GameState, where: str) -> list[str]:
    out = []
    names = _catalog_names(state)
    for name, ident in hidden_names(state).items():
        # a longer name that holds this one is not a mention of it: the gold card "War chest"
        # paid in public is no sign of a combat card "War" in someone's hand
        masked = body
        for longer in names:
            if longer != name and _mentions(longer, name):
                masked = masked.replace(longer, "")
        if _mentions(masked, name):
            out.append(f"{where}: {name} ({ident})")
    if '"seed"' in body or "rng" in body:
        out.append(f"{where}: the seed")
    return out


@pytest.mark.slow
async def test_pages_show_nothing_hidden_over_whole_games__R_SETUP_5(svc: GameService) -> None:
    # R-SETUP-5 (kept missions are secret), R-VOC-5 / R-COMBAT-4 (cards in hand are secret):
    # every step's live JSON and page, and the archive at the end, hold public things only
    server = WebServer(svc, rate=100_000, burst=1_000_000)
    client = await _client(server)
    try:
        for seed in (11, 12):
            res = await svc.new_game(["ai:random", "ai:random", "ai:random"], seed=seed)
            gid = res.game_id
            base = f"/g/{await svc.archive.token(gid)}/"
            leaks: list[str] = []
            scanned = 0

            async def step(r: Result, base: str = base, leaks: list[str] = leaks) -> None:
                nonlocal scanned
                st = r.frames[r.version].state
                if r.version % 3 and st.phase != "ended":
                    return  # every third step: the whole page grows with the game
                for path in ("live.json", ""):
                    resp = await client.get(base + path)
                    assert resp.status == 200, await resp.text()
                    leaks.extend(_leaks(await resp.text(), st, f"v{r.version} {path or 'page'}"))
                    scanned += 1

            out = await svc.run_ai_turns(gid, on_step=step, until=lambda s: s.round > 30)
            assert out.applied > 150 and scanned > 100
            st = await svc.state(gid)
            body = await (await client.get(base + "steps.json")).text()
            leaks += _leaks(body, st, "steps.json")
            data = json.loads(body)
            assert len(data["steps"]) == out.applied + 1  # the start and every step
            assert leaks == []
            # the scan can fail: a kept mission's name is found by it
            assert hidden_names(st) and _leaks(next(iter(hidden_names(st))), st, "x")
    finally:
        await client.close()


async def test_bad_input_gets_plain_answers(svc: GameService) -> None:
    res = await svc.new_game(["Ana", "ai:random"], seed=3)
    tok = await svc.archive.token(res.game_id)
    server = WebServer(svc)
    client = await _client(server)
    try:
        for path, status, words in (
            ("/g/nosuchtokenatallxx/", 404, "No game page here"),
            ("/g/x/", 404, "No game page here"),
            ("/g/nosuchtokenatallxx/live.json", 404, "No game page here"),
            (f"/g/{tok}/?step=abc", 400, "step must be a step number"),
            (f"/g/{tok}/?step=-1", 400, "step must be a step number"),
            (f"/g/{tok}/?step=99999", 404, "This game has steps 0 to 0; not 99999"),
            (f"/g/{tok}/?zoom=3", 400, "takes no zoom parameter"),
            (f"/g/{tok}/map/77.png", 404, "no map at step version 77"),
            (f"/g/{tok}/map/abc.png", 404, ""),
        ):
            resp = await client.get(path)
            text = await resp.text()
            assert resp.status == status, (path, text)
            assert words in text, (path, text)
            assert "Traceback" not in text
        resp = await client.post(f"/g/{tok}/", data="x" * 100_000)
        assert resp.status in (405, 413)
        resp = await client.get(f"/g/{tok}/", headers={"X-Big": "y" * 20_000})
        assert resp.status in (400, 431)
        resp = await client.get(f"/g/{tok}", allow_redirects=False)
        assert resp.status == 301 and resp.headers["Location"] == f"/g/{tok}/"
        assert (await client.get("/healthz")).status == 200
    finally:
        await client.close()


async def test_a_revoked_address_stops_working(svc: GameService) -> None:
    res = await svc.new_game(["Ana", "ai:random"], seed=3)
    old = await svc.archive.token(res.game_id)
    assert await svc.archive.token(res.game_id) == old  # kept
    new = await svc.archive.reset_token(res.game_id)
    assert new != old and len(new) >= 24
    client = await _client(WebServer(svc))
    try:
        assert (await client.get(f"/g/{old}/")).status == 404
        assert (await client.get(f"/g/{new}/")).status == 200
    finally:
        await client.close()


async def test_one_address_asking_too_often_is_slowed_down(svc: GameService) -> None:
    res = await svc.new_game(["Ana", "ai:random"], seed=3)
    tok = await svc.archive.token(res.game_id)
    client = await _client(WebServer(svc, rate=5, burst=50))
    try:
        codes = [(await client.get(f"/g/{tok}/live.json")).status for _ in range(12)]
        assert codes[:5] == [200] * 5 and 429 in codes
        resp = await client.get("/healthz")
        assert resp.status == 429 and resp.headers["Retry-After"]
    finally:
        await client.close()


async def test_the_live_stream_tells_each_new_version(svc: GameService) -> None:
    res = await svc.new_game(["Ana", "Bo"], seed=4)
    gid = res.game_id
    server = WebServer(svc, poll=0.02, keepalive=0.2)
    client = await _client(server)
    try:
        resp = await client.get(f"/g/{await svc.archive.token(gid)}/events")
        assert resp.headers["Content-Type"].startswith("text/event-stream")

        async def next_version() -> int:
            while True:
                line = (await resp.content.readline()).decode()
                if line.startswith("data:"):
                    return int(json.loads(line[5:])["version"])

        assert await asyncio.wait_for(next_version(), 5) == 0
        await svc.act(gid, 0, (await svc.legal(gid, 0))[0])
        assert await asyncio.wait_for(next_version(), 5) == 1
        # quiet game: comments keep the stream open, no event
        line = await asyncio.wait_for(resp.content.readline(), 5)
        while line == b"\n":
            line = await asyncio.wait_for(resp.content.readline(), 5)
        assert line.startswith(b": ping")
        resp.close()
    finally:
        await server.stop()
        await client.close()


async def test_undone_steps_are_marked_not_hidden(svc: GameService) -> None:
    res = await svc.new_game(["Ana", "ai:heuristic"], seed=4)
    gid = res.game_id
    for _ in range(200):  # Ana plays until a step of hers may be taken back
        await svc.run_ai_turns(gid)
        r = await svc.act(gid, 0, (await svc.legal(gid, 0))[-1])
        assert r.ok, r.errors
        if r.undo_allowed:
            break
    taken = (await svc.archive.archive(gid)).steps[-1]
    back = await svc.undo(gid, 0)
    assert back.ok, back.errors
    await svc.act(gid, 0, (await svc.legal(gid, 0))[0])
    arch = await svc.archive.archive(gid)
    kinds = [(s.kind, s.undone) for s in arch.steps[-3:]]
    assert kinds == [("action", True), ("undo", False), ("action", False)]
    assert arch.steps[-3].text == taken.text and "took back" in arch.steps[-2].text
    assert not any(s.undone for s in arch.steps[:-3])
    # the map at the undo is the state taken back to, drawn as the channel drew it
    undo = arch.steps[-2]
    target = GameState.model_validate_json(await svc.store.state_at(gid, undo.version - 2))
    want = render_image(ImageRequest("map", None, undo.version), Frame(undo.version, target))
    assert await svc.archive.map_png(gid, undo.version) == want


async def test_static_export_holds_the_page_and_every_map(svc: GameService, tmp_path: Path) -> None:
    res = await svc.new_game(["ai:random", "ai:random"], seed=5)
    await svc.run_ai_turns(res.game_id, until=lambda s: s.round > 2)
    index = await export_html(svc, res.game_id, tmp_path / "out")
    html = index.read_text(encoding="utf-8")
    data = json.loads(
        re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html, re.S)
        .group(1)  # type: ignore[union-attr]
        .replace("\\u003c", "<")
    )
    steps = data["steps"]["steps"]
    assert len(steps) > 10
    for s in steps:
        assert (tmp_path / "out" / s["map"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "out" / "page.js").exists() and (tmp_path / "out" / "page.css").exists()
    assert "http://" not in html and "https://" not in html


async def test_a_language_change_gives_the_maps_a_new_address(svc: GameService) -> None:
    """A browser keeps a map as long as it likes (immutable): the language is in the map's
    address, so after ``/game language`` the page shows maps drawn in the new language
    (issue #17), while the static copy's maps are plain files in its one language."""
    res = await svc.new_game(["Ana", "ai:random"], seed=3)
    gid = res.game_id
    tok = await svc.archive.token(gid)
    client = await _client(WebServer(svc))
    try:
        live = await (await client.get(f"/g/{tok}/live.json")).json()
        assert live["map"].endswith("?lang=en")
        en = await (await client.get(f"/g/{tok}/{live['map']}")).read()
        await svc.languages.set_game_language(gid, "hu")
        live = await (await client.get(f"/g/{tok}/live.json")).json()
        steps = await (await client.get(f"/g/{tok}/steps.json")).json()
        assert live["map"].endswith("?lang=hu") and steps["steps"][-1]["map"] == live["map"]
        resp = await client.get(f"/g/{tok}/{live['map']}")
        assert "immutable" in resp.headers["Cache-Control"]
        hu = await resp.read()
        assert hu[:8] == b"\x89PNG\r\n\x1a\n" and hu != en
        # an address asking English still gets the English map (a page loaded before)
        assert await (await client.get(f"/g/{tok}/{live['map'][:-2]}en")).read() == en
    finally:
        await client.close()
