"""Game terms (issue 17, "Words that players already know"): every component of the catalog
has a term in every language, the English terms are exactly the catalog's names, the goods
are translated, and each language's glossary gives the source of every term — a printed
rulebook's words (checked against the rulebooks once, when the glossaries were written;
the rulebooks are not part of this repository)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import i18n
from i18n.check import problems
from rules.brazil.catalog import GOODS, get_catalog
from rules.brazil.messages import EN as ENGINE_EN
from rules.brazil.notation import GRAMMAR

ROOT = Path(__file__).resolve().parents[2]
SEED_FILES = {
    "fr": "004_62dbb1469f857c28.txt",
    "hu": "000_0dd1accad1bff889.txt",
    "pl": "002_e96b40258572d140.txt",
    "de": "003_bd04d29025b9d8cf.txt",
}
OTHERS = [c for c in i18n.supported() if c != "en"]


def catalog_names() -> dict[str, str]:
    """term key -> the catalog's English name, for every component of the catalog."""
    cat = get_catalog()
    kinds: list[tuple[str, dict[str, object]]] = [
        ("building", dict(cat.sides)),
        ("city", dict(cat.cities)),
        ("capital", dict(cat.capitals)),
        ("colour", dict(cat.colours)),
        ("unit", dict(cat.units)),
        ("monarch", dict(cat.monarchs)),
        ("product", dict(cat.products)),
        ("arch", dict(cat.arches)),
        ("painting", dict(cat.paintings)),
        ("gold_card", dict(cat.gold_cards)),
        ("combat_card", dict(cat.combat_cards)),
        ("exploration", dict(cat.exploration)),
        ("mission", dict(cat.missions)),
        ("scenario", dict(cat.maps)),
    ]
    return {
        f"term.{kind}.{ident}": str(getattr(comp, "name"))  # noqa: B009
        for kind, comps in kinds
        for ident, comp in comps.items()
    }


def other_terms() -> list[str]:
    """Terms that are not catalog entries: eras, the action of every command, terrains,
    frames, shapes."""
    actions = {t for _, t, _ in GRAMMAR if not t.startswith("(")}
    return (
        [f"term.era.{n}" for n in (1, 2, 3)]
        + [f"term.action.{t}" for t in sorted(actions)]
        + [f"term.terrain.{t}" for t in ("plain", "forest", "gold_mine", "water")]
        + [f"term.frame.{f}" for f in ("red", "pink", "blue")]
        + [f"term.shape.{s}" for s in ("square", "pentagon", "octagon")]
    )


def test_english_terms_are_exactly_the_catalog_names() -> None:
    en = i18n.catalogue("en").messages
    names = catalog_names()
    assert len(names) > 150
    wrong = {k: (en.get(k), v) for k, v in names.items() if en.get(k) != v}
    assert not wrong, wrong


@pytest.mark.parametrize("lang", i18n.supported())
def test_every_catalog_component_has_a_term_in_every_language(lang: str) -> None:
    msgs = i18n.catalogue(lang).messages
    missing = [k for k in [*catalog_names(), *other_terms()] if not msgs.get(k, "").strip()]
    assert not missing, missing


def test_english_terms_are_only_in_the_english_catalogue_file() -> None:
    """The goods' English names stay in rules/brazil/messages.py; en/terms.toml holds terms only."""
    en = i18n.catalogue("en")
    for key in en.messages:
        if key.startswith("term."):
            assert en.sources[key].name == "terms.toml", key
    for g in GOODS:
        assert f"good.{g}" in ENGINE_EN
        assert f"good.{g}" not in en.sources  # not redefined in a TOML file


@pytest.mark.parametrize("lang", OTHERS)
def test_terms_and_goods_are_whole_in_every_language(lang: str) -> None:
    assert problems(lang, ("term.", "good.")) == []
    cat = i18n.catalogue(lang)
    for key in ENGINE_EN:
        if key.startswith("good."):
            assert cat.sources[key].name == "terms.toml", key


@pytest.mark.parametrize(
    ("lang", "key", "term"),
    [
        ("fr", "term.building.sawmill", "Scierie"),
        ("hu", "term.building.sawmill", "Fűrésztelep"),
        ("pl", "term.building.foundry", "Odlewnia złota"),
        ("de", "term.arch.import", "Hafen"),
        ("hu", "term.arch.recruit", "Bevetés"),
        ("fr", "term.monarch.pedro_ii", "Pierre II"),
        ("pl", "term.painting.isabel_of_brazil", "Izabela Brazylijska"),
        ("fr", "good.brazilwood", "pernambouc"),
        ("pl", "good.coffee", "ziarna kawy"),
        ("hu", "term.era.2", "A hajózás kora"),
    ],
)
def test_printed_names_are_used(lang: str, key: str, term: str) -> None:
    assert i18n.tr(lang, key) == term
    # a term reference renders in the reader's language
    assert i18n.render_template(lang, "{x}", {"x": "@" + key}) == term


# ---------------------------------------------------------------- glossaries

ROW = re.compile(r"^\| `(?P<key>[^`]+)` \| (?P<en>.*?) \| (?P<term>.*?) \| (?P<src>.*) \|$")
OURS = "(no printed source; our translation)"


def _glossary(lang: str) -> dict[str, tuple[str, str, str]]:
    rows: dict[str, tuple[str, str, str]] = {}
    text = (ROOT / "docs" / "glossary" / f"{lang}.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        m = ROW.match(line)
        if m and m["key"].startswith(("term.", "good.")):
            unesc = [m[g].replace("\\|", "|") for g in ("en", "term", "src")]
            rows[m["key"]] = (unesc[0], unesc[1], unesc[2])
    return rows


@pytest.mark.parametrize("lang", OTHERS)
def test_the_glossary_lists_every_term_with_its_source(lang: str) -> None:
    rows = _glossary(lang)
    msgs = i18n.catalogue(lang).messages
    en = i18n.catalogue("en").messages
    keys = {k for k in en if k.startswith(("term.", "good."))}
    assert set(rows) == keys
    seed = SEED_FILES.get(lang, "")[:3]
    for key, (english, term, src) in rows.items():
        assert english == en[key] and term == msgs[key], key
        if lang == "pt-BR":
            assert src == OURS or src.startswith("the game's own Portuguese name"), key
        else:
            assert src == OURS or (src.startswith(f"{seed}: «") and src.endswith("»")), key


def test_term_keys_of_every_kind_name_existing_terms() -> None:
    from i18n.terms import KINDS, ref, term_key

    en = i18n.catalogue("en").messages
    kinds_used = {k.split(".")[1] for k in en if k.startswith("term.")}
    assert kinds_used == set(KINDS)
    assert term_key("unit", "green.archer1") in en
    assert term_key("good", "coffee") in en and term_key("era", 2) in en
    assert i18n.render_template("hu", "{x}", {"x": ref("building", "sawmill")}) == "Fűrésztelep"
    with pytest.raises(ValueError, match="kinds"):
        term_key("spaceship", "x")
