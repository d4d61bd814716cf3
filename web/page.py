"""A game's page as one HTML document: the live board and the replay, rendered on the server
so the page is useful without JavaScript, with the page's JSON embedded for ``page.js``
(which then updates the page live and drives the replay).

Every URL in the page is relative (``page.css``, ``map/57.png``, ``?step=3``): the same
document works under ``/g/{token}/`` and from a folder on disk (the static export, where
only the embedded data can be used, so nothing here needs the server).

The page is in one language (``lang``: the game's, which ``live.json`` names): its words are
the catalogue's ``web.*`` texts, ``<html lang>`` says which, and the script's words are the
same templates, embedded in the page (``<script id="texts">``) for the script to fill, with
numbers, lists, plurals and times from the browser's ``Intl`` in that language.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from html import escape
from typing import Any

from babel.dates import format_skeleton

from i18n import DEFAULT, PSEUDO, catalogue, languages, translator
from i18n.render import Translator

_COLOUR = re.compile(r"\((blue|orange|green|red)\)$")
"""A seat's colour, at the end of its English label ("Ana (red)"): its marker on the map
when the data does not name the colour."""

COLOURS = frozenset({"blue", "orange", "green", "red"})

BATTLE_WORDS = frozenset({"battle", "conflict"})
"""The games' words for a step that fought (``web.badge.<word>``, ``web.replay.<word>``)."""

SERVER_ONLY = ("web.error.", "web.index.", "web.lb.")
"""Texts the script never shows (the error pages, the index, the leaderboard's page): not
embedded in the page."""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def embed_json(data: Any) -> str:
    """``data`` as JSON safe inside a ``<script>`` element: no ``<`` at all, so neither
    ``</script>`` nor ``<!--`` can end or change the element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def page_language(lang: str | None) -> str:
    """A language the catalogues serve (``lang``, else English)."""
    return lang if lang and lang in languages() else DEFAULT


def html_lang(lang: str) -> str:
    """The page's ``<html lang>``: the language's code (``pt-BR``); the pseudo-language's is
    the usual pseudo-locale tag ``en-XA``."""
    return "en-XA" if lang == PSEUDO else lang


def intl_locale(lang: str) -> str:
    """The locale the script gives ``Intl`` (numbers, lists, plurals, times): the language's
    CLDR locale as a BCP 47 tag (``pt-BR``)."""
    return catalogue(page_language(lang)).language.babel.replace("_", "-")


def page_texts(lang: str) -> dict[str, str]:
    """The templates of the script's words (every ``web.*`` text but the server's own) in
    ``lang``, English where the language lacks one: what ``<script id="texts">`` holds."""
    en = catalogue(DEFAULT).messages
    own = catalogue(page_language(lang)).messages
    return {
        k: own.get(k, v)
        for k, v in sorted(en.items())
        if k.startswith("web.") and not k.startswith(SERVER_ONLY)
    }


def who_html(who: str, colour: str | None = None) -> str:
    """A seat's label with its colour's marker (the same colour and shape as on the map)."""
    if colour is None:
        m = _COLOUR.search(who)
        colour = m.group(1) if m else None
    cls = f"dot dot-{colour}" if colour in COLOURS else "dot"
    return f'<span class="{cls}" aria-hidden="true"></span>{_e(who)}'


def utc_text(iso: str, lang: str = DEFAULT) -> str:
    """A deadline as plain UTC text in ``lang`` ("Thu 1 May, 14:00 UTC"); the script shows
    local time."""
    t = datetime.fromisoformat(iso).astimezone(UTC)
    babel = catalogue(page_language(lang)).language.babel
    loc = "en_GB" if babel == "en" else babel  # English as the page always wrote it
    day = format_skeleton("MMMEd", t, locale=loc, tzinfo=UTC)
    time = format_skeleton("Hm", t, locale=loc, tzinfo=UTC)
    return translator(lang)("web.live.due_utc", day=day, time=time)


def _waiting(live: dict[str, Any], L: Translator) -> str:
    if live.get("abandoned"):
        return f"<p>{_e(L('web.live.abandoned'))}</p>"
    if live.get("over"):
        winners = [r["who"] for r in live.get("scores", []) if r.get("winner")]
        won = " " + L("web.live.won_by", winners=winners) if winners else ""
        return f"<p>{_e(L('web.live.over') + won)}</p>"
    items = []
    for w in live.get("waiting", []):
        if w.get("paused"):
            when = f'<span class="due">{_e(L("web.live.paused"))}</span>'
        elif w.get("deadline"):
            iso = _e(w["deadline"])
            due = L("web.live.due", when=utc_text(w["deadline"], L.lang))
            when = f'<time class="due" datetime="{iso}">{_e(due)}</time>'
        elif w.get("ai"):
            when = f'<span class="due">{_e(L("web.live.ai"))}</span>'
        else:
            when = ""
        who = who_html(w["who"], w.get("colour"))
        items.append(f'<li><span class="who">{who}</span> · {_e(w["what"])} {when}</li>')
    if not items:
        return f"<p>{_e(L('web.live.nobody'))}</p>"
    return '<ul class="plain">' + "".join(items) + "</ul>"


def _scores(live: dict[str, Any], L: Translator) -> str:
    rows = []
    for r in live.get("scores", []):
        won = (
            f' <span class="badge badge-win">{_e(L("web.live.winner"))}</span>'
            if r.get("winner")
            else ""
        )
        # points behind the player's screen (Tigris & Euphrates): no number
        total = (
            f'<td class="num muted">{_e(L("web.live.hidden"))}</td>'
            if r.get("hidden")
            else f'<td class="num">{_e(r["total"])}</td>'
        )
        rows.append(
            f'<tr><td class="who">{who_html(r["who"], r.get("colour"))}{won}</td>{total}</tr>'
        )
    return "".join(rows)


def _sentences(lines: list[str], L: Translator) -> str:
    if not lines:
        return f'<li class="muted">{_e(L("web.live.nothing"))}</li>'
    return "".join(f"<li>{_e(s)}</li>" for s in lines)


def _board(ident: str, src: str, alt: str, L: Translator) -> str:
    # a tap opens the picture alone, where a phone zooms into it best
    return (
        f'<a class="board" href="{_e(src)}" title="{_e(L("web.map.open"))}">'
        f'<img id="{ident}" src="{_e(src)}" alt="{_e(alt)}"></a>'
    )


def step_badges(step: dict[str, Any], lang: str = DEFAULT, battle: str = "battle") -> str:
    """What marks a step: taken back (never hidden), an undo or a rollback, a battle (the
    game's word: ``battle``, ``conflict``), an era."""
    L = translator(lang)
    marks = []
    if step.get("undone"):
        marks.append("undone")
    if step.get("kind") in ("undo", "rollback"):
        marks.append(step["kind"])
    if step.get("battle"):
        marks.append(battle if battle in BATTLE_WORDS else "battle")
    if step.get("era_start"):
        marks.append("era")
    return "".join(f'<span class="badge badge-{k}">{_e(L(f"web.badge.{k}"))}</span>' for k in marks)


def _replay(steps: dict[str, Any], n: int | None, static: bool, L: Translator) -> str:
    """The replay at step ``n`` (None: there is no step); links to its neighbours when a
    server answers them."""
    all_steps: list[dict[str, Any]] = steps.get("steps", [])
    if n is None:
        return f'<p class="muted">{_e(L("web.replay.none"))}</p>'
    s = all_steps[n]
    last = len(all_steps) - 1
    turns: list[dict[str, Any]] = steps.get("turns", [])
    word = steps.get("battle_word", "battle")
    word = word if word in BATTLE_WORDS else "battle"
    battle_menu = "web.replay.battle" if word == "battle" else f"web.replay.{word}"
    era_menu = (
        f'<label>{_e(L("web.replay.era"))} <select id="jump-era"></select></label>'
        if steps.get("eras", True)
        else ""
    )
    turn = turns[s["turn"]]["label"] if 0 <= s.get("turn", -1) < len(turns) else ""
    undone = " undone" if s.get("undone") else ""
    prev_text, next_text = _e(L("web.replay.previous")), _e(L("web.replay.next"))
    links = ""
    if not static:
        prev = (
            f'<a class="btn" rel="prev" href="?step={n - 1}">{prev_text}</a>'
            if n > 0
            else f'<span class="btn" aria-disabled="true">{prev_text}</span>'
        )
        nxt = (
            f'<a class="btn" rel="next" href="?step={n + 1}">{next_text}</a>'
            if n < last
            else f'<span class="btn" aria-disabled="true">{next_text}</span>'
        )
        steps_label = _e(L("web.replay.steps"))
        links = f'<nav class="stepper nojs" aria-label="{steps_label}">{prev}{nxt}</nav>'
    return f"""
{_board("step-map", s["map"], L("web.replay.map", n=n), L)}
<div class="side">
  <div class="js-only controls">
    <input id="step-range" type="range" min="0" max="{last}" value="{n}" aria-label="{_e(L("web.replay.slider"))}">
    <div class="stepper">
      <button id="prev" class="btn" type="button" aria-keyshortcuts="ArrowLeft">{prev_text}</button>
      <button id="next" class="btn" type="button" aria-keyshortcuts="ArrowRight">{next_text}</button>
    </div>
  </div>
  {links}
  <div id="step" class="card step{undone}" aria-live="polite">
    <p class="step-meta"><span id="step-no">{_e(L("web.replay.step_of", n=n, last=last))}</span>
      <span id="step-turn" class="muted">{_e(turn)}</span></p>
    <p id="step-badges" class="badges">{step_badges(s, L.lang, word)}</p>
    <p id="step-text" class="step-text">{_e(s["text"])}</p>
  </div>
  <div class="js-only jumps">
    <label>{_e(L("web.replay.turn"))} <select id="jump-turn"></select></label>
    <label>{_e(L(battle_menu))} <select id="jump-battle"></select></label>
    {era_menu}
  </div>
  <p{' class="js-only"' if static else ""}><a id="step-link" href="?step={n}">{_e(L("web.replay.link"))}</a></p>
</div>"""


def render_page(
    live: dict[str, Any],
    steps: dict[str, Any],
    *,
    step: int | None = None,
    static: bool = False,
    lang: str | None = None,
) -> str:
    """The whole page of a game: ``live`` and ``steps`` as :mod:`web.data` makes them.
    ``step``: open the replay at that step (clamped to the steps there are); ``static``: a
    saved copy opened from disk (no server behind it: no links that need one); ``lang``: the
    page's language (None: the one ``live`` names, else English)."""
    lang = page_language(lang or live.get("lang"))
    L = translator(lang)
    all_steps = steps.get("steps", [])
    last = len(all_steps) - 1
    shown = None if last < 0 else last if step is None else max(0, min(step, last))
    view = "live" if step is None else "replay"
    title = _e(live.get("title") or steps.get("title") or L("web.page.untitled"))
    where = _e(live.get("where", ""))
    hide_live = " hidden" if view != "live" and not static else ""
    hide_replay = " hidden" if view != "replay" and not static else ""
    live_href = "#live" if static else "./"
    replay_href = "#replay" if static else f"?step={shown if shown is not None else 0}"
    current = ' aria-current="page"'
    live_tab = _e(L("web.tab.board" if static else "web.tab.live"))
    data = embed_json({"live": live, "steps": steps})
    own_foot = f"web.foot.{steps.get('game_name', '')}"  # a game's own: what stays hidden
    foot = own_foot if own_foot in catalogue(DEFAULT).messages else "web.foot"
    texts = embed_json(page_texts(lang))
    return f"""<!doctype html>
<html lang="{_e(html_lang(lang))}" data-locale="{_e(intl_locale(lang))}">
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
<nav class="tabs" aria-label="{_e(L("web.page.views"))}">
  <a id="tab-live" href="{live_href}"{current if view == "live" else ""}>{live_tab}</a>
  <a id="tab-replay" href="{replay_href}"{current if view == "replay" else ""}>{_e(L("web.tab.replay"))}</a>
</nav>
<main>
<section id="live" class="view"{hide_live}>
  <h2 class="sr-only">{_e(L("web.live.heading"))}</h2>
  {_board("live-map", live.get("map", ""), L("web.live.map"), L)}
  <div class="side">
    <div class="card"><h3>{_e(L("web.live.now"))}</h3><div id="waiting">{_waiting(live, L)}</div></div>
    <div class="card"><h3>{_e(L("web.live.last_turn"))}</h3><ul id="last-turn" class="sentences">{_sentences(live.get("last_turn", []), L)}</ul></div>
    <div class="card"><h3>{_e(L("web.live.scores"))}</h3><table class="scores"><thead class="sr-only"><tr><th scope="col">{_e(L("web.live.player"))}</th><th scope="col">{_e(L("web.live.points"))}</th></tr></thead><tbody id="scores">{_scores(live, L)}</tbody></table></div>
  </div>
</section>
<section id="replay" class="view"{hide_replay}>
  <h2 class="sr-only">{_e(L("web.replay.heading"))}</h2>
  {_replay(steps, shown, static, L)}
</section>
</main>
<footer class="foot muted">{_e(L(foot))}</footer>
<script id="texts" type="application/json">{texts}</script>
<script id="game-data" type="application/json">{data}</script>
</body>
</html>
"""


def error_page(status: int, title: str, message: str, *, lang: str = DEFAULT) -> str:
    """A small page for an error answer (404: no game page here, 429: too many requests),
    ``title`` and ``message`` already in ``lang``. Self-contained: the page's stylesheet may
    not be reachable from where it is shown."""
    lang = page_language(lang)
    code = translator(lang)("web.error.code", status=int(status))
    return f"""<!doctype html>
<html lang="{_e(html_lang(lang))}">
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
<p class="code">{_e(code)}</p>
</body>
</html>
"""
