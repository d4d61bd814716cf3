"""The slash commands a message names are the bot's own, under the names its command tree
registers with Discord for the reader's locale (issue #32): every ``{/…}`` of every catalogue,
rendered in every language, is ``/`` and the tree's localized names of that command's path
(the default, English, where a locale has none — what the client then shows)."""

from __future__ import annotations

from typing import Any

import i18n
from i18n.catalogue import load_all
from i18n.render import commands
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_language_commands import translated_payload


def registered(payload: list[dict[str, Any]], path: list[str], locale: str | None) -> str | None:
    """The command ``path`` (English names) as a client in ``locale`` shows it, from the synced
    payload; None: the tree has no such command."""
    nodes: list[dict[str, Any]] = payload
    shown: list[str] = []
    for word in path:
        node = next((n for n in nodes if n["name"] == word and n.get("type", 1) in (1, 2)), None)
        if node is None:
            return None
        names = node.get("name_localizations") or {}
        shown.append(names.get(locale, node["name"]) if locale else node["name"])
        nodes = [o for o in node.get("options") or [] if isinstance(o, dict)]
    return "/" + " ".join(shown)


async def test_every_named_command_is_the_trees_name_in_every_locale(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    payload = await translated_payload(h.client)  # type: ignore[arg-type]
    en = i18n.catalogue(i18n.DEFAULT).messages
    named = {p for cat in load_all().values() for v in cat.messages.values() for p in commands(v)}
    assert {"seat back", "game status", "game new", "hand"} <= named
    checked = 0
    for path in sorted(named):
        english = [en[k] for k in i18n.render.command_keys(path)]
        assert registered(payload, english, None) == "/" + " ".join(english), path
        for lang in i18n.supported():
            locales = i18n.languages()[lang].discord
            for locale in locales:
                want = registered(payload, english, locale)
                assert want is not None, (path, locale)
                got = i18n.render_template(lang, "{/" + path + "}", {})
                assert got == want, (path, lang, locale)
                checked += 1
    assert checked >= len(named) * 6
