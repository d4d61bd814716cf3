"""Slash commands named in the reader's language (issue #32): a message names a slash command
only through the ``{/game status}`` field, which renders the names the bot registers with
Discord for the reader's language (``cmd.<path>.name``), never as literal text — an English
``/seat back`` does not exist under that name in a Hungarian or Polish Discord client. (That the
rendered names are the command tree's own localizations: ``tests/bot/test_command_names.py``.)
"""

from __future__ import annotations

import re

import pytest

import i18n
from i18n.catalogue import DEFAULT, load_all
from i18n.render import command_keys, commands, parse, placeholders

LANGS = i18n.supported()


def command_names() -> set[str]:
    """Every name a slash command, group or subcommand has in any language's catalogue."""
    out: set[str] = set()
    for cat in load_all().values():
        for k, v in cat.messages.items():
            if k.startswith("cmd.") and k.endswith(".name") and ".opt." not in k:
                out.add(v.strip().lower())
    return out


_LITERAL = re.compile(r"(?:^|(?<=[\s`(\"'«„]))/(?P<word>[^\s`/{}()\"',.:;!?]+)")


def literal_commands(template: str, names: set[str]) -> list[str]:
    """The slash commands a template writes as text (outside its fields): a ``/`` that starts
    a word and is followed by a command's name in some language, or any ``/`` right after a
    backtick."""
    text = "".join(part if not how else "\x00" for part, how, _ in parse(template))
    found = []
    for m in _LITERAL.finditer(text):
        after_tick = m.start() > 0 and text[m.start() - 1] == "`"
        if after_tick or m.group("word").lower() in names:
            found.append(text[m.start() : m.end()])
    return found


def test_the_literal_check_finds_a_literal_command() -> None:
    names = command_names()
    assert literal_commands("Use `/seat back` now.", names) == ["/seat"]
    assert literal_commands("(12 earlier lines in /log)", names) == ["/log"]
    assert literal_commands("a `/kéz hol:privát szál` b", names) == ["/kéz"]
    assert literal_commands("`/anything`", names) == ["/anything"]
    assert (
        literal_commands("Use `{/seat back}` now, or 1/2, and/or https://x.org/game", names) == []
    )


@pytest.mark.parametrize("lang", LANGS)
def test_no_message_names_a_slash_command_literally(lang: str) -> None:
    names = command_names()
    cat = load_all()[lang]
    bad = {k: found for k, v in cat.messages.items() if (found := literal_commands(v, names))}
    assert bad == {}, f"{lang}: write these commands as {{/game status}}: {bad}"


def test_the_command_field_renders_the_localized_names() -> None:
    hu, en = i18n.catalogue("hu").messages, i18n.catalogue(DEFAULT).messages
    assert i18n.render_template("hu", "`{/seat back}`", {}) == (
        f"`/{hu['cmd.seat.name']} {hu['cmd.seat.back.name']}`"
    )
    assert i18n.render_template("en", "{/seat back}", {}) == "/seat back"
    assert i18n.render_template("pl", "{/quiet-hours}", {}) == "/" + (
        i18n.catalogue("pl").messages.get("cmd.quiet_hours.name") or en["cmd.quiet_hours.name"]
    )
    assert command_keys("game web link") == [
        "cmd.game.name",
        "cmd.game.web.name",
        "cmd.game.web.link.name",
    ]
    # a field is no parameter: the catalogue check does not ask English for it
    assert placeholders("`{/game new}` {n}") == {"n"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_command_a_message_names_exists(lang: str) -> None:
    """Every ``{/…}`` names a command of English's catalogue (the check also reports it as an
    unknown term), and the message renders it whole in ``lang``."""
    en = i18n.catalogue(DEFAULT).messages
    cat = load_all()[lang]
    named = {(k, p) for k, v in cat.messages.items() for p in commands(v)}
    assert named, lang
    for key, path in named:
        missing = [k for k in command_keys(path) if k not in en]
        assert not missing, f"{lang} {key}: {{/{path}}} names no command ({missing})"
        assert "{/" not in i18n.tr(lang, key)


def test_the_twelve_messages_read_as_a_hungarian_and_polish_client_shows_them() -> None:
    """The issue's examples: ``/game status``, ``/seat back`` in Hungarian and Polish."""
    for lang in ("hu", "pl"):
        cat = i18n.catalogue(lang).messages
        seat_back = f"/{cat['cmd.seat.name']} {cat['cmd.seat.back.name']}"
        status = f"/{cat['cmd.game.name']} {cat['cmd.game.status.name']}"
        assert seat_back != "/seat back" and status != "/game status"
        assert seat_back in i18n.tr(lang, "svc.pacing.policy.ai")
        assert status in i18n.tr(lang, "svc.lobby.channel_busy")
        text = i18n.tr(lang, "svc.notice.stand_in", level="x", who="Ana")
        assert seat_back in text and "/seat back" not in text
