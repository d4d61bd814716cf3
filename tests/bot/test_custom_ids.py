"""Every persistent component has its own custom_id prefix, so no press reaches the wrong item."""

from __future__ import annotations

import re

from discord import ui

import bot.cogs.mod
import bot.discord_views
import bot.scheduler
import bot.threads


def _dynamic_items() -> list[type[ui.DynamicItem]]:  # type: ignore[type-arg]
    modules = (bot.discord_views, bot.cogs.mod, bot.scheduler, bot.threads)
    out = []
    for mod in modules:
        for obj in vars(mod).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, ui.DynamicItem)
                and getattr(obj, "__discord_ui_compiled_template__", None) is not None
            ):
                out.append(obj)
    return out


def test_dynamic_item_prefixes_are_unique() -> None:
    items = _dynamic_items()
    assert len(items) >= 10
    prefixes: dict[str, str] = {}
    for item in items:
        pattern = item.__discord_ui_compiled_template__.pattern  # type: ignore[attr-defined]
        m = re.match(r"brz:(\w):", pattern)
        assert m, f"{item.__name__}: template {pattern!r} does not start with brz:<letter>:"
        assert m.group(1) not in prefixes, (
            f"{item.__name__} and {prefixes[m.group(1)]} share the prefix brz:{m.group(1)}:"
        )
        prefixes[m.group(1)] = item.__name__
