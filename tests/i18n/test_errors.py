"""The engine's refusals in every language (issue 17): every error the engine raises is a
message key (``error.*``) with parameters; its English ``message`` is that key rendered
(rules/brazil/error_messages.py, part of the engine's catalogue), and every language renders the
same key and parameters. A sweep provokes many errors on the states of seeded self-play
games — other seats' actions, actions of other types, malformed typed commands and action
objects — and checks each one in every language and in the pseudo-language."""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import i18n
from i18n.catalogue import clear_locale_dirs
from i18n.check import problems
from rules.brazil import actions as A
from rules.brazil.engine import apply, legal_actions
from rules.brazil.messages import EN, render_message
from rules.brazil.notation import format_action, parse_text
from rules.brazil.paying import payment_step
from rules.brazil.setup import new_game
from rules.brazil.state import GameState
from rules.errors import IllegalAction, InvalidAction, NotYourDecision, RulesError
from service import GameService
from service.results import ErrorInfo
from storage import SqliteGameStore
from tests.selfplay_steps import all_steps

LANGS = [c for c in i18n.supported() if c != "en"]
KEYS = {k for k in EN if k.startswith("error.")}
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:|][^{}]*)?\}")
LEFTOVER = ("@term.", "@error.", "@good.", "@phrase.", "{'key'", "'params'")

# Typed commands that do not read, or read as something not legal now.
TEXTS = [
    "",
    "fly to the moon",
    "buld sawmill D3",
    "build",
    "build sawmill",
    "build sawmill Z99",
    "build sawmill D3 D4",
    "build zzzz D3",
    "pay coffee",
    "colour purple",
    "colour red blue",
    "move",
    "move brawler1",
    "move brawler1 A1",
    "move monarch D3 carry monarch",
    "recruit brawler1",
    "recruit D3",
    "recruit +x",
    "exchange coffee militia",
    "exchange cotton cotton cotton",
    "end foo",
    "war maybe",
    "gold",
    "gold jesuits",
    "gold espionage D3",
    "discard coffee militia",
    "pass now",
    "end trade pay coffee",
    "keep-unit",
    "palace 9 D3",
    "retreat",
    "capital A1",
    "monarch nobody",
    "mission nothing",
    "import gold",
    "trade",
    "manufacture dye victoria",
    "renovate D3",
    "painting oca",
    "peek D3",
    "bombard cannon D3",
    "expedition D3",
    "token coroados",
    "deck red",
    "era 3",
    "good gold",
    "cards parley",
    "s",
]

BAD_OBJECTS: list[Any] = [
    {"type": "build", "seat": 0},
    {"type": "build", "seat": True, "building": "sawmill", "at": "D3"},
    {"type": "nosuch", "seat": 0},
    5,
    "not json",
    {"type": "build", "seat": 0, "building": "sawmill", "at": "D3", "payment": {1}},
]


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    clear_locale_dirs()
    yield
    clear_locale_dirs()


def test_every_error_key_is_translated_cleanly() -> None:
    """``python -m i18n check --prefix error.``: every error key in every language, translated,
    the same placeholders, every CLDR plural category, NFC."""
    assert len(KEYS) > 250
    for lang in LANGS:
        assert problems(lang, ("error.",)) == []
        assert set(i18n.catalogue(lang).messages) >= KEYS
        assert i18n.catalogue(lang).sources["error.game_over"].name == "errors.toml"


def _errors_of(fn: Callable[..., object], *args: Any, **kw: Any) -> RulesError | None:
    """The RulesError ``fn(*args, **kw)`` raises, or None."""
    try:
        fn(*args, **kw)
    except RulesError as e:
        return e
    return None


def _sample_states() -> list[GameState]:
    """States of the seeded games: every 9th step, plus the first of each game."""
    out: list[GameState] = []
    for i, (_p, _s, (before, _a, _after, _ev)) in enumerate(all_steps()):
        if i % 9 == 0:
            out.append(before)
    return out


def _provoked() -> list[RulesError]:
    states = _sample_states()
    # one action of every type seen, to try where it is not legal
    by_type: dict[str, Any] = {}
    for _p, _s, (_b, a, _af, _ev) in all_steps():
        by_type.setdefault(a.type, a)
    errors: list[RulesError] = []
    for k, st in enumerate(states):
        seats = range(st.n)
        legal = {s: legal_actions(st, s) for s in seats}
        for s in seats:
            # another seat's legal action, sent as this seat
            for other in seats:
                if other != s and legal[other]:
                    a = legal[other][k % len(legal[other])].replace(seat=s)
                    errors.append(_errors_of(apply, st, a))
                    text = format_action(st, legal[other][0])
                    errors.append(_errors_of(parse_text, st, s, text))
            # actions of other types (every 3rd state: the sweep stays quick)
            if k % 3 == 0:
                for a in by_type.values():
                    b = a.replace(seat=s)
                    errors.append(_errors_of(apply, st, b))
            # malformed typed commands
            for t in TEXTS[k % 4 :: 4] if k % 2 else TEXTS:
                errors.append(_errors_of(parse_text, st, s, t))
            # payments that cannot be completed
            for a in legal[s][:3]:
                bad = [A.PayItem(source="reserve", what="science")] * 3
                errors.append(_errors_of(payment_step, st, a, bad))
    st0 = states[0]
    errors.append(_errors_of(parse_text, st0, 7, "pass"))
    errors += [_errors_of(A.parse_action, o) for o in BAD_OBJECTS]
    for args in [(0, 1), (2, "x"), (5, 1), (2, 1, "nosuch"), (3, 1, "brazil_4p")]:
        errors.append(_errors_of(new_game, *args))
    errors.append(_errors_of(new_game, 2, 1, city_limit=-1))
    return [e for e in errors if e is not None]


def _keys(key: str, params: Any) -> Iterator[str]:
    """An error's key and the keys nested in its parameters."""
    yield key
    for v in params.values():
        yield from _nested_keys(v)


def _nested_keys(v: Any) -> Iterator[str]:
    if isinstance(v, str) and v.startswith("@error."):
        yield v[1:]
    elif isinstance(v, dict) and isinstance(v.get("key"), str):
        yield from _keys(v["key"], v.get("params") or {})
    elif isinstance(v, list):
        for x in v:
            yield from _nested_keys(x)


@pytest.fixture(scope="module")
def provoked() -> list[RulesError]:
    return _provoked()


@pytest.mark.slow
def test_provoked_errors_are_keyed_and_their_english_is_the_message(
    provoked: list[RulesError],
) -> None:
    """Every error the sweep provokes has an ``error.*`` key; its message is the engine's
    English rendering of the key and parameters, and the English catalogue (i18n) renders
    the same text."""
    assert len(provoked) > 3000
    keys = {k for e in provoked for k in _keys(e.key, e.params) if not k.startswith("phrase.")}
    assert all(k in KEYS for k in keys), sorted(keys - KEYS)
    assert len(keys) > 80, len(keys)
    print(f"{len(provoked)} errors, {len(keys)} of {len(KEYS)} error keys")
    assert {InvalidAction, IllegalAction, NotYourDecision} <= {type(e) for e in provoked} | {
        c for e in provoked for c in type(e).__mro__
    }
    for e in provoked:
        assert e.key, e.message
        assert render_message(e.key, e.params) == e.message
        assert i18n.tr("en", e.key, **e.params) == e.message, (e.key, e.message)


@pytest.mark.slow
def test_provoked_errors_render_in_every_language_and_the_pseudo_language(
    provoked: list[RulesError], caplog: pytest.LogCaptureFixture
) -> None:
    """In every language: no placeholder, term reference or nested message left as text, no
    error key falling back to English; in the pseudo-language every error is bracketed."""
    caplog.set_level(logging.WARNING, logger="i18n")
    seen: dict[str, RulesError] = {}
    for e in provoked:
        seen.setdefault(repr((e.key, sorted(map(str, e.params.items())))), e)
    for lang in [*LANGS, i18n.PSEUDO]:
        L = i18n.translator(lang)
        for e in seen.values():
            out = L(e.key, **e.params)
            assert out and not PLACEHOLDER.search(out), (lang, e.key, out)
            assert not any(x in out for x in LEFTOVER), (lang, e.key, out)
            if lang == i18n.PSEUDO:
                assert out.startswith("[") and out.endswith("]"), (e.key, out)
    fallbacks = [r.getMessage() for r in caplog.records if "English shown" in r.getMessage()]
    assert not [f for f in fallbacks if "'error." in f], fallbacks[:5]


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("fr", "B4 est de l’eau\u00a0: rien ne peut y être construit"),
        ("de", "B4 ist Wasser: dort kann nichts gebaut werden"),
        ("hu", "B4 víz: oda semmit sem lehet építeni"),
        ("pl", "B4 to woda: nic tam nie można zbudować"),
        ("pt-BR", "B4 é água: nada pode ser construído ali"),
    ],
)
def test_a_refusal_by_hand(lang: str, text: str) -> None:
    e = IllegalAction.of("R-BUILD-3", "error.build.water", hex="B4")
    assert e.message == "B4 is water: nothing can be built there"
    assert str(e) == "B4 is water: nothing can be built there (R-BUILD-3)"
    assert i18n.tr(lang, e.key, **e.params) == text


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "odrzuć dokładnie 1 złotą kartę, aby zejść do 3"),
        (2, "odrzuć dokładnie 2 złote karty, aby zejść do 3"),
        (5, "odrzuć dokładnie 5 złotych kart, aby zejść do 3"),
    ],
)
def test_polish_card_counts_one_few_many(n: int, text: str) -> None:
    assert i18n.tr("pl", "error.discard.cards_gold", n=n, limit=3) == text


def test_component_names_and_nested_parts_follow_the_reader() -> None:
    """A component is a term reference (named in the reader's language); the legal-commands
    hint nested in a typed-command refusal is translated too, the commands stay canonical."""
    e = IllegalAction.of(
        "R-BUILD-2", "error.build.era", building="@term.building.sawmill", era=2, now=1
    )
    assert e.message == "Sawmill is an era 2 building; this is era 1"
    assert i18n.tr("hu", e.key, **e.params).startswith("Fűrésztelep: 2. kori épület")
    st = new_game(2, 1)
    err = _errors_of(parse_text, st, 0, "build sawmill D3")
    assert isinstance(err, (NotYourDecision, IllegalAction))
    fr = i18n.tr("fr", err.key, **err.params)
    assert fr.startswith("Impossible de faire `build sawmill D3`") and "`colour " in fr
    assert "Legal" not in fr and "must" not in fr


def test_an_error_pickles_with_its_key() -> None:
    import pickle

    e = IllegalAction.of("R-BUILD-3", "error.build.water", hex="B4")
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is IllegalAction and again.key == e.key and again.params == e.params
    assert again.message == e.message and str(again) == str(e)


def test_error_info_text_in_a_language() -> None:
    info = ErrorInfo(
        0,
        "R-BUILD-3",
        "B4 is water: nothing can be built there",
        "error.build.water",
        {"hex": "B4"},
    )
    assert (
        info.text_in("en") == info.text() == "B4 is water: nothing can be built there (R-BUILD-3)"
    )
    assert info.text_in("de") == "B4 ist Wasser: dort kann nichts gebaut werden (R-BUILD-3)"
    plain = ErrorInfo(0, "", "the game changed meanwhile: try again")
    assert plain.text_in("fr") == plain.message == plain.message_in("pl")


async def test_the_service_refusal_carries_the_key(tmp_path: Path) -> None:
    """A refused command through the game service: the error has the engine's key and
    parameters and reads in the player's language."""
    async with SqliteGameStore(str(tmp_path / "g.sqlite3")) as store:
        svc = GameService(store)
        gid = (await svc.new_game(["Ana", "Bo"], seed=1)).game_id
        for seat, text in [
            (0, "build sawmill D3"),
            (1, "colour red"),
            (0, "fly to the moon"),
            (5, "x"),
        ]:
            out = await svc.act(gid, seat, text)
            err = out.errors[0]
            assert err.key.startswith("error."), err
            assert i18n.tr("en", err.key, **err.params) == err.message
            for lang in LANGS:
                t = err.text_in(lang)
                assert t != err.text() and not PLACEHOLDER.search(t), (lang, t)
            assert err.text_in(i18n.PSEUDO).startswith("[")
        bad = await svc.choose(gid, 1, A.ChooseColour(seat=0, colour="red"))
        assert bad.errors[0].key == "error.seat.other"


def test_no_error_template_is_unused() -> None:
    """Every ``error.*`` template is raised somewhere (named literally, or as one of the
    keys an f-string key stands for)."""
    import rules

    src = (
        "\n".join(p.read_text() for p in Path(rules.__file__).parent.rglob("*.py"))
        + (Path(rules.__file__).parents[1] / "service" / "core.py").read_text()
    )
    literal = set(re.findall(r'"@?(error\.[a-z0-9_.]+)"', src))
    patterns = [
        re.compile(re.escape(m.group(1)).replace(r"\{", "{").split("{")[0] + ".*")
        for m in re.finditer(r'f"@?(error\.[a-z0-9_.]*\{)', src)
    ]
    unused = {k for k in KEYS if k not in literal and not any(p.fullmatch(k) for p in patterns)}
    assert unused == set(), sorted(unused)
    assert list(itertools.islice(sorted(literal - KEYS), 5)) == []


def test_the_decision_prompts_are_the_error_prompts() -> None:
    """ "<player> must first <prompt>": each pending decision's prompt is an error.prompt.* key
    whose English is the registry's prompt."""
    from rules.brazil.decisions import DECISIONS

    for kind, d in DECISIONS.items():
        assert EN[f"error.prompt.{kind}"] == d.prompt, kind
    assert {k for k in KEYS if k.startswith("error.prompt.")} == {
        f"error.prompt.{k}" for k in DECISIONS
    }
    info = ErrorInfo(0, "R-BUILD-3", "x", "error.build.water", {"hex": "B4"})
    assert hash(info) == hash(ErrorInfo(0, "R-BUILD-3", "x", "error.build.water", {"hex": "C1"}))
