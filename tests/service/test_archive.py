"""service.archive: a game's public steps replayed from its log (turns, battles, eras, steps
taken back), the live view, and the page tokens."""

from __future__ import annotations

import json

import pytest

from rules.brazil import GameState
from service import Frame, GameService, ImageRequest
from service import moderation as mod
from storage.models import EntryKind
from tests.service.test_moderation import CY, play_random, two_humans


@pytest.mark.slow
@pytest.mark.parametrize("seed", [21, 22, 23])
async def test_the_archive_replays_every_step_of_whole_games(
    service: GameService, seed: int
) -> None:
    res = await service.new_game(["ai:random"] * 4, seed=seed)
    gid = res.game_id
    await service.run_ai_turns(gid, until=lambda s: s.round > 60)
    arch = await service.archive.archive(gid)
    log = await service.store.get_log(gid)
    # one step per log entry, in order, the start first
    assert [s.version for s in arch.steps] == [e.version for e in log]
    assert [s.n for s in arch.steps] == list(range(len(log)))
    assert arch.steps[0].kind == "start" and all(s.kind == "action" for s in arch.steps[1:])
    assert all(s.text for s in arch.steps)
    # the turns: in order, each step in the turn whose span holds it
    firsts = [t.first for t in arch.turns]
    assert firsts == sorted(firsts) and firsts[0] == 0 and arch.turns[0].label == "Setup"
    for s in arch.steps:
        assert firsts[s.turn] <= s.n and (s.turn + 1 == len(firsts) or s.n < firsts[s.turn + 1])
    # a turn ends where the engine hands over; the next turn is labelled with its player
    for s in arch.steps:
        if s.ends_turn and s.n + 1 < len(arch.steps):
            nxt = arch.turns[arch.steps[s.n + 1].turn]
            assert nxt.first == s.n + 1
    # battles and eras are where the events say
    for s, e in zip(arch.steps, log, strict=True):
        kinds = {ev["kind"] for ev in json.loads(e.events_json or "[]")}
        assert s.battle == bool(kinds & {"battle_result", "expedition_result"})
    st = await service.state(gid)
    eras = [s.era for s in arch.steps if s.era_start]
    assert eras == list(range(2, st.era + 1))
    # the phase, era and round of each step are those of the state at its version
    for s in arch.steps[:: max(1, len(arch.steps) // 25)]:
        at = GameState.model_validate_json(await service.store.state_at(gid, s.version))
        assert (s.phase, s.era, s.round) == (at.phase, at.era, at.round)


async def test_a_rollback_marks_the_steps_it_took_back_and_replays_the_turn(
    service: GameService,
) -> None:
    gid = await two_humans(service)
    await play_random(service, gid, 40)
    rec = await service.store.get_game(gid)
    before = await service.archive.archive(gid)
    target = rec.version - 6
    await mod.rollback(service, gid, target, by=CY, reason="misclick", expected_version=rec.version)
    await play_random(service, gid, 3, seed=1)
    arch = await service.archive.archive(gid)
    back = next(s for s in arch.steps if s.kind == "rollback")
    assert f"step {target}" in back.text and "misclick" in back.text
    undone = [s.version for s in arch.steps if s.undone]
    assert undone == list(range(target + 1, rec.version + 1))
    assert [s.text for s in arch.steps[: rec.version + 1]] == [s.text for s in before.steps]
    # the steps played after the rollback are live again, in a turn at or after it
    after = [s for s in arch.steps if s.version > back.version]
    assert after and not any(s.undone for s in after)
    assert all(arch.turns[s.turn].first <= s.n for s in after)
    assert set(arch.last_turn()) <= {s.text for s in after}
    log = await service.store.get_log(gid)
    assert sum(e.kind is EntryKind.ROLLBACK for e in log) == 1


async def test_the_live_view_names_who_decides_and_their_deadline(
    service: GameService,
) -> None:
    gid = await two_humans(service)
    await play_random(service, gid, 5)
    await service.pacing.refresh(gid)  # the clocks start as the bot starts them after a step
    lv = await service.archive.live(gid)
    assert lv.version == 5 and lv.steps == 6 and not lv.finished
    assert [d.who.split()[0] for d in lv.status.waiting] in (["Ana"], ["Bo"])
    seat = lv.status.waiting[0].seat
    assert lv.deadlines[seat] is not None
    assert lv.last_turn  # the sentences of the turn so far
    assert {r.seat for r in lv.scores} == {0, 1}


async def test_page_tokens_are_unguessable_kept_and_replaced(service: GameService) -> None:
    gid = await two_humans(service)
    a = await service.archive.token(gid)
    assert len(a) >= 24 and await service.archive.token(gid) == a
    assert await service.archive.game_of(a) == gid
    b = await service.archive.reset_token(gid)
    assert b != a and await service.archive.game_of(a) is None
    assert await service.archive.game_of(b) == gid
    assert (
        await service.archive.game_of("") is None
        and await service.archive.game_of("x" * 500) is None
    )
    other = (await service.new_game(["ai:random", "ai:random"], seed=4)).game_id
    assert await service.archive.token(other) != b


async def test_a_map_is_kept_per_language_and_follows_a_game_language_change(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = (await service.new_game(["ai:random"] * 2, seed=4)).game_id
    await service.run_ai_turns(gid, until=lambda s: s.round > 1)
    v = (await service.archive.archive(gid)).steps[-1].version
    drawn: list[str] = []
    render = service.archive.core.render

    async def recording(req: ImageRequest, frame: Frame) -> bytes | None:
        drawn.append(req.lang)
        return await render(req, frame)

    monkeypatch.setattr(service.archive.core, "render", recording)
    en = await service.archive.map_png(gid, v)
    assert await service.archive.map_png(gid, v) == en and drawn == ["en"]  # kept
    # /game language: the page's map is drawn again in the new language, not the kept one
    await service.languages.set_game_language(gid, "hu")
    hu = await service.archive.map_png(gid, v)
    assert drawn == ["en", "hu"] and hu != en
    assert await service.archive.map_png(gid, v) == hu and drawn == ["en", "hu"]
    # a language asked for (export-html --lang) is kept apart from the game's
    assert await service.archive.map_png(gid, v, lang="en") == en and drawn == ["en", "hu"]
    assert service.archive.cached_map(gid, v, "hu") == hu
    assert service.archive.cached_map(gid, v, "de") is None
