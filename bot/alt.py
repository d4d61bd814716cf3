"""Alt text of the images the bot posts (Discord's attachment and media gallery item
``description``, read aloud by a screen reader): in the game's language, from what is public
only — who decides, the turn's summary, the public scores — never a hand or a hidden score.

The map: ``Brazil: Imperial map, era 1, round 2. To decide: Ana (red). Scores: … <the turn's
summary>``; the scores and boards: the public scores; a battle, the timeline, a hand: a
sentence naming what it shows. Every text is clipped to :data:`MAX_ALT` characters at a word
boundary (:func:`clip_words`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

import discord

from i18n import translator
from service import Frame, GameService, ImageRequest, ScoreRow, SeatSpec
from service.games import title_key
from service.results import Status

MAX_ALT = 256
"""Discord's longest description of an attachment or a media gallery item."""

_MARKDOWN = re.compile(r"\*\*|__|~~|\|\||`+|^#{1,3} |^> |^-# ", re.M)
_MENTION = re.compile(r"<[@#][!&]?\d+>|<t:\d+(?::\w)?>")


def plain(text: str) -> str:
    """``text`` without Discord's markdown and mentions, on one line (a screen reader reads
    the words, not the marks)."""
    text = _MENTION.sub("", _MARKDOWN.sub("", text))
    return " ".join(text.split())


def clip_words(text: str, limit: int = MAX_ALT) -> str:
    """``text`` cut to ``limit`` characters at a word boundary (``…`` ends a cut text)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-—") + "…"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?…):" else text + "."


def game_title(game: str, lang: str) -> str:
    """The game's title in ``lang`` (``Tigris & Euphrates``)."""
    return translator(lang).name(title_key(game), game)


def scores_text(rows: Sequence[ScoreRow], lang: str, *, final: bool = False) -> str:
    """The public scores in a sentence (``Scores: Ana (red) 12, Bo (blue) 9.``); rows behind
    a screen (``hidden``) are left out; "" when none is public. ``final``: the game's end
    (the winners named)."""
    L = translator(lang)
    shown = [r for r in rows if not r.hidden]
    if not shown:
        return ""
    shown.sort(key=lambda r: -r.total)
    items = [
        L("bot.alt.winner" if final and r.winner else "bot.alt.score", who=r.who, vp=r.total)
        for r in shown
    ]
    return L("bot.alt.scores", scores="; ".join(items))


def deciding_text(status: Status, lang: str, where: str = "") -> str:
    """Who decides now (``To decide: Ana (red).``), "" when nobody does or ``where`` (the
    game's own words for where it stands) already names them."""
    names = [d.who for d in status.waiting]
    if not names or all(n in where for n in names):
        return ""
    return translator(lang)("bot.alt.deciding", who=names)


def map_alt(
    game: str,
    status: Status,
    lang: str,
    *,
    rows: Sequence[ScoreRow] = (),
    summary: Iterable[str] = (),
) -> str:
    """The map's alt text: the game, where it stands and who decides, the public scores,
    then the turn's ``summary`` (shortened)."""
    L = translator(lang)
    title = game_title(game, lang)
    if status.over:
        parts = [L("bot.alt.map_over", game=title)]
    else:
        where = status.where(lang)
        parts = [L("bot.alt.map", game=title, where=where), deciding_text(status, lang, where)]
    parts.append(scores_text(rows, lang, final=status.over))
    said = [_sentence(plain(line)) for text in summary for line in text.splitlines()]
    parts.append(" ".join(said))
    return clip_words(" ".join(p for p in parts if p))


def image_alt(
    kind: str,
    game: str,
    lang: str,
    *,
    game_id: int | None = None,
    status: Status | None = None,
    rows: Sequence[ScoreRow] = (),
    summary: Iterable[str] = (),
) -> str:
    """The alt text of an image of ``kind`` (an image request's kind, or ``timeline``) of
    ``game`` in ``lang``: the map by :func:`map_alt` (given its ``status``), the score sheet
    and the boards with the public scores (``rows``), the others a sentence naming them."""
    L = translator(lang)
    title = game_title(game, lang)
    if kind == "map" and status is not None:
        return map_alt(game, status, lang, rows=rows, summary=summary)
    over = status is not None and status.over
    if kind == "scores":
        text = L("bot.alt.final_scores", game=title) + " " + scores_text(rows, lang, final=over)
    elif kind == "boards":
        text = L("bot.alt.boards", game=title) + " " + scores_text(rows, lang, final=over)
    elif kind == "hand":
        text = L("bot.alt.hand", game=game_id or "", title=title)
    elif kind in ("battle", "timeline"):
        text = L(f"bot.alt.{kind}", game=title)
    else:
        what = L.name(f"bot.image.kind.{kind}", kind.replace("_", " "))
        text = L("bot.alt.image", game=title, what=what)
    return clip_words(text)


def kind_of(filename: str) -> str:
    """The image kind a file's name stands for (``battle.png``: ``battle``)."""
    return filename.rsplit(".", 1)[0]


def describe(files: Iterable[discord.File], alts: Mapping[str, str]) -> None:
    """Give ``files`` their alt texts (``alts`` by file name) as their descriptions."""
    for f in files:
        if f.filename in alts:
            f.description = alts[f.filename]


def public_alts(
    svc: GameService,
    game_id: int,
    seats: Sequence[SeatSpec],
    reqs: Iterable[tuple[str, ImageRequest, Frame]],
    lang: str,
    summary: Sequence[str] = (),
) -> dict[str, str]:
    """The alt texts of public images (file name, request, the frame it is drawn from) by
    file name: each from its own frame's status and public scores; the map's with the
    turn's ``summary``."""
    out: dict[str, str] = {}
    for name, req, frame in reqs:
        status = svc.status(game_id, frame.state, seats, lang)
        rows = svc.reading.score_rows(frame.state, seats, lang)
        out[name] = image_alt(
            req.kind,
            req.game,
            lang,
            game_id=game_id,
            status=status,
            rows=rows,
            summary=summary if req.kind == "map" else (),
        )
    return out


def private_alts(
    game_id: int, reqs: Iterable[tuple[str, ImageRequest, Frame]], lang: str
) -> dict[str, str]:
    """The alt texts of a player's private pictures (their hand) by file name: a sentence
    naming what each shows, in the reader's ``lang`` (the cards are in the text beside it)."""
    return {name: image_alt(req.kind, req.game, lang, game_id=game_id) for name, req, _ in reqs}
