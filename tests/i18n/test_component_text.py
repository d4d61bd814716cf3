"""i18n.texts.component_text: a component's rules text in the reader's language, and a data
pack's own text shown as the pack wrote it (issue #17)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import i18n
from i18n.catalogue import clear_locale_dirs
from i18n.texts import KINDS, component_text, text_key
from rules.brazil.catalog import load_catalog


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    clear_locale_dirs()
    yield
    clear_locale_dirs()


def test_every_data_text_is_found_by_its_kind_and_id() -> None:
    cat = load_catalog()
    en = i18n.catalogue("en").messages
    for attr, kind in KINDS.items():
        for cid, comp in getattr(cat, attr).items():
            assert en[text_key(kind, cid)] == comp.text
            assert component_text("en", kind, cid, comp.text) == comp.text


def test_component_text_is_the_translation_of_the_data_text() -> None:
    cat = load_catalog()
    quiteria = cat.paintings["maria_quiteria"]
    assert component_text("en", "painting", quiteria.id, quiteria.text) == quiteria.text
    assert (
        component_text("fr", "painting", quiteria.id, quiteria.text)
        == "+1 PF en attaque et +2 PF en défense."
    )
    assert component_text("pl", "gold_card", "espionage", cat.gold_cards["espionage"].text) == (
        "Darmowa akcja: podejrzyj wszystkie karty posiadane przez 1 innego gracza."
    )


def test_a_data_packs_own_text_is_shown_as_written() -> None:
    # A pack that rewrites a card's text (or adds a card) is not translated with the old text.
    changed = "+3 FP when attacking, +2 FP when defending."
    assert component_text("de", "painting", "maria_quiteria", changed) == changed
    assert (
        component_text("hu", "painting", "new_card", "Draw 2 gold cards.") == "Draw 2 gold cards."
    )
    shown = component_text(i18n.PSEUDO, "painting", "maria_quiteria", changed)
    assert shown.startswith("[") and shown.endswith("]")
