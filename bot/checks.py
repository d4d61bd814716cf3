"""Who may use a command here: shared :func:`app_commands.check` predicates.

- :func:`moderator`: a moderator of games in this channel (:func:`is_moderator`), else the
  refusal :data:`service.moderation.NOT_MODERATOR`.
- :func:`manager`: a member with Manage Server, in a server (the server's settings, seasons).
- :func:`in_game`: the channel has a running game; :func:`seated`: and the user has a seat in
  it. Both ask :class:`bot.tables.Tables` (``running_game`` / ``seated_game``), which answers
  the user itself when not, and keep what it found for the command: :func:`game_of`, and
  :func:`seat_of` (in_game) or :func:`my_seat` (seated).

A check that fails raises an :class:`app_commands.CheckFailure` subclass of
:mod:`bot.errors`; :class:`bot.errors.TurnpostTree` answers it privately.

**Moderators** are members with Manage Channel in the channel (the permissions Discord
resolved for the interaction: :attr:`discord.Interaction.permissions`), or with the role
``settings.moderator_role_id`` (:meth:`discord.Member.get_role`: the guild's role cache,
filled by the gateway; :mod:`bot.moderators`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.errors import Answered, CheckFault, Refusal
from bot.moderators import interaction_is_moderator
from i18n import msg

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from service.game import GameSession

T = TypeVar("T")

GAME_KEY = "brz:game"  # interaction.extras: the game read once (a GameSession)


class NotModerator(Refusal):
    def __init__(self) -> None:
        super().__init__(msg("svc.mod.not_moderator"))


def is_moderator(interaction: discord.Interaction[TurnpostBot]) -> bool:
    """A moderator of this channel's games, by the bot's settings."""
    return interaction_is_moderator(interaction, interaction.client.settings.moderator_role_id)


def moderator() -> Callable[[T], T]:
    """Only moderators (:class:`NotModerator` otherwise)."""

    def predicate(interaction: discord.Interaction[TurnpostBot]) -> bool:
        if not is_moderator(interaction):
            raise NotModerator()
        return True

    return app_commands.check(predicate)


def manager(only_server: str, not_manager: str) -> Callable[[T], T]:
    """Only members with Manage Server, in a server: the refusals ``only_server`` (used in a
    DM) and ``not_manager`` are the command's own texts (catalogue keys)."""

    def predicate(interaction: discord.Interaction[TurnpostBot]) -> bool:
        if interaction.guild_id is None:
            raise Refusal(msg(only_server))
        if not interaction.permissions.manage_guild:
            raise Refusal(msg(not_manager))
        return True

    return app_commands.check(predicate)


def _reads_game(seated_only: bool) -> Callable[[T], T]:
    async def predicate(interaction: discord.Interaction[TurnpostBot]) -> bool:
        tables = interaction.client.tables
        try:
            found = await (
                tables.seated_session(interaction)
                if seated_only
                else tables.running_session(interaction)
            )
        except Exception as e:
            raise CheckFault(e) from e
        if found is None:
            raise Answered("no seat" if seated_only else "no running game")
        interaction.extras[GAME_KEY] = found
        return True

    return app_commands.check(predicate)


def in_game() -> Callable[[T], T]:
    """The channel's game is running (not a lobby); the command reads it with
    :func:`session_of` / :func:`game_of`."""
    return _reads_game(seated_only=False)


def seated() -> Callable[[T], T]:
    """The channel's game is running and the user has a seat in it (:func:`my_seat`)."""
    return _reads_game(seated_only=True)


def session_of(interaction: discord.Interaction[Any]) -> GameSession:
    """The game as :func:`in_game` or :func:`seated` read it (once, for the whole command:
    a command that writes passes it on as ``loaded=``)."""
    found: GameSession = interaction.extras[GAME_KEY]
    return found


def game_of(interaction: discord.Interaction[Any]) -> int:
    """The game id found by :func:`in_game` or :func:`seated`."""
    return session_of(interaction).game_id


def seat_of(interaction: discord.Interaction[Any]) -> int | None:
    """The user's seat found by :func:`in_game` (None: a spectator)."""
    return session_of(interaction).seat_of(interaction.user.id)


def my_seat(interaction: discord.Interaction[Any]) -> int:
    """The user's seat found by :func:`seated`."""
    seat = seat_of(interaction)
    assert seat is not None  # seated() made sure
    return seat
