"""The rules texts printed on components (issue #17): every ``text`` of the component data is
a catalogue key ``text.<kind>.<id>`` in every language, English is the data's text exactly, and
each translation is whole and keeps the English text's numbers."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import i18n
from i18n.__main__ import main as i18n_cli
from i18n.catalogue import DEFAULT, clear_locale_dirs
from i18n.check import problems
from rules.brazil.catalog import load_catalog

# Catalog attribute -> the key's kind: text.<kind>.<id>.
KINDS = {
    "combat_cards": "combat_card",
    "exploration": "exploration",
    "gold_cards": "gold_card",
    "monarchs": "monarch",
    "paintings": "painting",
}
LANGUAGES = ["en", "de", "fr", "hu", "pl", "pt-BR"]


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    clear_locale_dirs()
    yield
    clear_locale_dirs()


@pytest.fixture(scope="module")
def data_texts() -> dict[str, str]:
    """Every component text of the default data, by catalogue key."""
    cat = load_catalog()
    out: dict[str, str] = {}
    for attr, kind in KINDS.items():
        for cid, comp in getattr(cat, attr).items():
            out[f"text.{kind}.{cid}"] = comp.text
    return out


def test_every_component_kind_with_a_text_is_covered() -> None:
    # A new kind of component with a printed text must get its keys here too.
    cat = load_catalog()
    texted = {
        name
        for name in vars(cat)
        if isinstance(getattr(cat, name), dict)
        and any(hasattr(v, "text") for v in getattr(cat, name).values())
    }
    assert texted == set(KINDS)


def test_the_data_has_the_69_texts(data_texts: dict[str, str]) -> None:
    counts = {k: sum(key.startswith(f"text.{k}.") for key in data_texts) for k in KINDS.values()}
    assert counts == {
        "combat_card": 10,
        "exploration": 10,
        "gold_card": 15,
        "monarch": 10,
        "painting": 24,
    }


def test_english_is_the_data_text_exactly(data_texts: dict[str, str]) -> None:
    en = i18n.catalogue(DEFAULT).messages
    ours = {k: v for k, v in en.items() if k.startswith("text.")}
    assert ours == data_texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_has_a_key_in_every_language(lang: str, data_texts: dict[str, str]) -> None:
    messages = i18n.catalogue(lang).messages
    missing = sorted(set(data_texts) - set(messages))
    assert not missing, f"{lang} lacks {missing}"
    for key in data_texts:
        shown = i18n.tr(lang, key)
        assert shown == messages[key] and shown.strip()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_check_is_clean_for_texts(lang: str) -> None:
    assert problems(lang, ("text.",)) == []


def test_the_check_command_is_clean_for_texts(capsys: pytest.CaptureFixture[str]) -> None:
    assert i18n_cli(["check", "--prefix", "text."]) == 0
    assert "every catalogue is whole" in capsys.readouterr().out


@pytest.mark.parametrize("lang", [c for c in LANGUAGES if c != DEFAULT])
def test_translations_keep_the_numbers(lang: str, data_texts: dict[str, str]) -> None:
    # Costs, VP, FP and counts are the rule: every number of the English text is in the
    # translation (a translation may add a "1" where English writes "a").
    messages = i18n.catalogue(lang).messages
    for key, english in data_texts.items():
        need = set(re.findall(r"\d+", english))
        have = set(re.findall(r"\d+", messages[key]))
        assert need <= have, f"{lang} {key}: numbers {sorted(need - have)} are missing"


def test_pseudo_brackets_every_text(data_texts: dict[str, str]) -> None:
    for key in data_texts:
        shown = i18n.tr(i18n.PSEUDO, key)
        assert shown.startswith("[") and shown.endswith("]"), shown
