"""Moderation: ``/mod rollback|replace|kick|export|import`` (an extension: :func:`setup`).
The logic is in :mod:`service.moderation`; this cog checks who asks (:func:`bot.checks.moderator`),
asks for confirmation, and posts the outcome (publicly, or privately for refusals and the
game file). The confirmation buttons (:class:`bot.modflow.ModButton`, registered here) and
the abandon flow of ``/game abandon`` are in :mod:`bot.modflow`.

Moderators are members with Manage Channel in the channel, or with the role
``settings.moderator_role_id`` (:func:`bot.checks.interaction_is_moderator`). A lobby is also
managed by its creator.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_moderator, moderator
from bot.moderators import interaction_is_moderator
from bot.modflow import ModButton, confirm_view
from bot.translator import choices, named, options
from i18n import tr
from service import Result
from service import moderation as mod
from service.language import game_language_of
from storage import GameRecord, GameStatus

if TYPE_CHECKING:
    from bot.app import TurnpostBot
    from bot.tables import Tables

log = logging.getLogger("bot.mod")

NO_GAME = tr("en", "bot.channel.no_game")
"""The English text (``bot.channel.no_game``)."""


class ModCog(commands.Cog):
    """``/mod ...``: moderators only (each command checks :func:`bot.checks.moderator`)."""

    mod_group = app_commands.Group(**named("mod"), guild_only=True)

    def __init__(self, bot: TurnpostBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ModButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ModButton)

    @property
    def t(self) -> Tables:
        return self.bot.tables

    async def _mod_game(self, interaction: discord.Interaction[TurnpostBot]) -> GameRecord | None:
        """The channel's running game; says why not otherwise."""
        rec = await self.t.channel_game(interaction.channel_id)
        if rec is None or rec.status is GameStatus.LOBBY:
            await self.t.say(interaction, "bot.channel.no_game", game=rec)
            return None
        return rec

    # ------------------------------------------------------------------ rollback

    async def version_autocomplete(
        self, interaction: discord.Interaction[TurnpostBot], current: str
    ) -> list[app_commands.Choice[int]]:
        """The game's history, newest first, filtered by what was typed (moderators only)."""
        if not is_moderator(interaction):  # checks do not run for autocompletion
            return []
        rec = await self.t.channel_game(interaction.channel_id)
        if rec is None or rec.status is GameStatus.LOBBY:
            return []
        lang = await self.t.lang_of(interaction, rec)
        got = await mod.history_choices(self.t.svc, rec.id, str(current or ""), lang=lang)
        return [app_commands.Choice(name=c.label, value=c.version) for c in got]

    @mod_group.command(**named("mod.rollback"))
    @options("mod.rollback", "version", "reason")
    @moderator()
    async def rollback(
        self,
        interaction: discord.Interaction[TurnpostBot],
        version: app_commands.Range[int, 0],
        reason: app_commands.Range[str, 1, mod.MAX_REASON],
    ) -> None:
        rec = await self._mod_game(interaction)
        if rec is None:
            return
        lang = await self.t.lang_of(interaction, rec)
        if not 0 <= version < rec.version:
            await self.t.reply(interaction, tr(lang, "bot.mod.version_range", last=rec.version - 1))
            return
        if not reason.strip():
            await self.t.reply(interaction, tr(lang, "bot.mod.reason_needed"))
            return
        found = await mod.history_choices(self.t.svc, rec.id, f"v{version}", lang=lang)
        label = next((c.label for c in found), f"v{version}")
        token = await mod.request(
            self.t.svc, rec.id, interaction.user.id, "rollback", target=version, reason=reason
        )
        await self.t.reply(
            interaction,
            tr(
                lang,
                "bot.mod.rollback_q",
                game=rec.id,
                version=rec.version,
                label=label,
                reason=reason,
            ),
            view=confirm_view(
                rec.id, token, tr(lang, "bot.button.roll_back", version=version), lang
            ),
        )

    rollback.autocomplete("version")(version_autocomplete)

    # ------------------------------------------------------------------ seats

    @mod_group.command(**named("mod.replace"))
    @options("mod.replace", "seat", "user")
    @moderator()
    async def replace(
        self,
        interaction: discord.Interaction[TurnpostBot],
        seat: app_commands.Range[int, 1, 4],
        user: discord.User,
    ) -> None:
        rec = await self._mod_game(interaction)
        if rec is None:
            return
        if user.bot:
            await self.t.say(interaction, "bot.mod.bot_seat", game=rec)
            return
        self.t.names[user.id] = user.display_name
        await self._seat_change(
            interaction,
            rec,
            mod.replace_seat(
                self.t.svc,
                rec.id,
                seat - 1,
                user.id,
                user.display_name,
                by=interaction.user.id,
                lang=game_language_of(rec),
            ),
        )

    @mod_group.command(**named("mod.kick"))
    @options("mod.kick", "seat", "level")
    @app_commands.choices(level=choices("level", "random", "heuristic", "search"))
    @moderator()
    async def kick(
        self,
        interaction: discord.Interaction[TurnpostBot],
        seat: app_commands.Range[int, 1, 4],
        level: Literal["random", "heuristic", "search"] = "heuristic",
    ) -> None:
        rec = await self._mod_game(interaction)
        if rec is None:
            return
        await self._seat_change(
            interaction,
            rec,
            mod.kick_seat(
                self.t.svc,
                rec.id,
                seat - 1,
                level,
                by=interaction.user.id,
                lang=game_language_of(rec),
            ),
        )

    async def _seat_change(
        self, interaction: discord.Interaction[TurnpostBot], rec: GameRecord, change: Any
    ) -> None:
        lang = await self.t.lang_of(interaction, rec)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.t.lock(rec.id):
            try:
                res: Result = await change
            except mod.Refused as e:
                await self.t.reply(interaction, e.text(lang))
                return
            await self.t.publish(res, interaction=interaction, force=True)
        await interaction.followup.send(tr(lang, "bot.mod.seat_changed"), ephemeral=True)

    # ------------------------------------------------------------------ export / import

    @mod_group.command(**named("mod.export"))
    @moderator()
    async def export(self, interaction: discord.Interaction[TurnpostBot]) -> None:
        rec = await self.t.svc.places.latest_game(interaction.channel_id)
        lang = await self.t.lang_of(interaction)
        if rec is None or rec.status is GameStatus.LOBBY:
            await self.t.reply(interaction, tr(lang, "bot.mod.nothing_to_export"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        name, data = await mod.export_file(self.t.svc, rec.id)
        await interaction.followup.send(
            tr(lang, "bot.mod.exported", game=rec.id, version=rec.version),
            file=discord.File(
                io.BytesIO(data),
                filename=name,
                description=tr(lang, "bot.alt.export", game=rec.id, version=rec.version),
            ),
            ephemeral=True,
        )

    @mod_group.command(**named("mod.import"))
    @options("mod.import", "file")
    @moderator()
    async def import_(
        self, interaction: discord.Interaction[TurnpostBot], file: discord.Attachment
    ) -> None:
        lang = await self.t.lang_of(interaction)
        if interaction.channel_id is None:
            await self.t.reply(interaction, tr(lang, "bot.lobby.server_only"))
            return
        if file.size > mod.MAX_IMPORT_BYTES:
            await self.t.reply(interaction, tr(lang, "bot.mod.file_too_large"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data = await file.read()
            rec = await mod.import_file(
                self.t.svc, data, channel_id=interaction.channel_id, guild_id=interaction.guild_id
            )
        except discord.HTTPException:
            await self.t.reply(interaction, tr(lang, "bot.mod.download_failed"))
            return
        except mod.Refused as e:
            await self.t.reply(interaction, e.text(lang))
            return
        log.info("game %s imported into channel %s", rec.id, rec.channel_id)
        if not rec.status.is_active:
            await self.t.reply(
                interaction,
                tr(lang, "bot.mod.imported_inactive", game=rec.id, status=rec.status.value),
            )
            return
        text = tr(
            game_language_of(rec),
            "bot.mod.imported_public",
            who=f"<@{interaction.user.id}>",
            game=rec.id,
        )
        async with self.t.svc.session(rec.id) as s:
            res = s.announce(text, image=False)
        await self.t.publish(res, interaction=interaction, force=True)
        await interaction.followup.send(tr(lang, "bot.mod.imported", game=rec.id), ephemeral=True)


async def setup(bot: TurnpostBot) -> None:
    await bot.add_cog(ModCog(bot))


__all__ = ["ModButton", "ModCog", "interaction_is_moderator", "setup"]
