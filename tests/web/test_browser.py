"""A game's page in a real browser (Playwright driving Debian's Chromium): it follows the game
without reloading, the replay answers the keyboard, and it fits a phone's screen.

Skipped when no Chromium is found (``CHROMIUM``: the browser's path). The phone screenshots
are written to ``WEB_SCREENSHOT_DIR`` when it is set (to look at them), else to tmp_path.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from service import moderation
from service.game import GameService
from storage.sqlite import SqliteGameStore
from tests.web.test_page import _game as _hand_made
from web.data import live_json, steps_json
from web.page import render_page
from web.server import WebServer

STATIC = Path(__file__).parents[2] / "web" / "static"


def _chromium() -> str | None:
    env = os.environ.get("CHROMIUM")
    if env:
        return env if Path(env).exists() else shutil.which(env)
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = _chromium()
pytestmark = [
    pytest.mark.slow,  # a real browser (tests/README.md)
    pytest.mark.requires("playwright"),
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium found (install Debian's chromium, or set CHROMIUM to a browser's path)",
    ),
]

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


@dataclass
class Site:
    svc: GameService
    server: WebServer
    browser: Any  # playwright's Browser


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    from playwright.async_api import async_playwright

    async with SqliteGameStore(str(tmp_path / "g.sqlite3")) as store:
        svc = GameService(store)
        server = WebServer(svc, host="127.0.0.1", port=0, poll=0.05)
        await server.start()
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
                )
                try:
                    yield Site(svc, server, browser)
                finally:
                    await browser.close()
        finally:
            await server.stop()


async def _game(svc: GameService, turns: int, *, undo: bool = False) -> int:
    """Ana against the heuristic, Ana playing her last legal command ``turns`` times (and
    taking the last one back): a game that stays live, waiting for Ana."""
    gid = (await svc.new_game(["Ana", "ai:heuristic"], seed=5)).game_id
    for _ in range(turns):
        await svc.run_ai_turns(gid)
        await svc.act(gid, 0, (await svc.legal(gid, 0))[-1])
    if undo:
        await moderation.undo(svc, gid, 0)
    await svc.run_ai_turns(gid)
    return gid


async def _page(site: Site, **context: Any) -> tuple[Any, list[str]]:
    """A new page, and the script errors it will raise (none expected)."""
    ctx = await site.browser.new_context(**context)
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


async def test_the_page_follows_the_game_without_reloading(site: Site) -> None:
    svc = site.svc
    gid = await _game(svc, 6)
    page, errors = await _page(site)
    await page.goto(await site.server.page_url(gid))
    await page.wait_for_selector("#conn.on")  # the live stream is open
    await page.evaluate("window.notReloaded = true")
    await page.click("#tab-replay")  # at the newest step: the replay follows the game
    before = int(await page.get_attribute("body", "data-version"))

    await svc.act(gid, 0, (await svc.legal(gid, 0))[-1])
    await svc.run_ai_turns(gid)
    live = live_json(await svc.archive.live(gid))
    steps = steps_json(await svc.archive.archive(gid))
    assert live["version"] > before

    await page.wait_for_selector(f'body[data-version="{live["version"]}"]', timeout=10_000)
    assert await page.evaluate("window.notReloaded") is True
    last = len(steps["steps"]) - 1
    assert await page.text_content("#step-no") == f"Step {last} of {last}"
    assert await page.text_content("#step-text") == steps["steps"][-1]["text"]
    await page.click("#tab-live")
    assert await page.text_content("#where") == live["where"]
    assert await page.inner_text("#last-turn") == "\n".join(live["last_turn"])
    assert (await page.get_attribute("#live-map", "src")) == live["map"]
    assert await page.evaluate("location.search") == ""
    assert errors == []


async def test_the_replay_answers_the_keyboard(site: Site) -> None:
    svc = site.svc
    gid = await _game(svc, 6, undo=True)
    steps = steps_json(await svc.archive.archive(gid))["steps"]
    last = len(steps) - 1
    page, errors = await _page(site)
    await page.goto(await site.server.page_url(gid) + "?step=3")

    async def at(n: int) -> None:
        assert await page.text_content("#step-no") == f"Step {n} of {last}"
        assert await page.text_content("#step-text") == steps[n]["text"]
        assert await page.get_attribute("#step-map", "src") == steps[n]["map"]
        assert await page.evaluate("location.search") == f"?step={n}"
        assert await page.get_attribute("#step-link", "href") == f"?step={n}"

    await at(3)
    await page.keyboard.press("ArrowRight")
    await at(4)
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowLeft")
    await at(2)
    await page.keyboard.press("End")
    await at(last)
    assert await page.is_disabled("#next")
    await page.keyboard.press("Home")
    await at(0)
    assert await page.is_disabled("#prev")
    await page.click("#next")
    await at(1)

    # a step taken back is shown, marked; the undo itself too
    taken = next(s["n"] for s in steps if s["undone"])
    await page.goto(await site.server.page_url(gid) + f"?step={taken}")
    await at(taken)
    assert await page.is_visible("#step.undone .badge-undone")
    await page.keyboard.press("End")
    assert await page.text_content("#step-badges") == "undo"
    # the menus jump to a turn
    await page.select_option("#jump-turn", "1")
    turn1 = steps_json(await svc.archive.archive(gid))["turns"][1]["first"]
    await at(turn1)
    assert errors == []


async def test_the_page_fits_a_phone(site: Site, tmp_path: Path) -> None:
    gid = await _game(site.svc, 8, undo=True)
    shots = Path(os.environ.get("WEB_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    url = await site.server.page_url(gid)
    taken = next(
        s["n"] for s in steps_json(await site.svc.archive.archive(gid))["steps"] if s["undone"]
    )
    for scheme in ("light", "dark"):
        page, errors = await _page(site, color_scheme=scheme, **PHONE)
        for view, query in (("live", ""), ("replay", f"?step={taken}")):
            await page.goto(url + query)
            await page.wait_for_function(
                "[...document.images].every((i) => i.complete && i.naturalWidth > 0)"
            )
            await page.screenshot(path=str(shots / f"phone-{view}-{scheme}.png"), full_page=True)
            # nothing wider than the screen: no sideways scrolling
            width = await page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= PHONE["viewport"]["width"], (view, width)
            size = await page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
            assert size >= 16
        for target in ("#prev", "#next", "#tab-live", "#tab-replay", "#jump-turn"):
            box = await page.locator(target).bounding_box()
            assert box is not None and box["height"] >= 44, target
        assert errors == []


async def test_a_refused_stream_falls_back_to_polling(site: Site) -> None:
    gid = await _game(site.svc, 1)
    page, errors = await _page(site)
    await page.route("**/events", lambda route: route.fulfill(status=503, body="busy"))
    await page.goto(await site.server.page_url(gid))
    await page.wait_for_selector("#conn.poll", timeout=10_000)
    assert await page.text_content("#conn") == "Checking every 10 s"
    assert errors == []


async def test_a_saved_copy_works_from_its_own_data(site: Site) -> None:
    # the page of the static export, served from a made-up address: the script uses only
    # the data embedded in the page (no stream, no JSON asked for)
    live, steps = _hand_made()
    due = datetime.now(UTC) + timedelta(hours=5)
    live["waiting"][0]["deadline"] = due.isoformat().replace("+00:00", "Z")
    html = render_page(live, steps, static=True)
    asked: list[str] = []

    async def serve(route: Any) -> None:
        path = urlsplit(route.request.url).path
        asked.append(path)
        if path == "/index.html":
            await route.fulfill(body=html, content_type="text/html; charset=utf-8")
        elif path in ("/page.js", "/page.css"):
            kind = "text/javascript" if path.endswith(".js") else "text/css"
            await route.fulfill(body=(STATIC / path[1:]).read_bytes(), content_type=kind)
        elif path.startswith("/map/"):
            await route.fulfill(body=_png(), content_type="image/png")
        else:
            await route.fulfill(status=404, body="")

    page, errors = await _page(site)
    await page.route("http://game.test/**", serve)
    await page.goto("http://game.test/index.html")
    assert await page.text_content("#conn") == "Saved copy"
    # the deadline in the reader's time, and how far it is
    assert re.fullmatch(r"due .+ \(in 5 hours\)", await page.text_content("time.due") or "")
    await page.click("#tab-replay")
    assert await page.is_hidden("#live") and await page.is_visible("#replay")
    assert await page.text_content("#step-no") == "Step 4 of 4"
    await page.keyboard.press("ArrowLeft")
    assert await page.text_content("#step-text") == steps["steps"][3]["text"]
    await page.goto("http://game.test/index.html?step=2")
    assert await page.is_visible("#replay .badge-undone")
    assert await page.text_content("#step-no") == "Step 2 of 4"
    assert not {"/events", "/live.json", "/steps.json"} & set(asked)
    assert errors == []


def _png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (40, 40), (250, 248, 240)).save(out, "PNG")
    return out.getvalue()
