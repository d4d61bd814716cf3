"""The engine's event sentences in every language (issue 17): the catalogues are whole, every
event of seeded self-play games renders in every language and in the pseudo-language (the
phrases it nests and the components it names included), and a few sentences checked by hand.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest

import i18n
from i18n.catalogue import clear_locale_dirs
from i18n.check import problems
from rules.brazil.catalog import get_catalog
from rules.brazil.events import Event
from rules.brazil.messages import EN, msg
from service.games import seat_label
from service.games.brazil.adapter import named_description, named_text
from service.results import SeatSpec
from tests.selfplay_steps import all_steps

# The keys of this area: the event sentences, the phrases they nest, the goods list item.
KEYS = {k for k in EN if not k.startswith("good.")} | {"fmt.goods_item"}
LANGS = [c for c in i18n.supported() if c != "en"]
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:|][^{}]*)?\}")
LEFTOVER = ("@term.", "@phrase.", "@good.", "{'key'", "'params'")


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    clear_locale_dirs()
    yield
    clear_locale_dirs()


def _mine(problem: str) -> bool:
    m = re.search(r"'([^']+)'", problem)
    return m is not None and m.group(1) in KEYS


def test_the_six_languages_are_the_ones_translated() -> None:
    assert LANGS == ["de", "fr", "hu", "pl", "pt-BR"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_key_is_translated_cleanly(lang: str) -> None:
    """python -m i18n check on the event keys: present, translated, same placeholders, every
    CLDR plural category of the language, NFC."""
    found = [p for p in problems(lang, tuple(sorted(KEYS))) if _mine(p)]
    assert found == []
    cat = i18n.catalogue(lang)
    assert set(cat.messages) >= KEYS, sorted(KEYS - set(cat.messages))


def _nested(v: Any) -> Iterator[dict[str, Any]]:
    """The nested messages of a parameter value, depth first."""
    if isinstance(v, dict) and isinstance(v.get("key"), str):
        yield v
        for x in (v.get("params") or {}).values():
            yield from _nested(x)
    elif isinstance(v, list):
        for x in v:
            yield from _nested(x)


def _terms(v: Any) -> Iterator[str]:
    """The component term references (``@term.<kind>.<id>``) of a parameter value."""
    if isinstance(v, str) and v.startswith("@term."):
        yield v[1:]
    elif isinstance(v, dict):
        for x in (v.get("params") or v).values():
            yield from _terms(x)
    elif isinstance(v, list):
        for x in v:
            yield from _terms(x)


def _events() -> list[tuple[Any, Event]]:
    return [(after, e) for _p, _s, (_b, _a, after, events) in all_steps() for e in events]


def test_selfplay_events_render_in_every_language_and_the_pseudo_language(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Every event of the seeded games: no exception, no placeholder left, no term reference
    or nested message left as text, no key of this area missing (no English fallback); in the
    pseudo-language every sentence, and every phrase nested in it, is bracketed."""
    events = _events()
    assert len(events) > 2000
    nested_seen: set[str] = set()
    caplog.set_level(logging.WARNING, logger="i18n")
    for lang in [*LANGS, i18n.PSEUDO]:
        L = i18n.translator(lang)
        for _after, e in events:
            out = L(e.key, **e.params)
            assert out and not PLACEHOLDER.search(out), (lang, e.key, out)
            assert not any(x in out for x in LEFTOVER), (lang, e.key, out)
            if lang != i18n.PSEUDO:
                assert out != e.text or not any(c.isalpha() for c in out), (lang, e.key)
                continue
            assert out.startswith("[") and out.endswith("]"), (e.key, out)
            for v in e.params.values():
                for m in _nested(v):
                    inner = L(m["key"], **m["params"])
                    assert inner.startswith("[") and inner.endswith("]"), (e.key, inner)
                    assert inner in out, (e.key, inner, out)
                    nested_seen.add(m["key"])
    fallbacks = [r.getMessage() for r in caplog.records if "English shown" in r.getMessage()]
    assert not [f for f in fallbacks if any(f"'{k}'" in f for k in KEYS)], fallbacks[:5]
    assert {"phrase.item.reserve", "phrase.fp.part", "phrase.why.palace"} <= nested_seen


def test_every_component_an_event_names_is_a_term_of_the_catalog() -> None:
    """Events name components by term references ``@term.<kind>.<id>``, each naming a
    component of the data (its English is that component's name); when the English
    catalogue holds terms of a kind, it holds every one the events name."""
    cat = get_catalog()
    books = {
        "building": cat.sides,
        "unit": cat.units,
        "monarch": cat.monarchs,
        "mission": cat.missions,
        "painting": cat.paintings,
        "gold_card": cat.gold_cards,
        "combat_card": cat.combat_cards,
        "exploration": cat.exploration,
        "capital": cat.capitals,
        "city": cat.cities,
        "colour": cat.colours,
        "product": cat.products,
        "arch": cat.arches,
    }
    en = i18n.catalogue("en").messages
    kinds_in_en = {k.split(".")[1] for k in en if k.startswith("term.")}
    seen: set[str] = set()
    for _after, e in _events():
        for v in e.params.values():
            for t in _terms(v):
                _, kind, id_ = t.split(".", 2)
                assert id_ in books[kind], t
                if kind in kinds_in_en:
                    assert t in en, f"{t} is not in the English terms"
                seen.add(kind)
    assert seen >= {"building", "unit", "monarch", "painting", "arch", "product", "city"}


@pytest.mark.parametrize("lang", LANGS)
def test_named_text_and_description_in_a_language(lang: str) -> None:
    """The game service's sentences in ``lang``, with the players named as the table knows
    them (never the engine's English "Green")."""
    seats = [SeatSpec("Ana"), SeatSpec("Bo"), SeatSpec("Cy"), SeatSpec("Di")]
    n = 0
    for after, e in _events()[:1500]:
        text = named_text(e, after, seats[: after.n], lang=lang)
        assert text and not PLACEHOLDER.search(text) and not any(x in text for x in LEFTOVER)
        assert text != named_text(e, after, seats[: after.n]) or not e.params, (e.key, text)
        names = [_engine_name(after, p.seat) for p in after.players]
        if e.key != "colour":
            assert not any(re.search(rf"\b{nm}\b", text) for nm in names), (e.key, text)
        n += 1
    assert n == 1500
    st = next(after for after, e in _events() if e.key == "turn" and after.n == 2)
    ana = named_text(
        Event(kind="turn", key="turn", params={"round": 3, "who": _engine_name(st, 0)}),
        st,
        seats[:2],
        lang=lang,
    )
    assert "Ana" in ana and "3" in ana
    from rules.brazil import actions as A

    done = named_description(st, A.EndTrade(seat=0), st, seats[:2], lang=lang)
    label = seat_label(st, seats[:2], 0, lang)  # the colour in the language too
    assert done == i18n.tr(lang, "phrase.did.end_trade", who=label) and done.startswith("Ana")
    assert done != named_description(st, A.EndTrade(seat=0), st, seats[:2])


def _engine_name(st: Any, seat: int) -> str:
    c = st.players[seat].colour
    return c.capitalize() if c else f"Seat {seat + 1}"


# ---------------------------------------------------------------------- sentences by hand


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "Ana dobiera 1 złotą kartę (pałac VI)."),
        (2, "Ana dobiera 2 złote karty (pałac VI)."),
        (5, "Ana dobiera 5 złotych kart (pałac VI)."),
        (12, "Ana dobiera 12 złotych kart (pałac VI)."),
        (22, "Ana dobiera 22 złote karty (pałac VI)."),
    ],
)
def test_polish_card_counts_one_few_many(n: int, text: str) -> None:
    why = msg("phrase.why.palace", palace="VI")
    assert i18n.tr("pl", "draw_gold.why", who="Ana", n=n, why=why) == text


def test_polish_sepe_few_and_many_agree_verb_and_noun() -> None:
    three = i18n.tr("pl", "sepe", who="Ana", n=3)
    five = i18n.tr("pl", "sepe", who="Ana", n=5)
    assert three.endswith("3 pozostałe jednostki wracają do osobistych zapasów.")
    assert five.endswith("5 pozostałych jednostek wraca do osobistych zapasów.")


def test_hungarian_list_of_winners_with_es() -> None:
    assert (
        i18n.tr("hu", "game_over", winners=["Ana", "Bo", "Cy"], n=3)
        == "Vége a játéknak. Győztesek: Ana, Bo és Cy."
    )
    assert i18n.tr("hu", "game_over", winners=["Ana"], n=1) == "Vége a játéknak. Győztes: Ana."
    assert i18n.tr("hu", "game_over", winners=[], n=0) == "Vége a játéknak. Győztesek: senki."


def test_hungarian_names_stand_alone() -> None:
    assert i18n.tr("hu", "build.building", who="Ana", building="fűrésztelep", hex="D3") == (
        "Ana épít: fűrésztelep, D3."
    )


def test_french_expedition_with_its_nested_breakdown() -> None:
    parts = [
        msg("phrase.fp.part", source="Archer", fp=2),
        msg("phrase.fp.part", source="@phrase.fp.tactical_advantage", fp=1),
    ]
    assert i18n.tr(
        "fr", "expedition_result.lost", hex="D4", fp=3, breakdown=parts, requirement=5
    ) == (
        "Expédition en D4\u00a0: 3 PF (Archer\u00a0: 2 + avantage tactique\u00a0: 1) contre 5\u00a0: échec (rien d’autre ne se passe)."
    )
    assert "(rien)" in i18n.tr(
        "fr", "expedition_result.won", hex="D4", fp=0, breakdown=[], requirement=0
    )


def test_german_payment_and_reason_as_nested_messages() -> None:
    items = [msg("phrase.item.card", n=2, card="Kriegskasse")]
    assert (
        i18n.tr("de", "pay.cards", who="Ana", items=items, what="@phrase.for.deployment")
        == "Ana bezahlt 2 Karten „Kriegskasse“ für das Einsetzen."
    )
    why = msg("phrase.why.first_painting", monarch="Pedro II", frame="@phrase.frame.blue")
    assert (
        i18n.tr("de", "draw_combat.why", who="Ana", n=1, why=why)
        == "Ana zieht 1 Kampf-Karte (Pedro II, erstes Gemälde mit blauem Rahmen)."
    )


def test_portuguese_winner_plural_by_cldr_category() -> None:
    assert (
        i18n.tr("pt-BR", "game_over", winners=["Ana"], n=1) == "A partida terminou. Vencedor: Ana."
    )
    assert (
        i18n.tr("pt-BR", "game_over", winners=["Ana", "Bo"], n=2)
        == "A partida terminou. Vencedores: Ana e Bo."
    )
