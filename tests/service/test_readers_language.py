"""Who reads in which language (issue 17): a game's public posts and images in the game's
language, each seat's private posts in its player's language, through the game service."""

from __future__ import annotations

import random

from i18n import PSEUDO
from rules.brazil import legal_actions
from service import GameService
from service.results import Post, SeatSpec
from tests.i18n.pseudo import unbracketed_words

ANA, BO = 101, 202
NAMES = ["Ana", "Bo"]


async def _play(service: GameService, steps: int) -> tuple[int, list[Post]]:
    res = await service.new_game(
        [SeatSpec("Ana", user_id=ANA), SeatSpec("Bo", user_id=BO)], seed=11, language=PSEUDO
    )
    posts = list(res.posts)
    rng = random.Random(3)
    for _ in range(steps):
        st = await service.state(res.game_id)
        if st.phase == "ended":
            break
        seat = next(iter(res.next)).seat
        action = rng.choice(legal_actions(st, seat))
        res = await service.choose(res.game_id, seat, action)
        assert res.ok, res.errors
        posts += res.posts
    return res.game_id, posts


async def test_public_in_the_games_language_private_in_each_readers(service: GameService) -> None:
    await service.languages.set_user_language(BO, "hu")  # Bo reads Hungarian; Ana follows
    gid, posts = await _play(service, 120)
    public = [p for p in posts if p.audience == "public"]
    assert len(public) > 50
    for p in public:  # the game's language: every sentence bracketed, every image too
        assert not unbracketed_words(p.text, NAMES), p.text
        assert all(r.lang == PSEUDO for r in p.images)
    ana = [p for p in posts if p.audience == 0]
    bo = [p for p in posts if p.audience == 1]
    assert ana and bo, "secret cards and missions are dealt to both"
    for p in ana:  # no language of her own: the game's
        assert not unbracketed_words(p.text, NAMES), p.text
    for p in bo:  # Hungarian: no bracket, no English sentence
        assert "[" not in p.text and "draws" not in p.text and "You" not in p.text, p.text
    hand = await service.reading.hand(gid, 1, lang="hu")
    (post,) = hand.private(1)
    assert post.text.startswith("Kéz") and all(r.lang == "hu" for r in post.images)
    board = await service.reading.board(gid)
    assert not unbracketed_words(board.public()[0].text, NAMES)


async def test_an_english_game_reads_as_before(service: GameService) -> None:
    res = await service.new_game([SeatSpec("Ana", user_id=ANA), SeatSpec("Bo", user_id=BO)], seed=4)
    (post,) = res.public()
    assert post.text.startswith("New game #") and "Ana" in post.text
    assert (await service.state(res.game_id)).phase == "setup"


async def test_images_are_drawn_in_the_language_they_carry(service: GameService) -> None:
    from dataclasses import replace

    from service import render_image

    res = await service.new_game(["ai:random", "ai:random"], seed=2, language="de")
    res = await service.run_ai_turns(res.game_id, until=lambda s: s.round > 1)
    board = await service.reading.board(res.game_id)
    req = next(r for p in board.public() for r in p.images if r.kind == "boards")
    assert req.lang == "de"
    frame = board.frames[req.version]
    german = render_image(req, frame)
    english = render_image(replace(req, lang="en"), frame)
    assert german and english and german != english
