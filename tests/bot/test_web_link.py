"""The game's web page from Discord, end to end (real discord.py against the fake Discord
server, the page server on a free port of 127.0.0.1): the status message links the page,
whose address answers; ``/game web link`` tells it privately; ``/game web reset`` by a player
or a moderator gives the page a new address (the old one answers 404, the status message
links the new one), refused privately to a spectator; with the page server off both commands
say so privately and the status message has no link."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.cogs.game import NOT_PAGE_RESETTER, PAGES_OFF
from bot.discord_views import GAME_PAGE
from service import moderation as mod
from tests.bot.conftest import BotMaker, bot_maker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, components_of
from tests.bot.test_game import ANA, BO, CH, start_against_ai, texts_to

MOD = 900  # a moderator (Manage Channel) without a seat
NONE = "0"
MANAGE_CHANNELS = str(1 << 4)


@pytest.fixture
async def web_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotMaker]:
    """A bot serving the game pages on a free port."""
    async with bot_maker(fake, tmp_path / "bot.sqlite3", web_port=0) as make:
        yield make


async def web_command(h: Harness, uid: int, sub: str, channel: int = CH) -> list[Request]:
    """``/game web SUB`` from ``uid``: a moderator (Manage Channel) if MOD, else no rights."""
    data: dict[str, Any] = {
        "id": str(next(h.fake.ids)),
        "name": "game",
        "type": 1,
        "options": [{"name": "web", "type": 2, "options": [{"name": sub, "type": 1}]}],
    }
    payload = h.fake.interaction(2, uid, channel, data)
    payload["member"]["permissions"] = MANAGE_CHANNELS if uid == MOD else NONE
    return await h.feed(payload)


async def status_message(h: Harness, gid: int) -> dict[str, Any]:
    rec = await h.client.tables.store.get_game(gid)  # type: ignore[attr-defined]
    return h.fake.messages[int(rec.settings.status_message_id or 0)]


def page_links(msg: dict[str, Any]) -> list[str]:
    """The URLs of the message's link buttons labelled "Game page"."""
    return [
        str(c["url"])
        for c in components_of(msg)
        if c.get("type") == 2 and c.get("style") == 5 and c.get("label") == GAME_PAGE
    ]


def channel_writes(reqs: list[Request]) -> list[Request]:
    return [r for r in reqs if r.path.startswith("/channels/") and r.method in ("POST", "PATCH")]


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        return r.status, await r.text()


async def started(fake: FakeDiscord, h: Harness) -> int:
    await start_against_ai(fake, h)
    rec = await h.client.tables.store.get_active_game(CH)  # type: ignore[attr-defined]
    assert rec is not None
    return int(rec.id)


@pytest.mark.slow
async def test_status_message_links_the_page_and_reset_moves_it(
    fake: FakeDiscord, web_bot: BotMaker
) -> None:
    h = await web_bot()
    web = h.client.web  # type: ignore[attr-defined]
    assert web is not None and web.base_url.startswith("http://127.0.0.1:")
    gid = await started(fake, h)
    [url] = page_links(await status_message(h, gid))
    assert url == await web.page_url(gid) and url.startswith(f"{web.base_url}/g/")
    status, _ = await get(url)
    assert status == 200

    # anyone in the channel may ask for the address: privately
    reqs = await web_command(h, BO, "link")
    [answer] = texts_to(reqs, BO)
    assert url in answer
    assert all(r.ephemeral for r in reqs if r.interaction_user == BO and r.json)
    assert not channel_writes(reqs)

    # a spectator may not move it: privately refused, nothing changes
    reqs = await web_command(h, BO, "reset")
    assert any(NOT_PAGE_RESETTER in t for t in texts_to(reqs, BO)), texts_to(reqs, BO)
    assert all(r.ephemeral for r in reqs if r.interaction_user == BO and r.json)
    assert not channel_writes(reqs)
    assert await web.page_url(gid) == url and (await get(url))[0] == 200

    # a player moves it: the new address privately, one public line, the status message's
    # link follows, and the old address is gone
    reqs = await web_command(h, ANA, "reset")
    new = await web.page_url(gid)
    assert new != url
    mine = [r for r in reqs if r.interaction_user == ANA and r.json]
    private = [r.text() for r in mine if r.ephemeral]
    public = [r.text() for r in mine if not r.ephemeral]
    assert any(new in t for t in private), private
    assert len(public) == 1 and "new address" in public[0] and new not in public[0], public
    assert "/g/" not in public[0]  # the channel is told, not given the link
    edits = [r for r in channel_writes(reqs) if r.method == "PATCH"]
    assert edits and all(page_links(r.json) == [new] for r in edits), edits
    assert page_links(await status_message(h, gid)) == [new]
    assert (await get(url))[0] == 404
    assert (await get(new))[0] == 200

    # a moderator without a seat may move it too
    await web_command(h, MOD, "reset")
    assert await web.page_url(gid) not in (url, new)


async def test_web_commands_without_a_game(fake: FakeDiscord, web_bot: BotMaker) -> None:
    h = await web_bot()
    for sub in ("link", "reset"):
        reqs = await web_command(h, ANA, sub, channel=777)
        [answer] = texts_to(reqs, ANA)
        assert "no game" in answer and "/game new" in answer, answer
        assert all(r.ephemeral for r in reqs if r.json)


async def test_a_finished_games_page_stays_its_archive(
    fake: FakeDiscord, web_bot: BotMaker
) -> None:
    h = await web_bot()
    web = h.client.web  # type: ignore[attr-defined]
    gid = await started(fake, h)
    url = await web.page_url(gid)
    await mod.abandon(h.client.tables.svc, gid)  # type: ignore[attr-defined]
    reqs = await web_command(h, BO, "link")
    [answer] = texts_to(reqs, BO)
    assert url in answer and "over" in answer, answer
    status, body = await get(url)
    assert status == 200 and "Abandoned" in body


@pytest.mark.slow
async def test_pages_off_the_commands_say_so(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    assert h.client.web is None  # type: ignore[attr-defined]
    gid = await started(fake, h)
    assert page_links(await status_message(h, gid)) == []
    for sub in ("link", "reset"):
        for who in (ANA, MOD):
            reqs = await web_command(h, who, sub)
            answers = texts_to(reqs, who)
            assert any(PAGES_OFF in t for t in answers), answers
            assert "TURNPOST_WEB_PORT" in PAGES_OFF
            assert all(r.ephemeral for r in reqs if r.json)
            assert not channel_writes(reqs)


async def test_a_taken_port_is_one_clear_error(fake: FakeDiscord, tmp_path: Path) -> None:
    """The page server cannot bind: the bot does not start, and says why in one line."""
    from bot.app import TurnpostBot, WebStartError
    from bot.settings import BotSettings

    async with bot_maker(fake, tmp_path / "a.sqlite3", web_port=0) as make:
        first = await make()
        port = first.client.web.port  # type: ignore[attr-defined]
        settings = BotSettings(
            discord_token="fake-token",
            db=tmp_path / "b.sqlite3",
            sync="none",
            web_port=port,
            _env_file=None,
        )
        second = TurnpostBot(settings)
        try:
            with pytest.raises(WebStartError) as e:
                await second.login("fake-token")
        finally:
            await second.close()
        assert f"127.0.0.1:{port}" in str(e.value) and "in use" in str(e.value)
        assert "\n" not in str(e.value)


async def test_run_with_the_port_taken_says_so_in_one_line(
    fake: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m turnpost run`` whose page port is taken: one line on stderr, exit 2."""
    import socket
    import sys

    from bot import app
    from bot.settings import BotSettings

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = BotSettings(
            discord_token="fake-token",
            db=tmp_path / "bot.sqlite3",
            sync="none",
            web_port=port,
            _env_file=None,
        )
        interval = sys.getswitchinterval()
        try:
            code = await app.run_bot(settings)
        finally:
            sys.setswitchinterval(interval)
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip() and " INFO " not in ln]
    assert code == 2 and "Traceback" not in err, err
    assert len(lines) == 1 and "TURNPOST_WEB_PORT" in lines[0] and "in use" in lines[0], err


def test_web_settings() -> None:
    from pydantic import ValidationError

    from bot.settings import BotSettings, explain

    off = BotSettings(_env_file=None)
    assert off.web_port is None and "game pages: off" in "\n".join(off.describe())
    on = BotSettings(_env_file=None, web_port=8080, web_public_url="https://x.example/brazil/")
    assert on.web_public_url == "https://x.example/brazil"  # no trailing slash
    assert "game pages: on 127.0.0.1, port 8080, linked as https://x.example/brazil" in (
        on.describe()
    )
    for bad in ("ftp://x.example", "x.example", "https://", "http://x:99999", "https://x/?a=1"):
        with pytest.raises(ValidationError) as e:
            BotSettings(_env_file=None, web_public_url=bad)
        assert explain(e.value).startswith("TURNPOST_WEB_PUBLIC_URL (web_public_url): ")
    with pytest.raises(ValidationError) as e:
        BotSettings(_env_file=None, web_port=70000)
    assert "TURNPOST_WEB_PORT" in explain(e.value)
