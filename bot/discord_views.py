"""Discord layouts (Components V2) and the persistent buttons and menus of the bot.

Every button and menu is a :class:`discord.ui.DynamicItem`: its custom_id names the game,
the game's state version and the choice (an index into the decider's legal list at that
version), so it still works after a restart, and a stale or double press is answered
"that choice is no longer available" without changing anything. Nothing secret is ever in a
custom_id: a choice is an index, the menu's options (which may name one's own cards) are only
in ephemeral messages. The handlers live in :class:`bot.tables.Tables`.

Limits enforced here (Discord refuses the message otherwise): 25 options per menu, 5 buttons
per row, 40 components and 4,000 characters of text per V2 message, 100 characters per
custom_id, label and option value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import ui

if TYPE_CHECKING:
    from bot.tables import Tables

MAX_OPTIONS = 25
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_CUSTOM_ID = 100
MAX_LABEL = 100
MAX_BUTTONS_PER_ROW = 5

NO_LONGER = "That choice is no longer available."
NOT_YOUR_TURN = "Not your turn: only the player who must decide can use this."
NO_SEAT = "You have no seat in this game."


def tables_of(interaction: discord.Interaction[Any]) -> Tables:
    t: Tables = interaction.client.tables
    return t


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def custom_id(*parts: object) -> str:
    cid = ":".join(str(p) for p in parts)
    if len(cid) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {cid[:40]}…")
    return cid


# ============================================================================ V2 layouts


def count_components(view: ui.LayoutView) -> int:
    return sum(1 for _ in view.walk_children())


def text_length(view: ui.LayoutView) -> int:
    return sum(len(i.content) for i in view.walk_children() if isinstance(i, ui.TextDisplay))


def check_layout(view: ui.LayoutView) -> ui.LayoutView:
    """Raise if the layout breaks Discord's V2 limits (caught in tests, never in production)."""
    n, chars = count_components(view), text_length(view)
    if n > MAX_V2_COMPONENTS:
        raise ValueError(f"{n} components in one message (max {MAX_V2_COMPONENTS})")
    if chars > MAX_V2_TEXT:
        raise ValueError(f"{chars} characters of text in one message (max {MAX_V2_TEXT})")
    return view


def fit_lines(lines: Sequence[str], budget: int) -> str:
    """The lines joined, keeping the newest ones when they would pass ``budget`` chars."""
    out: list[str] = []
    used = 0
    for line in reversed(lines):
        line = clip(line, 600)
        if used + len(line) + 1 > budget - 40:
            out.append(f"… ({len(lines) - len(out)} earlier lines in /log)")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(reversed(out))


def turn_layout(
    summary: str,
    images: Sequence[str],
    footer: str,
    buttons: Sequence[ui.Item[Any]] = (),
    *,
    accent: int = 0x2E7D32,
) -> ui.LayoutView:
    """A public post: a Container with the summary, a gallery of the attached images
    (``attachment://NAME``), who decides now, and the action row."""
    view = ui.LayoutView(timeout=None)
    budget = MAX_V2_TEXT - len(footer) - 10
    items: list[ui.Item[Any]] = [ui.TextDisplay(clip(summary, budget) or "\u200b")]
    if images:
        gallery: ui.MediaGallery[Any] = ui.MediaGallery(
            *[discord.MediaGalleryItem(f"attachment://{name}") for name in images[:10]]
        )
        items.append(gallery)
    if footer:
        items.append(ui.TextDisplay(footer))
    if buttons:
        for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW):
            items.append(ui.ActionRow(*buttons[i : i + MAX_BUTTONS_PER_ROW]))
    view.add_item(ui.Container(*items, accent_colour=accent))
    return check_layout(view)


def status_layout(text: str) -> ui.LayoutView:
    """The game's status message (edited in place after every turn): text only."""
    return turn_layout(text, [], "", accent=0x6A1B9A)


def lobby_layout(
    text: str,
    game_id: int,
    *,
    open_: bool = True,
    colours: Sequence[tuple[str, str]] = (),
) -> ui.LayoutView:
    """The lobby: its text, Join / Leave / Add AI / Start, and a colour menu (``colours``:
    (id, name) pairs) while it is open."""
    if not open_:
        return turn_layout(text, [], "", [], accent=0x1565C0)
    view = ui.LayoutView(timeout=None)
    items: list[ui.Item[Any]] = [ui.TextDisplay(clip(text, MAX_V2_TEXT - 10) or "\u200b")]
    items.append(
        ui.ActionRow(*[LobbyButton(game_id, op) for op in ("join", "leave", "ai", "start")])
    )
    if colours:
        items.append(ui.ActionRow(ColourSelect(game_id, colours)))
    view.add_item(ui.Container(*items, accent_colour=0x1565C0))
    return check_layout(view)


# ============================================================================ menus


@dataclass(frozen=True)
class Step:
    """One step of the guided flow: a prompt and up to 25 menu options (label, value).
    A value is ``i:N`` (the decider's legal action number N) or ``p:PREFIX`` (narrow the
    list to the commands starting with PREFIX)."""

    prompt: str
    options: tuple[tuple[str, str], ...]
    more: int = 0  # choices left out (reachable through /play)


def guided_step(texts: Sequence[str], prefix: str = "") -> Step:
    """The options at ``prefix`` for the legal commands ``texts`` (in the engine's order):
    the commands themselves when at most 25 match, else their next words (the action kinds
    at the top), else the first letters of the next word (e.g. a map column)."""
    seen: set[str] = set()
    cands: list[tuple[int, str]] = []
    for i, t in enumerate(texts):
        if t.startswith(prefix) and t not in seen:
            seen.add(t)
            cands.append((i, t))
    if len(cands) <= MAX_OPTIONS and prefix:
        opts = tuple((clip(t, MAX_LABEL), f"i:{i}") for i, t in cands)
        return Step(f"Choose (`{prefix.strip()}` …):", opts)
    groups = _group(cands, prefix, whole_words=True)
    if len(groups) > MAX_OPTIONS:
        groups = _group(cands, prefix, whole_words=False)
    if len(groups) == 1 and len(cands) <= MAX_OPTIONS:
        opts = tuple((clip(t, MAX_LABEL), f"i:{i}") for i, t in cands)
        return Step("Choose:", opts)
    opts_list: list[tuple[str, str]] = []
    for key, members in groups.items():
        if len(members) == 1:
            i, t = members[0]
            opts_list.append((clip(t, MAX_LABEL), f"i:{i}"))
        elif len(key) + 2 <= MAX_LABEL:
            opts_list.append((clip(f"{key.strip()} … ({len(members)})", MAX_LABEL), f"p:{key}"))
    more = max(0, len(opts_list) - MAX_OPTIONS)
    title = "What do you do?" if not prefix else f"`{prefix.strip()}` …: narrow it down"
    return Step(title, tuple(opts_list[:MAX_OPTIONS]), more)


def _group(
    cands: Sequence[tuple[int, str]], prefix: str, *, whole_words: bool
) -> dict[str, list[tuple[int, str]]]:
    groups: dict[str, list[tuple[int, str]]] = {}
    for i, t in cands:
        rest = t[len(prefix) :]
        lead = rest[: len(rest) - len(rest.lstrip(" "))]
        token = rest.lstrip(" ").split(" ")[0]
        if not whole_words:
            token = token[:1]
        key = prefix + lead + token
        groups.setdefault(key, []).append((i, t))
    return groups


def step_view(game_id: int, version: int, step: Step) -> ui.View:
    view = ui.View(timeout=None)
    if step.options:
        view.add_item(ChoiceSelect(game_id, version, step.options))
    view.add_item(BackButton(game_id, version))
    return view


def confirm_view(game_id: int, version: int, index: int, *, payable: bool = False) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ConfirmButton(game_id, version, index))
    if payable and pay_id("brz:p", game_id, version, index, ()) is not None:
        view.add_item(PayButton(game_id, version, index, ()))
    view.add_item(BackButton(game_id, version))
    return view


def pay_id(kind: str, game_id: int, version: int, index: int, path: Sequence[int]) -> str | None:
    """The custom_id of a payment step: the path is the option numbers chosen so far (no
    secret: numbers into the engine's list at that version); None if it would pass 100."""
    cid = f"{kind}:{game_id}:{version}:{index}:{'.'.join(str(k) for k in path)}"
    return cid if len(cid) <= MAX_CUSTOM_ID else None


def pay_view(
    game_id: int,
    version: int,
    index: int,
    path: Sequence[int],
    options: Sequence[str],
    *,
    complete: bool,
) -> ui.View:
    """One step of "Change payment": a menu of the sources that may pay the next token
    (``options``: labels), or, when ``complete``, Confirm with this payment; Back and
    Start over (the default payment) always."""
    view = ui.View(timeout=None)
    if complete:
        view.add_item(PayConfirmButton(game_id, version, index, path))
    elif options and pay_id("brz:y", game_id, version, index, [*path, 99]) is not None:
        view.add_item(PaySelect(game_id, version, index, path, options))
    view.add_item(PayButton(game_id, version, index, (), label="Start over"))
    view.add_item(BackButton(game_id, version))
    return view


def _button(label: str, style: discord.ButtonStyle, cid: str) -> ui.Button[Any]:
    return ui.Button(label=label, style=style, custom_id=cid)


def _path(text: str) -> tuple[int, ...]:
    return tuple(int(k) for k in text.split(".") if k)


def turn_buttons(
    game_id: int, version: int, kinds: Sequence[str], *, undo: bool = False
) -> list[ui.Item[Any]]:
    """The turn post's buttons; ``undo``: the decider may take back their last step now."""
    label = "Take my turn"
    if kinds and all(k == "combat_cards" for k in kinds):
        label = "Commit battle cards"
    elif kinds and all(k != "turn" for k in kinds):
        label = "Decide"
    items: list[ui.Item[Any]] = [TurnButton(game_id, version, label)]
    if undo:
        items.append(UndoButton(game_id, version))
    items.append(HandButton(game_id))
    return items


# ============================================================================ dynamic items


class LobbyButton(ui.DynamicItem[ui.Button[Any]], template=r"brz:l:(?P<g>\d+):(?P<op>\w+)"):
    LABELS: ClassVar[dict[str, str]] = {
        "join": "Join",
        "leave": "Leave",
        "ai": "Add AI",
        "start": "Start",
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.primary,
        "leave": discord.ButtonStyle.secondary,
        "ai": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.success,
    }

    def __init__(self, game_id: int, op: str) -> None:
        super().__init__(
            _button(
                self.LABELS.get(op, op),
                self.STYLES.get(op, discord.ButtonStyle.secondary),
                custom_id("brz:l", game_id, op),
            )
        )
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["g"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await tables_of(interaction).lobby_press(interaction, self.game_id, self.op)


class ColourSelect(ui.DynamicItem[ui.Select[Any]], template=r"brz:k:(?P<g>\d+)"):
    """The lobby's colour menu: a seated player's colour wish (R-SETUP-4), taken for them
    when the game starts."""

    def __init__(
        self,
        game_id: int,
        colours: Sequence[tuple[str, str]] = (),
        select: ui.Select[Any] | None = None,
    ) -> None:
        if select is None:
            select = ui.Select(
                custom_id=custom_id("brz:k", game_id),
                placeholder="Your colour (optional)…",
                options=[
                    discord.SelectOption(label=clip(name, MAX_LABEL), value=cid[:100])
                    for cid, name in colours[:MAX_OPTIONS]
                ],
            )
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ColourSelect:
        sel = item if isinstance(item, ui.Select) else None
        return cls(int(match["g"]), select=sel)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        await tables_of(interaction).lobby_colour(
            interaction, self.game_id, values[0] if values else ""
        )


class TurnButton(ui.DynamicItem[ui.Button[Any]], template=r"brz:t:(?P<g>\d+):(?P<v>\d+)"):
    """Opens the guided flow for the presser, if they decide now at this version."""

    def __init__(self, game_id: int, version: int, label: str = "Take my turn") -> None:
        super().__init__(
            _button(label, discord.ButtonStyle.primary, custom_id("brz:t", game_id, version))
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> TurnButton:
        return cls(int(match["g"]), int(match["v"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await tables_of(interaction).open_flow(interaction, self.game_id, self.version)


class UndoButton(ui.DynamicItem[ui.Button[Any]], template=r"brz:u:(?P<g>\d+):(?P<v>\d+)"):
    """Takes back the presser's last step, if they decide now at this version and the engine
    allows it (the same path as ``/undo``)."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            _button("Undo", discord.ButtonStyle.secondary, custom_id("brz:u", game_id, version))
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> UndoButton:
        return cls(int(match["g"]), int(match["v"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await tables_of(interaction).undo(interaction, self.game_id, version=self.version)


class HandButton(ui.DynamicItem[ui.Button[Any]], template=r"brz:h:(?P<g>\d+)"):
    """The presser's own hand, ephemerally (anyone seated may press it any time)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            _button("My hand", discord.ButtonStyle.secondary, custom_id("brz:h", game_id))
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["g"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await tables_of(interaction).show_hand(interaction, self.game_id)


class ChoiceSelect(ui.DynamicItem[ui.Select[Any]], template=r"brz:s:(?P<g>\d+):(?P<v>\d+)"):
    """One step of the guided flow (ephemeral): the chosen value is ``i:N`` or ``p:PREFIX``."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: Sequence[tuple[str, str]] = (),
        select: ui.Select[Any] | None = None,
    ) -> None:
        if select is None:
            select = ui.Select(
                custom_id=custom_id("brz:s", game_id, version),
                placeholder="Choose…",
                options=[
                    discord.SelectOption(label=label, value=value[:100])
                    for label, value in options[:MAX_OPTIONS]
                ],
            )
        super().__init__(select)
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ChoiceSelect:
        sel = item if isinstance(item, ui.Select) else None
        return cls(int(match["g"]), int(match["v"]), select=sel)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        await tables_of(interaction).flow_choice(
            interaction, self.game_id, self.version, values[0] if values else ""
        )


class ConfirmButton(
    ui.DynamicItem[ui.Button[Any]], template=r"brz:c:(?P<g>\d+):(?P<v>\d+):(?P<i>\d+)"
):
    """Apply the decider's legal action number ``i`` at ``version``."""

    def __init__(self, game_id: int, version: int, index: int) -> None:
        super().__init__(
            _button(
                "Confirm", discord.ButtonStyle.success, custom_id("brz:c", game_id, version, index)
            )
        )
        self.game_id, self.version, self.index = game_id, version, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ConfirmButton:
        return cls(int(match["g"]), int(match["v"]), int(match["i"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await tables_of(interaction).confirm(interaction, self.game_id, self.version, self.index)


class PayButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"brz:p:(?P<g>\d+):(?P<v>\d+):(?P<i>\d+):(?P<path>[\d.]*)",
):
    """ "Change payment": walk the engine's payment chooser for legal action ``i``."""

    def __init__(
        self,
        game_id: int,
        version: int,
        index: int,
        path: Sequence[int],
        label: str = "Change payment",
    ) -> None:
        cid = pay_id("brz:p", game_id, version, index, path)
        super().__init__(
            _button(
                label,
                discord.ButtonStyle.secondary,
                cid or custom_id("brz:p", game_id, version, index, ""),
            )
        )
        self.game_id, self.version, self.index, self.path = game_id, version, index, tuple(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> PayButton:
        return cls(int(match["g"]), int(match["v"]), int(match["i"]), _path(match["path"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await tables_of(interaction).pay_step(
            interaction, self.game_id, self.version, self.index, self.path
        )


class PaySelect(
    ui.DynamicItem[ui.Select[Any]],
    template=r"brz:y:(?P<g>\d+):(?P<v>\d+):(?P<i>\d+):(?P<path>[\d.]*)",
):
    """One token of the payment: the chosen option's number is appended to the path."""

    def __init__(
        self,
        game_id: int,
        version: int,
        index: int,
        path: Sequence[int],
        options: Sequence[str] = (),
        select: ui.Select[Any] | None = None,
    ) -> None:
        if select is None:
            select = ui.Select(
                custom_id=pay_id("brz:y", game_id, version, index, path) or "",
                placeholder="Pay with…",
                options=[
                    discord.SelectOption(label=clip(label, MAX_LABEL), value=str(k))
                    for k, label in enumerate(options[:MAX_OPTIONS])
                ],
            )
        super().__init__(select)
        self.game_id, self.version, self.index, self.path = game_id, version, index, tuple(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> PaySelect:
        sel = item if isinstance(item, ui.Select) else None
        return cls(
            int(match["g"]), int(match["v"]), int(match["i"]), _path(match["path"]), select=sel
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        if not values or not values[0].isdigit():
            return
        await tables_of(interaction).pay_step(
            interaction, self.game_id, self.version, self.index, (*self.path, int(values[0]))
        )


class PayConfirmButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"brz:q:(?P<g>\d+):(?P<v>\d+):(?P<i>\d+):(?P<path>[\d.]*)",
):
    """Apply legal action ``i`` with the payment the path chose."""

    def __init__(self, game_id: int, version: int, index: int, path: Sequence[int]) -> None:
        super().__init__(
            _button(
                "Confirm with this payment",
                discord.ButtonStyle.success,
                pay_id("brz:q", game_id, version, index, path) or "",
            )
        )
        self.game_id, self.version, self.index, self.path = game_id, version, index, tuple(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> PayConfirmButton:
        return cls(int(match["g"]), int(match["v"]), int(match["i"]), _path(match["path"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await tables_of(interaction).confirm(
            interaction, self.game_id, self.version, self.index, path=self.path
        )


class BackButton(ui.DynamicItem[ui.Button[Any]], template=r"brz:b:(?P<g>\d+):(?P<v>\d+)"):
    """Back to the first step of the guided flow."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            _button("Back", discord.ButtonStyle.secondary, custom_id("brz:b", game_id, version))
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> BackButton:
        return cls(int(match["g"]), int(match["v"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await tables_of(interaction).flow_choice(interaction, self.game_id, self.version, "p:")


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    ColourSelect,
    TurnButton,
    UndoButton,
    HandButton,
    ChoiceSelect,
    ConfirmButton,
    PayButton,
    PaySelect,
    PayConfirmButton,
    BackButton,
)
