"""A game's page as HTML, without a browser: escaped everywhere, nothing external, the live
board and a replay step rendered on the server, taken-back steps marked, the static copy
without links that need a server."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from service import moderation
from service.game import GameService
from storage.sqlite import SqliteGameStore
from web.data import live_json, steps_json
from web.page import embed_json, error_page, render_page

EVIL = "</script><b>x"


def _step(n: int, text: str, **kw: Any) -> dict[str, Any]:
    s = {
        "n": n,
        "version": n,
        "kind": "action",
        "text": text,
        "turn": 0 if n < 2 else 1,
        "phase": "play",
        "era": 1,
        "round": 1,
        "battle": False,
        "era_start": False,
        "ends_turn": False,
        "undone": False,
        "map": f"map/{n}.png",
    }
    return s | kw


def _game(who: str = "Ana (red)") -> tuple[dict[str, Any], dict[str, Any]]:
    """A small game's live and steps JSON, as web.data makes them."""
    steps = {
        "game": 7,
        "version": 4,
        "title": "Game #7: Cisplatine War",
        "steps": [
            _step(0, "The game begins: Game #7: Cisplatine War; Ana, Bo.", kind="start"),
            _step(1, f"{who} takes the Build action."),
            _step(2, f"{who} builds a sawmill at D3.", undone=True),
            _step(3, f"{who} took back a step: the game is back at step 1.", kind="undo"),
            _step(4, f"{who} wins a battle at E4.", battle=True),
        ],
        "turns": [
            {"label": "Setup", "first": 0},
            {"label": f"Era 1 · round 1 · {who}", "first": 2},
        ],
    }
    live = {
        "game": 7,
        "title": "Game #7: Cisplatine War",
        "version": 4,
        "phase": "play",
        "where": "Era 1 · round 1",
        "over": False,
        "finished": False,
        "abandoned": False,
        "waiting": [
            {
                "seat": 0,
                "who": who,
                "what": "to play",
                "ai": False,
                "deadline": "2025-05-01T14:00:00Z",
                "paused": False,
            },
            {
                "seat": 1,
                "who": "Bo (blue)",
                "what": "combat cards",
                "ai": False,
                "deadline": None,
                "paused": True,
            },
        ],
        "scores": [
            {"seat": 0, "who": who, "total": 12, "winner": False},
            {"seat": 1, "who": "Bo (blue)", "total": 9, "winner": False},
        ],
        "last_turn": [f"{who} wins a battle at E4."],
        "map": "map/4.png",
        "steps": 5,
    }
    return live, steps


def _embedded(page: str) -> Any:
    m = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


def _section(page: str, name: str) -> str:
    m = re.search(rf'<section id="{name}"[^>]*>(.*?)</section>', page, re.S)
    assert m is not None
    return m.group(0)


# ------------------------------------------------------------------------ escaping


def test_a_player_named_like_markup_stays_text() -> None:
    live, steps = _game(who=EVIL)
    live["title"] = steps["title"] = EVIL
    for page in (
        render_page(live, steps),
        render_page(live, steps, step=2),
        render_page(live, steps, static=True),
    ):
        assert EVIL not in page
        assert "<b>" not in page
        # only the page's two script elements end: the script file's and the data's
        assert page.count("</script>") == 2
        assert "&lt;/script&gt;&lt;b&gt;x" in page  # shown, as text
        assert _embedded(page) == {"live": live, "steps": steps}  # and in the data, intact


def test_embedded_json_has_no_angle_bracket() -> None:
    text = embed_json({"a": "<!-- </script> <script>", "b": ["<", "é"]})
    assert "<" not in text
    assert json.loads(text) == {"a": "<!-- </script> <script>", "b": ["<", "é"]}


def test_quotes_in_attributes_are_escaped() -> None:
    live, steps = _game()
    live["map"] = 'map/4.png" onerror="alert(1)'
    page = render_page(live, steps)
    assert 'onerror="alert(1)"' not in page
    assert "map/4.png&quot; onerror=&quot;alert(1)" in page


# ------------------------------------------------------------------------ nothing external


@pytest.mark.parametrize("static", [False, True])
@pytest.mark.parametrize("step", [None, 0, 2, 4])
def test_no_external_address(step: int | None, static: bool) -> None:
    page = render_page(*_game(), step=step, static=static)
    assert "http://" not in page and "https://" not in page
    for url in re.findall(r'(?:src|href)="([^"]*)"', page):
        assert not url.startswith("//") and ":" not in url.removeprefix("data:,"), url
    assert '<link rel="stylesheet" href="page.css">' in page
    assert '<script src="page.js" defer></script>' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page


# ------------------------------------------------------------------------ the live board


def test_the_live_board_is_rendered_on_the_server() -> None:
    live, steps = _game()
    page = render_page(live, steps)
    board = _section(page, "live")
    assert "hidden" not in board.split(">", 1)[0]
    assert "hidden" in _section(page, "replay").split(">", 1)[0]
    assert "<title>Game #7: Cisplatine War · Era 1 · round 1</title>" in page
    assert '<img id="live-map" src="map/4.png"' in board
    # who decides, with the deadline in UTC (the script shows local time) or paused
    assert '<span class="dot dot-red" aria-hidden="true"></span>Ana (red)</span> · to play' in board
    assert (
        '<time class="due" datetime="2025-05-01T14:00:00Z">due Thu 1 May, 14:00 UTC</time>' in board
    )
    assert 'Bo (blue)</span> · combat cards <span class="due">clock paused</span>' in board
    assert "<li>Ana (red) wins a battle at E4.</li>" in board
    assert '<td class="num">12</td>' in board and '<td class="num">9</td>' in board
    assert 'aria-current="page">Live</a>' in page


def test_a_finished_game_names_its_winner() -> None:
    live, steps = _game()
    live |= {"over": True, "finished": True, "waiting": [], "where": "Game over · era 3 · round 30"}
    live["scores"][0]["winner"] = True
    page = render_page(live, steps)
    assert "The game is over. Won by Ana (red)." in page
    assert 'Ana (red) <span class="badge badge-win">winner</span>' in page
    live |= {"abandoned": True}
    assert "This game was abandoned." in render_page(live, steps)


# ------------------------------------------------------------------------ the replay


def test_a_step_opens_the_replay_with_links_to_its_neighbours() -> None:
    live, steps = _game()
    page = render_page(live, steps, step=1)
    replay = _section(page, "replay")
    assert "hidden" in _section(page, "live").split(">", 1)[0]
    assert '<img id="step-map" src="map/1.png" alt="The map at step 1">' in replay
    assert "Ana (red) takes the Build action." in replay
    assert "Step 1 of 4" in replay and "Setup" in replay
    assert 'href="?step=0">‹ Previous</a>' in replay
    assert 'href="?step=2">Next ›</a>' in replay
    assert 'aria-current="page">Replay</a>' in page
    # the ends: no link beyond them
    first = _section(render_page(live, steps, step=0), "replay")
    assert "?step=-1" not in first and 'aria-disabled="true">‹ Previous' in first
    last = _section(render_page(live, steps, step=4), "replay")
    assert "?step=5" not in last and 'aria-disabled="true">Next ›' in last
    # out of range: the nearest step
    assert "Step 4 of 4" in render_page(live, steps, step=99)


def test_steps_taken_back_are_marked_not_hidden() -> None:
    live, steps = _game()
    undone = _section(render_page(live, steps, step=2), "replay")
    assert 'class="card step undone"' in undone
    assert '<span class="badge badge-undone">taken back</span>' in undone
    assert "builds a sawmill at D3." in undone
    undo = _section(render_page(live, steps, step=3), "replay")
    assert '<span class="badge badge-undo">undo</span>' in undo
    assert "step undone" not in undo
    battle = _section(render_page(live, steps, step=4), "replay")
    assert '<span class="badge badge-battle">battle</span>' in battle


def test_a_static_copy_has_no_link_that_needs_a_server() -> None:
    live, steps = _game()
    for step in (None, 2):
        page = render_page(live, steps, step=step, static=True)
        assert 'data-static="1"' in page
        assert 'rel="prev"' not in page and 'rel="next"' not in page
        assert 'href="./"' not in page
        assert "events" not in page and "live.json" not in page and "steps.json" not in page
        # both views are there without the script (it switches between them)
        assert "hidden" not in _section(page, "live").split(">", 1)[0]
        assert "hidden" not in _section(page, "replay").split(">", 1)[0]
        assert 'href="#live"' in page and 'href="#replay"' in page
    served = render_page(live, steps)
    assert 'data-static="0"' in served and 'href="./"' in served


def test_a_game_without_steps_still_renders() -> None:
    live, steps = _game()
    steps = copy.deepcopy(steps) | {"steps": [], "turns": []}
    page = render_page(live, steps, step=0)
    assert "No steps yet." in page


# ------------------------------------------------------------------------ error pages


def test_error_page() -> None:
    page = error_page(404, "No game page here", f"Nothing at {EVIL}.")
    assert "<h1>No game page here</h1>" in page
    assert EVIL not in page and "Nothing at &lt;/script&gt;&lt;b&gt;x." in page
    assert "Error 404" in page
    assert "http://" not in page and "https://" not in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page


# ------------------------------------------------------------------------ a real game


async def test_a_real_game_with_an_undo(tmp_path: Path) -> None:
    async with SqliteGameStore(str(tmp_path / "g.sqlite3")) as store:
        svc = GameService(store)
        gid = (await svc.new_game(["Ana", "ai:heuristic"], seed=5)).game_id
        for _ in range(8):
            await svc.run_ai_turns(gid)
            await svc.act(gid, 0, (await svc.legal(gid, 0))[-1])
        await moderation.undo(svc, gid, 0)
        live = live_json(await svc.archive.live(gid))
        steps = steps_json(await svc.archive.archive(gid))
    taken = [s["n"] for s in steps["steps"] if s["undone"]]
    assert taken and steps["steps"][-1]["kind"] == "undo"
    page = render_page(live, steps)
    assert _embedded(page) == {"live": live, "steps": steps}
    assert 'dot-blue" aria-hidden="true"></span>Ana (blue)' in page
    replay = _section(render_page(live, steps, step=taken[0]), "replay")
    assert "taken back" in replay and steps["steps"][taken[0]]["text"] in replay
    assert '<span class="badge badge-undo">undo</span>' in render_page(
        live, steps, step=len(steps["steps"]) - 1
    )
