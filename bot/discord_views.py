"""Discord layouts (Components V2) and the persistent buttons and menus of the bot.

Every button and menu is a :class:`discord.ui.DynamicItem`: its custom_id names the game,
the game's state version and the choice (an index into the decider's legal list at that
version), so it still works after a restart, and a stale or double press is answered
"that choice is no longer available" without changing anything. Nothing secret is ever in a
custom_id: a choice is an index, the menu's options (which may name one's own cards) are only
in ephemeral messages. A press goes to the :data:`GameItem.router` the game extension
installs (:meth:`bot.tables.Tables.press`, which hands it to its desk: :mod:`bot.flow`,
:mod:`bot.lobby`, :mod:`bot.private`), so this module knows no handler and imports nothing
of the Discord app (no import circle).

Each item is declared on :class:`GameItem` (:class:`GameButton`, :class:`GameSelect`): its
custom_id prefix and fields and its label or placeholder; parsing, writing the custom_id
back, dispatching and error handling (a private "something went wrong" answer,
:mod:`bot.errors`) are written once there. The cogs register them
(:data:`DYNAMIC_ITEMS`: :mod:`bot.cogs.game`).

Limits enforced here (Discord refuses the message otherwise): 25 options per menu, 5 buttons
per row, 40 components and 4,000 characters of text per V2 message, 100 characters per
custom_id, label and option value.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Self, TypeVar

import discord
from discord import ui

from bot.errors import report_fault
from i18n import tr
from service.labels import Choice, Label
from service.turn import NO_LONGER_KEY as TURN_NO_LONGER_KEY

MAX_OPTIONS = 25
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_CUSTOM_ID = 100
MAX_LABEL = 100
MAX_BUTTONS_PER_ROW = 5

NO_LONGER_KEY = TURN_NO_LONGER_KEY  # the service refuses a stale choice with it too
NOT_YOUR_TURN_KEY = "bot.not_your_turn"
NO_SEAT_KEY = "bot.no_seat"
NO_LONGER = tr("en", NO_LONGER_KEY)
NOT_YOUR_TURN = tr("en", NOT_YOUR_TURN_KEY)
NO_SEAT = tr("en", NO_SEAT_KEY)
GAME_PAGE = tr("en", "bot.button.game_page")
"""The English texts (the keys ``bot.*`` give them in the reader's language)."""


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


def fit_lines(lines: Sequence[str], budget: int, lang: str = "en") -> str:
    """The lines joined, keeping the newest ones when they would pass ``budget`` chars."""
    out: list[str] = []
    used = 0
    for line in reversed(lines):
        line = clip(line, 600)
        if used + len(line) + 1 > budget - 40:
            out.append(tr(lang, "bot.view.earlier_lines", n=len(lines) - len(out)))
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
    alts: Mapping[str, str] | None = None,
) -> ui.LayoutView:
    """A public post: a Container with the summary, a gallery of the attached images
    (``attachment://NAME``, each with its alt text from ``alts`` by name: up to 256
    characters), who decides now, and the action row."""
    view = ui.LayoutView(timeout=None)
    budget = MAX_V2_TEXT - len(footer) - 10
    items: list[ui.Item[Any]] = [ui.TextDisplay(clip(summary, budget) or "\u200b")]
    if images:
        said = alts or {}
        gallery: ui.MediaGallery[Any] = ui.MediaGallery(
            *[
                discord.MediaGalleryItem(
                    f"attachment://{name}", description=clip(said.get(name, ""), 256) or None
                )
                for name in images[:10]
            ]
        )
        items.append(gallery)
    if footer:
        items.append(ui.TextDisplay(footer))
    if buttons:
        for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW):
            items.append(ui.ActionRow(*buttons[i : i + MAX_BUTTONS_PER_ROW]))
    view.add_item(ui.Container(*items, accent_colour=accent))
    return check_layout(view)


def status_layout(text: str, page: str | None = None, lang: str = "en") -> ui.LayoutView:
    """The game's status message (edited in place after every turn): its text, and a link
    button to the game's web page when the bot serves them (``page``: its address); the
    button in the game's language ``lang``."""
    buttons: list[ui.Item[Any]] = []
    if page is not None:
        label = tr(lang, "bot.button.game_page")
        buttons.append(ui.Button(label=label, style=discord.ButtonStyle.link, url=page))
    return turn_layout(text, [], "", buttons, accent=0x6A1B9A)


def lobby_layout(
    text: str,
    game_id: int,
    *,
    open_: bool = True,
    colours: Sequence[tuple[str, str]] = (),
    lang: str = "en",
) -> ui.LayoutView:
    """The lobby: its text, Join / Leave / Add AI / Start, and a colour menu (``colours``:
    (id, name) pairs) while it is open; the buttons in the game's language ``lang``."""
    if not open_:
        return turn_layout(text, [], "", [], accent=0x1565C0)
    view = ui.LayoutView(timeout=None)
    items: list[ui.Item[Any]] = [ui.TextDisplay(clip(text, MAX_V2_TEXT - 10) or "\u200b")]
    items.append(
        ui.ActionRow(
            *[LobbyButton(game_id, op, lang=lang) for op in ("join", "leave", "ai", "start")]
        )
    )
    if colours:
        items.append(ui.ActionRow(colour_select(game_id, colours, lang)))
    view.add_item(ui.Container(*items, accent_colour=0x1565C0))
    return check_layout(view)


# ============================================================================ menus


class Option(NamedTuple):
    """One menu option: what it shows (``label``, ``description``) and its ``value``."""

    label: str
    value: str
    description: str = ""


@dataclass(frozen=True)
class Step:
    """One step of the guided flow: a prompt and up to 25 menu options. An option's value
    is ``i:N`` (the decider's legal action number N) or ``p:PREFIX`` (narrow the list to the
    commands starting with PREFIX); its label and description speak the game's words (the
    names of its adapter's ``choices`` and ``group_label``), never the notation's ids."""

    prompt: str
    options: tuple[Option, ...]
    more: int = 0  # choices left out (reachable through /play)


def _one(c: Choice) -> Option:
    return Option(clip(c.label.text, MAX_LABEL), f"i:{c.index}", clip(c.label.description, 100))


def guided_step(
    choices: Sequence[Choice],
    prefix: str = "",
    lang: str = "en",
    *,
    group: Callable[..., Label],
) -> Step:
    """The options at ``prefix`` for the legal ``choices`` (in the engine's order), grouped
    by their commands: the choices themselves when at most 25 commands match, else their
    next words (the action kinds at the top), else the first letters of the next word (e.g.
    a map column). Each group is labelled by what its words name ("Build: Sawmill"), in
    ``lang`` (the reader's: ``choices`` are labelled in it too); ``group``: the game's
    labeller of a group (its adapter's ``group_label``)."""
    seen: set[str] = set()
    cands: list[Choice] = []
    for c in choices:
        if c.command.startswith(prefix) and c.command not in seen:
            seen.add(c.command)
            cands.append(c)
    if len(cands) <= MAX_OPTIONS and prefix:
        head = group(cands, prefix, cut=_cut(cands, prefix), lang=lang).text
        return Step(tr(lang, "bot.flow.choose_in", head=head), tuple(_one(c) for c in cands))
    whole = True
    groups = _group(cands, prefix, whole_words=True)
    if len(groups) > MAX_OPTIONS:
        whole = False
        groups = _group(cands, prefix, whole_words=False)
    if len(groups) == 1 and len(cands) <= MAX_OPTIONS:
        return Step(tr(lang, "bot.flow.choose"), tuple(_one(c) for c in cands))
    opts_list: list[Option] = []
    for key, members in groups.items():
        if len(members) == 1:
            opts_list.append(_one(members[0]))
        elif len(key) + 2 <= MAX_LABEL:
            g = group(members, key, cut=not whole, lang=lang)
            text = clip(f"{g.text} … ({len(members)})", MAX_LABEL)
            opts_list.append(Option(text, f"p:{key}", clip(g.description, 100)))
    more = max(0, len(opts_list) - MAX_OPTIONS)
    if not prefix:
        title = tr(lang, "bot.flow.what_now")
    else:
        head = group(cands, prefix, cut=_cut(cands, prefix), lang=lang).text
        title = tr(lang, "bot.flow.narrow", head=head)
    return Step(title, tuple(opts_list[:MAX_OPTIONS]), more)


def _cut(cands: Sequence[Choice], prefix: str) -> bool:
    """Whether the last word of ``prefix`` is only the start of the commands' next word."""
    words = prefix.split(" ")
    return bool(cands) and cands[0].command.split(" ")[len(words) - 1] != words[-1]


def _group(cands: Sequence[Choice], prefix: str, *, whole_words: bool) -> dict[str, list[Choice]]:
    groups: dict[str, list[Choice]] = {}
    for c in cands:
        rest = c.command[len(prefix) :]
        lead = rest[: len(rest) - len(rest.lstrip(" "))]
        token = rest.lstrip(" ").split(" ")[0]
        if not whole_words:
            token = token[:1]
        key = prefix + lead + token
        groups.setdefault(key, []).append(c)
    return groups


def step_view(game_id: int, version: int, step: Step, lang: str = "en") -> ui.View:
    view = ui.View(timeout=None)
    if step.options:
        options = [
            discord.SelectOption(
                label=o.label, value=o.value[:100], description=o.description or None
            )
            for o in step.options
        ]
        view.add_item(ChoiceSelect(game_id, version, options=options, lang=lang))
    view.add_item(BackButton(game_id, version, lang=lang))
    return view


def confirm_view(
    game_id: int, version: int, index: int, *, payable: bool = False, lang: str = "en"
) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ConfirmButton(game_id, version, index, lang=lang))
    if payable and pay_id("brz:p", game_id, version, index, ()) is not None:
        view.add_item(PayButton(game_id, version, index, (), lang=lang))
    view.add_item(BackButton(game_id, version, lang=lang))
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
    lang: str = "en",
) -> ui.View:
    """One step of "Change payment": a menu of the sources that may pay the next token
    (``options``: labels), or, when ``complete``, Confirm with this payment; Back and
    Start over (the default payment) always."""
    view = ui.View(timeout=None)
    if complete:
        view.add_item(PayConfirmButton(game_id, version, index, path, lang=lang))
    elif options and pay_id("brz:y", game_id, version, index, [*path, 99]) is not None:
        choices = [
            discord.SelectOption(label=clip(label, MAX_LABEL), value=str(k))
            for k, label in enumerate(options[:MAX_OPTIONS])
        ]
        view.add_item(PaySelect(game_id, version, index, path, options=choices, lang=lang))
    start_over = tr(lang, "bot.button.start_over")
    view.add_item(PayButton(game_id, version, index, (), label=start_over, lang=lang))
    view.add_item(BackButton(game_id, version, lang=lang))
    return view


def turn_buttons(
    game_id: int, version: int, kinds: Sequence[str], *, undo: bool = False, lang: str = "en"
) -> list[ui.Item[Any]]:
    """The turn post's buttons, in the game's language ``lang``; ``undo``: the decider may
    take back their last step now."""
    key = "bot.button.take_turn"
    if kinds and all(k == "combat_cards" for k in kinds):
        key = "bot.button.battle_cards"
    elif kinds and all(k != "turn" for k in kinds):
        key = "bot.button.decide"
    items: list[ui.Item[Any]] = [TurnButton(game_id, version, label=tr(lang, key), lang=lang)]
    if undo:
        items.append(UndoButton(game_id, version, lang=lang))
    items.append(HandButton(game_id, lang=lang))
    return items


# ============================================================================ dynamic items


def _path(text: str) -> tuple[int, ...]:
    return tuple(int(k) for k in text.split(".") if k)


@dataclass(frozen=True)
class Field:
    """One part of a custom_id: its pattern in the template, and how it reads and writes."""

    pattern: str
    parse: Callable[[str], Any] = int
    show: Callable[[Any], str] = str


FIELDS: dict[str, Field] = {
    "game_id": Field(r"\d+"),
    "version": Field(r"\d+"),
    "index": Field(r"\d+"),
    "path": Field(r"[\d.]*", _path, lambda p: ".".join(str(k) for k in p)),
    "op": Field(r"\w+", str),
    "token": Field(r"[0-9a-f]+", str),
    "answer": Field(r"ok|no", str),
}
"""The fields a custom_id may hold, by name (the typed attributes of :class:`GameItem`)."""

ItemT = TypeVar("ItemT", bound=ui.Item[Any])
Router = Callable[[discord.Interaction[Any], "GameItem[Any]"], Awaitable[None]]
"""What a press is handed to: the interaction and the item pressed (its typed fields)."""


class _Declared:
    """The class declaration of a :class:`GameItem`: ``prefix`` and ``fields`` make the
    template. Without a prefix the class is an abstract kind of item (GameItem, GameButton,
    GameSelect): no template, never registered. (A mixin before ``DynamicItem``, whose own
    ``__init_subclass__`` requires a template.)"""

    prefix: ClassVar[str]
    fields: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, *, prefix: str | None = None, fields: str = "") -> None:
        if prefix is None:
            super(ui.DynamicItem, cls).__init_subclass__()  # type: ignore[misc]
            return
        cls.prefix, cls.fields = prefix, tuple(fields.split())
        parts = [re.escape(prefix), *(f"(?P<{n}>{FIELDS[n].pattern})" for n in cls.fields)]
        super().__init_subclass__(template=":".join(parts))  # type: ignore[call-arg]


class GameItem(_Declared, ui.DynamicItem[ItemT]):
    r"""A persistent button or menu, declared by its custom_id's ``prefix`` and ``fields``
    (names of :data:`FIELDS`, in order)::

        class UndoButton(GameButton, prefix="brz:u", fields="game_id version"):
            label = "bot.button.undo"  # a message key

    The template (``brz:u:(?P<game_id>\d+):(?P<version>\d+)``) is built from the declaration;
    :meth:`from_custom_id` parses the fields into typed attributes, the constructor takes
    them in the same order and writes the same custom_id back. :meth:`callback` runs
    :meth:`handle`; anything it raises goes to :meth:`on_error` (logged, and a private
    answer): discord.py itself would only log it and leave "This interaction failed"."""

    router: ClassVar[Router | None] = None
    """Where presses go (set when the game extension loads)."""

    # the fields (each item has those it declares)
    game_id: int
    version: int
    index: int
    path: tuple[int, ...]
    op: str
    token: str
    answer: str

    def __init__(self, item: ItemT, values: Sequence[Any]) -> None:
        if len(values) != len(self.fields):
            raise TypeError(f"{type(self).__name__} takes {', '.join(self.fields)}")
        for name, value in zip(self.fields, values, strict=True):
            setattr(self, name, tuple(value) if name == "path" else value)
        super().__init__(item)

    @classmethod
    def id_of(cls, values: Sequence[Any]) -> str:
        """The custom_id of these field values (raises past 100 characters)."""
        shown = (FIELDS[name].show(v) for name, v in zip(cls.fields, values, strict=True))
        return custom_id(cls.prefix, *shown)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        values = [FIELDS[name].parse(match[name]) for name in cls.fields]
        return cls.restore(item, values)

    @classmethod
    def restore(cls, item: ui.Item[Any], values: Sequence[Any]) -> Self:
        """The item for a press of ``item`` (the component as Discord sent it back)."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.handle(interaction)
        except Exception as e:
            await self.on_error(interaction, e, self)

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        """What a press does: by default, what the bot's :data:`router` does with it (the
        Discord side's :meth:`bot.tables.Tables.press`, installed by the game extension)."""
        router = GameItem.router
        if router is None:
            raise RuntimeError(f"no router for {type(self).__name__}: the game cog is not loaded")
        await router(interaction, self)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: ui.Item[Any]
    ) -> None:
        await report_fault(interaction, error, f"{type(item).__name__} {self.custom_id}")


class GameButton(GameItem[ui.Button[Any]]):
    """A button: its ``label`` (a message key, rendered in the language ``lang`` the button
    is made in) and ``style`` (or per ``op``: :meth:`label_of`, :meth:`style_of`). The
    custom_id never depends on the language."""

    label: ClassVar[str] = ""
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, *values: Any, label: str | None = None, lang: str = "en") -> None:
        button: ui.Button[Any] = ui.Button(
            label=label or tr(lang, self.label_of(values)),
            style=self.style_of(values),
            custom_id=self.id_of(values),
        )
        super().__init__(button, values)

    def label_of(self, values: Sequence[Any]) -> str:
        """The key of the button's label."""
        return self.label

    def style_of(self, values: Sequence[Any]) -> discord.ButtonStyle:
        return self.style

    @classmethod
    def restore(cls, item: ui.Item[Any], values: Sequence[Any]) -> Self:
        return cls(*values)


class GameSelect(GameItem[ui.Select[Any]]):
    """A menu: its ``placeholder``; the options are given when it is sent (they may be
    private), and come back from Discord on a press (:attr:`choice`)."""

    placeholder: ClassVar[str] = "bot.menu.choose"
    """The key of the placeholder (rendered in the language the menu is made in)."""

    def __init__(
        self,
        *values: Any,
        options: Sequence[discord.SelectOption] = (),
        select: ui.Select[Any] | None = None,
        lang: str = "en",
    ) -> None:
        if select is None:
            select = ui.Select(
                custom_id=self.id_of(values),
                placeholder=tr(lang, self.placeholder),
                options=list(options[:MAX_OPTIONS]),
            )
        super().__init__(select, values)

    @classmethod
    def restore(cls, item: ui.Item[Any], values: Sequence[Any]) -> Self:
        return cls(*values, select=item if isinstance(item, ui.Select) else None)

    @property
    def choice(self) -> str:
        """The chosen option's value ("" if none)."""
        values = list(self.item.values)
        return values[0] if values else ""


class LobbyButton(GameButton, prefix="brz:l", fields="game_id op"):
    """Join / Leave / Add AI / Start in the lobby."""

    LABELS: ClassVar[dict[str, str]] = {
        "join": "bot.button.join",
        "leave": "bot.button.leave",
        "ai": "bot.button.add_ai",
        "start": "bot.button.start",
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.primary,
        "leave": discord.ButtonStyle.secondary,
        "ai": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.success,
    }

    def label_of(self, values: Sequence[Any]) -> str:
        return self.LABELS.get(values[1], str(values[1]))

    def style_of(self, values: Sequence[Any]) -> discord.ButtonStyle:
        return self.STYLES.get(values[1], discord.ButtonStyle.secondary)


class ColourSelect(GameSelect, prefix="brz:k", fields="game_id"):
    """The lobby's colour menu: a seated player's colour wish (R-SETUP-4), taken for them
    when the game starts."""

    placeholder = "bot.menu.colour"


def colour_select(
    game_id: int, colours: Sequence[tuple[str, str]], lang: str = "en"
) -> ColourSelect:
    """The colour menu of ``colours`` ((id, name) pairs)."""
    options = [
        discord.SelectOption(label=clip(name, MAX_LABEL), value=cid[:100]) for cid, name in colours
    ]
    return ColourSelect(game_id, options=options[:MAX_OPTIONS], lang=lang)


class TurnButton(GameButton, prefix="brz:t", fields="game_id version"):
    """Opens the guided flow for the presser, if they decide now at this version."""

    label = "bot.button.take_turn"
    style = discord.ButtonStyle.primary


class UndoButton(GameButton, prefix="brz:u", fields="game_id version"):
    """Takes back the presser's last step, if they decide now at this version and the engine
    allows it (the same path as ``/undo``)."""

    label = "bot.button.undo"


class HandButton(GameButton, prefix="brz:h", fields="game_id"):
    """The presser's own hand, ephemerally (anyone seated may press it any time)."""

    label = "bot.button.hand"


class ChoiceSelect(GameSelect, prefix="brz:s", fields="game_id version"):
    """One step of the guided flow (ephemeral): the chosen value is ``i:N`` or ``p:PREFIX``."""


class ConfirmButton(GameButton, prefix="brz:c", fields="game_id version index"):
    """Apply the decider's legal action number ``index`` at ``version``."""

    label = "bot.button.confirm"
    style = discord.ButtonStyle.success


class PayButton(GameButton, prefix="brz:p", fields="game_id version index path"):
    """ "Change payment": walk the engine's payment chooser for legal action ``index``."""

    label = "bot.button.change_payment"


class PaySelect(GameSelect, prefix="brz:y", fields="game_id version index path"):
    """One token of the payment: the chosen option's number is appended to the path."""

    placeholder = "bot.menu.pay_with"


class PayConfirmButton(GameButton, prefix="brz:q", fields="game_id version index path"):
    """Apply legal action ``index`` with the payment the path chose."""

    label = "bot.button.confirm_payment"
    style = discord.ButtonStyle.success


class BackButton(GameButton, prefix="brz:b", fields="game_id version"):
    """Back to the first step of the guided flow."""

    label = "bot.button.back"


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
"""The game's buttons and menus (registered by :mod:`bot.cogs.game`)."""
