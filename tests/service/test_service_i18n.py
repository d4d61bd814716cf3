"""The game service's own texts in six languages (issue #17): the lobby (service/lobby.py),
the timeout policies and input errors (service/pacing.py) and the notices of slow games
(service/pace.py) are catalogue messages (``svc.lobby.*``, ``svc.pacing.*``,
``svc.notice.*``). Public texts — the lobby, time-is-up flags and posts, stalled and archived
notices, the status message's pacing lines — are in the game's language; a reminder is in the
pinged player's language; refusals carry an :class:`i18n.Msg` for the asker's language.
English stays exactly as before (tests/service/test_pace.py and test_lobby.py assert it); in
the pseudo-language no word is left outside brackets but names, mentions and commands."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, get_args

import pytest

import i18n
from i18n.check import problems
from rules.brazil import PendingKind
from service import GameService, SeatSpec
from service.ai_scale import ai_shown
from service.games import seat_label
from service.lobby import CLOSED, LOBBY_MANAGER, colour_choices, lobby_text
from service.pace import Notice, Schedule
from service.pacing import (
    BadInput,
    FakeClock,
    PacingSettings,
    format_duration,
    parse_duration,
    parse_quiet_hours,
    reminder_text,
    what_text,
)
from service.results import Refused
from storage import GameRecord
from tests.i18n.pseudo import unbracketed_words
from tests.service.test_pace import to_end_turn, to_turn_start

ANA, BO = 101, 102
T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[2]
OTHERS = ["pt-BR", "fr", "de", "hu", "pl"]
PREFIXES = ("svc.lobby.", "svc.pacing.", "svc.notice.")
LEVELS = ["random", "heuristic", "search"]
NAMES = ["Ana", "Bo", *LEVELS]
"""What may stand outside the pseudo-language's brackets: the players' names, the AI levels
(ids shown as they are, like a typed command)."""


def _colour(c: str) -> dict[str, Any]:
    return {"key": f"svc.lobby.colour.{c}", "params": {}}


# Every refusal key service/lobby.py raises and every input error of service/pacing.py, with
# parameters as the code passes them. The test below reads the sources: a refusal added
# without a row here fails it.
REFUSALS: dict[str, dict[str, Any]] = {
    "svc.lobby.manager_only": {},
    "svc.lobby.closed": {},
    "svc.lobby.no_scenario": {"scenario": "atlantis"},
    "svc.lobby.ai_level": {
        "level": "genius",
        "levels": ["@ai.level.word.random", "@ai.level.word.search"],
    },
    "svc.lobby.players.game": {"title": "@game.tigris", "min": 2, "max": 4},
    "svc.lobby.no_game": {"game": "chess", "games": "brazil, tigris"},
    "svc.lobby.channel_busy": {},
    "svc.lobby.join_first": {},
    "svc.lobby.gone": {},
    "svc.lobby.colour_taken": {"colour": _colour("green")},
    "svc.lobby.already_in": {},
    "svc.lobby.full": {},
    "svc.lobby.not_in": {},
    "svc.lobby.cannot_start": {"error": "no map for 3 players"},
    "svc.lobby.cap": {"games": 3, "most": 3},
    "svc.pacing.not_a_duration": {"text": "soon"},
    "svc.pacing.duration_zero": {},
    "svc.pacing.not_hours": {"text": "night"},
    "svc.pacing.hours_range": {},
}


def refusals() -> list[i18n.Msg]:
    out = [i18n.msg(k, **p) for k, p in REFUSALS.items()]
    out += [i18n.msg("svc.lobby.colour_taken", colour=_colour(c)) for c in ("orange", "red")]
    return out


def _no_fields(text: str) -> bool:
    return "{" not in text and "}" not in text


# ============================================================================ the catalogue


def test_every_key_is_clean_in_every_language() -> None:
    for code in i18n.supported():
        assert problems(code, PREFIXES) == [], code


def test_the_table_names_every_refusal_the_modules_raise() -> None:
    raised: set[str] = set()
    lobby = (ROOT / "service/lobby.py").read_text(encoding="utf-8")
    raised |= set(re.findall(r'Refused\(msg\("([a-z0-9_.]+)"', lobby))
    raised |= set(re.findall(r'^[A-Z_]+ = msg\("([a-z0-9_.]+)"', lobby, re.M))
    pacing = (ROOT / "service/pacing.py").read_text(encoding="utf-8")
    raised |= set(re.findall(r'BadInput\(msg\("([a-z0-9_.]+)"', pacing))
    assert raised == set(REFUSALS)
    # no refusal or input error of these modules is a plain (English) text any more
    for name in ("service/lobby.py", "service/pace.py", "service/pacing.py"):
        src = (ROOT / name).read_text(encoding="utf-8")
        assert not re.search(r'Refused\(f?"', src), name
    # the one plain ValueError left is a programmer's (a naive datetime for FakeClock)
    assert pacing.count("raise ValueError(") == 1


@pytest.mark.parametrize("lang", OTHERS)
def test_each_refusal_is_translated_and_filled(lang: str) -> None:
    for m in refusals():
        text, english = m.text(lang), m.text("en")
        assert text != english, (lang, m.key, text)
        assert _no_fields(text), (lang, m.key, text)
        for code in ("`atlantis`", "`soon`", "`night`", "`3d`", "`22:00-08:00`"):
            if code in english:  # typed words stay canonical, in backticks
                assert code in text, (lang, m.key, text)
    assert "Grün" in i18n.msg("svc.lobby.colour_taken", colour=_colour("green")).text("de")


def test_refusals_keep_their_english() -> None:
    assert str(Refused(LOBBY_MANAGER)) == (
        "Only the lobby's creator or a moderator can add computer players or start."
    )
    assert str(Refused(CLOSED)) == "This lobby is closed."
    taken = i18n.msg("svc.lobby.colour_taken", colour=_colour("green"))
    assert str(taken) == "Green is taken: choose another."
    with pytest.raises(BadInput) as e:
        parse_duration("soon")
    assert str(e.value) == "`soon` is not a duration: write e.g. `3d`, `12h`, `1d12h` or `90m`"
    assert e.value.msg.text("pl").startswith("`soon` to nie jest czas trwania")
    with pytest.raises(BadInput) as e:
        parse_quiet_hours("25-8")
    assert str(e.value) == "hours are 00:00 to 23:59"
    assert isinstance(e.value, ValueError)  # callers catching ValueError still do


async def test_pacing_refusals_in_the_askers_language(service: GameService) -> None:
    res = await service.new_game([SeatSpec("Ana", user_id=ANA), "ai:random"], seed=3)
    gid = res.game_id
    with pytest.raises(Refused) as e:
        await service.pacing.set_deadline(gid, "soon")
    assert str(e.value).startswith("`soon` is not a duration")
    assert e.value.text("de").startswith("`soon` ist keine Dauer")
    with pytest.raises(Refused) as e:
        await service.pacing.set_quiet_hours(ANA, "night")
    assert e.value.text("fr").startswith("`night` n’est pas une plage horaire")
    with pytest.raises(Refused) as e:
        await service.pacing.away(gid, 0, "0h", by_user=ANA)
    assert str(e.value) == "a duration must be longer than zero"
    assert e.value.text("hu") == "az időtartamnak nullánál hosszabbnak kell lennie"


@pytest.mark.parametrize("lang", OTHERS)
def test_policies_durations_and_decisions_in_each_language(lang: str) -> None:
    settings = [
        PacingSettings(policy="wait"),
        PacingSettings(policy="default"),
        PacingSettings(policy="default", stand_ins=False),
        PacingSettings(policy="ai", stand_in_level="random"),
    ]
    for s in settings:
        text = s.policy_text(lang)
        assert text != s.policy_text("en") and _no_fields(text), (lang, text)
        if s.ai_stands_in:
            # the level in words, the slash command as the language's client names it
            word = i18n.tr(lang, f"ai.level.word.{s.stand_in_level}")
            seat_back = i18n.render_template(lang, "`{/seat back}`", {})
            assert word in text and seat_back in text and "/seat back" not in text
    for kind in ("turn", *get_args(PendingKind)):
        assert what_text(kind, lang) != what_text(kind, "en"), (lang, kind)
    assert format_duration(timedelta(days=1, hours=12), lang) != "1d 12h"
    assert format_duration(timedelta(days=1, hours=12)) == "1d 12h"


# ============================================================================ the lobby


async def _lobby(svc: GameService, channel: int, lang: str) -> GameRecord:
    rec = await svc.lobbies.open(
        channel,
        7,
        ANA,
        scenario="tordesillas",
        players=3,
        ai_seats=1,
        ai_level="random",
        deadline_hours=48,
        language=lang,
    )
    return await svc.lobbies.colour(rec.id, ANA, "blue")


async def test_the_lobby_in_the_games_language(service: GameService) -> None:
    en = await _lobby(service, 1, "en")
    de = await _lobby(service, 2, "de")
    english = lobby_text(en)
    rated = ai_shown("brazil", "random")  # the calibrated level's rating (docs/ratings-ai.md)
    ai_seat = "Computer (easy" + ("" if rated is None else f", ≈ {i18n.number('en', rated)}")
    assert english.splitlines() == [
        f"## Brazil: Imperial — new game #{en.id}",
        "Scenario: tordesillas",
        "Turn deadline: 48 h",
        "1. <@101> — blue",
        f"2. {ai_seat})",
        "3. (open)",
        "Join, choose a colour if you like, add computer players, then Start "
        "(empty seats become AI players).",
    ]
    german = lobby_text(de)
    assert german == lobby_text(en, "de").replace(f"#{en.id}", f"#{de.id}")
    assert _no_fields(german)
    for line, eng in zip(german.splitlines(), english.splitlines(), strict=True):
        assert line != eng.replace(f"#{en.id}", f"#{de.id}"), line  # the AI seat's too
    assert "Vertrag von Tordesillas" in german and "— Blau" in german and "(frei)" in german
    assert lobby_text(de, "en") == english.replace(f"#{en.id}", f"#{de.id}")
    # the colour menu in the language asked for; English the catalogue's names
    assert dict(colour_choices())["blue"] == "Blue"
    assert dict(colour_choices("de"))["blue"] == "Blau"
    assert dict(colour_choices("pl"))["red"] == "Czerwony"


async def test_a_started_lobby_names_an_unknown_player_in_its_language(
    service: GameService,
) -> None:
    lobby = await service.lobbies.open(
        3,
        7,
        ANA,
        scenario=None,
        players=2,
        ai_seats=1,
        ai_level="random",
        deadline_hours=24,
        language="pl",
    )
    res = await service.lobbies.start(lobby, {}, default_level="random", default_scenario=None)
    info = await service.info(res.game_id)
    assert info.seats[0].name == "Gracz 1"


# ============================================================================ the notices


async def _game(
    svc: GameService, clock: FakeClock, channel: int, lang: str, *, bo: bool = False
) -> int:
    other = SeatSpec("Bo", user_id=BO) if bo else SeatSpec.parse("ai:random")
    res = await svc.new_game(
        [SeatSpec("Ana", user_id=ANA), other], seed=3, channel_id=channel, language=lang
    )
    svc.pacing.clock = clock
    await svc.run_ai_turns(res.game_id)
    await svc.pacing.refresh(res.game_id)
    return res.game_id


def _past_deadline(clock: FakeClock, sched: Schedule) -> None:
    """An hour past seat 0's deadline."""
    due = sched.seats[0].deadline
    assert due is not None
    clock.set(due + timedelta(hours=1))


async def _tick(svc: GameService, gid: int) -> list[Notice]:
    async with svc.lock(gid):
        t = await svc.pacing.tick_game(gid)
        for n in t.notices:
            await svc.pacing.delivered(n)
    return t.notices


async def _wait_policy_notices(
    svc: GameService, clock: FakeClock, channel: int, lang: str
) -> list[Notice]:
    """A game in ``lang`` under the ``wait`` policy: two reminders, the flag at the deadline,
    the overdue reminder and the stalled notice."""
    clock.set(T0)
    gid = await _game(svc, clock, channel, lang)
    out: list[Notice] = []
    for hours in (12, 10, 3, 24):
        clock.advance(hours=hours)
        out += await _tick(svc, gid)
    return out


async def test_reminders_flags_and_stalled_in_the_games_language(service: GameService) -> None:
    clock = FakeClock(T0)
    english = await _wait_policy_notices(service, clock, 10, "en")
    german = await _wait_policy_notices(service, clock, 11, "de")
    kinds = ["reminder", "reminder", "flag", "reminder", "stalled"]
    assert [n.kind for n in english] == [n.kind for n in german] == kinds
    assert english[0].text.startswith(
        "⏰ <@101>, a friendly reminder: it is your decision (choose colour)."
    )
    assert "looks stalled: 3 reminders unanswered (waiting for Ana)" in english[4].text
    for e, d in zip(english, german, strict=True):
        assert d.text != e.text and _no_fields(d.text), d.text
        assert "<@101>" in d.text if e.user_id else "Ana" in d.text
    assert german[0].text.startswith(
        "⏰ <@101>, eine freundliche Erinnerung: Du bist dran (Entscheidung: Farbe wählen)"
    )
    due = re.findall(r"<t:\d+:R>", english[0].text)
    assert due and due[0] in german[0].text  # the same deadline, in Discord's own words
    assert "Zeit von Ana ist abgelaufen" in german[2].text
    assert "3 Erinnerungen unbeantwortet" in german[4].text


async def test_a_reminder_is_in_the_players_own_language(service: GameService) -> None:
    clock = FakeClock(T0)
    gid = await _game(service, clock, 40, "de")
    await service.languages.set_user_language(ANA, "pl")
    clock.advance(hours=12)
    [n] = await _tick(service, gid)
    assert n.kind == "reminder"
    assert n.text.startswith(
        "⏰ <@101>, przyjazne przypomnienie: twoja kolej (decyzja: wybór koloru)."
    )
    clock.advance(hours=13)  # the flag is public: the game's language
    [flag] = await _tick(service, gid)
    assert flag.kind == "flag" and "Zeit von Ana ist abgelaufen" in flag.text


async def test_time_is_up_posts_in_the_games_language(service: GameService) -> None:
    clock = FakeClock(T0)
    gid = await _game(service, clock, 50, "de")
    await service.pacing.set_policy(gid, "default")
    await to_end_turn(service, gid)
    sched = await service.pacing.refresh(gid)
    _past_deadline(clock, sched)
    [post] = await _tick(service, gid)
    assert post.kind == "post" and post.result is not None
    text = post.result.posts[0].text
    st = await service.state(gid)
    who = seat_label(st, (await service.info(gid)).seats, 0, "de")
    assert who != seat_label(st, (await service.info(gid)).seats, 0, "en")  # the colour
    assert text == f"⌛ Die Zeit ist abgelaufen: die Standardantwort für {who}.", text
    # a turn's first step has no default answer: an AI stands in, said in German
    await to_turn_start(service, gid)
    sched = await service.pacing.refresh(gid)
    _past_deadline(clock, sched)
    [post] = await _tick(service, gid)
    assert post.result is not None
    text = post.result.posts[0].text
    assert "keine Standardantwort (Zug)" in text and "Eine KI (mittel)" in text, text
    assert "`/platz zurück`" in text and _no_fields(text)  # as a German client shows it
    # the status message's pacing lines name the stand-in, in German
    notes = (await service.pacing.refresh(gid)).notes
    assert any(line.startswith("🤖 Eine KI (mittel) spielt für Ana") for line in notes), notes
    back = await service.pacing.seats_back(gid, ANA, "Ana")
    assert back is not None and back.result is not None
    assert back.result.posts[0].text == "👋 Ana ist zurück und spielt wieder selbst."


async def test_the_status_pacing_lines_in_the_games_language(service: GameService) -> None:
    clock = FakeClock(T0)
    lines: dict[str, list[str]] = {}
    for n, lang in enumerate(("en", "de")):
        gid = await _game(service, clock, 60 + n, lang, bo=True)
        await service.pacing.away(gid, 0, "6h", by_user=ANA)
        await service.pacing.vote_pause(gid, ANA, True, at_once=True)
        lines[lang] = (await service.pacing.refresh(gid)).notes
    en, de = lines["en"], lines["de"]
    assert en[0].startswith("⏸️ The game is paused (since <t:")
    assert en[1].startswith("🏖️ Ana is away until <t:")
    assert en[-1] == "Pace: 24 h per decision; on timeout: wait and flag."
    assert len(de) == len(en) == 3
    for d, e in zip(de, en, strict=True):
        assert d != e and _no_fields(d), d
    assert de[-1] == "Tempo: 24 Std. pro Entscheidung; bei Zeitablauf: warten und melden."
    assert de[1].startswith("🏖️ Ana ist abwesend bis <t:")


async def test_a_stale_game_is_archived_in_its_language(service: GameService) -> None:
    clock = FakeClock(T0)
    gid = await _game(service, clock, 70, "pl")
    s = await service.pacing.settings(gid)
    await service.pacing.save_settings(gid, s.model_copy(update={"stale_days": 2.0}))
    clock.set(datetime.now(UTC) + timedelta(days=3))  # the game's last save is real time
    [n] = await _tick(service, gid)
    assert n.kind == "archived"
    assert n.text.startswith(f"🗄️ Gra #{gid} została zarchiwizowana: brak ruchu od 2 dni.")


# ============================================================================ pseudo-language


def _bare(text: str, names: list[str] = NAMES) -> list[str]:
    return unbracketed_words(text, names)


def test_pseudo_refusals_policies_and_reminders() -> None:
    for m in refusals():
        assert _bare(m.text(i18n.PSEUDO), [*NAMES, "no map for players"]) == [], m.key
    for s in (
        PacingSettings(policy="wait"),
        PacingSettings(policy="default"),
        PacingSettings(policy="default", stand_ins=False),
        PacingSettings(policy="ai"),
    ):
        assert _bare(s.policy_text(i18n.PSEUDO)) == []
    due = T0 + timedelta(hours=24)
    for kind in ("remind1", "remind2", "overdue1"):
        for what in ("turn", *get_args(PendingKind)):
            w = what_text(what, i18n.PSEUDO)
            for when in (due, None):
                text = reminder_text(kind, "<@101>", when, w, i18n.PSEUDO)
                assert _bare(text) == [], text
    assert _bare(format_duration(timedelta(days=1, hours=12), i18n.PSEUDO)) == []


async def test_pseudo_lobby(service: GameService) -> None:
    rec = await _lobby(service, 80, i18n.PSEUDO)
    text = lobby_text(rec)
    assert _bare(text, [*NAMES, "AI random"]) == [], text
    auto = await service.lobbies.open(
        81,
        7,
        ANA,
        scenario=None,
        players=2,
        ai_seats=0,
        ai_level="random",
        deadline_hours=12,
        language=i18n.PSEUDO,
    )
    assert _bare(lobby_text(auto)) == [], lobby_text(auto)


async def test_pseudo_notices_posts_and_status_lines(service: GameService) -> None:
    """Everything a slow game in the pseudo-language shows: reminders, the flag, stalled,
    the default answer, the AI stand-in, the seat back, the pacing lines, the archive."""
    clock = FakeClock(T0)
    texts = [n.text for n in await _wait_policy_notices(service, clock, 90, i18n.PSEUDO)]
    assert len(texts) == 5
    clock.set(T0)
    two = await _game(service, clock, 91, i18n.PSEUDO, bo=True)
    await service.pacing.away(two, 1, "6h", by_user=BO)
    await service.pacing.vote_pause(two, ANA, True, at_once=True)
    texts += (await service.pacing.refresh(two)).notes
    gid = await _game(service, clock, 92, i18n.PSEUDO)
    await service.pacing.set_policy(gid, "default")
    await to_end_turn(service, gid)
    sched = await service.pacing.refresh(gid)
    _past_deadline(clock, sched)
    for n in await _tick(service, gid):
        texts += [n.text] if n.result is None else [p.text for p in n.result.posts[:1]]
    await to_turn_start(service, gid)
    sched = await service.pacing.refresh(gid)
    _past_deadline(clock, sched)
    for n in await _tick(service, gid):
        texts += [n.text] if n.result is None else [p.text for p in n.result.posts[:1]]
    texts += (await service.pacing.refresh(gid)).notes
    back = await service.pacing.seats_back(gid, ANA, "Ana")
    assert back is not None and back.result is not None
    texts += [p.text for p in back.result.posts]
    s = await service.pacing.settings(gid)
    await service.pacing.save_settings(gid, s.model_copy(update={"stale_days": 2.0}))
    clock.set(datetime.now(UTC) + timedelta(days=3))
    texts += [n.text for n in await _tick(service, gid)]
    assert len(texts) == 14, texts
    st = await service.state(gid)
    colours = [p.colour or "" for p in st.players]
    for text in texts:
        assert "[" in text and _bare(text, [*NAMES, *colours]) == [], text


def test_the_service_s_and_the_storage_s_refusals_carry_their_message() -> None:
    import errno

    from service import Refused, catalog
    from storage import GameNotFound, NotAGameDatabase, SchemaTooNew
    from storage.location import parse_location
    from web.server import bind_error

    # a game the engine cannot set up: str() English (as before), text() any language
    with pytest.raises(Refused) as setup:
        catalog.build_game(2, "amazon", 1)
    e = setup.value
    assert str(e) == "Amazon is a map for 3 players, not 2" == e.text("en")
    assert e.text("pl") == "Amazonka: mapa dla 3 graczy, nie dla 2"
    assert unbracketed_words(e.text(i18n.PSEUDO)) == []
    # as a nested message (the lobby's "could not start"): in the outer message's language
    cannot = i18n.tr("de", "svc.lobby.cannot_start", error=e.param())
    assert cannot == "Das Spiel konnte nicht starten: " + e.text("de")
    assert Refused("plain").text("hu") == "plain" == Refused("plain").param()
    # a seat's text that names nobody
    with pytest.raises(Refused) as seat:
        SeatSpec.parse("  ")
    assert isinstance(seat.value, ValueError) and str(seat.value) == "empty seat name"
    assert seat.value.text("fr") == "une place sans nom"
    # storage: the English texts as they were, every language from the keys
    lost = GameNotFound(7)
    assert str(lost) == "no game with id 7" and lost.text("de") == "kein Spiel mit der ID 7"
    assert str(GameNotFound(channel_id=5)) == "no game in channel 5"
    new = SchemaTooNew(found=12, supported=9)
    assert str(new).startswith("the database has schema version 12, but this program only")
    assert new.text("fr").startswith("la base de données a la version de schéma 12")
    notdb = NotAGameDatabase.of("storage.error.not_sqlite_file", path="/tmp/x")
    assert str(notdb) == "/tmp/x is not an SQLite database: refusing to touch it"
    assert notdb.text("hu") == "/tmp/x: nem SQLite-adatbázis, a fájl érintetlen marad"
    assert NotAGameDatabase("no key").text("pl") == "no key"  # only its English
    with pytest.raises(Exception) as where:
        parse_location(" ")
    assert str(where.value) == "no database given: a file path or a postgresql:// URL"
    for lang in i18n.supported():
        assert lost.text(lang) and "{" not in new.text(lang)
    # why the page server cannot listen
    busy = OSError(errno.EADDRINUSE, "Address already in use")
    assert bind_error(busy) == "the port is in use: choose another one"
    assert bind_error(busy, lang="hu") == "a port foglalt: válassz másikat"
    denied = OSError(errno.EACCES, "Permission denied")
    assert bind_error(denied, lang="de") == (
        "Zugriff verweigert: Ports unter 1024 erfordern Administratorrechte"
    )
