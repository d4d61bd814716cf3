"""Who reads in which language (surface-neutral): a user's chosen language and the client
locale they were last seen with (the store's player preferences), and a game's language (its
settings: the language of its public posts).

A user's language, :meth:`Languages.user_language`, is the first of: the language they chose
(``/language``), the language of the client locale of the interaction at hand, the language of
the client locale they were last seen with (for what is sent outside an interaction:
reminders, direct messages), the game's language, English. A client locale no catalogue
serves (``es-ES``) counts as none. Any served language may be set here, the pseudo-language
too (tests); the surfaces offer users :func:`i18n.supported` only.

The preferences read are kept in memory for :data:`PREFS_TTL` seconds (a reply does not read
the database every time; another process's change is seen after at most that long); the last
seen locale is written only when it changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import i18n
from storage import GameRecord
from storage.base import GameStore

PREFS_TTL = 60.0
"""Seconds a user's language preferences read from the store are trusted."""


@dataclass(frozen=True)
class UserLanguage:
    """A user's language preferences: the language they chose (None: follow their client)
    and the client locale they were last seen with (None: never seen)."""

    chosen: str | None
    locale: str | None


def language_of_locale(locale: str | None) -> str | None:
    """The served language of a client locale (``pt-BR``, ``en-GB``, ``hu``), or None."""
    return i18n.resolve(locale) if locale else None


def game_language_of(rec: GameRecord) -> str:
    """The language of a game's public posts (its settings; English if no longer served)."""
    return i18n.resolve(rec.settings.language) or i18n.DEFAULT


class HasStore(Protocol):
    """What the languages need of the game service: its store."""

    @property
    def store(self) -> GameStore: ...


class Languages:
    """The language operations of one game service (see module doc)."""

    def __init__(self, svc: HasStore, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.svc = svc
        self._known: dict[int, tuple[float, UserLanguage]] = {}
        self._clock = clock

    # -- users ----------------------------------------------------------------------------

    async def prefs(self, user_id: int) -> UserLanguage:
        """The user's language preferences (from memory when read less than
        :data:`PREFS_TTL` seconds ago)."""
        known = self._known.get(user_id)
        now = self._clock()
        if known is not None and now - known[0] < PREFS_TTL:
            return known[1]
        p = await self.svc.store.get_player_prefs(user_id)
        found = UserLanguage(p.language, p.discord_locale)
        self._known[user_id] = (now, found)
        return found

    def _keep(self, user_id: int, value: UserLanguage) -> None:
        self._known[user_id] = (self._clock(), value)

    async def set_user_language(self, user_id: int, code: str | None) -> str | None:
        """The user's chosen language (``code`` as people write it: ``fr``, ``pt_BR``,
        ``Magyar``); None: follow their client again. Returns the language kept;
        :class:`i18n.UnknownLanguage` (naming the supported ones) for a language not served."""
        lang = None if code is None else i18n.require(code)
        p = await self.svc.store.set_player_prefs(
            user_id, language=lang, clear_language=lang is None
        )
        self._keep(user_id, UserLanguage(p.language, p.discord_locale))
        return lang

    async def remember_locale(self, user_id: int, locale: str | None) -> bool:
        """Keep the client locale the user was seen with; written only when it differs
        from the one kept (True when written)."""
        if not locale:
            return False
        known = await self.prefs(user_id)
        if known.locale == locale:
            return False
        wrote = await self.svc.store.remember_locale(user_id, locale)
        # a choice kept while this was written (the same user's ``/language``, answered
        # meanwhile) stays: only the locale is this call's
        kept = self._known.get(user_id)
        chosen = kept[1].chosen if kept is not None else known.chosen
        self._keep(user_id, UserLanguage(chosen, locale))
        return wrote

    async def user_language(
        self,
        user_id: int | None,
        locale: str | None = None,
        *,
        game: GameRecord | str | None = None,
    ) -> str:
        """The language to write to ``user_id`` in (module doc): ``locale`` is the client
        locale of the interaction at hand (None outside one), ``game`` the game concerned
        (its record or its language) if any."""
        prefs = await self.prefs(user_id) if user_id is not None else UserLanguage(None, None)
        chosen = i18n.resolve(prefs.chosen) if prefs.chosen else None
        game_lang = None
        if isinstance(game, GameRecord):
            game_lang = game_language_of(game)
        elif game:
            game_lang = i18n.resolve(game)
        return (
            chosen
            or language_of_locale(locale)
            or language_of_locale(prefs.locale)
            or game_lang
            or i18n.DEFAULT
        )

    # -- games ----------------------------------------------------------------------------

    async def game_language(self, game_id: int) -> str:
        """The language of game ``game_id``'s public posts."""
        return game_language_of(await self.svc.store.get_game(game_id))

    async def set_game_language(self, game_id: int, code: str) -> GameRecord:
        """Write game ``game_id``'s public posts in ``code`` from now on (any status: a lobby
        too); :class:`i18n.UnknownLanguage` for a language not served."""
        lang = i18n.require(code)
        return await self.svc.store.update_settings(game_id, language=lang)


__all__ = ["PREFS_TTL", "Languages", "UserLanguage", "game_language_of", "language_of_locale"]
