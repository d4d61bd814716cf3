"""The slash commands in each user's Discord language, and the languages remembered (issue 17).

- The whole command payload, built offline by the bot's own tree and translator for every
  Discord locale a catalogue serves, obeys Discord's rules (names lower case, at most 32
  characters of the name pattern, unique among siblings; descriptions 1-100 characters;
  choice names 1-100) and every translatable text is translated in every language (not the
  English text, unless the language lists it in ``same_as_english``) — and it is what the bot
  synced to (the fake) Discord.
- ``/language``, ``/game new language:``, ``/game language`` through the fake Discord server;
  the Discord locale of every interaction remembered per user, written when it changes; the
  order in which a user's language is decided.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections import Counter
from typing import Any

import discord
import pytest

import i18n
from bot.app import TurnpostBot
from bot.language import game_language, user_language
from bot.translator import CatalogueTranslator, ls, translate
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import EPHEMERAL, FakeDiscord, Harness, Request, custom_ids
from tests.bot.test_game import ANA, BO, CH, public, start_against_ai, texts_to

MOD = 900
NONE = "0"
MANAGE_CHANNELS = str(1 << 4)
ENGLISH = ("en-US", "en-GB")
LOCALES = sorted(loc for loc, lang in i18n.discord_locales().items() if lang != i18n.DEFAULT)
"""The Discord locales a non-English catalogue serves: pt-BR, fr, de, hu, pl."""


def test_the_served_discord_locales() -> None:
    assert set(LOCALES) == {"pt-BR", "fr", "de", "hu", "pl"}
    assert {i18n.discord_locales()[e] for e in ENGLISH} == {"en"}
    known = {loc.value for loc in discord.Locale}
    assert set(LOCALES) | set(ENGLISH) <= known  # codes Discord knows


# ============================================================================ Discord's rules


def name_ok(name: str) -> bool:
    """Discord's command and option name rule: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``
    and lower case wherever a letter has a lower-case form."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for ch in name:
        cat = unicodedata.category(ch)
        deva = 0x0900 <= ord(ch) <= 0x097F
        thai = 0x0E00 <= ord(ch) <= 0x0E7F
        if not (ch in "-_" or cat[0] in "LN" or deva or thai):
            return False
    return True


def test_the_name_rule_itself() -> None:
    for good in ("game", "quiet-hours", "ai_level", "délai_heures", "język", "új_cím", "mão"):
        assert name_ok(good), good
    for bad in ("Game", "two words", "a" * 33, "", "x!", "pé.", "DÉLAI"):
        assert not name_ok(bad), bad


def same_as_english(lang: str) -> set[str]:
    """The English texts a language keeps on purpose (its ``[meta] same_as_english`` keys)."""
    cat = i18n.catalogue(lang)
    keys: set[str] = set()
    for path in set(cat.sources.values()):
        with path.open("rb") as f:
            keys |= set(tomllib.load(f).get("meta", {}).get("same_as_english", []))
    en = i18n.catalogue(i18n.DEFAULT)
    return {en.messages[k] for k in keys if k in en.messages}


def texts_of(node: dict[str, Any], locale: str | None) -> tuple[str, str]:
    """A command's, group's or option's name and description in ``locale`` (None: the
    default, English)."""
    if locale is None:
        return node["name"], node["description"]
    return (
        (node.get("name_localizations") or {}).get(locale, node["name"]),
        (node.get("description_localizations") or {}).get(locale, node["description"]),
    )


def problems_of(payload: list[dict[str, Any]]) -> list[str]:
    """Everything in the command payload that Discord would refuse, or that a language
    leaves in English."""
    found: list[str] = []
    offered = set(i18n.supported())
    kept = {loc: same_as_english(i18n.discord_locales()[loc]) for loc in LOCALES}

    def check_node(node: dict[str, Any], where: str) -> None:
        for loc in [None, *LOCALES]:
            name, desc = texts_of(node, loc)
            if not name_ok(name):
                found.append(f"{where} [{loc}]: name {name!r} breaks Discord's name rule")
            if not 1 <= len(desc) <= 100:
                found.append(f"{where} [{loc}]: description has {len(desc)} characters")
        for loc in LOCALES:
            for field, english in (("name", node["name"]), ("description", node["description"])):
                text = (node.get(f"{field}_localizations") or {}).get(loc)
                if text is None:
                    found.append(f"{where} [{loc}]: no {field} translation")
                elif text == english and english not in kept[loc]:
                    found.append(f"{where} [{loc}]: {field} {text!r} left in English")
        for choice in node.get("choices") or []:
            cwhere = f"{where} choice {choice['value']!r}"
            names = choice.get("name_localizations") or {}
            if choice["value"] in offered:  # a language under its own name: never translated
                if names or choice["name"] != i18n.languages()[choice["value"]].name:
                    found.append(f"{cwhere}: a language's own name must stay as it is")
                continue
            for loc in [None, *LOCALES]:
                text = choice["name"] if loc is None else names.get(loc)
                if text is None:
                    found.append(f"{cwhere} [{loc}]: no translation")
                elif not 1 <= len(text) <= 100:
                    found.append(f"{cwhere} [{loc}]: name has {len(text)} characters")
                elif loc is not None and text == choice["name"] and text not in kept[loc]:
                    found.append(f"{cwhere} [{loc}]: left in English")
        children = [o for o in node.get("options") or [] if isinstance(o, dict)]
        check_siblings(children, where)
        for child in children:
            check_node(child, f"{where} {child['name']}")

    def check_siblings(nodes: list[dict[str, Any]], where: str) -> None:
        for loc in [None, *LOCALES]:
            names = Counter(texts_of(n, loc)[0] for n in nodes)
            twice = sorted(n for n, k in names.items() if k > 1)
            if twice:
                found.append(f"{where or '/'} [{loc}]: names used twice: {twice}")

    check_siblings(payload, "")
    for command in payload:
        check_node(command, f"/{command['name']}")
        for loc in [None, *LOCALES]:
            size = command_size(command, loc)
            if size > 4000:
                found.append(f"/{command['name']} [{loc}]: {size} characters in all (max 4000)")
    return found


def command_size(node: dict[str, Any], locale: str | None) -> int:
    """The characters of a command's names, descriptions and choices in one locale."""
    name, desc = texts_of(node, locale)
    size = len(name) + len(desc)
    for choice in node.get("choices") or []:
        names = choice.get("name_localizations") or {}
        size += len(names.get(locale, choice["name"]) if locale else choice["name"])
        size += len(str(choice["value"]))
    return size + sum(command_size(o, locale) for o in node.get("options") or [])


async def translated_payload(bot: TurnpostBot) -> list[dict[str, Any]]:
    """The whole command payload as :meth:`CommandTree.sync` builds it, built offline."""
    translator = CatalogueTranslator()
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


async def test_every_command_in_every_locale_obeys_discords_rules(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    payload = await translated_payload(h.client)  # type: ignore[arg-type]
    assert problems_of(payload) == []
    names = {c["name"]: c for c in payload}
    assert {"game", "language", "hand", "mod", "quiet-hours"} <= set(names)
    game = names["game"]
    assert game["name_localizations"] == {
        "pt-BR": "partida",
        "fr": "partie",
        "de": "partie",
        "hu": "játék",
        "pl": "gra",
    }
    # English stays the default everywhere: the names Discord sends back in interactions
    subs = {o["name"]: o for o in game["options"]}
    assert {"new", "status", "policy", "language", "web"} <= set(subs)
    new = {o["name"]: o for o in subs["new"]["options"]}
    assert new["deadline_hours"]["name_localizations"]["fr"] == "délai_heures"
    policy = {o["name"]: o for o in subs["policy"]["options"]}["policy"]
    assert [c["value"] for c in policy["choices"]] == ["wait", "default", "ai"]
    assert policy["choices"][2]["name_localizations"]["hu"] == "gépi játékos"
    lang = names["language"]["options"][0]
    assert [c["name"] for c in lang["choices"]][:3] == ["English", "Deutsch", "Français"]
    assert lang["choices"][-1]["value"] == "discord"
    assert lang["choices"][-1]["name_localizations"]["pt-BR"] == "Idioma do Discord"
    # ...and it is exactly what the bot synced to Discord when it started
    synced = {c["name"]: c for c in fake.commands}
    assert set(synced) == set(names)
    for name, command in names.items():
        for key in ("name_localizations", "description_localizations", "options"):
            assert synced[name][key] == command[key], (name, key)


@pytest.mark.slow
def test_the_checks_catch_what_discord_refuses() -> None:
    """The payload check fails on a bad payload (it can fail)."""
    good = {
        "name": "game",
        "description": "Start",
        "name_localizations": {loc: f"g{loc.lower()}" for loc in LOCALES},
        "description_localizations": {loc: f"S {loc}" for loc in LOCALES},
        "options": [],
    }
    assert problems_of([good]) == []
    upper = dict(good, name_localizations=dict(good["name_localizations"], fr="Partie"))
    spaced = dict(good, name_localizations=dict(good["name_localizations"], hu="új játék"))
    long_desc = dict(good, description_localizations={loc: "x" * 101 for loc in LOCALES})
    english = dict(
        good, description_localizations=dict(good["description_localizations"], pl="Start")
    )
    missing = dict(good, name_localizations={"fr": "partie"})
    twins = [good, dict(good, name="games")]
    for bad in ([upper], [spaced], [long_desc], [english], [missing], twins):
        assert problems_of(bad), bad


def test_the_translator_gives_discord_each_language_or_nothing() -> None:
    key = ls("cmd.game.new.name")
    assert key.message == "new" and key.extras == {"key": "cmd.game.new.name"}
    assert translate(key, discord.Locale.french) == "nouvelle"
    assert translate(key, "pt-BR") == "nova"
    assert translate(key, discord.Locale.american_english) is None  # the default is English
    assert translate(key, discord.Locale.spain_spanish) is None  # no catalogue: the default
    assert translate(discord.app_commands.locale_str("Deutsch"), "fr") is None  # no key


# ============================================================================ interactions


async def ask(
    h: Harness,
    uid: int,
    name: str,
    sub: str | None = None,
    *,
    locale: str = "en-US",
    guild_locale: str = "en-US",
    perms: str = NONE,
    **options: Any,
) -> list[Request]:
    """A slash command from ``uid`` in the Discord client ``locale``, in a server whose
    preferred locale is ``guild_locale``, with the channel permissions ``perms``."""
    opts = [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()
    ]
    data: dict[str, Any] = {"id": str(next(h.fake.ids)), "name": name, "type": 1}
    data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
    payload = h.fake.interaction(2, uid, CH, data)
    payload["locale"], payload["guild_locale"] = locale, guild_locale
    payload["member"]["permissions"] = perms
    return await h.feed(payload)


def private_text(reqs: list[Request], uid: int) -> str:
    """The text of the last private answer to ``uid``."""
    texts = []
    for r in reqs:
        if r.ephemeral and r.interaction_user == uid and r.json:
            body = r.json.get("data", r.json) if "/callback" in r.path else r.json
            texts.append(str(body.get("content") or ""))
    assert texts, [t for r in reqs for t in texts_to([r], uid)]
    return texts[-1]


async def test_language_shows_sets_and_clears_the_users_language(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    svc = h.client.tables.svc  # type: ignore[attr-defined]
    # without a choice: the Discord app's language, said in it
    text = private_text(await ask(h, ANA, "language", locale="fr"), ANA)
    assert "langue de votre application Discord\u00a0: Français" in text and "`/langue`" in text
    # a choice: kept, answered in the new language, whatever the Discord app speaks
    text = private_text(await ask(h, ANA, "language", locale="fr", language="hu"), ANA)
    assert text.startswith("Mostantól a bot ezen a nyelven válaszol neked: Magyar.")
    assert (await svc.store.get_player_prefs(ANA)).language == "hu"
    text = private_text(await ask(h, ANA, "language", locale="pl"), ANA)
    assert "A választott nyelved: Magyar." in text
    assert await user_language(h.client, ANA, "de") == "hu"  # type: ignore[arg-type]
    # Discord's language again
    text = private_text(await ask(h, ANA, "language", locale="pt-BR", language="discord"), ANA)
    assert "idioma do seu aplicativo Discord: Português (Brasil)" in text
    assert (await svc.store.get_player_prefs(ANA)).language is None
    # English stays English
    text = private_text(await ask(h, BO, "language"), BO)
    assert text.startswith("The bot answers you in your Discord app's language: English.")


async def test_an_unknown_language_gets_the_supported_ones(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    text = private_text(await ask(h, ANA, "language", language="klingon"), ANA)
    with pytest.raises(i18n.UnknownLanguage) as err:
        i18n.require("klingon")
    assert text == str(err.value)  # in English, UnknownLanguage's own message
    text = private_text(await ask(h, ANA, "language", locale="de", language="xx"), ANA)
    assert text.startswith("Unbekannte Sprache „xx“.") and "hu (Magyar)" in text
    assert "pt-BR (Português (Brasil))" in text
    svc = h.client.tables.svc  # type: ignore[attr-defined]
    assert (await svc.store.get_player_prefs(ANA)).language is None
    # the pseudo-language is not offered
    text = private_text(await ask(h, ANA, "language", language=i18n.PSEUDO), ANA)
    assert text.startswith("Unknown language 'pseudo'.")


async def test_the_discord_locale_is_remembered_and_written_when_it_changes(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    store = h.client.tables.svc.store  # type: ignore[attr-defined]
    writes: list[tuple[int, str]] = []
    remember = store.remember_locale

    async def counted(user_id: int, locale: str) -> bool:
        writes.append((user_id, locale))
        return bool(await remember(user_id, locale))

    store.remember_locale = counted
    await ask(h, ANA, "language", locale="pl")
    await ask(h, ANA, "rules", locale="pl", query="build")
    await ask(h, ANA, "games", "mine", locale="pl")
    assert writes == [(ANA, "pl")]  # once: the locale did not change
    assert (await store.get_player_prefs(ANA)).discord_locale == "pl"
    await ask(h, ANA, "language", locale="de")
    assert writes == [(ANA, "pl"), (ANA, "de")]
    # outside an interaction (a reminder), the remembered locale decides
    assert await user_language(h.client, ANA, None) == "de"  # type: ignore[arg-type]
    # a restart: remembered in the database
    h2 = await make_bot()
    assert await user_language(h2.client, ANA, None) == "de"  # type: ignore[arg-type]


async def test_the_order_a_users_language_is_decided_in(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """The /language choice, else the interaction's locale, else the remembered locale,
    else the game's language, else English."""
    h = await make_bot()
    bot: TurnpostBot = h.client  # type: ignore[assignment]
    langs = bot.tables.svc.languages
    assert await user_language(bot, ANA, None) == "en"
    assert await user_language(bot, ANA, None, game="hu") == "hu"
    assert await user_language(bot, None, None, game="pl") == "pl"  # nobody in particular
    await langs.remember_locale(ANA, "pl")
    assert await user_language(bot, ANA, None, game="hu") == "pl"
    assert await user_language(bot, ANA, discord.Locale.german, game="hu") == "de"
    assert await user_language(bot, ANA, "es-ES", game="hu") == "pl"  # Spanish: not served
    assert await user_language(bot, ANA, discord.Locale.british_english) == "en"
    await langs.set_user_language(ANA, "pt_BR")
    assert await user_language(bot, ANA, discord.Locale.german, game="hu") == "pt-BR"


async def test_game_new_takes_the_servers_language_or_the_one_given(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    store = h.client.tables.svc.store  # type: ignore[attr-defined]
    await ask(h, ANA, "game", "new", guild_locale="pt-BR", players=2)
    rec = await store.get_active_game(CH)
    assert rec.settings.language == "pt-BR"
    assert await game_language(h.client, rec.id) == "pt-BR"  # type: ignore[arg-type]
    # Spanish (not served) or a DM: English; a language given wins
    for guild, given, want, channel in (("es-ES", None, "en", CH + 1), ("fr", "hu", "hu", CH + 2)):
        opts = {"players": 2} | ({"language": given} if given else {})
        data: dict[str, Any] = {"id": str(next(fake.ids)), "name": "game", "type": 1}
        data["options"] = [
            {"name": "new", "type": 1, "options": [
                {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
                for k, v in opts.items()
            ]}
        ]  # fmt: skip
        payload = fake.interaction(2, ANA, channel, data)
        payload["guild_locale"] = guild
        await h.feed(payload)
        assert (await store.get_active_game(channel)).settings.language == want
    # an unknown language opens nothing and lists the supported ones, in the user's language
    reqs = await ask(h, BO, "game", "new", locale="fr", language="xx")
    assert private_text(reqs, BO).startswith("Langue inconnue «\u00a0xx\u00a0».")


async def test_game_language_by_its_players_or_a_moderator(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    store = h.client.tables.svc.store  # type: ignore[attr-defined]
    none_yet = await ask(h, ANA, "game", "language", locale="hu", language="fr")
    assert private_text(none_yet, ANA).startswith("Ebben a csatornában nincs játék.")
    await ask(h, ANA, "game", "new", players=2)  # a lobby: its players may change it too
    reqs = await ask(h, ANA, "game", "language", language="de")
    said = [r.text() for r in public(reqs)] + [
        r.text() for r in reqs if "/callback" in r.path and not r.ephemeral
    ]
    assert any("hat die Sprache dieser Partie gewählt: Deutsch" in t for t in said), said
    rec = await store.get_active_game(CH)
    assert rec.settings.language == "de" and rec.status.value == "lobby"
    refused = await ask(h, BO, "game", "language", language="fr")  # not in the lobby
    assert private_text(refused, BO).startswith("Only a player of this game or a moderator")
    # the game keeps it when the lobby starts
    lobby = next(m for m in fake.messages.values() if "brz:l:1:start" in custom_ids(m))
    await h.click(ANA, lobby, "brz:l:1:start")
    rec = await store.get_game(rec.id)
    assert rec.status.value == "running" and rec.settings.language == "de"


async def test_game_language_in_a_running_game(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    store = h.client.tables.svc.store  # type: ignore[attr-defined]
    await start_against_ai(fake, h)
    rec = await store.get_active_game(CH)
    assert rec.status.value == "running" and rec.settings.language == "en"  # the server's
    # a spectator is refused, in their own language
    refused = await ask(h, BO, "game", "language", locale="pl", language="fr")
    assert private_text(refused, BO) == "Język gry mogą zmienić tylko jej gracze lub moderator."
    assert (await store.get_game(rec.id)).settings.language == "en"
    # a seated player: said publicly in the new language
    reqs = await ask(h, ANA, "game", "language", language="pl")
    post = [r for r in reqs if "/callback" in r.path and not r.ephemeral]
    assert post and "Nowy język: Polski." in post[0].text()
    assert not int(post[0].json["data"].get("flags") or 0) & EPHEMERAL
    assert (await store.get_game(rec.id)).settings.language == "pl"
    again = await ask(h, ANA, "game", "language", language="pl")
    assert private_text(again, ANA) == "This game's language is already Polski."
    # a moderator who does not play may change it
    await ask(h, MOD, "game", "language", perms=MANAGE_CHANNELS, language="pt-BR")
    assert (await store.get_game(rec.id)).settings.language == "pt-BR"
    assert await game_language(h.client, rec) != "pt-BR"  # the record read before  # type: ignore[arg-type]
    assert await game_language(h.client, rec.id) == "pt-BR"  # type: ignore[arg-type]


async def test_another_processs_choice_is_seen_within_the_ttl(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """What is read is trusted PREFS_TTL seconds: a choice made by another process (another
    Languages over the same store) is seen once they have passed."""
    from service.language import PREFS_TTL, Languages

    h = await make_bot()
    svc = h.client.tables.svc  # type: ignore[attr-defined]
    now = [0.0]
    here = Languages(svc, clock=lambda: now[0])
    there = Languages(svc)
    assert await here.user_language(ANA, None) == "en"
    await there.set_user_language(ANA, "fr")
    now[0] += PREFS_TTL / 2
    assert await here.user_language(ANA, None) == "en"  # read a moment ago
    now[0] += PREFS_TTL
    assert await here.user_language(ANA, None) == "fr"
    await here.set_user_language(ANA, None)  # its own change: at once
    assert await here.user_language(ANA, "de") == "de"


async def test_no_hard_coded_english_in_the_replies(fake: FakeDiscord, make_bot: BotMaker) -> None:
    """A user reading the pseudo-language sees every reply of these commands in brackets."""
    from tests.i18n.pseudo import unbracketed_words

    h = await make_bot()
    await h.client.tables.svc.languages.set_user_language(ANA, i18n.PSEUDO)  # type: ignore[attr-defined]
    replies = [
        await ask(h, ANA, "language"),
        await ask(h, ANA, "language", language="xx"),
        await ask(h, ANA, "game", "language", language="fr"),  # no game here
        await ask(h, ANA, "game", "new", language="xx"),
    ]
    await ask(h, BO, "game", "new", players=2)
    replies.append(await ask(h, ANA, "game", "language", language="fr"))  # not in the lobby
    for reqs in replies:
        text = private_text(reqs, ANA)
        assert text.startswith("[") and unbracketed_words(text, ["Pseudo"]) == [], text
