"""The typed command language in every language (issue 17): one canonical notation
(rules.brazil.notation) that works in every language, and each language's words for its verbs and
components, read back by the parser and offered by autocomplete in the user's language.
Round trip over whole seeded games: for every legal action and language,
``parse_text(canonical(localize(format_action(a), lang), lang)) == a``."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import i18n
from i18n.notation import canonical, complete, fold, localize, problems, words
from rules.brazil import deciders, get_catalog, legal_actions
from rules.brazil.notation import format_action, legal_texts, parse_text
from rules.brazil.state import GameState
from service import GameService
from storage import SqliteGameStore
from tests.selfplay_steps import GAMES, recorded

LANGS = [*i18n.supported(), i18n.PSEUDO]
OTHERS = [c for c in i18n.supported() if c != "en"]
HEX = re.compile(r"^[A-Z]\d+$")


def _decisions() -> Iterator[tuple[GameState, int, list[Any]]]:
    """Every decision of the recorded seeded self-play games (1 to 4 players, battles and
    era changes): (state, seat, legal actions of that seat)."""
    for players, seed in GAMES:
        for before, _action, _after, _events in recorded(players, seed):
            for seat in deciders(before):
                yield before, seat, legal_actions(before.clone(), seat)


# ---------------------------------------------------------------- the words themselves


@pytest.mark.parametrize("lang", LANGS)
def test_words_are_lower_case_distinct_and_never_another_token(lang: str) -> None:
    assert problems(lang) == []


def test_english_words_are_the_canonical_tokens() -> None:
    en = i18n.catalogue("en").messages
    keys = [k for k in en if k.startswith("word.")]
    assert len(keys) > 140
    assert all(en[k] == k[len("word.") :] for k in keys)


def test_every_catalog_id_typed_in_commands_has_a_word() -> None:
    cat = get_catalog()
    ids = {*cat.sides, *cat.cities, *cat.products, *cat.arches, *cat.paintings}
    ids |= {*cat.monarchs, *cat.colours, *cat.gold_cards, *cat.combat_cards}
    ids |= {u.split(".", 1)[1] for u in cat.units}
    assert ids <= words("en").tokens, sorted(ids - words("en").tokens)


@pytest.mark.parametrize("lang", OTHERS)
def test_word_keys_pass_the_catalogue_check(lang: str) -> None:
    from i18n.check import problems as catalogue_problems

    assert catalogue_problems(lang, ("word.",)) == []


# ---------------------------------------------------------------- round trips over whole games


@pytest.mark.slow
def test_every_legal_action_round_trips_in_every_language() -> None:
    """Every legal action of every decision of the seeded games, in every language (and the
    pseudo-language): the localized command reads back to the canonical one, the canonical
    command is left as it is, and every word of it is a token, a hex, a number or a mission;
    a sample of them is parsed back to the very action."""
    rng = random.Random(17)
    tokens = words("en").tokens
    missions = set(get_catalog().missions)
    seen_types: dict[str, set[str]] = {lang: set() for lang in LANGS}
    parsed = checked = 0
    for state, seat, legal in _decisions():
        for a in legal:
            text = format_action(state, a)
            for atom in re.split(r"\s+|[+@:,]", text):
                bare = re.sub(r"^\d+", "", atom)
                assert (
                    not atom
                    or atom.isdigit()
                    or bare in tokens
                    or HEX.match(atom)
                    or atom in missions
                    or re.fullmatch(r"seat\d", atom)
                ), (atom, text)
            for lang in LANGS:
                shown = localize(text, lang)
                assert canonical(shown, lang) == text, (lang, text, shown)
                assert canonical(text, lang) == text, (lang, text)
                checked += 1
                if a.type not in seen_types[lang] or rng.random() < 0.003:
                    seen_types[lang].add(a.type)
                    got = parse_text(state.clone(), seat, canonical(shown, lang))
                    assert got == a, (lang, shown)
                    parsed += 1
    assert checked > 10_000 and parsed > 200
    assert all({"build", "move", "recruit", "end_turn"} <= t for t in seen_types.values())


# ---------------------------------------------------------------- typing in a language


def _find(pred: Callable[[Any], bool]) -> tuple[GameState, int, Any]:
    for state, seat, legal in _decisions():
        for a in legal:
            if pred(a):
                return state, seat, a
    raise AssertionError("no such action in the recorded games")


def test_build_typed_in_each_language_R_BUILD_1() -> None:
    state, seat, a = _find(lambda a: a.type == "build" and a.building == "sawmill")
    typed = {
        "pt-BR": f"construir serraria {a.at}",
        "fr": f"Construire scierie {a.at.lower()}",
        "de": f"bauen Sägewerk {a.at}",
        "hu": f"épít fűrésztelep {a.at}",
        "pl": f"budowa tartak {a.at}",
    }
    for lang, text in typed.items():
        assert parse_text(state, seat, canonical(text, lang)) == a, (lang, text)
        # the canonical command, and a mix of both, read in every language
        assert parse_text(state, seat, canonical(f"build sawmill {a.at}", lang)) == a
        assert parse_text(state, seat, canonical(f"{text.split()[0]} sawmill {a.at}", lang)) == a
    assert localize(f"build sawmill {a.at}", "hu") == f"épít fűrésztelep {a.at}"
    assert localize(f"build sawmill {a.at}", "pt-BR") == f"construir serraria {a.at}"


def test_accents_and_case_are_folded_and_beginnings_read_R_BUILD_1() -> None:
    state, seat, a = _find(lambda a: a.type == "build" and a.building == "foundry")
    for lang, text in [
        ("hu", f"EPIT aranyontode {a.at}"),
        ("pl", f"budowa odlewnia zlota {a.at}"),  # ł typed as l
        ("pl", f"buduj odlewnia {a.at}"),  # an alternative word, a shorter name
        ("de", f"bauen munzst {a.at}"),  # a beginning of a word
        ("pt-BR", f"construir FUNDICAO {a.at}"),
        ("fr", f"construire fonderie {a.at}"),
    ]:
        assert parse_text(state, seat, canonical(text, lang)) == a, (lang, text)
    assert fold("Odlewnia Złota") == fold("odlewnia zlota") == "odlewnia zlota"
    assert fold("Fűrésztelep") == "fureszTelep".lower()
    assert fold("Straße-Keep_unit") == "strasse keep unit"


def test_units_goods_and_numbers_R_RECRUIT_1() -> None:
    state, seat, a = _find(lambda a: a.type == "recruit" and len(a.deploy) == 1 and a.draw == 1)
    text = format_action(state, a)
    for lang in OTHERS:
        shown = localize(text, lang)
        assert "+" + words(lang).show["card"] in shown
        assert parse_text(state, seat, canonical(shown.upper(), lang)) == a, (lang, shown)


def test_multi_word_names_and_payment_R_TRADE_1() -> None:
    state, seat, a = _find(
        lambda a: a.type == "exchange" and a.kind == "pair" and "coffee" in a.give
    )
    text = format_action(state, a)
    pl = localize(text, "pl")
    assert "kawa" in pl and "wymiana para" in pl
    assert parse_text(state, seat, canonical(pl, "pl")) == a
    # the words of several words, in a list joined by +
    assert canonical("odrzuć trzcina cukrowa+ziarna kawy", "pl") == "discard sugar_cane+coffee"
    assert canonical("zahlen D4:Brasilholz geld:Jesuiten kampf:Miliz", "de") == (
        "pay D4:brazilwood gold:jesuits combat:militia"
    )


def test_what_is_not_a_word_is_left_for_the_parser_to_explain() -> None:
    assert canonical("épít zzzz D3", "hu") == "build zzzz D3"
    state, seat, _a = _find(lambda a: a.type == "build")
    with pytest.raises(Exception, match="zzzz"):
        parse_text(state, seat, canonical("épít zzzz D3", "hu"))


# ---------------------------------------------------------------- autocomplete


def test_autocomplete_in_the_users_language() -> None:
    state, seat, _a = _find(lambda a: a.type == "build")
    texts = legal_texts(state, seat)
    builds = sorted(localize(t, "hu") for t in texts if t.startswith("build "))
    assert complete("épít ", texts, "hu") == sorted(builds, key=lambda s: (fold(s), s))
    assert set(complete("EPIT ", texts, "hu")) == set(builds)  # accents and case folded
    assert set(complete("build ", texts, "hu")) == set(builds)  # canonical typing works too
    assert complete("zzz", texts, "hu") == []
    some = builds[0]
    assert complete(some[:-1], texts, "hu")[0].startswith(some[:-1])


# ---------------------------------------------------------------- through the game service


async def test_the_service_takes_and_shows_commands_in_the_users_language(
    tmp_path: Path,
) -> None:
    async with SqliteGameStore(str(tmp_path / "g.sqlite3")) as store:
        svc = GameService(store)
        res = await svc.new_game(["Ana", "Bo"], seed=1)
        gid = res.game_id
        assert "szín kék" in await svc.legal(gid, 0, lang="hu")
        assert "colour blue" in await svc.legal(gid, 0)
        assert await svc.complete(gid, 0, "szín k", lang="hu") == ["szín kék"]
        assert await svc.complete(gid, 0, "colour b") == ["colour blue"]
        out = await svc.act(gid, 0, "Szín Kék", lang="hu")
        assert not out.errors
        assert (await svc.state(gid)).players[0].colour == "blue"
        out = await svc.act(gid, 1, "colour red", lang="pl")  # canonical in any language
        assert not out.errors
        async with svc.session(gid) as s:
            seat = next(q for q in (0, 1) if s.decides(q))
            shown = s.legal_texts(seat, lang="de")
            assert shown and shown != s.legal_texts(seat)
            assert s.complete(seat, "", lang="de") == sorted(shown, key=lambda t: (fold(t), t))


# ---------------------------------------------------------------- any text at all

_PIECES = [*"abcdeéőłßzZ019", " ", "+", "@", ":", ",", "-", "_", ".", "'", "épít", " pay ", "D3"]
_TYPED = st.lists(st.sampled_from(_PIECES), max_size=25).map("".join)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(text=_TYPED, lang=st.sampled_from(LANGS))
def test_any_typed_text_reads_without_error(text: str, lang: str) -> None:
    """Whatever is typed, reading it never fails (the parser explains what it cannot
    read), reading it again changes nothing, and completing it never fails."""
    once = canonical(text, lang)
    assert canonical(once, lang) == once
    assert isinstance(complete(text, ["build sawmill D3", "pass"], lang), list)
    assert isinstance(localize(text, lang), str)
