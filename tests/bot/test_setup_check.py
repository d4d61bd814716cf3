"""Setting the bot up (issue 30): ``/setup check`` end to end (discord.py against the fake
Discord server, the interaction's ``app_permissions`` set by the test), the invite URL of
``python -m turnpost invite-url``, and the set-up guide's permissions integer against the
code's (:data:`bot.permissions.REQUIRED`)."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import discord
import pytest

import i18n
from bot.cogs.setup import check_text
from bot.permissions import (
    NEEDS,
    REQUIRED,
    SCOPES,
    NoClientId,
    client_id_of_token,
    invite_url,
    missing,
    needed_in,
    permissions,
)
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Harness
from turnpost.__main__ import main as turnpost

CH = 555
ANA = 101
EPHEMERAL = 64
LANGS = ("en", "pt-BR", "fr", "de", "hu", "pl")
LOCALE = {"en": "en-US", "pt-BR": "pt-BR", "fr": "fr", "de": "de", "hu": "hu", "pl": "pl"}
DOCS = Path(__file__).resolve().parents[2] / "docs"
GUIDE = DOCS / "ops" / "discord.md"

# Discord's own names of Attach Files in each client language (checked against the clients)
ATTACH_FILES = {
    "en": "Attach Files",
    "pt-BR": "Anexar arquivos",
    "fr": "Joindre des fichiers",
    "de": "Dateien anhängen",
    "hu": "Fájlok csatolása",
    "pl": "Załączanie plików",
}


def without(*flags: str, base: discord.Permissions = REQUIRED) -> discord.Permissions:
    """``base`` less ``flags``."""
    p = discord.Permissions(base.value)
    p.update(**dict.fromkeys(flags, False))
    return p


async def setup_check(
    fake: FakeDiscord,
    h: Harness,
    perms: discord.Permissions,
    *,
    lang: str = "en",
    channel_type: int = 0,
) -> dict[str, Any]:
    """Run ``/setup check`` in channel CH where the bot has ``perms``; the answer's data."""
    data = {
        "id": str(next(fake.ids)),
        "name": "setup",
        "type": 1,
        "options": [{"name": "check", "type": 1, "options": []}],
    }
    payload = fake.interaction(2, ANA, CH, data)
    payload["app_permissions"] = str(perms.value)
    payload["locale"] = LOCALE[lang]
    if channel_type != 0:  # a thread of the channel 554 (a forum post, say)
        payload["channel"].update(
            type=channel_type,
            parent_id="554",
            owner_id=str(ANA),
            message_count=0,
            member_count=1,
            thread_metadata={
                "archived": False,
                "auto_archive_duration": 10080,
                "archive_timestamp": "2025-01-01T00:00:00+00:00",
                "locked": False,
            },
        )
    reqs = await h.feed(payload)
    answers = [r for r in reqs if r.path.endswith("/callback")]
    assert len(answers) == 1, reqs
    body: dict[str, Any] = answers[0].json
    assert body["type"] == 4 and body["data"]["flags"] & EPHEMERAL  # private
    return dict(body["data"])


async def test_all_fine_is_one_line(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    answer = await setup_check(fake, h, REQUIRED)
    text = answer["content"]
    assert text == i18n.tr("en", "setup.check.ok", channel=f"<#{CH}>")
    assert "\n" not in text
    # an administrator lacks nothing, whatever else it was given
    admin = await setup_check(fake, h, discord.Permissions(administrator=True))
    assert admin["content"] == text


async def test_each_missing_permission_named_with_what_the_bot_does_without_it(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    text = (await setup_check(fake, h, without("attach_files", "pin_messages")))["content"]
    lines = text.splitlines()
    assert lines[0] == f"In <#{CH}> I am missing 2 permissions:"
    assert lines[1] == "• **Attach Files**: " + i18n.tr("en", "setup.without.attach_files")
    assert lines[2] == "• **Pin Messages**: the game's status message is not pinned."
    assert "Grant them to my role" in lines[3]
    assert lines[4].startswith("I already have: View Channels, Send Messages, ")
    # one missing: the singular
    one = (await setup_check(fake, h, without("read_message_history")))["content"]
    assert one.startswith(f"In <#{CH}> I am missing 1 permission:\n• **Read Message History**")
    assert "Grant it to my role" in one
    # nothing at all: every permission named, none granted
    none = (await setup_check(fake, h, discord.Permissions.none()))["content"]
    for need in needed_in("channel"):
        assert f"**{i18n.tr('en', f'setup.perm.{need.flag}')}**" in none
    assert "I already have" not in none


@pytest.mark.parametrize("lang", LANGS)
async def test_discords_own_permission_names_in_the_users_language(
    fake: FakeDiscord, make_bot: BotMaker, lang: str
) -> None:
    h = await make_bot()
    text = (await setup_check(fake, h, without("attach_files"), lang=lang))["content"]
    assert f"**{ATTACH_FILES[lang]}**" in text
    assert i18n.tr(lang, "setup.without.attach_files") in text
    assert i18n.tr(lang, "setup.check.grant", n=1) in text
    if lang != "en":  # really that language's sentences, not English
        assert "I am missing" not in text and "Grant it" not in text


async def test_in_a_thread_the_thread_permissions_count(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """In a thread (a forum post) the bot posts with Send Messages in Threads: Send Messages
    does not matter there, nor opening a private thread for /hand."""
    h = await make_bot()
    ok = await setup_check(
        fake, h, without("send_messages", "create_private_threads"), channel_type=11
    )
    assert ok["content"] == i18n.tr("en", "setup.check.ok", channel=f"<#{CH}>")
    lacking = (await setup_check(fake, h, without("send_messages_in_threads"), channel_type=11))[
        "content"
    ]
    assert "**Send Messages in Threads**" in lacking and "1 permission:" in lacking
    # in a text channel the same permissions are two missing
    text = (await setup_check(fake, h, without("send_messages", "create_private_threads")))[
        "content"
    ]
    assert "**Send Messages**" in text and "**Create Private Threads**" in text


def test_every_permission_has_its_words_in_every_language() -> None:
    for lang in LANGS:
        cat = i18n.catalogue(lang)
        for need in NEEDS:
            for key in (f"setup.perm.{need.flag}", f"setup.without.{need.flag}"):
                assert cat.get(key), (lang, key)
    assert missing(REQUIRED, "channel") == () and missing(REQUIRED, "thread") == ()
    assert permissions() == REQUIRED and REQUIRED.value == sum(
        getattr(discord.Permissions, n.flag).flag for n in NEEDS
    )


# ---------------------------------------------------------------------- the invite URL


def test_invite_url_with_a_client_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert turnpost(["invite-url", "--client-id", "1234567890"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == invite_url(1234567890)
    assert out == (
        "https://discord.com/oauth2/authorize?client_id=1234567890"
        f"&permissions={REQUIRED.value}&scope=bot+applications.commands"
    )
    assert SCOPES == ("bot", "applications.commands")


def test_invite_url_from_the_token_offline(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env, a folder for the default database
    app_id = 900_000_000_000_000_001
    head = base64.b64encode(str(app_id).encode()).decode().rstrip("=")
    monkeypatch.setenv("DISCORD_TOKEN", f"{head}.GhIjKl.not-a-real-secret")
    assert turnpost(["invite-url"]) == 0
    out = capsys.readouterr().out.strip()
    assert f"client_id={app_id}&" in out and f"permissions={REQUIRED.value}&" in out
    # a token that names no id: one line, exit 2, the token not echoed
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token-secret")
    assert turnpost(["invite-url"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--client-id" in captured.err
    assert "not-a-token-secret" not in captured.err
    monkeypatch.delenv("DISCORD_TOKEN")
    assert turnpost(["invite-url"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err
    with pytest.raises(NoClientId):
        client_id_of_token("!!!.x.y")
    assert client_id_of_token(f"{head}.a.b") == app_id


# ---------------------------------------------------------------------- the guide


def test_the_guide_gives_the_codes_permissions_integer_and_url() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for page in (text, (DOCS / "operations.md").read_text(encoding="utf-8")):
        integers = set(re.findall(r"\b\d{13,}\b", page))  # ids in examples are shorter
        assert integers == {str(REQUIRED.value)}, integers
    assert f"&permissions={REQUIRED.value}&scope=bot+applications.commands" in text
    for need in NEEDS:  # every permission named in the guide, with its reason
        assert f"*{i18n.tr('en', f'setup.perm.{need.flag}')}*" in text, need.flag


def test_outside_a_server_it_says_where_to_run_it() -> None:
    for lang in LANGS:
        text = check_text(lang, discord.Permissions.none(), None, None)
        assert text == i18n.tr(lang, "setup.check.no_channel")
