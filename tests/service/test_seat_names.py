"""Computer seats and colours named in the reader's language (issue #32): a computer seat is
shown by its level's name in the reader's language ("Gép (közepes) 2"), never as the English
"AI heuristic 2" stored by older versions, and no colour id ("Red", "bow") stands raw in
another language's text. Every registered game, every language, through the service: its
posts (public and private), status, log, scores, board text, hands and web page."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import i18n
from rules.registry import registrations
from service import GameService
from service.results import SeatSpec, ai_name, seat_name
from storage import SqliteGameStore

GAMES = list(registrations())
LANGS = list(i18n.supported())
ENGLISH_AI = re.compile(r"\bAI\s*(random|heuristic|search)\b|\bai:\w", re.IGNORECASE)
_DATA_ID = re.compile(r"^[a-z0-9_:.#/-]*$")  # a field's id ("public", "blue"), not a text
_ID_KEY = re.compile(r"\.(?:colour|dynasty)\.([a-z]+)$")


def raw_ids(lang: str) -> set[str]:
    """The colour and dynasty ids (the last word of any ``*.colour.*``/``*.dynasty.*`` key
    of the English catalogue) that are not a word of ``lang``'s own catalogue: such a word
    in a text of ``lang`` is an id left raw ("Red uralkodót választ")."""
    ids = {m.group(1) for k in i18n.catalogue("en").messages if (m := _ID_KEY.search(k))}
    words = {
        w.lower() for v in i18n.catalogue(lang).messages.values() for w in re.findall(r"\w+", v)
    }
    return {i for i in ids if i not in words}


def strings(obj: Any) -> Iterator[str]:
    """Every string in a result object (dataclasses, lists, dicts, …), nested."""
    if isinstance(obj, str):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name not in ("frames", "events", "images"):
                yield from strings(getattr(obj, f.name))
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from strings(v)


async def game_texts(
    tmp_path: Path, game: str, lang: str, *, max_steps: int
) -> tuple[list[str], list[SeatSpec]]:
    """A seeded game of computer seats (all at one level: numbered names) in ``lang``, and
    every text the service shows of it."""
    reg = registrations()[game]
    players = max(2, min(3, reg.max_players))
    async with SqliteGameStore(str(tmp_path / f"{game}-{lang}.sqlite3")) as store:
        svc = GameService(store)
        res = await svc.new_game(["ai:random"] * players, seed=5, language=lang, game=game)
        texts = list(strings(res))
        step_texts: list[str] = []

        async def seen(step: Any) -> None:
            step_texts.extend(strings(step.posts))
            step_texts.extend(strings(step.next))

        await svc.run_ai_turns(res.game_id, max_steps=max_steps, on_step=seen)
        texts += step_texts
        s = await svc.peek(res.game_id)
        texts.append(s.status(lang).text(lang))
        texts += await svc.reading.log(res.game_id, last=100_000, lang=lang)
        texts += [r.who for r in await svc.reading.scores(res.game_id, lang=lang)]
        texts += list(strings((await svc.reading.board(res.game_id, 0, lang=lang)).posts))
        for seat in range(players):
            texts += list(strings((await svc.reading.hand(res.game_id, seat, lang=lang)).posts))
        archive = await svc.archive.archive(res.game_id, lang=lang)
        texts += [archive.title, *(t for step in archive.steps for t in strings(step))]
        texts += list(strings(await svc.archive.live(res.game_id, lang=lang)))
        return [t for t in texts if t and not _DATA_ID.match(t)], list(s.seats)


def check(texts: list[str], seats: list[SeatSpec], lang: str) -> None:
    english = [t for t in texts if ENGLISH_AI.search(t)]
    assert not english, f"{lang}: computer seats named in English: {english[:3]}"
    names = [seat_name(seats, i, lang) for i in range(len(seats))]
    assert len(set(names)) == len(names), names  # several of one level: numbered
    assert all(any(n in t for t in texts) for n in names), (names, texts[:5])
    banned = raw_ids(lang)
    if banned:
        pattern = re.compile(r"\b(" + "|".join(sorted(banned)) + r")\b", re.IGNORECASE)
        raw = [t for t in texts if pattern.search(t)]
        assert not raw, f"{lang}: raw colour ids: {raw[:3]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
async def test_the_first_steps_name_seats_and_colours_in_the_language(
    tmp_path: Path, game: str, lang: str
) -> None:
    texts, seats = await game_texts(tmp_path, game, lang, max_steps=40)
    check(texts, seats, lang)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_names_seats_and_colours_in_the_language(
    tmp_path: Path, game: str, lang: str
) -> None:
    texts, seats = await game_texts(tmp_path, game, lang, max_steps=100_000)
    check(texts, seats, lang)


def test_raw_ids_are_found() -> None:  # the check above can fail
    assert raw_ids("hu") and "red" in raw_ids("hu")
    assert "red" not in raw_ids("en")


@pytest.mark.parametrize("lang", LANGS)
def test_a_computer_seat_is_named_by_its_level_in_each_language(lang: str) -> None:
    seats = [
        SeatSpec("Ana", user_id=1),
        SeatSpec.parse("ai:heuristic"),
        SeatSpec("AI heuristic 3", ai="heuristic"),  # an older record's English name
        SeatSpec("AI search 4", ai="search"),
        SeatSpec("Bo", ai="random", user_id=2),  # a stand-in keeps its player's name
        SeatSpec("Robô", ai="random"),  # a name someone gave is kept
    ]
    names = [seat_name(seats, i, lang) for i in range(len(seats))]
    assert names[0] == "Ana" and names[4] == "Bo" and names[5] == "Robô"
    assert names[1] == ai_name(lang, "heuristic", 1) and names[2] == ai_name(lang, "heuristic", 2)
    assert names[3] == ai_name(lang, "search")  # the only one of its level: no number
    assert len(set(names)) == len(names)
    for n in names[1:4]:
        assert not ENGLISH_AI.search(n) and "{" not in n, n
    words = {ai_name(lang, lv) for lv in ("random", "heuristic", "search")}
    assert len(words) == 3


def test_the_names_read_natively() -> None:
    assert ai_name("en", "heuristic") == "Computer (normal)"
    assert ai_name("hu", "heuristic", 2) == "Gép (közepes) 2"
    assert ai_name("pl", "search") == "Komputer (mocny)"


async def test_an_older_records_english_names_show_localized(tmp_path: Path) -> None:
    """A game saved with the English default names ("AI random 2") reads in Hungarian."""
    game = GAMES[0]
    async with SqliteGameStore(str(tmp_path / "old.sqlite3")) as store:
        svc = GameService(store)
        old = [SeatSpec("AI random 1", ai="random"), SeatSpec("AI random 2", ai="random")]
        res = await svc.new_game(old, seed=3, language="hu", game=game)
        res = await svc.run_ai_turns(res.game_id, max_steps=10)
        texts = list(strings(res.posts)) + await svc.reading.log(res.game_id, lang="hu")
        assert texts and not [t for t in texts if ENGLISH_AI.search(t)]
        assert any(ai_name("hu", "random", 2) in t for t in texts)


async def undone_text(svc: GameService, game: str, lang: str) -> tuple[str, str, str] | None:
    """A game in ``lang`` of one human and computer seats: the human's first step that may be
    taken back, taken back; (the public post, the step in ``lang``'s words, the English
    description), or None when the game never lets a step be taken back."""
    import random

    from service.games import adapter

    A = adapter(game)
    players = max(2, registrations()[game].min_players)
    seats = ["Ana", *["ai:random"] * (players - 1)]
    res = await svc.new_game(seats, seed=7, language=lang, game=game)
    gid, rng = res.game_id, random.Random(2)
    for _ in range(200):
        await svc.run_ai_turns(gid)
        s = await svc.peek(gid)
        if s.over:
            return None
        legal = await svc.legal(gid, 0)
        if not legal:
            return None
        before = s.state
        out = await svc.act(gid, 0, rng.choice(legal))
        assert out.ok, out.errors
        if out.undo_allowed:
            entry = (await svc.store.get_log(gid, from_version=out.version))[-1]
            action = A.parse_action(entry.action_json)
            undone = await svc.undo(gid, 0)
            assert undone.ok, undone.errors
            post = undone.public()[0].text
            return post, A.describe_in(before, action, lang), A.describe(before, action)
    return None


@pytest.mark.parametrize("lang", ["hu", "pl"])
async def test_the_undo_confirmation_says_the_step_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    """ "Ana visszavonta: …": the step taken back in the game's language, not the English
    log's sentence ("Place or move the king to B1.")."""
    found = 0
    async with SqliteGameStore(str(tmp_path / "undo.sqlite3")) as store:
        svc = GameService(store)
        for game in GAMES:
            got = await undone_text(svc, game, lang)
            if got is None:
                continue
            post, words, english = got
            found += 1
            assert words and words in post, (game, post, words)
            assert english not in post, (game, post)
            assert i18n.tr(lang, "svc.core.took_back", who="X", what="Y").split("X")[1][:3] in post
    assert found, "no registered game let a step be taken back"
