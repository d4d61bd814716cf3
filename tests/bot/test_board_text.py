"""``/board text:`` (issue #29, accessibility): the board in words, privately, in the asker's
language — the status, the public scores and every hex with something on it."""

from __future__ import annotations

from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import texts_to
from tests.bot.test_mod import ANA, cmd, two_humans


async def test_board_text_answers_the_board_in_words(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    gid = await two_humans(fake, h)
    st = await h.client.tables.svc.state(gid)  # type: ignore[attr-defined]
    reqs = await cmd(h, ANA, "board", text=True)
    said = "\n".join(texts_to(reqs, ANA))
    assert all(r.ephemeral for r in reqs if r.interaction_user == ANA)
    assert not [r for r in reqs if r.files]  # words, no picture
    capital = st.players[0].capital
    assert capital is None or f"{capital}: " in said, said
    assert "Round" in said or "round" in said or "setup" in said.lower(), said
