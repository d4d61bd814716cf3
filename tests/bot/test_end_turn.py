"""``/end-turn mode:`` (issue #29): a player chooses, for all their games, whether a turn with
only its end left ends by itself (automatic, the default) or waits for them (manual); the
answer is private and in their language."""

from __future__ import annotations

from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import texts_to
from tests.bot.test_mod import ANA, cmd


async def test_end_turn_sets_the_players_choice(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    store = h.client.tables.store  # type: ignore[attr-defined]
    assert (await store.get_player_prefs(ANA)).manual_end is False
    reqs = await cmd(h, ANA, "end-turn", mode="manual")
    assert any("end your turns yourself" in t for t in texts_to(reqs, ANA)), texts_to(reqs, ANA)
    assert all(r.ephemeral for r in reqs if r.interaction_user == ANA)
    assert (await store.get_player_prefs(ANA)).manual_end is True
    reqs = await cmd(h, ANA, "end-turn", mode="auto")
    assert any("end by themselves" in t for t in texts_to(reqs, ANA))
    assert (await store.get_player_prefs(ANA)).manual_end is False
