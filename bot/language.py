"""Which language the bot speaks on Discord: to a user (their private replies, DMs,
reminders) and in a game's channel (its public posts) — what the rest of the bot calls — and
the flows of ``/language`` and ``/game language``.

    lang = await user_language(bot, interaction.user.id, interaction.locale, game=rec)
    text = i18n.tr(lang, "bot.some.key", ...)
    lang = await game_language(bot, game_id)

A user's language is the first of: the language they chose with ``/language``, their Discord
client's locale in the interaction at hand, the locale they were last seen with (every
interaction remembers it: :func:`seen`, for reminders sent outside an interaction), the
game's language, English (:class:`service.language.Languages`). A game's language is chosen at
``/game new`` (default: the server's preferred locale when Discord gives it, else English)
and changed with ``/game language`` by its players or a moderator.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import i18n
from bot.moderators import interaction_is_moderator
from bot.paceflow import update_status
from bot.translator import ls
from service.language import game_language_of
from storage import GameRecord, GameStatus

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from service.language import Languages

log = logging.getLogger("bot.language")

DISCORD = "discord"
"""The ``/language`` choice that clears the user's own choice (follow Discord's)."""


def languages_of(bot: TurnpostBot) -> Languages:
    langs: Languages = bot.tables.svc.languages
    return langs


def locale_text(locale: discord.Locale | str | None) -> str | None:
    """A Discord locale as text (``pt-BR``), None when there is none."""
    return None if locale is None else str(locale)


async def user_language(
    bot: TurnpostBot,
    user_id: int | None,
    interaction_locale: discord.Locale | str | None,
    *,
    game: GameRecord | str | None = None,
) -> str:
    """The language to write to ``user_id`` in (module doc). ``interaction_locale``: the
    interaction's ``locale`` (None outside an interaction); ``game``: the game concerned (its
    record or its language), when there is one."""
    return await languages_of(bot).user_language(
        user_id, locale_text(interaction_locale), game=game
    )


async def interaction_language(
    interaction: discord.Interaction[TurnpostBot], *, game: GameRecord | str | None = None
) -> str:
    """:func:`user_language` of the interaction's user, in the interaction
    (:meth:`bot.hub.Hub.lang_of`)."""
    return await interaction.client.tables.lang_of(interaction, game)


async def game_language(bot: TurnpostBot, game: int | GameRecord) -> str:
    """The language of a game's public posts (``game``: its id or its record;
    :meth:`bot.hub.Hub.game_lang`)."""
    return await bot.tables.game_lang(game)


def guild_language(interaction: discord.Interaction[Any]) -> str:
    """A new game's default language: the server's preferred locale when Discord gives it
    and a catalogue serves it, else English."""
    if interaction.guild_id is None:
        return i18n.DEFAULT
    locale = locale_text(interaction.guild_locale)
    return i18n.discord_locales().get(locale or "") or i18n.resolve(locale) or i18n.DEFAULT


async def seen(interaction: discord.Interaction[TurnpostBot]) -> None:
    """Remember the Discord locale the interaction's user was seen with (written only when
    it changed); a storage failure is logged, never in the user's way."""
    try:
        await languages_of(interaction.client).remember_locale(
            interaction.user.id, locale_text(interaction.locale)
        )
    except Exception:
        log.warning("could not remember the locale of user %s", interaction.user.id, exc_info=True)


def language_choices(*, follow_discord: bool) -> list[app_commands.Choice[str]]:
    """The languages to choose from, each under its own name (``Deutsch``, ``Magyar``: not
    translated), and with ``follow_discord`` the choice of Discord's language."""
    langs = i18n.languages()
    out = [app_commands.Choice(name=langs[c].name, value=c) for c in i18n.supported()]
    if follow_discord:
        out.append(app_commands.Choice(name=ls("cmd.choice.language.discord"), value=DISCORD))
    return out[:25]


def pick(value: str) -> str | None:
    """The offered language a command's value names (None: none is)."""
    found = i18n.resolve(value)
    return found if found in i18n.supported() else None


def unknown(lang: str, value: str) -> str:
    """The answer to a language nobody serves: the supported ones, in the reader's language
    (in English, :class:`i18n.UnknownLanguage`'s own message)."""
    names = ", ".join(f"{c} ({i18n.languages()[c].name})" for c in i18n.supported())
    return i18n.tr(lang, "bot.language.unknown", code=value, languages=names)


def name_of(code: str) -> str:
    """A language's own name (``Português (Brasil)``)."""
    return i18n.languages()[code].name


# ---------------------------------------------------------------------- /language


async def language_command(
    interaction: discord.Interaction[TurnpostBot], value: str | None
) -> None:
    """``/language [language]``: without a value, the language the bot answers the user in
    and why; with one, the user's choice (:data:`DISCORD`: follow Discord's again)."""
    t = interaction.client.tables
    langs = languages_of(interaction.client)
    uid, locale = interaction.user.id, locale_text(interaction.locale)
    if value is None:
        prefs = await langs.prefs(uid)
        lang = await langs.user_language(uid, locale)
        key = "bot.language.yours_set" if prefs.chosen else "bot.language.yours_discord"
        await t.reply(interaction, i18n.tr(lang, key, language=name_of(lang)))
        return
    if value == DISCORD:
        await langs.set_user_language(uid, None)
        lang = await langs.user_language(uid, locale)
        await t.reply(interaction, i18n.tr(lang, "bot.language.cleared", language=name_of(lang)))
        return
    chosen = pick(value)
    if chosen is None:
        lang = await langs.user_language(uid, locale)
        await t.reply(interaction, unknown(lang, value))
        return
    await langs.set_user_language(uid, chosen)
    await t.reply(interaction, i18n.tr(chosen, "bot.language.set", language=name_of(chosen)))


# ---------------------------------------------------------------------- /game language


def may_change_game_language(
    interaction: discord.Interaction[TurnpostBot], rec: GameRecord
) -> bool:
    """A seated player of the game (lobby or running) or a moderator."""
    if rec.seats_of(interaction.user.id):
        return True
    return interaction_is_moderator(interaction, interaction.client.settings.moderator_role_id)


async def game_language_command(interaction: discord.Interaction[TurnpostBot], value: str) -> None:
    """``/game language <language>``: the channel's game (a lobby or a running game) writes
    its public posts in another language; said publicly in the new language."""
    bot = interaction.client
    t = bot.tables
    rec = await t.channel_game(interaction.channel_id)
    lang = await interaction_language(interaction, game=rec)
    if rec is None or not rec.status.is_active:
        await t.reply(interaction, i18n.tr(lang, "bot.language.no_game"))
        return
    if not may_change_game_language(interaction, rec):
        await t.reply(interaction, i18n.tr(lang, "bot.language.not_player"))
        return
    chosen = pick(value)
    if chosen is None:
        await t.reply(interaction, unknown(lang, value))
        return
    if game_language_of(rec) == chosen:
        await t.reply(
            interaction, i18n.tr(lang, "bot.language.game_same", language=name_of(chosen))
        )
        return
    await languages_of(bot).set_game_language(rec.id, chosen)
    log.info("game %s now writes in %s", rec.id, chosen)
    await interaction.response.send_message(
        i18n.tr(
            chosen,
            "bot.language.game_set",
            who=interaction.user.mention,
            language=name_of(chosen),
        ),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    if rec.status is not GameStatus.LOBBY:
        await update_status(t, rec.id)


__all__ = [
    "DISCORD",
    "game_language",
    "game_language_command",
    "guild_language",
    "interaction_language",
    "language_choices",
    "language_command",
    "seen",
    "unknown",
    "user_language",
]
