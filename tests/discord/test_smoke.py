from __future__ import annotations

from tests.discord.conftest import BotMaker
from tests.discord.fakediscord import FakeDiscord, custom_ids

CH = 555


async def test_lobby_and_first_steps(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    assert any(r.method == "PUT" and "/guilds/" in r.path for r in fake.requests)
    reqs = await h.command(101, CH, "game", "new", players=2)
    print([ (r.method, r.path, r.json) for r in reqs])
    msg = fake.messages[max(fake.messages)]
    print(custom_ids(msg))
    reqs = await h.click(102, msg, custom_ids(msg)[0])
    print([ (r.method, r.path, r.json) for r in reqs])
    reqs = await h.click(101, msg, [c for c in custom_ids(msg) if c.endswith("start")][0])
    for r in reqs:
        print(r.method, r.path, str(r.json)[:300], list(r.files))
