"""*Tigris & Euphrates*' texts in every language (issue 18): the engine's events, refusals and
terms (``tigris.*``, English in ``rules.tigris.messages``) are in every catalogue with the same
placeholders; every event of seeded self-play games (2, 3 and 4 players) and every refusal
renders in every language and in the pseudo-language; the typed commands round-trip in every
language (``tigris.word.*``, ``i18n.notation`` with ``game="tigris"``)."""

from __future__ import annotations

import logging
import random
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

import i18n
from i18n.check import problems
from i18n.notation import canonical, complete, localize, words
from i18n.notation import problems as word_problems
from i18n.render import placeholders
from rules.errors import RulesError
from rules.tigris import (
    Action,
    Event,
    TigrisState,
    apply,
    check,
    deciders,
    describe_action,
    format_action,
    is_over,
    legal_actions,
    new_game,
    parse_text,
)
from rules.tigris.data import COLOURS, LABELS, LEADERS, MONUMENTS, SIZE
from rules.tigris.messages import CATALOGUE, TERMS, WORDS, render
from tests.i18n.pseudo import unbracketed_words

LANGS = [c for c in i18n.supported() if c != "en"]
ALL = [*i18n.supported(), i18n.PSEUDO]
KEYS = sorted(CATALOGUE)
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:|][^{}]*)?\}")
LEFTOVER = ("@tigris.", "tigris.", "{'key'", "'params'")
GAMES = ((2, 1), (2, 7), (3, 2), (3, 11), (4, 3), (4, 5))


# ---------------------------------------------------------------- seeded self-play


@cache
def _game(players: int, seed: int) -> tuple[tuple[TigrisState, Action, list[Event]], ...]:
    """A whole seeded game of random legal actions: (state before, action, events)."""
    s = new_game(players=players, seed=seed)
    rng = random.Random(seed)
    out: list[tuple[TigrisState, Action, list[Event]]] = []
    while not is_over(s):
        a = rng.choice(legal_actions(s))
        after, events = apply(s, a)
        out.append((s, a, events))
        s = after
    return tuple(out)


def _steps() -> Iterator[tuple[TigrisState, Action, list[Event]]]:
    for players, seed in GAMES:
        yield from _game(players, seed)


@cache
def _events() -> list[Event]:
    return [e for _s, _a, events in _steps() for e in events]


def _refusals() -> list[RulesError]:
    """Refusals of the engine and the notation over the seeded games: random actions that are
    not legal, and typed commands that cannot be read."""
    rng = random.Random(5)
    out: list[RulesError] = []
    kinds: tuple[str, ...] = ("tile", "leader", "withdraw", "catastrophe", "swap", "pass")
    kinds = (*kinds, "support", "war_order", "monument", "treasure")
    for n, (s, _a, _events) in enumerate(_steps()):
        if n % 3:
            continue
        seat = deciders(s)[0]
        for _ in range(12):
            a = Action(
                rng.choice(kinds),
                seat if rng.random() < 0.9 else (seat + 1) % len(s.players),
                colour=rng.randrange(4),
                square=rng.randrange(SIZE),
                tiles=(rng.randrange(3), rng.randrange(3), 0, rng.randrange(2)),
                amount=rng.randrange(8),
                monument=rng.randrange(len(MONUMENTS)),
            )
            try:
                check(s, a)
            except RulesError as e:
                out.append(e)
    s = _game(2, 1)[0][0]
    typed = ["", "tile purple F4", "tile red Z99", "leader x A1", "support x", "monument red F4"]
    typed += ["monument red-red F4", "swap", "foo bar", "tile red", "war red red", "pass now"]
    for text in typed:
        try:
            parse_text(text, s)
        except RulesError as e:
            out.append(e)
    return out


# ---------------------------------------------------------------- the catalogues


def test_tigris_english_is_in_the_english_catalogue() -> None:
    en = i18n.catalogue("en").messages
    assert all(en[k] == unicodedata.normalize("NFC", v) for k, v in CATALOGUE.items())
    assert i18n.tr("en", "tigris.tile", player="Ana", colour="@tigris.colour.red", square="F4") == (
        "Ana places a red tile on F4."
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_tigris_key_is_translated_cleanly(lang: str) -> None:
    """python -m i18n check on the tigris.* keys (present, not empty, not English unless
    listed, no unknown placeholder, every CLDR plural category, NFC), and the same
    placeholders as English exactly."""
    assert problems(lang, ("tigris.",)) == []
    cat = i18n.catalogue(lang).messages
    missing = [k for k in KEYS if k not in cat]
    assert missing == []
    for k in KEYS:
        text = cat[k]
        assert text.strip() and unicodedata.normalize("NFC", text) == text, (lang, k)
        assert placeholders(text) == placeholders(CATALOGUE[k]), (lang, k, text)
    assert not [k for k in cat if k.startswith("tigris.") and k not in CATALOGUE]


def test_the_whole_catalogue_check_passes() -> None:
    """``python -m i18n check``: every language, every key (Brazil's and Tigris')."""
    from i18n.__main__ import main

    assert main(["check"]) == 0


def test_hungarian_terms_are_the_rulebooks() -> None:
    """Seed 001's words (docs/glossary/tigris.hu.md)."""
    L = i18n.translator("hu")
    expect = {
        "tigris.tile.settlement": "lakóépület",
        "tigris.tile.temple": "templom",
        "tigris.tile.farm": "gazdaság",
        "tigris.tile.market": "piac",
        "tigris.leader.king": "király",
        "tigris.leader.priest": "főpap",
        "tigris.leader.farmer": "földműves",
        "tigris.leader.trader": "kereskedő",
        "tigris.colour.red": "piros",
        "tigris.dynasty.bow": "Íj",
    }
    assert {k: L.term(k) for k in expect} == expect
    assert "emlékmű" in L.term("tigris.monument.red-blue")
    de = i18n.translator("de")
    assert [de.term(f"tigris.tile.{t}") for t in ("settlement", "temple", "farm", "market")] == [
        "Siedlung",
        "Tempel",
        "Bauernhof",
        "Markt",
    ]


# ---------------------------------------------------------------- events and refusals


def _check_rendered(lang: str, key: str, out: str, names: tuple[str, ...] = ()) -> None:
    assert out and not PLACEHOLDER.search(out), (lang, key, out)
    assert not any(x in out for x in LEFTOVER), (lang, key, out)
    if lang == i18n.PSEUDO:
        assert unbracketed_words(out, names) == [], (key, out)


def test_selfplay_events_render_in_every_language_and_the_pseudo_language(
    caplog: pytest.LogCaptureFixture,
) -> None:
    events = _events()
    assert len(events) > 1000
    seen = {e.key for e in events}
    assert {"tigris.turn.start", "tigris.tile", "tigris.game.over", "tigris.war.start"} <= seen
    assert {"tigris.revolt.start", "tigris.support", "tigris.treasure"} <= seen
    # English through i18n is the engine's own English
    caplog.set_level(logging.WARNING, logger="i18n")
    for e in events:
        assert i18n.tr("en", e.key, **e.params) == e.text, e.key
    for lang in ALL:
        L = i18n.translator(lang)
        for e in events:
            _check_rendered(lang, e.key, L(e.key, **e.params))
    assert not [r.getMessage() for r in caplog.records if "tigris." in r.getMessage()]


def test_every_refusal_renders_in_every_language(caplog: pytest.LogCaptureFixture) -> None:
    """Refusals met over the seeded games, and every refusal key with made-up parameters:
    no missing key, nothing left unrendered, all bracketed in the pseudo-language."""
    found = _refusals()
    met = {e.key for e in found}
    assert len(met) >= 12, sorted(met)
    assert {"tigris.error.parse", "tigris.error.not_yours", "tigris.error.wrong_kind"} <= met
    caplog.set_level(logging.WARNING, logger="i18n")
    for e in found:
        assert e.key is not None
        assert i18n.tr("en", e.key, **(e.params or {})) == str(e.message), e.key
    for lang in ALL:
        L = i18n.translator(lang)
        for e in found:
            typed = ("purple", "dance", "foo", "bar", "now", "Z99", "red", "monument", "tile")
            _check_rendered(lang, str(e.key), L(str(e.key), **(e.params or {})), typed)
    assert not [r.getMessage() for r in caplog.records if "tigris." in r.getMessage()]


SAMPLES: dict[str, Any] = {
    "player": "@tigris.dynasty.lion",
    "attacker": "@tigris.dynasty.bow",
    "defender": "@tigris.dynasty.pot",
    "winner": "@tigris.dynasty.bull",
    "colour": "@tigris.colour.red",
    "leader": "@tigris.leader.king",
    "monument": "@tigris.monument.red-blue",
    "square": "F4",
    "origin": "B2",
    "squares": ["F4", "F5"],
    "n": 3,
    "turn": 7,
    "abase": 1,
    "dbase": 2,
    "wtotal": 5,
    "ltotal": 4,
    "tiles": ["@tigris.colour.red", "@tigris.colour.blue"],
    "reason": {"key": "tigris.reason.bag", "params": {}},
    "expected": "@tigris.decision.support",
    "choices": ["@tigris.colour.red", "@tigris.tile.farm"],
    "text": "tile purple F4",
    "why": {"key": "tigris.why.colour", "params": {"token": "purple", "choices": []}},
    "kind": "dance",
    "token": "purple",
    "command": "@tigris.word.swap",
    "commands": ["@tigris.word.tile", "@tigris.word.war-order"],
}


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 22])
def test_every_key_renders_with_made_up_parameters(
    n: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Every tigris.* sentence — those the seeded games never emit too — with every
    parameter, the counts through each plural category."""
    caplog.set_level(logging.WARNING, logger="i18n")
    counts = {"n", "abase", "dbase"}
    for key, template in CATALOGUE.items():
        params = {p: (n if p in counts else SAMPLES[p]) for p in placeholders(template)}
        assert render(key, params)
        for lang in ALL:
            out = i18n.tr(lang, key, **params)
            _check_rendered(lang, key, out, ("purple", "dance"))
            if n == 1 and key in TERMS and lang != "en":
                assert out != key.rsplit(".", 1)[-1] or key in _same(lang), (lang, key)
    assert not [r.getMessage() for r in caplog.records if "tigris." in r.getMessage()]


def _same(lang: str) -> set[str]:
    from i18n.check import same_ok

    return same_ok(i18n.catalogue(lang))


def test_the_refusal_texts_are_the_engines_english() -> None:
    with pytest.raises(RulesError) as got:
        parse_text("monument red-red F4", _game(2, 1)[0][0])
    e = got.value
    assert e.key == "tigris.error.parse"
    assert (
        str(e.message) == "Cannot read 'monument red-red F4': a monument has two different colours"
    )
    assert i18n.tr("hu", e.key, **(e.params or {})) == (
        "Nem értelmezhető: „monument red-red F4” – az emlékmű két különböző színű"
    )


def test_descriptions_render_everywhere() -> None:
    actions = {a.kind: a for s, a, _e in _steps()}
    for a in actions.values():
        key = "tigris.describe." + a.kind
        assert describe_action(a) == render(key, _describe_params(a))
    for lang in ALL:
        L = i18n.translator(lang)
        for a in actions.values():
            _check_rendered(lang, a.kind, L("tigris.describe." + a.kind, **_describe_params(a)))


def _describe_params(a: Action) -> dict[str, Any]:
    p: dict[str, Any] = {}
    if a.colour >= 0:
        p["colour"] = "@tigris.colour." + COLOURS[a.colour]
        p["leader"] = "@tigris.leader." + LEADERS[a.colour]
    if a.square >= 0:
        p["square"] = LABELS[a.square]
    if a.kind == "swap":
        p["tiles"] = [
            {"key": "tigris.count.colour", "params": {"n": n, "colour": "@tigris.colour." + c}}
            for c, n in zip(COLOURS, a.tiles, strict=True)
            if n
        ]
    if a.kind == "support":
        p["n"] = a.amount
    if a.kind == "monument":
        p["monument"] = "@tigris.monument." + MONUMENTS[a.monument]
    return p


# ---------------------------------------------------------------- typed commands


@pytest.mark.parametrize("lang", ALL)
def test_tigris_words_are_clean_and_apart_from_brazils(lang: str) -> None:
    assert word_problems(lang, "tigris") == []
    tokens = words(lang, "tigris").tokens
    assert tokens == {k[len("tigris.word.") :] for k in WORDS}
    # Brazil's words are its own (word.*): the Tigris ones (tigris.word.*) do not join them
    en = i18n.catalogue("en").messages
    assert words(lang).tokens == {k[len("word.") :] for k in en if k.startswith("word.")}


def test_english_words_are_the_canonical_tokens() -> None:
    en = i18n.catalogue("en").messages
    assert all(en[k] == k[len("tigris.word.") :] for k in WORDS)


def test_every_legal_action_round_trips_in_every_language() -> None:
    """For every legal action of every decision of the seeded games and every language:
    ``parse_text(canonical(localize(format_action(a), lang), lang), state) == a`` (each
    command text is localized and read back once per language; every action is parsed)."""
    texts: dict[str, None] = {}
    n = 0
    for s, _a, _events in _steps():
        for a in legal_actions(s):
            t = format_action(a)
            texts.setdefault(t)
            assert parse_text(t, s) == a, t
            n += 1
    assert n > 100_000 and len(texts) > 1000
    for lang in ALL:
        for t in texts:
            shown = localize(t, lang, "tigris")
            assert canonical(shown, lang, "tigris") == t, (lang, t, shown)
            typed = canonical(shown.upper(), lang, "tigris")  # as typed in capitals
            assert typed.lower() == t.lower(), (lang, t, shown)
            if lang not in ("en", i18n.PSEUDO):
                assert canonical(t, lang, "tigris") == t  # the canonical notation works too


def test_localized_commands_read_as_typed() -> None:
    s = _game(2, 1)[0][0]
    seat = deciders(s)[0]
    assert localize("tile red F4", "hu", "tigris") == "lapka piros F4"
    assert parse_text(canonical("Lapka Piros f4", "hu", "tigris"), s) == parse_text(
        "tile red F4", s
    )
    assert canonical("épít fűrésztelep D3", "hu") == "build sawmill D3"  # Brazil unchanged
    assert canonical("csere 2piros kek", "hu", "tigris") == "swap 2red blue"
    assert localize("monument red-blue H4", "hu", "tigris") == "emlékmű piros-kék H4"
    assert canonical("Emlékmű kék-Piros H4", "hu", "tigris") == "monument blue-red H4"
    assert parse_text("monument blue-red H4", s) == parse_text("monument red-blue H4", s)
    assert canonical("pomnik czerwony-zielony A1", "pl", "tigris") == "monument red-green A1"
    assert canonical("tauschen alle", "de", "tigris") == "swap all"
    assert localize("leader farmer J7", "de", "tigris") == "anführer bauer J7"
    assert canonical("przywódca król J7", "pl", "tigris") == "leader king J7"
    assert parse_text(canonical("wymień 2 czerwony", "pl", "tigris"), s) == Action(
        "swap", seat, tiles=(0, 2, 0, 0)
    )
    legal = [format_action(a) for a in legal_actions(s)]
    first = localize(legal[0], "hu", "tigris")  # lapka kék E1
    assert first.startswith("lapka ")
    word = first.split()[1]
    shown = complete("Lapka " + word[:3].upper(), legal, "hu", "tigris")
    assert first in shown and all(x.startswith(f"lapka {word} ") for x in shown)
