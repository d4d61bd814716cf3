"""Who moderates the games in a channel: members with Manage Channel there (the permissions
Discord resolved for the interaction: :attr:`discord.Interaction.permissions`), or with the
role ``settings.moderator_role_id`` (:meth:`discord.Member.get_role`, through the guild the
gateway delivered). Public discord.py API only. A leaf module (nothing of the app), used by
the shared checks (:mod:`bot.checks`) and the lobby (its creator or a moderator manages it)."""

from __future__ import annotations

from typing import Any

import discord

from service import moderation as mod


def has_role(interaction: discord.Interaction[Any], role_id: int) -> bool:
    """Whether the member who interacts has the role ``role_id``: through discord.py's
    public API alone (:meth:`discord.Member.get_role`), which reads the guild's role cache.
    The gateway fills that cache (``GUILD_CREATE``, the ``guilds`` intent; the test harness
    feeds the same event). A guild not cached yet (before the gateway delivered it, or in a
    DM) knows no role: the role does not count, Manage Channel still does."""
    member = interaction.user
    return isinstance(member, discord.Member) and member.get_role(role_id) is not None


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
