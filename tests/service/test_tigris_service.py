"""Tigris & Euphrates through the game service: the same service as Brazil: Imperial, the game
chosen by name at ``new_game(game="tigris")``, recorded with the game and acted on through its
adapter (``service/games/tigris/adapter.py``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules.tigris import view
from rules.tigris.data import BOARD, COLOURS, LABELS, NEIGHBOURS
from rules.tigris.state import LEADER, UP, TigrisState
from service import Frame, GameService, ImageRequest, Result, render_image
from service.games import adapter, adapter_of
from storage import SqliteGameStore
from storage.check import check_store
from storage.replay import default_replayer

RED = COLOURS.index("red")
BLUE = COLOURS.index("blue")
TEMPLE = UP + RED


async def _new(service: GameService, seats: list[str], seed: int = 7) -> int:
    res = await service.new_game(seats, game="tigris", seed=seed)
    assert res.ok and res.posts and "Tigris & Euphrates" in res.posts[0].text
    return res.game_id


@pytest.mark.slow
async def test_a_whole_3_player_game_with_ai_seats_reaches_the_end(
    service: GameService, store: SqliteGameStore
) -> None:
    # the search's default budget is 2 s a decision of wall-clock time: a random and a
    # heuristic player keep the whole game quick and the same on every run
    gid = await _new(service, ["ai:random", "ai:heuristic", "ai:random"], seed=11)
    steps: list[Result] = []
    res = await service.run_ai_turns(gid, on_step=steps.append)
    assert res.over and res.applied == len(steps) > 20
    s = await service.peek(gid)
    assert s.over and s.game == "tigris" and isinstance(s.state, TigrisState)
    assert s.status().over and s.status().text() == "The game is over."
    # the record says which game, and reloads as that game's state (T-END: it is over)
    rec = await store.get_game(gid)
    assert rec.game == "tigris" and rec.status.value == "finished"
    assert rec.seats[0].score is not None
    assert adapter(rec.game).load(rec.state_json) == s.state
    # the final scores: the weakest colour, treasures wild (T-FINAL-2, T-FINAL-3)
    rows = await service.reading.scores(gid)
    assert any(r.winner for r in rows) and all(not r.hidden for r in rows)
    assert all(r.total == min(r.categories[c] for c in COLOURS) for r in rows)
    final = [p for st in steps for p in st.public()]
    assert final[-1].text.startswith("Final scores:")
    kinds = [q.kind for st in steps for p in st.public() for q in p.images]
    assert "map" in kinds and kinds.count("scores") == 1
    # every picture of the game's posts draws (board, conflicts, scores, hands)
    drawn = {}
    for st in steps:
        for req, frame in st.images():
            if req.kind not in drawn or req.kind == "battle":
                png = await service.render(req, frame)
                assert req.kind == "battle" or png, req
                drawn[req.kind] = png
    assert {"map", "scores", "hand"} <= set(drawn)
    # the storage replays it by the record's game (storage check, state_at)
    report = await store.replay(gid, default_replayer("tigris"))
    assert report.ok and report.steps == rec.version
    checked = await check_store(store, default_replayer(), replayer_for=store.replayer_for)
    assert checked.ok, checked.lines()
    assert await store.state_at(gid, 3)


async def test_public_posts_hold_no_hidden_information_T_INFO_1(
    service: GameService,
) -> None:
    gid = await _new(service, ["ai:random", "ai:random", "ai:random"], seed=3)
    steps: list[Result] = []
    await service.run_ai_turns(gid, on_step=steps.append, max_steps=60)
    for st in steps:
        for post in st.posts:
            if post.audience == "public":
                assert all(q.seat is None for q in post.images)
                assert "You draw" not in post.text
            else:  # a seat's own news: its drawn tiles, its hand picture
                assert "You draw" in post.text
                assert all(q.seat == post.audience and q.kind == "hand" for q in post.images)
    # the public pictures of two states that differ only in what is hidden are the same
    s = await service.peek(gid)
    rng = random.Random(5)
    other = adapter("tigris").face.determinize(view(s.state, 0), 0, rng)
    other.rng = s.state.rng
    assert other.players[1].hand != s.state.players[1].hand or other.bag != s.state.bag
    events = steps[-1].frames[steps[-1].version].events
    for kind in ("map", "boards", "battle"):
        req = ImageRequest(kind, None, s.version, game="tigris")
        a = render_image(req, Frame(s.version, s.state, events))
        b = render_image(req, Frame(s.version, other, events))
        assert a == b, kind
    # and the texts every seat may read name no hand (T-INFO-1)
    board = await service.reading.board(gid)
    assert all(p.audience == "public" for p in board.posts)
    assert "behind the screen" in board.posts[0].text


async def test_private_posts_go_to_their_seat(service: GameService) -> None:
    gid = await _new(service, ["Ana", "ai:random", "ai:random"])
    res = await service.reading.hand(gid, 0, lang="hu")
    assert [p.audience for p in res.posts] == [0]
    text = res.posts[0].text
    assert "Ana (Íj)" in text and "lapkák a paraván mögött" in text
    st = await service.state(gid)
    from i18n import tr

    for c, n in enumerate(st.players[0].hand):
        if n:  # each colour behind her screen, counted, in her language
            assert f"{n} {tr('hu', f'tigris.colour.{COLOURS[c]}')}" in text
    assert res.posts[0].images[0] == ImageRequest("hand", 0, res.version, lang="hu", game="tigris")
    # Ana's turn: a step that ends it draws her tiles, told to her only
    legal = await service.legal(gid, 0)
    first = await service.act(gid, 0, next(t for t in legal if t.startswith("tile")))
    assert first.ok
    second = await service.act(gid, 0, "pass")
    assert second.ok
    mine = second.private(0)
    assert mine and "You draw" in mine[0].text and mine[0].images[0].seat == 0
    assert not any("You draw" in p.text for p in second.public())


def _river_square(st: TigrisState) -> int:
    return next(sq for sq in sorted(BOARD.river) if st.cells[sq] == 0)


def _lonely_land_square(st: TigrisState) -> int:
    """An empty land square with no temple beside it."""
    return next(
        sq
        for sq in range(len(st.cells))
        if sq not in BOARD.river
        and st.cells[sq] == 0
        and not any(st.cells[n] == TEMPLE for n in NEIGHBOURS[sq])
    )


async def test_bad_commands_are_refused_naming_the_rule_and_change_nothing(
    service: GameService,
) -> None:
    gid = await _new(service, ["Ana", "ai:random", "ai:random"], seed=7)
    st = await service.state(gid)
    before = (await service.peek(gid)).version
    colour = next(c for c, n in enumerate(st.players[0].hand) if n and c != BLUE)
    river = LABELS[_river_square(st)]
    # a tile that is not blue on a river square (T-TILE-2)
    res = await service.act(gid, 0, f"tile {COLOURS[colour]} {river}")
    assert [e.rule for e in res.errors] == ["T-TILE-2"]
    assert "river" in res.errors[0].text_in("en")
    assert "folyó" in res.errors[0].text_in("hu") or res.errors[0].text_in("hu") != (
        res.errors[0].text_in("en")
    )
    # a leader not next to a temple (T-LEADER-2)
    lonely = LABELS[_lonely_land_square(st)]
    res = await service.act(gid, 0, f"leader king {lonely}")
    assert [e.rule for e in res.errors] == ["T-LEADER-2"]
    # a command that does not parse: the engine's reading refusal
    res = await service.act(gid, 0, "tile purple F4")
    assert res.errors and not res.posts
    # a catastrophe on a leader (T-CATASTROPHE-2): place a leader first
    legal = await service.legal(gid, 0)
    placed = next(t for t in legal if t.startswith("leader king "))
    assert (await service.act(gid, 0, placed)).ok
    mid = await service.state(gid)
    square = placed.split()[-1]
    res = await service.act(gid, 0, f"catastrophe {square}")
    assert [e.rule for e in res.errors] == ["T-CATASTROPHE-2"]
    # every refusal changed nothing: one step was saved (the leader), the state is as it was
    after = await service.peek(gid)
    assert after.version == before + 1 and after.state == mid
    assert mid.cells[LABELS.index(square)] >= LEADER


async def test_undo_where_the_engine_allows_it(service: GameService) -> None:
    gid = await _new(service, ["Ana", "ai:random", "ai:random"], seed=7)
    st0 = await service.state(gid)
    legal = await service.legal(gid, 0)
    res = await service.act(gid, 0, next(t for t in legal if t.startswith("tile")))
    assert res.ok and res.undo_allowed  # a placed tile draws nothing: it may be taken back
    plan = await service.undo_check(gid, 0)
    assert plan.target == 0
    res = await service.undo(gid, 0)
    assert res.ok and "took back" in res.posts[0].text
    assert await service.state(gid) == st0
    # a step that ended the turn (and drew tiles) may not
    legal = await service.legal(gid, 0)
    assert (await service.act(gid, 0, next(t for t in legal if t.startswith("tile")))).ok
    assert (await service.act(gid, 0, "pass")).ok
    await service.run_ai_turns(gid)
    res = await service.undo(gid, 0)
    assert res.errors and res.errors[0].rule == ""


async def test_typed_in_hungarian_words_and_completed(service: GameService) -> None:
    gid = await _new(service, ["Ana", "ai:random"], seed=7)
    s = await service.peek(gid)
    hu = s.legal_texts(0, lang="hu")
    assert any(t.startswith("lapka ") for t in hu)
    typed = next(t for t in hu if t.startswith("lapka "))
    assert typed in s.complete(0, typed[:8], lang="hu")
    assert s.complete(0, "tile ")  # the canonical words complete too
    res = await service.act(gid, 0, typed, lang="hu")
    assert res.ok, res.errors
    status = (await service.peek(gid)).status("hu")
    assert status.where("hu").startswith("1. forduló") and "Ana (Íj)" in status.text("hu")
    assert "(actions left: 1)" in (await service.peek(gid)).status().text()


async def test_rules_reference_of_the_game(service: GameService) -> None:
    assert service.reading.rules("T-WAR-6", game="tigris")[0].startswith("T-WAR-6")
    assert service.reading.rules("war 6", game="tigris")[0].startswith("T-WAR-6")
    assert service.reading.rules("R-BUILD-4")[0].startswith("R-BUILD-4")  # Brazil: the default


@pytest.mark.parametrize(
    ("lang", "query"),
    [
        ("hu", "háború 6"),
        ("de", "krieg 6"),
        ("fr", "guerre 6"),
        ("pl", "wojna 6"),
        ("pt-BR", "guerra 6"),
    ],
)
def test_the_rules_reference_in_every_language(service: GameService, lang: str, query: str) -> None:
    """Each language's Tigris reference is served (the same IDs, its own words)."""
    found = service.reading.rules(query, game="tigris", lang=lang)
    assert found and found[0].startswith("T-WAR-6"), found[:1]
    assert found[0] != service.reading.rules("T-WAR-6", game="tigris")[0]  # not the English entry


async def test_unknown_game_and_player_count_are_refused(service: GameService) -> None:
    from rules.games import names
    from service import Refused

    with pytest.raises(Refused, match=", ".join(names())):
        await service.new_game(["Ana", "Bo"], game="chess")
    with pytest.raises(Refused, match="2 to 4"):
        await service.new_game(["Ana"], game="tigris")


async def test_brazil_stays_the_default(service: GameService, store: SqliteGameStore) -> None:
    res = await service.new_game(["Ana", "ai:random"], seed=1)
    rec = await store.get_game(res.game_id)
    assert rec.game == "brazil"
    assert adapter_of(await service.state(res.game_id)).name == "brazil"


@pytest.mark.slow
async def test_ai_seats_decide_in_worker_processes(tmp_path: Path) -> None:
    """The jobs carry the game's name: a worker process loads a Tigris state."""
    from service import WorkerPool

    async with SqliteGameStore(str(tmp_path / "w.sqlite3")) as store:
        svc = GameService(store, workers=WorkerPool(1))
        try:
            res = await svc.new_game(["ai:random", "ai:random"], game="tigris", seed=2)
            steps: list[Result] = []
            await svc.run_ai_turns(res.game_id, on_step=steps.append, max_steps=12)
            assert len(steps) == 12 and svc.workers.jobs > 0
            req, frame = next((r, f) for st in steps for r, f in st.images() if r.kind == "map")
            assert (await svc.render(req, frame)) == render_image(req, frame)
        finally:
            await svc.aclose()
