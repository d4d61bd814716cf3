import time
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import ANA, CH, SEED, start_against_ai
from tests.bot.test_bot_i18n import pbot, clock, tick  # noqa

async def test_ai_game(fake: FakeDiscord, pbot, clock) -> None:
    h = await pbot()
    t=time.time()
    await start_against_ai(fake, h)
    await h.command(ANA, CH, "game", "policy", policy="ai", level="random")
    print("start", time.time()-t)
    clock.advance(hours=25)
    reqs = await tick(h)
    print("took", time.time()-t, len(reqs))
    rec = (await h.client.tables.store.list_games(channel_id=CH, limit=1))[0]
    st = await h.client.tables.svc.state(rec.id)
    print(rec.status, st.phase)
    assert 0
