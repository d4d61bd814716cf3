"""Alt text on every image the bot posts (issue 29, item 9): a player using a screen reader
hears what a picture shows. Read from the payloads the fake Discord server receives: every
media gallery item and every attachment carries a description (Discord's alt text) of one to
256 characters; a public picture's is in the game's language and says what is public only —
the map's names the game, where it stands and who decides, the turn's summary; the score
sheet's the scores; a battle's, the boards', the timeline's what they show.

For every registered game, in English and in another language: the lobby, the start, the
hand in the player's DMs, some of the player's decisions (a short game to its end, with its
score sheet and timeline), ``/board``, ``/boards`` and ``/hand``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import i18n
from bot.alt import MAX_ALT, clip_words, map_alt, plain, scores_text
from rules.games import names
from service.games import adapter
from service.results import Decision, ScoreRow, Status
from tests.bot.conftest import bot_maker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, custom_ids, walk_components

CH = 555
ANA = 101
SEED = 7
STEPS = 15
"""Ana's decisions at most (a short game ends sooner: its score sheet and timeline)."""
ALT_KEYS = {
    "map": ("bot.alt.map", "bot.alt.map_over"),
    "scores": ("bot.alt.final_scores",),
    "boards": ("bot.alt.boards",),
    "battle": ("bot.alt.battle",),
    "timeline": ("bot.alt.timeline",),
    "hand": ("bot.alt.hand",),
}
"""The catalogue keys an image's alt text begins with, by the image's kind."""

OTHER = ("hu", "pl", "de", "fr", "pt-BR")
CASES = [(g, "en") for g in names()] + [(g, OTHER[i % 5]) for i, g in enumerate(names())]
"""Every registered game in English and in another language."""


def body_of(r: Request) -> dict[str, Any]:
    """The message a request writes (an interaction callback's ``data``, else the body)."""
    if not isinstance(r.json, dict):
        return {}
    if "/callback" in r.path:
        data = r.json.get("data")
        return data if isinstance(data, dict) else {}
    return r.json


def images_of(r: Request) -> list[tuple[str, str | None]]:
    """The pictures a request posts, each (file name, its description): the attachments it
    uploads and the media gallery items of its layout."""
    body = body_of(r)
    atts = {str(a.get("filename")): a.get("description") for a in body.get("attachments") or []}
    out: list[tuple[str, str | None]] = [(name, atts.get(name)) for name in r.files]
    for c in walk_components(body.get("components") or []):
        if c.get("type") == 12:  # a media gallery
            for item in c.get("items") or []:
                url = str(item.get("media", {}).get("url", ""))
                out.append((url.removeprefix("attachment://"), item.get("description")))
    return out


def literal(lang: str, key: str) -> str:
    """The longest text of ``key``'s template in ``lang`` outside its placeholders (what an
    alt text written from it shows whatever it says of the game)."""
    template = i18n.catalogue(lang).messages[key]
    parts = re.split(r"\{[^{}]*\}", template)
    return max((p.strip(" .,:;()") for p in parts), key=len)


def check_alt_texts(reqs: list[Request], lang: str, channel: int = CH) -> list[str]:
    """Every picture of ``reqs`` carries an alt text of 1 to 256 characters; those posted in
    the game's ``channel`` are in the game's language ``lang`` (their kind's catalogue text).
    Returns the kinds of the public pictures seen."""
    public: list[str] = []
    for r in reqs:
        for name, alt in images_of(r):
            where = f"{name} in {r.method} {r.path}"
            assert alt, f"no alt text: {where}"
            assert len(alt) <= MAX_ALT, f"{len(alt)} characters of alt text: {where}"
            if not r.path.startswith(f"/channels/{channel}/"):
                continue  # a private picture: in its reader's language
            kind = name.rsplit(".", 1)[0]
            public.append(kind)
            keys = ALT_KEYS.get(kind, ("bot.alt.image",))
            assert any(literal(lang, k) in alt for k in keys), (lang, where, alt)
    return public


async def play(fake: FakeDiscord, h: Harness, game: str, lang: str) -> list[Request]:
    """A game of ``game`` in ``lang``, Ana against the computer: the requests of it all."""
    A = adapter(game)
    players = min(max(2, A.face.min_players), A.face.max_players)
    tables = h.client.tables  # type: ignore[attr-defined]
    reqs = await h.command(
        ANA,
        CH,
        "game",
        "new",
        game=game,
        players=players,
        ai=players - 1,
        ai_level="random",
        language=lang,
    )
    lobby = fake.messages[max(fake.messages)]
    start = next(c for c in custom_ids(lobby) if c.endswith(":start"))
    tables.next_seed = SEED
    reqs += await h.click(ANA, lobby, start)
    reqs += await h.command(ANA, CH, "hand", where="dm")
    rng = random.Random(SEED)
    rec = await tables.store.get_active_game(CH)
    gid = rec.id
    for step in range(STEPS):
        st = await tables.svc.state(gid)
        if A.over(st):
            break
        if step == 2:
            for cmd in ("board", "boards", "hand"):
                reqs += await h.command(ANA, CH, cmd)
        action = rng.choice(A.face.legal_actions(st, 0))
        reqs += await h.command(ANA, CH, "play", command=A.face.format_action(st, action))
    return reqs


@pytest.mark.parametrize(("game", "lang"), CASES)
async def test_every_image_posted_carries_alt_text(
    game: str, lang: str, fake: FakeDiscord, tmp_path: Path
) -> None:
    async with bot_maker(fake, tmp_path / "bot.sqlite3") as make:
        h = await make()
        reqs = await play(fake, h, game, lang)
        public = check_alt_texts(reqs, lang)
        assert "map" in public
        private = [r for r in reqs if r.files and not r.path.startswith(f"/channels/{CH}/")]
        assert private, "the hand's picture (DMs, /board): checked too"
        if adapter(game).over(await h.client.tables.svc.state(1)):  # type: ignore[attr-defined]
            assert "timeline" in public


def test_alt_texts_are_clipped_at_a_word_and_keep_to_what_is_public() -> None:
    long = "word " * 100
    cut = clip_words(long)
    assert len(cut) <= MAX_ALT and cut.endswith("word…")
    assert plain("**Ana** built a `factory` for <@101> at <t:1700000000:R>") == (
        "Ana built a factory for at"
    )
    rows = [
        ScoreRow(0, "Ana (red)", 12, {}),
        ScoreRow(1, "Bo (blue)", 0, {}, hidden=True),  # behind the screen: not said
    ]
    assert scores_text(rows, "en") == "Scores: Ana (red) 12."
    assert scores_text(rows[1:], "en") == ""
    waiting = (Decision(1, "Bo (blue)", ai=False, kind="turn"),)
    status = Status(5, "Cisplatine War", "play", 1, 2, waiting)
    alt = map_alt("brazil", status, "en", rows=rows, summary=["**Ana** built a factory."] * 20)
    assert alt.startswith(
        "Brazil: Imperial map, era 1, round 2. Waiting for Bo (blue). Scores: Ana (red) 12. "
        "Ana built a factory. Ana built"
    )
    assert len(alt) <= MAX_ALT and alt.endswith("…")
    over = Status(5, "Cisplatine War", "ended", 3, 9)
    final = map_alt("brazil", over, "en", summary=["Final scores:\n  Ana: 12 VP\n  Bo: 9 VP"])
    assert final == (
        "Brazil: Imperial map at the end of the game. Final scores: Ana: 12 VP. Bo: 9 VP."
    )
    hu = map_alt("brazil", status, "hu")
    assert hu == "Brazil: Imperial – térkép, 1. kor, 2. forduló. Várakozás: Bo (blue)."
