"""A server's leaderboard of a game as one HTML page (issue #31): ``/s/<guild_id>/leaderboard/
<game>`` (the table now) and ``?season=<n>`` (a season's table: the running one, or an
ended one's final table), with links to the game's seasons.

Public by design, so it holds what the server's members see in ``/leaderboard`` and nothing
more: places, display names (as the players' games recorded them), ratings (provisional
ones marked), rated games — no user id, no player key, no token, nothing hidden in a game.
The page is in the reader's language (``Accept-Language``), self-contained (its style inline,
no script), one column that fits a phone, light and dark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING

from i18n import number, tr, translator
from service import catalog
from service.games import title_key
from service.rating import SETTLED_GAMES
from web.page import html_lang, intl_locale, page_language

if TYPE_CHECKING:
    from service.game import GameService

__all__ = ["LIMIT", "Board", "BoardRow", "SeasonLink", "board_of", "render_leaderboard"]

LIMIT = 100
"""The most rows a page shows."""


@dataclass(frozen=True)
class BoardRow:
    """One row of the table as the page shows it: no identity but the display name."""

    place: int
    name: str
    rating: int
    games: int
    provisional: bool


@dataclass(frozen=True)
class SeasonLink:
    """A season of the game on the server: its number (the ``?season=`` value), name and
    whether it still runs."""

    number: int
    name: str
    running: bool


@dataclass(frozen=True)
class Board:
    """What the page shows: the game's title, the table (``season``: None for the table now,
    else the season shown), the server's seasons of the game (newest first) and the games a
    rating needs to be settled."""

    title: str
    rows: tuple[BoardRow, ...]
    settled: int
    season: SeasonLink | None = None
    seasons: tuple[SeasonLink, ...] = field(default=())


async def board_of(
    svc: GameService, guild_id: int, game: str, season: int | None, *, lang: str
) -> Board | None:
    """The page's :class:`Board` of ``game`` on server ``guild_id`` (``season``: a season's
    number, None: the table now), its title in ``lang``; None when there is nothing to show:
    an unknown game or season, or a server with no rated game of it and no season."""
    if game not in catalog.games():
        return None
    ratings = svc.ratings
    seasons = tuple(
        SeasonLink(s.number, s.name, s.running)
        for s in sorted(await ratings.seasons(guild_id, game), key=lambda s: -s.number)
    )
    shown = None
    if season is not None:
        shown = next((s for s in seasons if s.number == season), None)
        if shown is None:
            return None
    found = await ratings.leaderboard(guild_id, game, season=season, limit=LIMIT)
    if not found and not seasons:
        return None
    lang = page_language(lang)
    unnamed = tr(lang, "web.lb.unnamed")
    rows = tuple(
        BoardRow(r.place, r.name or unnamed, r.rating, r.games, r.provisional) for r in found
    )
    title = tr(lang, title_key(game))
    return Board(title, rows, SETTLED_GAMES, shown, seasons)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


STYLE = """
:root { color-scheme: light dark; --bg: #faf8f0; --fg: #1c1c1c; --muted: #5f5f5f;
  --card: #ffffff; --line: #e2ddcf; --accent: #0060a0; --tag: #8a5a00; --tag-bg: #fff1d6; }
@media (prefers-color-scheme: dark) { :root { --bg: #16181c; --fg: #e8e6e0; --muted: #a3a7ae;
  --card: #21242a; --line: #363a43; --accent: #5ab0ea; --tag: #ffd18a; --tag-bg: #3b2f1a; } }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 17px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  overflow-wrap: anywhere; }
main { max-width: 40rem; margin: 0 auto; padding: 1rem 0.9rem 2rem; }
h1 { font-size: 1.3rem; line-height: 1.25; margin: 0 0 0.2rem; }
h2 { font-size: 1.05rem; margin: 0 0 0.5rem; }
a { color: var(--accent); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: 0.7rem 0.8rem; margin: 0.75rem 0; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-size: 0.85rem; color: var(--muted); font-weight: 600;
  padding: 0 0.35rem 0.3rem; }
td { padding: 0.45rem 0.35rem; border-top: 1px solid var(--line); vertical-align: top; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.place { width: 2.5rem; color: var(--muted); }
.name { font-weight: 600; }
.tag { display: inline-block; font-size: 0.75rem; font-weight: 600; color: var(--tag);
  background: var(--tag-bg); border-radius: 6px; padding: 0 0.35rem;
  white-space: nowrap; }
.muted { color: var(--muted); font-size: 0.9rem; }
.seasons { display: flex; flex-wrap: wrap; gap: 0.4rem; list-style: none; margin: 0; padding: 0; }
.seasons a, .seasons span { display: inline-flex; align-items: center; min-height: 44px;
  padding: 0 0.8rem; border: 1px solid var(--line); border-radius: 9px; text-decoration: none; }
.seasons [aria-current] { background: var(--line); color: var(--fg); font-weight: 600; }
"""


def _row(r: BoardRow, tag: str, lang: str) -> str:
    mark = f' <span class="tag">{_e(tag)}</span>' if r.provisional else ""
    cls = ' class="provisional"' if r.provisional else ""
    return (
        f'<tr{cls}><td class="num place">{r.place}</td>'
        f'<td><span class="name">{_e(r.name)}</span>{mark}</td>'
        f'<td class="num">{_e(number(lang, r.rating))}</td>'
        f'<td class="num">{_e(number(lang, r.games))}</td></tr>'
    )


def render_leaderboard(board: Board, *, lang: str | None = None) -> str:
    """The whole page of ``board`` in ``lang`` (English when no catalogue serves it)."""
    lang = page_language(lang)
    L = translator(lang)
    head = L("web.lb.title", title=board.title)
    s = board.season
    if s is None:
        shown = L("web.lb.now")
    else:
        shown = L("web.lb.season" if s.running else "web.lb.season_over", season=s.name)
    rows = "".join(_row(r, L("web.lb.provisional"), lang) for r in board.rows)
    if rows:
        table = (
            f'<table><thead><tr><th scope="col" class="num">{_e(L("web.lb.place"))}</th>'
            f'<th scope="col">{_e(L("web.lb.player"))}</th>'
            f'<th scope="col" class="num">{_e(L("web.lb.rating"))}</th>'
            f'<th scope="col" class="num">{_e(L("web.lb.games"))}</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
        )
    else:
        table = f'<p class="empty">{_e(L("web.lb.empty"))}</p>'
    legend = ""
    if any(r.provisional for r in board.rows):
        legend = f'<p class="muted legend">{_e(L("web.lb.legend", settled=board.settled))}</p>'
    nav = ""
    if board.seasons:
        current = ' aria-current="page"'
        links = [f'<li><a href="./"{current if s is None else ""}>{_e(L("web.lb.now"))}</a></li>']
        for x in board.seasons:
            on = current if s is not None and x.number == s.number else ""
            links.append(f'<li><a href="?season={x.number}"{on}>{_e(x.name)}</a></li>')
        nav = (
            f'<nav class="card" aria-labelledby="seasons-h"><h2 id="seasons-h">'
            f'{_e(L("web.lb.seasons"))}</h2><ul class="seasons">{"".join(links)}</ul></nav>'
        )
    return f"""<!doctype html>
<html lang="{_e(html_lang(lang))}" data-locale="{_e(intl_locale(lang))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>{_e(head)}</title>
<link rel="icon" href="data:,">
<style>{STYLE}</style>
</head>
<body>
<main>
<header><h1>{_e(head)}</h1></header>
<section class="card" aria-labelledby="table-h">
<h2 id="table-h">{_e(shown)}</h2>
{table}
{legend}
</section>
{nav}
<footer class="muted">{_e(L("web.lb.foot"))}</footer>
</main>
</body>
</html>
"""
