"""Moderation requests, shared by ``/mod`` (:mod:`bot.cogs.mod`) and ``/game abandon``
(:mod:`bot.cogs.game`): the abandon flow, and the Confirm / Cancel buttons of a pending
request (:class:`ModButton`, registered by the mod extension) that carry it out. The rules
(who may, votes, tokens) are in :mod:`service.moderation`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import ui

from bot.checks import is_moderator
from bot.discord_views import GameButton, status_layout
from bot.threads import ThreadDesk
from i18n import tr
from service import moderation as mod
from service.language import game_language_of
from storage import GameRecord, GameStatus

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bot.app import TurnpostBot

log = logging.getLogger("bot.mod")


class ModButton(GameButton, prefix="brz:m", fields="game_id token answer"):
    """Confirm (``ok``) or cancel (``no``) a pending moderation request (ephemeral; the token
    names the request kept in the game's settings)."""

    LABELS: ClassVar[dict[str, str]] = {"ok": "bot.button.confirm", "no": "bot.button.cancel"}

    def label_of(self, values: Sequence[Any]) -> str:
        return self.LABELS[values[2]]

    def style_of(self, values: Sequence[Any]) -> discord.ButtonStyle:
        ok = values[2] == "ok"
        return discord.ButtonStyle.danger if ok else discord.ButtonStyle.secondary

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        await confirmed(interaction, self.game_id, self.token, self.answer == "ok")


def confirm_view(game_id: int, token: str, label: str, lang: str = "en") -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ModButton(game_id, token, "ok", label=label, lang=lang))
    view.add_item(ModButton(game_id, token, "no", lang=lang))
    return view


async def abandon(interaction: discord.Interaction[TurnpostBot]) -> None:
    """``/game abandon``: a moderator (or a lobby's creator) after a confirmation; else
    every seated human asks in turn, the last one confirms."""
    t = interaction.client.tables
    rec = await t.channel_game(interaction.channel_id)
    lang = await t.lang_of(interaction, rec)
    if rec is None:
        await t.reply(interaction, tr(lang, "bot.mod.no_game"))
        return
    uid = interaction.user.id
    host = rec.status is GameStatus.LOBBY and rec.settings.host_user_id == uid
    button = tr(lang, "bot.button.abandon")
    if is_moderator(interaction) or host:
        token = await mod.request(t.svc, rec.id, uid, "abandon")
        await t.reply(
            interaction,
            tr(lang, "bot.mod.abandon_q", game=rec.id),
            view=confirm_view(rec.id, token, button, lang),
        )
        return
    try:
        vote = await mod.abandon_vote(t.svc, rec.id, uid)
    except mod.Refused as e:
        await t.reply(interaction, e.text(lang))
        return
    if vote.done:
        token = await mod.request(t.svc, rec.id, uid, "abandon", vote=True)
        await t.reply(
            interaction,
            tr(lang, "bot.mod.abandon_all_q", game=rec.id),
            view=confirm_view(rec.id, token, button, lang),
        )
        return
    missing = [u for u in vote.needed if u not in vote.votes]
    await interaction.response.send_message(
        tr(
            game_language_of(rec),
            "bot.mod.abandon_asks",
            who=f"<@{uid}>",
            game=rec.id,
            votes=len(vote.votes),
            needed=len(vote.needed),
            missing=", ".join(f"<@{u}>" for u in missing),
        ),
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def confirmed(
    interaction: discord.Interaction[TurnpostBot], game_id: int, token: str, ok: bool
) -> None:
    t = interaction.client.tables
    uid = interaction.user.id
    lang = await t.lang_of(interaction)
    try:
        if not ok:
            await mod.cancel_request(t.svc, game_id, token, uid)
            await interaction.response.edit_message(
                content=tr(lang, "bot.mod.cancelled"), view=None
            )
            return
        rec = await t.svc.places.record(game_id)
        lang = await t.lang_of(interaction, rec)
        pend = mod.pending_request(rec)
        voted = pend is not None and pend.op == "abandon" and bool(pend.data.get("vote"))
        host = rec.status is GameStatus.LOBBY and rec.settings.host_user_id == uid
        if not (voted or host or is_moderator(interaction)):
            await t.reply(interaction, mod.not_moderator(lang))
            return
        req = None
        if pend is None or pend.token != token or pend.by != uid:
            # gone or not theirs: refused, and nothing is taken
            req = await mod.take_request(t.svc, game_id, token, uid)
    except mod.Refused as e:
        await t.reply(interaction, e.text(lang))
        return
    # acknowledged before the request is taken: a press past Discord's 3 s deadline takes
    # nothing, and the moderator's retry works
    await interaction.response.edit_message(content=tr(lang, "bot.mod.working"), view=None)
    if req is None:
        try:
            req = await mod.take_request(t.svc, game_id, token, uid)
        except mod.Refused as e:
            await interaction.edit_original_response(content=e.text(lang))
            return
    if req["op"] == "rollback":
        await _do_rollback(interaction, rec, req, lang)
    elif req["op"] == "abandon":
        await _do_abandon(interaction, rec, lang, voted=voted)


async def _do_rollback(
    interaction: discord.Interaction[TurnpostBot],
    rec: GameRecord,
    req: dict[str, Any],
    lang: str,
) -> None:
    t = interaction.client.tables
    async with t.lock(rec.id):
        try:
            res = await mod.rollback(
                t.svc,
                rec.id,
                int(req["target"]),
                by=interaction.user.id,
                reason=str(req["reason"]),
                expected_version=int(req["version"]),
                lang=game_language_of(rec),
            )
        except mod.Refused as e:
            await interaction.edit_original_response(content=e.text(lang))
            return
        await t.publish(res, interaction=interaction, force=True)
    await interaction.edit_original_response(
        content=tr(lang, "bot.mod.rolled_back", version=req["target"])
    )


async def _do_abandon(
    interaction: discord.Interaction[TurnpostBot], rec: GameRecord, lang: str, *, voted: bool
) -> None:
    t = interaction.client.tables
    if voted:
        try:
            vote = await mod.abandon_vote(t.svc, rec.id, interaction.user.id)
        except mod.Refused as e:
            await interaction.edit_original_response(content=e.text(lang))
            return
        if not vote.done:
            await interaction.edit_original_response(content=tr(lang, "bot.mod.not_all_agree"))
            return
    async with t.lock(rec.id):
        try:
            done = await mod.abandon(t.svc, rec.id)
        except mod.Refused as e:
            await interaction.edit_original_response(content=e.text(lang))
            return
    public = game_language_of(rec)
    by = f"<@{interaction.user.id}>"
    lobby = rec.status is GameStatus.LOBBY
    if voted:
        key = "bot.mod.abandoned_lobby_all" if lobby else "bot.mod.abandoned_game_all"
    else:
        key = "bot.mod.abandoned_lobby_by" if lobby else "bot.mod.abandoned_game_by"
    channel = interaction.client.get_partial_messageable(rec.channel_id)
    none = discord.AllowedMentions.none()
    await channel.send(tr(public, key, game=rec.id, by=by), allowed_mentions=none)
    mid = done.settings.status_message_id
    if mid is not None:
        status = "bot.mod.status_all" if voted else "bot.mod.status_by"
        try:
            await channel.get_partial_message(mid).edit(
                view=status_layout(tr(public, status, game=rec.id, by=by), lang=public),
                allowed_mentions=none,
            )
        except discord.HTTPException as e:
            log.info("status message of game %s not edited: %s", rec.id, e)
    await ThreadDesk.of(t).closed(done)  # its own thread: tagged finished and archived
    await interaction.edit_original_response(content=tr(lang, "bot.mod.abandoned", game=rec.id))
