"""Acting on Discord: a typed ``/play``, a guided turn's Confirm (through :mod:`bot.flow`),
``/undo`` and the Undo button — each one session of the game in the service (the game read
once, the command applied and saved, the AI seats played, the posts published in order).

The interaction is acknowledged (deferred) before the service is called: a press Discord no
longer accepts (its 3 s deadline passed) changes nothing. Once the step is saved the
interaction is marked so (:func:`bot.errors.mark_saved`); a post Discord refused after the
save does not undo it: the player is told their move was saved and will be shown
(:func:`bot.errors.mark_not_shown`), and the game stays marked unposted (caught up later)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord_views import NO_SEAT_KEY
from bot.errors import mark_not_shown, mark_saved, not_shown, unless_expired
from bot.hub import Hub
from bot.publisher import Publisher
from i18n import tr
from service import Frame, Post, Result
from service.game import GameSession
from service.results import Refused, Shown
from service.turn import Played, Show

log = logging.getLogger("bot.turns")


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
        played = await self.act(interaction, s.game_id, seat, text=command, loaded=s)
        if played is not None and not played.refused:
            lang = await self.t.lang_of(interaction, s)
            text = tr(lang, "bot.play.done", command=command[:200])
            with unless_expired(interaction, "the play's answer"):
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
    ) -> Played | None:
        """Apply a typed command or the legal action number ``index`` (checked against
        ``version``; ``action``: that action already chosen, with its payment) and everything
        after it — one call of the service (:meth:`service.turn.TurnService.press`), which
        hands the publisher what to post. A typed command is read in the actor's language's
        words (``loaded``: the game as the caller read it). Errors go privately to the actor,
        in their language; None when the choice is no longer on offer. Returns what the
        service did (the game as it now stands: its next menu is listed from it once)."""
        self.t.in_flight += 1
        try:
            lang = await self.t.lang_of(interaction, loaded)
            try:
                played = await self.t.svc.turns.press(
                    game_id,
                    seat,
                    text=text,
                    index=index,
                    version=version,
                    action=action,
                    lang=lang,
                    loaded=loaded,
                    show=self.shown(
                        interaction, self.publisher.show(interaction=interaction, actor=seat), seat
                    ),
                    on_step=lambda step: self._saved(interaction, step),
                    pause=self.t.auto_answer_pause,
                )
            except Refused as e:
                await self.t.reply(interaction, e.text(lang))
                return None
            res = played.command
            if res.errors:
                msg = "\n".join(
                    tr(lang, "bot.play.failed", error=e.text_in(lang)) for e in res.errors
                )
                await self.t.reply(interaction, msg)
                return played
            res.next = played.game.decisions(choices=False)
            await self.tell_not_shown(interaction, lang)
            return played
        finally:
            self.t.in_flight -= 1

    @staticmethod
    def _saved(interaction: discord.Interaction[Any], step: Result) -> None:
        """The service's ``on_step``: the press's own step (the first) saved."""
        if step.applied and not step.errors:
            mark_saved(interaction)

    def shown(
        self, interaction: discord.Interaction[Any], publish: Show, actor: int | None = None
    ) -> Show:
        """The publisher's ``show`` for a press: called once the step is saved (so marked),
        a refusal of Discord or a fault while publishing is logged and leaves the game
        unposted (caught up later) rather than failing the press — and the private news
        the publisher did not reach is delivered still (:meth:`deliver_private`); a
        ``Shown`` telling the turn was not announced (``announced``: False) counts as not
        shown."""

        async def show(played: Played) -> Shown:
            mark_saved(interaction)
            try:
                shown = await publish(played)
            except discord.HTTPException as e:
                log.warning("game %s: step saved, its post refused: %s", played.game.game_id, e)
            except Exception:
                log.exception("game %s: step saved, its post failed", played.game.game_id)
            else:
                if not getattr(shown, "announced", True):
                    mark_not_shown(interaction)
                return shown
            mark_not_shown(interaction)
            await self.deliver_private(played, interaction, actor)
            return Shown(False)

        return show

    async def deliver_private(
        self, played: Played, interaction: discord.Interaction[Any], actor: int | None
    ) -> None:
        """The private news of ``played`` (the publisher delivers it last: a failure before
        left it undelivered), through the private desk: nothing is lost (the catch-up
        announces only the public steps)."""
        s = played.game
        posts: list[Post] = []
        frames: dict[int, Frame] = {}
        for r in (played.command, *played.steps):
            frames.update(r.frames)
            for p in r.posts:
                if p.audience == "public":
                    continue
                seat = int(p.audience)
                if seat < len(s.seats) and s.seats[seat].ai:
                    continue  # an AI's private news: nobody reads it
                posts.append(p)
        if not posts:
            return
        try:
            await self.publisher.private.deliver(s, posts, interaction, actor, frames=frames)
        except Exception:
            log.exception("game %s: private news not delivered", s.game_id)

    async def tell_not_shown(self, interaction: discord.Interaction[Any], lang: str) -> None:
        """Say privately, when the press's saved step could not be published, that it was
        saved and will be shown (a follow-up Discord no longer takes is dropped)."""
        if not_shown(interaction):
            with unless_expired(interaction, "the saved-not-posted answer"):
                await self.t.reply(interaction, tr(lang, "bot.error.saved_not_posted"))

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
        try:
            played = await self.t.svc.turns.undo(
                gid,
                seat,
                version=version,
                loaded=s,
                show=self.shown(
                    interaction,
                    self.publisher.show(interaction=interaction, actor=seat, force=True),
                    seat,
                ),
                lang=lang,
            )
        except Refused as e:
            await self.t.reply(interaction, e.text(lang))
            return
        if played.refused:
            errors = played.command.errors
            await self.t.reply(interaction, "\n".join(e.message_in(lang) for e in errors))
            return
        await self.tell_not_shown(interaction, lang)
        with unless_expired(interaction, "the undo's answer"):
            await interaction.followup.send(tr(lang, "bot.undo.done"), ephemeral=True)

    async def publish(
        self,
        res: Result,
        *,
        interaction: discord.Interaction[Any] | None = None,
        actor: int | None = None,
        force: bool = False,
    ) -> None:
        """Announce ``res`` (made outside a turn: moderation, pacing, a lobby's start) and
        everything after it, in one session of its game, as a new post (a moderator's or the
        clock's doing, not the turn's step)."""
        await self.t.svc.turns.announce(
            res,
            show=self.publisher.show(interaction=interaction, actor=actor, force=force, anew=True),
            pause=self.t.auto_answer_pause,
        )
