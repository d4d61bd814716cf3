"""Who moderates the games in a channel: members with Manage Channel there (the permissions
Discord resolved for the interaction: :attr:`discord.Interaction.permissions`), or with the
role ``settings.moderator_role_id``. A leaf module (nothing of the app), used by the shared
checks (:mod:`bot.checks`) and the lobby (its creator or a moderator manages it)."""

from __future__ import annotations

from typing import Any

import discord

from service import moderation as mod


def has_role(interaction: discord.Interaction[Any], role_id: int) -> bool:
    """Whether the member who interacts has the role ``role_id``.

    Through the guild's role cache (:meth:`discord.Member.get_role`) when the guild is
    cached, as it is once the gateway delivered it (the ``guilds`` intent). Before that (or
    without a gateway: the test server feeds interactions directly) the guild is a
    placeholder without roles; the member's role ids then come only from the interaction's
    member payload, which discord.py keeps on the :class:`discord.Member` object alone
    (``Member._roles``, read here and nowhere else)."""
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    if member.get_role(role_id) is not None:
        return True
    if interaction.client.get_guild(member.guild.id) is not None:
        return False  # a cached guild knows its roles: the member does not have it
    raw: Any = getattr(member, "_roles", ())  # role ids of the interaction's member payload
    return role_id in {int(r) for r in raw}


def interaction_is_moderator(
    interaction: discord.Interaction[Any], moderator_role_id: int | None
) -> bool:
    """Manage Channel in this channel, or the configured moderator role (module doc)."""
    manage = bool(interaction.guild_id) and interaction.permissions.manage_channels
    role_ids = (
        [moderator_role_id]
        if moderator_role_id and has_role(interaction, moderator_role_id)
        else []
    )
    return mod.is_moderator(
        manage_channel=manage, role_ids=role_ids, moderator_role_id=moderator_role_id
    )


__all__ = ["has_role", "interaction_is_moderator"]
