"""A game's page as one HTML document: the live board and the replay, rendered on the server
so the page is useful without JavaScript, with the page's JSON embedded for ``page.js``
(which then updates the page live and drives the replay).

Every URL in the page is relative (``page.css``, ``map/57.png``, ``?step=3``): the same
document works under ``/g/{token}/`` and from a folder on disk (the static export, where
only the embedded data can be used, so nothing here needs the server).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from html import escape
from typing import Any

_COLOUR = re.compile(r"\((blue|orange|green|red)\)$")
"""A seat's colour, at the end of its label ("Ana (red)"): shown as the map's marker."""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def embed_json(data: Any) -> str:
    """``data`` as JSON safe inside a ``<script>`` element: no ``<`` at all, so neither
    ``</script>`` nor ``<!--`` can end or change the element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def who_html(who: str) -> str:
    """A seat's label with its colour's marker (the same colour and shape as on the map)."""
    m = _COLOUR.search(who)
    cls = f"dot dot-{m.group(1)}" if m else "dot"
    return f'<span class="{cls}" aria-hidden="true"></span>{_e(who)}'


def utc_text(iso: str) -> str:
    """A deadline as plain UTC text ("Thu 1 May, 14:00 UTC"); the script shows local time."""
    t = datetime.fromisoformat(iso).astimezone(UTC)
    return f"{t:%a} {t.day} {t:%b}, {t:%H:%M} UTC"


def _waiting(live: dict[str, Any]) -> str:
    if live.get("abandoned"):
        return "<p>This game was abandoned.</p>"
    if live.get("over"):
        winners = [r["who"] for r in live.get("scores", []) if r.get("winner")]
        won = f" Won by {_e(' and '.join(winners))}." if winners else ""
        return f"<p>The game is over.{won}</p>"
    items = []
    for w in live.get("waiting", []):
        if w.get("paused"):
            when = '<span class="due">clock paused</span>'
        elif w.get("deadline"):
            iso = _e(w["deadline"])
            when = f'<time class="due" datetime="{iso}">due {_e(utc_text(w["deadline"]))}</time>'
        elif w.get("ai"):
            when = '<span class="due">computer player</span>'
        else:
            when = ""
        items.append(
            f'<li><span class="who">{who_html(w["who"])}</span> · {_e(w["what"])} {when}</li>'
        )
    if not items:
        return "<p>Nobody to wait for.</p>"
    return '<ul class="plain">' + "".join(items) + "</ul>"


def _scores(live: dict[str, Any]) -> str:
    rows = []
    for r in live.get("scores", []):
        won = ' <span class="badge badge-win">winner</span>' if r.get("winner") else ""
        rows.append(
            f'<tr><td class="who">{who_html(r["who"])}{won}</td>'
            f'<td class="num">{_e(r["total"])}</td></tr>'
        )
    return "".join(rows)


def _sentences(lines: list[str]) -> str:
    if not lines:
        return '<li class="muted">Nothing yet.</li>'
    return "".join(f"<li>{_e(s)}</li>" for s in lines)


def _board(ident: str, src: str, alt: str) -> str:
    # a tap opens the picture alone, where a phone zooms into it best
    return (
        f'<a class="board" href="{_e(src)}" title="Open the map full size">'
        f'<img id="{ident}" src="{_e(src)}" alt="{_e(alt)}"></a>'
    )


def step_badges(step: dict[str, Any]) -> str:
    """What marks a step: taken back (never hidden), an undo or a rollback, a battle, an era."""
    marks = []
    if step.get("undone"):
        marks.append(("undone", "taken back"))
    if step.get("kind") in ("undo", "rollback"):
        marks.append((step["kind"], step["kind"]))
    if step.get("battle"):
        marks.append(("battle", "battle"))
    if step.get("era_start"):
        marks.append(("era", "new era"))
    return "".join(f'<span class="badge badge-{k}">{t}</span>' for k, t in marks)


def _replay(steps: dict[str, Any], n: int | None, static: bool) -> str:
    """The replay at step ``n`` (None: there is no step); links to its neighbours when a
    server answers them."""
    all_steps: list[dict[str, Any]] = steps.get("steps", [])
    if n is None:
        return '<p class="muted">No steps yet.</p>'
    s = all_steps[n]
    last = len(all_steps) - 1
    turns: list[dict[str, Any]] = steps.get("turns", [])
    turn = turns[s["turn"]]["label"] if 0 <= s.get("turn", -1) < len(turns) else ""
    undone = " undone" if s.get("undone") else ""
    links = ""
    if not static:
        prev = (
            f'<a class="btn" rel="prev" href="?step={n - 1}">‹ Previous</a>'
            if n > 0
            else '<span class="btn" aria-disabled="true">‹ Previous</span>'
        )
        nxt = (
            f'<a class="btn" rel="next" href="?step={n + 1}">Next ›</a>'
            if n < last
            else '<span class="btn" aria-disabled="true">Next ›</span>'
        )
        links = f'<nav class="stepper nojs" aria-label="Steps">{prev}{nxt}</nav>'
    return f"""
{_board("step-map", s["map"], f"The map at step {n}")}
<div class="side">
  <div class="js-only controls">
    <input id="step-range" type="range" min="0" max="{last}" value="{n}" aria-label="Step">
    <div class="stepper">
      <button id="prev" class="btn" type="button" aria-keyshortcuts="ArrowLeft">‹ Previous</button>
      <button id="next" class="btn" type="button" aria-keyshortcuts="ArrowRight">Next ›</button>
    </div>
  </div>
  {links}
  <div id="step" class="card step{undone}" aria-live="polite">
    <p class="step-meta"><span id="step-no">Step {n} of {last}</span>
      <span id="step-turn" class="muted">{_e(turn)}</span></p>
    <p id="step-badges" class="badges">{step_badges(s)}</p>
    <p id="step-text" class="step-text">{_e(s["text"])}</p>
  </div>
  <div class="js-only jumps">
    <label>Turn <select id="jump-turn"></select></label>
    <label>Battle <select id="jump-battle"></select></label>
    <label>Era <select id="jump-era"></select></label>
  </div>
  <p{' class="js-only"' if static else ""}><a id="step-link" href="?step={n}">Link to this step</a></p>
</div>"""


def render_page(
    live: dict[str, Any],
    steps: dict[str, Any],
    *,
    step: int | None = None,
    static: bool = False,
) -> str:
    """The whole page of a game: ``live`` and ``steps`` as :mod:`web.data` makes them.
    ``step``: open the replay at that step (clamped to the steps there are); ``static``: a
    saved copy opened from disk (no server behind it: no links that need one)."""
    all_steps = steps.get("steps", [])
    last = len(all_steps) - 1
    shown = None if last < 0 else last if step is None else max(0, min(step, last))
    view = "live" if step is None else "replay"
    title = _e(live.get("title") or steps.get("title") or "A game")
    where = _e(live.get("where", ""))
    hide_live = " hidden" if view != "live" and not static else ""
    hide_replay = " hidden" if view != "replay" and not static else ""
    live_href = "#live" if static else "./"
    replay_href = "#replay" if static else f"?step={shown if shown is not None else 0}"
    current = ' aria-current="page"'
    data = embed_json({"live": live, "steps": steps})
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>{title} · {where}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="page.css">
<script src="page.js" defer></script>
</head>
<body data-view="{view}" data-static="{int(static)}" data-version="{_e(live.get("version", ""))}">
<header class="top">
  <h1 id="title">{title}</h1>
  <p><span id="where" class="where">{where}</span> <span id="conn" class="conn js-only"></span></p>
</header>
<nav class="tabs" aria-label="View">
  <a id="tab-live" href="{live_href}"{current if view == "live" else ""}>{"Board" if static else "Live"}</a>
  <a id="tab-replay" href="{replay_href}"{current if view == "replay" else ""}>Replay</a>
</nav>
<main>
<section id="live" class="view"{hide_live}>
  <h2 class="sr-only">The game now</h2>
  {_board("live-map", live.get("map", ""), "The map now")}
  <div class="side">
    <div class="card"><h3>Now</h3><div id="waiting">{_waiting(live)}</div></div>
    <div class="card"><h3>Last turn</h3><ul id="last-turn" class="sentences">{_sentences(live.get("last_turn", []))}</ul></div>
    <div class="card"><h3>Scores</h3><table class="scores"><tbody id="scores">{_scores(live)}</tbody></table></div>
  </div>
</section>
<section id="replay" class="view"{hide_replay}>
  <h2 class="sr-only">Replay, step by step</h2>
  {_replay(steps, shown, static)}
</section>
</main>
<footer class="foot muted">What the game's channel shows, step by step: hidden cards and missions stay hidden.</footer>
<script id="game-data" type="application/json">{data}</script>
</body>
</html>
"""


def error_page(status: int, title: str, message: str) -> str:
    """A small page for an error answer (404: no game page here, 429: too many requests).
    Self-contained: the page's stylesheet may not be reachable from where it is shown."""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>{_e(title)}</title>
<style>
body {{ font: 18px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto;
  padding: 0 1rem; color: #1a1a1a; background: #faf8f0; }}
@media (prefers-color-scheme: dark) {{ body {{ color: #e8e6e0; background: #16181c; }} }}
.code {{ color: #777; }}
</style>
</head>
<body>
<h1>{_e(title)}</h1>
<p>{_e(message)}</p>
<p class="code">Error {int(status)}</p>
</body>
</html>
"""
