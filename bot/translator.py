"""The slash commands in each user's Discord language: :class:`CatalogueTranslator`, the
command tree's :class:`discord.app_commands.Translator`, and :func:`ls`, how the cogs name and
describe their commands, options and choices.

A command's texts are message keys ``cmd.*`` of the catalogues (``i18n/locales/<lang>/
commands.toml``): ``cmd.<path>.name`` / ``.desc`` for a command or group (``cmd.game.new``),
``cmd.<path>.opt.<option>.name`` / ``.desc`` for an option, ``cmd.choice.<set>.<value>`` for
a choice. ``ls("cmd.game.new.name")`` is a :class:`~discord.app_commands.locale_str` whose
message is the English text (what Discord gets as the default, and sends back in
interactions: English names keep working in every client) and whose ``key`` the translator
looks up. When the tree is synced, Discord gets, for every client locale a catalogue serves
(:func:`i18n.discord_locales`: ``pt-BR``, ``fr``, ``de``, ``hu``, ``pl``), that language's
text; English locales and texts a language lacks get no localization (Discord shows the
default). Discord's rules for the translated names (lower case, at most 32 characters of
letters, digits, ``-`` and ``_``) and descriptions (1-100 characters) are checked offline by
``tests/bot/test_language_commands.py`` over the whole command payload.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict, TypeVar

import discord
from discord import app_commands

import i18n

T = TypeVar("T")

KEY = "key"
"""The :attr:`locale_str.extras <discord.app_commands.locale_str.extras>` entry holding the
message key."""


def ls(key: str) -> app_commands.locale_str:
    """The command text of message ``key``: its English text, keyed for translation."""
    return app_commands.locale_str(i18n.tr(i18n.DEFAULT, key), **{KEY: key})


def language_of_locale(locale: discord.Locale | str | None) -> str | None:
    """The served language of a Discord client locale (None: none serves it)."""
    if locale is None:
        return None
    return i18n.discord_locales().get(str(locale))


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the message catalogues (module doc)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translate(string, locale)


def translate(string: app_commands.locale_str, locale: discord.Locale | str) -> str | None:
    """The text of ``string`` for a Discord client ``locale``: None for a text without a key,
    an English locale, a locale no catalogue serves, or a key the language lacks (Discord
    then shows the English default)."""
    key = string.extras.get(KEY)
    lang = language_of_locale(locale)
    if not isinstance(key, str) or lang is None or lang == i18n.DEFAULT:
        return None
    if i18n.catalogue(lang).get(key) is None:
        return None
    return i18n.tr(lang, key)  # a description may name a command: ``{/mod export}``


class Named(TypedDict):
    """A command's or group's name and description, keyed for translation."""

    name: app_commands.locale_str
    description: app_commands.locale_str


def named(path: str) -> Named:
    """``name=`` and ``description=`` of the command or group ``path`` (``"game.new"``):
    ``@group.command(**named("game.new"))``."""
    return Named(name=ls(f"cmd.{path}.name"), description=ls(f"cmd.{path}.desc"))


def options(path: str, *names: str) -> Callable[[T], T]:
    """Name and describe options ``names`` of command ``path`` (``cmd.<path>.opt.<name>.name``
    and ``.desc``): the English name is the parameter's own."""
    rename = app_commands.rename(**{n: ls(f"cmd.{path}.opt.{n}.name") for n in names})
    describe = app_commands.describe(**{n: ls(f"cmd.{path}.opt.{n}.desc") for n in names})

    def decorate(f: T) -> T:
        return rename(describe(f))

    return decorate


def choices(kind: str, *values: str) -> list[app_commands.Choice[str]]:
    """The choices ``values`` of the set ``kind`` (``cmd.choice.<kind>.<value>``)."""
    return [app_commands.Choice(name=ls(f"cmd.choice.{kind}.{v}"), value=v) for v in values]
