"""The slash commands a message names are the bot's own, under the names its command tree
registers with Discord for the reader's locale (issue #32): every ``{/…}`` of every catalogue,
rendered in every language, is ``/`` and the tree's localized names of that command's path
(the default, English, where a locale has none — what the client then shows)."""

from __future__ import annotations

from typing import Any

import i18n
from i18n.catalogue import load_all
from i18n.notation import localize
from i18n.render import commands
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_game import ANA, CH, start_against_ai, texts_to
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


async def test_a_hungarian_player_reads_commands_as_her_client_shows_them_and_as_she_typed(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """Through Discord: Ana reads in Hungarian in an English game. A refused ``/play`` lists the
    commands in the words she typed (Hungarian, or the canonical notation when she typed it),
    and a reply that names a slash command names it as her Hungarian client shows it."""
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    await tables.svc.languages.set_user_language(ANA, "hu")
    await start_against_ai(fake, h)
    hu = i18n.catalogue("hu").messages
    verb = localize("colour", "hu")
    said = " ".join(texts_to(await h.command(ANA, CH, "play", command=verb), ANA))
    assert f"`{localize('colour green', 'hu')}`" in said and "`colour green`" not in said, said
    said = " ".join(texts_to(await h.command(ANA, CH, "play", command="colour"), ANA))
    assert "`colour green`" in said, said  # typed canonically: read back canonically
    # a reply naming a slash command: `/játék állapot`, as her Discord client lists it
    said = " ".join(texts_to(await h.command(ANA, CH, "game", "new", players=2), ANA))
    shown = f"`/{hu['cmd.game.name']} {hu['cmd.game.status.name']}`"
    assert shown in said and "/game status" not in said, said
