"""The fake Discord server lives in the package now (``devtools.fakediscord``: the load test
uses it at run time); this module re-exports it for the tests."""

from devtools.fakediscord import (
    APP_ID,
    BOT_ID,
    EPHEMERAL,
    GUILD_ID,
    IS_V2,
    FakeDiscord,
    Faults,
    Harness,
    Request,
    components_of,
    custom_ids,
    user,
    walk_components,
)

__all__ = [
    "APP_ID",
    "BOT_ID",
    "EPHEMERAL",
    "GUILD_ID",
    "IS_V2",
    "FakeDiscord",
    "Faults",
    "Harness",
    "Request",
    "components_of",
    "custom_ids",
    "user",
    "walk_components",
]
