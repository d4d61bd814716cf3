"""The bot's metrics (prometheus-client), surface-neutral: what the service counts and times,
exposed by the surface that serves ``/metrics`` (the Discord bot's ops server).

Names start with ``turnpost_``. Labels take few values (an operation's name, a kind), never a
game, a user or anything hidden.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)
"""The bot's own registry (tests and several services in one process share it)."""

_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)

STEPS = Counter("turnpost_steps_applied", "Actions applied and saved", registry=REGISTRY)
CONFLICTS = Counter(
    "turnpost_version_conflicts",
    "Saves refused because the game changed meanwhile (another writer)",
    registry=REGISTRY,
)
STORE_SECONDS = Histogram(
    "turnpost_store_seconds",
    "Time of the service's store calls, by operation",
    ["op"],
    buckets=_FAST,
    registry=REGISTRY,
)
RENDER_SECONDS = Histogram(
    "turnpost_render_seconds",
    "Time to draw one image, by kind",
    ["kind"],
    buckets=_SLOW,
    registry=REGISTRY,
)
IMAGE_FALLBACKS = Counter(
    "turnpost_image_fallbacks",
    "Pictures drawn by the cheaper fallback in the surface's process, by why "
    "(failed, late, superseded: the worker's drawing)",
    ["why"],
    registry=REGISTRY,
)
AI_SECONDS = Histogram(
    "turnpost_ai_decision_seconds",
    "Time of one computer player's decision, by level",
    ["level"],
    buckets=_SLOW,
    registry=REGISTRY,
)
ACTIVE_GAMES = Gauge(
    "turnpost_active_games", "Running games (as the last pacing tick saw them)", registry=REGISTRY
)
INTERACTION_ERRORS = Counter(
    "turnpost_interaction_errors",
    "Interactions that failed: an unexpected error (answered privately), or Discord's refusal "
    "of the answer (late: after its 3 s; acknowledged: twice; expired: a token past 15 "
    "minutes; saved: a step saved whose post failed), by kind",
    ["kind"],
    registry=REGISTRY,
)
_ANSWER = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
"""Seconds to an interaction's first answer: Discord drops an interaction not answered within
3 s, so the buckets are fine up to there."""

INTERACTION_FIRST_RESPONSE = Histogram(
    "turnpost_interaction_first_response_seconds",
    "Seconds from an interaction's creation (its snowflake's time, or when the bot received "
    "it) to the bot's first answer (a defer counts), by kind (command, button, select, modal) "
    "and name (the command's name, or the component's custom-id prefix such as brz:t)",
    ["kind", "name"],
    buckets=_ANSWER,
    registry=REGISTRY,
)
INTERACTION_SECONDS = Histogram(
    "turnpost_interaction_seconds",
    "Seconds from an interaction's creation to the end of its handler (everything it posted "
    "and answered), by kind and name",
    ["kind", "name"],
    buckets=_SLOW,
    registry=REGISTRY,
)
COMMAND_REFUSALS = Counter(
    "turnpost_command_refusals",
    "Slash commands and buttons the user got a refusal or an error message for, by command "
    "(or the button's kind) and reason (a message key of the refusal, no_game, no_seat, "
    "fault, or the check's kind)",
    ["command", "reason"],
    registry=REGISTRY,
)
REMINDER_LATENESS = Histogram(
    "turnpost_reminder_lateness_seconds",
    "How late a reminder or deadline action fired after it was due",
    buckets=(1, 5, 15, 30, 60, 120, 300, 900, 3600),
    registry=REGISTRY,
)


@contextmanager
def timed(h: Histogram, *labels: str) -> Iterator[None]:
    """Observe the time the block takes in ``h`` (with ``labels``), even if it raises."""
    t = time.perf_counter()
    try:
        yield
    finally:
        (h.labels(*labels) if labels else h).observe(time.perf_counter() - t)
