"""The surface-neutral application: the game service every surface calls (Discord cogs, the
terminal, AI seats), and the rules it keeps that are not the game's — moderation, pacing
arithmetic, the rules reference. Nothing here imports ``discord`` or a surface.

    from service import GameService, Result
"""

from service.game import Agent, GameService, WorkerPool, make_agent, render_image
from service.results import (
    Decision,
    ErrorInfo,
    Frame,
    GameInfo,
    ImageRequest,
    Post,
    Refused,
    Result,
    ScoreRow,
    SeatSpec,
)

__all__ = [
    "Agent",
    "Decision",
    "ErrorInfo",
    "Frame",
    "GameInfo",
    "GameService",
    "ImageRequest",
    "Post",
    "Refused",
    "Result",
    "ScoreRow",
    "SeatSpec",
    "WorkerPool",
    "make_agent",
    "render_image",
]
