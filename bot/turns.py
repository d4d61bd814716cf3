"""Acting on Discord: a typed ``/play``, a guided turn's Confirm (through :mod:`bot.flow`),
``/undo`` and the Undo button — each one session of the game in the service (the game read
once, the command applied and saved, the AI seats played, the posts published in order)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from bot.discord_views import NO_LONGER_KEY, NO_SEAT_KEY
from bot.hub import Hub
from bot.publisher import Publisher
from i18n import tr
from service import Result
from service.game import GameSession


class Turns:
    """Typed commands, confirmed choices and undo (see module doc)."""

    def __init__(self, hub: Hub, publisher: Publisher) -> None:
        self.t = hub
        self.publisher = publisher

    async def play(self, interaction: discord.Interaction[Any], command: str) -> None:
        """``/play COMMAND``: the typed command of the user's seat, read once and applied."""
        s = await self.t.seated_session(interaction)
        if s is None:
            return
        seat = s.seat_of(interaction.user.id)
        assert seat is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        res = await self.act(interaction, s.game_id, seat, text=command, loaded=s)
        if res is not None and not res.errors:
            lang = await self.t.lang_of(interaction, s)
            text = tr(lang, "bot.play.done", command=command[:200])
            await interaction.followup.send(text, ephemeral=True)

    async def act(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        seat: int,
        *,
        text: str | None = None,
        index: int | None = None,
        version: int | None = None,
        action: Any = None,
        loaded: GameSession | None = None,
        choices_for: int | None = None,
    ) -> Result | None:
        """Apply a typed command or the legal action number ``index`` (checked against
        ``version``; ``action``: that action already chosen, with its payment), publish, let
        the AI seats play — in one session of the game (``loaded``: the game as the caller
        read it). A typed command is read in the actor's language's words. Errors go
        privately to the actor, in their language. ``choices_for``: a seat whose commands
        to list in the result if it still decides (the guided flow's next menu)."""
        self.t.in_flight += 1
        try:
            async with self.t.svc.session(game_id, loaded=loaded) as s:
                lang = await self.t.lang_of(interaction, s)
                if index is not None:
                    if s.version != version:
                        await self.t.reply(interaction, tr(lang, NO_LONGER_KEY))
                        return None
                    if action is None:
                        acts = s.legal(seat)
                        if not 0 <= index < len(acts):
                            await self.t.reply(interaction, tr(lang, NO_LONGER_KEY))
                            return None
                        action = acts[index]
                    res = await s.choose(seat, action, choices=False)
                else:
                    res = await s.act(seat, text or "", choices=False, lang=lang)
                if res.errors:
                    msg = "\n".join(
                        tr(lang, "bot.play.failed", error=e.text_in(lang)) for e in res.errors
                    )
                    await self.t.reply(interaction, msg)
                    return res
                await self.t.svc.lobbies.colour_wishes(s, res)
                await self.publisher.publish(s, res, interaction=interaction, actor=seat)
                res.next = s.decisions(choices=False)
                if choices_for is not None and s.decides(choices_for):
                    res.next = [
                        d
                        if d.seat != choices_for
                        else replace(d, choices=tuple(s.legal_texts(choices_for)))
                        for d in res.next
                    ]
                return res
        finally:
            self.t.in_flight -= 1

    async def undo(
        self, interaction: discord.Interaction[Any], gid: int, *, version: int | None = None
    ) -> None:
        """``/undo`` or the turn post's Undo button (``version``: the post's): the presser's
        newest step taken back while the engine allows it, posted publicly ("Ana (red) took
        back: ..."), the status message updated and the turn's buttons posted again at the
        new version; a refusal says why, privately."""
        s = await self.t.svc.peek(gid)
        lang = await self.t.lang_of(interaction, s)
        seat = s.seat_of(interaction.user.id)
        if seat is None:
            await self.t.reply(interaction, tr(lang, NO_SEAT_KEY))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.t.svc.session(gid, loaded=s) as s:
            if version is not None and s.version != version:
                await self.t.reply(interaction, tr(lang, NO_LONGER_KEY))
                return
            res = await self.t.svc.undo_in(s, seat)
            if res.errors:
                await self.t.reply(interaction, "\n".join(e.message_in(lang) for e in res.errors))
                return
            await self.publisher.publish(s, res, interaction=interaction, actor=seat, force=True)
        await interaction.followup.send(tr(lang, "bot.undo.done"), ephemeral=True)

    async def publish(
        self,
        channel_id: int,
        res: Result,
        *,
        interaction: discord.Interaction[Any] | None = None,
        actor: int | None = None,
        force: bool = False,
    ) -> None:
        """Publish ``res`` (made outside a session: moderation, pacing) in one session of
        its game, as a new post (a moderator's or the clock's doing, not the turn's step)."""
        async with self.t.svc.session(res.game_id) as s:
            await self.publisher.publish(
                s, res, interaction=interaction, actor=actor, force=force, anew=True
            )
