"""What the user sees when something fails: a private answer, never "This interaction failed".

Two kinds of failure reach here:

- **Refusals** (:class:`Refusal`, an :class:`app_commands.CheckFailure`): the shared checks of
  :mod:`bot.checks` say why a command may not run here ("Only moderators can do that …").
  The reason is answered privately as is; nothing is logged as an error.
- **Faults** (anything else: a storage or HTTP error, a bug): logged with the traceback and
  answered privately with :data:`GONE_WRONG`. The game service saves a turn in one
  transaction, so a fault before the save changed nothing.
- **Discord's limits** (:func:`limit_of`): an interaction answered after Discord's 3 s
  deadline (10062 "Unknown interaction"), one answered twice (40060), a follow-up after its
  token expired (50027, 15 minutes): nobody is left to answer; logged once without a
  traceback (WARNING, the expiry INFO) and counted (``INTERACTION_ERRORS``: ``late``,
  ``acknowledged``, ``expired``). The press acknowledges before it calls the service, so a
  late press changed nothing and its retry works.
- **After a save** (:func:`mark_saved`, in the interaction's ``extras``): a fault once the
  step was saved is answered "Your move was saved …" — never "nothing was changed" — and
  when the turn's post could not be published (:func:`mark_not_shown`), says so.

:class:`TurnpostTree` is the bot's command tree (``tree_cls``): its :meth:`on_error` handles the
slash commands; the persistent buttons and menus (:class:`bot.discord_views.GameItem`) share
:func:`report_fault`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from i18n import DEFAULT, Msg, text_of, tr
from service import logctx, metrics

log = logging.getLogger("bot.errors")

GONE_WRONG = tr("en", "bot.error.gone_wrong")
"""The English answer to a fault (``bot.error.gone_wrong``)."""


UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction answered after its 3 s deadline (404)."""
ALREADY_ACKNOWLEDGED = 40060
"""Discord's code for an interaction answered a second time (400)."""
INVALID_WEBHOOK_TOKEN = 50027
"""Discord's code for a follow-up after the interaction's token expired (401, 15 minutes)."""
CANNOT_DM = 50007
"""Discord's code for a direct message to a user who does not accept them (403)."""
MISSING_PERMISSIONS = 50013
"""Discord's code for an action the bot lacks a permission for (403)."""

_LIMITS = {
    UNKNOWN_INTERACTION: "late",
    ALREADY_ACKNOWLEDGED: "acknowledged",
    INVALID_WEBHOOK_TOKEN: "expired",
}
_LIMIT_WORDS = {
    "late": "answered after Discord's 3 s deadline (10062)",
    "acknowledged": "already acknowledged (40060)",
    "expired": "follow-up after the interaction's token expired (50027), dropped",
}

SAVED = "turnpost.saved"
"""The interaction's ``extras`` key: the service saved the press's step."""
NOT_SHOWN = "turnpost.not_shown"
"""The interaction's ``extras`` key: the saved step's post could not be published."""


def limit_of(error: BaseException) -> str | None:
    """``late``, ``acknowledged`` or ``expired`` when ``error`` is Discord refusing an
    interaction's answer for its deadlines (see module doc), else None."""
    if isinstance(error, discord.HTTPException):
        return _LIMITS.get(error.code)
    return None


def mark_saved(interaction: discord.Interaction[Any] | None) -> None:
    """The interaction's step is saved: a fault after this is answered as such."""
    if interaction is not None:
        interaction.extras[SAVED] = True


def was_saved(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's step was saved (:func:`mark_saved`)."""
    return bool(interaction.extras.get(SAVED))


def mark_not_shown(interaction: discord.Interaction[Any] | None) -> None:
    """The interaction's saved step was not published (a refusal of Discord, a fault)."""
    if interaction is not None:
        interaction.extras[SAVED] = True
        interaction.extras[NOT_SHOWN] = True


def not_shown(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's saved step could not be published (:func:`mark_not_shown`)."""
    return bool(interaction.extras.get(NOT_SHOWN))


def saved_text(interaction: discord.Interaction[Any], lang: str) -> str:
    """The answer to a fault after the interaction's step was saved, in ``lang``."""
    key = "bot.error.saved_not_posted" if not_shown(interaction) else "bot.error.saved_fault"
    return tr(lang, key)


@contextlib.contextmanager
def unless_expired(interaction: discord.Interaction[Any], what: str) -> Iterator[None]:
    """Around a follow-up that may be dropped (a "Done", the next menu): if Discord refuses
    it for the interaction's deadlines (:func:`limit_of`), it is logged at INFO without a
    traceback and counted; the player's next press starts afresh. Anything else is raised."""
    try:
        yield
    except discord.HTTPException as e:
        kind = limit_of(e)
        if kind is None:
            raise
        metrics.INTERACTION_ERRORS.labels(kind).inc()
        log.info("%s for interaction %s: %s", what, interaction.id, _LIMIT_WORDS[kind])


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
    """Log an unexpected ``error`` (with its traceback) and tell the user privately; Discord's
    deadlines (:func:`limit_of`) are logged once, without a traceback, and not answered
    (nobody is left to answer); a fault after the step was saved (:func:`mark_saved`) is
    answered "Your move was saved …"."""
    limit = limit_of(error)
    if limit is not None:
        metrics.INTERACTION_ERRORS.labels(limit).inc()
        log.log(
            logging.INFO if limit == "expired" else logging.WARNING,
            "%s for user %s in channel %s: %s%s",
            what,
            interaction.user.id,
            interaction.channel_id,
            _LIMIT_WORDS[limit],
            ", after its step was saved" if was_saved(interaction) else "",
        )
        return
    if was_saved(interaction):
        metrics.INTERACTION_ERRORS.labels("saved").inc()
        if isinstance(error, discord.HTTPException):  # Discord refused: no bug to trace
            log.warning(
                "%s for user %s in channel %s: step saved, then Discord refused: %s",
                what,
                interaction.user.id,
                interaction.channel_id,
                error,
            )
        else:
            log.error(
                "%s failed for user %s in channel %s after the step was saved",
                what,
                interaction.user.id,
                interaction.channel_id,
                exc_info=(type(error), error, error.__traceback__),
            )
        await answer_privately(interaction, saved_text(interaction, await language_of(interaction)))
        return
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
