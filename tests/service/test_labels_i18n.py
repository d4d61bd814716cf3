"""Menus in every language (issue 17): the labels of every legal action of many recorded
states render in each language within Discord's limits, English is unchanged, and in the
pseudo-language no word is left outside brackets (no hard-coded English)."""

from __future__ import annotations

import re

import pytest

import i18n
from service.games.brazil.labels import choices, cost_line, group_label
from service.labels import MAX_TEXT
from tests.i18n.pseudo import outside_brackets
from tests.service.test_labels import _menus

LANGS = [*i18n.supported(), i18n.PSEUDO]


WORD = re.compile(r"[^\W\d_]{3,}")  # a word of three letters or more (not a hex label like D3)


@pytest.mark.parametrize("lang", LANGS)
def test_every_label_renders_in_every_language(lang: str) -> None:
    seen = 0
    for st, seat, _menu in _menus()[::3]:
        for c in choices(st, seat, lang=lang):
            seen += 1
            for text in (c.label.text, c.label.description):
                assert len(text) <= MAX_TEXT
                assert "{" not in text and "svc." not in text, text
            if lang == i18n.PSEUDO:
                left = WORD.findall(outside_brackets(c.label.text + " " + c.label.description))
                assert not left, (c.command, c.label, left)
        menu = choices(st, seat, lang=lang)
        if menu:
            verb = menu[0].command.split()[0]
            g = group_label([m for m in menu if m.command.startswith(verb)], verb, lang=lang)
            assert g.text and g.description
            line = cost_line(st, menu[0].action, lang=lang)
            if lang == i18n.PSEUDO and line:
                assert line.startswith("[")
    assert seen > 500


def test_menus_speak_the_readers_language() -> None:
    for st, seat, _menu in _menus():
        menu = choices(st, seat)
        at = next((i for i, c in enumerate(menu) if c.command.startswith("build ")), None)
        if at is None:
            continue
        assert menu[at].label.text.startswith(("Build", "Found"))
        for lang, words in {
            "hu": ("Építés", "Városalapítás"),
            "pl": ("Budowa", "Założenie"),
            "de": ("Bauen", "Stadt"),
            "fr": ("Construire", "Fonder"),
            "pt-BR": ("Construir", "Fundar"),
        }.items():
            assert choices(st, seat, lang=lang)[at].label.text.startswith(words), lang
        return
    raise AssertionError("no state where a build is listed")
