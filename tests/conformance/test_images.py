"""The pictures of every registered game: each image kind its service adapter declares —
a step's posts (:meth:`service.games.GameAdapter.step_posts`), the board
(:meth:`~service.games.GameAdapter.board_images`), a seat's hand (as
:meth:`service.reading.Reading.hand` asks for it) — drawn by the adapter
(:meth:`~service.games.GameAdapter.render`) is a valid PNG that is not blank, and a public
picture shows nothing its viewer may not see."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from service.games import adapter
from service.results import Frame, ImageRequest, SeatSpec
from tests.conformance.common import GAMES, SEEDS, Case, recorded, two_and_most, walk

CASES = [
    Case(name, two_and_most(name)[1 - i % 2], seed)
    for name in GAMES
    for i, seed in enumerate(SEEDS[:2])
]
"""One game per registered game and seed: its most players, then one fewer."""


def declared(case: Case) -> list[tuple[ImageRequest, Frame]]:
    """Each image kind (public or a seat's) the adapter declares over ``case``'s recorded
    game, with the frame it is drawn from (the state and the turn's events so far, as
    :meth:`service.core.GameCore.turn_events` keeps them): the first step that asks for it,
    the board and a hand midway."""
    A = adapter(case.game)
    rec = recorded(case)
    seats = [SeatSpec(name=f"Player {n + 1}", ai="random") for n in range(case.players)]
    found: dict[tuple[str, bool], tuple[ImageRequest, Frame]] = {}
    middle = len(rec.actions) // 2
    turn: list[Any] = []  # the turn's events so far, as the service keeps them
    for i, before, action, after, events in walk(rec):
        version = i + 1
        turn += events
        frame = Frame(version, after, tuple(turn))
        if A.turn_key(before) != A.turn_key(after):
            turn = []
        requests = [
            q
            for post in A.step_posts(before, action, after, events, seats, version, lang="en")
            for q in post.images
        ]
        if i == middle:
            requests += A.board_images(version, "en")
            requests.append(ImageRequest("hand", rec.seats[i], version, game=case.game))
        for q in requests:
            assert q.game == case.game and q.version == version, q
            found.setdefault((q.kind, q.seat is None), (q, frame))
    assert found, "the game declares no image"
    return list(found.values())


def assert_picture(png: bytes | None, what: Any) -> None:
    assert png, f"{what}: nothing drawn"
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG", what
    image.verify()
    image = Image.open(io.BytesIO(png))
    assert image.width > 1 and image.height > 1, what
    assert image.convert("RGBA").getcolors(maxcolors=1) is None, f"{what}: one colour only"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_declared_image_draws_a_picture(case: Case) -> None:
    A = adapter(case.game)
    for req, frame in declared(case):
        assert_picture(A.render(req, frame), req)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=str)
def test_pictures_show_nothing_hidden(case: Case) -> None:
    """A picture drawn from two full states dealt at random from what its viewer sees (a
    public one: seat 0) — they differ only in what the viewer cannot see — is the same."""
    A = adapter(case.game)
    g = A.face
    for req, frame in declared(case):
        seat = 0 if req.seat is None else req.seat
        rng = random.Random(frame.version)
        one = g.determinize(frame.state, seat, rng)
        two = g.determinize(frame.state, seat, rng)
        a = A.render(req, Frame(frame.version, one, frame.events))
        b = A.render(req, Frame(frame.version, two, frame.events))
        assert a == b, req
