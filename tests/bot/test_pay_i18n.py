"""The guided turn's "Change payment" in the reader's language (issue 17): the cost, the
engine's prompt for each token and the menu of sources (``rules.payment_step``) are shown
in the presser's language — Hungarian read as Hungarian, the pseudo-language with no word
outside brackets (no hard-coded English)."""

from __future__ import annotations

import pytest

import i18n
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, custom_ids
from tests.bot.test_game import ANA, Game, guide_to_a_payment_choice, start_against_ai
from tests.i18n.pseudo import unbracketed_words


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["hu", i18n.PSEUDO])
async def test_change_payment_speaks_the_readers_language(
    fake: FakeDiscord, make_bot: BotMaker, lang: str
) -> None:
    h = await make_bot()
    svc = h.client.tables.svc  # type: ignore[attr-defined]
    await svc.languages.set_user_language(ANA, lang)
    await start_against_ai(fake, h)
    g = Game(fake, h)
    _index, path, _payment, _st, msg = await guide_to_a_payment_choice(fake, h, g)
    await h.click(ANA, msg, next(c for c in custom_ids(msg) if c.startswith("brz:p:")))
    shown: list[str] = []
    for k in [*path, None]:
        content = msg["content"]
        pay = [c for c in Game.walk(msg) if c.get("custom_id", "").startswith("brz:y:")]
        shown += [content, *(o["label"] for p in pay for o in p["options"])]
        if k is None or not pay:
            break
        await h.select(ANA, msg, pay[0]["custom_id"], str(k))
    assert len(shown) > 2
    if lang == "hu":
        assert any("Fizess ennyit:" in t for t in shown), shown
        assert not any("Pay " in t or "from your reserve" in t for t in shown), shown
    else:
        # the head names the action (its label) and the command typed (in code)
        for text in shown:
            assert not unbracketed_words(text), text
