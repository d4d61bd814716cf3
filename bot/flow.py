"""The guided turn on Discord: "Take my turn" opens the decider's menu of legal commands
(grouped by their first words), a choice asks for confirmation with its cost and default
payment, "Change payment" walks the payment one token at a time, "Confirm" plays it.

Each press reads the game once (:meth:`service.game.GameService.peek`), answers or defers,
and a Confirm writes through one session that reuses that read: one load, one validation and
one listing of the decider's choices per press.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_views import (
    NO_LONGER,
    NO_SEAT,
    NOT_YOUR_TURN,
    Step,
    confirm_view,
    guided_step,
    pay_view,
    step_view,
)
from bot.hub import Hub
from bot.turns import Turns
from service.labels import Choice, action_label, cost_line, pay_item_text
from service.labels import choices as choices_of

if TYPE_CHECKING:
    from service.game import GameSession


class GuidedFlow:
    """The guided turn's menus and buttons (see module doc)."""

    def __init__(self, hub: Hub, turns: Turns) -> None:
        self.t = hub
        self.turns = turns

    async def decider(
        self, interaction: discord.Interaction[Any], game_id: int, version: int | None
    ) -> tuple[int, GameSession] | None:
        """The presser's seat and the game read once, when the presser decides now at
        ``version``; says why not otherwise."""
        s = await self.t.svc.peek(game_id)
        if not s.rec.status.is_active:
            await self.t.reply(interaction, "This game is over.")
            return None
        seat = s.seat_of(interaction.user.id)
        if seat is None:  # a spectator (issue 22): not "not your turn"
            await self.t.reply(interaction, NO_SEAT)
            return None
        if not s.decides(seat):
            await self.t.reply(interaction, NOT_YOUR_TURN)
            return None
        if version is not None and s.version != version:
            await self.t.reply(interaction, NO_LONGER)
            return None
        return seat, s

    async def open_flow(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> None:
        got = await self.decider(interaction, game_id, version)
        if got is None:
            return
        seat, s = got
        step = guided_step(s.choices(seat))
        await self.t.reply(interaction, step_text(step), view=step_view(game_id, version, step))

    async def flow_choice(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, value: str
    ) -> None:
        got = await self.decider(interaction, game_id, version)
        if got is None:
            return
        seat, s = got
        chosen = s.choices(seat)
        if value.startswith("i:") and value[2:].isdigit() and int(value[2:]) < len(chosen):
            i = int(value[2:])
            cost = cost_line(s.state, chosen[i].action)
            text = confirm_text(chosen[i]) + f"\n{cost}Confirm?"
            await interaction.response.edit_message(
                content=text, view=confirm_view(game_id, version, i, payable=bool(cost))
            )
            return
        prefix = value[2:] if value.startswith("p:") else ""
        step = guided_step(chosen, prefix)
        await interaction.response.edit_message(
            content=step_text(step), view=step_view(game_id, version, step)
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
        seat, s = got
        found = self.paid_action(s, seat, index, path)
        if found is None:
            await self.t.reply(interaction, NO_LONGER)
            return
        action, step = found
        head = f"**{action_label(s.state, action).text}** (`{s.describe(action)}`)"
        head += f" — {step.cost.text}"
        paid = ", ".join(pay_item_text(s.state, seat, p) for p in step.chosen)
        lines = [head, f"Paid so far: {paid}" if paid else "Nothing paid yet."]
        if step.complete:
            lines.append("Confirm with this payment?")
        else:
            lines.append(step.prompt)
            if len(step.options) > 25:
                lines.append("(More sources than a menu shows: type it in `/play … pay …`.)")
        await interaction.response.edit_message(
            content="\n".join(lines)[:1990],
            view=pay_view(
                game_id,
                version,
                index,
                path,
                [o.label for o in step.options],
                complete=step.complete,
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
        seat, s = got
        action = None
        if path is not None:
            found = self.paid_action(s, seat, index, path)
            if found is None or not found[1].complete:
                await self.t.reply(interaction, NO_LONGER)
                return
            action = found[0].replace(payment=found[1].payment)
        await interaction.response.defer()
        res = await self.turns.act(
            interaction,
            game_id,
            seat,
            index=index,
            version=version,
            action=action,
            loaded=s,
        )
        if res is None or res.errors:
            return
        done = "Done."
        frame = res.frame()
        if frame is not None and any(d.seat == seat for d in res.next):
            # the next menu, listed once from the state the turn left (its frame)
            step = guided_step(choices_of(frame.state, seat))
            await interaction.edit_original_response(
                content=step_text(step, done + " Still yours:"),
                view=step_view(game_id, res.version, step),
            )
        else:
            await interaction.edit_original_response(content=done, view=None)


def confirm_text(choice: Choice) -> str:
    """A chosen action before Confirm: its name first, the command one may type after (in
    code), then what it is worth or does."""
    desc = f"\n{choice.label.description}" if choice.label.description else ""
    return f"**{choice.label.text}** · `{choice.command}`{desc}"


def step_text(step: Step, head: str = "") -> str:
    more = f"\n({step.more} more choices: type them with `/play`.)" if step.more else ""
    return (head + "\n" if head else "") + step.prompt + more
