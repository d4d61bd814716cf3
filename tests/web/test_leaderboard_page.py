"""A server's leaderboard page (``/s/<guild>/leaderboard/<game>``, issue #31) over whole rated
matches of the registry's small two-player game (the example game), played through the
service on a real SQLite file: the table is the service's (places, display names, ratings,
provisional ones tagged), no user id or player key in it, a season's final table kept; bad
addresses answered plainly; and in a real Chromium at phone size it reads without sideways
scrolling (the screenshot: ``docs/images/leaderboard-phone.png``)."""

from __future__ import annotations

import os
import random
import re
from collections.abc import AsyncIterator
from html import escape
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from rules.games import game, names
from service import GameService
from service.games import adapter_of
from service.results import SeatSpec
from storage.sqlite import SqliteGameStore
from tests.web.test_browser import CHROMIUM, PHONE
from web.server import WebServer

GUILD = 800_000_000_000_000_777
OTHER_GUILD = 800_000_000_000_000_778
ANA, BO, CY = 812_345_678_901_234_101, 812_345_678_901_234_102, 812_345_678_901_234_103
PEOPLE = {ANA: "Ana <b>&", BO: "Bo", CY: "Cyprián Łukasz-Ferreira"}

SMALL = next(
    n
    for n in names()
    if game(n).min_players == game(n).max_players == 2 and game(n).next_deciders is not None
)
"""A game of exactly two players (quick to play whole)."""


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[GameService]:
    async with SqliteGameStore(str(tmp_path / "lb.sqlite3")) as store:
        yield GameService(store)


async def match(svc: GameService, a: int, b: int, seed: int, guild: int = GUILD) -> int:
    """A whole match between users ``a`` and ``b`` on server ``guild``, each playing a
    random legal command (``seed``): the finished game's id."""
    seats = [SeatSpec(PEOPLE[u], user_id=u) for u in (a, b)]
    gid = (
        await svc.new_game(seats, game=SMALL, seed=seed, guild_id=guild, channel_id=900 + seed)
    ).game_id
    rng = random.Random(seed)
    for _ in range(200):
        st = await svc.state(gid)
        A = adapter_of(st)
        if A.over(st):
            break
        seat = A.face.deciders(st)[0]
        await svc.act(
            gid, seat, A.face.format_action(st, rng.choice(A.face.legal_actions(st, seat)))
        )
    assert (await svc.store.get_game(gid)).status.value == "finished"
    return gid


async def _client(server: WebServer) -> TestClient[Any, Any]:
    client: TestClient[Any, Any] = TestClient(TestServer(server.app))
    await client.start_server()
    return client


def cells(html: str) -> list[tuple[str, str, str, str, bool]]:
    """The table's rows: (place, name, rating, games, tagged provisional)."""
    body = html.partition("<tbody>")[2].partition("</tbody>")[0]
    out = []
    for cls, row in re.findall(r'<tr( class="provisional")?>(.*?)</tr>', body, re.S):
        tds = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        m = re.search(r'<span class="name">(.*?)</span>', tds[1])
        assert m is not None, row
        tagged = bool(cls) and 'class="tag"' in tds[1]
        out.append((tds[0], m.group(1), tds[2], tds[3], tagged))
    return out


async def test_the_page_is_the_services_table_without_ids(svc: GameService) -> None:
    for n, (a, b) in enumerate(((ANA, BO), (BO, CY), (CY, ANA), (ANA, BO))):
        await match(svc, a, b, seed=n)
    await match(svc, ANA, BO, seed=9, guild=OTHER_GUILD)  # another server's: not in this one
    table = await svc.ratings.table(GUILD, SMALL)
    assert len(table) == 3
    server = WebServer(svc, port=0)
    client = await _client(server)
    try:
        resp = await client.get(f"/s/{GUILD}/leaderboard/{SMALL}")
        assert resp.status == 200 and resp.content_type == "text/html"
        html = await resp.text()
    finally:
        await client.close()
    assert server.leaderboard_url(GUILD, SMALL).endswith(f"/s/{GUILD}/leaderboard/{SMALL}")
    expected = [
        (str(r.place), escape(r.name or "", quote=True), f"{r.rating:,}", str(r.games), True)
        for r in table
    ]
    assert cells(html) == expected
    assert "Ana &lt;b&gt;&amp;" in html and "<b>&" not in html  # the name escaped
    assert "Provisional: fewer than 5 rated games so far." in html
    # no user id, no player key, no game page token: display names only
    for uid in (ANA, BO, CY):
        assert str(uid) not in html
    assert "u:" not in html and "/g/" not in html
    assert "<script" not in html  # nothing to run: the page is the table


async def test_a_season_keeps_its_final_table(svc: GameService) -> None:
    await match(svc, ANA, BO, seed=1)
    season = await svc.ratings.start_season(GUILD, SMALL, "Spring 2027", by=ANA)
    await match(svc, BO, CY, seed=2)
    await svc.ratings.end_season(GUILD, SMALL, by=ANA)
    await match(svc, CY, ANA, seed=3)
    final = await svc.ratings.table(GUILD, SMALL, season=season.number)
    assert {r.name for r in final} == {"Bo", PEOPLE[CY]}
    client = await _client(WebServer(svc, port=0))
    try:
        now = await (await client.get(f"/s/{GUILD}/leaderboard/{SMALL}")).text()
        url = f"/s/{GUILD}/leaderboard/{SMALL}?season={season.number}"
        shown = await (await client.get(url)).text()
    finally:
        await client.close()
    assert [c[1] for c in cells(shown)] == [r.name for r in final]
    assert [c[3] for c in cells(shown)] == ["1", "1"]
    assert "Season Spring 2027 (over: the final table)" in shown
    assert len(cells(now)) == 3 and "The table now" in now
    # the seasons are linked from both, the one shown marked
    assert f'href="?season={season.number}"' in now
    assert f'href="?season={season.number}" aria-current="page"' in shown


async def test_in_the_readers_language(svc: GameService) -> None:
    await match(svc, ANA, BO, seed=1)
    client = await _client(WebServer(svc, port=0))
    try:
        resp = await client.get(
            f"/s/{GUILD}/leaderboard/{SMALL}", headers={"Accept-Language": "de-DE,de;q=0.9"}
        )
        html = await resp.text()
    finally:
        await client.close()
    assert '<html lang="de"' in html and "Rangliste" in html and "vorläufig" in html


async def test_bad_addresses_are_answered_plainly(svc: GameService) -> None:
    await match(svc, ANA, BO, seed=1)
    client = await _client(WebServer(svc, port=0))
    base = f"/s/{GUILD}/leaderboard"
    try:
        for path, status in (
            (f"{base}/chess", 404),  # no such game
            (f"/s/{OTHER_GUILD}/leaderboard/{SMALL}", 404),  # nothing rated there
            (f"{base}/{SMALL}?season=7", 404),  # no such season
            (f"{base}/{SMALL}?season=x", 400),
            (f"{base}/{SMALL}?page=2", 400),
            (f"/s/abc/leaderboard/{SMALL}", 404),
        ):
            resp = await client.get(path)
            assert resp.status == status, path
            body = await resp.text()
            assert str(ANA) not in body and "Traceback" not in body
    finally:
        await client.close()


# ------------------------------------------------------------------ a real browser, a phone


@pytest.mark.slow
@pytest.mark.requires("playwright")
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install Debian's chromium)")
async def test_the_page_fits_a_phone(svc: GameService, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    for n, (a, b) in enumerate(((ANA, BO), (BO, CY), (CY, ANA), (ANA, BO), (BO, CY))):
        await match(svc, a, b, seed=n)
    await svc.ratings.start_season(GUILD, SMALL, "Spring 2027", by=ANA)
    await match(svc, ANA, CY, seed=7)
    shots = Path(os.environ.get("WEB_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    server = WebServer(svc, host="127.0.0.1", port=0)
    await server.start()
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
            )
            try:
                errors: list[str] = []
                for scheme in ("light", "dark"):
                    ctx = await browser.new_context(color_scheme=scheme, **PHONE)
                    page = await ctx.new_page()
                    page.on("pageerror", lambda e: errors.append(str(e)))
                    await page.goto(server.leaderboard_url(GUILD, SMALL))
                    await page.screenshot(
                        path=str(shots / f"leaderboard-phone-{scheme}.png"), full_page=True
                    )
                    # nothing wider than the screen: no sideways scrolling
                    width = await page.evaluate("document.scrollingElement.scrollWidth")
                    assert width <= PHONE["viewport"]["width"], width
                    size = await page.evaluate(
                        "parseFloat(getComputedStyle(document.body).fontSize)"
                    )
                    assert size >= 16
                    rows = await page.locator("tbody tr").count()
                    assert rows == 3
                    # the seasons' links are big enough to tap
                    links = page.locator(".seasons a")
                    assert await links.count() == 2
                    for i in range(2):
                        box = await links.nth(i).bounding_box()
                        assert box is not None and box["height"] >= 44
                    # the long name wraps inside its cell: every cell within the screen
                    right = await page.evaluate(
                        "Math.max(...[...document.querySelectorAll('td')]"
                        ".map((c) => c.getBoundingClientRect().right))"
                    )
                    assert right <= PHONE["viewport"]["width"]
                    assert errors == []
                    await ctx.close()
            finally:
                await browser.close()
    finally:
        await server.stop()


async def test_the_game_pages_rate_limit_holds(svc: GameService) -> None:
    # the same per-address limit as the game pages: past it, a plain 429 in the reader's
    # language, nothing of the table
    await match(svc, ANA, BO, seed=1)
    client = await _client(WebServer(svc, port=0, burst=2))
    url = f"/s/{GUILD}/leaderboard/{SMALL}"
    try:
        statuses = [(await client.get(url)).status for _ in range(2)]
        resp = await client.get(url, headers={"Accept-Language": "pl"})
        body = await resp.text()
    finally:
        await client.close()
    assert statuses == [200, 200]
    assert resp.status == 429 and resp.headers["Retry-After"]
    assert '<html lang="pl"' in body and 'class="name"' not in body
