"""A Tigris & Euphrates game's page (issue 18): the same page as Brazil: Imperial's, made
through the game's adapter — its steps in the game's public sentences with the players named
"Ana (Bow)", turns ("Turn 7 · …"), revolts and wars marked as conflicts, no eras, the public
board of each step, the scores behind the screens until the end — served whole (page,
``live.json``, ``steps.json``, a map) and exported; a whole game scanned for every seat's
tiles and points behind its screen (T-INFO-1/2); a page in Hungarian."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from i18n import tr
from rules.tigris.state import TigrisState
from service import Frame, GameService, ImageRequest, Result, render_image
from service.games import adapter
from service.results import SeatSpec
from storage.sqlite import SqliteGameStore
from web.export import export_html
from web.server import WebServer

PNG = b"\x89PNG\r\n\x1a\n"
A = adapter("tigris")


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[GameService]:
    async with SqliteGameStore(str(tmp_path / "tigris-pages.sqlite3")) as store:
        yield GameService(store)


async def _client(server: WebServer) -> TestClient[Any, Any]:
    client: TestClient[Any, Any] = TestClient(TestServer(server.app))
    await client.start_server()
    return client


def secrets_of(st: TigrisState, seats: list[SeatSpec], lang: str = "en") -> dict[str, str]:
    """What lies behind each seat's screen, as its hand text writes it: the tiles line
    ("tiles behind the screen: 3 red, 2 blue, 1 black") and its points ("red 3, blue 0,
    green 1, black 2"), unless the seat's points are open (``open_scoring``)."""
    out: dict[str, str] = {}
    for seat in range(len(st.players)):
        lines = [x.strip() for x in A.hand_text(st, seats, seat, lang).split("\n")]
        tiles = next(
            x for x in lines if x.startswith(tr(lang, "svc.tigris.hand.tiles", items="").strip())
        )
        out[tiles] = f"seat {seat}'s tiles"
        if not st.options.open_scoring:
            points = next(x for x in lines if ";" in x).split(": ", 1)[1].split(";")[0]
            out[points] = f"seat {seat}'s points"
    return out


def _leaks(body: str, secrets: dict[str, str], where: str) -> list[str]:
    out = [f"{where}: {what} ({text!r})" for text, what in secrets.items() if text in body]
    if '"seed"' in body or '"rng"' in body or '"bag"' in body:
        out.append(f"{where}: the seed or the bag")
    return out


def _shown(html: str) -> str:
    """The page without its scripts (the embedded data and the script's words)."""
    return re.sub(r"<script[^>]*>.*?</script>", "", html, flags=re.S)


def _embedded(html: str) -> dict[str, Any]:
    m = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html, re.S)
    assert m is not None
    data: dict[str, Any] = json.loads(m.group(1).replace("\\u003c", "<"))
    return data


@pytest.mark.slow
async def test_a_whole_tigris_game_served_shows_nothing_behind_the_screens_T_INFO_1(
    svc: GameService,
) -> None:
    # T-INFO-1 (tiles behind the screens), T-INFO-2 (points behind the screens until the
    # end): every third step's page and live JSON, and the whole archive at the end
    server = WebServer(svc, rate=100_000, burst=1_000_000)
    client = await _client(server)
    try:
        res = await svc.new_game(["ai:random"] * 3, game="tigris", seed=11)
        gid = res.game_id
        base = f"/g/{await svc.archive.token(gid)}/"
        seats = list((await svc.peek(gid)).seats)
        leaks: list[str] = []
        scanned = 0
        hidden_seen = False

        async def step(r: Result) -> None:
            nonlocal scanned, hidden_seen
            st = r.frames[r.version].state
            if r.version % 3 and st.phase != "over":
                return  # every third step: the whole page grows with the game
            secrets = secrets_of(st, seats)
            for path in ("live.json", ""):
                resp = await client.get(base + path)
                assert resp.status == 200, await resp.text()
                body = await resp.text()
                leaks.extend(_leaks(body, secrets, f"v{r.version} {path or 'page'}"))
                scanned += 1
                if path == "live.json" and st.phase != "over":
                    rows = json.loads(body)["scores"]
                    # behind the screens: no number, no colours
                    assert all(x["hidden"] and x["total"] is None for x in rows), rows
                    assert all(
                        set(x) <= {"seat", "who", "colour", "total", "winner", "hidden"}
                        for x in rows
                    )
                if path == "" and st.phase != "over":
                    hidden_seen = hidden_seen or "behind the screen" in body

        out = await svc.run_ai_turns(gid, on_step=step)
        assert out.over and out.applied > 100 and scanned > 60 and hidden_seen
        st = await svc.state(gid)
        body = await (await client.get(base + "steps.json")).text()
        leaks += _leaks(body, secrets_of(st, seats), "steps.json")
        assert leaks == []
        # the scan can fail: a seat's tiles line is found by it
        some = next(iter(secrets_of(st, seats)))
        assert _leaks(f"x {some} y", secrets_of(st, seats), "x")

        # steps.json: every step, the game's turns, conflicts as battles, no eras
        data = json.loads(body)
        steps = data["steps"]
        assert len(steps) == out.applied + 1
        assert data["eras"] is False and data["battle_word"] == "conflict"
        assert data["title"] == f"Game #{gid}: Tigris & Euphrates"
        assert steps[0]["kind"] == "start" and "(Bow)" in steps[0]["text"]
        assert all(s["era"] == 0 and not s["era_start"] for s in steps)
        labels = [t["label"] for t in data["turns"]]
        assert labels[0] == "Turn 1 · Computer (easy) 1 (Bow)"
        assert labels[-1].startswith(f"Turn {st.turn} · ")
        assert len(labels) > 50
        fought = [s for s in steps if s["battle"]]
        assert fought and all(" wins " in s["text"] for s in fought)
        assert any(" places " in s["text"] and "(B" in s["text"] for s in steps)

        # live.json at the end: the final scores, the winner; no one awaited
        live = await (await client.get(base + "live.json")).json()
        assert live["over"] and live["finished"] and live["waiting"] == []
        assert live["where"] == f"Game over · turn {st.turn}"
        rows = live["scores"]
        assert all(isinstance(x["total"], int) and not x.get("hidden") for x in rows)
        assert any(x["winner"] for x in rows)
        assert live["steps"] == len(steps)

        # the page: the game's words, no era menu, the conflicts' menu
        html = await (await client.get(base)).text()
        shown = _shown(html)
        assert 'id="jump-era"' not in html and "Era" not in shown and "Battle" not in shown
        assert "Conflict" in shown and "tiles and points behind the screens" in shown
        assert "http://" not in html and "https://" not in html
        replay = await (await client.get(base + f"?step={fought[0]['n']}")).text()
        assert 'class="badge badge-conflict"' in replay

        # a map: the public board at that step, the turn's squares ringed (the channel's)
        n = fought[0]["n"]
        v = steps[n]["version"]
        resp = await client.get(base + steps[n]["map"])
        assert resp.status == 200 and resp.headers["Content-Type"] == "image/png"
        png = await resp.read()
        assert png[:8] == PNG
        arch = await svc.archive.archive(gid)
        state = A.load(await svc.store.state_at(gid, v))
        want = render_image(
            ImageRequest("map", None, v, lang="en", game="tigris"),
            Frame(v, state, arch.events[n]),
        )
        assert png == want
        assert arch.events[n]  # the turn's events so far: its squares ringed
        assert await (await client.get(base + steps[n - 1]["map"])).read() != png
    finally:
        await client.close()


async def test_open_scoring_shows_the_points(svc: GameService) -> None:
    # T-INFO-2: with open scoring every view shows every player's points: so does the page
    res = await svc.new_game(
        ["ai:random", "ai:random"], game="tigris", seed=4, options={"open_scoring": True}
    )
    await svc.run_ai_turns(res.game_id, max_steps=40)
    live = await svc.archive.live(res.game_id)
    assert live.scores and all(not r.hidden for r in live.scores)
    assert any(r.categories for r in live.scores)


@pytest.mark.slow
async def test_the_static_export_of_a_tigris_game_in_hungarian(
    svc: GameService, tmp_path: Path
) -> None:
    res = await svc.new_game(["ai:random"] * 3, game="tigris", seed=7, language="hu")
    gid = res.game_id
    await svc.run_ai_turns(gid, max_steps=45)
    st = await svc.state(gid)
    seats = list((await svc.peek(gid)).seats)

    # the served page: every word Hungarian
    client = await _client(WebServer(svc))
    try:
        base = f"/g/{await svc.archive.token(gid)}/"
        html = await (await client.get(base)).text()
        live = await (await client.get(base + "live.json")).json()
        steps = await (await client.get(base + "steps.json")).json()
    finally:
        await client.close()
    assert '<html lang="hu"' in html
    shown = _shown(html)
    assert (
        live["lang"] == "hu" and live["where"] == f"{st.turn}. forduló"
    )  # a Tigris turn, as its rulebook says
    assert live["title"] == f"{gid}. játék: Tigris és Eufrátesz"
    assert "(Íj)" in steps["steps"][0]["text"]
    assert (
        steps["turns"][0]["label"].startswith("1. forduló · ")
        and "(Íj)" in steps["turns"][0]["label"]
    )
    assert "a paraván mögött" in shown  # the points behind the screens, no number
    assert "Konfliktus" in shown and "Csata" not in shown and "kor ·" not in shown
    assert tr("hu", "web.foot.tigris") in shown
    english = ("places a", "ends the turn", "Turn ", "behind the screen", "Game #")
    assert not [w for w in english if w in html], shown

    # the static copy: the page and every step's board
    index = await export_html(svc, gid, tmp_path / "out")
    page = index.read_text(encoding="utf-8")
    data = _embedded(page)
    assert data["steps"]["lang"] == "hu" and len(data["steps"]["steps"]) == 46
    for s in data["steps"]["steps"]:
        assert (tmp_path / "out" / s["map"]).read_bytes()[:8] == PNG
    assert (tmp_path / "out" / "page.js").exists() and (tmp_path / "out" / "page.css").exists()
    assert "http://" not in page and "https://" not in page
    assert _leaks(page, secrets_of(st, seats, "hu"), "export") == []
