"""Moderation: ``/mod rollback|replace|kick|export|import`` and ``/game abandon``; the
confirmation buttons. The logic is in :mod:`service.moderation`; this cog checks who asks,
asks for confirmation, and posts the outcome (publicly, or privately for refusals and the
game file).

Moderators are members with Manage Channel in the channel, or with the role
``settings.moderator_role_id``. A lobby is also managed by its creator.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.discord_views import NO_LONGER, custom_id, status_layout
from rules import GameState
from service import Result
from service import moderation as mod
from storage import GameRecord, GameStatus

if TYPE_CHECKING:
    from bot.app import BrazilBot
    from bot.tables import Tables

log = logging.getLogger("bot.mod")

NO_GAME = "This channel has no game running. `/game new` starts one."


def interaction_is_moderator(
    interaction: discord.Interaction[Any], moderator_role_id: int | None
) -> bool:
    """Manage Channel in this channel (the interaction's resolved permissions), or the
    configured moderator role (the member's role ids, as sent with the interaction)."""
    roles: Any = getattr(interaction.user, "_roles", ())  # ids; the guild is not cached
    return mod.is_moderator(
        manage_channel=bool(interaction.guild_id) and interaction.permissions.manage_channels,
        role_ids=[int(r) for r in roles],
        moderator_role_id=moderator_role_id,
    )


def _tables(interaction: discord.Interaction[Any]) -> Tables:
    t: Tables = interaction.client.tables
    return t


def is_mod(interaction: discord.Interaction[Any]) -> bool:
    return interaction_is_moderator(interaction, _tables(interaction).settings.moderator_role_id)


class ModButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"brz:m:(?P<g>\d+):(?P<tok>[0-9a-f]+):(?P<op>ok|no)",
):
    """Confirm (``ok``) or cancel (``no``) a pending moderation request (ephemeral; the token
    names the request kept in the game's settings)."""

    def __init__(self, game_id: int, token: str, op: str, label: str = "") -> None:
        style = discord.ButtonStyle.danger if op == "ok" else discord.ButtonStyle.secondary
        super().__init__(
            ui.Button(
                label=label or ("Confirm" if op == "ok" else "Cancel"),
                style=style,
                custom_id=custom_id("brz:m", game_id, token, op),
            )
        )
        self.game_id, self.token, self.op = game_id, token, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ModButton:
        return cls(int(match["g"]), match["tok"], match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("ModCog")
        if not isinstance(cog, ModCog):
            await _tables(interaction).reply(interaction, NO_LONGER)
            return
        await cog.confirmed(interaction, self.game_id, self.token, self.op == "ok")


def confirm_view(game_id: int, token: str, label: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ModButton(game_id, token, "ok", label))
    view.add_item(ModButton(game_id, token, "no"))
    return view


class ModCog(commands.Cog):
    """``/mod ...`` (moderators only) and the abandon flow."""

    mod_group = app_commands.Group(
        name="mod", description="Moderate this channel's game (moderators)", guild_only=True
    )

    def __init__(self, bot: BrazilBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ModButton)

    @property
    def t(self) -> Tables:
        return self.bot.tables

    async def _mod_game(self, interaction: discord.Interaction[Any]) -> GameRecord | None:
        """The channel's running game, if the user is a moderator; says why not otherwise."""
        if not is_mod(interaction):
            await self.t.reply(interaction, mod.NOT_MODERATOR)
            return None
        rec = await self.t.channel_game(interaction.channel_id)
        if rec is None or rec.status is GameStatus.LOBBY:
            await self.t.reply(interaction, NO_GAME)
            return None
        return rec

    # ------------------------------------------------------------------ rollback

    async def version_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """The game's history, newest first, filtered by what was typed (moderators only)."""
        if not is_mod(interaction):
            return []
        rec = await self.t.channel_game(interaction.channel_id)
        if rec is None or rec.status is GameStatus.LOBBY:
            return []
        got = await mod.history_choices(self.t.svc, rec.id, str(current or ""))
        return [app_commands.Choice(name=c.label, value=c.version) for c in got]

    @mod_group.command(name="rollback", description="Return the game to an earlier version")
    @app_commands.describe(
        version="the version to return to (pick from the history)",
        reason="why (posted with the rollback)",
    )
    async def rollback(
        self,
        interaction: discord.Interaction[Any],
        version: app_commands.Range[int, 0],
        reason: app_commands.Range[str, 1, mod.MAX_REASON],
    ) -> None:
        rec = await self._mod_game(interaction)
        if rec is None:
            return
        if not 0 <= version < rec.version:
            await self.t.reply(
                interaction, f"Choose a version from the history (v0 to v{rec.version - 1})."
            )
            return
        if not reason.strip():
            await self.t.reply(interaction, "A rollback needs a reason.")
            return
        label = next(
            (c.label for c in await mod.history_choices(self.t.svc, rec.id, f"v{version}")),
            f"v{version}",
        )
        token = await mod.request(
            self.t.svc, rec.id, interaction.user.id, "rollback", target=version, reason=reason
        )
        await self.t.reply(
            interaction,
            f"Roll game #{rec.id} back from v{rec.version} to **{label}**?\n"
            f"Reason (posted publicly): {reason}\nNothing changes until you confirm.",
            view=confirm_view(rec.id, token, f"Roll back to v{version}"),
        )

    rollback.autocomplete("version")(version_autocomplete)

    # ------------------------------------------------------------------ seats

    @mod_group.command(name="replace", description="Give a seat to another member")
    @app_commands.describe(seat="the seat number (1-4)", user="who plays it from now on")
    async def replace(
        self,
        interaction: discord.Interaction[Any],
        seat: app_commands.Range[int, 1, 4],
        user: discord.User,
    ) -> None:
        rec = await self._mod_game(interaction)
        if rec is None:
            return
        if user.bot:
            await self.t.reply(interaction, "A bot cannot take a seat: use `/mod kick` for an AI.")
            return
        self.t.names[user.id] = user.display_name
        await self._seat_change(
            interaction,
            rec,
            mod.replace_seat(
                self.t.svc, rec.id, seat - 1, user.id, user.display_name, by=interaction.user.id
            ),
        )

    @mod_group.command(name="kick", description="Give a seat to a computer player")
    @app_commands.describe(seat="the seat number (1-4)", level="the computer player's level")
    async def kick(
        self,
        interaction: discord.Interaction[Any],
        seat: app_commands.Range[int, 1, 4],
        level: Literal["random", "heuristic", "search"] = "heuristic",
    ) -> None:
        rec = await self._mod_game(interaction)
        if rec is None:
            return
        await self._seat_change(
            interaction,
            rec,
            mod.kick_seat(self.t.svc, rec.id, seat - 1, level, by=interaction.user.id),
        )

    async def _seat_change(
        self, interaction: discord.Interaction[Any], rec: GameRecord, change: Any
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.t.lock(rec.id):
            try:
                res: Result = await change
            except mod.Refused as e:
                await self.t.reply(interaction, str(e))
                return
            await self.t.publish(rec.channel_id, res, interaction=interaction, force=True)
        await interaction.followup.send("Done: the seat changed hands.", ephemeral=True)

    # ------------------------------------------------------------------ export / import

    @mod_group.command(name="export", description="The game file (only you get it)")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        if not is_mod(interaction):
            await self.t.reply(interaction, mod.NOT_MODERATOR)
            return
        rec = await self.t.channel_game(interaction.channel_id)
        if rec is None:
            games = await self.t.store.list_games(channel_id=interaction.channel_id, limit=1)
            rec = games[0] if games else None
        if rec is None or rec.status is GameStatus.LOBBY:
            await self.t.reply(interaction, "This channel has no game to export.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        name, data = await mod.export_file(self.t.svc, rec.id)
        await interaction.followup.send(
            f"Game #{rec.id} at v{rec.version}. This file holds the hidden information "
            "(hands, missions, the decks' order): keep it to yourself. "
            "`/mod import` puts it in another channel.",
            file=discord.File(io.BytesIO(data), filename=name),
            ephemeral=True,
        )

    @mod_group.command(name="import", description="Start a game from a game file here")
    @app_commands.describe(file="a game file from /mod export")
    async def import_(
        self, interaction: discord.Interaction[Any], file: discord.Attachment
    ) -> None:
        if not is_mod(interaction):
            await self.t.reply(interaction, mod.NOT_MODERATOR)
            return
        if interaction.channel_id is None:
            await self.t.reply(interaction, "Games are played in a server channel.")
            return
        if file.size > mod.MAX_IMPORT_BYTES:
            await self.t.reply(interaction, "That file is too large for a game file.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data = await file.read()
            rec = await mod.import_file(
                self.t.svc, data, channel_id=interaction.channel_id, guild_id=interaction.guild_id
            )
        except discord.HTTPException:
            await self.t.reply(interaction, "I could not download that file: try again.")
            return
        except mod.Refused as e:
            await self.t.reply(interaction, str(e))
            return
        log.info("game %s imported into channel %s", rec.id, rec.channel_id)
        if not rec.status.is_active:
            await self.t.reply(
                interaction, f"Imported as game #{rec.id} ({rec.status.value}): nothing to play."
            )
            return
        st = GameState.model_validate_json(rec.state_json)
        seats = (await self.t.svc.info(rec.id)).seats
        text = f"A moderator (<@{interaction.user.id}>) imported a game here: game #{rec.id}."
        res = self.t.svc.announce(rec.id, rec.version, st, seats, text, image=False)
        async with self.t.lock(rec.id):
            await self.t.publish(rec.channel_id, res, interaction=interaction, force=True)
        await interaction.followup.send(f"Imported as game #{rec.id}.", ephemeral=True)

    # ------------------------------------------------------------------ abandon

    async def abandon_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/game abandon``: a moderator (or a lobby's creator) after a confirmation; else
        every seated human asks in turn, the last one confirms."""
        rec = await self.t.channel_game(interaction.channel_id)
        if rec is None:
            await self.t.reply(interaction, "No game in this channel.")
            return
        uid = interaction.user.id
        host = rec.status is GameStatus.LOBBY and rec.settings.host_user_id == uid
        if is_mod(interaction) or host:
            token = await mod.request(self.t.svc, rec.id, uid, "abandon")
            await self.t.reply(
                interaction,
                f"Abandon game #{rec.id}? It ends for good (nothing can be played in it "
                "afterwards; the channel is free for a new game).",
                view=confirm_view(rec.id, token, "Abandon the game"),
            )
            return
        try:
            vote = await mod.abandon_vote(self.t.svc, rec.id, uid)
        except mod.Refused as e:
            await self.t.reply(interaction, str(e))
            return
        if vote.done:
            token = await mod.request(self.t.svc, rec.id, uid, "abandon", vote=True)
            await self.t.reply(
                interaction,
                f"Every player asked to abandon game #{rec.id}. Abandon it for good?",
                view=confirm_view(rec.id, token, "Abandon the game"),
            )
            return
        missing = [u for u in vote.needed if u not in vote.votes]
        await interaction.response.send_message(
            f"<@{uid}> asks to abandon game #{rec.id} ({len(vote.votes)} of {len(vote.needed)}"
            f" players). The others can agree with `/game abandon`: "
            + ", ".join(f"<@{u}>" for u in missing),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ------------------------------------------------------------------ confirmations

    async def confirmed(
        self, interaction: discord.Interaction[Any], game_id: int, token: str, ok: bool
    ) -> None:
        uid = interaction.user.id
        try:
            if not ok:
                await mod.cancel_request(self.t.svc, game_id, token, uid)
                await interaction.response.edit_message(content="Cancelled.", view=None)
                return
            rec = await self.t.store.get_game(game_id)
            pend = mod.pending_request(rec)
            voted = pend is not None and pend.op == "abandon" and bool(pend.data.get("vote"))
            host = rec.status is GameStatus.LOBBY and rec.settings.host_user_id == uid
            if not (voted or host or is_mod(interaction)):
                await self.t.reply(interaction, mod.NOT_MODERATOR)
                return
            req = await mod.take_request(self.t.svc, game_id, token, uid)
        except mod.Refused as e:
            await self.t.reply(interaction, str(e))
            return
        await interaction.response.edit_message(content="Working on it…", view=None)
        if req["op"] == "rollback":
            await self._do_rollback(interaction, rec, req)
        elif req["op"] == "abandon":
            await self._do_abandon(interaction, rec, voted=voted)

    async def _do_rollback(
        self, interaction: discord.Interaction[Any], rec: GameRecord, req: dict[str, Any]
    ) -> None:
        async with self.t.lock(rec.id):
            try:
                res = await mod.rollback(
                    self.t.svc,
                    rec.id,
                    int(req["target"]),
                    by=interaction.user.id,
                    reason=str(req["reason"]),
                    expected_version=int(req["version"]),
                )
            except mod.Refused as e:
                await interaction.edit_original_response(content=str(e))
                return
            await self.t.publish(rec.channel_id, res, interaction=interaction, force=True)
        await interaction.edit_original_response(content=f"Rolled back to v{req['target']}.")

    async def _do_abandon(
        self, interaction: discord.Interaction[Any], rec: GameRecord, *, voted: bool
    ) -> None:
        if voted:
            try:
                vote = await mod.abandon_vote(self.t.svc, rec.id, interaction.user.id)
            except mod.Refused as e:
                await interaction.edit_original_response(content=str(e))
                return
            if not vote.done:
                await interaction.edit_original_response(content="Not every player agrees now.")
                return
        async with self.t.lock(rec.id):
            try:
                done = await mod.abandon(self.t.svc, rec.id)
            except mod.Refused as e:
                await interaction.edit_original_response(content=str(e))
                return
        how = "by agreement of all players" if voted else f"by <@{interaction.user.id}>"
        what = "lobby" if rec.status is GameStatus.LOBBY else "game"
        channel = self.bot.get_partial_messageable(rec.channel_id)
        none = discord.AllowedMentions.none()
        await channel.send(
            f"The {what} #{rec.id} was abandoned {how}. `/game new` starts a new one.",
            allowed_mentions=none,
        )
        mid = done.settings.status_message_id
        if mid is not None:
            try:
                await channel.get_partial_message(mid).edit(
                    view=status_layout(f"### Game #{rec.id}\nAbandoned {how}."),
                    allowed_mentions=none,
                )
            except discord.HTTPException as e:
                log.info("status message of game %s not edited: %s", rec.id, e)
        await interaction.edit_original_response(content=f"Game #{rec.id} abandoned.")


__all__ = ["ModButton", "ModCog", "interaction_is_moderator"]
