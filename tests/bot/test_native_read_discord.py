"""A whole game on Discord read by rule in every language (issue #32, devtools.textscan), for
every registered game: the lobby, the start, the player's own turns typed with ``/play`` in the
words of the language (one of them a word that is no command), the guided turn's menu, the
hand, the score, the board, the log, the rules, the status, an undo, then a computer player
standing in to the natural end. Every public post and every private reply — contents, texts
of the layouts, button labels, menu options — is read: no English fragment, raw id, empty
list, doubled punctuation, wrong number agreement, French typography slip or wrong
Hungarian article."""

from __future__ import annotations

import random

import pytest

import i18n
from devtools.textscan import read
from i18n.notation import localize
from rules.games import game as face_of
from rules.registry import registrations
from service.pacing import FakeClock
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Request, custom_ids
from tests.bot.test_bot_i18n import body_of, clock, own_texts, pbot, tick, writes

__all__ = ["clock", "pbot"]  # fixtures

pytestmark = pytest.mark.slow  # whole games (tests/README.md)

ANA, CH, SEED = 101, 555, 5


@pytest.mark.parametrize("lang", i18n.supported())
@pytest.mark.parametrize("game", list(registrations()))
async def test_a_whole_discord_game_reads_as_a_native_wrote_it(
    fake: FakeDiscord, pbot: BotMaker, clock: FakeClock, game: str, lang: str
) -> None:
    h = await pbot()
    tables = h.client.tables  # type: ignore[attr-defined]

    async def no_images(*_: object, **__: object) -> list[object]:
        return []  # the texts are what is read here

    async def no_timeline(*_: object) -> None:
        return None

    tables.publisher.images = no_images
    tables.publisher._timeline = no_timeline
    face = face_of(game)
    reqs: list[Request] = []
    reqs += await h.command(ANA, CH, "language", language=lang)
    reqs += await h.command(
        ANA, CH, "game", "new", game=game, players=2, ai=1, ai_level="random", language=lang
    )
    lobby = fake.messages[max(fake.messages)]
    start = next(c for c in custom_ids(lobby) if c.endswith(":start"))
    tables.next_seed = SEED
    reqs += await h.click(ANA, lobby, start)
    rec = await tables.store.get_active_game(CH)
    assert rec is not None
    rng = random.Random(SEED)
    for name in ("hand", "score", "board", "log"):
        reqs += await h.command(ANA, CH, name)
    for query in (tables.svc.reading.rule_example(game), "xyzzy"):
        reqs += await h.command(ANA, CH, "rules", query=query)
    reqs += await h.command(ANA, CH, "game", "status")
    reqs += await h.command(ANA, CH, "play", command="xyzzy 42")
    for turn in range(12):  # a few turns of Ana's, typed in the language's words
        st = await tables.svc.state(rec.id)
        if face.is_over(st) or 0 not in face.deciders(st):
            break
        text = rng.choice(face.legal_texts(st, 0))
        reqs += await h.command(ANA, CH, "play", command=localize(text, lang, game=game))
        if turn == 1:
            reqs += await h.command(ANA, CH, "undo")
    reqs += await h.command(ANA, CH, "game", "policy", policy="ai", level="random")
    for _ in range(6):
        clock.advance(hours=25)
        reqs += await tick(h)  # time is up: a computer player plays for Ana
        if face.is_over(await tables.svc.state(rec.id)):
            break
    assert face.is_over(await tables.svc.state(rec.id)), "the game did not end"
    reqs += await h.command(ANA, CH, "score")
    reqs += await h.command(ANA, CH, "game", "status")
    texts = [t for r in writes(reqs) for t in own_texts(body_of(r))]
    report = read(lang, texts)
    assert report.distinct > 20
    assert not report.defects, "\n".join(
        f"[{','.join(k)}] {s}" for s, k in list(report.defects.items())[:30]
    )
