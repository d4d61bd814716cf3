"""The Discord side of the bot's games: what cogs and buttons call, a thin adapter over
:class:`service.GameService` (no rules and no storage here).

An interaction becomes one service call: the game is read once
(:meth:`~service.game.GameService.peek` or a session), a command is applied and saved in the
service, and the :class:`~service.Result` becomes messages — its public posts gathered per
turn into one Components V2 post with the map (:mod:`bot.publisher`), its private posts as
ephemeral replies or private news (:mod:`bot.private`), errors privately, in plain words.
The jobs live in their own modules: the lobby (:mod:`bot.lobby`), the guided turn and its
payment chooser (:mod:`bot.flow`), publishing (:mod:`bot.publisher`) and private looks
(:mod:`bot.private`); :class:`Tables` holds them together with the service and the settings.
Lasting messages are sent with the bot token (interaction tokens expire after 15 minutes).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord_views import (
    BackButton,
    ChoiceSelect,
    ColourSelect,
    ConfirmButton,
    GameItem,
    HandButton,
    LobbyButton,
    PayButton,
    PayConfirmButton,
    PaySelect,
    TurnButton,
    UndoButton,
)
from bot.errors import bind_interaction
from bot.flow import GuidedFlow
from bot.hub import Hub
from bot.lobby import LobbyDesk
from bot.private import PrivateDesk
from bot.publisher import Publisher
from bot.settings import BotSettings
from bot.turns import Turns
from service import GameService
from service.results import Status

log = logging.getLogger("bot.tables")


class Tables(Hub):
    """Every game the bot runs, seen from Discord (one per channel): the hub and its desks."""

    def __init__(self, client: discord.Client, service: GameService, settings: BotSettings):
        super().__init__(client, service, settings)
        self.private = PrivateDesk(self)
        self.publisher = Publisher(self, self.private)
        self.turns = Turns(self, self.publisher)
        self.flow = GuidedFlow(self, self.turns)
        self.lobby = LobbyDesk(self, self.publisher)

    async def press(self, interaction: discord.Interaction[Any], item: GameItem[Any]) -> None:
        """A press of one of the game's persistent buttons or menus, handed to its desk (the
        router of :class:`bot.discord_views.GameItem`)."""
        bind_interaction(interaction)
        match item:
            case LobbyButton():
                await self.lobby.lobby_press(interaction, item.game_id, item.op)
            case ColourSelect():
                await self.lobby.lobby_colour(interaction, item.game_id, item.choice)
            case TurnButton():
                await self.flow.open_flow(interaction, item.game_id, item.version)
            case UndoButton():
                await self.turns.undo(interaction, item.game_id, version=item.version)
            case HandButton():
                await self.private.show_hand(interaction, item.game_id)
            case ChoiceSelect():
                await self.flow.flow_choice(interaction, item.game_id, item.version, item.choice)
            case ConfirmButton():
                await self.flow.confirm(interaction, item.game_id, item.version, item.index)
            case PayButton():
                await self.flow.pay_step(
                    interaction, item.game_id, item.version, item.index, item.path
                )
            case PaySelect():
                if item.choice.isdigit():
                    path = (*item.path, int(item.choice))
                    await self.flow.pay_step(
                        interaction, item.game_id, item.version, item.index, path
                    )
            case PayConfirmButton():
                await self.flow.confirm(
                    interaction, item.game_id, item.version, item.index, path=item.path
                )
            case BackButton():
                await self.flow.flow_choice(interaction, item.game_id, item.version, "p:")
            case _:
                raise TypeError(f"no handler for {type(item).__name__}")

    async def publish(self, res: Any, **kw: Any) -> None:
        """Publish a result made outside a session (moderation, pacing): see
        :meth:`bot.turns.Turns.publish`."""
        await self.turns.publish(res, **kw)

    def next_text(self, status: Status, lang: str = "en") -> tuple[str, list[int], list[str]]:
        return self.publisher.next_text(status, lang)

    async def timeline(self, game_id: int, budget: int) -> bytes | None:
        return await self.publisher.timeline(game_id, budget)

    async def recover(self, *, older_than: float | None = None) -> int:
        return await self.publisher.recover(older_than=older_than)
