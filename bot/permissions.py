"""The Discord permissions the bot needs, in one place: the invite URL
(``python -m turnpost invite-url``), ``/setup check`` and the set-up guide
(``docs/ops/discord.md``, whose integer a test compares with :data:`REQUIRED`) all read them.

Each permission is one :class:`Need`: the flag's name in :class:`discord.Permissions`, why the
bot needs it (what the code calls), and where it matters — ``channel`` (a game's text
channel), ``thread`` (a game run inside a thread or a forum post). What a missing permission
costs is said to users in their language: ``setup.perm.<flag>`` is Discord's own name of the
permission in the user's client, ``setup.without.<flag>`` what the bot does without it.

Not needed, on purpose: *Embed Links* (the posts are Components V2 layouts, not embeds; the
permission gates embeds only), *Manage Messages* (pinning is *Pin Messages* since Discord split
it off; the bot deletes only its own posts), *Add Reactions* and *Use External Emojis* (none
used), *Mention Everyone* (the bot pings only the player who must decide). Optional, and so not
asked for: *Manage Threads* (posting in a game thread a moderator locked) and *Manage
Channels* on a games forum (its tags created); without them the bot says what it cannot do.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlencode

import discord

Where = Literal["channel", "thread"]

SCOPES = ("bot", "applications.commands")
"""The OAuth2 scopes of the invite: the bot user, and its slash commands."""


@dataclass(frozen=True)
class Need:
    """One permission the bot needs (see module doc)."""

    flag: str
    why: str
    where: tuple[Where, ...] = ("channel", "thread")


NEEDS: tuple[Need, ...] = (
    Need("view_channel", "see the channel and its game"),
    Need(
        "send_messages",
        "post the turns, the status message, reminders and the lobby in a game's channel",
        ("channel",),
    ),
    Need(
        "send_messages_in_threads",
        "post in threads: a game played in a thread or a forum post, a player's private "
        "thread for /hand",
    ),
    Need(
        "create_public_threads",
        "open each game's own thread from its lobby post in a text channel (without it a game "
        "takes its channel)",
        ("channel",),
    ),
    Need(
        "create_private_threads",
        "open a player's private thread (/hand where:thread)",
        ("channel",),
    ),
    Need("attach_files", "attach the board's picture to the turn posts (and the final pictures)"),
    Need(
        "read_message_history",
        "read the channel's recent posts after a restart (a turn is never posted twice) and "
        "a turn post's pictures when a battle report is added to it",
    ),
    Need("pin_messages", "pin the game's status message"),
)
"""Every permission the bot needs, in the order ``/setup check`` lists them."""


def permissions(needs: Iterable[Need] = NEEDS) -> discord.Permissions:
    """The permissions of ``needs`` together."""
    return discord.Permissions(**{n.flag: True for n in needs})


REQUIRED: discord.Permissions = permissions()
"""The bot's permissions: the invite URL's ``permissions=`` integer."""


def needed_in(where: Where) -> tuple[Need, ...]:
    """The permissions that matter in a channel of that kind."""
    return tuple(n for n in NEEDS if where in n.where)


def where_of(channel_type: discord.ChannelType | int | None) -> Where:
    """``thread`` for a thread (public, private or announcement) or a forum or media channel
    (its games run in its posts, which are threads); else ``channel``."""
    value = channel_type.value if isinstance(channel_type, discord.ChannelType) else channel_type
    return "thread" if value in (10, 11, 12, 15, 16) else "channel"


def missing(have: discord.Permissions, where: Where) -> tuple[Need, ...]:
    """What the bot lacks of what matters there (an administrator lacks nothing)."""
    if have.administrator:
        return ()
    return tuple(n for n in needed_in(where) if not getattr(have, n.flag))


# ---------------------------------------------------------------------- the invite URL


class NoClientId(ValueError):
    """The application's id could not be told (no ``--client-id``, no readable token)."""


def client_id_of_token(token: str) -> int:
    """The application's id a bot token names, offline: a token's first part is the bot
    user's id in base64, and a bot user's id is its application's id."""
    head = token.strip().split(".", 1)[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise NoClientId("the token does not start with a base64 id") from None
    if not text.isdigit():
        raise NoClientId("the token does not start with a base64 id")
    return int(text)


def invite_url(client_id: int, perms: discord.Permissions = REQUIRED) -> str:
    """The OAuth2 URL that adds the bot to a server with :data:`SCOPES` and ``perms``."""
    query = urlencode(
        {"client_id": client_id, "permissions": perms.value, "scope": " ".join(SCOPES)}
    )
    return f"https://discord.com/oauth2/authorize?{query}"
