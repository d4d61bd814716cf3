"""What the user sees when something fails: a private answer, never "This interaction failed".

Two kinds of failure reach here:

- **Refusals** (:class:`Refusal`, an :class:`app_commands.CheckFailure`): the shared checks of
  :mod:`bot.checks` say why a command may not run here ("Only moderators can do that …").
  The reason is answered privately as is; nothing is logged as an error.
- **Faults** (anything else: a storage or HTTP error, a bug): logged with the traceback and
  answered privately with :data:`GONE_WRONG`. The game service saves a turn in one
  transaction, so a fault before the save changed nothing.

:class:`TurnpostTree` is the bot's command tree (``tree_cls``): its :meth:`on_error` handles the
slash commands; the persistent buttons and menus (:class:`bot.discord_views.GameItem`) share
:func:`report_fault`.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from i18n import DEFAULT, Msg, text_of, tr
from service import logctx, metrics

log = logging.getLogger("bot.errors")

GONE_WRONG = tr("en", "bot.error.gone_wrong")
"""The English answer to a fault (``bot.error.gone_wrong``)."""


class Refusal(app_commands.CheckFailure):
    """A check failed: :meth:`text` is the private answer to the user, in their language
    (the reason: a text, or a :class:`i18n.Msg`; ``str(self)`` is English)."""

    def __init__(self, reason: str | Msg) -> None:
        self.reason = reason
        super().__init__(str(reason))

    def text(self, lang: str = "en") -> str:
        return text_of(self.reason, lang)


async def language_of(interaction: discord.Interaction[Any]) -> str:
    """The language to answer the interaction's user in (English when the bot cannot tell:
    no tables yet, or the storage failing — the answer must still go out)."""
    tables = getattr(interaction.client, "tables", None)
    if tables is None:
        return DEFAULT
    try:
        lang: str = await tables.lang_of(interaction)
    except Exception:
        log.warning("the language of user %s not read", interaction.user.id, exc_info=True)
        return DEFAULT
    return lang


class Answered(app_commands.CheckFailure):
    """A check failed and has already answered the user itself (e.g. through a guard of
    :class:`bot.tables.Tables` that replies): nothing more to say."""


class CheckFault(app_commands.AppCommandError):
    """A check could not decide (its storage call failed): a fault, not a refusal.
    (discord.py passes only :class:`app_commands.AppCommandError` from a check to the tree's
    ``on_error``; anything else would end unanswered.)"""

    def __init__(self, original: Exception) -> None:
        super().__init__(f"check failed: {original!r}")
        self.original = original


async def answer_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already answered or deferred;
    an HTTP failure here is logged, not raised (there is nobody left to tell)."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text[:1990], ephemeral=True)
        else:
            await interaction.response.send_message(text[:1990], ephemeral=True)
    except discord.HTTPException as e:
        log.warning("could not answer interaction %s: %s", interaction.id, e)


async def report_fault(
    interaction: discord.Interaction[Any], error: BaseException, what: str
) -> None:
    """Log an unexpected ``error`` (with its traceback) and tell the user privately."""
    kind = "command" if interaction.type is discord.InteractionType.application_command else "press"
    metrics.INTERACTION_ERRORS.labels(kind).inc()
    log.error(
        "%s failed for user %s in channel %s",
        what,
        interaction.user.id,
        interaction.channel_id,
        exc_info=(type(error), error, error.__traceback__),
    )
    await answer_privately(interaction, tr(await language_of(interaction), "bot.error.gone_wrong"))


class TurnpostTree(app_commands.CommandTree[discord.Client]):
    """The command tree: failures of slash commands are answered privately (see module doc)."""

    async def interaction_check(self, interaction: discord.Interaction[discord.Client]) -> bool:
        bind_interaction(interaction)  # every log line of the command names it
        return True

    async def on_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, Answered):
            return
        if isinstance(error, app_commands.CheckFailure):
            log.debug("refused %s: %s", _name(interaction), error)
            lang = await language_of(interaction)
            text = (
                error.text(lang) if isinstance(error, Refusal) else tr(lang, "bot.error.not_here")
            )
            await answer_privately(interaction, text)
            return
        cause = (
            error.original
            if isinstance(error, app_commands.CommandInvokeError | CheckFault)
            else error
        )
        await report_fault(interaction, cause, _name(interaction))


def bind_interaction(interaction: discord.Interaction[Any]) -> None:
    """Name the interaction (guild, channel, id) in the log lines of the work it starts."""
    logctx.bind(
        guild=interaction.guild_id,
        channel=interaction.channel_id,
        interaction=interaction.id,
        game=None,
        seat=None,
    )


def _name(interaction: discord.Interaction[Any]) -> str:
    cmd = interaction.command
    return f"/{cmd.qualified_name}" if cmd is not None else "a command"
