"""The guided turn on Discord: "Take my turn" opens the decider's menu of legal commands
(grouped by their first words), a choice asks for confirmation with its cost and default
payment, "Change payment" walks the payment one token at a time, "Confirm" plays it.

Each press reads the game once (:meth:`service.game.GameService.peek`), answers or defers,
and a Confirm writes through one session that reuses that read: one load, one validation and
one listing of the decider's choices per press.

A Confirm acknowledges the press before the service is called (a press past Discord's 3 s
deadline changes nothing); the "Done" or the next menu after it is a follow-up of the
interaction, dropped quietly when Discord no longer takes it (its token expired after 15
minutes: the player's next press starts afresh). A Take-my-turn press of an older post when
the game's turn post is gone (a moderator deleted it) opens the guided flow of the decision
now, for the player who decides now, and asks the publisher to post the turn again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

import i18n
from bot.discord_views import (
    NO_LONGER_KEY,
    NO_SEAT_KEY,
    NOT_YOUR_TURN_KEY,
    Step,
    confirm_view,
    guided_step,
    pay_view,
    step_view,
)
from bot.errors import unless_expired
from bot.hub import Hub
from bot.ops import note_refusal
from bot.turns import Turns
from i18n import tr
from i18n.notation import localize
from service.games import PaymentChooser
from service.labels import Choice

if TYPE_CHECKING:
    from service.game import GameSession

log = logging.getLogger("bot.flow")


class GuidedFlow:
    """The guided turn's menus and buttons (see module doc)."""

    def __init__(self, hub: Hub, turns: Turns) -> None:
        self.t = hub
        self.turns = turns

    async def decider(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int | None,
        *,
        lost: bool = False,
    ) -> tuple[int, GameSession, str] | None:
        """The presser's seat, the game read once and the presser's language, when the
        presser decides now at ``version``; says why not otherwise (in their language).
        ``lost``: an older version is taken too when the game's turn post is gone
        (:meth:`turn_post_gone`): the caller goes on at the game's version."""
        s = await self.t.svc.peek(game_id)
        lang = await self.t.lang_of(interaction, s)
        why = None
        seat = s.seat_of(interaction.user.id)
        if not s.rec.status.is_active:
            why = "bot.flow.over"
        elif seat is None:  # a spectator (issue 22): not "not your turn"
            why = NO_SEAT_KEY
        elif not s.decides(seat):
            why = NOT_YOUR_TURN_KEY
        elif (
            version is not None
            and s.version != version
            and not (lost and await self.turn_post_gone(interaction, s))
        ):
            why = NO_LONGER_KEY
        if why is not None or seat is None:
            note_refusal(interaction, why or NO_SEAT_KEY)  # counted in /metrics by its key
            await self.t.reply(interaction, tr(lang, why or NO_SEAT_KEY))
            return None
        return seat, s, lang

    @staticmethod
    def choices(s: GameSession, seat: int, lang: str) -> list[Choice]:
        """The seat's legal actions as menu choices labelled in ``lang`` (its game's
        adapter's: Brazil: Imperial's names, Tigris's commands in the reader's words)."""
        return s.choices(seat, lang=lang)

    async def turn_post_gone(self, interaction: discord.Interaction[Any], s: GameSession) -> bool:
        """Whether the game's turn post (the one with the buttons of the game's version) is
        gone from the channel: none kept, or deleted (a moderator's doing). A press of that
        very post (an older copy of it) says it is there; a post that cannot be read (no
        permission, Discord failing) counts as there."""
        post = s.rec.settings.open_post
        if post is None:
            return True
        pressed = interaction.message
        if pressed is not None and pressed.id == post.message_id:
            return False
        channel = self.t.client.get_partial_messageable(s.channel_id)
        try:
            await channel.get_partial_message(post.message_id).fetch()
        except discord.NotFound:
            return True
        except discord.HTTPException as e:
            log.info("game %s's turn post %s not read: %s", s.game_id, post.message_id, e)
        return False

    async def open_flow(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> None:
        got = await self.decider(interaction, game_id, version, lost=True)
        if got is None:
            return
        seat, s, lang = got
        step = guided_step(self.choices(s, seat, lang), lang=lang, group=s.A.group_label)
        await self.t.reply(
            interaction, step_text(step, lang=lang), view=step_view(game_id, s.version, step, lang)
        )
        if s.version != version:  # the turn post is gone: the publisher posts it again
            await self.repost(game_id)

    async def repost(self, game_id: int) -> None:
        """Ask the publisher to post the game's turn again (:meth:`Publisher.repost`: under
        the game's lock, only while its turn post is gone); a failure is logged (the player
        has their menu)."""
        try:
            await self.turns.publisher.repost(game_id)
        except Exception:
            log.exception("game %s's turn post not posted again", game_id)

    async def flow_choice(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, value: str
    ) -> None:
        got = await self.decider(interaction, game_id, version)
        if got is None:
            return
        seat, s, lang = got
        chosen = self.choices(s, seat, lang)
        if value.startswith("i:") and value[2:].isdigit() and int(value[2:]) < len(chosen):
            i = int(value[2:])
            cost = ""
            if s.A.has_payments and isinstance(s.A, PaymentChooser):
                cost = s.A.cost_line(s.state, chosen[i].action, lang)
            text = confirm_text(chosen[i], lang, s.game)
            text += "\n" + tr(lang, "bot.flow.confirm_q", cost=cost)
            await interaction.response.edit_message(
                content=text,
                view=confirm_view(game_id, version, i, payable=bool(cost), lang=lang),
            )
            return
        prefix = value[2:] if value.startswith("p:") else ""
        step = guided_step(chosen, prefix, lang, group=s.A.group_label)
        await interaction.response.edit_message(
            content=step_text(step, lang=lang), view=step_view(game_id, version, step, lang)
        )

    @staticmethod
    def paid_action(s: GameSession, seat: int, index: int, path: Sequence[int]) -> Any:
        """Legal action ``index`` of ``seat`` and the payment step the option numbers
        ``path`` lead to (None if they no longer make sense)."""
        acts = s.legal(seat)
        if not 0 <= index < len(acts):
            return None
        action = acts[index]
        step = s.payment_path(action, path)
        return None if step is None else (action, step)

    async def pay_step(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        index: int,
        path: Sequence[int],
    ) -> None:
        """ "Change payment": the next token to pay and the sources that may pay it (from
        ``rules.payment_step``), one menu per token, until the payment is complete."""
        got = await self.decider(interaction, game_id, version)
        if got is None:
            return
        seat, s, lang = got
        found = self.paid_action(s, seat, index, path)
        A = s.A  # the game's adapter: its words for the action and the payment
        if found is None or not isinstance(A, PaymentChooser):
            note_refusal(interaction, NO_LONGER_KEY)
            await self.t.reply(interaction, tr(lang, NO_LONGER_KEY))
            return
        action, step = found
        head = f"**{A.action_label(s.state, action, lang).text}** (`{typed(s.describe(action), lang, s.game)}`)"
        head += f" — {A.cost_text(step.cost, lang)}"
        paid = ", ".join(A.pay_item_text(s.state, seat, p, lang) for p in step.chosen)
        lines = [
            head,
            tr(lang, "bot.pay.so_far", paid=paid) if paid else tr(lang, "bot.pay.nothing_yet"),
        ]
        if step.complete:
            lines.append(tr(lang, "bot.pay.confirm_q"))
        else:
            lines.append(A.pay_prompt(step, lang))
            if len(step.options) > 25:
                lines.append(tr(lang, "bot.pay.more_sources"))
        await interaction.response.edit_message(
            content="\n".join(lines)[:1990],
            view=pay_view(
                game_id,
                version,
                index,
                path,
                A.pay_options(step, lang),
                complete=step.complete,
                lang=lang,
            ),
        )

    async def confirm(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        index: int,
        *,
        path: Sequence[int] | None = None,
    ) -> None:
        got = await self.decider(interaction, game_id, version)
        if got is None:
            return
        seat, s, lang = got
        action = None
        if path is not None:
            found = self.paid_action(s, seat, index, path)
            if found is None or not found[1].complete:
                note_refusal(interaction, NO_LONGER_KEY)
                await self.t.reply(interaction, tr(lang, NO_LONGER_KEY))
                return
            action = found[0].replace(payment=found[1].payment)
        await interaction.response.defer()
        played = await self.turns.act(
            interaction,
            game_id,
            seat,
            index=index,
            version=version,
            action=action,
            loaded=s,
        )
        if played is None or played.refused:
            return
        now = played.game  # the game the press left: its next menu listed once from it
        with unless_expired(interaction, "the guided flow's next menu"):
            if now.decides(seat) and not now.over:
                step = guided_step(now.choices(seat, lang=lang), lang=lang, group=s.A.group_label)
                await interaction.edit_original_response(
                    content=step_text(step, tr(lang, "bot.flow.still_yours"), lang=lang),
                    view=step_view(game_id, now.version, step, lang),
                )
            else:
                await interaction.edit_original_response(
                    content=tr(lang, "bot.flow.done"), view=None
                )


def typed(command: str, lang: str, game: str) -> str:
    """A command of ``game``'s notation as the reader may type it: in their language's
    words."""
    return command if lang in (i18n.DEFAULT, i18n.PSEUDO) else localize(command, lang, game)


def confirm_text(choice: Choice, lang: str, game: str) -> str:
    """A chosen action before Confirm: its name first, the command one may type after (in
    code, in the reader's words), then what it is worth or does."""
    desc = f"\n{choice.label.description}" if choice.label.description else ""
    return f"**{choice.label.text}** · `{typed(choice.command, lang, game)}`{desc}"


def step_text(step: Step, head: str = "", *, lang: str = "en") -> str:
    more = "\n" + tr(lang, "bot.flow.more", n=step.more) if step.more else ""
    return (head + "\n" if head else "") + step.prompt + more
