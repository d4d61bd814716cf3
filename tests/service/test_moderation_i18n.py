"""Undo and moderation in six languages (issue #17): every refusal of service/undo.py and
service/moderation.py is a catalogue message (``svc.undo.*``, ``svc.mod.*``) rendered in the
asker's language, English exactly as before; history labels and the public rollback and seat
posts take ``lang``; the typed command stays canonical, in backticks."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import i18n
from i18n.catalogue import catalogue
from i18n.check import problems
from i18n.pseudo import CLOSE, OPEN
from rules.brazil import apply, deciders, legal_actions, new_game
from rules.brazil.events import Event
from service import GameService, SeatSpec
from service import moderation as mod
from service.games.brazil import adapter as brazil_adapter
from service.results import Refused

ANA, BO, MOD = 101, 102, 900
ROOT = Path(__file__).resolve().parents[2]
OTHERS = ["pt-BR", "fr", "de", "hu", "pl"]
PREFIXES = ("svc.mod.", "svc.undo.")


def _why(key: str, **params: Any) -> dict[str, Any]:
    return {"key": key, "params": params}


# Every refusal key these modules raise, with parameters as the code passes them. The test
# below reads the modules' sources: a refusal added without a row here fails it.
REFUSALS: dict[str, dict[str, Any]] = {
    "svc.undo.over": {},
    "svc.undo.rolled_back": {},
    "svc.undo.no_step": {},
    "svc.undo.decided_since": {"who": "Bo (red)"},
    "svc.mod.reason_needed": {},
    "svc.mod.reason_too_long": {"most": mod.MAX_REASON},
    "svc.mod.rollback.over": {},
    "svc.mod.rollback.changed": {},
    "svc.mod.rollback.range": {"last": 41},
    "svc.mod.changed_meanwhile": {},
    "svc.mod.request.gone": {},
    "svc.mod.request.confirm_not_yours": {},
    "svc.mod.request.cancel_not_yours": {},
    "svc.mod.request.changed": {},
    "svc.mod.seat.over": {},
    "svc.mod.seat.no_such": {"seat": 5, "seats": 2},
    "svc.mod.seat.taken": {"user_id": BO},
    "svc.mod.seat.ai_levels": {"levels": list(mod.AI_LEVELS)},
    "svc.mod.seat.same_ai": {"seat": 2, "level": "random"},
    "svc.mod.seat.last_human": {},
    "svc.mod.abandon.over": {},
    "svc.mod.abandon.not_player": {},
    "svc.mod.abandon.failed": {"error": "database is locked"},
    "svc.mod.import.channel_busy": {},
    "svc.mod.import.channel_taken": {},
    "svc.mod.import.too_large": {"most": mod.MAX_IMPORT_BYTES},
    "svc.mod.import.not_utf8": {},
    "svc.mod.import.no_seats": {},
    "svc.mod.import.refused": {"error": "hash mismatch at v3"},
}

# The reasons of svc.undo.cannot ("You cannot take back `…`: {why}."), each a nested message.
WHYS: list[dict[str, Any]] = [
    _why("svc.undo.why.setup"),
    _why("svc.undo.why.ended_game"),
    _why("svc.undo.why.ended_turn"),
    _why("svc.undo.why.random"),
    _why("svc.undo.why.others_decided", who=["Bo (red)"], n=1),
    _why("svc.undo.why.others_decided", who=["Bo (red)", "Cy (green)"], n=2),
    _why("svc.undo.why.another_decided"),
    _why("svc.undo.why.not_your_turn"),
    _why("svc.undo.why.engine"),
    *(_why(f"svc.undo.since.{rid}") for _, rid in brazil_adapter.REVEALS),
    _why("svc.undo.since.other"),
]


def refusals() -> list[i18n.Msg]:
    out = [i18n.msg(k, **p) for k, p in REFUSALS.items()]
    out += [i18n.msg("svc.undo.cannot", action="build sawmill D3", why=w) for w in WHYS]
    return out


def test_every_key_is_clean_in_every_language() -> None:
    for code in i18n.supported():
        assert problems(code, PREFIXES) == [], code


def test_the_table_names_every_refusal_the_modules_raise() -> None:
    raised: set[str] = set()
    for name in ("service/moderation.py", "service/undo.py"):
        src = (ROOT / name).read_text(encoding="utf-8")
        raised |= set(re.findall(r'Refused\(msg\("([a-z0-9_.]+)"', src))
    assert raised == set(REFUSALS) | {"svc.undo.cannot"}
    # and every reason a refusal can give is in WHYS
    en = catalogue("en").messages
    whys = {k for k in en if k.startswith(("svc.undo.why.", "svc.undo.since."))}
    assert whys == {w["key"] for w in WHYS}


@pytest.mark.parametrize("lang", OTHERS)
def test_each_refusal_is_translated_and_filled(lang: str) -> None:
    for m in refusals():
        text, english = m.text(lang), m.text("en")
        assert text != english, (lang, m.key, text)
        assert "{" not in text and "}" not in text, (lang, m.key, text)
        assert "\n" not in text
        if m.key == "svc.undo.cannot":  # the typed command stays canonical
            assert "`build sawmill D3`" in text
            # the nested reason is in the language too, not English
            reason = i18n.tr("en", m.params["why"]["key"], **m.params["why"]["params"])
            assert reason not in text, (lang, text)


def test_each_refusal_is_bracketed_in_the_pseudo_language() -> None:
    for m in refusals():
        text = m.text(i18n.PSEUDO)
        assert text.startswith(OPEN) and text.endswith(CLOSE), text
        if m.key == "svc.undo.cannot":  # the reason is a message of its own, bracketed too
            assert text.count(OPEN) == 2, text


def test_english_is_as_before() -> None:
    cannot = i18n.msg("svc.undo.cannot", action="build sawmill D3", why=WHYS[5])
    assert str(cannot) == (
        "You cannot take back `build sawmill D3`: Bo (red), Cy (green) had to decide on it."
    )
    assert str(Refused(i18n.msg("svc.mod.import.too_large", most=8 * 1024 * 1024))) == (
        "That file is too large for a game file (over 8388608 bytes)."
    )
    assert mod.not_moderator() == mod.NOT_MODERATOR
    assert mod.not_moderator("de") != mod.NOT_MODERATOR


@pytest.mark.parametrize(("n", "form"), [(1, "musiał"), (2, "musieli"), (5, "musieli")])
def test_polish_agrees_the_verb_with_how_many_decided(n: int, form: str) -> None:
    who = ["Bo"] * n
    text = i18n.tr("pl", "svc.undo.why.others_decided", who=who, n=n)
    assert form in text and text.endswith("Bo"), text


def test_reveal_reasons_in_each_language() -> None:
    explore = Event(kind="explore", reveals=True)
    assert brazil_adapter.reveal_reason([explore]) == "a tile was flipped"
    assert (
        brazil_adapter.reveal_reason([explore], lang="fr")
        == "une tuile Exploration a été retournée"
    )
    other = Event(kind="something_new", reveals=True)
    assert brazil_adapter.reveal_reason([other]) == "something hidden was revealed"
    assert brazil_adapter.reveal_reason([Event(kind="explore")], lang="pl") is None


@pytest.mark.parametrize("lang", OTHERS)
def test_undo_refusal_speaks_the_readers_language_R_TURN_1(lang: str) -> None:
    """R-TURN-1: the same reasons, given exactly when English gives one, never English."""
    rng = random.Random(2)
    st = new_game(2, seed=2)
    seats = [SeatSpec("Ana"), SeatSpec("Bo")]
    seen = 0
    for _ in range(300):
        if st.phase == "ended":
            break
        seat = rng.choice(deciders(st))
        after, events = apply(st, rng.choice(legal_actions(st, seat)))
        en = mod.undo_refusal(st, seat, after, events, seats)
        there = mod.undo_refusal(st, seat, after, events, seats, lang=lang)
        assert (en is None) == (there is None)
        if en is not None and there is not None:
            assert there != en and "{" not in there, (lang, there)
            seen += 1
        st = after
    assert seen > 10


# ---------------------------------------------------------------- through the service


async def two_humans(service: GameService) -> int:
    res = await service.new_game(
        [SeatSpec("Ana", user_id=ANA), SeatSpec("Bo", user_id=BO)], seed=3, channel_id=555
    )
    return res.game_id


async def test_undo_refusals_render_in_the_askers_language_R_TURN_1(
    service: GameService,
) -> None:
    gid = await two_humans(service)
    with pytest.raises(Refused) as e:
        await mod.undo_check(service, gid, 0)
    assert str(e.value) == "You have no step of your own to take back."
    assert e.value.text("de") == "Du hast keinen eigenen Schritt, den du zurücknehmen könntest."
    await service.act(gid, 0, "colour blue")
    with pytest.raises(Refused) as e:
        await mod.undo_check(service, gid, 0)
    assert str(e.value) == "You cannot take back `colour blue`: setup choices cannot be taken back."
    assert e.value.text("fr") == (
        "Vous ne pouvez pas annuler `colour blue`\u00a0: "
        "les choix de la mise en place ne peuvent pas être annulés."
    )
    await service.act(gid, 1, "colour red")
    with pytest.raises(Refused) as e:
        await mod.undo_check(service, gid, 0)
    assert e.value.text("pl") == (
        "Nie możesz tego cofnąć, bo od tego czasu decydował inny gracz: Bo (red)."
    )


async def test_history_labels_and_public_posts_in_a_language(service: GameService) -> None:
    gid = await two_humans(service)
    await service.act(gid, 0, "colour blue")
    await service.act(gid, 1, "colour red")
    start = await mod.history_choices(service, gid, "v0", lang="hu")
    assert start[0].label == "v0 · a játék kezdete"
    # the typed filter reads the labels in the reader's language
    assert [c.version for c in await mod.history_choices(service, gid, "kezdete", lang="hu")] == [0]
    assert await mod.history_choices(service, gid, "kezdete") == []

    res = await mod.rollback(service, gid, 1, by=MOD, reason="misclick", lang="de")
    post = res.public()[0].text
    assert post == f"Ein Moderator (<@{MOD}>) hat das Spiel auf v1 zurückgesetzt. Grund: misclick"
    await service.act(gid, 1, "colour red")
    labels = [c.label for c in await mod.history_choices(service, gid, "", lang="pl")]
    assert labels[0] == "v3 · przywrócenie wersji v1: misclick"
    assert labels[1] == "v2 · Bo gra kolorem: Czerwony. (cofnięte)"  # the step's event, in Polish

    with pytest.raises(Refused) as e:
        await mod.rollback(service, gid, 99, by=MOD, reason="x")
    assert str(e.value) == "Choose a version from the history (v0 to v3)."
    assert e.value.text("pt-BR") == "Escolha uma versão do histórico (de v0 a v3)."

    res = await mod.kick_seat(service, gid, 1, "random", by=MOD, lang="hu")
    assert res.public()[0].text.startswith(
        "Hely: 2 (Bo (vörös)) — új játékos: gépi játékos (könnyű)"
    )
    res = await mod.replace_seat(service, gid, 1, 103, "Cy", by=MOD, lang="fr")
    text = res.public()[0].text
    assert text.startswith(
        "La place 2 (Ordinateur (facile) (rouge)) est désormais jouée par <@103>"
    ), text
    # the slash command as a French Discord client names it (issue #32)
    assert f"`/{catalogue('fr').messages['cmd.hand.name']}`" in text and "`/hand`" not in text


async def test_import_refusals_in_a_language(service: GameService) -> None:
    with pytest.raises(Refused) as e:
        await mod.import_file(service, b"\xff\xfe", channel_id=777, guild_id=None)
    assert str(e.value) == "That is not a game file: it is not UTF-8 text."
    assert e.value.text("hu") == "Ez nem játékfájl: nem UTF-8 szöveg."
    with pytest.raises(Refused) as e:
        await mod.import_file(service, b"{}", channel_id=777, guild_id=None)
    assert str(e.value).startswith("That game file was refused: ")
    assert e.value.text("pl").startswith("Plik gry został odrzucony: ")
