"""service.moderation without Discord: undo with specific refusals, rollback from the history,
confirmations, seats to another user or an AI, abandon, export/import."""

from __future__ import annotations

import json
import random

import pytest

from rules.brazil import GameState, apply, deciders, legal_actions, new_game
from rules.brazil.undo import undoable
from service import GameService, SeatSpec
from service import moderation as mod
from storage import GameStatus, PrivatePlace
from storage.models import SeatKind

ANA, BO, CY = 101, 102, 103


async def two_humans(service: GameService, seed: int = 3) -> int:
    res = await service.new_game(
        [SeatSpec("Ana", user_id=ANA), SeatSpec("Bo", user_id=BO)], seed=seed, channel_id=555
    )
    return res.game_id


async def play_random(service: GameService, gid: int, steps: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        st = await service.state(gid)
        if st.phase == "ended":
            return
        seat = deciders(st)[0]
        out = await service.choose(gid, seat, rng.choice(legal_actions(st, seat)))
        assert out.ok, out.errors


def test_is_moderator() -> None:
    assert mod.is_moderator(manage_channel=True, role_ids=(), moderator_role_id=None)
    assert not mod.is_moderator(manage_channel=False, role_ids=(5,), moderator_role_id=None)
    assert mod.is_moderator(manage_channel=False, role_ids=(4, 5), moderator_role_id=5)
    assert not mod.is_moderator(manage_channel=False, role_ids=(4,), moderator_role_id=5)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_refusal_agrees_with_the_engine_R_TURN_1(seed: int) -> None:
    """R-TURN-1: the sentence explaining a refused undo is given exactly when the engine's
    ``undoable`` says no, over seeded random games (setup, moves, builds, battles)."""
    rng = random.Random(seed)
    st = new_game(2, seed=seed)
    seats = [SeatSpec("Ana"), SeatSpec("Bo")]
    reasons: set[str] = set()
    for _ in range(400):
        if st.phase == "ended":
            break
        seat = rng.choice(deciders(st))
        action = rng.choice(legal_actions(st, seat))
        after, events = apply(st, action)
        why = mod.undo_refusal(st, seat, after, events, seats)
        assert (why is None) == undoable(st, action, after, events), (action, why)
        if why:
            reasons.add(why)
        st = after
    assert "setup choices cannot be taken back" in reasons
    assert "that step ended your turn" in reasons


async def test_undo_posts_the_public_description_R_TURN_1(service: GameService) -> None:
    """R-TURN-1: a step that revealed nothing is taken back; the public post names it with
    its public description; the state is the one before the step."""
    gid = await two_humans(service)
    rng = random.Random(1)
    for _ in range(600):
        st = await service.state(gid)
        assert st.phase != "ended", "no undoable step found"
        seat = deciders(st)[0]
        action = rng.choice(legal_actions(st, seat))
        out = await service.choose(gid, seat, action)
        after = out.frames[out.version].state
        if undoable(st, action, after, list(out.frames[out.version].events)):
            plan = await mod.undo_check(service, gid, seat)
            res = await mod.undo(service, gid, seat)
            assert res.version == out.version + 1 and plan.target == out.version - 1
            text = res.public()[0].text
            assert f"took back: {plan.description}" in text
            assert (await service.state(gid)).model_dump() == st.model_dump()
            return
    pytest.fail("no undoable step in 600 steps")


@pytest.mark.slow
async def test_a_step_says_whether_it_may_be_taken_back_R_TURN_1(service: GameService) -> None:
    """R-TURN-1: a step's result says ``undo_allowed`` exactly when the undo check (``/undo``,
    the Undo button) would take it back, over random play: both answers seen."""
    gid = await two_humans(service)
    rng = random.Random(1)
    seen = set()
    for _ in range(400):
        st = await service.state(gid)
        if st.phase == "ended":
            break
        seat = deciders(st)[0]
        out = await service.choose(gid, seat, rng.choice(legal_actions(st, seat)))
        assert out.ok, out.errors
        try:
            await mod.undo_check(service, gid, seat)
            plan = True
        except mod.Refused:
            plan = False
        assert out.undo_allowed == plan, (out.version, plan)
        seen.add(plan)
    assert seen == {True, False}


async def test_undo_refusals_say_why_R_TURN_1(service: GameService) -> None:
    gid = await two_humans(service)
    with pytest.raises(mod.Refused, match="no step of your own"):
        await mod.undo_check(service, gid, 0)
    await service.act(gid, 0, "colour blue")
    with pytest.raises(mod.Refused, match="setup choices cannot be taken back"):
        await mod.undo(service, gid, 0)
    await service.act(gid, 1, "colour red")
    with pytest.raises(mod.Refused, match=r"Bo \(red\) has decided since"):
        await mod.undo(service, gid, 0)
    # a step that flipped a tile: found in random play
    rng = random.Random(4)
    for _ in range(2000):
        st = await service.state(gid)
        if st.phase == "ended":
            break
        seat = deciders(st)[0]
        out = await service.choose(gid, seat, rng.choice(legal_actions(st, seat)))
        after = out.frames[out.version].state
        evs = out.frames[out.version].events[-5:]
        if (
            st.phase == "play"
            and after.current == seat == st.current
            and after.round == st.round
            and any(e.kind == "explore" for e in evs)
        ):
            version = (await service.store.get_game(gid)).version
            with pytest.raises(mod.Refused, match="a tile was flipped since"):
                await mod.undo(service, gid, seat)
            assert (await service.store.get_game(gid)).version == version
            return
    pytest.fail("no exploring step found")


async def test_history_choices_newest_first_filtered(service: GameService) -> None:
    gid = await two_humans(service)
    await play_random(service, gid, 40)
    rec = await service.store.get_game(gid)
    got = await mod.history_choices(service, gid, "")
    assert len(got) == 25
    assert [c.version for c in got] == list(range(rec.version - 1, rec.version - 26, -1))
    assert all(len(c.label) <= 100 and c.label.startswith(f"v{c.version} ") for c in got)
    chosen = await mod.history_choices(service, gid, "ana CHOOSES")
    assert [c.label for c in chosen][-1] == "v1 · Ana: Seat 1 chooses Blue."
    assert all("chooses" in c.label and "Ana:" in c.label for c in chosen)
    assert [c.version for c in await mod.history_choices(service, gid, "v0")] == [0]
    assert "start of the game" in (await mod.history_choices(service, gid, "v0"))[0].label
    assert await mod.history_choices(service, gid, "no such words here") == []
    # hidden information never shows: labels are public descriptions
    st = await service.state(gid)
    from tests.service.test_service import hidden_names

    everything = " ".join(c.label for c in await mod.history_choices(service, gid, "", limit=99))
    assert not [n for n in hidden_names(st) if f" {n} " in f" {everything} "]


async def test_rollback_restores_an_earlier_version_with_a_reason(service: GameService) -> None:
    gid = await two_humans(service)
    await play_random(service, gid, 12)
    rec = await service.store.get_game(gid)
    with pytest.raises(mod.Refused, match="needs a reason"):
        await mod.rollback(service, gid, 3, by=CY, reason="   ")
    with pytest.raises(mod.Refused, match="Choose a version"):
        await mod.rollback(service, gid, rec.version, by=CY, reason="x")
    with pytest.raises(mod.Refused, match="changed since"):
        await mod.rollback(service, gid, 3, by=CY, reason="x", expected_version=rec.version - 1)
    assert (await service.store.get_game(gid)).version == rec.version
    res = await mod.rollback(
        service, gid, 3, by=CY, reason="misclick", expected_version=rec.version
    )
    assert res.version == rec.version + 1
    assert (await service.state(gid)).model_dump_json() == await service.store.state_at(gid, 3)
    post = res.public()[0]
    assert "rolled the game back to v3" in post.text and "misclick" in post.text
    assert post.images and post.images[0].kind == "map"
    hist = await service.store.history(gid)
    assert hist[-1].reason == "misclick" and hist[-1].actor_id == CY
    await mod.abandon(service, gid)
    with pytest.raises(mod.Refused, match="over"):
        await mod.rollback(service, gid, 1, by=CY, reason="x")


async def test_confirmation_requests(service: GameService) -> None:
    gid = await two_humans(service)
    token = await mod.request(service, gid, CY, "rollback", target=0, reason="r")
    with pytest.raises(mod.Refused, match="who asked"):
        await mod.take_request(service, gid, token, ANA)
    with pytest.raises(mod.Refused, match="no longer pending"):
        await mod.take_request(service, gid, "nope", CY)
    got = await mod.take_request(service, gid, token, CY)
    assert got["op"] == "rollback" and got["target"] == 0 and got["reason"] == "r"
    with pytest.raises(mod.Refused, match="no longer pending"):
        await mod.take_request(service, gid, token, CY)  # used once
    token = await mod.request(service, gid, CY, "abandon")
    await service.act(gid, 0, "colour blue")
    with pytest.raises(mod.Refused, match="changed since"):
        await mod.take_request(service, gid, token, CY)
    token = await mod.request(service, gid, CY, "abandon")
    newer = await mod.request(service, gid, CY, "abandon")
    with pytest.raises(mod.Refused, match="no longer pending"):
        await mod.take_request(service, gid, token, CY)
    await mod.cancel_request(service, gid, newer, CY)
    with pytest.raises(mod.Refused):
        await mod.take_request(service, gid, newer, CY)


async def test_replace_and_kick_seats(service: GameService) -> None:
    gid = await two_humans(service)
    await service.act(gid, 0, "colour blue")
    await service.act(gid, 1, "colour red")
    await service.store.update_settings(
        gid, private_places={BO: PrivatePlace(where="dm", channel_id=9)}
    )
    with pytest.raises(mod.Refused, match="already has a seat"):
        await mod.replace_seat(service, gid, 1, ANA, "Ana", by=CY)
    with pytest.raises(mod.Refused, match="no seat 5"):
        await mod.replace_seat(service, gid, 4, CY, "Cy", by=CY)
    res = await mod.replace_seat(service, gid, 1, CY, "Cy", by=999)
    assert "<@103>" in res.public()[0].text and "Bo (red)" in res.public()[0].text
    info = await service.info(gid)
    assert info.seats[1].user_id == CY and info.seats[1].name == "Cy"
    rec = await service.store.get_game(gid)
    seat = rec.seat(1)
    assert seat is not None and seat.kind is SeatKind.DISCORD and seat.user_id == CY
    assert rec.seats_of(BO) == []
    assert BO not in rec.settings.private_places  # Bo's DMs get no more of the seat's news
    with pytest.raises(mod.Refused, match="AI level"):
        await mod.kick_seat(service, gid, 1, "genius", by=999)
    res = await mod.kick_seat(service, gid, 1, "random", by=999)
    assert "computer player (easy)" in res.public()[0].text  # the level in words
    info = await service.info(gid)
    assert info.seats[1].ai == "random" and info.seats[1].user_id is None
    with pytest.raises(mod.Refused, match="already played by the easy AI"):
        await mod.kick_seat(service, gid, 1, "random", by=999)
    with pytest.raises(mod.Refused, match="last human"):
        await mod.kick_seat(service, gid, 0, "random", by=999)
    # the AI now plays seat 1
    await service.run_ai_turns(gid)
    st = await service.state(gid)
    assert 1 not in deciders(st) or st.phase == "ended"


async def test_abandon_needs_every_seated_human(service: GameService) -> None:
    gid = await two_humans(service)
    with pytest.raises(mod.Refused, match="seated players"):
        await mod.abandon_vote(service, gid, CY)
    first = await mod.abandon_vote(service, gid, ANA)
    assert not first.done and first.votes == (ANA,) and set(first.needed) == {ANA, BO}
    assert not (await mod.abandon_vote(service, gid, ANA)).done  # asking twice counts once
    second = await mod.abandon_vote(service, gid, BO)
    assert second.done
    rec = await mod.abandon(service, gid)
    assert rec.status is GameStatus.ABANDONED
    assert await service.store.get_active_game(555) is None
    with pytest.raises(mod.Refused, match="already over"):
        await mod.abandon(service, gid)


async def test_export_then_import_elsewhere_and_bad_files(service: GameService) -> None:
    gid = await two_humans(service)
    await play_random(service, gid, 30)
    await service.store.update_settings(gid, status_message_id=123)
    name, data = await mod.export_file(service, gid)
    assert name.startswith(f"brazil-game-{gid}-v") and name.endswith(".json")
    exported = json.loads(data)
    assert exported["format"] == "brazil-imperial-game"
    with pytest.raises(mod.Refused, match="already has a game"):
        await mod.import_file(service, data, channel_id=555, guild_id=None)
    rec = await mod.import_file(service, data, channel_id=777, guild_id=1)
    assert rec.id != gid and rec.channel_id == 777 and rec.status.is_active
    assert rec.settings.status_message_id is None
    assert (await service.state(rec.id)).model_dump() == (await service.state(gid)).model_dump()
    assert (await service.info(rec.id)).seats == (await service.info(gid)).seats
    for bad, why in [
        (b"\xff\xfe\x00", "not UTF-8"),
        (b"{}", "not a game export"),
        (b"not json", "not a JSON file"),
        (b" " * (mod.MAX_IMPORT_BYTES + 1), "too large"),
    ]:
        with pytest.raises(mod.Refused, match=why):
            await mod.import_file(service, bad, channel_id=888, guild_id=None)
    tampered = json.loads(data)
    tampered["log"][-1]["action"] = tampered["log"][1]["action"]
    with pytest.raises(mod.Refused, match="refused"):
        await mod.import_file(service, json.dumps(tampered).encode(), channel_id=888, guild_id=None)
    state = GameState.model_validate(exported["state"])
    assert state.phase in ("setup", "play")
    assert await service.store.get_active_game(888) is None
