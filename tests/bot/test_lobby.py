"""End-to-end lobby (the fake Discord server): the started game keeps the lobby's number, and
a colour wished in the lobby is not lost to an AI seat choosing before its player — issue 22.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.brazil import GameState, deciders, get_catalog, legal_actions, pending_for
from rules.brazil.actions import ChooseColour
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, custom_ids
from tests.bot.test_game import ANA, BO, CH, SEED, Game, public, status_writes, texts_to


class BlueLover:
    """A computer player that takes blue whenever it may, else the first legal action."""

    def decide(self, state: GameState, seat: int) -> Any:
        acts = legal_actions(state, seat)
        blue = [a for a in acts if isinstance(a, ChooseColour) and a.colour == "blue"]
        return (blue or acts)[0]


def colour_pending(st: GameState) -> bool:
    return any(
        (p := pending_for(st, d)) is not None and p.kind == "choose_colour" for d in deciders(st)
    )


async def test_the_game_keeps_the_lobby_number(fake: FakeDiscord, make_bot: BotMaker) -> None:
    """Lobby #1 starts as game #1: one games row, its number in the lobby's last text, the
    status message and every button of the game; the channel stays taken."""
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    await h.command(ANA, CH, "game", "new", players=2, ai=1, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    assert "new game #1" in str(lobby["components"])
    tables.next_seed = SEED
    before = copy.deepcopy(lobby)  # a second press sends the message as it was
    reqs = await h.click(ANA, lobby, "brz:l:1:start")
    assert "Started as game #1." in str(lobby["components"])
    assert "game #2" not in str(lobby["components"])
    assert any("New game #1 " in r.text() for r in public(reqs))
    assert any("### Game #1" in r.text() for r in status_writes(reqs))
    games = await tables.store.list_games(channel_id=CH, limit=None)
    assert [(g.id, g.status.value) for g in games] == [(1, "running")]
    post = Game(fake, h).last_turn_post()
    turn = [c for c in custom_ids(post) if c.startswith("brz:t:")]
    assert turn and all(c.startswith("brz:t:1:") for c in turn)
    again = await h.command(BO, CH, "game", "new")
    assert any("already has a game" in t for t in texts_to(again, BO))
    # a second press of the old lobby's Start changes nothing
    late = await h.click(ANA, before, "brz:l:1:start")
    assert any("closed" in t for t in texts_to(late, ANA))
    assert len(await tables.store.list_games(channel_id=CH, limit=None)) == 1


@pytest.mark.slow
async def test_a_lobby_wish_is_not_lost_to_an_ai_seat_R_SETUP_4(
    fake: FakeDiscord, make_bot: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/game new players:3 ai:1``, Bo joins and wishes blue (the lobby shows it), Start:
    Ana chooses red in the game, the AI seat (which would take blue) takes what is left, and
    Bo gets blue without being asked."""
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    monkeypatch.setattr(tables.svc, "_agent_factory", lambda level, seed: BlueLover())
    await h.command(ANA, CH, "game", "new", players=3, ai=1, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    await h.click(BO, lobby, "brz:l:1:join")
    await h.select(BO, lobby, "brz:k:1", "blue")
    assert f"<@{BO}> — blue" in str(lobby["components"])
    tables.next_seed = SEED
    await h.click(ANA, lobby, "brz:l:1:start")
    _, st = await Game(fake, h).state()
    assert deciders(st) == [0] and pending_for(st, 0).kind == "choose_colour"  # type: ignore[union-attr]
    reqs = await h.command(ANA, CH, "play", command="colour red")
    assert not any("did not work" in t for t in texts_to(reqs, ANA))
    gid, st = await Game(fake, h).state()
    first_free = next(c for c in get_catalog(None).colours if c not in ("red", "blue"))
    assert [p.colour for p in st.players] == ["red", first_free, "blue"]
    assert not colour_pending(st)
    assert gid == 1
    assert any("blue" in r.text() for r in public(reqs))
