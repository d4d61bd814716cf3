"""A game's page in the game's language (issue 17): every word of the page — the server's
HTML, the archive's sentences and labels, the script's words embedded as JSON, the error
pages — is a ``web.*`` text of the catalogue in that language; ``<html lang>`` names it; the
pseudo-language leaves no text of the page unbracketed: the event sentences of the steps and
of the last turn (``service.core.named_text`` in the page's language) included, but for the
players' names and the hexes' labels.
"""

from __future__ import annotations

import asyncio
import json
import re
import tomllib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiohttp.test_utils import TestClient, TestServer

from i18n import DEFAULT, PSEUDO, catalogue, supported, tr, translator
from i18n.pseudo import pseudo_text
from i18n.render import parse
from service import moderation
from service.archive import decision_text, game_language
from service.game import GameService
from storage.models import GameSettings
from storage.sqlite import SqliteGameStore
from tests.web.test_browser import CHROMIUM, PHONE, STATIC, _png
from tests.web.test_page import _game as _hand_made
from web.data import live_json, steps_json
from web.page import SERVER_ONLY, error_page, page_texts, render_page, utc_text
from web.server import WebServer, reader_language

LANGS = supported()
OTHERS = [x for x in LANGS if x != DEFAULT]
PAGE_JS = Path(__file__).parents[2] / "web" / "static" / "page.js"
LANG_STORED = "language" in GameSettings.model_fields
"""The game's language setting (GameSettings.language) is stored: the server's tests of a
game in another language run (the setting comes with the Discord languages' branch)."""

HTML_LANG = {"en": "en", "pt-BR": "pt-BR", "fr": "fr", "de": "de", "hu": "hu", "pl": "pl"}


# ------------------------------------------------------------------------ a real game


@dataclass
class Game:
    """One game (Ana against the heuristic, a step taken back) as each language shows it."""

    names: tuple[str, ...]  # the seats' player names
    pages: dict[str, tuple[dict[str, Any], dict[str, Any]]]  # lang -> (live, steps) JSON


async def _play(path: Path) -> Game:
    async with SqliteGameStore(str(path)) as store:
        svc = GameService(store)
        gid = (await svc.new_game(["Ana", "ai:heuristic"], seed=5)).game_id
        for _ in range(6):
            await svc.run_ai_turns(gid)
            await svc.act(gid, 0, (await svc.legal(gid, 0))[-1])
        await moderation.undo(svc, gid, 0)
        await svc.run_ai_turns(gid)
        pages = {}
        for lang in [*LANGS, PSEUDO]:
            live = live_json(await svc.archive.live(gid, lang=lang))
            steps = steps_json(await svc.archive.archive(gid, lang=lang))
            pages[lang] = (live, steps)
        names = tuple(s.name for s in svc.seat_specs(await store.get_game(gid)))
        return Game(names, pages)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return asyncio.run(_play(tmp_path_factory.mktemp("i18n") / "g.sqlite3"))


def _views(g: Game, lang: str) -> dict[str, str]:
    """The game's page in ``lang``: the live board, the replay at its start, at a step of
    the game, at the undo, and the static copy."""
    live, steps = g.pages[lang]
    kinds = [s["kind"] for s in steps["steps"]]
    undo = kinds.index("undo")
    return {
        "live": render_page(live, steps),
        "start": render_page(live, steps, step=0),
        "step": render_page(live, steps, step=2),
        "undo": render_page(live, steps, step=undo),
        "static": render_page(live, steps, static=True),
    }


# ------------------------------------------------------------------------ the HTML's texts


class _Texts(HTMLParser):
    """Every visible text of a document (text nodes outside script and style, and the
    ``title``, ``alt`` and ``aria-label`` attributes), in order."""

    ATTRS = ("title", "alt", "aria-label")

    def __init__(self) -> None:
        super().__init__()
        self.out: list[str] = []
        self.stack: list[str] = []  # the open tags

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ("meta", "link", "input", "img", "br"):
            self.stack.append(tag)
        self.handle_startendtag(tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name in self.ATTRS:
            value = dict(attrs).get(name)
            if value:
                self.out.append(value)

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop() == tag:
                break

    def handle_data(self, data: str) -> None:
        if any(t in ("script", "style") for t in self.stack):
            return
        if data.strip():
            self.out.append(data.strip())


def texts(page: str) -> list[str]:
    p = _Texts()
    p.feed(page)
    p.close()
    return p.out


def _same_as_english(lang: str) -> set[str]:
    keys: set[str] = set()
    for path in set(catalogue(lang).sources.values()):
        with path.open("rb") as f:
            keys |= set(tomllib.load(f).get("meta", {}).get("same_as_english", []))
    return keys


def _plain_english() -> dict[str, str]:
    """The page's English texts that need no value (key -> text), with a letter in them."""
    en = catalogue(DEFAULT).messages
    return {
        k: v
        for k, v in en.items()
        if k.startswith("web.")
        and all(how in ("", "term") for _, how, _ in parse(v))
        and any(c.isalpha() for c in v)
    }


def _embedded(page: str, ident: str) -> Any:
    m = re.search(rf'<script id="{ident}" type="application/json">(.*?)</script>', page, re.S)
    assert m is not None, ident
    return json.loads(m.group(1))


# ------------------------------------------------------------------------ tests


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_names_its_language_and_embeds_every_word_of_the_script(
    game: Game, lang: str
) -> None:
    page = _views(game, lang)["live"]
    assert f'<html lang="{HTML_LANG[lang]}" data-locale="' in page
    assert game.pages[lang][0]["lang"] == lang == game.pages[lang][1]["lang"]
    embedded = _embedded(page, "texts")
    assert embedded == page_texts(lang)
    # complete: every text of the page's but the server's own, in this language
    en = catalogue(DEFAULT).messages
    own = catalogue(lang).messages
    want = {k for k in en if k.startswith("web.") and not k.startswith(SERVER_ONLY)}
    assert set(embedded) == want
    assert all(embedded[k] == own[k] for k in want), "a text fell back to English"
    # every key the script uses is there: named in full, or the badges' web.badge.<kind>
    script = PAGE_JS.read_text(encoding="utf-8")
    used = set(re.findall(r'"(web\.[a-z_.]+[a-z_])"', script))
    assert used and used <= set(embedded), sorted(used - set(embedded))
    assert '"web.badge." + k' in script
    assert {f"web.badge.{k}" for k in ("undone", "undo", "rollback", "battle", "era")} <= set(
        embedded
    )
    # the script fills the templates itself: no term reference it would have to look up
    assert not [k for k, v in embedded.items() if "{@" in v]


def test_the_script_writes_no_english_of_its_own() -> None:
    # page.js shows words only through text("web.…"); its string literals are names of
    # things (kinds, classes, events); the browser tests below find any other text
    script = PAGE_JS.read_text(encoding="utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in script.splitlines())
    kinds = {"undo", "battle", "rollback"}  # a step's kinds, named as in the data
    for words in _plain_english().values():
        if words not in kinds:
            assert f'"{words}"' not in code and f'"{words} ' not in code, words


@pytest.mark.slow
@pytest.mark.parametrize("lang", OTHERS)
def test_a_page_in_another_language_shows_none_of_the_english_page(game: Game, lang: str) -> None:
    same = {tr(DEFAULT, k) for k in _same_as_english(lang) if k.startswith("web.")}
    # a player's name, alone or with a colour the language writes as English does (orange)
    names = set(game.names) | {
        tr(DEFAULT, "web.seat.coloured", name=n, colour=tr(DEFAULT, k))
        for n in game.names
        for k in _same_as_english(lang)
        if k.startswith("web.colour.")
    }
    plain = {v for k, v in _plain_english().items() if k not in _same_as_english(lang)}
    en_views, views = _views(game, DEFAULT), _views(game, lang)
    for view, page in views.items():
        en_texts, own_texts = texts(en_views[view]), texts(page)
        # the same page, word for word in another language: the event sentences too
        assert len(en_texts) == len(own_texts), view
        for en, text in zip(en_texts, own_texts, strict=True):
            if en in names or en in same or not re.search(r"[A-Za-z]", en):
                continue  # a player's name, a number
            assert text != en, (lang, view, en)
        # and no English text of the page's anywhere in it
        for text in own_texts:
            assert text not in plain, (lang, view, text)
            assert not [w for w in plain if len(w) > 12 and w in text], (lang, view, text)


def test_the_pseudo_language_leaves_no_text_of_the_page_unbracketed(game: Game) -> None:
    names = set(game.names)
    for view, page in _views(game, PSEUDO).items():
        assert '<html lang="en-XA"' in page
        for text in texts(page):  # the event sentences too
            assert _bare(text, names) == "", (view, text)


def test_the_pseudo_language_over_every_part_of_the_page() -> None:
    # the hand-made game with its data in the pseudo-language (as the archive gives it):
    # deadlines, a paused clock, badges, a winner, a game over, an abandoned game
    live, steps = _hand_made()
    live["title"] = steps["title"] = pseudo_text("Game #7: Cisplatine War")
    live["where"] = pseudo_text("Era 1 · round 1")
    live["last_turn"] = [pseudo_text(s) for s in live["last_turn"]]
    for w in live["waiting"]:
        w["what"] = decision_text("turn" if w["seat"] == 0 else "combat_cards", PSEUDO)
    for s in steps["steps"]:
        s["text"] = pseudo_text(s["text"])
    for t in steps["turns"]:
        t["label"] = pseudo_text(t["label"])
    names = {"Ana (red)", "Bo (blue)"}
    over = {**live, "over": True, "scores": [{**live["scores"][0], "winner": True}]}
    pages = [render_page(live, steps, lang=PSEUDO, step=n) for n in (None, 0, 2, 3, 4)]
    pages += [
        render_page(over, steps, lang=PSEUDO),
        render_page({**over, "abandoned": True}, steps, lang=PSEUDO),
        render_page(live, {**steps, "steps": [], "turns": []}, lang=PSEUDO, step=0),
        render_page({**live, "waiting": []}, steps, lang=PSEUDO, static=True),
    ]
    for page in pages:
        for text in texts(page):
            assert _bare(text, names) == "", text
    assert '<time class="due" datetime="2025-05-01T14:00:00Z">[dúé ' in pages[0]


def _bare(text: str, names: set[str]) -> str:
    """What is left of a text outside brackets, player names, hex labels and punctuation."""
    while True:
        inner = re.sub(r"\[[^\[\]]*\]", "", text)
        if inner == text:
            break
        text = inner
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    text = re.sub(r"\b[A-Z]\d{1,2}\b", "", text)  # hex labels (D3)
    return "".join(c for c in text if c.isalpha())


@pytest.mark.parametrize("lang", LANGS)
def test_the_archive_speaks_the_language(game: Game, lang: str) -> None:
    live, steps = game.pages[lang]
    assert steps["turns"][0]["label"] == tr(lang, "web.turn.setup")
    start = steps["steps"][0]["text"]
    assert live["title"] == steps["title"]
    # the start: the title and the seats, in the language's words
    head = tr(lang, "web.step.start", title=live["title"], players=["\0"]).split("\0")[0]
    assert start.startswith(head), start
    undo = next(s for s in steps["steps"] if s["kind"] == "undo")
    target = int(re.findall(r"\d+", undo["text"])[-1])
    colour = tr(lang, "web.colour.blue")
    ana = tr(lang, "web.seat.coloured", name="Ana", colour=colour)
    assert undo["text"] == tr(lang, "web.step.undo", who=ana, target=target)
    # who decides and for what; the seats' colours for their markers
    assert [w["what"] for w in live["waiting"]] == [tr(lang, "web.decision.turn")]
    assert live["waiting"][0]["who"] == ana and live["waiting"][0]["colour"] == "blue"
    assert {r["who"] for r in live["scores"]} >= {ana}
    last = steps["steps"][-1]
    assert live["where"] == tr(lang, "web.where.play", era=last["era"], round=last["round"])
    if lang == DEFAULT:  # English as it always was
        assert steps["turns"][0]["label"] == "Setup" and ana == "Ana (blue)"
        assert start.startswith("The game begins: Game #") and live["title"].startswith("Game #")
        assert "took back a step: the game is back at step" in undo["text"]
        assert live["waiting"][0]["what"] == "to play"


def test_the_deadline_in_utc_is_written_as_the_language_writes_dates() -> None:
    iso = "2025-05-01T14:00:00Z"
    assert utc_text(iso) == "Thu 1 May, 14:00 UTC"  # English as it always was
    assert utc_text(iso, "de") == "Do., 1. Mai, 14:00 UTC"
    assert utc_text(iso, "fr") == "jeu. 1 mai à 14:00 UTC"
    assert utc_text(iso, "pl") == "czw., 1 maj, 14:00 UTC"
    live, steps = _hand_made()
    page = render_page(live, steps, lang="de")
    assert '<time class="due" datetime="2025-05-01T14:00:00Z">bis Do., 1. Mai, 14:00 UTC' in page


def test_the_game_s_language_is_read_from_its_settings() -> None:
    rec: Any = SimpleNamespace(settings=SimpleNamespace(scenario="amazon"))
    assert game_language(rec) == "en"  # settings without a language: English
    for value, want in (("de", "de"), ("pt_BR", "pt-BR"), ("xx", "en"), (None, "en")):
        rec.settings = SimpleNamespace(language=value)
        assert game_language(rec) == want


# ------------------------------------------------------------------------ error pages


def test_error_pages_in_a_language() -> None:
    for lang in LANGS:
        title = tr(lang, "web.error.not_found.title")
        page = error_page(404, title, tr(lang, "web.error.not_found.text"), lang=lang)
        assert f'<html lang="{HTML_LANG[lang]}">' in page
        assert f"<h1>{title}</h1>" in page
        assert tr(lang, "web.error.code", status=404) in page
        if lang != DEFAULT:
            assert "Error 404" not in page and "No game page here" not in page


@pytest.mark.parametrize(
    ("header", "want"),
    [
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt-BR"),
        ("de-DE", "de"),
        ("xx, hu;q=0.5", "hu"),
        ("en;q=0, fr", "fr"),
        ("fr;q=0.3, pl;q=0.7", "pl"),
        ("pseudo", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        ("de;q=abc", "en"),
    ],
)
def test_the_reader_s_language_from_accept_language(header: str | None, want: str) -> None:
    assert reader_language(header) == want


async def test_the_server_answers_in_the_reader_s_or_the_game_s_language(
    tmp_path: Path,
) -> None:
    async with SqliteGameStore(str(tmp_path / "g.sqlite3")) as store:
        svc = GameService(store)
        gid = (await svc.new_game(["Ana", "ai:random"], seed=3)).game_id
        tok = await svc.archive.token(gid)
        client: TestClient[Any, Any] = TestClient(TestServer(WebServer(svc, rate=5).app))
        await client.start_server()
        try:
            # no game: the reader's language
            de = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
            resp = await client.get("/g/nosuchtokenatallxx/", headers=de)
            text = await resp.text()
            assert resp.status == 404 and '<html lang="de">' in text
            assert tr("de", "web.error.not_found.title") in text and "Fehler 404" in text
            resp = await client.get("/", headers={"Accept-Language": "fr"})
            assert tr("fr", "web.index.title") in await resp.text()
            # a game's page and its errors: the game's language (English here), whoever reads
            resp = await client.get(f"/g/{tok}/?step=abc", headers=de)
            assert resp.status == 400 and "step must be a step number" in await resp.text()
            page = await (await client.get(f"/g/{tok}/", headers=de)).text()
            assert '<html lang="en"' in page and "Replay" in page
            # too many requests: the reader's language
            codes = []
            for _ in range(8):
                resp = await client.get("/healthz", headers={"Accept-Language": "pl"})
                codes.append(resp.status)
            assert 429 in codes and tr("pl", "web.error.too_many.title") in await resp.text()
        finally:
            await client.close()


@pytest.mark.skipif(not LANG_STORED, reason="the game's language setting is not stored yet")
async def test_a_game_in_german_has_its_page_in_german(tmp_path: Path) -> None:
    async with SqliteGameStore(str(tmp_path / "g.sqlite3")) as store:
        svc = GameService(store)
        gid = (await svc.new_game(["Ana", "ai:random"], seed=3)).game_id
        changes: Any = {"language": "de"}
        await store.update_settings(gid, **changes)
        tok = await svc.archive.token(gid)
        client: TestClient[Any, Any] = TestClient(TestServer(WebServer(svc).app))
        await client.start_server()
        try:
            page = await (await client.get(f"/g/{tok}/")).text()
            assert '<html lang="de"' in page and tr("de", "web.tab.replay") in page
            live = await (await client.get(f"/g/{tok}/live.json")).json()
            assert live["lang"] == "de" and live["where"] == tr("de", "web.where.setup")
            resp = await client.get(f"/g/{tok}/?step=99")
            assert resp.status == 404 and tr("de", "web.error.no_step.title") in await resp.text()
        finally:
            await client.close()


# ------------------------------------------------------------------------ in a browser

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium found (install Debian's chromium, or set CHROMIUM to a browser's path)",
)


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            yield b
        finally:
            await b.close()


async def _fulfil(route: Any, html: str, live: dict[str, Any], steps: dict[str, Any]) -> None:
    """A game's page at ``http://game.test/g/x/``: ``html``, its script and style, a map for
    every step, ``live.json`` and ``steps.json``; the live stream refused (the page then
    polls ``live.json``)."""
    path = urlsplit(route.request.url).path
    if path == "/g/x/":
        await route.fulfill(body=html, content_type="text/html; charset=utf-8")
    elif path in ("/g/x/page.js", "/g/x/page.css"):
        kind = "text/javascript" if path.endswith(".js") else "text/css"
        await route.fulfill(body=(STATIC / path[5:]).read_bytes(), content_type=kind)
    elif path.startswith("/g/x/map/"):
        await route.fulfill(body=_png(), content_type="image/png")
    elif path == "/g/x/live.json":
        await route.fulfill(json=live)
    elif path == "/g/x/steps.json":
        await route.fulfill(json=steps)
    else:  # the stream: refused
        await route.fulfill(status=503, body="busy")


async def _open(
    browser: Any, html: str, live: dict[str, Any], steps: dict[str, Any], query: str = ""
) -> tuple[Any, list[str]]:
    """``html`` served as a game's page at a made-up address (:func:`_fulfil`); the page
    and its script errors."""
    ctx = await browser.new_context(locale="en-US")  # the reader's browser: English
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.route("http://game.test/**", lambda route: _fulfil(route, html, live, steps))
    await page.goto("http://game.test/g/x/" + query)
    return page, errors


@pytest.mark.slow
@needs_chromium
@pytest.mark.requires("playwright")
async def test_a_page_in_german_shows_german_controls(game: Game, browser: Any) -> None:
    L = translator("de")
    live, steps = game.pages["de"]
    page, errors = await _open(browser, render_page(live, steps), live, steps)
    assert await page.get_attribute("html", "lang") == "de"
    assert await page.text_content("#tab-live") == "Aktuell" == L("web.tab.live")
    assert await page.text_content("#tab-replay") == "Wiederholung"
    await page.wait_for_selector("#conn.poll", timeout=10_000)
    assert await page.text_content("#conn") == "Prüfe alle 10 s" == L("web.conn.polling", s=10)
    await page.click("#tab-replay")
    last = len(steps["steps"]) - 1
    assert await page.text_content("#prev") == "‹ Zurück"
    assert await page.text_content("#next") == "Weiter ›"
    assert await page.text_content("#step-no") == f"Schritt {last} von {last}"
    await page.keyboard.press("Home")
    assert await page.text_content("#step-no") == f"Schritt 0 von {last}"
    assert await page.text_content("#step-turn") == "Spielvorbereitung"
    assert await page.get_attribute("#step-map", "alt") == "Die Karte bei Schritt 0"
    assert await page.text_content("#step-text") == steps["steps"][0]["text"]
    assert (await page.text_content("#step-text") or "").startswith("Die Partie beginnt: ")
    battles = sum(s["battle"] for s in steps["steps"])
    want = L("web.replay.battles", n=battles) if battles else "Noch keine Kämpfe"
    assert await page.text_content("#jump-battle option") == want
    assert await page.text_content("#jump-era option") == "Epoche 1"
    assert (await page.text_content(".jumps label") or "").startswith("Zug ")
    # the undo step: the badge and the sentence in German
    undo = next(s["n"] for s in steps["steps"] if s["kind"] == "undo")
    await page.goto(f"http://game.test/g/x/?step={undo}")
    assert await page.text_content("#step-badges") == "Rücknahme"
    assert "hat einen Schritt zurückgenommen" in (await page.text_content("#step-text") or "")
    await page.click("#tab-live")
    assert await page.text_content("#where") == live["where"]
    assert (await page.text_content("#waiting") or "").endswith(" · am Zug ")
    assert errors == []


@pytest.mark.slow
@needs_chromium
@pytest.mark.requires("playwright")
async def test_the_script_writes_numbers_plurals_and_times_in_the_page_s_language(
    browser: Any,
) -> None:
    due = datetime.now(UTC) + timedelta(hours=5)
    for lang, rel in (("de", "in 5 Stunden"), ("pl", "za 5 godzin"), ("fr", "dans 5 heures")):
        for battles in (1, 2, 5, 22, 112):
            live, steps = _hand_made()
            live["waiting"][0]["deadline"] = due.isoformat().replace("+00:00", "Z")
            base = steps["steps"][-1]
            steps["steps"] = [base | {"n": n, "battle": True} for n in range(battles)]
            html = render_page(live, steps, static=True, lang=lang)
            page, errors = await _open(browser, html, live, steps)
            option = await page.text_content("#jump-battle option")
            assert option == tr(lang, "web.replay.battles", n=battles), (lang, option)
            assert await page.text_content("#conn") == tr(lang, "web.conn.saved")
            shown = await page.text_content("time.due") or ""
            head = tr(lang, "web.live.due_in", when="\0", left="\0").split("\0")[0]
            assert shown.startswith(head) and shown.endswith(f"({rel})"), shown
            await page.close()
            assert errors == []
    # numbers: grouped as the language groups them (the same as the server's Babel)
    live, steps = _hand_made()
    steps["steps"] = [steps["steps"][0] | {"n": n} for n in range(1235)]
    page, errors = await _open(browser, render_page(live, steps, lang="de"), live, steps)
    await page.click("#tab-replay")
    assert await page.text_content("#step-no") == "Schritt 1.234 von 1.234"
    assert tr("de", "web.replay.step_of", n=1234, last=1234) == "Schritt 1.234 von 1.234"
    assert errors == []


@pytest.mark.slow
@needs_chromium
@pytest.mark.requires("playwright")
async def test_the_script_shows_no_text_outside_the_pseudo_language(
    game: Game, browser: Any
) -> None:
    # every text the page shows once its script has run, menus, status and the events'
    # sentences included, is bracketed: but the players' names and hex labels
    live, steps = game.pages[PSEUDO]
    names = set(game.names)
    collect = """() => {
      const out = [];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const p = n.parentElement;
        if (!p || p.closest("script, style")) continue;
        if (n.textContent.trim()) out.push(n.textContent.trim());
      }
      for (const e of document.querySelectorAll("[title], [alt], [aria-label]")) {
        for (const a of ["title", "alt", "aria-label"]) {
          if (e.getAttribute(a)) out.push(e.getAttribute(a));
        }
      }
      out.push(document.title);
      return out;
    }"""
    undo = next(s["n"] for s in steps["steps"] if s["kind"] == "undo")
    page, errors = await _open(browser, render_page(live, steps), live, steps)
    await page.wait_for_selector("#conn.poll", timeout=10_000)
    for query in ("", "?step=0", f"?step={undo}", "?step=3"):
        await page.goto("http://game.test/g/x/" + query)
        for text in await page.evaluate(collect):
            assert _bare(text, names) == "", (query, text)
    assert errors == []
    # a saved copy with a deadline, a paused clock, a winner
    hand, hsteps = _hand_made()
    hand["waiting"][0]["deadline"] = "2099-05-01T14:00:00Z"
    hand["scores"][0]["winner"] = True
    for d in (hand, hsteps):
        d["title"] = pseudo_text(str(d["title"]))
    hand["where"] = pseudo_text(hand["where"])
    hand["last_turn"] = [pseudo_text(x) for x in hand["last_turn"]]
    for w in hand["waiting"]:
        w["what"] = decision_text("turn", PSEUDO)
    for s in hsteps["steps"]:
        s["text"] = pseudo_text(s["text"])
    for t in hsteps["turns"]:
        t["label"] = pseudo_text(t["label"])
    html = render_page(hand, hsteps, static=True, lang=PSEUDO)
    page, errors = await _open(browser, html, hand, hsteps)
    for text in await page.evaluate(collect):
        assert _bare(text, {"Ana (red)", "Bo (blue)"}) == "", text
    assert errors == []


@pytest.mark.slow
@needs_chromium
@pytest.mark.requires("playwright")
@pytest.mark.parametrize("lang", ["de", "hu", PSEUDO])
async def test_longer_words_still_fit_a_phone(game: Game, browser: Any, lang: str) -> None:
    # German and Hungarian run longer than English, the pseudo-language 35 % longer: the
    # page still has no sideways scrolling and its controls stay large enough to tap
    live, steps = game.pages[lang]
    undo = next(s["n"] for s in steps["steps"] if s["kind"] == "undo")
    ctx = await browser.new_context(**PHONE)
    page = await ctx.new_page()
    html = render_page(live, steps)
    await page.route(
        "http://game.test/**",
        lambda route: _fulfil(route, html, live, steps),
    )
    for query in ("", f"?step={undo}"):
        await page.goto("http://game.test/g/x/" + query)
        width = await page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["viewport"]["width"], (lang, query, width)
    # the menus' labels are not broken inside a word ("Epoch-e")
    lines = await page.evaluate(
        """[...document.querySelectorAll(".jumps label")].map((l) => {
          const r = document.createRange();
          r.selectNodeContents(l.firstChild);
          return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
        })"""
    )
    assert lines == [1, 1, 1], (lang, lines)
    for target in ("#prev", "#next", "#tab-live", "#tab-replay", "#jump-turn", "#jump-battle"):
        box = await page.locator(target).bounding_box()
        assert box is not None and box["height"] >= 44, (lang, target)
    await ctx.close()
