"""The rules texts printed on components, in the reader's language.

Every ``text`` of the component data (combat cards, exploration tiles, gold cards, monarchs,
paintings) is the catalogue key ``text.<kind>.<id>``; English is the data's text exactly
(``i18n/locales/*/texts.toml``; sources in ``docs/glossary/texts-sources.md``).

    component_text("hu", "painting", painting.id, painting.text)

A data pack may change a component's text or add a component: the catalogue does not know
that text, so it is shown as the pack wrote it (bracketed in the pseudo-language), never the
translation of a text the pack replaced.
"""

from __future__ import annotations

import unicodedata

from i18n.catalogue import DEFAULT, PSEUDO, catalogue
from i18n.pseudo import pseudo_text
from i18n.render import tr

KINDS: dict[str, str] = {
    "combat_cards": "combat_card",
    "exploration": "exploration",
    "gold_cards": "gold_card",
    "monarchs": "monarch",
    "paintings": "painting",
}
"""Attribute of :class:`rules.brazil.catalog.Catalog` -> the kind in the key ``text.<kind>.<id>``."""


def text_key(kind: str, component_id: str) -> str:
    """The catalogue key of a component's rules text."""
    return f"text.{kind}.{component_id}"


def component_text(lang: str, kind: str, component_id: str, text: str) -> str:
    """The rules text ``text`` of component ``component_id`` (of ``kind``) in ``lang``: the
    catalogue's translation when the catalogue's English is this very text, else ``text``
    itself (a data pack's own text)."""
    key = text_key(kind, component_id)
    if catalogue(DEFAULT).get(key) == unicodedata.normalize("NFC", text):
        return tr(lang, key)
    return pseudo_text(text) if lang == PSEUDO else text
